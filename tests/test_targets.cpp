// Every target's rules, checked on the generated text of test plans (docs/targets.md):
//  - D3D12 and Metal: at most 32 KB of groupshared / threadgroup memory per workgroup; a kernel
//    whose Vulkan passes use more gets HLSL and MSL laid out within 32 KB, and the manifest states
//    that layout (local size, dispatch, shared memory) per target;
//  - D3D12: no resource is bound as an SRV and a UAV in one dispatch (a pass that reads the
//    buffer it writes binds two UAVs);
//  - the manifest's HLSL registers and types and Metal buffer indices are the ones the text
//    declares, and the push constants are the one cbuffer without a register / [[buffer(3)]].
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <string>

#include "fftgen/compile.hpp"
#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"

namespace {

using json = nlohmann::ordered_json;

std::string file_text(const fftgen::GeneratedOutput& out, const std::string& name) {
  for (const auto& f : out.files)
    if (f.name == name) return f.bytes;
  FAIL("no generated file " << name);
  return {};
}

// Bytes of every `groupshared` (HLSL) or `threadgroup` array (MSL) declaration of a shader.
uint64_t shared_bytes(const std::string& text, const std::string& keyword) {
  static const std::map<std::string, uint64_t> sizes{{"float", 4}, {"float2", 8}, {"uint", 4}};
  const std::regex decl(keyword + R"(\s+(float2|float|uint)\s+\w+\[(\d+)\];)");
  uint64_t bytes = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it)
    bytes += sizes.at((*it)[1].str()) * std::stoull((*it)[2].str());
  return bytes;
}

// HLSL resources: name -> (type, register).
std::map<std::string, std::pair<std::string, std::string>> hlsl_resources(const std::string& text) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  const std::regex decl(R"(((RW)?ByteAddressBuffer|RWTexture2D<\w+>)\s+(\w+)\s*:\s*register\((\w+)\);)");
  for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it)
    out[(*it)[3].str()] = {(*it)[1].str(), (*it)[4].str()};
  return out;
}

// Checks every pass of the plan; returns how many storage-image bindings it met. `compile_hlsl`:
// also compile each pass's HLSL back to SPIR-V.
int check_kernels(const std::string& plan_text, bool compile_hlsl = false) {
  fftgen::Plan plan = fftgen::parse_plan(plan_text, "targets.json");
  const auto out = fftgen::generate(plan, "targets.json");
  const json& manifest = out.manifest;
  int checked = 0, images = 0;
  for (const auto& kernel : manifest["kernels"])
    for (const char* direction : {"forward", "inverse"}) {
      if (!kernel.contains(direction)) continue;
      for (const auto& pass : kernel[direction]) {
        const std::string name = kernel["name"].get<std::string>() + "." + pass["name"].get<std::string>();
        INFO(name);
        const std::string hlsl = file_text(out, pass["files"]["hlsl"]);
        const std::string msl = file_text(out, pass["files"]["msl"]);
        // The layout the text targets have: the pass's own, or the per-target one.
        const json& hlsl_layout = pass.contains("targets") ? pass["targets"]["hlsl"] : pass;
        const json& msl_layout = pass.contains("targets") ? pass["targets"]["msl"] : pass;
        CHECK(shared_bytes(hlsl, "groupshared") <= 32768);
        CHECK(shared_bytes(msl, "threadgroup") <= 32768);
        CHECK(shared_bytes(hlsl, "groupshared") == hlsl_layout["shared_memory_bytes"].get<uint64_t>());
        CHECK(shared_bytes(msl, "threadgroup") == msl_layout["shared_memory_bytes"].get<uint64_t>());
        const std::string threads = std::to_string(hlsl_layout["local_size"][0].get<uint32_t>());
        CHECK(hlsl.find("[numthreads(" + threads + ", 1, 1)]") != std::string::npos);
        CHECK(msl.find("gl_WorkGroupSize [[maybe_unused]] = uint3(" +
                       std::to_string(msl_layout["local_size"][0].get<uint32_t>()) + "u, 1u, 1u)") !=
              std::string::npos);
        // Registers and types as the manifest says; no SRV and UAV of one buffer in a dispatch.
        const auto resources = hlsl_resources(hlsl);
        std::map<std::string, std::string> role_view;  // role -> t or u
        for (const auto& b : pass["bindings"]) {
          const std::string slot = b["binding"] == 0 ? "src" : b["binding"] == 1 ? "dst" : b["binding"] == 4 ? "filt" : "tw";
          REQUIRE(resources.count(slot) == 1);
          CHECK(resources.at(slot).second == b["hlsl_register"].get<std::string>());
          CHECK(resources.at(slot).first == b["hlsl_type"].get<std::string>());
          CHECK(b["hlsl_space"] == "space0");
          const std::string view = b["hlsl_register"].get<std::string>().substr(0, 1);
          const std::string role = b["role"];
          if (role_view.count(role)) CHECK(role_view[role] == view);
          role_view[role] = view;
          // A storage image (io image) is a texture: [[texture(N)]], read-only or written as declared.
          if (b.contains("resource")) {
            CHECK(b["resource"] == "storage_image");
            CHECK(!b.contains("msl_buffer"));
            const std::string access = b["access"] == "write" ? "texture2d<float, access::write> " : "texture2d<float> ";
            CHECK(msl.find(access + slot + " [[texture(" + std::to_string(b["msl_texture"].get<uint32_t>()) + ")]]") !=
                  std::string::npos);
            ++images;
            continue;
          }
          CHECK(msl.find(slot + " [[buffer(" + std::to_string(b["msl_buffer"].get<uint32_t>()) + ")]]") !=
                std::string::npos);
        }
        // Image kernels' HLSL compiles with glslang's HLSL front end (as the GPU suite does for all).
        if (compile_hlsl) CHECK_NOTHROW(fftgen::compile_hlsl_to_spirv(hlsl, "main", name));
        CHECK(resources.size() == pass["bindings"].size());
        CHECK(hlsl.find("cbuffer Params\n") != std::string::npos);
        CHECK(msl.find("constant Params& params [[buffer(3)]]") != std::string::npos);
        ++checked;
      }
    }
  CHECK(checked > 0);
  return images;
}

}  // namespace

