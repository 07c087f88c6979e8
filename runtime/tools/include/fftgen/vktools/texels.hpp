// The texels of io image kernels' storage images on the host (docs/graphics.md, "Textures"): the
// values a buffer kernel would read or write, one complex value per texel in (r, g) of rg32f,
// rgba32f and rgba16f (b and a 0), one real per texel of r32f.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

/// Pairs of floats (complex values; two reals each for r32f) as tightly packed texels of `format`.
std::vector<uint8_t> to_texels(ImageFormat format, const std::vector<std::complex<float>>& values);
/// The pairs of floats that tightly packed texels of `format` hold (rgba16f: as half floats).
std::vector<std::complex<float>> from_texels(ImageFormat format, const std::vector<uint8_t>& texels);

/// The input and output images of one direction of an io image kernel, for `batch` transforms.
struct KernelImages {
  DeviceImage input, output;
};
KernelImages make_kernel_images(Device& device, const KernelInfo& info, Direction direction, uint32_t batch);
/// Binds `images` as `direction`'s input and output for up to `batch` transforms.
KernelIo image_io(const KernelImages& images, Direction direction, uint32_t batch);

}  // namespace fftgen::vk
