#include "fftgen/build_step.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string_view>

#include <fmt/format.h>

#include "fftgen/emit.hpp"
#include "fftgen/write_output.hpp"

namespace fftgen {
namespace {

namespace fs = std::filesystem;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The files a header embeds, by kind. Everything else fftgen writes (GLSL, HLSL, MSL text) is not
// embedded: the runtime loads SPIR-V.
enum class Embedded { none, spirv, twiddles, manifest };

Embedded kind_of(std::string_view file) {
  if (file == "manifest.json") return Embedded::manifest;
  if (ends_with(file, ".spv")) return Embedded::spirv;
  if (ends_with(file, ".twiddles.bin")) return Embedded::twiddles;
  return Embedded::none;
}

void check_depfile_path(const fs::path& path) {
  const std::string text = path.generic_string();
  if (text.find_first_of("\n\r") != std::string::npos)
    throw OutputError(fmt::format("--depfile: the path {:?} holds a line break, which a Make or Ninja dependency "
                                  "file cannot hold; rename it",
                                  text));
}

std::string header_name(std::string_view file) { return std::string(file) + ".hpp"; }
std::string umbrella_name(const BuildStepOptions& options) { return options.header_namespace + ".hpp"; }

// The C++ name of an embedded file's array. Kernel names are [A-Za-z0-9_]+ and may start with a
// digit, so every name gets a prefix by kind; '.' becomes '_'. This is one-to-one: a pass name
// (fwd0, inv1) holds no '_', so "<kernel>_<pass>" splits at its last '_'.
std::string symbol_of(std::string_view file) {
  std::string stem(file.substr(0, file.rfind('.')));
  std::replace(stem.begin(), stem.end(), '.', '_');
  switch (kind_of(file)) {
    case Embedded::spirv: return "spirv_" + stem;
    case Embedded::twiddles: return "table_" + stem;
    case Embedded::manifest: return "manifest_json";
    case Embedded::none: break;
  }
  return "";
}

// Headers written for `files` (file names in generate()'s order), umbrella last.
std::vector<std::string> header_names(const std::vector<std::string>& files, const BuildStepOptions& options) {
  std::vector<std::string> names;
  for (const std::string& f : files)
    if (kind_of(f) != Embedded::none) names.push_back(header_name(f));
  names.push_back(umbrella_name(options));
  return names;
}

// Inserts `extra` before manifest.json, which stays the last file written.
template <typename T>
void insert_before_manifest(std::vector<T>& files, std::vector<T> extra) {
  files.insert(files.empty() ? files.end() : files.end() - 1, std::make_move_iterator(extra.begin()),
               std::make_move_iterator(extra.end()));
}

uint32_t word_at(const std::string& bytes, size_t i) {  // little-endian, as generate() writes them
  uint32_t w = 0;
  for (int b = 3; b >= 0; --b) w = (w << 8) | static_cast<unsigned char>(bytes[4 * i + b]);
  return w;
}

// Values, `per_line` to a line, indented, each followed by a comma.
template <typename F>
std::string value_lines(size_t count, size_t per_line, F&& value) {
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    out += i % per_line == 0 ? "    " : " ";
    out += value(i);
    out += ',';
    if (i % per_line == per_line - 1 || i + 1 == count) out += '\n';
  }
  return out;
}

// A byte as a C++ character literal. Character literals rather than one string literal: MSVC
// refuses string literals longer than 64 KB, which a manifest of many kernels exceeds.
std::string char_literal(char c) {
  if (c == '\'' || c == '\\') return std::string("'\\") + c + "'";
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  return fmt::format("'\\{:03o}'", u);
}

std::string embedded_header(const OutputFile& file, const std::string& banner, const std::string& ns) {
  const std::string symbol = symbol_of(file.name);
  std::string type, body;
  std::string include;
  switch (kind_of(file.name)) {
    case Embedded::spirv: {
      include = "#include <cstdint>\n";
      const size_t words = file.bytes.size() / 4;
      type = fmt::format("std::uint32_t {}[{}]", symbol, words);
      body = value_lines(words, 8, [&](size_t i) { return fmt::format("0x{:08x}u", word_at(file.bytes, i)); });
      break;
    }
    case Embedded::twiddles: {
      // Hexadecimal float literals are exact: the array holds the very floats of the .bin file.
      const size_t values = file.bytes.size() / 4;
      type = fmt::format("float {}[{}]", symbol, values);
      body = value_lines(values, 6, [&](size_t i) {
        float f;
        const uint32_t w = word_at(file.bytes, i);
        std::memcpy(&f, &w, 4);
        return fmt::format("{:a}f", f);
      });
      break;
    }
    case Embedded::manifest:
      type = fmt::format("char {}[{}]", symbol, file.bytes.size() + 1);
      body = value_lines(file.bytes.size() + 1, 16, [&](size_t i) {
        return i < file.bytes.size() ? char_literal(file.bytes[i]) : std::string("'\\0'");
      });
      break;
    case Embedded::none: break;
  }
  return fmt::format(
      "// {}: {} ({} bytes).\n#pragma once\n{}\nnamespace {} {{\ninline constexpr {} = {{\n{}}};\n}}  // namespace {}\n",
      banner, file.name, file.bytes.size(), include, ns, type, body, ns);
}

std::string umbrella_header(const std::vector<const OutputFile*>& embedded, const std::string& banner,
                            const std::string& ns) {
  std::string includes, table;
  for (const OutputFile* f : embedded) {
    includes += fmt::format("#include \"{}\"\n", header_name(f->name));
    if (kind_of(f->name) != Embedded::manifest)
      table += fmt::format("    {{\"{}\", {}, sizeof({})}},\n", f->name, symbol_of(f->name), symbol_of(f->name));
  }
  return fmt::format(
      "// {3}.\n"
      "// Every kernel of the plan, embedded: `manifest` is manifest.json and `files` every file it names\n"
      "// (SPIR-V modules, twiddle tables). With fftgen::runtime:\n"
      "//   auto manifest = fftgen::vk::parse_manifest_text({0}::manifest, \"{0}::manifest\",\n"
      "//                                                   fftgen::vk::FileSource::in_memory({0}::files));\n"
      "#pragma once\n#include <cstddef>\n#include <string_view>\n\n{1}\n"
      "namespace {0} {{\n"
      "/// One embedded file: its name in the manifest, its bytes.\n"
      "struct File {{\n  const char* name;\n  const void* data;\n  std::size_t size;\n}};\n\n"
      "inline constexpr std::string_view manifest{{manifest_json, sizeof(manifest_json) - 1}};\n"
      "inline constexpr File files[] = {{\n{2}}};\n"
      "}}  // namespace {0}\n",
      ns, includes, table, banner);
}

}  // namespace

