# fftgen_add_kernels() is incremental with GENERATOR (Ninja or Unix Makefiles), against a copy of the
# prefix package_install filled (so that touching its fftgen stays local to this test):
#   - a second build does no work;
#   - an edited plan whose outputs do not change re-runs fftgen and compiles nothing;
#   - an edited wisdom file re-runs only the step that uses it, and recompiles what includes the
#     changed manifest;
#   - a new fftgen binary re-runs both steps;
#   - a plan with another kernel writes its headers and recompiles;
# each followed by a build that does no work. OUT_FILES_VAR names exactly the files written.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
file(COPY ${PREFIX}/ DESTINATION ${WORK_DIR}/prefix)
file(COPY ${CMAKE_CURRENT_LIST_DIR}/rebuild_project/ DESTINATION ${WORK_DIR}/src)
set(src ${WORK_DIR}/src)
set(build ${WORK_DIR}/build)
run("configuring" out ${CMAKE_COMMAND} -S ${src} -B ${build} -G ${GENERATOR} ${nested_args}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)

# Builds and checks what ran: `expected` is a list of "generate <dir>", "compile" and "nothing".
function(build_expecting step)
  run("build (${step})" out ${CMAKE_COMMAND} --build ${build})
  set(ran "")
  foreach(dir kernels glsl)
    if(out MATCHES "fftgen: generating plan.json into ${dir}")
      list(APPEND ran "generate ${dir}")
    endif()
  endforeach()
  if(out MATCHES "Building CXX")
    list(APPEND ran compile)
  endif()
  if(NOT ran)
    set(ran nothing)
    if(out MATCHES "Linking|Configuring done")
      message(FATAL_ERROR "${step}: expected no work, got:\n${out}")
    endif()
    if(GENERATOR STREQUAL "Ninja" AND NOT out MATCHES "ninja: no work to do")
      message(FATAL_ERROR "${step}: ninja found work:\n${out}")
    endif()
  endif()
  if(NOT ran STREQUAL ARGN)
    message(FATAL_ERROR "${step}: expected [${ARGN}], the build did [${ran}]:\n${out}")
  endif()
  message(STATUS "${step}: ${ran}")
endfunction()

# OUT_FILES_VAR (out_files.txt, written at configure time) against the files in the output folders,
# and the program's count of embedded files against the .spv and .bin files.
function(check_files)
  file(STRINGS ${build}/out_files.txt listed)
  file(GLOB written ${build}/kernels/* ${build}/glsl/*)
  list(SORT listed)
  list(SORT written)
  if(NOT listed STREQUAL written)
    message(FATAL_ERROR "OUT_FILES_VAR does not name the files written:\nlisted: ${listed}\nwritten: ${written}")
  endif()
  file(GLOB embedded ${build}/kernels/*.spv ${build}/kernels/*.bin)
  list(LENGTH embedded count)
  run("running the program" out ${build}/embedded)
  expect_match("the program's output" "${out}" "^${count} embedded files")
endfunction()

build_expecting("first build" "generate kernels" "generate glsl" compile)
check_files()
build_expecting("second build" nothing)

file(READ ${src}/plan.json plan)
string(REPLACE "first" "edited" plan "${plan}")
file(WRITE ${src}/plan.json "${plan}")
build_expecting("plan edited, same kernels" "generate kernels" "generate glsl")
build_expecting("after the plan edit" nothing)

file(WRITE ${src}/wisdom.json "{\"sizes\": [{\"n\": 256, \"winner\": {\"shared_memory_bytes\": 16384}}]}\n")
build_expecting("wisdom edited" "generate kernels" compile)
file(READ ${build}/kernels/manifest.json manifest)
expect_match("the manifest after the wisdom edit" "${manifest}" "\"wisdom\": \"wisdom.json\"" "\"shared_memory_bytes\": 16384")
build_expecting("after the wisdom edit" nothing)

file(TOUCH_NOCREATE ${WORK_DIR}/prefix/bin/fftgen)
build_expecting("new fftgen" "generate kernels" "generate glsl")
build_expecting("after the new fftgen" nothing)

string(REPLACE "]}]}" "]}, {\"name\": \"fft64\", \"shape\": [64]}]}" plan "${plan}")
file(WRITE ${src}/plan.json "${plan}")
build_expecting("kernel added" "generate kernels" "generate glsl" compile)
if(NOT EXISTS ${build}/kernels/fft64.fwd0.spv.hpp OR NOT EXISTS ${build}/glsl/fft64.fwd0.comp)
  message(FATAL_ERROR "the added kernel's files were not written")
endif()
check_files()
build_expecting("after the kernel was added" nothing)
