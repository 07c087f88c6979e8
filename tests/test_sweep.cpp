// The sweep report's twins (variants that differ in one field), their timing against the spread of
// the trials, and the unified diff of their disassembly.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fftgen/sweep.hpp"

namespace {

using ojson = nlohmann::ordered_json;

ojson variant(const std::string& name, const char* index_math, const char* twiddles, uint32_t divmods) {
  const ojson mix{{"int_divmod", divmods}, {"shifts_masks", 10}, {"total", 100 + divmods}};
  return ojson{{"name", name},
               {"fields", {{"name", "k"}, {"index_math", index_math}, {"twiddles", twiddles}}},
               {"forward", {{"passes", 1}, {"shared_memory_bytes", 4096}, {"before_opt", mix}, {"after_opt", mix}}},
               {"hlsl_bytes", 5000 + divmods},
               {"msl_bytes", nullptr}};
}

ojson three_variants() {
  return ojson{{"plan", "twins.json"},
               {"skipped", ojson::array()},
               {"varying_fields", {"index_math", "twiddles"}},
               {"variants", {variant("a", "bitwise", "table", 0), variant("b", "divmod", "table", 5),
                             variant("c", "divmod", "computed", 5)}}};
}

nlohmann::json bench_result(const std::string& name, double median, std::vector<double> trials) {
  return nlohmann::json{{"name", name}, {"median_ms", median}, {"gb_per_s", 1.0}, {"trial_ms", trials}};
}

}  // namespace

TEST_CASE("twins are the pairs of variants that differ in exactly one field", "[sweep]") {
  ojson report = three_variants();
  fftgen::add_twins(report);
  const ojson& twins = report["twins"];
  REQUIRE(twins.size() == 2);  // a-b (index_math), b-c (twiddles); a-c differ in both
  CHECK(twins[0]["a"] == "a");
  CHECK(twins[0]["b"] == "b");
  CHECK(twins[0]["field"] == "index_math");
  CHECK(twins[0]["after_opt_delta"]["int_divmod"] == 5);
  CHECK(twins[0]["before_opt_delta"]["shifts_masks"] == 0);
  CHECK(twins[0]["hlsl_bytes_delta"] == 5);
  CHECK(twins[0]["msl_bytes_delta"].is_null());
  CHECK(twins[0]["diff"] == "twins/a__vs__b.diff");
  CHECK(twins[1]["field"] == "twiddles");
  CHECK(twins[1]["a_value"] == "table");
  CHECK(twins[1]["b_value"] == "computed");
  CHECK_FALSE(twins[0].contains("time"));
}

TEST_CASE("a twin's time difference within the spread of the trials is flagged", "[sweep]") {
  ojson report = three_variants();
  // a and b: 1.0 against 1.1 ms, but a's trials range over 0.8..1.3 ms; b and c: 1.1 against 2.0 ms.
  const nlohmann::json bench{{"device", "GPU"},
                             {"results", {bench_result("a", 1.0, {0.8, 1.0, 1.3}), bench_result("b", 1.1, {1.1, 1.1, 1.12}),
                                          bench_result("c", 2.0, {1.95, 2.0, 2.02})}}};
  fftgen::add_device_results(report, nullptr, bench, nullptr);
  const ojson& a = report["variants"][0]["device"];
  CHECK(a["min_ms"] == 0.8);
  CHECK(a["max_ms"] == 1.3);
  CHECK(a["spread"].get<double>() == Approx(0.5));
  const ojson& twins = report["twins"];
  REQUIRE(twins.size() == 2);
  CHECK(twins[0]["time"]["delta_ms"].get<double>() == Approx(0.1));
  CHECK(twins[0]["time"]["spread_ms"].get<double>() == Approx(0.5));
  CHECK(twins[0]["time"]["within_spread"] == true);
  CHECK(twins[1]["time"]["within_spread"] == false);
  CHECK(twins[1]["time"]["ratio"].get<double>() == Approx(2.0 / 1.1));
  // The page and the Markdown say so.
  CHECK(fftgen::sweep_html(report).find("within_spread") != std::string::npos);
  CHECK(fftgen::sweep_markdown(report).find("| index_math | bitwise → divmod | `a` | +5 (+5) |") != std::string::npos);
  CHECK(fftgen::sweep_markdown(report).find("⚠ +0.1 (spread 0.5)") != std::string::npos);
}

TEST_CASE("unified_diff writes diff -u's hunks", "[sweep]") {
  const std::vector<std::string> a{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"};
  std::vector<std::string> b = a;
  CHECK(fftgen::unified_diff(a, b, "a", "b").empty());
  b[1] = "two";                 // a change near the start
  b.erase(b.begin() + 12);      // and one near the end, far enough for a second hunk
  CHECK(fftgen::unified_diff(a, b, "a", "b") ==
        "--- a\n+++ b\n"
        "@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
        "@@ -10,5 +10,4 @@\n 10\n 11\n 12\n-13\n 14\n");
  CHECK(fftgen::unified_diff({}, {"x"}, "/dev/null", "b") == "--- /dev/null\n+++ b\n@@ -0,0 +1 @@\n+x\n");
}
