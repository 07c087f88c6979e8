// fftgen-vk: run, verify and benchmark fftgen kernels on a Vulkan device.
// Exit codes: 0 success, 1 bad usage or an error that stopped the work, 2 a kernel failed
// verification.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fftgen/runtime.hpp"
#include "fftgen/vktools/bench.hpp"
#include "fftgen/vktools/compile_notice.hpp"
#include "fftgen/vktools/convolve.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/verify.hpp"

namespace {

using namespace fftgen::vk;

std::vector<const KernelInfo*> select_kernels(const Manifest& m,
                                              const std::vector<std::string>& names) {
  std::vector<const KernelInfo*> out;
  if (names.empty())
    for (const auto& k : m.kernels) out.push_back(&k);
  for (const auto& n : names) out.push_back(&m.kernel(n));  // throws listing the names
  return out;
}

// Written under a temporary name and renamed: a failed write leaves no partial --json file.
void write_json(const std::string& path, const nlohmann::json& j) {
  const std::string tmp = path + ".tmp-fftgen-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write '" + path + "' (is the folder there and writable?)");
    out << j.dump(2) << '\n';
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error("writing '" + path + "' failed (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot rename the temporary file into '" + path + "'");
  }
}

// A manifest with nothing to verify or time is an error, not a silent success.
void require_kernels(const Manifest& m, const std::string& path) {
  if (m.kernels.empty()) throw std::runtime_error(path + ": the manifest lists no kernels");
}

// The pipelines `names` (one kernel, or the manifest's all when empty) will compile, for the notice.
size_t pipelines_to_compile(const std::string& manifest, const std::vector<std::string>& names) {
  const Manifest m = load_manifest(manifest);
  return count_pipelines(m, select_kernels(m, names));
}

void check_validation(const Device& device) {
  for (const auto& m : device.validation_messages()) std::cerr << "validation: " << m.text << '\n';
}

// Every option's value, and the subcommands, filled by CLI11.
struct Cli {
  int device_index = -1;
  bool validation = false, quiet = false;
  CLI::App* devices = nullptr;
  CLI::App* run = nullptr;
  CLI::App* convolve = nullptr;
  CLI::App* verify = nullptr;
  CLI::App* bench = nullptr;
  CLI::App* stats = nullptr;
  std::string devices_json;
  RunRequest run_request;
  std::string run_manifest, run_input, run_output;
  bool run_inverse = false;
  ConvolveRequest conv;
  std::string conv_manifest, conv_input, conv_filter, conv_output;
  // verify, bench and stats (one subcommand runs at a time)
  std::string manifest_path, json_path;
  std::vector<std::string> kernel_names;
  VerifyOptions vopt;
  std::string bytes_text = "512MiB";
  BenchOptions bopt;
  std::string bench_direction;
};

// --quiet, --device and --validation, which every subcommand takes.
void add_common(CLI::App* sub, Cli& cli) {
  sub->add_flag("-q,--quiet", cli.quiet,
                "Print no notes (the pipeline cache, \"compiling N pipelines\"); results and errors still");
  sub->add_option("--device", cli.device_index,
                  "Physical device index (see `fftgen-vk devices`); default: the first "
                  "discrete GPU, else integrated, else CPU")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  sub->add_flag("--validation", cli.validation, "Enable the Khronos validation layer and print its messages");
}

void add_devices_and_run(CLI::App& app, Cli& cli) {
  cli.devices = app.add_subcommand("devices", "List the Vulkan devices and their indices");
  cli.devices->add_option("--json", cli.devices_json,
                          "Also write them as JSON: index, name, type, api_version, driver_version, max_shared_memory_bytes,\n"
                          "and preferred (the device taken without --device)");
  cli.run = app.add_subcommand(
      "run",
      "Transform a .npy file with one kernel. Arrays: c2c kernels take and give complex64 [N] or\n"
      "[NY, NX]; an r2c kernel's forward takes float32 [NY,] NX and gives complex64 [NY,] NX/2+1 (the\n"
      "half spectrum), its inverse (--inverse, c2r) the other way round; an r2c_pair kernel's forward\n"
      "gives complex64 [2, N/2+1] (the spectra of the real and imaginary parts). A leading batch\n"
      "dimension is allowed everywhere. fp16 kernels (precision fp16) take and give the same complex64\n"
      "and float32 arrays: the values are converted to half floats on upload and back on download.\n"
      "A convolution kernel takes an image and a filter instead: use `fftgen-vk convolve`.");
  cli.run->add_option("manifest", cli.run_manifest, "manifest.json (or its directory)")->required();
  cli.run->add_option("kernel", cli.run_request.kernel, "Kernel name")->required();
  cli.run->add_option("--input,-i", cli.run_input, "Input .npy (dtype and shape as above)")->required();
  cli.run->add_option("--output,-o", cli.run_output, "Output .npy (written whole or not at all)")->required();
  cli.run->add_flag("--inverse", cli.run_inverse, "Run the inverse direction");
  add_common(cli.run, cli);
}

