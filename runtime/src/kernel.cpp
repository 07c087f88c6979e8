#include "fftgen/runtime/kernel.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <future>
#include <map>
#include <sstream>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/error.hpp"
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

// Bytes of the largest input or output buffer of one transform.
uint64_t largest_buffer_bytes(const KernelInfo& k) {
  return std::max(k.forward_input.bytes(), k.forward_output.bytes());
}

}  // namespace

std::vector<std::string> device_limit_problems(const Device& device, const KernelInfo& info) {
  const auto& lim = device.limits();
  const std::string dev = "device '" + device.name() + "'";
  std::vector<std::string> problems;
  auto need = [&](const std::string& what, uint64_t needs, uint64_t has, const char* limit) {
    if (needs > has) {
      std::ostringstream m;
      m << "kernel '" << info.name << "' " << what << " needs " << needs << "; " << dev
        << " allows " << has << " (" << limit << ")";
      problems.push_back(m.str());
    }
  };
  for (Direction d : info.directions) {
    for (const auto& p : info.passes(d)) {
      const std::string pass = "pass " + p.name;
      need(pass + ": shared memory bytes per workgroup", p.shared_memory_bytes,
           lim.maxComputeSharedMemorySize, "maxComputeSharedMemorySize");
      need(pass + ": workgroup size x", p.local_size[0], lim.maxComputeWorkGroupSize[0],
           "maxComputeWorkGroupSize[0]");
      need(pass + ": workgroup size y", p.local_size[1], lim.maxComputeWorkGroupSize[1],
           "maxComputeWorkGroupSize[1]");
      need(pass + ": workgroup size z", p.local_size[2], lim.maxComputeWorkGroupSize[2],
           "maxComputeWorkGroupSize[2]");
      need(pass + ": invocations per workgroup",
           uint64_t{p.local_size[0]} * p.local_size[1] * p.local_size[2],
           lim.maxComputeWorkGroupInvocations, "maxComputeWorkGroupInvocations");
      need(pass + ": push constant bytes", p.push_constant_bytes, lim.maxPushConstantsSize,
           "maxPushConstantsSize");
      const auto images = static_cast<uint64_t>(
          std::count_if(p.bindings.begin(), p.bindings.end(), [](const PassBinding& b) { return b.image.has_value(); }));
      need(pass + ": storage buffers", p.bindings.size() - images, lim.maxPerStageDescriptorStorageBuffers,
           "maxPerStageDescriptorStorageBuffers");
      need(pass + ": storage images", images, lim.maxPerStageDescriptorStorageImages,
           "maxPerStageDescriptorStorageImages");
      for (const auto& b : p.bindings) {
        if (!b.image) continue;
        const std::string what = pass + ": binding " + std::to_string(b.binding) + " (" + to_string(b.image->format) +
                                 " storage image)";
        need(what + ": texels per row", b.image->width, lim.maxImageDimension2D, "maxImageDimension2D");
        need(what + ": rows of one transform", b.image->rows_per_transform, lim.maxImageDimension2D,
             "maxImageDimension2D");
        if (!device.supports_storage_image(vk_format(b.image->format)))
          problems.push_back("kernel '" + info.name + "' " + what + ": " + dev + " cannot use " +
                             to_string(b.image->format) +
                             " as a storage image (no VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT); use another image_format");
        else if (b.image->format == ImageFormat::rg32f && !device.storage_image_extended_formats())
          problems.push_back("kernel '" + info.name + "' " + what + ": rg32f storage images need the Vulkan feature "
                             "shaderStorageImageExtendedFormats; " + dev + " does not have it (use rgba32f)");
      }
      for (const auto& b : p.bindings)
        if (is_half(b.element) && !device.storage_buffer_16bit_access()) {
          problems.push_back("kernel '" + info.name + "' " + pass + ": binding " + std::to_string(b.binding) +
                             " holds " + to_string(b.element) + " (precision fp16), which needs the Vulkan "
                             "feature storageBuffer16BitAccess; " + dev + " does not have it (use an fp32 kernel)");
          break;
        }
    }
  }
  need("one transform: bytes of one buffer binding", largest_buffer_bytes(info),
       lim.maxStorageBufferRange, "maxStorageBufferRange");
  if (info.twiddles)
    need("twiddle table bytes", info.twiddles->bytes(), lim.maxStorageBufferRange,
         "maxStorageBufferRange");
  need("device-local memory bytes (input, output, scratch, twiddles of one transform)",
       info.forward_input.bytes() + info.forward_output.bytes() +
           scratch_bytes_per_transform(info) * (uses_scratch2(info) ? 2 : 1) +
           (info.twiddles ? info.twiddles->bytes() : 0),
       device.device_local_heap_bytes(), "largest device-local heap");
  return problems;
}

