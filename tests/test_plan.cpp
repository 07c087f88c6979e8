// Plan parser: defaults, every field, list expansion and variant names, and every error class.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fftgen/plan.hpp"

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
  CHECK(k.twiddles == fftgen::TwiddleSource::table);
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
                        Catch::Contains("'cordic'") && Catch::Contains("allowed: table, computed"));
  }
  SECTION("direction and normalize") {
    CHECK_THAT(error_of_kernel(R"("direction": "backward")"),
               Catch::Contains("field 'direction'") && Catch::Contains("allowed: forward, inverse, both"));
    CHECK_THAT(error_of_kernel(R"("normalize": "unitary")"),
               Catch::Contains("field 'normalize'") && Catch::Contains("allowed: none, inverse, ortho"));
  }
  SECTION("fp16 is reserved") {
    CHECK_THAT(error_of_kernel(R"("precision": "fp16")"),
               Catch::Contains("field 'precision'") && Catch::Contains("reserved") && Catch::Contains("allowed: fp32"));
  }
  SECTION("N") {
    for (const char* n : {"0", "1", "3", "1000", "-8", "2.5", "1099511627776", "33554432", "true", "\"1024\"",
                          "null", "1e3", "1024.0", "18446744073709551615", "18446744073709551616"}) {
      std::string msg = error_of(R"({"kernels": [{"name": "k", "shape": [)" + std::string(n) + "]}]}");
      INFO(n);
      CHECK_THAT(msg, Catch::StartsWith("plan.json: kernel 'k': field 'shape': N") &&
                          Catch::Contains("allowed: a power of two from 2 to 16777216 (2^24)"));
    }
  }
  SECTION("shape forms") {
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": "1024"}]})"),
               Catch::Contains("field 'shape'") && Catch::Contains("must be a list"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": [256, 256]}]})"),
               Catch::Contains("field 'shape'") && Catch::Contains("2D") && Catch::Contains("reserved"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k", "shape": []}]})"),
               Catch::Contains("field 'shape'") && Catch::Contains("empty"));
    CHECK_THAT(error_of(R"({"kernels": [{"name": "k"}]})"),
               Catch::Contains("kernel 'k': field 'shape': missing"));
  }
  SECTION("radices") {
    CHECK_THAT(error_of_kernel(R"("radices": [8, 8])"),
               Catch::Contains("field 'radices'") && Catch::Contains("multiply to 64, but N = 1024"));
    for (const char* r : {"[3, 16]", "[1, 1024]", "[128, 8]"})
      CHECK_THAT(error_of_kernel(std::string(R"("radices": )") + r),
                 Catch::Contains("field 'radices'") && Catch::Contains("allowed: 2, 4, 8, 16, 32, 64"));
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
                        Catch::Contains("name, shape, direction, normalize, radices, index_math"));
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
                    Catch::Contains("big.json: kernel 'k'") && Catch::Contains("more than 65536 variants"));
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
