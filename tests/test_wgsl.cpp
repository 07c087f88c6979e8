// The WebGPU target without a browser: the WGSL spellings of the pass printer's statements, the
// plan's refusals of what WebGPU does not offer, kernels planned within WebGPU's limits, and the
// manifest's WGSL fields. (tests/webgpu/run_webgpu.py runs the kernels in Chromium.)
#include <catch2/catch.hpp>

#include <map>
#include <regex>

#include <fmt/format.h>

#include "../generator/emit/wgsl_syntax.hpp"
#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

namespace {

std::string refusal(const std::string& plan_text) {
  try {
    fftgen::parse_plan(plan_text, "test.json");
  } catch (const fftgen::PlanError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("wgsl: statements of the printer's subset in WGSL spellings") {
  using fftgen::wgsl::statements;
  const fftgen::wgsl::InoutParameters none;
  CHECK(statements("  uint q = (t & 15u);  // position\n", none) == "  var q: u32 = (t & 15u);  // position\n");
  CHECK(statements("  vec2 v0 = vec2(0.0);\n", none) == "  var v0: vec2<f32> = vec2<f32>(0.0);\n");
  CHECK(statements("  uint m1 = k1 > 8u ? 16u - k1 : k1;\n", none) ==
        "  var m1: u32 = select(k1, 16u - k1, k1 > 8u);\n");
  CHECK(statements("  p0 = sh[c * 9u + (q == 0u ? 0u : 8u - q)];\n", none) ==
        "  p0 = sh[c * 9u + (select(8u - q, 0u, q == 0u))];\n");
  CHECK(statements("  if (q < 4u) v1 = src.data[b + 4u];\n", none) == "  if (q < 4u) { v1 = src.data[b + 4u]; }\n");
  CHECK(statements("  memoryBarrierShared();\n  barrier();\n", none) == "  workgroupBarrier();\n");
  CHECK(statements("  uint a = 1u, b = a >> 16u;\n", none) == "  var a: u32 = 1u; var b: u32 = a >> 16u;\n");
  CHECK(statements("  float s = float(m) * 1e-05;\n", none) == "  var s: f32 = f32(m) * 1e-05;\n");
  CHECK(statements("  b += 4u;\n", none) == "  b += 4u;\n");
  CHECK(statements("  vec2 a0 = v0; v0 = w0; w0 = a0;\n", none) == "  var a0: vec2<f32> = v0; v0 = w0; w0 = a0;\n");
  // A name WGSL reserves is renamed.
  CHECK(statements("  uint filter = 2u;\n", none) == "  var filter_: u32 = 2u;\n");
  // Constructs outside the subset are refused, naming the line.
  CHECK_THROWS_WITH(statements("  for (uint i = 0u; i < 4u; i++) {\n", none), Catch::Contains("for (uint i"));
  CHECK_THROWS_WITH(statements("  v = unpackHalf2x16(x);\n", none), Catch::Contains("unpackHalf2x16"));
}

TEST_CASE("wgsl: functions, inout parameters as pointers, assigned parameters copied") {
  const std::string glsl =
      "void radix2_fwd(inout vec2 x0, inout vec2 x1) {\n"
      "  float t0 = x0.x + x1.x;\n"
      "  x0 = vec2(t0, x0.y);\n"
      "}\n"
      "vec2 flip(vec2 x, bool mirrored) {\n"
      "  if (mirrored) {\n"
      "    x.y = -x.y;\n"
      "  }\n"
      "  return x;\n"
      "}\n"
      "vec2 conj_chirp(vec2 w) { return vec2(w.x, -w.y); }\n";
  const auto inout = fftgen::wgsl::inout_parameters(glsl);
  REQUIRE(inout.at("radix2_fwd") == std::vector<bool>{true, true});
  CHECK(inout.at("flip") == std::vector<bool>{false, false});
  const std::string wgsl = fftgen::wgsl::functions(glsl, inout);
  CHECK(wgsl.find("fn radix2_fwd(x0: ptr<function, vec2<f32>>, x1: ptr<function, vec2<f32>>) {") != std::string::npos);
  CHECK(wgsl.find("  var t0: f32 = (*x0).x + (*x1).x;") != std::string::npos);
  CHECK(wgsl.find("  (*x0) = vec2<f32>(t0, (*x0).y);") != std::string::npos);
  CHECK(wgsl.find("fn flip(x_in: vec2<f32>, mirrored: bool) -> vec2<f32> {\n  var x = x_in;") != std::string::npos);
  CHECK(wgsl.find("fn conj_chirp(w: vec2<f32>) -> vec2<f32> { return vec2<f32>(w.x, -w.y); }") != std::string::npos);
  CHECK(fftgen::wgsl::statements("  radix2_fwd(v0, v1);\n", inout) == "  radix2_fwd(&v0, &v1);\n");
}

TEST_CASE("wgsl: what WebGPU does not offer is refused with the reason") {
  CHECK_THAT(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "h", "shape": [256], "precision": "fp16"}]})"),
             Catch::Contains("field 'precision'") && Catch::Contains("shader-f16") && Catch::Contains("drop wgsl"));
  CHECK_THAT(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "s", "shape": [256], "shared_memory_bytes": 32768}]})"),
             Catch::Contains("field 'shared_memory_bytes'") && Catch::Contains("16384"));
  CHECK_THAT(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "w", "shape": [4096], "workgroup_size": 512}]})"),
             Catch::Contains("field 'workgroup_size'") && Catch::Contains("256"));
  CHECK_THAT(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "c", "shape": [65536], "pass_sync": "counters"}]})"),
             Catch::Contains("field 'pass_sync'") && Catch::Contains("progress"));
  // The same plans without wgsl are accepted.
  CHECK(refusal(R"({"kernels": [{"name": "s", "shape": [256], "shared_memory_bytes": 32768}]})").empty());
  CHECK(refusal(R"({"targets": ["spirv"], "kernels": [{"name": "h", "shape": [256], "precision": "fp16"}]})").empty());
}

