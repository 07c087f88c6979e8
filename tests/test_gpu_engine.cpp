// The runtime inside an engine (docs/runtime.md, "Sharing a device" and "Kernels inside your
// binary"): kernels whose manifest, SPIR-V and twiddle tables come from memory, a Device that adopts
// the engine's own instance, device and queue without owning them, and the engine's pipeline cache.
// The kernels are generated in-process and checked against FFTW in double. Runs on lavapipe with
// the validation layer on; any validation message fails a test.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/runtime.hpp"
#include "fftgen/vktools/compile_notice.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/verify.hpp"
#include "engine_instance.hpp"

using namespace fftgen::vk;

namespace {

// One dispatch with a twiddle table, two passes (inverse only), and computed twiddles.
const char* kPlan = R"({"targets": ["spirv"], "kernels": [
  {"name": "fft256", "shape": [256]},
  {"name": "fft32k", "shape": [32768], "direction": "inverse", "normalize": "ortho"},
  {"name": "fft64c", "shape": [64], "twiddles": "computed"}]})";

const fftgen::GeneratedOutput& generated() {
  static const fftgen::GeneratedOutput out = fftgen::generate(fftgen::parse_plan(kPlan, "engine.json"), "engine.json");
  return out;
}

// Every generated file but manifest.json, the way an engine embeds them; `skip` leaves one out.
std::vector<MemoryFile> memory_files(const std::string& skip = "") {
  std::vector<MemoryFile> files;
  for (const auto& f : generated().files)
    if (f.name != "manifest.json" && f.name != skip) files.push_back({f.name, f.bytes.data(), f.bytes.size()});
  return files;
}

Manifest memory_manifest(std::vector<MemoryFile> files = memory_files()) {
  return parse_manifest_text(generated().files.back().bytes, "engine manifest",
                             FileSource::in_memory_files(std::move(files)));
}

void verify_all(Device& device, const Manifest& manifest) {
  VerifyOptions options;
  options.batches = {1, 3};
  for (const KernelInfo& k : manifest.kernels) {
    const VerifyResult r = verify_kernel(device, manifest, k, options);
    INFO(k.name << ": " << r.error);
    CHECK(r.error.empty());
    CHECK(r.pass);
    CHECK(r.nan_count == 0);
  }
}

// What an engine has: its own instance (validation on, its own messenger), device and queue.
struct EngineVulkan : fftgen_test::EngineInstance {
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;

  // Another logical device on the same physical device (the same queue family), with 16-bit storage
  // buffers where asked; `enabled` receives what its create info enables (features_enabled_by).
  VkDevice create_device(bool storage16 = false, DeviceFeatures* enabled = nullptr) const {
    const float priority = 1.0f;
    VkPhysicalDevice16BitStorageFeatures half{};
    half.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
    half.storageBuffer16BitAccess = VK_TRUE;
    VkDeviceQueueCreateInfo qci{};
    qci.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{};
    dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    if (storage16) dci.pNext = &half;
    if (enabled) *enabled = features_enabled_by(dci);
    VkDevice created = VK_NULL_HANDLE;
    REQUIRE(vkCreateDevice(physical_device, &dci, nullptr, &created) == VK_SUCCESS);
    return created;
  }

  EngineVulkan() {
    std::tie(physical_device, family) = compute_device();
    device = create_device();
    vkGetDeviceQueue(device, family, 0, &queue);
  }
  ~EngineVulkan() {
    if (device) vkDestroyDevice(device, nullptr);
  }
  ExternalDevice handles(VkPipelineCache cache = VK_NULL_HANDLE) const {
    return {instance, physical_device, device, queue, family, cache};
  }
};

VkPipelineCache create_cache(VkDevice device) {
  VkPipelineCacheCreateInfo pci{};
  pci.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  VkPipelineCache cache = VK_NULL_HANDLE;
  REQUIRE(vkCreatePipelineCache(device, &pci, nullptr, &cache) == VK_SUCCESS);
  return cache;
}

}  // namespace

