// `fftgen-vk verify` of fp64 kernels: inputs of normal doubles, FFTW in long double as the
// reference, the error against issue 46's 1e-15 * log2 N.
#include <algorithm>
#include <cmath>

#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/reference.hpp"
#include "fftgen/vktools/verify.hpp"

namespace fftgen::vk {

bool stores_double(const KernelInfo& info) {
  return is_double(info.forward_input.element) || is_double(info.forward_output.element);
}

double double_tolerance(uint64_t points) {
  return 1e-15 * std::max(1.0, std::log2(static_cast<double>(points)));
}

namespace {

double worst(const std::optional<double>& so_far, double v) { return std::max(so_far.value_or(0.0), v); }

// One batch: each direction against FFTW in long double, then the round trip.
void verify_batch(Device& device, const Kernel& kernel, const VerifyOptions& options, uint32_t batch,
                  VerifyResult& r) {
  const KernelInfo& info = kernel.info();
  ExecuteOptions exec;
  exec.record = options.record;
  const uint64_t seed = options.seed * 1000003u + batch;
  std::vector<std::complex<double>> forward_in, forward_out;
  for (Direction d : info.directions) {
    const long double scale = d == Direction::forward ? info.forward_scale : info.inverse_scale;
    const auto x = random_input_double(info, d, batch, seed);
    const auto reference = reference_transform_long(info, d, x, batch, scale);
    auto out = execute_double(device, kernel, d, x, batch, exec);
    const ErrorStats stats = compare_long(out, reference);
    auto& rel = d == Direction::forward ? r.rel_l2_forward : r.rel_l2_inverse;
    rel = worst(rel, stats.rel_l2);
    r.max_err = std::max(r.max_err, stats.max_rel);
    r.nan_count += stats.nan_count;
    if (d == Direction::forward) forward_in = x, forward_out = std::move(out);
  }
  if (!info.has(Direction::forward) || !info.has(Direction::inverse)) return;
  const long double gain = static_cast<long double>(info.points()) * info.forward_scale * info.inverse_scale;
  const auto back = execute_double(device, kernel, Direction::inverse, forward_out, batch, exec);
  std::vector<std::complex<long double>> expected(forward_in.begin(), forward_in.end());
  for (auto& v : expected) v *= gain;
  const ErrorStats stats = compare_long(back, expected);
  r.round_trip = worst(r.round_trip, stats.rel_l2);
  r.nan_count += stats.nan_count;
}

}  // namespace

VerifyResult verify_double_kernel(Device& device, const Manifest& manifest, const KernelInfo& info,
                                  const VerifyOptions& options, VerifyResult r) {
  r.double_precision = true;
  r.tolerance = double_tolerance(info.points());
  run_verify(r, [&](uint32_t& batch) {
    Kernel kernel(device, info, manifest.files, options.loader);
    check_batches(device, kernel, options);
    for (const uint32_t b : options.batches) verify_batch(device, kernel, options, batch = b, r);
  }, [&] { return 2 * r.tolerance; });
  return r;
}

}  // namespace fftgen::vk
