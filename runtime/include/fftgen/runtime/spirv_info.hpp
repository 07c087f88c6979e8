// Facts read from SPIR-V itself, to cross-check what a manifest claims.
#pragma once
#include <cstdint>
#include <vector>

namespace fftgen::vk {

/// Bytes of Workgroup (shared) memory the module declares: the sum of its Workgroup variables'
/// sizes, scalars and vectors packed (the size Vulkan's validation computes for plain arrays).
uint64_t spirv_workgroup_bytes(const std::vector<uint32_t>& spirv);

}  // namespace fftgen::vk
