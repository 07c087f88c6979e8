# Bad command lines and inputs get a clear error (exit 1) that names what is wrong and what is
# allowed, and change nothing (docs/errors.md, "Generator"): -o at a dangling symbolic link, a plan
# saved as DIR/manifest.json with -o DIR, repeated or empty --targets, --target for --targets, --explain 0, a folder as plan
# or wisdom, unknown wisdom fields, a 100,000-radix list, a layout refusal, a plan past 4096 variants.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/include/expect_run.cmake)
set(plan ${WORK_DIR}/plan.json)
file(WRITE ${plan} [[{"targets": ["spirv", "hlsl"], "kernels": [{"name": "k", "shape": [64]}]}]])

# Also sets `out` in the caller's scope.
function(expect_error message)
  expect_run(1 out ${ARGN})
  set(out "${out}" PARENT_SCOPE)
  string(FIND "${out}" "${message}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "fftgen ${ARGN}: expected \"${message}\" in:\n${out}")
  endif()
  string(LENGTH "${out}" length)
  if(length GREATER 1000)
    message(FATAL_ERROR "fftgen ${ARGN}: a ${length}-character message")
  endif()
endfunction()

file(CREATE_LINK ${WORK_DIR}/nowhere ${WORK_DIR}/dangling SYMBOLIC)
expect_error("output folder '${WORK_DIR}/dangling' is a symbolic link to '${WORK_DIR}/nowhere', which does not exist"
             ${plan} -o ${WORK_DIR}/dangling)
if(out MATCHES "fftgen: k\n")
  message(FATAL_ERROR "-o at a dangling link was refused only after generating:\n${out}")
endif()
if(NOT IS_SYMLINK ${WORK_DIR}/dangling OR EXISTS ${WORK_DIR}/nowhere)
  message(FATAL_ERROR "-o at a dangling link changed the link")
endif()

file(MAKE_DIRECTORY ${WORK_DIR}/saved)
configure_file(${plan} ${WORK_DIR}/saved/manifest.json COPYONLY)
expect_error("would replace or remove '${WORK_DIR}/saved/manifest.json', which this run reads"
             ${WORK_DIR}/saved/manifest.json -o ${WORK_DIR}/saved)
if(out MATCHES "fftgen: k\n")
  message(FATAL_ERROR "a plan saved as DIR/manifest.json was refused only after generating:\n${out}")
