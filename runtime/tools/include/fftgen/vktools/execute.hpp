// Running a kernel on host data: upload, poison the output, record, download.
#pragma once
#include <complex>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/kernel.hpp"

namespace fftgen::vk {

struct ExecuteOptions {
  /// Fill the output (and nothing else) with NaN first, so unwritten elements show up.
  bool poison_output = true;
  RecordOptions record;
};

/// Runs `direction` of `kernel` on `batch` contiguous transforms of `input` and returns the
/// output. Values are pairs of floats as the buffers hold them (complex values; two reals per
/// pair for real data): batch × pairs_per_transform() of each side.
std::vector<std::complex<float>> execute(Device& device, const Kernel& kernel,
                                         Direction direction,
                                         const std::vector<std::complex<float>>& input,
                                         uint32_t batch, const ExecuteOptions& options = {});

/// execute() for an fp64 kernel (buffers of complex128 or float64): pairs of doubles in and out.
std::vector<std::complex<double>> execute_double(Device& device, const Kernel& kernel, Direction direction,
                                                 const std::vector<std::complex<double>>& input, uint32_t batch,
                                                 const ExecuteOptions& options = {});

/// The first `pairs` pairs of `buffer`, which holds `element`s (half floats widened to float).
std::vector<std::complex<float>> download_pairs(Device& device, VkBuffer buffer, ElementType element, uint64_t pairs);

/// `fftgen-vk run`: reads `input` (.npy: complex64 [NY,] NX for c2c; float32 [NY,] NX into an r2c
/// forward; complex64 [NY,] NX/2+1 into its inverse; complex64 [2, N/2+1] into an r2c_pair
/// inverse; each with an optional leading batch dimension), runs the kernel, writes `output`
/// (the matching shape and dtype) atomically. An fp64 kernel takes and writes complex128 and float64
/// in place of complex64 and float32. Throws (ManifestError, NpyError, UsageError, ...) with a
/// message for a person; nothing is written under `output` then.
struct RunRequest {
  std::filesystem::path manifest;
  std::string kernel;
  std::filesystem::path input;
  std::filesystem::path output;
  Direction direction = Direction::forward;
  int device_index = -1;
  bool validation = false;
  PipelineListener pipeline_listener{};             ///< DeviceOptions::pipeline_listener
  std::function<void(const std::string&)> notes{};  ///< DeviceOptions::notes
};
void run_npy(const RunRequest& request);

}  // namespace fftgen::vk
