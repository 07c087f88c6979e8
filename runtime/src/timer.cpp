#include "fftgen/runtime/timer.hpp"

#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/error.hpp"

namespace fftgen::vk {

GpuTimer::GpuTimer(Device& device, uint32_t count) : device_(device), count_(count) {
  const uint32_t bits = device.timestamp_valid_bits();
  if (bits == 0)
    throw DeviceLimitError("device '" + device.name() +
                           "' has no timestamp support on its compute queue");
  mask_ = bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
  ns_per_tick_ = device.limits().timestampPeriod;
  VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  ci.queryCount = count;
  check(vkCreateQueryPool(device.device(), &ci, nullptr, &pool_), "vkCreateQueryPool");
}

GpuTimer::~GpuTimer() {
  if (pool_) vkDestroyQueryPool(device_.device(), pool_, nullptr);
}

void GpuTimer::reset(VkCommandBuffer cmd) { vkCmdResetQueryPool(cmd, pool_, 0, count_); }

void GpuTimer::stamp(VkCommandBuffer cmd, uint32_t index) {
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, index);
}

std::vector<uint64_t> GpuTimer::read_ticks() const {
  std::vector<uint64_t> ticks(count_);
  check(vkGetQueryPoolResults(device_.device(), pool_, 0, count_, ticks.size() * sizeof(uint64_t),
                              ticks.data(), sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  for (auto& t : ticks) t &= mask_;
  return ticks;
}

double GpuTimer::elapsed_ms(const std::vector<uint64_t>& ticks, uint32_t a, uint32_t b) const {
  // Masked subtraction handles a counter that wrapped between the stamps.
  const uint64_t delta = (ticks[b] - ticks[a]) & mask_;
  return static_cast<double>(delta) * ns_per_tick_ * 1e-6;
}

}  // namespace fftgen::vk
