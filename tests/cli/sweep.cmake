# fftgen sweep without a Vulkan device: one row per possible variant in sweep.json and sweep.md,
# the impossible combinations listed with their reason (a normal generation still refuses the
# plan), the instruction mix telling divmod from bitwise index math; and `fftgen -j N` writes the
# same files as `-j 1`.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/include/expect_run.cmake)

# 2 shapes x 3 radix choices x 2 index maths = 12 combinations; [4, 4, 4] and [16, 64] each fit one
# shape only, so 4 are impossible and 8 remain.
file(WRITE ${WORK_DIR}/plan.json [=[
{"targets": ["spirv", "hlsl", "msl"], "kernels": [
  {"name": "x", "shape": [[64], [1024]], "radices": ["auto", [4, 4, 4], [16, 64]],
   "index_math": ["bitwise", "divmod"], "direction": "forward"}]}
]=])
expect_run(1 out ${WORK_DIR}/plan.json --dry-run)
if(NOT out MATCHES "radices \\[16, 64\\] multiply to 1024, but N = 64")
  message(FATAL_ERROR "a normal plan should refuse the impossible combination:\n${out}")
endif()

expect_run(0 out sweep ${WORK_DIR}/plan.json -o ${WORK_DIR}/sweep)
file(READ ${WORK_DIR}/sweep/sweep.json report)
string(JSON variants LENGTH "${report}" variants)
string(JSON skipped LENGTH "${report}" skipped)
if(NOT variants EQUAL 8 OR NOT skipped EQUAL 4)
  message(FATAL_ERROR "expected 8 variants and 4 skipped, got ${variants} and ${skipped}")
endif()
string(JSON name GET "${report}" skipped 0 name)
string(JSON reason GET "${report}" skipped 0 reason)
if(NOT name STREQUAL "x__n64__r16x64__bitwise" OR NOT reason MATCHES "multiply to 1024, but N = 64")
  message(FATAL_ERROR "first skipped: ${name}: ${reason}")
endif()
string(JSON varying GET "${report}" varying_fields)
if(NOT varying MATCHES "shape.*radices.*index_math")
  message(FATAL_ERROR "varying fields: ${varying}")
endif()

# Index math shows in the instruction mix: divmod's variants divide, bitwise's never do; the
# bitwise 1024-point kernel shifts and masks more than its divmod twin.
math(EXPR last "${variants} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${report}" variants ${i} name)
  string(JSON before GET "${report}" variants ${i} forward before_opt int_divmod)
  string(JSON after GET "${report}" variants ${i} forward after_opt int_divmod)
  string(JSON total GET "${report}" variants ${i} forward after_opt total)
  string(JSON hlsl GET "${report}" variants ${i} hlsl_bytes)
  string(JSON passes GET "${report}" variants ${i} forward passes)
  if(name MATCHES "divmod" AND before EQUAL 0)
    message(FATAL_ERROR "${name}: no integer division before spirv-opt")
  endif()
  if(name MATCHES "bitwise" AND (NOT before EQUAL 0 OR NOT after EQUAL 0))
    message(FATAL_ERROR "${name}: ${before}/${after} integer divisions with bitwise index math")
  endif()
  if(total LESS 50 OR hlsl LESS 1000 OR NOT passes EQUAL 1)
    message(FATAL_ERROR "${name}: implausible total ${total}, HLSL bytes ${hlsl}, passes ${passes}")
  endif()
  string(JSON spv_name GET "${report}" variants ${i} forward pass_details 0 name)
  file(SIZE ${WORK_DIR}/sweep/kernels/${name}.${spv_name}.hlsl hlsl_file)
  if(NOT hlsl_file EQUAL hlsl)
    message(FATAL_ERROR "${name}: hlsl_bytes ${hlsl}, but the file has ${hlsl_file} bytes")
  endif()
endforeach()
string(JSON shifts_bitwise GET "${report}" variants 4 forward before_opt shifts_masks)
string(JSON shifts_divmod GET "${report}" variants 5 forward before_opt shifts_masks)
if(NOT shifts_bitwise GREATER shifts_divmod)
  message(FATAL_ERROR "bitwise ${shifts_bitwise} shifts/masks, divmod ${shifts_divmod}")
endif()

# sweep.md: one table row per variant in each of its two tables; the skipped ones listed.
file(STRINGS ${WORK_DIR}/sweep/sweep.md rows REGEX "^\\| x__")
list(LENGTH rows row_count)
file(STRINGS ${WORK_DIR}/sweep/sweep.md skipped_lines REGEX "^- `x__")
list(LENGTH skipped_lines skipped_count)
if(NOT row_count EQUAL 16 OR NOT skipped_count EQUAL 4)
  message(FATAL_ERROR "sweep.md: ${row_count} rows (expected 2 x 8), ${skipped_count} skipped (expected 4)")
endif()
file(READ ${WORK_DIR}/sweep/sweep.html html)
if(NOT html MATCHES "<script type=\"application/json\" id=\"sweep-data\">{" OR html MATCHES "src=|href=")
  message(FATAL_ERROR "sweep.html is not self-contained or lacks its data")
endif()

