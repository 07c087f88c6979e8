#include "fftgen/runtime/device.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "fftgen/runtime/error.hpp"

namespace fftgen::vk {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

bool has_device_extension(VkPhysicalDevice device, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  for (const auto& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

bool has_instance_extension(const char* layer, const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
  std::vector<VkExtensionProperties> exts(count);
  vkEnumerateInstanceExtensionProperties(layer, &count, exts.data());
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

// Lower is preferred: discrete, integrated, virtual, CPU, other.
int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

uint32_t instance_api_version() {
  uint32_t version = VK_API_VERSION_1_0;
  auto enumerate = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  if (enumerate) enumerate(&version);
  return version;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()),
        "vkEnumeratePhysicalDevices");
  return devices;
}

std::vector<VkQueueFamilyProperties> queue_families(VkPhysicalDevice physical_device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, families.data());
  return families;
}

// "580.159.4 (NVIDIA, 580.159.04)": the version as the vendor writes it, then the driver's name and info.
std::string driver_text(VkPhysicalDevice physical_device, const VkPhysicalDeviceProperties& properties) {
  const uint32_t v = properties.driverVersion;
  std::ostringstream out;
  if (properties.vendorID == 0x10DE) {  // NVIDIA: 10.8.8.6 bits
    out << (v >> 22) << '.' << ((v >> 14) & 0xff) << '.' << ((v >> 6) & 0xff);
  } else if (properties.vendorID == 0x8086) {  // Intel on Windows: 18.14 bits
    out << (v >> 14) << '.' << (v & 0x3fff);
  } else {
    out << VK_API_VERSION_MAJOR(v) << '.' << VK_API_VERSION_MINOR(v) << '.'
        << VK_API_VERSION_PATCH(v);
  }
  if (properties.apiVersion >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &driver;
    vkGetPhysicalDeviceProperties2(physical_device, &p2);
    out << " (" << driver.driverName;
    if (driver.driverInfo[0]) out << ", " << driver.driverInfo;
    out << ')';
  }
  return out.str();
}

VkInstance create_bare_instance() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "fftgen";
  app.apiVersion = std::min<uint32_t>(instance_api_version(), VK_API_VERSION_1_3);
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  check(vkCreateInstance(&ci, nullptr, &instance), "vkCreateInstance");
  return instance;
}

}  // namespace

const char* to_string(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

namespace {

// The device at `index`, or (index < 0) the first of the most capable type (discrete before
// integrated before virtual before CPU).
VkPhysicalDevice pick_physical_device(VkInstance instance, int index) {
  auto devices = physical_devices(instance);
  if (devices.empty())
    throw VulkanError("no Vulkan device found (for a CPU device install mesa-vulkan-drivers)",
                      VK_ERROR_INITIALIZATION_FAILED);
  if (index >= static_cast<int>(devices.size())) {
    std::ostringstream msg;
    msg << "device index " << index << " out of range; devices:";
    for (size_t i = 0; i < devices.size(); ++i) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(devices[i], &p);
      msg << " [" << i << "] " << p.deviceName << " (" << to_string(p.deviceType) << ")";
    }
    throw UsageError(msg.str());
  }
  if (index >= 0) return devices[index];
  VkPhysicalDevice chosen = VK_NULL_HANDLE;
  int best = 99;
  for (auto d : devices) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    if (type_rank(p.deviceType) < best) {
      best = type_rank(p.deviceType);
      chosen = d;
    }
  }
  return chosen;
}

// The queue family fftgen submits to: a compute-only family (no graphics), the dedicated async
// compute queue where one exists; any compute family otherwise. `name` is the device's, for the error.
uint32_t compute_queue_family(const std::vector<VkQueueFamilyProperties>& families, const char* name) {
  int chosen = -1;
  for (uint32_t i = 0; i < static_cast<uint32_t>(families.size()); ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    if (chosen < 0 || (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
                       (families[chosen].queueFlags & VK_QUEUE_GRAPHICS_BIT) && families[i].timestampValidBits > 0))
      chosen = static_cast<int>(i);
  }
  if (chosen < 0)
    throw VulkanError(std::string("device '") + name + "' has no compute queue", VK_ERROR_FEATURE_NOT_PRESENT);
  return static_cast<uint32_t>(chosen);
}

