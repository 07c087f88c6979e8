#include "fftgen/layout.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "fftgen/cost_model.hpp"
#include "fftgen/measured.hpp"

namespace fftgen {
namespace {

constexpr uint32_t kElementBytes = 8;          // complex64
// Bytes of one real in shared memory and of one complex slot: float (complex64), or double
// (complex128) for precision fp64, whose budget holds half the values.
uint32_t scalar_bytes(const KernelSpec& spec) { return spec.precision == Precision::fp64 ? 8 : 4; }
uint32_t element_bytes(const KernelSpec& spec) { return 2 * scalar_bytes(spec); }
constexpr uint32_t kAutoWorkgroupSize = 256;   // invocations aimed for, and the most, when workgroup_size is auto:
                                               // measured on an H100, 512 invocations holding 16 values each
                                               // ran 10-15% slower (a workgroup's registers fill the SM)
// Invocations a row pass of fp16 data aims for: a workgroup then moves half the bytes of an fp32 one
// through the same chain of load, exchanges and store, and smaller workgroups overlap more of those
// chains. Measured on an H100 (256 MiB, 64 against 256 aimed for): 1D C2C 1024 0.206 -> 0.191 ms,
// 64 0.198 -> 0.188; R2C 2048 0.257 -> 0.234; 2D C2C 1024² 0.427 -> 0.417, R2C 2048² 0.655 ->
// 0.625; 256 to 512 points and 256² to 512² within 0.6%, longer rows unchanged (one row already).
constexpr uint32_t kAutoRowInvocationsFp16 = 64;
// Invocations an fp32 row pass that runs each pair of rows at once aims for (at least the pair's
// two rows): one pair a workgroup where a pair's rows have 32 invocations each or fewer. Measured on
// an H200 against 256 aimed for (128 taken at 32 KB; GB/s at 512 MiB; µs a call at batch 1 and 4, 200 calls;
// bench/results/2026-11-28-h200-pairs-at-once): 512² 2007 -> 2023, 8.4 -> 8.2, 12.2 -> 12.1; 512 x
// 256 2038 -> 2059; 256 x 512 2003 -> 2020; 1024 x 256 2028 -> 2049; 1024 x 512 1994 -> 2004; the
// small batches equal or faster.
constexpr uint32_t kAutoRowInvocationsPairsAtOnce = 64;
// Invocations the fp32 row pass of a one-pass 1D kernel aims for. Measured on an H200 against 256
// (the 16 KB candidates of 154 lengths of the workload sampler's seeds 100-159 that kept their
// stages and invocations a transform, so took half the transforms a workgroup; GB/s at 128 MiB,
// bench/results/2026-12-02-h200-row-workgroups): 34 workgroups of 224-256 invocations halved to
// 112-128 ran 1.055x (0.96 to 1.22: C2C 960 1.15, C2C 84 1.14, Bluestein's 131 1.22); those halved
// to fewer, 1.02-1.04x (R2C 960 on 96 1.18, C2C 470 on 24 0.92).
constexpr uint32_t kAutoRowInvocations1d = 128;
constexpr uint32_t kMinColumns = 4;            // columns per workgroup in multi-pass kernels: 32-byte runs (a sector)
constexpr uint32_t kPlanColumns = 8;           // columns a pass size is planned for: 64-byte runs (measured: 32-byte
                                               // runs reach ~2/3 of the bandwidth on an H100, 64-byte ~0.9)
constexpr uint32_t kMaxColumns = 16;           // 128-byte runs: enough for full coalescing
constexpr uint32_t kMaxInvocations = 1024;
constexpr uint32_t kMaxRegisterResident = 16384;  // largest one-dispatch N beyond shared memory: 512 invocations
                                                  // holding 32 values each (64 of a thread's registers)
constexpr uint32_t kRoundsInvocations = 512;      // most invocations a column tile exchanged in rounds gets
                                                  // (1024 holding 32 values spill: 2^22 361 against 1101 GB/s)
// The most invocations a column tile exchanged in rounds gets for the kernel's values: fewer for
// wider values, so that a workgroup's values take the registers they take in complex64. fp64 tiles
// hold 32 complex doubles an invocation (128 registers) on 256 invocations, where 512 are held to 128
// registers in all and spill: on an H200, fp64 C2C 2^20 at 512 invocations 944 GB/s, at 256 1431
// (bench/results/2026-11-29-h200-fp64-counters-in-place, two_pass).
uint32_t rounds_invocations(const KernelSpec& spec) { return kRoundsInvocations * kElementBytes / element_bytes(spec); }

// Shortest rows whose c2c pairs (PassLayout::pair_rows) keep column tiles between the passes: the
// layout reads each parity's columns as whole tiles, so the X pass's invocations must lie whole
// tiles apart.
constexpr uint32_t kMinPairRowPoints = 256;

uint32_t product(const std::vector<uint32_t>& v) {
  uint64_t p = 1;
  for (uint32_t x : v) p *= x;
  return static_cast<uint32_t>(p);
}

[[noreturn]] void fail(const KernelSpec& spec, const char* field, const std::string& what) {
  throw PlanError(fmt::format("kernel '{}': field '{}': {}", spec.name, field, what));
}

// Shared-memory slots one column takes with bank-conflict padding (see PassLayout::pad_log2).
uint32_t padded_column(uint32_t m, bool row_mode) { return row_mode ? m + (m >> 4) : m + 1; }

// Chooses C (sub-transforms per workgroup) for a pass of `threads_per_column` invocations per
// column, with `per_column` shared slots per column. Returns 0 if nothing fits. A row pass that runs
// pairs of rows at once (`pair_rows_at_once`) takes at least a pair.
uint32_t choose_columns(const KernelSpec& spec, uint32_t threads_per_column, bool row_mode, uint32_t columns_available,
                        uint32_t per_column, uint32_t slot_bytes, uint32_t auto_invocations = kAutoWorkgroupSize,
                        uint32_t max_columns = kMaxColumns, bool pair_rows_at_once = false) {
  const uint32_t budget = spec.shared_memory_bytes / slot_bytes;
  if (spec.workgroup_size != 0) {
    if (spec.workgroup_size % threads_per_column != 0) return 0;
    uint32_t c = spec.workgroup_size / threads_per_column;
    if (c * per_column > budget || c > columns_available) return 0;
    return c;
  }
  // Row mode aims at kAutoWorkgroupSize invocations (kAutoRowInvocationsFp16 for fp16 data,
  // kAutoRowInvocationsPairsAtOnce for pairs at once, kAutoRowInvocations1d for fp32 1D kernels);
  // column mode at the widest runs that fit.
  const uint32_t row_invocations = spec.precision == Precision::fp16 ? kAutoRowInvocationsFp16
                                   : pair_rows_at_once               ? kAutoRowInvocationsPairsAtOnce
                                   : spec.shape.size() == 1 && spec.precision == Precision::fp32 ? kAutoRowInvocations1d
                                                                     : kAutoWorkgroupSize;
  const uint32_t min_row_columns = pair_rows_at_once ? 2 : 1;
  uint32_t c = row_mode ? std::max<uint32_t>(min_row_columns, row_invocations / threads_per_column) : max_columns;
  const uint32_t max_invocations = std::min(std::max(auto_invocations, threads_per_column), fftgen::max_invocations(spec));
  while (c > 1 && (c * per_column > budget || c * threads_per_column > max_invocations)) c /= 2;
  c = std::min(c, columns_available);
  if (c * per_column > budget || c * threads_per_column > max_invocations) return 0;
  if (!row_mode && c < std::min(kMinColumns, columns_available)) return 0;
  return c;
}

// The stages of a register-resident transform: radix 32 (the most values an invocation holds
// without spilling), the remainder second. Measured on an H100 at N = 16384 (32 KB, 4 rounds):
// 32x16x32 2749 GB/s, 32x32x16 2714, 16x32x32 2709, 16x16x16x4 on 1024 invocations 2589.
std::vector<uint32_t> register_resident_radices(uint32_t n) {
  std::vector<uint32_t> radices;
  uint32_t bits = log2_exact(n);
  for (; bits >= 5; bits -= 5) radices.push_back(32);
  if (bits > 0) radices.insert(radices.begin() + 1, 1u << bits);
  return radices;
}

// Fewest exchange rounds (a power of two, at most the values per invocation `e`) for which one
// slice (swizzled, not padded) fits `budget_slots` complex slots and every butterfly writes inside
// one slice (the stages before the last span at most a slice). 0 if none.
uint32_t choose_exchange_rounds(const std::vector<uint32_t>& radices, uint32_t e, uint32_t budget_slots) {
  const uint32_t m = product(radices);
  const uint32_t span = m / radices.back();
  for (uint32_t rounds = 2; rounds <= e; rounds *= 2) {
    const uint32_t slice = m / rounds;
    if (span > slice) break;
    if (slice <= budget_slots) return rounds;
  }
  return 0;
}

// A column tile exchanged in rounds: its columns, rounds and padding, and its invocations a column
// where the tile chose them (0: the pass's).
struct ColumnRounds {
  uint32_t columns = 0, rounds = 0;
  bool padded = false;
  uint32_t invocations = 0;
};

// For a column pass of size m (e values per invocation, the stages before the last spanning
// `span` slots) whose plain exchange fits only `plain_columns` columns: the most columns that
// rounds fit on up to kRoundsInvocations invocations, padded before swizzled, then the fewest
// rounds. Nothing (columns 0) where rounds give no more columns than the plain exchange.
ColumnRounds choose_column_rounds(const KernelSpec& spec, uint32_t m, uint32_t e, uint32_t span,
                                  uint32_t columns_available, uint32_t plain_columns) {
  for (uint32_t target = std::min(kMaxColumns, columns_available); target > plain_columns; target /= 2)
    for (bool padded : {true, false})
      for (uint32_t rounds = 2; rounds <= e && m / rounds >= span; rounds *= 2) {
        const uint32_t slice = m / rounds;
        const uint32_t c = choose_columns(spec, m / e, false, columns_available, padded ? slice + 1 : slice,
                                          element_bytes(spec), rounds_invocations(spec));
        if (c >= target) return {c, rounds, padded};
      }
  return {};
}

// Whether a pass exchanges through shared memory: it has several stages, its store is transposed
// (the first pass of a multi-pass 1D kernel) or needs values other invocations hold (not when one
// invocation holds a whole transform).
// (The separation's exchange pairs an invocation's values with those of another invocation, or,
// in mirrored column tiles, another column's: it needs no shared memory only where one invocation
// holds a whole row.)
bool uses_shared_memory(const PassLayout& pass, const std::vector<uint32_t>& radices) {
  return radices.size() > 1 || pass.transposed_store() ||
         (pass.store_exchange && (pass.threads_per_column > 1 || pass.mirror_tiles()));
}

// Values each of t invocations holds: the most that one stage's butterflies take (P*R, P = ceil((M/R) / t)).
uint32_t values_on(const std::vector<uint32_t>& radices, uint32_t t) {
  const uint32_t m = product(radices);
  uint32_t e = 0;
  for (uint32_t r : radices) e = std::max(e, (m / r + t - 1) / t * r);
  return e;
}

// Invocations per column T: one butterfly of the largest radix each, at most kMaxInvocations.
// A prime stage above 16 leaves the smaller stages few invocations (M / p), whose butterflies
// would pile up beyond p values (305 = 61x5: 5 invocations of 13 radix-5 butterflies, 65 values):
// there, more invocations (idle in the prime stage) until no stage holds more values than it.
uint32_t invocations_per_column(const std::vector<uint32_t>& radices) {
  if (radices.empty()) return 1;  // a 1-point transform (the half-length transform of an r2c N = 2)
  const uint32_t largest = *std::max_element(radices.begin(), radices.end());
  uint32_t t = std::min(product(radices) / largest, kMaxInvocations);
  if (largest > 16 && !is_power_of_two(largest))
    while (t < kMaxInvocations && values_on(radices, t) > largest) ++t;
  return t;
}

// Invocations per row where the plan sets values_per_invocation E: the fewest whose every stage's
// butterflies fit in E values each (values_on), at most as many as `auto` takes.
uint32_t invocations_for_values(const KernelSpec& spec, const std::vector<uint32_t>& radices, size_t index) {
  const uint32_t m = product(radices), e = spec.values_per_invocation;
  const uint32_t largest = radices.empty() ? 1 : *std::max_element(radices.begin(), radices.end());
  if (e < largest)
    fail(spec, "values_per_invocation",
         fmt::format("{} values cannot hold a butterfly of radix {} (pass {}, stages {}); use at least {}, or \"auto\"",
                     e, largest, index, fmt::join(radices, "x"), largest));
  uint32_t t = (m + e - 1) / e;
  while (values_on(radices, t) > e) ++t;
  return t;
}

// Values each invocation holds, E. For powers of two, max(largest radix, M / kMaxInvocations),
// and T*E = M.
uint32_t values_per_invocation(const std::vector<uint32_t>& radices) {
  if (radices.empty()) return 1;
  return values_on(radices, invocations_per_column(radices));
}

// Splits log2(n) bits into `passes` nearly equal parts, larger parts first.
std::vector<uint32_t> even_pass_sizes(uint32_t log2n, uint32_t passes) {
  std::vector<uint32_t> sizes;
  for (uint32_t p = 0; p < passes; ++p) {
    uint32_t bits = log2n / passes + (p < log2n % passes ? 1 : 0);
    sizes.push_back(1u << bits);
  }
  return sizes;
}

// Groups an explicit radix list into consecutive passes whose sizes are each at most max_size.
std::vector<std::vector<uint32_t>> group_radices(const KernelSpec& spec, const std::vector<uint32_t>& radices,
                                                 uint32_t max_size) {
  std::vector<std::vector<uint32_t>> groups(1);
  uint64_t size = 1;
  for (uint32_t r : radices) {
    if (r > max_size)
      fail(spec, "radices",
           fmt::format("radix {} needs more shared memory than shared_memory_bytes={} allows in a multi-pass "
                       "kernel (at most {} per pass); raise shared_memory_bytes or use smaller radices",
                       r, spec.shared_memory_bytes, max_size));
    if (size * r > max_size) {
      groups.emplace_back();
      size = 1;
    }
    groups.back().push_back(r);
    size *= r;
  }
  return groups;
}

}  // namespace

uint32_t max_invocations(const KernelSpec& spec) {
  return spec.targets_webgpu ? kWebGpuLimits.invocations : kMaxInvocations;
}

size_t KernelLayout::x_passes() const {
  return static_cast<size_t>(std::count_if(passes.begin(), passes.end(), [](const PassLayout& p) { return p.axis == 0; }));
}

namespace {

// Radices `auto` uses for sizes that are not powers of two, largest first: the codelets up to 16
// (larger ones spill), and the primes above 16, which no smaller stages can replace.
const std::vector<uint32_t>& mixed_radix_candidates() {
  static const std::vector<uint32_t> radices = [] {
    std::vector<uint32_t> r;
    for (uint32_t radix : kSupportedRadices)
      if (radix <= 16 || detail::is_prime(radix)) r.insert(r.begin(), radix);
    return r;
  }();
  return radices;
}

// Stages for a sub-transform of m that is not a power of two: the fewest codelets whose product is
// m (each stage is an exchange through shared memory), then the fewest values per invocation
// (registers), largest radices first. A search over non-increasing radix sequences: m has few
// factorisations.
std::vector<uint32_t> mixed_radices(uint32_t m) {
  std::vector<uint32_t> best, current;
  uint32_t best_values = 0;
  auto search = [&](auto&& self, uint32_t rest, uint32_t largest) -> void {
    if (!best.empty() && current.size() >= best.size() && rest > 1) return;
    if (rest == 1) {
      const uint32_t values = values_per_invocation(current);
      if (best.empty() || current.size() < best.size() || (current.size() == best.size() && values < best_values))
        best = current, best_values = values;
      return;
    }
    for (uint32_t r : mixed_radix_candidates())
      if (r <= largest && rest % r == 0) {
        current.push_back(r);
        self(self, rest / r, r);
        current.pop_back();
      }
  };
  search(search, m, mixed_radix_candidates().front());
  if (best.empty())
    throw std::logic_error(fmt::format("mixed_radices: {} has a prime factor above {}", m, kMaxPrimeFactor));
  return best;
}

}  // namespace

std::vector<uint32_t> auto_radices(uint32_t m, bool column_pass) {
  if (!is_power_of_two(m)) return mixed_radices(m);
  // Radix 16 keeps 16 complex values per invocation in registers (radix 64 spills on most GPUs);
  // the remainder becomes one smaller stage. Where 16 values per invocation would need more than
  // kAutoWorkgroupSize invocations, the last stage takes radix 32 instead (measured on an H100 at
  // N = 8192: 16x16x32 on 256 invocations beat 16x16x16x2 on 512 by 5%). Column passes of the
  // sizes in the table of measured choices take radix-32 stages (MeasuredDecision::column_radix32).
  std::vector<uint32_t> radices;
  uint32_t bits = log2_exact(m);
  if (column_pass) {
    MeasuredFacts facts;
    facts.size = m;
    if (measured_yes(MeasuredDecision::column_radix32, facts)) return register_resident_radices(m);
  }
  if (m / 16 > kAutoWorkgroupSize && bits >= 5) {
    radices.push_back(32);
    bits -= 5;
  }
  for (; bits >= 4; bits -= 4) radices.insert(radices.begin(), 16);
  if (bits > 0) radices.push_back(1u << bits);
  return radices;
}

namespace {

// Largest pass of a multi-pass transform (log2): its columns fit the budget (split exchange), and
// kMinColumns of them, at 16 values per invocation, fit kAutoWorkgroupSize invocations; or,
// exchanged in rounds, kPlanColumns columns stay in registers (2048: two passes up to 2^22).
uint32_t max_column_pass_bits(uint32_t budget) {
  uint32_t max_bits =
      std::min(floor_log2(2 * budget / kPlanColumns), floor_log2(kAutoWorkgroupSize * 16 / kMinColumns));
  const uint32_t register_bits = floor_log2(kMaxRegisterResident / kPlanColumns);
  const std::vector<uint32_t> widest = register_resident_radices(1u << register_bits);
  if (choose_exchange_rounds(widest, values_per_invocation(widest), budget / kPlanColumns) != 0)
    max_bits = std::max(max_bits, register_bits);
  return max_bits;
}

// Whether a column pass of these stages takes kMinColumns columns on kAutoWorkgroupSize invocations.
bool fits_column_pass(const std::vector<uint32_t>& radices) {
  return invocations_per_column(radices) * kMinColumns <= kAutoWorkgroupSize;
}

// Whether a column pass of these stages that is not a power of two takes kMinColumns columns on
// up to kRoundsInvocations invocations, padded within the split exchange of `budget` values
// (choose_tiling's second try).
bool fits_wide_column_pass(const std::vector<uint32_t>& radices, uint32_t budget) {
  return invocations_per_column(radices) * kMinColumns <= kRoundsInvocations &&
         padded_column(product(radices), false) * kMinColumns <= 2 * budget;
}

// The fewest column passes of at most max_size each for n that is not a power of two: its prime
// factors, largest first, each to the pass whose size is smallest so far (sizes as even as possible),
// larger passes first; for two passes of a c2c (not `narrow_last`), where that split does not fit,
// the most even that does with the larger pass at most twice the smaller (857500 = 2^2 5^4 7^3:
// 1250 x 686, where 980 x 875 needs 140 invocations a column). Measured on an H200
// (bench/results/2026-12-02-h200-two-wide-passes, `divisors/`) against three passes: 6 such c2c
// lengths all faster (C2C 1148175 0.76 -> 1.26 x cuFFT, 857500 0.73 -> 0.92); less even, C2C 1097600
// (1600 x 686) 1.07 -> 0.75. R2C lengths ran from 4 % slower to 5 % faster but for one (2488320 1.15
// -> 1.41), and less even ones lost (2634240 1.63 -> 1.18): they keep the even split. Each pass fits kMinColumns
// columns on kAutoWorkgroupSize invocations, or, where `wide_budget` is not 0, on up to
// kRoundsInvocations (fits_wide_column_pass), the last pass too unless `narrow_last`.
// The stages of column passes of these sizes, in this order, or nothing where one does not fit:
// at most max_size, kMinColumns columns on kAutoWorkgroupSize invocations, or, where `wide_budget`
// is not 0, on up to kRoundsInvocations (fits_wide_column_pass), the last pass too unless `narrow_last`.
std::optional<std::vector<std::vector<uint32_t>>> column_pass_stages(const std::vector<uint32_t>& sizes, uint32_t max_size,
                                                                     uint32_t wide_budget, bool narrow_last) {
  std::vector<std::vector<uint32_t>> radices;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] > max_size) return std::nullopt;
    radices.push_back(auto_radices(sizes[i], true));
    const bool wide = wide_budget != 0 && !(narrow_last && i + 1 == sizes.size());
    if (!fits_column_pass(radices[i]) && !(wide && fits_wide_column_pass(radices[i], wide_budget))) return std::nullopt;
  }
  return radices;
}

