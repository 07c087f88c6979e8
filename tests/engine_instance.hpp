// What an engine has before it makes a device: its own VkInstance with the validation layer on and
// its own messenger, whose warnings and errors the tests collect (any one fails them). Shared by
// test_gpu_engine (devices adopted through ExternalDevice) and test_gpu_snippets.
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace fftgen_test {

struct EngineInstance {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  std::vector<std::string> messages;

  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    static_cast<EngineInstance*>(user)->messages.push_back(data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
  }

  EngineInstance() {
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_1;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkDebugUtilsMessengerCreateInfoEXT mci{};
    mci.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    mci.pfnUserCallback = &on_message;
    mci.pUserData = this;
    VkInstanceCreateInfo ici{};
    ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = &layer;
    ici.enabledExtensionCount = 1;
    ici.ppEnabledExtensionNames = &extension;
    REQUIRE(vkCreateInstance(&ici, nullptr, &instance) == VK_SUCCESS);
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    REQUIRE(create);
    REQUIRE(create(instance, &mci, nullptr, &messenger) == VK_SUCCESS);
  }
  ~EngineInstance() {
    if (messenger) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
      destroy(instance, messenger, nullptr);
    }
    if (instance) vkDestroyInstance(instance, nullptr);
  }
  EngineInstance(const EngineInstance&) = delete;
  EngineInstance& operator=(const EngineInstance&) = delete;

  /// The first physical device and its first family with compute.
  std::pair<VkPhysicalDevice, uint32_t> compute_device() const {
    uint32_t count = 1;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    REQUIRE(vkEnumeratePhysicalDevices(instance, &count, &physical_device) != VK_ERROR_INITIALIZATION_FAILED);
    REQUIRE(physical_device);
    std::vector<VkQueueFamilyProperties> families(8);
    uint32_t family_count = 8, family = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, families.data());
    while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    REQUIRE(family < family_count);
    return {physical_device, family};
  }
};

}  // namespace fftgen_test
