// `fftgen tune`: times the candidates of each kernel of a plan on a Vulkan device (through
// fftgen-vk) and writes a wisdom table of the winners (docs/cli.md, "Tuning").
#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace fftgen_cli {

struct TuneArguments {
  std::string plan, output, work, vk, bytes = "64MiB";
  int device = -1;  ///< -1: the device fftgen-vk takes by default
  unsigned jobs = 0, trials = 7;
  double min_gain = 0.003;
  bool quiet = false, fresh = false;
};

/// Adds the `tune` subcommand to `app`, filling `args`.
CLI::App* add_tune_command(CLI::App& app, TuneArguments& args);

/// Runs it; `command` is the command line, recorded in the table's run. Returns the exit status.
/// Throws fftgen::PlanError / CompileError / OutputError as the main command.
int run_tune(const TuneArguments& args, const char* argv0, const std::string& command);

}  // namespace fftgen_cli
