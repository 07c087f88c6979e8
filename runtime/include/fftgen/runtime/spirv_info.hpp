// Facts read from SPIR-V itself, to cross-check what a manifest claims.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fftgen::vk {

/// Bytes of Workgroup (shared) memory the module declares: the sum of its Workgroup variables'
/// sizes, scalars and vectors packed (the size Vulkan's validation computes for plain arrays).
uint64_t spirv_workgroup_bytes(const std::vector<uint32_t>& spirv);

/// A descriptor the module declares: (set, binding) of a StorageBuffer/Uniform variable.
struct SpirvBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  bool image = false;  ///< a UniformConstant variable (a storage image) rather than a buffer
};

/// What a compute module declares about its interface, read by `reflect_spirv`.
struct SpirvInterface {
  std::vector<std::string> entry_points;      ///< GLCompute entry points, in module order
  std::optional<uint32_t> local_size[3];      ///< LocalSize execution mode (absent if set by id)
  std::vector<SpirvBinding> bindings;         ///< buffer descriptors, in declaration order
  uint32_t push_constant_bytes = 0;           ///< end of the push-constant block's last member
  uint64_t workgroup_bytes = 0;               ///< as spirv_workgroup_bytes
  std::vector<uint32_t> capabilities;         ///< OpCapability operands, in module order
};

/// Checks the module's structure (header, magic, every instruction's word count inside the
/// module, the last instruction an OpFunctionEnd: a truncated module fails) and reads its
/// interface. Throws ManifestError starting with `what` (e.g. the file's name) when the words
/// are not a whole SPIR-V module.
SpirvInterface reflect_spirv(const std::vector<uint32_t>& spirv, const std::string& what);

}  // namespace fftgen::vk
