// Every kernel the generator emits, across sizes 2 … 2^24 and every variant axis: SPIR-V passes
// the validator, HLSL compiles back to valid SPIR-V through glslang's HLSL front end, the
// manifest agrees with the files, and small kernels' MSL matches golden files.
//
// Golden files live in tests/golden/. After an intended change to the emitted code, refresh them
// with:  FFTGEN_UPDATE_GOLDEN=1 build/tests/test_emit   (then review the diff before committing).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "fftgen/compile.hpp"
#include "fftgen/divisor.hpp"
#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "golden_support.hpp"

namespace {

std::vector<uint32_t> words_of(const std::string& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

std::map<std::string, std::string> by_name(const fftgen::GeneratedOutput& out) {
  std::map<std::string, std::string> files;
  for (const auto& f : out.files) files[f.name] = f.bytes;
  return files;
}

void check_all_targets(const std::string& plan_text) {
  const fftgen::Plan plan = fftgen::parse_plan(plan_text, "test.json");
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "test.json");
  const auto files = by_name(out);
  size_t spirv = 0, hlsl = 0;
  for (const auto& kernel : out.manifest["kernels"]) {
    for (const char* dir : {"forward", "inverse"}) {
      if (!kernel.contains(dir)) continue;
      for (const auto& pass : kernel[dir]) {
        const std::string spv_name = pass["files"]["spirv"];
        INFO(spv_name);
        REQUIRE(files.count(spv_name));
        CHECK(fftgen::validate_spirv(words_of(files.at(spv_name))).empty());
        ++spirv;
        const std::string hlsl_name = pass["files"]["hlsl"];
        REQUIRE(files.count(hlsl_name));
        const auto round_trip = fftgen::compile_hlsl_to_spirv(files.at(hlsl_name), pass["entry_point"]["hlsl"], hlsl_name);
        CHECK(fftgen::validate_spirv(round_trip).empty());
        ++hlsl;
        REQUIRE(files.count(pass["files"]["msl"].get<std::string>()));
        const std::string& hlsl_text = files.at(hlsl_name);
        const std::string& msl_text = files.at(pass["files"]["msl"].get<std::string>());
        // The manifest's resource mapping is the one the HLSL and MSL actually declare.
        for (const auto& binding : pass["bindings"]) {
          CHECK(binding["element"] == "complex64");
          CHECK(binding["size_rule"].get<std::string>().find("elements") != std::string::npos);
          CHECK(hlsl_text.find("register(" + binding["hlsl_register"].get<std::string>()) != std::string::npos);
          CHECK(msl_text.find("[[buffer(" + std::to_string(binding["msl_buffer"].get<int>()) + ")]]") != std::string::npos);
        }
        CHECK(msl_text.find("& params [[buffer(" +
                            std::to_string(pass["push_constant_binding"]["msl_buffer"].get<int>()) + ")]]") !=
              std::string::npos);
        REQUIRE(files.count(pass["files"]["glsl"].get<std::string>()));
      }
    }
    if (!kernel["twiddles"].is_null()) {
      const std::string tw = kernel["twiddles"]["file"];
      REQUIRE(files.count(tw));
      CHECK(files.at(tw).size() == kernel["twiddles"]["count"].get<size_t>() * 8);
    }
  }
  CHECK(spirv > 0);
  CHECK(spirv == hlsl);
}

// The text of one emitted file (a kernel's pass GLSL, "name.fwd0.comp").
std::string emitted(const fftgen::GeneratedOutput& out, const std::string& file) {
  for (const auto& f : out.files)
    if (f.name == file) return std::string(f.bytes.begin(), f.bytes.end());
  FAIL("no file " << file);
  return std::string();
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("every size 2 … 2^24: SPIR-V validates and HLSL compiles back", "[emit]") {
  std::string kernels;
  for (int log2n = 1; log2n <= 24; ++log2n)
    kernels += (kernels.empty() ? "" : ",") + std::string("{\"name\":\"n") + std::to_string(1 << log2n) +
               "\",\"shape\":[" + std::to_string(1 << log2n) + "]}";
  check_all_targets("{\"kernels\":[" + kernels + "]}");
}

TEST_CASE("3D kernels: SPIR-V validates and HLSL compiles back, Z passes in the manifest", "[emit][3d]") {
  check_all_targets(R"({"kernels":[
    {"name":"vol","shape":[[8,16,32],[5,12,9],[64,64,64]],"index_math":["bitwise","divmod"]},
    {"name":"vol_small","shape":[64,48,32],"shared_memory_bytes":1024,"twiddles":"computed"}
  ]})");
  const fftgen::Plan plan = fftgen::parse_plan(R"({"kernels":[{"name":"v","shape":[8,16,32],"transform":"r2c"}]})");
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "v.json");
  const auto& kernel = out.manifest["kernels"][0];
  CHECK(kernel["shape"].get<std::vector<uint32_t>>() == std::vector<uint32_t>{8, 16, 32});
  REQUIRE(kernel["forward"].size() == 3);
  CHECK(kernel["forward"][0]["axis"] == "x");
  CHECK(kernel["forward"][0]["dispatch"]["batch_scale"] == 8 * 16);
  CHECK(kernel["forward"][1]["axis"] == "y");
  CHECK(kernel["forward"][1]["dispatch"]["batch_scale"] == 8);
  CHECK(kernel["forward"][2]["axis"] == "z");
  CHECK(kernel["forward"][2]["dispatch"]["batch_scale"] == 1);
  CHECK(kernel["inverse"][0]["axis"] == "y");
  CHECK(kernel["inverse"][2]["axis"] == "x");
}