// The logical device with one queue of `family` and the features fftgen's kernels use where
// present (`enabled`); pipeline statistics where asked and offered (`statistics` says whether).
VkDevice create_logical_device(VkPhysicalDevice physical_device, uint32_t family, const DeviceFeatures& enabled,
                               bool want_statistics, bool& statistics) {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  const char* statistics_extension = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statistics_feature{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  statistics = want_statistics && has_device_extension(physical_device, statistics_extension);
  if (statistics) {
    statistics_feature.pipelineExecutableInfo = VK_TRUE;
    dci.pNext = &statistics_feature;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = &statistics_extension;
  }
  // fp16 kernels load and store half floats in storage buffers: enabled wherever present.
  VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  storage16.storageBuffer16BitAccess = VK_TRUE;
  if (enabled.storage_buffer_16bit_access) {
    storage16.pNext = const_cast<void*>(dci.pNext);  // after the statistics feature, if chained
    dci.pNext = &storage16;
  }
  // io image kernels of format rg32f use an extended storage-image format: enabled wherever present.
  VkPhysicalDeviceFeatures core_features{};
  core_features.shaderStorageImageExtendedFormats = enabled.shader_storage_image_extended_formats ? VK_TRUE : VK_FALSE;
  // fp64 kernels compute in doubles: enabled wherever present.
  core_features.shaderFloat64 = enabled.shader_float64 ? VK_TRUE : VK_FALSE;
  dci.pEnabledFeatures = &core_features;
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical_device, &dci, nullptr, &device), "vkCreateDevice");
  return device;
}

}  // namespace

std::vector<PhysicalDeviceSummary> Device::list_physical_devices() {
  VkInstance instance = create_bare_instance();
  std::vector<PhysicalDeviceSummary> out;
  try {
    auto devices = physical_devices(instance);
    for (size_t i = 0; i < devices.size(); ++i) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(devices[i], &p);
      out.push_back({static_cast<int>(i), p.deviceName, p.deviceType, p.apiVersion,
                     p.limits.maxComputeSharedMemorySize, false, driver_text(devices[i], p)});
    }
    // As Device picks without an index: the first of the lowest type_rank.
    auto best = std::min_element(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return type_rank(a.type) < type_rank(b.type);
    });
    if (best != out.end()) best->preferred = true;
  } catch (...) {
    vkDestroyInstance(instance, nullptr);
    throw;
  }
  vkDestroyInstance(instance, nullptr);
  return out;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Device::debug_callback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
  auto* self = static_cast<Device*>(user);
  std::lock_guard<std::mutex> lock(self->messages_mutex_);
  self->messages_.push_back({severity, data && data->pMessage ? data->pMessage : "(no text)"});
  return VK_FALSE;
}

