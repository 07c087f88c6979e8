// Buffer: a VkBuffer with its own VkDeviceMemory, and staging upload/download helpers.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <vulkan/vulkan.h>

#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

class Device;

enum class MemoryKind {
  device_local,  ///< fastest for the GPU; host access goes through staging
  upload,        ///< host visible + coherent, written by the CPU
  readback,      ///< host visible (cached where possible), read by the CPU
};

/// What a buffer holds and what it is for: its element type, and the role of a kernel's binding it
/// was made for (Kernel::make_buffer says both). Kernel::bind() and the typed upload() and
/// download() refuse a buffer of another element type (a complex64 buffer where an fp16 kernel
/// reads complex32) or of another role (a scratch or filter buffer where the data goes).
struct BufferContent {
  ElementType element = ElementType::complex64;
  BufferRole role = BufferRole::input;
};

/// A caller's buffer, from `offset` on. The range bound is what the batch needs. `bytes` and
/// `content`, where given, are checked by Kernel::bind() (a Buffer converts to a range with both).
struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  /// Bytes the buffer holds from `offset`; 0: not said (bind() then trusts the caller). bind()
  /// refuses a range smaller than the kernel needs for KernelIo::max_batch.
  VkDeviceSize bytes = 0;
  /// What the buffer holds; not said: bind() trusts the caller.
  std::optional<BufferContent> content{};
};

/// Storage buffer usable as copy source and destination. Move-only; frees itself.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Device& device, VkDeviceSize bytes, MemoryKind kind = MemoryKind::device_local);
  /// A buffer that says what it holds (Kernel::make_buffer makes these).
  Buffer(Device& device, VkDeviceSize bytes, MemoryKind kind, BufferContent content);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceMemory memory() const { return memory_; }
  VkDeviceSize size() const { return size_; }
  /// Host pointer when the memory is host visible (kept mapped), else nullptr.
  void* mapped() const { return mapped_; }
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }
  /// What the buffer holds, where it was made saying so.
  const std::optional<BufferContent>& content() const { return content_; }
  /// The whole buffer as a range, with its size and content: what KernelIo takes.
  BufferRange range() const { return {buffer_, 0, size_, content_}; }
  operator BufferRange() const { return range(); }

 private:
  void release();
  Device* device_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  bool coherent_ = true;
  void* mapped_ = nullptr;
  std::optional<BufferContent> content_;
};

/// The Vulkan format of an io image kernel's storage image.
VkFormat vk_format(ImageFormat format);

/// A 2D storage image (io image kernels' input and output) with its own memory and view, in
/// VK_IMAGE_LAYOUT_GENERAL from creation on (what storage images and copies both accept).
/// Usable as copy source and destination. Move-only; frees itself.
class DeviceImage {
 public:
  DeviceImage() = default;
  DeviceImage(Device& device, VkFormat format, uint32_t width, uint32_t height);
  ~DeviceImage();
  DeviceImage(DeviceImage&& other) noexcept;
  DeviceImage& operator=(DeviceImage&& other) noexcept;
  DeviceImage(const DeviceImage&) = delete;
  DeviceImage& operator=(const DeviceImage&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  VkFormat format() const { return format_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }

 private:
  void release();
  Device* device_ = nullptr;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  uint32_t width_ = 0, height_ = 0;
};

/// Copies tightly packed texels (width × height × texel bytes) into `dst` and waits
/// (vkCmdCopyBufferToImage from a staging buffer).
void upload_image(Device& device, const DeviceImage& dst, const void* data, VkDeviceSize bytes);
/// Copies every texel of `src` into host memory (tightly packed) and waits.
void download_image(Device& device, const DeviceImage& src, void* data, VkDeviceSize bytes);

/// Copies `bytes` from host memory into `dst` at `dst_offset` (through a staging buffer unless
/// dst is host visible) and waits.
void upload(Device& device, VkBuffer dst, const void* data, VkDeviceSize bytes,
            VkDeviceSize dst_offset = 0);
/// Copies `bytes` of `src` at `src_offset` into host memory and waits.
void download(Device& device, VkBuffer src, void* data, VkDeviceSize bytes,
              VkDeviceSize src_offset = 0);
/// Typed copies between host vectors and a buffer from its start, waiting: complex64 values
/// (std::complex<float>) or float32 values (float). A UsageError in one line where the buffer says it
/// holds another element type (e.g. complex64 values into an fp16 kernel's complex32 input: convert
/// them to half floats and use the untyped upload) or where the values do not fit in it.
void upload(Device& device, const Buffer& dst, const std::vector<std::complex<float>>& values);
void upload(Device& device, const Buffer& dst, const std::vector<float>& values);
/// The same with raw bytes of `element`s (half floats: complex32, float16).
void upload(Device& device, const Buffer& dst, ElementType element, const void* data, VkDeviceSize bytes);
/// Fills `values` (its size says how many) from the start of `src`; the same checks.
void download(Device& device, const Buffer& src, std::vector<std::complex<float>>& values);
void download(Device& device, const Buffer& src, std::vector<float>& values);
/// The same in doubles (precision fp64): complex128 values (std::complex<double>), float64 (double).
void upload(Device& device, const Buffer& dst, const std::vector<std::complex<double>>& values);
void upload(Device& device, const Buffer& dst, const std::vector<double>& values);
void download(Device& device, const Buffer& src, std::vector<std::complex<double>>& values);
void download(Device& device, const Buffer& src, std::vector<double>& values);

/// Fills `bytes` (a multiple of 4) of `dst` with the 32-bit `pattern` and waits. 0x7fc00000 is a
/// float NaN: a kernel that leaves an element unwritten is then caught by any NaN check.
void fill(Device& device, VkBuffer dst, uint32_t pattern, VkDeviceSize bytes,
          VkDeviceSize dst_offset = 0);

inline constexpr uint32_t kNanPattern = 0x7fc00000u;
/// Two half-float NaNs, the same for buffers of half floats.
inline constexpr uint32_t kHalfNanPattern = 0x7e007e00u;
/// A NaN as a float, and repeated, as a double (0x7ff87ff87ff87ff8): for buffers of doubles.
inline constexpr uint32_t kDoubleNanPattern = 0x7ff87ff8u;
/// The NaN pattern for a buffer of `element`s.
inline uint32_t nan_pattern(ElementType element) {
  return is_half(element) ? kHalfNanPattern : is_double(element) ? kDoubleNanPattern : kNanPattern;
}

/// Memory barrier making shader writes visible to later shader reads and writes (compute to
/// compute). Recorded between the passes of a kernel and between back-to-back kernels.
void record_compute_barrier(VkCommandBuffer cmd);
/// Transfer writes -> shader reads (after an upload copy, before a kernel).
void record_transfer_to_compute_barrier(VkCommandBuffer cmd);
/// Shader writes -> transfer reads (after a kernel, before a download copy).
void record_compute_to_transfer_barrier(VkCommandBuffer cmd);

}  // namespace fftgen::vk