std::vector<std::vector<uint32_t>> mixed_column_passes(uint32_t n, uint32_t max_size, uint32_t wide_budget = 0,
                                                       bool narrow_last = false) {
  // The stages of passes of these sizes (larger first), or nothing where one does not fit.
  auto fitting = [&](std::vector<uint32_t> sizes) {
    std::sort(sizes.rbegin(), sizes.rend());
    return column_pass_stages(sizes, max_size, wide_budget, narrow_last);
  };
  std::vector<uint32_t> primes;
  for (uint32_t rest = n, p = 2; rest > 1;)
    if (rest % p == 0) primes.push_back(p), rest /= p;
    else ++p;
  std::sort(primes.rbegin(), primes.rend());
  for (size_t passes = 2; passes <= primes.size(); ++passes) {
    std::vector<uint32_t> sizes(passes, 1);
    for (uint32_t p : primes) *std::min_element(sizes.begin(), sizes.end()) *= p;
    if (auto radices = fitting(sizes)) return *radices;
    if (passes != 2 || narrow_last) continue;
    for (uint32_t d = static_cast<uint32_t>(std::sqrt(static_cast<double>(n))); n / d <= 2 * d && d * max_size >= n; --d)
      if (n % d == 0)
        if (auto radices = fitting({n / d, d})) return *radices;
  }
  throw std::logic_error(fmt::format("mixed_column_passes: no split of {} into passes", n));
}

// The fewest column passes of at most 2^max_bits each for a transform of n, sizes as even as
// possible.
std::vector<std::vector<uint32_t>> column_passes(uint32_t n, uint32_t max_bits) {
  if (!is_power_of_two(n)) return mixed_column_passes(n, 1u << max_bits);
  std::vector<std::vector<uint32_t>> radices;
  const uint32_t log2n = log2_exact(n);
  const uint32_t passes = (log2n + max_bits - 1) / max_bits;
  for (uint32_t size : even_pass_sizes(log2n, passes)) radices.push_back(auto_radices(size, true));
  return radices;
}

// The most values an invocation holds in a pass exchanged in rounds (64 of its registers).
constexpr uint32_t kMostRoundValues = 32;

// The passes along Y of a 2D transform: as the column passes of a long 1D transform, but one pass
// up to kMaxRegisterResident / kMinColumns (4096), where kMinColumns columns stay in registers:
// measured on an H100 at 4096 x 4096, one Y pass of 4-column tiles beat two Y passes of 16-column
// tiles (c2c 985 against 935 GB/s, r2c 984 against 828), though its 32-byte runs reach only about
// half the bandwidth (a 4096-point column needs 32 KB; eight columns would fill an SM's registers).
// So does a convolution: its 8192-point padded columns in one round trip of 2-column tiles (16-byte
// runs) took 5.42 ms for a 4096² RGBA bloom, two passes of 16-column tiles each way 4.70 ms.
// A side that is not a power of two takes one Y pass where kMinColumns of its columns fit the split
// exchange on up to kRoundsInvocations invocations (choose_tiling's second try): 1080 (15x9x8, 72
// invocations per column) takes 288 invocations and 4 x 1081 split slots, one read and one write
// of the frame fewer than the two passes of 36 and 30.
// Wider values get fewer invocations a tile in rounds (rounds_invocations): an fp64 column of 4096
// would need 64 values an invocation on 256, so it takes two passes.
std::vector<std::vector<uint32_t>> y_passes(const KernelSpec& spec, uint32_t ny, uint32_t budget) {
  const uint32_t max_bits = max_column_pass_bits(budget);
  if (!is_power_of_two(ny)) {
    const std::vector<uint32_t> single = auto_radices(ny, true);
    if (ny <= (1u << max_bits) && fits_column_pass(single)) return {single};
    if (fits_wide_column_pass(single, budget)) return {single};
    return mixed_column_passes(ny, 1u << max_bits);
  }
  if (ny > (1u << max_bits) && ny <= kMaxRegisterResident / kMinColumns &&
      uint64_t{ny} * kMinColumns <= uint64_t{kMostRoundValues} * rounds_invocations(spec)) {
    const std::vector<uint32_t> single = register_resident_radices(ny);
    if (choose_exchange_rounds(single, values_per_invocation(single), budget / kMinColumns) != 0) return {single};
  }
  return column_passes(ny, max_bits);
}

// Step 1: split N into passes, and each pass into stages. Up to 2*budget values fit shared memory
// (with the split exchange beyond `budget`); up to kMaxRegisterResident stay in registers and are
// exchanged in rounds; beyond that, several passes.
struct PassSplit {
  std::vector<std::vector<uint32_t>> radices;  ///< per pass
  uint32_t exchange_rounds = 1;                ///< of the single pass, when it is register-resident
  uint32_t invocations = 0;                    ///< of the single pass, where the split chose them (0: choose_tiling)
};

PassSplit modelled_split(const KernelSpec& spec, uint32_t m, uint32_t budget);

// The stages of a one-pass transform of m (a row pass) with `auto` radices and workgroup size: the
// measured split where the table has one (MeasuredDecision::row_split); for fp32 rows (1D kernels,
// and the X passes of 2D and 3D ones and of convolutions' planes), the order of codelets and the
// invocations the cost model ranks fastest; the search's split otherwise. 2D rows took the search's
// split until measured on an H200 (bench/results/2026-12-01-h200-balanced-invocations, rows2d/):
// 32 frames whose rows change 1.314 -> 1.412 x cuFFT, convolutions of 1080p and 4096^2 frames 1.18x.
PassSplit single_pass_split(const KernelSpec& spec, uint32_t m, uint32_t budget) {
  if (const MeasuredRow* row = measured_choice(MeasuredDecision::row_split, measured_facts(spec, m))) {
    // A row's invocations hold where it was measured: at its budget (`bytes`), values an invocation auto.
    const bool measured_here = spec.values_per_invocation == 0 && row->choice.bytes == spec.shared_memory_bytes;
    return {{row->choice.radices}, 1, measured_here ? row->choice.invocations : 0};
  }
  // (The model was fitted to codelets up to 16: lengths with a larger prime keep the search's split.)
  if (spec.precision != Precision::fp32 || largest_prime_factor(m) > 16) return {{auto_radices(m, false)}};
  // Where the plan targets HLSL or MSL, the rows of 2D and 3D kernels are ranked within their
  // budget where they fit it, so that those targets' layout (text_target_program) takes the same
  // split and reads the same twiddles (1D rows take the same split at both budgets: test_anysize).
  // Without them, rows are ranked at their own budget: on an H200, 37 frames and volumes at 48 KB
  // ran 1.145x cuFFT so and 1.119x ranked within 32 KB (R2C 1080x1280 1.63 and 1.46;
  // bench/results/2026-12-01-h200-rows-within-32k).
  const uint32_t text_budget = kTextTargetSharedBytes / element_bytes(spec);
  if (!spec.targets_hlsl_msl || spec.shape.size() == 1 || m > 2 * text_budget || budget <= text_budget)
    return modelled_split(spec, m, budget);
  KernelSpec within = spec;
  within.shared_memory_bytes = kTextTargetSharedBytes;
  return modelled_split(within, m, text_budget);
}

