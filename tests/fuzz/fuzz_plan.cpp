// libFuzzer harness: the plan parser, layout and GLSL emission (parse_plan, make_program,
// emit_pass_glsl) on arbitrary text; one input in 64 (by a hash of its bytes) with small
// transforms also goes through glslang, SPIRV-Tools and SPIRV-Cross (compile_glsl), which take
// about 0.3 s a pass. Only PlanError and CompileError may come out.
#include <cstdint>
#include <string>

#include "fftgen/compile.hpp"
#include "fftgen/emit.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

namespace {

// Enough variants and points to reach every code path; larger plans only cost time per input.
constexpr size_t kMaxVariants = 8;
constexpr uint64_t kMaxPoints = 1 << 16;
constexpr uint64_t kMaxCompiledPoints = 1 << 10;

uint32_t hash(const uint8_t* data, size_t size) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const bool compile = hash(data, size) % 64 == 0;
  try {
    const fftgen::Plan plan = fftgen::parse_plan(text, "fuzz.json");
    size_t variants = 0;
    for (const auto& spec : plan.kernels) {
      if (++variants > kMaxVariants || spec.points() > kMaxPoints) break;
      const fftgen::KernelProgram program = fftgen::make_program(spec);
      for (const auto* passes : {&program.forward, &program.inverse})
        for (const auto& pass : *passes) {
          const std::string glsl = fftgen::emit_pass_glsl(pass, "// fuzz");
          if (compile && spec.points() <= kMaxCompiledPoints)
            (void)fftgen::compile_glsl(glsl, spec.name + "." + pass.name, true, true, plan.cross);
        }
    }
  } catch (const fftgen::PlanError&) {
  } catch (const fftgen::CompileError&) {
  }
  return 0;
}
