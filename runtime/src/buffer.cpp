#include "fftgen/runtime/buffer.hpp"

#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/error.hpp"

namespace fftgen::vk {

Buffer::Buffer(Device& device, VkDeviceSize bytes, MemoryKind kind) : device_(&device) {
  VkDevice dev = device.device();
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = bytes == 0 ? 4 : bytes;  // zero-sized buffers are invalid; keep callers simple
  ci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
             VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(dev, &ci, nullptr, &buffer_), "vkCreateBuffer");
  size_ = ci.size;

  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, buffer_, &req);
  VkMemoryPropertyFlags required = 0, preferred = 0;
  switch (kind) {
    case MemoryKind::device_local:
      required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      break;
    case MemoryKind::upload:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      break;
    case MemoryKind::readback:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
      break;
  }
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = req.size;
  try {
    ai.memoryTypeIndex = device.find_memory_type(req.memoryTypeBits, required, preferred);
  } catch (...) {
    release();
    throw;
  }
  VkResult r = vkAllocateMemory(dev, &ai, nullptr, &memory_);
  if (r != VK_SUCCESS) {
    release();
    throw VulkanError("allocating " + std::to_string(bytes) + " bytes of " +
                          (kind == MemoryKind::device_local ? "device-local" : "host-visible") +
                          " memory on '" + device.name() + "' failed: " + to_string(r),
                      r);
  }
  r = vkBindBufferMemory(dev, buffer_, memory_, 0);
  const auto flags = device.memory_properties().memoryTypes[ai.memoryTypeIndex].propertyFlags;
  coherent_ = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  if (r == VK_SUCCESS && (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
    r = vkMapMemory(dev, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_);
  if (r != VK_SUCCESS) {
    release();
    check(r, "vkBindBufferMemory/vkMapMemory");
  }
}

Buffer::Buffer(Device& device, VkDeviceSize bytes, MemoryKind kind, BufferContent content) : Buffer(device, bytes, kind) {
  content_ = content;
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& o) noexcept
    : device_(o.device_), buffer_(o.buffer_), memory_(o.memory_), size_(o.size_),
      coherent_(o.coherent_), mapped_(o.mapped_), content_(o.content_) {
  o.buffer_ = VK_NULL_HANDLE;
  o.memory_ = VK_NULL_HANDLE;
  o.mapped_ = nullptr;
  o.size_ = 0;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    release();
    device_ = o.device_;
    buffer_ = o.buffer_;
    memory_ = o.memory_;
    size_ = o.size_;
    coherent_ = o.coherent_;
    mapped_ = o.mapped_;
    content_ = o.content_;
    o.buffer_ = VK_NULL_HANDLE;
    o.memory_ = VK_NULL_HANDLE;
    o.mapped_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

void Buffer::release() {
  if (!device_) return;
  VkDevice dev = device_->device();
  if (mapped_) vkUnmapMemory(dev, memory_);
  if (buffer_) vkDestroyBuffer(dev, buffer_, nullptr);
  if (memory_) vkFreeMemory(dev, memory_, nullptr);
  mapped_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

namespace {

// Moves an image between layouts (GENERAL, where kernels use it, and a transfer layout around a
// copy); every earlier access finishes first.
void change_layout(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
}

// Copies `bytes` into host memory through a readback staging buffer that `copy` fills.
void download_through_staging(Device& device, void* data, VkDeviceSize bytes,
                              const std::function<void(VkCommandBuffer, VkBuffer)>& copy) {
  if (bytes == 0) return;
  Buffer staging(device, bytes, MemoryKind::readback);
  device.run_commands([&](VkCommandBuffer cmd) {
    copy(cmd, staging.handle());
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &b, 0, nullptr, 0, nullptr);
  });
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = staging.memory();
  range.size = VK_WHOLE_SIZE;
  // Harmless on coherent memory; needed on cached non-coherent readback memory.
  check(vkInvalidateMappedMemoryRanges(device.device(), 1, &range),
        "vkInvalidateMappedMemoryRanges");
  std::memcpy(data, staging.mapped(), bytes);
}

}  // namespace

VkFormat vk_format(ImageFormat format) {
  switch (format) {
    case ImageFormat::rg32f: return VK_FORMAT_R32G32_SFLOAT;
    case ImageFormat::rgba32f: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case ImageFormat::rgba16f: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case ImageFormat::r32f: return VK_FORMAT_R32_SFLOAT;
  }
  return VK_FORMAT_UNDEFINED;
}

DeviceImage::DeviceImage(Device& device, VkFormat format, uint32_t width, uint32_t height)
    : device_(&device), format_(format), width_(width), height_(height) {
  VkDevice dev = device.device();
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = format;
  ci.extent = {width, height, 1};
  ci.mipLevels = 1;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  try {
    check(vkCreateImage(dev, &ci, nullptr, &image_), "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, image_, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = device.find_memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkAllocateMemory(dev, &ai, nullptr, &memory_), "vkAllocateMemory (image)");
    check(vkBindImageMemory(dev, image_, memory_, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image_;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    check(vkCreateImageView(dev, &vci, nullptr, &view_), "vkCreateImageView");
    device.run_commands(
        [&](VkCommandBuffer cmd) { change_layout(cmd, image_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL); });
  } catch (...) {
    release();
    throw;
  }
}

DeviceImage::~DeviceImage() { release(); }

DeviceImage::DeviceImage(DeviceImage&& o) noexcept { *this = std::move(o); }

DeviceImage& DeviceImage::operator=(DeviceImage&& o) noexcept {
  if (this != &o) {
    release();
    device_ = o.device_;
    image_ = o.image_;
    memory_ = o.memory_;
    view_ = o.view_;
    format_ = o.format_;
    width_ = o.width_;
    height_ = o.height_;
    o.image_ = VK_NULL_HANDLE;
    o.memory_ = VK_NULL_HANDLE;
    o.view_ = VK_NULL_HANDLE;
  }
  return *this;
}

void DeviceImage::release() {
  if (!device_) return;
  VkDevice dev = device_->device();
  if (view_) vkDestroyImageView(dev, view_, nullptr);
  if (image_) vkDestroyImage(dev, image_, nullptr);
  if (memory_) vkFreeMemory(dev, memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

namespace {
VkBufferImageCopy whole_image(const DeviceImage& image) {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {image.width(), image.height(), 1};
  return region;
}
}  // namespace

void upload_image(Device& device, const DeviceImage& dst, const void* data, VkDeviceSize bytes) {
  Buffer staging(device, bytes, MemoryKind::upload);
  std::memcpy(staging.mapped(), data, bytes);
  device.run_commands([&](VkCommandBuffer cmd) {
    const VkBufferImageCopy region = whole_image(dst);
    change_layout(cmd, dst.handle(), VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdCopyBufferToImage(cmd, staging.handle(), dst.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    change_layout(cmd, dst.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
  });
}

void download_image(Device& device, const DeviceImage& src, void* data, VkDeviceSize bytes) {
  download_through_staging(device, data, bytes, [&](VkCommandBuffer cmd, VkBuffer staging) {
    const VkBufferImageCopy region = whole_image(src);
    change_layout(cmd, src.handle(), VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdCopyImageToBuffer(cmd, src.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging, 1, &region);
    change_layout(cmd, src.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
  });
}

void upload(Device& device, VkBuffer dst, const void* data, VkDeviceSize bytes,
            VkDeviceSize dst_offset) {
  if (bytes == 0) return;
  Buffer staging(device, bytes, MemoryKind::upload);
  std::memcpy(staging.mapped(), data, bytes);
  device.run_commands([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, dst_offset, bytes};
    vkCmdCopyBuffer(cmd, staging.handle(), dst, 1, &region);
  });
}

void download(Device& device, VkBuffer src, void* data, VkDeviceSize bytes,
              VkDeviceSize src_offset) {
  download_through_staging(device, data, bytes, [&](VkCommandBuffer cmd, VkBuffer staging) {
    VkBufferCopy region{src_offset, 0, bytes};
    vkCmdCopyBuffer(cmd, src, staging, 1, &region);
  });
}

namespace {

// A typed copy of `bytes` of `element`s to or from `buffer`: the element type it says it holds, and
// its size.
void check_typed_copy(const Buffer& buffer, ElementType element, VkDeviceSize bytes, const char* copy) {
  if (!buffer) throw UsageError(std::string(copy) + ": the buffer is empty (a default-constructed Buffer)");
  if (const auto& c = buffer.content(); c && c->element != element)
    throw UsageError(std::string(copy) + " of " + to_string(element) + " values: the buffer holds " +
                     to_string(c->element) + " (made for role " + to_string(c->role) + ")" +
                     (is_half(c->element) ? "; convert the values to half floats and copy their bytes as " +
                                                std::string(to_string(c->element))
                                          : std::string()));
  if (bytes > buffer.size())
    throw UsageError(std::string(copy) + " of " + std::to_string(bytes) + " bytes (" +
                     std::to_string(bytes / element_bytes(element)) + " " + to_string(element) +
                     " values): the buffer holds " + std::to_string(buffer.size()));
}

}  // namespace

void upload(Device& device, const Buffer& dst, ElementType element, const void* data, VkDeviceSize bytes) {
  check_typed_copy(dst, element, bytes, "upload");
  upload(device, dst.handle(), data, bytes);
}

void upload(Device& device, const Buffer& dst, const std::vector<std::complex<float>>& values) {
  upload(device, dst, ElementType::complex64, values.data(), values.size() * sizeof(values[0]));
}

void upload(Device& device, const Buffer& dst, const std::vector<float>& values) {
  upload(device, dst, ElementType::float32, values.data(), values.size() * sizeof(values[0]));
}

void download(Device& device, const Buffer& src, std::vector<std::complex<float>>& values) {
  check_typed_copy(src, ElementType::complex64, values.size() * sizeof(values[0]), "download");
  download(device, src.handle(), values.data(), values.size() * sizeof(values[0]));
}

void download(Device& device, const Buffer& src, std::vector<float>& values) {
  check_typed_copy(src, ElementType::float32, values.size() * sizeof(values[0]), "download");
  download(device, src.handle(), values.data(), values.size() * sizeof(values[0]));
}

namespace {
template <class T>
void typed_download(Device& device, const Buffer& src, ElementType element, std::vector<T>& values) {
  check_typed_copy(src, element, values.size() * sizeof(values[0]), "download");
  download(device, src.handle(), values.data(), values.size() * sizeof(values[0]));
}
}  // namespace

void upload(Device& device, const Buffer& dst, const std::vector<std::complex<double>>& values) {
  upload(device, dst, ElementType::complex128, values.data(), values.size() * sizeof(values[0]));
}

void upload(Device& device, const Buffer& dst, const std::vector<double>& values) {
  upload(device, dst, ElementType::float64, values.data(), values.size() * sizeof(values[0]));
}

void download(Device& device, const Buffer& src, std::vector<std::complex<double>>& values) {
  typed_download(device, src, ElementType::complex128, values);
}

void download(Device& device, const Buffer& src, std::vector<double>& values) {
  typed_download(device, src, ElementType::float64, values);
}

void fill(Device& device, VkBuffer dst, uint32_t pattern, VkDeviceSize bytes,
          VkDeviceSize dst_offset) {
  if (bytes == 0) return;
  device.run_commands(
      [&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, dst, dst_offset, bytes, pattern); });
}

namespace {
void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
}
}  // namespace

void record_compute_barrier(VkCommandBuffer cmd) {
  // Read-after-write for the next pass's loads, write-after-write/read for its stores.
  memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void record_transfer_to_compute_barrier(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void record_compute_to_transfer_barrier(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
}

}  // namespace fftgen::vk
