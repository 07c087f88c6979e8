// fftgen-bench: fftgen's kernels (1D and 2D, c2c, r2c and r2c_pair), VkFFT and the copy floor
// measured in one process, on one Vulkan device, on the same input data, with the same timing
// rules (bench/README.md); and the time from process start to a first checked result, for fftgen
// (pipelines from SPIR-V) and for VkFFT (planned, i.e. compiled, at run time).
//
//   fftgen-bench compare MANIFEST [--kernels k1,k2] [--elements E | --batch B] [--trials T]
//                                 [--calls C] [--json FILE] [--no-vkfft]
//   fftgen-bench first-result MANIFEST KERNEL [--system fftgen|vkfft] [--json FILE]
//
// Exit codes: 0 success; 1 bad usage or an error that stopped the work; 2 an fftgen kernel failed
// (could not run, or its error exceeds --max-error / 1e-5).
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fftgen/runtime.hpp"
#include "fftgen/vktools/bench.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/reference.hpp"

#ifdef FFTGEN_BENCH_WITH_VKFFT
#include "vkfft_peer.hpp"
#endif

namespace fftgen::bench {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using cvec = std::vector<std::complex<float>>;

// The accuracy check runs FFTW in double on the host; about 4 M elements per size keep it to a
// fraction of a second at every N while still covering many transforms of the small sizes.
constexpr uint64_t kMaxSampleElements = uint64_t{1} << 22;
constexpr uint64_t kDefaultSeed = 20261122;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// median() and gb_per_s() are the formulas of the runtime tools' bench.cpp, which keeps them
// private.
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

double gb_per_s(uint64_t traffic_bytes, double ms) {
  return ms > 0 ? static_cast<double>(traffic_bytes) / (ms * 1e6) : 0.0;
}

json number_or_null(double x) { return std::isfinite(x) ? json(x) : json(); }

uint64_t points_of(const std::vector<uint32_t>& shape) {
  uint64_t p = 1;
  for (uint32_t s : shape) p *= s;
  return p;
}

// "1024", "1024x1024" (NY x NX)
std::string shape_label(const std::vector<uint32_t>& shape) {
  std::string label;
  for (uint32_t s : shape) label += (label.empty() ? "" : "x") + std::to_string(s);
  return label;
}

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

void write_json(const std::string& path, const json& j) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  out << j.dump(2) << '\n';
  if (!out) throw std::runtime_error("writing '" + path + "' failed");
}

std::vector<std::complex<double>> to_double(const cvec& v) {
  return {v.begin(), v.end()};
}

#ifdef FFTGEN_BENCH_WITH_VKFFT
VulkanHandles handles_of(const vk::Device& device) {
  VulkanHandles h;
  h.instance = device.instance();
  h.physical_device = device.physical_device();
  h.device = device.device();
  h.queue = device.queue();
  h.queue_family_index = device.queue_family();
  h.command_pool = device.command_pool();
  return h;
}
#endif

// ---------------------------------------------------------------------------------------------
// compare

struct CompareOptions {
  std::string manifest;
  std::vector<std::string> kernels;  // empty: every kernel with a forward direction
  uint64_t elements = uint64_t{1} << 26;
  uint64_t batch = 0;  // fixed batch for every case; 0: from elements
  uint32_t trials = 7;
  uint32_t calls = 20;
  std::string json_path;
  bool no_vkfft = false;
  double max_error = 1e-5;  // fftgen kernels above it make the exit code 2; 0 reports only
  int device_index = -1;
  uint64_t seed = kDefaultSeed;
};

// What one group of rows measures: the same transform for every system, so the systems share the
// input sample, the FFTW reference and the VkFFT run.
struct Case {
  std::vector<uint32_t> shape;  // [N] or [NY, NX]
  std::string transform;        // c2c, r2c, r2c_pair

