// generator/emit: a PassProgram as a WGSL compute shader (WebGPU). The pass printer
// (pass_printer.hpp) prints the pass's statements and the functions they call, as for GLSL;
// wgsl_syntax re-spells them, and this file writes the declarations WGSL spells its own way:
// storage buffers and textures at @group(0) @binding(n), the push constants as a uniform buffer,
// the workgroup array, the entry point.
#include <cctype>

#include <kainjow/mustache.hpp>

#include "fftgen/emit.hpp"
#include "fftgen/webgpu.hpp"
#include "pass_printer.hpp"
#include "wgsl_syntax.hpp"

namespace fftgen {
namespace {

// The pass printer's spellings for WGSL: binding 0 of a pass that reads the buffer it writes is
// read_write, as WebGPU allows a buffer in two writable storage bindings of a dispatch but not in a
// read-only and a writable one. Half floats never reach it (the wgsl target refuses fp16).
const glsl::Dialect kWgslDialect{"", "", "", "", true, false};

// A pass that reads the buffer it writes (bindings 0 and 1 of one buffer): WebGPU forbids a
// writable storage binding that aliases another binding of the dispatch, so the WGSL declares the
// buffer once, at binding 1, and reads `src` through `dst` (the manifest's binding 0 says so).
bool reads_through_destination(const PassProgram& pass) {
  if (!pass.in_place()) return false;
  if (pass.bindings[0].scalar != pass.bindings[1].scalar || pass.bindings[0].is_texture() ||
      pass.bindings[1].is_texture())
    throw PlanError(fmt::format("pass {} reads and writes one buffer as different types, which WGSL cannot declare "
                                "as one binding", pass.name));
  return true;
}

// The declarations of a pass's interface: buffers and textures, then the uniform buffer of the
// push constants (kPushConstants, in order, u32 each).
std::string interface_wgsl(const PassProgram& pass) {
  std::string out =
      "// Binding 0 and 1 may alias (a pass that works in place on the output): every workgroup reads\n"
      "// exactly the elements it writes, and reads them all before it writes.\n";
  for (const PassBinding& b : pass.bindings) {
    if (reads_through_destination(pass) && b.slot.binding == kSourceSlot.binding) continue;
    const std::string at = fmt::format("@group(0) @binding({})", b.slot.binding);
    if (b.is_texture()) {
      out += fmt::format("{} var {}: texture_storage_2d<{}, {}>;\n", at, b.slot.name, webgpu_texture_format(b.texture),
                         b.slot.access == Access::write ? "write" : "read");
      continue;
    }
    if (is_half(b.element)) throw PlanError("half-float storage (precision fp16) needs WebGPU's shader-f16 feature");
    const bool writable = b.access() != Access::read || (pass.in_place() && b.slot.binding == 0);
    out += fmt::format("struct {} {{ data: array<{}> }}\n{} var<storage, {}> {}: {};\n", b.slot.block,
                       b.scalar ? "f32" : "vec2<f32>", at, writable ? "read_write" : "read", b.slot.name,
                       b.slot.block);
  }
  out += "\nstruct Params {\n";
  for (const PushConstantSlot& pc : kPushConstants) out += fmt::format("  {}: u32,  // {}\n", pc.name, pc.comment);
  return out + fmt::format("}}\n@group(0) @binding({}) var<uniform> params: Params;", kWgslParamsBinding);
}

std::string stages_text(const PassLayout& fft) {
  std::string stages;
  for (const StageLayout& stage : fft.stages) stages += (stages.empty() ? "" : "x") + std::to_string(stage.radix);
  return stages;
}

}  // namespace

std::string emit_pass_wgsl(const PassProgram& pass, const std::string& header) {
  const std::string declarations = interface_wgsl(pass);
  const glsl::PassText text = glsl::print_pass_text(pass, kWgslDialect);
  std::string functions;
  for (const std::string& f : text.functions) functions += f;
  const wgsl::InoutParameters inout = wgsl::inout_parameters(functions);
  const PassLayout& fft = pass.fft;
  kainjow::mustache::data data;
  data.set("header", header);
  data.set("summary",
           fmt::format("N = {}, {} FFT, pass {} of {}: sub-transform {} (stages {}) at stride {}, {} per workgroup; "
                       "index math {}, twiddles {}",
                       pass.n, to_string(pass.direction), pass.index + 1, pass.count, fft.size, stages_text(fft),
                       fft.stride, fft.columns_per_workgroup, to_string(pass.index_math), to_string(pass.twiddles)));
  data.set("params_binding", std::to_string(kWgslParamsBinding));
  data.set("interface", declarations);
  data.set("workgroup_size", std::to_string(fft.workgroup_size));
  data.set("computed_twiddles", pass.twiddles == TwiddleSource::computed);
  data.set("shared_type", fft.shared.split ? "f32" : "vec2<f32>");
  if (fft.shared.elements() > 0) data.set("shared_elements", std::to_string(fft.shared.elements()));
  else data.set("shared_elements", false);
  data.set("twiddle_operand", pass.direction == Direction::forward ? "w" : "vec2<f32>(w.x, -w.y)");
  std::string wgsl_functions = wgsl::functions(functions, inout), body = wgsl::statements(text.body, inout);
  if (reads_through_destination(pass))
    for (std::string* t : {&wgsl_functions, &body})
      for (size_t at = t->find("src.data["); at != std::string::npos; at = t->find("src.data[", at + 1))
        if (at == 0 || (!std::isalnum(static_cast<unsigned char>((*t)[at - 1])) && (*t)[at - 1] != '_'))
          t->replace(at, 3, "dst");
  data.set("functions", wgsl_functions);
  data.set("body", body);
  kainjow::mustache::mustache tmpl{std::string(embedded_template("stockham.wgsl"))};
  std::string out = tmpl.render(data);
  if (!tmpl.is_valid()) throw std::runtime_error("template stockham.wgsl: " + tmpl.error_message());
  return out;
}

}  // namespace fftgen
