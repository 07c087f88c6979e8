// Errors the runtime throws. Every message is meant to be shown to a person as it is.
#pragma once
#include <stdexcept>
#include <string>

#include <vulkan/vulkan.h>

namespace fftgen::vk {

/// A Vulkan call failed. what() names the call and the VkResult.
class VulkanError : public std::runtime_error {
 public:
  VulkanError(const std::string& what, VkResult result);
  VkResult result() const { return result_; }

 private:
  VkResult result_;
};

/// manifest.json (or a file it names) is missing or malformed. The message names the file and
/// the field.
class ManifestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A kernel needs more than the device offers (shared memory, workgroup size, buffer range,
/// memory). The message names the kernel, what it needs and what the device has.
class DeviceLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The caller asked for something the kernel cannot do (a direction it lacks, a buffer too small).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc.
const char* to_string(VkResult result);

/// Throws VulkanError("<what> failed: <result>") unless result is VK_SUCCESS.
void check(VkResult result, const char* what);

}  // namespace fftgen::vk
