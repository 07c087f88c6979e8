// Plan parser: defaults, every field, list expansion and variant names, and every error class.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

using fftgen::parse_plan;
using fftgen::Plan;
using fftgen::PlanError;
using json = nlohmann::json;

namespace {

std::vector<std::string> names_of(const Plan& plan) {
  std::vector<std::string> out;
  for (const auto& k : plan.kernels) out.push_back(k.name);
  return out;
}

// The PlanError message for a plan that must be rejected; fails the test if it is accepted.
std::string error_of(const std::string& text, const std::string& source = "plan.json") {
  try {
    parse_plan(text, source);
  } catch (const PlanError& e) {
    return e.what();
  }
  FAIL("plan was accepted: " << text);
  return {};
}

std::string error_of_kernel(const std::string& kernel_fields, const std::string& top = "") {
  return error_of("{" + top + "\"kernels\": [{\"name\": \"fft1k\", \"shape\": [1024]" +
                  (kernel_fields.empty() ? "" : ", " + kernel_fields) + "}]}");
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("a minimal kernel gets every default", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft1k", "shape": [1024]}]})");
  REQUIRE(plan.kernels.size() == 1);
  const auto& k = plan.kernels[0];
  CHECK(k.name == "fft1k");
  CHECK(k.plan_name == "fft1k");
  CHECK(k.shape == std::vector<uint32_t>{1024});
  CHECK(k.n() == 1024);
  CHECK(k.direction == fftgen::DirectionSet::both);
  CHECK(k.normalize == fftgen::Normalize::inverse);
  CHECK(k.radices.empty());
  CHECK(k.index_math == fftgen::IndexMath::bitwise);
  CHECK(k.twiddles == fftgen::TwiddleSource::automatic);
  CHECK(k.twiddle_source() == fftgen::TwiddleSource::table);
  CHECK(k.workgroup_size == 0);
  CHECK(k.precision == fftgen::Precision::fp32);
  CHECK(k.shared_memory_bytes == 32768);
  using fftgen::Target;
  CHECK(plan.targets == std::vector<Target>{Target::spirv, Target::glsl, Target::hlsl, Target::msl});
  CHECK(plan.cross.hlsl_shader_model == 50);
  CHECK(plan.cross.msl_version_major == 2);
  CHECK(plan.cross.msl_version_minor == 0);
}

TEST_CASE("every field is parsed", "[plan]") {
  Plan plan = parse_plan(R"({
    "$schema": "https://example.invalid/fftgen-plan.json",
    "description": "everything set",
    "targets": ["msl", "spirv"],
    "hlsl_shader_model": "6.6",
    "msl_version": "3.0",
    "kernels": [{
      "name": "Fft_4096", "shape": [4096], "direction": "inverse", "normalize": "ortho",
      "radices": [16, 16, 16], "index_math": "divmod", "twiddles": "computed",
      "workgroup_size": 256, "precision": "fp32", "shared_memory_bytes": 49152
    }]})");
  REQUIRE(plan.kernels.size() == 1);
  const auto& k = plan.kernels[0];
  CHECK(k.name == "Fft_4096");
  CHECK(k.n() == 4096);
  CHECK(k.direction == fftgen::DirectionSet::inverse);
  CHECK(k.normalize == fftgen::Normalize::ortho);
  CHECK(k.radices == std::vector<uint32_t>{16, 16, 16});
  CHECK(k.index_math == fftgen::IndexMath::divmod);
  CHECK(k.twiddles == fftgen::TwiddleSource::computed);
  CHECK(k.workgroup_size == 256);
  CHECK(k.shared_memory_bytes == 49152);
  // Explicit targets keep the plan's order.
  CHECK(plan.targets == std::vector<fftgen::Target>{fftgen::Target::msl, fftgen::Target::spirv});
  CHECK(plan.cross.hlsl_shader_model == 66);
  CHECK(plan.cross.msl_version_major == 3);
  CHECK(plan.cross.msl_version_minor == 0);
}

TEST_CASE("cross-compile versions map to numbers", "[plan]") {
  auto sm = [](const std::string& v) {
    return parse_plan(R"({"hlsl_shader_model": ")" + v + R"(", "kernels": [{"name": "a", "shape": [8]}]})")
        .cross.hlsl_shader_model;
  };
  CHECK(sm("5.0") == 50);
  CHECK(sm("5.1") == 51);
  CHECK(sm("6.0") == 60);
  CHECK(sm("6.3") == 63);
  Plan plan = parse_plan(R"({"msl_version": "2.4", "kernels": [{"name": "a", "shape": [8]}]})");
  CHECK(plan.cross.msl_version_major == 2);
  CHECK(plan.cross.msl_version_minor == 4);
}

TEST_CASE("the extremes of N and workgroup_size are accepted", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [
    {"name": "smallest", "shape": [2], "workgroup_size": 1, "shared_memory_bytes": 1024},
    {"name": "largest", "shape": [16777216], "workgroup_size": 1024, "shared_memory_bytes": 65536},
    {"name": "explicit_auto", "shape": [64], "radices": "auto", "workgroup_size": "auto"}]})");
  REQUIRE(plan.kernels.size() == 3);
  CHECK(plan.kernels[0].n() == 2);
  CHECK(plan.kernels[0].workgroup_size == 1);
  CHECK(plan.kernels[1].n() == 16777216);
  CHECK(plan.kernels[1].workgroup_size == 1024);
  CHECK(plan.kernels[1].shared_memory_bytes == 65536);
  CHECK(plan.kernels[2].radices.empty());
  CHECK(plan.kernels[2].workgroup_size == 0);
}

TEST_CASE("twiddles auto: the table for fp32, computed for fp16 storage; an explicit value stays", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "k", "shape": [1024], "precision": ["fp32", "fp16"],
    "twiddles": ["auto", "table", "computed"]}]})");
  REQUIRE(names_of(plan) == std::vector<std::string>{"k__auto__fp32", "k__auto__fp16", "k__table__fp32",
                                                     "k__table__fp16", "k__computed__fp32", "k__computed__fp16"});
  using fftgen::TwiddleSource;
  const std::vector<TwiddleSource> used{TwiddleSource::table, TwiddleSource::computed, TwiddleSource::table,
                                        TwiddleSource::table, TwiddleSource::computed, TwiddleSource::computed};
  for (size_t i = 0; i < used.size(); ++i) {
    INFO(plan.kernels[i].name);
    CHECK(plan.kernels[i].twiddle_source() == used[i]);
  }
}

TEST_CASE("list-valued fields expand to every combination, first field slowest", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft4096", "shape": [4096],
    "index_math": ["bitwise", "divmod"], "twiddles": ["table", "computed"]}]})");
  CHECK(names_of(plan) == std::vector<std::string>{"fft4096__bitwise__table", "fft4096__bitwise__computed",
                                                   "fft4096__divmod__table", "fft4096__divmod__computed"});
  for (const auto& k : plan.kernels) CHECK(k.plan_name == "fft4096");
  CHECK(plan.kernels[1].index_math == fftgen::IndexMath::bitwise);
  CHECK(plan.kernels[1].twiddles == fftgen::TwiddleSource::computed);
  CHECK(plan.kernels[2].index_math == fftgen::IndexMath::divmod);
  CHECK(plan.kernels[2].twiddles == fftgen::TwiddleSource::table);
}

TEST_CASE("every field's suffix, in field order", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "k",
    "shared_memory_bytes": [16384, 49152], "precision": ["fp32"],
    "workgroup_size": [256, "auto"], "radices": [[8, 8], [4, 4, 4], "auto"],
    "normalize": ["none", "ortho"], "direction": ["forward", "inverse", "both"],
    "shape": [[64]], "index_math": ["divmod", "bitwise"], "twiddles": ["computed", "table"]}]})");
  REQUIRE(plan.kernels.size() == 3 * 2 * 3 * 2 * 2 * 2 * 2);
  CHECK(plan.kernels.front().name == "k__forward__none__r8x8__divmod__computed__wg256__smem16384");
  CHECK(plan.kernels.back().name == "k__both__ortho__rauto__bitwise__table__wgauto__smem49152");
  CHECK(plan.kernels[1].name == "k__forward__none__r8x8__divmod__computed__wg256__smem49152");
  CHECK(plan.kernels[2].name == "k__forward__none__r8x8__divmod__computed__wgauto__smem16384");
  CHECK(plan.kernels.front().radices == std::vector<uint32_t>{8, 8});
  CHECK(plan.kernels.front().shared_memory_bytes == 16384);
  CHECK(plan.kernels.back().radices.empty());
  CHECK(plan.kernels.back().workgroup_size == 0);
  CHECK(plan.kernels.back().direction == fftgen::DirectionSet::both);
}

TEST_CASE("intermediate_layout: auto by default, a variant axis like the others", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "k", "shape": [1024, 1024],
    "intermediate_layout": ["rows", "column_tiles", "auto"]}]})");
  REQUIRE(plan.kernels.size() == 3);
  CHECK(plan.kernels[0].name == "k__rows");
  CHECK(plan.kernels[0].intermediate_layout == fftgen::IntermediateLayout::rows);
  CHECK(plan.kernels[1].name == "k__column_tiles");
  CHECK(plan.kernels[1].intermediate_layout == fftgen::IntermediateLayout::column_tiles);
  CHECK(plan.kernels[2].intermediate_layout == fftgen::IntermediateLayout::automatic);
  CHECK(parse_plan(R"({"kernels": [{"name": "k", "shape": [64, 64]}]})").kernels[0].intermediate_layout ==
        fftgen::IntermediateLayout::automatic);
}

TEST_CASE("pass_sync and counter_lag: auto by default, variant axes, and the targets decide auto", "[plan]") {
  Plan plan = parse_plan(R"({"targets": ["spirv", "hlsl"], "kernels": [
    {"name": "k", "shape": [32768], "pass_sync": ["dispatch", "counters"]},
    {"name": "l", "shape": [32768], "pass_sync": "counters", "counter_lag": ["auto", 4]}]})");
  REQUIRE(plan.kernels.size() == 4);
  CHECK(plan.kernels[0].name == "k__dispatch");
  CHECK(plan.kernels[0].pass_sync == fftgen::PassSync::dispatch);
  CHECK(plan.kernels[1].name == "k__counters");
  CHECK(plan.kernels[1].pass_sync == fftgen::PassSync::counters);
  CHECK(plan.kernels[2].name == "l__lagauto");
  CHECK(plan.kernels[3].name == "l__lag4");
  CHECK(plan.kernels[3].counter_lag == 4);
  CHECK_FALSE(plan.kernels[3].targets_metal);
  CHECK(plan.kernels[3].targets_hlsl_msl);  // hlsl's 32 KB
  CHECK(fftgen::make_program(plan.kernels[3]).forward_counters->lag == 4);
  CHECK_FALSE(fftgen::make_program(plan.kernels[0]).forward_counters);
  const auto defaults = parse_plan(R"({"kernels": [{"name": "k", "shape": [32768]}]})").kernels[0];
  CHECK(defaults.pass_sync == fftgen::PassSync::automatic);
  CHECK(defaults.counter_lag == 0);
  // The default targets include msl: auto keeps a dispatch per pass there.
  CHECK(defaults.targets_metal);
  CHECK_FALSE(fftgen::make_program(defaults).forward_counters);
  const auto vulkan = parse_plan(R"({"targets": ["spirv"], "kernels": [{"name": "k", "shape": [32768]}]})").kernels[0];
  CHECK(fftgen::make_program(vulkan).forward_counters);
  CHECK(defaults.targets_hlsl_msl);
  CHECK_FALSE(vulkan.targets_hlsl_msl);
}

TEST_CASE("placement: out_of_place by default, a variant axis, and in-place passes bind one data buffer", "[plan]") {
  Plan plan = parse_plan(R"({"targets": ["spirv"], "kernels": [
    {"name": "k", "shape": [65536], "placement": ["out_of_place", "in_place"], "pass_sync": "dispatch"},
    {"name": "r", "shape": [1024], "transform": "r2c", "placement": "in_place"}]})");
  REQUIRE(plan.kernels.size() == 3);
  CHECK(plan.kernels[0].name == "k__out_of_place");
  CHECK(plan.kernels[1].name == "k__in_place");
  CHECK(plan.kernels[1].placement == fftgen::Placement::in_place);
  CHECK(parse_plan(R"({"kernels": [{"name": "k", "shape": [64]}]})").kernels[0].placement ==
        fftgen::Placement::out_of_place);
  // Two passes: the transposed first pass cannot write where others read, so it goes through scratch.
  const fftgen::KernelProgram two = fftgen::make_program(plan.kernels[1]);
  REQUIRE(two.forward.size() == 2);
  CHECK(two.forward[0].bindings[0].role == fftgen::BufferRole::output);
  CHECK(two.forward[0].bindings[1].role == fftgen::BufferRole::scratch);
  CHECK(two.forward[1].bindings[0].role == fftgen::BufferRole::scratch);
  CHECK(two.forward[1].bindings[1].role == fftgen::BufferRole::output);
  CHECK(two.scratch_elements == 65536);
  // One pass: one binding, read and written; the reals padded to 2 (N/2 + 1).
  const fftgen::KernelProgram one = fftgen::make_program(plan.kernels[2]);
  CHECK(one.forward_input.elements == 1026);
  for (const auto* passes : {&one.forward, &one.inverse}) {
    REQUIRE(passes->size() == 1);
    const fftgen::PassProgram& pass = passes->front();
    CHECK(pass.bindings[0].slot.binding == 1);
    CHECK(pass.bindings[0].access() == fftgen::Access::read_write);
    CHECK(pass.load.view.binding.slot.binding == 1);
    CHECK(pass.bindings[1].role == fftgen::BufferRole::twiddles);
  }
  CHECK_THROWS_WITH(parse_plan(R"({"kernels": [{"name": "k", "shape": [64], "io": "image", "placement": "in_place"}]})"),
                    Catch::Contains("field 'placement': in_place overwrites") && Catch::Contains("io image"));
  CHECK_THROWS_WITH(parse_plan(R"({"kernels": [{"name": "k", "shape": [15], "transform": "r2c", "placement": "in_place"}]})"),
                    Catch::Contains("field 'placement': an r2c kernel computed as a complex transform"));
}

