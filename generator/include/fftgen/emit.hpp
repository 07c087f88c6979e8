// generator/emit: prints a PassProgram as a GLSL compute shader. The printer decides text only
// (index math spelling, statement order); the maths comes from codelet/, the pass from program.hpp.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "fftgen/program.hpp"

namespace fftgen {

/// The text of a file in templates/, embedded at build time.
std::string_view embedded_template(std::string_view name);

/// GLSL 450 source of one pass. `header` is the generated-by line (generated_header()).
/// `text_targets`: the source the HLSL and MSL are cross-compiled from, which may differ from the
/// Vulkan source in the declarations only (see docs/targets.md: D3D12 resource rules).
std::string emit_pass_glsl(const PassProgram& pass, const std::string& header, bool text_targets = false);

/// GLSL 450 source of a dispatch that runs every pass of a direction (pass_sync counters): the
/// passes as functions, and a main() that takes work by ticket (CounterSchedule).
std::string emit_counters_glsl(const std::vector<PassProgram>& passes, const CounterSchedule& schedule,
                               const std::string& header, bool text_targets = false);

/// WGSL source of one pass (WebGPU): the same statements as emit_pass_glsl's, spelt in WGSL
/// (generator/emit/wgsl_syntax.hpp); the push constants are a uniform buffer at binding
/// kWgslParamsBinding. Throws PlanError for what WebGPU cannot run (half-float storage).
std::string emit_pass_wgsl(const PassProgram& pass, const std::string& header);
/// The binding of the uniform buffer that holds a WGSL pass's push constants (kPushConstants).
inline constexpr uint32_t kWgslParamsBinding = 3;

/// The first comment line of every generated text file: fftgen's version, the plan, the kernel
/// and the pass.
std::string generated_header(const std::string& plan_source, const KernelSpec& spec, const std::string& pass);

}  // namespace fftgen
