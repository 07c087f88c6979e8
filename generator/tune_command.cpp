#include "tune_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "fftgen/digest.hpp"
#include "fftgen/generate.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/write_output.hpp"
#include "vk_tools.hpp"

namespace fftgen_cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using fftgen::KernelSpec;

// Candidates per kernel at most (the product of the fields' values is cut there, in order).
constexpr size_t kMaxCandidates = 64;
// Shared-memory budgets tried beside the default, up to the device's limit.
constexpr uint32_t kSharedBudgets[] = {16384, 49152, 65536};
// Other radix orders tried beside the planner's split, and other splits (the cost model's best).
constexpr size_t kMaxRadixOrders = 3;
constexpr size_t kMaxOtherSplits = 2;
// Candidates verified, best first, before the defaults are kept.
constexpr size_t kMaxVerified = 3;

struct Candidate {
  std::string name;                // the manifest kernel timed: "<kernel>__t3"
  std::string label;               // "defaults", "smem49152 wg128"
  ojson fields;                    // tunable field -> value, as a winner spells it
  std::vector<KernelSpec> specs;   // the kernel (a convolution: its filter kernel, then it)
  std::string digest;              // SHA-256 of its generated SPIR-V and tables
};

struct Tuned {
  const KernelSpec* kernel = nullptr;
  std::vector<Candidate> candidates;  // defaults first
  size_t refused = 0, identical = 0, timed = 0, reused = 0;
  ojson entry;         // its row of the table
  std::string winner;  // the winning candidate's label, if one beat the defaults
};

struct VkDevice {
  int index = -1;
  std::string name, driver;
  uint32_t max_shared = 0;
};

struct Session {
  const TuneArguments& args;
  std::string vk;
  fs::path work;
  VkDevice device;
  json cache;  // work/timings.json: {"device", "driver", "bytes", "trials", "figures": {digest: {...}}}
};

[[noreturn]] void fail(const std::string& what) { throw fftgen::PlanError(what); }

std::string device_flag(const Session& s) { return s.args.device >= 0 ? fmt::format(" --device {}", s.args.device) : ""; }

// fftgen-vk devices --json: the device to measure on, or a one-line error where there is none.
VkDevice find_device(const Session& s) {
  const fs::path listing = s.work / "devices.json";
  fs::remove(listing);
  const int status = run_logged(fmt::format("{} devices --json {}", shell_quote(s.vk), shell_quote(listing.string())),
                                s.work / "fftgen-vk.log");
  const json doc = read_vk_json(listing, "fftgen-vk devices");
  if (doc.is_null() || !doc.contains("devices") || doc["devices"].empty())
    fail(fmt::format("no Vulkan device: '{} devices' found none (exit status {}; see {}); install a driver (Mesa's "
                     "lavapipe runs on any CPU: mesa-vulkan-drivers)",
                     s.vk, status, (s.work / "fftgen-vk.log").string()));
  const json& list = doc["devices"];
  auto device_of = [](const json& d) {
    return VkDevice{d.value("index", 0), d.value("name", std::string()), d.value("driver_version", std::string()),
                    d.value("max_shared_memory_bytes", 0u)};
  };
  for (const json& d : list)
    if (s.args.device >= 0 ? d.value("index", -1) == s.args.device : d.value("preferred", false)) return device_of(d);
  if (s.args.device < 0) return device_of(list.front());  // a listing that marks none preferred
  fail(fmt::format("--device {}: there are {} Vulkan devices, 0 to {} (fftgen-vk devices lists them)", s.args.device,
                   list.size(), list.size() - 1));
}

// The cost model's best splits of a one-pass 1D kernel into other codelets than the planner's, where
// the plan leaves its radices free (fp64 C2C 4096 at 16 KB: 16x16x16 on 256 invocations ran 4031
// GB/s against the planner's 32x4x32's 3975 on an H200, bench/results/2026-12-03-h200-low-rows).
std::vector<std::vector<uint32_t>> other_splits(const KernelSpec& k, const fftgen::KernelLayout& layout) {
  if (k.explicit_fields.count("radices") != 0 || k.shape.size() != 1) return {};
  if (layout.bluestein_n != 0 || layout.passes.size() != 1) return {};
  std::vector<uint32_t> own = layout.radices;
  std::sort(own.begin(), own.end());
  std::vector<std::vector<uint32_t>> out;
  for (const auto& radices : fftgen::modelled_splits(k, layout.passes.front().size, kMaxOtherSplits + 1)) {
    std::vector<uint32_t> split = radices;
    std::sort(split.begin(), split.end());
    if (split != own && out.size() < kMaxOtherSplits) out.push_back(radices);
  }
  return out;
}

