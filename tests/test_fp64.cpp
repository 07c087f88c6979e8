// precision fp64 without a GPU: the plan's field and refusals, the layout's shared memory at 16
// bytes a complex value, the GLSL and HLSL in doubles (golden files of two small kernels), the
// manifest's device contract (shaderFloat64), elements and twiddle file.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "fftgen/compile.hpp"
#include "fftgen/emit_codelet.hpp"
#include "fftgen/generate.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"
#include "golden_support.hpp"

using fftgen::parse_plan;
using fftgen::PlanError;

namespace {

// A plan of `kernels` (JSON objects) for the targets fp64 has, HLSL at shader model 6.2.
std::string plan_of(const std::string& kernels, const std::string& targets = R"(["spirv", "glsl", "hlsl"])") {
  return R"({"targets": )" + targets + R"(, "hlsl_shader_model": "6.2", "kernels": [)" + kernels + "]}";
}

std::string error_of(const std::string& text) {
  try {
    parse_plan(text, "plan.json");
  } catch (const PlanError& e) {
    return e.what();
  }
  FAIL("the plan was accepted: " << text);
  return "";
}

std::map<std::string, std::string> files_of(const fftgen::GeneratedOutput& out) {
  std::map<std::string, std::string> files;
  for (const auto& f : out.files) files[f.name] = f.bytes;
  return files;
}

bool has_word(const std::string& text, const std::string& word) {
  return std::regex_search(text, std::regex("\\b" + word + "\\b"));
}

}  // namespace

TEST_CASE("fp64: the field parses, lists and names variants; twiddles auto is the table", "[fp64][plan]") {
  const fftgen::Plan plan =
      parse_plan(plan_of(R"({"name": "k", "shape": [1024], "precision": ["fp32", "fp64"]})"), "plan.json");
  REQUIRE(plan.kernels.size() == 2);
  CHECK(plan.kernels[0].name == "k__fp32");
  CHECK(plan.kernels[1].name == "k__fp64");
  CHECK(plan.kernels[1].precision == fftgen::Precision::fp64);
  CHECK(plan.kernels[1].twiddle_source() == fftgen::TwiddleSource::table);
  CHECK(fftgen::variant_fields(plan.kernels[1])["precision"] == "fp64");
}

TEST_CASE("fp64: what has no double precision is refused with the reason", "[fp64][plan]") {
  const std::string z = R"({"name": "z", "shape": [1024], "precision": "fp64")";
  SECTION("Metal (the default targets include msl)") {
    CHECK_THAT(error_of(R"({"kernels": [)" + z + "}]}"),
               Catch::Contains("kernel 'z': field 'precision': Metal has no double precision (fp64); drop msl"));
  }
  SECTION("WebGPU") {
    CHECK_THAT(error_of(plan_of(z + "}", R"(["spirv", "wgsl"])")),
               Catch::Contains("kernel 'z': field 'precision': WebGPU has no double precision"));
  }
  SECTION("HLSL below shader model 6.2") {
    CHECK_THAT(error_of(R"({"targets": ["spirv", "hlsl"], "kernels": [)" + z + "}]}"),
               Catch::Contains("need shader model 6.2 (hlsl_shader_model is 5.0)"));
  }
  SECTION("computed twiddles") {
    CHECK_THAT(error_of(plan_of(z + R"(, "twiddles": "computed"})")),
               Catch::Contains("field 'twiddles'") && Catch::Contains("GLSL has for float only") &&
                   Catch::Contains("allowed: \"auto\" or \"table\" with precision fp64"));
  }
  SECTION("convolutions, r2c_pair, images") {
    CHECK_THAT(error_of(plan_of(
                   R"({"name": "c", "precision": "fp64", "convolution": {"image": [64, 64], "filter": [8, 8]}})")),
               Catch::Contains("convolutions are planned in fp32 and fp16 only"));
    CHECK_THAT(error_of(plan_of(z + R"(, "transform": "r2c_pair"})")),
               Catch::Contains("r2c_pair is planned in fp32 and fp16 only"));
    CHECK_THAT(error_of(plan_of(z + R"(, "io": "image"})")), Catch::Contains("field 'precision'"));
  }
  SECTION("a sweep skips them with the reason") {
    const fftgen::Plan plan = fftgen::parse_sweep_plan(
        R"({"kernels": [{"name": "k", "shape": [1024], "precision": ["fp32", "fp64"]}]})", "sweep.json");
    REQUIRE(plan.kernels.size() == 1);
    REQUIRE(plan.skipped.size() == 1);
  }
}