TEST_CASE("HLSL and MSL keep D3D12's and Metal's rules on 1D, 2D and real kernels", "[targets]") {
  // In-place passes (the last pass of 65536 and 2^20, 2D column passes), 2D r2c/c2r (scratch), pairs.
  check_kernels(R"({"kernels": [
    {"name": "p", "shape": [[64], [4096], [65536], [1048576]]},
    {"name": "img", "shape": [[64, 64], [4096, 8]], "transform": ["c2c", "r2c"]},
    {"name": "pair", "shape": [1024], "transform": "r2c_pair"},
    {"name": "half", "shape": [[1024], [65536], [64, 64]], "transform": ["c2c", "r2c"], "precision": "fp16"},
    {"name": "conv", "convolution": {"image": [100, 60], "filter": [29, 5, 3], "channels": 3}},
    {"name": "conv_rgb", "convolution": {"image": [100, 60], "filter": [29, 5], "channels": 3}},
    {"name": "conv_rgba", "convolution": {"image": [100, 60], "filter": [29, 5], "channels": 4}}
  ]})");
}

TEST_CASE("kernels planned beyond 32 KB of shared memory get HLSL and MSL laid out within it", "[targets]") {
  check_kernels(R"({"kernels": [
    {"name": "big", "shape": [[256], [1024], [4096], [16384], [4194304]], "shared_memory_bytes": 49152},
    {"name": "img", "shape": [1024, 1024], "transform": "r2c", "shared_memory_bytes": 65536},
    {"name": "vol", "shape": [16, 256, 512], "shared_memory_bytes": 49152}
  ]})");
  // The Vulkan files keep the larger layout.
  fftgen::Plan plan =
      fftgen::parse_plan(R"({"kernels": [{"name": "big", "shape": [4096], "shared_memory_bytes": 49152}]})", "p.json");
  const auto out = fftgen::generate(plan, "p.json");
  const auto& pass = out.manifest["kernels"][0]["forward"][0];
  CHECK(pass["shared_memory_bytes"].get<uint32_t>() > 32768);
  REQUIRE(pass.contains("targets"));
  CHECK(pass["targets"]["hlsl"]["shared_memory_bytes"].get<uint32_t>() <= 32768);
}

TEST_CASE("a kernel that cannot keep its passes within 32 KB is refused for HLSL and MSL only", "[targets]") {
  // 512 invocations hold 8192 values in 64 KB; within 32 KB that workgroup size cannot work.
  const char* plan_text = R"({"kernels": [{"name": "k", "shape": [8192], "workgroup_size": 512,
                               "shared_memory_bytes": 65536}], "targets": ["spirv", "hlsl"]})";
  fftgen::Plan plan = fftgen::parse_plan(plan_text, "p.json");
  CHECK_THROWS_WITH(fftgen::generate(plan, "p.json"),
                    Catch::Contains("D3D12 and Metal allow 32768") &&
                        Catch::Contains("drop hlsl and msl from the targets"));
  plan.targets = {fftgen::Target::spirv};
  CHECK_NOTHROW(fftgen::generate(plan, "p.json"));
}

TEST_CASE("image kernels: storage images are RWTexture2D in HLSL and texture2d in MSL", "[targets]") {
  // Every format, 1D rows and 2D (one pass and two), c2c and r2c (an r32f side and an rg32f half spectrum).
  const int images = check_kernels(R"({"kernels": [
    {"name": "tex", "shape": [[64, 64], [256, 512]], "io": "image", "image_format": ["rg32f", "rgba32f", "rgba16f"]},
    {"name": "rows", "shape": [1024], "io": "image", "image_format": "rgba32f"},
    {"name": "real", "shape": [[64, 128], [2048]], "transform": "r2c", "io": "image"}
  ]})", true);
  // Two per direction of each kernel: the first pass's input and the last pass's output.
  CHECK(images == 9 * 2 * 2);  // 9 variants
}