TEST_CASE("kernels run from a manifest and files held in memory", "[gpu]") {
  DeviceOptions options;
  options.validation = true;
  Device device(options);
  const Manifest manifest = memory_manifest();
  REQUIRE(manifest.kernels.size() == 3);
  CHECK(manifest.files.in_memory());
  verify_all(device, manifest);

  // The generated header's `files` array (name, data, size) is taken as it is.
  struct File {
    const char* name;
    const void* data;
    std::size_t size;
  };
  const std::vector<MemoryFile> files = memory_files();
  std::vector<File> table;
  for (const auto& f : files) table.push_back({f.name.c_str(), f.data, f.size});
  const Manifest from_table =
      parse_manifest_text(generated().files.back().bytes, "table", FileSource::in_memory(table));
  const Kernel kernel(device, from_table, "fft256");
  CHECK(kernel.n() == 256);
  for (const auto& m : device.validation_messages()) FAIL_CHECK(m.text);
}

TEST_CASE("missing or broken embedded files are refused with the file's name", "[gpu]") {
  DeviceOptions options;
  options.validation = true;
  Device device(options);
  CHECK_THROWS_WITH(Kernel(device, memory_manifest(memory_files("fft256.fwd0.spv")), "fft256"),
                    Catch::Contains("'fft256.fwd0.spv' (embedded) is missing; the embedded files are:") &&
                        Catch::Contains("fft256.inv0.spv"));
  auto files = memory_files();
  for (auto& f : files)
    if (f.name == "fft256.inv0.spv") f.size = 6;
    else if (f.name == "fft256.twiddles.bin") f.size -= 8;
  const Manifest broken = memory_manifest(files);
  CHECK_THROWS_WITH(Kernel(device, broken, "fft256"),
                    Catch::Contains("twiddle file 'fft256.twiddles.bin' (embedded) holds"));
  for (auto& f : files)
    if (f.name == "fft256.twiddles.bin") f.size += 8;
  CHECK_THROWS_WITH(Kernel(device, memory_manifest(files), "fft256"),
                    Catch::Contains("'fft256.inv0.spv' (embedded) is not SPIR-V (size 6 bytes)"));
  CHECK_THROWS_AS(parse_manifest_text("{\"format\": ", "broken text", {}), ManifestError);
  CHECK_THROWS_WITH(parse_manifest_text("{\"format\": ", "broken text", {}), Catch::StartsWith("broken text: not valid JSON"));
  for (const auto& m : device.validation_messages()) FAIL_CHECK(m.text);
}

TEST_CASE("a Device adopts an engine's instance, device and queue, and its pipeline cache", "[gpu]") {
  EngineVulkan engine;
  const VkPipelineCache cache = create_cache(engine.device);
  {
    Device device(engine.handles(cache));
    CHECK_FALSE(device.owns_device());
    CHECK(device.instance() == engine.instance);
    CHECK(device.device() == engine.device);
    CHECK(device.queue() == engine.queue);
    CHECK(device.queue_family() == engine.family);
    CHECK(device.pipeline_cache() == cache);
    verify_all(device, memory_manifest());
  }
  vkDestroyPipelineCache(engine.device, cache, nullptr);
  for (const auto& m : engine.messages) FAIL_CHECK(m);

  // The cache reaches vkCreateComputePipelines: one made on another device is reported by the
  // validation layer (lavapipe keeps nothing in pipeline caches, so their data cannot show it).
  const VkDevice other = engine.create_device();
  const VkPipelineCache foreign = create_cache(other);
  {
    Device device(engine.handles(foreign));
    const Kernel kernel(device, memory_manifest(), "fft64c");
  }
  bool reported = false;
  for (const auto& m : engine.messages) reported |= m.find("pipelineCache") != std::string::npos;
  CHECK(reported);
  engine.messages.clear();
  vkDestroyPipelineCache(other, foreign, nullptr);
  vkDestroyDevice(other, nullptr);

  // Everything the Device made is gone, and the engine's device still works.
  VkBufferCreateInfo bci{};
  bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bci.size = 256;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  CHECK(vkCreateBuffer(engine.device, &bci, nullptr, &buffer) == VK_SUCCESS);
  vkDestroyBuffer(engine.device, buffer, nullptr);
  CHECK(vkDeviceWaitIdle(engine.device) == VK_SUCCESS);
  vkDestroyDevice(engine.device, nullptr);  // reports any object the Device left behind
  engine.device = VK_NULL_HANDLE;
  for (const auto& m : engine.messages) FAIL_CHECK(m);
}