// Idle work of t invocations a transform (`workgroup` invocations in all): the idle lanes of the
// last warp and each stage's idle butterfly slots, as fractions.
double idle_share(const std::vector<uint32_t>& radices, uint32_t t, uint32_t workgroup) {
  const uint32_t m = product(radices);
  double idle = static_cast<double>((workgroup + 31) / 32 * 32) / workgroup - 1;
  for (uint32_t r : radices) idle += static_cast<double>((m / r + t - 1) / t * t) / (m / r) - 1;
  return idle;
}

// Whether every read of the stages after the first lies, for every invocation q < t, in one slice
// of `slice` slots: value (r, i) of a stage of radix R is slot q + i*t + r*(M/R), for q + i*t < M/R
// (PassLayout::value_place), so the round that reads it is known when the kernel is printed.
bool reads_within_slices(const std::vector<uint32_t>& radices, uint32_t t, uint32_t slice) {
  const uint32_t m = product(radices);
  for (size_t s = 1; s < radices.size(); ++s) {
    const uint32_t butterflies = m / radices[s], per_invocation = (butterflies + t - 1) / t;
    for (uint32_t r = 0; r < radices[s]; ++r)
      for (uint32_t i = 0; i < per_invocation; ++i) {
        const uint32_t first = i * t + r * butterflies, last = first + std::min(t, butterflies - i * t) - 1;
        if (first / slice != last / slice) return false;
      }
  }
  return true;
}

// A register-resident pass of n beyond 2*budget that is not a power of two (1D c2c in fp32, auto
// workgroup size and values): every order of the splits of n into codelets (at most one stage more
// than the fewest), exchanged in R rounds of n/R slots (at least 1024) within the budget. R divides
// the last radix, so that each butterfly's outputs lie in one slice (PassPrinter::stage_writes),
// and the invocations T are those for which every read lies in one slice (reads_within_slices),
// holding at most 32 values each and kMaxRegisterResident in all. The fewest rounds summed over the
// exchanges, then the fewest idle butterfly slots and lanes, then the fewest values an invocation
// holds. nullopt where none fits. Measured on an H200 (bench/results/2026-11-30-h200-mixed-rounds):
// 25 lengths from 8400 to 16200 at 0.80 times cuFFT's speed (geometric mean) against 0.50 in two
// passes, every one faster.
std::optional<PassSplit> mixed_register_split(const KernelSpec& spec, uint32_t n, uint32_t budget) {
  if (spec.is_2d() || spec.is_3d() || spec.transform != Transform::c2c || spec.convolution.has_value() ||
      spec.precision != Precision::fp32 || spec.workgroup_size != 0 || spec.values_per_invocation != 0 ||
      n > kMaxRegisterResident || is_power_of_two(n))
    return std::nullopt;
  // Slices of at least kLeastSlice slots: those measured held 2100 to 4096 (at 32 KB); a small
  // budget would cut the exchanges into many more rounds than were measured.
  constexpr uint32_t kLeastSlice = 1024;
  std::optional<PassSplit> best;
  std::tuple<uint32_t, double, uint32_t> best_key{};
  for (const std::vector<uint32_t>& radices : radix_orders(n, mixed_radix_candidates(), 1)) {
    uint32_t rounds = 2;
    while (rounds <= radices.back() && (radices.back() % rounds != 0 || n / rounds > budget)) ++rounds;
    if (rounds > radices.back() || n / rounds < kLeastSlice) continue;
    const uint32_t exchange_rounds = rounds * static_cast<uint32_t>(radices.size() - 1);
    if (best && exchange_rounds > std::get<0>(best_key)) continue;  // no invocation count can rank it first
    const uint32_t largest = *std::max_element(radices.begin(), radices.end());
    for (uint32_t t = largest; t <= max_invocations(spec); ++t) {
      const uint32_t e = values_on(radices, t);
      if (e > kMostRoundValues || uint64_t{t} * e > kMaxRegisterResident || !reads_within_slices(radices, t, n / rounds))
        continue;
      const auto key = std::make_tuple(exchange_rounds, idle_share(radices, t, t), e);
      if (!best || key < best_key) best = PassSplit{{radices}, rounds, t}, best_key = key;
    }
  }
  return best;
}

// The passes of spec.pass_sizes (rank_real_split's candidates), in that order, checked as
// mixed_column_passes checks its own: a PlanError where one does not fit.
std::vector<std::vector<uint32_t>> sized_column_passes(const KernelSpec& spec, uint32_t n, uint32_t max_size,
                                                       uint32_t wide_budget) {
  if (product(spec.pass_sizes) != n) throw std::logic_error("sized_column_passes: sizes do not multiply to N");
  const auto radices = column_pass_stages(spec.pass_sizes, max_size, wide_budget, spec.transform != Transform::c2c);
  if (!radices) fail(spec, "shape", fmt::format("passes of {} do not fit", fmt::join(spec.pass_sizes, " x ")));
  return *radices;
}

// Whether the two passes of a long 1D transform go smaller first (column_passes puts the larger
// first): MeasuredDecision::smaller_pass_first.
bool smaller_pass_first(const KernelSpec& spec, uint32_t n) {
  return measured_yes(MeasuredDecision::smaller_pass_first, measured_facts(spec, n));
}

PassSplit split_into_passes(const KernelSpec& spec, uint32_t n, uint32_t budget) {
  PassSplit split;
  // Exchange rounds of a register-resident single pass with these stages; 0 if it cannot be one.
  auto register_rounds = [&](const std::vector<uint32_t>& radices) -> uint32_t {
    if (n > kMaxRegisterResident) return 0;
    const uint32_t e = values_per_invocation(radices);
    if (spec.workgroup_size != 0 && spec.workgroup_size % (n / e) != 0) return 0;
    if (n / e > max_invocations(spec)) return 0;  // more invocations than the targets allow (WebGPU: 256)
    return choose_exchange_rounds(radices, e, budget);
  };
  const uint32_t max_bits = max_column_pass_bits(budget);
  // Column passes other than a real transform's last may take kMinColumns columns on up to
  // kRoundsInvocations (mixed_column_passes, sized_column_passes).
  const uint32_t wide_budget = spec.workgroup_size == 0 && max_invocations(spec) >= kRoundsInvocations ? budget : 0;
  if (n == 1) {
    split.radices.emplace_back();  // no stages
  } else if (!spec.radices.empty()) {
    if (product(spec.radices) != n) fail(spec, "radices", fmt::format("the radices multiply to {}, not N = {}", product(spec.radices), n));
    const uint32_t rounds = n > 2 * budget && is_power_of_two(n) ? register_rounds(spec.radices) : 0;
    if (n <= 2 * budget || rounds != 0) {
      split.radices.push_back(spec.radices);
      split.exchange_rounds = std::max(1u, rounds);
    } else {
      split.radices = group_radices(spec, spec.radices, 1u << max_bits);
    }
  } else if (n <= 2 * budget) {
    // An explicit workgroup_size keeps the search's split, whose invocations per transform it was
    // chosen for.
    split = spec.workgroup_size == 0 ? single_pass_split(spec, n, budget) : PassSplit{{auto_radices(n, false)}};
  } else if (const std::optional<PassSplit> mixed = mixed_register_split(spec, n, budget)) {
    split = *mixed;
  } else if (!spec.pass_sizes.empty()) {
    split.radices = sized_column_passes(spec, n, 1u << max_bits, wide_budget);
  } else if (!is_power_of_two(n)) {
    // Passes of kMinColumns columns on up to kRoundsInvocations where that takes fewer passes, but
    // not the last pass of a real transform (its mirrored tiles separate the spectrum). Measured on
    // an H200 (bench/results/2026-12-02-h200-two-wide-passes, final/), two such passes against three
    // of 16 columns: C2C 688905 0.72 -> 1.24 x cuFFT, 1200000 1.25 -> 1.60, R2C 617400 0.68 -> 1.33;
    // with the last pass wide too (first/), R2C 3870720 1.48 -> 1.12, 2949120 1.11 -> 1.05.
    split.radices = mixed_column_passes(n, 1u << max_bits, wide_budget, spec.transform != Transform::c2c);
  } else if (const uint32_t rounds = register_rounds(register_resident_radices(n)); rounds != 0) {
    split.radices.push_back(register_resident_radices(n));
    split.exchange_rounds = rounds;
  } else {
    split.radices = column_passes(n, max_bits);
    if (smaller_pass_first(spec, n)) std::reverse(split.radices.begin(), split.radices.end());
  }
  return split;
}

// Step 2: tiling. Columns per workgroup, values per invocation, and the exchange through shared
// memory (complex or split, padded or swizzled, in one round or several).
struct ExchangeChoice {
  bool split = false, padded = false;
};

// The error of a pass that no tiling fits (choose_tiling): an explicit workgroup size it cannot
// take, with the sizes it can, else the shared-memory budget. `available`: the pass's columns.
[[noreturn]] void fail_tiling(const KernelSpec& spec, const PassLayout& pass, size_t index, uint32_t available,
                              uint32_t budget) {
  if (spec.workgroup_size != 0) {
    // The most columns a workgroup may take: what the budget holds, and at most the pass's columns.
    // workgroup_size is a power of two, so it must be one that whole columns of T invocations fill.
    const uint32_t fit = budget / pass.size, t = pass.threads_per_column;
    const uint32_t columns = std::max(1u, std::min(fit, available));
    const std::string allowed =
        is_power_of_two(t)
            ? fmt::format("use a power of two from {} up to {}, or \"auto\"", t,
                          std::min(t * highest_power_of_two_in(columns), highest_power_of_two_in(max_invocations(spec))))
            : fmt::format("its workgroups take whole columns of {} invocations, which no power of two is; use \"auto\"", t);
    fail(spec, "workgroup_size",
         fmt::format("{} invocations cannot run pass {} (sub-transform of {} with {} values per invocation{}) within "
                     "shared_memory_bytes={}; {}",
                     spec.workgroup_size, index, pass.size, pass.elems_per_thread,
                     available < fit ? fmt::format("; {} columns per transform", available) : "", spec.shared_memory_bytes,
                     allowed));
  }
  fail(spec, "shared_memory_bytes",
       spec.targets_webgpu && spec.shared_memory_bytes >= kWebGpuLimits.shared_memory_bytes
           ? fmt::format("{} bytes (WebGPU's maxComputeWorkgroupStorageSize) cannot hold pass {} (sub-transform of "
                         "{}), and the layout has no split of this length within it; drop wgsl from the targets",
                         spec.shared_memory_bytes, index, pass.size)
           : fmt::format("{} bytes cannot hold pass {} (sub-transform of {}); raise it", spec.shared_memory_bytes,
                         index, pass.size));
}

// For a 2D Y pass of size m that is not a power of two, whose plain exchange fits fewer than
// kPlanColumns columns: kMaxColumns columns (128-byte runs) exchanged in R rounds, R dividing the
// last radix (each butterfly's outputs in one slice of m/R slots, padded by one), on T invocations
// a column whose every read lies in one slice (reads_within_slices), holding at most 32 values
// each, at most rounds_invocations in all: the fewest rounds, then the fewest idle butterfly slots
// and lanes. Nothing (columns 0) where none fits. Measured on an H200
// (bench/results/2026-11-30-h200-column-tiles-in-rounds), 16 columns in rounds against 4 plain:
// R2C 960 x 540 and 768 x 1024 0.849 -> 0.760 and 0.745 -> 0.680 ms (their Y passes 18 and 14 %
// faster), the C2C frames 3 to 4 % faster, 600 x 800 within 2 %. 8 columns in rounds (Y sides 1000
// and 1200, bench/results/2026-11-30-h200-short-rows-column-tiles) ran up to 18 % slower than 4
// plain, so tiles of fewer than kMaxColumns are not taken.
ColumnRounds choose_mixed_column_rounds(const KernelSpec& spec, const std::vector<uint32_t>& radices,
                                             uint32_t columns_available) {
  const uint32_t m = product(radices), last = radices.back();
  ColumnRounds best;
  std::tuple<uint32_t, double> best_key{};
  for (uint32_t rounds = 2; rounds <= last; ++rounds) {
    if (last % rounds != 0) continue;
    const uint32_t slice = m / rounds;
    // kMaxColumns columns of t invocations each fit rounds_invocations only for t up to its share.
    for (uint32_t t = 1; t <= rounds_invocations(spec) / kMaxColumns; ++t) {
      if (values_on(radices, t) > kMostRoundValues) continue;
      const uint32_t c = choose_columns(spec, t, false, columns_available, slice + 1, element_bytes(spec),
                                        rounds_invocations(spec));
      if (c != kMaxColumns || !reads_within_slices(radices, t, slice)) continue;
      const auto key = std::make_tuple(rounds, idle_share(radices, t, c * t));
      if (best.columns == 0 || key < best_key) best = {c, rounds, true, t}, best_key = key;
    }
  }
  return best;
}

// A 2D Y pass of fp32 values along a side that is not a power of two, in plain column tiles
// (not mirrored, transposed or a grid) of fewer than kPlanColumns columns: the tiles that
// widen_column_tile and choose_tiling try to widen.
bool narrow_mixed_y_tile(const KernelSpec& spec, const PassLayout& pass) {
  return spec.is_2d() && pass.axis == 1 && spec.precision == Precision::fp32 && !is_power_of_two(pass.size) &&
         !pass.mirror_tiles() && !pass.transposed_store() && pass.grid_ny == 0 &&
         pass.columns_per_workgroup < kPlanColumns;
}