TEST_CASE("a list of shapes adds __n<N>", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft", "shape": [[1024], [2048]], "direction": "forward"}]})");
  CHECK(names_of(plan) == std::vector<std::string>{"fft__n1024", "fft__n2048"});
  CHECK(plan.kernels[1].n() == 2048);
}

TEST_CASE("one-element lists add no suffix", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft", "shape": [[512]], "direction": ["forward"],
    "radices": [[8, 8, 8]], "index_math": ["divmod"], "workgroup_size": [64]}]})");
  REQUIRE(plan.kernels.size() == 1);
  const auto& k = plan.kernels[0];
  CHECK(k.name == "fft");
  CHECK(k.n() == 512);
  CHECK(k.direction == fftgen::DirectionSet::forward);
  CHECK(k.radices == std::vector<uint32_t>{8, 8, 8});
  CHECK(k.index_math == fftgen::IndexMath::divmod);
  CHECK(k.workgroup_size == 64);
}

TEST_CASE("radices: a flat list is one value, a list of lists is several", "[plan]") {
  Plan flat = parse_plan(R"({"kernels": [{"name": "fft", "shape": [1024], "radices": [4, 4, 4, 16]}]})");
  REQUIRE(flat.kernels.size() == 1);
  CHECK(flat.kernels[0].name == "fft");
  CHECK(flat.kernels[0].radices == std::vector<uint32_t>{4, 4, 4, 16});

  Plan listed = parse_plan(
      R"({"kernels": [{"name": "fft", "shape": [1024], "radices": [[8, 8, 16], [4, 4, 4, 16], "auto"]}]})");
  CHECK(names_of(listed) == std::vector<std::string>{"fft__r8x8x16", "fft__r4x4x4x16", "fft__rauto"});
  CHECK(listed.kernels[0].radices == std::vector<uint32_t>{8, 8, 16});
  CHECK(listed.kernels[2].radices.empty());

  // Order is part of the value: [16, 8, 8] is a different decomposition from [8, 8, 16].
  Plan orders = parse_plan(R"({"kernels": [{"name": "fft", "shape": [1024], "radices": [[8, 8, 16], [16, 8, 8]]}]})");
  CHECK(names_of(orders) == std::vector<std::string>{"fft__r8x8x16", "fft__r16x8x8"});
}

TEST_CASE("radices are checked against every shape they combine with", "[plan]") {
  Plan ok = parse_plan(R"({"kernels": [{"name": "fft", "shape": [[1024], [2048]], "radices": ["auto"]}]})");
  CHECK(ok.kernels.size() == 2);
  std::string msg = error_of(R"({"kernels": [{"name": "fft", "shape": [[1024], [2048]], "radices": [4, 4, 4, 16]}]})");
  CHECK_THAT(msg, Catch::Contains("kernel 'fft'") && Catch::Contains("field 'radices'") &&
                      Catch::Contains("N = 2048") && Catch::Contains("fft__n2048"));
}

TEST_CASE("several kernels keep plan order and may share suffix-free names", "[plan]") {
  Plan plan = parse_plan(R"({"kernels": [
    {"name": "b", "shape": [64], "twiddles": ["table", "computed"]},
    {"name": "a", "shape": [128]}]})");
  CHECK(names_of(plan) == std::vector<std::string>{"b__table", "b__computed", "a"});
  CHECK(plan.kernels[2].plan_name == "a");
}

TEST_CASE("parse_plan accepts an already parsed document", "[plan]") {
  json doc = {{"kernels", {{{"name", "fft"}, {"shape", {256}}, {"workgroup_size", 64}}}}};
  Plan plan = parse_plan(doc, "doc");
  REQUIRE(plan.kernels.size() == 1);
  CHECK(plan.kernels[0].n() == 256);
  CHECK(plan.kernels[0].workgroup_size == 64);
  json negative = {{"kernels", {{{"name", "fft"}, {"shape", {-8}}}}}};
  CHECK_THROWS_WITH(parse_plan(negative, "doc"), Catch::Contains("doc: kernel 'fft'") && Catch::Contains("N = -8"));
}

TEST_CASE("error messages name the plan, the kernel, the field and what is allowed", "[plan][errors]") {
  SECTION("unknown enum value") {
    std::string msg = error_of_kernel(R"("index_math": "shift")");
    CHECK(msg == "plan.json: kernel 'fft1k': field 'index_math': unknown value 'shift'; allowed: bitwise, divmod");
  }
  SECTION("enum values inside a list") {
    std::string msg = error_of_kernel(R"("twiddles": ["table", "cordic"])");
    CHECK_THAT(msg, Catch::Contains("kernel 'fft1k'") && Catch::Contains("field 'twiddles'") &&
                        Catch::Contains("'cordic'") && Catch::Contains("allowed: auto, table, computed"));
  }
  SECTION("direction and normalize") {
    CHECK_THAT(error_of_kernel(R"("direction": "backward")"),
               Catch::Contains("field 'direction'") && Catch::Contains("allowed: forward, inverse, both"));
    CHECK_THAT(error_of_kernel(R"("normalize": "unitary")"),
               Catch::Contains("field 'normalize'") && Catch::Contains("allowed: none, inverse, ortho"));
  }
  SECTION("precision") {
    CHECK_THAT(error_of_kernel(R"("precision": "fp8")"),
               Catch::Contains("field 'precision'") && Catch::Contains("unknown value 'fp8'") &&
                   Catch::Contains("allowed: fp32, fp16, fp64"));
  }
  SECTION("N") {
    for (const char* n : {"0", "1", "-8", "2.5", "1099511627776", "33554432", "true", "\"1024\"",
                          "null", "1e3", "1024.0", "18446744073709551615", "18446744073709551616"}) {
      std::string msg = error_of(R"({"kernels": [{"name": "k", "shape": [)" + std::string(n) + "]}]}");
      INFO(n);
      CHECK_THAT(msg, Catch::StartsWith("plan.json: kernel 'k': field 'shape': N") &&
                          Catch::Contains("allowed: an integer from 2 to 16777216 (2^24); a length with a prime "
                                          "factor above 61 runs through Bluestein's algorithm"));
    }
  }
  SECTION("shape forms") {
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": "1024"}]})"),
               Catch::Contains("field 'shape'") && Catch::Contains("must be a list"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": [2, 256, 256, 4]}]})"),
               Catch::Contains("field 'shape'") && Catch::Contains("4 dimensions") &&
                   Catch::Contains("[NZ, NY, NX] are"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": [256, 134], "transform": "r2c", "precision": "fp16"}]})"),
               Catch::Contains("field 'precision': a 2D r2c with a side through Bluestein's algorithm reads its "
                               "rows as reals one by one, which fftgen has in fp32 only (fp16: c2c)"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": [256, 16384]}]})"),
               Catch::Contains("field 'shape': NX = 16384 is too large") &&
                   Catch::Contains("an integer from 2 to 8192 (2^13); a side with a prime factor above 61 runs"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": []}]})"),
               Catch::Contains("field 'shape'") && Catch::Contains("empty"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k"}]})"),
               Catch::Contains("kernel 'k': field 'shape': missing"));
  }
  SECTION("radices") {
    CHECK_THAT(error_of_kernel(R"("radices": [8, 8])"),
               Catch::Contains("field 'radices'") && Catch::Contains("multiply to 64, but N = 1024"));
    for (const char* r : {"[14, 16]", "[1, 1024]", "[128, 8]"})
      CHECK_THAT(error_of_kernel(std::string(R"("radices": )") + r),
                 Catch::Contains("field 'radices'") &&
                     Catch::Contains("allowed: 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 19, 23, 29, 31, 32, 37, 41, 43, 47, 53, 59, 61, 64"));
    CHECK_THAT(error_of_kernel(R"("radices": [])"), Catch::Contains("field 'radices'") && Catch::Contains("empty"));
    CHECK_THAT(error_of_kernel(R"("radices": "fast")"),
               Catch::Contains("'fast'") && Catch::Contains("\"auto\" or a list of radices"));
    // Sixty-four radices of 64 would overflow a 64-bit product; it must still be a clean error.
    std::string many = "[64";
    for (int i = 0; i < 63; ++i) many += ", 64";
    CHECK_THAT(error_of_kernel(R"("radices": )" + many + "]"), Catch::Contains("or more, but N = 1024"));
  }
  SECTION("workgroup_size and shared_memory_bytes") {
    for (const char* w : {"0", "100", "4096", "\"big\"", "-64", "true"})
      CHECK_THAT(error_of_kernel(std::string(R"("workgroup_size": )") + w),
                 Catch::Contains("field 'workgroup_size'") &&
                     Catch::Contains("allowed: \"auto\" or a power of two from 1 to 1024"));
    for (const char* s : {"512", "131072", "\"32k\""})
      CHECK_THAT(error_of_kernel(std::string(R"("shared_memory_bytes": )") + s),
                 Catch::Contains("field 'shared_memory_bytes'") && Catch::Contains("from 1024 to 65536"));
  }
  SECTION("value lists") {
    CHECK_THAT(error_of_kernel(R"("index_math": [])"),
               Catch::Contains("field 'index_math'") && Catch::Contains("empty") &&
                   Catch::Contains("allowed: bitwise, divmod"));
    CHECK_THAT(error_of_kernel(R"("workgroup_size": [64, 128, 64])"),
               Catch::Contains("field 'workgroup_size'") && Catch::Contains("listed twice"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": [[64], [64]]}]})"),
               Catch::Contains("field 'shape'") && Catch::Contains("listed twice"));
    CHECK_THAT(error_of_kernel(R"("radices": [[4, 4, 4, 16], "auto", [4, 4, 4, 16]])"),
               Catch::Contains("field 'radices'") && Catch::Contains("listed twice"));
  }
  SECTION("names") {
    CHECK_THAT(error_of(R"({"kernels": [{"name": "ok", "shape": [8]}, {"shape": [8]}]})"),
               Catch::Contains("plan.json: kernels[1]: field 'name': missing") && Catch::Contains("A-Z"));
    for (const char* bad : {"", "a/b", "..", "a b", "a.b", "a\\\\b", "caf\u00e9"})
      CHECK_THAT(error_of(R"({"kernels": [{"name": ")" + std::string(bad) + R"(", "shape": [8]}]})"),
                 Catch::Contains("kernels[0]: field 'name'") && Catch::Contains("A-Z, a-z, 0-9 and _"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": ")" + std::string(65, 'x') + R"(", "shape": [8]}]})"),
               Catch::Contains("65 characters"));
    CHECK(parse_plan(R"({"kernels": [{"name": ")" + std::string(64, 'x') + R"(", "shape": [8]}]})")
              .kernels.size() == 1);
    CHECK_THAT(error_of(R"({"kernels": [{"name": "a", "shape": [8]}, {"name": "a", "shape": [16]}]})"),
               Catch::Contains("kernel 'a': field 'name'") && Catch::Contains("kernels[0] and kernels[1]"));
    CHECK_THAT(
        error_of(R"({"kernels": [{"name": "a", "shape": [8], "twiddles": ["table", "computed"]},
                                 {"name": "a__computed", "shape": [8]}]})"),
        Catch::Contains("'a__computed'") && Catch::Contains("kernel 'a'") && Catch::Contains("kernels[0]"));
  }
  SECTION("unknown fields list the known ones and suggest a close match") {
    std::string msg = error_of_kernel(R"("radixes": [8, 8, 16])");
    CHECK_THAT(msg, Catch::Contains("kernel 'fft1k': unknown field 'radixes'") &&
                        Catch::Contains("did you mean 'radices'?") &&
                        Catch::Contains("name, shape, transform, direction, normalize, radices, index_math"));
    CHECK_THAT(error_of_kernel(R"("colour": "blue")"),
               !Catch::Contains("did you mean") && Catch::Contains("unknown field 'colour'"));
    CHECK_THAT(error_of_kernel("", R"("target": ["msl"], )"),
               Catch::Contains("unknown field 'target'") && Catch::Contains("did you mean 'targets'?") &&
                   Catch::Contains("kernels, targets, hlsl_shader_model, msl_version"));
  }
  SECTION("targets") {
    CHECK_THAT(error_of_kernel("", R"("targets": ["spirv", "vulkan"], )"),
               Catch::Contains("field 'targets'") && Catch::Contains("'vulkan'") &&
                   Catch::Contains("allowed: spirv, glsl, hlsl, msl"));
    CHECK_THAT(error_of_kernel("", R"("targets": ["msl", "msl"], )"), Catch::Contains("listed twice"));
    CHECK_THAT(error_of_kernel("", R"("targets": [], )"), Catch::Contains("empty"));
    CHECK_THAT(error_of_kernel("", R"("targets": "msl", )"), Catch::Contains("must be a list"));
  }
  SECTION("top level") {
    CHECK_THAT(error_of("[]"), Catch::Contains("top level must be a JSON object"));
    CHECK_THAT(error_of("{}"), Catch::Contains("field 'kernels': missing"));
    CHECK_THAT(error_of(R"({"kernels": {}})"), Catch::Contains("field 'kernels': must be a list"));
    CHECK_THAT(error_of(R"({"kernels": []})"), Catch::Contains("field 'kernels': the list is empty"));
    CHECK_THAT(error_of(R"({"kernels": [7]})"), Catch::Contains("kernels[0]: a kernel must be an object"));
    CHECK_THAT(error_of_kernel("", R"("hlsl_shader_model": "6.7", )"),
               Catch::Contains("allowed: 5.0, 5.1, 6.0, 6.1, 6.2, 6.3, 6.4, 6.5, 6.6"));
    CHECK_THAT(error_of_kernel("", R"("msl_version": 2.0, )"),
               Catch::Contains("field 'msl_version': must be a string") && Catch::Contains("3.0"));
  }
  SECTION("bad JSON reports the position") {
    CHECK_THAT(error_of("{\"kernels\": [\n  {\"name\": \"a\",, }\n]}"),
               Catch::StartsWith("plan.json: invalid JSON") && Catch::Contains("line 2"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "a", "shape": [8]}]} x)"), Catch::Contains("invalid JSON"));
    CHECK_THAT(error_of(""), Catch::Contains("empty"));
    CHECK_THAT(error_of("  \n"), Catch::Contains("empty"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "a", "shape": [8], "shape": [16]}]})"),
               Catch::Contains("'kernels[0].shape' appears twice"));
  }
}

