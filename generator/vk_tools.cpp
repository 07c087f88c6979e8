#include "vk_tools.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "fftgen/types.hpp"

namespace fftgen_cli {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path, const char* what) {
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))  // a FIFO would block the open
    throw fftgen::PlanError(fmt::format("{} '{}' is not a regular file (a folder, device, FIFO or socket)", what,
                                        path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw fftgen::PlanError(fmt::format("cannot read {} '{}': {}", what, path.string(), std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string find_vk(const std::string& given, const char* argv0) {
  if (!given.empty()) {
    if (!fs::exists(given)) throw fftgen::PlanError(fmt::format("--vk: no such file '{}'", given));
    return given;
  }
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  const fs::path dir = ec ? fs::path(argv0).parent_path() : self.parent_path();
  for (const fs::path& candidate : {dir / "fftgen-vk", dir / ".." / "runtime" / "fftgen-vk"})
    if (fs::exists(candidate)) return candidate.string();
  return "fftgen-vk";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string byte_size_error(const std::string& text) {
  static const std::regex size(R"(\s*(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*(B|KiB|MiB|GiB|KB|MB|GB|K|M|G)?\s*)",
                               std::regex::icase);
  std::smatch m;
  if (!std::regex_match(text, m, size))
    return fmt::format("'{}' is not a size (e.g. 64MiB, 1GiB, 1000000); units: B, KiB, MiB, GiB, KB, MB, GB", text);
  const double value = std::stod(text);
  if (!(value > 0) || !(value < 9.2e18)) return fmt::format("'{}' must be positive and below 2^63 bytes", text);
  return "";
}

int run_logged(const std::string& command, const fs::path& log) {
  const std::string to = shell_quote(log.string());
  return std::system(fmt::format("echo '$ '{} >> {}; {} >> {} 2>&1", shell_quote(command), to, command, to).c_str());
}

nlohmann::json read_vk_json(const fs::path& path, const std::string& what) {
  if (!fs::exists(path)) return nullptr;
  try {
    return nlohmann::json::parse(read_text(path, what.c_str()));
  } catch (const nlohmann::json::exception& e) {
    throw fftgen::PlanError(fmt::format("{} wrote unreadable JSON to {}: {}", what, path.string(), e.what()));
  }
}

}  // namespace fftgen_cli
