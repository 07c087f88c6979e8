#include "fftgen/runtime/spirv_info.hpp"

#include <cstddef>
#include <map>
#include <unordered_map>

#include "fftgen/runtime/error.hpp"

namespace fftgen::vk {

namespace {

// Opcodes, storage classes and decorations used below (SPIR-V specification, section 3).
enum : uint32_t {
  OpCapability = 17, OpEntryPoint = 15, OpExecutionMode = 16, OpTypeInt = 21, OpTypeFloat = 22, OpTypeVector = 23,
  OpTypeMatrix = 24, OpTypeArray = 28, OpTypeRuntimeArray = 29, OpTypeStruct = 30,
  OpTypePointer = 32, OpConstant = 43, OpFunctionEnd = 56, OpVariable = 59, OpDecorate = 71,
  OpMemberDecorate = 72,
  StorageUniformConstant = 0, StorageUniform = 2, StorageWorkgroup = 4, StoragePushConstant = 9, StorageStorageBuffer = 12,
  DecorationBinding = 33, DecorationDescriptorSet = 34, DecorationOffset = 35,
  ExecutionModelGLCompute = 5, ExecutionModeLocalSize = 17,
  kMagic = 0x07230203u
};

// Sizes of types and values of constants, as far as the module's declarations say.
struct TypeTable {
  std::unordered_map<uint32_t, uint64_t> size;      // type id -> bytes (packed)
  std::unordered_map<uint32_t, uint64_t> constant;  // constant id -> value (low word)
  std::unordered_map<uint32_t, std::vector<uint32_t>> members;  // struct id -> member types
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> member_offset;  // (struct, member) -> Offset

  // `w` points at an instruction of `count` words (count >= 1); operands past it are not read.
  void declare(uint32_t op, const uint32_t* w, uint32_t count) {
    const uint32_t needs = op == OpTypeInt || op == OpTypeFloat ? 3
                           : op == OpTypeStruct                 ? 2
                           : op == OpMemberDecorate             ? 5
                                                                : 4;
    if (count < needs) return;
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
        members[w[1]].assign(w + 2, w + count);
        break;
      }
      case OpConstant: constant[w[2]] = w[3]; break;
      case OpMemberDecorate:
        if (w[3] == DecorationOffset) member_offset[{w[1], w[2]}] = w[4];
        break;
      default: break;
    }
  }

  // Bytes from the block's start to the end of its last member (what a push-constant range
  // must cover): the largest Offset + member size.
  uint64_t block_extent(uint32_t type) const {
    auto m = members.find(type);
    if (m == members.end()) {
      auto s = size.find(type);
      return s == size.end() ? 0 : s->second;
    }
    uint64_t end = 0;
    for (uint32_t i = 0; i < m->second.size(); ++i) {
      auto off = member_offset.find({type, i});
      auto s = size.find(m->second[i]);
      end = std::max<uint64_t>(end, (off == member_offset.end() ? 0 : off->second) +
                                        (s == size.end() ? 0 : s->second));
    }
    return end;
  }
};

// The literal string starting at word `w` of an instruction with `count - first` words left.
std::string literal_string(const uint32_t* w, uint32_t words) {
  std::string s;
  for (uint32_t i = 0; i < words; ++i)
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((w[i] >> (8 * b)) & 0xff);
      if (c == '\0') return s;
      s += c;
    }
  return s;
}

}  // namespace

// Walks the type declarations of a SPIR-V module (spec section 2.3: word 0 of each instruction
// holds word count << 16 | opcode) far enough to size Workgroup-storage variables.
uint64_t spirv_workgroup_bytes(const std::vector<uint32_t>& words) {
  TypeTable types;
  std::unordered_map<uint32_t, uint32_t> pointee;  // Workgroup pointer type id -> pointee
  uint64_t total = 0;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) break;
    const uint32_t* w = &words[i];
    types.declare(op, w, count);
    if (op == OpTypePointer && count >= 4 && w[2] == StorageWorkgroup) pointee[w[1]] = w[3];
    if (op == OpVariable && count >= 4 && w[3] == StorageWorkgroup && pointee.count(w[1]))
      total += types.size[pointee[w[1]]];
    i += count;
  }
  return total;
}

SpirvInterface reflect_spirv(const std::vector<uint32_t>& words, const std::string& what) {
  if (words.size() < 5) throw ManifestError(what + " is not SPIR-V (shorter than its 5-word header)");
  if (words[0] != kMagic) throw ManifestError(what + " is not SPIR-V (bad magic number)");
  if (words[3] == 0) throw ManifestError(what + " is not valid SPIR-V (id bound 0)");
  SpirvInterface out;
  TypeTable types;
  struct Pointer {
    uint32_t storage, pointee;
  };
  std::unordered_map<uint32_t, Pointer> pointers;
  std::unordered_map<uint32_t, uint32_t> binding_of, set_of;
  std::vector<std::pair<uint32_t, uint32_t>> buffer_variables;  // (id, pointer type)
  uint32_t last_op = 0;
  size_t i = 5;
  while (i < words.size()) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0)
      throw ManifestError(what + " is not valid SPIR-V (an instruction of 0 words at word " +
                          std::to_string(i) + ")");
    if (i + count > words.size())
      throw ManifestError(what + " is truncated: the instruction at word " + std::to_string(i) +
                          " needs " + std::to_string(count) + " words, the module ends after " +
                          std::to_string(words.size() - i));
    const uint32_t* w = &words[i];
    types.declare(op, w, count);
    switch (op) {
      case OpCapability:
        if (count >= 2) out.capabilities.push_back(w[1]);
        break;
      case OpEntryPoint:
        if (count >= 4 && w[1] == ExecutionModelGLCompute)
          out.entry_points.push_back(literal_string(w + 3, count - 3));
        break;
      case OpExecutionMode:
        if (count >= 6 && w[2] == ExecutionModeLocalSize)
          for (int k = 0; k < 3; ++k) out.local_size[k] = w[3 + k];
        break;
      case OpDecorate:
        if (count >= 4 && w[2] == DecorationBinding) binding_of[w[1]] = w[3];
        if (count >= 4 && w[2] == DecorationDescriptorSet) set_of[w[1]] = w[3];
        break;
      case OpTypePointer:
        if (count >= 4) pointers[w[1]] = {w[2], w[3]};
        break;
      case OpVariable:
        if (count >= 4) {
          if (w[3] == StorageWorkgroup && pointers.count(w[1]))
            out.workgroup_bytes += types.size[pointers[w[1]].pointee];
          if (w[3] == StoragePushConstant && pointers.count(w[1]))
            out.push_constant_bytes = static_cast<uint32_t>(
                std::max<uint64_t>(out.push_constant_bytes, types.block_extent(pointers[w[1]].pointee)));
          // Buffers, and storage images (UniformConstant variables with a binding: io image kernels).
          if (w[3] == StorageStorageBuffer || w[3] == StorageUniform || w[3] == StorageUniformConstant)
            buffer_variables.emplace_back(w[2], w[1]);
        }
        break;
      default: break;
    }
    last_op = op;
    i += count;
  }
  if (last_op != OpFunctionEnd)
    throw ManifestError(what + " is truncated: it does not end with a function's end "
                        "(OpFunctionEnd)");
  for (const auto& [id, type] : buffer_variables) {
    auto b = binding_of.find(id);
    if (b == binding_of.end()) continue;
    auto s = set_of.find(id);
    out.bindings.push_back({s == set_of.end() ? 0u : s->second, b->second,
                            pointers.count(type) && pointers[type].storage == StorageUniformConstant});
  }
  return out;
}

}  // namespace fftgen::vk
