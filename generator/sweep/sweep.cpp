#include "fftgen/sweep.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "fftgen/emit.hpp"
#include "fftgen/instruction_mix.hpp"

namespace fftgen {
namespace {

using ojson = nlohmann::ordered_json;

std::vector<uint32_t> words_of(const std::string& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b) words[i] |= uint32_t{static_cast<unsigned char>(bytes[4 * i + b])} << (8 * b);
  return words;
}

// The value at `key` of the first element of `list` whose `name_key` is `name`, or null.
const nlohmann::json* find_by(const nlohmann::json& doc, const char* list, const char* name_key,
                              const std::string& name) {
  if (!doc.is_object() || !doc.contains(list) || !doc[list].is_array()) return nullptr;
  for (const auto& e : doc[list])
    if (e.is_object() && e.value(name_key, std::string()) == name) return &e;
  return nullptr;
}

std::string cell(const ojson& v) {
  if (v.is_null()) return "–";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:.4g}", v.get<double>());
  return v.dump();
}

// The table's columns: (heading, JSON pointer into a variant).
std::vector<std::pair<std::string, std::string>> columns(const ojson& report, const char* mix) {
  std::vector<std::pair<std::string, std::string>> cols{{"variant", "/name"}};
  for (const auto& f : report["varying_fields"]) cols.emplace_back(f.get<std::string>(), "/fields/" + f.get<std::string>());
  cols.emplace_back("passes", "/forward/passes");
  static const std::vector<std::pair<const char*, const char*>> mix_headings{
      {"div/mod", "int_divmod"},  {"shift/mask", "shifts_masks"}, {"imul", "int_muls"},
      {"fadd", "float_adds"},     {"fmul", "float_muls"},         {"fma", "float_fmas"},
      {"buf ld", "buffer_loads"}, {"buf st", "buffer_stores"},    {"smem ld", "shared_loads"},
      {"smem st", "shared_stores"}, {"barriers", "barriers"},     {"total", "total"}};
  for (const auto& [heading, key] : mix_headings)
    cols.emplace_back(heading, fmt::format("/forward/{}/{}", mix, key));
  cols.emplace_back("shared bytes", "/forward/shared_memory_bytes");
  cols.emplace_back("HLSL bytes", "/hlsl_bytes");
  cols.emplace_back("MSL bytes", "/msl_bytes");
  if (report.contains("device")) {
    cols.emplace_back("GPU ms", "/device/median_ms");
    cols.emplace_back("spread", "/device/spread");
    cols.emplace_back("GB/s", "/device/gb_per_s");
    cols.emplace_back("rel. L2 fwd", "/device/rel_l2_forward");
    cols.emplace_back("rel. L2 inv", "/device/rel_l2_inverse");
    cols.emplace_back("registers", "/device/registers");
    cols.emplace_back("spills", "/device/spills");
  }
  return cols;
}

// fftgen-vk bench's figures of one kernel: median, GB/s, and the trials' times with their range.
void add_timing(ojson& device, const nlohmann::json& bench_entry) {
  device["median_ms"] = bench_entry.contains("median_ms") ? ojson(bench_entry["median_ms"]) : ojson(nullptr);
  device["gb_per_s"] = bench_entry.contains("gb_per_s") ? ojson(bench_entry["gb_per_s"]) : ojson(nullptr);
  if (bench_entry.contains("error")) device["bench_error"] = bench_entry["error"];
  const nlohmann::json trials = bench_entry.value("trial_ms", nlohmann::json::array());
  auto is_number = [](const nlohmann::json& t) { return t.is_number(); };
  if (!trials.is_array() || trials.empty() || !std::all_of(trials.begin(), trials.end(), is_number) ||
      !device["median_ms"].is_number())
    return;
  const auto [low, high] = std::minmax_element(trials.begin(), trials.end());
  const double median = device["median_ms"];
  device["trial_ms"] = trials;
  device["min_ms"] = *low;
  device["max_ms"] = *high;
  // (max − min) / median: 0.1 means the trials spread over 10% of the median.
  device["spread"] = median > 0 ? ojson((high->get<double>() - low->get<double>()) / median) : ojson(nullptr);
}