void check_build_step_options(const BuildStepOptions& options, const Plan& plan) {
  if (!options.headers) return;
  const std::string& ns = options.header_namespace;
  bool ok = !ns.empty() && !(ns[0] >= '0' && ns[0] <= '9');
  for (char c : ns)
    ok &= (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  if (!ok)
    throw PlanError(fmt::format("--header-namespace: '{}' is not a C++ identifier; allowed: letters, digits and _, "
                                "not starting with a digit (it also names the header {}.hpp)",
                                ns, ns));
  if (std::find(plan.targets.begin(), plan.targets.end(), Target::spirv) == plan.targets.end())
    throw PlanError("--headers embeds the SPIR-V modules, but the targets do not include spirv; add it to the "
                    "plan's \"targets\" or to --targets");
}

void check_build_step_paths(const BuildStepOptions& options, const fs::path& out_dir,
                            const std::vector<std::string>& output_names, const std::vector<fs::path>& inputs) {
  if (!options.depfile.empty()) {
    std::vector<fs::path> named = inputs;
    named.push_back(options.stamp.empty() ? out_dir / "manifest.json" : options.stamp);
    for (const fs::path& p : named) check_depfile_path(p);
  }
  const std::pair<const char*, const fs::path*> targets[] = {{"--depfile", &options.depfile},
                                                             {"--stamp", &options.stamp}};
  auto refuse = [](const char* option, const fs::path& path, const fs::path& other, const char* verb) {
    throw OutputError(fmt::format("{} '{}' would replace '{}', which this run {}; give another {} path", option,
                                  path.string(), other.string(), verb, option));
  };
  std::error_code ec;
  const fs::path output_folder = fs::weakly_canonical(out_dir, ec);
  for (const auto& [option, path] : targets) {
    if (path->empty()) continue;
    check_replaceable_file(*path, option);
    for (const fs::path& input : inputs)
      if (!input.empty() && fs::equivalent(*path, input, ec)) refuse(option, *path, input, "reads");
    const fs::path folder = fs::weakly_canonical(fs::absolute(*path, ec).parent_path(), ec);
    const std::string name = path->filename().string();
    if (!ec && folder == output_folder &&
        std::find(output_names.begin(), output_names.end(), name) != output_names.end())
      refuse(option, *path, out_dir / name, "writes");
  }
  if (!options.depfile.empty() && !options.stamp.empty() &&
      fs::weakly_canonical(fs::absolute(options.depfile), ec) == fs::weakly_canonical(fs::absolute(options.stamp), ec))
    throw OutputError(fmt::format("--depfile '{}' and --stamp '{}' are one file; give two paths",
                                  options.depfile.string(), options.stamp.string()));
}

void add_build_step_names(std::vector<std::string>& files, const BuildStepOptions& options) {
  if (options.headers) insert_before_manifest(files, header_names(files, options));
}

void add_build_step_files(GeneratedOutput& output, const std::string& plan_source, const BuildStepOptions& options) {
  if (!options.headers) return;
  const std::string banner = fmt::format("Generated by fftgen {} from {}; do not edit", FFTGEN_VERSION, plan_source);
  std::vector<const OutputFile*> embedded;
  for (const OutputFile& f : output.files)
    if (kind_of(f.name) != Embedded::none) embedded.push_back(&f);
  std::vector<OutputFile> headers;
  for (const OutputFile* f : embedded)
    headers.push_back({header_name(f->name), embedded_header(*f, banner, options.header_namespace)});
  headers.push_back({umbrella_name(options), umbrella_header(embedded, banner, options.header_namespace)});
  insert_before_manifest(output.files, std::move(headers));
}

void write_build_step_files(const BuildStepOptions& options, const fs::path& out_dir, const BuildStepInputs& inputs) {
  if (!options.depfile.empty()) {
    std::vector<fs::path> deps;
    for (const fs::path& p : {inputs.plan, inputs.wisdom, inputs.executable})
      if (!p.empty()) deps.push_back(fs::absolute(p));
    const fs::path target = options.stamp.empty() ? out_dir / "manifest.json" : options.stamp;
    // The target as given, so that it is the very name of the build system's rule.
    write_file_replacing(options.depfile, make_depfile_text(target, deps));
  }
  if (!options.stamp.empty())
    write_file_replacing(options.stamp,
               fmt::format("fftgen {} wrote {}\n", FFTGEN_VERSION, fs::absolute(out_dir).generic_string()));
}

std::string make_depfile_text(const fs::path& target, const std::vector<fs::path>& deps) {
  check_depfile_path(target);
  for (const fs::path& d : deps) check_depfile_path(d);
  auto escape = [](const fs::path& p) {
    std::string out;
    for (char c : p.lexically_normal().generic_string()) {
      if (c == ' ' || c == '#') out += '\\';
      if (c == '$') out += '$';
      out += c;
    }
    return out;
  };
  std::string text = escape(target) + ":";
  for (const fs::path& d : deps) text += " \\\n  " + escape(d);
  return text + "\n";
}

fs::path executable_path(const char* argv0) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && !self.empty()) return self;
  return fs::absolute(argv0 ? argv0 : "fftgen", ec);
}

std::string_view plan_schema_text() { return embedded_template("plan.schema.json"); }

}  // namespace fftgen
