#include "fftgen/vktools/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>

#include "fftgen/runtime/error.hpp"
#include "fftgen/vktools/convolve.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/half.hpp"
#include "fftgen/vktools/reference.hpp"

namespace fftgen::vk {

namespace {

std::vector<std::complex<double>> widen(const std::vector<std::complex<float>>& v) {
  return {v.begin(), v.end()};
}

std::string sci(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", *v);
  return buf;
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
  return s;
}

// The bound verify_kernel applies to the round trip and verify_json reports: one rule for both.
double round_trip_tolerance(const VerifyOptions& o) {
  return o.round_trip_tolerance > 0 ? o.round_trip_tolerance : 2 * o.tolerance;
}

double max_abs(const std::vector<std::complex<float>>& x) {
  double m = 0;
  for (const auto& v : x) m = std::max({m, std::abs(double{v.real()}), std::abs(double{v.imag()})});
  return m;
}

// The rel L2 error of rounding `x` to half floats and back: what fp16 storage of the input alone
// costs, the yardstick of an fp16 kernel's error.
double half_round_trip_error(const std::vector<std::complex<float>>& x) {
  return compare(from_half(to_half(x)), widen(x)).rel_l2;
}

bool half_images(const KernelInfo& info) {
  for (Direction d : info.directions)
    for (const StorageImage* image : {info.input_image(d), info.output_image(d)})
      if (image && image->format == ImageFormat::rgba16f) return true;
  return false;
}

// A kernel's shape as a report spells it: "4096", "512x512", "64x64x64".
std::string shape_text_x(const std::vector<uint32_t>& shape) {
  std::string text;
  for (uint32_t side : shape) text += (text.empty() ? "" : "x") + std::to_string(side);
  return text;
}

}  // namespace

// A batch the device cannot hold is an error of the run, found before any buffer is made (not a
// failed comparison of whatever a failed allocation left behind).
void check_batches(const Device& device, const Kernel& kernel, const VerifyOptions& options) {
  const KernelInfo& info = kernel.info();
  for (uint32_t b : options.batches) {
    if (b > kernel.max_batch())
      throw DeviceLimitError("batch " + std::to_string(b) + " exceeds the device's largest bindable batch " +
                             std::to_string(kernel.max_batch()) + " for kernel '" + info.name + "' (" +
                             (info.uses_images() ? "maxImageDimension2D" : "maxStorageBufferRange") + ")");
    const uint64_t device_bytes = (info.forward_input.bytes() + info.forward_output.bytes()) * uint64_t{b};
    if (device_bytes > device.device_local_heap_bytes())
      throw DeviceLimitError("batch " + std::to_string(b) + " of kernel '" + info.name + "' needs " +
                             std::to_string(device_bytes) + " bytes of device memory; device '" + device.name() +
                             "' has " + std::to_string(device.device_local_heap_bytes()) +
                             " (largest device-local heap)");
  }
}

// The yardstick for an input of a few dozen values: its own round trip scatters too widely (1.2e-4
// to 2.1e-4 for transforms of 4 to 64 points, against 2.07e-4 for long inputs), and verify failed
// correct kernels where it fell low. Below 4096 values the bound takes at least the round trip of
// 65536 normal values.
double half_yardstick(const std::vector<std::complex<float>>& x) {
  static const double typical = half_round_trip_error(random_normal(65536, 1));
  const double own = half_round_trip_error(x);
  return x.size() >= 4096 ? own : std::max(own, typical);
}

// Every fp16 store rounds: the input, each value stored between passes, the output, about
// sqrt(roundings) input round trips in quadrature (1.74 measured for two passes, three roundings).
// Up to three roundings keep issue 10's factor 2; longer chains (a small shared_memory_bytes) get
// sqrt(roundings) and 15 % for the arithmetic (a 3-pass 100 x 32 measured 2.02).
double half_chain_factor(size_t roundings) {
  return roundings <= 3 ? 2.0 : 1.15 * std::sqrt(static_cast<double>(roundings));
}

bool stores_half(const KernelInfo& info) {
  return is_half(info.forward_input.element) || is_half(info.forward_output.element) || half_images(info);
}

void run_verify(VerifyResult& r, const std::function<void(uint32_t& batch)>& body,
                const std::function<double()>& round_trip_tolerance) {
  uint32_t batch = 0;
  try {
    body(batch);
    auto ok = [](const std::optional<double>& v, double tol) { return !v || *v <= tol; };
    r.pass = r.nan_count == 0 && ok(r.rel_l2_forward, r.tolerance) && ok(r.rel_l2_inverse, r.tolerance) &&
             ok(r.round_trip, round_trip_tolerance());
  } catch (const std::bad_alloc&) {
    r.error = "out of host memory at batch " + std::to_string(batch) + " (input, output and the FFTW "
              "reference are held in memory; use smaller --batches)";
    r.pass = false;
  } catch (const VulkanError& e) {
    const bool memory = e.result() == VK_ERROR_OUT_OF_DEVICE_MEMORY || e.result() == VK_ERROR_OUT_OF_HOST_MEMORY;
    r.error = (memory ? "out of memory at batch " + std::to_string(batch) + ": " : std::string()) + e.what();
    r.pass = false;
  } catch (const std::exception& e) {
    r.error = e.what();
    r.pass = false;
  }
}

VerifyResult verify_kernel(Device& device, const Manifest& manifest, const KernelInfo& info,
                           const VerifyOptions& options) {
  if (info.transform == "convolution" || info.transform == "convolution_filter")
    return verify_convolution(device, manifest, info, options);
  VerifyResult r;
  r.kernel = info.name;
  r.n = info.n();
  r.shape = shape_text_x(info.shape) +
            (info.transform == "c2c" ? "" : " " + info.transform);
  r.batches = options.batches;
  for (Direction d : info.directions) r.directions.push_back(to_string(d));
  if (stores_double(info)) return verify_double_kernel(device, manifest, info, options, r);
  // fp16 kernels: each direction within kFp16Factor times the error of an fp16 round trip of its
  // input (the smallest over the batches), the round trip within twice that.
  const bool half = stores_half(info);
  r.tolerance = options.tolerance;
  r.half_storage = half;
  // The input's rounding, then one per pass.
  size_t passes = 0;
  for (Direction d : info.directions) passes = std::max(passes, info.passes(d).size());
  const double chain_factor = half_chain_factor(passes + 1);
  r.half_factor = half_images(info) ? std::max(3.0, chain_factor) : chain_factor;
  const double kFp16Factor = r.half_factor;
  if (half) r.tolerance = std::numeric_limits<double>::infinity();
  ExecuteOptions exec;
  exec.record = options.record;
  run_verify(r, [&](uint32_t& batch) {
    Kernel kernel(device, info, manifest.files, options.loader);
    check_batches(device, kernel, options);
    for (uint32_t b : options.batches) {
      batch = b;
      const uint64_t seed = options.seed * 1000003u + batch;
      std::vector<std::complex<float>> forward_in, forward_out;
      for (Direction d : info.directions) {
        const double scale = d == Direction::forward ? info.forward_scale : info.inverse_scale;
        // fp16: an unnormalised inverse of real data's spectrum (an r2c kernel's c2r) multiplies
        // the data by N on the way back, beyond half floats' 65504 for large N. A user of such a
        // kernel keeps its data in range, as the round trip below does.
        auto x = random_input(info, d, batch, seed);
        auto reference = reference_transform(info, d, widen(x), batch, scale);
        if (half) {
          scale_within(x, reference, kHalfRange);
          r.tolerance = std::min(r.tolerance, kFp16Factor * half_yardstick(x));
        }
        auto out = execute(device, kernel, d, x, batch, exec);
        const auto stats = compare(out, reference);
        auto& worst = d == Direction::forward ? r.rel_l2_forward : r.rel_l2_inverse;
        worst = std::max(worst.value_or(0.0), stats.rel_l2);
        r.max_err = std::max(r.max_err, stats.max_rel);
        r.nan_count += stats.nan_count;
        if (d == Direction::forward) forward_in = x, forward_out = std::move(out);
      }
      if (info.has(Direction::forward) && info.has(Direction::inverse)) {
        double gain = static_cast<double>(info.points()) * info.forward_scale * info.inverse_scale;
        // An unnormalised round trip multiplies by N, beyond half floats' 65504 for large N: a
        // user of such fp16 kernels normalises, so the spectrum is divided by the gain here first.
        if (half && gain * max_abs(forward_in) > kHalfRange) {
          for (auto& v : forward_out) v /= static_cast<float>(gain);
          gain = 1;
        }
        const auto back = execute(device, kernel, Direction::inverse, forward_out, batch, exec);
        auto expected = widen(forward_in);
        for (auto& v : expected) v *= gain;
        const auto stats = compare(back, expected);
        r.round_trip = std::max(r.round_trip.value_or(0.0), stats.rel_l2);
        r.nan_count += stats.nan_count;
      }
    }
  }, [&] { return half ? 2 * r.tolerance : round_trip_tolerance(options); });
  return r;
}

namespace {

// kernel, shape, dirs, batches (text, left-aligned) and the four figures (right-aligned), then the result.
std::vector<std::string> verify_cells(const VerifyResult& r) {
  std::vector<std::string> b;
  for (auto x : r.batches) b.push_back(std::to_string(x));
  return {r.kernel, r.shape, join(r.directions, ","), join(b, ","), sci(r.rel_l2_forward), sci(r.rel_l2_inverse),
          sci(r.error.empty() ? std::optional<double>(r.max_err) : std::nullopt), sci(r.round_trip),
          r.pass ? "PASS" : "FAIL"};
}

std::string table_row(const std::vector<std::string>& cells, const std::vector<size_t>& widths) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    const std::string pad(widths[i] - std::min(widths[i], cells[i].size()), ' ');
    const bool text = i < 4 || i + 1 == cells.size();
    line += (i ? (i + 1 == cells.size() ? "  " : " ") : "") + (text ? cells[i] + pad : pad + cells[i]);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line + "\n";
}

}  // namespace

