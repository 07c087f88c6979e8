// generator/sweep: what a SPIR-V module executes, by kind of instruction (the sweep's columns).
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace fftgen {

/// Instructions of each kind in a module's function bodies: each counts once, whatever its vector
/// width (a vec2 add is one float add). Opcodes come from the SPIR-V headers (spirv-headers).
struct InstructionMix {
  uint32_t int_divmod = 0;     ///< OpUDiv, OpSDiv, OpUMod, OpSMod, OpSRem
  uint32_t shifts_masks = 0;   ///< shifts and bitwise and/or/xor
  uint32_t int_muls = 0;       ///< OpIMul, OpUMulExtended, OpSMulExtended
  uint32_t float_adds = 0;     ///< OpFAdd, OpFSub
  uint32_t float_muls = 0;     ///< OpFMul, OpVectorTimesScalar
  uint32_t float_fmas = 0;     ///< GLSL.std.450 Fma
  uint32_t buffer_loads = 0;   ///< OpLoad through a StorageBuffer or Uniform pointer
  uint32_t buffer_stores = 0;
  uint32_t shared_loads = 0;   ///< OpLoad through a Workgroup pointer
  uint32_t shared_stores = 0;
  uint32_t barriers = 0;       ///< OpControlBarrier, OpMemoryBarrier
  uint32_t total = 0;          ///< every instruction between OpFunction and OpFunctionEnd, labels excluded
};

/// Counts the instructions of a SPIR-V module (words as generate() writes them). Throws
/// std::invalid_argument if the words are not a SPIR-V module.
InstructionMix count_instructions(const std::vector<uint32_t>& spirv);

/// Adds every count of `other` (a kernel's passes summed).
InstructionMix& operator+=(InstructionMix& into, const InstructionMix& other);

/// {"int_divmod": ..., ..., "total": ...}, in the struct's order.
nlohmann::ordered_json to_json(const InstructionMix& mix);

}  // namespace fftgen