TEST_CASE("wgsl: kernels are planned within WebGPU's default limits, for every target") {
  const fftgen::Plan plan = fftgen::parse_plan(
      R"({"targets": ["wgsl", "spirv"], "kernels": [
        {"name": "a", "shape": [[4096], [16384], [65536], [1009], [1000]]},
        {"name": "r", "shape": [[8192], [1024, 1024]], "transform": "r2c"},
        {"name": "d", "shape": [[2048, 2048], [256, 256]]},
        {"name": "conv", "convolution": {"image": [256, 256], "filter": [31, 31], "channels": 3, "mode": "same"}}]})",
      "test.json");
  for (const fftgen::KernelSpec& spec : plan.kernels) {
    INFO(spec.name);
    CHECK(spec.shared_memory_bytes == fftgen::kWebGpuLimits.shared_memory_bytes);
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    CHECK(!program.forward_counters);
    for (const auto* passes : {&program.forward, &program.inverse})
      for (const fftgen::PassProgram& pass : *passes) {
        CHECK(pass.fft.shared_bytes() <= fftgen::kWebGpuLimits.shared_memory_bytes);
        CHECK(pass.fft.workgroup_size <= fftgen::kWebGpuLimits.invocations);
      }
  }
}

TEST_CASE("wgsl: files and manifest fields") {
  const fftgen::Plan plan = fftgen::parse_plan(
      R"({"targets": ["wgsl"], "kernels": [{"name": "m", "shape": [65536]}, {"name": "t", "shape": [64, 64]}]})",
      "test.json");
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "test.json");
  std::map<std::string, std::string> files;
  for (const auto& f : out.files) files[f.name] = f.bytes;
  size_t wgsl = 0;
  for (const auto& kernel : out.manifest["kernels"])
    for (const char* direction : {"forward", "inverse"})
      for (const auto& pass : kernel[direction]) {
        const std::string name = pass["files"]["wgsl"];
        REQUIRE(files.count(name));
        const std::string& text = files[name];
        ++wgsl;
        INFO(name);
        CHECK(pass["entry_point"]["wgsl"] == "main");
        CHECK(pass["push_constant_binding"]["wgsl"]["binding"] == 3);
        CHECK(text.find("@group(0) @binding(3) var<uniform> params: Params;") != std::string::npos);
        CHECK(text.find(fmt::format("@compute @workgroup_size({}, 1, 1)", pass["local_size"][0].get<int>())) !=
              std::string::npos);
        // Nothing of GLSL's spelling is left in the code (comments aside).
        const std::string code = std::regex_replace(text, std::regex("//[^\n]*"), "");
        for (const char* glsl : {"vec2(", "uint ", "float ", "barrier()", "inout", " ? ", "gl_", "layout("})
          CHECK(code.find(glsl) == std::string::npos);
        // Every binding the shader declares is in the manifest, at its wgsl_binding.
        for (const auto& b : pass["bindings"]) {
          const std::string at = fmt::format("@binding({})", b["wgsl_binding"].get<int>());
          CHECK(text.find(at) != std::string::npos);
          CHECK(b["wgsl_group"] == 0);
        }
        // A pass that reads the buffer it writes declares it once (WebGPU forbids aliased writable bindings).
        if (pass["bindings"][0]["role"] == pass["bindings"][1]["role"]) {
          CHECK(pass["bindings"][0]["wgsl_binding"] == 1);
          CHECK(text.find("@binding(0)") == std::string::npos);
        }
      }
  CHECK(wgsl == 6);  // 2 passes each way for 65536 at 16 KB (one is in place), 1 each way for 64 x 64
}