TEST_CASE("a plan that would expand to too many variants is refused before expanding", "[plan][errors]") {
  json smem = json::array();
  for (int b = 1024; b <= 65536; b += 2) smem.push_back(b);
  json doc = {{"kernels",
               {{{"name", "k"}, {"shape", {8}}, {"direction", {"forward", "inverse", "both"}},
                 {"shared_memory_bytes", smem}}}}};
  CHECK_THROWS_WITH(parse_plan(doc, "big.json"),
                    Catch::Contains("big.json: kernel 'k': the plan expands to 96771 variants up to this kernel "
                                    "(this kernel 96771: 3 direction x 32257 shared_memory_bytes); at most 4096 are "
                                    "allowed"));
}

TEST_CASE("a plan may expand to 4096 variants, not one more, counted over its kernels", "[plan][errors]") {
  STATIC_REQUIRE(fftgen::kMaxPlanVariants == 4096);
  json smem = json::array();
  for (int b = 1024; b < 1024 + 4096; ++b) smem.push_back(b);
  json doc = {{"kernels", {{{"name", "a"}, {"shape", {8}}, {"direction", "forward"}, {"shared_memory_bytes", smem}}}}};
  CHECK(parse_plan(doc, "max.json").kernels.size() == 4096);
  doc["kernels"].push_back({{"name", "b"}, {"shape", {8}}});
  CHECK_THROWS_WITH(parse_plan(doc, "max.json"),
                    Catch::Contains("max.json: kernel 'b': the plan expands to 4097 variants up to this kernel (4096 "
                                    "before it, this kernel 1); at most 4096 are allowed"));
  // The count names each list that multiplies into it.
  json many = json::array();
  for (int b = 1024; b < 1024 + 5000; ++b) many.push_back(b);
  json wide = {{"kernels",
                {{{"name", "w"}, {"shape", {8}}, {"workgroup_size", {1, 2, 4, 8}}, {"shared_memory_bytes", many}}}}};
  CHECK_THROWS_WITH(parse_plan(wide, "wide.json"),
                    Catch::Contains("expands to 20000 variants") && Catch::Contains("4 workgroup_size x 5000"));
}

TEST_CASE("every malformed plan in tests/plans/bad is rejected with the expected message", "[plan][errors]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(FFTGEN_TEST_DIR) / "plans" / "bad";
  std::map<std::string, std::string> expected;
  {
    std::ifstream tsv(dir / "expected.tsv");
    REQUIRE(tsv);
    std::string line;
    while (std::getline(tsv, line)) {
      if (line.empty() || line[0] == '#') continue;
      auto tab = line.find('\t');
      INFO(line);
      REQUIRE(tab != std::string::npos);
      REQUIRE(tab + 1 < line.size());
      CHECK(expected.emplace(line.substr(0, tab), line.substr(tab + 1)).second);
    }
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 32);
  CHECK(files.size() == expected.size());  // and every tsv line names an existing file:
  for (const auto& [file, substring] : expected) {
    INFO(file);
    CHECK(fs::exists(dir / file));
  }
  for (const auto& file : files) {
    INFO(file);
    auto it = expected.find(file);
    REQUIRE(it != expected.end());
    std::string msg = error_of(read_file(dir / file), file);
    INFO(msg);
    CHECK_THAT(msg, Catch::StartsWith(file + ": ") && Catch::Contains(it->second));
  }
}

// --- Wisdom (apply_wisdom) -----------------------------------------------------------------------

namespace {

// A wisdom table in bench/wisdom.py's format from "sizes" entries.
std::string wisdom_of(const std::string& sizes) {
  return R"({"device": "Test GPU", "driver": "1.0", "min_gain": 0.02, "fixed": {"twiddles": "table"},
             "source": "sweep.json", "sizes": [)" + sizes + "]}";
}

const std::string kWisdom4096 =
    R"({"n": 4096, "measured": {"a": 2974.6, "b": 3002.5}, "default_gbps": 2974.6,
        "winner": {"shared_memory_bytes": 49152}, "winner_gbps": 3002.5})";

// The PlanError message apply_wisdom gives; fails the test if the table is accepted.
std::string wisdom_error(const std::string& wisdom,
                         const std::string& plan_text = R"({"kernels": [{"name": "fft4096", "shape": [4096]}]})") {
  Plan plan = parse_plan(plan_text, "plan.json");
  const Plan before = plan;
  try {
    fftgen::apply_wisdom(plan, wisdom, "gpu.json");
  } catch (const PlanError& e) {
    // A failed application leaves the plan as it was.
    REQUIRE(plan.kernels.size() == before.kernels.size());
    for (size_t i = 0; i < plan.kernels.size(); ++i) {
      CHECK(plan.kernels[i].shared_memory_bytes == before.kernels[i].shared_memory_bytes);
      CHECK(plan.kernels[i].radices == before.kernels[i].radices);
      CHECK(plan.kernels[i].workgroup_size == before.kernels[i].workgroup_size);
    }
    return e.what();
  }
  FAIL("wisdom was accepted: " << wisdom);
  return {};
}

}  // namespace

TEST_CASE("the parser records which fields the plan set", "[plan][wisdom]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "a", "shape": [64], "radices": "auto", "twiddles": ["table"]},
                                         {"name": "b", "shape": [64]}]})");
  CHECK(plan.kernels[0].explicit_fields == std::set<std::string>{"name", "shape", "radices", "twiddles"});
  CHECK(plan.kernels[1].explicit_fields == std::set<std::string>{"name", "shape"});
}

TEST_CASE("wisdom sets the fields the plan left out, and reports what it changed", "[plan][wisdom]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft4096", "shape": [4096]}, {"name": "fft64", "shape": [64]}]})");
  auto changes = fftgen::apply_wisdom(plan, wisdom_of(kWisdom4096 + R"(,
      {"n": 64, "measured": {}, "default_gbps": 2955.1, "winner": "defaults"})"), "gpu.json");
  CHECK(plan.kernels[0].shared_memory_bytes == 49152);
  CHECK(plan.kernels[1].shared_memory_bytes == 32768);  // "defaults": no change
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].kernel == "fft4096");
  CHECK(changes[0].entry == 0);
  CHECK(changes[0].fields == std::vector<std::pair<std::string, std::string>>{{"shared_memory_bytes", "49152"}});
  REQUIRE(changes[0].winner_gbps);
  REQUIRE(changes[0].default_gbps);
  CHECK(*changes[0].winner_gbps == 3002.5);
  CHECK(*changes[0].default_gbps == 2974.6);
}

TEST_CASE("a field the plan sets beats wisdom, \"auto\" included", "[plan][wisdom]") {
  Plan plan = parse_plan(R"({"kernels": [
    {"name": "pinned", "shape": [4096], "shared_memory_bytes": 16384},
    {"name": "auto_wg", "shape": [4096], "workgroup_size": "auto", "radices": "auto"},
    {"name": "free", "shape": [4096]}]})");
  auto changes = fftgen::apply_wisdom(plan, wisdom_of(R"({"n": 4096, "default_gbps": 1, "winner_gbps": 2,
      "winner": {"shared_memory_bytes": 49152, "workgroup_size": 256, "radices": [16, 16, 16], "index_math": "divmod"}})"),
                                      "gpu.json");
  const auto& pinned = plan.kernels[0];
  CHECK(pinned.shared_memory_bytes == 16384);
  CHECK(pinned.workgroup_size == 256);
  CHECK(pinned.radices == std::vector<uint32_t>{16, 16, 16});
  const auto& auto_wg = plan.kernels[1];
  CHECK(auto_wg.workgroup_size == 0);
  CHECK(auto_wg.radices.empty());
  CHECK(auto_wg.shared_memory_bytes == 49152);
  CHECK(auto_wg.index_math == fftgen::IndexMath::divmod);
  const auto& free = plan.kernels[2];
  CHECK(free.shared_memory_bytes == 49152);
  CHECK(free.workgroup_size == 256);
  CHECK(free.radices == std::vector<uint32_t>{16, 16, 16});
  REQUIRE(changes.size() == 3);
  using Fields = std::vector<std::pair<std::string, std::string>>;
  CHECK(changes[0].fields == Fields{{"radices", "[16, 16, 16]"}, {"index_math", "divmod"}, {"workgroup_size", "256"}});
  CHECK(changes[1].fields == Fields{{"index_math", "divmod"}, {"shared_memory_bytes", "49152"}});
  CHECK(changes[2].fields == Fields{{"radices", "[16, 16, 16]"}, {"index_math", "divmod"}, {"workgroup_size", "256"},
                                    {"shared_memory_bytes", "49152"}});
}

TEST_CASE("sizes absent from the table are unchanged; sizes the plan does not use are ignored", "[plan][wisdom]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft1024", "shape": [1024]}]})");
  const std::string table = wisdom_of(kWisdom4096 + R"(, {"n": 2, "winner": {"twiddles": "computed"}})");
  auto changes = fftgen::apply_wisdom(plan, table, "gpu.json");
  CHECK(changes.empty());
  CHECK(plan.kernels[0].shared_memory_bytes == 32768);
  CHECK(plan.kernels[0].twiddles == fftgen::TwiddleSource::automatic);
  // An empty table and a winner equal to what the kernel has already change nothing either.
  CHECK(fftgen::apply_wisdom(plan, wisdom_of(""), "gpu.json").empty());
  CHECK(fftgen::apply_wisdom(plan, wisdom_of(R"({"n": 1024, "winner": {"shared_memory_bytes": 32768}})"), "gpu.json")
            .empty());
}

TEST_CASE("wisdom applies to every variant of a list-valued plan", "[plan][wisdom]") {
  Plan plan = parse_plan(R"({"kernels": [
    {"name": "x", "shape": [[1024], [4096]], "index_math": ["bitwise", "divmod"]},
    {"name": "s", "shape": [4096], "shared_memory_bytes": [32768, 16384]}]})");
  auto changes = fftgen::apply_wisdom(plan, wisdom_of(kWisdom4096), "gpu.json");
  REQUIRE(plan.kernels.size() == 6);
  std::map<std::string, uint32_t> smem;
  for (const auto& k : plan.kernels) smem[k.name] = k.shared_memory_bytes;
  CHECK(smem == std::map<std::string, uint32_t>{{"x__n1024__bitwise", 32768}, {"x__n1024__divmod", 32768},
                                                {"x__n4096__bitwise", 49152}, {"x__n4096__divmod", 49152},
                                                {"s__smem32768", 32768}, {"s__smem16384", 16384}});
  std::vector<std::string> changed;
  for (const auto& c : changes) changed.push_back(c.kernel);
  CHECK(changed == std::vector<std::string>{"x__n4096__bitwise", "x__n4096__divmod"});
  CHECK(plan.kernels[3].index_math == fftgen::IndexMath::divmod);  // the plan's list value is kept
}

TEST_CASE("an r2c entry tunes r2c kernels of its N, a c2c entry c2c kernels only", "[plan][wisdom]") {
  Plan plan = parse_plan(R"({"kernels": [
    {"name": "c", "shape": [65536]},
    {"name": "r", "shape": [65536], "transform": "r2c"},
    {"name": "r1024", "shape": [1024], "transform": "r2c"},
    {"name": "pair", "shape": [1024], "transform": "r2c_pair"},
    {"name": "image", "shape": [256, 256], "transform": "r2c"}]})", "plan.json");
  auto changes = fftgen::apply_wisdom(plan, wisdom_of(R"(
    {"n": 65536, "winner": {"workgroup_size": 128}},
    {"n": 65536, "transform": "r2c", "default_gbps": 1615, "winner": {"shared_memory_bytes": 49152}, "winner_gbps": 1910},
    {"n": 1024, "transform": "r2c", "winner": {"radices": [16, 32]}})"), "gpu.json");
  REQUIRE(changes.size() == 3);
  CHECK(changes[0].kernel == "c");
  CHECK(changes[0].entry == 0);
  CHECK(changes[1].kernel == "r");
  CHECK(changes[1].entry == 1);
  CHECK(changes[1].fields == std::vector<std::pair<std::string, std::string>>{{"shared_memory_bytes", "49152"}});
  CHECK(changes[2].kernel == "r1024");
  CHECK(plan.kernels[0].workgroup_size == 128);
  CHECK(plan.kernels[0].shared_memory_bytes == 32768);
  CHECK(plan.kernels[1].shared_memory_bytes == 49152);
  CHECK(plan.kernels[1].workgroup_size == 0);  // "auto": the c2c entry's winner is not the r2c kernel's
  CHECK(plan.kernels[2].radices == std::vector<uint32_t>{16, 32});  // N/2 = 512 points
  CHECK(plan.kernels[3].radices.empty());                           // r2c_pair: the r2c entry does not apply
  CHECK(plan.kernels[4].shared_memory_bytes == 32768);              // 2D: no entry applies
}

