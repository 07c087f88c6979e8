// generator/sweep: `fftgen sweep`, the variant explorer. From a plan whose fields are lists: per
// variant and pass, the SPIR-V instruction mix before and after spirv-opt, shared memory, HLSL and
// MSL sizes; with a Vulkan device (measured by fftgen-vk), GPU time, GB/s, error and the driver's
// pipeline statistics. Written as sweep.json, sweep.md and a self-contained sweep.html.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"

namespace fftgen {

/// The report without device figures: plan, the fields that vary, every generated variant (its
/// fields, passes and totals) and every skipped one with its reason (plan.skipped, then
/// output.skipped). `output` must come from generate() with keep_unoptimised_spirv.
nlohmann::ordered_json sweep_report(const Plan& plan, const GeneratedOutput& output, const std::string& plan_source);

/// Adds fftgen-vk's JSON (`verify --json`, `bench --json`, `stats --json`; null where not run) to
/// the report's variants, matched by kernel name, and the device to the report.
void add_device_results(nlohmann::ordered_json& report, const nlohmann::json& verify, const nlohmann::json& bench,
                        const nlohmann::json& stats);

/// Sets report["twins"]: every pair of variants whose fields differ in exactly one (not the kernel's
/// name), in varying_fields' order, each with b − a of the instruction mix before and after
/// spirv-opt, of shared memory and of the HLSL/MSL sizes; where both were measured, their times
/// against the spread of their trials ("within_spread": the difference is no larger than the wider
/// trial range) and the driver's statistics. sweep_report and add_device_results call it.
void add_twins(nlohmann::ordered_json& report);

/// The SPIR-V disassembly diff of every twin pair (unified, each pass after then before
/// spirv-opt), named by the twin's "diff" ("twins/A__vs__B.diff"); sets each twin's
/// "diff_added" and "diff_removed" line counts. `output` as for sweep_report.
std::vector<OutputFile> twin_diffs(nlohmann::ordered_json& report, const GeneratedOutput& output);

/// A unified diff (diff -u, 3 lines of context) of two texts given as lines; "" where they are equal.
std::string unified_diff(const std::vector<std::string>& a, const std::vector<std::string>& b, const std::string& a_name,
                         const std::string& b_name);

/// The report as Markdown tables (one row per variant; skipped variants listed with reasons).
std::string sweep_markdown(const nlohmann::ordered_json& report);

/// The report as one HTML page with no external resources: the data inline, a script that builds
/// the table (one `tr.variant` per variant) and an SVG bar chart.
std::string sweep_html(const nlohmann::ordered_json& report);

/// Writes sweep.json, sweep.md and sweep.html into `dir`, and `extra` files (the twins' diffs)
/// under it.
void write_sweep_files(const nlohmann::ordered_json& report, const std::filesystem::path& dir,
                       const std::vector<OutputFile>& extra = {});

}  // namespace fftgen
