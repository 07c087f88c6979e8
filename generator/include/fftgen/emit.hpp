// generator/emit: renders a KernelLayout pass as a GLSL compute shader. The emitter decides
// text only (index math spelling, statement order); the maths comes from codelet/ and layout.
#pragma once
#include <string>
#include <string_view>

#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"

namespace fftgen {

/// The text of a file in templates/, embedded at build time.
std::string_view embedded_template(std::string_view name);

/// GLSL 450 source of one pass of one direction. `plan_source` names the plan in the header line.
std::string emit_pass_glsl(const KernelSpec& spec, const KernelLayout& layout, size_t pass, Direction direction,
                           const std::string& plan_source);

/// The first comment line of every generated text file: fftgen's version, the plan, the kernel
/// and the pass.
std::string generated_header(const std::string& plan_source, const KernelSpec& spec, const std::string& pass);

/// "fwd0", "inv1", ...
std::string pass_name(Direction direction, size_t pass);

/// The factor a direction's last pass applies (normalisation).
double direction_scale(const KernelSpec& spec, Direction direction);

}  // namespace fftgen
