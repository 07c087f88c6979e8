#include "fftgen/vktools/half.hpp"

#include <cmath>
#include <cstring>

namespace fftgen::vk {

uint16_t float_to_half(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u, magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
  if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to infinity
  if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal half, in steps of 2^-24 (exact in float)
    float a;
    std::memcpy(&a, &magnitude, 4);
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
  }
  const uint32_t exponent = (magnitude >> 23) - 127 + 15, mantissa = magnitude & 0x7fffffu;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry moves into the exponent, as it should
  return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t{h} & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    const float f = std::ldexp(static_cast<float>(mantissa), -24);
    std::memcpy(&bits, &f, 4);
  } else if (exponent == 31) {
    bits = 0x7f800000u | (mantissa << 13);
  } else {
    bits = ((exponent + 112) << 23) | (mantissa << 13);
  }
  bits |= sign;
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

std::vector<uint16_t> to_half(const std::vector<std::complex<float>>& values) {
  std::vector<uint16_t> out(values.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) {
    out[2 * i] = float_to_half(values[i].real());
    out[2 * i + 1] = float_to_half(values[i].imag());
  }
  return out;
}

std::vector<std::complex<float>> from_half(const std::vector<uint16_t>& halves) {
  std::vector<std::complex<float>> out(halves.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = {half_to_float(halves[2 * i]), half_to_float(halves[2 * i + 1])};
  return out;
}

}  // namespace fftgen::vk