// A column pass (auto workgroup size, exchanging through shared memory) where fewer than
// kMaxColumns columns fit the plain exchange: its tile widened by exchanging in rounds, and the
// exchange that takes; `choice` where it stays as it is.
ExchangeChoice widen_column_tile(const KernelSpec& spec, PassLayout& pass, const std::vector<uint32_t>& radices,
                                 uint32_t available, ExchangeChoice choice) {
  // Column mode, where fewer than kMaxColumns columns fit: exchange in rounds (as register-resident
  // transforms do) so that more columns fit, on up to 512 invocations: the most columns, padded
  // before swizzled, then the fewest rounds. Measured on an H100 (2^20 = 1024 x 1024, 16 columns):
  // padded in 8 rounds 1380 GB/s, swizzled in 4 rounds 1370, padded in 4 rounds (48 KB) 1377;
  // 4 columns without rounds 1141. 2^18 = 512 x 512 (32x16 stages, 16 padded columns in 4
  // rounds): 1446, against 1300 for 16x16x2 stages in 2 swizzled rounds and 1201 before rounds.
  if (is_power_of_two(pass.size)) {
    const uint32_t span = pass.size / radices.back();  // slots the stages before the last write into
    const ColumnRounds tile = choose_column_rounds(spec, pass.size, pass.elems_per_thread, span, available,
                                                   pass.columns_per_workgroup);
    if (tile.columns != 0) {
      pass.columns_per_workgroup = tile.columns;
      pass.shared.rounds = tile.rounds;
      return {false, tile.padded};
    }
  }
  // A 2D Y side that is not a power of two: 16 columns in rounds where they fit.
  if (narrow_mixed_y_tile(spec, pass)) {
    const ColumnRounds tile = choose_mixed_column_rounds(spec, radices, available);
    if (tile.columns != 0) {
      pass.columns_per_workgroup = tile.columns;
      pass.threads_per_column = tile.invocations;
      pass.elems_per_thread = values_on(radices, tile.invocations);
      pass.shared.rounds = tile.rounds;
      return {false, tile.padded};
    }
  }
  return choice;
}

ExchangeChoice choose_tiling(const KernelSpec& spec, PassLayout& pass, const std::vector<uint32_t>& radices,
                             uint32_t exchange_rounds, uint32_t budget, size_t index, uint32_t invocations = 0) {
  // Each invocation holds at least one butterfly of the largest radix, and more where a split of
  // small radices would otherwise need more invocations than a workgroup may have (unless the
  // split chose them: `invocations`).
  const bool values_given = exchange_rounds == 1 && pass.row_mode() && spec.values_per_invocation != 0;
  pass.threads_per_column = invocations != 0 ? invocations
                            : values_given   ? invocations_for_values(spec, radices, index)
                                             : invocations_per_column(radices);
  pass.elems_per_thread = values_given || invocations != 0 ? values_on(radices, pass.threads_per_column)
                                                           : values_per_invocation(radices);
  pass.shared.rounds = exchange_rounds;
  pass.shared.scalar_bytes = scalar_bytes(spec);
  // Mirrored tiles take a power of two of columns, up to the pairs' places (S rounded up to even).
  const uint32_t available = pass.row_mode()       ? 1u << 30
                             : pass.mirror_tiles() ? 1u << floor_log2(2 * pass.mirror_low_columns())
                                                   : pass.columns_per_transform;
  const bool uses_shared = uses_shared_memory(pass, radices);
  // Mirrored column tiles (the last pass of a multi-pass r2c) hold C/2 columns and their mirrors:
  // twice kMaxColumns keeps both halves' runs 128 bytes long. Measured on an H100: R2C 65536 1366
  // -> 1413 GB/s (its last pass 0.417 -> 0.390 ms, 32 columns in a split exchange or, with 48 KB,
  // a complex one alike), the c2r inverse 1288 -> 1398.
  const uint32_t max_columns = pass.mirror_tiles() ? 2 * kMaxColumns : kMaxColumns;
  // Candidates: the complex exchange (fewest barriers) or the split one (half the shared
  // memory), each padded or not (column mode: XOR-swizzled instead). Row mode takes the first
  // that fits in the order complex padded, complex unpadded, split padded, split unpadded.
  // Column mode scores columns per workgroup (wider coalesced runs), doubled when padded, and
  // prefers complex on ties. Measured on an H100: padding beat more transforms per workgroup in
  // row mode (N = 64: 2955 against 2668 GB/s); in column mode +1 padding beat the swizzle at
  // equal columns (2^18: 1370 against 1153 GB/s; 2^20: 1015 against 840) and split padded beat
  // complex swizzled (2^18: 1201 against 1153), while the swizzle with twice the columns of
  // padding matched it (2^16: 1477 against 1478).
  struct Candidate { bool split, padded; };
  const std::vector<Candidate> row_order = {{false, true}, {false, false}, {true, true}, {true, false}};
  const std::vector<Candidate> column_order = {{false, true}, {true, true}, {false, false}, {true, false}};
  const std::vector<Candidate> register_order = {{false, false}};  // rounds were chosen for a swizzled complex slice
  // The candidate with the most columns on up to `auto_invocations` invocations (scored double when
  // padded; the first of equal scores); none (0 columns) where none fits.
  struct Tile {
    uint32_t columns = 0;
    ExchangeChoice choice;
  };
  const auto& candidates = pass.exchange_rounds() > 1 ? register_order : pass.row_mode() ? row_order : column_order;
  auto best_tile = [&](uint32_t auto_invocations) {
    Tile best;
    uint32_t best_score = 0;
    for (const Candidate& cand : candidates) {
      const bool padded = cand.padded && uses_shared;
      if (!uses_shared && cand.split) continue;
      if (pass.row_mode() && best.columns != 0) break;
      const uint32_t slice = pass.exchange_size();
      const uint32_t c = choose_columns(spec, pass.threads_per_column, pass.row_mode(), available,
                                        padded ? padded_column(slice, pass.row_mode()) : slice,
                                        cand.split ? scalar_bytes(spec) : element_bytes(spec), auto_invocations, max_columns,
                                        pass.pair_rows_at_once);
      if (pass.pair_rows_at_once && c % 2 != 0) continue;  // each pair's two rows in one workgroup
      if (const uint32_t score = c * (padded ? 2 : 1); score > best_score) best_score = score, best = {c, {cand.split, padded}};
    }
    return best;
  };
  Tile tile = best_tile(kAutoWorkgroupSize);
  if (pass.pair_rows_at_once && tile.columns == 0) {
    pass.pair_rows_at_once = false;  // a pair's two rows do not fit one workgroup: in turn
    tile = best_tile(kAutoWorkgroupSize);
  }
  // A column pass whose kMinColumns columns need more than kAutoWorkgroupSize invocations (a Y side
  // that is not a power of two, y_passes) gets up to rounds_invocations, as rounds do.
  if (tile.columns == 0 && !pass.row_mode() && spec.workgroup_size == 0) tile = best_tile(rounds_invocations(spec));
  pass.columns_per_workgroup = tile.columns;
  ExchangeChoice choice = tile.choice;
  if (!pass.row_mode() && uses_shared && spec.workgroup_size == 0)
    choice = widen_column_tile(spec, pass, radices, available, choice);
  // A 2D Y side that is not a power of two, left with fewer than kPlanColumns columns on
  // kAutoWorkgroupSize invocations and no rounds: kPlanColumns or more on up to kRoundsInvocations
  // where they fit the budget. Measured on an H200 (bench/results/2026-11-30-h200-wide-column-tiles),
  // 8 columns against 4: C2C 720 x 1280 0.728 -> 0.638 ms (0.86 -> 0.98 x cuFFT), R2C 1.18 -> 1.34,
  // C2C 540 x 960 1.07 -> 1.19, R2C 1.32 -> 1.52; allowing 1024 invocations (800 x 600, 1000 x 1000:
  // 640 and 800) ran up to 16 % slower.
  if (!pass.row_mode() && uses_shared && spec.workgroup_size == 0 && pass.shared.rounds == 1 &&
      narrow_mixed_y_tile(spec, pass)) {
    if (const Tile wide = best_tile(kRoundsInvocations); wide.columns >= kPlanColumns)
      pass.columns_per_workgroup = wide.columns, choice = wide.choice;
  }
  if (pass.columns_per_workgroup == 0) fail_tiling(spec, pass, index, available, budget);
  pass.workgroup_size = pass.columns_per_workgroup * pass.threads_per_column;
  if (pass.workgroup_size > max_invocations(spec))
    fail(spec, "radices", fmt::format("pass {} would need {} invocations per workgroup (at most {}{})", index,
                                      pass.workgroup_size, max_invocations(spec),
                                      spec.targets_webgpu ? ", WebGPU's maxComputeInvocationsPerWorkgroup" : ""));
  return choice;
}

// Step 3: the shared-memory map of a tiled pass (see SharedMemoryMap).
// `swizzle_real_rows`: the row pass of an r2c kernel, whose store separates, where one round's
// swizzle measured faster than padding. `budget_bytes`: the plan's shared_memory_bytes.
SharedMemoryMap shared_memory_scheme(const PassLayout& pass, const std::vector<uint32_t>& radices, ExchangeChoice choice,
                                     bool swizzle_real_rows, uint32_t budget_bytes) {
  SharedMemoryMap map;
  map.rounds = pass.shared.rounds;
  map.scalar_bytes = pass.shared.scalar_bytes;
  if (!uses_shared_memory(pass, radices)) return map;
  map.columns = pass.columns_per_workgroup;
  map.slice = pass.exchange_size();
  map.split = choice.split;
  using Scheme = SharedMemoryMap::Scheme;
  if (pass.row_mode()) {
    // Register-resident: slot i of a slice is swizzled to i ^ ((i >> s) & 15), s = log2 of the
    // first radix (at least 4), so that the first stage's stride-R writes from a half-warp land
    // in distinct bank pairs, while reads and later writes (runs of 32 adjacent slots) stay
    // conflict-free. It costs no space: on an H100 at N = 16384, 4 rounds of a 4096-slot slice
    // fit 32 KB (padded, they need 48 KB: 2705 GB/s; padded 8 rounds of 2048 in 32 KB: 2570).
    // One round swizzles too where the padded slices do not fit (complex slices unpadded: rows of
    // 4096 at 32 KB), and in the r2c row passes where it measured faster than padding
    // (MeasuredDecision::swizzle_real_rows).
    // A 2D grid done in one pass (a 3D kernel's planes too) is a Stockham pass of NY * NX like a
    // row's and swizzles alike where its padded slices do not fit: on an H200 at 1 GiB, 32 x 128
    // 1.157 -> 0.605 ms, 16 x 256 1.065 -> 0.606, 64 x 64 1.195 -> 1.030, 3D 64^3 1.722 -> 1.558
    // (bench/results/2026-11-30-h200-grid-swizzle-fp64-3d). (Powers of two only, so that slices
    // are whole groups of 16 slots.)
    const bool swizzle_one_round = is_power_of_two(pass.size) && !choice.split &&
                                   (!choice.padded || swizzle_real_rows);
    // (Rounds of a length that is not a power of two, mixed_register_split, keep the plain map.)
    if ((map.rounds > 1 && is_power_of_two(pass.size)) || swizzle_one_round) {
      map.scheme = Scheme::row_swizzled;
      map.swizzle_mask = 15;
      map.swizzle_shift = std::max(4u, log2_exact(radices.front()));
    } else {
      map.scheme = choice.padded ? Scheme::row_padded : Scheme::plain;
      if (choice.padded) map.pad_log2 = SharedMemoryMap::kRowPadLog2;
    }
  } else if (choice.padded) {
    map.scheme = Scheme::column_padded;
    // column_padded suits many columns, whose adjacent invocations are adjacent columns. In a
    // workgroup of two columns (a convolution's round trip of 2048-point columns, make_layout) 16
    // invocations of one column share a warp and write at their stage's stride as rows do: radix 8
    // sends them to 4 banks. tile_padded pads them as row_padded does and puts the two columns 16
    // banks apart. Measured on an H100 (bench/results/2026-11-27-h100-tile-padding): RGBA bloom
    // 1024^2 0.1435 -> 0.1202 ms (its round trip 0.1007 -> 0.0774), fp16 planes 0.1303 -> 0.1100,
    // r2c planes 0.176 -> 0.155. Not for more columns: up to 16, 1D c2c 32768 1732 -> 1249 GB/s,
    // 2D 512^2 1485 -> 1398, the 4096^2 bloom 2.79 -> 5.4 ms. Split exchanges only (the ones measured).
    SharedMemoryMap tiles = map;
    tiles.scheme = Scheme::tile_padded;
    tiles.pad_log2 = SharedMemoryMap::kRowPadLog2;
    // column_staggered: the same idea for complex exchanges of 8 columns (see SharedMemoryMap).
    // With column_padded (c*257 + i) the 2048-point column passes of 2^21 and 2^22 (8 columns, stages
    // 32x2x32, 8 rounds of 256) sent a half-warp's first-stage writes and its reads to 8 bank pairs
    // of 16. Measured on an H100 (bench/results/2026-11-28-h100-column-banks): 1D c2c 2^21 1238 ->
    // 1298 GB/s, 2^22 1107 -> 1222, 2D c2c 4096^2 1318 -> 1350, r2c 4096^2 1196 -> 1233; padding
    // each index whole (not base and offset apart) moved values to shared memory and gained half as
    // much. Not taken for 2 or 4 columns or a first radix of 16: no default kernel gained there
    // (results step 4).
    SharedMemoryMap staggered = map;
    staggered.scheme = Scheme::column_staggered;
    const uint32_t first = radices.front();
    staggered.pad_log2 = 5;  // one pad slot a run of the first stage's 32 values
    const bool staggered_fits = map.columns == 8 && !map.split && first == 32 && is_power_of_two(pass.size) &&
                                map.slice % first == 0 && staggered.bytes() <= budget_bytes;
    if (map.columns <= 2 && map.split && map.rounds == 1 && is_power_of_two(pass.size) && tiles.bytes() <= budget_bytes)
      map = tiles;
    else if (staggered_fits)
      map = staggered;
  } else if (map.columns == 2 && map.split && map.rounds == 1 && is_power_of_two(pass.size) && map.slice >= 256 &&
             radices.front() == 16) {
    // Two columns of 4096 in 32 KB (a convolution's round trip, make_layout): no room for
    // tile_padded's pads, and column_swizzled (i ^ c) leaves the first stage's radix-16 writes
    // (q*16 + r) of a warp's 16 positions on 2 banks per column. tile_swizzled spreads them over all
    // 32 (see SharedMemoryMap).
    map.scheme = Scheme::tile_swizzled;
    map.swizzle_shift = 4;
    map.swizzle_mask = 15;
  } else {
    map.swizzle_mask = std::min(map.slice, map.split ? 32u : 16u) - 1;
    map.scheme = map.swizzle_mask != 0 ? Scheme::column_swizzled : Scheme::plain;
  }
  return map;
}