  explicit Case(const vk::KernelInfo& k) : shape(k.shape), transform(k.transform) {}
  bool operator==(const Case& o) const { return shape == o.shape && transform == o.transform; }
  uint64_t points() const { return points_of(shape); }
  std::string label() const { return transform + " " + shape_label(shape); }
  // VkFFT's counterpart: its C2C and R2C; none for the two-for-one.
  bool vkfft_has() const { return transform == "c2c" || transform == "r2c"; }
};

// Bytes of the forward input and output buffers of `batch` transforms of `info`.
uint64_t input_bytes(const vk::KernelInfo& info, uint64_t batch) {
  return batch * info.input(vk::Direction::forward).bytes();
}
uint64_t output_bytes(const vk::KernelInfo& info, uint64_t batch) {
  return batch * info.output(vk::Direction::forward).bytes();
}

// One system's measurement of one case, in the shape of a row of the bench JSON.
struct Row {
  std::string system;
  std::vector<uint32_t> shape;  // empty for the copy
  std::string transform;
  uint64_t batch = 0;
  uint64_t bytes = 0;         // input buffer (the copy: the buffer copied)
  uint64_t output_bytes = 0;  // output buffer
  std::vector<double> trial_ms;
  double ms = 0;
  double gbps = 0;
  std::optional<double> rel_l2;
  std::optional<double> plan_ms;
  std::string kernel;
  std::string variant;
  uint64_t sample_rows = 0;
  bool gpu_timestamps = true;
  std::string error;

  bool ok() const { return error.empty(); }
  uint64_t traffic() const { return bytes + output_bytes; }

  json to_json() const {
    json j{{"system", system}};
    const uint64_t points = shape.empty() ? 0 : points_of(shape);
    j["n"] = points ? json(points) : json();
    j["batch"] = points ? json(batch) : json();
    if (points) {
      j["shape"] = shape;
      j["transform"] = transform;
    }
    if (!kernel.empty()) j["kernel"] = kernel;
    if (!variant.empty()) j["variant"] = variant;
    // A failed VkFFT plan still has a plan time. (json objects keep keys sorted, so where a key
    // is set does not change the file.)
    if (plan_ms) j["plan_ms"] = *plan_ms;
    if (!ok()) {
      j.update({{"ms", nullptr}, {"gbps", nullptr}, {"rel_l2", nullptr}, {"error", error}});
      return j;
    }
    j["ms"] = ms;
    j["gbps"] = gbps;
    j["rel_l2"] = rel_l2 ? number_or_null(*rel_l2) : json();
    j["bytes"] = bytes;
    j["output_bytes"] = output_bytes;
    j["traffic"] = traffic();
    j["trial_ms"] = trial_ms;
    j["gpu_timestamps"] = gpu_timestamps;
    if (sample_rows) j["sample_rows"] = sample_rows;
    return j;
  }
};

// Timing: every system goes through the runtime tools' vk::time_calls, the function `fftgen-vk
// bench` uses (one command buffer: timestamp, `calls` calls with a compute barrier between
// consecutive ones -- each call overwrites the same output --, timestamp; one untimed warm-up
// submission, then one per trial). The copy floor is vk::bench_copy (the same function inside),
// and VkFFT's calls are handed to it through run_vkfft's timer, so fftgen, VkFFT and the copy
// are timed by one piece of code with one barrier rule, as the standalone tools time them.
vk::BenchOptions timing_options(const CompareOptions& o) {
  vk::BenchOptions b;
  b.trials = o.trials;
  b.calls_per_trial = o.calls;
  b.warmup_submissions = 1;  // as fftgen-vk bench and fftgen-vkfft-check
  return b;
}

// The kernel's variant as a short label: its name less the plan kernel's name ("n1024.smem48k"
// of plan kernel "n1024" -> "smem48k"), so plot.py --by-kernel can put one variant of every size
// in one column.
std::string variant_label(const vk::KernelInfo& info) {
  std::string name = info.name;
  if (!info.plan_kernel.empty() && name.rfind(info.plan_kernel, 0) == 0)
    name = name.substr(info.plan_kernel.size());
  while (!name.empty() && (name.front() == '_' || name.front() == '.' || name.front() == '-'))
    name.erase(name.begin());
  return name.empty() ? "default" : name;
}

