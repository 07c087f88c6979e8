// Checks a kernel's passes executed on the CPU (cpu_model.hpp) against a reference transform, for
// the layout tests.
#pragma once
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "cpu_model.hpp"

namespace fftgen_test {

// Reference FFT in double, independent of everything under test: radix-2 DIT while the length
// is even, the DFT by its definition for the odd rest (exponents reduced mod n).
inline void reference_fft(std::vector<cd>& a, int sign) {
  const size_t n = a.size();
  if (n == 1) return;
  if (n % 2 != 0) {
    std::vector<cd> w(n), y(n);
    for (size_t k = 0; k < n; ++k) w[k] = std::polar(1.0, sign * 2.0 * M_PI * double(k) / double(n));
    for (size_t k = 0; k < n; ++k)
      for (size_t j = 0; j < n; ++j) y[k] += a[j] * w[(j * k) % n];
    a = y;
    return;
  }
  std::vector<cd> even(n / 2), odd(n / 2);
  for (size_t i = 0; i < n / 2; ++i) even[i] = a[2 * i], odd[i] = a[2 * i + 1];
  reference_fft(even, sign);
  reference_fft(odd, sign);
  for (size_t k = 0; k < n / 2; ++k) {
    cd w = std::polar(1.0, sign * 2.0 * M_PI * double(k) / double(n)) * odd[k];
    a[k] = even[k] + w;
    a[k + n / 2] = even[k] - w;
  }
}

inline double rel_l2(const std::vector<cd>& a, const std::vector<cd>& b) {
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) num += std::norm(a[i] - b[i]), den += std::norm(b[i]);
  return std::sqrt(num / den);
}

inline std::vector<cd> reference_of(std::vector<cd> a, int sign) {
  reference_fft(a, sign);
  return a;
}

// Runs the kernel's passes on the CPU for a batch of two transforms, both directions, and compares
// each with reference_fft, scaled as the plan asks.
inline void check_numerics(const fftgen::KernelSpec& spec) {
  const fftgen::KernelProgram program = fftgen::make_program(spec);
  const uint32_t n = spec.n(), batch = 2;
  std::mt19937 rng(n);
  std::normal_distribution<double> normal;
  std::vector<cd> x(size_t{n} * batch);
  for (auto& v : x) v = {normal(rng), normal(rng)};
  for (auto dir : {fftgen::Direction::forward, fftgen::Direction::inverse}) {
    const auto got = run_program(program, dir, x, batch);
    for (uint32_t b = 0; b < batch; ++b) {
      std::vector<cd> want = reference_of(std::vector<cd>(x.begin() + size_t{b} * n, x.begin() + size_t{b + 1} * n),
                                       dir == fftgen::Direction::forward ? -1 : 1);
      for (cd& w : want) w *= fftgen::direction_scale(spec, dir);
      const std::vector<cd> one(got.begin() + size_t{b} * n, got.begin() + size_t{b + 1} * n);
      INFO("N = " << n << ", radices " << fmt::format("{}", fmt::join(program.layout.radices, "x")) << ", passes "
                  << program.layout.passes.size() << ", " << fftgen::to_string(dir) << ", transform " << b);
      CHECK(rel_l2(one, want) < 1e-6);  // table rounded to float: ~1e-7
    }
  }
}

}  // namespace fftgen_test