// Every numeric pipeline statistic of a kernel: the most over its passes and executables.
ojson statistics_maxima(const nlohmann::json& stats_entry) {
  ojson maxima = ojson::object();
  for (const auto& pass : stats_entry.value("passes", nlohmann::json::array()))
    for (const auto& exe : pass.value("executables", nlohmann::json::array())) {
      const nlohmann::json statistics = exe.value("statistics", nlohmann::json::object());
      for (const auto& [stat, value] : statistics.items())
        if (value.is_number() && (!maxima.contains(stat) || value.get<double>() > maxima[stat].get<double>()))
          maxima[stat] = value;
    }
  return maxima;
}

// "+3", "-2", "0" or "–": a twin's b − a.
std::string signed_cell(const ojson& v) {
  if (!v.is_number()) return "–";
  if (v.is_number_integer()) return v.get<int64_t>() == 0 ? std::string("0") : fmt::format("{:+}", v.get<int64_t>());
  return fmt::format("{:+.3g}", v.get<double>());
}

// The twins' table: one row per pair, b − a of the counts after (and before) spirv-opt.
std::string twins_markdown(const ojson& report) {
  if (report["twins"].empty()) return "";
  std::string out = "\n## Twins (variants that differ in one field): b − a\n\n"
                    "Instruction counts after spirv-opt (before in brackets). A time difference marked ⚠ is within "
                    "the spread of the trials (the wider max − min of the two): not a measured difference.\n\n"
                    "| field | a → b | a | div/mod | shift/mask | imul | float | loads/stores | barriers | total | HLSL bytes | "
                    "MSL bytes | GPU ms | diff |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& t : report["twins"]) {
    const ojson& after = t["after_opt_delta"];
    const ojson& before = t["before_opt_delta"];
    auto both = [&](std::initializer_list<const char*> keys) {
      int64_t a = 0, b = 0;
      for (const char* k : keys) a += after.value(k, int64_t{0}), b += before.value(k, int64_t{0});
      return fmt::format("{} ({})", signed_cell(a), signed_cell(b));
    };
    std::string time = "–";
    if (t.contains("time") && t["time"].is_object())
      time = fmt::format("{}{} (spread {:.3g})", t["time"]["within_spread"].get<bool>() ? "⚠ " : "",
                         signed_cell(t["time"]["delta_ms"]), t["time"]["spread_ms"].get<double>());
    out += fmt::format("| {} | {} → {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | [diff]({}) |\n",
                       t["field"].get<std::string>(), cell(t["a_value"]), cell(t["b_value"]), t["a"].get<std::string>(),
                       both({"int_divmod"}), both({"shifts_masks"}), both({"int_muls"}),
                       both({"float_adds", "float_muls", "float_fmas"}),
                       both({"buffer_loads", "buffer_stores", "shared_loads", "shared_stores"}), both({"barriers"}),
                       both({"total"}), signed_cell(t["hlsl_bytes_delta"]), signed_cell(t["msl_bytes_delta"]), time,
                       t["diff"].get<std::string>());
  }
  return out;
}

}  // namespace