namespace {

std::vector<char> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A Device of `options` that makes kernel fft64c (two pipelines: both directions) and returns its cache status.
PipelineCacheStatus make_kernel(const DeviceOptions& options) {
  Device device(options);
  const Kernel kernel(device, memory_manifest(), "fft64c");
  return device.pipeline_cache_status();
}

}  // namespace

TEST_CASE("a Device keeps its pipeline cache in a file; a damaged or foreign one is ignored with a note", "[gpu]") {
  namespace fs = std::filesystem;
  const fs::path folder = fs::temp_directory_path() / ("fftgen-test-pipeline-cache-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  std::vector<std::string> notes;
  std::vector<PipelineCreation> events;
  DeviceOptions options;
  options.pipeline_cache_folder = folder;
  options.notes = [&](const std::string& text) { notes.push_back(text); };
  options.pipeline_listener = [&](const PipelineCreation& e) { events.push_back(e); };

  const PipelineCacheStatus first = make_kernel(options);
  CHECK(first.state == PipelineCacheState::absent);
  CHECK(first.path.parent_path() == folder);
  REQUIRE(fs::exists(first.path));
  REQUIRE(events.size() == 2);
  CHECK((!events[0].done && events[1].done && events[0].pipelines == 2 && events[0].cache == PipelineCacheState::absent));
  CHECK(notes.empty());
  const std::vector<char> whole = read_bytes(first.path);
  CHECK(std::string(whole.data(), 8) == "FFTGENPC");

  // Read back, and not rewritten when the driver's data did not change.
  fs::last_write_time(first.path, fs::file_time_type::clock::now() - std::chrono::hours(24));
  const auto stamp = fs::last_write_time(first.path);
  CHECK(make_kernel(options).state == PipelineCacheState::loaded);
  CHECK(fs::last_write_time(first.path) == stamp);
  CHECK(notes.empty());

  // Damaged or another device's: ignored with one note saying why, the kernel made all the same, the file rewritten.
  auto damaged = [&](std::vector<char> bytes, const std::string& reason) {
    write_bytes(first.path, bytes);
    notes.clear();
    const PipelineCacheStatus s = make_kernel(options);
    INFO(reason << ": " << s.note);
    CHECK(s.state == PipelineCacheState::ignored);
    CHECK(s.note.find(reason) != std::string::npos);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == s.note);
    CHECK(read_bytes(first.path) == whole);
  };
  std::vector<char> bytes = whole;
  bytes.back() ^= 1;
  damaged(bytes, "corrupt (checksum differs)");
  bytes = whole;
  bytes[20] ^= 1;  // the driver version
  damaged(bytes, "made by another device or driver");
  bytes = whole;
  bytes.pop_back();
  damaged(bytes, "truncated");
  damaged(std::vector<char>(5, 'x'), "truncated (5 bytes)");
  damaged(std::vector<char>(200, 'x'), "not an fftgen pipeline cache");

  // Off: asked for, or FFTGEN_PIPELINE_CACHE=off where no folder is given.
  options.pipeline_cache_file = false;
  CHECK(make_kernel(options).state == PipelineCacheState::off);
  options.pipeline_cache_file = true;
  options.pipeline_cache_folder.clear();
  ::setenv("FFTGEN_PIPELINE_CACHE", "off", 1);
  {
    Device device(options);
    CHECK(device.pipeline_cache_status().state == PipelineCacheState::off);
    CHECK(device.pipeline_cache() == VK_NULL_HANDLE);
  }
  ::setenv("FFTGEN_PIPELINE_CACHE", folder.c_str(), 1);
  CHECK(default_pipeline_cache_folder() == folder);
  ::unsetenv("FFTGEN_PIPELINE_CACHE");
  fs::remove_all(folder);
}