TEST_CASE("fp64: shared memory holds 16-byte values within the budget", "[fp64][layout]") {
  for (uint32_t n : {64u, 1024u, 4096u, 8192u, 16384u, 65536u, 1u << 20, 1000u, 1009u}) {
    for (uint32_t budget : {16384u, 32768u, 49152u}) {
      const std::string kernel = fmt::format(R"({{"name": "z", "shape": [{}], "precision": "fp64",
                                               "shared_memory_bytes": {}}})", n, budget);
      const fftgen::Plan plan = parse_plan(plan_of(kernel, R"(["spirv"])"), "plan.json");
      const fftgen::KernelLayout layout = fftgen::make_layout(plan.kernels[0]);
      INFO("N = " << n << ", shared_memory_bytes = " << budget);
      for (const fftgen::PassLayout& pass : layout.passes) {
        CHECK(pass.shared.scalar_bytes == 8);
        CHECK(pass.shared_bytes() == pass.shared.elements() * (pass.shared.split ? 8 : 16));
        CHECK(pass.shared_bytes() <= budget);
      }
    }
  }
  // 8192 points fit one pass of 32 KB in fp32 (split exchange); doubles take twice the bytes. (The
  // budget is given: auto plans fp32 8192 within 16 KB, a row of the table of measured choices.)
  const auto layout_of = [](const char* precision) {
    const std::string k = fmt::format(
        R"({{"name": "z", "shape": [8192], "precision": "{}", "shared_memory_bytes": 32768}})", precision);
    return fftgen::make_layout(parse_plan(plan_of(k, R"(["spirv"])"), "plan.json").kernels[0]);
  };
  const fftgen::KernelLayout fp32 = layout_of("fp32"), fp64 = layout_of("fp64");
  CHECK(fp32.passes.front().shared.rounds == 1);
  CHECK(fp64.passes.front().shared.rounds * fp64.passes.size() > fp32.passes.front().shared.rounds * fp32.passes.size());
}

TEST_CASE("fp64: 3D kernels lay out their planes and columns in 16-byte values", "[fp64][layout][3d]") {
  const auto layout_of = [](const char* shape, const char* transform, const char* precision) {
    const std::string k = fmt::format(R"({{"name": "v", "shape": {}, "transform": "{}", "precision": "{}"}})", shape,
                                      transform, precision);
    return fftgen::make_layout(parse_plan(plan_of(k, R"(["spirv"])"), "plan.json").kernels[0]);
  };
  for (const char* shape : {"[16, 16, 16]", "[32, 32, 32]", "[64, 64, 64]", "[5, 12, 40]", "[8, 4, 8192]"})
    for (const char* transform : {"c2c", "r2c"}) {
      INFO(shape << " " << transform);
      for (const fftgen::PassLayout& pass : layout_of(shape, transform, "fp64").passes) {
        CHECK(pass.shared.scalar_bytes == 8);
        CHECK(pass.shared_bytes() <= 32768);
      }
    }
  // A plane in one pass, then Z, as in fp32: a 32 x 32 plane of doubles (16 KB) exchanges whole
  // values; a 64 x 64 one (64 KB) real and imaginary parts in turn (32 KB), where fp32's holds
  // whole values in 32 KB.
  const fftgen::KernelLayout v32 = layout_of("[32, 32, 32]", "c2c", "fp64"),
                             v64 = layout_of("[64, 64, 64]", "c2c", "fp64"),
                             v64_fp32 = layout_of("[64, 64, 64]", "c2c", "fp32");
  REQUIRE(v32.passes.size() == 2);
  REQUIRE(v64.passes.size() == 2);
  REQUIRE(v64_fp32.passes.size() == 2);
  CHECK(!v32.passes[0].shared.split);
  CHECK(v64.passes[0].shared.split);
  CHECK(!v64_fp32.passes[0].shared.split);
}

TEST_CASE("fp64: column tiles exchanged in rounds keep their values' registers: half the invocations of fp32",
          "[fp64][layout]") {
  // 2^20 = 1024 x 1024: 32 values an invocation take 64 registers in fp32 and 128 in fp64; 512
  // invocations would hold an fp64 pass to 128 registers in all (65536 a multiprocessor) and spill.
  const auto widest = [](const char* precision) {
    const std::string k = fmt::format(R"({{"name": "z", "shape": [1048576], "precision": "{}"}})", precision);
    const fftgen::KernelLayout layout =
        fftgen::make_layout(parse_plan(plan_of(k, R"(["spirv"])"), "plan.json").kernels.at(0));
    uint32_t most = 0;
    for (const fftgen::PassLayout& pass : layout.passes) most = std::max(most, pass.workgroup_size);
    return most;
  };
  CHECK(widest("fp32") == 512u);
  CHECK(widest("fp64") == 256u);
}