// Step 3b: the map of a one-round exchange of a row pass whose length is not a power of two: plain,
// or padded one slot every 2^p values (p = 6, 5, 4), whichever the CPU model counts the fewest
// bank-conflict wavefronts for (exchange_wavefronts). Each candidate, cheapest first, replaces the
// one before only where it counts fewer by more than the device class's margin. The padding of powers
// of two (p = 4) turns the stride-R writes of an odd radix R, which a plain map spreads over every
// bank, into 2- to 3-way conflicts: C2C 1260 (stages 15x12x7) padded counts 2.9 times the ideal
// wavefronts, plain 1.2 times (measured 1.34x faster). No candidate takes more shared memory than
// p = 4 would (the model does not see the workgroups a larger array keeps from an SM: pads every 2 or
// 4 values ran up to 12% slower where they won on wavefronts), and XOR swizzles, which the model
// also ranks well, ran slower than padding wherever they were tried (CostModel::exchange_map_margin's
// run). Powers of two, measured map by map (shared_memory_scheme), keep their map.
SharedMemoryMap least_conflicted_map(const PassLayout& pass, const SharedMemoryMap& chosen, uint32_t budget_bytes) {
  using Scheme = SharedMemoryMap::Scheme;
  const bool modelled = pass.row_mode() && chosen.rounds == 1 && chosen.scalar_bytes == 4 && pass.grid_ny == 0 &&
                        pass.pair_rows == 0 && !pass.store_exchange && !is_power_of_two(pass.size) &&
                        (chosen.scheme == Scheme::plain || chosen.scheme == Scheme::row_padded);
  if (!modelled) return chosen;
  const double keep = 1 - measured_cost_model().exchange_map_margin;
  SharedMemoryMap best = chosen, candidate = chosen;
  double best_count = static_cast<double>(exchange_wavefronts(pass, chosen));
  candidate.scheme = Scheme::row_padded;
  candidate.pad_log2 = SharedMemoryMap::kRowPadLog2;
  const uint32_t most_bytes = std::min(budget_bytes, candidate.bytes());
  for (const uint32_t p : {0u, 6u, 5u, 4u}) {  // p = 0: plain
    candidate.scheme = p == 0 ? Scheme::plain : Scheme::row_padded;
    candidate.pad_log2 = p;
    if (candidate.bytes() > most_bytes || (candidate.scheme == chosen.scheme && p == chosen.pad_log2)) continue;
    if (const double count = static_cast<double>(exchange_wavefronts(pass, candidate)); count < best_count * keep)
      best = candidate, best_count = count;
  }
  return best;
}

// Step 1b: the pass's stages (before the tiling, which asks whether they are balanced).
void make_stages(PassLayout& pass, const std::vector<uint32_t>& radices) {
  uint32_t ns = 1;
  for (uint32_t r : radices) {
    StageLayout stage;
    stage.radix = r;
    stage.stride = ns;
    // A one-pass 2D grid runs its Y stages (radices multiplying to NY) first.
    if (pass.grid_ny != 0 && ns >= pass.grid_ny) stage.twiddle_divisor = pass.grid_ny;
    pass.stages.push_back(stage);
    ns *= r;
  }
}

// A one-pass transform of m with these stages on `invocations` (0: invocations_per_column), tiled as
// add_axis_passes tiles it, for the cost model to rank; nullopt where the stages cannot run in one
// workgroup (invocations, shared memory).
std::optional<PassLayout> trial_pass(const KernelSpec& spec, uint32_t m, const std::vector<uint32_t>& radices,
                                     uint32_t budget, uint32_t invocations) {
  PassLayout pass;
  pass.length = pass.size = m;
  pass.store_exchange = spec.transform != Transform::c2c;
  make_stages(pass, radices);
  try {
    const ExchangeChoice choice = choose_tiling(spec, pass, radices, 1, budget, 0, invocations);
    pass.shared = shared_memory_scheme(pass, radices, choice, false, spec.shared_memory_bytes);
  } catch (const PlanError&) {
    return std::nullopt;
  }
  return pass;
}

// Balanced invocations (balanced_invocations) hold at most this many values, and a transform takes
// at least a warp of them. Measured on an H200 (bench/results/2026-12-01-h200-balanced-invocations):
// the eleven lengths whose split took balanced invocations of at least 32 ran 1.19x as fast (c2c
// and r2c, geometric mean; C2C 7776 as 12x12x9x6 on 216 invocations, 36 values, 1.59x against the
// search's 16x9x9x6 on 486), while the four that took 5 to 27 (150, 175, 297, 972: several
// transforms a warp) ran 0.89x. fftgen tune had timed 7776 at 54 values 0.82x as fast.
constexpr uint32_t kMostBalancedValues = 36, kLeastBalancedInvocations = 32;

// Invocations the model weighs for these stages besides invocations_per_column's: the most that give
// each stage's butterflies evenly to the invocations (T divides every M/R; each then holds M/T
// values), within kMostBalancedValues and kLeastBalancedInvocations; 0 where none does.
uint32_t balanced_invocations(const KernelSpec& spec, const std::vector<uint32_t>& radices) {
  const uint32_t m = product(radices);
  uint32_t common = 0;
  for (uint32_t r : radices) common = std::gcd(common, m / r);
  for (uint32_t t = std::min(common, max_invocations(spec)); t >= kLeastBalancedInvocations && m / t <= kMostBalancedValues; --t)
    if (common % t == 0) return t == invocations_per_column(radices) ? 0 : t;
  return 0;
}

// The codelets the cost model splits m into: radices 2 to 16 for a power of two, else every
// mixed-radix candidate.
std::vector<uint32_t> split_radices(uint32_t m) {
  return is_power_of_two(m) ? std::vector<uint32_t>{2, 4, 8, 16} : mixed_radix_candidates();
}

// The cost model's choice among every order of the splits of m into codelets with at most one
// stage more than the fewest (powers of two: radices 2 to 16), each on invocations_per_column's
// invocations (or the plan's values_per_invocation's) or on balanced_invocations', against the search's split (auto_radices), which stands
// unless a candidate is predicted faster by the model's margin.
PassSplit modelled_split(const KernelSpec& spec, uint32_t m, uint32_t budget) {
  const CostModel& model = measured_cost_model();
  auto cost = [&](const std::vector<uint32_t>& radices, uint32_t invocations) {
    const std::optional<PassLayout> pass = trial_pass(spec, m, radices, budget, invocations);
    return pass ? pass_cost(pass_features(*pass, kElementBytes), model) : HUGE_VAL;
  };
  const std::vector<uint32_t> candidates = split_radices(m);
  PassSplit best{{auto_radices(m, false)}};
  double best_cost = cost(best.radices[0], 0) - model.margin;
  auto consider = [&](const std::vector<uint32_t>& radices, uint32_t invocations) {
    if (const double c = cost(radices, invocations); c < best_cost) best = PassSplit{{radices}, 1, invocations}, best_cost = c;
  };
  for (const auto& radices : radix_orders(m, candidates, 1)) {
    consider(radices, 0);
    if (spec.values_per_invocation != 0) continue;  // the plan's values set the invocations
    if (const uint32_t invocations = balanced_invocations(spec, radices)) consider(radices, invocations);
  }
  return best;
}

// Step 4: the stages' twiddles, placed in the kernel's table (stage twiddles [r-1][k], then the
// two-level table of the inter-pass twiddle).
void place_twiddles(PassLayout& pass, bool table, TwiddleTable& twiddles) {
  for (StageLayout& stage : pass.stages) {
    const uint32_t t = stage.twiddle_stride(), r = stage.radix;
    if (table && t > 1)
      stage.twiddle_offset = twiddles.place({TwiddleRun::Kind::stage, 0, t * (r - 1), uint64_t{t} * r, t, 0});
  }
  if (pass.stride > 1) {
    const uint64_t l = uint64_t{pass.stride} * pass.size;
    PassTwiddles& t = pass.pass_twiddles;
    // The exponents m = r*k, r < size, k < stride (PassTwiddles::single_level for few of them:
    // the Y pass of a 2D kernel whose X pass does the first Y stage, W_NY^r for r < NY/2).
    const uint64_t exponents = uint64_t{pass.stride - 1} * (pass.size - 1) + 1;
    const bool single_level = exponents <= PassTwiddles::kSingleLevelEntries;
    t.lo_log2 = single_level ? ceil_log2(exponents) : (ceil_log2(l) + 1) / 2;
    t.lo_count = 1u << t.lo_log2;
    t.hi_count = single_level ? 1 : static_cast<uint32_t>((l + t.lo_count - 1) / t.lo_count);
    if (table) {
      t.lo_offset = twiddles.place({TwiddleRun::Kind::pass_lo, 0, t.lo_count, l, 0, 0});
      t.hi_offset = twiddles.place({TwiddleRun::Kind::pass_hi, 0, t.hi_count, l, 0, t.lo_log2});
    }
  }
}

}  // namespace