endif()
file(READ ${WORK_DIR}/saved/manifest.json saved)
file(READ ${plan} original)
file(GLOB saved_files ${WORK_DIR}/saved/*)
list(LENGTH saved_files saved_count)
if(NOT saved STREQUAL original OR NOT saved_count EQUAL 1)
  message(FATAL_ERROR "a plan saved as DIR/manifest.json was overwritten or files were added beside it")
endif()

expect_error("--targets: 'spirv' is listed twice; allowed: spirv, glsl, hlsl, msl" ${plan} -o ${WORK_DIR}/t --targets spirv,spirv)
# (execute_process drops an empty argument, so `--targets ''` is tried as `--targets=` and `--targets ,`.)
expect_error("--targets: 1 required TEXT missing" ${plan} -o ${WORK_DIR}/t --targets=)
# --target (one letter short) gets a hint, not CLI11's "arguments were not expected", and writes nothing.
foreach(spelling "--target;spirv" "--target=spirv")
  expect_error("fftgen: error: unknown option --target; did you mean --targets (e.g. --targets spirv,hlsl)? (see fftgen --help)\n"
               ${plan} -o ${WORK_DIR}/target ${spelling})
  if(EXISTS ${WORK_DIR}/target)
    message(FATAL_ERROR "fftgen ${spelling} wrote ${WORK_DIR}/target")
  endif()
endforeach()
expect_error("--targets ',' has an empty item; allowed: spirv, glsl, hlsl, msl" ${plan} -o ${WORK_DIR}/t --targets ,)
expect_error("--targets 'spirv,' has an empty item" ${plan} -o ${WORK_DIR}/t --targets spirv,)
expect_error("--explain: radix 0 has no codelet; allowed: 2, 3" --explain 0)
# --targets decides as the plan's "targets" would: no pass_sync counters where msl is a target.
file(WRITE ${WORK_DIR}/sync.json [[{"targets": ["spirv"], "kernels": [{"name": "k", "shape": [32768], "pass_sync": "counters"}]}]])
expect_error("field 'pass_sync': counters run a kernel's passes in one dispatch; Metal promises no progress"
             ${WORK_DIR}/sync.json -o ${WORK_DIR}/t --targets spirv,msl)
file(WRITE ${WORK_DIR}/sync.json [[{"targets": ["spirv"], "kernels": [{"name": "k", "shape": [32768]}]}]])
expect_run(0 out ${WORK_DIR}/sync.json -o ${WORK_DIR}/sync --targets spirv,msl -q)
file(READ ${WORK_DIR}/sync/manifest.json sync_manifest)
if(sync_manifest MATCHES "\"counters\"")
  message(FATAL_ERROR "--targets spirv,msl: pass_sync auto still chose counters")
endif()
file(REMOVE_RECURSE ${WORK_DIR}/sync)
if(EXISTS ${WORK_DIR}/t)
  message(FATAL_ERROR "a refused --targets wrote output")
endif()
# Two distinct targets: the files counted are the files written, the ones --dry-run lists.
expect_run(0 listed ${plan} -o ${WORK_DIR}/two --targets hlsl,spirv --dry-run)
expect_run(0 out ${plan} -o ${WORK_DIR}/two --targets hlsl,spirv)
file(GLOB written RELATIVE ${WORK_DIR}/two ${WORK_DIR}/two/*)
list(LENGTH written count)
string(REGEX MATCHALL "\n" lines "${listed}")
list(LENGTH lines listed_count)
if(NOT count EQUAL 6 OR NOT listed_count EQUAL 6 OR NOT out MATCHES "6 files for 1 kernels in [^:]*: 6 written")
  message(FATAL_ERROR "--targets hlsl,spirv: ${count} files written, ${listed_count} listed (expected 6):\n${out}")
endif()

expect_error("plan '${WORK_DIR}' is a folder; give the plan itself" ${WORK_DIR} -o ${WORK_DIR}/t)
expect_error("wisdom file '${WORK_DIR}' is a folder" ${plan} --wisdom ${WORK_DIR} -o ${WORK_DIR}/t)
file(WRITE ${WORK_DIR}/wisdom.json [[{"device": "x", "colour": "blue", "sizes": []}]])
expect_error("wisdom.json: unknown field 'colour'; known top-level wisdom fields: $schema, description, device, driver, min_gain, fixed, source, runs, sizes"
             ${plan} --wisdom ${WORK_DIR}/wisdom.json -o ${WORK_DIR}/t)
file(WRITE ${WORK_DIR}/wisdom.json [[{"min_gain": "x", "sizes": []}]])
expect_error("wisdom.json: field 'min_gain': must be a number, the least gain a winner needed over the default, got the string 'x'"
             ${plan} --wisdom ${WORK_DIR}/wisdom.json -o ${WORK_DIR}/t)
file(WRITE ${WORK_DIR}/wisdom.json [[{"sizes": [{"n": 64, "winner": "defaults", "speed": 1}]}]])
expect_error("wisdom.json: sizes[0]: unknown field 'speed'; known entry fields: shape, n, transform, precision, io, convolution, run, measured, default_gbps, winner, winner_gbps, winner_rel_l2"
             ${plan} --wisdom ${WORK_DIR}/wisdom.json -o ${WORK_DIR}/t)

# 100,000 radices: the message shows 16 of them and the count.
string(REPEAT "2, " 99999 radices)
file(WRITE ${WORK_DIR}/radices.json "{\"kernels\": [{\"name\": \"r\", \"shape\": [1024], \"radices\": [${radices}2]}]}")
expect_error("radices [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, ... (100000 radices)] multiply to"
             ${WORK_DIR}/radices.json -o ${WORK_DIR}/t)

# A kernel the HLSL/MSL targets cannot take is refused like any plan error, the plan named first.
file(WRITE ${WORK_DIR}/layout.json
     [[{"targets": ["spirv", "hlsl"], "kernels": [{"name": "k", "shape": [16384], "shared_memory_bytes": 65536}]}]])
expect_error("fftgen: error: layout.json: kernel 'k': pass fwd0 uses 65536 bytes of shared memory"
             ${WORK_DIR}/layout.json -o ${WORK_DIR}/t)

# 2 x 2 x 1025 = 4100 variants: refused with the count before any work.
set(budgets "")
foreach(b RANGE 1024 2048)
  string(APPEND budgets "${b}, ")
endforeach()
file(WRITE ${WORK_DIR}/variants.json
     "{\"kernels\": [{\"name\": \"v\", \"shape\": [64], \"index_math\": [\"bitwise\", \"divmod\"], \"twiddles\": [\"table\", \"computed\"], \"shared_memory_bytes\": [${budgets}4096]}]}")
expect_error("variants.json: kernel 'v': the plan expands to 4104 variants up to this kernel (this kernel 4104: 2 index_math x 2 twiddles x 1026 shared_memory_bytes); at most 4096 are allowed"
             ${WORK_DIR}/variants.json -o ${WORK_DIR}/t)
if(EXISTS ${WORK_DIR}/t)
  message(FATAL_ERROR "a refused input wrote output")
endif()
message(STATUS "every bad input was refused clearly")
