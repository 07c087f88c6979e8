// The table of measured choices (fftgen/measured.hpp, generator/plan/measured.cpp): measurements
// live in its rows, never as literals in the generator's code, and each row names the run that
// measured it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fftgen/codelet.hpp"
#include "fftgen/measured.hpp"
#include "fftgen/plan.hpp"

namespace fs = std::filesystem;
using fftgen::MeasuredDecision;
using fftgen::MeasuredFacts;
using fftgen::MeasuredRow;

namespace {

// The rule. A benchmark-style literal is a comparison of a length-like value with a number:
//   <length> (== | !=) <number of 64 or more>
//   <length> (< | <= | > | >=) <number of 256 or more>
// either way round, where <length> is an identifier (or call: n(), points()) named n, nx, ny, m,
// length, size, points or side, the number is decimal or a shift `1u << k` / `uint64_t{1} << k`,
// and a ternary right after the operator counts (`points <= (c2c ? 1u << 20 : ...)`). Smaller
// numbers are structure (a radix, a warp, a sector), and limits of structure are named constants
// (kMaxLog2Side, kMaxRegisterResident, kMaxInvocations, ...), which the rule does not see.
// Comments and string literals are not code: the rule strips them first.
const char* const kLength = R"(\b(?:n|nx|ny|m|length|size|points|side)\b(?:\s*\(\s*\))?)";
const char* const kOp = R"((==|!=|<=|>=|<(?![<=])|>(?![>=])))";
const char* const kNumber = R"((?:\(\s*)?(?:(?:1u?|1ull?|uint64_t\{1\})\s*<<\s*(\d+)|\b(\d+)[uUlL]*\b))";

uint64_t number_of(const std::smatch& m, size_t shift_group, size_t plain_group) {
  if (m[shift_group].matched) {
    const unsigned long k = std::stoul(m[shift_group].str());
    return k >= 63 ? ~uint64_t{0} : uint64_t{1} << k;
  }
  const std::string digits = m[plain_group].str();
  return digits.size() > 18 ? ~uint64_t{0} : std::stoull(digits);
}

bool benchmark_style(const std::string& op, uint64_t value) {
  if (op == "==" || op == "!=") return value >= 64;
  return value >= 256;
}

// The line without its // comment and with its string literals emptied ("..." kept as "").
std::string code_of(const std::string& line, bool& in_block_comment) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (in_block_comment) {
      if (line.compare(i, 2, "*/") == 0) in_block_comment = false, ++i;
      continue;
    }
    if (line.compare(i, 2, "/*") == 0) {
      in_block_comment = true;
      ++i;
      continue;
    }
    if (line.compare(i, 2, "//") == 0) break;
    if (line[i] == '"' || line[i] == '\'') {
      const char quote = line[i];
      out += quote;
      for (++i; i < line.size() && line[i] != quote; ++i)
        if (line[i] == '\\') ++i;
      out += quote;
      continue;
    }
    out += line[i];
  }
  return out;
}

// Every benchmark-style comparison in `code` (one line of code, comments stripped).
std::vector<std::string> benchmark_literals(const std::string& code) {
  static const std::regex forward(std::string(kLength) + R"(\s*)" + kOp + R"(\s*)" + kNumber);
  static const std::regex ternary(std::string(kLength) + R"(\s*)" + kOp + R"(\s*\([^;()?]*\?\s*)" + kNumber);
  static const std::regex backward(std::string(kNumber) + R"(\s*)" + kOp + R"(\s*[\w.]*?)" + kLength);
  std::vector<std::string> found;
  for (const std::regex* re : {&forward, &ternary}) {
    for (auto it = std::sregex_iterator(code.begin(), code.end(), *re); it != std::sregex_iterator(); ++it)
      if (benchmark_style((*it)[1].str(), number_of(*it, 2, 3))) found.push_back(it->str());
  }
  for (auto it = std::sregex_iterator(code.begin(), code.end(), backward); it != std::sregex_iterator(); ++it)
    if (benchmark_style((*it)[3].str(), number_of(*it, 1, 2))) found.push_back(it->str());
  return found;
}

