#include "fftgen/runtime/spirv_info.hpp"

#include <cstddef>
#include <unordered_map>

namespace fftgen::vk {

// Walks the type declarations of a SPIR-V module (spec section 2.3: word 0 of each instruction
// holds word count << 16 | opcode) far enough to size Workgroup-storage variables.
uint64_t spirv_workgroup_bytes(const std::vector<uint32_t>& words) {
  enum : uint32_t {
    OpTypeInt = 21, OpTypeFloat = 22, OpTypeVector = 23, OpTypeMatrix = 24, OpTypeArray = 28,
    OpTypeStruct = 30, OpTypePointer = 32, OpConstant = 43, OpVariable = 59,
    StorageWorkgroup = 4
  };
  std::unordered_map<uint32_t, uint64_t> size;      // type id -> bytes
  std::unordered_map<uint32_t, uint64_t> constant;  // constant id -> value (low word)
  std::unordered_map<uint32_t, uint32_t> pointee;   // Workgroup pointer type id -> pointee
  uint64_t total = 0;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) break;
    const uint32_t* w = &words[i];
    switch (op) {
      case OpTypeInt:
      case OpTypeFloat: size[w[1]] = w[2] / 8; break;
      case OpTypeVector:
      case OpTypeMatrix: size[w[1]] = size[w[2]] * w[3]; break;
      case OpTypeArray: size[w[1]] = size[w[2]] * constant[w[3]]; break;
      case OpTypeStruct: {
        uint64_t s = 0;
        for (uint32_t k = 2; k < count; ++k) s += size[w[k]];
        size[w[1]] = s;
        break;
      }
      case OpTypePointer:
        if (w[2] == StorageWorkgroup) pointee[w[1]] = w[3];
        break;
      case OpConstant:
        if (count >= 4) constant[w[2]] = w[3];
        break;
      case OpVariable:
        if (w[3] == StorageWorkgroup && pointee.count(w[1])) total += size[pointee[w[1]]];
        break;
      default: break;
    }
    i += count;
  }
  return total;
}

}  // namespace fftgen::vk
