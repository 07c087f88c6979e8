// generator/output: what fftgen writes for a build system beside the kernels: C++ headers that
// embed them in a program (`--headers`), a Make-style dependency file (`--depfile`), a stamp
// (`--stamp`); and the JSON Schema of the plan format (`--print-schema`).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"

namespace fftgen {

inline constexpr std::string_view kDefaultHeaderNamespace = "fftgen_kernels";

/// What the CLI's build-step options ask for.
struct BuildStepOptions {
  /// Also write C++ headers: `<file>.hpp` for each SPIR-V module (a `constexpr uint32_t` array),
  /// twiddle table (a `constexpr float` array) and manifest.json (a `char` array), and
  /// `<header_namespace>.hpp`, which includes them all and defines `manifest` (a string_view) and
  /// `files` (name, data, size of every file the manifest names).
  bool headers = false;
  /// C++ namespace of everything the headers define, and the umbrella header's name.
  std::string header_namespace{kDefaultHeaderNamespace};
  /// Make-style dependency file to write: its target (the stamp, else manifest.json) depends on
  /// the plan, the wisdom file and the fftgen executable.
  std::filesystem::path depfile;
  /// File rewritten after every successful run, so that its time stamp says when fftgen last ran
  /// (fftgen leaves unchanged outputs untouched; a rule over them would run every time).
  std::filesystem::path stamp;
};

/// The files a run reads: they go into the dependency file.
struct BuildStepInputs {
  std::filesystem::path plan;        ///< empty for the built-in default plan
  std::filesystem::path wisdom;      ///< empty without --wisdom
  std::filesystem::path executable;  ///< the fftgen binary itself
};

/// Checks the options against the plan (after --targets and --wisdom): the namespace must be a C++
/// identifier and the targets must include spirv for --headers. Throws PlanError.
void check_build_step_options(const BuildStepOptions& options, const Plan& plan);

/// Refuses (OutputError), before anything is generated, a --depfile or --stamp path that would
/// replace a file this run reads (`inputs`: the plan, the wisdom file, the fftgen executable), a
/// file of its output (`out_dir` / one of `output_names`), the other one of the two, or something
/// that is not a regular file (a folder, a device node, a FIFO).
void check_build_step_paths(const BuildStepOptions& options, const std::filesystem::path& out_dir,
                            const std::vector<std::string>& output_names,
                            const std::vector<std::filesystem::path>& inputs);

/// Adds the names of the headers --headers would write to `files` (the list planned_files()
/// returns), before manifest.json, so that --dry-run lists them.
void add_build_step_names(std::vector<std::string>& files, const BuildStepOptions& options);

/// Adds the headers (when options.headers) to `output`, before manifest.json. `plan_source` names
/// the plan in their first line.
void add_build_step_files(GeneratedOutput& output, const std::string& plan_source,
                          const BuildStepOptions& options);

/// Writes the dependency file and the stamp (each when asked for) after the outputs were written
/// to `out_dir`. Throws std::runtime_error naming a file it cannot write.
void write_build_step_files(const BuildStepOptions& options, const std::filesystem::path& out_dir,
                            const BuildStepInputs& inputs);

/// A Make-style rule `target: dep...`, paths escaped for Make and Ninja (space, '#', '$').
std::string make_depfile_text(const std::filesystem::path& target,
                              const std::vector<std::filesystem::path>& deps);

/// The running executable's path (/proc/self/exe where there is one, else argv[0] made absolute).
std::filesystem::path executable_path(const char* argv0);

/// The JSON Schema of the plan format (docs/plan.schema.json), embedded at build time.
std::string_view plan_schema_text();

}  // namespace fftgen