# Targets without SPIR-V: the sweep generates it anyway (it counts instructions in it); the
# targets the plan leaves out have no size.
file(WRITE ${WORK_DIR}/msl.json [=[{"targets": ["msl"], "kernels": [{"name": "m", "shape": [64], "index_math": ["bitwise", "divmod"]}]}]=])
expect_run(0 out sweep ${WORK_DIR}/msl.json -o ${WORK_DIR}/msl)
file(READ ${WORK_DIR}/msl/sweep.json report)
string(JSON msl GET "${report}" variants 1 msl_bytes)
string(JSON hlsl_type TYPE "${report}" variants 1 hlsl_bytes)
string(JSON divmods GET "${report}" variants 1 inverse before_opt int_divmod)
if(NOT msl GREATER 1000 OR NOT hlsl_type STREQUAL "NULL" OR NOT divmods GREATER 0)
  message(FATAL_ERROR "MSL-only sweep: msl_bytes ${msl}, hlsl_bytes ${hlsl_type}, inverse div/mod ${divmods}")
endif()

# Every variant impossible: a clear error.
file(WRITE ${WORK_DIR}/none.json [=[{"kernels": [{"name": "y", "shape": [64], "radices": [[16, 16], [8, 16]]}]}]=])
expect_run(1 out sweep ${WORK_DIR}/none.json -o ${WORK_DIR}/none)
if(NOT out MATCHES "every variant is impossible")
  message(FATAL_ERROR "unclear error for a plan with no possible variant:\n${out}")
endif()

# A --results folder or --vk program that is not there: exit 1, naming it.
expect_run(1 out sweep ${WORK_DIR}/msl.json -o ${WORK_DIR}/r --results ${WORK_DIR}/no-such-folder)
if(NOT out MATCHES "--results: no folder '[^']*no-such-folder'")
  message(FATAL_ERROR "unclear error for a missing --results folder:\n${out}")
endif()
expect_run(1 out sweep ${WORK_DIR}/msl.json -o ${WORK_DIR}/r --results ${WORK_DIR}/msl)
if(NOT out MATCHES "has none of verify.json, bench.json, stats.json")
  message(FATAL_ERROR "unclear error for a --results folder without results:\n${out}")
endif()
expect_run(1 out sweep ${WORK_DIR}/msl.json -o ${WORK_DIR}/r --vk ${WORK_DIR}/no-such-fftgen-vk)
if(NOT out MATCHES "--vk: no such file '[^']*no-such-fftgen-vk'")
  message(FATAL_ERROR "unclear error for a missing --vk program:\n${out}")
endif()

# Bench options fftgen-vk would refuse, and --results files that are not fftgen-vk's: exit 1 before
# anything is measured or reported (they ended in exit 0 without device figures, or a raw
# [json.exception.type_error.302]).
expect_run(1 out sweep ${WORK_DIR}/msl.json -o ${WORK_DIR}/r --vk ${FFTGEN} --trials 0)
if(NOT out MATCHES "--trials: Value 0 not in range 1 to 1000000")
  message(FATAL_ERROR "sweep --trials 0:\n${out}")
endif()
foreach(bytes abc 0 1e30)
  expect_run(1 out sweep ${WORK_DIR}/msl.json -o ${WORK_DIR}/r --vk ${FFTGEN} --bytes ${bytes})
  if(NOT out MATCHES "--bytes: '${bytes}' (is not a size|must be positive and below 2\\^63 bytes)")
    message(FATAL_ERROR "sweep --bytes ${bytes}:\n${out}")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK_DIR}/forged)
foreach(case "{\"device\": 3, \"results\": []}|'device' must be a string \\(found 3\\)"
             "{\"results\": [{\"name\": \"x\", \"median_ms\": -1}]}|results\\[0\\].median_ms must be a non-negative number or null \\(found -1\\)"
             "{\"results\": [{\"name\": \"x\", \"gb_per_s\": \"fast\"}]}|results\\[0\\].gb_per_s must be a non-negative number")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 content)
  list(GET case 1 message)
  file(WRITE ${WORK_DIR}/forged/bench.json "${content}")
  expect_run(1 out sweep ${WORK_DIR}/msl.json -o ${WORK_DIR}/r --results ${WORK_DIR}/forged)
  if(NOT out MATCHES "--results: [^:]*bench.json: ${message}")
    message(FATAL_ERROR "--results bench.json ${content}:\n${out}")
  endif()
endforeach()

# Parallel generation: byte-identical to serial.
file(WRITE ${WORK_DIR}/jobs.json [=[
{"kernels": [{"name": "j", "shape": [[64], [256], [2048]], "index_math": ["bitwise", "divmod"],
              "twiddles": ["table", "computed"]}]}
]=])
expect_run(0 out ${WORK_DIR}/jobs.json -o ${WORK_DIR}/serial -j 1 -q)
expect_run(0 out ${WORK_DIR}/jobs.json -o ${WORK_DIR}/parallel -j 4)
file(GLOB serial_files RELATIVE ${WORK_DIR}/serial ${WORK_DIR}/serial/*)
file(GLOB parallel_files RELATIVE ${WORK_DIR}/parallel ${WORK_DIR}/parallel/*)
list(LENGTH serial_files file_count)
if(NOT serial_files STREQUAL parallel_files OR file_count LESS 50)
  message(FATAL_ERROR "-j 4 wrote other files than -j 1 (${file_count})")
endif()
foreach(f IN LISTS serial_files)
  file(SHA256 ${WORK_DIR}/serial/${f} a)
  file(SHA256 ${WORK_DIR}/parallel/${f} b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${f} differs between -j 1 and -j 4")
  endif()
endforeach()
# Not a terminal: no progress output, only the summary line.
if(out MATCHES "\\[")
  message(FATAL_ERROR "progress output with stdout not a terminal:\n${out}")
endif()
