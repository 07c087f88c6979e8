// fftgen::runtime: load a manifest written by `fftgen`, create the kernels' pipelines and record
// them into Vulkan command buffers. Depends only on the Vulkan loader and nlohmann_json.
#pragma once
#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/convolution.hpp"
#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/error.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/runtime/manifest.hpp"
#include "fftgen/runtime/pipeline_cache.hpp"
#include "fftgen/runtime/requirements.hpp"
#include "fftgen/runtime/spirv_info.hpp"
#include "fftgen/runtime/timer.hpp"
