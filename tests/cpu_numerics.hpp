// Checks a kernel's passes executed on the CPU (cpu_model.hpp) against a reference transform, for
// the layout tests.
#pragma once
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "cpu_model.hpp"

namespace fftgen_test {

inline double rel_l2(const std::vector<cd>& a, const std::vector<cd>& b) {
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) num += std::norm(a[i] - b[i]), den += std::norm(b[i]);
  return std::sqrt(num / den);
}

// Runs the kernel's passes on the CPU for a batch of two transforms, both directions, and compares
// each with reference(x, sign) (sign -1 forward), scaled as the plan asks.
template <typename Reference>
void check_numerics_against(const fftgen::KernelSpec& spec, Reference reference) {
  const fftgen::KernelProgram program = fftgen::make_program(spec);
  const uint32_t n = spec.n(), batch = 2;
  std::mt19937 rng(n);
  std::normal_distribution<double> normal;
  std::vector<cd> x(size_t{n} * batch);
  for (auto& v : x) v = {normal(rng), normal(rng)};
  for (auto dir : {fftgen::Direction::forward, fftgen::Direction::inverse}) {
    const auto got = run_program(program, dir, x, batch);
    for (uint32_t b = 0; b < batch; ++b) {
      std::vector<cd> want = reference(std::vector<cd>(x.begin() + size_t{b} * n, x.begin() + size_t{b + 1} * n),
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
