# fftgen sweep on the Vulkan device (lavapipe in CI): every variant is verified and timed through
# fftgen-vk, with the spread of its trials and its twins; sweep.html, rendered by headless Chromium,
# shows one table row and one bar of each chart per variant (its script builds them from the inline
# data, so a broken page shows none), fits a 1,400 px window, and screenshots to a real picture.
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

# Each variant's trials (fftgen-vk bench --trials 2) with their range around the median; every twin
# pair timed against that spread; a progress line for each fftgen-vk phase.
foreach(i RANGE ${last})
  string(JSON trials LENGTH "${report}" variants ${i} device trial_ms)
  string(JSON low GET "${report}" variants ${i} device min_ms)
  string(JSON high GET "${report}" variants ${i} device max_ms)
  string(JSON ms GET "${report}" variants ${i} device median_ms)
  if(NOT trials EQUAL 2 OR low GREATER ms OR ms GREATER high)
    message(FATAL_ERROR "variant ${i}: ${trials} trials, ${low} <= ${ms} <= ${high} does not hold")
  endif()
endforeach()
string(JSON twins LENGTH "${report}" twins)
if(NOT twins EQUAL 7)
  message(FATAL_ERROR "expected 7 twin pairs (3 index_math, 2 radices, 2 shape), got ${twins}")
endif()
math(EXPR last_twin "${twins} - 1")
set(within 0)
foreach(t RANGE ${last_twin})
  string(JSON delta GET "${report}" twins ${t} time delta_ms)
  string(JSON spread GET "${report}" twins ${t} time spread_ms)
  string(JSON within_spread GET "${report}" twins ${t} time within_spread)
  if(within_spread)
    math(EXPR within "${within} + 1")
  endif()
endforeach()
foreach(phase "fftgen-vk verify of 6 kernels" "fftgen-vk bench of 6 kernels --bytes" "fftgen-vk stats of 6 kernels")
  if(NOT out MATCHES "fftgen: sweep: ${phase}[^\n]*\\.\\.\\.\nfftgen: sweep:   done \\([0-9.]+ s\\)")
    message(FATAL_ERROR "no progress for '${phase}':\n${out}")
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
          --window-size=1400,1000 --dump-dom file://${WORK_DIR}/sweep/sweep.html
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
math(EXPR expected_rows "2 * ${variants}")  # after and before spirv-opt
if(NOT row_count EQUAL expected_rows OR NOT bar_count EQUAL variants OR NOT skipped_count EQUAL skipped)
  message(FATAL_ERROR "rendered sweep.html: ${row_count} rows, ${bar_count} bars, ${skipped_count} skipped "
                      "(expected ${expected_rows}, ${variants}, ${skipped})")
endif()
# Each row is its variant, in order, with its measured GB/s in the chart title.
string(JSON first GET "${report}" variants 0 name)
if(NOT dom MATCHES "<tr class=\"variant\"><td>${first}</td>" OR NOT dom MATCHES "GB/s \\(higher is faster\\)")
  message(FATAL_ERROR "rendered rows do not start with the variant names, or the chart is not of GB/s")
endif()

# The plots, built by the page's script: time bars with min..max error bars, the scatter of
# instructions against time, the div/mod and shift bars (4 per variant), the twins' time chart and
# tables (one warning per twin whose difference is within the spread), the before-spirv-opt table.
set(expected "time-bar:${variants}" "point:${variants}" "mix-bar:${variants}x4" "twin-bar:${twins}"
    "twin:${twins}" "twin-device:${twins}" "warning:${within}+")
foreach(item IN LISTS expected)
  string(REGEX MATCH "^([a-z-]+):([0-9]+)(x4)?(\\+)?$" _ "${item}")
  set(class ${CMAKE_MATCH_1})
  set(count ${CMAKE_MATCH_2})
  set(at_least "${CMAKE_MATCH_4}")
  if(CMAKE_MATCH_3)
    math(EXPR count "${count} * 4")
  endif()
  string(REGEX MATCHALL "class=\"${class}\"" found "${dom}")
  list(LENGTH found found_count)
  if((at_least AND found_count LESS count) OR (NOT at_least AND NOT found_count EQUAL count))
    message(FATAL_ERROR "rendered sweep.html: ${found_count} elements of class ${class}, expected ${item}")
  endif()
endforeach()
string(REGEX MATCHALL "<line class=\"errorbar\"" errorbars "${dom}")
list(LENGTH errorbars errorbar_count)
math(EXPR expected_errorbars "${variants} * 4")  # 3 lines per time bar, 1 per scatter point
if(NOT errorbar_count EQUAL expected_errorbars)
  message(FATAL_ERROR "rendered sweep.html: ${errorbar_count} error-bar lines, expected ${expected_errorbars}")
endif()
if(NOT dom MATCHES "<a href=\"twins/[^\"]+__vs__[^\"]+\\.diff\">\\+[0-9]+ −[0-9]+</a>")
  message(FATAL_ERROR "rendered sweep.html: no link to a twin's diff")
endif()

# Readable at 1,400 px: nothing wider than the window (wide tables scroll inside their boxes);
# the page records its laid-out width.
string(REGEX MATCH "data-scroll-width=\"([0-9]+)\"" _ "${dom}")
if(NOT CMAKE_MATCH_1 OR CMAKE_MATCH_1 GREATER 1400)
  message(FATAL_ERROR "sweep.html at a 1400 px window is '${CMAKE_MATCH_1}' px wide")
endif()

# A screenshot at 1,400 px: a PNG of that width with the page drawn in it (a blank or failed page
# compresses to a few kilobytes).
set(png ${WORK_DIR}/sweep-1400.png)
execute_process(
  COMMAND ${CHROMIUM} --headless=new --no-sandbox --disable-gpu --hide-scrollbars
          --user-data-dir=${WORK_DIR}/chromium-profile --window-size=1400,2000 --screenshot=${png}
          file://${WORK_DIR}/sweep/sweep.html
  RESULT_VARIABLE rc ERROR_VARIABLE chromium_log OUTPUT_QUIET TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT EXISTS ${png})
  message(FATAL_ERROR "chromium --screenshot failed (${rc}):\n${chromium_log}")
endif()
file(READ ${png} header LIMIT 24 HEX)
string(SUBSTRING "${header}" 0 16 signature)
string(SUBSTRING "${header}" 32 8 width_hex)
string(SUBSTRING "${header}" 40 8 height_hex)
math(EXPR width "0x${width_hex}")
math(EXPR height "0x${height_hex}")
file(SIZE ${png} png_bytes)
if(NOT signature STREQUAL "89504e470d0a1a0a" OR NOT width EQUAL 1400 OR height LESS 1000 OR png_bytes LESS 40000)
  message(FATAL_ERROR "screenshot ${png}: signature ${signature}, ${width} x ${height}, ${png_bytes} bytes")
endif()
