// IEEE 754 half floats (binary16) on the host: the storage of fp16 kernels' data. Conversion
// rounds to nearest, ties to even, as the GPU's OpFConvert does; overflow gives infinity.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

namespace fftgen::vk {

uint16_t float_to_half(float value);
float half_to_float(uint16_t bits);

/// Pairs of floats as half floats (re, im interleaved), and back.
std::vector<uint16_t> to_half(const std::vector<std::complex<float>>& values);
std::vector<std::complex<float>> from_half(const std::vector<uint16_t>& halves);

}  // namespace fftgen::vk