void add_convolve(CLI::App& app, Cli& cli) {
  cli.convolve = app.add_subcommand(
      "convolve",
      "Convolve an image with a filter through a convolution kernel (a plan's \"convolution\" field):\n"
      "the filter kernel makes the filter's spectrum, the kernel runs the fused chain. Images: .npy\n"
      "float32 [H, W] or [H, W, C], or 8-bit .png (linear values v/255; the output clamped to 0..1 and\n"
      "rounded). The result equals scipy.signal.fftconvolve(image, filter, mode=\"same\") per channel\n"
      "(the filter's centre ((KH-1)/2, (KW-1)/2) on each output pixel); mode circular wraps the image.\n"
      "A kernel of precision fp16 keeps its planes in half floats (the images stay float32): a result\n"
      "that went beyond their range (65504) is refused with the reason, and nothing is written.");
  cli.convolve->add_option("manifest", cli.conv_manifest, "manifest.json (or its directory)")->required();
  cli.convolve->add_option("kernel", cli.conv.kernel, "The convolution kernel (the plan kernel's name)")->required();
  cli.convolve->add_option("--input,-i", cli.conv_input, "Image: .npy or .png, the kernel's [H, W, C]")->required();
  cli.convolve->add_option("--filter,-f", cli.conv_filter, "Filter: .npy or .png, [KH, KW] or [KH, KW, C] as planned")
      ->required();
  cli.convolve->add_option("--output,-o", cli.conv_output, "Output image: .npy or .png (written whole or not at all)")
      ->required();
  add_common(cli.convolve, cli);
}

void add_verify(CLI::App& app, Cli& cli) {
  cli.verify = app.add_subcommand("verify", "Check kernels against FFTW in double precision");
  cli.verify->add_option("manifest", cli.manifest_path, "manifest.json (or its directory)")->required();
  cli.verify->add_option("kernels", cli.kernel_names, "Kernels to check (default: all)");
  cli.verify->add_option("--tolerance", cli.vopt.tolerance, "Bound on relative L2 error (a positive number)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            double v = 0;
            try {
              v = std::stod(text);
            } catch (const std::exception&) {
              return "'" + text + "' is not a number";
            }
            return std::isfinite(v) && v > 0 ? "" : "must be a positive finite number (found " + text + ")";
          },
          "POSITIVE", "positive finite"));
  cli.verify->add_option("--batches", cli.vopt.batches, "Batch counts to run, comma-separated")
      ->capture_default_str()
      ->delimiter(',');
  cli.verify->add_option("--seed", cli.vopt.seed, "Random seed")->capture_default_str();
  cli.verify->add_option("--json", cli.json_path, "Also write the results as JSON");
  add_common(cli.verify, cli);
}

void add_bench_and_stats(CLI::App& app, Cli& cli) {
  cli.bench = app.add_subcommand("bench", "Time kernels with GPU timestamps");
  cli.bench->add_option("manifest", cli.manifest_path, "manifest.json (or its directory)")->required();
  cli.bench->add_option("kernels", cli.kernel_names, "Kernels to time (default: all)");
  cli.bench->add_option("--bytes", cli.bytes_text, "Bytes of one buffer (capped at 1/4 of the device-local heap)")
      ->capture_default_str();
  cli.bench->add_option("--trials", cli.bopt.trials, "Timed trials (median reported)")
      ->capture_default_str()
      ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));
  cli.bench->add_option("--calls", cli.bopt.calls_per_trial, "Back-to-back calls per trial")
      ->capture_default_str()
      ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));
  cli.bench->add_flag("--passes", cli.bopt.per_pass,
                      "Also time each pass: a timestamp after every pass of a call (a convolution: both directions),\n"
                      "each pass's share printed under its kernel (the barrier before it included)");
  cli.bench->add_option("--direction", cli.bench_direction,
                        "Direction to time: forward or inverse (default: forward where a kernel has it, else\n"
                        "inverse); a convolution is timed as its chain and refuses it")
      ->check(CLI::IsMember({"forward", "inverse"}));
  cli.bench->add_option("--input-pad", cli.bopt.input_pad,
                        "Elements after each row of a 2D kernel's input (a row pitch of NX + PAD), or after each\n"
                        "transform of a 1D kernel's (transforms N + PAD apart): a pitched view (GB/s counts the view)")
      ->check(CLI::Range(0u, 1u << 20));
  cli.bench->add_option("--json", cli.json_path, "Also write the results as JSON");
  add_common(cli.bench, cli);

  cli.stats = app.add_subcommand(
      "stats", "The driver's pipeline statistics of each pass (registers, spills, ...) where the device offers\n"
               "VK_KHR_pipeline_executable_properties; says so, and writes supported: false, where it does not");
  cli.stats->add_option("manifest", cli.manifest_path, "manifest.json (or its directory)")->required();
  cli.stats->add_option("kernels", cli.kernel_names, "Kernels to report (default: all)");
  cli.stats->add_option("--json", cli.json_path, "Also write the statistics as JSON");
  add_common(cli.stats, cli);
}

