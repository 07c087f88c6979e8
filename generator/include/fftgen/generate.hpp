// generator/manifest: runs the whole pipeline for a plan (layout, emit, compile) and produces the
// output files and manifest.json in memory, so that a failure anywhere writes nothing.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fftgen/codelet.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"

namespace fftgen {

struct OutputFile {
  std::string name;   ///< file name relative to the output folder
  std::string bytes;  ///< exact contents
};

struct GeneratedOutput {
  std::vector<OutputFile> files;  ///< every file, manifest.json last
  nlohmann::ordered_json manifest;
};

/// Generates every file of a plan. `plan_source` is the plan's file name as shown in headers.
/// `progress` (optional) is told each variant's name before it is compiled.
/// Throws PlanError or CompileError; nothing is written.
GeneratedOutput generate(const Plan& plan, const std::string& plan_source,
                         const std::function<void(const std::string&)>& progress = {});

/// Names of the files generate() would write, without compiling anything (for --dry-run).
std::vector<std::string> planned_files(const Plan& plan);

// write_output() (fftgen/write_output.hpp) puts them into a folder.

/// The plan compiled into the binary (generated/default.json), used when no plan is given.
std::string_view default_plan_text();

}  // namespace fftgen
