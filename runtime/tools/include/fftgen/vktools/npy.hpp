// Reading and writing NumPy .npy files of complex64 ('<c8'), the format of `fftgen-vk run`.
#pragma once
#include <complex>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace fftgen::vk {

/// A malformed, truncated or unsupported .npy file; the message names the file and the problem.
class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ComplexArray {
  std::vector<uint64_t> shape;  ///< [N] or [batch, N]
  std::vector<std::complex<float>> data;
};

/// Reads a C-ordered complex64 array of 1 or 2 dimensions.
ComplexArray read_npy_complex64(const std::filesystem::path& path);

/// Writes `array` as a version 1.0 .npy file. The data go to a temporary name beside `path`
/// that is renamed at the end, so a failure never leaves a partial file under `path`.
void write_npy_complex64(const std::filesystem::path& path, const ComplexArray& array);

/// The bytes of a .npy file holding `array` (for tests and in-memory use).
std::vector<char> encode_npy_complex64(const ComplexArray& array);

}  // namespace fftgen::vk
