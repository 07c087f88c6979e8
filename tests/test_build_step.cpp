// What fftgen writes for a build system (generator/output): the headers of --headers hold exactly
// the bytes of the files they embed, --dry-run names the same headers, the dependency file is
// escaped for Make, and bad options are refused with a clear message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "fftgen/build_step.hpp"
#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"

namespace {

// Kernel names that are not C++ identifiers on their own (a leading digit, a leading underscore).
const char* kPlan = R"({"targets": ["spirv", "hlsl"], "kernels": [
  {"name": "8point", "shape": [8]},
  {"name": "_two_pass", "shape": [32768], "direction": "forward", "pass_sync": "dispatch"},
  {"name": "computed", "shape": [16], "twiddles": "computed", "direction": "inverse"}]})";

const fftgen::OutputFile& file_named(const fftgen::GeneratedOutput& out, const std::string& name) {
  for (const auto& f : out.files)
    if (f.name == name) return f;
  FAIL("no file " << name);
  return out.files.front();
}

// The initialiser list of `array` in a header: the text between "<array>[...] = {" and "};".
std::vector<std::string> values_of(const std::string& header, const std::string& array) {
  const std::regex start(array + R"(\[\d+\] = \{)");
  std::smatch m;
  REQUIRE(std::regex_search(header, m, start));
  const size_t begin = m.position(0) + m.length(0);
  const size_t end = header.find("};", begin);
  REQUIRE(end != std::string::npos);
  std::vector<std::string> values;
  std::string body = header.substr(begin, end - begin);
  // Character literals may hold ',' and ' ': split on the commas that end a value.
  std::string current;
  bool in_char = false;
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '\'' && (i == 0 || body[i - 1] != '\\' || (i >= 2 && body[i - 2] == '\\'))) in_char = !in_char;
    if (c == ',' && !in_char) {
      values.push_back(current);
      current.clear();
    } else if (in_char || (c != ' ' && c != '\n')) {
      current += c;
    }
  }
  return values;
}

uint32_t word_at(const std::string& bytes, size_t i) {
  uint32_t w = 0;
  for (int b = 3; b >= 0; --b) w = (w << 8) | static_cast<unsigned char>(bytes[4 * i + b]);
  return w;
}

char char_of(const std::string& literal) {  // 'x', '\'', '\\', '\ooo'
  REQUIRE(literal.size() >= 3);
  if (literal[1] != '\\') return literal[1];
  if (literal[2] == '\'' || literal[2] == '\\') return literal[2];
  return static_cast<char>(std::strtoul(literal.substr(2, 3).c_str(), nullptr, 8));
}

}  // namespace

