// Checks a kernel's passes executed on the CPU (cpu_model.hpp) against a reference transform, for
// the layout tests.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "cpu_model.hpp"

namespace fftgen_test {

// Reference FFT in double, independent of everything under test: decimation in time by the
// smallest prime factor p of the length (p sub-transforms of every p-th value, combined with the
// twiddles e^(sign 2 pi i rk/n), exponents reduced mod n), the DFT by its definition for a prime.
// O(n * sum of the prime factors), so lengths like 31250 = 2 x 5^6 cost no more than a power of two.
// w holds the twiddles of the whole length N: those of a sub-length n = N / stride are w[k * stride].
inline void reference_dit(std::vector<cd>& a, const std::vector<cd>& w, size_t stride) {
  const size_t n = a.size();
  if (n == 1) return;
  size_t p = 2;
  while (p * p <= n && n % p != 0) ++p;
  if (n % p != 0) p = n;  // n is prime
  const size_t m = n / p;
  std::vector<cd> subs(n), part(m);
  for (size_t r = 0; r < p; ++r) {
    for (size_t i = 0; i < m; ++i) part[i] = a[i * p + r];
    reference_dit(part, w, stride * p);
    std::copy(part.begin(), part.end(), subs.begin() + static_cast<long>(r * m));
  }
  for (size_t k = 0, j = 0; k < n; ++k, j = j + 1 == m ? 0 : j + 1) {  // j = k mod m
    cd sum = subs[j];
    for (size_t r = 1, e = k; r < p; ++r, e = e + k >= n ? e + k - n : e + k)  // e = r k mod n
      sum += w[e * stride] * subs[r * m + j];
    a[k] = sum;
  }
}

inline void reference_fft(std::vector<cd>& a, int sign) {
  std::vector<cd> w(a.size());
  for (size_t k = 0; k < w.size(); ++k) w[k] = std::polar(1.0, sign * 2.0 * M_PI * double(k) / double(w.size()));
  reference_dit(a, w, 1);
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
