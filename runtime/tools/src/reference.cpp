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