Device::Device(const DeviceOptions& options)
    : notes_(options.notes), listener_(options.pipeline_listener), validation_(options.validation) {
  try {
    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    if (validation_) {
      if (!has_layer(kValidationLayer))
        throw VulkanError(std::string("validation requested but ") + kValidationLayer +
                              " is not installed (Debian: vulkan-validationlayers)",
                          VK_ERROR_LAYER_NOT_PRESENT);
      layers.push_back(kValidationLayer);
      if (!has_instance_extension(nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
          !has_instance_extension(kValidationLayer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
        throw VulkanError("validation requested but VK_EXT_debug_utils is not available",
                          VK_ERROR_EXTENSION_NOT_PRESENT);
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }

    VkDebugUtilsMessengerCreateInfoEXT messenger_ci{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger_ci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_ci.pfnUserCallback = &Device::debug_callback;
    messenger_ci.pUserData = this;

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = options.application_name;
    app.pEngineName = "fftgen";
    app.apiVersion = std::min<uint32_t>(instance_api_version(), VK_API_VERSION_1_3);
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = static_cast<uint32_t>(layers.size());
    ici.ppEnabledLayerNames = layers.data();
    ici.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    // Chained so that messages about instance creation itself are recorded too.
    if (validation_) ici.pNext = &messenger_ci;
    check(vkCreateInstance(&ici, nullptr, &instance_), "vkCreateInstance");

    if (validation_) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      if (!create)
        throw VulkanError("vkCreateDebugUtilsMessengerEXT not found",
                          VK_ERROR_EXTENSION_NOT_PRESENT);
      check(create(instance_, &messenger_ci, nullptr, &messenger_),
            "vkCreateDebugUtilsMessengerEXT");
    }

    physical_device_ = pick_physical_device(instance_, options.device_index);
    init_from_physical_device();
    enabled_features_ = supported_features(physical_device_);
    enabled_features_.storage_buffer_16bit_access &= options.enable_16bit_storage;

    const auto families = queue_families(physical_device_);
    queue_family_ = compute_queue_family(families, properties_.deviceName);
    timestamp_valid_bits_ = families[queue_family_].timestampValidBits;

    device_ = create_logical_device(physical_device_, queue_family_, enabled_features_,
                                    options.pipeline_statistics, pipeline_statistics_);
    vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
    create_command_objects();
    if (options.pipeline_cache_file)
      open_cache_file(options.pipeline_cache_folder.empty() ? default_pipeline_cache_folder()
                                                            : options.pipeline_cache_folder);
  } catch (...) {
    destroy();
    throw;
  }
}

Device::Device(const ExternalDevice& external)
    : pipeline_cache_(external.pipeline_cache), owns_device_(false) {
  const char* missing = !external.instance          ? "instance"
                        : !external.physical_device ? "physical_device"
                        : !external.device          ? "device"
                        : !external.queue           ? "queue"
                                                    : nullptr;
  if (missing) throw UsageError(std::string("ExternalDevice: ") + missing + " is VK_NULL_HANDLE");
  instance_ = external.instance;
  physical_device_ = external.physical_device;
  device_ = external.device;
  queue_ = external.queue;
  queue_family_ = external.queue_family;
  init_from_physical_device();
  enabled_features_ = external.enabled_features;
  const DeviceFeatures supported = supported_features(physical_device_);
  for (std::size_t i = 0; i < kFeatureCount; ++i)
    if (enabled_features_.has(static_cast<Feature>(i)) && !supported.has(static_cast<Feature>(i)))
      throw UsageError(std::string("ExternalDevice: enabled_features lists ") + to_string(static_cast<Feature>(i)) +
                       ", which device '" + name() + "' does not support (" + vulkan_structure(static_cast<Feature>(i)) +
                       "): the engine cannot have enabled it");
  const auto families = queue_families(physical_device_);
  if (queue_family_ >= families.size())
    throw UsageError("ExternalDevice: queue_family " + std::to_string(queue_family_) +
                     " is out of range; device '" + name() + "' has " +
                     std::to_string(families.size()) + " queue families");
  if (!(families[queue_family_].queueFlags & VK_QUEUE_COMPUTE_BIT))
    throw UsageError("ExternalDevice: queue family " + std::to_string(queue_family_) +
                     " of device '" + name() +
                     "' has no compute; give a family with VK_QUEUE_COMPUTE_BIT");
  timestamp_valid_bits_ = families[queue_family_].timestampValidBits;
  try {
    create_command_objects();
  } catch (...) {
    destroy();
    throw;
  }
}

void Device::init_from_physical_device() {
  vkGetPhysicalDeviceProperties(physical_device_, &properties_);
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
}

bool Device::supports_storage_image(VkFormat format) const {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(physical_device_, format, &properties);
  return (properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) != 0;
}

void Device::create_command_objects() {
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = queue_family_;
  check(vkCreateCommandPool(device_, &pci, nullptr, &command_pool_), "vkCreateCommandPool");
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  check(vkCreateFence(device_, &fci, nullptr, &fence_), "vkCreateFence");
}

void Device::open_cache_file(const std::filesystem::path& folder) {
  if (folder.empty()) return;
  try {
    cache_file_ = std::make_unique<PipelineCacheFile>(physical_device_, device_, folder);
  } catch (const VulkanError& e) {
    note(std::string("pipeline cache off: ") + e.what());
    return;
  }
  pipeline_cache_ = cache_file_->handle();
  note(cache_file_->status().note);
}

void Device::note(const std::string& text) const {
  if (notes_ && !text.empty()) notes_(text);
}

PipelineCacheStatus Device::pipeline_cache_status() const {
  return cache_file_ ? cache_file_->status() : PipelineCacheStatus{};
}

void Device::notify_pipelines(size_t pipelines, bool done) const {
  if (!listener_) return;
  const bool file = cache_file_ && pipeline_cache_ == cache_file_->handle();
  listener_({pipelines, done, file ? cache_file_->status().state : PipelineCacheState::off});
}

void Device::pipelines_created(size_t pipelines) {
  if (listener_) unsettled_ += pipelines;
}

// After a waited submission: pipelines created before it, and recorded into it or an earlier one, have run.
void Device::settle_pipelines() {
  if (unsettled_ == 0 || !recorded_.exchange(false)) return;
  notify_pipelines(unsettled_.exchange(0), true);
}

Device::~Device() { destroy(); }

void Device::destroy() {
  // An adopted device is left alone but for the pool and fence made here. Nothing of ours is in
  // flight (every submission waits), and vkDeviceWaitIdle would need every queue of the engine's
  // device to be externally synchronised.
  if (unsettled_ > 0) notify_pipelines(unsettled_.exchange(0), true);  // made and never run
  if (cache_file_) {  // before its device goes
    note(cache_file_->save());
    cache_file_.reset();
  }
  if (device_) {
    if (owns_device_) vkDeviceWaitIdle(device_);
    if (fence_) vkDestroyFence(device_, fence_, nullptr);
    if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
    if (owns_device_) vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_ && owns_device_) vkDestroyInstance(instance_, nullptr);
  fence_ = VK_NULL_HANDLE;
  command_pool_ = VK_NULL_HANDLE;
  device_ = VK_NULL_HANDLE;
  messenger_ = VK_NULL_HANDLE;
  instance_ = VK_NULL_HANDLE;
}

std::string Device::driver_version() const { return driver_text(physical_device_, properties_); }

VkDeviceSize Device::device_local_heap_bytes() const {
  VkDeviceSize best = 0;
  for (uint32_t i = 0; i < memory_properties_.memoryHeapCount; ++i)
    if (memory_properties_.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      best = std::max(best, memory_properties_.memoryHeaps[i].size);
  return best;
}

uint32_t Device::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                                  VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    const auto flags = memory_properties_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  if (fallback < 0)
    throw VulkanError("no memory type with the required properties on '" + name() + "'",
                      VK_ERROR_FEATURE_NOT_PRESENT);
  return static_cast<uint32_t>(fallback);
}

void Device::submit_and_wait(VkCommandBuffer cmd) {
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  check(vkResetFences(device_, 1, &fence_), "vkResetFences");
  check(vkQueueSubmit(queue_, 1, &si, fence_), "vkQueueSubmit");
  check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  settle_pipelines();
}

void Device::run_commands(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = command_pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(device_, &ai, &cmd), "vkAllocateCommandBuffers");
  try {
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    record(cmd);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    submit_and_wait(cmd);
  } catch (...) {
    vkDeviceWaitIdle(device_);
    vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
    throw;
  }
  vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
}

std::vector<ValidationMessage> Device::validation_messages() const {
  std::lock_guard<std::mutex> lock(messages_mutex_);
  return messages_;
}

void Device::clear_validation_messages() {
  std::lock_guard<std::mutex> lock(messages_mutex_);
  messages_.clear();
}

}  // namespace fftgen::vk
