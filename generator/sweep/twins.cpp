#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <spirv-tools/libspirv.hpp>

#include "fftgen/sweep.hpp"

namespace fftgen {
namespace {

using ojson = nlohmann::ordered_json;

// The direction the tables show: forward where the kernel has one, else inverse.
const ojson& shown_direction(const ojson& variant) {
  return variant.contains("forward") ? variant["forward"] : variant["inverse"];
}

// The one field in which two variants differ, or "" where they differ in none or several (or
// only in the kernel's name: two kernels of a plan are not twins).
std::string single_difference(const ojson& a, const ojson& b) {
  std::string differing;
  for (const auto& [field, value] : a["fields"].items()) {
    if (b["fields"].contains(field) && b["fields"][field] == value) continue;
    if (!differing.empty() || field == "name") return "";
    differing = field;
  }
  return differing;
}

// b − a for every number of two objects with the same keys (instruction mixes, statistics).
ojson difference(const ojson& a, const ojson& b) {
  ojson delta = ojson::object();
  for (const auto& [key, value] : b.items())
    if (value.is_number() && a.contains(key) && a[key].is_number()) {
      if (value.is_number_integer() && a[key].is_number_integer())
        delta[key] = value.get<int64_t>() - a[key].get<int64_t>();
      else
        delta[key] = value.get<double>() - a[key].get<double>();
    }
  return delta;
}

ojson size_delta(const ojson& a, const ojson& b, const char* key) {
  if (!a[key].is_number() || !b[key].is_number()) return nullptr;
  return b[key].get<int64_t>() - a[key].get<int64_t>();
}

// The twins' timing: the medians' difference against the spread of their trials. A difference
// within the wider of the two trial ranges (max − min) is not a measured difference.
ojson timing_delta(const ojson& a, const ojson& b) {
  const ojson& da = a["device"];
  const ojson& db = b["device"];
  if (!da.contains("median_ms") || !db.contains("median_ms") || !da["median_ms"].is_number() || !db["median_ms"].is_number())
    return nullptr;
  const double ma = da["median_ms"], mb = db["median_ms"];
  auto range = [](const ojson& d) { return d.contains("max_ms") ? d["max_ms"].get<double>() - d["min_ms"].get<double>() : 0.0; };
  const double spread = std::max(range(da), range(db));
  return ojson{{"a_ms", ma},
               {"b_ms", mb},
               {"delta_ms", mb - ma},
               {"ratio", ma > 0 ? ojson(mb / ma) : ojson(nullptr)},
               {"spread_ms", spread},
               {"within_spread", std::abs(mb - ma) <= spread}};
}

ojson twin_entry(const ojson& a, const ojson& b, const std::string& field) {
  const ojson& fa = shown_direction(a);
  const ojson& fb = shown_direction(b);
  ojson twin{{"a", a["name"]},
             {"b", b["name"]},
             {"field", field},
             {"a_value", a["fields"][field]},
             {"b_value", b["fields"][field]},
             {"after_opt_delta", difference(fa["after_opt"], fb["after_opt"])},
             {"before_opt_delta", difference(fa["before_opt"], fb["before_opt"])},
             {"shared_memory_bytes_delta", size_delta(fa, fb, "shared_memory_bytes")},
             {"hlsl_bytes_delta", size_delta(a, b, "hlsl_bytes")},
             {"msl_bytes_delta", size_delta(a, b, "msl_bytes")},
             {"diff", fmt::format("twins/{}__vs__{}.diff", a["name"].get<std::string>(), b["name"].get<std::string>())}};
  if (a.contains("device") && b.contains("device")) {
    twin["time"] = timing_delta(a, b);
    if (a["device"].contains("statistics") && b["device"].contains("statistics"))
      twin["statistics_delta"] = difference(a["device"]["statistics"], b["device"]["statistics"]);
  }
  return twin;
}

// A module's disassembly, one string per line, with names where the module has them.
std::vector<std::string> disassembly(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::string text;
  if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_NO_HEADER))
    return {"; (spirv-dis: not a valid module)"};
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<uint32_t> words_of(const std::string& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b) words[i] |= uint32_t{static_cast<unsigned char>(bytes[4 * i + b])} << (8 * b);
  return words;
}

}  // namespace

void add_twins(ojson& report) {
  ojson twins = ojson::array();
  if (!report.contains("varying_fields") || !report.contains("variants")) {
    report["twins"] = twins;
    return;
  }
  const ojson& variants = report["variants"];
  for (const auto& f : report["varying_fields"])
    for (size_t i = 0; i < variants.size(); ++i)
      for (size_t j = i + 1; j < variants.size(); ++j)
        if (single_difference(variants[i], variants[j]) == f.get<std::string>())
          twins.push_back(twin_entry(variants[i], variants[j], f));
  report["twins"] = twins;
}

std::vector<OutputFile> twin_diffs(ojson& report, const GeneratedOutput& output) {
  std::map<std::string, const std::string*> files;
  for (const OutputFile& f : output.files) files[f.name] = &f.bytes;
  std::map<std::string, const ojson*> by_name;
  for (const auto& v : report["variants"]) by_name[v["name"].get<std::string>()] = &v;
  // Each pass's module, after spirv-opt then before, as the diff's file names.
  auto modules = [&](const ojson& variant) {
    std::vector<std::pair<std::string, std::vector<std::string>>> list;
    for (const auto& pass : shown_direction(variant)["pass_details"]) {
      const std::string spv = fmt::format("{}.{}.spv", variant["name"].get<std::string>(), pass["name"].get<std::string>());
      list.emplace_back(spv + " (after spirv-opt)", disassembly(words_of(*files.at(spv))));
      list.emplace_back(spv + " (before spirv-opt)", disassembly(output.unoptimised_spirv.at(spv)));
    }
    return list;
  };
  std::vector<OutputFile> diffs;
  for (auto& twin : report["twins"]) {
    const auto a = modules(*by_name.at(twin["a"])), b = modules(*by_name.at(twin["b"]));
    std::string text = fmt::format("# SPIR-V of twins differing in {}: {} -> {}\n", twin["field"].get<std::string>(),
                                   twin["a_value"].dump(), twin["b_value"].dump());
    for (size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
      static const std::vector<std::string> none;
      const std::string a_name = k < a.size() ? a[k].first : "/dev/null", b_name = k < b.size() ? b[k].first : "/dev/null";
      try {
        text += unified_diff(k < a.size() ? a[k].second : none, k < b.size() ? b[k].second : none, a_name, b_name);
      } catch (const std::length_error& e) {  // a module too large to diff: say so, keep the sweep
        text += fmt::format("# {} against {}: {}\n", a_name, b_name, e.what());
      }
    }
    size_t added = 0, removed = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("+++ ", 0) == 0 || line.rfind("--- ", 0) == 0) continue;
      added += !line.empty() && line[0] == '+';
      removed += !line.empty() && line[0] == '-';
    }
    twin["diff_added"] = added;
    twin["diff_removed"] = removed;
    diffs.push_back({twin["diff"].get<std::string>(), text});
  }
  return diffs;
}

}  // namespace fftgen
