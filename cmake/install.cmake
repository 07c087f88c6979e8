# Install rules and the CMake package: find_package(fftgen) gives fftgen::fftgen (the generator
# executable, component "generator"), fftgen::runtime (the Vulkan runtime library with its headers
# and link dependencies, component "runtime") and fftgen_add_kernels().
include(CMakePackageConfigHelpers)
set(FFTGEN_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/fftgen)

if(TARGET fftgen_runtime)
  install(TARGETS fftgen_runtime EXPORT fftgenRuntimeTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/interface/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT fftgenRuntimeTargets NAMESPACE fftgen:: DESTINATION ${FFTGEN_PACKAGE_DIR})
endif()
if(TARGET fftgen)
  install(TARGETS fftgen EXPORT fftgenGeneratorTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT fftgenGeneratorTargets NAMESPACE fftgen:: DESTINATION ${FFTGEN_PACKAGE_DIR})
endif()
if(TARGET fftgen-vk)
  install(TARGETS fftgen-vk RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/fftgenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/fftgenConfig.cmake INSTALL_DESTINATION ${FFTGEN_PACKAGE_DIR})
# Before 1.0 a minor version may change the manifest or the runtime's API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/fftgenConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fftgenConfig.cmake ${PROJECT_BINARY_DIR}/fftgenConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/fftgenAddKernels.cmake
        DESTINATION ${FFTGEN_PACKAGE_DIR})

# The documentation `fftgen --help` names: README.md, docs/ and the examples, in share/doc/fftgen.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
