// `fftgen sweep`: the command-line side of the variant explorer (generator/sweep is the library).
#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace fftgen_cli {

struct SweepArguments {
  std::string plan, out_dir, vk, results, bytes = "64MiB";
  int device = -1;  ///< -1: no Vulkan measurement unless --vk is given
  unsigned jobs = 0, trials = 7;
  bool quiet = false;
};

/// Adds the `sweep` subcommand to `app`, filling `args`.
CLI::App* add_sweep_command(CLI::App& app, SweepArguments& args);

/// Runs it; returns the exit status. Throws fftgen::PlanError / CompileError as the main command.
int run_sweep(const SweepArguments& args, const char* argv0);

}  // namespace fftgen_cli
