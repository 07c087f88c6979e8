# fftgen-bench compare on 2D, r2c and r2c_pair kernels (lavapipe): fftgen and VkFFT both agree with
# FFTW on the same sample (so VkFFT's 2D and R2C layouts are configured right), every row's batch,
# bytes and GB/s follow the one formula (computed here from the plan's shapes), r2c_pair has no
# VkFFT row, --batch fixes the batch, and first-result runs VkFFT on a 2D r2c kernel but refuses an
# r2c_pair one.
#   cmake -DFFTGEN=... -DFFTGEN_BENCH=... -DWORK_DIR=... -P compare_images.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

file(WRITE ${WORK_DIR}/plan.json [=[
{
  "kernels": [
    {"name": "c2c_2d", "shape": [[16, 32], [64, 64]]},
    {"name": "r2c_1d", "shape": [[64], [1024]], "transform": "r2c"},
    {"name": "r2c_2d", "shape": [32, 64], "transform": "r2c"},
    {"name": "pair", "shape": [256], "transform": "r2c_pair"},
    {"name": "c2c_1d", "shape": [256], "normalize": "ortho"}
  ]
}
]=])
include(${CMAKE_CURRENT_LIST_DIR}/../cli/include/expect_run.cmake)
expect_run(0 out ${WORK_DIR}/plan.json -o ${WORK_DIR}/kernels)

function(run_bench expected_rc out_var)
  set(EXPECT_RUN_PROGRAM ${FFTGEN_BENCH})
  expect_run(${expected_rc} out ${ARGN})
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Bytes of one transform's forward input and output, from the transform and shape.
function(transform_bytes transform shape in_var out_var)
  list(LENGTH shape dims)
  list(GET shape -1 nx)
  set(ny 1)
  if(dims EQUAL 2)
    list(GET shape 0 ny)
  endif()
  math(EXPR points "${ny} * ${nx}")
  if(transform STREQUAL "c2c")
    math(EXPR in "${points} * 8")
    set(out ${in})
  elseif(transform STREQUAL "r2c")
    math(EXPR in "${points} * 4")
    math(EXPR out "${ny} * (${nx} / 2 + 1) * 8")
  else()  # r2c_pair: N complex in, two half spectra out
    math(EXPR in "${points} * 8")
    math(EXPR out "2 * (${nx} / 2 + 1) * 8")
  endif()
  set(${in_var} ${in} PARENT_SCOPE)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()

# Checks every fftgen and VkFFT row of `json_file`; `batch_rule` is "elements E" or "fixed B".
# Sets `cases_var` to "system:transform:shape" entries seen.
function(check_rows json_file batch_rule cases_var)
  file(READ ${json_file} doc)
  string(JSON count LENGTH "${doc}" results)
  math(EXPR last "${count} - 1")
  set(seen "")
  foreach(i RANGE ${last})
    string(JSON system GET "${doc}" results ${i} system)
    if(NOT system MATCHES "^(fftgen|VkFFT)$")
      continue()
    endif()
    string(JSON error ERROR_VARIABLE none GET "${doc}" results ${i} error)
    if(NOT none)
      message(FATAL_ERROR "${json_file}: row ${i} (${system}) failed: ${error}")
    endif()
    string(JSON transform GET "${doc}" results ${i} transform)
    string(JSON shape_len LENGTH "${doc}" results ${i} shape)
    set(shape "")
    math(EXPR shape_last "${shape_len} - 1")
    foreach(d RANGE ${shape_last})
      string(JSON side GET "${doc}" results ${i} shape ${d})
      list(APPEND shape ${side})
    endforeach()
    list(JOIN shape "x" label)
    list(APPEND seen "${system}:${transform}:${label}")

    transform_bytes(${transform} "${shape}" in_per out_per)
    string(JSON batch GET "${doc}" results ${i} batch)
    if(batch_rule MATCHES "^elements ([0-9]+)$")
      math(EXPR want "${CMAKE_MATCH_1} * 8 / ${in_per}")
      if(want LESS 1)
        set(want 1)
      endif()
    else()
      string(REGEX REPLACE "^fixed " "" want "${batch_rule}")
    endif()
    if(NOT batch EQUAL want)
      message(FATAL_ERROR "${system} ${transform} ${label}: batch ${batch}, expected ${want}")
    endif()
    string(JSON bytes GET "${doc}" results ${i} bytes)
    string(JSON output_bytes GET "${doc}" results ${i} output_bytes)
    string(JSON traffic GET "${doc}" results ${i} traffic)
    math(EXPR want_in "${batch} * ${in_per}")
    math(EXPR want_out "${batch} * ${out_per}")
    math(EXPR want_traffic "${want_in} + ${want_out}")
    if(NOT bytes EQUAL want_in OR NOT output_bytes EQUAL want_out OR NOT traffic EQUAL want_traffic)
      message(FATAL_ERROR "${system} ${transform} ${label}: bytes ${bytes}/${output_bytes}/${traffic}, "
                          "expected ${want_in}/${want_out}/${want_traffic}")
    endif()
    # GB/s = traffic / (ms * 1e6), to 1e-9 relative (CMake has no floating point: python3 does it).
    string(JSON gbps GET "${doc}" results ${i} gbps)
    string(JSON ms GET "${doc}" results ${i} ms)
    string(JSON rel_l2 GET "${doc}" results ${i} rel_l2)
    execute_process(COMMAND python3 -c
      "import sys; g, ms, t, e = map(float, sys.argv[1:]); sys.exit(0 if abs(g * ms * 1e6 - t) <= 1e-9 * t and 0 < e <= 1e-5 else 1)"
      ${gbps} ${ms} ${traffic} ${rel_l2} RESULT_VARIABLE bad)
    if(bad)
      message(FATAL_ERROR "${system} ${transform} ${label}: gbps ${gbps}, ms ${ms}, traffic ${traffic}, "
                          "rel L2 ${rel_l2} (want GB/s = traffic / ms and 0 < rel L2 <= 1e-5)")
    endif()
  endforeach()
  set(${cases_var} "${seen}" PARENT_SCOPE)