TEST_CASE("wisdom keys: an entry matches kernels of its transform, shape, precision and io", "[plan][wisdom][unit]") {
  Plan plan = parse_plan(R"({"kernels": [
    {"name": "grid", "shape": [256, 256]},
    {"name": "grid16", "shape": [256, 256], "precision": "fp16"},
    {"name": "rgrid", "shape": [256, 256], "transform": "r2c"},
    {"name": "tex", "shape": [64, 64], "io": "image"},
    {"name": "buf", "shape": [64, 64]},
    {"name": "line", "shape": [1000]}]})", "plan.json");
  auto changes = fftgen::apply_wisdom(plan, wisdom_of(R"(
    {"shape": [256, 256], "winner": {"workgroup_size": 128}},
    {"shape": [256, 256], "precision": "fp16", "winner": {"twiddles": "table"}},
    {"shape": [64, 64], "io": "image", "winner": {"workgroup_size": 512}},
    {"shape": [1000], "winner": {"radices": [10, 10, 10]}})"), "gpu.json");
  std::vector<std::string> changed;
  for (const auto& c : changes) changed.push_back(c.kernel);
  CHECK(changed == std::vector<std::string>{"grid", "grid16", "tex", "line"});
  CHECK(plan.kernels[0].workgroup_size == 128);
  CHECK(plan.kernels[1].workgroup_size == 0);  // fp16: its own entry
  CHECK(plan.kernels[1].twiddles == fftgen::TwiddleSource::table);
  CHECK(plan.kernels[2].workgroup_size == 0);  // r2c: no entry
  CHECK(plan.kernels[3].workgroup_size == 512);
  CHECK(plan.kernels[4].workgroup_size == 0);  // buffer: the image entry is not its
  CHECK(plan.kernels[5].radices == std::vector<uint32_t>{10, 10, 10});
  // The key spells every part, defaults included, in the table's order.
  CHECK(fftgen::wisdom_key(plan.kernels[1]).dump() ==
        R"({"shape":[256,256],"transform":"c2c","io":"buffer","precision":"fp16"})");
}

TEST_CASE("wisdom keys: a convolution entry tunes both kernels of its convolution", "[plan][wisdom][unit]") {
  Plan plan = parse_plan(R"({"kernels": [
    {"name": "blur", "convolution": {"image": [100, 100], "filter": [9, 9], "channels": 2}},
    {"name": "other", "convolution": {"image": [100, 100], "filter": [9, 9], "channels": 2, "packing": "r2c"}}]})",
                         "plan.json");
  auto changes = fftgen::apply_wisdom(plan, wisdom_of(R"(
    {"convolution": {"image": [100, 100], "filter": [9, 9], "channels": 2}, "winner": {"shared_memory_bytes": 16384}})"),
                                      "gpu.json");
  REQUIRE(changes.size() == 2);  // packing "pairs" (the default for two channels), not "r2c"
  CHECK(changes[0].kernel == "blur__filter");
  CHECK(changes[1].kernel == "blur");
  CHECK(plan.kernels[2].shared_memory_bytes == 32768);
  CHECK(fftgen::wisdom_key(plan.kernels[1]).dump() ==
        R"({"convolution":{"image":[100,100],"filter":[9,9],"channels":2,"mode":"same","packing":"pairs"},"precision":"fp32"})");
}

TEST_CASE("wisdom keys: \"n\" is the older spelling of \"shape\": [N]", "[plan][wisdom][unit]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft4096", "shape": [4096]}]})", "plan.json");
  CHECK(fftgen::apply_wisdom(plan, wisdom_of(R"({"shape": [4096], "winner": {"shared_memory_bytes": 49152}})"),
                             "gpu.json").size() == 1);
  CHECK(plan.kernels[0].shared_memory_bytes == 49152);
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [4096], "winner": "defaults"}, {"n": 4096, "winner": "defaults"})")),
             Catch::Contains("sizes[1] (n = 4096): sizes[0] names the same kind of kernel"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [4096], "n": 4096, "winner": "defaults"})")),
             Catch::Contains("sizes[0]: field 'n': give 'shape' or the older 'n', not both"));
}

TEST_CASE("wisdom keys and runs: malformed entries are one-line errors naming the key", "[plan][wisdom][unit][errors]") {
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [16384, 2], "winner": "defaults"})")),
             Catch::Contains("sizes[0]: field 'shape': NY = 16384 is too large"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [[64], [128]], "winner": "defaults"})")),
             Catch::Contains("sizes[0]: field 'shape': an entry names one kind of kernel, got a list of 2 values"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [64], "precision": "fp8", "winner": "defaults"})")),
             Catch::Contains("sizes[0]: field 'precision': unknown value 'fp8'; allowed: fp32, fp16, fp64"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [64], "io": "texture", "winner": "defaults"})")),
             Catch::Contains("sizes[0]: field 'io': unknown value 'texture'"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [64, 64], "winner": {"radices": [8, 8]}})")),
             Catch::Contains("sizes[0] (shape = [64, 64]): winner: field 'radices': radices set the split of a 1D kernel"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"convolution": {"image": [10, 10], "filter": [3, 3]}, "shape": [16, 16],
                                        "winner": "defaults"})")),
             Catch::Contains("sizes[0]: field 'shape': a convolution entry's plane, transform and io follow from its"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"convolution": {"image": [10, 10], "filter": [3, 3]}, "winner": {"radices": [4, 4]}})")),
             Catch::Contains("sizes[0] (convolution [10, 10] * [3, 3], 1 channel, same): winner: field 'radices': radices "
                             "set the split of a 1D kernel"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"convolution": {"image": [10, 10]}, "winner": "defaults"})")),
             Catch::Contains("sizes[0]: field 'convolution': 'filter' is missing"));
  const std::string run = R"({"device": "GPU", "driver": "1", "date": "2026-11-29T08:00:00Z", "command": "fftgen tune p.json -o w.json"})";
  auto table = [](const std::string& runs, const std::string& entry) {
    return R"({"runs": )" + runs + R"(, "sizes": [)" + entry + "]}";
  };
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft4096", "shape": [4096]}]})", "plan.json");
  CHECK(fftgen::apply_wisdom(plan, table("[" + run + "]", R"({"shape": [4096], "run": 0, "winner": {"workgroup_size": 256}})"),
                             "gpu.json").size() == 1);
  CHECK_THAT(wisdom_error(table("[" + run + "]", R"({"shape": [4096], "winner": "defaults"})")),
             Catch::Contains("sizes[0] (n = 4096): field 'run': missing; every entry of a table with 'runs' names the run"));
  CHECK_THAT(wisdom_error(table("[" + run + "]", R"({"shape": [4096], "run": 1, "winner": "defaults"})")),
             Catch::Contains("field 'run': run = 1 is too large; allowed: an index into 'runs', 0 to 0"));
  CHECK_THAT(wisdom_error(wisdom_of(R"({"shape": [4096], "run": 0, "winner": "defaults"})")),
             Catch::Contains("field 'run': the table has no 'runs' list to refer to"));
  CHECK_THAT(wisdom_error(table(R"([{"device": "GPU", "driver": "1", "date": "today"}])", R"({"shape": [4096], "run": 0, "winner": "defaults"})")),
             Catch::Contains("gpu.json: runs[0]: field 'command': missing"));
  CHECK_THAT(wisdom_error(table(R"({"device": "GPU"})", "")), Catch::Contains("gpu.json: field 'runs': must be a list"));
}

TEST_CASE("set_tunable_field sets what wisdom may set, and nothing else", "[plan][wisdom][unit]") {
  Plan plan = parse_plan(R"({"kernels": [{"name": "fft4096", "shape": [4096]}]})", "plan.json");
  fftgen::KernelSpec k = plan.kernels[0];
  fftgen::set_tunable_field(k, "radices", nlohmann::json::array({16, 16, 16}));
  fftgen::set_tunable_field(k, "workgroup_size", 256);
  CHECK(k.radices == std::vector<uint32_t>{16, 16, 16});
  CHECK(k.workgroup_size == 256);
  CHECK_NOTHROW(fftgen::check_buildable(k));
  CHECK_THROWS_WITH(fftgen::set_tunable_field(k, "direction", "forward"),
                    Catch::Contains("field 'direction' is not one wisdom may set"));
  CHECK_THROWS_WITH(fftgen::set_tunable_field(k, "workgroup_size", 100), Catch::Contains("is not a power of two"));
  fftgen::set_tunable_field(k, "shared_memory_bytes", 1024);
  CHECK_THROWS_AS(fftgen::check_buildable(k), PlanError);
}

TEST_CASE("a malformed wisdom file is a PlanError naming the file and the problem", "[plan][wisdom][errors]") {
  auto starts = [](const std::string& msg) { return msg.rfind("gpu.json: ", 0) == 0; };
  SECTION("not JSON, empty, wrong top level") {
    std::string msg = wisdom_error("{\"sizes\": [");
    CHECK(starts(msg));
    CHECK_THAT(msg, Catch::Contains("invalid JSON"));
    CHECK_THAT(wisdom_error("  \n"), Catch::Contains("gpu.json: the wisdom file is empty"));
    CHECK_THAT(wisdom_error("[1, 2]"), Catch::Contains("gpu.json: the top level of a wisdom file must be a JSON object"));
    CHECK_THAT(wisdom_error(R"({"sizes": [], "sizes": []})"), Catch::Contains("key 'sizes' appears twice"));
  }
  SECTION("no sizes list") {
    CHECK_THAT(wisdom_error(R"({"device": "x"})"), Catch::Contains("gpu.json: field 'sizes': missing"));
    CHECK_THAT(wisdom_error(R"({"sizes": {"n": 4096}})"),
               Catch::Contains("gpu.json: field 'sizes': must be a list, got an object"));
  }
  SECTION("entries") {
    CHECK_THAT(wisdom_error(wisdom_of("4096")), Catch::Contains("gpu.json: sizes[0]: an entry must be an object"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"winner": "defaults"})")),
               Catch::Contains("gpu.json: sizes[0]: field 'shape': missing; every entry names the shape it was measured at"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": "4096", "winner": "defaults"})")),
               Catch::Contains("gpu.json: sizes[0]: field 'n': n must be an integer, got the string '4096'"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096.5, "winner": "defaults"})")),
               Catch::Contains("sizes[0]: field 'n': n = 4096.5 is not an integer"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 1, "winner": "defaults"})")),
               Catch::Contains("sizes[0]: field 'n': n = 1 is too small"));
    CHECK_THAT(wisdom_error(wisdom_of(kWisdom4096 + R"(, {"n": 4096, "winner": "defaults"})")),
               Catch::Contains("gpu.json: sizes[1] (n = 4096): sizes[0] names the same kind of kernel; give each kind once"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "transform": "r2c", "winner": "defaults"},
                                          {"n": 4096, "transform": "r2c", "winner": "defaults"})")),
               Catch::Contains("gpu.json: sizes[1] (r2c, n = 4096): sizes[0] names the same kind of kernel"));
    // c2c and r2c entries of one N are two entries.
    Plan both = parse_plan(R"({"kernels": [{"name": "fft4096", "shape": [4096]}]})", "plan.json");
    CHECK(fftgen::apply_wisdom(both, wisdom_of(kWisdom4096 + R"(, {"n": 4096, "transform": "r2c", "winner": "defaults"})"),
                               "gpu.json").size() == 1);
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "transform": "c2r", "winner": "defaults"})")),
               Catch::Contains("sizes[0]: field 'transform': unknown value 'c2r'") &&
                   Catch::Contains("allowed: c2c, r2c, r2c_pair"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "transform": 2, "winner": "defaults"})")),
               Catch::Contains("sizes[0]: field 'transform': must be a string, got"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "transform": "r2c", "winner": {"radices": [16, 16, 16]}})")),
               Catch::Contains("sizes[0] (r2c, n = 4096): winner: field 'radices': radices [16, 16, 16] multiply to "
                               "4096, but the entry's n = 4096 (r2c: N/2)"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winer": "defaults"})")),
               Catch::Contains("sizes[0]: unknown field 'winer' (did you mean 'winner'?)"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": "defaults", "winner_gbps": "fast"})")),
               Catch::Contains("sizes[0] (n = 4096): field 'winner_gbps': must be a non-negative number"));
  }
  SECTION("winner neither \"defaults\" nor an object") {
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096})")),
               Catch::Contains("gpu.json: sizes[0] (n = 4096): field 'winner': missing"));
    std::string msg = wisdom_error(wisdom_of(R"({"n": 4096, "winner": "default"})"));
    CHECK_THAT(msg, Catch::Contains("sizes[0] (n = 4096): field 'winner': unknown value 'default'") &&
                        Catch::Contains("allowed: \"defaults\" or an object"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": [49152]})")),
               Catch::Contains("field 'winner': must be \"defaults\" or an object, got a list"));
  }
  SECTION("unknown or untunable winner fields") {
    std::string msg = wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"shared_memory": 49152}})"));
    CHECK_THAT(msg, Catch::Contains("gpu.json: sizes[0] (n = 4096): winner: unknown field 'shared_memory'") &&
                        Catch::Contains("known wisdom fields: radices, index_math, twiddles, workgroup_size, "
                                        "values_per_invocation, shared_memory_bytes"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"direction": "forward"}})")),
               Catch::Contains("winner: field 'direction': wisdom may not set it"));
  }
  SECTION("bad values get the plan parser's messages") {
    std::string msg = wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"shared_memory_bytes": 100}})"));
    CHECK(msg == "gpu.json: sizes[0] (n = 4096): winner: field 'shared_memory_bytes': shared_memory_bytes = 100 is "
                 "too small; allowed: an integer from 1024 to 65536");
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"index_math": "modulo"}})")),
               Catch::Contains("winner: field 'index_math': unknown value 'modulo'; allowed: bitwise, divmod"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"workgroup_size": 100}})")),
               Catch::Contains("field 'workgroup_size': workgroup_size = 100 is not a power of two"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"index_math": ["bitwise", "divmod"]}})")),
               Catch::Contains("field 'index_math': a winner gives one value per field, got a list of 2 values"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"radices": [8, 8, 8]}})")),
               Catch::Contains("field 'radices': radices [8, 8, 8] multiply to 512, but the entry's n = 4096"));
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"radices": [14, 8]}})")),
               Catch::Contains("field 'radices': radix 14 is not supported"));
  }
  SECTION("a bad entry is an error even when the plan does not use its size") {
    CHECK_THAT(wisdom_error(wisdom_of(R"({"n": 64, "winner": {"twiddles": "cordic"}})")),
               Catch::Contains("gpu.json: sizes[0] (n = 64): winner: field 'twiddles': unknown value 'cordic'"));
  }
  SECTION("a winner the plan's own fields cannot be built with") {
    std::string msg = wisdom_error(wisdom_of(R"({"n": 4096, "winner": {"shared_memory_bytes": 1024}})"),
                                   R"({"kernels": [{"name": "fft4096", "shape": [4096], "workgroup_size": 256}]})");
    CHECK_THAT(msg, Catch::StartsWith("gpu.json: sizes[0] (n = 4096): the winner (shared_memory_bytes = 1024) does "
                                      "not fit kernel 'fft4096'") &&
                        Catch::Contains("set the field in the plan"));
  }
}

