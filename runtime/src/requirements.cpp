#include "fftgen/runtime/requirements.hpp"

#include <algorithm>
#include <iterator>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

namespace {

// ---------------------------------------------------------------------------------------------
// The table: each requirement a manifest may name, and how a device is checked for it. A new
// feature (shaderFloat64) is a value of fftgen::Feature, a member of DeviceFeatures, a row here,
// and where a Device of its own enables it (device.cpp, enable_features).

struct FeatureRow {
  Feature feature;
  bool DeviceFeatures::*enabled;
  const char* structure;  ///< where Vulkan declares it
  uint32_t capability;    ///< the SPIR-V capability of a module that uses it
  const char* used_by;    ///< which kernels need it
};
constexpr FeatureRow kFeatureRows[] = {
    {Feature::storage_buffer_16bit_access, &DeviceFeatures::storage_buffer_16bit_access,
     "VkPhysicalDevice16BitStorageFeatures, Vulkan 1.1", 4433 /* StorageBuffer16BitAccess */,
     "half-float buffers, precision fp16"},
    {Feature::shader_storage_image_extended_formats, &DeviceFeatures::shader_storage_image_extended_formats,
     "VkPhysicalDeviceFeatures", 49 /* StorageImageExtendedFormats */, "rg32f storage images"},
    {Feature::shader_float64, &DeviceFeatures::shader_float64, "VkPhysicalDeviceFeatures", 10 /* Float64 */,
     "double-precision kernels, precision fp64"},
};

struct LimitRow {
  Limit limit;
  const char* what;  ///< what the kernel's figure counts
  uint64_t (*allows)(const VkPhysicalDeviceLimits&);
};
constexpr LimitRow kLimitRows[] = {
    {Limit::max_compute_shared_memory_size, "shared memory bytes per workgroup",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxComputeSharedMemorySize; }},
    {Limit::max_compute_work_group_size_x, "workgroup size x",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxComputeWorkGroupSize[0]; }},
    {Limit::max_compute_work_group_size_y, "workgroup size y",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxComputeWorkGroupSize[1]; }},
    {Limit::max_compute_work_group_size_z, "workgroup size z",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxComputeWorkGroupSize[2]; }},
    {Limit::max_compute_work_group_invocations, "invocations per workgroup",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxComputeWorkGroupInvocations; }},
    {Limit::max_push_constants_size, "push constant bytes",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxPushConstantsSize; }},
    {Limit::max_per_stage_descriptor_storage_buffers, "storage buffers of one pass",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxPerStageDescriptorStorageBuffers; }},
    {Limit::max_per_stage_descriptor_storage_images, "storage images of one pass",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxPerStageDescriptorStorageImages; }},
    {Limit::max_storage_buffer_range, "bytes of one buffer binding for one transform",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxStorageBufferRange; }},
    {Limit::max_image_dimension_2d, "texels per image row or rows per transform",
     [](const VkPhysicalDeviceLimits& l) -> uint64_t { return l.maxImageDimension2D; }},
};

// Every value of the enums has its row, in order: a requirement the runtime cannot check does not compile.
constexpr bool rows_complete() {
  if (std::size(kFeatureRows) != kFeatureCount || std::size(kLimitRows) != kLimitCount) return false;
  for (std::size_t i = 0; i < kFeatureCount; ++i)
    if (static_cast<std::size_t>(kFeatureRows[i].feature) != i) return false;
  for (std::size_t i = 0; i < kLimitCount; ++i)
    if (static_cast<std::size_t>(kLimitRows[i].limit) != i) return false;
  return true;
}
static_assert(rows_complete(), "a Feature or Limit without its row in the requirements table");

const FeatureRow& row(Feature f) { return kFeatureRows[static_cast<std::size_t>(f)]; }

// Largest bytes per transform of the scratch buffers (pairs in the passes' precision).
uint64_t scratch_bytes(const KernelInfo& k, const PassBinding& b) {
  return (b.role == BufferRole::scratch || b.role == BufferRole::scratch2) ? k.scratch_elements * pair_bytes(b.element)
                                                                             : 0;
}

std::string feature_problem(const Device& device, const DeviceFeatures& supported, Feature f) {
  const FeatureRow& r = row(f);
  std::string text = std::string("needs the Vulkan feature ") + to_string(f) + " (" + r.used_by + "; " +
                     r.structure + "), which device '" + device.name() + "' ";
  if (!(supported.*r.enabled)) return text + "does not support; use a kernel without it";
  if (device.owns_device())
    return text + "was created without (DeviceOptions turned it off)";
  return text + "was created without as far as ExternalDevice::enabled_features says (enable it on your VkDevice "
                "and set it there, e.g. with features_enabled_by(your VkDeviceCreateInfo))";
}

}  // namespace

