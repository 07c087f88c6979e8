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

/// The exact result, in double, of `direction` of `kernel` on `batch` transforms of `input`, times
/// `scale`. Values are as the buffers hold them, in pairs of floats: complex values, or two
/// consecutive reals per pair for real data (an r2c forward's input, its inverse's output). 1D, 2D
/// and 3D, c2c, r2c (forward: the [NZ x] NY x (NX/2+1) half spectrum; inverse: c2r) and r2c_pair (forward:
/// the half spectra of the real and imaginary parts, X[0..N/2] then Y[0..N/2]; inverse: merged).
std::vector<std::complex<double>> reference_transform(const KernelInfo& kernel, Direction direction,
                                                      const std::vector<std::complex<double>>& input,
                                                      uint32_t batch, double scale = 1.0);

/// A random input of `direction` of `kernel` for `batch` transforms (pairs of floats, as above):
/// normal values; for the inverse of a real transform, the spectrum of normal real data (so the
/// half spectrum is one a real signal has).
std::vector<std::complex<float>> random_input(const KernelInfo& kernel, Direction direction, uint32_t batch,
                                              uint64_t seed);

/// Scales an input and its transform `output` down by the same power of two (exactly) until no
/// value of `output` exceeds `largest_output`: a kernel storing half floats (65504 at most) gets
/// data in its range, as its user keeps it (an unnormalised c2r multiplies the data by N).
void scale_within(std::vector<std::complex<float>>& input, std::vector<std::complex<double>>& output,
                  double largest_output);

/// random_input() scaled as scale_within() scales it.
std::vector<std::complex<float>> random_input_within(const KernelInfo& kernel, Direction direction, uint32_t batch,
                                                     uint64_t seed, double largest_output);

/// Pairs of floats per transform in the input (`input`) or output buffer of `direction`.
uint64_t pairs_per_transform(const KernelInfo& kernel, Direction direction, bool input);

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

namespace fftgen::vk {

/// The reference of an fp64 kernel (precision fp64: buffers of doubles), computed by FFTW in long
/// double: `direction` of `kernel` on `batch` transforms of `input` (pairs of doubles as the buffers
/// hold them, as reference_transform takes pairs of floats), times `scale`. c2c and r2c (c2r), 1D
/// and 2D. Throws std::invalid_argument for another transform.
std::vector<std::complex<long double>> reference_transform_long(const KernelInfo& kernel, Direction direction,
                                                                const std::vector<std::complex<double>>& input,
                                                                uint32_t batch, long double scale = 1.0L);

/// A random input of `direction` of an fp64 kernel (normal doubles; for a c2r inverse the spectrum of
/// normal real data, rounded to double and made exactly Hermitian where it holds a value and its
/// mirror, so that every c2r algorithm reads the same signal).
std::vector<std::complex<double>> random_input_double(const KernelInfo& kernel, Direction direction, uint32_t batch,
                                                      uint64_t seed);

/// compare() for fp64 kernels: errors and norms in long double.
ErrorStats compare_long(const std::vector<std::complex<double>>& out,
                        const std::vector<std::complex<long double>>& ref);

}  // namespace fftgen::vk