TEST_CASE("every variant axis: index math, twiddles, directions, normalisation, splits", "[emit]") {
  check_all_targets(R"({"kernels":[
    {"name":"axes","shape":[[256],[65536]],"index_math":["bitwise","divmod"],"twiddles":["table","computed"],
     "normalize":["none","inverse","ortho"]},
    {"name":"splits","shape":[4096],"radices":[[4,16,64],[2,2,2,2,2,2,2,2,2,2,2,2],[8,8,8,8],[16,4,64],"auto"],
     "direction":["forward","inverse"]},
    {"name":"wide","shape":[16384],"shared_memory_bytes":[16384,49152],"workgroup_size":["auto",128]}
  ],"hlsl_shader_model":"6.0","msl_version":"2.1"})");
}

TEST_CASE("twiddles auto: the manifest names the source used, and only a table kernel has a file", "[emit]") {
  const fftgen::Plan plan = fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [64],
    "precision": ["fp32", "fp16"], "twiddles": ["auto", "table", "computed"]}], "targets": ["spirv"]})", "test.json");
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "test.json");
  const std::vector<std::string> used{"table", "computed", "table", "table", "computed", "computed"};
  REQUIRE(out.manifest["kernels"].size() == used.size());
  for (size_t i = 0; i < used.size(); ++i) {
    const auto& kernel = out.manifest["kernels"][i];
    INFO(kernel["name"].get<std::string>());
    CHECK(kernel["options"]["twiddles"] == used[i]);
    CHECK(kernel["twiddles"].is_null() == (used[i] == "computed"));
  }
}

