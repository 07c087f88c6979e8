#include "fftgen/runtime/convolution.hpp"

#include <utility>

#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/error.hpp"

namespace fftgen::vk {

namespace {

const KernelInfo& checked_apply(const KernelInfo& apply) {
  if (!apply.convolution || apply.transform != "convolution")
    throw UsageError("kernel '" + apply.name + "' is not a convolution (transform " + apply.transform +
                     "); a convolution is run through the kernel a plan's \"convolution\" field names");
  return apply;
}

KernelBindings bind_direction(const Kernel& kernel, Direction d, BufferRange in, BufferRange out, uint32_t batch,
                              BufferRange filter_spectrum, VkImageView in_image = VK_NULL_HANDLE,
                              VkImageView out_image = VK_NULL_HANDLE) {
  KernelIo io;
  io.input = in;
  io.output = out;
  io.input_image = in_image;
  io.output_image = out_image;
  io.filter = filter_spectrum;
  io.max_batch = batch;
  io.directions = {d};
  return kernel.bind(io);
}

}  // namespace

Convolution::Convolution(Device& device, const Manifest& manifest, const std::string& kernel, ShaderLoader loader)
    : Convolution(device, manifest, manifest.kernel(kernel), std::move(loader)) {}

Convolution::Convolution(Device& device, const Manifest& manifest, const KernelInfo& apply, ShaderLoader loader)
    : device_(device) {
  const ConvolutionInfo& c = *checked_apply(apply).convolution;
  filter_kernel_ = std::make_unique<Kernel>(device, manifest.kernel(c.filter_kernel), manifest.files, loader);
  apply_kernel_ = std::make_unique<Kernel>(device, apply, manifest.files, std::move(loader));
  filter_spectrum_ = Buffer(device, apply.forward_output.bytes() * c.filter_channels);
}

Convolution::~Convolution() = default;

const KernelInfo& Convolution::info() const { return apply_kernel_->info(); }

VkDeviceSize Convolution::image_bytes() const {
  const ConvolutionInfo& c = geometry();
  return VkDeviceSize{c.image_h} * c.image_w * c.channels * sizeof(float);
}

VkDeviceSize Convolution::filter_bytes() const {
  const ConvolutionInfo& c = geometry();
  return VkDeviceSize{c.filter_h} * c.filter_w * c.filter_channels * sizeof(float);
}

bool Convolution::half_planes() const { return is_half(info().forward_output.element); }

void Convolution::set_filter(const float* values, size_t count) {
  if (VkDeviceSize{count} * sizeof(float) != filter_bytes())
    throw UsageError("convolution '" + info().name + "': a filter of " + std::to_string(count) + " values; it takes " +
                     std::to_string(filter_bytes() / sizeof(float)) + " (float32 [filter_h, filter_w, filter_channels])");
  Buffer filter(device_, filter_bytes());
  upload(device_, filter.handle(), values, filter_bytes());
  set_filter(BufferRange{filter.handle(), 0});
}

void Convolution::set_filter(BufferRange filter) {
  const uint32_t channels = geometry().filter_channels;
  const KernelBindings bindings =
      bind_direction(*filter_kernel_, Direction::forward, filter, {filter_spectrum_.handle(), 0}, channels, {});
  device_.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);  // the filter, whether copied or written by a shader
    record_compute_barrier(cmd);
    filter_kernel_->record(cmd, Direction::forward, bindings, channels);
    record_compute_barrier(cmd);  // the spectrum is read by the chain's later submissions
  });
  filter_set_ = true;
}

bool Convolution::uses_images() const { return info().input_image(Direction::forward) != nullptr; }

ImageFormat Convolution::image_format() const {
  const StorageImage* image = info().input_image(Direction::forward);
  return image ? image->format : ImageFormat::r32f;
}

ConvolutionBindings Convolution::bind(BufferRange input, BufferRange output) const {
  if (uses_images())
    throw UsageError("convolution '" + info().name + "' reads and writes storage images (\"io\": \"image\"); "
                     "bind image views, not buffers");
  return bind_frames(input, output, VK_NULL_HANDLE, VK_NULL_HANDLE);
}

ConvolutionBindings Convolution::bind(VkImageView input, VkImageView output) const {
  if (!uses_images())
    throw UsageError("convolution '" + info().name + "' reads and writes buffers of pixels; bind buffers, or plan "
                     "it with \"io\": \"image\"");
  return bind_frames({}, {}, input, output);
}

ConvolutionBindings Convolution::bind_frames(BufferRange input, BufferRange output, VkImageView input_image,
                                             VkImageView output_image) const {
  const uint32_t planes = geometry().planes;
  ConvolutionBindings b;
  b.planes = Buffer(device_, info().forward_output.bytes() * planes);
  // The rows of the padded plane below the image are neither written nor read by the passes that
  // skip them: NaN there shows in the result if one did read them.
  fill(device_, b.planes.handle(), nan_pattern(info().forward_output.element), b.planes.size());
  b.forward = bind_direction(*apply_kernel_, Direction::forward, input, {b.planes.handle(), 0}, planes,
                             {filter_spectrum_.handle(), 0}, input_image);
  b.inverse = bind_direction(*apply_kernel_, Direction::inverse, {b.planes.handle(), 0}, output, planes, {},
                             VK_NULL_HANDLE, output_image);
  return b;
}

void Convolution::require_filter() const {
  if (!filter_set_)
    throw UsageError("convolution '" + info().name + "': no filter yet; call set_filter() before recording the chain");
}

void Convolution::record(VkCommandBuffer cmd, const ConvolutionBindings& bindings, const RecordOptions& options) const {
  require_filter();
  const uint32_t planes = geometry().planes;
  apply_kernel_->record(cmd, Direction::forward, bindings.forward, planes, options);
  record_compute_barrier(cmd);
  apply_kernel_->record(cmd, Direction::inverse, bindings.inverse, planes, options);
}

void Convolution::run(BufferRange input, BufferRange output) const {
  require_filter();
  const ConvolutionBindings bindings = bind(input, output);
  device_.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    record(cmd, bindings);
    record_compute_to_transfer_barrier(cmd);
  });
}

}  // namespace fftgen::vk
