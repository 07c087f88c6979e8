// Convolution: the two kernels of a plan's "convolution" field run as one operation. The filter
// kernel (`<name>__filter`) makes the filter's spectrum once; the apply kernel's forward direction
// (image → padded planes, the product with the spectrum fused in) and its inverse (planes → the
// cropped image) are then recorded into the caller's command buffers, on the caller's buffers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <vulkan/vulkan.h>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

class Device;

/// One pair of image buffers bound to a Convolution: the padded planes between its forward and
/// its inverse, and both directions' descriptor sets. Made by Convolution::bind(); move-only.
/// Calls recorded with one ConvolutionBindings must not overlap on the GPU (they share the planes).
struct ConvolutionBindings {
  Buffer planes;
  KernelBindings forward, inverse;
};

/// Images are float32 [image_h, image_w, channels] (channels interleaved, rows top to bottom) and
/// the filter float32 [filter_h, filter_w, filter_channels], as ConvolutionInfo (geometry()) says.
/// The result equals scipy.signal.fftconvolve(image, filter, mode="same") per channel (mode
/// "same"), or the same sum with the image wrapped around (mode "circular"); docs/graphics.md.
class Convolution {
 public:
  /// `kernel` names the apply kernel (the plan's kernel name, transform "convolution"): ManifestError
  /// listing the kernels if there is none, UsageError if it is another transform. Loads both kernels
  /// (Kernel's limits and SPIR-V checks) and allocates the filter's spectrum.
  Convolution(Device& device, const Manifest& manifest, const std::string& kernel, ShaderLoader loader = {});
  Convolution(Device& device, const Manifest& manifest, const KernelInfo& apply, ShaderLoader loader = {});
  ~Convolution();
  Convolution(const Convolution&) = delete;
  Convolution& operator=(const Convolution&) = delete;

  const KernelInfo& info() const;
  const ConvolutionInfo& geometry() const { return *info().convolution; }
  /// Bytes of one image (input or output) and of the filter: float32, as above.
  VkDeviceSize image_bytes() const;
  VkDeviceSize filter_bytes() const;
  /// Whether the padded planes and the filter's spectrum are half floats (a plan's precision fp16).
  bool half_planes() const;

  /// Uploads the filter (`count` floats: filter_bytes() / 4, else UsageError naming both), makes its
  /// spectrum and waits. Call again to change the filter, while no recorded chain is running.
  void set_filter(const float* values, size_t count);
  /// The same with the filter already in a device buffer (float32, at an aligned offset).
  void set_filter(BufferRange filter);
  /// The filter kernel's output, which the chain reads: filter_channels spectra of the padded plane.
  const Buffer& filter_spectrum() const { return filter_spectrum_; }

  /// Binds an input and an output buffer (image_bytes() each from their offsets; distinct buffers)
  /// and allocates the planes between them (filled with NaN once: a pass reading what none wrote
  /// shows in the result).
  ConvolutionBindings bind(BufferRange input, BufferRange output) const;
  /// Whether the frames are storage images (a plan's "io": "image"): the input and the output are
  /// then images of image_w × image_h texels, in the format the manifest names (image_format()).
  bool uses_images() const;
  /// That format (r32f for one channel, rg32f or rgba32f for two in r and g); meaningful with uses_images().
  ImageFormat image_format() const;
  /// Binds an input and an output storage image (views of distinct images in VK_IMAGE_LAYOUT_GENERAL, as
  /// above) and allocates the planes; UsageError for a convolution of buffers (and bind(BufferRange,
  /// BufferRange) for one of images).
  ConvolutionBindings bind(VkImageView input, VkImageView output) const;
  /// Records the chain: forward with the product, a compute→compute barrier, inverse with the crop.
  /// As Kernel::record, the caller orders it against its own work (a barrier before, making the
  /// input visible to compute shaders, and one after, before reading the output). UsageError if no
  /// filter was set.
  void record(VkCommandBuffer cmd, const ConvolutionBindings& bindings, const RecordOptions& options = {}) const;
  /// Binds, records between a transfer→compute and a compute→transfer barrier, submits and waits.
  void run(BufferRange input, BufferRange output) const;

 private:
  void require_filter() const;
  ConvolutionBindings bind_frames(BufferRange input, BufferRange output, VkImageView input_image,
                                  VkImageView output_image) const;

  Device& device_;
  std::unique_ptr<Kernel> filter_kernel_, apply_kernel_;
  Buffer filter_spectrum_;
  bool filter_set_ = false;
};

}  // namespace fftgen::vk
