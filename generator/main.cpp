// fftgen: the command-line front end of the generator library. Everything but argument handling
// and error reporting lives in the library (generator/include/fftgen).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "fftgen/build_step.hpp"
#include "fftgen/codelet.hpp"
#include "fftgen/emit_codelet.hpp"
#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "sweep_command.hpp"
#include "tune_command.hpp"
#include "vk_tools.hpp"
#include "fftgen/write_output.hpp"

namespace {

constexpr int kExitUsage = 1;    // bad usage or bad plan
constexpr int kExitCompile = 2;  // a generated shader failed to compile

// `what` names the file in the message: "plan", "wisdom file".
std::string read_file(const std::string& path, const char* what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw fftgen::PlanError(fmt::format("{} '{}' is a folder; give the {} itself (a JSON file)", what, path, what));
  // Opening a FIFO would wait for a writer, for ever if there is none.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw fftgen::PlanError(fmt::format("{} '{}' is not a regular file (a device, FIFO or socket); give the {} "
                                        "itself (a JSON file)", what, path, what));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw fftgen::PlanError(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The plan's and the wisdom file's names go into the first line of every generated file (a GLSL
// comment): a line break there would start a line of code.
void check_file_name(const std::string& name, const char* what) {
  for (char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw fftgen::PlanError(fmt::format("the {} file name {:?} holds a control character; the name goes into the "
                                          "first line of every generated file; rename the {}",
                                          what, name, what));
}

void explain_radix(uint32_t radix, bool inverse) {
  namespace cl = fftgen::codelet;
  const auto known = std::find(std::begin(cl::kCodeletRadices), std::end(cl::kCodeletRadices), radix);
  if (known == std::end(cl::kCodeletRadices))
    throw fftgen::PlanError(fmt::format("--explain: radix {} has no codelet; allowed: {}", radix, fmt::join(cl::kCodeletRadices, ", ")));
  const auto direction = inverse ? fftgen::Direction::inverse : fftgen::Direction::forward;
  const cl::Dag dag = cl::make_dft(radix, direction);
  const auto ops = cl::count_ops(dag);
  fmt::print("// radix-{} {} codelet: {} adds, {} muls ({} FMA candidates), {} negations\n", radix,
             fftgen::to_string(direction), ops.adds, ops.muls, ops.fma_candidates, ops.negs);
  for (const cl::FftwCounts& f : cl::kFftwN1Counts)
    if (f.radix == radix) fmt::print("// FFTW genfft n1_{} (no FMA): {} adds, {} muls\n", radix, f.adds, f.muls);
  if (radix > 2 && fftgen::largest_prime_factor(radix) == radix) {
    const auto sums = cl::prime_sums_written_out(radix, direction);
    fmt::print("// the paired sums written out (no convolutions): {} adds, {} muls\n", sums.adds, sums.muls);
  }
  fmt::print("{}", fftgen::emit_codelet_glsl(dag, fmt::format("radix{}_{}", radix, inverse ? "inv" : "fwd")));
}

// A progress bar only for a person watching: stdout is a terminal and no CI system is running us.
bool wants_progress_bar() { return isatty(STDOUT_FILENO) && isatty(STDERR_FILENO) && !std::getenv("CI"); }

// "\r[#########           ] 12/40 fft4096__divmod", redrawn in place; a newline when all are done.
void print_progress(size_t done, size_t total, const std::string& name) {
  constexpr size_t kWidth = 30;
  const size_t filled = total ? done * kWidth / total : kWidth;
  fmt::print(stderr, "\r\x1b[2K[{}{}] {}/{} {}", std::string(filled, '#'), std::string(kWidth - filled, ' '), done,
             total, name);
  if (done == total) fmt::print(stderr, "\n");
  std::fflush(stderr);
}

// --list-variants: each variant's name (also the stem of its files: <stem>.<pass>.<ext>) and every
// field's value, from the plan-field registry.
void print_variants(const fftgen::Plan& plan, const std::string& source, bool as_json) {
  if (!as_json) {
    for (const fftgen::KernelSpec& k : plan.kernels) {
      const nlohmann::ordered_json fields = fftgen::variant_fields(k);
      std::vector<std::string> values;
      for (const auto& [field, value] : fields.items())
        if (field != "name") values.push_back(field + "=" + value.dump());
      fmt::print("{} {}\n", k.name, fmt::join(values, " "));
    }
    return;
  }
  nlohmann::ordered_json fields = nlohmann::ordered_json::array();
  for (const fftgen::PlanField& f : fftgen::plan_fields())
    fields.push_back({{"name", f.name}, {"default", f.default_value}, {"wisdom_tunable", f.wisdom_tunable},
                      {"suffix", f.suffix}});
  nlohmann::ordered_json variants = nlohmann::ordered_json::array();
  for (const fftgen::KernelSpec& k : plan.kernels)
    variants.push_back({{"name", k.name}, {"stem", k.name}, {"plan_kernel", k.plan_name},
                        {"fields", fftgen::variant_fields(k)}, {"explicit_fields", k.explicit_fields},
                        // A convolution's filter kernel takes its apply kernel's entry: none of its own.
                        {"wisdom_key", k.convolution_filter ? nlohmann::ordered_json() : fftgen::wisdom_key(k)}});
  nlohmann::ordered_json doc{{"plan", source}, {"fields", fields}, {"variants", variants}};
  if (!plan.wisdom.empty()) doc["wisdom"] = plan.wisdom;
  fmt::print("{}\n", doc.dump(1));
}

// --targets: a comma-separated list of distinct targets.
std::vector<fftgen::Target> parse_targets_option(const std::string& csv) {
  constexpr const char* allowed = "allowed: spirv, glsl, hlsl, msl, comma-separated, each once";
  if (csv.empty()) throw fftgen::PlanError(fmt::format("--targets is empty; {}", allowed));
  std::vector<fftgen::Target> targets;
  for (std::size_t start = 0; start <= csv.size();) {
    const std::size_t comma = std::min(csv.find(',', start), csv.size());
    const std::string item = csv.substr(start, comma - start);
    start = comma + 1;
    auto t = fftgen::parse_target(item);
    if (!t)
      throw fftgen::PlanError(item.empty() ? fmt::format("--targets '{}' has an empty item; {}", csv, allowed)
                                           : fmt::format("--targets: unknown target '{}'; {}", item, allowed));
    if (std::find(targets.begin(), targets.end(), *t) != targets.end())
      throw fftgen::PlanError(fmt::format("--targets: '{}' is listed twice; {}", item, allowed));
    targets.push_back(*t);
  }
  return targets;
}

// The command as typed, for the record a wisdom table keeps of its run: "fftgen tune plan.json -o w.json".
std::string command_line(int argc, char** argv) {
  std::string line = "fftgen";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool plain = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_./=,:+@%") == std::string::npos;
    line += " " + (plain ? arg : fftgen_cli::shell_quote(arg));
  }
  return line;
}

// The documentation installed beside this binary (<prefix>/share/doc/fftgen), else the source tree's.
std::string documentation_folder() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path docs = (exe.parent_path().parent_path() / FFTGEN_INSTALL_DOCDIR).lexically_normal();
    if (std::filesystem::exists(docs / "README.md", ec)) return docs.string() + " (README.md, docs/*.md, examples/)";
  }
  return "README.md and docs/*.md of the fftgen source (installed: <prefix>/" FFTGEN_INSTALL_DOCDIR ")";
}

