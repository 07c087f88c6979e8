#include "fftgen/vktools/reference.hpp"

#include <cmath>
#include <cstring>
#include <mutex>
#include <random>
#include <stdexcept>

#include <fftw3.h>

namespace fftgen::vk {

std::vector<std::complex<double>> reference_dft(const std::vector<std::complex<double>>& input,
                                                uint32_t n, uint32_t batch, Direction direction,
                                                double scale) {
  if (input.size() < uint64_t{n} * batch)
    throw std::invalid_argument("reference_dft: input holds fewer than batch × n values");
  // FFTW's planner is not thread-safe; execution is.
  static std::mutex planner;
  std::vector<std::complex<double>> in(input.begin(), input.begin() + uint64_t{n} * batch);
  std::vector<std::complex<double>> out(in.size());
  int len = static_cast<int>(n);
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> lock(planner);
    plan = fftw_plan_many_dft(1, &len, static_cast<int>(batch),
                              reinterpret_cast<fftw_complex*>(in.data()), nullptr, 1, len,
                              reinterpret_cast<fftw_complex*>(out.data()), nullptr, 1, len,
                              direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD,
                              FFTW_ESTIMATE);
  }
  if (!plan) throw std::runtime_error("FFTW could not plan a transform of length " + std::to_string(n));
  fftw_execute(plan);
  {
    std::lock_guard<std::mutex> lock(planner);
    fftw_destroy_plan(plan);
  }
  if (scale != 1.0)
    for (auto& v : out) v *= scale;
  return out;
}

namespace {

// FFTW plans many transforms of one shape: rank 1, 2 or 3, contiguous, batch apart by the sizes.
enum class Kind { c2c_forward, c2c_backward, r2c, c2r };

// Runs FFTW on `batch` transforms of `shape`: c2c in/out complex; r2c: `real` in, `spectrum` out;
// c2r the other way; the real transforms lie `real_dist` reals apart (0: the points; an r2c
// kernel of odd N, or NX, pads each row to N + 1). FFTW's planner is not thread-safe; execution is.
void run_fftw(Kind kind, const std::vector<int>& shape, int batch, std::vector<double>& real,
              std::vector<std::complex<double>>& in, std::vector<std::complex<double>>& out, int real_dist = 0) {
  static std::mutex planner;
  const int rank = static_cast<int>(shape.size());
  int points = 1;
  for (int s : shape) points *= s;
  if (real_dist == 0) real_dist = points;
  const int half = points / shape.back() * (shape.back() / 2 + 1);
  // The reals' layout: rows of `row_pitch` reals (NX, or NX + 1 for a padded odd NX).
  std::vector<int> real_embed = shape;
  real_embed.back() = real_dist / (points / shape.back());
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> lock(planner);
    auto* c_in = reinterpret_cast<fftw_complex*>(in.data());
    auto* c_out = reinterpret_cast<fftw_complex*>(out.data());
    switch (kind) {
      case Kind::c2c_forward:
      case Kind::c2c_backward:
        plan = fftw_plan_many_dft(rank, shape.data(), batch, c_in, nullptr, 1, points, c_out, nullptr, 1, points,
                                  kind == Kind::c2c_forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
        break;
      case Kind::r2c:
        plan = fftw_plan_many_dft_r2c(rank, shape.data(), batch, real.data(), real_embed.data(), 1, real_dist, c_out,
                                      nullptr, 1, half, FFTW_ESTIMATE);
        break;
      case Kind::c2r:
        // c2r overwrites its input: `in` is a copy.
        plan = fftw_plan_many_dft_c2r(rank, shape.data(), batch, c_in, nullptr, 1, half, real.data(),
                                      real_embed.data(), 1, real_dist, FFTW_ESTIMATE);
        break;
    }
  }
  if (!plan) throw std::runtime_error("FFTW could not plan the reference transform");
  fftw_execute(plan);
  std::lock_guard<std::mutex> lock(planner);
  fftw_destroy_plan(plan);
}

}  // namespace

uint64_t pairs_per_transform(const KernelInfo& k, Direction d, bool input) {
  const BufferShape& b = input ? k.input(d) : k.output(d);
  return b.elements / elements_per_pair(b.element);
}