TEST_CASE("wgsl: image kernels bind storage textures, read-only and write-only, described in the manifest") {
  const fftgen::Plan plan = fftgen::parse_plan(
      R"({"targets": ["wgsl"], "kernels": [
        {"name": "t", "shape": [32, 64], "io": "image", "image_format": ["rg32f", "rgba32f", "rgba16f"]},
        {"name": "r", "shape": [512], "transform": "r2c", "io": "image"},
        {"name": "c", "io": "image", "convolution": {"image": [24, 40], "filter": [5, 7], "channels": 1}}]})",
      "test.json");
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "test.json");
  std::map<std::string, std::string> files;
  for (const auto& f : out.files) files[f.name] = f.bytes;
  std::map<std::string, int> formats;
  for (const auto& kernel : out.manifest["kernels"])
    for (const char* direction : {"forward", "inverse"})
      for (const auto& pass : kernel.value(direction, nlohmann::json::array()))
        for (const auto& b : pass["bindings"]) {
          if (b.value("resource", "") != "storage_image") continue;
          INFO(kernel["name"] << " " << pass["name"] << " binding " << b["binding"]);
          const bool write = b["access"] == "write";
          const std::string format = b["wgsl_format"];
          ++formats[format];
          CHECK(b["wgsl_access"] == (write ? "write-only" : "read-only"));
          const std::string type = fmt::format("texture_storage_2d<{}, {}>", format, write ? "write" : "read");
          CHECK(b["wgsl_type"] == type);
          CHECK(files.at(pass["files"]["wgsl"]).find(fmt::format("@group(0) @binding({}) var {}: {};",
                                                                 b["wgsl_binding"].get<int>(),
                                                                 write ? "dst" : "src", type)) != std::string::npos);
        }
  CHECK(formats == std::map<std::string, int>{{"rg32float", 6}, {"rgba32float", 4}, {"rgba16float", 4}, {"r32float", 4}});
}

TEST_CASE("wgsl: image kernels wider than WebGPU's default texture size are refused") {
  CHECK_THAT(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "w", "shape": [16384], "io": "image"}]})"),
             Catch::Contains("field 'shape'") && Catch::Contains("N = 16384 is wider than") &&
                 Catch::Contains("maxTextureDimension2D (8192") && Catch::Contains("drop wgsl"));
  CHECK_THAT(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "r", "shape": [10000], "transform": "r2c",
                         "io": "image"}]})"),
             Catch::Contains("N = 10000 is wider than"));
  // 8192 texels fit; buffers of any length, and other targets' textures up to 16384, are not limited.
  CHECK(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "w", "shape": [8192], "io": "image"}]})").empty());
  CHECK(refusal(R"({"targets": ["wgsl"], "kernels": [{"name": "b", "shape": [16384]}]})").empty());
  CHECK(refusal(R"({"targets": ["spirv"], "kernels": [{"name": "w", "shape": [16384], "io": "image"}]})").empty());
}