std::vector<std::vector<uint32_t>> modelled_splits(const KernelSpec& spec, uint32_t m, size_t count) {
  const CostModel& model = measured_cost_model();
  std::vector<std::pair<double, std::vector<uint32_t>>> ranked;
  for (const auto& radices : radix_orders(m, split_radices(m), 1)) {
    KernelSpec trial = spec;
    trial.radices = radices;
    try {
      const KernelLayout layout = make_layout(trial);
      if (layout.passes.size() == 1)
        ranked.emplace_back(pass_cost(pass_features(layout.passes.front(), kElementBytes), model), radices);
    } catch (const PlanError&) {
    }
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<uint32_t>> out, seen;
  for (const auto& [cost, radices] : ranked) {
    std::vector<uint32_t> split = radices;
    std::sort(split.begin(), split.end());
    if (out.size() == count) break;
    if (std::find(seen.begin(), seen.end(), split) != seen.end()) continue;
    seen.push_back(split);
    out.push_back(radices);
  }
  return out;
}

namespace {

// Steps 1-4 for the passes of one axis (`length` points, `interleave` data columns per position),
// appended to `layout`: stages, tiling, shared memory, twiddles.
// `first_stride`: the product of the sizes of this axis' stages done elsewhere (2 for a Y axis whose
// first stage the X pass does, PassLayout::pair_rows, which `pair_rows` gives the X pass;
// `rows_at_once`: its pairs' rows at once where they fit one workgroup, PassLayout::pair_rows_at_once).
void add_axis_passes(const KernelSpec& spec, KernelLayout& layout, uint32_t axis, uint32_t length, uint32_t interleave,
                     const PassSplit& split, bool one_pass_grid, uint32_t budget, uint32_t first_stride = 1,
                     uint32_t pair_rows = 0, bool rows_at_once = false) {
  uint32_t stride = first_stride;
  for (const auto& radices : split.radices) {
    PassLayout pass;
    pass.axis = axis;
    pass.pair_rows = pair_rows;
    // (choose_tiling falls back to the rows in turn where a pair does not fit one workgroup)
    pass.pair_rows_at_once = pair_rows != 0 && radices.size() > 1 && rows_at_once;
    pass.length = length;
    pass.size = product(radices);
    pass.stride = stride;
    pass.interleave = interleave;
    pass.columns_per_transform = pass.length / pass.size * pass.interleave;
    stride *= pass.size;
    pass.store_exchange = axis == 0 && stride == pass.length && spec.transform != Transform::c2c;
    if (one_pass_grid) pass.grid_ny = layout.ny;
    const size_t index = layout.passes.size();
    make_stages(pass, radices);
    const ExchangeChoice choice =
        choose_tiling(spec, pass, radices, split.exchange_rounds, budget, index, split.invocations);
    MeasuredFacts pass_facts = measured_facts(spec, length);
    pass_facts.size = pass.size;
    const bool swizzle_real_rows = pass.store_exchange && spec.transform == Transform::r2c &&
                                   measured_yes(MeasuredDecision::swizzle_real_rows, pass_facts);
    pass.shared = least_conflicted_map(
        pass, shared_memory_scheme(pass, radices, choice, swizzle_real_rows, spec.shared_memory_bytes),
        spec.shared_memory_bytes);
    place_twiddles(pass, spec.twiddle_source() == TwiddleSource::table, layout.twiddles);
    // The pair separation pairs value e of an invocation with another invocation's value E-1-e:
    // it needs every invocation to hold E values at q + e*step. (The r2c separation of mirrored
    // column tiles takes any stages: an unbalanced pass exchanges value by value.)
    const bool pair_separates = spec.transform == Transform::r2c_pair && (pass.store_exchange || pass.stride == 1);
    if (pair_separates && !(pass.balanced() && is_power_of_two(pass.columns_per_transform)))
      fail(spec, "shape",
           fmt::format("{} of N = {}: the complex transform of {} ({}stages {}) is not shared evenly by its "
                       "invocations, which the pair separation needs; use c2c, or a length whose stages divide "
                       "evenly (e.g. a power of two, or 2 x 10^k)",
                       to_string(spec.transform), spec.n(), layout.n, pass.row_mode() ? "" : "a column pass of ",
                       fmt::join(radices, "x")));
    // Mirrored tiles hold C/2 columns and their mirrors, found by flipping bit C/2.
    if (pass.mirror_tiles() && (pass.columns_per_workgroup < 2 || !is_power_of_two(pass.columns_per_workgroup)))
      fail(spec, "workgroup_size",
           fmt::format("{} invocations give the last pass of r2c N = {} (sub-transform of {}, {} invocations a "
                       "column) {} columns a workgroup; its separation needs a power of two of at least 2 columns: "
                       "use {} times a power of two, or \"auto\"",
                       pass.workgroup_size, spec.n(), pass.size, pass.threads_per_column,
                       pass.columns_per_workgroup, pass.threads_per_column));
    layout.radices.insert(layout.radices.end(), radices.begin(), radices.end());
    if (pass.pair_rows != 0) layout.radices.push_back(2);  // the Y stage it does
    layout.passes.push_back(std::move(pass));
  }
}

// Bluestein's algorithm for N with a prime factor above kMaxPrimeFactor (1D c2c, N <= kMaxBluesteinN): the
// passes of a c2c transform of M, chosen by bluestein_transform_layout (one dispatch each way or more), then the chirp
// and the two filter spectra placed in its table.
// M of a side through Bluestein's algorithm: the power of two, or the smallest 7-smooth M >= 2N - 2
// where a row of the measured table takes it (MeasuredDecision::smooth_bluestein_side, asked with
// `size` = the smooth M in eighths of the power of two, rounded up). A 3D kernel's side is asked
// as a 2D kernel's (no row applies to three_d facts): the run measured both alike.
uint32_t side_bluestein_length(const KernelSpec& spec, uint32_t side) {
  const uint32_t power = bluestein_length(side), smooth = smooth_bluestein_length(side);
  MeasuredFacts facts = measured_facts(spec, smooth);
  facts.two_d = true;
  facts.three_d = false;
  facts.size = (uint64_t{smooth} * 8 + power - 1) / power;
  return smooth < power && measured_yes(MeasuredDecision::smooth_bluestein_side, facts) ? smooth : power;
}

// A 2D or 3D kernel with such a side, or an r2c of odd NX (KernelLayout::sides_apart): the passes
// of each side's complex transform, of M for a side through Bluestein, then the chirps and filter
// spectra. An r2c kernel's X side is the complex transform of NX (of its M), whose load takes
// reals and whose store keeps the half spectrum (program.cpp); its Y side runs over the NX/2 + 1
// columns of each plane, its Z side (3D) over the volume's columns, a plane apart.
KernelLayout sides_layout(const KernelSpec& spec) {
  if (spec.first_y_stage == FirstYStage::row_pass)
    fail(spec, "first_y_stage", "row_pass has the row pass do the first stage along Y; a 2D kernel with a side "
                                "through Bluestein's algorithm, or an r2c of odd NX, runs each side's transforms "
                                "apart; use \"auto\" or \"column_pass\"");
  // fp16 keeps the input and output in half floats and the values between passes in float (c2c);
  // an r2c kernel's rows of reals would be stored one half float at a time, which the HLSL and MSL
  // targets (halves in pairs, as one uint) cannot write without a race.
  if (spec.precision == Precision::fp16 && spec.transform == Transform::r2c)
    fail(spec, "precision", spec.n() % 2 != 0
                                ? "2D r2c of an odd NX runs its rows as complex transforms of NX of real input, "
                                  "which fftgen has in fp32 only (fp16: c2c, or an even NX)"
                                : "a 2D r2c with a side through Bluestein's algorithm reads its rows as reals one by "
                                  "one, which fftgen has in fp32 only (fp16: c2c)");
  KernelSpec complex = spec;  // every side's passes are complex transforms
  complex.transform = Transform::c2c;
  KernelLayout layout;
  layout.n = spec.n();
  layout.columns = spec.transform == Transform::r2c ? spec.n() / 2 + 1 : spec.n();
  layout.ny = spec.ny();
  layout.nz = spec.nz();
  layout.sides_apart = true;
  const uint32_t budget = spec.shared_memory_bytes / element_bytes(spec);
  const uint32_t axes = spec.is_3d() ? 3 : 2;
  const uint32_t sides[3] = {spec.n(), spec.ny(), spec.nz()};
  // The values between a side's columns: a row's (the columns), a plane's (Z).
  const uint32_t interleave[3] = {1, layout.columns, layout.columns * layout.ny};
  uint32_t lengths[3];
  for (uint32_t a = 0; a < axes; ++a) {
    const uint32_t m = largest_prime_factor(sides[a]) > kMaxPrimeFactor ? side_bluestein_length(spec, sides[a]) : sides[a];
    lengths[a] = m;
    if (a == 0)
      add_axis_passes(complex, layout, 0, m, 1, split_into_passes(complex, m, budget), false, budget);
    else
      add_axis_passes(complex, layout, a, m, interleave[a], {y_passes(complex, m, budget), 1}, false, budget);
  }
  // The chirps and filter spectra follow every pass's twiddles in the table.
  for (uint32_t a = 0; a < axes; ++a) {
    const uint32_t n = sides[a], m = lengths[a];
    if (m == n) continue;
    layout.chirp_sides[a] = {n, layout.twiddles.place({TwiddleRun::Kind::chirp, 0, n, 2 * uint64_t{n}, 0, 0}),
                             layout.twiddles.place({TwiddleRun::Kind::chirp_spectrum, 0, m, m, n, 0})};
  }
  return layout;
}

// The layout of Bluestein's transforms of M for a 1D N: M a power of two (bluestein_length), or
// the smallest 7-smooth M (smooth_bluestein_length) where its transform is one pass exchanged in
// one round and a row of the measured table takes it (asked with `size` = the smooth M in eighths
// of the power of two, rounded up). Rounds, several passes and a smooth M close to the power of
// two ran slower (the row's note).
KernelLayout bluestein_transform_layout(const KernelSpec& spec) {
  const uint32_t n = spec.n(), power = bluestein_length(n), smooth = smooth_bluestein_length(n);
  KernelSpec inner = spec;
  inner.shape = {power};
  MeasuredFacts facts = measured_facts(spec, smooth);
  facts.size = (uint64_t{smooth} * 8 + power - 1) / power;
  if (smooth < power && measured_yes(MeasuredDecision::smooth_bluestein, facts)) {
    KernelSpec smaller = inner;
    smaller.shape = {smooth};
    KernelLayout layout = make_layout(smaller);
    if (layout.passes.size() == 1 && layout.passes[0].exchange_rounds() == 1) return layout;
  }
  return make_layout(inner);
}

KernelLayout bluestein_layout(const KernelSpec& spec) {
  const uint32_t n = spec.n();
  if (spec.is_2d()) return sides_layout(spec);
  if (spec.transform != Transform::c2c || n > kMaxBluesteinN)
    fail(spec, "shape",
         fmt::format("{} = {} has the prime factor {}; lengths with a prime factor above {} run through Bluestein's "
                     "algorithm, which fftgen has for 1D c2c and r2c kernels up to N = {}",
                     spec.is_2d() ? "a side" : "N", n, largest_prime_factor(n), kMaxPrimeFactor, kMaxBluesteinN));
  if (!spec.radices.empty())
    fail(spec, "radices", fmt::format("N = {} runs through Bluestein's algorithm, whose transforms of M >= {} choose their own "
                                      "radices; use \"auto\"", n, 2 * n - 2));
  KernelLayout layout = bluestein_transform_layout(spec);
  const uint32_t m = layout.n;
  layout.bluestein_n = n;
  layout.chirp_offset = layout.twiddles.place({TwiddleRun::Kind::chirp, 0, n, 2 * uint64_t{n}, 0, 0});
  layout.spectrum_offset[0] = layout.twiddles.place({TwiddleRun::Kind::chirp_spectrum, 0, m, m, n, 0});
  // b is symmetric (b_(M-m) = b_m), so the spectrum of conj(b) is conj(S): transforms of M in
  // several passes (M > 16384, tables of megabytes) read S conjugated; one-dispatch kernels keep
  // their second run.
  if (layout.passes.size() == 1)
    layout.spectrum_offset[1] = layout.twiddles.place({TwiddleRun::Kind::chirp_spectrum_inverse, 0, m, m, n, 0});
  else
    layout.spectrum_offset[1] = layout.spectrum_offset[0];
  return layout;
}

// KernelLayout::bluestein_real_half: Bluestein's layout of the complex transform of H = N/2, the
// separation pass (H columns of one value at stride H, the last pass of an r2c of H in mirrored
// tiles: column j holds Z[j], its mirror Z[H - j]) and the separation twiddles W_N^k, k < H.
KernelLayout bluestein_real_half_layout(const KernelSpec& spec) {
  const uint32_t h = spec.n() / 2;
  KernelSpec half = spec;
  half.transform = Transform::c2c;
  half.shape = {h};
  KernelLayout layout = bluestein_layout(half);
  layout.bluestein_real_half = true;
  layout.columns = h + 1;
  PassLayout& pass = layout.real_pass;
  pass.length = pass.stride = pass.columns_per_transform = h;
  pass.size = pass.elems_per_thread = pass.threads_per_column = 1;
  pass.store_exchange = true;
  // Tiles of 128 columns (runs of 64 values each way: 512 bytes), fewer where H has fewer pairs;
  // one value per column goes through a plain shared slot.
  pass.columns_per_workgroup = pass.workgroup_size = std::min(128u, 1u << floor_log2(2 * pass.mirror_low_columns()));
  pass.shared.scheme = SharedMemoryMap::Scheme::plain;
  pass.shared.columns = pass.columns_per_workgroup;
  pass.shared.slice = 1;
  pass.shared.scalar_bytes = scalar_bytes(spec);
  if (spec.twiddle_source() == TwiddleSource::table)
    layout.real_twiddle_offset = layout.twiddles.place({TwiddleRun::Kind::real, 0, h, spec.n(), 0, 0});
  return layout;
}

// x <- FFT(x) (sign -1) or its inverse without scaling (sign +1), in double; x.size() a power of two.
void host_fft(std::vector<std::complex<double>>& x, int sign) {
  const size_t n = x.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (size_t len = 2; len <= n; len *= 2)
    for (size_t i = 0; i < n; i += len)
      for (size_t k = 0; k < len / 2; ++k) {
        const auto w = std::polar(1.0, sign * 2.0 * M_PI * double(k) / double(len));
        const auto a = x[i + k], b = x[i + k + len / 2] * w;
        x[i + k] = a + b;
        x[i + k + len / 2] = a - b;
      }
}

// x <- FFT(x), sign -1, in double, for a length of small prime factors: decimation in time on the
// smallest prime p, each output a direct sum of the p sub-transforms' terms. roots[j] =
// exp(-2 pi i j / L) for the outermost length L, which x.size() divides.
std::vector<std::complex<double>> host_dft_smooth(const std::vector<std::complex<double>>& x,
                                                  const std::vector<std::complex<double>>& roots) {
  const size_t n = x.size();
  if (n == 1) return x;
  size_t p = 2;
  while (n % p != 0) ++p;
  const size_t m = n / p, step = roots.size() / n;
  std::vector<std::vector<std::complex<double>>> sub(p);
  for (size_t r = 0; r < p; ++r) {
    std::vector<std::complex<double>> part(m);
    for (size_t j = 0; j < m; ++j) part[j] = x[j * p + r];
    sub[r] = host_dft_smooth(part, roots);
  }
  std::vector<std::complex<double>> out(n);
  for (size_t k = 0; k < n; ++k)
    for (size_t r = 0; r < p; ++r) out[k] += sub[r][k % m] * roots[r * k % n * step];
  return out;
}

// Bluestein's filter spectrum FFT_M(b) / M, b as TwiddleRun::Kind::chirp_spectrum says.
std::vector<std::complex<double>> chirp_spectrum(uint32_t n, uint32_t m, bool inverse) {
  std::vector<std::complex<double>> b(m);
  for (uint64_t k = 0; k < n; ++k) {
    const double angle = M_PI * double(k * k % (2 * uint64_t{n})) / double(n);  // conj(w_k) = exp(+pi i k^2 / N)
    const std::complex<double> w = std::polar(1.0, inverse ? -angle : angle);
    b[k] = w;
    if (k > 0) b[m - k] = w;
  }
  if (is_power_of_two(m)) host_fft(b, -1);
  else {
    std::vector<std::complex<double>> roots(m);
    for (uint32_t j = 0; j < m; ++j) roots[j] = std::polar(1.0, -2.0 * M_PI * double(j) / double(m));
    b = host_dft_smooth(b, roots);
  }
  for (auto& v : b) v /= double(m);
  return b;
}

}  // namespace

namespace {

// Whether a 1D r2c kernel takes the full-length route (KernelLayout::real_full_length): the
// half-length trick needs N even and N/2 free of primes above kMaxPrimeFactor (an fp32 N whose
// half has one takes bluestein_real_half before this is asked). Where N/2 takes
// several passes, the last one separates in mirrored column tiles, whatever its stages and
// column count (PassLayout::mirror_tiles).
bool real_full_length(const KernelSpec& spec) {
  if (spec.transform != Transform::r2c || spec.is_2d() || spec.convolution) return false;
  const uint32_t n = spec.n();
  return n % 2 != 0 || largest_prime_factor(n) > kMaxPrimeFactor;
}

// Whether such a kernel takes the half-length route through Bluestein's algorithm instead
// (KernelLayout::bluestein_real_half): N even, in fp32 (fp16 and fp64 keep the full-length route
// and its checks).
bool bluestein_real_half(const KernelSpec& spec) {
  return real_full_length(spec) && spec.n() % 2 == 0 && spec.precision == Precision::fp32;
}

}  // namespace

namespace {

// An axis of a kernel: its length, the data columns per position (a Y axis runs over the rows'
// columns), and its passes.
struct Axis {
  uint32_t length, interleave;
  PassSplit split;
};

// The sides fftgen runs without Bluestein's algorithm: 2 to 2^kMaxLog2Side (2D) or 2^(kMaxLog2N + 1)
// (1D: the parser allows N up to 2^kMaxLog2N, Bluestein's transforms of M go one step further),
// with no prime factor above kMaxPrimeFactor.
void check_sides(const KernelSpec& spec) {
  const bool two_d = spec.is_2d();
  const uint32_t max_log2 = two_d ? kMaxLog2Side : kMaxLog2N + 1;
  for (uint32_t side : spec.shape)
    if (side < 2 || side > (1u << max_log2) || largest_prime_factor(side) > kMaxPrimeFactor)
      fail(spec, "shape", fmt::format("{} = {} is not supported; allowed: 2 to 2^{} with no prime factor above {}",
                                      two_d ? (side == spec.n() ? "NX" : "NY") : "N", side, max_log2, kMaxPrimeFactor));
}

// Whether a small 2D c2c grid runs in one pass: it fits a workgroup's shared memory as a whole, so
// its Y stages, then its X stages, go through shared memory, one dispatch in all. Not a
// convolution's plane (channels packed in pairs): its image is read by a row pass and its product
// stored plainly.
bool is_one_pass_grid(const KernelSpec& spec, const KernelLayout& layout, uint32_t budget) {
  return spec.is_2d() && spec.transform == Transform::c2c && !spec.convolution && spec.points() <= 2 * budget &&
         is_power_of_two(layout.ny) && is_power_of_two(spec.n());
}

// Step 1 for each axis: the X axis's passes and the Y axis's, or one pass of the whole grid.
std::vector<Axis> split_axes(const KernelSpec& spec, const KernelLayout& layout, uint32_t budget, bool one_pass_grid) {
  std::vector<Axis> axes{{layout.n, 1, split_into_passes(spec, layout.n, budget)}};
  if (spec.transform == Transform::r2c_pair && axes[0].split.radices.size() > 1)
    fail(spec, "shape",
         fmt::format("r2c_pair of N = {} would need {} passes; r2c_pair kernels run in one pass, up to N = {} (or "
                     "less with a small shared_memory_bytes); use r2c per signal for longer ones", spec.n(),
                     axes[0].split.radices.size(), kMaxRegisterResident));
  if (one_pass_grid) {
    std::vector<uint32_t> radices = auto_radices(layout.ny, false);
    const std::vector<uint32_t> x = auto_radices(spec.n(), false);
    radices.insert(radices.end(), x.begin(), x.end());
    axes = {{static_cast<uint32_t>(spec.points()), 1, {{radices}, 1}}};
  } else if (spec.is_2d()) {
    axes.push_back({layout.ny, layout.columns, {y_passes(spec, layout.ny, budget), 1}});
  }
  return axes;
}

// Pairs of rows (PassLayout::pair_rows): the X pass does the first Y stage, radix 2, transforming
// rows y and y + NY/2 in turn or at once (PassLayout::pair_rows_at_once), and the Y pass
// transforms columns of NY/2 in tiles twice as wide. A Y axis of one pass whose columns are too
// long for kMaxColumns of them to stay in registers takes narrow tiles (NY = 4096: 4 columns,
// 32-byte runs; 2048: 8 columns, 64-byte runs), which pairs widen. c2c kernels keep column tiles
// between the passes (their layout reads each parity's columns as whole tiles: an X pass of at
// least 256 points, whose invocations lie whole tiles apart); an r2c kernel (rows of NX/2 + 1
// values, not whole sectors, so it keeps rows between its passes) interleaves the pair's rows
// instead (KernelProgram::pair_rows_interleaved). `auto` pairs rows where the table of measured
// choices says so (MeasuredDecision::pair_rows, pair_rows_at_once); `first_y_stage: row_pass`
// asks for pairs wherever the passes can take them, `column_pass` refuses them.
struct RowPairs {
  uint32_t pair_rows = 0;                           ///< NY/2 where the X pass does the first Y stage
  bool at_once = false;                             ///< the pair's two rows at once where they fit
  std::vector<std::vector<uint32_t>> unpaired_columns;  ///< the Y passes without pairs
};

// Why this kernel's row pass cannot do the first Y stage ("": it can); `half_columns` gets the Y
// passes of NY/2 once the checks reach them.
std::string why_no_pairs(const KernelSpec& spec, const KernelLayout& layout, const std::vector<Axis>& axes,
                         bool one_pass_grid, uint32_t budget, std::vector<std::vector<uint32_t>>& half_columns) {
  const bool real = spec.transform == Transform::r2c;
  if (!spec.is_2d() || one_pass_grid)
    return spec.is_2d() ? "this kernel's grid is one pass (it fits one workgroup)" : "a 1D kernel has no Y axis";
  if (spec.convolution || spec.io != Io::buffer || spec.workgroup_size != 0)
    return "pairs of rows are built for buffers with workgroup_size \"auto\"";
  if (spec.transform == Transform::c2c && (spec.n() < kMinPairRowPoints || spec.intermediate_layout == IntermediateLayout::rows))
    return "a c2c kernel's pairs of rows keep the values between the passes in column tiles, which need rows of "
           "256 points or more and intermediate_layout \"auto\" or \"column_tiles\"";
  if (real && (!is_power_of_two(spec.n()) || spec.intermediate_layout == IntermediateLayout::column_tiles))
    return "an r2c kernel's pairs of rows need a power-of-two NX and intermediate_layout \"auto\" or \"rows\"";
  if (!is_power_of_two(layout.ny) || layout.ny < 4) return "pairs of rows need a power-of-two NY of 4 or more";
  if (axes[0].split.radices.size() != 1 || axes[0].split.exchange_rounds != 1 || axes[1].split.radices.size() != 1 ||
      (half_columns = y_passes(spec, layout.ny / 2, budget)).size() != 1)
    return "pairs of rows need each axis in one pass (rows within shared memory, columns of NY/2 in one column pass)";
  return "";
}

// Step 1b: whether the row pass does the first Y stage; on pairs, axes[1] becomes the Y passes of NY/2.
RowPairs choose_row_pairs(const KernelSpec& spec, const KernelLayout& layout, std::vector<Axis>& axes,
                          bool one_pass_grid, uint32_t budget) {
  const bool asked = spec.first_y_stage == FirstYStage::row_pass;
  std::vector<std::vector<uint32_t>> half_columns;
  const std::string no_pairs = why_no_pairs(spec, layout, axes, one_pass_grid, budget, half_columns);
  if (asked && !no_pairs.empty())
    fail(spec, "first_y_stage", fmt::format("row_pass has the row pass do the first stage along Y; {}; use \"auto\" "
                                            "or \"column_pass\"", no_pairs));
  const MeasuredFacts facts = measured_facts(spec, layout.n);
  RowPairs pairs;
  pairs.at_once = measured_yes(MeasuredDecision::pair_rows_at_once, facts);
  if (axes.size() == 2) pairs.unpaired_columns = axes[1].split.radices;
  if (no_pairs.empty() && (asked || (spec.first_y_stage == FirstYStage::automatic &&
                                     measured_yes(MeasuredDecision::pair_rows, facts)))) {
    pairs.pair_rows = layout.ny / 2;
    axes[1].split.radices = half_columns;
  }
  return pairs;
}

// Step 1c: a convolution's apply kernel whose padded columns take one Y pass runs it as one round
// trip (program.cpp: forward FFT, filter product, inverse FFT), which its latency bounds rather
// than its bytes: the table of measured choices may give it narrower tiles
// (MeasuredDecision::round_trip_tiles). Returns the spec its Y pass is laid out with.
KernelSpec round_trip_tiles(const KernelSpec& spec, const KernelLayout& layout, std::vector<Axis>& axes) {
  KernelSpec y_spec = spec;
  if (!spec.is_2d() || !spec.convolution || spec.convolution_filter || spec.workgroup_size != 0 || axes.size() != 2 ||
      axes[0].split.radices.size() != 1 || axes[1].split.radices.size() != 1)
    return y_spec;
  if (const MeasuredRow* row = measured_choice(MeasuredDecision::round_trip_tiles, measured_facts(spec, layout.n))) {
    axes[1].split.radices = {row->choice.radices};
    y_spec.workgroup_size = row->choice.invocations;
  }
  return y_spec;
}

// Steps 2-4 for every axis. Where `auto` chose pairs of rows for the grid's size but this row width
// cannot take them (every value the X pass stores must lie whole tiles of the Y pass apart:
// mixed-radix rows such as 1000 or 768 points), the rows stay apart.
KernelLayout add_passes(const KernelSpec& spec, const KernelSpec& y_spec, const KernelLayout& without_passes,
                        std::vector<Axis>& axes, RowPairs& pairs, bool one_pass_grid, uint32_t budget) {
  for (;;) {
    KernelLayout layout = without_passes;
    for (uint32_t a = 0; a < axes.size(); ++a)
      add_axis_passes(a == 1 ? y_spec : spec, layout, a, axes[a].length, axes[a].interleave, axes[a].split,
                      one_pass_grid, budget, a == 1 && pairs.pair_rows != 0 ? 2 : 1, a == 0 ? pairs.pair_rows : 0,
                      pairs.at_once);
    if (pairs.pair_rows == 0 || spec.transform == Transform::r2c) return layout;
    const PassLayout &x = layout.passes.front(), &y = layout.passes.back();
    if (x.threads_per_column % y.columns_per_workgroup == 0 && spec.n() % y.columns_per_workgroup == 0 && x.balanced())
      return layout;
    const std::string what = fmt::format("the row pass's values ({} invocations a row) do not lie whole column "
                                         "tiles of {} apart", x.threads_per_column, y.columns_per_workgroup);
    if (spec.first_y_stage == FirstYStage::row_pass)
      fail(spec, "first_y_stage", fmt::format("row_pass has the row pass do the first stage along Y; {}; use \"auto\" "
                                              "or \"column_pass\"", what));
    axes[1].split.radices = pairs.unpaired_columns;
    pairs.pair_rows = 0;
  }
}

// A 3D kernel's sides: 2 to 2^kMaxLog2Side each (the parser's limit, checked again for a spec built
// in code).
void check_volume_sides(const KernelSpec& spec) {
  const char* names[3] = {"NZ", "NY", "NX"};
  for (size_t a = 0; a < 3; ++a) {
    const uint32_t side = spec.shape[a];
    if (side < 2 || side > (1u << kMaxLog2Side))
      fail(spec, "shape", fmt::format("{} = {} is not supported; a 3D kernel's sides are 2 to 2^{}", names[a], side,
                                      kMaxLog2Side));
  }
}

// A 3D kernel [NZ, NY, NX]: its X passes over the NZ * NY rows of a transform, its Y passes over
// each plane's columns (interleave: the row width, NX/2 + 1 for r2c), its Z passes over the
// volume's columns (interleave: a plane, NY times the row width, so that a workgroup's columns
// are adjacent values of a row and its reads coalesced, as a 2D kernel's Y pass's are). A c2c
// plane that fits one workgroup, as a small 2D grid does (is_one_pass_grid), takes X and Y in one
// pass over each plane (PassLayout::grid_ny): 64^3 in two passes.
KernelLayout volume_layout(const KernelSpec& spec) {
  check_volume_sides(spec);
  const bool real = spec.transform == Transform::r2c;
  // A side through Bluestein's algorithm, or the rows of an r2c of odd NX, runs each side apart.
  if ((real && spec.n() % 2 != 0) ||
      std::any_of(spec.shape.begin(), spec.shape.end(), [](uint32_t side) { return largest_prime_factor(side) > kMaxPrimeFactor; }))
    return sides_layout(spec);
  KernelLayout layout;
  layout.n = real ? spec.n() / 2 : spec.n();
  layout.ny = spec.ny();
  layout.nz = spec.nz();
  layout.columns = real ? spec.n() / 2 + 1 : spec.n();
  const uint32_t budget = spec.shared_memory_bytes / element_bytes(spec);
  KernelSpec plane = spec;
  plane.shape = {spec.ny(), spec.n()};
  if (is_one_pass_grid(plane, layout, budget)) {
    std::vector<uint32_t> radices = auto_radices(layout.ny, false);
    const std::vector<uint32_t> x = auto_radices(layout.n, false);
    radices.insert(radices.end(), x.begin(), x.end());
    add_axis_passes(spec, layout, 0, layout.ny * layout.n, 1, {{radices}, 1}, true, budget);
  } else {
    add_axis_passes(spec, layout, 0, layout.n, 1, split_into_passes(spec, layout.n, budget), false, budget);
    add_axis_passes(spec, layout, 1, layout.ny, layout.columns, {y_passes(spec, layout.ny, budget), 1}, false, budget);
  }
  add_axis_passes(spec, layout, 2, layout.nz, layout.ny * layout.columns, {y_passes(spec, layout.nz, budget), 1}, false,
                  budget);
  if (real && spec.twiddle_source() == TwiddleSource::table)
    layout.real_twiddle_offset = layout.twiddles.place({TwiddleRun::Kind::real, 0, layout.n, spec.n(), 0, 0});
  return layout;
}

// Every kind of kernel's layout, before the checks of make_layout (defined below it: a real or
// Bluestein kernel lays out its complex transform through it).
KernelLayout make_any_layout(const KernelSpec& spec);

}  // namespace

// values_per_invocation sets the invocations of passes along X that hold whole rows in one round
// of exchange (choose_tiling); a kernel without one refuses it.
void check_values_per_invocation(const KernelSpec& spec, const KernelLayout& layout) {
  if (spec.values_per_invocation == 0) return;
  for (const PassLayout& pass : layout.passes)
    if (pass.row_mode() && pass.exchange_rounds() == 1) return;
  fail(spec, "values_per_invocation",
       "applies to passes that hold whole rows in one exchange (one-pass 1D kernels up to the shared-memory "
       "budget, 2D rows), and this kernel has none; use \"auto\"");
}

KernelLayout make_layout(const KernelSpec& spec) {
  KernelLayout layout = make_any_layout(spec);
  check_values_per_invocation(spec, layout);
  return layout;
}

namespace {

// The predicted log time of a two-pass layout under the split model (fftgen/cost_model.hpp).
double split_cost(const KernelSpec& spec, const KernelLayout& layout) {
  const SplitModel& m = measured_split_model();
  const uint32_t bytes = element_bytes(spec);
  const PassLayout &first = layout.passes.front(), &last = layout.passes.back();
  return m.first_short_runs * split_short_runs(first, bytes) + m.last_short_runs * split_short_runs(last, bytes);
}

// The two passes of a 1D r2c (fp32, auto fields, at the 32 KB the model was measured at) whose
// half length M is not a power of two, as ranked by the split model: the candidates are the pairs
// A x B = M nearest an even split (the kSplitCandidates with the smallest A/B, at most
// kMostUneven), in either order, laid out in full, that fit and whose first pass's tiles divide its columns (a tile
// of 4 columns of an odd count starts rows off the 32-byte sectors: on an H200, R2C 31752 as
// 252 x 63 ran 0.56x the even split, 405000 as 540 x 375 0.89x); the layout of the one predicted
// faster than `layout`'s own split by more than the model's margin, or nothing (also where the
// kernel is not such a kernel).
std::optional<KernelLayout> rank_real_split(const KernelSpec& spec, const KernelLayout& layout) {
  constexpr uint32_t kSplitCandidates = 6, kMostUneven = 16, kMeasuredBytes = 32768;
  if (!spec.pass_sizes.empty() || spec.transform != Transform::r2c || spec.shape.size() != 1 ||
      spec.convolution.has_value() || spec.precision != Precision::fp32 || !spec.radices.empty() ||
      spec.workgroup_size != 0 || spec.values_per_invocation != 0 || spec.shared_memory_bytes != kMeasuredBytes ||
      is_power_of_two(layout.n) || layout.passes.size() != 2)
    return std::nullopt;
  std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (A, B), A >= B
  for (uint32_t b = 2; uint64_t{b} * b <= layout.n; ++b)
    if (layout.n % b == 0 && layout.n / b <= kMostUneven * b) pairs.emplace_back(layout.n / b, b);
  std::sort(pairs.begin(), pairs.end(), [](auto x, auto y) { return uint64_t{x.first} * y.second < uint64_t{y.first} * x.second; });
  pairs.resize(std::min<size_t>(pairs.size(), kSplitCandidates));
  std::optional<KernelLayout> best;
  double best_cost = split_cost(spec, layout) - measured_split_model().margin;
  for (const auto& [a, b] : pairs)
    for (const std::vector<uint32_t>& sizes : {std::vector<uint32_t>{a, b}, std::vector<uint32_t>{b, a}}) {
      KernelSpec candidate = spec;
      candidate.pass_sizes = sizes;
      try {
        KernelLayout ranked = make_any_layout(candidate);
        const PassLayout& first = ranked.passes.front();
        if (ranked.passes.size() != 2 || first.columns_per_transform % first.columns_per_workgroup != 0) continue;
        if (const double cost = split_cost(spec, ranked); cost < best_cost) best = std::move(ranked), best_cost = cost;
      } catch (const PlanError&) {
        // this pair does not fit the passes' tiles
      }
    }
  return best;
}

KernelLayout make_any_layout(const KernelSpec& spec) {
  if (spec.is_3d()) return volume_layout(spec);
  if (bluestein_real_half(spec)) return bluestein_real_half_layout(spec);
  if (real_full_length(spec)) {
    if (spec.precision == Precision::fp16)
      fail(spec, "precision", fmt::format("r2c of N = {} runs as a complex transform of N with real input, whose "
                                          "reals are stored one by one, which fftgen has in fp32 only (HLSL and MSL "
                                          "hold half floats in pairs); fp16 takes c2c of any N, or r2c of the "
                                          "lengths transforms.md lists", spec.n()));
    KernelSpec full = spec;
    full.transform = Transform::c2c;
    KernelLayout layout = make_any_layout(full);
    layout.real_full_length = true;
    layout.columns = spec.n() / 2 + 1;
    return layout;
  }
  for (uint32_t side : spec.shape)
    if (side >= 2 && largest_prime_factor(side) > kMaxPrimeFactor) return bluestein_layout(spec);
  // The rows of a 2D r2c of odd NX run as complex transforms of NX, as a side through Bluestein does.
  if (spec.is_2d() && spec.transform == Transform::r2c && spec.n() % 2 != 0) return sides_layout(spec);
  check_sides(spec);
  // An r2c kernel transforms N reals as N/2 complex values, then separates (see program.hpp).
  const bool real = spec.transform == Transform::r2c;
  KernelLayout layout;
  layout.n = real ? spec.n() / 2 : spec.n();
  layout.ny = spec.ny();
  layout.columns = real ? spec.n() / 2 + 1 : spec.n();
  const uint32_t budget = spec.shared_memory_bytes / element_bytes(spec);
  const bool one_pass_grid = is_one_pass_grid(spec, layout, budget);
  std::vector<Axis> axes = split_axes(spec, layout, budget, one_pass_grid);
  RowPairs pairs = choose_row_pairs(spec, layout, axes, one_pass_grid, budget);
  const KernelSpec y_spec = round_trip_tiles(spec, layout, axes);
  layout = add_passes(spec, y_spec, layout, axes, pairs, one_pass_grid, budget);
  if (std::optional<KernelLayout> ranked = rank_real_split(spec, layout)) {
    ranked->ranked_split = true;
    return std::move(*ranked);
  }
  if (real && spec.twiddle_source() == TwiddleSource::table)
    layout.real_twiddle_offset = layout.twiddles.place({TwiddleRun::Kind::real, 0, layout.n, spec.n(), 0, 0});
  return layout;
}

// The kernel's layout within `bytes` of shared memory, or none where the layout refuses that budget.
std::optional<KernelLayout> layout_within(const KernelSpec& spec, uint32_t bytes) {
  KernelSpec at = spec;
  at.shared_memory_bytes = bytes;
  try {
    return make_layout(at);
  } catch (const PlanError&) {
    return std::nullopt;
  }
}

// MeasuredDecision::narrow_budget: the row's smaller budget where the kernel stays one pass at it.
std::optional<uint32_t> narrow_budget(const KernelSpec& spec) {
  const MeasuredRow* row = measured_choice(MeasuredDecision::narrow_budget, measured_facts(spec, spec.n()));
  if (row == nullptr || row->choice.bytes >= spec.shared_memory_bytes) return std::nullopt;
  const std::optional<KernelLayout> narrow = layout_within(spec, row->choice.bytes);
  if (narrow && narrow->passes.size() == 1) return row->choice.bytes;
  return std::nullopt;
}

// MeasuredDecision::chirp_budget: the row's smaller budget for a 1D Bluestein kernel (c2c, or r2c on
// the half) whose transforms of M take several passes, where they keep their lengths and columns.
std::optional<uint32_t> chirp_budget(const KernelSpec& spec) {
  if (spec.is_2d() || spec.is_3d() || largest_prime_factor(spec.n()) <= kMaxPrimeFactor) return std::nullopt;
  const std::optional<KernelLayout> at = layout_within(spec, spec.shared_memory_bytes);
  // The routes measured: c2c, and r2c through Bluestein on the half (not the full-length r2c of odd N).
  if (!at || at->bluestein_n == 0 || at->real_full_length || at->passes.size() < 2) return std::nullopt;
  MeasuredFacts facts = measured_facts(spec, at->n);
  facts.size = at->n;
  const MeasuredRow* row = measured_choice(MeasuredDecision::chirp_budget, facts);
  if (row == nullptr || row->choice.bytes >= spec.shared_memory_bytes) return std::nullopt;
  const std::optional<KernelLayout> smaller = layout_within(spec, row->choice.bytes);
  const auto same_shape = [](const PassLayout& a, const PassLayout& b) {
    return a.size == b.size && a.columns_per_workgroup == b.columns_per_workgroup;
  };
  if (smaller && smaller->bluestein_n == at->bluestein_n && smaller->n == at->n &&
      std::equal(at->passes.begin(), at->passes.end(), smaller->passes.begin(), smaller->passes.end(), same_shape))
    return row->choice.bytes;
  return std::nullopt;
}

// The budget a row of the table (`decision`, asked with `facts`) gives, where it is above the plan's,
// within what the plan's devices offer, and `better(layout at the plan's budget, layout at the
// row's)` holds. A kernel the layout refuses keeps its budget, and check_buildable names what is wrong.
std::optional<uint32_t> wider_budget(const KernelSpec& spec, MeasuredDecision decision, const MeasuredFacts& facts,
                                     const std::function<bool(const KernelLayout&, const KernelLayout&)>& better) {
  const MeasuredRow* row = measured_choice(decision, facts);
  if (row == nullptr || row->choice.bytes <= spec.shared_memory_bytes || row->choice.bytes > spec.device_shared_memory_bytes)
    return std::nullopt;
  const std::optional<KernelLayout> at = layout_within(spec, spec.shared_memory_bytes);
  if (!at) return std::nullopt;
  const std::optional<KernelLayout> wide = layout_within(spec, row->choice.bytes);
  if (wide && better(*at, *wide)) return row->choice.bytes;
  return std::nullopt;
}

// The larger budget a row of the table gives a one-pass 2D c2c grid (a 3D kernel's planes, asked
// with the plane's facts) whose exchange fills the plan's budget unpadded, where the plan's devices
// offer it and the grid's slices are padded there (MeasuredDecision::grid_budget).
std::optional<uint32_t> grid_budget(const KernelSpec& spec) {
  KernelSpec plane = spec;
  if (spec.is_3d()) plane.shape = {spec.ny(), spec.n()};
  const auto padded_grid = [](const KernelLayout& layout) {
    const PassLayout& first = layout.passes.front();
    return first.grid_ny != 0 && first.shared.scheme == SharedMemoryMap::Scheme::row_padded;
  };
  return wider_budget(spec, MeasuredDecision::grid_budget, measured_facts(plane, plane.n()),
                      [&](const KernelLayout& at, const KernelLayout& wider) {
                        return at.passes.front().grid_ny != 0 && !padded_grid(at) && padded_grid(wider);
                      });
}

// The larger budget a row of the table gives a 1D kernel that takes one pass of one exchange round
// there, against several passes, or one pass exchanged in rounds (mixed_register_split), at the
// plan's (MeasuredDecision::one_pass_budget).
std::optional<uint32_t> one_pass_budget(const KernelSpec& spec) {
  const auto one_round = [](const KernelLayout& layout) {
    return layout.passes.size() == 1 && layout.passes.front().exchange_rounds() == 1;
  };
  return wider_budget(spec, MeasuredDecision::one_pass_budget, measured_facts(spec, spec.n()),
                      [&](const KernelLayout& at, const KernelLayout& wider) { return !one_round(at) && one_round(wider); });
}

}  // namespace

uint32_t auto_shared_memory_bytes(const KernelSpec& spec) {
  if (const std::optional<uint32_t> narrow = narrow_budget(spec)) return *narrow;
  if (const std::optional<uint32_t> chirp = chirp_budget(spec)) return *chirp;
  if (const std::optional<uint32_t> grid = grid_budget(spec)) return *grid;
  return one_pass_budget(spec).value_or(spec.shared_memory_bytes);
}

uint32_t PassLayout::butterflies_per_invocation(const StageLayout& stage) const {
  const uint32_t butterflies = size / stage.radix;
  return (butterflies + threads_per_column - 1) / threads_per_column;
}

bool PassLayout::stage_twiddles_early(size_t s) const {
  const StageLayout& stage = stages[s];
  return s > 0 && stage.twiddle_stride() > 1 && (stage.radix - 1) * butterflies_per_invocation(stage) <= kEarlyTwiddles;
}

bool PassLayout::balanced() const {
  if (uint64_t{threads_per_column} * elems_per_thread != size) return false;
  return std::all_of(stages.begin(), stages.end(), [&](const StageLayout& s) { return stage_balanced(s); });
}

PassLayout::ValuePlace PassLayout::value_place(const StageLayout& stage, uint32_t e) const {
  const uint32_t p = butterflies_per_invocation(stage), i = e % p, r = e / p;
  ValuePlace place;
  place.offset = i * threads_per_column + r * (size / stage.radix);
  place.guard = i * threads_per_column;
  place.guarded = (i + 1) * threads_per_column > size / stage.radix;
  return place;
}

uint32_t SharedMemoryMap::column_slots() const {
  switch (scheme) {
    case Scheme::none: return 0;
    case Scheme::row_padded: return slice + (slice >> pad_log2);
    case Scheme::column_padded: return slice + 1;
    case Scheme::tile_padded: {
      const uint32_t padded = slice + (slice >> pad_log2);
      return padded + (48 - padded % 32) % 32;  // 16 mod 32
    }
    case Scheme::column_staggered: {
      const uint32_t padded = slice + (slice >> pad_log2), stagger = 16 / columns;
      return padded + (16 + stagger - padded % 16) % 16;  // 16/C mod 16
    }
    default: return slice;
  }
}

uint32_t SharedMemoryMap::slot(uint32_t c, uint32_t i) const {
  switch (scheme) {
    case Scheme::none: break;
    case Scheme::plain: return c * slice + i;
    case Scheme::row_padded: return c * column_slots() + i + (i >> pad_log2);
    case Scheme::row_swizzled: return c * slice + (i ^ ((i >> swizzle_shift) & swizzle_mask));
    case Scheme::column_padded: return c * column_slots() + i;
    case Scheme::tile_padded:
    case Scheme::column_staggered: return c * column_slots() + i + (i >> pad_log2);
    case Scheme::column_swizzled: return c * slice + (i ^ (c & swizzle_mask));
    case Scheme::tile_swizzled: return c * slice + (i ^ ((i >> swizzle_shift) & swizzle_mask) ^ (c << swizzle_shift));
  }
  throw std::logic_error("SharedMemoryMap::slot: the pass uses no shared memory");
}

uint64_t TwiddleRun::exponent(uint32_t e) const {
  switch (kind) {
    case Kind::stage: return uint64_t{e / stride + 1} * (e % stride);
    case Kind::pass_lo: return e;
    case Kind::pass_hi: return uint64_t{e} << lo_log2;
    case Kind::real: return e;
    case Kind::chirp: return uint64_t{e} * e % length;
    case Kind::chirp_spectrum:
    case Kind::chirp_spectrum_inverse: return 0;  // not roots of unity (values())
  }
  return 0;
}

uint32_t TwiddleTable::place(TwiddleRun run) {
  run.offset = count;
  count += run.count;
  runs.push_back(run);
  return run.offset;
}

std::vector<float> TwiddleTable::values() const {
  // exp(-2*pi*i*m/l) in double, rounded once to float.
  const std::vector<double> exact = values_in_double();
  return std::vector<float>(exact.begin(), exact.end());
}

std::vector<double> TwiddleTable::values_in_double() const {
  std::vector<double> table(2 * size_t{count});
  for (const TwiddleRun& run : runs) {
    if (run.kind == TwiddleRun::Kind::chirp_spectrum || run.kind == TwiddleRun::Kind::chirp_spectrum_inverse) {
      const auto b = chirp_spectrum(run.stride, run.count, run.kind == TwiddleRun::Kind::chirp_spectrum_inverse);
      for (uint32_t e = 0; e < run.count; ++e) {
        table[2 * size_t{run.offset + e}] = b[e].real();
        table[2 * size_t{run.offset + e} + 1] = b[e].imag();
      }
      continue;
    }
    for (uint32_t e = 0; e < run.count; ++e) {
      const double angle =
          -2.0 * M_PI * static_cast<double>(run.exponent(e) % run.length) / static_cast<double>(run.length);
      table[2 * size_t{run.offset + e}] = std::cos(angle);
      table[2 * size_t{run.offset + e} + 1] = std::sin(angle);
    }
  }
  return table;
}

}  // namespace fftgen