ojson sweep_report(const Plan& plan, const GeneratedOutput& output, const std::string& plan_source) {
  std::map<std::string, const std::string*> files;
  for (const OutputFile& f : output.files) files[f.name] = &f.bytes;
  std::map<std::string, const KernelSpec*> specs;
  for (const KernelSpec& k : plan.kernels) specs[k.name] = &k;
  auto size_of = [&](const ojson& pass, const char* target) -> ojson {
    if (!pass["files"].contains(target)) return nullptr;
    return files.at(pass["files"][target].get<std::string>())->size();
  };

  // Text sizes summed over every pass of both directions; null when the target was not asked for.
  auto add_size = [](ojson& sum, const ojson& size) {
    if (!size.is_null()) sum = (sum.is_null() ? size_t{0} : sum.get<size_t>()) + size.get<size_t>();
  };
  ojson variants = ojson::array();
  std::map<std::string, std::set<std::string>> values_seen;
  for (const auto& kernel : output.manifest["kernels"]) {
    const std::string name = kernel["name"];
    ojson fields = variant_fields(*specs.at(name));
    for (const auto& [field, value] : fields.items()) values_seen[field].insert(value.dump());
    ojson variant{{"name", name}, {"fields", fields}};
    ojson hlsl_bytes = nullptr, msl_bytes = nullptr;
    for (const char* direction : {"forward", "inverse"}) {
      if (!kernel.contains(direction)) continue;
      ojson passes = ojson::array();
      InstructionMix before_total, after_total;
      uint32_t shared = 0;
      for (const auto& pass : kernel[direction]) {
        const std::string spirv_name = pass["files"]["spirv"];
        const InstructionMix after = count_instructions(words_of(*files.at(spirv_name)));
        const InstructionMix before = count_instructions(output.unoptimised_spirv.at(spirv_name));
        before_total += before;
        after_total += after;
        shared = std::max(shared, pass["shared_memory_bytes"].get<uint32_t>());
        ojson p{{"name", pass["name"]},
                {"shared_memory_bytes", pass["shared_memory_bytes"]},
                {"spirv_bytes", size_of(pass, "spirv")},
                {"hlsl_bytes", size_of(pass, "hlsl")},
                {"msl_bytes", size_of(pass, "msl")},
                {"before_opt", to_json(before)},
                {"after_opt", to_json(after)}};
        add_size(hlsl_bytes, p["hlsl_bytes"]);
        add_size(msl_bytes, p["msl_bytes"]);
        passes.push_back(p);
      }
      variant[direction] = {{"passes", passes.size()},
                            {"shared_memory_bytes", shared},
                            {"before_opt", to_json(before_total)},
                            {"after_opt", to_json(after_total)},
                            {"pass_details", passes}};
    }
    variant["hlsl_bytes"] = hlsl_bytes;
    variant["msl_bytes"] = msl_bytes;
    variants.push_back(variant);
  }
  ojson varying = ojson::array();
  for (const PlanField& f : plan_fields())
    if (values_seen[f.name].size() > 1) varying.push_back(f.name);
  ojson skipped = ojson::array();
  for (const auto* list : {&plan.skipped, &output.skipped})
    for (const SkippedVariant& s : *list) skipped.push_back({{"name", s.name}, {"reason", s.reason}});
  ojson report{{"format", "fftgen-sweep"},
               {"generator", std::string("fftgen ") + FFTGEN_VERSION},
               {"plan", plan_source},
               {"varying_fields", varying},
               {"variants", variants},
               {"skipped", skipped}};
  add_twins(report);
  return report;
}

void add_device_results(ojson& report, const nlohmann::json& verify, const nlohmann::json& bench,
                        const nlohmann::json& stats) {
  for (const nlohmann::json* doc : {&bench, &verify, &stats})
    if (doc->is_object() && doc->contains("device") && !report.contains("device_name"))
      report["device_name"] = (*doc)["device"], report["driver_version"] = doc->value("driver_version", "");
  for (auto& variant : report["variants"]) {
    const std::string name = variant["name"];
    ojson device = ojson::object();
    if (const auto* b = find_by(bench, "results", "name", name)) add_timing(device, *b);
    if (const auto* v = find_by(verify, "kernels", "kernel", name)) {
      device["rel_l2_forward"] = v->value("rel_l2_forward", nlohmann::json());
      device["rel_l2_inverse"] = v->value("rel_l2_inverse", nlohmann::json());
      device["verified"] = v->value("pass", false);
      if (v->contains("error")) device["verify_error"] = (*v)["error"];
    }
    // Pipeline executable statistics: the most registers and spills over the variant's passes, and
    // every statistic the driver gave, per pass.
    if (const auto* s = find_by(stats, "kernels", "kernel", name)) {
      ojson registers = nullptr, spills = nullptr;
      for (const auto& pass : s->value("passes", nlohmann::json::array()))
        for (const auto& exe : pass.value("executables", nlohmann::json::array())) {
          // items() of a temporary would dangle: keep the statistics object alive for the loop.
          const nlohmann::json statistics = exe.value("statistics", nlohmann::json::object());
          for (const auto& [stat, value] : statistics.items()) {
            if (!value.is_number()) continue;
            ojson* into = nullptr;
            if (stat.find("egister") != std::string::npos && stat.find("pill") == std::string::npos) into = &registers;
            if (stat.find("pill") != std::string::npos) into = &spills;
            if (into && (into->is_null() || value.get<double>() > into->get<double>())) *into = value;
          }
        }
      device["registers"] = registers;
      device["spills"] = spills;
      device["statistics"] = statistics_maxima(*s);
      device["pipeline_statistics"] = s->value("passes", nlohmann::json::array());
    }
    if (!device.empty()) variant["device"] = device;
  }
  report["device"] = {{"name", report.value("device_name", "")}, {"driver_version", report.value("driver_version", "")}};
  report.erase("device_name");
  report.erase("driver_version");
  add_twins(report);
}