TEST_CASE("pipelines are done once created and run; fftgen-vk's notice says so when that is slow", "[gpu]") {
  std::vector<PipelineCreation> events;
  DeviceOptions options;
  options.pipeline_cache_file = false;
  options.pipeline_listener = [&](const PipelineCreation& e) { events.push_back(e); };
  Device device(options);
  const Manifest manifest = memory_manifest();
  const Kernel kernel(device, manifest, "fft64c");
  REQUIRE(events.size() == 1);  // created, not yet run: lavapipe compiles at the first dispatch
  CHECK((!events[0].done && events[0].pipelines == 2 && events[0].cache == PipelineCacheState::off));
  execute(device, kernel, Direction::forward, std::vector<std::complex<float>>(64), 1);
  REQUIRE(events.size() == 2);
  CHECK((events[1].done && events[1].pipelines == 2));
  execute(device, kernel, Direction::forward, std::vector<std::complex<float>>(64), 1);
  CHECK(events.size() == 2);

  const std::vector<const KernelInfo*> all{&manifest.kernel("fft256"), &manifest.kernel("fft64c")};
  CHECK(count_pipelines(manifest, all) == 2 + 2);
  std::ostringstream slow, quick, first;
  {
    CompileNotice notice("fftgen-vk", 4, slow, std::chrono::milliseconds(20));
    notice.listener()({2, false, PipelineCacheState::loaded});
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    notice.listener()({2, true, PipelineCacheState::loaded});
  }
  CHECK(slow.str() == "fftgen-vk: compiling 4 pipelines (new to the pipeline cache; cached for the next)\n");
  {
    CompileNotice notice("fftgen-vk", 4, quick, std::chrono::milliseconds(5000));
    notice.listener()({2, false, PipelineCacheState::loaded});
    notice.listener()({2, true, PipelineCacheState::loaded});
  }
  CHECK(quick.str().empty());
  {
    CompileNotice notice("fftgen-vk", 4, first, std::chrono::milliseconds(5000));
    notice.listener()({2, false, PipelineCacheState::absent});
    notice.listener()({2, true, PipelineCacheState::absent});
    notice.listener()({2, false, PipelineCacheState::absent});
  }
  CHECK(first.str() == "fftgen-vk: compiling 4 pipelines (first run on this device; cached for the next)\n");
}

TEST_CASE("an ExternalDevice with a null handle or a bad queue family is refused", "[gpu]") {
  EngineVulkan engine;
  ExternalDevice handles = engine.handles();
  handles.device = VK_NULL_HANDLE;
  CHECK_THROWS_WITH(Device(handles), "ExternalDevice: device is VK_NULL_HANDLE");
  handles = engine.handles();
  handles.queue = VK_NULL_HANDLE;
  CHECK_THROWS_WITH(Device(handles), "ExternalDevice: queue is VK_NULL_HANDLE");
  handles = engine.handles();
  handles.queue_family = 99;
  CHECK_THROWS_AS(Device(handles), UsageError);
  CHECK_THROWS_WITH(Device(handles), Catch::Contains("queue_family 99 is out of range"));
  for (const auto& m : engine.messages) FAIL_CHECK(m);
}

namespace {

// An fp16 kernel beside fp32 ones: the device contract (docs/runtime.md, "What a kernel needs of
// the device").
const fftgen::GeneratedOutput& contract_generated() {
  static const fftgen::GeneratedOutput out = fftgen::generate(
      fftgen::parse_plan(R"({"targets": ["spirv"], "kernels": [
        {"name": "half256", "shape": [256], "precision": "fp16"},
        {"name": "fft256", "shape": [256]},
        {"name": "real64", "shape": [64], "transform": "r2c"}]})",
                         "contract.json"),
      "contract.json");
  return out;
}

Manifest contract_manifest() {
  std::vector<MemoryFile> files;
  for (const auto& f : contract_generated().files)
    if (f.name != "manifest.json") files.push_back({f.name, f.bytes.data(), f.bytes.size()});
  return parse_manifest_text(contract_generated().files.back().bytes, "contract manifest",
                             FileSource::in_memory_files(std::move(files)));
}

}  // namespace

