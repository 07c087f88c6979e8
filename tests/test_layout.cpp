// The pass/stage layout, checked without a GPU: every size gets a valid split, explicit splits are
// honoured, and executing a layout's passes on the CPU (same index formulas and the same twiddle
// table the shaders read) reproduces a reference FFT.
#include <catch2/catch.hpp>

#include <complex>
#include <random>

#include "fftgen/codelet.hpp"
#include "fftgen/layout.hpp"

using fftgen::KernelLayout;
using fftgen::KernelSpec;
using cd = std::complex<double>;

namespace {

KernelSpec spec_for(uint32_t n, std::vector<uint32_t> radices = {}, fftgen::TwiddleSource tw = fftgen::TwiddleSource::table) {
  KernelSpec s;
  s.name = "k" + std::to_string(n);
  s.plan_name = s.name;
  s.shape = {n};
  s.radices = std::move(radices);
  s.twiddles = tw;
  return s;
}

// Reference: recursive radix-2 DIT in double (independent of everything under test).
void reference_fft(std::vector<cd>& a, int sign) {
  const size_t n = a.size();
  if (n == 1) return;
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

cd table_entry(const std::vector<float>& table, uint32_t i) { return {table[2 * i], table[2 * i + 1]}; }

// Runs the layout on the CPU the way the shaders do: pass twiddles from the two-level table,
// stage twiddles from the per-stage table, codelet DAGs for the butterflies.
std::vector<cd> run_layout(const KernelLayout& layout, std::vector<cd> x, fftgen::Direction dir) {
  const auto table = fftgen::make_twiddle_table(layout);
  const uint32_t n = layout.n;
  const double sign = dir == fftgen::Direction::forward ? 1.0 : -1.0;  // table holds forward twiddles
  auto conj_if = [&](cd w) { return sign > 0 ? w : std::conj(w); };
  std::vector<cd> y(n);
  for (const auto& pass : layout.passes) {
    const uint32_t m = pass.size, cpt = pass.columns_per_transform, ns = pass.stride;
    for (uint32_t j = 0; j < cpt; ++j) {
      std::vector<cd> a(m);
      for (uint32_t r = 0; r < m; ++r) {
        a[r] = x[j + r * cpt];
        if (ns > 1) {
          const auto& t = pass.pass_twiddles;
          const uint32_t e = r * (j % ns);
          a[r] *= conj_if(table_entry(table, t.lo_offset + e % t.lo_count) * table_entry(table, t.hi_offset + e / t.lo_count));
        }
      }
      for (const auto& stage : pass.stages) {
        const uint32_t radix = stage.radix, sns = stage.stride;
        const auto dag = fftgen::codelet::make_dft(radix, dir);
        std::vector<cd> b(m);
        for (uint32_t jj = 0; jj < m / radix; ++jj) {
          std::vector<cd> v(radix);
          const uint32_t k = jj % sns;
          for (uint32_t r = 0; r < radix; ++r) {
            v[r] = a[jj + r * (m / radix)];
            if (sns > 1 && r > 0) v[r] *= conj_if(table_entry(table, stage.twiddle_offset + (r - 1) * sns + k));
          }
          v = fftgen::codelet::evaluate(dag, v);
          for (uint32_t r = 0; r < radix; ++r) b[(jj / sns) * sns * radix + k + r * sns] = v[r];
        }
        a = b;
      }
      for (uint32_t r = 0; r < m; ++r) y[(j / ns) * ns * m + (j % ns) + r * ns] = a[r];
    }
    x = y;
  }
  return x;
}

double rel_l2(const std::vector<cd>& a, const std::vector<cd>& b) {
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) num += std::norm(a[i] - b[i]), den += std::norm(b[i]);
  return std::sqrt(num / den);
}

void check_numerics(const KernelSpec& spec) {
  const KernelLayout layout = fftgen::make_layout(spec);
  std::mt19937 rng(spec.n());
  std::normal_distribution<double> normal;
  std::vector<cd> x(spec.n());
  for (auto& v : x) v = {normal(rng), normal(rng)};
  for (auto dir : {fftgen::Direction::forward, fftgen::Direction::inverse}) {
    std::vector<cd> want = x;
    reference_fft(want, dir == fftgen::Direction::forward ? -1 : 1);
    const auto got = run_layout(layout, x, dir);
    INFO("N = " << spec.n() << ", passes = " << layout.passes.size() << ", " << fftgen::to_string(dir));
    CHECK(rel_l2(got, want) < 1e-6);  // table rounded to float: ~1e-7
  }
}

}  // namespace

