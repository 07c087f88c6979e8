#include "sweep_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include <fmt/format.h>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/sweep.hpp"
#include "fftgen/write_output.hpp"
#include "vk_tools.hpp"

namespace fftgen_cli {
namespace {

namespace fs = std::filesystem;

// One phase of the sweep on stderr: "fftgen: sweep: <what>..." when it starts, its outcome and
// time when it ends; nothing with -q.
class Phase {
 public:
  Phase(bool quiet, const std::string& what) : quiet_(quiet), start_(std::chrono::steady_clock::now()) {
    if (!quiet_) fmt::print(stderr, "fftgen: sweep: {}...\n", what);
  }
  void done(const std::string& outcome) const {
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
    if (!quiet_) fmt::print(stderr, "fftgen: sweep:   {} ({:.1f} s)\n", outcome, took.count());
  }

 private:
  bool quiet_;
  std::chrono::steady_clock::time_point start_;
};

// Each variant as it is compiled: one line redrawn on a terminal, else a line per tenth of them.
std::function<void(size_t, size_t, const std::string&)> variant_progress(bool quiet) {
  if (quiet) return {};
  if (isatty(STDERR_FILENO) && !std::getenv("CI"))
    return [](size_t done, size_t total, const std::string& name) {
      fmt::print(stderr, "\r\x1b[2K[{}/{}] {}{}", done, total, name, done == total ? "\n" : "");
    };
  return [](size_t done, size_t total, const std::string& name) {
    if (done * 10 / total != (done - 1) * 10 / total || done == 1)
      fmt::print(stderr, "fftgen: sweep:   [{}/{}] {}\n", done, total, name);
  };
}

// Runs one fftgen-vk subcommand with --json into `dir`, its output appended to fftgen-vk.log.
// Returns the JSON it wrote, or null (and says why) where it wrote none.
nlohmann::json run_vk(const std::string& vk, const std::string& subcommand, const std::string& extra,
                      const SweepArguments& args, const fs::path& dir, size_t kernels) {
  const fs::path json_path = dir / (subcommand + ".json");
  fs::remove(json_path);
  std::string command = fmt::format("{} {} {} --json {}", shell_quote(vk), subcommand, shell_quote((dir / "kernels").string()),
                                    shell_quote(json_path.string()));
  if (args.device >= 0) command += fmt::format(" --device {}", args.device);
  command += extra;
  std::string shown = extra;  // as the user typed it, without the shell's quotes
  shown.erase(std::remove(shown.begin(), shown.end(), '\''), shown.end());
  const Phase phase(args.quiet, fmt::format("fftgen-vk {} of {} kernels{}", subcommand, kernels, shown));
  const int status = run_logged(command, dir / "fftgen-vk.log");
  phase.done(status == 0 ? "done" : fmt::format("exit status {}", status));
  if (!fs::exists(json_path)) {
    if (!args.quiet)
      fmt::print(stderr, "fftgen: sweep: fftgen-vk {} wrote no results (exit status {}); see {}\n", subcommand, status,
                 (dir / "fftgen-vk.log").string());
    return nullptr;
  }
  return read_vk_json(json_path, "fftgen-vk " + subcommand);
}

// What a --results file may hold where the sweep report takes it: names are strings, figures
// non-negative numbers, so that one edited or foreign file is a clear error.
void check_results(const nlohmann::json& doc, const fs::path& file) {
  if (doc.is_null()) return;
  auto fail = [&](const std::string& what) {
    throw fftgen::PlanError(fmt::format("--results: {}: {}", file.string(), what));
  };
  if (!doc.is_object()) fail("expected a JSON object, as fftgen-vk --json writes");
  for (const char* key : {"device", "driver_version"})
    if (doc.contains(key) && !doc[key].is_string()) fail(fmt::format("'{}' must be a string (found {})", key, doc[key].dump()));
  for (const char* list : {"results", "kernels"}) {
    if (!doc.contains(list)) continue;
    if (!doc[list].is_array()) fail(fmt::format("'{}' must be a list", list));
    for (size_t i = 0; i < doc[list].size(); ++i) {
      const nlohmann::json& entry = doc[list][i];
      if (!entry.is_object()) fail(fmt::format("{}[{}] must be an object", list, i));
      for (const char* key : {"name", "kernel", "error"})
        if (entry.contains(key) && !entry[key].is_string())
          fail(fmt::format("{}[{}].{} must be a string (found {})", list, i, key, entry[key].dump()));
      for (const char* key : {"median_ms", "gb_per_s", "rel_l2_forward", "rel_l2_inverse"})
        if (entry.contains(key) && !entry[key].is_null() &&
            (!entry[key].is_number() || !(entry[key].get<double>() >= 0)))
          fail(fmt::format("{}[{}].{} must be a non-negative number or null (found {})", list, i, key,
                           entry[key].dump()));
      if (entry.contains("trial_ms") &&
          (!entry["trial_ms"].is_array() ||
           !std::all_of(entry["trial_ms"].begin(), entry["trial_ms"].end(),
                        [](const nlohmann::json& t) { return t.is_number() && t.get<double>() >= 0; })))
        fail(fmt::format("{}[{}].trial_ms must be a list of non-negative numbers (found {})", list, i,
                         entry["trial_ms"].dump()));
      if (entry.contains("pass") && !entry["pass"].is_boolean())
        fail(fmt::format("{}[{}].pass must be true or false (found {})", list, i, entry["pass"].dump()));
    }
  }
}

// --results FOLDER: the device figures fftgen-vk wrote there, checked, into the report.
void add_results_folder(const SweepArguments& args, nlohmann::ordered_json& report) {
  const fs::path from = args.results;
  if (!fs::is_directory(from)) throw fftgen::PlanError(fmt::format("--results: no folder '{}'", from.string()));
  auto read_json = [&](const char* name) -> nlohmann::json {
    if (!fs::exists(from / name)) return nullptr;
    try {
      return nlohmann::json::parse(read_text(from / name, "results file"));
    } catch (const nlohmann::json::exception& e) {
      throw fftgen::PlanError(fmt::format("--results: {} is not JSON: {}", (from / name).string(), e.what()));
    }
  };
  const Phase reading(args.quiet, fmt::format("reading the device figures in {}", from.string()));
  const nlohmann::json verify = read_json("verify.json"), bench = read_json("bench.json"), stats = read_json("stats.json");
  check_results(verify, from / "verify.json");
  check_results(bench, from / "bench.json");
  check_results(stats, from / "stats.json");
  if (verify.is_null() && bench.is_null() && stats.is_null())
    throw fftgen::PlanError(fmt::format("--results: '{}' has none of verify.json, bench.json, stats.json", from.string()));
  fftgen::add_device_results(report, verify, bench, stats);
  reading.done(fmt::format("{}{}{}", verify.is_null() ? "" : "verify.json ", bench.is_null() ? "" : "bench.json ",
                           stats.is_null() ? "" : "stats.json"));
}

// --device / --vk: fftgen-vk verify, bench and stats over DIR/kernels, into the report.
void measure(const SweepArguments& args, const char* argv0, const fs::path& dir, nlohmann::ordered_json& report) {
  const std::string vk = find_vk(args.vk, argv0);
  const size_t kernels = report["variants"].size();
  const nlohmann::json verify = run_vk(vk, "verify", "", args, dir, kernels);
  const nlohmann::json bench =
      run_vk(vk, "bench", fmt::format(" --bytes {} --trials {}", shell_quote(args.bytes), args.trials), args, dir, kernels);
  const nlohmann::json stats = run_vk(vk, "stats", "", args, dir, kernels);
  fftgen::add_device_results(report, verify, bench, stats);
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepArguments& args) {
  auto* sweep = app.add_subcommand(
      "sweep",
      "every variant of a plan whose fields are lists: SPIR-V instruction mix before and after spirv-opt, shared memory,\n"
      "HLSL and MSL sizes; with a Vulkan device, GPU time, GB/s, error and pipeline statistics (docs/explorer.md).\n"
      "Writes DIR/sweep.json, sweep.md, sweep.html and the kernels under DIR/kernels");
  sweep->add_option("plan", args.plan, "plan file (JSON) with list-valued fields")->required();
  sweep->add_option("-o,--output", args.out_dir, "output folder (created if missing)")->required();
  sweep->add_option("--device", args.device, "measure on Vulkan device N (index from `fftgen-vk devices`)")
      ->check(CLI::Range(0, 64));
  sweep->add_option("--vk", args.vk, "the fftgen-vk to measure with (default: beside fftgen, then PATH); implies measuring");
  sweep->add_option("--results", args.results,
                    "take the device figures from verify.json, bench.json and stats.json in this folder (fftgen-vk's\n"
                    "--json output over DIR/kernels, measured on another machine) instead of running fftgen-vk")
      ->excludes("--vk")
      ->excludes("--device");
  sweep->add_option("--bytes", args.bytes, "fftgen-vk bench --bytes: one buffer's size")
      ->capture_default_str()
      ->check(CLI::Validator(byte_size_error, "SIZE"));
  sweep->add_option("--trials", args.trials, "fftgen-vk bench --trials")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000000u));
  sweep->add_option("-j,--jobs", args.jobs, "variants generated at once (default 0: one per core)");
  sweep->add_flag("-q,--quiet", args.quiet, "print nothing but errors");
  return sweep;
}

