#include "snippets.hpp"

namespace snippets {

std::string own_device(VkInstance instance, VkPhysicalDevice physical_device, uint32_t family,
                       const fftgen::vk::Manifest& manifest) {
  std::string enabled;
  // [snippet]
  // The engine makes its device with the features the kernels' manifest entries list under
  // "requires" (here storageBuffer16BitAccess, for an fp16 kernel)...
  VkPhysicalDevice16BitStorageFeatures storage16{};
  storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  storage16.storageBuffer16BitAccess = VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = family;  // a family with VK_QUEUE_COMPUTE_BIT
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.pNext = &storage16;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  VkDevice vk_device = VK_NULL_HANDLE;
  if (vkCreateDevice(physical_device, &device_info, nullptr, &vk_device) != VK_SUCCESS) return "";
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(vk_device, family, 0, &queue);

  // ... and hands it to the runtime, saying what it enabled: the runtime assumes nothing else.
  fftgen::vk::ExternalDevice mine;
  mine.instance = instance;  // created with apiVersion 1.1 or later
  mine.physical_device = physical_device;
  mine.device = vk_device;
  mine.queue = queue;
  mine.queue_family = family;
  mine.enabled_features = fftgen::vk::features_enabled_by(device_info);
  {
    fftgen::vk::Device device(mine);  // owns none of the engine's objects
    // Without the feature this throws DeviceLimitError: "kernel 'half1024' cannot run on device
    // '...': needs the Vulkan feature storageBuffer16BitAccess (...)".
    fftgen::vk::Kernel fft(device, manifest, "half1024");
    enabled = device.enabled_features().names();
  }
  vkDestroyDevice(vk_device, nullptr);
  // [/snippet]
  return enabled;
}

}  // namespace snippets
