# Manifests edited by hand (docs/errors.md, "manifest.json"): fftgen-vk verify refuses each with a
# one-line error and exit 1 when it reads the manifest (or, for what only the SPIR-V shows, when it
# loads the kernel), instead of corrupting the heap, dividing by zero or crashing in the driver or
# FFTW. A FIFO where a file is expected is refused, not opened (which waits for a writer).
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
include(${SOURCE_DIR}/tests/cli/include/expect_run.cmake)

file(WRITE ${WORK_DIR}/plan.json [=[
{"targets": ["spirv"], "kernels": [
  {"name": "c64", "shape": [64]},
  {"name": "b17", "shape": [17]},
  {"name": "r2d", "shape": [16, 16], "transform": "r2c"},
  {"name": "tex", "shape": [16, 64], "io": "image"},
  {"name": "bloom", "convolution": {"image": [64, 64], "filter": [7, 7], "channels": 1, "mode": "circular"}}]}
]=])
set(out ${WORK_DIR}/out)
expect_run(0 log ${WORK_DIR}/plan.json -o ${out} -q)
file(READ ${out}/manifest.json manifest)
set(EXPECT_RUN_PROGRAM ${FFTGEN_VK})

function(kernel_index name out_var)
  string(JSON count LENGTH "${manifest}" kernels)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON kernel_name GET "${manifest}" kernels ${i} name)
    if(kernel_name STREQUAL name)
      set(${out_var} ${i} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no kernel ${name} in the manifest")
endfunction()

# expect_tampered(KERNEL MESSAGE PATH... VALUE): manifest.json with the field at KERNEL's PATH set
# to VALUE (JSON), verified as tampered.json beside it: exit 1 with MESSAGE on one line.
function(expect_tampered kernel message)
  kernel_index(${kernel} index)
  set(path ${ARGN})
  list(POP_BACK path value)
  string(JSON edited SET "${manifest}" kernels ${index} ${path} "${value}")
  file(WRITE ${out}/tampered.json "${edited}")
  expect_run(1 log verify ${out}/tampered.json ${kernel} --batches 1)
  string(FIND "${log}" "${message}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${kernel} ${path} = ${value}: expected \"${message}\" in:\n${log}")
  endif()
endfunction()

# A shape unlike the kernel's N (the buffers say 64 values; the host arrays were sized by one, the
# reference by the other).
expect_tampered(c64 "kernels[0](c64).buffers: expected forward input 128 complex64 and output 128 complex64 for a c2c kernel of shape [128] (found input 64 complex64, output 64 complex64)"
                shape "[128]")
expect_tampered(b17 "buffers: expected forward input 19 complex64" shape "[19]")
expect_tampered(r2d "buffers: expected forward input 1048576 float32 and output 524288 complex64 for a r2c kernel of shape [16, 65535]"
                shape "[16, 65535]")
expect_tampered(c64 "buffers: expected forward input 64 complex64 and output 64 complex64 for a c2c kernel of shape [64] (found input 1 complex64"
                buffers forward input elements 1)
expect_tampered(c64 "forward[0].bindings[0].stride: expected the forward input's 512 bytes (found 65 complex64, 520 bytes)"
                forward 0 bindings 0 stride 65)
expect_tampered(r2d "forward[0].bindings[0].stride: expected 1/16 (the pass's batch_scale) of the forward input's 1024 bytes (found 16 complex64, 128 bytes)"
                forward 0 bindings 0 element "\"complex64\"")
# Convolutions: the padded plane (a division by zero at [0, 0], std::bad_alloc at [2^20, 2^20]),
# and the filter kernel an apply kernel names.
expect_tampered(bloom "convolution.padded: expected sides at least the image's and the filter's (found [0, 0])"
                convolution padded "[0, 0]")
expect_tampered(bloom "convolution.padded: expected the kernel's shape [64, 64] (found [1048576, 1048576])"
                convolution padded "[1048576, 1048576]")
expect_tampered(bloom__filter "kernels[4](bloom__filter).buffers: expected forward input 4096 complex64 and output 4096 complex64 for a c2c kernel of shape [64, 64] (found input 49 float32, output 2112 complex64)"
                transform "\"c2c\"")
expect_tampered(bloom "convolution.filter_kernel: expected a kernel of transform convolution_filter in this manifest (found 'c64', of transform c2c)"
                convolution filter_kernel "\"c64\"")
expect_tampered(bloom "convolution.filter_kernel: expected a kernel of transform convolution_filter in this manifest (found 'nope', no such kernel)"
                convolution filter_kernel "\"nope\"")
expect_tampered(bloom "convolution.apply_kernel: expected a kernel describing the same convolution ('bloom' describes another)"
                convolution mode "\"same\"")
expect_tampered(bloom "convolution.centre: expected a point inside the filter" convolution centre "[7, 3]")
# Image bindings: a width other than the rows' texels (a heap overflow), no "resource".
expect_tampered(tex "forward[0].bindings[0].width: expected 64 texels, the forward input's 1024 elements over 16 rows (found 66)"
                forward 0 bindings 0 width 66)
expect_tampered(tex "(found 32)" forward 0 bindings 0 width 32)
kernel_index(tex tex_index)
string(JSON edited REMOVE "${manifest}" kernels ${tex_index} forward 0 bindings 0 resource)
# Without "requires" too (an older fftgen's manifest), or that is what names the difference first.
string(JSON edited REMOVE "${edited}" kernels ${tex_index} requires)
file(WRITE ${out}/tampered.json "${edited}")
expect_run(1 log verify ${out}/tampered.json tex --batches 1)
if(NOT log MATCHES "tex.fwd0.spv' declares storage images at bindings \\[0, 1\\], the manifest says \\[1\\]")
  message(FATAL_ERROR "an image binding without \"resource\":\n${log}")
endif()

# "requires": less than the passes need, or a requirement this runtime cannot check.
expect_tampered(c64 "kernels[0](c64).requires: expected what the kernel's passes need, which includes maxComputeSharedMemorySize >= "
                requires limits maxComputeSharedMemorySize 0)
expect_tampered(c64 "requires.features: expected storageBuffer16BitAccess, shaderStorageImageExtendedFormats or shaderFloat64 (found 'shaderInt64': a requirement this runtime cannot check"
                requires features "[\"shaderInt64\"]")

# FIFOs where the manifest, a .spv or a twiddle table should be.
set(fifos ${WORK_DIR}/fifos)
foreach(file manifest.json c64.fwd0.spv c64.twiddles.bin)
  file(REMOVE_RECURSE ${fifos})
  file(COPY ${out}/ DESTINATION ${fifos})
  file(REMOVE ${fifos}/${file})
  execute_process(COMMAND mkfifo ${fifos}/${file} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mkfifo failed")
  endif()
  execute_process(COMMAND ${FFTGEN_VK} verify ${fifos}/manifest.json c64 --batches 1 TIMEOUT 60
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT rc EQUAL 1 OR NOT log MATCHES "${fifos}/${file}'?: not a regular file")
    message(FATAL_ERROR "a FIFO as ${file}: exit ${rc}\n${log}")
  endif()
endforeach()