// Every column as wide as its widest cell, so rows of any kernel (a convolution's "16x16x1 conv",
// batches "1,7,13") stay aligned.
std::string format_verify_table(const std::vector<VerifyResult>& results) {
  std::vector<std::vector<std::string>> rows{{"kernel", "shape", "dirs", "batches", "relL2 fwd", "relL2 inv",
                                              "max err", "round trip", "result"}};
  for (const auto& r : results) rows.push_back(verify_cells(r));
  std::vector<size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  std::string out = table_row(rows[0], widths);
  for (size_t k = 0; k < results.size(); ++k) {
    const VerifyResult& r = results[k];
    out += table_row(rows[k + 1], widths);
    if (r.half_storage && r.error.empty()) {
      char factor[16];
      std::snprintf(factor, sizeof factor, "%.3g", r.half_factor);
      out += "    fp16 storage: bound " + sci(r.tolerance) + " (" + factor +
             " x the rel L2 of an fp16 round trip of the input)\n";
    }
    if (r.double_precision && r.error.empty())
      out += "    fp64: bound " + sci(r.tolerance) + " (1e-15 x log2 N) against FFTW in long double\n";
    if (!r.error.empty()) out += "    error: " + r.error + "\n";
    else if (r.nan_count)
      out += "    " + std::to_string(r.nan_count) + " non-finite output values\n";
  }
  return out;
}

nlohmann::json verify_json(const Device& device, const std::vector<VerifyResult>& results,
                           const VerifyOptions& options) {
  using nlohmann::json;
  json j;
  j["device"] = device.name();
  j["driver_version"] = device.driver_version();
  j["tolerance"] = options.tolerance;
  j["round_trip_tolerance"] = round_trip_tolerance(options);
  j["batches"] = options.batches;
  j["seed"] = options.seed;
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json ks = json::array();
  for (const auto& r : results) {
    json k;
    k["kernel"] = r.kernel;
    k["n"] = r.n;
    k["shape"] = r.shape;
    k["directions"] = r.directions;
    k["rel_l2_forward"] = opt(r.rel_l2_forward);
    k["rel_l2_inverse"] = opt(r.rel_l2_inverse);
    k["max_err"] = r.error.empty() ? json(r.max_err) : json(nullptr);
    k["round_trip"] = opt(r.round_trip);
    k["tolerance"] = r.tolerance;
    k["non_finite"] = r.nan_count;
    k["pass"] = r.pass;
    if (!r.error.empty()) k["error"] = r.error;
    ks.push_back(k);
  }
  j["kernels"] = ks;
  return j;
}

}  // namespace fftgen::vk
