// A program that ships fftgen kernels inside its binary. consumer_kernels.hpp, written at build
// time by fftgen_add_kernels(... AS_HEADERS), holds plan.json's SPIR-V, twiddle tables and
// manifest; nothing is read from disk. Every kernel runs forward and inverse through
// fftgen::runtime, and each result is checked against a direct DFT in double.
// Exit status: 0 when every check passes, 1 otherwise.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <vector>

#include "consumer_kernels.hpp"
#include "fftgen/runtime.hpp"

namespace vk = fftgen::vk;

namespace {

constexpr uint32_t kBatch = 3;
constexpr double kTolerance = 1e-5;  // relative L2 error; fp32 kernels reach about 1e-7

// Relative L2 error of `out` against the DFT of `in` (both batch × N) scaled by `scale`, over
// every bin up to N = 4096 and every (N/256)-th bin above, so the check stays fast at large N.
double dft_error(const std::vector<std::complex<float>>& in, const std::vector<std::complex<float>>& out,
                 uint32_t n, vk::Direction direction, double scale) {
  const double sign = direction == vk::Direction::forward ? -1.0 : 1.0;
  const double pi = std::acos(-1.0);
  std::vector<std::complex<double>> roots(n);  // roots[m] = e^(sign 2 pi i m / N)
  for (uint32_t m = 0; m < n; ++m) roots[m] = std::polar(1.0, sign * 2.0 * pi * m / n);
  const uint32_t step = n <= 4096 ? 1 : n / 256;
  double err = 0, ref_norm = 0;
  for (uint32_t b = 0; b < kBatch; ++b)
    for (uint64_t k = 0; k < n; k += step) {
      std::complex<double> ref = 0;
      for (uint64_t j = 0; j < n; ++j)
        ref += std::complex<double>(in[b * n + j]) * roots[(j * k) % n];
      ref *= scale;
      err += std::norm(std::complex<double>(out[b * n + k]) - ref);
      ref_norm += std::norm(ref);
    }
  return std::sqrt(err / ref_norm);
}

bool check(vk::Device& device, const vk::Kernel& kernel, vk::Direction direction) {
  const uint32_t n = kernel.n();
  std::vector<std::complex<float>> input(uint64_t{n} * kBatch), output(input.size());
  std::mt19937 rng(n);
  std::normal_distribution<float> normal;
  for (auto& x : input) x = {normal(rng), normal(rng)};

  const VkDeviceSize bytes = input.size() * sizeof(input[0]);
  vk::Buffer src(device, bytes), dst(device, bytes);
  vk::upload(device, src.handle(), input.data(), bytes);
  vk::KernelIo io;
  io.input = {src.handle(), 0};
  io.output = {dst.handle(), 0};
  io.max_batch = kBatch;
  const vk::KernelBindings bindings = kernel.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    vk::record_transfer_to_compute_barrier(cmd);
    kernel.record(cmd, direction, bindings, kBatch);
    vk::record_compute_to_transfer_barrier(cmd);
  });
  vk::download(device, dst.handle(), output.data(), bytes);

  const auto& info = kernel.info();
  const double scale = direction == vk::Direction::forward ? info.forward_scale : info.inverse_scale;
  const double error = dft_error(input, output, n, direction, scale);
  const bool ok = error <= kTolerance;
  std::printf("%-10s %-8s N = %-6u relative L2 error %.2e  %s\n", info.name.c_str(), vk::to_string(direction),
              n, error, ok ? "ok" : "FAILED");
  return ok;
}

}  // namespace

int main() {
  try {
    vk::DeviceOptions options;
    options.validation = std::getenv("FFTGEN_CONSUMER_VALIDATION") != nullptr;
    vk::Device device(options);
    std::printf("device: %s\n", device.name().c_str());

    const vk::Manifest manifest =
        vk::parse_manifest_text(consumer_kernels::manifest, "consumer_kernels::manifest",
                                vk::FileSource::in_memory(consumer_kernels::files));
    bool ok = !manifest.kernels.empty();
    for (const vk::KernelInfo& info : manifest.kernels) {
      const vk::Kernel kernel(device, manifest, info.name);
      for (vk::Direction direction : info.directions) ok &= check(device, kernel, direction);
    }
    for (const auto& message : device.validation_messages()) {
      std::fprintf(stderr, "validation: %s\n", message.text.c_str());
      ok = false;
    }
    std::printf(ok ? "every kernel matches the direct DFT\n" : "FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: error: %s\n", e.what());
    return 1;
  }
}
