// What `fftgen sweep` and `fftgen tune` share: reading input files, finding and running fftgen-vk.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace fftgen_cli {

/// The whole of a file; `what` names it in the message ("plan", "results file"). Throws PlanError.
std::string read_text(const std::filesystem::path& path, const char* what);

/// fftgen-vk: `given` (--vk), else beside this fftgen in a build tree (build/generator/fftgen ->
/// build/runtime/fftgen-vk) or an install (bin/), else on PATH.
std::string find_vk(const std::string& given, const char* argv0);

std::string shell_quote(const std::string& s);

/// CLI11 check of a --bytes value (fftgen-vk bench --bytes): "" when it is a positive size below
/// 2^63 bytes with an optional unit, else why not.
std::string byte_size_error(const std::string& text);

/// Runs `command` (a shell command line) with its output appended to `log`, the command line
/// first. Returns the exit status.
int run_logged(const std::string& command, const std::filesystem::path& log);

/// Parses a JSON file fftgen-vk wrote; null where there is none. Throws PlanError if unreadable.
nlohmann::json read_vk_json(const std::filesystem::path& path, const std::string& what);

}  // namespace fftgen_cli