int run_sweep(const SweepArguments& args, const char* argv0) {
  const fs::path dir = args.out_dir;
  const std::string source = fs::path(args.plan).filename().string();
  fftgen::Plan plan = fftgen::parse_sweep_plan(read_text(args.plan, "plan"), source);
  // The instruction mix is read from the SPIR-V, and fftgen-vk runs it: always generate it.
  if (std::find(plan.targets.begin(), plan.targets.end(), fftgen::Target::spirv) == plan.targets.end())
    plan.targets.insert(plan.targets.begin(), fftgen::Target::spirv);
  if (plan.kernels.empty())
    throw fftgen::PlanError(fmt::format("{}: every variant is impossible; nothing to sweep ({} skipped, e.g. {})", source,
                                        plan.skipped.size(), plan.skipped.front().reason));
  fftgen::GenerateOptions options;
  options.jobs = args.jobs;
  options.skip_failed_variants = true;
  options.keep_unoptimised_spirv = true;
  options.progress = variant_progress(args.quiet);
  const Phase generating(args.quiet, fmt::format("generating and compiling {} variants ({} skipped by the plan)",
                                                 plan.kernels.size(), plan.skipped.size()));
  const fftgen::GeneratedOutput output = fftgen::generate(plan, source, options);
  fftgen::write_output(output, dir / "kernels");
  generating.done(fmt::format("{} compiled, {} failed to build", output.manifest["kernels"].size(), output.skipped.size()));
  const Phase counting(args.quiet, "counting instructions and pairing twins");
  nlohmann::ordered_json report = fftgen::sweep_report(plan, output, source);
  counting.done(fmt::format("{} twin pairs", report["twins"].size()));

  if (!args.results.empty())
    add_results_folder(args, report);
  else if (args.device >= 0 || !args.vk.empty())
    measure(args, argv0, dir, report);
  const Phase writing(args.quiet, "writing the report and the twins' SPIR-V diffs");
  fs::remove_all(dir / "twins");
  const std::vector<fftgen::OutputFile> diffs = fftgen::twin_diffs(report, output);
  fftgen::write_sweep_files(report, dir, diffs);
  writing.done(fmt::format("{} diffs under {}", diffs.size(), (dir / "twins").string()));
  if (!args.quiet)
    fmt::print(stderr, "fftgen: sweep: {} variants, {} skipped; wrote {}\n", report["variants"].size(),
               report["skipped"].size(), (dir / "sweep.html").string());
  return 0;
}

}  // namespace fftgen_cli
