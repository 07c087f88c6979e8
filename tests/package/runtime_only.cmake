# FFTGEN_RUNTIME_ONLY: configured with the generator's dependencies hidden (find_package of glslang,
# SPIRV-Tools, SPIRV-Cross, fmt, CLI11 and Catch2 disabled), fftgen builds and installs the runtime
# library alone, finding neither FFTW nor glslangValidator; find_package(fftgen COMPONENTS runtime)
# then gives a fftgen::runtime a program compiles and links against, and asking for the generator
# component fails with a message that says why.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(build ${WORK_DIR}/build)
set(prefix ${WORK_DIR}/prefix)
set(hidden "")
foreach(package glslang SPIRV-Tools SPIRV-Tools-opt spirv_cross_core spirv_cross_glsl spirv_cross_hlsl
                spirv_cross_msl fmt CLI11 Catch2)
  list(APPEND hidden -DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON)
endforeach()
run("configuring the runtime alone" out ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G Ninja ${nested_args}
    -DFFTGEN_RUNTIME_ONLY=ON -DFFTGEN_INSTALL=ON ${hidden})
file(STRINGS ${build}/CMakeCache.txt found REGEX "^(FFTGEN_FFTW3_LIBRARY|FFTGEN_GLSLANG_VALIDATOR|glslang_DIR|fmt_DIR)[:=]")
if(found)
  message(FATAL_ERROR "a runtime-only configuration looked for generator or tool dependencies: ${found}")
endif()
run("building the runtime" out ${CMAKE_COMMAND} --build ${build} -j 2)
run("installing the runtime" out ${CMAKE_COMMAND} --install ${build} --prefix ${prefix})
foreach(file lib/libfftgen_runtime.a include/fftgen/runtime.hpp lib/cmake/fftgen/fftgenRuntimeTargets.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "the runtime-only install lacks ${file}:\n${out}")
  endif()
endforeach()
foreach(file bin/fftgen bin/fftgen-vk lib/cmake/fftgen/fftgenGeneratorTargets.cmake)
  if(EXISTS ${prefix}/${file})
    message(FATAL_ERROR "the runtime-only install has ${file}")
  endif()
endforeach()

# A program against the installed runtime.
set(app ${WORK_DIR}/app)
file(WRITE ${app}/CMakeLists.txt [[
cmake_minimum_required(VERSION 3.20)
project(runtime_user LANGUAGES CXX)
find_package(fftgen REQUIRED COMPONENTS runtime)
if(TARGET fftgen::fftgen)
  message(FATAL_ERROR "a runtime-only install defines fftgen::fftgen")
endif()
add_executable(runtime_user main.cpp)
target_link_libraries(runtime_user PRIVATE fftgen::runtime)
]])
file(WRITE ${app}/main.cpp [[
#include "fftgen/runtime.hpp"
int main() {
  const char* text = R"({"format": "fftgen-manifest", "format_version": 1, "kernels": []})";
  auto manifest = fftgen::vk::parse_manifest_text(text, "inline", {});
  return manifest.kernels.empty() ? 0 : 1;
}
]])
run("configuring a runtime user" out ${CMAKE_COMMAND} -S ${app} -B ${app}/build -G Ninja ${nested_args}
    -DCMAKE_PREFIX_PATH=${prefix})
run("building a runtime user" out ${CMAKE_COMMAND} --build ${app}/build)
run("running a runtime user" out ${app}/build/runtime_user)

file(WRITE ${app}/CMakeLists.txt [[
cmake_minimum_required(VERSION 3.20)
project(generator_user LANGUAGES CXX)
find_package(fftgen REQUIRED COMPONENTS generator)
]])
execute_process(COMMAND ${CMAKE_COMMAND} -S ${app} -B ${app}/build2 -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "'generator' component is not installed")
  message(FATAL_ERROR "find_package(fftgen COMPONENTS generator) on a runtime-only install: exit ${rc}\n${out}\n${err}")
endif()
