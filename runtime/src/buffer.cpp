#include "fftgen/runtime/buffer.hpp"

#include <cstring>
#include <string>

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

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& o) noexcept
    : device_(o.device_), buffer_(o.buffer_), memory_(o.memory_), size_(o.size_),
      coherent_(o.coherent_), mapped_(o.mapped_) {
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
  if (bytes == 0) return;
  Buffer staging(device, bytes, MemoryKind::readback);
  device.run_commands([&](VkCommandBuffer cmd) {
    VkBufferCopy region{src_offset, 0, bytes};
    vkCmdCopyBuffer(cmd, src, staging.handle(), 1, &region);
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