TEST_CASE("an engine's device without 16-bit storage: fp16 kernels refused in one line, the others run clean",
          "[gpu]") {
  const Manifest manifest = contract_manifest();
  const KernelInfo& half = manifest.kernel("half256");
  CHECK(half.requirements.needs(Feature::storage_buffer_16bit_access));
  CHECK_FALSE(manifest.kernel("fft256").requirements.needs(Feature::storage_buffer_16bit_access));
  EngineVulkan engine;  // its device enables no features
  {
    Device device(engine.handles());
    CHECK_FALSE(device.storage_buffer_16bit_access());
    try {
      Kernel kernel(device, manifest, "half256");
      FAIL("an fp16 kernel was accepted on a device without storageBuffer16BitAccess");
    } catch (const DeviceLimitError& e) {
      const std::string msg = e.what();
      INFO(msg);
      CHECK(msg.find('\n') == std::string::npos);
      CHECK_THAT(msg, Catch::StartsWith("kernel 'half256' cannot run on device '" + device.name() + "': needs the "
                                        "Vulkan feature storageBuffer16BitAccess") &&
                          Catch::Contains("ExternalDevice::enabled_features"));
    }
    VerifyOptions options;
    options.batches = {1, 3};
    for (const char* name : {"fft256", "real64"}) {
      const VerifyResult r = verify_kernel(device, manifest, manifest.kernel(name), options);
      INFO(name << ": " << r.error);
      CHECK(r.error.empty());
      CHECK(r.pass);
    }
  }
  for (const auto& m : engine.messages) FAIL_CHECK(m);
  engine.messages.clear();

  // A device that enabled it and says so runs the fp16 kernel without a validation message; one
  // that enabled it and does not say so is refused (ExternalDevice claims nothing by default).
  DeviceFeatures enabled;
  const VkDevice with = engine.create_device(true, &enabled);
  CHECK(enabled.storage_buffer_16bit_access);
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(with, engine.family, 0, &queue);
  {
    ExternalDevice handles{engine.instance, engine.physical_device, with, queue, engine.family};
    {
      Device silent(handles);
      CHECK_THROWS_WITH(Kernel(silent, manifest, "half256"), Catch::Contains("storageBuffer16BitAccess"));
    }
    handles.enabled_features = enabled;
    Device device(handles);
    CHECK(device.enabled_features().names() == "storageBuffer16BitAccess");
    VerifyOptions options;
    options.batches = {1, 3};
    const VerifyResult r = verify_kernel(device, manifest, half, options);
    INFO(r.error);
    CHECK(r.error.empty());
    CHECK(r.pass);
  }
  vkDestroyDevice(with, nullptr);
  for (const auto& m : engine.messages) FAIL_CHECK(m);
}

TEST_CASE("features_enabled_by reads a VkDeviceCreateInfo's features, wherever in its chain", "[gpu]") {
  VkDeviceCreateInfo dci{};
  dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  CHECK(features_enabled_by(dci).names() == "none");
  VkPhysicalDeviceFeatures core{};
  core.shaderStorageImageExtendedFormats = VK_TRUE;
  dci.pEnabledFeatures = &core;
  CHECK(features_enabled_by(dci).names() == "shaderStorageImageExtendedFormats");
  dci.pEnabledFeatures = nullptr;
  VkPhysicalDeviceVulkan11Features v11{};
  v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  v11.storageBuffer16BitAccess = VK_TRUE;
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.features.shaderStorageImageExtendedFormats = VK_TRUE;
  f2.pNext = &v11;
  dci.pNext = &f2;
  CHECK(features_enabled_by(dci).names() == "storageBuffer16BitAccess, shaderStorageImageExtendedFormats");
}