// Notes on stderr: a pipeline cache file ignored or not written, pipelines compiling.
class Notes {
 public:
  explicit Notes(bool quiet) : quiet_(quiet) {}
  std::function<void(const std::string&)> notes() const {
    return [quiet = quiet_](const std::string& text) {
      if (!quiet) std::cerr << "fftgen-vk: note: " << text << '\n';
    };
  }
  PipelineListener listen(size_t pipelines) {
    if (quiet_) return nullptr;
    notice_ = std::make_unique<CompileNotice>("fftgen-vk", pipelines, std::cerr);
    return notice_->listener();
  }

 private:
  bool quiet_;
  std::unique_ptr<CompileNotice> notice_;
};

int list_devices(const Cli& cli) {
  nlohmann::json listed = nlohmann::json::array();
  for (const auto& d : Device::list_physical_devices()) {
    const std::string api = std::to_string(VK_API_VERSION_MAJOR(d.api_version)) + '.' +
                            std::to_string(VK_API_VERSION_MINOR(d.api_version));
    std::cout << d.index << ": " << d.name << " (" << to_string(d.type) << ", Vulkan " << api << ")\n";
    listed.push_back({{"index", d.index}, {"name", d.name}, {"type", to_string(d.type)}, {"api_version", api},
                      {"driver_version", d.driver}, {"max_shared_memory_bytes", d.max_shared_memory_bytes},
                      {"preferred", d.preferred}});
  }
  if (!cli.devices_json.empty()) write_json(cli.devices_json, {{"devices", listed}});
  return 0;
}

// The device and notes of a run or convolve request (RunRequest, ConvolveRequest).
template <typename Request>
void set_device(Request& request, const Cli& cli, Notes& notes) {
  request.device_index = cli.device_index;
  request.validation = cli.validation;
  request.notes = notes.notes();
  request.pipeline_listener = notes.listen(pipelines_to_compile(request.manifest.string(), {request.kernel}));
}

int run_one(Cli& cli, Notes& notes) {
  RunRequest& run = cli.run_request;
  run.manifest = cli.run_manifest;
  run.input = cli.run_input;
  run.output = cli.run_output;
  run.direction = cli.run_inverse ? Direction::inverse : Direction::forward;
  set_device(run, cli, notes);
  run_npy(run);
  return 0;
}

int convolve(Cli& cli, Notes& notes) {
  ConvolveRequest& conv = cli.conv;
  conv.manifest = cli.conv_manifest;
  conv.input = cli.conv_input;
  conv.filter = cli.conv_filter;
  conv.output = cli.conv_output;
  set_device(conv, cli, notes);
  run_convolve(conv);
  return 0;
}

DeviceOptions device_options(const Cli& cli, const Notes& notes) {
  DeviceOptions dopt;
  dopt.device_index = cli.device_index;
  dopt.validation = cli.validation;
  dopt.notes = notes.notes();
  return dopt;
}

int verify(const Cli& cli, Notes& notes) {
  const VerifyOptions& vopt = cli.vopt;
  if (vopt.batches.empty()) throw std::runtime_error("--batches needs at least one count");
  for (auto b : vopt.batches)
    if (b == 0) throw std::runtime_error("--batches: counts must be positive");
  Manifest m = load_manifest(cli.manifest_path);
  require_kernels(m, cli.manifest_path);
  auto kernels = select_kernels(m, cli.kernel_names);
  DeviceOptions dopt = device_options(cli, notes);
  dopt.pipeline_listener = notes.listen(count_pipelines(m, kernels));
  Device device(dopt);
  std::cout << "device: " << device.name() << " (driver " << device.driver_version() << ")\n";
  std::vector<VerifyResult> results;
  for (const auto* k : kernels) results.push_back(verify_kernel(device, m, *k, vopt));
  std::cout << format_verify_table(results);
  check_validation(device);
  if (!cli.json_path.empty()) write_json(cli.json_path, verify_json(device, results, vopt));
  // A kernel that could not run (out of memory, beyond a device limit, a broken file) stopped
  // the work: 1; a kernel that ran and gave wrong results failed verification: 2.
  for (const auto& r : results)
    if (!r.error.empty()) return 1;
  bool ok = device.validation_messages().empty();
  for (const auto& r : results) ok &= r.pass;
  return ok ? 0 : 2;
}

