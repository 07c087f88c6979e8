// VkFFT as a peer benchmark, run on a Vulkan device the caller already owns, so it can share a
// process (and a device) with fftgen's own runtime and be timed the same way: one out-of-place
// forward transform per call (C2C or R2C, 1D or 2D), timestamp queries around back-to-back calls,
// median of trials.
#pragma once

#include <vulkan/vulkan.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fftgen::bench {

// The handles VkFFT needs, borrowed from the caller; nothing here is destroyed by the callee.
// The queue must not be used by anyone else while run_vkfft runs.
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

// One forward transform, fp32, out of place, as fftgen's manifest describes its kernels.
//
// Buffers hold pairs of floats, as fftgen's buffers do: complex values for C2C and for the R2C
// half spectrum, two consecutive reals per pair for the R2C input. Every vector of
// std::complex<float> below is such pairs.
struct PeerCase {
    std::vector<uint32_t> shape;  // [N] or [NY, NX], row-major (X contiguous)
    bool real_input = false;      // R2C: NY x NX reals in, NY x (NX/2 + 1) complex out

    uint32_t nx() const { return shape.empty() ? 0 : shape.back(); }
    uint32_t ny() const { return shape.size() == 2 ? shape.front() : 1; }
    uint64_t points() const { return uint64_t{ny()} * nx(); }
    // Pairs of floats of one transform in the input and output buffers.
    uint64_t input_pairs() const { return real_input ? points() / 2 : points(); }
    uint64_t output_pairs() const { return real_input ? uint64_t{ny()} * (nx() / 2 + 1) : points(); }
};

struct PeerResult {
    bool ok = false;
    std::string error;  // why the run failed when !ok (VkFFT or Vulkan error, out of memory)

    std::string system = "VkFFT";
    PeerCase what;
    uint32_t batch = 0;
    uint64_t input_bytes = 0;   // of the whole input buffer (batch transforms)
    uint64_t output_bytes = 0;  // of the whole output buffer

    double plan_ms = 0.0;  // wall clock of initializeVkFFT: GLSL generation, glslang, pipelines
    double ms = 0.0;       // median over trials of the time of one call
    // (input_bytes + output_bytes) / ms: one read of the input and one write of the output
    // (for C2C, 2 * bytes of one buffer).
    double gbps = 0.0;
    std::vector<double> trial_ms;  // time of one call, per trial
    bool gpu_timestamps = true;    // false: the queue has no timestamps, times are wall clock

    // Forward output of the transforms of the sample (output_pairs() per transform), unnormalised.
    std::vector<std::complex<float>> output;
};

// Plans VkFFT for `batch` transforms of `what` (fp32, forward, out of place), times
// trials x calls_per_trial calls and returns the median with the forward output of the sample.
//
// input holds whole transforms (a multiple of what.input_pairs(), at most batch of them). When it
// is smaller than the buffer, it is repeated to fill it: the timing sees the full batch of
// realistic data, while the caller checks accuracy on the sample alone.
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

PeerResult run_vkfft(const VulkanHandles& handles, const PeerCase& what, uint32_t batch,
                     const std::vector<std::complex<float>>& input, int trials = 7,
                     int calls_per_trial = 20, const CallTimer& timer = {});

// 1D C2C of length n: run_vkfft with PeerCase{{n}}.
PeerResult run_vkfft_c2c(const VulkanHandles& handles, uint32_t n, uint32_t batch,
                         const std::vector<std::complex<float>>& input, int trials = 7,
                         int calls_per_trial = 20, const CallTimer& timer = {});

// GB/s as every fftgen benchmark reports it: the bytes one call reads and writes (input buffer
// + output buffer) over the time of one call.
double traffic_gbps(uint64_t traffic_bytes, double ms_per_call);

}  // namespace fftgen::bench
