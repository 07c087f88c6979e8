// A Vulkan pipeline cache kept in a file between runs, one file per device and driver, so that the
// driver's compile of a kernel's pipelines (seconds on a CPU device) happens once per machine
// (docs/runtime.md, "The pipeline cache").
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace fftgen::vk {

/// Where a Device's pipeline cache came from.
enum class PipelineCacheState {
  off,      ///< no file: disabled (DeviceOptions::pipeline_cache_file, FFTGEN_PIPELINE_CACHE=off), or an
            ///< adopted device (ExternalDevice), which uses the engine's cache or none
  absent,   ///< no file yet: the first run on this device and driver
  loaded,   ///< read from the file
  ignored,  ///< the file was unreadable, corrupt or another device's or driver's (the note says which)
};

struct PipelineCacheStatus {
  PipelineCacheState state = PipelineCacheState::off;
  std::filesystem::path path;  ///< the file (empty when off)
  std::string note;            ///< why a file was ignored ("" otherwise)
};

/// The folder of the cache files: $FFTGEN_PIPELINE_CACHE when it is set to a folder, else
/// $XDG_CACHE_HOME/fftgen, else $HOME/.cache/fftgen. Empty (no file) when FFTGEN_PIPELINE_CACHE is
/// "off" or neither XDG_CACHE_HOME nor HOME is set.
std::filesystem::path default_pipeline_cache_folder();

/// A VkPipelineCache made from the file of `physical_device` in `folder` (when it is whole and of this
/// device and driver; an empty cache otherwise, the reason in status().note), written back by save().
class PipelineCacheFile {
 public:
  PipelineCacheFile(VkPhysicalDevice physical_device, VkDevice device, const std::filesystem::path& folder);
  ~PipelineCacheFile();
  PipelineCacheFile(const PipelineCacheFile&) = delete;
  PipelineCacheFile& operator=(const PipelineCacheFile&) = delete;

  VkPipelineCache handle() const { return cache_; }
  const PipelineCacheStatus& status() const { return status_; }
  /// Writes the driver's data when it differs from what was read: a temporary file renamed over the
  /// file, so a reader never sees half of one. Returns "" or a one-line reason it could not.
  std::string save();

 private:
  void load(const std::filesystem::path& path);

  VkDevice device_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  PipelineCacheStatus status_;
  std::vector<uint8_t> loaded_;  ///< the driver's data as read from the file
};

}  // namespace fftgen::vk
