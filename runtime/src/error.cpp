#include "fftgen/runtime/error.hpp"

namespace fftgen::vk {

VulkanError::VulkanError(const std::string& what, VkResult result)
    : std::runtime_error(what), result_(result) {}

const char* to_string(VkResult result) {
  switch (result) {
#define FFTGEN_CASE(x) \
  case x:              \
    return #x;
    FFTGEN_CASE(VK_SUCCESS)
    FFTGEN_CASE(VK_NOT_READY)
    FFTGEN_CASE(VK_TIMEOUT)
    FFTGEN_CASE(VK_INCOMPLETE)
    FFTGEN_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    FFTGEN_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    FFTGEN_CASE(VK_ERROR_INITIALIZATION_FAILED)
    FFTGEN_CASE(VK_ERROR_DEVICE_LOST)
    FFTGEN_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    FFTGEN_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    FFTGEN_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    FFTGEN_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    FFTGEN_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    FFTGEN_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    FFTGEN_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    FFTGEN_CASE(VK_ERROR_FRAGMENTED_POOL)
    FFTGEN_CASE(VK_ERROR_UNKNOWN)
    FFTGEN_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    FFTGEN_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    FFTGEN_CASE(VK_ERROR_FRAGMENTATION)
    FFTGEN_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef FFTGEN_CASE
    default:
      return "VkResult(unknown)";
  }
}

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS)
    throw VulkanError(std::string(what) + " failed: " + to_string(result), result);
}

}  // namespace fftgen::vk