TEST_CASE("a stage of few table twiddles loads them before the exchange that precedes it", "[emit]") {
  // 256 = 16 x 16: stage 1's 15 twiddles an invocation are read before exchange 0 -> 1, so their
  // latency overlaps it, and are built by a product tree. 8192 = 16 x 16 x 32 on 256 invocations
  // holds 30 and 31 an invocation: read where used (prefetched, they raised its registers from 117
  // to 167 on an H100), from the table. 16384 = 32 x 16 x 32 on 512 invocations reads them where
  // used by a tree, each twiddle multiplied as soon as it is formed.
  const auto plan = fftgen::parse_plan(R"({"kernels":[
    {"name":"few","shape":[256],"direction":"forward"},
    {"name":"many","shape":[8192],"direction":"forward"},
    {"name":"wide","shape":[16384],"direction":"forward","radices":[32,16,32]},
    {"name":"computed","shape":[256],"direction":"forward","twiddles":"computed"}
  ],"targets":["glsl"]})", "prefetch.json");
  const auto out = fftgen::generate(plan, "prefetch.json");
  auto glsl = [&](const std::string& kernel) { return emitted(out, kernel + ".fwd0.comp"); };
  const std::string few = glsl("few");
  const size_t load = few.find("vec2 w1_0_1 = tw.data["), exchange = few.find("// exchange 0 -> 1");
  REQUIRE(load != std::string::npos);
  REQUIRE(exchange != std::string::npos);
  CHECK(load < exchange);
  CHECK(few.find("twiddle_mul(v1, w1_0_1)") > exchange);
  // Radix 16: W^(hk) for h = 1, 2, 4, 8 from the table, the rest a product tree of them.
  CHECK(few.find("vec2 w1_0_8 = tw.data[") < exchange);
  CHECK(few.find("vec2 w1_0_3 = cmul(w1_0_1, w1_0_2);") < exchange);
  CHECK(few.find("vec2 w1_0_15 = cmul(w1_0_7, w1_0_8);") < exchange);
  CHECK(few.find("vec2 w1_0_15 = tw.data[") == std::string::npos);
  CHECK(glsl("many").find("vec2 w1_") == std::string::npos);
  CHECK(glsl("many").find("vec2 w2_") == std::string::npos);
  CHECK(glsl("many").find("twiddle_mul(v1, tw.data[") != std::string::npos);
  const std::string wide = glsl("wide");
  const size_t late_exchange = wide.find("// exchange 0 -> 1");
  REQUIRE(late_exchange != std::string::npos);
  CHECK(wide.find("vec2 w1_0_1 = tw.data[") > late_exchange);
  CHECK(wide.find("vec2 w1_0_3 = cmul(w1_0_1, w1_0_2);\n  v6 = twiddle_mul(v6, w1_0_3);") > late_exchange);
  CHECK(wide.find("vec2 w2_0_31 = cmul(w2_0_15, w2_0_16);\n  v31 = twiddle_mul(v31, w2_0_31);") != std::string::npos);
  CHECK(wide.find("vec2 w2_0_31 = tw.data[") == std::string::npos);
  CHECK(wide.find("twiddle_mul(v1, tw.data[") == std::string::npos);
  CHECK(glsl("computed").find("vec2 w1_0_1") == std::string::npos);
}

