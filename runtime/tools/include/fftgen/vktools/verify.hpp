// `fftgen-vk verify`: every kernel against FFTW in double.
#pragma once
#include <complex>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

struct VerifyOptions {
  std::vector<uint32_t> batches = {1, 7};
  double tolerance = 1e-6;  ///< bound on rel L2 of each direction (fp32)
  /// Bound on the round trip's rel L2; 0 means 2 × tolerance (two transforms' rounding).
  double round_trip_tolerance = 0;
  uint64_t seed = 1;
  RecordOptions record;
  /// Optional: supplies each pass's SPIR-V instead of the manifest's .spv files.
  ShaderLoader loader;
};

/// Whether a kernel stores half floats (fp16 buffers, rgba16f images); verify gives such a kernel
/// inputs whose transform stays within kHalfRange (scale_within).
bool stores_half(const KernelInfo& info);
/// Half of the largest finite half float (65504): the headroom verify keeps for rounding.
constexpr double kHalfRange = 65504.0 / 2;
/// The rel L2 error of rounding `x` to half floats and back (at least that of 65536 normal values
/// where x has fewer than 4096): the yardstick of an fp16 kernel's error.
double half_yardstick(const std::vector<std::complex<float>>& x);
/// The multiple of half_yardstick an fp16 chain of `roundings` half-float roundings of each value
/// is held to: 2 up to three roundings, 1.15 × sqrt(roundings) beyond.
double half_chain_factor(size_t roundings);

/// Throws DeviceLimitError where a batch of `options` exceeds what `kernel` can bind or the device's
/// memory holds.
void check_batches(const Device& device, const Kernel& kernel, const VerifyOptions& options);

/// Whether a kernel computes in doubles (precision fp64: its buffers hold complex128 or float64).
bool stores_double(const KernelInfo& info);
/// The bound of an fp64 kernel's rel L2 in each direction, against FFTW in long double: issue 46's
/// 1e-15 * log2(points) (at least 1e-15).
double double_tolerance(uint64_t points);

struct VerifyResult {
  std::string kernel;
  uint32_t n = 0;
  std::string shape;                     ///< "1024", "512x1024" (NY x NX), r2c marked: "1024 r2c"
  std::vector<std::string> directions;
  std::vector<uint32_t> batches;
  std::optional<double> rel_l2_forward;  ///< worst over batches; absent without the direction
  std::optional<double> rel_l2_inverse;
  double max_err = 0;                    ///< worst max |out − ref| / max |ref|
  std::optional<double> round_trip;      ///< rel L2 of inverse(forward(x)) vs x·N·s_f·s_i
  /// The bound each direction's rel L2 was held to: VerifyOptions::tolerance, or for a kernel
  /// storing half floats (precision fp16) half_factor × the rel L2 of an fp16 round trip of its
  /// input (at least that of 65536 normal values where the input has fewer than 4096; the round
  /// trip then within twice the bound).
  double tolerance = 0;
  bool half_storage = false;             ///< the kernel stores half floats (precision fp16, rgba16f images)
  /// The kernel computes in doubles (precision fp64): its inputs are normal doubles, its reference
  /// FFTW in long double, its bound double_tolerance() (the round trip within twice it).
  bool double_precision = false;
  /// The multiple of the input's fp16 round-trip error allowed: 2 for kernels of one or two
  /// passes; 1.15 × sqrt(passes + 1) for longer chains, each of whose stores rounds to half; at
  /// least 3 for rgba16f images, whose stores Vulkan lets round toward zero (lavapipe does),
  /// doubling the output's rounding error.
  double half_factor = 2.0;
  uint64_t nan_count = 0;
  bool pass = false;
  std::string error;                     ///< set when the kernel could not run at all
};

VerifyResult verify_kernel(Device& device, const Manifest& manifest, const KernelInfo& kernel,
                           const VerifyOptions& options = {});
/// Runs the checks of one kernel (`body`, which sets `batch` to the batch it runs and fills r's
/// figures), then the verdict: no NaN, each direction within r.tolerance, the round trip within
/// `round_trip_tolerance` (called after body). A failure sets r.error instead, one line that names
/// the batch where memory ran out. Shared by verify_kernel and verify_double_kernel.
void run_verify(VerifyResult& r, const std::function<void(uint32_t& batch)>& body,
                const std::function<double()>& round_trip_tolerance);
/// verify_kernel of an fp64 kernel (stores_double), which verify_kernel calls: `r` holds what the
/// kernel's kind does not change (name, shape, directions, batches).
VerifyResult verify_double_kernel(Device& device, const Manifest& manifest, const KernelInfo& kernel,
                                  const VerifyOptions& options, VerifyResult r);

/// The table printed by the CLI (one row per result, a header first).
std::string format_verify_table(const std::vector<VerifyResult>& results);
nlohmann::json verify_json(const Device& device, const std::vector<VerifyResult>& results,
                           const VerifyOptions& options);

}  // namespace fftgen::vk