TEST_CASE("the committed wisdom tables apply to the default plan", "[plan][wisdom]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(FFTGEN_SOURCE_DIR) / "bench" / "wisdom";
  size_t tables = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++tables;
    INFO(entry.path().string());
    Plan plan = parse_plan(read_file(FFTGEN_SOURCE_DIR "/generated/default.json"), "default.json");
    std::vector<fftgen::WisdomChange> changes;
    REQUIRE_NOTHROW(changes = fftgen::apply_wisdom(plan, read_file(entry.path()), entry.path().filename().string()));
    for (const auto& c : changes) CHECK(!c.fields.empty());
  }
  CHECK(tables >= 1);
}

TEST_CASE("convolution: the plan kernel becomes a filter kernel and an apply kernel of the padded plane",
          "[plan][convolution]") {
  const Plan plan = parse_plan(
      R"({"kernels": [{"name": "bloom", "convolution": {"image": [100, 300], "filter": [29, 8], "channels": 4, "packing": "r2c"}}]})");
  REQUIRE(plan.kernels.size() == 2);
  const fftgen::KernelSpec& filter = plan.kernels[0];
  const fftgen::KernelSpec& apply = plan.kernels[1];
  CHECK(filter.name == "bloom__filter");
  CHECK(filter.convolution_filter);
  CHECK(filter.direction == fftgen::DirectionSet::forward);
  CHECK(apply.name == "bloom");
  CHECK_FALSE(apply.convolution_filter);
  CHECK(apply.transform == fftgen::Transform::r2c);
  // "same" needs 100 + 14 = 114 rows and 300 + 4 = 304 columns; 128 x 320 (2^6 * 5) costs least.
  CHECK(apply.shape == std::vector<uint32_t>{128, 320});
  CHECK(apply.convolution->padded_h == 128);
  CHECK(apply.convolution->padded_w == 320);
  CHECK_THAT(apply.convolution->padding, Catch::Contains("same needs >= 114x304"));
  REQUIRE(apply.convolution);
  CHECK(apply.convolution->channels == 4);
  CHECK(apply.convolution->filter_channels == 1);
  CHECK_FALSE(apply.convolution->circular);
  CHECK(apply.convolution->centre_y() == 14);
  CHECK(apply.convolution->centre_x() == 3);  // (8 - 1) / 2, scipy's "same"
  const Plan circular = parse_plan(
      R"({"kernels": [{"name": "c", "convolution": {"image": [64, 32], "filter": [5, 5, 2], "channels": 2, "mode": "circular"}}]})");
  CHECK(circular.kernels[1].shape == std::vector<uint32_t>{64, 32});
  CHECK(circular.kernels[1].convolution->filter_channels == 2);
  // "packing": pairs by default where two or more channels share one filter, else r2c per channel.
  auto packed = [](const std::string& convolution) {
    const Plan p = parse_plan(R"({"kernels": [{"name": "c", "convolution": )" + convolution + "}]}");
    return std::make_pair(p.kernels[1].convolution->pairs, p.kernels[1].transform);
  };
  CHECK(packed(R"({"image": [64, 32], "filter": [5, 5], "channels": 4})") == std::make_pair(true, fftgen::Transform::c2c));
  CHECK(packed(R"({"image": [64, 32], "filter": [5, 5], "channels": 3})").first);
  CHECK(packed(R"({"image": [64, 32], "filter": [5, 5]})") == std::make_pair(false, fftgen::Transform::r2c));
  CHECK_FALSE(packed(R"({"image": [64, 32], "filter": [5, 5, 2], "channels": 2})").first);
  CHECK_FALSE(packed(R"({"image": [64, 32], "filter": [5, 5], "channels": 4, "packing": "r2c"})").first);
}

TEST_CASE("convolution: a plan's \"padded\" plane is kept, and one too small for \"same\" is refused",
          "[plan][convolution]") {
  auto apply = [](const std::string& convolution) {
    return parse_plan(R"({"kernels": [{"name": "c", "convolution": )" + convolution + "}]}").kernels[1];
  };
  // The planner takes 128 x 320 for this convolution (above); the plan's plane wins over it.
  const fftgen::KernelSpec planned = apply(R"({"image": [100, 300], "filter": [29, 8], "padded": [120, 306]})");
  CHECK(planned.shape == std::vector<uint32_t>{120, 306});
  CHECK(planned.convolution->padded_h == 120);
  CHECK(planned.convolution->padded_w == 306);
  CHECK_THAT(planned.convolution->padding, Catch::Contains("the plan asks for 120x306"));
  // Its minimum, 114 x 304, is allowed; one less on either side is not, nor an odd r2c width.
  CHECK(apply(R"({"image": [100, 300], "filter": [29, 8], "padded": [114, 304]})").shape ==
        std::vector<uint32_t>{114, 304});
  auto refused = [&](const std::string& convolution, const std::string& reason) {
    INFO(convolution);
    CHECK_THROWS_WITH(apply(convolution), Catch::Contains(reason));
  };
  refused(R"({"image": [100, 300], "filter": [29, 8], "padded": [113, 304]})",
          "'padded' [113, 304] does not hold this \"same\" convolution; use [PH, PW] with PH from 114 and PW from 304");
  refused(R"({"image": [100, 300], "filter": [29, 8], "padded": [114, 303]})", "does not hold");
  refused(R"({"image": [100, 300], "filter": [29, 8], "padded": [114, 305]})", "PW even");
  refused(R"({"image": [100, 300], "filter": [29, 8], "padded": [114]})", "'padded' must be [PH, PW]");
  refused(R"({"image": [100, 300], "filter": [29, 8], "padded": [114, 9000]})", "up to 8192");
  refused(R"({"image": [64, 32], "filter": [5, 5], "mode": "circular", "padded": [64, 32]})",
          "a circular convolution transforms the image itself");
  // Pairs of channels are complex rows: an odd width is fine there.
  CHECK(apply(R"({"image": [100, 300], "filter": [29, 8], "channels": 2, "padded": [114, 305]})").shape ==
        std::vector<uint32_t>{114, 305});
}

namespace {

// One axis of a convolution's plane of P as the kernels lay it out (load_image.glsl,
// store_image.glsl): image pixel y at y for y < min(H, P), filter tap (m + c) mod P at m where
// that tap exists (c = (K - 1) / 2), a circular convolution, and output i < min(H, P) from plane
// value i (the rest is never written). The axes of a 2D plane are independent.
std::vector<double> circular_then_crop(const std::vector<double>& image, const std::vector<double>& filter, size_t p) {
  const size_t h = image.size(), k = filter.size(), c = (k - 1) / 2;
  std::vector<double> plane(p, 0.0), taps(p, 0.0), out(h, 0.0);
  for (size_t y = 0; y < std::min(h, p); ++y) plane[y] = image[y];
  for (size_t m = 0; m < p; ++m)
    if ((m + c) % p < k) taps[m] = filter[(m + c) % p];
  for (size_t i = 0; i < std::min(h, p); ++i)
    for (size_t m = 0; m < p; ++m) out[i] += taps[m] * plane[(i + p - m) % p];
  return out;
}

// scipy.signal.fftconvolve(image, filter, mode="same") on one axis: output i is the full
// convolution's value i + (K - 1) / 2.
std::vector<double> direct_same(const std::vector<double>& image, const std::vector<double>& filter) {
  const int64_t h = static_cast<int64_t>(image.size()), k = static_cast<int64_t>(filter.size()), c = (k - 1) / 2;
  std::vector<double> out(image.size(), 0.0);
  for (int64_t i = 0; i < h; ++i)
    for (int64_t t = 0; t < k; ++t)
      if (i + c - t >= 0 && i + c - t < h) out[i] += filter[t] * image[i + c - t];
  return out;
}

bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > 1e-9) return false;
  return true;
}

}  // namespace

TEST_CASE("convolution: the least \"same\" plane crops to the direct convolution; one less does not",
          "[plan][convolution]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto random = [&](size_t n) {
    std::vector<double> v(n);
    for (double& x : v) x = u(rng);
    return v;
  };
  // Every image side up to 24 and filter side up to 50: odd and even, K <= H and K > H (to 2H and beyond).
  for (uint32_t h = 1; h <= 24; ++h)
    for (uint32_t k = 1; k <= 50; ++k) {
      INFO("H " << h << ", K " << k);
      const std::vector<double> image = random(h), filter = random(k), want = direct_same(image, filter);
      // The least plane that crops right, found by trying every size; every larger one does too.
      size_t least = 1;
      while (!same_values(circular_then_crop(image, filter, least), want)) ++least;
      for (size_t p = least; p <= least + 2 * k; ++p) CHECK(same_values(circular_then_crop(image, filter, p), want));
      // H + ceil((K - 1) / 2): the taps that wrap past either end of the plane then land on the
      // zeros beyond the image; one less puts the last tap on the image's last pixel.
      const uint32_t wrap = h + k / 2;
      // From K >= 2H on the last taps reach no output the crop keeps, so for an even K the plane
      // could drop the last one; fftgen keeps every tap (the filter kernel's spectrum is the whole
      // filter's), so its least plane is at least K.
      CHECK(least == (h > k / 2 ? wrap : h + (k - 1) / 2));
      CHECK(fftgen::same_padding_minimum(h, k) == std::max<size_t>({least, k, 2}));
    }
}

TEST_CASE("convolution: a \"same\" plane takes the cheapest 7-smooth sides from the least plane to the power of two",
          "[plan][convolution]") {
  struct Case {
    const char* convolution;
    const char* extra;
  };
  const Case cases[] = {
      {R"("image": [1080, 1920], "filter": [1080, 1920], "channels": 4)", ""},
      {R"("image": [1080, 1920], "filter": [255, 255], "channels": 4, "packing": "r2c")", ""},
      {R"("image": [720, 1280], "filter": [720, 1280], "channels": 3)", ""},
      {R"("image": [2048, 2048], "filter": [2048, 2048], "channels": 4)", ""},
      {R"("image": [33, 70], "filter": [33, 70], "channels": 1)", ""},
      {R"("image": [13, 11], "filter": [4, 6], "channels": 4, "packing": "r2c")", R"(, "precision": "fp16")"},
      {R"("image": [5, 7], "filter": [21, 30], "channels": 2, "packing": "pairs")", ""},
      {R"("image": [4099, 5], "filter": [7, 3], "channels": 2)", R"(, "shared_memory_bytes": 16384)"},
  };
  for (const Case& c : cases) {
    INFO(c.convolution << c.extra);
    const Plan plan = parse_plan(std::string(R"({"kernels": [{"name": "b", "convolution": {)") + c.convolution + "}" +
                                 c.extra + "}]}");
    REQUIRE(plan.kernels.size() == 2);
    const fftgen::KernelSpec& apply = plan.kernels[1];
    const fftgen::ConvolutionSpec& conv = *apply.convolution;
    CHECK(plan.kernels[0].shape == apply.shape);
    CHECK(apply.shape == std::vector<uint32_t>{conv.padded_h, conv.padded_w});
    const uint32_t sides[2][3] = {{conv.padded_h, conv.image_h, conv.filter_h}, {conv.padded_w, conv.image_w, conv.filter_w}};
    for (const auto& [padded, image, filter] : sides) {
      INFO("side " << padded << " of image " << image << ", filter " << filter);
      const uint32_t least = std::max({image + filter / 2, filter, 2u});
      uint32_t power = 1;
      while (power < least) power *= 2;
      CHECK(padded >= least);
      CHECK(padded <= power);
      CHECK(fftgen::largest_prime_factor(padded) <= 7);
    }
    if (!conv.pairs) CHECK(conv.padded_w % 2 == 0);  // an r2c plane's rows are pairs of reals
    CHECK_THAT(conv.padding, Catch::Contains(fmt::format("same needs >= {}x{}", std::max({conv.image_h + conv.filter_h / 2, conv.filter_h, 2u}),
                                                         std::max({conv.image_w + conv.filter_w / 2, conv.filter_w, 2u}))));
    // Both kernels build, and the powers of two would cost at least as much.
    const fftgen::KernelProgram program = fftgen::make_program(apply);
    (void)fftgen::make_program(plan.kernels[0]);
    fftgen::KernelSpec power = apply;
    power.convolution->padded_h = 1u << fftgen::ceil_log2(fftgen::same_padding_minimum(conv.image_h, conv.filter_h));
    power.convolution->padded_w = 1u << fftgen::ceil_log2(fftgen::same_padding_minimum(conv.image_w, conv.filter_w));
    power.shape = {power.convolution->padded_h, power.convolution->padded_w};
    CHECK(fftgen::padding_cost(conv, program, apply.shared_memory_bytes) <=
          fftgen::padding_cost(*power.convolution, fftgen::make_program(power), apply.shared_memory_bytes));
  }
  // What it picks for frames of 720p, 1080p, 2048² and 1440p with a filter as large (the 2048-point
  // columns of one round trip beat the two passes of 1620, and the round trips of 1125 and 1250
  // columns, which measured 2.3-4.1x slower a value), and a 255² filter.
  auto padded = [](const std::string& convolution) {
    const Plan plan = parse_plan(R"({"kernels": [{"name": "b", "convolution": {)" + convolution + "}}]}");
    return plan.kernels[1].shape;
  };
  CHECK(padded(R"("image": [720, 1280], "filter": [720, 1280], "channels": 4)") == std::vector<uint32_t>{2048, 1920});
  CHECK(padded(R"("image": [1080, 1920], "filter": [1080, 1920], "channels": 4)") == std::vector<uint32_t>{2048, 2880});
  // 2048²: two passes of 3072 (64 x 48, the inner one a round trip) beat the 4096-point column's
  // round trip, whose exchange takes all of 32 KB (bench/results/2026-12-02-h200-padded-planes: 1.39x).
  CHECK(padded(R"("image": [2048, 2048], "filter": [2048, 2048], "channels": 4)") == std::vector<uint32_t>{3072, 3072});
  CHECK(padded(R"("image": [1440, 2560], "filter": [1440, 2560], "channels": 4)") == std::vector<uint32_t>{2160, 3840});
  CHECK(padded(R"("image": [1080, 1920], "filter": [255, 255], "channels": 4)") == std::vector<uint32_t>{2048, 2048});
  // A workgroup size that the rows of 1536 cannot take: the plane falls back to one that builds,
  // and says why.
  const Plan fixed = parse_plan(R"({"kernels": [{"name": "b", "workgroup_size": 128,
      "convolution": {"image": [1024, 1024], "filter": [1024, 1024], "channels": 4}}]})");
  CHECK(fixed.kernels[1].shape == std::vector<uint32_t>{2048, 2048});
  CHECK_THAT(fixed.kernels[1].convolution->padding,
             Catch::Contains("other planes refused") && Catch::Contains("field 'workgroup_size'"));
  // A plane that is already a power of two stays; circular planes are the image, of any length.
  CHECK(padded(R"("image": [1024, 1024], "filter": [2048, 2048])") == std::vector<uint32_t>{2048, 2048});
  CHECK(padded(R"("image": [12, 10], "filter": [3, 3], "mode": "circular")") == std::vector<uint32_t>{12, 10});
  CHECK(padded(R"("image": [9, 15], "filter": [3, 4], "channels": 4, "mode": "circular")") ==
        std::vector<uint32_t>{9, 15});
}

