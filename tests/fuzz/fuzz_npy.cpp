// libFuzzer harness: the .npy reader (read_npy on a stream of the input's bytes). Only NpyError
// may come out; a crash, a sanitizer report or an allocation beyond the input's size (libFuzzer's
// -malloc_limit_mb) is a finding.
#include <cstdint>
#include <sstream>
#include <string>

#include "fftgen/vktools/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    fftgen::vk::NpyArray a = fftgen::vk::read_npy(in, size, "fuzz.npy");
    if (a.values.size() * 4 > size) __builtin_trap();  // more data than the file holds
  } catch (const fftgen::vk::NpyError&) {
  }
  return 0;
}