bool DeviceFeatures::has(Feature feature) const { return this->*row(feature).enabled; }

void DeviceFeatures::set(Feature feature, bool enabled) { this->*row(feature).enabled = enabled; }

std::string DeviceFeatures::names() const {
  std::string out;
  for (const FeatureRow& r : kFeatureRows)
    if (this->*r.enabled) out += (out.empty() ? "" : ", ") + std::string(to_string(r.feature));
  return out.empty() ? "none" : out;
}

DeviceFeatures features_enabled_by(const VkDeviceCreateInfo& info) {
  DeviceFeatures out;
  auto core = [&](const VkPhysicalDeviceFeatures& f) {
    out.shader_storage_image_extended_formats |= f.shaderStorageImageExtendedFormats == VK_TRUE;
    out.shader_float64 |= f.shaderFloat64 == VK_TRUE;
  };
  if (info.pEnabledFeatures) core(*info.pEnabledFeatures);
  for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
        core(reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s)->features);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
        out.storage_buffer_16bit_access |=
            reinterpret_cast<const VkPhysicalDevice16BitStorageFeatures*>(s)->storageBuffer16BitAccess == VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
        out.storage_buffer_16bit_access |=
            reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(s)->storageBuffer16BitAccess == VK_TRUE;
        break;
      default: break;
    }
  }
  return out;
}

DeviceFeatures supported_features(VkPhysicalDevice physical_device) {
  DeviceFeatures out;
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(physical_device, &properties);
  VkPhysicalDeviceFeatures core{};
  vkGetPhysicalDeviceFeatures(physical_device, &core);
  out.shader_storage_image_extended_formats = core.shaderStorageImageExtendedFormats == VK_TRUE;
  out.shader_float64 = core.shaderFloat64 == VK_TRUE;
  if (properties.apiVersion >= VK_API_VERSION_1_1) {
    VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.pNext = &storage16;
    vkGetPhysicalDeviceFeatures2(physical_device, &features);
    out.storage_buffer_16bit_access = storage16.storageBuffer16BitAccess == VK_TRUE;
  }
  return out;
}

const char* vulkan_structure(Feature feature) { return row(feature).structure; }

uint32_t spirv_capability(Feature feature) { return row(feature).capability; }

DeviceRequirements derive_requirements(const KernelInfo& k) {
  DeviceRequirements needs;
  for (Direction d : k.directions)
    for (const PassInfo& p : k.passes(d)) {
      uint64_t images = 0;
      for (const PassBinding& b : p.bindings) {
        needs.need_binding(b.element);
        if (b.image) {
          ++images;
          needs.need_image(b.image->format, b.image->width, b.image->rows_per_transform);
        }
        needs.need(Limit::max_storage_buffer_range, scratch_bytes(k, b));
      }
      const uint64_t local_size[3] = {p.local_size[0], p.local_size[1], p.local_size[2]};
      needs.need_pass(p.shared_memory_bytes, local_size, p.push_constant_bytes, p.bindings.size() - images, images);
    }
  needs.need(Limit::max_storage_buffer_range, std::max(k.forward_input.bytes(), k.forward_output.bytes()));
  if (k.twiddles) needs.need(Limit::max_storage_buffer_range, k.twiddles->bytes());
  return needs;
}

DeviceRequirements requirements_of(const KernelInfo& k) {
  DeviceRequirements needs = derive_requirements(k);
  needs.add(k.requirements);
  return needs;
}

std::vector<std::string> requirement_problems(const Device& device, const KernelInfo& info) {
  const DeviceRequirements needs = requirements_of(info);
  const DeviceFeatures& enabled = device.enabled_features();
  const DeviceFeatures supported = supported_features(device.physical_device());
  std::vector<std::string> problems;
  for (const FeatureRow& r : kFeatureRows)
    if (needs.needs(r.feature) && !(enabled.*r.enabled)) problems.push_back(feature_problem(device, supported, r.feature));
  for (const LimitRow& r : kLimitRows) {
    const uint64_t allows = r.allows(device.limits());
    if (needs.least(r.limit) > allows)
      problems.push_back("needs " + std::string(to_string(r.limit)) + " >= " + std::to_string(needs.least(r.limit)) +
                         " (" + r.what + "); device '" + device.name() + "' allows " + std::to_string(allows));
  }
  for (std::size_t i = 0; i < kImageFormatCount; ++i) {
    const auto format = static_cast<ImageFormat>(i);
    if (needs.needs(format) && !device.supports_storage_image(vk_format(format)))
      problems.push_back("needs " + std::string(to_string(format)) + " storage images, which device '" + device.name() +
                         "' cannot use (no VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT); use another image_format");
  }
  return problems;
}

}  // namespace fftgen::vk