// `batch`: the case's batch (as VkFFT's), capped here at what the kernel allows. `sample` holds
// `sample_rows` forward inputs, `ref` their unnormalised forward outputs.
Row run_fftgen(vk::Device& device, const vk::Manifest& manifest, const vk::KernelInfo& info,
               const CompareOptions& o, uint64_t batch, const cvec& sample, uint64_t sample_rows,
               const std::vector<std::complex<double>>& ref) {
  Row r;
  r.system = "fftgen";
  r.kernel = info.name;
  r.variant = variant_label(info);
  r.shape = info.shape;
  r.transform = info.transform;
  try {
    if (!info.has(vk::Direction::forward)) throw vk::UsageError("kernel has no forward direction");
    vk::Kernel kernel(device, info, manifest.files);
    r.batch = std::min<uint64_t>(batch, kernel.max_batch());
    r.bytes = input_bytes(info, r.batch);
    r.output_bytes = output_bytes(info, r.batch);
    vk::Buffer in(device, r.bytes), out(device, r.output_bytes);
    vk::fill_tiled(device, in.handle(), sample, r.bytes);
    // Anything the kernel leaves unwritten stays NaN and shows in the error.
    vk::fill(device, out.handle(), vk::kNanPattern, r.output_bytes);
    vk::KernelIo io;
    io.input = {in.handle(), 0};
    io.output = {out.handle(), 0};
    io.max_batch = static_cast<uint32_t>(r.batch);
    io.directions = {vk::Direction::forward};
    vk::KernelBindings bindings = kernel.bind(io);
    // The fills (transfer writes, earlier submissions) made visible to the kernel's shaders.
    device.run_commands([](VkCommandBuffer cmd) { vk::record_transfer_to_compute_barrier(cmd); });
    r.trial_ms = vk::time_calls(device, timing_options(o), [&](VkCommandBuffer cmd) {
      kernel.record(cmd, vk::Direction::forward, bindings, static_cast<uint32_t>(r.batch));
    });
    r.ms = median(r.trial_ms);
    r.gbps = gb_per_s(r.traffic(), r.ms);

    // Every call computes the same thing from the untouched input; check the first transforms.
    device.run_commands([](VkCommandBuffer cmd) { vk::record_compute_to_transfer_barrier(cmd); });
    r.sample_rows = std::min<uint64_t>(sample_rows, r.batch);
    cvec result(r.sample_rows * vk::pairs_per_transform(info, vk::Direction::forward, false));
    vk::download(device, out.handle(), result.data(), result.size() * 8);
    // The reference is shared by every kernel of this case; each applies its own normalisation.
    std::vector<std::complex<double>> expected(ref.begin(), ref.begin() + result.size());
    if (info.forward_scale != 1.0)
      for (auto& v : expected) v *= info.forward_scale;
    r.rel_l2 = vk::compare(result, expected).rel_l2;
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

Row run_vkfft(vk::Device& device, const Case& c, uint64_t batch, const CompareOptions& o,
              const cvec& sample, uint64_t sample_rows, const std::vector<std::complex<double>>& ref) {
  Row r;
  r.system = "VkFFT";
  r.shape = c.shape;
  r.transform = c.transform;
  r.batch = batch;
#ifdef FFTGEN_BENCH_WITH_VKFFT
  if (batch > UINT32_MAX) {
    r.error = "batch exceeds 2^32 - 1";
    return r;
  }
  PeerCase what;
  what.shape = c.shape;
  what.real_input = c.transform == "r2c";
  r.bytes = batch * what.input_pairs() * 8;
  r.output_bytes = batch * what.output_pairs() * 8;
  // VkFFT's calls timed by the same function as fftgen's (vk::time_calls).
  const CallTimer timer = [&](const RecordCall& record_call) {
    return vk::time_calls(device, timing_options(o), record_call);
  };
  const PeerResult p = run_vkfft(handles_of(device), what, static_cast<uint32_t>(batch), sample,
                                 static_cast<int>(o.trials), static_cast<int>(o.calls), timer);
  if (p.plan_ms > 0) r.plan_ms = p.plan_ms;
  if (!p.ok) {
    r.error = p.error;
    return r;
  }
  r.trial_ms = p.trial_ms;
  r.ms = p.ms;
  r.gbps = p.gbps;  // the same formula over the same bytes, computed by the peer
  r.gpu_timestamps = p.gpu_timestamps;
  r.sample_rows = sample_rows;
  r.rel_l2 = vk::compare(p.output, ref).rel_l2;
#else
  (void)device;
  (void)o;
  (void)sample;
  (void)sample_rows;
  (void)ref;
  r.error = "fftgen-bench was built without VkFFT (FFTGEN_WITH_VKFFT off)";
#endif
  return r;
}

std::string fmt_gbps(const Row* r) {
  if (!r) return "-";
  if (!r->ok()) return "failed";
  // Three significant digits below 100 GB/s, so a CPU device's figures still read.
  return r->gbps >= 100 ? fmt::format("{:.1f}", r->gbps) : fmt::format("{:.3g}", r->gbps);
}
std::string fmt_err(const Row* r) {
  if (!r || !r->ok() || !r->rel_l2) return "-";
  return fmt::format("{:.2e}", *r->rel_l2);
}

int run_compare(const CompareOptions& o, const std::string& command) {
  if (o.trials == 0 || o.calls == 0) throw vk::UsageError("--trials and --calls must be positive");
  if (o.elements == 0) throw vk::UsageError("--elements must be positive");
  const vk::Manifest manifest = vk::load_manifest(o.manifest);
  std::vector<const vk::KernelInfo*> kernels;
  if (o.kernels.empty()) {
    for (const auto& k : manifest.kernels)
      if (k.has(vk::Direction::forward)) kernels.push_back(&k);
  } else {
    for (const auto& name : o.kernels) kernels.push_back(&manifest.kernel(name));
  }
  if (kernels.empty()) throw vk::UsageError("no kernel with a forward direction to measure");

  // Kernels of one case share the input, the FFTW reference and the VkFFT run: group them, in
  // manifest order of each case's first kernel.
  std::vector<std::pair<Case, std::vector<const vk::KernelInfo*>>> cases;
  for (const auto* k : kernels) {
    auto it = std::find_if(cases.begin(), cases.end(), [&](const auto& c) { return c.first == Case(*k); });
    if (it == cases.end()) it = cases.insert(cases.end(), {Case(*k), {}});
    it->second.push_back(k);
  }
  // The batch of a case: --batch, or as many transforms as fill --elements complex64 values'
  // bytes with input (512 MiB of complex data, or of reals for r2c, as the peers are measured).
  auto batch_of = [&](const vk::KernelInfo& k) {
    return o.batch ? o.batch : std::max<uint64_t>(1, o.elements * 8 / input_bytes(k, 1));
  };

  vk::DeviceOptions dopt;
  dopt.device_index = o.device_index;
  dopt.application_name = "fftgen-bench";
  vk::Device device(dopt);
  fmt::print("device: {} (driver {}), queue family {} (the same for fftgen, VkFFT and the copy)\n",
             device.name(), device.driver_version(), device.queue_family());

  // The floor copies the bytes of the input buffer: --elements complex64 values, or with --batch
  // the largest input of the cases.
  vk::BenchOptions copt = timing_options(o);
  copt.bytes = o.elements * 8;
  if (o.batch) {
    copt.bytes = 16;
    for (const auto& [c, ks] : cases) copt.bytes = std::max(copt.bytes, input_bytes(*ks.front(), o.batch));
  }
  const vk::BenchResult copy = vk::bench_copy(device, copt);
  Row copy_row;
  copy_row.system = "copy";
  copy_row.kernel = copy.name;
  copy_row.bytes = copy.bytes;
  copy_row.output_bytes = copy.bytes;
  copy_row.error = copy.error;
  copy_row.trial_ms = copy.trial_ms;
  copy_row.ms = copy.median_ms;
  copy_row.gbps = copy.gb_per_s;
  if (copy.error.empty())
    fmt::print("copy floor ({}, {:.1f} MiB): {:.4f} ms, {:.1f} GB/s\n", copy.name,
               copy.bytes / 1048576.0, copy.median_ms, copy.gb_per_s);
  else
    fmt::print("copy floor: failed: {}\n", copy.error);

  std::vector<Row> rows{copy_row};
  bool fftgen_failed = false;
  // One format for the header and the rows, so the columns stay aligned.
  static constexpr char kRow[] =
      "{:>17} {:>9} {:<28} {:>10} {:>10} {:>9} {:>8} {:>10} {:>10} {:>9} {:>10}\n";
  const std::string header =
      fmt::format(kRow, "case", "batch", "fftgen kernel", "fftgen", "VkFFT", "copy", "fg/VkFFT",
                  "fftgen L2", "VkFFT L2", "plan ms", "fftgen ms");
  fmt::print("\nGB/s = (input + output bytes) / time per call (c2c: 2 x buffer bytes); "
             "rel L2 vs FFTW (double)\n{}", header);
  std::fflush(stdout);
  std::vector<std::string> failures;

  for (const auto& [c, ks] : cases) {
    const vk::KernelInfo& first = *ks.front();
    const uint64_t batch = batch_of(first);
    const uint64_t points = c.points();
    const uint64_t sample_rows = std::min<uint64_t>(batch, std::max<uint64_t>(1, kMaxSampleElements / points));
    // One seed per case size: every system of this case sees the same numbers, and reruns see
    // them again (1D c2c: random_normal(rows * N, seed + N), as before 2D and r2c were added).
    const cvec sample = vk::random_input(first, vk::Direction::forward,
                                         static_cast<uint32_t>(sample_rows), o.seed + points);
    const auto ref = vk::reference_transform(first, vk::Direction::forward, to_double(sample),
                                             static_cast<uint32_t>(sample_rows));

    std::vector<Row> fg;
    for (const auto* k : ks) {
      fg.push_back(run_fftgen(device, manifest, *k, o, batch, sample, sample_rows, ref));
      const Row& r = fg.back();
      if (!r.ok()) {
        fftgen_failed = true;
        failures.push_back(fmt::format("fftgen {} ({}): {}", r.kernel, c.label(), r.error));
      } else if (o.max_error > 0 && !(r.rel_l2 && *r.rel_l2 <= o.max_error)) {
        fftgen_failed = true;
        failures.push_back(fmt::format("fftgen {} ({}): rel L2 {:.2e} > {:.1e}", r.kernel,
                                       c.label(), r.rel_l2.value_or(NAN), o.max_error));
      }
    }
    std::optional<Row> vkfft;
    if (!o.no_vkfft && c.vkfft_has()) {
      vkfft = run_vkfft(device, c, batch, o, sample, sample_rows, ref);
      if (!vkfft->ok()) failures.push_back(fmt::format("VkFFT {}: {}", c.label(), vkfft->error));
    }

    const Row* v = vkfft ? &*vkfft : nullptr;
    for (const Row& r : fg) {
      const std::string ratio =
          r.ok() && v && v->ok() && v->gbps > 0 ? fmt::format("{:.2f}", r.gbps / v->gbps) : "-";
      fmt::print(kRow, c.label(), r.ok() ? r.batch : batch, r.kernel, fmt_gbps(&r), fmt_gbps(v),
                 fmt_gbps(&copy_row), ratio, fmt_err(&r), fmt_err(v),
                 v && v->plan_ms ? fmt::format("{:.1f}", *v->plan_ms) : "-",
                 r.ok() ? fmt::format("{:.4g}", r.ms) : "-");
    }
    std::fflush(stdout);
    rows.insert(rows.end(), fg.begin(), fg.end());
    if (vkfft) rows.push_back(*vkfft);
  }

  if (!failures.empty()) {
    fmt::print("\nfailures:\n");
    for (const auto& f : failures) fmt::print("  {}\n", f);
  }
  for (const auto& m : device.validation_messages()) std::cerr << "validation: " << m.text << '\n';

  if (!o.json_path.empty()) {
    json results = json::array();
    for (const auto& r : rows) results.push_back(r.to_json());
    json doc{{"schema", "fftgen-bench/1"},
             {"system", o.no_vkfft ? "fftgen" : "fftgen+VkFFT"},
             {"systems", o.no_vkfft ? json{"fftgen", "copy"} : json{"fftgen", "VkFFT", "copy"}},
             {"device", device.name()},
             {"driver", device.driver_version()},
             {"queue_family", device.queue_family()},
             {"timing", "vk::time_calls (fftgen-vk bench's), compute barrier between calls, all systems"},
             {"command", command},
             {"manifest", manifest.directory.string()},
             {"generator", manifest.generator},
             {"elements", o.elements},
             {"batch", o.batch ? json(o.batch) : json()},
             {"trials", o.trials},
             {"calls_per_trial", o.calls},
             {"seed", o.seed},
             {"formula", "GB/s = traffic / median time of one call; traffic = input + output bytes "
                         "(c2c: 2 * bytes of one buffer)"},
             {"copy_floor_gbps", copy_row.ok() ? json(copy_row.gbps) : json()},
             {"results", results}};
    write_json(o.json_path, doc);
    fmt::print("wrote {}\n", o.json_path);
  }
  return fftgen_failed ? 2 : 0;
}

// ---------------------------------------------------------------------------------------------
// first-result

struct FirstResultOptions {
  std::string manifest;
  std::string kernel;
  std::string system = "fftgen";
  std::string json_path;
  int device_index = -1;
  uint64_t seed = kDefaultSeed;
  double max_error = 1e-5;
};

// Milliseconds from the kernel's record of this process's start (/proc/self/stat field 22,
// clock ticks since boot, so 1/sysconf(_SC_CLK_TCK) s resolution: 10 ms on most kernels) to now
// on CLOCK_BOOTTIME, the clock that start time counts on. Covers exec, dynamic loading and
// static initialisation, which a clock read in main() cannot see. nullopt where unavailable.
std::optional<double> ms_since_exec() {
  std::ifstream f("/proc/self/stat");
  std::string stat;
  if (!std::getline(f, stat)) return std::nullopt;
  // Field 2 (comm) is in parentheses and may hold spaces; fields 3.. follow the last ')'.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22; ++i)
    if (!(rest >> field)) return std::nullopt;
  const double ticks = std::stod(field);
  const long hz = sysconf(_SC_CLK_TCK);
  timespec now{};
  if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return std::nullopt;
  const double now_ms = now.tv_sec * 1e3 + now.tv_nsec * 1e-6;
  return now_ms - ticks * 1e3 / static_cast<double>(hz);
}

int run_first_result(const FirstResultOptions& o, Clock::time_point main_start) {
  if (o.system != "fftgen" && o.system != "vkfft")
    throw vk::UsageError("--system must be fftgen or vkfft");
  // In the order they happen (a json object would sort them by name).
  std::vector<std::pair<std::string, double>> phases;
  auto t = Clock::now();
  auto lap = [&](const char* name) {
    phases.emplace_back(name, ms_since(t));
    t = Clock::now();
  };
  phases.emplace_back("args", ms_since(main_start));  // main() to here: argument parsing

  vk::DeviceOptions dopt;
  dopt.device_index = o.device_index;
  dopt.application_name = "fftgen-bench";
  vk::KernelInfo info;  // the transform both systems compute
  double scale = 1.0;   // what the system's forward multiplies by (fftgen's normalize option)
  cvec output, input;
  std::string plan_phase;
  std::string device_name;
  // The first result is in host memory: both clocks are read then, before any teardown.
  double first_result_since_main = 0;
  std::optional<double> first_result_since_exec;
  auto mark_first_result = [&] {
    first_result_since_main = ms_since(main_start);
    first_result_since_exec = ms_since_exec();
    t = Clock::now();
  };
  if (o.system == "fftgen") {
    vk::Device device(dopt);
    device_name = device.name();
    lap("device");
    // What a user's program does: read the manifest, load SPIR-V and twiddles, create pipelines.
    const vk::Manifest manifest = vk::load_manifest(o.manifest);
    const vk::Kernel kernel(device, manifest, o.kernel);
    info = kernel.info();
    scale = info.forward_scale;
    if (!kernel.has(vk::Direction::forward))
      throw vk::UsageError("kernel '" + o.kernel + "' has no forward direction");
    lap("load");
    plan_phase = "load";
    input = vk::random_input(info, vk::Direction::forward, 1, o.seed);
    // Upload, record, submit, wait, download: the first result in host memory.
    vk::ExecuteOptions eo;
    eo.poison_output = false;  // a user would not pay for this
    output = vk::execute(device, kernel, vk::Direction::forward, input, 1, eo);
    lap("run");
    mark_first_result();  // before the device is destroyed
  } else {
#ifdef FFTGEN_BENCH_WITH_VKFFT
    // The transform comes from the same manifest entry, so both systems compute the same one;
    // parsing it is timed as its own phase (a VkFFT user would not need it).
    info = vk::load_manifest(o.manifest).kernel(o.kernel);
    if (info.transform != "c2c" && info.transform != "r2c")
      throw vk::UsageError("VkFFT has no counterpart of " + info.transform + " kernels");
    PeerCase what;
    what.shape = info.shape;
    what.real_input = info.transform == "r2c";
    lap("manifest");
    vk::Device device(dopt);
    device_name = device.name();
    lap("device");
    input = vk::random_input(info, vk::Direction::forward, 1, o.seed);
    // One trial of one call after one warm-up call: two batch-1 transforms, microseconds on any
    // GPU, against a plan of hundreds of milliseconds.
    const PeerResult p = run_vkfft(handles_of(device), what, 1, input, 1, 1);
    if (!p.ok) throw std::runtime_error("VkFFT failed: " + p.error);
    const double whole = ms_since(t);
    phases.emplace_back("plan", p.plan_ms);
    phases.emplace_back("run", whole - p.plan_ms);  // buffers, upload, calls, download
    t = Clock::now();
    plan_phase = "plan";
    output = p.output;
    mark_first_result();
#else
    throw vk::UsageError("fftgen-bench was built without VkFFT (FFTGEN_WITH_VKFFT off)");
#endif
  }
  lap("teardown");  // the device's destruction, not part of the first result
  auto ref = vk::reference_transform(info, vk::Direction::forward, to_double(input), 1, scale);
  const double err = vk::compare(output, ref).rel_l2;
  lap("check");
  const bool ok = err <= o.max_error;

  json phases_ms = json::object();
  for (const auto& [name, ms] : phases) phases_ms[name] = ms;
  json doc{{"system", o.system == "fftgen" ? "fftgen" : "VkFFT"},
           {"kernel", o.kernel},
           {"n", info.points()},
           {"shape", info.shape},
           {"transform", info.transform},
           {"device", device_name},
           {"rel_l2", number_or_null(err)},
           {"ok", ok},
           {"phases_ms", phases_ms},
           {"plan_phase", plan_phase},
           {"first_result_since_main_ms", first_result_since_main},
           {"first_result_since_exec_ms",
            first_result_since_exec ? json(*first_result_since_exec) : json()},
           {"total_since_main_ms", ms_since(main_start)},
           {"clk_tck", sysconf(_SC_CLK_TCK)}};
  fmt::print("first-result {} {} {} {} on {}\n", doc["system"].get<std::string>(), o.kernel,
             info.transform, shape_label(info.shape), device_name);
  for (const auto& [name, ms] : phases) fmt::print("  {:<9} {:10.2f} ms\n", name, ms);
  fmt::print("  first result {:.2f} ms after main(), {} after exec (/proc, {} ms resolution)\n",
             first_result_since_main,
             first_result_since_exec ? fmt::format("{:.0f} ms", *first_result_since_exec) : "?",
             1000 / std::max(1L, sysconf(_SC_CLK_TCK)));
  fmt::print("  rel L2 vs FFTW {:.2e} ({})\n", err, ok ? "ok" : "FAIL");
  if (!o.json_path.empty()) write_json(o.json_path, doc);
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace fftgen::bench

int main(int argc, char** argv) {
  // First statement: the in-process clock for first-result starts here.
  const auto main_start = fftgen::bench::Clock::now();
  using namespace fftgen::bench;

  CLI::App app{"fftgen-bench: fftgen, VkFFT and the copy floor in one process on one device"};
  app.require_subcommand(1);

  CompareOptions co;
  auto* compare = app.add_subcommand(
      "compare", "Time every selected kernel, VkFFT of the same sizes and the copy floor");
  compare->add_option("manifest", co.manifest, "manifest.json (or its directory)")->required();
  compare->add_option("--kernels", co.kernels, "Kernels, comma-separated (default: all forward)")
      ->delimiter(',');
  compare->add_option("--elements", co.elements,
                      "Input bytes per case: this many complex64 values' worth (2^26 = 512 MiB); "
                      "batch = elements * 8 / input bytes of one transform (c2c: elements / N)")
      ->capture_default_str();
  compare->add_option("--batch", co.batch,
                      "Fixed batch for every case instead (small grids); the copy floor then "
                      "copies the largest input");
  compare->add_option("--trials", co.trials, "Timed trials, median reported")->capture_default_str();
  compare->add_option("--calls", co.calls, "Back-to-back calls per trial")->capture_default_str();
  compare->add_option("--json", co.json_path, "Write all results (bench schema) to this file");
  compare->add_flag("--no-vkfft", co.no_vkfft, "Skip VkFFT");
  compare->add_option("--max-error", co.max_error,
                      "Exit 2 if an fftgen kernel's rel L2 exceeds this; 0 reports only")
      ->capture_default_str();
  compare->add_option("--seed", co.seed, "Random seed (plus N)")->capture_default_str();
  compare->add_option("--device", co.device_index, "Physical device index; default: first discrete GPU");

  FirstResultOptions fo;
  auto* first = app.add_subcommand(
      "first-result", "From scratch to one checked forward transform (batch 1), timed by phase");
  first->add_option("manifest", fo.manifest, "manifest.json (or its directory)")->required();
  first->add_option("kernel", fo.kernel, "Kernel name (VkFFT runs the same N)")->required();
  first->add_option("--system", fo.system, "fftgen or vkfft")
      ->check(CLI::IsMember({"fftgen", "vkfft"}))
      ->capture_default_str();
  first->add_option("--json", fo.json_path, "Write the phases and totals to this file");
  first->add_option("--seed", fo.seed, "Random seed")->capture_default_str();
  first->add_option("--max-error", fo.max_error, "Exit 1 above this rel L2")->capture_default_str();
  first->add_option("--device", fo.device_index, "Physical device index");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "fftgen-bench: error: " << e.what() << "\n(see fftgen-bench --help)\n";
    return 1;
  }
  try {
    if (*compare) return run_compare(co, command_line(argc, argv));
    if (*first) return run_first_result(fo, main_start);
  } catch (const std::exception& e) {
    std::cerr << "fftgen-bench: error: " << e.what() << '\n';
    return 1;
  }
  return 1;
}
