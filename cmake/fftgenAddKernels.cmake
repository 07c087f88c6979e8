# fftgen_add_kernels(): generate a plan's kernels at build time.
#
#   fftgen_add_kernels(<target> PLAN <plan.json> OUTPUT_DIR <dir>
#                      [TARGETS spirv glsl hlsl msl] [WISDOM <file>]
#                      [AS_HEADERS [HEADER_NAMESPACE <name>]] [OUT_FILES_VAR <var>])
#
# Runs fftgen::fftgen on PLAN (relative to the current source folder) into OUTPUT_DIR (relative to
# the current binary folder) before <target> is built. TARGETS overrides the plan's targets;
# WISDOM applies a per-device table (fftgen --wisdom). AS_HEADERS also writes C++ headers that embed
# the SPIR-V, twiddle tables and manifest (fftgen --headers; include "<HEADER_NAMESPACE>.hpp",
# default fftgen_kernels.hpp) and adds OUTPUT_DIR to <target>'s include path (INTERFACE for an
# interface library, PRIVATE otherwise).
#
# OUT_FILES_VAR receives the files the step writes. With an installed fftgen (find_package) that is
# every file: fftgen lists them at configure time (--dry-run), and the plan and wisdom file become
# configure dependencies. Inside the same build (add_subdirectory, FetchContent) fftgen does not exist
# yet when CMake configures, so the list holds what is known without it: manifest.json and, with
# AS_HEADERS, the umbrella header.
#
# Incremental: the step's output is a stamp that fftgen rewrites after each run (--stamp), and its
# dependencies come from fftgen's dependency file (--depfile: the plan, the wisdom file, the fftgen
# binary). An edited plan or wisdom file or a rebuilt fftgen re-runs it; outputs whose contents did
# not change keep their time stamps, so nothing that includes them is recompiled; with nothing
# changed, the step does nothing (Ninja and Makefile generators alike).
include_guard(GLOBAL)

# A function records the policies in effect where it is defined. CMP0116 (NEW: Ninja rewrites the
# depfile's paths to match its own) must hold whatever the calling project asks for.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20...3.28)

# The path of the imported fftgen::fftgen, for running it at configure time.
function(_fftgen_imported_location out_var)
  get_target_property(location fftgen::fftgen IMPORTED_LOCATION)
  if(NOT location)
    get_target_property(configs fftgen::fftgen IMPORTED_CONFIGURATIONS)
    foreach(config IN LISTS configs)
      get_target_property(location fftgen::fftgen IMPORTED_LOCATION_${config})
      if(location)
        break()
      endif()
    endforeach()
  endif()
  set(${out_var} "${location}" PARENT_SCOPE)
endfunction()

