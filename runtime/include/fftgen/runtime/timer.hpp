// GPU timestamps around recorded work.
#pragma once
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

namespace fftgen::vk {

class Device;

/// A timestamp query pool. Record reset(), then stamp(i) at points of interest; after the
/// submission completes, read_ms() gives stamp times in milliseconds relative to stamp 0.
class GpuTimer {
 public:
  /// Throws DeviceLimitError if the queue has no timestamp support.
  GpuTimer(Device& device, uint32_t count);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  void reset(VkCommandBuffer cmd);
  /// Writes timestamp `index` once all earlier commands have finished.
  void stamp(VkCommandBuffer cmd, uint32_t index);
  /// Raw ticks of stamps [0, count), waiting for them.
  std::vector<uint64_t> read_ticks() const;
  /// Milliseconds between stamps a and b of the last read.
  double elapsed_ms(const std::vector<uint64_t>& ticks, uint32_t a, uint32_t b) const;

 private:
  Device& device_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  uint32_t count_;
  double ns_per_tick_;
  uint64_t mask_;
};

}  // namespace fftgen::vk