// A near miss of an option gets a hint instead of CLI11's "not expected".
std::string option_hint(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--target" || arg.rfind("--target=", 0) == 0)
      return "unknown option --target; did you mean --targets (e.g. --targets spirv,hlsl)?";
  }
  return "";
}

// What the command line asks of the main command (fftgen PLAN ...).
struct Options {
  std::string plan_path, out_dir, targets_csv, wisdom_path;
  bool dry_run = false, quiet = false, print_default = false, explain_inverse = false, list_variants = false,
       as_json = false, print_schema = false;
  uint32_t explain = 0;
  unsigned jobs = 0;
  fftgen::BuildStepOptions build_step;
  CLI::Option* targets_option = nullptr;
  CLI::Option* explain_option = nullptr;
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("plan", o.plan_path, "plan file (JSON); its format: docs/plan.md (documentation below)");
  app.add_option("-o,--output", o.out_dir, "output folder (created if missing)");
  app.add_flag("--dry-run", o.dry_run, "list the files that would be written, write nothing");
  app.add_flag("--list-variants", o.list_variants,
               "list every variant the plan expands to with its field values and file stem, write nothing");
  app.add_flag("--json", o.as_json, "with --list-variants: print JSON, each variant's wisdom_key too (bench/wisdom.py reads it)");
  app.add_option("--wisdom", o.wisdom_path,
                 "per-device wisdom table (`fftgen tune` writes one; e.g. bench/wisdom/nvidia-h100.json): each kernel\n"
                 "takes the fields of the measured winner for its kind (transform, shape, precision, io, or convolution),\n"
                 "except fields the plan sets itself; prints what it changed");
  o.targets_option = app.add_option("--targets", o.targets_csv,
                                    "comma-separated targets overriding the plan's: spirv,glsl,hlsl,msl (each once)");
  app.add_flag("-q,--quiet", o.quiet, "print nothing but errors");
  app.add_flag("--print-default-plan", o.print_default, "print the built-in default plan and exit");
  o.explain_option = app.add_option(
      "--explain", o.explain,
      fmt::format("print the op counts (beside FFTW's n1_R where FFTW has one, and a prime's paired sums written "
                  "out) and GLSL of the radix-R codelet\n(R = {}) and exit", fmt::join(fftgen::codelet::kCodeletRadices, ", ")));
  app.add_flag("--inverse", o.explain_inverse, "with --explain: the inverse-direction codelet");
  app.add_option("-j,--jobs", o.jobs, "variants generated at once (default 0: one per core); the output is the same")
      ->check(CLI::Range(0u, 1024u));
  app.add_flag("--print-schema", o.print_schema, "print the JSON Schema of the plan format (docs/plan.schema.json) and exit");
  auto* headers = app.add_flag("--headers", o.build_step.headers,
                               "also write C++ headers embedding the SPIR-V, twiddle tables and manifest (README: \"Use it\n"
                               "from your engine's build\")");
  app.add_option("--header-namespace", o.build_step.header_namespace,
                 "C++ namespace of --headers, also the name of the header that includes them all (default fftgen_kernels)")
      ->needs(headers);
  app.add_option("--depfile", o.build_step.depfile,
                 "write a Make-style dependency file: the outputs (or --stamp) depend on the plan, wisdom file and fftgen");
  app.add_option("--stamp", o.build_step.stamp, "rewrite this file after every successful run (a build system's output)");
}