TEST_CASE("an r2c row of 32 invocations or more separates by halves; shorter rows exchange every value", "[emit]") {
  // R2C 1024 as [8, 8, 8] on 64 invocations: values 4..7 go to the partner invocation, which
  // stores X[k] and X[M - k] of its values 0..3, and invocation 0 X[M/2] from its value 4 (no
  // separate Nyquist store). 16384 (256 invocations of 32 values, a split exchange) writes both
  // parts of values 16..31 in one round: two barriers. 256 has 8 invocations a row: every value
  // meets its mirror, as before.
  const auto plan = fftgen::parse_plan(R"({"kernels":[
    {"name":"r1024","shape":[1024],"transform":"r2c","direction":"forward","radices":[8,8,8],"workgroup_size":64},
    {"name":"r16384","shape":[16384],"transform":"r2c","direction":"forward"},
    {"name":"r256","shape":[256],"transform":"r2c","direction":"forward"}
  ],"targets":["glsl"]})", "halves.json");
  const auto out = fftgen::generate(plan, "halves.json");
  auto separation = [&](const std::string& kernel) {
    const std::string text = emitted(out, kernel + ".fwd0.comp");
    const size_t from = text.find("// exchange: "), to = text.rfind("if (in_range)");
    REQUIRE(from != std::string::npos);
    REQUIRE(to > from);
    return text.substr(from);
  };
  const std::string r1024 = separation("r1024");
  CHECK(r1024.find("values E/2.. go to") != std::string::npos);
  CHECK(occurrences(r1024, "] = v") == 4);
  CHECK(r1024.find("] = v4;") != std::string::npos);
  CHECK(r1024.find("] = v3;") == std::string::npos);
  CHECK(occurrences(r1024, "r2c_split(") == 9);  // 4 pairs and X[M/2]
  CHECK(r1024.find("dst.data[dst_mirror] = r2c_split(p0, v0,") != std::string::npos);
  CHECK(r1024.find("r2c_split(v4, v4,") != std::string::npos);
  CHECK(r1024.find("r2c_nyquist") == std::string::npos);
  const std::string r16384 = separation("r16384");
  CHECK(r16384.find("] = v16.x;") != std::string::npos);
  CHECK(r16384.find("] = v16.y;") != std::string::npos);
  CHECK(r16384.find("] = v15.") == std::string::npos);
  CHECK(occurrences(r16384.substr(0, r16384.find("if (in_range)")), "barrier();") == 2);
  const std::string r256 = separation("r256");
  CHECK(r256.find("each value meets its mirror") != std::string::npos);
  CHECK(r256.find("r2c_nyquist") != std::string::npos);
}

TEST_CASE("a c2r row of 32 invocations or more merges by halves; shorter rows load both ends of every value", "[emit]") {
  // The c2r inverse of 1024 on 64 invocations: invocation q merges X[k] and X[M - k] for its
  // values 0..3 (8 loads, not 16), forms Z[M - k] too and sends it through shared memory; its
  // values 4..7 come back from invocation 64 - q (invocation 0's value 4 is Z[M/2], from X[M/2]).
  // 256 (8 invocations a row) merges each value from memory alone.
  const auto plan = fftgen::parse_plan(R"({"kernels":[
    {"name":"r1024","shape":[1024],"transform":"r2c","direction":"inverse","radices":[8,8,8],"workgroup_size":64},
    {"name":"r256","shape":[256],"transform":"r2c","direction":"inverse"}
  ],"targets":["glsl"]})", "merge.json");
  const auto out = fftgen::generate(plan, "merge.json");
  auto glsl = [&](const std::string& kernel) { return emitted(out, kernel + ".inv0.comp"); };
  const std::string r1024 = glsl("r1024");
  const size_t stages = r1024.find("// stage 0");
  REQUIRE(stages != std::string::npos);
  const std::string load = r1024.substr(0, stages);
  CHECK(occurrences(load, "c2r_merge(") == 9 + 1);  // 4 pairs, Z[M/2], and the function itself
  CHECK(occurrences(load, "= src.data[") == 9);
  CHECK(load.find("] = vm3;") != std::string::npos);
  CHECK(load.find("v7 = sh[") != std::string::npos);
  CHECK(load.find("v4 = q == 0u ? v_mid : v4;") != std::string::npos);
  // The first stage's exchange waits for the load's reads of shared memory.
  CHECK(r1024.find("// exchange 0 -> 1\n  memoryBarrierShared();") != std::string::npos);
  const std::string r256 = glsl("r256");
  CHECK(r256.find("vm0") == std::string::npos);
  CHECK(occurrences(r256.substr(0, r256.find("// stage 0")), "c2r_merge(") == 16 + 1);
}