// Literal comparisons the rule would flag that are structure, not measurement: (file under
// generator/, text of the comparison, why). Empty: every such limit is a named constant.
struct Allowed {
  const char* file;
  const char* text;
  const char* why;
};
const std::vector<Allowed> kAllowed = {};

bool allowed(const std::string& file, const std::string& text) {
  return std::any_of(kAllowed.begin(), kAllowed.end(),
                     [&](const Allowed& a) { return file == a.file && text.find(a.text) != std::string::npos; });
}

std::vector<std::string> lines_of(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const fs::path kSource = FFTGEN_SOURCE_DIR;

}  // namespace

TEST_CASE("the rule finds benchmark-style literals and leaves structure alone", "[measured]") {
  for (const char* code : {"if (layout.ny == 1024) x();", "return spec.n() == n && n == 1u << 21;",
                           "fp16 && layout.n >= 2048 && layout.n <= 4096", "if (2048 <= n) f();",
                           "return spec.points() <= (spec.transform == Transform::c2c ? 1u << 20 : 1u << 18);",
                           "uint64_t{layout.ny} * nx >= 131072", "pass.size >= 2048", "column_pass && m >= 512",
                           "y.size >= uint64_t{1} << 10", "if (n() >= 8192) return t;"}) {
    INFO(code);
    CHECK(!benchmark_literals(code).empty());
  }
  for (const char* code : {"if (n == 1) return;", "n <= 2 * budget", "side > (1u << max_log2)", "m / 16 > kAutoWorkgroupSize",
                           "s.size() > 80", "bits >= 5", "std::vector<uint32_t> v; x << 20;", "n > kMaxRegisterResident",
                           "layout.ny < 4", "stride == pass.length"}) {
    INFO(code);
    CHECK(benchmark_literals(code).empty());
  }
  bool block = false;
  CHECK(code_of("x = 1; // ny == 1024 measured", block) == "x = 1; ");
  CHECK(code_of("fail(\"n == 4096\"); y();", block) == "fail(\"\"); y();");
}

TEST_CASE("no benchmark-style literal in generator/ outside the table of measured choices", "[measured]") {
  const fs::path root = kSource / "generator";
  const fs::path table = root / "plan" / "measured.cpp";
  size_t files = 0;
  std::vector<std::string> hits;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const fs::path& path = entry.path();
    if (!entry.is_regular_file() || (path.extension() != ".cpp" && path.extension() != ".hpp") || path == table)
      continue;
    ++files;
    const std::string file = fs::relative(path, root).generic_string();
    bool block = false;
    const std::vector<std::string> lines = lines_of(path);
    for (size_t i = 0; i < lines.size(); ++i)
      for (const std::string& hit : benchmark_literals(code_of(lines[i], block)))
        if (!allowed(file, hit)) hits.push_back(file + ":" + std::to_string(i + 1) + ": " + hit);
  }
  CHECK(files > 20);
  std::string listed;
  for (const std::string& hit : hits) listed += "\n  " + hit;
  INFO("a length or threshold from a benchmark belongs in a row of generator/plan/measured.cpp (or, for a limit of "
       "structure, a named constant):" << listed);
  CHECK(hits.empty());
  for (const Allowed& a : kAllowed) {  // an allowance outlives its line: drop it
    INFO(a.file << ": " << a.text);
    const std::vector<std::string> lines = lines_of(root / a.file);
    CHECK(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(a.text) != std::string::npos; }));
  }
}

