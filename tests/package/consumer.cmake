# examples/consumer, as an engine takes fftgen in: MODE=package configures it against the prefix the
# package_install test filled (find_package); MODE=subdirectory builds fftgen from SOURCE_DIR inside
# it (add_subdirectory). Either way the consumer generates its plan at build time, embeds the kernels
# and runs them on the local Vulkan device (lavapipe here) with the validation layer, against a
# direct DFT. In subdirectory mode, fftgen must leave the consumer's cache alone (no
# CMAKE_BUILD_TYPE) and add no tests, benchmarks or tools to its build.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(build ${WORK_DIR}/build)
if(MODE STREQUAL "package")
  set(how -DCMAKE_PREFIX_PATH=${PREFIX})
elseif(MODE STREQUAL "subdirectory")
  set(how -DFFTGEN_SOURCE_DIR=${SOURCE_DIR})
else()
  message(FATAL_ERROR "MODE must be package or subdirectory, got '${MODE}'")
endif()
run("configuring the consumer" out ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${build} -G Ninja
    ${nested_args} ${how})

if(MODE STREQUAL "subdirectory")
  expect_guest_build(${build})
endif()

run("building the consumer" out ${CMAKE_COMMAND} --build ${build} -j 2)
expect_match("the consumer's build" "${out}" "fftgen: generating plan.json into kernels")
if(NOT EXISTS ${build}/kernels/consumer_kernels.hpp)
  message(FATAL_ERROR "no kernels/consumer_kernels.hpp after the build:\n${out}")
endif()
set(ENV{FFTGEN_CONSUMER_VALIDATION} 1)
run("running the consumer" out ${build}/consumer)
message(STATUS "${out}")
expect_match("the consumer's output" "${out}" "ocean256 +forward .* ok" "bloom32k +inverse .* ok" "glow +convolve .* ok"
             "every kernel matches the direct DFT")
