#include "fftgen/vktools/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/error.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/runtime/timer.hpp"
#include "fftgen/vktools/convolve.hpp"
#include "fftgen/vktools/half.hpp"
#include "fftgen/vktools/texels.hpp"
#include "fftgen/vktools/reference.hpp"

namespace fftgen::vk {

const std::vector<uint32_t>& copy_vec4_spirv();  // embedded at build time

namespace {

double median(std::vector<double> v) {
  if (v.empty()) throw UsageError("no trials to take the median of (trials must be at least 1)");
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

void finish_bench_result(BenchResult& r) {
  r.median_ms = median(r.trial_ms);
  const uint64_t traffic = r.traffic ? r.traffic : 2 * r.bytes;
  r.gb_per_s = r.median_ms > 0 ? static_cast<double>(traffic) / (r.median_ms * 1e6) : 0;
}

namespace {

// Records `calls_per_trial` calls between the timer's first stamp and its last (record_calls
// stamps what it likes in between), warms up, then submits once per trial and hands each trial's
// ticks to `trial`.
void run_timed(Device& device, const BenchOptions& o, GpuTimer& timer,
               const std::function<void(VkCommandBuffer)>& record_calls,
               const std::function<void(const std::vector<uint64_t>&)>& trial) {
  if (o.trials == 0 || o.calls_per_trial == 0)
    throw UsageError("bench: trials (" + std::to_string(o.trials) + ") and calls per trial (" +
                     std::to_string(o.calls_per_trial) + ") must be at least 1");
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = device.command_pool();
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(device.device(), &ai, &cmd), "vkAllocateCommandBuffers");
  try {
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    check(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    timer.reset(cmd);
    record_compute_barrier(cmd);
    timer.stamp(cmd, 0);
    record_calls(cmd);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    // Warm up for at least warmup_ms as well: after the host-side gaps between kernels (random
    // fill, upload, pipeline creation) an H100 was seen timing at 1080-1500 MHz instead of 1980
    // when one warm-up submission was all it got.
    const auto warm_start = std::chrono::steady_clock::now();
    for (uint32_t w = 0; w < o.warmup_submissions ||
                         std::chrono::steady_clock::now() - warm_start < std::chrono::milliseconds(o.warmup_ms);
         ++w)
      device.submit_and_wait(cmd);
    for (uint32_t t = 0; t < o.trials; ++t) {
      device.submit_and_wait(cmd);
      trial(timer.read_ticks());
    }
  } catch (...) {
    vkFreeCommandBuffers(device.device(), device.command_pool(), 1, &cmd);
    throw;
  }
  vkFreeCommandBuffers(device.device(), device.command_pool(), 1, &cmd);
}

}  // namespace

std::vector<std::string> pass_names(const KernelInfo& info, const std::vector<Direction>& directions) {
  std::vector<std::string> names;
  for (Direction d : directions)
    for (const PassInfo& p : info.passes(d)) names.push_back(p.name);
  return names;
}

std::vector<double> time_calls(Device& device, const BenchOptions& o,
                               const std::function<void(VkCommandBuffer)>& record_call) {
  GpuTimer timer(device, 2);
  std::vector<double> trials;
  run_timed(
      device, o, timer,
      [&](VkCommandBuffer cmd) {
        for (uint32_t c = 0; c < o.calls_per_trial; ++c) {
          if (c) record_compute_barrier(cmd);
          record_call(cmd);
        }
        timer.stamp(cmd, 1);
      },
      [&](const std::vector<uint64_t>& ticks) { trials.push_back(timer.elapsed_ms(ticks, 0, 1) / o.calls_per_trial); });
  return trials;
}

std::vector<PassTime> time_passes(Device& device, const BenchOptions& o, const std::vector<std::string>& passes,
                                  const std::function<void(VkCommandBuffer, const RecordOptions&)>& record_call) {
  const auto count = static_cast<uint32_t>(passes.size());
  GpuTimer timer(device, 1 + o.calls_per_trial * count);
  std::vector<std::vector<double>> trials(count);
  uint32_t stamped = 0;
  RecordOptions stamp_each;
  stamp_each.after_pass = [&](VkCommandBuffer cmd) {
    if (stamped >= o.calls_per_trial * count)
      throw std::logic_error("time_passes: a call recorded more than its " + std::to_string(count) + " passes");
    timer.stamp(cmd, ++stamped);
  };
  run_timed(
      device, o, timer,
      [&](VkCommandBuffer cmd) {
        for (uint32_t c = 0; c < o.calls_per_trial; ++c) {
          if (c) record_compute_barrier(cmd);
          record_call(cmd, stamp_each);
        }
        if (stamped != o.calls_per_trial * count)
          throw std::logic_error("time_passes: the calls recorded " + std::to_string(stamped) + " passes, not " +
                                 std::to_string(o.calls_per_trial * count));
      },
      [&](const std::vector<uint64_t>& ticks) {
        // Pass i of call c ends at stamp 1 + c*count + i; it began where the pass (or call) before it
        // ended, so each share includes the barrier in front of it.
        for (uint32_t i = 0; i < count; ++i) {
          double ms = 0;
          for (uint32_t c = 0; c < o.calls_per_trial; ++c) {
            const uint32_t end = 1 + c * count + i;
            ms += timer.elapsed_ms(ticks, end - 1, end);
          }
          trials[i].push_back(ms / o.calls_per_trial);
        }
      });
  std::vector<PassTime> out;
  for (uint32_t i = 0; i < count; ++i) out.push_back({passes[i], median(trials[i])});
  return out;
}

uint64_t bench_bytes(const Device& device, uint64_t requested) {
  uint64_t bytes = std::min<uint64_t>(requested, device.device_local_heap_bytes() / 4);
  bytes = std::min<uint64_t>(bytes, device.limits().maxStorageBufferRange);
  return bytes / 16 * 16;
}

void fill_tiled(Device& device, VkBuffer dst, const std::vector<std::complex<float>>& sample, uint64_t bytes) {
  const uint64_t sample_bytes = std::min<uint64_t>(sample.size() * 8, bytes);
  upload(device, dst, sample.data(), sample_bytes);
  if (sample_bytes >= bytes) return;
  device.run_commands([&](VkCommandBuffer cmd) {
    for (uint64_t filled = sample_bytes; filled < bytes;) {
      VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &b, 0, nullptr,
                           0, nullptr);
      const uint64_t chunk = std::min(filled, bytes - filled);
      const VkBufferCopy region{0, filled, chunk};  // disjoint ranges of one buffer: allowed
      vkCmdCopyBuffer(cmd, dst, dst, 1, &region);
      filled += chunk;
    }
  });
}

void fill_random(Device& device, VkBuffer dst, uint64_t bytes, uint64_t seed) {
  fill_tiled(device, dst, random_normal(std::min<uint64_t>(bytes / 8, uint64_t{1} << 22), seed), bytes);
}

void fill_random_half(Device& device, VkBuffer dst, uint64_t bytes, uint64_t seed) {
  // The halves are tiled as the bytes of float pairs (four halves in each).
  const std::vector<uint16_t> halves = to_half(random_normal(std::min<uint64_t>(bytes / 4, uint64_t{1} << 22), seed));
  std::vector<std::complex<float>> sample(halves.size() / 4);
  std::memcpy(static_cast<void*>(sample.data()), halves.data(), sample.size() * 8);
  fill_tiled(device, dst, sample, bytes);
}

void fill_random_double(Device& device, VkBuffer dst, uint64_t bytes, uint64_t seed) {
  // The doubles are tiled as the bytes of float pairs (one double in each).
  const auto normal = random_normal(std::min<uint64_t>(bytes / 16, uint64_t{1} << 21), seed);
  std::vector<double> doubles;
  for (const auto& v : normal) doubles.push_back(v.real()), doubles.push_back(v.imag());
  std::vector<std::complex<float>> sample(doubles.size());
  std::memcpy(static_cast<void*>(sample.data()), doubles.data(), sample.size() * 8);
  fill_tiled(device, dst, sample, bytes);
}

BenchBuffers make_bench_buffers(Device& device, const BenchOptions& o) {
  BenchBuffers b;
  b.bytes = bench_bytes(device, o.bytes);
  b.input = Buffer(device, b.bytes);
  b.output = Buffer(device, b.bytes);
  return b;
}

namespace {

// The batch that fills the byte cap (`what`: the buffer or image, of in_bytes or out_bytes per
// transform) within what the kernel can bind, its bytes and its traffic.
void size_batch(const Device& device, const BenchOptions& o, const Kernel& kernel, uint64_t in_bytes,
                uint64_t out_bytes, const std::string& what, BenchResult& r) {
  const uint64_t cap = bench_bytes(device, o.bytes);
  r.batch = std::min<uint64_t>(cap / std::max(in_bytes, out_bytes), kernel.max_batch());
  if (r.batch == 0)
    throw UsageError(what + " of " + std::to_string(cap) + " bytes holds no transform of kernel '" +
                     kernel.info().name + "'");
  r.bytes = r.batch * std::max(in_bytes, out_bytes);
  r.traffic = r.batch * (in_bytes + out_bytes);
}

// An io image kernel: images of its formats as large as the byte cap allows (and the device's
// maxImageDimension2D), random input texels. The traffic counts the texels' bytes (an rgba32f
// kernel moves 16 bytes per complex value).
BenchResult bench_image_kernel(Device& device, const Kernel& kernel, Direction d, const BenchOptions& o,
                               BenchResult& r) {
  const KernelInfo& info = kernel.info();
  const StorageImage &in_image = *info.input_image(d), &out_image = *info.output_image(d);
  auto image_bytes = [](const StorageImage& s) { return uint64_t{s.width} * s.rows_per_transform * texel_bytes(s.format); };
  const uint64_t in_bytes = image_bytes(in_image), out_bytes = image_bytes(out_image);
  size_batch(device, o, kernel, in_bytes, out_bytes, "an image", r);
  const auto batch = static_cast<uint32_t>(r.batch);
  const KernelImages images = make_kernel_images(device, info, d, batch);
  const std::vector<uint8_t> texels =
      to_texels(in_image.format, random_normal(pairs_per_transform(info, d, true) * r.batch, info.n()));
  upload_image(device, images.input, texels.data(), texels.size());
  KernelBindings bindings = kernel.bind(image_io(images, d, batch));
  r.trial_ms = time_calls(device, o, [&](VkCommandBuffer cmd) { kernel.record(cmd, d, bindings, batch); });
  if (o.per_pass)
    r.passes = time_passes(device, o, pass_names(info, {d}), [&](VkCommandBuffer cmd, const RecordOptions& ro) {
      kernel.record(cmd, d, bindings, batch, ro);
    });
  finish_bench_result(r);
  return r;
}

}  // namespace

BenchResult bench_kernel(Device& device, const Manifest& manifest, const KernelInfo& info,
                         const BenchOptions& o, BenchBuffers* buffers) {
  // A convolution runs as its chain; its filter kernel is timed as part of nothing (made once).
  if (info.transform == "convolution") return bench_convolution(device, manifest, info, o);
  BenchResult r;
  r.name = info.name;
  r.n = info.n();
  try {
    if (info.transform == "convolution_filter")
      throw UsageError("kernel '" + info.name + "' makes a filter spectrum once; bench its convolution '" +
                       (info.convolution ? info.convolution->apply_kernel : std::string("?")) + "'");
    const Direction first = info.has(Direction::forward) ? Direction::forward : Direction::inverse;
    const Direction d = o.direction.value_or(first);
    if (!info.has(d))  // then `first` is the only one it has
      throw UsageError("kernel '" + info.name + "' has no " + to_string(d) + " direction (it has " + to_string(first) +
                       " only); time it without --direction");
    r.direction = to_string(d);
    Kernel kernel(device, info, manifest.files);
    if (info.uses_images()) return bench_image_kernel(device, kernel, d, o, r);
    const uint64_t in_bytes = info.input(d).bytes(), out_bytes = info.output(d).bytes();
    // A padded input (BenchOptions::input_pad) spans more bytes than the view moves.
    const uint64_t row = info.input(d).elements / info.ny(), input_stride = o.input_pad ? row + o.input_pad : 0;
    const uint64_t in_span = o.input_pad ? input_stride * info.ny() * element_bytes(info.input(d).element) : in_bytes;
    size_batch(device, o, kernel, in_span, out_bytes, "buffer", r);
    r.traffic = r.batch * (in_bytes + out_bytes);
    BenchBuffers own;
    if (!buffers) own = make_bench_buffers(device, o);
    BenchBuffers& shared = buffers ? *buffers : own;
    const Buffer &in = shared.input, &out = shared.output;
    const uint64_t fill_bytes = (r.batch * in_span + 15) / 16 * 16;
    if (is_half(info.input(d).element)) fill_random_half(device, in.handle(), fill_bytes, info.n());
    else if (is_double(info.input(d).element)) fill_random_double(device, in.handle(), fill_bytes, info.n());
    else fill_random(device, in.handle(), fill_bytes, info.n());
    KernelIo io;
    io.input = {in.handle(), 0};
    io.output = {out.handle(), 0};
    // An in-place kernel transforms the input buffer where it lies, call after call.
    if (info.in_place()) io.output = std::exchange(io.input, {});
    io.input_stride = static_cast<uint32_t>(input_stride);
    io.max_batch = static_cast<uint32_t>(r.batch);
    io.directions = {d};
    KernelBindings bindings = kernel.bind(io);
    r.trial_ms = time_calls(device, o, [&](VkCommandBuffer cmd) {
      kernel.record(cmd, d, bindings, static_cast<uint32_t>(r.batch));
    });
    if (o.per_pass)
      r.passes = time_passes(device, o, pass_names(info, {d}), [&](VkCommandBuffer cmd, const RecordOptions& ro) {
        kernel.record(cmd, d, bindings, static_cast<uint32_t>(r.batch), ro);
      });
    finish_bench_result(r);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

BenchResult bench_copy(Device& device, const BenchOptions& o, BenchBuffers* buffers) {
  BenchResult r;
  r.name = "copy (vec4)";
  VkDevice dev = device.device();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  try {
    r.bytes = bench_bytes(device, o.bytes);
    BenchBuffers own;
    if (!buffers) own = make_bench_buffers(device, o);
    BenchBuffers& shared = buffers ? *buffers : own;
    const Buffer &in = shared.input, &out = shared.output;
    fill_random(device, in.handle(), r.bytes, 1);

    VkDescriptorSetLayoutBinding b[2] = {};
    for (uint32_t i = 0; i < 2; ++i)
      b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sci.bindingCount = 2;
    sci.pBindings = b;
    check(vkCreateDescriptorSetLayout(dev, &sci, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 1;
    lci.pSetLayouts = &set_layout;
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(dev, &lci, nullptr, &layout), "vkCreatePipelineLayout");
    const auto& spirv = copy_vec4_spirv();
    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = spirv.size() * 4;
    mci.pCode = spirv.data();
    check(vkCreateShaderModule(dev, &mci, nullptr, &module), "vkCreateShaderModule");
    VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                 VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    pci.layout = layout;
    check(vkCreateComputePipelines(dev, device.pipeline_cache(), 1, &pci, nullptr, &pipeline),
          "vkCreateComputePipelines");
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &ps;
    check(vkCreateDescriptorPool(dev, &dpci, nullptr, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &set_layout;
    VkDescriptorSet set;
    check(vkAllocateDescriptorSets(dev, &dsai, &set), "vkAllocateDescriptorSets");
    VkDescriptorBufferInfo infos[2] = {{in.handle(), 0, r.bytes}, {out.handle(), 0, r.bytes}};
    VkWriteDescriptorSet w[2] = {};
    for (uint32_t i = 0; i < 2; ++i) {
      w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      w[i].dstSet = set;
      w[i].dstBinding = i;
      w[i].descriptorCount = 1;
      w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(dev, 2, w, 0, nullptr);

    const uint32_t count = static_cast<uint32_t>(r.bytes / 16);
    const uint64_t groups = (uint64_t{count} + 255) / 256;
    const uint32_t max_groups = device.limits().maxComputeWorkGroupCount[0];
    r.trial_ms = time_calls(device, o, [&](VkCommandBuffer cmd) {
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
      for (uint64_t first = 0; first < groups; first += max_groups) {
        const uint32_t pc[2] = {count, static_cast<uint32_t>(first)};
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
        vkCmdDispatch(cmd, static_cast<uint32_t>(std::min<uint64_t>(max_groups, groups - first)), 1, 1);
      }
    });
    finish_bench_result(r);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  if (pool) vkDestroyDescriptorPool(dev, pool, nullptr);
  if (pipeline) vkDestroyPipeline(dev, pipeline, nullptr);
  if (module) vkDestroyShaderModule(dev, module, nullptr);
  if (layout) vkDestroyPipelineLayout(dev, layout, nullptr);
  if (set_layout) vkDestroyDescriptorSetLayout(dev, set_layout, nullptr);
  return r;
}

std::string format_bench_table(const std::vector<BenchResult>& results) {
  size_t name_w = 6;
  for (const auto& r : results) name_w = std::max(name_w, r.name.size());
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %8s %10s %12s %12s %10s  %s\n", static_cast<int>(name_w),
                "kernel", "N", "batch", "MiB/buffer", "ms/call", "GB/s", "direction");
  out += line;
  for (const auto& r : results) {
    if (!r.error.empty()) {
      std::snprintf(line, sizeof line, "%-*s %8u  error: %s\n", static_cast<int>(name_w),
                    r.name.c_str(), r.n, r.error.c_str());
    } else {
      std::snprintf(line, sizeof line, "%-*s %8s %10llu %12.1f %12.4f %10.1f  %s\n",
                    static_cast<int>(name_w), r.name.c_str(),
                    r.n ? std::to_string(r.n).c_str() : "-",
                    static_cast<unsigned long long>(r.batch), r.bytes / 1048576.0, r.median_ms,
                    r.gb_per_s, r.direction.empty() ? "-" : r.direction.c_str());
    }
    out += line;
    // Per pass (--passes): each pass's share of a call, indented under the kernel.
    for (const PassTime& p : r.passes) {
      std::snprintf(line, sizeof line, "  %-*s %45.4f\n", static_cast<int>(name_w - 2), p.name.c_str(), p.ms);
      out += line;
    }
  }
  return out;
}

nlohmann::json bench_json(const Device& device, const std::vector<BenchResult>& results,
                          const BenchOptions& o) {
  using nlohmann::json;
  json j;
  j["device"] = device.name();
  j["driver_version"] = device.driver_version();
  j["vendor_id"] = device.properties().vendorID;
  j["calls_per_trial"] = o.calls_per_trial;
  j["trials"] = o.trials;
  j["formula"] = "GB/s = traffic / median time of one call; traffic = bytes of the input + bytes of the output (2 * bytes of one buffer for complex kernels and the copy)";
  json ks = json::array();
  for (const auto& r : results) {
    json k;
    k["name"] = r.name;
    k["n"] = r.n;
    k["batch"] = r.batch;
    k["bytes"] = r.bytes;
    k["traffic"] = r.traffic ? r.traffic : 2 * r.bytes;
    if (!r.direction.empty()) k["direction"] = r.direction;
    if (r.error.empty()) {
      k["median_ms"] = r.median_ms;
      k["gb_per_s"] = r.gb_per_s;
      k["trial_ms"] = r.trial_ms;
      if (!r.passes.empty()) {
        k["passes"] = json::array();
        for (const PassTime& p : r.passes) k["passes"].push_back({{"name", p.name}, {"ms", p.ms}});
      }
    } else {
      k["error"] = r.error;
    }
    ks.push_back(k);
  }
  j["results"] = ks;
  return j;
}

uint64_t parse_byte_size(const std::string& text) {
  size_t pos = 0;
  double value = 0;
  try {
    value = std::stod(text, &pos);
  } catch (...) {
    throw std::invalid_argument("'" + text + "' is not a size (e.g. 512MiB, 1GiB, 1000000)");
  }
  std::string unit = text.substr(pos);
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double mul = 1;
  if (unit.empty() || unit == "b") mul = 1;
  else if (unit == "kib" || unit == "k") mul = 1024.0;
  else if (unit == "mib" || unit == "m") mul = 1048576.0;
  else if (unit == "gib" || unit == "g") mul = 1073741824.0;
  else if (unit == "kb") mul = 1e3;
  else if (unit == "mb") mul = 1e6;
  else if (unit == "gb") mul = 1e9;
  else throw std::invalid_argument("'" + text + "': unknown unit '" + unit + "' (B, KiB, MiB, GiB, KB, MB, GB)");
  if (!(value > 0)) throw std::invalid_argument("'" + text + "': size must be positive");
  const double bytes = value * mul;
  if (bytes < 1) throw std::invalid_argument("'" + text + "': less than one byte");
  // Beyond 2^63 the conversion is undefined (1e30 became 0 bytes).
  if (!(bytes < 9223372036854775808.0)) throw std::invalid_argument("'" + text + "': more than 2^63 bytes");
  return static_cast<uint64_t>(bytes);
}

}  // namespace fftgen::vk