TEST_CASE("fp64: a column of 4096 that fp32 holds in one pass in rounds takes two passes", "[fp64][layout]") {
  // Four columns of 4096 values on 256 invocations (rounds_invocations in fp64) would take 64 values
  // an invocation, twice what a pass in rounds holds: [4096, 64], a side through Bluestein of M =
  // 4096 ([1031, 64]) and a 3D side of 4096 were refused.
  const auto y_passes = [](const std::string& shape, const char* precision) {
    const std::string k = fmt::format(R"({{"name": "z", "shape": {}, "precision": "{}"}})", shape, precision);
    const fftgen::KernelLayout layout =
        fftgen::make_layout(parse_plan(plan_of(k, R"(["spirv"])"), "plan.json").kernels.at(0));
    size_t passes = 0;
    for (const fftgen::PassLayout& pass : layout.passes) passes += pass.axis == 1;
    return passes;
  };
  CHECK(y_passes("[4096, 64]", "fp32") == 1);
  CHECK(y_passes("[4096, 64]", "fp64") == 2);
  CHECK(y_passes("[8, 4096, 16]", "fp64") == 2);
  CHECK(y_passes("[1031, 64]", "fp64") == 2);  // the passes of M = 4096, run forward and inverse
}

TEST_CASE("fp64: a budget the table narrows (narrow_budget) applies where the plan leaves it unset", "[fp64][plan]") {
  const auto budget_of = [](const std::string& fields) {
    const fftgen::Plan plan = parse_plan(plan_of(R"({"name": "z", "precision": "fp64", )" + fields + "}", R"(["spirv"])"),
                                         "plan.json");
    return plan.kernels.at(0).shared_memory_bytes;
  };
  // C2C 4096 in doubles: one pass within 16 KB (the table's row), not the default 32 KB.
  CHECK(budget_of(R"("shape": [4096])") == 16384u);
  CHECK(fftgen::make_layout(parse_plan(plan_of(R"({"name": "z", "shape": [4096], "precision": "fp64"})",
                                               R"(["spirv"])"), "plan.json").kernels.at(0))
            .passes.size() == 1);
  CHECK(budget_of(R"("shape": [4096], "shared_memory_bytes": 32768)") == 32768u);  // the plan's own stands
  CHECK(budget_of(R"("shape": [2048])") == 32768u);
  CHECK(budget_of(R"("shape": [8192])") == 32768u);
  CHECK(budget_of(R"("shape": [4096], "transform": "r2c")") == 32768u);
}

TEST_CASE("fp64: every buffer holds doubles; GLSL in double, SPIR-V valid, HLSL in double2", "[fp64][emit]") {
  const fftgen::Plan plan = parse_plan(plan_of(R"(
    {"name": "z1024", "shape": [1024], "precision": "fp64"},
    {"name": "z1000", "shape": [1000], "precision": "fp64", "normalize": "ortho"},
    {"name": "z1009", "shape": [1009], "precision": "fp64"},
    {"name": "z65536", "shape": [65536], "precision": "fp64"},
    {"name": "r1024", "shape": [1024], "transform": "r2c", "precision": "fp64"},
    {"name": "r1001", "shape": [1001], "transform": "r2c", "precision": "fp64"},
    {"name": "z2d", "shape": [64, 128], "precision": "fp64"},
    {"name": "r2d", "shape": [64, 64], "transform": "r2c", "precision": "fp64"},
    {"name": "z65536_counters", "shape": [65536], "precision": "fp64", "pass_sync": "counters"})"), "plan.json");
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "plan.json");
  const auto files = files_of(out);
  size_t passes = 0;
  for (const auto& kernel : out.manifest["kernels"]) {
    INFO("kernel " << kernel["name"]);
    CHECK(kernel["requires"]["features"].dump() == R"(["shaderFloat64"])");
    CHECK(kernel["options"]["precision"] == "fp64");
    for (const char* side : {"input", "output"}) {
      const std::string element = kernel["buffers"]["forward"][side]["element"];
      CHECK((element == "complex128" || element == "float64"));
    }
    for (const char* dir : {"forward", "inverse"})
      for (const auto& pass : kernel[dir]) {
        for (const auto& b : pass["bindings"])  // a dispatch of several passes binds its counters too
          CHECK((b["element"] == "complex128" || b["element"] == "float64" || b["role"] == "sync"));
        const std::string glsl = files.at(pass["files"]["glsl"]), hlsl = files.at(pass["files"]["hlsl"]);
        CHECK(has_word(glsl, "dvec2"));
        CHECK_FALSE(has_word(glsl, "vec2"));
        CHECK_FALSE(has_word(glsl, "float"));
        const std::string spv = files.at(pass["files"]["spirv"]);
        std::vector<uint32_t> words(spv.size() / 4);
        std::memcpy(words.data(), spv.data(), words.size() * 4);
        CHECK(fftgen::validate_spirv(words).empty());
        // The HLSL reads and writes doubles with SM 6.2's templated loads (glslang's HLSL front end,
        // which the fp32 HLSL goes back through, has none; DXC compiles them: docs/targets.md).
        CHECK(hlsl.find("Load<double2>") != std::string::npos);
        CHECK_FALSE(has_word(hlsl, "float2"));
        ++passes;
      }
  }
  CHECK(passes > 16);
}