endfunction()

set(kernels ${WORK_DIR}/kernels)
run_bench(0 out compare ${kernels} --elements 8192 --trials 1 --calls 2 --json ${WORK_DIR}/all.json)
check_rows(${WORK_DIR}/all.json "elements 8192" seen)
foreach(want fftgen:c2c:16x32 VkFFT:c2c:16x32 fftgen:c2c:64x64 VkFFT:c2c:64x64 fftgen:r2c:64 VkFFT:r2c:64
             fftgen:r2c:1024 VkFFT:r2c:1024 fftgen:r2c:32x64 VkFFT:r2c:32x64 fftgen:r2c_pair:256
             fftgen:c2c:256 VkFFT:c2c:256)
  list(FIND seen ${want} at)
  if(at LESS 0)
    message(FATAL_ERROR "compare: no ${want} row (rows: ${seen})\n${out}")
  endif()
endforeach()
list(FIND seen VkFFT:r2c_pair:256 at)
if(NOT at LESS 0)
  message(FATAL_ERROR "compare: a VkFFT row for r2c_pair, which VkFFT has no counterpart of")
endif()

run_bench(0 out compare ${kernels} --kernels c2c_2d__n64x64,r2c_2d --batch 3 --trials 1 --calls 2
          --json ${WORK_DIR}/fixed.json)
check_rows(${WORK_DIR}/fixed.json "fixed 3" seen)
list(LENGTH seen rows)
if(NOT rows EQUAL 4)
  message(FATAL_ERROR "compare --batch 3: ${rows} rows (${seen}), expected fftgen and VkFFT of two cases")
endif()

run_bench(0 out first-result ${kernels} r2c_2d --system vkfft)
if(NOT out MATCHES "r2c 32x64" OR NOT out MATCHES "\\(ok\\)")
  message(FATAL_ERROR "first-result r2c_2d --system vkfft:\n${out}")
endif()
run_bench(1 out first-result ${kernels} pair --system vkfft)
if(NOT out MATCHES "fftgen-bench: error: VkFFT has no counterpart of r2c_pair kernels")
  message(FATAL_ERROR "first-result pair --system vkfft:\n${out}")
endif()
message(STATUS "compare and first-result: 2D, r2c and r2c_pair kernels measured and checked")

# bench/run_images.sh end to end on these kernels, tiny: every step but cuFFT (PYTHON=false: no
# CuPy) runs and exits 0, OUT_DIR holds the four files, the summary has the grids and the verify
# results, and the archive has each step's JSON.
set(out_dir ${WORK_DIR}/images)
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ELEMENTS=8192 TRIALS=1 CALLS=1 GRID_CALLS=2 GRIDS=16x32x1,64x64x2
          PEER_R2C=128 PYTHON=false WORK_DIR=${WORK_DIR}/images_work
          bash ${SOURCE_DIR}/bench/run_images.sh ${BUILD_DIR} ${kernels} ${out_dir}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run_images.sh: exit ${rc}\n${out}\n${err}")
endif()
file(GLOB listed RELATIVE ${out_dir} ${out_dir}/*)
list(SORT listed)
if(NOT listed STREQUAL "commands.txt;images.tar.gz;log.txt;summary.md")
  message(FATAL_ERROR "run_images.sh wrote ${listed} to OUT_DIR")
endif()
file(READ ${out_dir}/summary.md summary)
foreach(want "\\| 16×32 ×1 \\| [0-9.]+ \\| [0-9.]+ \\|" "\\| 64×64 ×2 \\| [0-9.]+ \\| [0-9.]+ \\|"
             "\\| 1D R2C 1024 \\| 16 \\| [0-9.]+ \\|" "7 of 7 kernels pass" "\\| cuFFT \\| skipped")
  if(NOT summary MATCHES "${want}")
    message(FATAL_ERROR "summary.md does not match '${want}':\n${summary}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E tar tf ${out_dir}/images.tar.gz OUTPUT_VARIABLE archive)
foreach(want verify_small.json bench.json compare.json grid_fftgen_16x32x1.json grid_compare_64x64x2.json
             vkfft_r2c.json summary.md)
  if(NOT archive MATCHES "images/${want}")
    message(FATAL_ERROR "images.tar.gz has no images/${want}:\n${archive}")
  endif()
endforeach()
message(STATUS "run_images.sh: every step ran; summary and archive complete")