TEST_CASE("convolution: the apply kernel skips the padding rows and fuses its column passes",
          "[plan][convolution]") {
  using fftgen::BufferRole;
  auto programs = [](const std::string& convolution) {
    const Plan plan = parse_plan(R"({"kernels": [{"name": "b", "convolution": )" + convolution + "}]}");
    return std::make_pair(fftgen::make_program(plan.kernels[0]), fftgen::make_program(plan.kernels[1]));
  };
  // The three dispatches of a padded column of 2048: rows, one round trip, inverse rows.
  auto three_dispatches = [&](const std::string& convolution) {
    auto both = programs(convolution);
    REQUIRE(both.second.forward.size() == 2);
    REQUIRE(both.second.inverse.size() == 1);
    return both;
  };
  SECTION("a padded column of 2048 fits one workgroup: rows, one round trip, inverse rows") {
    const auto [filter, apply] =
        three_dispatches(R"({"image": [1024, 1024], "filter": [1024, 1024], "channels": 4, "packing": "r2c"})");
    // A plane of 2048 x 1536 (needs 1536 x 1536): its 2048-point columns take one round trip.
    REQUIRE(apply.layout.ny == 2048);
    REQUIRE(apply.layout.columns == 769);
    const fftgen::PassProgram &rows = apply.forward[0], &columns = apply.forward[1], &back = apply.inverse[0];
    // Only the 1024 image rows of each 2048-row plane, the channels of a pixel row in turn.
    CHECK(rows.batch_scale == 1024);
    CHECK(rows.rows_per_transform == 2048);
    CHECK(rows.planes_per_frame == 4);
    CHECK(back.batch_scale == 1024);
    CHECK(back.rows_per_transform == 2048);
    // The row pass does half the work of the filter kernel's, which transforms every row.
    CHECK(2 * rows.ops().adds == filter.forward[0].ops().adds);
    // Columns: 769 values per row; rows from 1024 on are known zeros and not stored.
    CHECK(columns.round_trip);
    CHECK(columns.load.zeros_from == 1024u * 769u);
    CHECK(columns.store.stored_below == 1024u * 769u);
    CHECK(columns.store.filter_planes == 1);
    CHECK(columns.planes_per_frame == 4);
    CHECK(back.bindings[0].role == BufferRole::input);  // what the round trip left in the forward output
    CHECK(apply.scratch_elements == 0);
    // The filter kernel is not touched: its filter lies at both ends of the plane.
    CHECK(filter.forward[0].rows_per_transform == 0);
    CHECK_FALSE(filter.forward[1].round_trip);
    // The round trip's tiles are 2 columns wide: the filter kernel keeps its spectrum by columns
    // (value k of column j at j * 2048 + k) and the round trip reads it so.
    CHECK(columns.fft.columns_per_workgroup == 2);
    // Two columns of one split exchange: padded as rows are, the columns 16 banks apart.
    CHECK(columns.fft.shared.scheme == fftgen::SharedMemoryMap::Scheme::tile_padded);
    CHECK(columns.fft.shared.split);
    CHECK(columns.fft.shared.column_slots() % 32 == 16);
    CHECK(apply.filter_by_columns);
    CHECK(columns.store.filter_by_columns);
    CHECK(filter.filter_by_columns);
    const fftgen::View& spectrum = filter.forward[1].store.view;
    CHECK(spectrum.element_stride == 1);
    CHECK(spectrum.column_split == 1);
    CHECK(spectrum.split_stride == 2048);
    // Written transposed, not in place: the row pass leaves the plane in scratch.
    CHECK(filter.forward[0].bindings[1].role == BufferRole::scratch);
    CHECK(filter.forward[1].bindings[0].role == BufferRole::scratch);
    CHECK(filter.scratch_elements == 2048u * 769u);
  }
  SECTION("a padded column of 8192 takes two passes: the inner ones fuse, the padding rows are still skipped") {
    // 4096 + 8192 / 2 = 8192 per axis: the power of two is the only candidate.
    const auto [filter, apply] =
        programs(R"({"image": [4096, 4096], "filter": [8192, 8192], "channels": 4, "packing": "r2c"})");
    REQUIRE(apply.forward.size() == 3);
    REQUIRE(apply.inverse.size() == 2);
    const fftgen::PassProgram &a = apply.forward[1], &b = apply.forward[2], &reverse = apply.inverse[0];
    CHECK(apply.forward[0].batch_scale == 4096);
    CHECK(a.load.zeros_from == 4096u * 4097u);
    CHECK_FALSE(a.round_trip);
    // B, the product and B's inverse in one dispatch, the conjugate inter-pass twiddle on the way out.
    CHECK(b.round_trip);
    CHECK(b.load.pass_twiddle);
    CHECK(b.store.filter_planes == 1);
    CHECK(b.planes_per_frame == 4);
    CHECK(b.store.stored_below == 0);  // A^-1 reads every row
    // A^-1: A's pass, inverse, reading where A wrote and writing where A read; only the kept rows.
    CHECK(reverse.direction == fftgen::Direction::inverse);
    CHECK(reverse.fft.size == a.fft.size);
    CHECK(reverse.load.view.element_stride == a.store.view.element_stride);
    CHECK(reverse.store.view.element_stride == a.load.view.element_stride);
    CHECK(reverse.load.view.binding.role == fftgen::BufferRole::input);
    CHECK(reverse.store.stored_below == 4096u * 4097u);
    CHECK(reverse.load.zeros_from == 0);
    CHECK(apply.inverse[1].batch_scale == 4096);
    CHECK(apply.inverse[1].name == "inv1");
    CHECK(apply.inverse[1].bindings[0].role == reverse.bindings[1].role);
    // The filter kernel keeps its three passes, and its spectrum by rows: B's 16-column tiles read it so.
    CHECK(filter.forward.size() == 3);
    CHECK_FALSE(filter.forward[2].round_trip);
    CHECK_FALSE(apply.filter_by_columns);
    CHECK_FALSE(filter.filter_by_columns);
  }
  SECTION("a padded column of 4096: one round trip of 2 columns, 16x16x16 on 256 invocations each") {
    for (uint32_t shared : {32768u, 49152u}) {
      const Plan plan = parse_plan(
          R"({"kernels": [{"name": "b", "convolution": {"image": [2048, 2048], "filter": [2048, 2048], "channels": 4,
                "padded": [4096, 3072]}, "shared_memory_bytes": )" + std::to_string(shared) + "}]}");
      const fftgen::KernelProgram apply = fftgen::make_program(plan.kernels[1]);
      INFO("shared_memory_bytes " << shared);
      REQUIRE(apply.forward.size() == 2);
      REQUIRE(apply.inverse.size() == 1);
      const fftgen::PassProgram& columns = apply.forward[1];
      CHECK(columns.round_trip);
      CHECK(columns.fft.size == 4096);
      CHECK(columns.fft.stages.size() == 3);
      for (const auto& stage : columns.fft.stages) CHECK(stage.radix == 16);
      CHECK(columns.fft.threads_per_column == 256);
      CHECK(columns.fft.columns_per_workgroup == 2);
      CHECK(columns.fft.shared.split);
      CHECK(columns.fft.shared.rounds == 1);
      // 48 KB holds tile_padded's pads (34944 bytes); 32 KB holds the two columns unpadded, swizzled.
      CHECK(columns.fft.shared.scheme == (shared == 32768 ? fftgen::SharedMemoryMap::Scheme::tile_swizzled
                                                          : fftgen::SharedMemoryMap::Scheme::tile_padded));
      CHECK(columns.fft.shared_bytes() <= shared);
      CHECK(columns.load.zeros_from == 2048u * 3072u);  // a plane of 4096 x 3072 (needs 3072 x 3072)
      CHECK(apply.filter_by_columns);
    }
  }
  SECTION("circular: no padding rows, the column passes still fused; a filter per channel takes no turns") {
    const auto [filter, apply] =
        programs(R"({"image": [64, 32], "filter": [5, 5, 2], "channels": 2, "mode": "circular"})");
    REQUIRE(apply.forward.size() == 2);
    CHECK(apply.forward[0].rows_per_transform == 0);
    CHECK(apply.forward[0].batch_scale == 64);
    CHECK(apply.forward[1].round_trip);
    CHECK(apply.forward[1].load.zeros_from == 0);
    CHECK(apply.forward[1].planes_per_frame == 1);
  }
  SECTION("packed in pairs: c2c planes of two channels, the filter's whole spectrum, the same structure") {
    const auto [filter, apply] =
        three_dispatches(R"({"image": [1024, 1024], "filter": [1024, 1024], "channels": 3, "packing": "pairs"})");
    REQUIRE(apply.layout.ny == 2048);
    REQUIRE(apply.layout.columns == 1536);
    const fftgen::PassProgram &rows = apply.forward[0], &columns = apply.forward[1], &back = apply.inverse[0];
    CHECK(rows.load.image.channel_pairs);
    CHECK(back.store.image.channel_pairs);
    CHECK(filter.forward[0].load.image.channel_pairs);  // the filter as real parts of a complex plane
    CHECK(rows.fft.size == 1536);                        // a complex row of the padded plane, not 768 pairs
    CHECK(rows.planes_per_frame == 2);                   // RG and B
    CHECK(rows.batch_scale == 1024);
    CHECK(columns.round_trip);
    // The round trip of 2048-point columns: 8x16x16 on 128 invocations per column, 2 columns.
    CHECK(columns.fft.threads_per_column == 128);
    CHECK(columns.fft.columns_per_workgroup == 2);
    CHECK(filter.forward[1].fft.columns_per_workgroup == 8);  // a column pass of the filter: wide tiles
    CHECK(columns.load.zeros_from == 1024u * 1536u);  // every column of the whole spectrum
    CHECK(columns.store.filter_plane == 2048u * 1536u);
    CHECK(columns.planes_per_frame == 2);
    CHECK(apply.forward_output.elements == 2048u * 1536u);
    CHECK(apply.forward_input.elements == 1024u * 1024u * 2);  // two channels per plane
  }
}

TEST_CASE("convolution: precision fp16 gives both kernels half-float planes", "[plan][convolution]") {
  const Plan plan = parse_plan(
      R"({"kernels": [{"name": "b", "convolution": {"image": [16, 16], "filter": [3, 3]}, "precision": "fp16"}]})");
  REQUIRE(plan.kernels.size() == 2);  // the filter's spectrum, then the apply kernel
  for (const auto& k : plan.kernels) {
    INFO(k.name);
    CHECK(k.precision == fftgen::Precision::fp16);
    CHECK(k.convolution);
    CHECK(k.twiddle_source() == fftgen::TwiddleSource::computed);  // fp16's default
  }
  // Padded rows of 8192 take the table (registers in their inverse rows); an explicit choice stands.
  const Plan wide = parse_plan(R"({"kernels": [
    {"name": "w", "convolution": {"image": [4096, 4096], "filter": [8192, 8192]}, "precision": "fp16"},
    {"name": "c", "convolution": {"image": [4096, 4096], "filter": [8192, 8192]}, "precision": "fp16", "twiddles": "computed"}]})");
  REQUIRE(wide.kernels.size() == 4);
  for (const auto& k : wide.kernels) {
    INFO(k.name);
    CHECK(k.n() == 8192);
    CHECK(k.twiddle_source() == (k.name[0] == 'w' ? fftgen::TwiddleSource::table : fftgen::TwiddleSource::computed));
  }
}

TEST_CASE("convolution: io image reads the frame from a storage image and writes it to one", "[plan][convolution]") {
  const Plan plan = parse_plan(R"({"kernels": [
    {"name": "m", "io": "image", "convolution": {"image": [37, 50], "filter": [9, 7]}},
    {"name": "p", "io": "image", "image_format": "rgba32f", "precision": "fp16",
     "convolution": {"image": [37, 50], "filter": [37, 50], "channels": 2}}]})");
  REQUIRE(plan.kernels.size() == 4);
  for (const auto& k : plan.kernels) {
    INFO(k.name);
    const fftgen::KernelProgram program = fftgen::make_program(k);
    if (k.convolution_filter) {  // the filter stays a buffer
      CHECK(k.io == fftgen::Io::buffer);
      for (const fftgen::PassProgram& pass : program.forward)
        for (const fftgen::PassBinding& b : pass.bindings) CHECK_FALSE(b.is_texture());
      continue;
    }
    const fftgen::TextureFormat format = k.name == "m" ? fftgen::TextureFormat::r32f : fftgen::TextureFormat::rgba32f;
    const fftgen::PassBinding& in = program.forward.front().bindings.at(0);
    const fftgen::PassBinding& out = program.inverse.back().bindings.at(1);
    CHECK(in.texture == format);
    CHECK(out.texture == format);
    CHECK(in.texels_per_row == 50);
    CHECK(out.texels_per_row == 50);
    CHECK(program.forward.front().load.kind == fftgen::LoadKind::image);
    CHECK(program.inverse.back().store.kind == fftgen::StoreKind::image);
    // Only the frame is an image: the planes between, the filter's spectrum and scratch are buffers.
    size_t textures = 0;
    for (const auto* passes : {&program.forward, &program.inverse})
      for (const fftgen::PassProgram& pass : *passes)
        for (const fftgen::PassBinding& b : pass.bindings) textures += b.is_texture();
    CHECK(textures == 2);
  }
}

