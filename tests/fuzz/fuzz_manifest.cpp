// libFuzzer harness: the runtime's manifest reader (parse_manifest_text) and SPIR-V reflection
// (reflect_spirv, spirv_workgroup_bytes) on arbitrary bytes. Only the documented error
// (ManifestError) may come out; anything else, a crash or a sanitizer report is a finding.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "fftgen/runtime/error.hpp"
#include "fftgen/runtime/manifest.hpp"
#include "fftgen/runtime/spirv_info.hpp"

namespace {

using namespace fftgen::vk;

void read_manifest(std::string_view text) {
  try {
    Manifest m = parse_manifest_text(text, "fuzz.json", FileSource::in_memory_files({}));
    // What the runtime derives from a parsed manifest before any Vulkan call.
    for (const auto& k : m.kernels)
      for (Direction d : k.directions)
        for (const auto& p : k.passes(d)) {
          (void)p.workgroups(UINT32_MAX);
          for (const auto& c : p.push_constants)
            if (c.offset + uint64_t{4} > p.push_constant_bytes) __builtin_trap();  // record() would overrun
        }
  } catch (const ManifestError&) {
  }
}

void reflect(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  (void)spirv_workgroup_bytes(words);
  try {
    (void)reflect_spirv(words, "fuzz.spv");
  } catch (const ManifestError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  read_manifest(std::string_view(reinterpret_cast<const char*>(data), size));
  reflect(data, size);
  return 0;
}
