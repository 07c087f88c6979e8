// The device contract: what a kernel needs of a Vulkan device (manifest "requires", declared in
// fftgen/interface.hpp) and what a device has enabled, checked row by row against one table of
// requirement -> how to check it (runtime/src/requirements.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "fftgen/interface.hpp"

namespace fftgen::vk {

using fftgen::DeviceRequirements;
using fftgen::Feature;
using fftgen::Limit;

class Device;
struct KernelInfo;

/// The optional Vulkan features fftgen's kernels may need (manifest "requires" "features"), as
/// enabled on a VkDevice: not what the physical device supports, what vkCreateDevice was given.
struct DeviceFeatures {
  /// VkPhysicalDevice16BitStorageFeatures (or VkPhysicalDeviceVulkan11Features)::storageBuffer16BitAccess:
  /// kernels of precision fp16.
  bool storage_buffer_16bit_access = false;
  /// VkPhysicalDeviceFeatures::shaderStorageImageExtendedFormats: io image kernels of format rg32f.
  bool shader_storage_image_extended_formats = false;
  /// VkPhysicalDeviceFeatures::shaderFloat64: kernels of precision fp64 (doubles in buffers,
  /// shared memory and arithmetic).
  bool shader_float64 = false;

  bool has(Feature feature) const;
  void set(Feature feature, bool enabled);
  /// The names of the features set, e.g. "storageBuffer16BitAccess" ("none" if none).
  std::string names() const;
};

/// The features a VkDeviceCreateInfo enables: its pEnabledFeatures and, in its pNext chain,
/// VkPhysicalDeviceFeatures2, VkPhysicalDevice16BitStorageFeatures and
/// VkPhysicalDeviceVulkan11Features. An engine passes the create-info of its device:
/// `external.enabled_features = features_enabled_by(engine_device_create_info);`.
DeviceFeatures features_enabled_by(const VkDeviceCreateInfo& info);
/// The features `physical_device` supports (what a Device of its own enables).
DeviceFeatures supported_features(VkPhysicalDevice physical_device);

/// Where Vulkan declares `feature`, e.g. "VkPhysicalDevice16BitStorageFeatures (Vulkan 1.1)".
const char* vulkan_structure(Feature feature);
/// The SPIR-V capability a module declares when it uses `feature` (OpCapability operand).
uint32_t spirv_capability(Feature feature);

/// What the passes of `info` need: their shared memory, workgroups, push constants, bindings and
/// buffers (a manifest's "requires" must cover this; parse_manifest refuses one that does not).
DeviceRequirements derive_requirements(const KernelInfo& info);
/// What `info` needs: its manifest's "requires" and what its passes need.
DeviceRequirements requirements_of(const KernelInfo& info);
/// One phrase per unmet requirement of `info` on `device`, e.g. "needs storageBuffer16BitAccess
/// (...), which device 'llvmpipe' was created without (...)"; empty if the kernel can run.
std::vector<std::string> requirement_problems(const Device& device, const KernelInfo& info);

}  // namespace fftgen::vk