TEST_CASE("MSL and GLSL of small kernels match the golden files", "[emit][golden]") {
  const fftgen::Plan plan = fftgen::parse_plan(R"({"kernels":[
    {"name":"golden8","shape":[8]},
    {"name":"golden64","shape":[64],"index_math":"divmod","twiddles":"computed","normalize":"ortho"},
    {"name":"golden8k","shape":[8192],"direction":"forward","radices":[16,16,32],"shared_memory_bytes":32768},
    {"name":"golden3d","shape":[4,4,8],"direction":"forward"}
  ],"targets":["glsl","msl"]})", "golden.json");
  const auto out = fftgen::generate(plan, "golden.json");
  const size_t compared = fftgen_test::check_golden_files(out, {".metal", ".comp"});
  // golden8k: forward only, one dispatch (split exchange); golden3d: forward only, its planes as
  // grids, then Z
  if (!fftgen_test::updating_golden()) CHECK(compared == 2 * (2 + 2 + 1 + 2));
}

TEST_CASE("in-place kernels' text in every target matches the golden files", "[emit][golden][in_place]") {
  // One data binding, read and written: GLSL binding 1 without readonly/writeonly, one UAV in HLSL,
  // one device buffer in MSL, one read_write storage binding in WGSL. The Vulkan GLSL also declares
  // binding 1 read-only (dst_read) and loads through it (Dialect::read_only_view); the text targets
  // do not.
  const fftgen::Plan plan = fftgen::parse_plan(R"({"kernels":[
    {"name":"golden_in_place16","shape":[16],"placement":"in_place"},
    {"name":"golden_in_place_r2c32","shape":[32],"transform":"r2c","placement":"in_place"}
  ],"targets":["glsl","hlsl","msl","wgsl"]})", "golden.json");
  const auto out = fftgen::generate(plan, "golden.json");
  size_t read_views = 0;
  for (const auto& file : out.files) {
    if (file.name == "manifest.json") continue;
    INFO(file.name);
    CHECK(file.bytes.find("Src") == std::string::npos);  // no binding 0
    const bool vulkan = file.name.size() > 5 && file.name.substr(file.name.size() - 5) == ".comp";
    CHECK((file.bytes.find("readonly buffer DstRead { vec2 data[]; } dst_read;") != std::string::npos) == vulkan);
    CHECK((file.bytes.find("dst_read.data[") != std::string::npos) == vulkan);
    if (vulkan) CHECK(file.bytes.find("= dst.data[") == std::string::npos);
    read_views += vulkan;
  }
  CHECK(read_views == 4);
  const size_t compared = fftgen_test::check_golden_files(out, {".metal", ".comp", ".hlsl", ".wgsl"});
  if (!fftgen_test::updating_golden()) CHECK(compared == 4 * 2 * 2);
}

TEST_CASE("bitwise division by a constant that is not a power of two is exact", "[emit][divisor]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any;
  for (uint32_t d : {3u, 5u, 6u, 7u, 9u, 10u, 11u, 13u, 17u, 33u, 65u, 129u, 257u, 513u, 1025u, 2049u, 4097u, 1000u,
                     1536u, 4095u, 44100u, 123456789u, 0x80000001u, 0xFFFFFFFFu}) {
    const fftgen::Divisor div(d);
    REQUIRE_FALSE(div.power_of_two());
    for (uint64_t x : std::initializer_list<uint64_t>{0, 1, uint64_t{d} - 1, d, uint64_t{d} + 1, 0x7FFFFFFF, 0xFFFFFFFF}) {
      const auto x32 = static_cast<uint32_t>(x);
      INFO("x = " << x32 << ", d = " << d);
      CHECK(div.divide(x32) == x32 / d);
    }
    for (int i = 0; i < 20000; ++i) {
      const uint32_t x = any(rng);
      INFO("x = " << x << ", d = " << d);
      CHECK(div.divide(x) == x / d);
    }
  }
  // The 16-bit mulhi against a 64-bit product.
  for (int i = 0; i < 20000; ++i) {
    const uint32_t a = any(rng), b = any(rng);
    CHECK(fftgen::Divisor::mulhi(a, b) == static_cast<uint32_t>((uint64_t{a} * b) >> 32));
  }
}