// The plan (or the default one), with --targets and --wisdom applied; `source` is its file name.
fftgen::Plan load_plan(const Options& o, const std::string& source) {
  check_file_name(source, "plan");
  const std::string text = o.plan_path.empty() ? std::string(fftgen::default_plan_text()) : read_file(o.plan_path, "plan");
  fftgen::Plan plan = fftgen::parse_plan(text, source);
  if (o.targets_option->count() > 0) {
    // As if the plan listed them: its rules for each target (no pass_sync counters with msl) apply.
    nlohmann::json doc = nlohmann::json::parse(text);
    doc["targets"] = nlohmann::json::array();
    for (fftgen::Target t : parse_targets_option(o.targets_csv)) doc["targets"].push_back(fftgen::to_string(t));
    plan = fftgen::parse_plan(doc, source);
  }
  if (o.wisdom_path.empty()) return plan;
  const std::string wisdom_name = std::filesystem::path(o.wisdom_path).filename().string();
  check_file_name(wisdom_name, "wisdom file");
  for (const auto& change : fftgen::apply_wisdom(plan, read_file(o.wisdom_path, "wisdom file"), wisdom_name)) {
    if (o.quiet) continue;
    std::vector<std::string> fields;
    for (const auto& [field, value] : change.fields) fields.push_back(field + " = " + value);
    std::string figures;
    if (change.winner_gbps && change.default_gbps)
      figures = fmt::format(" (measured {} against {} GB/s)", *change.winner_gbps, *change.default_gbps);
    fmt::print(stderr, "fftgen: wisdom {}: {}: {}{}\n", wisdom_name, change.kernel, fmt::join(fields, ", "), figures);
  }
  return plan;
}