std::vector<std::complex<double>> reference_transform(const KernelInfo& k, Direction d,
                                                      const std::vector<std::complex<double>>& input,
                                                      uint32_t batch, double scale) {
  const bool forward = d == Direction::forward;
  std::vector<int> shape(k.shape.begin(), k.shape.end());
  const uint64_t points = k.points(), half = points / k.n() * (k.n() / 2 + 1);
  const uint64_t in_pairs = pairs_per_transform(k, d, true) * batch;
  if (input.size() < in_pairs) throw std::invalid_argument("reference_transform: input holds too few values");
  std::vector<std::complex<double>> out;
  std::vector<double> real;
  if (k.transform == "c2c") {
    std::vector<std::complex<double>> in(input.begin(), input.begin() + static_cast<long>(in_pairs));
    out.resize(in.size());
    run_fftw(forward ? Kind::c2c_forward : Kind::c2c_backward, shape, static_cast<int>(batch), real, in, out);
  } else if (k.transform == "r2c") {
    // Reals per transform in memory: the points, or N + 1 for odd N (the last is padding, zero).
    const int real_dist = static_cast<int>(2 * pairs_per_transform(k, Direction::forward, true));
    if (forward) {
      for (uint64_t i = 0; i < in_pairs; ++i) real.push_back(input[i].real()), real.push_back(input[i].imag());
      std::vector<std::complex<double>> unused;
      out.resize(half * batch);
      run_fftw(Kind::r2c, shape, static_cast<int>(batch), real, unused, out, real_dist);
    } else {
      std::vector<std::complex<double>> in(input.begin(), input.begin() + static_cast<long>(in_pairs));
      std::vector<std::complex<double>> unused;
      real.resize(uint64_t(real_dist) * batch);  // the padding reals stay zero
      run_fftw(Kind::c2r, shape, static_cast<int>(batch), real, in, unused, real_dist);
      for (uint64_t i = 0; i < real.size(); i += 2) out.emplace_back(real[i], real[i + 1]);
    }
  } else {  // r2c_pair, 1D: the real and imaginary parts are two signals
    const uint64_t n = points, h = n / 2 + 1;
    for (uint32_t b = 0; b < batch; ++b) {
      std::vector<std::complex<double>> parts[2];
      for (int part = 0; part < 2; ++part) {
        std::vector<std::complex<double>> unused;
        if (forward) {
          std::vector<double> signal(n);
          for (uint64_t i = 0; i < n; ++i) signal[i] = part ? input[b * n + i].imag() : input[b * n + i].real();
          parts[part].resize(h);
          run_fftw(Kind::r2c, shape, 1, signal, unused, parts[part]);
        } else {
          std::vector<std::complex<double>> spectrum(input.begin() + static_cast<long>(b * 2 * h + part * h),
                                                     input.begin() + static_cast<long>(b * 2 * h + (part + 1) * h));
          std::vector<double> signal(n);
          run_fftw(Kind::c2r, shape, 1, signal, spectrum, unused);
          parts[part].assign(signal.begin(), signal.end());
        }
      }
      if (forward) {
        out.insert(out.end(), parts[0].begin(), parts[0].end());
        out.insert(out.end(), parts[1].begin(), parts[1].end());
      } else {
        for (uint64_t i = 0; i < n; ++i) out.emplace_back(parts[0][i].real(), parts[1][i].real());
      }
    }
  }
  if (scale != 1.0)
    for (auto& v : out) v *= scale;
  return out;
}

std::vector<std::complex<float>> random_input(const KernelInfo& k, Direction d, uint32_t batch, uint64_t seed) {
  const uint64_t pairs = pairs_per_transform(k, d, true) * batch;
  if (d == Direction::forward && k.transform == "r2c" && (k.n() % 2 != 0 || k.in_place())) {
    // Rows of odd N (NX) lie N + 1 reals apart, rows of an in-place kernel 2 (NX/2 + 1): the
    // padding reals after each are zero.
    auto x = random_normal(pairs, seed);
    const uint64_t per_row = pairs_per_transform(k, d, true) / k.rows();
    for (uint64_t row = 0; row < uint64_t{batch} * k.rows(); ++row) {
      if (k.n() % 2 == 0) x[(row + 1) * per_row - 1].real(0.0f);
      x[(row + 1) * per_row - 1].imag(0.0f);
    }
    return x;
  }
  if (d == Direction::forward || k.transform == "c2c") return random_normal(pairs, seed);
  // The inverse of a real transform takes the spectrum of real data.
  const auto signal = random_normal(pairs_per_transform(k, Direction::forward, true) * batch, seed);
  const auto spectrum =
      reference_transform(k, Direction::forward, {signal.begin(), signal.end()}, batch, 1.0);
  std::vector<std::complex<float>> out(spectrum.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = std::complex<float>(spectrum[i]);
  return out;
}

void scale_within(std::vector<std::complex<float>>& input, std::vector<std::complex<double>>& output,
                  double largest_output) {
  double most = 0;
  for (const auto& v : output) most = std::max({most, std::abs(v.real()), std::abs(v.imag())});
  float fits = 1;
  while (most * fits > largest_output) fits /= 2;
  if (fits == 1) return;
  for (auto& v : input) v *= fits;
  for (auto& v : output) v *= static_cast<double>(fits);
}

std::vector<std::complex<float>> random_input_within(const KernelInfo& k, Direction d, uint32_t batch, uint64_t seed,
                                                     double largest_output) {
  auto x = random_input(k, d, batch, seed);
  const double scale = d == Direction::forward ? k.forward_scale : k.inverse_scale;
  auto y = reference_transform(k, d, {x.begin(), x.end()}, batch, scale);
  scale_within(x, y, largest_output);
  return x;
}

ErrorStats compare(const std::vector<std::complex<float>>& out,
                   const std::vector<std::complex<double>>& ref) {
  ErrorStats s;
  double err2 = 0, ref2 = 0, max_err = 0, max_ref = 0;
  const size_t count = std::min(out.size(), ref.size());
  for (size_t i = 0; i < count; ++i) {
    const std::complex<double> o(out[i].real(), out[i].imag());
    if (!std::isfinite(o.real()) || !std::isfinite(o.imag())) {
      ++s.nan_count;
      continue;
    }
    const double e = std::abs(o - ref[i]);
    err2 += e * e;
    ref2 += std::norm(ref[i]);
    max_err = std::max(max_err, e);
    max_ref = std::max(max_ref, std::abs(ref[i]));
  }
  s.nan_count += ref.size() - count;
  s.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  s.max_rel = max_ref > 0 ? max_err / max_ref : max_err;
  if (s.nan_count) {
    s.rel_l2 = std::numeric_limits<double>::infinity();
    s.max_rel = std::numeric_limits<double>::infinity();
  }
  return s;
}

std::vector<std::complex<float>> random_normal(uint64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<std::complex<float>> v(count);
  for (auto& x : v) {
    const float re = dist(rng);
    x = {re, dist(rng)};
  }
  return v;
}

}  // namespace fftgen::vk
