# Every malformed plan in tests/plans/bad must make the fftgen CLI fail cleanly: exit code 1,
# stderr starting with "fftgen: error:" and holding the message expected.tsv names, and no output
# directory left behind (a build step must not mistake a half-written directory for a result).
#   cmake -DFFTGEN=<fftgen> -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -P bad_plans.cmake
cmake_minimum_required(VERSION 3.20)

foreach(var FFTGEN SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "bad_plans.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT EXISTS "${FFTGEN}")
  message(FATAL_ERROR "bad_plans.cmake: fftgen CLI not found at '${FFTGEN}'")
endif()

set(bad_dir "${SOURCE_DIR}/tests/plans/bad")
file(MAKE_DIRECTORY "${WORK_DIR}")

# expected.tsv: "file<TAB>substring" per line; '#' lines are comments. The file is split by hand
# rather than read as a CMake list, because expected substrings may contain ';' and brackets.
file(READ "${bad_dir}/expected.tsv" tsv)
set(expected_files "")
set(failures 0)
set(checked 0)
while(NOT tsv STREQUAL "")
  string(FIND "${tsv}" "\n" eol)
  if(eol EQUAL -1)
    set(line "${tsv}")
    set(tsv "")
  else()
    string(SUBSTRING "${tsv}" 0 ${eol} line)
    math(EXPR rest_start "${eol} + 1")
    string(SUBSTRING "${tsv}" ${rest_start} -1 tsv)
  endif()
  string(REGEX REPLACE "\r$" "" line "${line}")
  if(line STREQUAL "" OR line MATCHES "^#")
    continue()
  endif()
  string(FIND "${line}" "\t" tab)
  if(tab LESS 1)
    message(FATAL_ERROR "expected.tsv: line without 'file<TAB>substring': ${line}")
  endif()
  string(SUBSTRING "${line}" 0 ${tab} file)
  math(EXPR sub_start "${tab} + 1")
  string(SUBSTRING "${line}" ${sub_start} -1 expected)

  set(plan "${bad_dir}/${file}")
  if(NOT EXISTS "${plan}")
    message(SEND_ERROR "expected.tsv names '${file}', which does not exist")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()
  list(APPEND expected_files "${file}")

  get_filename_component(stem "${file}" NAME_WE)
  set(out_dir "${WORK_DIR}/out_${stem}")
  file(REMOVE_RECURSE "${out_dir}")
  execute_process(
    COMMAND "${FFTGEN}" "${plan}" -o "${out_dir}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  math(EXPR checked "${checked} + 1")

  set(problems "")
  if(NOT "${rc}" STREQUAL "1")
    string(APPEND problems "\n  exit code is '${rc}', expected 1")
  endif()
  string(FIND "${err}" "fftgen: error:" prefix_at)
  if(NOT prefix_at EQUAL 0)
    string(APPEND problems "\n  stderr does not begin with 'fftgen: error:'")
  endif()
  string(FIND "${err}" "${expected}" found_at)
  if(found_at EQUAL -1)
    string(APPEND problems "\n  stderr does not contain: ${expected}")
  endif()
  if(EXISTS "${out_dir}")
    string(APPEND problems "\n  output directory was created: ${out_dir}")
  endif()
  if(NOT problems STREQUAL "")
    message(SEND_ERROR "${file}:${problems}\n  stdout: ${out}\n  stderr: ${err}")
    math(EXPR failures "${failures} + 1")
  endif()
endwhile()

# Every plan in the folder must be checked: a file without a line would pass silently.
file(GLOB plans RELATIVE "${bad_dir}" "${bad_dir}/*.json")
foreach(file IN LISTS plans)
  if(NOT file IN_LIST expected_files)
    message(SEND_ERROR "${file} has no line in expected.tsv")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()

if(failures GREATER 0)
  message(FATAL_ERROR "bad_plans: ${failures} problem(s) in ${checked} plan(s) run")
endif()
message(STATUS "bad_plans: ${checked} malformed plans rejected as expected")
