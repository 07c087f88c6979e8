# Installs the current build tree into a fresh prefix (the fixture the other package tests use)
# and checks that the package is complete: both executables, the runtime library and its headers,
# the package files, and the documentation `fftgen --help` names (README.md, docs/*.md, examples/ in
# share/doc/fftgen).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${PREFIX})
run("cmake --install" out ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
foreach(file bin/fftgen bin/fftgen-vk lib/libfftgen_runtime.a include/fftgen/runtime.hpp
             include/fftgen/runtime/kernel.hpp include/fftgen/runtime/device.hpp
             include/fftgen/runtime/convolution.hpp include/fftgen/interface.hpp
             lib/cmake/fftgen/fftgenConfig.cmake lib/cmake/fftgen/fftgenConfigVersion.cmake
             lib/cmake/fftgen/fftgenAddKernels.cmake lib/cmake/fftgen/fftgenRuntimeTargets.cmake
             lib/cmake/fftgen/fftgenGeneratorTargets.cmake
             share/doc/fftgen/README.md share/doc/fftgen/docs/runtime.md share/doc/fftgen/docs/cli.md
             share/doc/fftgen/docs/plan.md share/doc/fftgen/examples/consumer/main.cpp)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}:\n${out}")
  endif()
endforeach()
run("installed fftgen --version" version ${PREFIX}/bin/fftgen --version)
expect_match("installed fftgen --version" "${version}" "^fftgen [0-9]+\\.[0-9]+")
run("installed fftgen --help" help ${PREFIX}/bin/fftgen --help)
expect_match("installed fftgen --help" "${help}" "Documentation: ${PREFIX}/share/doc/fftgen \\(README.md, docs/\\*.md, examples/\\)")
# Every page of docs/ is there.
file(GLOB pages RELATIVE ${SOURCE_DIR}/docs ${SOURCE_DIR}/docs/*.md)
foreach(page IN LISTS pages)
  if(NOT EXISTS ${PREFIX}/share/doc/fftgen/docs/${page})
    message(FATAL_ERROR "cmake --install did not install docs/${page}")
  endif()
endforeach()