// Each tunable field the plan leaves free, with the values to try: null (the kernel's own) first.
std::vector<std::pair<std::string, std::vector<json>>> axes(const KernelSpec& k, const fftgen::KernelLayout& layout,
                                                           uint32_t max_shared) {
  std::vector<std::pair<std::string, std::vector<json>>> out;
  auto free = [&](const char* field) { return k.explicit_fields.count(field) == 0; };
  if (free("shared_memory_bytes")) {
    std::vector<json> values{nullptr};
    for (uint32_t bytes : kSharedBudgets)
      if (bytes <= max_shared && bytes != k.shared_memory_bytes) values.emplace_back(bytes);
    out.emplace_back("shared_memory_bytes", values);
  }
  if (free("workgroup_size") && !layout.passes.empty()) {
    const uint32_t w = layout.passes.front().workgroup_size;
    std::vector<json> values{nullptr};
    constexpr uint32_t kWarp = 32;  // a smaller workgroup leaves lanes of its one warp idle
    for (uint32_t x : {w / 2, w * 2})
      if (x >= kWarp && x <= fftgen::kMaxWorkgroupSize) values.emplace_back(x);
    out.emplace_back("workgroup_size", values);
  }
  if (free("radices") && k.shape.size() == 1 && layout.bluestein_n == 0 && !layout.radices.empty()) {
    std::vector<json> values{nullptr};
    std::vector<uint32_t> order = layout.radices;
    std::sort(order.begin(), order.end());
    do {
      if (order != layout.radices) values.emplace_back(order);
    } while (values.size() <= kMaxRadixOrders && std::next_permutation(order.begin(), order.end()));
    out.emplace_back("radices", values);
  }
  // A one-pass row: fewer invocations, each holding two to four times the values (faster for some
  // lengths, slower for others: bench/results/2026-11-29-h200-values-per-invocation).
  if (free("values_per_invocation") && layout.passes.size() == 1 && layout.passes.front().row_mode() &&
      layout.passes.front().exchange_rounds() == 1) {
    std::vector<json> values{nullptr};
    for (uint32_t times : {2u, 3u, 4u})
      if (const uint32_t e = layout.passes.front().elems_per_thread * times; e <= fftgen::kMaxValuesPerInvocation)
        values.emplace_back(e);
    if (values.size() > 1) out.emplace_back("values_per_invocation", values);
  }
  if (free("twiddles") && k.precision == fftgen::Precision::fp16) {
    const bool table = k.twiddle_source() == fftgen::TwiddleSource::table;
    out.emplace_back("twiddles", std::vector<json>{nullptr, table ? "computed" : "table"});
  }
  return out;
}

// "smem49152", "wg128", "r8x8x16", "table": the field's name suffix (the field registry's) and value.
std::string label_part(const std::string& field, const json& value) {
  std::string suffix;
  for (const fftgen::PlanField& f : fftgen::plan_fields())
    if (f.name == field) suffix = f.suffix.substr(std::min<size_t>(2, f.suffix.size()));
  if (value.is_array()) {
    std::vector<std::string> radices;
    for (const json& r : value) radices.push_back(r.dump());
    return suffix + fmt::format("{}", fmt::join(radices, "x"));
  }
  return suffix + (value.is_string() ? value.get<std::string>() : value.dump());
}

// The kernel with `fields` set, named `name` (a convolution: its filter kernel too), or nothing
// where the generator refuses the combination.
std::optional<std::vector<KernelSpec>> build_candidate(const KernelSpec& k, const ojson& fields, const std::string& name) {
  KernelSpec spec = k;
  spec.name = name;
  try {
    for (const auto& [field, value] : fields.items()) fftgen::set_tunable_field(spec, field, value);
    fftgen::check_buildable(spec);
    if (!spec.convolution) return std::vector<KernelSpec>{spec};
    KernelSpec filter = spec;
    filter.name += "__filter";
    filter.convolution_filter = true;
    filter.direction = fftgen::DirectionSet::forward;
    filter.io = fftgen::Io::buffer;
    filter.image_format = fftgen::TextureFormat::automatic;
    fftgen::check_buildable(filter);
    return std::vector<KernelSpec>{filter, spec};
  } catch (const fftgen::PlanError&) {
    return std::nullopt;
  }
}