TEST_CASE("every power of two from 2 to 2^24 gets a valid layout", "[layout]") {
  for (uint32_t log2n = 1; log2n <= fftgen::kMaxLog2N; ++log2n) {
    const uint32_t n = 1u << log2n;
    const KernelLayout layout = fftgen::make_layout(spec_for(n));
    INFO("N = " << n);
    uint64_t product = 1;
    for (uint32_t r : layout.radices) {
      product *= r;
      CHECK((r == 2 || r == 4 || r == 8 || r == 16 || r == 32 || r == 64));
    }
    CHECK(product == n);
    uint64_t stride = 1;
    for (const auto& pass : layout.passes) {
      CHECK(pass.stride == stride);
      CHECK(pass.workgroup_size <= 1024);
      CHECK(pass.workgroup_size == pass.columns_per_workgroup * pass.threads_per_column);
      CHECK(pass.shared_bytes() <= 32768);
      if (!pass.row_mode()) CHECK(pass.columns_per_transform % pass.columns_per_workgroup == 0);
      for (const auto& stage : pass.stages) CHECK(pass.elems_per_thread % stage.radix == 0);
      if (pass.exchange_rounds > 1) {
        // Exchanged in rounds: each invocation reads E/rounds values per round, every butterfly
        // writes inside one slice, and column passes get at least 8 columns (64-byte runs).
        CHECK(pass.elems_per_thread % pass.exchange_rounds == 0);
        CHECK(pass.size / pass.stages.back().radix <= pass.exchange_size());
        if (!pass.row_mode()) CHECK(pass.columns_per_workgroup >= 8);
      }
      stride *= pass.size;
    }
    // One dispatch while a transform fits the 32 KB budget (with the split exchange: 8192) or,
    // exchanged in rounds, registers (16384); two passes of up to 2048 (eight columns in
    // registers) up to 2^22, three beyond.
    const size_t expected_passes = n <= 16384 ? 1 : log2n <= 22 ? 2 : 3;
    CHECK(layout.passes.size() == expected_passes);
    CHECK(layout.needs_scratch() == (expected_passes >= 3));
  }
}

TEST_CASE("explicit radix splits are honoured", "[layout]") {
  for (std::vector<uint32_t> split : {std::vector<uint32_t>{2, 16}, {4, 4, 8}, {4, 16, 32}, {8, 8, 8, 2}, {64, 64}, {2}}) {
    uint32_t n = 1;
    for (uint32_t r : split) n *= r;
    const auto layout = fftgen::make_layout(spec_for(n, split));
    CHECK(layout.radices == split);
    check_numerics(spec_for(n, split));
  }
}

TEST_CASE("a split whose product is not N is refused", "[layout]") {
  CHECK_THROWS_AS(fftgen::make_layout(spec_for(64, {4, 4})), fftgen::PlanError);
}

TEST_CASE("layouts compute the DFT (CPU execution of passes, stages and twiddle tables)", "[layout]") {
  for (uint32_t log2n = 1; log2n <= 16; ++log2n) check_numerics(spec_for(1u << log2n));
  // Two passes of 2048 and 1024 (the largest column pass, 32x2x32).
  check_numerics(spec_for(1u << 21));
  // Three passes and a scratch buffer (a small budget keeps passes small).
  auto three = spec_for(1u << 16);
  three.shared_memory_bytes = 2048;
  REQUIRE(fftgen::make_layout(three).passes.size() == 3);
  check_numerics(three);
}

TEST_CASE("workgroup_size that cannot be honoured is an error naming the field", "[layout]") {
  auto spec = spec_for(4096);
  spec.workgroup_size = 2048;
  CHECK_THROWS_WITH(fftgen::make_layout(spec), Catch::Contains("workgroup_size"));
}

TEST_CASE("every size gets a valid layout at other shared-memory budgets", "[layout]") {
  for (uint32_t budget : {1024u, 16384u, 49152u, 65536u}) {
    for (uint32_t log2n = 1; log2n <= fftgen::kMaxLog2N; ++log2n) {
      auto spec = spec_for(1u << log2n);
      spec.shared_memory_bytes = budget;
      INFO("N = " << spec.n() << ", budget " << budget);
      const auto layout = fftgen::make_layout(spec);
      for (const auto& pass : layout.passes) CHECK(pass.shared_bytes() <= budget);
    }
  }
  auto odd = spec_for(1u << 20);
  odd.shared_memory_bytes = 49152;
  check_numerics(odd);
}

TEST_CASE("register-resident transforms exchange in rounds whose slices hold whole butterflies", "[layout]") {
  // 16384 does not fit 48 KB of shared memory even as split halves: it stays in registers and
  // each exchange moves one slice of the slots per round.
  struct Case { uint32_t n, budget, rounds; };
  for (const Case& c : {Case{16384, 16384, 8}, Case{16384, 32768, 4}, Case{16384, 49152, 4},
                        Case{8192, 16384, 4}}) {
    auto spec = spec_for(c.n);
    spec.shared_memory_bytes = c.budget;
    INFO("N = " << c.n << ", budget " << c.budget);
    const auto layout = fftgen::make_layout(spec);
    REQUIRE(layout.passes.size() == 1);
    const auto& pass = layout.passes[0];
    CHECK(pass.exchange_rounds == c.rounds);
    CHECK(pass.shared_bytes() <= c.budget);
    CHECK(pass.elems_per_thread % pass.exchange_rounds == 0);  // every invocation reads E/rounds per round
    CHECK(pass.swizzle_mask == 15);
    CHECK((1u << pass.swizzle_shift) == std::max(16u, pass.stages[0].radix));
    // Every stage but the last writes blocks of Ns*R slots that must not straddle slices.
    for (size_t s = 0; s + 1 < pass.stages.size(); ++s)
      CHECK(pass.stages[s].stride * pass.stages[s].radix <= pass.exchange_size());
    check_numerics(spec);
  }
  // Explicit splits are register-resident too when they keep butterflies inside slices (the
  // first three stages span 4096 slots: 32 KB holds such a slice)...
  auto spec = spec_for(16384, {16, 16, 16, 4});
  const auto layout = fftgen::make_layout(spec);
  REQUIRE(layout.passes.size() == 1);
  CHECK(layout.passes[0].workgroup_size == 1024);
  CHECK(layout.passes[0].exchange_rounds == 4);
  check_numerics(spec);
  // ...and go multi-pass when they cannot (16 KB does not hold a 4096-slot slice).
  spec.shared_memory_bytes = 16384;
  CHECK(fftgen::make_layout(spec).passes.size() == 2);
  check_numerics(spec);
}
