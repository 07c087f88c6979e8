#include "fftgen/runtime/kernel.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <future>
#include <map>
#include <sstream>
#include <tuple>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/error.hpp"
#include "fftgen/runtime/requirements.hpp"
#include "fftgen/runtime/spirv_info.hpp"

namespace fftgen::vk {

// ---------------------------------------------------------------------------------------------
// Device limits

namespace {

// The first binding of `role` in any pass of the kernel, or null.
const PassBinding* first_binding(const KernelInfo& k, BufferRole role) {
  for (Direction d : k.directions)
    for (const auto& p : k.passes(d))
      for (const auto& b : p.bindings)
        if (b.role == role) return &b;
  return nullptr;
}

// Bytes per transform of the scratch buffer, and of scratch2, which has as much; none when no pass
// binds either (a 2D c2r may bind scratch2 alone). Its elements are complex values as the passes
// store them (4 bytes in an fp16 kernel). Version 1 manifests pushed stride N for scratch, so they
// need at least N whatever scratch_elements says.
uint64_t scratch_bytes_per_transform(const KernelInfo& k) {
  const PassBinding* b = first_binding(k, BufferRole::scratch);
  if (!b) b = first_binding(k, BufferRole::scratch2);
  return b ? std::max<uint64_t>(k.scratch_elements, 1) * pair_bytes(b->element) : 0;
}

// The rows of one transform in the kernel's images (NY; a convolution's frame: its image_h).
uint64_t image_rows_per_transform(const KernelInfo& k) {
  for (Direction d : k.directions)
    for (const StorageImage* image : {k.input_image(d), k.output_image(d)})
      if (image) return std::max<uint32_t>(image->rows_per_transform, 1);
  return std::max<uint32_t>(k.ny(), 1);
}

// Whether a pass binds a second scratch buffer (image kernels of three or more passes, a 2D c2r
// through the sides program): it has the scratch buffer's size.
bool uses_scratch2(const KernelInfo& k) { return first_binding(k, BufferRole::scratch2) != nullptr; }

}  // namespace

std::vector<std::string> device_limit_problems(const Device& device, const KernelInfo& info) {
  std::vector<std::string> problems = requirement_problems(device, info);
  // Not a Vulkan limit, so not in the manifest's "requires": memory for one transform.
  const uint64_t memory = info.forward_input.bytes() + info.forward_output.bytes() +
                          scratch_bytes_per_transform(info) * (uses_scratch2(info) ? 2 : 1) +
                          (info.twiddles ? info.twiddles->bytes() : 0);
  if (memory > device.device_local_heap_bytes())
    problems.push_back("needs " + std::to_string(memory) + " bytes of device-local memory (input, output, scratch "
                       "and twiddles of one transform); device '" + device.name() + "' has " +
                       std::to_string(device.device_local_heap_bytes()) + " (largest device-local heap)");
  return problems;
}

void check_device_limits(const Device& device, const KernelInfo& info) {
  const auto problems = device_limit_problems(device, info);
  if (problems.empty()) return;
  std::string msg = "kernel '" + info.name + "' cannot run on device '" + device.name() + "': ";
  for (size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
  throw DeviceLimitError(msg);
}

// ---------------------------------------------------------------------------------------------
// KernelBindings

KernelBindings::~KernelBindings() { release(); }

KernelBindings::KernelBindings(KernelBindings&& o) noexcept { *this = std::move(o); }

KernelBindings& KernelBindings::operator=(KernelBindings&& o) noexcept {
  if (this != &o) {
    release();
    device_ = o.device_;
    pool_ = o.pool_;
    forward_sets_ = std::move(o.forward_sets_);
    inverse_sets_ = std::move(o.inverse_sets_);
    scratch_ = std::move(o.scratch_);
    scratch2_ = std::move(o.scratch2_);
    sync_ = std::move(o.sync_);
    max_batch_ = o.max_batch_;
    input_stride_ = o.input_stride_;
    output_stride_ = o.output_stride_;
    o.pool_ = VK_NULL_HANDLE;
    o.max_batch_ = 0;
  }
  return *this;
}

void KernelBindings::release() {
  if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
  pool_ = VK_NULL_HANDLE;
  forward_sets_.clear();
  inverse_sets_.clear();
}

// ---------------------------------------------------------------------------------------------
// Kernel

namespace {

ShaderCode load_spirv_file(const FileSource& files, const KernelInfo& k, const PassInfo& p) {
  auto it = p.files.find("spirv");
  if (it == p.files.end())
    throw ManifestError("kernel '" + k.name + "' pass " + p.name +
                        " has no SPIR-V file (was the plan's targets list missing \"spirv\"?)");
  ShaderCode code;
  code.spirv = spirv_from_bytes(files.read(it->second), files.describe(it->second));
  auto e = p.entry_points.find("spirv");
  code.entry_point = e == p.entry_points.end() ? "main" : e->second;
  return code;
}

// What the module declares against what the manifest says about its pass: a module of another
// kernel or pass, a module edited or truncated, or a manifest edited by hand shows up here as
// a ManifestError naming both figures, before the driver sees the module. (A module of the same
// interface and shared-memory size but another N cannot be told apart: see docs/runtime.md.)
void check_module_matches_pass(const KernelInfo& k, const PassInfo& p, const ShaderCode& code,
                               const std::string& what) {
  const SpirvInterface m = reflect_spirv(code.spirv, what);
  const std::string pass = "kernel '" + k.name + "' pass " + p.name + ": " + what;
  auto mismatch = [&](const std::string& item, const std::string& module_says, const std::string& manifest_says) {
    throw ManifestError(pass + " declares " + item + " " + module_says + ", the manifest says " + manifest_says +
                        " (is the file another kernel's, or the manifest edited?)");
  };
  if (std::find(m.entry_points.begin(), m.entry_points.end(), code.entry_point) == m.entry_points.end()) {
    std::string found;
    for (const auto& e : m.entry_points) found += (found.empty() ? "'" : ", '") + e + "'";
    mismatch("compute entry points", found.empty() ? "none" : found, "'" + code.entry_point + "'");
  }
  for (int i = 0; i < 3; ++i)
    if (m.local_size[i] && *m.local_size[i] != p.local_size[i])
      mismatch(std::string("workgroup size ") + "xyz"[i], std::to_string(*m.local_size[i]),
               std::to_string(p.local_size[i]) + " (local_size)");
  // A binding the module declares through two variables (a readonly and a writeonly view of one
  // buffer) counts once.
  auto binding_list = [](std::vector<uint32_t> b) {
    std::sort(b.begin(), b.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    std::string s;
    for (auto x : b) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return "[" + s + "]";
  };
  std::vector<uint32_t> module_bindings, manifest_bindings;
  for (const auto& b : m.bindings) {
    if (b.set != 0) mismatch("a binding in descriptor set", std::to_string(b.set), "set 0 only");
    module_bindings.push_back(b.binding);
  }
  for (const auto& b : p.bindings) manifest_bindings.push_back(b.binding);
  if (binding_list(module_bindings) != binding_list(manifest_bindings))
    mismatch("storage-buffer bindings", binding_list(module_bindings), binding_list(manifest_bindings));
  std::vector<uint32_t> module_images, manifest_images;
  for (const auto& b : m.bindings)
    if (b.image) module_images.push_back(b.binding);
  for (const auto& b : p.bindings)
    if (b.image) manifest_images.push_back(b.binding);
  if (binding_list(module_images) != binding_list(manifest_images))
    mismatch("storage images at bindings", binding_list(module_images),
             binding_list(manifest_images) + " (\"resource\": \"storage_image\")");
  if (m.push_constant_bytes > p.push_constant_bytes)
    mismatch("a push-constant block of bytes", std::to_string(m.push_constant_bytes),
             std::to_string(p.push_constant_bytes) + " (push_constant_bytes)");
  if (m.workgroup_bytes != p.shared_memory_bytes)
    mismatch("shared memory bytes", std::to_string(m.workgroup_bytes),
             std::to_string(p.shared_memory_bytes) + " (shared_memory_bytes)");
  // A capability that needs a device feature the kernel's requirements do not name would reach the
  // driver on a device without it.
  const DeviceRequirements needs = requirements_of(k);
  for (std::size_t i = 0; i < kFeatureCount; ++i) {
    const auto feature = static_cast<Feature>(i);
    if (!needs.needs(feature) &&
        std::count(m.capabilities.begin(), m.capabilities.end(), spirv_capability(feature)) > 0)
      mismatch("the SPIR-V capability that needs", to_string(feature),
               "nothing needs it (\"requires\": {\"features\"}, and the bindings' elements and formats)");
  }
}

}  // namespace

Kernel::Kernel(Device& device, const Manifest& manifest, const std::string& name,
               ShaderLoader loader)
    : Kernel(device, manifest.kernel(name), manifest.files, std::move(loader)) {}

Kernel::Kernel(Device& device, const KernelInfo& info, const std::filesystem::path& directory,
               ShaderLoader loader)
    : Kernel(device, info, FileSource(directory), std::move(loader)) {}

Kernel::Kernel(Device& device, const KernelInfo& info, const FileSource& files, ShaderLoader loader)
    : device_(device), info_(info) {
  check_device_limits(device, info_);
  // Bindings no set of buffers could satisfy: refused once here rather than by every bind().
  for (Direction d : info_.directions)
    for (const auto& p : info_.passes(d))
      for (const auto& b : p.bindings) {
        if (b.role == BufferRole::twiddles && !info_.twiddles)
          throw ManifestError("kernel '" + info_.name + "' pass " + p.name +
                              " binds twiddles but the manifest names no twiddle file");
        if (b.role == BufferRole::input && b.writes)
          throw ManifestError("kernel '" + info_.name + "' pass " + p.name +
                              " writes its input; fftgen kernels never do");
      }
  const bool from_files = !loader;
  if (!loader)
    loader = [files](const KernelInfo& k, const PassInfo& p) {
      return load_spirv_file(files, k, p);
    };
  try {
    if (info_.twiddles) {
      auto bytes = files.read(info_.twiddles->file);
      if (bytes.size() != info_.twiddles->bytes())
        throw ManifestError("kernel '" + info_.name + "': twiddle file " +
                            files.describe(info_.twiddles->file) + " holds " +
                            std::to_string(bytes.size()) + " bytes; the manifest's " +
                            std::to_string(info_.twiddles->count) + " values need " +
                            std::to_string(info_.twiddles->bytes()));
      twiddles_ = Buffer(device, bytes.size());
      upload(device, twiddles_.handle(), bytes.data(), bytes.size());
    }
    // Every pass is loaded and checked first; then the pipelines are created concurrently, one
    // thread per pass: with a cold driver cache each vkCreateComputePipelines is a whole SPIR-V
    // to machine-code compile on the calling thread (about 100 ms per pass on an H100).
    struct PipelineJob {
      const PassInfo* info;
      ShaderCode code;
      Pass* pass;
    };
    std::vector<PipelineJob> jobs;
    for (Direction d : info_.directions) {
      auto& passes = d == Direction::forward ? forward_ : inverse_;
      passes.resize(info_.passes(d).size());
      for (size_t i = 0; i < passes.size(); ++i) {
        const PassInfo& p = info_.passes(d)[i];
        ShaderCode code = loader(info_, p);
        check_module_matches_pass(info_, p, code,
                                  from_files ? files.describe(p.files.at("spirv"))
                                             : "the ShaderLoader's module");
        // The manifest's figure is checked before anything is loaded; the shader's own
        // declaration is what the driver enforces, so check that too.
        const uint64_t shared = spirv_workgroup_bytes(code.spirv);
        const uint32_t has = device.limits().maxComputeSharedMemorySize;
        if (shared > has)
          throw DeviceLimitError("kernel '" + info_.name + "' pass " + p.name + ": the shader "
                                 "declares " + std::to_string(shared) + " bytes of shared "
                                 "memory (the manifest says " +
                                 std::to_string(p.shared_memory_bytes) + "); device '" +
                                 device.name() + "' allows " + std::to_string(has) +
                                 " (maxComputeSharedMemorySize)");
        jobs.push_back({&p, std::move(code), &passes[i]});
      }
    }
    device.notify_pipelines(jobs.size(), false);
    std::vector<std::future<void>> others;
    for (size_t j = 1; j < jobs.size(); ++j)
      others.push_back(std::async(std::launch::async,
                                  [this, &job = jobs[j]] { create_pass(*job.info, job.code, *job.pass); }));
    std::exception_ptr error;
    try {
      if (!jobs.empty()) create_pass(*jobs[0].info, jobs[0].code, *jobs[0].pass);
    } catch (...) {
      error = std::current_exception();
    }
    for (auto& f : others) {  // wait for every thread before anything is destroyed
      try {
        f.get();
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    }
    if (error) {
      device.notify_pipelines(jobs.size(), true);
      std::rethrow_exception(error);
    }
    device.pipelines_created(jobs.size());
  } catch (...) {
    destroy();
    throw;
  }
}

Kernel::~Kernel() { destroy(); }

void Kernel::destroy() {
  VkDevice dev = device_.device();
  for (auto* list : {&forward_, &inverse_}) {
    for (auto& p : *list) {
      if (p.pipeline) vkDestroyPipeline(dev, p.pipeline, nullptr);
      if (p.layout) vkDestroyPipelineLayout(dev, p.layout, nullptr);
      if (p.set_layout) vkDestroyDescriptorSetLayout(dev, p.set_layout, nullptr);
    }
    list->clear();
  }
}

void Kernel::create_pass(const PassInfo& info, const ShaderCode& code, Pass& pass) {
  // record() writes these words of a push_constant_bytes-long block; a KernelInfo made by hand
  // (not read by parse_manifest, which checks the same) must not make it write past the end.
  auto word = [&](std::string_view constant) {
    const std::string name(constant);
    const PushConstant* pc = info.push_constant(name);
    if (pc && (pc->offset % 4 || uint64_t{pc->offset} + 4 > info.push_constant_bytes))
      throw ManifestError("kernel '" + info_.name + "' pass " + info.name + ": push constant '" + name +
                          "' at offset " + std::to_string(pc->offset) + " does not fit in push_constant_bytes " +
                          std::to_string(info.push_constant_bytes));
    return pc ? static_cast<int>(pc->offset / 4) : -1;
  };
  pass.batch_word = word(kPushBatch);
  pass.group_offset_word = word(kPushGroupOffset);
  for (const auto& b : info.bindings) {
    if (b.binding == kSourceSlot.binding) {
      pass.src_stride_word = word(kPushSrcStride);
      pass.src_binding = &b;
    }
    if (b.binding == kDestinationSlot.binding) {
      pass.dst_stride_word = word(kPushDstStride);
      pass.dst_binding = &b;
    }
  }

  VkDevice dev = device_.device();
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (const auto& b : info.bindings) {
    VkDescriptorSetLayoutBinding lb{};
    lb.binding = b.binding;
    lb.descriptorType = b.image ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    lb.descriptorCount = 1;
    lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    bindings.push_back(lb);
  }
  VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  sci.bindingCount = static_cast<uint32_t>(bindings.size());
  sci.pBindings = bindings.data();
  check(vkCreateDescriptorSetLayout(dev, &sci, nullptr, &pass.set_layout),
        "vkCreateDescriptorSetLayout");

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, info.push_constant_bytes};
  VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  lci.setLayoutCount = 1;
  lci.pSetLayouts = &pass.set_layout;
  lci.pushConstantRangeCount = info.push_constant_bytes ? 1 : 0;
  lci.pPushConstantRanges = &range;
  check(vkCreatePipelineLayout(dev, &lci, nullptr, &pass.layout), "vkCreatePipelineLayout");

  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = code.spirv.size() * sizeof(uint32_t);
  mci.pCode = code.spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(dev, &mci, nullptr, &module), "vkCreateShaderModule");

  VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pci.stage.module = module;
  pci.stage.pName = code.entry_point.c_str();
  pci.layout = pass.layout;
  if (device_.pipeline_statistics()) pci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkResult r = vkCreateComputePipelines(dev, device_.pipeline_cache(), 1, &pci, nullptr,
                                        &pass.pipeline);
  vkDestroyShaderModule(dev, module, nullptr);
  if (r != VK_SUCCESS)
    throw VulkanError("creating the pipeline of kernel '" + info_.name + "' pass " + info.name +
                          " failed: " + to_string(r),
                      r);
}

nlohmann::json Kernel::pipeline_statistics() const {
  nlohmann::json passes = nlohmann::json::array();
  if (!device_.pipeline_statistics()) return passes;
  const VkDevice dev = device_.device();
  auto properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(dev, "vkGetPipelineExecutablePropertiesKHR"));
  auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(dev, "vkGetPipelineExecutableStatisticsKHR"));
  if (!properties || !statistics)
    throw VulkanError("VK_KHR_pipeline_executable_properties is enabled but its functions are missing",
                      VK_ERROR_EXTENSION_NOT_PRESENT);
  for (Direction d : info_.directions) {
    const auto& list = d == Direction::forward ? forward_ : inverse_;
    for (size_t i = 0; i < list.size(); ++i) {
      VkPipelineInfoKHR pipeline{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
      pipeline.pipeline = list[i].pipeline;
      uint32_t count = 0;
      check(properties(dev, &pipeline, &count, nullptr), "vkGetPipelineExecutablePropertiesKHR");
      std::vector<VkPipelineExecutablePropertiesKHR> executables(
          count, VkPipelineExecutablePropertiesKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
      check(properties(dev, &pipeline, &count, executables.data()), "vkGetPipelineExecutablePropertiesKHR");
      nlohmann::json exes = nlohmann::json::array();
      for (uint32_t e = 0; e < count; ++e) {
        VkPipelineExecutableInfoKHR exe{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        exe.pipeline = list[i].pipeline;
        exe.executableIndex = e;
        uint32_t stat_count = 0;
        check(statistics(dev, &exe, &stat_count, nullptr), "vkGetPipelineExecutableStatisticsKHR");
        std::vector<VkPipelineExecutableStatisticKHR> stats(
            stat_count, VkPipelineExecutableStatisticKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        check(statistics(dev, &exe, &stat_count, stats.data()), "vkGetPipelineExecutableStatisticsKHR");
        nlohmann::json values = nlohmann::json::object();
        for (const auto& st : stats) {
          switch (st.format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: values[st.name] = st.value.b32 != 0; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: values[st.name] = st.value.i64; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: values[st.name] = st.value.u64; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: values[st.name] = st.value.f64; break;
            default: break;
          }
        }
        exes.push_back({{"name", executables[e].name}, {"description", executables[e].description},
                        {"statistics", values}});
      }
      passes.push_back({{"pass", info_.passes(d)[i].name}, {"executables", exes}});
    }
  }
  return passes;
}

VkDeviceSize Kernel::required_bytes(uint32_t batch, uint32_t stride) const {
  return required_bytes(info_.directions.front(), BufferRole::input, batch, stride);
}

VkDeviceSize Kernel::required_bytes(Direction direction, BufferRole role, uint32_t batch, uint32_t stride) const {
  if (role == BufferRole::scratch || role == BufferRole::scratch2)
    return role == BufferRole::scratch2 && !uses_scratch2(info_) ? 0 : scratch_bytes_per_transform(info_) * batch;
  if (role != BufferRole::input && role != BufferRole::output)
    throw UsageError("kernel '" + info_.name + "': required_bytes sizes the input, output, scratch and scratch2 "
                     "buffers, not " + to_string(role));
  // An in-place kernel's one data buffer: its transforms `stride` complex values apart.
  if (info_.in_place()) {
    const uint64_t pairs = info_.data_pairs(), s = stride ? stride : pairs;
    return (batch == 0 ? 0 : (uint64_t{batch} - 1) * s + pairs) * pair_bytes(info_.output(direction).element);
  }
  const BufferShape& b = role == BufferRole::input ? info_.input(direction) : info_.output(direction);
  // A convolution's image: whole [H, W, C] frames of P planes, then the channels the planes of a
  // partial frame hold (channels packed in pairs: an odd C leaves the last plane one channel).
  if (const auto& c = info_.convolution; c && info_.transform == "convolution" && b.element == ElementType::float32) {
    const uint64_t pixels = uint64_t{c->image_h} * c->image_w;
    return (batch / c->planes * pixels * c->channels +
            pixels * std::min<uint64_t>(c->channels, (batch % c->planes) * c->channels_per_plane())) * 4;
  }
  // A 2D kernel's stride is a row pitch: batch × NY rows `stride` apart.
  const uint64_t rows = stride && info_.ny() > 1 ? info_.ny() : 1, row = b.elements / rows;
  const uint64_t s = stride ? stride : b.elements;
  return (batch == 0 ? 0 : (uint64_t{batch} * rows - 1) * s + row) * element_bytes(b.element);
}

ElementType Kernel::element(Direction direction, BufferRole role) const {
  if (role == BufferRole::input) return info_.input(direction).element;
  if (role == BufferRole::output) return info_.output(direction).element;
  for (const auto& p : info_.passes(direction))
    for (const auto& b : p.bindings)
      if (b.role == role) return b.element;
  throw UsageError("kernel '" + info_.name + "': its " + to_string(direction) + " passes bind no " + to_string(role) +
                   " buffer");
}

Buffer Kernel::make_buffer(Direction direction, BufferRole role, uint32_t batch, MemoryKind kind) const {
  const VkDeviceSize bytes = required_bytes(direction, role, batch);
  if (bytes == 0)
    throw UsageError("kernel '" + info_.name + "': make_buffer of " + to_string(role) + " for batch " +
                     std::to_string(batch) + " would hold nothing");
  return Buffer(device_, bytes, kind, BufferContent{element(direction, role), role});
}

uint32_t Kernel::max_batch() const {
  const uint64_t range = device_.limits().maxStorageBufferRange;
  uint64_t by_range = UINT32_MAX;
  for (const BufferShape& b : {info_.forward_input, info_.forward_output})
    by_range = std::min<uint64_t>(by_range, range / std::max<uint64_t>(b.bytes(), 1));
  // Scratch may hold more per transform than either (Bluestein's transforms of M >= 2N - 1).
  if (const uint64_t scratch = scratch_bytes_per_transform(info_); scratch > 0)
    by_range = std::min<uint64_t>(by_range, range / scratch);
  // An image holds the rows of every transform of a batch, one below the other.
  if (info_.uses_images())
    by_range = std::min<uint64_t>(by_range, device_.limits().maxImageDimension2D / image_rows_per_transform(info_));
  // group_offset is a uint32: all workgroups of one pass must be numbered below 2^32.
  for (Direction d : info_.directions)
    for (const auto& p : info_.passes(d))
      by_range = std::min<uint64_t>(by_range, (uint64_t{UINT32_MAX} * p.columns_per_workgroup) /
                                                  (uint64_t{p.columns_per_transform} * p.batch_scale));
  return static_cast<uint32_t>(by_range);
}

// ---------------------------------------------------------------------------------------------
// bind(): checks what the caller gives, then the scratch buffers, the descriptor pool and sets.

struct Kernel::WorkBuffers {
  BufferRange scratch, scratch2;  // the caller's or bind()'s own (in the KernelBindings)
  VkDeviceSize scratch_bytes = 0;
  VkDeviceSize sync_bytes = 0;
};

KernelBindings Kernel::bind(const KernelIo& io) const {
  if (io.max_batch == 0) throw UsageError("kernel '" + info_.name + "': max_batch must be > 0");
  const std::vector<Direction> directions = bound_directions(io);
  check_resources(io, directions);
  check_strides(io, directions);
  check_ranges(io, directions);
  check_typed(io, directions);
  KernelBindings kb;
  kb.device_ = device_.device();
  kb.max_batch_ = io.max_batch;
  kb.input_stride_ = io.input_stride;
  kb.output_stride_ = io.output_stride;
  const WorkBuffers work = work_buffers(io, directions, kb);
  create_pool(directions, kb);
  for (Direction d : directions) write_sets(io, d, work, kb);
  return kb;
}

// Which sides are images in the directions bound: both for io image kernels; a convolution's
// forward reads its frame from one and its inverse writes the frame to one.
Kernel::ImageSides Kernel::image_sides(const std::vector<Direction>& directions) const {
  ImageSides sides;
  for (Direction d : directions) {
    sides.input = sides.input || info_.input_image(d) != nullptr;
    sides.output = sides.output || info_.output_image(d) != nullptr;
  }
  return sides;
}

// The images where the kernel reads or writes images, else the buffers: present, and two of them.
void Kernel::check_resources(const KernelIo& io, const std::vector<Direction>& directions) const {
  if (info_.in_place()) return check_in_place(io);
  const ImageSides sides = image_sides(directions);
  if (sides.input || sides.output) check_images(io, sides);
  if (!sides.input || !sides.output) {
    if ((!sides.input && io.input.buffer == VK_NULL_HANDLE) || (!sides.output && io.output.buffer == VK_NULL_HANDLE))
      throw UsageError("kernel '" + info_.name + "': input and output buffers are required");
    if (!sides.input && !sides.output && io.input.buffer == io.output.buffer)
      throw UsageError("kernel '" + info_.name +
                       "': input and output must be different buffers (kernels are out-of-place)");
  }
}

void Kernel::check_images(const KernelIo& io, ImageSides sides) const {
  if ((sides.input && io.input_image == VK_NULL_HANDLE) || (sides.output && io.output_image == VK_NULL_HANDLE))
    throw UsageError("kernel '" + info_.name + "' reads and writes storage images (io image): KernelIo::" +
                     (sides.input ? "input_image" : "output_image") +
                     (sides.input && sides.output ? " and output_image are" : " is") + " required");
  if (sides.input && sides.output && io.input_image == io.output_image)
    throw UsageError("kernel '" + info_.name + "': input and output must be different images");
  const uint64_t per_transform = image_rows_per_transform(info_);
  const uint64_t rows = uint64_t{io.max_batch} * per_transform;
  const uint32_t allows = device_.limits().maxImageDimension2D;
  if (rows > allows)
    throw DeviceLimitError("kernel '" + info_.name + "' with batch " + std::to_string(io.max_batch) + " needs images of " +
                           std::to_string(rows) + " rows; device '" + device_.name() + "' allows " +
                           std::to_string(allows) + " (maxImageDimension2D); use a batch of at most " +
                           std::to_string(allows / per_transform));
}

// An in-place kernel binds one buffer: KernelIo::output, which holds the input; `input` is unset or
// names the same range, and the distance between transforms is output_stride alone.
void Kernel::check_in_place(const KernelIo& io) const {
  const std::string what = "kernel '" + info_.name + "' works in place: ";
  if (io.output.buffer == VK_NULL_HANDLE)
    throw UsageError(what + "KernelIo::output (the buffer that holds its input) is required");
  if (io.input.buffer != VK_NULL_HANDLE && (io.input.buffer != io.output.buffer || io.input.offset != io.output.offset))
    throw UsageError(what + "KernelIo::input must be unset or the same buffer and offset as KernelIo::output");
  if (io.input_stride != 0)
    throw UsageError(what + "its one buffer's distance between transforms is KernelIo::output_stride; leave "
                     "input_stride 0");
}

std::vector<Direction> Kernel::bound_directions(const KernelIo& io) const {
  const std::vector<Direction> directions = io.directions.empty() ? info_.directions : io.directions;
  for (Direction d : directions)
    if (!has(d)) throw UsageError("kernel '" + info_.name + "' has no " + to_string(d) + " direction");
  return directions;
}

// Strides are the caller's, in each buffer's elements, for 1D kernels; 2D and 3D kernels take contiguous
// transforms (their row passes walk rows, not transforms).
void Kernel::check_strides(const KernelIo& io, const std::vector<Direction>& directions) const {
  if (info_.in_place()) {
    if (io.output_stride != 0 && (info_.ny() > 1 || io.output_stride < info_.data_pairs()))
      throw UsageError("kernel '" + info_.name + "': the output stride of an in-place " +
                       (info_.ny() > 1 ? "2D kernel must be 0 (contiguous transforms)"
                                       : "kernel must be 0 or at least the " + std::to_string(info_.data_pairs()) +
                                             " complex values of one transform"));
    return;
  }
  for (Direction d : directions)
    for (auto [what, stride, shape] : {std::tuple<const char*, uint32_t, BufferShape>{"input", io.input_stride, info_.input(d)},
                                       {"output", io.output_stride, info_.output(d)}}) {
      if (stride == 0) continue;
      if (info_.shape.size() > 2 && stride != shape.elements)
        throw UsageError("kernel '" + info_.name + "': a 3D kernel takes contiguous transforms; the " + what +
                         " stride must be 0 or " + std::to_string(shape.elements));
      if (info_.ny() > 1) {
        check_row_pitch(d, what, stride);
        continue;
      }
      if (stride < shape.elements)
        throw UsageError("kernel '" + info_.name + "': the " + what + " stride " + std::to_string(stride) +
                         " is less than the " + std::to_string(shape.elements) + " " + to_string(shape.element) +
                         " elements of one " + to_string(d) + " transform");
      if (stride % elements_per_pair(shape.element))
        throw UsageError("kernel '" + info_.name + "': the " + what + " stride " + std::to_string(stride) +
                         " of float32 data must be even (shaders move pairs of reals)");
    }
}

// A 2D kernel's input or output stride is a row pitch (elements between rows; transforms NY rows
// apart): a push constant of the row pass that reads the input or writes the output, so the side
// must be bound by row passes (batch_scale NY) of their own dispatch only.
void Kernel::check_row_pitch(Direction d, const std::string& what, uint32_t pitch) const {
  const BufferShape& shape = what == "input" ? info_.input(d) : info_.output(d);
  const uint64_t row = shape.elements / info_.ny();
  const BufferRole role = what == "input" ? BufferRole::input : BufferRole::output;
  const std::string which = "kernel '" + info_.name + "': the " + what + " stride of a 2D kernel is a row pitch";
  for (const PassInfo& p : info_.passes(d))
    for (const PassBinding& b : p.bindings)
      if (b.role == role && (p.batch_scale != info_.ny() || p.counter_passes() > 0))
        throw UsageError(which + ", which its " + to_string(d) + " pass " + p.name + " does not take (" +
                         (p.counter_passes() > 0 ? "passes in one dispatch" : "not a row pass") +
                         "): use 0 (contiguous rows)");
  if (pitch < row)
    throw UsageError(which + ": " + std::to_string(pitch) + " is less than the row of " + std::to_string(row) + " " +
                     to_string(shape.element) + " elements");
  if (pitch % elements_per_pair(shape.element))
    throw UsageError(which + ": " + std::to_string(pitch) + " reals must be even (shaders move pairs of reals)");
}

// Every buffer binding within maxStorageBufferRange, every offset aligned (the images' rows are
// checked with them).
void Kernel::check_ranges(const KernelIo& io, const std::vector<Direction>& directions) const {
  const auto& lim = device_.limits();
  const ImageSides sides = image_sides(directions);
  std::vector<std::pair<std::string, VkDeviceSize>> ranges{
      {"scratch", scratch_bytes_per_transform(info_) * io.max_batch}};
  for (Direction d : directions) {
    if (!sides.input && !info_.in_place())
      ranges.emplace_back(std::string(to_string(d)) + " input",
                          required_bytes(d, BufferRole::input, io.max_batch, io.input_stride));
    if (!sides.output)
      ranges.emplace_back(std::string(to_string(d)) + " output",
                          required_bytes(d, BufferRole::output, io.max_batch, io.output_stride));
  }
  for (const auto& [what, bytes] : ranges)
    if (bytes > lim.maxStorageBufferRange)
      throw DeviceLimitError("kernel '" + info_.name + "' with batch " + std::to_string(io.max_batch) + " needs a " +
                             what + " binding of " + std::to_string(bytes) + " bytes; device '" + device_.name() +
                             "' allows " + std::to_string(lim.maxStorageBufferRange) +
                             " (maxStorageBufferRange); use a batch of at most " + std::to_string(max_batch()));
  for (const auto* r : {&io.input, &io.output, &io.scratch, &io.scratch2})
    if (r->offset % lim.minStorageBufferOffsetAlignment)
      throw UsageError("kernel '" + info_.name + "': buffer offset " + std::to_string(r->offset) +
                       " is not a multiple of minStorageBufferOffsetAlignment (" +
                       std::to_string(lim.minStorageBufferOffsetAlignment) + ")");
}

namespace {

// Whether a buffer made for role `made` may be bound as `slot`: a direction's input is the other
// direction's output (a round trip), a filter spectrum is its filter kernel's output, and the two
// scratch buffers are alike.
bool role_fits(BufferRole made, BufferRole slot) {
  const auto data = [](BufferRole r) { return r == BufferRole::input || r == BufferRole::output; };
  const auto scratch = [](BufferRole r) { return r == BufferRole::scratch || r == BufferRole::scratch2; };
  if (slot == BufferRole::filter) return made == BufferRole::filter || made == BufferRole::output;
  return made == slot || (data(made) && data(slot)) || (scratch(made) && scratch(slot));
}

}  // namespace

// What the caller says of each buffer (BufferRange::bytes and content) against what the kernel needs.
void Kernel::check_typed(const KernelIo& io, const std::vector<Direction>& directions) const {
  auto binds = [&](Direction d, BufferRole role) {
    for (const auto& p : info_.passes(d))
      for (const auto& b : p.bindings)
        if (b.role == role) return true;
    return false;
  };
  auto check = [&](const char* field, const BufferRange& r, Direction d, BufferRole role, VkDeviceSize needs) {
    if (r.buffer == VK_NULL_HANDLE || (role != BufferRole::input && role != BufferRole::output && !binds(d, role)))
      return;
    const std::string what = "kernel '" + info_.name + "': KernelIo::" + field;
    const std::string slot = std::string(to_string(d)) + " " + to_string(role);
    const ElementType element = this->element(d, role);
    // An in-place r2c kernel's buffer holds reals one way and complex values the other.
    const bool one_type = !info_.in_place() || info_.input(d).element == info_.output(d).element;
    if (r.content && !role_fits(r.content->role, role))
      throw UsageError(what + " is a buffer made for role " + to_string(r.content->role) + "; the " + slot +
                       " takes a buffer of role " + to_string(role) + " (Kernel::make_buffer)");
    if (one_type && r.content && r.content->element != element)
      throw UsageError(what + " holds " + to_string(r.content->element) + "; the " + slot + " holds " +
                       to_string(element) + (is_half(element) ? " (precision fp16: half floats)" : "") +
                       ", which the kernel would read as other values");
    if (r.bytes != 0 && r.bytes < needs)
      throw UsageError(what + " holds " + std::to_string(r.bytes) + " bytes from its offset; the " + slot +
                       " of batch " + std::to_string(io.max_batch) + " needs " + std::to_string(needs) +
                       " (Kernel::required_bytes)");
  };
  const ImageSides sides = image_sides(directions);
  for (Direction d : directions) {
    if (!sides.input && !info_.in_place())
      check("input", io.input, d, BufferRole::input, required_bytes(d, BufferRole::input, io.max_batch, io.input_stride));
    if (!sides.output)
      check("output", io.output, d, BufferRole::output,
            required_bytes(d, BufferRole::output, io.max_batch, io.output_stride));
    check("scratch", io.scratch, d, BufferRole::scratch, required_bytes(d, BufferRole::scratch, io.max_batch));
    check("scratch2", io.scratch2, d, BufferRole::scratch2, required_bytes(d, BufferRole::scratch2, io.max_batch));
    check("filter", io.filter, d, BufferRole::filter, 0);
  }
}

// The scratch buffers (the caller's, else made here) and the pass_sync counters (zeroed now; each
// call leaves them zero).
Kernel::WorkBuffers Kernel::work_buffers(const KernelIo& io, const std::vector<Direction>& directions,
                                         KernelBindings& kb) const {
  WorkBuffers work;
  work.scratch_bytes = scratch_bytes_per_transform(info_) * io.max_batch;
  work.scratch = io.scratch;
  if (work.scratch_bytes && work.scratch.buffer == VK_NULL_HANDLE) {
    kb.scratch_ = Buffer(device_, work.scratch_bytes);
    work.scratch.buffer = kb.scratch_.handle();
  }
  work.scratch2 = io.scratch2;
  if (work.scratch_bytes && uses_scratch2(info_) && work.scratch2.buffer == VK_NULL_HANDLE) {
    kb.scratch2_ = Buffer(device_, work.scratch_bytes);
    work.scratch2.buffer = kb.scratch2_.handle();
  }
  uint64_t sync_counters = 0;
  for (Direction d : directions)
    for (const auto& p : info_.passes(d)) sync_counters = std::max(sync_counters, p.sync_counters(io.max_batch));
  work.sync_bytes = sync_counters * 4;
  if (work.sync_bytes > 0) {
    kb.sync_ = Buffer(device_, work.sync_bytes);
    fill(device_, kb.sync_.handle(), 0u, work.sync_bytes);
  }
  return work;
}

// One set per pass of the bound directions.
void Kernel::create_pool(const std::vector<Direction>& directions, KernelBindings& kb) const {
  uint32_t sets = 0, descriptors = 0, image_descriptors = 0;
  for (Direction d : directions)
    for (const auto& p : info_.passes(d)) {
      ++sets;
      for (const auto& b : p.bindings) ++(b.image ? image_descriptors : descriptors);
    }
  const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(descriptors, 1u)},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, image_descriptors}};
  VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pci.maxSets = sets;
  pci.poolSizeCount = image_descriptors > 0 ? 2 : 1;
  pci.pPoolSizes = sizes;
  check(vkCreateDescriptorPool(device_.device(), &pci, nullptr, &kb.pool_), "vkCreateDescriptorPool");
}

void Kernel::write_sets(const KernelIo& io, Direction d, const WorkBuffers& work, KernelBindings& kb) const {
  const VkDeviceSize in_bytes = required_bytes(d, BufferRole::input, io.max_batch, io.input_stride);
  const VkDeviceSize out_bytes = required_bytes(d, BufferRole::output, io.max_batch, io.output_stride);
  // The buffer (offset, range) a binding of `role` gets.
  auto buffer_of = [&](BufferRole role, const std::string& pass) -> VkDescriptorBufferInfo {
    switch (role) {
      case BufferRole::input: return {io.input.buffer, io.input.offset, in_bytes};
      case BufferRole::output: return {io.output.buffer, io.output.offset, out_bytes};
      case BufferRole::scratch: return {work.scratch.buffer, work.scratch.offset, work.scratch_bytes};
      case BufferRole::scratch2: return {work.scratch2.buffer, work.scratch2.offset, work.scratch_bytes};
      case BufferRole::twiddles: return {twiddles_.handle(), 0, VK_WHOLE_SIZE};
      case BufferRole::sync: return {kb.sync_.handle(), 0, work.sync_bytes};
      case BufferRole::filter:
        if (io.filter.buffer == VK_NULL_HANDLE)
          throw UsageError("kernel '" + info_.name + "' pass " + pass + " multiplies by a filter spectrum: "
                           "KernelIo::filter is required (the output of its filter kernel)");
        return {io.filter.buffer, io.filter.offset, VK_WHOLE_SIZE};
    }
    return {};
  };
  const auto& passes = d == Direction::forward ? forward_ : inverse_;
  const auto& infos = info_.passes(d);
  auto& out = d == Direction::forward ? kb.forward_sets_ : kb.inverse_sets_;
  for (size_t i = 0; i < passes.size(); ++i) {
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = kb.pool_;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &passes[i].set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(vkAllocateDescriptorSets(device_.device(), &ai, &set), "vkAllocateDescriptorSets");
    out.push_back(set);
    const auto& bindings = infos[i].bindings;
    std::vector<VkDescriptorBufferInfo> buffers(bindings.size());
    std::vector<VkDescriptorImageInfo> images(bindings.size());
    std::vector<VkWriteDescriptorSet> writes(bindings.size(), {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET});
    for (size_t j = 0; j < bindings.size(); ++j) {
      const auto& b = bindings[j];
      VkWriteDescriptorSet& w = writes[j];
      w.dstSet = set;
      w.dstBinding = b.binding;
      w.descriptorCount = 1;
      if (b.image) {  // the kernel's input or output (parse_manifest allows no other role)
        images[j] = {VK_NULL_HANDLE, b.role == BufferRole::input ? io.input_image : io.output_image,
                     VK_IMAGE_LAYOUT_GENERAL};
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        w.pImageInfo = &images[j];
      } else {
        buffers[j] = buffer_of(b.role, infos[i].name);
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &buffers[j];
      }
    }
    vkUpdateDescriptorSets(device_.device(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  }
}

bool Kernel::waits_between_dispatches(const RecordOptions& options) const {
  using Waits = RecordOptions::CounterWaits;
  if (options.counter_waits != Waits::automatic) return options.counter_waits == Waits::between_dispatches;
  return device_.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

void Kernel::record(VkCommandBuffer cmd, Direction direction, const KernelBindings& bindings,
                    uint32_t batch, const RecordOptions& options) const {
  if (!has(direction))
    throw UsageError("kernel '" + info_.name + "' has no " + to_string(direction) + " direction");
  if (batch == 0) return;
  device_.note_recorded();
  if (batch > bindings.max_batch_)
    throw UsageError("kernel '" + info_.name + "': batch " + std::to_string(batch) +
                     " exceeds the bindings' max_batch " + std::to_string(bindings.max_batch_));
  const auto& passes = direction == Direction::forward ? forward_ : inverse_;
  const auto& infos = info_.passes(direction);
  const auto& sets =
      direction == Direction::forward ? bindings.forward_sets_ : bindings.inverse_sets_;
  const uint32_t max_groups = options.max_workgroups_per_dispatch
                                  ? options.max_workgroups_per_dispatch
                                  : device_.limits().maxComputeWorkGroupCount[0];

  if (sets.size() != passes.size())
    throw UsageError("kernel '" + info_.name + "': the bindings were made without the " + to_string(direction) +
                     " direction (KernelIo::directions)");
  // The stride push constant of a binding, in pairs of floats: the caller's stride for a 1D
  // kernel's input or output where one was given, else the manifest's (contiguous) stride.
  auto stride_of = [&](const PassBinding* b) -> uint32_t {
    if (!b) return 0;
    uint64_t stride = b->stride;
    if (b->role == BufferRole::input && bindings.input_stride_) stride = bindings.input_stride_;
    if (b->role == BufferRole::output && bindings.output_stride_) stride = bindings.output_stride_;
    // An in-place kernel's output_stride counts complex values (pairs of floats) either way.
    if (info_.in_place() && b->role == BufferRole::output && bindings.output_stride_) return bindings.output_stride_;
    return static_cast<uint32_t>(stride / elements_per_pair(b->element));
  };

  for (size_t i = 0; i < passes.size(); ++i) {
    const PassInfo& info = infos[i];
    const Pass& pass = passes[i];
    if (i > 0) record_compute_barrier(cmd);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pass.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pass.layout, 0, 1, &sets[i],
                            0, nullptr);

    std::vector<uint32_t> push((info.push_constant_bytes + 3) / 4, 0);
    auto set = [&](int word, uint32_t value) {
      if (word >= 0) push[word] = value;
    };
    set(pass.batch_word, static_cast<uint32_t>(uint64_t{batch} * info.batch_scale));
    set(pass.src_stride_word, stride_of(pass.src_binding));
    set(pass.dst_stride_word, stride_of(pass.dst_binding));
    const uint64_t total = info.workgroups(batch);
    if (total > max_groups && pass.group_offset_word < 0)
      throw UsageError("kernel '" + info_.name + "' pass " + info.name + " needs " +
                       std::to_string(total) + " workgroups, more than one dispatch allows (" +
                       std::to_string(max_groups) + "), and has no group_offset push constant");
    // A dispatch of several passes takes its work by ticket, not by workgroup index: its pieces
    // need no offset. Where its workgroups may not wait, each piece is `lag` rounds of tickets,
    // whose waits are all on earlier pieces.
    std::vector<uint64_t> pieces{0, total};
    if (info.counter_passes() > 0 && waits_between_dispatches(options)) {
      pieces = {0};
      const uint64_t rounds = batch + uint64_t{info.counter_passes() - 1} * info.counter_lag;
      for (uint64_t round = info.counter_lag; pieces.back() < total; round += info.counter_lag)
        pieces.push_back(round >= rounds ? total : info.tickets_before(round, batch));
    }
    for (size_t k = 0; k + 1 < pieces.size(); ++k) {
      if (k > 0) record_compute_barrier(cmd);
      for (uint64_t first = pieces[k]; first < pieces[k + 1]; first += max_groups) {
        const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(max_groups, pieces[k + 1] - first));
        set(pass.group_offset_word, static_cast<uint32_t>(first));
        if (!push.empty())
          vkCmdPushConstants(cmd, pass.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                             info.push_constant_bytes, push.data());
        vkCmdDispatch(cmd, count, 1, 1);
      }
    }
    if (options.after_pass) options.after_pass(cmd);
  }
}

}  // namespace fftgen::vk