function(fftgen_add_kernels target)
  set(usage "fftgen_add_kernels(<target> PLAN <plan.json> OUTPUT_DIR <dir> [TARGETS spirv glsl hlsl msl] "
            "[WISDOM <file>] [AS_HEADERS [HEADER_NAMESPACE <name>]] [OUT_FILES_VAR <var>])")
  string(JOIN "" usage ${usage})
  cmake_parse_arguments(PARSE_ARGV 1 arg "AS_HEADERS" "PLAN;OUTPUT_DIR;WISDOM;HEADER_NAMESPACE;OUT_FILES_VAR" "TARGETS")
  set(fail "fftgen_add_kernels(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fail}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}\nusage: ${usage}")
  endif()
  foreach(required PLAN OUTPUT_DIR)
    if(NOT arg_${required})
      message(FATAL_ERROR "${fail}: ${required} is required\nusage: ${usage}")
    endif()
  endforeach()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${fail}: '${target}' is not a target; create it (add_executable, add_library) first")
  endif()
  get_target_property(aliased ${target} ALIASED_TARGET)
  get_target_property(imported ${target} IMPORTED)
  if(aliased OR imported)
    message(FATAL_ERROR "${fail}: '${target}' is an alias or imported target; give the target built here")
  endif()
  if(NOT TARGET fftgen::fftgen)
    message(FATAL_ERROR "${fail}: fftgen::fftgen (the generator) is not defined: call find_package(fftgen) or "
                        "add_subdirectory() fftgen first (a FFTGEN_RUNTIME_ONLY build has no generator)")
  endif()

  get_filename_component(plan "${arg_PLAN}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(out "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  if(NOT EXISTS "${plan}")
    message(FATAL_ERROR "${fail}: PLAN '${plan}' does not exist")
  endif()
  set(args "${plan}" -o "${out}")
  set(inputs "${plan}")
  if(arg_WISDOM)
    get_filename_component(wisdom "${arg_WISDOM}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${wisdom}")
      message(FATAL_ERROR "${fail}: WISDOM '${wisdom}' does not exist")
    endif()
    list(APPEND args --wisdom "${wisdom}")
    list(APPEND inputs "${wisdom}")
  endif()
  if(DEFINED arg_TARGETS OR "TARGETS" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    if(NOT arg_TARGETS)
      message(FATAL_ERROR "${fail}: TARGETS needs at least one of spirv, glsl, hlsl, msl")
    endif()
    set(seen "")
    foreach(t IN LISTS arg_TARGETS)
      if(NOT t MATCHES "^(spirv|glsl|hlsl|msl)$")
        message(FATAL_ERROR "${fail}: unknown TARGETS entry '${t}'; allowed: spirv, glsl, hlsl, msl")
      endif()
      if(t IN_LIST seen)
        message(FATAL_ERROR "${fail}: TARGETS lists '${t}' twice")
      endif()
      list(APPEND seen ${t})
    endforeach()
    if(arg_AS_HEADERS AND NOT "spirv" IN_LIST arg_TARGETS)
      message(FATAL_ERROR "${fail}: AS_HEADERS embeds the SPIR-V modules; add spirv to TARGETS")
    endif()
    string(JOIN "," targets_csv ${arg_TARGETS})
    list(APPEND args --targets ${targets_csv})
  endif()
  set(files "${out}/manifest.json")
  if(arg_AS_HEADERS)
    if(NOT arg_HEADER_NAMESPACE)
      set(arg_HEADER_NAMESPACE fftgen_kernels)
    endif()
    list(APPEND args --headers --header-namespace ${arg_HEADER_NAMESPACE})
    list(APPEND files "${out}/${arg_HEADER_NAMESPACE}.hpp")
  elseif(arg_HEADER_NAMESPACE)
    message(FATAL_ERROR "${fail}: HEADER_NAMESPACE is for AS_HEADERS")
  endif()

  # With an installed fftgen, every file is known now.
  get_target_property(fftgen_imported fftgen::fftgen IMPORTED)
  if(fftgen_imported)
    _fftgen_imported_location(fftgen_exe)
    execute_process(COMMAND "${fftgen_exe}" ${args} --dry-run
                    RESULT_VARIABLE rc OUTPUT_VARIABLE listed ERROR_VARIABLE errors)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${fail}: ${errors}")
    endif()
    string(REGEX REPLACE "\n$" "" listed "${listed}")
    string(REPLACE "\n" ";" files "${listed}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${inputs} "${fftgen_exe}")
  endif()

  # One step per call: a target may take several plans.
  get_property(calls TARGET ${target} PROPERTY FFTGEN_KERNEL_STEPS)
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_property(TARGET ${target} PROPERTY FFTGEN_KERNEL_STEPS ${calls})
  set(step ${target}_fftgen_kernels)
  if(calls GREATER 1)
    string(APPEND step _${calls})
  endif()
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${step}.dir/fftgen.stamp")
  set(depfile "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${step}.dir/fftgen.d")
  file(RELATIVE_PATH shown_out "${CMAKE_BINARY_DIR}" "${out}")

  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${files}
    COMMAND fftgen::fftgen ${args} --depfile "${depfile}" --stamp "${stamp}" --quiet
    DEPENDS fftgen::fftgen
    DEPFILE "${depfile}"
    COMMENT "fftgen: generating ${arg_PLAN} into ${shown_out}"
    VERBATIM)
  add_custom_target(${step} DEPENDS "${stamp}" SOURCES "${plan}")
  add_dependencies(${target} ${step})

  if(arg_AS_HEADERS)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      target_include_directories(${target} INTERFACE "${out}")
    else()
      target_include_directories(${target} PRIVATE "${out}")
    endif()
  endif()
  if(arg_OUT_FILES_VAR)
    set(${arg_OUT_FILES_VAR} ${files} PARENT_SCOPE)
  endif()
endfunction()

cmake_policy(POP)