TEST_CASE("--headers embeds every SPIR-V module, twiddle table and the manifest byte for byte") {
  const fftgen::Plan plan = fftgen::parse_plan(kPlan, "embed.json");
  fftgen::GeneratedOutput out = fftgen::generate(plan, "embed.json");
  const fftgen::GeneratedOutput plain = out;
  fftgen::BuildStepOptions options;
  options.headers = true;
  options.header_namespace = "my_kernels";
  fftgen::check_build_step_options(options, plan);
  fftgen::add_build_step_files(out, "embed.json", options);

  SECTION("the files stay, manifest.json stays last, a header per embedded file plus the umbrella") {
    REQUIRE(out.files.back().name == "manifest.json");
    std::map<std::string, int> names;
    for (const auto& f : out.files) ++names[f.name];
    for (const auto& f : plain.files) CHECK(names[f.name] == 1);
    size_t embedded = 0;
    for (const auto& f : plain.files) {
      const bool embeds = f.name.size() > 4 && (f.name.substr(f.name.size() - 4) == ".spv" ||
                                                f.name.find(".twiddles.bin") != std::string::npos ||
                                                f.name == "manifest.json");
      CHECK(names.count(f.name + ".hpp") == (embeds ? 1u : 0u));
      embedded += embeds;
    }
    // The plan exercises a two-pass kernel with a twiddle table and one without a table.
    CHECK(names.count("_two_pass.fwd1.spv.hpp") == 1);
    CHECK(names.count("_two_pass.twiddles.bin.hpp") == 1);
    CHECK(names.count("computed.inv0.spv.hpp") == 1);
    CHECK(names.count("computed.twiddles.bin") == 0);
    CHECK(names.count("my_kernels.hpp") == 1);
    CHECK(out.files.size() == plain.files.size() + embedded + 1);
  }

  SECTION("SPIR-V words, twiddle floats and manifest characters equal the files' bytes") {
    for (const auto& f : plain.files) {
      auto header_of = [&] { return file_named(out, f.name + ".hpp").bytes; };
      if (f.name.size() > 4 && f.name.substr(f.name.size() - 4) == ".spv") {
        const std::string header = header_of();
        const std::string symbol = "spirv_" + std::regex_replace(f.name.substr(0, f.name.size() - 4), std::regex("\\."), "_");
        const auto values = values_of(header, "std::uint32_t " + symbol);
        REQUIRE(values.size() * 4 == f.bytes.size());
        for (size_t i = 0; i < values.size(); ++i) {
          INFO(f.name << " word " << i);
          REQUIRE(std::strtoul(values[i].c_str(), nullptr, 16) == word_at(f.bytes, i));
        }
      } else if (f.name.find(".twiddles.bin") != std::string::npos) {
        const std::string header = header_of();
        const std::string kernel = f.name.substr(0, f.name.find(".twiddles.bin"));
        const auto values = values_of(header, "float table_" + kernel + "_twiddles");
        REQUIRE(values.size() * 4 == f.bytes.size());
        for (size_t i = 0; i < values.size(); ++i) {
          INFO(f.name << " value " << i << ": " << values[i]);
          const float parsed = std::strtof(values[i].c_str(), nullptr);  // hexadecimal float, exact
          uint32_t bits;
          std::memcpy(&bits, &parsed, 4);
          REQUIRE(bits == word_at(f.bytes, i));
        }
      } else if (f.name == "manifest.json") {
        const std::string header = header_of();
        const auto values = values_of(header, "char manifest_json");
        REQUIRE(values.size() == f.bytes.size() + 1);
        std::string text;
        for (size_t i = 0; i + 1 < values.size(); ++i) text += char_of(values[i]);
        CHECK(text == f.bytes);
        CHECK(values.back() == "'\\0'");
      }
    }
  }

  SECTION("the umbrella header includes every header and lists every embedded file but the manifest") {
    const std::string& umbrella = file_named(out, "my_kernels.hpp").bytes;
    CHECK(umbrella.find("namespace my_kernels {") != std::string::npos);
    CHECK(umbrella.find("Generated by fftgen") == 3);
    CHECK(umbrella.find("from embed.json") != std::string::npos);
    for (const auto& f : out.files)
      if (f.name.size() > 4 && f.name.substr(f.name.size() - 4) == ".hpp" && f.name != "my_kernels.hpp")
        CHECK(umbrella.find("#include \"" + f.name + "\"") != std::string::npos);
    CHECK(umbrella.find("{\"8point.fwd0.spv\", spirv_8point_fwd0, sizeof(spirv_8point_fwd0)}") != std::string::npos);
    CHECK(umbrella.find("{\"_two_pass.twiddles.bin\", table__two_pass_twiddles, sizeof(table__two_pass_twiddles)}") !=
          std::string::npos);
    CHECK(umbrella.find("{\"manifest.json\"") == std::string::npos);
  }

  SECTION("--dry-run names the same files") {
    std::vector<std::string> planned = fftgen::planned_files(plan, "embed.json");
    fftgen::add_build_step_names(planned, options);
    std::vector<std::string> written;
    for (const auto& f : out.files) written.push_back(f.name);
    CHECK(planned.back() == "manifest.json");
    std::sort(planned.begin(), planned.end());
    std::sort(written.begin(), written.end());
    CHECK(planned == written);
  }
}

TEST_CASE("--headers needs spirv among the targets and a C++ identifier as namespace") {
  fftgen::BuildStepOptions options;
  options.headers = true;
  const fftgen::Plan hlsl_only = fftgen::parse_plan(R"({"targets": ["hlsl"], "kernels": [{"name": "a", "shape": [8]}]})");
  CHECK_THROWS_WITH(fftgen::check_build_step_options(options, hlsl_only),
                    Catch::Contains("the targets do not include spirv"));
  const fftgen::Plan plan = fftgen::parse_plan(R"({"kernels": [{"name": "a", "shape": [8]}]})");
  for (const char* bad : {"", "9lives", "a::b", "my-kernels", "naïve"}) {
    options.header_namespace = bad;
    CHECK_THROWS_WITH(fftgen::check_build_step_options(options, plan), Catch::Contains("is not a C++ identifier"));
  }
  options.header_namespace = "_ok9";
  CHECK_NOTHROW(fftgen::check_build_step_options(options, plan));
  options.headers = false;  // without --headers nothing is checked or added
  options.header_namespace = "not checked";
  CHECK_NOTHROW(fftgen::check_build_step_options(options, hlsl_only));
  std::vector<std::string> names{"a.fwd0.spv", "manifest.json"};
  fftgen::add_build_step_names(names, options);
  CHECK(names == std::vector<std::string>{"a.fwd0.spv", "manifest.json"});
}

TEST_CASE("the dependency file is a Make rule with spaces, '#' and '$' escaped") {
  CHECK(fftgen::make_depfile_text("/b/k.stamp", {"/src/plan.json", "/usr/bin/fftgen"}) ==
        "/b/k.stamp: \\\n  /src/plan.json \\\n  /usr/bin/fftgen\n");
  CHECK(fftgen::make_depfile_text("/b/my stamp", {"/a b/#1/$x.json"}) == "/b/my\\ stamp: \\\n  /a\\ b/\\#1/$$x.json\n");
  CHECK(fftgen::make_depfile_text("/b/./x/../k.stamp", {}) == "/b/k.stamp:\n");
}

TEST_CASE("the embedded plan schema is docs/plan.schema.json") {
  const std::string_view schema = fftgen::plan_schema_text();
  CHECK(schema.find("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"") != std::string_view::npos);
  const auto doc = nlohmann::json::parse(schema);
  // Every kernel has a name, and either a shape or a convolution (which derives the shape).
  CHECK(doc.at("$defs").at("kernel").at("required") == nlohmann::json{"name"});
  CHECK(doc.at("$defs").at("kernel").at("oneOf").size() == 2);
}
