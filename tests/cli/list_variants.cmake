# fftgen --list-variants PLAN --json: every variant of a plan with list fields, its field values and
# file stem, from the plan-field registry; the stems are those of the files --dry-run lists; and
# bench/wisdom.py picks its winner from that listing (it no longer expands plans itself).
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/include/expect_run.cmake)

# 2 shapes x 2 index_math x 2 shared-memory budgets = 8 variants, plus one single-valued kernel.
file(WRITE ${WORK_DIR}/plan.json [=[
{"targets": ["spirv"], "kernels": [
  {"name": "x", "shape": [[64], [256]], "index_math": ["bitwise", "divmod"], "shared_memory_bytes": [32768, 49152],
   "direction": "forward"},
  {"name": "one", "shape": [128], "radices": [4, 32], "workgroup_size": 8}]}
]=])
expect_run(0 listing ${WORK_DIR}/plan.json --list-variants --json)
string(JSON count LENGTH "${listing}" variants)
if(NOT count EQUAL 9)
  message(FATAL_ERROR "expected 9 variants, got ${count}:\n${listing}")
endif()
# Expansion order: shape slowest, then index_math, then shared_memory_bytes; a suffix per listed field.
set(expected_names
    x__n64__bitwise__smem32768 x__n64__bitwise__smem49152 x__n64__divmod__smem32768 x__n64__divmod__smem49152
    x__n256__bitwise__smem32768 x__n256__bitwise__smem49152 x__n256__divmod__smem32768 x__n256__divmod__smem49152
    one)
set(i 0)
foreach(expected IN LISTS expected_names)
  string(JSON name GET "${listing}" variants ${i} name)
  string(JSON stem GET "${listing}" variants ${i} stem)
  if(NOT name STREQUAL expected OR NOT stem STREQUAL expected)
    message(FATAL_ERROR "variant ${i}: name '${name}', stem '${stem}', expected '${expected}'")
  endif()
  math(EXPR i "${i} + 1")
endforeach()
# Field values, spelt as in a plan: the listed one, and the defaults of fields the kernel leaves out.
foreach(check
    "4;shape;[ 256 ]" "2;index_math;divmod" "3;shared_memory_bytes;49152" "0;direction;forward"
    "0;radices;auto" "0;workgroup_size;auto" "0;twiddles;auto" "0;transform;c2c" "0;normalize;inverse"
    "8;radices;[ 4, 32 ]" "8;workgroup_size;8" "8;shared_memory_bytes;32768" "8;direction;both" "8;name;one")
  list(GET check 0 v)
  list(GET check 1 field)
  list(GET check 2 expected)
  string(JSON value GET "${listing}" variants ${v} fields ${field})
  if(NOT value STREQUAL expected)
    message(FATAL_ERROR "variant ${v} field ${field} = '${value}', expected '${expected}'")
  endif()
endforeach()
# The registry itself: which fields wisdom may tune, and their defaults.
string(JSON field_count LENGTH "${listing}" fields)
set(tunable "")
math(EXPR last "${field_count} - 1")
foreach(f RANGE ${last})
  string(JSON is_tunable GET "${listing}" fields ${f} wisdom_tunable)
  if(is_tunable)
    string(JSON name GET "${listing}" fields ${f} name)
    list(APPEND tunable ${name})
  endif()
endforeach()
if(NOT tunable STREQUAL "radices;index_math;twiddles;workgroup_size;values_per_invocation;shared_memory_bytes")
  message(FATAL_ERROR "wisdom-tunable fields: ${tunable}")
endif()

# The stems are the files' stems.
expect_run(0 files ${WORK_DIR}/plan.json --dry-run)
foreach(expected IN LISTS expected_names)
  if(NOT files MATCHES "(^|\n)${expected}\\.fwd0\\.spv")
    message(FATAL_ERROR "--dry-run lists no ${expected}.fwd0.spv:\n${files}")
  endif()
endforeach()

# A plan error is still an error here.
file(WRITE ${WORK_DIR}/bad.json [=[{"kernels": [{"name": "b", "shape": [64], "radices": [[4, 4], [8, 8]]}]}]=])
expect_run(1 out ${WORK_DIR}/bad.json --list-variants --json)
if(NOT out MATCHES "radices \\[4, 4\\] multiply to 16, but N = 64")
  message(FATAL_ERROR "unclear error:\n${out}")
endif()

# bench/wisdom.py on made-up figures: at N = 256 the divmod/49152 variant is fastest, at 64 the defaults.
find_program(PYTHON3 python3)
if(NOT PYTHON3)
  message(FATAL_ERROR "python3 is needed for bench/wisdom.py")
endif()
file(WRITE ${WORK_DIR}/sweep.json [=[{"device": "test", "results": [
  {"name": "x__n64__bitwise__smem32768", "n": 64, "gb_per_s": 100},
  {"name": "x__n64__bitwise__smem49152", "n": 64, "gb_per_s": 90},
  {"name": "x__n64__divmod__smem32768", "n": 64, "gb_per_s": 100.1},
  {"name": "x__n256__bitwise__smem32768", "n": 256, "gb_per_s": 100},
  {"name": "x__n256__divmod__smem49152", "n": 256, "gb_per_s": 120}]}]=])
