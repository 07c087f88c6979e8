#include "fftgen/runtime/pipeline_cache.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include <unistd.h>

#include "fftgen/runtime/error.hpp"

namespace fftgen::vk {

namespace {

namespace fs = std::filesystem;

// The file: this header, then the driver's data (vkGetPipelineCacheData). The driver is given data
// only when the header names this device and driver and the checksum holds: some drivers crash on a
// corrupt cache rather than refuse it.
struct FileHeader {
  char magic[8];
  uint32_t format;
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t driver_version;
  uint8_t pipeline_cache_uuid[VK_UUID_SIZE];
  uint64_t data_bytes;
  uint64_t checksum;
};
constexpr char kMagic[8] = {'F', 'F', 'T', 'G', 'E', 'N', 'P', 'C'};
constexpr uint32_t kFormat = 1;

// FNV-1a, 64 bits: enough to tell a damaged file from a whole one.
uint64_t checksum(const uint8_t* data, size_t bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

FileHeader header_for(const VkPhysicalDeviceProperties& p, const std::vector<uint8_t>& data) {
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format = kFormat;
  h.vendor_id = p.vendorID;
  h.device_id = p.deviceID;
  h.driver_version = p.driverVersion;
  std::memcpy(h.pipeline_cache_uuid, p.pipelineCacheUUID, VK_UUID_SIZE);
  h.data_bytes = data.size();
  h.checksum = checksum(data.data(), data.size());
  return h;
}

std::string hex(const uint8_t* bytes, size_t count) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < count; ++i) out += {digits[bytes[i] >> 4], digits[bytes[i] & 15]};
  return out;
}

// "<deviceUUID>-<driverVersion>.vkpipelines": one file per device and driver.
std::string file_name(VkPhysicalDevice physical_device, const VkPhysicalDeviceProperties& p) {
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  if (p.apiVersion >= VK_API_VERSION_1_1) {
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &id;
    vkGetPhysicalDeviceProperties2(physical_device, &p2);
  } else {
    std::memcpy(id.deviceUUID, p.pipelineCacheUUID, VK_UUID_SIZE);
  }
  char driver[9];
  std::snprintf(driver, sizeof driver, "%08x", p.driverVersion);
  return hex(id.deviceUUID, VK_UUID_SIZE) + "-" + driver + ".vkpipelines";
}

// Why `bytes` (a whole file) cannot be given to this device's driver; "" when it can.
std::string check_file(const std::vector<uint8_t>& bytes, const FileHeader& want) {
  FileHeader h{};
  if (bytes.size() < sizeof h) return "truncated (" + std::to_string(bytes.size()) + " bytes)";
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return "not an fftgen pipeline cache";
  if (h.format != kFormat) return "format " + std::to_string(h.format) + ", not " + std::to_string(kFormat);
  if (h.vendor_id != want.vendor_id || h.device_id != want.device_id || h.driver_version != want.driver_version ||
      std::memcmp(h.pipeline_cache_uuid, want.pipeline_cache_uuid, VK_UUID_SIZE) != 0)
    return "made by another device or driver";
  if (h.data_bytes != bytes.size() - sizeof h)
    return "truncated (holds " + std::to_string(bytes.size() - sizeof h) + " of " + std::to_string(h.data_bytes) +
           " bytes)";
  if (h.checksum != checksum(bytes.data() + sizeof h, bytes.size() - sizeof h)) return "corrupt (checksum differs)";
  return "";
}

std::vector<uint8_t> read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot be read");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error("cannot be read");
  return bytes;
}

std::vector<uint8_t> cache_data(VkDevice device, VkPipelineCache cache) {
  size_t bytes = 0;
  check(vkGetPipelineCacheData(device, cache, &bytes, nullptr), "vkGetPipelineCacheData");
  std::vector<uint8_t> data(bytes);
  check(vkGetPipelineCacheData(device, cache, &bytes, data.data()), "vkGetPipelineCacheData");
  data.resize(bytes);
  return data;
}

VkPipelineCache create_cache(VkDevice device, const std::vector<uint8_t>& data) {
  VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  ci.initialDataSize = data.size();
  ci.pInitialData = data.empty() ? nullptr : data.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  check(vkCreatePipelineCache(device, &ci, nullptr, &cache), "vkCreatePipelineCache");
  return cache;
}

}  // namespace

fs::path default_pipeline_cache_folder() {
  const char* setting = std::getenv("FFTGEN_PIPELINE_CACHE");
  if (setting && std::strcmp(setting, "off") == 0) return {};
  if (setting && *setting) return setting;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return fs::path(xdg) / "fftgen";
  const char* home = std::getenv("HOME");
  if (home && *home) return fs::path(home) / ".cache" / "fftgen";
  return {};
}

PipelineCacheFile::PipelineCacheFile(VkPhysicalDevice physical_device, VkDevice device, const fs::path& folder)
    : device_(device) {
  vkGetPhysicalDeviceProperties(physical_device, &properties_);
  status_.path = folder / file_name(physical_device, properties_);
  load(status_.path);
}

void PipelineCacheFile::load(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    status_.state = PipelineCacheState::absent;
    cache_ = create_cache(device_, {});
    return;
  }
  std::string reason;
  try {
    const std::vector<uint8_t> bytes = read_all(path);
    reason = check_file(bytes, header_for(properties_, {}));
    if (reason.empty()) loaded_.assign(bytes.begin() + sizeof(FileHeader), bytes.end());
  } catch (const std::exception& e) {
    reason = e.what();
  }
  if (reason.empty()) {
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ci.initialDataSize = loaded_.size();
    ci.pInitialData = loaded_.data();
    if (vkCreatePipelineCache(device_, &ci, nullptr, &cache_) == VK_SUCCESS) {
      status_.state = PipelineCacheState::loaded;
      return;
    }
    reason = "the driver refused its data";
    loaded_.clear();
  }
  status_.state = PipelineCacheState::ignored;
  status_.note = "pipeline cache " + path.string() + " ignored: " + reason + "; it will be rewritten";
  cache_ = create_cache(device_, {});
}

PipelineCacheFile::~PipelineCacheFile() {
  if (cache_) vkDestroyPipelineCache(device_, cache_, nullptr);
}

std::string PipelineCacheFile::save() {
  std::vector<uint8_t> data;
  try {
    data = cache_data(device_, cache_);
  } catch (const std::exception& e) {
    return std::string("pipeline cache not saved: ") + e.what();
  }
  if (status_.state == PipelineCacheState::loaded && data == loaded_) return "";
  const fs::path& path = status_.path;
  const fs::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  const FileHeader header = header_for(properties_, data);
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(&header), sizeof header);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out || std::rename(tmp.c_str(), path.c_str()) != 0) {
    fs::remove(tmp, ec);
    return "pipeline cache " + path.string() + " not written (is " + path.parent_path().string() + " writable?)";
  }
  loaded_ = std::move(data);
  status_.state = PipelineCacheState::loaded;
  return "";
}

}  // namespace fftgen::vk
