// generator/plan: WebGPU's names of the image formats (fftgen/webgpu.hpp).
#include "fftgen/webgpu.hpp"

#include <stdexcept>

namespace fftgen {

std::string_view webgpu_texture_format(TextureFormat format) {
  switch (format) {
    case TextureFormat::r32f: return "r32float";
    case TextureFormat::rg32f: return "rg32float";
    case TextureFormat::rgba32f: return "rgba32float";
    case TextureFormat::rgba16f: return "rgba16float";
    case TextureFormat::automatic: break;
  }
  throw std::logic_error("webgpu_texture_format: an image format was left automatic");
}

}  // namespace fftgen