// A candidate of these fields: appended if it builds, else counted as refused.
void add_candidate(Tuned& t, const ojson& fields, const std::vector<std::string>& label) {
  const std::string name = fmt::format("{}__t{}", t.kernel->name, t.candidates.size() + t.refused);
  if (auto specs = build_candidate(*t.kernel, fields, name))
    t.candidates.push_back({name, label.empty() ? "defaults" : fmt::format("{}", fmt::join(label, " ")), fields,
                            std::move(*specs), ""});
  else
    ++t.refused;
}

// Every combination of the axes' values (the defaults first), at most kMaxCandidates that build;
// then the other splits (other_splits), each with the kernel's other fields.
void enumerate(Tuned& t, uint32_t max_shared) {
  const fftgen::KernelLayout layout = fftgen::make_layout(*t.kernel);
  const auto values = axes(*t.kernel, layout, max_shared);
  std::vector<size_t> at(values.size(), 0);
  for (bool more = true; more && t.candidates.size() < kMaxCandidates;) {
    ojson fields = ojson::object();
    std::vector<std::string> label;
    for (size_t i = 0; i < values.size(); ++i) {
      const json& v = values[i].second[at[i]];
      if (v.is_null()) continue;
      fields[values[i].first] = v;
      label.push_back(label_part(values[i].first, v));
    }
    add_candidate(t, fields, label);
    more = false;
    for (size_t i = values.size(); i-- > 0;) {
      if (++at[i] < values[i].second.size()) {
        more = true;
        break;
      }
      at[i] = 0;
    }
  }
  for (const auto& split : other_splits(*t.kernel, layout)) {
    const json radices = split;
    add_candidate(t, ojson{{"radices", radices}}, {label_part("radices", radices)});
  }
}

// The kernels to tune: one per kind of kernel (wisdom_key), a convolution through its apply kernel.
std::vector<Tuned> kernels_to_tune(const fftgen::Plan& plan) {
  std::vector<Tuned> out;
  std::set<std::string> kinds;
  for (const KernelSpec& k : plan.kernels)
    if (!k.convolution_filter && kinds.insert(fftgen::wisdom_key(k).dump()).second) out.push_back({&k, {}, 0, 0, 0, 0, {}, {}});
  return out;
}

// Generates every candidate into work/kernels; drops those that fail to compile and those whose
// files are another's; sets each candidate's digest.
void generate_candidates(std::vector<Tuned>& tuned, const fftgen::Plan& plan, const std::string& source,
                         const Session& s) {
  fftgen::Plan all;
  all.targets = {fftgen::Target::spirv};
  all.cross = plan.cross;
  for (const Tuned& t : tuned)
    for (const Candidate& c : t.candidates) all.kernels.insert(all.kernels.end(), c.specs.begin(), c.specs.end());
  fftgen::GenerateOptions options;
  options.jobs = s.args.jobs;
  options.skip_failed_variants = true;
  if (!s.args.quiet && isatty(STDERR_FILENO) && !std::getenv("CI"))
    options.progress = [](size_t done, size_t total, const std::string& name) {
      fmt::print(stderr, "\r\x1b[2Kfftgen: tune: generating [{}/{}] {}{}", done, total, name, done == total ? "\n" : "");
    };
  const fftgen::GeneratedOutput output = fftgen::generate(all, source, options);
  std::set<std::string> failed;
  for (const fftgen::SkippedVariant& v : output.skipped) failed.insert(v.name);
  for (Tuned& t : tuned) {
    std::set<std::string> seen;
    std::vector<Candidate> kept;
    for (Candidate& c : t.candidates) {
      std::string bytes;
      bool ok = true;
      for (const KernelSpec& spec : c.specs) {
        ok = ok && !failed.count(spec.name);
        for (const fftgen::OutputFile& f : output.files)
          if (f.name.rfind(spec.name + ".", 0) == 0) bytes += f.name.substr(spec.name.size()) + '\0' + f.bytes;
      }
      c.digest = fftgen::sha256_hex(bytes);
      if (!ok) ++t.refused;
      else if (!seen.insert(c.digest).second) ++t.identical;
      else kept.push_back(std::move(c));
    }
    t.candidates = std::move(kept);
  }
  fftgen::write_output(output, s.work / "kernels");
}

