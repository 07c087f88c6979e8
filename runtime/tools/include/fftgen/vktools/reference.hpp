// Reference transforms in double precision (FFTW) and the error measures of `fftgen-vk verify`.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

/// `batch` contiguous transforms of length n, unnormalised, times `scale`. forward uses
/// exp(-2πi jk/n), inverse exp(+2πi jk/n) (FFTW's and fftgen's convention).
std::vector<std::complex<double>> reference_dft(const std::vector<std::complex<double>>& input,
                                                uint32_t n, uint32_t batch, Direction direction,
                                                double scale = 1.0);

struct ErrorStats {
  double rel_l2 = 0;      ///< ‖out − ref‖₂ / ‖ref‖₂
  double max_rel = 0;     ///< max |out − ref| / max |ref|
  uint64_t nan_count = 0; ///< non-finite outputs (unwritten elements stay NaN)
};

ErrorStats compare(const std::vector<std::complex<float>>& out,
                   const std::vector<std::complex<double>>& ref);

/// Normally distributed complex values (re and im independent N(0,1)), reproducible by seed.
std::vector<std::complex<float>> random_normal(uint64_t count, uint64_t seed);

}  // namespace fftgen::vk
