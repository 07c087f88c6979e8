// Device: one Vulkan instance + logical device + compute queue + command pool, with an optional
// validation layer whose messages are recorded (tests fail on any of them); or an engine's own
// instance, device and queue, adopted without being owned.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "fftgen/runtime/pipeline_cache.hpp"
#include "fftgen/runtime/requirements.hpp"

namespace fftgen::vk {

/// A Kernel creating its pipelines: told before (done false, on the thread making the Kernel), and
/// done once they have run: at the end of the first waited submission (submit_and_wait,
/// run_commands) after a Kernel recorded, or at once if the creation failed. Some drivers compile at
/// creation, others (lavapipe) at the first dispatch; between the two is the driver's compile.
/// For a note while it lasts (fftgen-vk's "compiling 12 pipelines").
struct PipelineCreation {
  size_t pipelines = 0;
  bool done = false;
  /// The device's cache file as it was found (off while set_pipeline_cache's cache is in use).
  PipelineCacheState cache = PipelineCacheState::off;
};
using PipelineListener = std::function<void(const PipelineCreation&)>;

struct DeviceOptions {
  /// Index into vkEnumeratePhysicalDevices' list; -1 picks the first discrete GPU, else the
  /// first integrated GPU, else any other (virtual, CPU such as lavapipe).
  int device_index = -1;
  /// Enable VK_LAYER_KHRONOS_validation and record its warning and error messages (read them
  /// with validation_messages()). Throws if the layer is not installed.
  bool validation = false;
  const char* application_name = "fftgen";
  /// Enable VK_KHR_pipeline_executable_properties where the device offers it, so that pipelines
  /// capture the driver's statistics (registers, spills, ...: Kernel::pipeline_statistics). Off by
  /// default: capturing may cost pipeline-creation time.
  bool pipeline_statistics = false;
  /// Enable storageBuffer16BitAccess (fp16 kernels need it) where the device has it. The other
  /// features kernels may need (DeviceFeatures) are enabled wherever the device has them.
  bool enable_16bit_storage = true;
  /// Keep the pipeline cache in a file between runs, one per device and driver, in
  /// pipeline_cache_folder or else default_pipeline_cache_folder() (FFTGEN_PIPELINE_CACHE=off: none).
  /// A file that is corrupt or another device's is ignored (a note) and rewritten.
  bool pipeline_cache_file = true;
  std::filesystem::path pipeline_cache_folder{};
  /// One-line notes about the cache file (ignored, not written); none when empty.
  std::function<void(const std::string&)> notes{};
  /// See PipelineCreation; Device::set_pipeline_listener() sets one later.
  PipelineListener pipeline_listener{};
};

/// An engine's Vulkan objects, for a Device that uses them without owning them (docs/runtime.md,
/// "Sharing a device"). They must outlive the Device and every Kernel and Buffer made with it.
struct ExternalDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;  ///< created from physical_device with Vulkan 1.1 or later
  VkQueue queue = VK_NULL_HANDLE;    ///< a queue of queue_family
  uint32_t queue_family = 0;         ///< must support compute
  /// Used for every pipeline the runtime creates (VK_NULL_HANDLE: none); see
  /// Device::set_pipeline_cache(). An adopted device never reads or writes a cache file.
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
  /// The optional features the engine enabled on `device` (features_enabled_by(create info) reads
  /// them from its VkDeviceCreateInfo). Conservative by default: none, since what the physical device
  /// supports says nothing of what vkCreateDevice was given; a kernel that needs a feature not
  /// listed here is refused when it is made (DeviceLimitError naming the feature and the kernel),
  /// instead of running against the Vulkan rules (VUID-RuntimeSpirv-storageBuffer16BitAccess-06331).
  /// A feature listed here that the physical device does not support is a UsageError.
  DeviceFeatures enabled_features{};
};

struct ValidationMessage {
  VkDebugUtilsMessageSeverityFlagBitsEXT severity;
  std::string text;
};

/// What vkEnumeratePhysicalDevices reports, for `fftgen-vk devices` and for choosing an index.
struct PhysicalDeviceSummary {
  int index;
  std::string name;
  VkPhysicalDeviceType type;
  uint32_t api_version;
  uint32_t max_shared_memory_bytes = 0;  ///< maxComputeSharedMemorySize
  bool preferred = false;                ///< the device taken without a device index
  std::string driver;                    ///< as Device::driver_version() says it
};

/// "discrete GPU", "integrated GPU", "CPU", ...
const char* to_string(VkPhysicalDeviceType type);

class Device {
 public:
  /// Creates its own instance, device and queue.
  explicit Device(const DeviceOptions& options = {});
  /// Adopts an engine's objects. The Device creates only a command pool and a fence on them (for
  /// uploads, downloads and run_commands()) and destroys only those. Its queue submissions wait
  /// for completion; the engine must not use the queue from another thread meanwhile (Vulkan's
  /// external synchronisation rule). Throws UsageError if a handle is null or the family has no
  /// compute.
  explicit Device(const ExternalDevice& external);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  /// Lists the physical devices without creating a logical device.
  static std::vector<PhysicalDeviceSummary> list_physical_devices();

