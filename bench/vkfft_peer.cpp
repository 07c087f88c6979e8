#include "vkfft_peer.hpp"

// The build puts a patched copy of Debian's vkFFT.h first on the include path (see
// bench/patch_vkfft.cmake) and defines VKFFT_BACKEND=0 (Vulkan).
#include "vkFFT.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace fftgen::bench {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point since) {
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

void check_vk(VkResult result, const char* what) {
    if (result != VK_SUCCESS) {
        throw std::runtime_error(std::string(what) + " failed (VkResult " +
                                 std::to_string(static_cast<int>(result)) + ")");
    }
}

void check_vkfft(VkFFTResult result, const char* what) {
    if (result != VKFFT_SUCCESS) {
        // 1.2.26 has no error-string function; the codes are the VkFFTResult enum in vkFFT.h.
        throw std::runtime_error(std::string(what) + " failed (VkFFTResult " +
                                 std::to_string(static_cast<int>(result)) + ")");
    }
}

// A primary command buffer from the caller's pool, freed when it goes out of scope (also on throw).
struct CommandBuffer {
    const VulkanHandles& h;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    explicit CommandBuffer(const VulkanHandles& handles) : h(handles) {
        VkCommandBufferAllocateInfo alloc{};
        alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        alloc.commandPool = h.command_pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        check_vk(vkAllocateCommandBuffers(h.device, &alloc, &cmd), "vkAllocateCommandBuffers");
    }
    ~CommandBuffer() { vkFreeCommandBuffers(h.device, h.command_pool, 1, &cmd); }
    CommandBuffer(const CommandBuffer&) = delete;
    CommandBuffer& operator=(const CommandBuffer&) = delete;
};