TEST_CASE("fp64: passes in one dispatch (pass_sync counters) share an array of 16-byte values", "[fp64][emit]") {
  const fftgen::Plan plan = parse_plan(
      plan_of(R"({"name": "z", "shape": [65536], "precision": "fp64", "pass_sync": "counters"})"), "plan.json");
  const fftgen::KernelProgram program = fftgen::make_program(plan.kernels.at(0));
  REQUIRE(program.forward_counters);
  CHECK(program.dispatches(fftgen::Direction::forward) == 1);
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "plan.json");
  const std::string glsl = files_of(out).at(out.manifest["kernels"][0]["forward"][0]["files"]["glsl"]);
  // The array holds the dispatch's shared bytes less its own counters, in dvec2 (16 bytes), not in
  // vec2 (8 bytes) respelt as dvec2, which would take twice the bytes the schedule counted.
  const uint32_t values = (program.forward_counters->shared_bytes - fftgen::CounterSchedule::kSharedBytes) / 16;
  CHECK(glsl.find(fmt::format("shared dvec2 sh[{}];", values)) != std::string::npos);
  CHECK(program.forward_counters->shared_bytes <= 32768u);
  CHECK_FALSE(has_word(glsl, "vec2"));
}

TEST_CASE("fp64: the twiddle file holds float64 pairs, each the exact root rounded once", "[fp64][manifest]") {
  const fftgen::Plan plan = parse_plan(plan_of(R"({"name": "z", "shape": [4096], "precision": "fp64"})"), "p.json");
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "p.json");
  const auto& tw = out.manifest["kernels"][0]["twiddles"];
  CHECK(tw["format"] == "float64 pairs (re, im), little-endian");
  const std::string bytes = files_of(out).at(tw["file"]);
  const uint64_t count = tw["count"];
  REQUIRE(bytes.size() == count * 16);
  std::vector<double> values(2 * count);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  const fftgen::KernelLayout layout = fftgen::make_layout(plan.kernels[0]);
  CHECK(values == layout.twiddles.values_in_double());
  // One float rounding would be 1e-8 away; the file's values are within a double's rounding of
  // a unit circle.
  for (uint64_t i = 0; i < count; ++i) CHECK(std::abs(std::hypot(values[2 * i], values[2 * i + 1]) - 1.0) < 4e-16);
}

TEST_CASE("fp64: GLSL and HLSL of small kernels match the golden files", "[fp64][emit][golden]") {
  const fftgen::Plan plan = parse_plan(plan_of(R"(
    {"name": "golden8z", "shape": [8], "precision": "fp64", "normalize": "ortho"},
    {"name": "golden16r", "shape": [16], "transform": "r2c", "precision": "fp64", "direction": "forward"})",
                                               R"(["glsl", "hlsl"])"),
                                       "golden.json");
  const auto out = fftgen::generate(plan, "golden.json");
  const size_t compared = fftgen_test::check_golden_files(out, {".comp", ".hlsl"});
  if (!fftgen_test::updating_golden()) CHECK(compared == 2 * (2 + 1));  // golden16r: forward only
}

TEST_CASE("fp64: glsl_in_double respells the float types, not names or comments", "[fp64][emit]") {
  CHECK(fftgen::glsl_in_double("vec2 a = vec2(0.5); float b; f16vec2 c; vec2s d; // kernel 'float'\nfloat e;") ==
        "dvec2 a = dvec2(0.5); double b; f16vec2 c; vec2s d; // kernel 'float'\ndouble e;");
  CHECK(fftgen::glsl_double_literal(2.0) == "2.0lf");
  CHECK(fftgen::glsl_double_literal(0.1) == "0.10000000000000001lf");
  CHECK(std::stod(fftgen::glsl_double_literal(M_SQRT1_2)) == M_SQRT1_2);
}