void check_device_limits(const Device& device, const KernelInfo& info) {
  auto problems = device_limit_problems(device, info);
  if (problems.empty()) return;
  std::string msg = "kernel '" + info.name + "' cannot run on '" + device.name() + "':";
  for (const auto& p : problems) msg += "\n  " + p;
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
  auto binding_list = [](std::vector<uint32_t> b) {
    std::sort(b.begin(), b.end());
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
  return required_bytes(info_.directions.front(), true, batch, stride);
}

VkDeviceSize Kernel::required_bytes(Direction direction, bool input, uint32_t batch, uint32_t stride) const {
  const BufferShape& b = input ? info_.input(direction) : info_.output(direction);
  // A convolution's image: whole [H, W, C] frames of P planes, then the channels the planes of a
  // partial frame hold (channels packed in pairs: an odd C leaves the last plane one channel).
  if (const auto& c = info_.convolution; c && info_.transform == "convolution" && b.element == ElementType::float32) {
    const uint64_t pixels = uint64_t{c->image_h} * c->image_w;
    return (batch / c->planes * pixels * c->channels +
            pixels * std::min<uint64_t>(c->channels, (batch % c->planes) * c->channels_per_plane())) * 4;
  }
  const uint64_t s = stride ? stride : b.elements;
  return (batch == 0 ? 0 : (uint64_t{batch} - 1) * s + b.elements) * element_bytes(b.element);
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

KernelBindings Kernel::bind(const KernelIo& io) const {
  if (io.max_batch == 0) throw UsageError("kernel '" + info_.name + "': max_batch must be > 0");
  const std::vector<Direction> directions = io.directions.empty() ? info_.directions : io.directions;
  for (Direction d : directions)
    if (!has(d)) throw UsageError("kernel '" + info_.name + "' has no " + to_string(d) + " direction");
  // Which sides are images in the directions bound: both for io image kernels; a convolution's
  // forward reads its frame from one and its inverse writes the frame to one.
  bool in_image = false, out_image = false;
  for (Direction d : directions) {
    in_image = in_image || info_.input_image(d) != nullptr;
    out_image = out_image || info_.output_image(d) != nullptr;
  }
  const bool images = in_image && out_image;
  if (in_image || out_image) {
    if ((in_image && io.input_image == VK_NULL_HANDLE) || (out_image && io.output_image == VK_NULL_HANDLE))
      throw UsageError("kernel '" + info_.name + "' reads and writes storage images (io image): "
                       "KernelIo::" + (in_image ? "input_image" : "output_image") +
                       (in_image && out_image ? " and output_image are" : " is") + " required");
    if (images && io.input_image == io.output_image)
      throw UsageError("kernel '" + info_.name + "': input and output must be different images");
    const uint64_t per_transform = image_rows_per_transform(info_);
    const uint64_t rows = uint64_t{io.max_batch} * per_transform;
    if (rows > device_.limits().maxImageDimension2D)
      throw DeviceLimitError("kernel '" + info_.name + "' with batch " + std::to_string(io.max_batch) +
                             " needs images of " + std::to_string(rows) + " rows; device '" + device_.name() +
                             "' allows " + std::to_string(device_.limits().maxImageDimension2D) +
                             " (maxImageDimension2D); use a batch of at most " +
                             std::to_string(device_.limits().maxImageDimension2D / per_transform));
  }
  if (!images) {
    if ((!in_image && io.input.buffer == VK_NULL_HANDLE) || (!out_image && io.output.buffer == VK_NULL_HANDLE))
      throw UsageError("kernel '" + info_.name + "': input and output buffers are required");
    if (!in_image && !out_image && io.input.buffer == io.output.buffer)
      throw UsageError("kernel '" + info_.name +
                       "': input and output must be different buffers (kernels are out-of-place)");
  }
  const auto& lim = device_.limits();
  // Strides are the caller's, in each buffer's elements, for 1D kernels; 2D kernels take
  // contiguous transforms (their row passes walk rows, not transforms).
  for (Direction d : directions)
    for (auto [what, stride, shape] : {std::tuple<const char*, uint32_t, BufferShape>{"input", io.input_stride, info_.input(d)},
                                       {"output", io.output_stride, info_.output(d)}}) {
      if (stride == 0) continue;
      if (info_.ny() > 1 && stride != shape.elements)
        throw UsageError("kernel '" + info_.name + "': a 2D kernel takes contiguous transforms; the " + what +
                         " stride must be 0 or " + std::to_string(shape.elements));
      if (stride < shape.elements)
        throw UsageError("kernel '" + info_.name + "': the " + what + " stride " + std::to_string(stride) +
                         " is less than the " + std::to_string(shape.elements) + " " + to_string(shape.element) +
                         " elements of one " + to_string(d) + " transform");
      if (stride % elements_per_pair(shape.element))
        throw UsageError("kernel '" + info_.name + "': the " + what + " stride " + std::to_string(stride) +
                         " of float32 data must be even (shaders move pairs of reals)");
    }
  const VkDeviceSize scratch_bytes = scratch_bytes_per_transform(info_) * io.max_batch;
  std::vector<std::pair<std::string, VkDeviceSize>> ranges{{"scratch", scratch_bytes}};
  for (Direction d : directions) {  // the images' rows are checked above
    if (!in_image)
      ranges.emplace_back(std::string(to_string(d)) + " input", required_bytes(d, true, io.max_batch, io.input_stride));
    if (!out_image)
      ranges.emplace_back(std::string(to_string(d)) + " output", required_bytes(d, false, io.max_batch, io.output_stride));
  }
  for (const auto& [what, bytes] : ranges)
    if (bytes > lim.maxStorageBufferRange)
      throw DeviceLimitError("kernel '" + info_.name + "' with batch " +
                             std::to_string(io.max_batch) + " needs a " + what + " binding of " +
                             std::to_string(bytes) + " bytes; device '" + device_.name() +
                             "' allows " + std::to_string(lim.maxStorageBufferRange) +
                             " (maxStorageBufferRange); use a batch of at most " +
                             std::to_string(max_batch()));
  for (const auto* r : {&io.input, &io.output, &io.scratch, &io.scratch2})
    if (r->offset % lim.minStorageBufferOffsetAlignment)
      throw UsageError("kernel '" + info_.name + "': buffer offset " + std::to_string(r->offset) +
                       " is not a multiple of minStorageBufferOffsetAlignment (" +
                       std::to_string(lim.minStorageBufferOffsetAlignment) + ")");

  KernelBindings kb;
  kb.device_ = device_.device();
  kb.max_batch_ = io.max_batch;
  kb.input_stride_ = io.input_stride;
  kb.output_stride_ = io.output_stride;

  uint32_t sets = 0, descriptors = 0, image_descriptors = 0;
  for (Direction d : directions)
    for (const auto& p : info_.passes(d)) {
      ++sets;
      for (const auto& b : p.bindings) ++(b.image ? image_descriptors : descriptors);
    }
  BufferRange scratch = io.scratch;
  if (scratch_bytes && scratch.buffer == VK_NULL_HANDLE) {
    kb.scratch_ = Buffer(device_, scratch_bytes);
    scratch.buffer = kb.scratch_.handle();
  }
  BufferRange scratch2 = io.scratch2;
  if (scratch_bytes && uses_scratch2(info_) && scratch2.buffer == VK_NULL_HANDLE) {
    kb.scratch2_ = Buffer(device_, scratch_bytes);
    scratch2.buffer = kb.scratch2_.handle();
  }

  // The counters of dispatches that run several passes: zero now, and each call leaves them zero.
  uint64_t sync_counters = 0;
  for (Direction d : directions)
    for (const auto& p : info_.passes(d)) sync_counters = std::max(sync_counters, p.sync_counters(io.max_batch));
  const VkDeviceSize sync_bytes = sync_counters * 4;
  if (sync_bytes > 0) {
    kb.sync_ = Buffer(device_, sync_bytes);
    fill(device_, kb.sync_.handle(), 0u, sync_bytes);
  }

  const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(descriptors, 1u)},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, image_descriptors}};
  VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pci.maxSets = sets;
  pci.poolSizeCount = image_descriptors > 0 ? 2 : 1;
  pci.pPoolSizes = sizes;
  check(vkCreateDescriptorPool(device_.device(), &pci, nullptr, &kb.pool_),
        "vkCreateDescriptorPool");

  for (Direction d : directions) {
    const VkDeviceSize in_bytes = required_bytes(d, true, io.max_batch, io.input_stride);
    const VkDeviceSize out_bytes = required_bytes(d, false, io.max_batch, io.output_stride);
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

      std::vector<VkDescriptorBufferInfo> buffers(infos[i].bindings.size());
      std::vector<VkDescriptorImageInfo> image_infos(infos[i].bindings.size());
      std::vector<VkWriteDescriptorSet> writes;
      for (size_t j = 0; j < infos[i].bindings.size(); ++j) {
        const auto& b = infos[i].bindings[j];
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = b.binding;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &buffers[j];
        if (b.image) {  // the kernel's input or output (parse_manifest allows no other role)
          image_infos[j] = {VK_NULL_HANDLE, b.role == BufferRole::input ? io.input_image : io.output_image,
                            VK_IMAGE_LAYOUT_GENERAL};
          w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
          w.pBufferInfo = nullptr;
          w.pImageInfo = &image_infos[j];
          writes.push_back(w);
          continue;
        }
        switch (b.role) {
          case BufferRole::input:
            buffers[j] = {io.input.buffer, io.input.offset, in_bytes};
            break;
          case BufferRole::output:
            buffers[j] = {io.output.buffer, io.output.offset, out_bytes};
            break;
          case BufferRole::scratch:
            buffers[j] = {scratch.buffer, scratch.offset, scratch_bytes};
            break;
          case BufferRole::scratch2:
            buffers[j] = {scratch2.buffer, scratch2.offset, scratch_bytes};
            break;
          case BufferRole::twiddles:
            buffers[j] = {twiddles_.handle(), 0, VK_WHOLE_SIZE};
            break;
          case BufferRole::sync:
            buffers[j] = {kb.sync_.handle(), 0, sync_bytes};
            break;
          case BufferRole::filter:
            if (io.filter.buffer == VK_NULL_HANDLE)
              throw UsageError("kernel '" + info_.name + "' pass " + infos[i].name +
                               " multiplies by a filter spectrum: KernelIo::filter is required (the output of "
                               "its filter kernel)");
            buffers[j] = {io.filter.buffer, io.filter.offset, VK_WHOLE_SIZE};
            break;
        }
        writes.push_back(w);
      }
      vkUpdateDescriptorSets(device_.device(), static_cast<uint32_t>(writes.size()), writes.data(),
                             0, nullptr);
    }
  }
  return kb;
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
