// Fused FFT convolution (docs/graphics.md): images in and out (.npy float32 [H, W] or [H, W, C],
// 8-bit .png), the filter kernel and the apply kernel of a manifest run on them, and the direct
// convolution in double they are checked against.
#pragma once
#include <complex>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/convolution.hpp"
#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/vktools/bench.hpp"
#include "fftgen/vktools/verify.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

/// A real image: height × width pixels of `channels` interleaved values, rows top to bottom.
struct Image {
  uint32_t height = 0, width = 0, channels = 1;
  std::vector<float> values;  ///< [height, width, channels]
  uint64_t size() const { return uint64_t{height} * width * channels; }
};

/// A file that is not a readable image of the kinds above; the message names the file and why.
class ImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// .npy: float32 [H, W] (one channel) or [H, W, C]. .png: 8-bit grey, grey+alpha, RGB or RGBA, as
/// linear values v / 255 in 0…1 (no sRGB decoding); its chunks' CRCs are checked, and its header's
/// sides, where `height` and `width` are given, compared with them before anything is decoded.
Image read_image(const std::filesystem::path& path, uint32_t height = 0, uint32_t width = 0);
/// .npy float32 [H, W, C] ([H, W] for one channel), or .png 8-bit: values clamped to 0…1, times
/// 255, rounded. Written whole or not at all.
void write_image(const std::filesystem::path& path, const Image& image);

/// out = image ⊛ filter per channel, as scipy.signal.fftconvolve(image, filter, mode="same") for
/// mode "same" (the filter's centre ((KH-1)/2, (KW-1)/2) on the output pixel), and the same sum
/// with the image wrapped around for "circular". `filter` has one channel or one per image channel.
/// In double, directly: the reference of the tests and of `fftgen-vk verify`.
std::vector<double> direct_convolution(const ConvolutionInfo& c, const Image& image, const Image& filter);
/// The same through FFTW in double over the padded plane (image zero-padded, filter centred at the
/// origin): rounding ~1e-15, for sizes where the direct sum would take too long.
std::vector<double> fftw_convolution(const ConvolutionInfo& c, const Image& image, const Image& filter);

/// A Convolution (fftgen/runtime/convolution.hpp) with an input and an output buffer of its own
/// (storage images for a convolution planned with "io": "image"), bound once, for Images: set_filter() makes the filter's spectrum (once), set_image() uploads an
/// image, record() the fused chain into a command buffer, result() downloads the output. What
/// convolve(), verify and the benchmark use.
class ConvolutionChain {
 public:
  /// `apply` is a kernel of transform "convolution"; UsageError otherwise.
  ConvolutionChain(Device& device, const Manifest& manifest, const KernelInfo& apply, const ShaderLoader& loader = {});
  ~ConvolutionChain();
  /// UsageError naming both unless the image and the filter have the planned sizes and channels.
  void check(const Image& image, const Image& filter) const;
  void set_filter(const Image& filter);
  void set_image(const Image& image);
  void record(VkCommandBuffer cmd, const RecordOptions& options = {}) const;
  Image result();
  /// The filter kernel's output: filter_channels planes of padded_h × (padded_w/2 + 1) values.
  std::vector<std::complex<float>> filter_spectrum();
  const KernelInfo& info() const { return convolution_.info(); }
  /// Whether the padded planes and the filter's spectrum are half floats (a plan's precision fp16).
  bool half_planes() const { return convolution_.half_planes(); }

 private:
  Device& device_;
  Convolution convolution_;
  Buffer image_in_, image_out_;        // frames in buffers
  DeviceImage frame_in_, frame_out_;   // or in storage images ("io": "image")
  ConvolutionBindings bindings_;
};

/// Runs `apply` (a kernel of transform "convolution") and its filter kernel on the device:
/// the filter's spectrum, then the fused forward → multiply → inverse chain. Checks the image and
/// the filter against the kernel's sizes and channel counts first (UsageError naming both).
/// `loader` (optional) supplies the passes' SPIR-V instead of the manifest's .spv files.
Image convolve(Device& device, const Manifest& manifest, const KernelInfo& apply, const Image& image,
               const Image& filter, const ShaderLoader& loader = {});

/// `fftgen-vk verify` of a convolution's kernels: the apply kernel (random image and filter)
/// against direct_convolution(), the filter kernel against FFTW's r2c of the padded filter with its
/// centre at the origin, times the filter kernel's scale (1/(padded plane) in fp32, 1 with half-float
/// planes). Rel L2 within VerifyOptions::tolerance, or with half-float planes within
/// half_chain_factor(its half-float roundings) × half_yardstick(its input) (1.5 × that for results
/// of fewer than 4096 values).
VerifyResult verify_convolution(Device& device, const Manifest& manifest, const KernelInfo& kernel,
                                const VerifyOptions& options);

/// `fftgen-vk bench` of a convolution (apply) kernel: the fused chain on one frame of all its
/// channels, the filter spectrum made once beforehand and not timed. GB/s counts the image read
/// and the output written.
BenchResult bench_convolution(Device& device, const Manifest& manifest, const KernelInfo& apply,
                              const BenchOptions& options);

/// `fftgen-vk convolve MANIFEST KERNEL --input IMG --filter F --output OUT`.
struct ConvolveRequest {
  std::filesystem::path manifest;
  std::string kernel;
  std::filesystem::path input, filter, output;
  int device_index = -1;
  bool validation = false;
  PipelineListener pipeline_listener{};             ///< DeviceOptions::pipeline_listener
  std::function<void(const std::string&)> notes{};  ///< DeviceOptions::notes
};
void run_convolve(const ConvolveRequest& request);

}  // namespace fftgen::vk
