# examples/consumer configured with fftgen taken in through FetchContent (SOURCE_DIR: nothing is
# downloaded): fftgen::fftgen, fftgen::runtime and fftgen_add_kernels() exist in the build tree (the
# consumer's CMakeLists.txt uses all three), the consumer's cache gets no CMAKE_BUILD_TYPE, and no
# test, benchmark or tool target joins its build. Configure only: package_consumer_subdirectory
# builds the same targets.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(build ${WORK_DIR}/build)
run("configuring the consumer" out ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${build} -G Ninja
    ${nested_args} -DFFTGEN_SOURCE_DIR=${SOURCE_DIR} -DCONSUMER_FETCHCONTENT=ON)
if(NOT IS_DIRECTORY ${build}/_deps/fftgen-build)
  message(FATAL_ERROR "fftgen was not taken in through FetchContent")
endif()
expect_guest_build(${build})