uint32_t find_memory_type(VkPhysicalDevice physical_device, uint32_t type_bits,
                          VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(physical_device, &props);
    for (VkMemoryPropertyFlags wanted : {required | preferred, required}) {
        for (uint32_t i = 0; i < props.memoryTypeCount; ++i) {
            if ((type_bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted) {
                return i;
            }
        }
    }
    throw std::runtime_error("no suitable Vulkan memory type");
}

// Everything one run creates, destroyed in reverse order whatever happens, so a failed size
// leaves the caller's device as it was.
struct RunState {
    const VulkanHandles& h;
    VkFence own_fence = VK_NULL_HANDLE;     // for VkFFT when the caller gave none
    VkFence submit_fence = VK_NULL_HANDLE;  // for this file's own submissions
    VkQueryPool query_pool = VK_NULL_HANDLE;
    VkBuffer buffers[3] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkDeviceMemory memories[3] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkFFTApplication app = {};
    bool app_initialized = false;
    // VkFFT keeps pointers to these (not copies) until deleteVkFFT, so they live here.
    uint64_t input_bytes = 0;
    uint64_t output_bytes = 0;
    VkFence vkfft_fence = VK_NULL_HANDLE;

    explicit RunState(const VulkanHandles& handles) : h(handles) {}
    RunState(const RunState&) = delete;
    RunState& operator=(const RunState&) = delete;

    ~RunState() {
        vkQueueWaitIdle(h.queue);
        if (app_initialized) deleteVkFFT(&app);
        for (int i = 2; i >= 0; --i) {
            if (buffers[i]) vkDestroyBuffer(h.device, buffers[i], nullptr);
            if (memories[i]) vkFreeMemory(h.device, memories[i], nullptr);
        }
        if (query_pool) vkDestroyQueryPool(h.device, query_pool, nullptr);
        if (submit_fence) vkDestroyFence(h.device, submit_fence, nullptr);
        if (own_fence) vkDestroyFence(h.device, own_fence, nullptr);
    }

    VkFence make_fence() {
        VkFenceCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        VkFence fence = VK_NULL_HANDLE;
        check_vk(vkCreateFence(h.device, &info, nullptr, &fence), "vkCreateFence");
        return fence;
    }

    void make_buffer(int slot, VkDeviceSize bytes, VkBufferUsageFlags usage,
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = bytes;
        info.usage = usage;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        check_vk(vkCreateBuffer(h.device, &info, nullptr, &buffers[slot]), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(h.device, buffers[slot], &req);
        VkMemoryAllocateInfo alloc{};
        alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        alloc.allocationSize = req.size;
        alloc.memoryTypeIndex = find_memory_type(h.physical_device, req.memoryTypeBits, required, preferred);
        check_vk(vkAllocateMemory(h.device, &alloc, nullptr, &memories[slot]), "vkAllocateMemory");
        check_vk(vkBindBufferMemory(h.device, buffers[slot], memories[slot], 0), "vkBindBufferMemory");
    }

    // Submits an already recorded command buffer and waits.
    void submit_recorded(VkCommandBuffer cmd) {
        VkSubmitInfo submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        check_vk(vkQueueSubmit(h.queue, 1, &submit, submit_fence), "vkQueueSubmit");
        check_vk(vkWaitForFences(h.device, 1, &submit_fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        check_vk(vkResetFences(h.device, 1, &submit_fence), "vkResetFences");
    }

    // Records with `record`, submits, waits. A fresh command buffer each time, so the caller's
    // pool needs no RESET_COMMAND_BUFFER flag.
    template <typename Record>
    void submit_and_wait(Record&& record) {
        CommandBuffer owned(h);
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check_vk(vkBeginCommandBuffer(owned.cmd, &begin), "vkBeginCommandBuffer");
        record(owned.cmd);
        check_vk(vkEndCommandBuffer(owned.cmd), "vkEndCommandBuffer");
        submit_recorded(owned.cmd);
    }
};

// The barriers of the runtime's buffer.hpp (record_*_barrier), written again on bare handles:
// this library, and fftgen-vkfft-check with it, does not link the fftgen runtime.
void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = src_access;
    barrier.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void transfer_to_compute_barrier(VkCommandBuffer cmd) {
    memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void compute_to_transfer_barrier(VkCommandBuffer cmd) {
    memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
}

// Shader writes and reads before -> shader reads and writes after (consecutive calls overwrite
// the same output).
void compute_barrier(VkCommandBuffer cmd) {
    memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// The method of the runtime tools' vk::time_calls (fftgen-vk bench) on bare handles, for callers
// without a vk::Device: one command buffer recorded once (query reset, compute barrier, timestamp,
// the calls with a compute barrier between consecutive ones, timestamp; both stamps at
// BOTTOM_OF_PIPE), submitted once untimed (warm-up), then once per trial. Without timestamps on
// the queue: the wall clock around submit + wait, which overstates the time by the submission
// latency (noted in the result).
void time_here(RunState& s, PeerResult& result, const RecordCall& record_call, int trials,
               int calls_per_trial) {
    const VulkanHandles& h = s.h;
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(h.physical_device, &props);
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(h.physical_device, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(h.physical_device, &family_count, families.data());
    const uint32_t valid_bits =
        h.queue_family_index < family_count ? families[h.queue_family_index].timestampValidBits : 0;
    result.gpu_timestamps = valid_bits > 0 && props.limits.timestampPeriod > 0.0f;
    if (result.gpu_timestamps) {
        VkQueryPoolCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = 2;
        check_vk(vkCreateQueryPool(h.device, &info, nullptr, &s.query_pool), "vkCreateQueryPool");
    }
    const uint64_t mask = valid_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << valid_bits) - 1;

    CommandBuffer owned(h);
    VkCommandBuffer cmd = owned.cmd;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;  // reused: not one-time
    check_vk(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    if (s.query_pool) vkCmdResetQueryPool(cmd, s.query_pool, 0, 2);
    compute_barrier(cmd);
    if (s.query_pool) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.query_pool, 0);
    for (int c = 0; c < calls_per_trial; ++c) {
        if (c) compute_barrier(cmd);
        record_call(cmd);
    }
    if (s.query_pool) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.query_pool, 1);
    check_vk(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

    // Warm-up: first-use costs, and, when timing several trials, at least 250 ms of work so the
    // clocks are up again after the plan's host-side compile (the rule of fftgen's vk::time_calls).
    // A single trial (first-result latency) gets one warm-up submission only.
    const auto warm_start = Clock::now();
    do s.submit_recorded(cmd);
    while (trials > 1 && elapsed_ms(warm_start) < 250.0);
    for (int t = 0; t < trials; ++t) {
        const auto wall_start = Clock::now();
        s.submit_recorded(cmd);
        double trial_ms = elapsed_ms(wall_start);
        if (s.query_pool) {
            uint64_t stamps[2] = {0, 0};
            check_vk(vkGetQueryPoolResults(h.device, s.query_pool, 0, 2, sizeof(stamps), stamps,
                                           sizeof(uint64_t),
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                     "vkGetQueryPoolResults");
            const uint64_t ticks = ((stamps[1] & mask) - (stamps[0] & mask)) & mask;
            trial_ms = static_cast<double>(ticks) * props.limits.timestampPeriod * 1e-6;
        }
        result.trial_ms.push_back(trial_ms / calls_per_trial);
    }
}

enum Slot { kInput = 0, kOutput = 1, kStaging = 2 };

// The VkFFT configuration of one case. 1D C2C is exactly what this file configured before 2D and
// R2C were added (default strides, one buffer size for both buffers), so its figures stay
// comparable with earlier sessions.
VkFFTConfiguration make_config(RunState& s, const PeerCase& what, uint32_t batch) {
    const VulkanHandles& h = s.h;
    VkFFTConfiguration config = {};
    config.FFTdim = what.shape.size();
    config.size[0] = what.nx();
    config.size[1] = what.ny();
    config.size[2] = 1;
    config.numberBatches = batch;
    config.physicalDevice = const_cast<VkPhysicalDevice*>(&h.physical_device);
    config.device = const_cast<VkDevice*>(&h.device);
    config.queue = const_cast<VkQueue*>(&h.queue);
    config.commandPool = const_cast<VkCommandPool*>(&h.command_pool);
    config.fence = &s.vkfft_fence;
    config.makeForwardPlanOnly = 1;
    // FFTGEN_VKFFT_SHADERS=1: VkFFT prints each shader it generates for the case (its workgroup
    // sizes, dispatches and code), to read how it splits a case fftgen runs differently.
    if (const char* shaders = std::getenv("FFTGEN_VKFFT_SHADERS"); shaders && std::strcmp(shaders, "1") == 0)
        config.keepShaderCode = 1;
    // Out of place: VkFFT reads the "formatted" input buffer and writes `buffer`; the input is
    // never written (any scratch a multi-pass plan needs is VkFFT's own temp buffer).
    config.isInputFormatted = 1;
    config.inputBuffer = &s.buffers[kInput];
    config.inputBufferSize = &s.input_bytes;
    config.buffer = &s.buffers[kOutput];
    config.bufferSize = &s.output_bytes;
    if (what.real_input) {
        // R2C: VkFFT's default strides are those of an in-place transform (rows of NX + 2 reals
        // in, NX/2 + 1 complex out). Out of place, the reals are packed rows of NX, as fftgen's
        // and cuFFT's; the half spectrum keeps NX/2 + 1 complex values per row.
        config.performR2C = 1;
        config.inputBufferStride[0] = what.nx();
        config.inputBufferStride[1] = what.points();
        config.inputBufferStride[2] = what.points();
        config.bufferStride[0] = what.nx() / 2 + 1;
        config.bufferStride[1] = what.output_pairs();
        config.bufferStride[2] = what.output_pairs();
    }
    return config;
}

void run(RunState& s, PeerResult& result, const std::vector<std::complex<float>>& input,
         int trials, int calls_per_trial, const CallTimer& timer) {
    const VulkanHandles& h = s.h;
    const PeerCase& what = result.what;
    constexpr uint64_t kPairBytes = sizeof(std::complex<float>);
    s.input_bytes = what.input_pairs() * result.batch * kPairBytes;
    s.output_bytes = what.output_pairs() * result.batch * kPairBytes;
    result.input_bytes = s.input_bytes;
    result.output_bytes = s.output_bytes;
    const uint64_t sample_bytes = input.size() * kPairBytes;
    const uint64_t sample_transforms = input.size() / what.input_pairs();
    const uint64_t sample_output_bytes = sample_transforms * what.output_pairs() * kPairBytes;

    s.submit_fence = s.make_fence();
    s.vkfft_fence = h.fence ? h.fence : (s.own_fence = s.make_fence());

    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    s.make_buffer(kInput, s.input_bytes,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0,
                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    s.make_buffer(kOutput, s.output_bytes,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    // Staging holds the sample repeated up to ~16 MiB, so filling a 512 MiB buffer takes a few
    // dozen copies rather than one per sample; and at least the sample's output (an R2C half
    // spectrum is larger than its reals), which comes back through it.
    const uint64_t repeats =
        std::max<uint64_t>(1, std::min(s.input_bytes, uint64_t{16} << 20) / sample_bytes);
    const uint64_t fill_bytes = repeats * sample_bytes;
    s.make_buffer(kStaging, std::max(fill_bytes, sample_output_bytes),
                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, host,
                  VK_MEMORY_PROPERTY_HOST_CACHED_BIT);

    // Upload: staging copied as many times as it takes to fill the input buffer (the last copy
    // may be partial). The output starts zeroed.
    void* mapped = nullptr;
    check_vk(vkMapMemory(h.device, s.memories[kStaging], 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    for (uint64_t r = 0; r < repeats; ++r) {
        std::memcpy(static_cast<char*>(mapped) + r * sample_bytes, input.data(), sample_bytes);
    }
    std::vector<VkBufferCopy> regions;
    for (uint64_t offset = 0; offset < s.input_bytes; offset += fill_bytes) {
        regions.push_back({0, offset, std::min(fill_bytes, s.input_bytes - offset)});
    }
    s.submit_and_wait([&](VkCommandBuffer cmd) {
        vkCmdCopyBuffer(cmd, s.buffers[kStaging], s.buffers[kInput], static_cast<uint32_t>(regions.size()),
                        regions.data());
        vkCmdFillBuffer(cmd, s.buffers[kOutput], 0, VK_WHOLE_SIZE, 0);
    });

    // Plan. Forward-only, the cheapest VkFFT plan for what is run here, so plan_ms is a lower
    // bound on what a VkFFT user waits for before the first transform.
    const VkFFTConfiguration config = make_config(s, what, result.batch);
    const auto plan_start = Clock::now();
    check_vkfft(initializeVkFFT(&s.app, config), "initializeVkFFT");
    result.plan_ms = elapsed_ms(plan_start);
    s.app_initialized = true;

    // One call: one forward transform. VkFFT ends every dispatch with a compute barrier of its
    // own (VkFFTSync); the timers below add the same compute barrier between consecutive calls as
    // for fftgen and the copy, so all three follow one rule.
    const RecordCall record_call = [&](VkCommandBuffer cmd) {
        VkFFTLaunchParams launch = {};
        launch.commandBuffer = &cmd;
        check_vkfft(VkFFTAppend(&s.app, -1, &launch), "VkFFTAppend");  // -1: forward
    };

    // The upload (transfer writes, earlier submission) made visible to the compute shaders; a
    // barrier orders everything before it in submission order, so later submissions see it.
    s.submit_and_wait([&](VkCommandBuffer cmd) { transfer_to_compute_barrier(cmd); });

    if (timer) {
        result.trial_ms = timer(record_call);
        if (result.trial_ms.size() != static_cast<size_t>(trials)) {
            throw std::runtime_error("the timer returned " + std::to_string(result.trial_ms.size()) +
                                     " trials, not " + std::to_string(trials));
        }
    } else {
        time_here(s, result, record_call, trials, calls_per_trial);
    }
    result.ms = median(result.trial_ms);
    result.gbps = traffic_gbps(s.input_bytes + s.output_bytes, result.ms);

    // Read back the transforms of the sample (the output of the last call; every call computes
    // the same thing from the untouched input).
    s.submit_and_wait([&](VkCommandBuffer cmd) {
        compute_to_transfer_barrier(cmd);
        VkBufferCopy region{0, 0, sample_output_bytes};
        vkCmdCopyBuffer(cmd, s.buffers[kOutput], s.buffers[kStaging], 1, &region);
    });
    result.output.resize(sample_transforms * what.output_pairs());
    std::memcpy(result.output.data(), mapped, sample_output_bytes);
    vkUnmapMemory(h.device, s.memories[kStaging]);
}

}  // namespace

double traffic_gbps(uint64_t traffic_bytes, double ms_per_call) {
    return ms_per_call > 0.0 ? static_cast<double>(traffic_bytes) / (ms_per_call * 1e6) : 0.0;
}

PeerResult run_vkfft(const VulkanHandles& handles, const PeerCase& what, uint32_t batch,
                     const std::vector<std::complex<float>>& input, int trials,
                     int calls_per_trial, const CallTimer& timer) {
    PeerResult result;
    result.what = what;
    result.batch = batch;
    if (what.shape.empty() || what.shape.size() > 2 || what.points() == 0 ||
        what.points() > UINT32_MAX) {
        result.error = "shape must be [N] or [NY, NX] with positive sides";
        return result;
    }
    if (what.real_input && what.nx() % 2 != 0) {
        result.error = "R2C needs an even NX (the reals travel in pairs)";
        return result;
    }
    if (batch == 0 || trials < 1 || calls_per_trial < 1) {
        result.error = "batch, trials and calls_per_trial must be positive";
        return result;
    }
    const uint64_t per_transform = what.input_pairs();
    if (input.empty() || input.size() % per_transform != 0 || input.size() > per_transform * batch) {
        result.error = "input must hold between 1 and batch whole transforms";
        return result;
    }
    try {
        RunState state(handles);
        run(state, result, input, trials, calls_per_trial, timer);
        result.ok = true;
    } catch (const std::exception& e) {
        result.error = e.what();
        result.output.clear();
    }
    return result;
}

PeerResult run_vkfft_c2c(const VulkanHandles& handles, uint32_t n, uint32_t batch,
                         const std::vector<std::complex<float>>& input, int trials,
                         int calls_per_trial, const CallTimer& timer) {
    PeerCase what;
    what.shape = {n};
    return run_vkfft(handles, what, batch, input, trials, calls_per_trial, timer);
}

}  // namespace fftgen::bench