// work/timings.json, kept where it was measured with this device and driver, --bytes and --trials.
json load_cache(const Session& s) {
  json fresh{{"device", s.device.name}, {"driver", s.device.driver}, {"bytes", s.args.bytes}, {"trials", s.args.trials},
             {"figures", json::object()}};
  const fs::path path = s.work / "timings.json";
  if (s.args.fresh || !fs::exists(path)) return fresh;
  json cache;
  try {
    cache = json::parse(read_text(path, "timings file"));
  } catch (const json::exception&) {
    return fresh;  // a file of ours that is not JSON: time again
  }
  for (const char* key : {"device", "driver", "bytes", "trials"})
    if (!cache.is_object() || cache.value(key, json()) != fresh[key]) return fresh;
  if (!cache.contains("figures") || !cache["figures"].is_object()) return fresh;
  return cache;
}

void save_cache(const Session& s) { fftgen::write_file_replacing(s.work / "timings.json", s.cache.dump(1) + "\n"); }

// One fftgen-vk subcommand over named kernels of work/kernels; its --json output, or an error.
json run_vk(const Session& s, const std::string& subcommand, const std::vector<std::string>& names,
            const std::string& extra) {
  const fs::path out = s.work / (subcommand + ".json");
  fs::remove(out);
  std::string command = fmt::format("{} {} {}", shell_quote(s.vk), subcommand, shell_quote((s.work / "kernels").string()));
  for (const std::string& n : names) command += " " + shell_quote(n);
  command += fmt::format(" --json {}{}{}", shell_quote(out.string()), device_flag(s), extra);
  const int status = run_logged(command, s.work / "fftgen-vk.log");
  json doc = read_vk_json(out, "fftgen-vk " + subcommand);
  if (!doc.is_object())
    fail(fmt::format("fftgen-vk {} wrote no results (exit status {}); see {}", subcommand, status,
                     (s.work / "fftgen-vk.log").string()));
  return doc;
}

// Times the candidates that work/timings.json lacks, in one fftgen-vk bench call.
void time_candidates(Tuned& t, Session& s) {
  json& figures = s.cache["figures"];
  if (t.candidates.size() < 2) return;  // nothing to choose between
  std::vector<std::string> names;
  for (const Candidate& c : t.candidates) (figures.contains(c.digest) ? t.reused : t.timed)++;
  for (const Candidate& c : t.candidates)
    if (!figures.contains(c.digest)) names.push_back(c.name);
  if (names.empty()) return;
  const json bench = run_vk(s, "bench", names, fmt::format(" --bytes {} --trials {}", shell_quote(s.args.bytes), s.args.trials));
  std::map<std::string, json> by_name;
  for (const json& r : bench.value("results", json::array())) by_name[r.value("name", std::string())] = r;
  for (const Candidate& c : t.candidates) {
    if (figures.contains(c.digest)) continue;
    const json& r = by_name[c.name];
    figures[c.digest] = r.contains("gb_per_s") ? json{{"gb_per_s", r["gb_per_s"]}, {"median_ms", r["median_ms"]}}
                                               : json{{"error", r.value("error", std::string("not timed"))}};
  }
  save_cache(s);
}

std::optional<double> gbps_of(const Session& s, const Candidate& c) {
  const json& f = s.cache["figures"].value(c.digest, json::object());
  if (!f.contains("gb_per_s") || !f["gb_per_s"].is_number()) return std::nullopt;
  return f["gb_per_s"].get<double>();
}

// The candidate's relative L2 error from fftgen-vk verify, or nothing where it fails (cached).
std::optional<double> verified(const Candidate& c, Session& s) {
  json& f = s.cache["figures"][c.digest];
  if (!f.contains("verified")) {
    const json doc = run_vk(s, "verify", {c.name}, "");
    const json k = doc.value("kernels", json::array()).empty() ? json::object() : doc["kernels"][0];
    f["verified"] = k.value("pass", false);
    f["rel_l2"] = k.value("rel_l2_forward", json());
    save_cache(s);
  }
  if (!f["verified"].get<bool>()) return std::nullopt;
  return f["rel_l2"].is_number() ? f["rel_l2"].get<double>() : 0.0;
}

