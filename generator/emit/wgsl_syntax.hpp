// generator/emit (internal): the WGSL spellings of what the pass printer writes. The pass printer
// (pass_printer.hpp) decides every statement of a pass (indices, load prologue, stages, store
// epilogue) and the functions it calls (codelets, prologue and epilogue helpers); those statements
// are written in a small C-like subset (declarations `T name = e;`, assignments, `if`, calls, `?:`,
// one statement a line). The WGSL target re-spells that subset: declarations `var name: T = e;`,
// types `vec2<f32>`/`u32`, `select()` for ternaries, `fn` helpers with `ptr<function, T>` for
// `inout` parameters, `workgroupBarrier()`. The expressions themselves (index math, butterflies)
// are unchanged. A construct outside the subset is a std::logic_error naming the line, so that a
// printer change that WGSL cannot follow fails the tests instead of writing a broken shader.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace fftgen::wgsl {

/// Which parameters of each function are `inout` (passed as pointers in WGSL), by name.
using InoutParameters = std::map<std::string, std::vector<bool>>;

/// The `inout` parameters of the functions defined in `functions` (one definition after another).
InoutParameters inout_parameters(const std::string& functions);

/// Function definitions in the printer's subset as WGSL `fn`s. Calls to functions of `inout`
/// pass the address of those arguments.
std::string functions(const std::string& text, const InoutParameters& inout);

/// Statements of a function body in the printer's subset as WGSL statements (indentation and
/// comments kept).
std::string statements(const std::string& text, const InoutParameters& inout);

/// The WGSL type of a type of the subset ("vec2" -> "vec2<f32>"); throws for another.
std::string type(const std::string& glsl_type);

}  // namespace fftgen::wgsl
