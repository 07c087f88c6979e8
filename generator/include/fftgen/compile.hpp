// generator/compile: GLSL -> SPIR-V (glslang library), SPIR-V optimise + validate (SPIRV-Tools),
// SPIR-V -> HLSL / MSL / readable GLSL (SPIRV-Cross).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fftgen/plan.hpp"
#include "fftgen/types.hpp"

namespace fftgen {

/// The MSL and HLSL resources follow the binding slots of fftgen/interface.hpp: binding N is
/// [[buffer(msl_index(N))]] and the push constants [[buffer(kMslPushConstantBuffer)]]; in
/// the HLSL binding N is hlsl_register(N, ...) and the push constants are the cbuffer without a
/// register (root constants).

struct CompiledShader {
  std::vector<uint32_t> spirv;  ///< optimised and validated
  std::vector<uint32_t> unoptimised_spirv;  ///< glslang's output, before spirv-opt (validated too)
  std::string hlsl;             ///< empty unless asked for
  std::string msl;              ///< empty unless asked for
  std::string hlsl_entry_point = "main";
  std::string msl_entry_point = "main0";
};

/// Compiles one generated GLSL compute shader (#version 450, Vulkan semantics).
/// `name` identifies the shader in error messages. Throws CompileError whose message holds the
/// source with line numbers and the tool's log.
CompiledShader compile_glsl(const std::string& glsl, const std::string& name, bool want_hlsl,
                            bool want_msl, const CrossCompileOptions& cross);

/// Runs the SPIR-V validator (Vulkan 1.1 environment). Returns "" if valid, else the messages.
std::string validate_spirv(const std::vector<uint32_t>& spirv);

/// Compiles HLSL compute source back to SPIR-V with glslang's HLSL front end (used by tests to
/// prove the HLSL we ship is well-formed and computes the same thing). Throws CompileError.
/// The result has the same interface as the GLSL path, so one Vulkan pipeline layout runs both:
/// - register(tN) / register(uN) (SPIRV-Cross numbers them by the original binding) become
///   binding N; the register space (absent below SM 5.1, space0 from 5.1) becomes the set.
/// - SPIRV-Cross writes the GLSL push-constant block as a cbuffer without a register clause. In a
///   private copy of the text, before compiling, that one declaration gets `[[vk::push_constant]]`
///   prepended (same line, so error line numbers match) and becomes a Vulkan push-constant block.
///   The HLSL fftgen ships is not changed; under D3D the same cbuffer is a root-constant buffer.
/// The result is validated (Vulkan 1.1) before it is returned.
std::vector<uint32_t> compile_hlsl_to_spirv(const std::string& hlsl, const std::string& entry_point,
                                            const std::string& name);

/// Disassembles SPIR-V to text (for reports and golden tests).
std::string disassemble_spirv(const std::vector<uint32_t>& spirv);

/// Prefixes each line of `source` with its 1-based number (for compile-failure messages).
std::string number_lines(const std::string& source);

}  // namespace fftgen