// GB/s as the table keeps them: 5 significant digits (4128.6 on a GPU, 1.0034 on lavapipe).
double rounded(double x) { return std::stod(fmt::format("{:.5g}", x)); }

// The table entry of a timed kernel: its kind, measurements and winner.
void choose_winner(Tuned& t, Session& s) {
  ojson& e = t.entry;
  e = fftgen::wisdom_key(*t.kernel);
  e["run"] = 0;
  ojson measured = ojson::object();
  std::vector<std::pair<double, const Candidate*>> ranked;
  for (const Candidate& c : t.candidates)
    if (auto g = gbps_of(s, c)) {
      measured[c.label] = rounded(*g);
      ranked.emplace_back(*g, &c);
    }
  e["measured"] = measured;
  // The defaults are the first candidate, unless they failed to generate.
  const bool has_defaults = !t.candidates.empty() && t.candidates.front().fields.empty();
  const std::optional<double> base = has_defaults ? gbps_of(s, t.candidates.front()) : std::nullopt;
  if (base) e["default_gbps"] = rounded(*base);
  e["winner"] = "defaults";
  if (!base) return;
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  size_t tried = 0;
  for (const auto& [gbps, c] : ranked) {
    if (gbps < *base * (1 + s.args.min_gain) || tried == kMaxVerified) return;
    if (c == &t.candidates.front()) continue;
    ++tried;
    if (auto error = verified(*c, s)) {
      t.winner = c->label;
      e["winner"] = c->fields;
      e["winner_gbps"] = rounded(gbps);
      e["winner_rel_l2"] = *error;
      return;
    }
  }
}

// "[2/3] fft4096: 9 candidates (3 refused, 4 identical), 9 timed, 0 reused: smem49152 (3003.5 against 2986.5 GB/s)"
void report(const Tuned& t, size_t i, size_t total) {
  const ojson& e = t.entry;
  std::string result = "defaults";
  if (e["winner"].is_object())
    result = fmt::format("{} ({} against {} GB/s)", t.winner, e["winner_gbps"].dump(), e["default_gbps"].dump());
  else if (e.contains("default_gbps"))
    result = fmt::format("defaults ({} GB/s)", e["default_gbps"].dump());
  fmt::print(stderr, "fftgen: tune: [{}/{}] {}: {} candidates ({} refused, {} identical), {} timed, {} reused: {}\n", i + 1,
             total, t.kernel->name, t.candidates.size(), t.refused, t.identical, t.timed, t.reused, result);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Refuses an -o the table cannot be written to, before any work.
void check_writable(const fs::path& output) {
  fftgen::check_replaceable_file(output, "-o");
  const fs::path folder = fs::absolute(output).parent_path();
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) fail(fmt::format("cannot write -o '{}': no folder '{}'", output.string(), folder.string()));
  if (::access(folder.c_str(), W_OK) != 0)
    fail(fmt::format("cannot write -o '{}': the folder '{}' is not writable", output.string(), folder.string()));
}

// The table's text, each list of numbers on one line ("shape": [256, 256]). Only lists the dump
// spread over lines are joined: a string holds no raw line break.
std::string table_text(const ojson& table) {
  static const std::regex list(R"(\[\n\s*(-?[0-9][0-9.eE+-]*(?:,\n\s*-?[0-9][0-9.eE+-]*)*)\n\s*\])");
  static const std::regex gap(R"(,\n\s*)");
  const std::string text = table.dump(1) + "\n";
  std::string out;
  auto begin = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), list), end; it != end; ++it) {
    out.append(begin, (*it)[0].first);
    out += "[" + std::regex_replace((*it)[1].str(), gap, ", ") + "]";
    begin = (*it)[0].second;
  }
  return out.append(begin, text.cend());
}

ojson table_of(const std::vector<Tuned>& tuned, const Session& s, const std::string& command) {
  ojson run{{"device", s.device.name}, {"driver", s.device.driver}, {"date", utc_now()},
            {"command", command}, {"fftgen", FFTGEN_VERSION}, {"bytes", s.args.bytes}, {"trials", s.args.trials}};
  ojson sizes = ojson::array();
  for (const Tuned& t : tuned) sizes.push_back(t.entry);
  return {{"description", "fftgen wisdom: the fastest candidate per kind of kernel, measured by fftgen tune"},
          {"runs", ojson::array({run})}, {"min_gain", s.args.min_gain}, {"sizes", sizes}};
}

}  // namespace

