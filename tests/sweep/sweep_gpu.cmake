# fftgen sweep on the Vulkan device (lavapipe in CI): every variant is verified and timed through
# fftgen-vk; sweep.html, rendered by headless Chromium, shows one table row and one chart bar per
# variant (its script builds both from the inline data, so a broken page shows none).
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
include(${SOURCE_DIR}/tests/cli/include/expect_run.cmake)

# 2 x 2 = 4 variants, and 2 impossible radix splits skipped.
file(WRITE ${WORK_DIR}/plan.json [=[
{"targets": ["spirv"], "kernels": [
  {"name": "g", "shape": [[64], [256]], "radices": ["auto", [4, 4, 4]], "index_math": ["bitwise", "divmod"]}]}
]=])
expect_run(0 out sweep ${WORK_DIR}/plan.json -o ${WORK_DIR}/sweep --vk ${FFTGEN_VK} --bytes 256KiB --trials 2)
file(READ ${WORK_DIR}/sweep/sweep.json report)
string(JSON variants LENGTH "${report}" variants)
string(JSON skipped LENGTH "${report}" skipped)
if(NOT variants EQUAL 6 OR NOT skipped EQUAL 2)
  message(FATAL_ERROR "expected 6 variants and 2 skipped, got ${variants} and ${skipped}\n${out}")
endif()
string(JSON device_name GET "${report}" device name)
if(device_name STREQUAL "")
  message(FATAL_ERROR "sweep.json names no device\n${out}")
endif()
# fftgen-vk stats ran: lavapipe offers no pipeline statistics and says so; a driver that does
# gives each variant its passes' statistics.
file(READ ${WORK_DIR}/sweep/stats.json stats)
string(JSON supported GET "${stats}" supported)
string(JSON stats_kernels LENGTH "${stats}" kernels)
if(supported AND NOT stats_kernels EQUAL variants)
  message(FATAL_ERROR "stats.json: supported but ${stats_kernels} kernels for ${variants} variants")
endif()
math(EXPR last "${variants} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${report}" variants ${i} name)
  string(JSON gbps GET "${report}" variants ${i} device gb_per_s)
  string(JSON ms GET "${report}" variants ${i} device median_ms)
  string(JSON error GET "${report}" variants ${i} device rel_l2_forward)
  string(JSON verified GET "${report}" variants ${i} device verified)
  if(NOT gbps GREATER 0 OR NOT ms GREATER 0 OR NOT verified OR error GREATER 1e-5)
    message(FATAL_ERROR "${name}: GB/s ${gbps}, ms ${ms}, verified ${verified}, rel. L2 ${error}")
  endif()
endforeach()

# The same figures through --results (measured on another machine): taken from the folder's
# verify.json and bench.json, not run again.
expect_run(0 out sweep ${WORK_DIR}/plan.json -o ${WORK_DIR}/elsewhere --results ${WORK_DIR}/sweep)
file(READ ${WORK_DIR}/elsewhere/sweep.json again)
foreach(field gb_per_s rel_l2_forward)
  string(JSON measured GET "${report}" variants 3 device ${field})
  string(JSON taken GET "${again}" variants 3 device ${field})
  if(NOT measured STREQUAL taken)
    message(FATAL_ERROR "--results: ${field} ${taken}, the measurement said ${measured}")
  endif()
endforeach()
if(EXISTS ${WORK_DIR}/elsewhere/bench.json)
  message(FATAL_ERROR "--results ran fftgen-vk")
endif()

find_program(CHROMIUM NAMES chromium chromium-browser)
if(NOT CHROMIUM)
  message(FATAL_ERROR "Debian's chromium is needed to render sweep.html (scripts/deps.sh installs it)")
endif()
execute_process(
  COMMAND ${CHROMIUM} --headless --no-sandbox --disable-gpu --user-data-dir=${WORK_DIR}/chromium-profile
          --dump-dom file://${WORK_DIR}/sweep/sweep.html
  RESULT_VARIABLE rc OUTPUT_VARIABLE dom ERROR_VARIABLE chromium_log TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "chromium --dump-dom failed (${rc}):\n${chromium_log}")
endif()
string(REGEX MATCHALL "<tr class=\"variant\">" rows "${dom}")
string(REGEX MATCHALL "<rect class=\"bar\"" bars "${dom}")
string(REGEX MATCHALL "<li class=\"skipped\">" skipped_items "${dom}")
list(LENGTH rows row_count)
list(LENGTH bars bar_count)
list(LENGTH skipped_items skipped_count)
if(NOT row_count EQUAL variants OR NOT bar_count EQUAL variants OR NOT skipped_count EQUAL skipped)
  message(FATAL_ERROR "rendered sweep.html: ${row_count} rows, ${bar_count} bars, ${skipped_count} skipped "
                      "(expected ${variants}, ${variants}, ${skipped})")
endif()
# Each row is its variant, in order, with its measured GB/s in the chart title.
string(JSON first GET "${report}" variants 0 name)
if(NOT dom MATCHES "<tr class=\"variant\"><td>${first}</td>" OR NOT dom MATCHES "GB/s \\(higher is faster\\)")
  message(FATAL_ERROR "rendered rows do not start with the variant names, or the chart is not of GB/s")
endif()
