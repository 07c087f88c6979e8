// `fftgen-vk bench`: GPU time of each kernel and of a vec4 copy of the same bytes (the floor).
#pragma once
#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

struct BenchOptions {
  uint64_t bytes = 512ull << 20;  ///< of one buffer; capped at 1/4 of the device-local heap
  uint32_t trials = 7;
  uint32_t calls_per_trial = 20;
  uint32_t warmup_submissions = 1;
  uint32_t warmup_ms = 250;  ///< and keep warming up until this long has passed (clocks ramp up)
  /// Also time each pass of a call (time_passes), after the call as a whole.
  bool per_pass = false;
  /// The direction to time; none: forward where the kernel has it, else inverse. A convolution is
  /// timed as its chain (both directions) and refuses a direction.
  std::optional<Direction> direction;
  /// Elements after each row of a 2D kernel's input (KernelIo::input_stride, a row pitch of NX +
  /// input_pad) or each transform of a 1D kernel's: a pitched or spaced view. 0: contiguous.
  uint32_t input_pad = 0;
};

/// One pass's share of a call: median over trials of its mean time per call.
struct PassTime {
  std::string name;  ///< the manifest's pass name (fwd0, inv1, ...), per direction in call order
  double ms = 0;
};

struct BenchResult {
  std::string name;        ///< kernel name, or "copy (vec4)" for the floor
  std::string direction;   ///< "forward", "inverse", "both" (a convolution's chain); empty for the copy
  uint32_t n = 0;          ///< 0 for the copy
  uint64_t batch = 0;
  uint64_t bytes = 0;      ///< of the larger buffer
  uint64_t traffic = 0;    ///< bytes one call reads and writes (input + output); 0: 2 × bytes
  double median_ms = 0;    ///< per call
  double gb_per_s = 0;     ///< traffic / median time per call
  std::vector<double> trial_ms;  ///< per call, each trial
  std::vector<PassTime> passes;  ///< with BenchOptions::per_pass: each pass's share of a call
  std::string error;       ///< set when the kernel could not run
};

/// Sets median_ms and gb_per_s from trial_ms, traffic and bytes.
void finish_bench_result(BenchResult& r);

/// The buffer size actually used: `requested` capped at 1/4 of the largest device-local heap and
/// at maxStorageBufferRange, rounded down to a multiple of 16 bytes.
uint64_t bench_bytes(const Device& device, uint64_t requested);

/// Fills `bytes` of `dst` with `sample` repeated: one upload of the sample, then device-side
/// copies doubling the filled prefix (a 512 MiB buffer costs one 32 MiB upload).
void fill_tiled(Device& device, VkBuffer dst, const std::vector<std::complex<float>>& sample, uint64_t bytes);

/// Fills `bytes` of `dst` with normal random complex values (a 2^22-value sample, tiled). Kernels
/// are timed on such data, never on a constant input whose transform is almost all zeros.
void fill_random(Device& device, VkBuffer dst, uint64_t bytes, uint64_t seed);

/// GPU time of one call, per trial: one command buffer holding a timestamp, `calls_per_trial`
/// calls recorded by `record_call` with a compute barrier between consecutive calls (each call
/// overwrites the same output), a timestamp; submitted `warmup_submissions` times untimed, then
/// once per trial. The method of `fftgen-vk bench`, shared so other drivers (fftgen-bench
/// compare, peers) time the same way. Writes made before it (uploads) must already be visible.
std::vector<double> time_calls(Device& device, const BenchOptions& options,
                               const std::function<void(VkCommandBuffer)>& record_call);

/// The names of the passes a call of these directions records, in order.
std::vector<std::string> pass_names(const KernelInfo& info, const std::vector<Direction>& directions);

/// As time_calls, with a timestamp after every pass (record_call hands `options` to
/// Kernel::record, whose after_pass stamps): each pass's share of a call, the barrier before it
/// included, so the shares add up to the call. `passes` names the passes one call records.
std::vector<PassTime> time_passes(Device& device, const BenchOptions& options, const std::vector<std::string>& passes,
                                  const std::function<void(VkCommandBuffer, const RecordOptions&)>& record_call);

/// The input and output buffers of a bench run (bench_bytes() each). Allocate them once and pass
/// them to every bench_copy/bench_kernel call: every kernel is then timed on the same memory as
/// the copy floor, and a run makes two 512 MiB allocations rather than two per kernel.
struct BenchBuffers {
  Buffer input, output;
  uint64_t bytes = 0;
};
/// The same in half floats (pairs of fp16), the data of fp16 kernels.
void fill_random_half(Device& device, VkBuffer dst, uint64_t bytes, uint64_t seed);
/// The same for buffers of doubles (precision fp64): normal doubles.
void fill_random_double(Device& device, VkBuffer dst, uint64_t bytes, uint64_t seed);

BenchBuffers make_bench_buffers(Device& device, const BenchOptions& options);

/// Forward direction (inverse if the kernel has no forward), batch = bytes / (the larger buffer
/// of one transform). GB/s counts the input and the output once each (for r2c: the reals in and
/// the half spectrum out).
BenchResult bench_kernel(Device& device, const Manifest& manifest, const KernelInfo& kernel,
                         const BenchOptions& options, BenchBuffers* buffers = nullptr);
/// The vec4 copy kernel over `bytes` (SPIR-V compiled at build time).
BenchResult bench_copy(Device& device, const BenchOptions& options, BenchBuffers* buffers = nullptr);

std::string format_bench_table(const std::vector<BenchResult>& results);
nlohmann::json bench_json(const Device& device, const std::vector<BenchResult>& results,
                          const BenchOptions& options);

/// Parses "512MiB", "1GiB", "64MB", "1000000" (bytes). Throws std::invalid_argument.
uint64_t parse_byte_size(const std::string& text);

}  // namespace fftgen::vk