CLI::App* add_tune_command(CLI::App& app, TuneArguments& args) {
  auto* tune = app.add_subcommand(
      "tune",
      "times candidates of each kernel of a plan (shared-memory budgets up to the device's limit, workgroup sizes,\n"
      "radix orders, fp16 twiddle sources: fields the plan leaves free) with fftgen-vk bench, verifies each winner\n"
      "with fftgen-vk verify, and writes a wisdom table for `fftgen --wisdom` (docs/cli.md, \"Tuning\").\n"
      "Resumable: timings already in the work folder (same device, --bytes, --trials and kernel files) are reused;\n"
      "--fresh times everything again");
  tune->add_option("plan", args.plan, "plan file (JSON)")->required();
  tune->add_option("-o,--output", args.output, "the wisdom table to write (JSON; replaced whole, never half-written)")
      ->required();
  tune->add_option("--work", args.work, "folder for the candidates' kernels, timings and fftgen-vk's log (default: OUTPUT.work)");
  tune->add_option("--device", args.device, "measure on Vulkan device N (index from `fftgen-vk devices`; default: the one "
                                            "fftgen-vk takes)")
      ->check(CLI::Range(0, 64));
  tune->add_option("--vk", args.vk, "the fftgen-vk to measure with (default: beside fftgen, then PATH)");
  tune->add_option("--bytes", args.bytes, "fftgen-vk bench --bytes: one buffer's size")
      ->capture_default_str()
      ->check(CLI::Validator(byte_size_error, "SIZE"));
  tune->add_option("--trials", args.trials, "fftgen-vk bench --trials")->capture_default_str()->check(CLI::Range(1u, 1000000u));
  tune->add_option("--min-gain", args.min_gain,
                   "least gain over the defaults a winner needs (a fraction; negative: the fastest other candidate\n"
                   "wins even when slower, a check of the pipeline rather than a tuning)")
      ->capture_default_str()
      ->check(CLI::Range(-1.0, 10.0));
  tune->add_flag("--fresh", args.fresh, "time every candidate again, ignoring the work folder's timings");
  tune->add_option("-j,--jobs", args.jobs, "candidates generated at once (default 0: one per core)");
  tune->add_flag("-q,--quiet", args.quiet, "print nothing but errors");
  return tune;
}

int run_tune(const TuneArguments& args, const char* argv0, const std::string& command) {
  const std::string source = fs::path(args.plan).filename().string();
  fftgen::Plan plan = fftgen::parse_plan(read_text(args.plan, "plan"), source);
  check_writable(args.output);
  Session s{args, find_vk(args.vk, argv0), args.work.empty() ? fs::path(args.output + ".work") : fs::path(args.work), {}, {}};
  fs::create_directories(s.work);
  s.device = find_device(s);
  s.cache = load_cache(s);
  std::vector<Tuned> tuned = kernels_to_tune(plan);
  for (Tuned& t : tuned) enumerate(t, s.device.max_shared ? s.device.max_shared : 65536);
  generate_candidates(tuned, plan, source, s);
  size_t winners = 0, timed = 0, reused = 0;
  const bool live = !args.quiet && isatty(STDERR_FILENO) && !std::getenv("CI");
  for (size_t i = 0; i < tuned.size(); ++i) {
    if (live)
      fmt::print(stderr, "fftgen: tune: [{}/{}] {}: timing {} candidates ...", i + 1, tuned.size(), tuned[i].kernel->name,
                 tuned[i].candidates.size());
    time_candidates(tuned[i], s);
    if (live) fmt::print(stderr, "\r\x1b[2K");
    choose_winner(tuned[i], s);
    winners += tuned[i].entry["winner"].is_object();
    timed += tuned[i].timed, reused += tuned[i].reused;
    if (!args.quiet) report(tuned[i], i, tuned.size());
  }
  fftgen::write_file_replacing(args.output, table_text(table_of(tuned, s, command)));
  if (!args.quiet)
    fmt::print(stderr, "fftgen: tune: wrote {}: {} kernels, {} winners; {} candidates timed, {} reused from {}\n",
               args.output, tuned.size(), winners, timed, reused, (s.work / "timings.json").string());
  return 0;
}

}  // namespace fftgen_cli