expect_run(0 out ${WORK_DIR}/plan.json -o ${WORK_DIR}/kernels -q)
set(EXPECT_RUN_PROGRAM ${PYTHON3})
expect_run(0 wisdom ${SOURCE_DIR}/bench/wisdom.py ${WORK_DIR}/sweep.json ${WORK_DIR}/plan.json ${WORK_DIR}/kernels
           --fftgen ${FFTGEN})
string(JSON w64 GET "${wisdom}" sizes 0 winner)
string(JSON w256 GET "${wisdom}" sizes 1 winner)
if(NOT w64 STREQUAL "defaults" OR NOT w256 MATCHES "\"index_math\" : \"divmod\"" OR
   NOT w256 MATCHES "\"shared_memory_bytes\" : 49152")
  message(FATAL_ERROR "wisdom.py winners: 64 -> ${w64}, 256 -> ${w256}\n${wisdom}")
endif()

# c2c and r2c variants of one N are two entries, each naming its kind as fftgen does (wisdom_key),
# and fftgen applies each to its own transform only; a 2D kernel is an entry of its own. Made-up
# figures: at c2c 10000 (two passes at 32 KB, one at 48 KB) the 48 KB budget wins, at r2c 256 the
# defaults; at 1024 r2c 64 invocations win; the 64 x 64 grid takes 48 KB.
file(WRITE ${WORK_DIR}/plan_r2c.json [=[
{"targets": ["spirv"], "kernels": [
  {"name": "c", "shape": [10000], "shared_memory_bytes": [32768, 49152], "direction": "forward"},
  {"name": "r", "shape": [[256], [1024]], "transform": "r2c", "workgroup_size": ["auto", 64], "direction": "forward"},
  {"name": "i", "shape": [64, 64], "shared_memory_bytes": [32768, 49152], "direction": "forward"}]}
]=])
file(WRITE ${WORK_DIR}/sweep_r2c.json [=[{"device": "test", "results": [
  {"name": "c__smem32768", "n": 10000, "gb_per_s": 100},
  {"name": "c__smem49152", "n": 10000, "gb_per_s": 120},
  {"name": "r__n256__wgauto", "n": 256, "gb_per_s": 100},
  {"name": "r__n256__wg64", "n": 256, "gb_per_s": 99},
  {"name": "r__n1024__wgauto", "n": 1024, "gb_per_s": 100},
  {"name": "r__n1024__wg64", "n": 1024, "gb_per_s": 110},
  {"name": "i__smem32768", "n": 4096, "gb_per_s": 100},
  {"name": "i__smem49152", "n": 4096, "gb_per_s": 200}]}]=])
set(EXPECT_RUN_PROGRAM ${FFTGEN})
expect_run(0 out ${WORK_DIR}/plan_r2c.json -o ${WORK_DIR}/kernels_r2c -q)
set(EXPECT_RUN_PROGRAM ${PYTHON3})
expect_run(0 wisdom ${SOURCE_DIR}/bench/wisdom.py ${WORK_DIR}/sweep_r2c.json ${WORK_DIR}/plan_r2c.json
           ${WORK_DIR}/kernels_r2c --fftgen ${FFTGEN})
string(JSON entries LENGTH "${wisdom}" sizes)
string(JSON c10000 GET "${wisdom}" sizes 0 winner)
string(JSON r256_transform GET "${wisdom}" sizes 1 transform)
string(JSON r256 GET "${wisdom}" sizes 1 winner)
string(JSON r1024 GET "${wisdom}" sizes 2 winner)
string(JSON c10000_transform GET "${wisdom}" sizes 0 transform)
string(JSON grid_shape GET "${wisdom}" sizes 3 shape)
string(JSON grid GET "${wisdom}" sizes 3 winner)
string(JSON run_device GET "${wisdom}" runs 0 device)
string(JSON run GET "${wisdom}" sizes 3 run)
if(NOT entries EQUAL 4 OR NOT c10000 MATCHES "\"shared_memory_bytes\" : 49152" OR NOT r256_transform STREQUAL "r2c" OR
   NOT r256 STREQUAL "defaults" OR NOT r1024 MATCHES "\"workgroup_size\" : 64" OR NOT c10000_transform STREQUAL "c2c" OR
   NOT grid_shape MATCHES "64, 64" OR NOT grid MATCHES "\"shared_memory_bytes\" : 49152" OR
   NOT run_device STREQUAL "test" OR NOT run EQUAL 0)
  message(FATAL_ERROR "wisdom.py's c2c and r2c entries:\n${wisdom}")
endif()
file(WRITE ${WORK_DIR}/wisdom_r2c.json "${wisdom}")
set(EXPECT_RUN_PROGRAM ${FFTGEN})
file(WRITE ${WORK_DIR}/apply_r2c.json [=[
{"targets": ["spirv"], "kernels": [{"name": "c10000", "shape": [10000]}, {"name": "r256", "shape": [256], "transform": "r2c"},
  {"name": "r1024", "shape": [1024], "transform": "r2c"}, {"name": "grid", "shape": [64, 64]}]}
]=])
expect_run(0 applied ${WORK_DIR}/apply_r2c.json --wisdom ${WORK_DIR}/wisdom_r2c.json -o ${WORK_DIR}/applied)
if(NOT applied MATCHES "c10000: shared_memory_bytes = 49152" OR NOT applied MATCHES "r1024: workgroup_size = 64" OR
   NOT applied MATCHES "grid: shared_memory_bytes = 49152" OR applied MATCHES "r256:")
  message(FATAL_ERROR "fftgen --wisdom with c2c and r2c entries:\n${applied}")
endif()
