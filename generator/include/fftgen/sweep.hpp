// generator/sweep: `fftgen sweep`, the variant explorer. From a plan whose fields are lists: per
// variant and pass, the SPIR-V instruction mix before and after spirv-opt, shared memory, HLSL and
// MSL sizes; with a Vulkan device (measured by fftgen-vk), GPU time, GB/s, error and the driver's
// pipeline statistics. Written as sweep.json, sweep.md and a self-contained sweep.html.
#pragma once
#include <filesystem>
#include <string>

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

/// The report as Markdown tables (one row per variant; skipped variants listed with reasons).
std::string sweep_markdown(const nlohmann::ordered_json& report);

/// The report as one HTML page with no external resources: the data inline, a script that builds
/// the table (one `tr.variant` per variant) and an SVG bar chart.
std::string sweep_html(const nlohmann::ordered_json& report);

/// Writes sweep.json, sweep.md and sweep.html into `dir`.
void write_sweep_files(const nlohmann::ordered_json& report, const std::filesystem::path& dir);

}  // namespace fftgen
