// Reading and writing NumPy .npy files of complex64 ('<c8') and float32 ('<f4'), the formats of
// `fftgen-vk run` (float32 for real data).
#pragma once
#include <complex>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>
#include <stdexcept>
#include <vector>

namespace fftgen::vk {

/// A malformed, truncated or unsupported .npy file; the message names the file and the problem.
class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// complex128 and float64: the data of fp64 kernels (`fftgen-vk run`).
enum class NpyType { complex64, float32, complex128, float64 };

/// A C-ordered array of 1 to 4 dimensions. `values` holds the floats: two per complex element; for
/// complex128 and float64 the data's 4-byte words, two per double (npy_words()).
struct NpyArray {
  NpyType type = NpyType::complex64;
  std::vector<uint64_t> shape;
  std::vector<float> values;
};

/// "complex64 ('<c8')", "float32 ('<f4')", "complex128 ('<c16')", "float64 ('<f8')".
const char* describe(NpyType type);
/// 4-byte words of one element of `type`: 2 (complex64), 1 (float32), 4 (complex128), 2 (float64).
uint32_t npy_words(NpyType type);

/// Reads a C-ordered complex64 or float32 array of 1 to 4 dimensions. The file is checked
/// before anything is allocated: a header of at most kMaxNpyHeaderBytes that fits in the file,
/// a Python-dict header with exactly 'descr', 'fortran_order' and 'shape', non-negative shape
/// sides whose product does not overflow, and a data size equal to what the file holds.
NpyArray read_npy(const std::filesystem::path& path);

/// The same from a stream of `size` bytes; `name` starts every error message.
NpyArray read_npy(std::istream& in, uint64_t size, const std::string& name);

/// The longest header read_npy accepts (numpy writes about 128 bytes; its own reader stops at
/// 10000 unless told otherwise).
constexpr uint32_t kMaxNpyHeaderBytes = 65536;

/// Writes `array` as a version 1.0 .npy file, atomically (see write_npy_complex64).
void write_npy(const std::filesystem::path& path, const NpyArray& array);
std::vector<char> encode_npy(const NpyArray& array);

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
