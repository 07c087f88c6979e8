# Installs the current build tree into a fresh prefix (the fixture the other package tests use)
# and checks that the package is complete: both executables, the runtime library and its headers,
# the package files.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${PREFIX})
run("cmake --install" out ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
foreach(file bin/fftgen bin/fftgen-vk lib/libfftgen_runtime.a include/fftgen/runtime.hpp
             include/fftgen/runtime/kernel.hpp include/fftgen/runtime/device.hpp
             include/fftgen/runtime/convolution.hpp include/fftgen/interface.hpp
             lib/cmake/fftgen/fftgenConfig.cmake lib/cmake/fftgen/fftgenConfigVersion.cmake
             lib/cmake/fftgen/fftgenAddKernels.cmake lib/cmake/fftgen/fftgenRuntimeTargets.cmake
             lib/cmake/fftgen/fftgenGeneratorTargets.cmake)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}:\n${out}")
  endif()
endforeach()
run("installed fftgen --version" version ${PREFIX}/bin/fftgen --version)
expect_match("installed fftgen --version" "${version}" "^fftgen [0-9]+\\.[0-9]+")