std::string sweep_markdown(const ojson& report) {
  std::string out = fmt::format("# fftgen sweep of {}\n\n", report["plan"].get<std::string>());
  if (report.contains("device"))
    out += fmt::format("Device: {} (driver {}).\n\n", cell(report["device"]["name"]), cell(report["device"]["driver_version"]));
  out += fmt::format("{} variants, {} skipped. Instruction counts are the forward direction's, summed over its passes; "
                     "each SPIR-V instruction counts once, whatever its vector width.\n",
                     report["variants"].size(), report["skipped"].size());
  for (const auto& [title, mix] : {std::pair{"After spirv-opt (what ships)", "after_opt"},
                                   std::pair{"Before spirv-opt (glslang's output)", "before_opt"}}) {
    out += fmt::format("\n## {}\n\n", title);
    const auto cols = columns(report, mix);
    std::vector<std::string> headings, rule;
    for (const auto& [heading, pointer] : cols) headings.push_back(heading), rule.push_back("---");
    out += fmt::format("| {} |\n|{}|\n", fmt::join(headings, " | "), fmt::join(rule, "|"));
    for (const auto& v : report["variants"]) {
      std::vector<std::string> cells;
      for (const auto& [heading, pointer] : cols) {
        const auto ptr = ojson::json_pointer(pointer);
        cells.push_back(v.contains(ptr) ? cell(v[ptr]) : "–");
      }
      out += fmt::format("| {} |\n", fmt::join(cells, " | "));
    }
  }
  out += twins_markdown(report);
  if (!report["skipped"].empty()) {
    out += "\n## Skipped combinations\n\n";
    for (const auto& s : report["skipped"])
      out += fmt::format("- `{}`: {}\n", s["name"].get<std::string>(), s["reason"].get<std::string>());
  }
  return out;
}

std::string sweep_html(const ojson& report) {
  // The data goes inside a <script> element: "</" would end it early.
  std::string data = report.dump();
  for (size_t at = 0; (at = data.find("</", at)) != std::string::npos; at += 3) data.replace(at, 2, "<\\/");
  ojson cols = ojson::object();
  for (const char* stage : {"after_opt", "before_opt"}) {
    ojson list = ojson::array();
    for (const auto& [heading, pointer] : columns(report, stage)) list.push_back({heading, pointer});
    cols[stage == std::string("after_opt") ? "after" : "before"] = list;
  }
  const std::string cols_json = cols.dump();
  std::string page(embedded_template("sweep.html"));
  auto fill = [&](const std::string& hole, const std::string& text) {
    const size_t at = page.find(hole);
    if (at == std::string::npos) throw std::logic_error("sweep.html template has no " + hole);
    page.replace(at, hole.size(), text);
  };
  fill("@SWEEP_DATA@", data);
  fill("@SWEEP_COLUMNS@", cols_json);
  return page;
}

void write_sweep_files(const ojson& report, const std::filesystem::path& dir, const std::vector<OutputFile>& extra) {
  std::filesystem::create_directories(dir);
  for (const OutputFile& f : extra) {
    std::filesystem::create_directories((dir / f.name).parent_path());
    std::ofstream os(dir / f.name, std::ios::binary | std::ios::trunc);
    os << f.bytes;
    if (!os) throw std::runtime_error("cannot write " + (dir / f.name).string());
  }
  const std::pair<const char*, std::string> files[] = {
      {"sweep.json", report.dump(1) + "\n"}, {"sweep.md", sweep_markdown(report)}, {"sweep.html", sweep_html(report)}};
  for (const auto& [name, text] : files) {
    std::ofstream os(dir / name, std::ios::binary | std::ios::trunc);
    os << text;
    if (!os) throw std::runtime_error("cannot write " + (dir / name).string());
  }
}

}  // namespace fftgen
