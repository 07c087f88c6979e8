// VkFFT as a peer benchmark, run on a Vulkan device the caller already owns, so it can share a
// process (and a device) with fftgen's own runtime and be timed the same way: one out-of-place
// forward C2C per call, timestamp queries around back-to-back calls, median of trials.
#pragma once

#include <vulkan/vulkan.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fftgen::bench {

// The handles VkFFT needs, borrowed from the caller; nothing here is destroyed by the callee.
// The queue must not be used by anyone else while run_vkfft_c2c runs.
struct VulkanHandles {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;  // must support compute
    uint32_t queue_family_index = 0;
    VkCommandPool command_pool = VK_NULL_HANDLE;  // of queue_family_index
    // Optional, unsignaled. VkFFT submits its own set-up work (twiddle tables, Bluestein
    // kernels) with it and leaves it unsignaled. A private one is made when this is null.
    VkFence fence = VK_NULL_HANDLE;
};

struct PeerResult {
    bool ok = false;
    std::string error;  // why the run failed when !ok (VkFFT or Vulkan error, out of memory)

    std::string system = "VkFFT";
    uint32_t n = 0;
    uint32_t batch = 0;

    double plan_ms = 0.0;  // wall clock of initializeVkFFT: GLSL generation, glslang, pipelines
    double ms = 0.0;       // median over trials of the time of one call
    double gbps = 0.0;     // 2 * bytes of one buffer / ms (one read + one write of the data)
    std::vector<double> trial_ms;  // time of one call, per trial
    bool gpu_timestamps = true;    // false: the queue has no timestamps, times are wall clock

    // Forward output of the first input.size() elements (whole transforms), unnormalised.
    std::vector<std::complex<float>> output;
};

// Plans VkFFT for batch transforms of length n (1D, complex fp32, forward, out of place), times
// trials x calls_per_trial calls and returns the median with the forward output of the sample.
//
// input holds whole transforms (a multiple of n elements, at most n * batch). When it is smaller
// than the buffer, it is repeated to fill it: the timing sees the full batch of realistic data,
// while the caller checks accuracy on the sample alone.
//
// Failures (a size VkFFT refuses, out of device memory) come back as ok == false, not exceptions,
// so a sweep can go on to the next size.
//
// Timing: `timer`, when given, is handed a function recording one call and returns the time of
// one call per trial; it does its own warm-up. fftgen-bench compare passes the runtime tools'
// vk::time_calls (the method of `fftgen-vk bench`), so fftgen, VkFFT and the copy are timed by
// one function. Without it the same method is used here: one command buffer recorded once
// (timestamp, `calls_per_trial` calls with a compute barrier between consecutive calls, timestamp,
// both stamps at BOTTOM_OF_PIPE), submitted once untimed, then once per trial.
using RecordCall = std::function<void(VkCommandBuffer)>;
using CallTimer = std::function<std::vector<double>(const RecordCall& record_call)>;

PeerResult run_vkfft_c2c(const VulkanHandles& handles, uint32_t n, uint32_t batch,
                         const std::vector<std::complex<float>>& input, int trials = 7,
                         int calls_per_trial = 20, const CallTimer& timer = {});

// GB/s as every fftgen benchmark reports it: one read and one write of the whole buffer.
double bandwidth_gbps(uint64_t buffer_bytes, double ms_per_call);

}  // namespace fftgen::bench