  // Raw handles, so other Vulkan code (a peer FFT library, an engine) can share the device.
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  VkCommandPool command_pool() const { return command_pool_; }
  /// Whether the instance and device are the Device's own (false for an ExternalDevice).
  bool owns_device() const { return owns_device_; }

  /// The pipeline cache every Kernel made afterwards creates its pipelines in (VK_NULL_HANDLE:
  /// none), instead of the cache file's. Not owned: the caller creates it, saves its data and
  /// destroys it. Vulkan synchronises a cache internally, so kernels may be made from several threads.
  void set_pipeline_cache(VkPipelineCache cache) { pipeline_cache_ = cache; }
  VkPipelineCache pipeline_cache() const { return pipeline_cache_; }
  /// The cache file (DeviceOptions::pipeline_cache_file): where, and whether it was there. Its data
  /// are written back when the Device is destroyed, where they changed.
  PipelineCacheStatus pipeline_cache_status() const;
  void set_pipeline_listener(PipelineListener listener) { listener_ = std::move(listener); }
  /// Tells the listener, if any (Kernel calls it around its pipeline creation).
  void notify_pipelines(size_t pipelines, bool done) const;
  /// Kernel calls these: `pipelines` created, to be reported done after their first waited run; a
  /// Kernel recorded (only counted while some are waiting for that run).
  void pipelines_created(size_t pipelines);
  void note_recorded() {
    if (unsettled_ > 0) recorded_ = true;
  }
  /// DeviceOptions::pipeline_statistics was asked for and the device offers the extension.
  bool pipeline_statistics() const { return pipeline_statistics_; }

  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceLimits& limits() const { return properties_.limits; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  std::string name() const { return properties_.deviceName; }
  /// The driver version decoded the way the vendor encodes it (NVIDIA: 580.65.6), plus the
  /// driver's own name and info string where Vulkan 1.2 reports them.
  std::string driver_version() const;
  /// Size of the largest DEVICE_LOCAL heap.
  VkDeviceSize device_local_heap_bytes() const;
  /// The optional features enabled on the VkDevice, which kernels are checked against: for a Device
  /// that made its own, every one the physical device supports (DeviceOptions may turn 16-bit
  /// storage off); for an ExternalDevice, its enabled_features.
  const DeviceFeatures& enabled_features() const { return enabled_features_; }
  /// Whether shaders may load and store 16-bit floats in storage buffers
  /// (storageBuffer16BitAccess, Vulkan 1.1), which kernels of precision fp16 need: enabled_features().
  bool storage_buffer_16bit_access() const { return enabled_features_.storage_buffer_16bit_access; }
  /// Whether shaders may use storage images of the extended formats (shaderStorageImageExtendedFormats;
  /// rg32f among them), which io image kernels of format rg32f need: enabled_features().
  bool storage_image_extended_formats() const { return enabled_features_.shader_storage_image_extended_formats; }
  /// Whether `format` can be a storage image (VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT, optimal tiling).
  bool supports_storage_image(VkFormat format) const;
  /// Timestamp bits of the queue (0: no timestamps on this queue).
  uint32_t timestamp_valid_bits() const { return timestamp_valid_bits_; }

  /// Index of a memory type allowed by type_bits with all `required` flags; among those, one
  /// with the `preferred` flags if any. Throws VulkanError if none.
  uint32_t find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred = 0) const;

  /// Records commands with `record` into a fresh primary command buffer, submits it to the
  /// queue and waits. For setup work (uploads, downloads) and simple tools; engines record into
  /// their own command buffers instead.
  void run_commands(const std::function<void(VkCommandBuffer)>& record);
  /// Submits an already recorded command buffer and waits for it.
  void submit_and_wait(VkCommandBuffer cmd);

  bool validation_enabled() const { return validation_; }
  /// Warnings and errors recorded by the validation layer since the last clear.
  std::vector<ValidationMessage> validation_messages() const;
  void clear_validation_messages();

 private:
  void destroy();
  void init_from_physical_device();
  void create_command_objects();
  void open_cache_file(const std::filesystem::path& folder);
  void note(const std::string& text) const;
  void settle_pipelines();
  static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  bool pipeline_statistics_ = false;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  std::unique_ptr<PipelineCacheFile> cache_file_;
  std::function<void(const std::string&)> notes_;
  PipelineListener listener_;
  std::atomic<size_t> unsettled_{0};  ///< pipelines created, not yet through a waited submission
  std::atomic<bool> recorded_{false};
  bool owns_device_ = true;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  uint32_t timestamp_valid_bits_ = 0;
  DeviceFeatures enabled_features_{};
  bool validation_ = false;
  mutable std::mutex messages_mutex_;
  std::vector<ValidationMessage> messages_;
};

}  // namespace fftgen::vk
