#include "fftgen/vktools/texels.hpp"

#include <cstring>

#include "fftgen/runtime/error.hpp"
#include "fftgen/vktools/half.hpp"

namespace fftgen::vk {

std::vector<uint8_t> to_texels(ImageFormat format, const std::vector<std::complex<float>>& values) {
  std::vector<uint8_t> out(values.size() * texel_bytes(format) * (format == ImageFormat::r32f ? 2 : 1));
  switch (format) {
    case ImageFormat::rg32f:
    case ImageFormat::r32f:  // the same floats, one or two per texel
      std::memcpy(out.data(), values.data(), out.size());
      break;
    case ImageFormat::rgba32f:
      for (size_t i = 0; i < values.size(); ++i) {
        const float texel[4] = {values[i].real(), values[i].imag(), 0.0f, 0.0f};
        std::memcpy(out.data() + 16 * i, texel, 16);
      }
      break;
    case ImageFormat::rgba16f:
      for (size_t i = 0; i < values.size(); ++i) {
        const uint16_t texel[4] = {float_to_half(values[i].real()), float_to_half(values[i].imag()), 0, 0};
        std::memcpy(out.data() + 8 * i, texel, 8);
      }
      break;
  }
  return out;
}

std::vector<std::complex<float>> from_texels(ImageFormat format, const std::vector<uint8_t>& texels) {
  std::vector<std::complex<float>> out(texels.size() / texel_bytes(format) / (format == ImageFormat::r32f ? 2 : 1));
  switch (format) {
    case ImageFormat::rg32f:
    case ImageFormat::r32f:
      std::memcpy(out.data(), texels.data(), out.size() * 8);
      break;
    case ImageFormat::rgba32f:
      for (size_t i = 0; i < out.size(); ++i) {
        float texel[4];
        std::memcpy(texel, texels.data() + 16 * i, 16);
        out[i] = {texel[0], texel[1]};
      }
      break;
    case ImageFormat::rgba16f:
      for (size_t i = 0; i < out.size(); ++i) {
        uint16_t texel[4];
        std::memcpy(texel, texels.data() + 8 * i, 8);
        out[i] = {half_to_float(texel[0]), half_to_float(texel[1])};
      }
      break;
  }
  return out;
}

KernelImages make_kernel_images(Device& device, const KernelInfo& info, Direction direction, uint32_t batch) {
  const StorageImage* in = info.input_image(direction);
  const StorageImage* out = info.output_image(direction);
  if (!in || !out)
    throw ManifestError("kernel '" + info.name + "': the " + to_string(direction) +
                        " direction does not read and write storage images; fftgen's image kernels do both");
  auto make = [&](const StorageImage& s) {
    return DeviceImage(device, vk_format(s.format), s.width, static_cast<uint32_t>(s.height(batch)));
  };
  return {make(*in), make(*out)};
}

KernelIo image_io(const KernelImages& images, Direction direction, uint32_t batch) {
  KernelIo io;
  io.input_image = images.input.view();
  io.output_image = images.output.view();
  io.max_batch = batch;
  io.directions = {direction};
  return io;
}

}  // namespace fftgen::vk
