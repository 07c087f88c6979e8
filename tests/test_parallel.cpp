// Parallel generation gives the same files as serial, and variants whose GLSL is the same text
// (apart from the header naming the variant) are compiled once.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/sweep.hpp"

namespace {

// 3 x 2 x 2 = 12 variants, all targets. "auto" and [8, 8] are the same split at N = 64, and the
// 48 KB budget lays out as the 32 KB one at these sizes: the shaders repeat.
const char* kPlan = R"({"kernels": [
  {"name": "v", "shape": [[64], [256], [1024]], "radices": ["auto", [8, 8], [16, 16], [4, 16, 16]],
   "index_math": ["bitwise", "divmod"], "shared_memory_bytes": [32768, 49152]}]})";

fftgen::GeneratedOutput generate_with(const fftgen::Plan& plan, unsigned jobs) {
  fftgen::GenerateOptions options;
  options.jobs = jobs;
  return fftgen::generate(plan, "parallel.json", options);
}

}  // namespace

TEST_CASE("parallel generation writes byte-identical files to serial generation", "[generate]") {
  const fftgen::Plan plan = fftgen::parse_sweep_plan(kPlan, "parallel.json");
  REQUIRE(plan.kernels.size() >= 12);
  const fftgen::GeneratedOutput serial = generate_with(plan, 1);
  for (unsigned jobs : {2u, 5u, 0u}) {
    const fftgen::GeneratedOutput parallel = generate_with(plan, jobs);
    REQUIRE(parallel.files.size() == serial.files.size());
    for (size_t i = 0; i < serial.files.size(); ++i) {
      INFO("jobs " << jobs << ", file " << serial.files[i].name);
      CHECK(parallel.files[i].name == serial.files[i].name);
      CHECK(parallel.files[i].bytes == serial.files[i].bytes);
    }
  }
  // The old entry point (serial, progress by name) is the same generation.
  const fftgen::GeneratedOutput plain = fftgen::generate(plan, "parallel.json");
  REQUIRE(plain.files.size() == serial.files.size());
  for (size_t i = 0; i < serial.files.size(); ++i) CHECK(plain.files[i].bytes == serial.files[i].bytes);
}

TEST_CASE("variants with the same GLSL are compiled once", "[generate]") {
  const fftgen::Plan plan = fftgen::parse_sweep_plan(kPlan, "parallel.json");
  const fftgen::GeneratedOutput out = generate_with(plan, 0);
  size_t passes = 0, distinct = 0;
  std::set<std::string> bodies;
  for (const auto& f : out.files) {
    if (f.name.size() < 5 || f.name.substr(f.name.size() - 5) != ".comp") continue;
    ++passes;
    // The GLSL without its header line (line 2: the variant's name) is what is compiled.
    const size_t line2 = f.bytes.find('\n') + 1;
    std::string body = f.bytes;
    body.erase(line2, body.find('\n', line2) - line2);
    distinct += bodies.insert(body).second;
  }
  INFO(passes << " passes, " << distinct << " distinct GLSL texts");
  CHECK(distinct < passes);
  // Each distinct text once (no pass here has separate HLSL/MSL source: every layout fits 32 KB).
  CHECK(out.shaders_compiled == distinct);
}

TEST_CASE("a sweep's generation leaves out variants the targets cannot take, with the reason", "[generate]") {
  // 512 invocations hold 8192 values in 64 KB; within the 32 KB that D3D12 and Metal allow that
  // workgroup size cannot work (1024 values can).
  const fftgen::Plan plan = fftgen::parse_sweep_plan(
      R"({"targets": ["spirv", "hlsl"], "kernels": [{"name": "big", "shape": [[1024], [8192]], "workgroup_size": 512,
          "shared_memory_bytes": 65536, "direction": "forward"}]})", "skip.json");
  REQUIRE(plan.kernels.size() == 2);
  fftgen::GenerateOptions options;
  options.skip_failed_variants = true;
  const fftgen::GeneratedOutput out = fftgen::generate(plan, "skip.json", options);
  const size_t generated = out.manifest["kernels"].size();
  CHECK(generated + out.skipped.size() == plan.kernels.size());
  REQUIRE(out.skipped.size() == 1);
  CHECK(out.skipped[0].name == "big__n8192");
  for (const auto& s : out.skipped) CHECK(s.reason.find("D3D12 and Metal allow") != std::string::npos);
  // A plain generation of the same plan refuses it whole if any variant failed.
  CHECK_THROWS_AS(fftgen::generate(plan, "skip.json"), fftgen::PlanError);
}

// A driver's pipeline statistics (the H100's: "Register Count", no spill statistic) reach the
// variant's device figures; reading them once crashed fftgen sweep --results.
TEST_CASE("sweep device results take the driver's pipeline statistics", "[sweep]") {
  nlohmann::ordered_json report;
  report["variants"] = nlohmann::ordered_json::array({nlohmann::ordered_json{{"name", "k"}}, nlohmann::ordered_json{{"name", "other"}}});
  const auto pass = [](int registers) {
    nlohmann::json statistics{{"Register Count", registers}, {"Stack Size", 0}};
    nlohmann::json executable{{"name", "CS"}, {"statistics", statistics}};
    return nlohmann::json{{"pass", "fwd0"}, {"executables", nlohmann::json::array({executable})}};
  };
  nlohmann::json kernel{{"kernel", "k"}, {"passes", nlohmann::json::array({pass(36), pass(40)})}};
  const nlohmann::json stats{{"device", "GPU"}, {"kernels", nlohmann::json::array({kernel})}};
  nlohmann::json result{{"name", "k"}, {"median_ms", 0.5}, {"gb_per_s", 2000.0}};
  const nlohmann::json bench{{"results", nlohmann::json::array({result})}};
  fftgen::add_device_results(report, nlohmann::json::object(), bench, stats);
  const auto& device = report["variants"][0]["device"];
  CHECK(device["registers"] == 40);
  CHECK(device["spills"].is_null());
  CHECK(device["gb_per_s"] == 2000.0);
  CHECK_FALSE(report["variants"][1].contains("device"));
  CHECK(report["device"]["name"] == "GPU");
}
