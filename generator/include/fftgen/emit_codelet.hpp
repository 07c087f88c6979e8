// generator/emit: a codelet DAG as GLSL text.
#pragma once
#include <string>

#include "fftgen/codelet.hpp"

namespace fftgen {

/// GLSL function `void <function_name>(inout vec2 x0, ..., inout vec2 x<R-1>)` computing the
/// codelet in place: one `float tN = ...;` per add/sub/mul/neg node in topological order (inputs are
/// read as `xR.x` / `xR.y`, constants inlined as float literals that round-trip exactly), then the
/// outputs, assigned only after every temporary is computed. The text is deterministic.
std::string emit_codelet_glsl(const codelet::Dag& dag, const std::string& function_name);
/// The same in double precision (precision fp64): constants as double literals (glsl_double_literal),
/// temporaries `double`, values `dvec2`.
std::string emit_codelet_glsl_double(const codelet::Dag& dag, const std::string& function_name);

/// A GLSL float literal that reads back as exactly float(value) (e.g. "0.707106769", "2.0").
std::string glsl_float_literal(double value);
/// A GLSL double literal that reads back as exactly `value` (e.g. "0.70710678118654757lf", "2.0lf").
std::string glsl_double_literal(double value);
/// A shader's GLSL with its float types spelt in doubles (precision fp64): the words `float` and
/// `vec2` become `double` and `dvec2` outside `//` comments, nothing else (its literals are exact in
/// float, or printed by glsl_double_literal already).
std::string glsl_in_double(const std::string& text);

}  // namespace fftgen