TEST_CASE("convolution: bad plans name the field and what is allowed", "[plan][convolution]") {
  auto conv = [](const std::string& fields, const std::string& extra = "") {
    return error_of(R"({"kernels": [{"name": "b", "convolution": {)" + fields + "}" + extra + "}]}");
  };
  CHECK_THAT(conv(R"("image": [64, 64], "filter": [5, 5], "channels": 5)"),
             Catch::Contains("kernel 'b'") && Catch::Contains("field 'convolution'") && Catch::Contains("channels = 5") &&
                 Catch::Contains("1 to 4"));
  CHECK_THAT(conv(R"("image": [64, 64], "filter": [5, 5, 3], "channels": 4)"),
             Catch::Contains("the filter has 3 channels and the image 4"));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [17, 3], "channels": 1, "mode": "circular")"),
             Catch::Contains("filter [17, 3] is larger than the padded size [16, 16]"));
  CHECK_THAT(conv(R"("image": [67, 16], "filter": [3, 3], "mode": "circular")"),
             Catch::Contains("no prime factor above 61") && Catch::Contains("[67, 16]"));
  CHECK_THAT(conv(R"("image": [12, 15], "filter": [3, 3], "mode": "circular")"),
             Catch::Contains("packed \"r2c\"") && Catch::Contains("width must be even") && Catch::Contains("[12, 15]"));
  CHECK_THAT(conv(R"("image": [6000, 16], "filter": [5000, 3])"),
             Catch::Contains("padded plane of at least [8500, 17]") && Catch::Contains("largest side is 8192"));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [3, 3], "mode": "valid")"),
             Catch::Contains("'mode' must be \"same\" or \"circular\""));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [3, 3], "size": 4)"), Catch::Contains("unknown field 'size'"));
  CHECK_THAT(conv(R"("image": [16], "filter": [3, 3])"), Catch::Contains("'image' must be a list of 2 sizes"));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [3, 3])", R"(, "shape": [16, 16])"),
             Catch::Contains("field 'shape'") && Catch::Contains("derives it from \"convolution\""));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [3, 3])", R"(, "precision": "fp64")"),
             Catch::Contains("field 'precision'") && Catch::Contains("fp16"));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [3, 3], "channels": 2, "packing": "planes")"),
             Catch::Contains("'packing' must be \"r2c\" or \"pairs\"") && Catch::Contains("'planes'"));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [3, 3], "packing": "pairs")"),
             Catch::Contains("the image has one channel") && Catch::Contains("use \"r2c\""));
  CHECK_THAT(conv(R"("image": [16, 16], "filter": [3, 3, 4], "channels": 4, "packing": "pairs")"),
             Catch::Contains("one filter for every channel") && Catch::Contains("the filter has 4 channels"));
}

TEST_CASE("io image: formats resolve per transform, and what images cannot hold is refused", "[plan][textures]") {
  auto kernel_of = [](const std::string& fields) {
    return parse_plan("{\"kernels\": [{\"name\": \"t\", " + fields + "}]}", "plan.json").kernels.at(0);
  };
  CHECK(kernel_of(R"("shape": [64, 64])").io == fftgen::Io::buffer);
  CHECK(kernel_of(R"("shape": [64, 64])").image_format == fftgen::TextureFormat::automatic);
  CHECK(kernel_of(R"("shape": [64, 64], "io": "image")").image_format == fftgen::TextureFormat::rg32f);
  CHECK(kernel_of(R"("shape": [64, 64], "io": "image", "transform": "r2c")").image_format == fftgen::TextureFormat::r32f);
  CHECK(kernel_of(R"("shape": [64, 64], "io": "image", "image_format": "rgba16f")").image_format ==
        fftgen::TextureFormat::rgba16f);
  const Plan listed = parse_plan(R"({"kernels": [{"name": "t", "shape": [64, 64], "io": "image",
                                     "image_format": ["rg32f", "rgba32f"]}]})");
  REQUIRE(listed.kernels.size() == 2);
  CHECK(listed.kernels[1].name == "t__rgba32f");
  CHECK(fftgen::variant_fields(listed.kernels[1])["image_format"] == "rgba32f");
  CHECK(fftgen::variant_fields(listed.kernels[1])["io"] == "image");

  auto image_error = [](const std::string& fields) {
    return error_of("{\"kernels\": [{\"name\": \"t\", " + fields + "}]}");
  };
  CHECK_THAT(image_error(R"("shape": [64, 64], "io": "texture")"),
             Catch::Contains("field 'io'") && Catch::Contains("unknown value 'texture'") &&
                 Catch::Contains("allowed: buffer, image"));
  CHECK_THAT(image_error(R"("shape": [64, 64], "io": "image", "image_format": "rgb8")"),
             Catch::Contains("field 'image_format'") && Catch::Contains("unknown value 'rgb8'") &&
                 Catch::Contains("allowed: auto, rg32f, rgba32f, rgba16f, r32f"));
  CHECK_THAT(image_error(R"("shape": [64, 64], "io": "image", "image_format": "r32f")"),
             Catch::Contains("field 'image_format'") && Catch::Contains("'r32f' holds one real per texel") &&
                 Catch::Contains("rg32f, rgba32f or rgba16f for c2c"));
  CHECK_THAT(image_error(R"("shape": [64, 64], "io": "image", "transform": "r2c", "image_format": "rgba32f")"),
             Catch::Contains("field 'image_format'") && Catch::Contains("r2c kernel's real data are r32f"));
  CHECK_THAT(image_error(R"("shape": [64, 64], "image_format": "rg32f")"),
             Catch::Contains("field 'image_format'") && Catch::Contains("is for kernels with \"io\": \"image\""));
  CHECK_THAT(image_error(R"("shape": [64, 64], "io": "image", "precision": "fp16")"),
             Catch::Contains("field 'precision'") && Catch::Contains("rgba16f"));
  CHECK_THAT(image_error(R"("shape": [1024], "io": "image", "transform": "r2c_pair")"),
             Catch::Contains("field 'io'") && Catch::Contains("r2c_pair kernels read and write buffers only"));
  // A convolution's frames as images: one plane per pixel (a texel written whole), float32 formats.
  auto apply_of = [](const std::string& fields) {  // kernels[0] is the filter kernel
    return parse_plan("{\"kernels\": [{\"name\": \"t\", " + fields + "}]}", "plan.json").kernels.at(1);
  };
  CHECK(apply_of(R"("io": "image", "convolution": {"image": [16, 16], "filter": [3, 3]})").image_format ==
        fftgen::TextureFormat::r32f);
  CHECK(apply_of(R"("io": "image", "convolution": {"image": [16, 16], "filter": [3, 3], "channels": 2})")
            .image_format == fftgen::TextureFormat::rg32f);
  CHECK_THAT(image_error(R"("io": "image", "convolution": {"image": [16, 16], "filter": [3, 3], "channels": 4})"),
             Catch::Contains("field 'io'") && Catch::Contains("writes each texel whole from one plane; 4 channel(s) in 2 "
                                                              "planes (packing pairs)") &&
                 Catch::Contains("\"io\": \"buffer\" for 3 or 4 channels"));
  CHECK_THAT(image_error(R"("io": "image", "convolution": {"image": [16, 16], "filter": [3, 3], "channels": 2,
                           "packing": "r2c"})"),
             Catch::Contains("field 'io'") && Catch::Contains("2 channel(s) in 2 planes (packing r2c)"));
  CHECK_THAT(image_error(R"("io": "image", "image_format": "rg32f", "convolution": {"image": [16, 16], "filter": [3, 3]})"),
             Catch::Contains("field 'image_format'") && Catch::Contains("one channel reads and writes r32f images"));
  CHECK_THAT(image_error(R"("io": "image", "image_format": "r32f", "convolution": {"image": [16, 16], "filter": [3, 3],
                           "channels": 2})"),
             Catch::Contains("field 'image_format'") && Catch::Contains("two channels reads and writes them as a "
                                                                        "texel's r and g"));
  CHECK_THAT(image_error(R"("io": "image", "image_format": "rgba16f", "convolution": {"image": [16, 16],
                           "filter": [3, 3], "channels": 2})"),
             Catch::Contains("field 'image_format'") && Catch::Contains("rgba16f frames are not built"));
  CHECK_THAT(image_error(R"("shape": [30, 45], "io": "image", "transform": "r2c")"),
             Catch::Contains("field 'shape'") && Catch::Contains("NX (N in 1D) must be even; 45 is odd"));
  CHECK_THAT(image_error(R"("shape": [64, 67], "io": "image")"),
             Catch::Contains("field 'io'") && Catch::Contains("Bluestein") && Catch::Contains("image output holds none"));
  CHECK_THAT(image_error(R"("shape": [32768], "io": "image")"),
             Catch::Contains("field 'shape'") && Catch::Contains("N = 32768 is wider than 16384 texels"));
}

TEST_CASE("the op count includes the products of a stage twiddle tree", "[plan][program]") {
  // 256 = 16 x 16 on 16 invocations: stage 1's 16 butterflies take 15 twiddles each, loaded early.
  // From the table, 4 of them (W^(hk), h = 1, 2, 4, 8) and 11 products; computed, none.
  const fftgen::Plan plan = fftgen::parse_plan(
      R"({"kernels": [{"name": "k", "shape": [256], "direction": "forward", "twiddles": ["table", "computed"]}]})");
  const fftgen::PassProgram table = fftgen::make_program(plan.kernels[0]).forward.at(0);
  const fftgen::PassProgram computed = fftgen::make_program(plan.kernels[1]).forward.at(0);
  REQUIRE(table.fft.stages.size() == 2);
  REQUIRE(table.stage_twiddle_tree(1));
  CHECK_FALSE(table.stage_twiddle_tree(0));  // stage 0 has no twiddles
  CHECK_FALSE(computed.stage_twiddle_tree(1));
  const uint32_t products = 16 * 11;  // a complex product: 4 muls, 2 adds
  CHECK(table.ops().muls == computed.ops().muls + 4 * products);
  CHECK(table.ops().adds == computed.ops().adds + 2 * products);
}

TEST_CASE("a pass whose length is not a power of two builds the twiddles of radix 5 and more by a tree", "[plan][program]") {
  // 1050 = 15 x 10 x 7 and 1764 = 12 x 7 x 7 x 3, whatever the workgroup and whether the twiddles
  // are loaded early: stages of radix 10 and 7 (and 12) take the tree, radix 3 keeps its two loads.
  const fftgen::Plan plan = fftgen::parse_plan(R"({"kernels": [
    {"name": "a", "shape": [1050], "direction": "forward", "radices": [15, 10, 7], "twiddles": ["table", "computed"]},
    {"name": "b", "shape": [1764], "direction": "forward", "radices": [12, 7, 7, 3]}]})");
  const fftgen::PassProgram table = fftgen::make_program(plan.kernels[0]).forward.at(0);
  const fftgen::PassProgram computed = fftgen::make_program(plan.kernels[1]).forward.at(0);
  REQUIRE(table.fft.stages.size() == 3);
  CHECK_FALSE(table.stage_twiddle_tree(0));  // stage 0 has no twiddles
  CHECK(table.stage_twiddle_tree(1));
  CHECK(table.stage_twiddle_tree(2));
  CHECK_FALSE(computed.stage_twiddle_tree(1));
  // Stage 1: 105 butterflies build 9 - 4 twiddles each (W^(hk), h = 1, 2, 4, 8 from the table);
  // stage 2: 150 build 6 - 3 (h = 1, 2, 4).
  const uint32_t products = 105 * 5 + 150 * 3;  // a complex product: 4 muls, 2 adds
  CHECK(table.ops().muls == computed.ops().muls + 4 * products);
  CHECK(table.ops().adds == computed.ops().adds + 2 * products);
  const fftgen::PassProgram b = fftgen::make_program(plan.kernels[2]).forward.at(0);
  REQUIRE(b.fft.stages.size() == 4);
  CHECK(b.stage_twiddle_tree(1));
  CHECK(b.stage_twiddle_tree(2));
  CHECK_FALSE(b.stage_twiddle_tree(3));  // radix 3
}