namespace {

// The one line of the UsageError `call` throws (and that it is one line).
template <typename Call>
std::string usage_error(Call&& call) {
  try {
    call();
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  FAIL_CHECK("no UsageError");
  return "";
}

}  // namespace

TEST_CASE("typed buffers: bind and upload refuse another element type, a buffer too small, another role",
          "[gpu]") {
  DeviceOptions options;
  options.validation = true;
  options.pipeline_cache_file = false;
  Device device(options);
  const Manifest manifest = contract_manifest();
  const Kernel fft(device, manifest, "fft256"), half(device, manifest, "half256"), real(device, manifest, "real64");
  CHECK(half.element(Direction::forward, BufferRole::input) == ElementType::complex32);
  CHECK(real.element(Direction::forward, BufferRole::input) == ElementType::float32);
  CHECK(real.element(Direction::inverse, BufferRole::input) == ElementType::complex64);
  CHECK(fft.required_bytes(Direction::forward, BufferRole::output, 4) == 4 * 256 * 8);
  CHECK(half.required_bytes(Direction::forward, BufferRole::input, 4) == 4 * 256 * 4);
  CHECK_THAT(usage_error([&] { fft.required_bytes(Direction::forward, BufferRole::twiddles, 1); }),
             Catch::Contains("not twiddles"));

  // A complex64 upload into an fp16 kernel's input.
  const Buffer half_in = half.make_buffer(Direction::forward, BufferRole::input, 4);
  CHECK_THAT(usage_error([&] { upload(device, half_in, std::vector<std::complex<float>>(256)); }),
             Catch::Contains("upload of complex64 values: the buffer holds complex32") &&
                 Catch::Contains("half floats"));
  const Buffer real_in = real.make_buffer(Direction::forward, BufferRole::input, 1);
  upload(device, real_in, std::vector<float>(64, 1.0f));
  CHECK_THAT(usage_error([&] { upload(device, real_in, std::vector<float>(65)); }),
             Catch::Contains("260 bytes (65 float32 values): the buffer holds 256"));

  Buffer in = fft.make_buffer(Direction::forward, BufferRole::input, 4);
  Buffer out = fft.make_buffer(Direction::forward, BufferRole::output, 4);
  KernelIo io;
  io.input = in;
  io.output = out;
  io.max_batch = 8;
  CHECK_THAT(usage_error([&] { fft.bind(io); }),
             Catch::StartsWith("kernel 'fft256': KernelIo::input holds 8192 bytes from its offset; the forward input "
                               "of batch 8 needs 16384"));
  io.max_batch = 4;
  io.input = half_in;
  CHECK_THAT(usage_error([&] { fft.bind(io); }),
             Catch::StartsWith("kernel 'fft256': KernelIo::input holds complex32; the forward input holds complex64"));
  const Buffer scratch(device, in.size(), MemoryKind::device_local, {ElementType::complex64, BufferRole::scratch});
  io.input = scratch;
  CHECK_THAT(usage_error([&] { fft.bind(io); }),
             Catch::StartsWith("kernel 'fft256': KernelIo::input is a buffer made for role scratch"));
  io.input = BufferRange{scratch.handle(), 0};  // a bare range says nothing, and is taken as it is
  CHECK_NOTHROW(fft.bind(io));

  // The typed buffers run: a forward transform of impulses, then the inverse reading the forward's
  // output (a direction's input is the other's output).
  io.input = in;
  std::vector<std::complex<float>> x(4 * 256);
  for (int b = 0; b < 4; ++b) x[b * 256] = {1.0f + b, 0.0f};
  upload(device, in, x);
  KernelBindings bindings = fft.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    fft.record(cmd, Direction::forward, bindings, 4);
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<std::complex<float>> y(4 * 256);
  download(device, out, y);
  for (int b = 0; b < 4; ++b)
    for (int k = 0; k < 256; k += 51) CHECK(std::abs(y[b * 256 + k] - std::complex<float>(1.0f + b, 0.0f)) < 1e-5f);
  std::vector<float> as_reals(8);
  CHECK_THAT(usage_error([&] { download(device, out, as_reals); }),
             Catch::Contains("download of float32 values: the buffer holds complex64"));
  const Buffer back_out = fft.make_buffer(Direction::inverse, BufferRole::output, 4);
  KernelIo back;
  back.input = out;
  back.output = back_out;
  back.max_batch = 4;
  back.directions = {Direction::inverse};
  CHECK_NOTHROW(fft.bind(back));
  for (const auto& m : device.validation_messages()) FAIL_CHECK(m.text);
}
