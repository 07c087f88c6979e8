// fftgen-vk: run, verify and benchmark fftgen kernels on a Vulkan device.
// Exit codes: 0 success, 1 bad usage or an error that stopped the work, 2 a kernel failed
// verification.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <fstream>
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fftgen-vk: run, verify and benchmark fftgen kernels (manifest.json) on Vulkan"};
  app.require_subcommand(1);
  app.footer("The driver's compiled pipelines are kept between runs in $XDG_CACHE_HOME/fftgen (else ~/.cache/fftgen),\n"
             "one file per device and driver; FFTGEN_PIPELINE_CACHE=off turns that off, FFTGEN_PIPELINE_CACHE=DIR\n"
             "keeps them in DIR (docs/runtime.md, \"The pipeline cache\").");
  int device_index = -1;
  bool validation = false, quiet = false;
  auto add_common = [&](CLI::App* sub) {
    sub->add_flag("-q,--quiet", quiet,
                  "Print no notes (the pipeline cache, \"compiling N pipelines\"); results and errors still");
    sub->add_option("--device", device_index,
                    "Physical device index (see `fftgen-vk devices`); default: the first "
                    "discrete GPU, else integrated, else CPU")
        ->check(CLI::Range(0, std::numeric_limits<int>::max()));
    sub->add_flag("--validation", validation,
                  "Enable the Khronos validation layer and print its messages");
  };

  auto* devices = app.add_subcommand("devices", "List the Vulkan devices and their indices");
  std::string devices_json;
  devices->add_option("--json", devices_json,
                      "Also write them as JSON: index, name, type, api_version, driver_version, max_shared_memory_bytes,\n"
                      "and preferred (the device taken without --device)");

  RunRequest run;
  std::string run_manifest, run_input, run_output;
  bool run_inverse = false;
  auto* run_cmd = app.add_subcommand(
      "run",
      "Transform a .npy file with one kernel. Arrays: c2c kernels take and give complex64 [N] or\n"
      "[NY, NX]; an r2c kernel's forward takes float32 [NY,] NX and gives complex64 [NY,] NX/2+1 (the\n"
      "half spectrum), its inverse (--inverse, c2r) the other way round; an r2c_pair kernel's forward\n"
      "gives complex64 [2, N/2+1] (the spectra of the real and imaginary parts). A leading batch\n"
      "dimension is allowed everywhere. fp16 kernels (precision fp16) take and give the same complex64\n"
      "and float32 arrays: the values are converted to half floats on upload and back on download.\n"
      "A convolution kernel takes an image and a filter instead: use `fftgen-vk convolve`.");
  run_cmd->add_option("manifest", run_manifest, "manifest.json (or its directory)")->required();
  run_cmd->add_option("kernel", run.kernel, "Kernel name")->required();
  run_cmd->add_option("--input,-i", run_input, "Input .npy (dtype and shape as above)")->required();
  run_cmd->add_option("--output,-o", run_output, "Output .npy (written whole or not at all)")->required();
  run_cmd->add_flag("--inverse", run_inverse, "Run the inverse direction");
  add_common(run_cmd);

  ConvolveRequest conv;
  std::string conv_manifest, conv_input, conv_filter, conv_output;
  auto* convolve_cmd = app.add_subcommand(
      "convolve",
      "Convolve an image with a filter through a convolution kernel (a plan's \"convolution\" field):\n"
      "the filter kernel makes the filter's spectrum, the kernel runs the fused chain. Images: .npy\n"
      "float32 [H, W] or [H, W, C], or 8-bit .png (linear values v/255; the output clamped to 0..1 and\n"
      "rounded). The result equals scipy.signal.fftconvolve(image, filter, mode=\"same\") per channel\n"
      "(the filter's centre ((KH-1)/2, (KW-1)/2) on each output pixel); mode circular wraps the image.\n"
      "A kernel of precision fp16 keeps its planes in half floats (the images stay float32): a result\n"
      "that went beyond their range (65504) is refused with the reason, and nothing is written.");
  convolve_cmd->add_option("manifest", conv_manifest, "manifest.json (or its directory)")->required();
  convolve_cmd->add_option("kernel", conv.kernel, "The convolution kernel (the plan kernel's name)")->required();
  convolve_cmd->add_option("--input,-i", conv_input, "Image: .npy or .png, the kernel's [H, W, C]")->required();
  convolve_cmd->add_option("--filter,-f", conv_filter, "Filter: .npy or .png, [KH, KW] or [KH, KW, C] as planned")
      ->required();
  convolve_cmd->add_option("--output,-o", conv_output, "Output image: .npy or .png (written whole or not at all)")
      ->required();
  add_common(convolve_cmd);

  std::string manifest_path, json_path;
  std::vector<std::string> kernel_names;
  VerifyOptions vopt;
  auto* verify_cmd = app.add_subcommand("verify", "Check kernels against FFTW in double precision");
  verify_cmd->add_option("manifest", manifest_path, "manifest.json (or its directory)")->required();
  verify_cmd->add_option("kernels", kernel_names, "Kernels to check (default: all)");
  verify_cmd->add_option("--tolerance", vopt.tolerance, "Bound on relative L2 error (a positive number)")
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
  verify_cmd->add_option("--batches", vopt.batches, "Batch counts to run, comma-separated")->capture_default_str()
      ->delimiter(',');
  verify_cmd->add_option("--seed", vopt.seed, "Random seed")->capture_default_str();
  verify_cmd->add_option("--json", json_path, "Also write the results as JSON");
  add_common(verify_cmd);

  std::string bytes_text = "512MiB";
  BenchOptions bopt;
  auto* bench_cmd = app.add_subcommand("bench", "Time kernels with GPU timestamps");
  bench_cmd->add_option("manifest", manifest_path, "manifest.json (or its directory)")->required();
  bench_cmd->add_option("kernels", kernel_names, "Kernels to time (default: all)");
  bench_cmd->add_option("--bytes", bytes_text,
                        "Bytes of one buffer (capped at 1/4 of the device-local heap)")->capture_default_str();
  bench_cmd->add_option("--trials", bopt.trials, "Timed trials (median reported)")
      ->capture_default_str()
      ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));
  bench_cmd->add_option("--calls", bopt.calls_per_trial, "Back-to-back calls per trial")
      ->capture_default_str()
      ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));
  bench_cmd->add_flag("--passes", bopt.per_pass,
                      "Also time each pass: a timestamp after every pass of a call (a convolution: both directions),\n"
                      "each pass's share printed under its kernel (the barrier before it included)");
  std::string bench_direction;
  bench_cmd->add_option("--direction", bench_direction,
                        "Direction to time: forward or inverse (default: forward where a kernel has it, else\n"
                        "inverse); a convolution is timed as its chain and refuses it")
      ->check(CLI::IsMember({"forward", "inverse"}));
  bench_cmd->add_option("--json", json_path, "Also write the results as JSON");
  add_common(bench_cmd);

  auto* stats_cmd = app.add_subcommand(
      "stats", "The driver's pipeline statistics of each pass (registers, spills, ...) where the device offers\n"
               "VK_KHR_pipeline_executable_properties; says so, and writes supported: false, where it does not");
  stats_cmd->add_option("manifest", manifest_path, "manifest.json (or its directory)")->required();
  stats_cmd->add_option("kernels", kernel_names, "Kernels to report (default: all)");
  stats_cmd->add_option("--json", json_path, "Also write the statistics as JSON");
  add_common(stats_cmd);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "fftgen-vk: error: " << e.what() << "\n(see fftgen-vk --help)\n";
    return 1;
  }

  // Notes on stderr: a pipeline cache file ignored or not written, pipelines compiling.
  auto notes = [&](const std::string& text) {
    if (!quiet) std::cerr << "fftgen-vk: note: " << text << '\n';
  };
  std::unique_ptr<CompileNotice> notice;
  auto listen = [&](size_t pipelines) -> PipelineListener {
    if (quiet) return nullptr;
    notice = std::make_unique<CompileNotice>("fftgen-vk", pipelines, std::cerr);
    return notice->listener();
  };

  try {
    if (*devices) {
      nlohmann::json listed = nlohmann::json::array();
      for (const auto& d : Device::list_physical_devices()) {
        const std::string api = std::to_string(VK_API_VERSION_MAJOR(d.api_version)) + '.' +
                                std::to_string(VK_API_VERSION_MINOR(d.api_version));
        std::cout << d.index << ": " << d.name << " (" << to_string(d.type) << ", Vulkan " << api << ")\n";
        listed.push_back({{"index", d.index}, {"name", d.name}, {"type", to_string(d.type)}, {"api_version", api},
                          {"driver_version", d.driver}, {"max_shared_memory_bytes", d.max_shared_memory_bytes},
                          {"preferred", d.preferred}});
      }
      if (!devices_json.empty()) write_json(devices_json, {{"devices", listed}});
      return 0;
    }
    if (*run_cmd) {
      run.manifest = run_manifest;
      run.input = run_input;
      run.output = run_output;
      run.direction = run_inverse ? Direction::inverse : Direction::forward;
      run.device_index = device_index;
      run.validation = validation;
      run.notes = notes;
      run.pipeline_listener = listen(pipelines_to_compile(run_manifest, {run.kernel}));
      run_npy(run);
      return 0;
    }
    if (*convolve_cmd) {
      conv.manifest = conv_manifest;
      conv.input = conv_input;
      conv.filter = conv_filter;
      conv.output = conv_output;
      conv.device_index = device_index;
      conv.validation = validation;
      conv.notes = notes;
      conv.pipeline_listener = listen(pipelines_to_compile(conv_manifest, {conv.kernel}));
      run_convolve(conv);
      return 0;
    }
    DeviceOptions dopt;
    dopt.device_index = device_index;
    dopt.validation = validation;
    dopt.notes = notes;
    if (*verify_cmd) {
      if (vopt.batches.empty()) throw std::runtime_error("--batches needs at least one count");
      for (auto b : vopt.batches)
        if (b == 0) throw std::runtime_error("--batches: counts must be positive");
      Manifest m = load_manifest(manifest_path);
      require_kernels(m, manifest_path);
      auto kernels = select_kernels(m, kernel_names);
      dopt.pipeline_listener = listen(count_pipelines(m, kernels));
      Device device(dopt);
      std::cout << "device: " << device.name() << " (driver " << device.driver_version() << ")\n";
      std::vector<VerifyResult> results;
      for (const auto* k : kernels) results.push_back(verify_kernel(device, m, *k, vopt));
      std::cout << format_verify_table(results);
      check_validation(device);
      if (!json_path.empty()) write_json(json_path, verify_json(device, results, vopt));
      // A kernel that could not run (out of memory, beyond a device limit, a broken file) stopped
      // the work: 1; a kernel that ran and gave wrong results failed verification: 2.
      for (const auto& r : results)
        if (!r.error.empty()) return 1;
      bool ok = device.validation_messages().empty();
      for (const auto& r : results) ok &= r.pass;
      return ok ? 0 : 2;
    }
    if (*stats_cmd) {
      Manifest m = load_manifest(manifest_path);
      auto kernels = select_kernels(m, kernel_names);
      dopt.pipeline_statistics = true;
      dopt.pipeline_listener = listen(count_pipelines(m, kernels));
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
        nlohmann::json passes = kernel.pipeline_statistics();
        for (const auto& pass : passes)
          for (const auto& exe : pass["executables"]) {
            std::cout << info->name << ' ' << pass["pass"].get<std::string>() << ' '
                      << exe["name"].get<std::string>() << ':';
            for (const auto& [name, value] : exe["statistics"].items()) std::cout << ' ' << name << '=' << value.dump();
            std::cout << '\n';
          }
        doc["kernels"].push_back({{"kernel", info->name}, {"passes", passes}});
      }
      check_validation(device);
      if (!json_path.empty()) write_json(json_path, doc);
      return 0;
    }
    if (*bench_cmd) {
      try {
        bopt.bytes = parse_byte_size(bytes_text);
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(std::string("--bytes: ") + e.what());
      }
      if (!bench_direction.empty())
        bopt.direction = bench_direction == "forward" ? Direction::forward : Direction::inverse;
      Manifest m = load_manifest(manifest_path);
      require_kernels(m, manifest_path);
      auto kernels = select_kernels(m, kernel_names);
      // A convolution's filter kernel runs once per filter: its chain is what is timed.
      if (kernel_names.empty())
        kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                                     [](const KernelInfo* k) { return k->transform == "convolution_filter"; }),
                      kernels.end());
      dopt.pipeline_listener = listen(count_pipelines(m, kernels) + 1);  // and the copy floor's
      Device device(dopt);
      std::cout << "device: " << device.name() << " (driver " << device.driver_version() << ")\n";
      std::vector<BenchResult> results;
      BenchBuffers buffers = make_bench_buffers(device, bopt);  // one pair for every kernel
      results.push_back(bench_copy(device, bopt, &buffers));
      for (const auto* k : kernels) results.push_back(bench_kernel(device, m, *k, bopt, &buffers));
      std::cout << format_bench_table(results);
      check_validation(device);
      if (!json_path.empty()) write_json(json_path, bench_json(device, results, bopt));
      for (const auto& r : results)
        if (!r.error.empty()) return 1;
      return 0;
    }
  } catch (const std::exception& e) {
    std::cerr << "fftgen-vk: error: " << e.what() << '\n';
    return 1;
  }
  return 1;
}
