// A program that ships fftgen kernels inside its binary. consumer_kernels.hpp, written at build
// time by fftgen_add_kernels(... AS_HEADERS), holds plan.json's SPIR-V, twiddle tables and
// manifest; nothing is read from disk. Every kernel runs forward and inverse through
// fftgen::runtime, and each result is checked against a direct DFT in double; the convolution
// runs through fftgen::vk::Convolution and is checked against a direct convolution in double.
// Exit status: 0 when every check passes, 1 otherwise.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "consumer_kernels.hpp"
#include "fftgen/runtime.hpp"

namespace fvk = fftgen::vk;  // not `vk`: Vulkan-Hpp's namespace

namespace {

constexpr uint32_t kBatch = 3;
constexpr double kTolerance = 1e-5;  // relative L2 error; fp32 kernels reach about 1e-7

// Relative L2 error of `out` against the DFT of `in` (both batch × N) scaled by `scale`, over
// every bin up to N = 4096 and every (N/256)-th bin above, so the check stays fast at large N.
double dft_error(const std::vector<std::complex<float>>& in, const std::vector<std::complex<float>>& out,
                 uint32_t n, fvk::Direction direction, double scale) {
  const double sign = direction == fvk::Direction::forward ? -1.0 : 1.0;
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

bool check(fvk::Device& device, const fvk::Kernel& kernel, fvk::Direction direction) {
  const uint32_t n = kernel.n();
  std::vector<std::complex<float>> input(uint64_t{n} * kBatch), output(input.size());
  std::mt19937 rng(n);
  std::normal_distribution<float> normal;
  for (auto& x : input) x = {normal(rng), normal(rng)};

  const VkDeviceSize bytes = input.size() * sizeof(input[0]);
  fvk::Buffer src(device, bytes), dst(device, bytes);
  fvk::upload(device, src.handle(), input.data(), bytes);
  fvk::KernelIo io;
  io.input = {src.handle(), 0};
  io.output = {dst.handle(), 0};
  io.max_batch = kBatch;
  const fvk::KernelBindings bindings = kernel.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    fvk::record_transfer_to_compute_barrier(cmd);
    kernel.record(cmd, direction, bindings, kBatch);
    fvk::record_compute_to_transfer_barrier(cmd);
  });
  fvk::download(device, dst.handle(), output.data(), bytes);

  const auto& info = kernel.info();
  const double scale = direction == fvk::Direction::forward ? info.forward_scale : info.inverse_scale;
  const double error = dft_error(input, output, n, direction, scale);
  const bool ok = error <= kTolerance;
  std::printf("%-10s %-8s N = %-6u relative L2 error %.2e  %s\n", info.name.c_str(), fvk::to_string(direction),
              n, error, ok ? "ok" : "FAILED");
  return ok;
}


// out = image ⊛ filter per channel ("same": the filter's centre on the output pixel), in double.
double convolution_error(const fvk::ConvolutionInfo& c, const std::vector<float>& image,
                         const std::vector<float>& filter, const std::vector<float>& out) {
  const int cy = static_cast<int>(c.filter_h - 1) / 2, cx = static_cast<int>(c.filter_w - 1) / 2;
  const int h = static_cast<int>(c.image_h), w = static_cast<int>(c.image_w), ch = static_cast<int>(c.channels);
  double err = 0, ref_norm = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < ch; ++k) {
        double ref = 0;
        for (int ky = 0; ky < static_cast<int>(c.filter_h); ++ky)
          for (int kx = 0; kx < static_cast<int>(c.filter_w); ++kx) {
            const int sy = y + cy - ky, sx = x + cx - kx;
            if (sy >= 0 && sy < h && sx >= 0 && sx < w)
              ref += double{filter[ky * c.filter_w + kx]} * image[(sy * w + sx) * ch + k];
          }
        const size_t i = (static_cast<size_t>(y) * w + x) * ch + k;
        err += (out[i] - ref) * (out[i] - ref);
        ref_norm += ref * ref;
      }
  return std::sqrt(err / ref_norm);
}

// A convolution as an engine runs one: the filter's spectrum made once, then the fused chain
// recorded into a command buffer on the program's own buffers (a one-channel filter).
bool check_convolution(fvk::Device& device, const fvk::Manifest& manifest, const std::string& name) {
  fvk::Convolution glow(device, manifest, name);
  std::vector<float> image(glow.image_bytes() / 4), filter(glow.filter_bytes() / 4), out(image.size());
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform;
  for (float& v : image) v = uniform(rng);
  for (float& v : filter) v = uniform(rng);

  fvk::Buffer frame(device, glow.image_bytes()), glowing(device, glow.image_bytes());
  fvk::upload(device, frame.handle(), image.data(), glow.image_bytes());
  glow.set_filter(filter.data(), filter.size());  // the filter's spectrum, once
  const fvk::ConvolutionBindings bindings = glow.bind({frame.handle(), 0}, {glowing.handle(), 0});
  device.run_commands([&](VkCommandBuffer cmd) {  // every frame, into the engine's command buffer
    fvk::record_transfer_to_compute_barrier(cmd);
    glow.record(cmd, bindings);
    fvk::record_compute_to_transfer_barrier(cmd);
  });
  fvk::download(device, glowing.handle(), out.data(), glow.image_bytes());

  const double error = convolution_error(glow.geometry(), image, filter, out);
  const bool ok = error <= kTolerance;
  std::printf("%-10s %-8s %ux%ux%u relative L2 error %.2e  %s\n", name.c_str(), "convolve", glow.geometry().image_h,
              glow.geometry().image_w, glow.geometry().channels, error, ok ? "ok" : "FAILED");
  return ok;
}

}  // namespace

int main() {
  try {
    fvk::DeviceOptions options;
    options.validation = std::getenv("FFTGEN_CONSUMER_VALIDATION") != nullptr;
    fvk::Device device(options);
    std::printf("device: %s\n", device.name().c_str());

    const fvk::Manifest manifest =
        fvk::parse_manifest_text(consumer_kernels::manifest, "consumer_kernels::manifest",
                                fvk::FileSource::in_memory(consumer_kernels::files));
    bool ok = !manifest.kernels.empty();
    for (const fvk::KernelInfo& info : manifest.kernels) {
      if (info.transform == "convolution") ok &= check_convolution(device, manifest, info.name);
      if (info.convolution) continue;  // its filter kernel runs inside the Convolution
      const fvk::Kernel kernel(device, manifest, info.name);
      for (fvk::Direction direction : info.directions) ok &= check(device, kernel, direction);
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
