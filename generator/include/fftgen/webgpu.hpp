// WebGPU's rules for image kernels ("io": "image") with the wgsl target (docs/targets.md, "WebGPU"):
// the texture format of each image format, and the texture size WebGPU grants by default.
#pragma once
#include <cstdint>
#include <string_view>

#include "fftgen/types.hpp"

namespace fftgen {

/// maxTextureDimension2D, WebGPU's default limit: the widest image row of a kernel with the wgsl
/// target, N of a 1D image kernel (2D sides are at most 8192 for every target; D3D12 and Metal allow
/// rows of kMaxTextureWidth). The height of a batch is the runtime's to check.
inline constexpr uint32_t kWebGpuMaxTextureSide = 8192;

/// The WebGPU texture format (GPUTextureFormat, and WGSL's texel format) of an image format. Each is
/// a storage-texture format of core WebGPU for read-only and write-only access, which is all that
/// image kernels bind (read_write storage textures allow only r32float, r32sint and r32uint).
/// Throws std::logic_error for TextureFormat::automatic.
std::string_view webgpu_texture_format(TextureFormat format);

}  // namespace fftgen