TEST_CASE("every row of the table names a run under bench/results and is well-formed", "[measured]") {
  const auto& rows = fftgen::measured_rows();
  REQUIRE(!rows.empty());
  for (const MeasuredRow& row : rows) {
    INFO("row of decision " << static_cast<int>(row.decision) << " from " << (row.run ? row.run : "(none)"));
    REQUIRE(row.run != nullptr);
    const fs::path run = kSource / "bench" / "results" / row.run;
    CHECK(fs::is_directory(run));
    CHECK((fs::is_directory(run) && !fs::is_empty(run)));
    REQUIRE(row.note != nullptr);
    CHECK(std::string(row.note).size() >= 12);  // the numbers behind the choice
    const auto& k = row.kernels;
    // A row chooses for some kernels, never for all.
    CHECK((!k.transforms.empty() || k.two_d || k.precision || k.convolution || !k.n.any() || !k.nx.any() ||
           !k.ny.any() || !k.points.any() || !k.size.any() || !k.tile_bytes.any()));
    for (const auto* range : {&k.n, &k.nx, &k.ny, &k.points, &k.size, &k.tile_bytes}) CHECK(range->lo <= range->hi);
    for (uint32_t r : row.choice.radices)
      CHECK(std::find(std::begin(fftgen::kSupportedRadices), std::end(fftgen::kSupportedRadices), r) !=
            std::end(fftgen::kSupportedRadices));
    uint64_t product = 1;
    for (uint32_t r : row.choice.radices) product *= r;
    switch (row.decision) {
      case MeasuredDecision::row_split:  // the split of exactly one length
        CHECK(k.n.lo == k.n.hi);
        CHECK(product == k.n.lo);
        break;
      case MeasuredDecision::round_trip_tiles:  // the stages of exactly one column length, on a workgroup
        CHECK(k.ny.lo == k.ny.hi);
        CHECK(product == k.ny.lo);
        CHECK(row.choice.invocations > 0);
        CHECK(row.choice.invocations <= 1024);
        break;
      default:
        CHECK(row.choice.radices.empty());
        CHECK(row.choice.invocations == 0);
    }
  }
}

TEST_CASE("the measured weights and thresholds outside the rows name their runs too", "[measured]") {
  for (const char* run : {fftgen::measured_cost_model().run, fftgen::measured_twiddle_tree().run,
                          fftgen::measured_split_model().run}) {
    INFO(run);
    CHECK(fs::is_directory(kSource / "bench" / "results" / run));
  }
  const fftgen::TwiddleTreeRule& tree = fftgen::measured_twiddle_tree();
  CHECK(tree.mixed_radix_from >= 3);  // a product tree saves a load from radix 3 up
  CHECK(tree.power_of_two_from >= 4);
}

TEST_CASE("measured_choice takes the first row that applies", "[measured]") {
  MeasuredFacts f;
  f.n = 1080;
  const MeasuredRow* split = fftgen::measured_choice(MeasuredDecision::row_split, f);
  REQUIRE(split != nullptr);
  CHECK(split->choice.radices == std::vector<uint32_t>{12, 9, 10});
  f.n = 1000;
  CHECK(fftgen::measured_choice(MeasuredDecision::row_split, f) == nullptr);
  // fp16 r2c rows of 2048 complex points at NY = 2048: the narrower row (no pairs) comes before the
  // wider one (pairs from NY = 2048).
  MeasuredFacts grid;
  grid.transform = fftgen::Transform::r2c;
  grid.precision = fftgen::Precision::fp16;
  grid.two_d = true;
  grid.n = 2048;
  grid.nx = 4096;
  grid.ny = 2048;
  grid.points = 4096 * 2048;
  CHECK(!fftgen::measured_yes(MeasuredDecision::pair_rows, grid, true));
  grid.ny = 4096;
  CHECK(fftgen::measured_yes(MeasuredDecision::pair_rows, grid));
  grid.precision = fftgen::Precision::fp32;
  grid.ny = 2048;
  CHECK(fftgen::measured_yes(MeasuredDecision::pair_rows, grid));
}
