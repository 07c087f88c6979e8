// Running a kernel on host data: upload, poison the output, record, download.
#pragma once
#include <complex>
#include <cstdint>
#include <filesystem>
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

/// Runs `direction` of `kernel` on `batch` contiguous transforms of `input` (batch × N values)
/// and returns the output (batch × N values).
std::vector<std::complex<float>> execute(Device& device, const Kernel& kernel,
                                         Direction direction,
                                         const std::vector<std::complex<float>>& input,
                                         uint32_t batch, const ExecuteOptions& options = {});

/// `fftgen-vk run`: reads `input` (.npy complex64, [N] or [batch, N]), runs the kernel, writes
/// `output` (same shape) atomically. Throws (ManifestError, NpyError, UsageError, ...) with a
/// message for a person; nothing is written under `output` then.
struct RunRequest {
  std::filesystem::path manifest;
  std::string kernel;
  std::filesystem::path input;
  std::filesystem::path output;
  Direction direction = Direction::forward;
  int device_index = -1;
  bool validation = false;
};
void run_npy(const RunRequest& request);

}  // namespace fftgen::vk