// Generates the plan into o.out_dir (or lists the files, --dry-run), with the build-step files.
int generate_plan(const Options& o, const fftgen::Plan& plan, const std::string& source, const char* argv0) {
  fftgen::check_build_step_options(o.build_step, plan);
  std::vector<std::string> names = fftgen::planned_files(plan, source);
  fftgen::add_build_step_names(names, o.build_step);
  fftgen::check_build_step_paths(o.build_step, o.out_dir.empty() ? "." : o.out_dir, names,
                                 {o.plan_path, o.wisdom_path, fftgen::executable_path(argv0)});
  if (o.dry_run) {
    for (const std::string& name : names)
      fmt::print("{}\n", o.out_dir.empty() ? name : (std::filesystem::path(o.out_dir) / name).string());
    return 0;
  }
  if (o.out_dir.empty()) throw fftgen::PlanError("no output folder: give -o DIR (or --dry-run)");
  fftgen::check_output_folder(o.out_dir, {o.plan_path, o.wisdom_path});
  fftgen::GenerateOptions generate_options;
  generate_options.jobs = o.jobs;
  if (!o.quiet && wants_progress_bar()) generate_options.progress = print_progress;
  auto output = fftgen::generate(plan, source, generate_options);
  fftgen::add_build_step_files(output, source, o.build_step);
  fftgen::WriteOptions write_options;
  write_options.inputs = {o.plan_path, o.wisdom_path};
  write_options.on_wait = [&] {
    if (!o.quiet) fmt::print(stderr, "fftgen: waiting for another fftgen writing {}\n", o.out_dir);
  };
  const fftgen::WriteSummary written = fftgen::write_output(output, o.out_dir, write_options);
  if (!written.warning.empty()) fmt::print(stderr, "fftgen: warning: {}\n", written.warning);
  fftgen::write_build_step_files(o.build_step, o.out_dir, {o.plan_path, o.wisdom_path, fftgen::executable_path(argv0)});
  if (!o.quiet)
    fmt::print(stderr, "fftgen: {} files for {} kernels in {}: {} written, {} unchanged, {} stale removed\n",
               output.files.size(), plan.kernels.size(), o.out_dir, written.written, written.unchanged, written.removed);
  return 0;
}

// The main command once parsed: what it prints and exits on, else the plan generated.
int run_main_command(const Options& o, const char* argv0) {
  if (o.print_default) {
    fmt::print("{}", fftgen::default_plan_text());
    return 0;
  }
  if (o.print_schema) {
    fmt::print("{}", fftgen::plan_schema_text());
    return 0;
  }
  if (o.explain_option->count() > 0) {
    explain_radix(o.explain, o.explain_inverse);
    return 0;
  }
  const std::string source =
      o.plan_path.empty() ? "default.json" : std::filesystem::path(o.plan_path).filename().string();
  const fftgen::Plan plan = load_plan(o, source);
  if (o.list_variants) {
    print_variants(plan, source, o.as_json);
    return 0;
  }
  return generate_plan(o, plan, source, argv0);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "fftgen: compiles a JSON plan of FFTs into compute shaders (SPIR-V, GLSL, HLSL, MSL) and a manifest.json\n"
      "that says how to dispatch them. Without a plan, the built-in default plan (generated/default.json) is used."};
  app.set_version_flag("--version", std::string("fftgen ") + FFTGEN_VERSION);
  Options options;
  add_options(app, options);
  fftgen_cli::SweepArguments sweep_args;
  CLI::App* sweep = fftgen_cli::add_sweep_command(app, sweep_args);
  fftgen_cli::TuneArguments tune_args;
  CLI::App* tune = fftgen_cli::add_tune_command(app, tune_args);
  app.footer(
      "Exit status: 0 on success, 1 on bad usage or a bad plan, 2 if a generated shader fails to compile.\n"
      "Example: fftgen generated/default.json -o out/\n"
      "         fftgen generated/default.json --wisdom bench/wisdom/nvidia-h100.json -o out/h100\n"
      "         fftgen tune plan.json -o wisdom.json   # then: fftgen plan.json --wisdom wisdom.json -o out/\n"
      "Documentation: " + documentation_folder());

  // A file-size limit (ulimit -f) then fails the write with EFBIG, reported and undone, instead of
  // killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string hint = option_hint(argc, argv);
    std::fprintf(stderr, "fftgen: error: %s (see fftgen --help)\n", hint.empty() ? e.what() : hint.c_str());
    return kExitUsage;
  }

  try {
    if (sweep->parsed()) return fftgen_cli::run_sweep(sweep_args, argv[0]);
    if (tune->parsed()) return fftgen_cli::run_tune(tune_args, argv[0], command_line(argc, argv));
    return run_main_command(options, argv[0]);
  } catch (const fftgen::CompileError& e) {
    std::fprintf(stderr, "fftgen: error: %s\n", e.what());
    return kExitCompile;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fftgen: error: %s\n", e.what());
    return kExitUsage;
  }
}
