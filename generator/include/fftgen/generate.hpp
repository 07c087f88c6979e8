// generator/manifest: runs the whole pipeline for a plan (layout, emit, compile) and produces the
// output files and manifest.json in memory, so that a failure anywhere writes nothing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
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
  /// SPIR-V before spirv-opt, by the name of the optimised file ("fft1k.fwd0.spv"); only with
  /// GenerateOptions::keep_unoptimised_spirv.
  std::map<std::string, std::vector<uint32_t>> unoptimised_spirv;
  /// Variants left out, with the reason; only with GenerateOptions::skip_failed_variants.
  std::vector<SkippedVariant> skipped;
  /// GLSL compilations run: variants whose shaders print the same text share one.
  std::size_t shaders_compiled = 0;
};

struct GenerateOptions {
  /// Variants generated at once, each on its own thread; 0: one per core. The output does not
  /// depend on it (byte-identical files and manifest).
  unsigned jobs = 0;
  /// Told after each variant (from the worker threads, one call at a time): variants done, of
  /// how many, and the variant's name.
  std::function<void(std::size_t done, std::size_t total, const std::string& name)> progress;
  /// A sweep: a variant whose kernel cannot be built for the plan's targets (PlanError) is left out
  /// and listed in GeneratedOutput::skipped instead of failing the plan.
  bool skip_failed_variants = false;
  bool keep_unoptimised_spirv = false;
};

/// Generates every file of a plan. `plan_source` is the plan's file name as shown in headers.
/// `progress` (optional) is told each variant's name before it is compiled.
/// Throws PlanError or CompileError; nothing is written.
GeneratedOutput generate(const Plan& plan, const std::string& plan_source,
                         const std::function<void(const std::string&)>& progress = {});
/// The same with options: parallel generation, skipping, the unoptimised SPIR-V.
GeneratedOutput generate(const Plan& plan, const std::string& plan_source, const GenerateOptions& options);

/// Names of the files generate() would write, without compiling anything (for --dry-run). Refuses
/// what generate() refuses before compiling, with the same messages (`plan_source` names the plan).
std::vector<std::string> planned_files(const Plan& plan, const std::string& plan_source);

// write_output() (fftgen/write_output.hpp) puts them into a folder.

/// The plan compiled into the binary (generated/default.json), used when no plan is given.
std::string_view default_plan_text();

}  // namespace fftgen
