# Shared by the package tests (cmake -P scripts). run(WHAT OUT_VAR COMMAND...) runs a command and
# fails the test, showing its output, unless it exits 0; OUT_VAR gets stdout and stderr together.
cmake_minimum_required(VERSION 3.20)

function(run what out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(JOIN " " shown ${ARGN})
    message(FATAL_ERROR "${what} failed (exit ${rc}): ${shown}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

# Fails unless `text` matches every regular expression in `patterns`; `what` names the text.
function(expect_match what text)
  foreach(pattern IN LISTS ARGN)
    if(NOT text MATCHES "${pattern}")
      message(FATAL_ERROR "${what}: expected to match '${pattern}':\n${text}")
    endif()
  endforeach()
endfunction()

# fftgen inside examples/consumer's Ninja build in `build` (add_subdirectory or FetchContent) sets no
# CMAKE_BUILD_TYPE in the consumer's cache, defines the targets the consumer uses and adds no test,
# benchmark or tool to its build.
function(expect_guest_build build)
  file(STRINGS ${build}/CMakeCache.txt build_type REGEX "^CMAKE_BUILD_TYPE:")
  if(NOT build_type STREQUAL "CMAKE_BUILD_TYPE:STRING=")
    message(FATAL_ERROR "fftgen set the consumer's cache: ${build_type}")
  endif()
  run("listing targets" targets ${CMAKE_COMMAND} --build ${build} -- -t targets all)  # Ninja's list
  expect_match("the consumer's targets" "${targets}" "(^|\n)consumer:" "(^|\n)fftgen:" "(^|\n)fftgen_runtime:"
               "(^|\n)consumer_fftgen_kernels:")
  foreach(unwanted test_plan test_gpu_suite fftgen-bench fftgen_vkfft_peer fftgen-vk fftgen_runtime_tools)
    if(targets MATCHES "(^|\n)${unwanted}:")
      message(FATAL_ERROR "fftgen added '${unwanted}' to the consumer's build:\n${targets}")
    endif()
  endforeach()
endfunction()

# Arguments that make a nested configure use the compiler fftgen was built with (COMPILER comes
# from tests/CMakeLists.txt).
set(nested_args "")
if(COMPILER)
  set(nested_args -DCMAKE_CXX_COMPILER=${COMPILER})
endif()