TEST_CASE("late stage twiddles take a product tree in workgroups of 512 invocations or more", "[plan][program]") {
  // 16384 = 32 x 16 x 32 on 512 invocations: stages 1 and 2 hold 30 and 31 twiddles an invocation,
  // loaded where used, by a tree. 8192 = 16 x 16 x 32 on 256 invocations keeps the table there
  // (registers), as do the 8192-point row passes of a convolution's 8192² plane.
  const fftgen::Plan plan = fftgen::parse_plan(R"({"kernels": [
    {"name": "wide", "shape": [16384], "direction": "forward", "radices": [32, 16, 32]},
    {"name": "narrow", "shape": [8192], "direction": "forward", "radices": [16, 16, 32]},
    {"name": "bloom", "convolution": {"image": [4096, 4096], "filter": [8192, 8192], "channels": 4}},
    {"name": "computed", "shape": [16384], "direction": "forward", "radices": [32, 16, 32], "twiddles": "computed"}]})");
  auto kernel = [&](const std::string& name) {
    for (const fftgen::KernelSpec& k : plan.kernels)
      if (k.name == name) return fftgen::make_program(k);
    FAIL("no kernel " << name);
    return fftgen::KernelProgram();
  };
  const fftgen::PassProgram wide = kernel("wide").forward.at(0);
  REQUIRE(wide.fft.stages.size() == 3);
  REQUIRE(wide.fft.workgroup_size == 512);
  for (size_t s : {1, 2}) {
    CHECK_FALSE(wide.fft.stage_twiddles_early(s));
    CHECK(wide.stage_twiddle_tree(s));
  }
  const fftgen::PassProgram narrow = kernel("narrow").forward.at(0);
  REQUIRE(narrow.fft.workgroup_size == 256);
  const fftgen::KernelProgram bloom = kernel("bloom");
  REQUIRE(bloom.forward.size() >= 2);
  REQUIRE(bloom.inverse.size() >= 2);
  for (const fftgen::PassProgram* pass : {&narrow, &bloom.forward.front(), &bloom.inverse.back()}) {
    REQUIRE(pass->fft.size == 8192);
    for (size_t s = 1; s < pass->fft.stages.size(); ++s) {
      INFO("stage " << s);
      CHECK(pass->stage_twiddle_tree(s) == pass->fft.stage_twiddles_early(s));
    }
    CHECK_FALSE(pass->stage_twiddle_tree(pass->fft.stages.size() - 1));
  }
  // The ops count the late trees' products (against computed twiddles, which take none): 16384 / 16
  // butterflies of stage 1 build 15 - 4 twiddles each, 16384 / 32 of stage 2 build 31 - 5.
  const fftgen::PassProgram computed = kernel("computed").forward.at(0);
  const uint32_t products = 1024 * 11 + 512 * 26;  // a complex product: 4 muls, 2 adds
  CHECK(wide.ops().muls == computed.ops().muls + 4 * products);
  CHECK(wide.ops().adds == computed.ops().adds + 2 * products);
}

TEST_CASE("3D: [NZ, NY, NX] parses, names its variants and lays out X, Y and Z passes", "[plan][volume]") {
  const Plan plan = parse_plan(R"({"kernels": [{"name": "v", "shape": [[64, 32, 16], [5, 12, 9]]},
                                               {"name": "w", "shape": [64, 32, 16], "transform": "r2c"}]})");
  REQUIRE(names_of(plan) == std::vector<std::string>{"v__n64x32x16", "v__n5x12x9", "w"});
  CHECK(fftgen::make_program(plan.kernels[1]).forward.size() == 3);
  const fftgen::KernelSpec& k = plan.kernels[2];
  CHECK(k.is_3d());
  CHECK(!k.is_2d());
  CHECK(k.nz() == 64);
  CHECK(k.ny() == 32);
  CHECK(k.n() == 16);
  CHECK(k.points() == 64 * 32 * 16);
  const fftgen::KernelProgram program = fftgen::make_program(k);
  const fftgen::KernelLayout& layout = program.layout;
  CHECK(layout.n == 8);
  CHECK(layout.columns == 9);
  CHECK(layout.ny == 32);
  CHECK(layout.nz == 64);
  REQUIRE(program.forward.size() == 3);
  // X rows (NZ * NY of them a transform), Y columns of each plane, Z columns of the volume.
  CHECK(program.forward[0].fft.axis == 0);
  CHECK(program.forward[0].batch_scale == 64 * 32);
  CHECK(program.forward[1].fft.axis == 1);
  CHECK(program.forward[1].fft.interleave == 9);
  CHECK(program.forward[1].batch_scale == 64);
  CHECK(program.forward[2].fft.axis == 2);
  CHECK(program.forward[2].fft.interleave == 32 * 9);
  CHECK(program.forward[2].batch_scale == 1);
  CHECK(program.forward_output.elements == 64 * 32 * 9);
  // The c2r inverse runs Y and Z first and ends along X.
  CHECK(program.inverse.front().fft.axis == 1);
  CHECK(program.inverse.back().fft.axis == 0);
}

TEST_CASE("3D: a side through Bluestein's algorithm, or an r2c of odd NX, runs each side apart", "[plan][volume]") {
  const Plan plan = parse_plan(R"({"kernels": [{"name": "v", "shape": [67, 8, 12]},
                                               {"name": "w", "shape": [6, 10, 15], "transform": "r2c"}]})");
  REQUIRE(plan.kernels.size() == 2);
  const fftgen::KernelProgram blue = fftgen::make_program(plan.kernels[0]);
  CHECK(blue.layout.sides_apart);
  CHECK(blue.layout.chirp_sides[0].n == 0);
  CHECK(blue.layout.chirp_sides[1].n == 0);
  CHECK(blue.layout.chirp_sides[2].n == 67);
  // X rows (NZ * NY a transform), Y columns of each plane, then Z: the forward FFT of M = 135 (the
  // 7-smooth M, smooth_bluestein_side; chirp load, filter store) and its inverse (crop), over the
  // volume's 8 * 12 columns.
  REQUIRE(blue.forward.size() >= 4);
  CHECK(blue.forward[0].fft.axis == 0);
  CHECK(blue.forward[0].batch_scale == 67 * 8);
  CHECK(blue.forward[1].fft.axis == 1);
  CHECK(blue.forward[1].batch_scale == 67);
  CHECK(blue.forward[1].fft.interleave == 12);
  CHECK(blue.forward[2].fft.axis == 2);
  CHECK(blue.forward[2].fft.length == 135);
  CHECK(blue.forward[2].fft.interleave == 8 * 12);
  CHECK(blue.forward[2].batch_scale == 1);
  CHECK(blue.forward[2].load.kind == fftgen::LoadKind::chirp);
  CHECK(blue.forward.back().store.kind == fftgen::StoreKind::chirp_crop);
  CHECK(blue.scratch_elements >= uint64_t{135} * 8 * 12);
  // The r2c's X side is the complex transform of 15 reals a row, 16 apart; its c2r runs Z, Y, X.
  const fftgen::KernelProgram odd = fftgen::make_program(plan.kernels[1]);
  CHECK(odd.layout.sides_apart);
  CHECK(odd.layout.columns == 8);
  CHECK(odd.forward_input.elements == 16 * 10 * 6);
  CHECK(odd.forward_output.elements == 8 * 10 * 6);
  REQUIRE(odd.inverse.size() == 3);
  CHECK(odd.inverse[0].fft.axis == 2);
  CHECK(odd.inverse[1].fft.axis == 1);
  CHECK(odd.inverse[2].fft.axis == 0);
  CHECK(odd.inverse[0].bindings[1].role == fftgen::BufferRole::scratch2);
  CHECK(odd.inverse[2].bindings[0].role == fftgen::BufferRole::scratch2);
}

TEST_CASE("3D: what a volume cannot have is refused in one line naming the field", "[plan][volume][errors]") {
  auto error_of_volume = [](const std::string& fields) {
    return error_of(R"({"kernels": [{"name": "v", "shape": [16, 16, 16])" + (fields.empty() ? "" : ", " + fields) +
                    "}]}");
  };
  CHECK(error_of_volume(R"("io": "image")") ==
        "plan.json: kernel 'v': field 'io': 3D kernels read and write buffers; allowed: \"buffer\" for a 3D shape");
  CHECK_THAT(error_of_volume(R"("transform": "r2c_pair")"),
             Catch::Contains("field 'transform': r2c_pair is for 1D kernels"));
  CHECK_THAT(error_of_volume(R"("precision": "fp16")"),
             Catch::Contains("field 'precision': 3D kernels are fp32 or fp64; allowed: fp32 or fp64 for a 3D shape"));
  CHECK_THAT(error_of_volume(R"("radices": [4, 4])"),
             Catch::Contains("field 'radices': 3D kernels choose the radices of each axis themselves"));
  CHECK_THAT(error_of_volume(R"("intermediate_layout": "column_tiles")"),
             Catch::Contains("field 'intermediate_layout': column_tiles is for 2D kernels"));
  CHECK_THAT(error_of_volume(R"("first_y_stage": "row_pass")"),
             Catch::Contains("field 'first_y_stage': row_pass is for 2D kernels"));
  CHECK_THAT(error_of_volume(R"("pass_sync": "counters")"),
             Catch::Contains("field 'pass_sync': counters are for 1D and 2D kernels"));
  CHECK_THAT(error_of(R"({"kernels": [{"name": "v", "shape": [16, 16384, 16]}]})"),
             Catch::Contains("field 'shape': NY = 16384 is too large"));
  CHECK_THAT(error_of(R"({"kernels": [{"name": "v", "shape": [2048, 1024, 1024]}]})"),
             Catch::Contains("field 'shape': [2048, 1024, 1024] has 2147483648 points; a 3D kernel's volume is at "
                             "most 2^30 points"));
}

TEST_CASE("shared_memory_bytes unset: one-pass grids that fill 32 KB unpadded take 48 KB, padded, where offered",
          "[plan]") {
  auto first_pass = [](const std::string& top, const std::string& kernel) {
    const Plan plan = parse_plan("{" + top + R"(, "kernels": [)" + kernel + "]}");
    REQUIRE(plan.kernels.size() == 1);
    const fftgen::KernelLayout layout = fftgen::make_layout(plan.kernels[0]);
    return std::pair{plan.kernels[0].shared_memory_bytes, layout.passes.front().shared.scheme};
  };
  using Scheme = fftgen::SharedMemoryMap::Scheme;
  using P = std::pair<uint32_t, Scheme>;
  const std::string desktop = R"("targets": ["spirv", "glsl"], "device_shared_memory_bytes": 49152)";
  // 64 x 64 swizzles within 32 KB, 64 x 128 exchanges real and imaginary parts in turn unpadded;
  // both are padded at 48 KB, fp16 too, and so is a 3D kernel's 64 x 64 plane.
  CHECK(first_pass(desktop, R"({"name": "g", "shape": [64, 64]})") == P{49152, Scheme::row_padded});
  CHECK(first_pass(desktop, R"({"name": "g", "shape": [64, 128]})") == P{49152, Scheme::row_padded});
  CHECK(first_pass(desktop, R"({"name": "g", "shape": [64, 64], "precision": "fp16"})") == P{49152, Scheme::row_padded});
  CHECK(first_pass(desktop, R"({"name": "v", "shape": [64, 64, 64]})") == P{49152, Scheme::row_padded});
  // Grids padded at 32 KB already, r2c, fp64, a given budget, and plans without the devices' word keep 32 KB.
  CHECK(first_pass(desktop, R"({"name": "g", "shape": [32, 32]})") == P{32768, Scheme::row_padded});
  CHECK(first_pass(desktop, R"({"name": "v", "shape": [32, 32, 32]})") == P{32768, Scheme::row_padded});
  CHECK(first_pass(desktop, R"({"name": "g", "shape": [64, 64], "transform": "r2c"})").first == 32768);
  CHECK(first_pass(desktop, R"({"name": "g", "shape": [64, 64], "precision": "fp64"})").first == 32768);
  CHECK(first_pass(desktop, R"({"name": "g", "shape": [64, 64], "shared_memory_bytes": 32768})") ==
        P{32768, Scheme::row_swizzled});
  CHECK(first_pass(R"("targets": ["spirv"])", R"({"name": "g", "shape": [64, 64]})") == P{32768, Scheme::row_swizzled});
}

TEST_CASE("shared_memory_bytes unset: one pass of one round at 48 KB where 32 KB takes two passes or rounds and the plan's devices offer it", "[plan]") {
  auto budget_of = [](const std::string& top, const std::string& kernel) {
    const Plan plan = parse_plan("{" + top + R"(, "kernels": [)" + kernel + "]}");
    REQUIRE(plan.kernels.size() == 1);
    return std::pair{plan.kernels[0].shared_memory_bytes, fftgen::make_layout(plan.kernels[0]).passes.size()};
  };
  using P = std::pair<uint32_t, size_t>;
  const std::string desktop = R"("targets": ["spirv", "glsl"], "device_shared_memory_bytes": 49152)";
  // A C2C of 9600 (one pass exchanged in 3 rounds at 32 KB) and an R2C of 24000 (its 12000, two
  // passes at 32 KB) take one pass of one round.
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [9600]})") == P{49152, 1});
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [24000], "transform": "r2c"})") == P{49152, 1});
  // Lengths that one pass holds at 32 KB, or that 48 KB does not make one pass, keep 32 KB (C2C 8192
  // takes 16 KB, a row of the table of measured choices).
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [4096]})") == P{32768, 1});
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [8192]})") == P{16384, 1});
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [12500]})") == P{32768, 1});  // rounds at either budget
  // Without the plan's word (lavapipe, mobile GPUs, D3D12 and Metal offer 32 KB), a given budget, fp16: no change.
  CHECK(budget_of(R"("targets": ["spirv"])", R"({"name": "a", "shape": [9600]})") == P{32768, 1});
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [9600], "shared_memory_bytes": 32768})") == P{32768, 1});
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [12600]})") == P{32768, 2});  // no rounds fit, nor one at 48 KB
  CHECK(budget_of(desktop, R"({"name": "a", "shape": [9600], "precision": "fp16"})").first == 32768);
  // D3D12 and Metal cannot offer more, WebGPU (by default) not even 32 KB.
  for (const char* target : {"hlsl", "msl", "wgsl"})
    CHECK_THROWS_WITH(parse_plan(fmt::format(R"({{"targets": ["spirv", "{}"], "device_shared_memory_bytes": 49152, )"
                                             R"("kernels": [{{"name": "a", "shape": [64]}}]}})", target)),
                      Catch::Contains("device_shared_memory_bytes") && Catch::Contains("more than") &&
                          Catch::Contains(target));
  const std::string webgpu = R"({"targets": ["spirv", "wgsl"], "device_shared_memory_bytes": )";
  CHECK_THROWS_WITH(parse_plan(webgpu + R"(16385, "kernels": [{"name": "a", "shape": [64]}]})"),
                    Catch::Contains("16385 bytes is more than WebGPU by default offers (16384)"));
  CHECK(budget_of(R"("targets": ["spirv", "wgsl"], "device_shared_memory_bytes": 16384)",
                  R"({"name": "a", "shape": [64]})").first == 16384);
  CHECK_THROWS_WITH(parse_plan(R"({"device_shared_memory_bytes": "big", "kernels": [{"name": "a", "shape": [64]}]})"),
                    Catch::Contains("an integer from 1024 to 65536"));
}