// One line per executable of each pass: "<kernel> <pass> <executable>: name=value ...".
nlohmann::json print_statistics(const Kernel& kernel) {
  nlohmann::json passes = kernel.pipeline_statistics();
  for (const auto& pass : passes)
    for (const auto& exe : pass["executables"]) {
      std::cout << kernel.info().name << ' ' << pass["pass"].get<std::string>() << ' '
                << exe["name"].get<std::string>() << ':';
      for (const auto& [name, value] : exe["statistics"].items()) std::cout << ' ' << name << '=' << value.dump();
      std::cout << '\n';
    }
  return passes;
}

int stats(const Cli& cli, Notes& notes) {
  Manifest m = load_manifest(cli.manifest_path);
  auto kernels = select_kernels(m, cli.kernel_names);
  DeviceOptions dopt = device_options(cli, notes);
  dopt.pipeline_statistics = true;
  dopt.pipeline_listener = notes.listen(count_pipelines(m, kernels));
  Device device(dopt);
  std::cout << "device: " << device.name() << " (driver " << device.driver_version() << ")\n";
  nlohmann::json doc{{"device", device.name()},
                     {"driver_version", device.driver_version()},
                     {"supported", device.pipeline_statistics()},
                     {"kernels", nlohmann::json::array()}};
  if (!device.pipeline_statistics())
    std::cout << "the device does not offer VK_KHR_pipeline_executable_properties: no statistics\n";
  for (const auto* info : device.pipeline_statistics() ? kernels : decltype(kernels){}) {
    Kernel kernel(device, m, info->name);
    doc["kernels"].push_back({{"kernel", info->name}, {"passes", print_statistics(kernel)}});
  }
  check_validation(device);
  if (!cli.json_path.empty()) write_json(cli.json_path, doc);
  return 0;
}

int bench(Cli& cli, Notes& notes) {
  BenchOptions& bopt = cli.bopt;
  try {
    bopt.bytes = parse_byte_size(cli.bytes_text);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("--bytes: ") + e.what());
  }
  if (!cli.bench_direction.empty())
    bopt.direction = cli.bench_direction == "forward" ? Direction::forward : Direction::inverse;
  Manifest m = load_manifest(cli.manifest_path);
  require_kernels(m, cli.manifest_path);
  auto kernels = select_kernels(m, cli.kernel_names);
  // A convolution's filter kernel runs once per filter: its chain is what is timed.
  if (cli.kernel_names.empty())
    kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                                 [](const KernelInfo* k) { return k->transform == "convolution_filter"; }),
                  kernels.end());
  DeviceOptions dopt = device_options(cli, notes);
  dopt.pipeline_listener = notes.listen(count_pipelines(m, kernels) + 1);  // and the copy floor's
  Device device(dopt);
  std::cout << "device: " << device.name() << " (driver " << device.driver_version() << ")\n";
  std::vector<BenchResult> results;
  BenchBuffers buffers = make_bench_buffers(device, bopt);  // one pair for every kernel
  results.push_back(bench_copy(device, bopt, &buffers));
  for (const auto* k : kernels) results.push_back(bench_kernel(device, m, *k, bopt, &buffers));
  std::cout << format_bench_table(results);
  check_validation(device);
  if (!cli.json_path.empty()) write_json(cli.json_path, bench_json(device, results, bopt));
  for (const auto& r : results)
    if (!r.error.empty()) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fftgen-vk: run, verify and benchmark fftgen kernels (manifest.json) on Vulkan"};
  app.require_subcommand(1);
  app.footer("The driver's compiled pipelines are kept between runs in $XDG_CACHE_HOME/fftgen (else ~/.cache/fftgen),\n"
             "one file per device and driver; FFTGEN_PIPELINE_CACHE=off turns that off, FFTGEN_PIPELINE_CACHE=DIR\n"
             "keeps them in DIR (docs/runtime.md, \"The pipeline cache\").");
  Cli cli;
  add_devices_and_run(app, cli);
  add_convolve(app, cli);
  add_verify(app, cli);
  add_bench_and_stats(app, cli);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "fftgen-vk: error: " << e.what() << "\n(see fftgen-vk --help)\n";
    return 1;
  }
  Notes notes(cli.quiet);
  try {
    if (*cli.devices) return list_devices(cli);
    if (*cli.run) return run_one(cli, notes);
    if (*cli.convolve) return convolve(cli, notes);
    if (*cli.verify) return verify(cli, notes);
    if (*cli.stats) return stats(cli, notes);
    if (*cli.bench) return bench(cli, notes);
  } catch (const std::exception& e) {
    std::cerr << "fftgen-vk: error: " << e.what() << '\n';
    return 1;
  }
  return 1;
}
