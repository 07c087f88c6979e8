#include "fftgen/instruction_mix.hpp"

#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

namespace fftgen {

InstructionMix count_instructions(const std::vector<uint32_t>& spirv) {
  constexpr size_t kHeaderWords = 5;
  if (spirv.size() < kHeaderWords || spirv[0] != spv::MagicNumber)
    throw std::invalid_argument("not a SPIR-V module (no magic number)");
  InstructionMix mix;
  std::unordered_map<uint32_t, uint32_t> pointer_class;  // pointer type id -> storage class
  std::unordered_map<uint32_t, uint32_t> type_of;        // pointer-valued result id -> its type id
  uint32_t glsl_std = 0;                                 // id of the GLSL.std.450 import
  bool in_function = false;
  // The storage class an OpLoad/OpStore reaches memory through, or ~0u when unknown.
  auto storage_class = [&](uint32_t pointer) {
    auto type = type_of.find(pointer);
    if (type == type_of.end()) return ~0u;
    auto cls = pointer_class.find(type->second);
    return cls == pointer_class.end() ? ~0u : cls->second;
  };
  auto is_buffer = [](uint32_t cls) { return cls == spv::StorageClassStorageBuffer || cls == spv::StorageClassUniform; };
  for (size_t at = kHeaderWords; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16;
    const auto op = static_cast<spv::Op>(spirv[at] & 0xffff);
    if (count == 0 || at + count > spirv.size()) throw std::invalid_argument("truncated SPIR-V instruction");
    const uint32_t* w = &spirv[at];
    at += count;
    switch (op) {
      case spv::OpExtInstImport:
        if (count > 2 && std::strncmp(reinterpret_cast<const char*>(&w[2]), "GLSL.std.450", (count - 2) * 4) == 0)
          glsl_std = w[1];
        break;
      case spv::OpTypePointer: pointer_class[w[1]] = w[2]; break;
      case spv::OpVariable:
      case spv::OpAccessChain:
      case spv::OpInBoundsAccessChain:
      case spv::OpPtrAccessChain:
      case spv::OpFunctionParameter:
      case spv::OpCopyObject: type_of[w[2]] = w[1]; break;
      default: break;
    }
    if (op == spv::OpFunction) in_function = true;
    if (op == spv::OpFunctionEnd) in_function = false;
    if (!in_function || op == spv::OpFunction || op == spv::OpLabel) continue;
    ++mix.total;
    switch (op) {
      case spv::OpUDiv: case spv::OpSDiv: case spv::OpUMod: case spv::OpSMod: case spv::OpSRem:
        ++mix.int_divmod; break;
      case spv::OpShiftLeftLogical: case spv::OpShiftRightLogical: case spv::OpShiftRightArithmetic:
      case spv::OpBitwiseAnd: case spv::OpBitwiseOr: case spv::OpBitwiseXor:
        ++mix.shifts_masks; break;
      case spv::OpIMul: case spv::OpUMulExtended: case spv::OpSMulExtended: ++mix.int_muls; break;
      case spv::OpFAdd: case spv::OpFSub: ++mix.float_adds; break;
      case spv::OpFMul: case spv::OpVectorTimesScalar: ++mix.float_muls; break;
      case spv::OpExtInst:
        if (count > 4 && w[3] == glsl_std && w[4] == GLSLstd450Fma) ++mix.float_fmas;
        break;
      case spv::OpControlBarrier: case spv::OpMemoryBarrier: ++mix.barriers; break;
      case spv::OpLoad: {
        const uint32_t cls = storage_class(w[3]);
        if (is_buffer(cls)) ++mix.buffer_loads;
        if (cls == spv::StorageClassWorkgroup) ++mix.shared_loads;
        break;
      }
      case spv::OpStore: {
        const uint32_t cls = storage_class(w[1]);
        if (is_buffer(cls)) ++mix.buffer_stores;
        if (cls == spv::StorageClassWorkgroup) ++mix.shared_stores;
        break;
      }
      default: break;
    }
  }
  return mix;
}

namespace {
// Each count's JSON key and member, in the struct's order: one list for JSON, keys and sums.
const std::vector<std::pair<const char*, uint32_t InstructionMix::*>>& fields() {
  static const std::vector<std::pair<const char*, uint32_t InstructionMix::*>> list{
      {"int_divmod", &InstructionMix::int_divmod},       {"shifts_masks", &InstructionMix::shifts_masks},
      {"int_muls", &InstructionMix::int_muls},           {"float_adds", &InstructionMix::float_adds},
      {"float_muls", &InstructionMix::float_muls},       {"float_fmas", &InstructionMix::float_fmas},
      {"buffer_loads", &InstructionMix::buffer_loads},   {"buffer_stores", &InstructionMix::buffer_stores},
      {"shared_loads", &InstructionMix::shared_loads},   {"shared_stores", &InstructionMix::shared_stores},
      {"barriers", &InstructionMix::barriers},           {"total", &InstructionMix::total}};
  return list;
}
}  // namespace

nlohmann::ordered_json to_json(const InstructionMix& mix) {
  nlohmann::ordered_json j;
  for (const auto& [key, member] : fields()) j[key] = mix.*member;
  return j;
}

InstructionMix& operator+=(InstructionMix& into, const InstructionMix& other) {
  for (const auto& [key, member] : fields()) into.*member += other.*member;
  return into;
}

}  // namespace fftgen
