// The pass/stage layout, checked without a GPU: every size gets a valid split, explicit splits are
// honoured, and executing a kernel's passes on the CPU (tests/cpu_model.hpp: the same views and the
// same twiddle table the shaders read) reproduces a reference FFT.
#include <catch2/catch.hpp>

#include <algorithm>
#include <complex>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "fftgen/codelet.hpp"
#include "fftgen/cost_model.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/measured.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

#include "cpu_numerics.hpp"

using fftgen::KernelLayout;
using fftgen::KernelSpec;
using cd = std::complex<double>;
using fftgen_test::rel_l2;

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

using fftgen_test::check_numerics;
using fftgen_test::reference_fft;

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
      if (pass.exchange_rounds() > 1) {
        // Exchanged in rounds: each invocation reads E/rounds values per round, every butterfly
        // writes inside one slice, and column passes get at least 8 columns (64-byte runs).
        CHECK(pass.elems_per_thread % pass.exchange_rounds() == 0);
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
    CHECK((fftgen::make_program(spec_for(n)).scratch_elements > 0) == (expected_passes >= 3));
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
    CHECK(pass.exchange_rounds() == c.rounds);
    CHECK(pass.shared_bytes() <= c.budget);
    CHECK(pass.elems_per_thread % pass.exchange_rounds() == 0);  // every invocation reads E/rounds per round
    CHECK(pass.shared.swizzle_mask == 15);
    CHECK((1u << pass.shared.swizzle_shift) == std::max(16u, pass.stages[0].radix));
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
  CHECK(layout.passes[0].exchange_rounds() == 4);
  check_numerics(spec);
  // ...and go multi-pass when they cannot (16 KB does not hold a 4096-slot slice).
  spec.shared_memory_bytes = 16384;
  CHECK(fftgen::make_layout(spec).passes.size() == 2);
  check_numerics(spec);
}

TEST_CASE("shared-memory maps give every value of an exchange round its own slot", "[layout]") {
  for (uint32_t budget : {16384u, 32768u, 49152u})
    for (uint32_t log2n = 2; log2n <= 22; ++log2n) {
      auto spec = spec_for(1u << log2n);
      spec.shared_memory_bytes = budget;
      for (const auto& pass : fftgen::make_layout(spec).passes) {
        const auto& map = pass.shared;
        if (map.scheme == fftgen::SharedMemoryMap::Scheme::none) continue;
        INFO("N = " << spec.n() << ", budget " << budget << ", pass size " << pass.size);
        CHECK(map.bytes() <= budget);
        std::vector<bool> used(map.elements());
        bool distinct = true;
        for (uint32_t c = 0; c < map.columns; ++c)
          for (uint32_t i = 0; i < map.slice; ++i) {
            const uint32_t slot = map.slot(c, i);
            REQUIRE(slot < map.elements());
            distinct = distinct && !used[slot];
            used[slot] = true;
          }
        CHECK(distinct);
      }
    }
}

// Worst bank conflict (4-byte banks) of one access by any of the first `warps` warps of a
// workgroup of two columns whose invocation t is value index(t / 2) of column t % 2.
template <typename Index>
size_t worst_two_column_conflict(const fftgen::SharedMemoryMap& m, Index index, uint32_t warps = 1) {
  size_t most = 0;
  for (uint32_t warp = 0; warp < warps; ++warp) {
    std::map<uint32_t, std::set<uint32_t>> banks;  // bank -> distinct words
    for (uint32_t t = 32 * warp; t < 32 * warp + 32; ++t) {
      const uint32_t slot = m.slot(t % 2, index(t / 2));
      banks[slot % 32].insert(slot);
    }
    for (const auto& [bank, words] : banks) most = std::max(most, words.size());
  }
  return most;
}

// Every value of every column its own slot, inside the array.
void check_slots_distinct(const fftgen::SharedMemoryMap& map) {
  std::set<uint32_t> slots;
  for (uint32_t c = 0; c < map.columns; ++c)
    for (uint32_t i = 0; i < map.slice; ++i) slots.insert(map.slot(c, i));
  CHECK(slots.size() == size_t{map.columns} * map.slice);
  CHECK(*slots.rbegin() < map.elements());
}

// The round trip of a 1024^2 bloom: two 2048-point columns of a split exchange, stages 8x16x16 on
// 128 invocations a column; invocation t is value q = t / 2 of column c = t % 2.
// One warp of 32 invocations, one transform of 512 = 16 x 32: stage 0's radix-16 writes (q*16 + r)
// and stage 1's reads (16 of 32 butterflies: q + 16r for q < 16), counted by hand. Plain, the 32
// lanes' 8-byte slots 16q + r lie 128 bytes apart: banks 2r and 2r + 1 serve 32 words each, 32
// wavefronts a write, 16 writes; each read is 16 adjacent slots, 32 banks once: 1 wavefront, 32
// reads. Padded (slot i + i/16 = 17q + r), lane q's words start at bank 2q + 2r mod 32: lanes q and
// q + 16 share a bank pair, 2 wavefronts a write; the reads 17r + q stay adjacent.
TEST_CASE("exchange_wavefronts counts a warp's bank conflicts as the hardware serves them", "[layout][cost]") {
  fftgen::PassLayout pass;
  pass.size = pass.length = 512;
  pass.threads_per_column = pass.workgroup_size = 32;
  pass.elems_per_thread = 16;
  pass.stages = {fftgen::StageLayout{}, fftgen::StageLayout{}};
  pass.stages[0].radix = 16;
  pass.stages[0].stride = 1;
  pass.stages[1].radix = 32;
  pass.stages[1].stride = 16;
  fftgen::SharedMemoryMap map;
  map.columns = 1;
  map.slice = 512;
  map.scheme = fftgen::SharedMemoryMap::Scheme::plain;
  CHECK(fftgen::exchange_wavefronts(pass, map) == 16 * 32 + 32);
  map.scheme = fftgen::SharedMemoryMap::Scheme::row_padded;
  map.pad_log2 = 4;
  CHECK(fftgen::exchange_wavefronts(pass, map) == 16 * 2 + 32);
  // Split (4-byte words, one a slot): plain writes 16q + r put 16 lanes in one bank: 16 wavefronts.
  map.split = true;
  map.scheme = fftgen::SharedMemoryMap::Scheme::plain;
  CHECK(fftgen::exchange_wavefronts(pass, map) == 16 * 16 + 32);
}

// The 13-smooth lengths from 90 to 8190 that are not powers of two, every 7th.
std::vector<uint32_t> smooth_lengths() {
  std::vector<uint32_t> lengths;
  for (uint32_t n = 90, k = 0; n <= 8190; ++n)
    if (!fftgen::is_power_of_two(n) && fftgen::largest_prime_factor(n) <= 13 && k++ % 7 == 0) lengths.push_back(n);
  return lengths;
}

TEST_CASE("row passes of other lengths take the map the CPU model counts the fewest conflicts for", "[layout][cost]") {
  using Scheme = fftgen::SharedMemoryMap::Scheme;
  const double margin = fftgen::measured_cost_model().exchange_map_margin;
  size_t plain = 0, padded_other = 0;
  for (uint32_t n : smooth_lengths()) {
    const KernelLayout layout = fftgen::make_layout(spec_for(n));
    for (const auto& pass : layout.passes) {
      const auto& map = pass.shared;
      if (!pass.row_mode() || pass.store_exchange || map.rounds != 1 ||
          (map.scheme != Scheme::plain && map.scheme != Scheme::row_padded))
        continue;
      INFO("N = " << n << ", pass size " << pass.size << ", pad " << map.pad_log2);
      // Never more shared memory than padding every 16 values would take, and no plain or padded
      // map that fits as well counts fewer wavefronts by the margin.
      fftgen::SharedMemoryMap candidate = map;
      candidate.scheme = Scheme::row_padded;
      candidate.pad_log2 = 4;
      CHECK(map.bytes() <= candidate.bytes());
      CHECK(map.bytes() <= 32768);
      const double count = static_cast<double>(fftgen::exchange_wavefronts(pass, map));
      for (uint32_t p : {0u, 4u, 5u, 6u}) {
        candidate.scheme = p == 0 ? Scheme::plain : Scheme::row_padded;
        candidate.pad_log2 = p;
        if (candidate.bytes() <= 32768)
          CHECK(static_cast<double>(fftgen::exchange_wavefronts(pass, candidate)) >= (1 - margin) * count);
      }
      // Every value its own slot, inside the array.
      std::vector<bool> used(map.elements());
      for (uint32_t c = 0; c < map.columns; ++c)
        for (uint32_t i = 0; i < map.slice; ++i) {
          const uint32_t slot = map.slot(c, i);
          REQUIRE(slot < map.elements());
          CHECK_FALSE(used[slot]);
          used[slot] = true;
        }
      plain += map.scheme == Scheme::plain;
      padded_other += map.scheme == Scheme::row_padded && map.pad_log2 != 4;
    }
  }
  CHECK(plain > 50);        // odd first radices: stride-R writes spread over every bank unpadded
  CHECK(padded_other > 5);  // pads every 32 or 64 values
  // C2C 1260, stages 15x12x7: plain (padding every 16 counted 2.5 times the wavefronts).
  CHECK(fftgen::make_layout(spec_for(1260)).passes[0].shared.scheme == Scheme::plain);
  // 3888 (16x9x9x3): its padding every 16 does not fit 32 KB, every 32 does.
  const KernelLayout layout3888 = fftgen::make_layout(spec_for(3888));
  const auto& m3888 = layout3888.passes[0].shared;
  CHECK(m3888.scheme == Scheme::row_padded);
  CHECK(m3888.pad_log2 == 5);
  // Powers of two keep the maps measured for them.
  CHECK(fftgen::make_layout(spec_for(1024)).passes[0].shared.pad_log2 == 4);
  for (uint32_t n : {1260u, 3888u, 4950u, 7776u}) check_numerics(spec_for(n));
}

TEST_CASE("tile_padded gives a warp of two columns distinct banks where column_padded does not", "[layout]") {
  using Scheme = fftgen::SharedMemoryMap::Scheme;
  fftgen::SharedMemoryMap map;
  map.columns = 2;
  map.slice = 2048;
  map.split = true;
  map.pad_log2 = 4;  // tile_padded's (make_layout sets it)
  const auto worst = [](const fftgen::SharedMemoryMap& m, auto index) { return worst_two_column_conflict(m, index); };
  // Stage 0's radix-8 writes (q * 8 + r), stage 1's (q div 8) * 128 + q mod 8 + 8 r, and the reads q + 128 e.
  const auto stage0 = [](uint32_t q) { return q * 8 + 5; };
  const auto stage1 = [](uint32_t q) { return (q / 8) * 128 + q % 8 + 8 * 3; };
  const auto reads = [](uint32_t q) { return q + 128 * 7; };
  map.scheme = Scheme::column_padded;
  CHECK(worst(map, stage0) == 4);
  map.scheme = Scheme::tile_padded;
  CHECK(worst(map, stage0) == 1);
  CHECK(worst(map, stage1) == 1);
  CHECK(worst(map, reads) == 1);
  check_slots_distinct(map);
  // The printer pads a base and an offset apart where their low 4 bits do not carry: the same slot.
  for (uint32_t base = 0; base < map.slice; base += 8)
    for (uint32_t offset = 0; offset < 8 && base + offset < map.slice; ++offset)
      CHECK(map.slot(1, base + offset) == map.column_slots() + base + (base >> 4) + offset + (offset >> 4));
}

// The round trip of a 2048² bloom at 32 KB: two 4096-point columns of a split exchange with no room
// for pads, stages 16x16x16 on 256 invocations a column; invocation t is value q = t / 2 of column
// c = t % 2, so a warp holds 16 positions q of both columns.
TEST_CASE("tile_swizzled gives a warp of two columns distinct banks where column_swizzled does not", "[layout]") {
  using Scheme = fftgen::SharedMemoryMap::Scheme;
  fftgen::SharedMemoryMap map;
  map.scheme = Scheme::tile_swizzled;
  map.columns = 2;
  map.slice = 4096;
  map.split = true;
  map.swizzle_shift = 4;  // make_layout's
  map.swizzle_mask = 15;
  CHECK(map.bytes() == 32768);
  // Every warp of the workgroup (512 invocations).
  const auto worst = [](const fftgen::SharedMemoryMap& m, auto index) { return worst_two_column_conflict(m, index, 16); };
  for (uint32_t r = 0; r < 16; ++r) {
    INFO("value " << r);
    // Stage 0's writes (q * 16 + r), stage 1's ((q div 16) * 256 + q mod 16 + 16 r), stage 2's
    // ((q div 256) * 4096 + q mod 256 + 256 r: q < 256) and the reads q + 256 r.
    const auto stage0 = [r](uint32_t q) { return q * 16 + r; };
    const auto stage1 = [r](uint32_t q) { return (q / 16) * 256 + q % 16 + 16 * r; };
    const auto reads = [r](uint32_t q) { return q + 256 * r; };
    CHECK(worst(map, stage0) == 1);
    CHECK(worst(map, stage1) == 1);
    CHECK(worst(map, reads) == 1);
    fftgen::SharedMemoryMap swizzled = map;  // what a plain split exchange of two columns took
    swizzled.scheme = Scheme::column_swizzled;
    swizzled.swizzle_mask = 31;
    CHECK(worst(swizzled, stage0) == 8);
    CHECK(worst(swizzled, reads) == 2);
  }
  check_slots_distinct(map);
  // The printer swizzles a base once for all its offsets (sh_swizzled_apart): plus an offset that
  // is a multiple of 256, or XOR the offset's own swizzle where base and offset share no bit.
  const auto swizzle = [&](uint32_t c, uint32_t i) { return map.slot(c, i) - c * map.slice; };
  size_t added = 0, xored = 0, wrong = 0;
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t base = 0; base < map.slice; base += 7) {
      for (uint32_t offset = 0; base + offset < map.slice; offset += 256, ++added)
        wrong += map.slot(c, base + offset) != map.slot(c, base) + offset;
      for (uint32_t offset = 1; offset < map.slice; ++offset)
        if ((base & offset) == 0 && base + offset < map.slice) {
          ++xored;
          wrong += map.slot(c, base + offset) != c * map.slice + (swizzle(c, base) ^ (offset ^ ((offset >> 4) & 15)));
        }
    }
  CHECK(added > 1000);
  CHECK(xored > 1000);
  CHECK(wrong == 0);
}

// The second pass of 1D 2^21: 2048-point columns, 8 a workgroup (invocation t is value q = t / 8
// of column c = t % 8), stages 32x2x32, a complex exchange in 8 rounds of 256 slots.
TEST_CASE("column_staggered gives a half-warp of 8 columns distinct bank pairs where column_padded does not", "[layout]") {
  using Scheme = fftgen::SharedMemoryMap::Scheme;
  const auto layout = fftgen::make_layout(spec_for(1u << 21));
  REQUIRE(layout.passes.size() == 2);
  fftgen::SharedMemoryMap map = layout.passes[1].shared;
  CHECK(map.scheme == Scheme::column_staggered);
  CHECK(map.columns == 8);
  CHECK(map.slice == 256);
  CHECK(map.rounds == 8);
  CHECK_FALSE(map.split);
  CHECK(map.pad_log2 == 5);
  CHECK(map.column_slots() % 16 == 2);
  // Worst conflict of one access by a half-warp (8-byte slots: 16 bank pairs): value index(q) of
  // column c.
  auto worst = [](const fftgen::SharedMemoryMap& m, auto index) {
    size_t most = 0;
    for (uint32_t half = 0; half < 64; ++half) {
      std::map<uint32_t, std::set<uint32_t>> pairs;  // bank pair -> distinct slots
      for (uint32_t t = 16 * half; t < 16 * half + 16; ++t) {
        const uint32_t slot = m.slot(t % 8, index(t / 8));
        pairs[slot % 16].insert(slot);
      }
      for (const auto& [pair, slots] : pairs) most = std::max(most, slots.size());
    }
    return most;
  };
  // Stage 0's radix-32 writes (q * 32 + r mod 256), stage 1's radix-2 writes ((q div 32) * 64 +
  // q mod 32 + 32 r mod 256) and the reads q + 64 e.
  const auto stage0 = [](uint32_t q) { return (q * 32) % 256 + 7; };
  const auto stage1 = [](uint32_t q) { return ((q / 32) * 64 + q % 32) % 256 + 32; };
  const auto reads = [](uint32_t q) { return q + 64 * 3; };
  fftgen::SharedMemoryMap padded = map;
  padded.scheme = Scheme::column_padded;
  CHECK(worst(padded, stage0) == 2);
  CHECK(worst(padded, reads) == 2);
  CHECK(worst(map, stage0) == 1);
  CHECK(worst(map, stage1) == 1);
  CHECK(worst(map, reads) == 1);
  // The printer pads a base and an offset apart where their low 5 bits do not carry: the same slot.
  for (uint32_t base = 0; base < map.slice; base += 32)
    for (uint32_t offset = 0; offset < 32; ++offset)
      CHECK(map.slot(3, base + offset) == 3 * map.column_slots() + base + (base >> 5) + offset);
}

TEST_CASE("twiddle table runs are placed back to back and hold exp(-2 pi i m / L)", "[layout]") {
  const auto layout = fftgen::make_layout(spec_for(1u << 20));
  const auto& table = layout.twiddles;
  uint32_t next = 0;
  for (const auto& run : table.runs) {
    CHECK(run.offset == next);
    next += run.count;
  }
  CHECK(table.count == next);
  const auto values = table.values();
  for (const auto& run : table.runs)
    for (uint32_t e = 0; e < run.count; e += 7) {
      const double angle = -2.0 * M_PI * double(run.exponent(e) % run.length) / double(run.length);
      CHECK(std::abs(values[2 * (run.offset + e)] - std::cos(angle)) < 1e-7);
      CHECK(std::abs(values[2 * (run.offset + e) + 1] - std::sin(angle)) < 1e-7);
    }
}

namespace {

KernelSpec spec_2d(uint32_t ny, uint32_t nx, fftgen::Transform transform = fftgen::Transform::c2c) {
  KernelSpec s = spec_for(nx);
  s.shape = {ny, nx};
  s.transform = transform;
  return s;
}

TEST_CASE("workgroup_size a pass cannot take: the error names the powers of two it can", "[layout]") {
  // 16 columns of 16 values: at most 16 columns a workgroup (the message once offered "a multiple
  // of 1 up to 256" for 256).
  // A convolution keeps its rows and columns apart, so its 16 x 16 plane has a column pass.
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "b", "workgroup_size": 256,
      "convolution": {"image": [16, 16], "filter": [3, 3], "channels": 2, "mode": "circular"}}]})"),
                    Catch::Contains("'workgroup_size'") && Catch::Contains("16 columns per transform") &&
                        Catch::Contains("up to 16,"));
  // workgroup_size is a power of two: a pass whose columns take 63 invocations (R2C 566: Bluestein
  // on the half, M = 567) fits none, and the message says so rather than offer multiples of 63.
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "r", "shape": [566], "transform": "r2c",
      "workgroup_size": 64}]})"),
                    Catch::Contains("whole columns of 63 invocations, which no power of two is; use \"auto\"") &&
                        !Catch::Contains("multiple of"));
  // A pass of 1024 points takes 64 invocations a column and 4 columns within 32 KB.
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "c", "shape": [1024], "workgroup_size": 1024}]})"),
                    Catch::Contains("use a power of two from 64 up to 256, or \"auto\""));
}

// 2D reference: rows then columns, in double.
std::vector<cd> reference_2d(std::vector<cd> a, uint32_t ny, uint32_t nx, int sign) {
  for (uint32_t y = 0; y < ny; ++y) {
    std::vector<cd> row(a.begin() + size_t{y} * nx, a.begin() + size_t{y + 1} * nx);
    reference_fft(row, sign);
    std::copy(row.begin(), row.end(), a.begin() + size_t{y} * nx);
  }
  for (uint32_t x = 0; x < nx; ++x) {
    std::vector<cd> col(ny);
    for (uint32_t y = 0; y < ny; ++y) col[y] = a[size_t{y} * nx + x];
    reference_fft(col, sign);
    for (uint32_t y = 0; y < ny; ++y) a[size_t{y} * nx + x] = col[y];
  }
  return a;
}

// The reference of a kernel's shape: 1D and 2D as reference_2d; 3D each plane in 2D, then along Z.
std::vector<cd> reference_nd(std::vector<cd> a, const KernelSpec& spec, int sign) {
  const uint32_t nz = spec.nz(), ny = spec.ny(), nx = spec.n();
  const size_t plane = size_t{ny} * nx;
  for (uint32_t z = 0; z < nz; ++z) {
    const auto first = a.begin() + static_cast<long>(z * plane);
    const std::vector<cd> p = reference_2d(std::vector<cd>(first, first + static_cast<long>(plane)), ny, nx, sign);
    std::copy(p.begin(), p.end(), first);
  }
  if (nz == 1) return a;
  for (size_t i = 0; i < plane; ++i) {
    std::vector<cd> col(nz);
    for (uint32_t z = 0; z < nz; ++z) col[z] = a[z * plane + i];
    reference_fft(col, sign);
    for (uint32_t z = 0; z < nz; ++z) a[z * plane + i] = col[z];
  }
  return a;
}

std::vector<cd> random_complex(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<cd> x(count);
  for (auto& v : x) v = {normal(rng), normal(rng)};
  return x;
}

// The CPU model of a kernel against the 2D reference (1D: NY = 1), for complex and real kernels:
// real input is packed two reals per vec2, and the half spectrum holds NX/2+1 columns.
void check_transform(const KernelSpec& spec, uint32_t batch = 3) {
  using fftgen::Direction;
  using fftgen::Transform;
  const fftgen::KernelProgram program = fftgen::make_program(spec);
  const uint32_t nx = spec.n(), ny = spec.ny(), half = nx / 2 + 1;
  const size_t points = spec.points(), rows = points / nx;
  INFO("shape " << spec.nz() << " x " << ny << " x " << nx << ", " << fftgen::to_string(spec.transform) << ", passes "
                << program.forward.size());
  // Forward: a random input (real data: reals only), the reference spectrum, the kernel's output.
  std::vector<cd> signal = random_complex(points * batch, nx * 7 + ny);
  if (spec.transform == Transform::r2c)
    for (auto& v : signal) v = v.real();
  std::vector<cd> in, spectra;
  for (uint32_t b = 0; b < batch; ++b) {
    const std::vector<cd> one(signal.begin() + b * points, signal.begin() + (b + 1) * points);
    const std::vector<cd> f = reference_nd(one, spec, -1);
    switch (spec.transform) {
      case Transform::c2c:
        in.insert(in.end(), one.begin(), one.end());
        spectra.insert(spectra.end(), f.begin(), f.end());
        break;
      case Transform::r2c:
        for (size_t i = 0; i < points; i += 2) in.push_back({one[i].real(), one[i + 1].real()});
        for (size_t y = 0; y < rows; ++y)
          for (uint32_t x = 0; x < half; ++x) spectra.push_back(f[y * nx + x]);
        break;
      case Transform::r2c_pair: {
        // x and y are the real and imaginary parts; their spectra, X[0..N/2] then Y[0..N/2].
        in.insert(in.end(), one.begin(), one.end());
        std::vector<cd> xs(points), ys(points);
        for (size_t i = 0; i < points; ++i) xs[i] = one[i].real(), ys[i] = one[i].imag();
        reference_fft(xs, -1);
        reference_fft(ys, -1);
        spectra.insert(spectra.end(), xs.begin(), xs.begin() + half);
        spectra.insert(spectra.end(), ys.begin(), ys.begin() + half);
        break;
      }
    }
  }
  const double forward_scale = fftgen::direction_scale(spec, Direction::forward);
  std::vector<cd> want = spectra;
  for (cd& w : want) w *= forward_scale;
  const std::vector<cd> got = fftgen_test::run_program(program, Direction::forward, in, batch);
  REQUIRE(got.size() >= want.size());
  CHECK(rel_l2(std::vector<cd>(got.begin(), got.begin() + static_cast<long>(want.size())), want) < 1e-6);
  // Inverse: from the exact spectra back to the input, scaled as the plan asks (N * input unscaled).
  const std::vector<cd> back = fftgen_test::run_program(program, Direction::inverse, spectra, batch);
  std::vector<cd> expect = in;
  for (cd& w : expect) w *= double(points) * fftgen::direction_scale(spec, Direction::inverse);
  REQUIRE(back.size() >= expect.size());
  CHECK(rel_l2(std::vector<cd>(back.begin(), back.begin() + static_cast<long>(expect.size())), expect) < 1e-6);
}

}  // namespace

TEST_CASE("3D kernels compute the 3D DFT (CPU execution of the X, Y and Z passes)", "[layout][3d]") {
  for (fftgen::Transform transform : {fftgen::Transform::c2c, fftgen::Transform::r2c})
    for (std::vector<uint32_t> shape : std::vector<std::vector<uint32_t>>{
             {2, 2, 2}, {8, 16, 32}, {5, 12, 10}, {16, 16, 16}, {3, 2, 14}, {64, 4, 8}, {4, 64, 6}}) {
      KernelSpec spec = spec_2d(shape[1], shape[2], transform);
      spec.shape = shape;
      check_transform(spec, 2);
    }
  // c2c of odd sides, and every axis in several passes (a small budget).
  KernelSpec odd = spec_2d(9, 7);
  odd.shape = {5, 9, 7};
  check_transform(odd, 2);
  // An axis of 8192 in 1 KB takes three passes (an r2c's 4096 complex rows one); a c2r's values
  // between them alternate between scratch and scratch2 (its reals hold none). A c2c plane of 2 x 4
  // is one grid pass.
  struct Passes {
    std::vector<uint32_t> shape;
    size_t c2c, r2c;
  };
  for (const Passes& p : std::vector<Passes>{{{8192, 2, 4}, 4, 5}, {{2, 8192, 4}, 5, 5}, {{2, 2, 8192}, 5, 3}})
    for (fftgen::Transform transform : {fftgen::Transform::c2c, fftgen::Transform::r2c}) {
      KernelSpec passes = spec_2d(p.shape[1], p.shape[2], transform);
      passes.shape = p.shape;
      passes.shared_memory_bytes = 1024;
      const fftgen::KernelProgram program = fftgen::make_program(passes);
      CHECK(program.forward.size() == (transform == fftgen::Transform::c2c ? p.c2c : p.r2c));
      check_transform(passes, 1);
    }
  // A c2c plane of powers of two within the budget: one grid pass of each plane, then Z.
  KernelSpec cube = spec_2d(64, 64);
  cube.shape = {64, 64, 64};
  const fftgen::KernelProgram program = fftgen::make_program(cube);
  REQUIRE(program.forward.size() == 2);
  CHECK(program.forward[0].fft.grid_ny == 64);
  CHECK(program.forward[0].batch_scale == 64);
  CHECK(program.forward[1].fft.axis == 2);
}

TEST_CASE("2D c2c kernels compute the 2D DFT (CPU execution of the row and column passes)", "[layout][2d]") {
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{
           {2, 2}, {4, 8}, {8, 4}, {64, 64}, {16, 256}, {256, 16}, {64, 128}, {2, 8192}, {8192, 2}, {4096, 4}}) {
    check_transform(spec_2d(ny, nx));
  }
  // NY of 2048 or 4096 with rows of 256 points or more, and NY = 1024 with rows of 256 to 1024
  // points: the X pass does the first Y stage (rows y and y + NY/2 in turn), the Y pass transforms
  // columns of NY/2; not NY = 1024 with longer rows.
  CHECK(fftgen::make_program(spec_2d(1024, 2048)).forward.front().fft.pair_rows == 0);
  for (auto [ny, nx] :
       std::vector<std::pair<uint32_t, uint32_t>>{{4096, 256}, {4096, 512}, {2048, 256}, {1024, 256}}) {
    const auto program = fftgen::make_program(spec_2d(ny, nx));
    CHECK(program.forward.front().fft.pair_rows == ny / 2);
    CHECK(program.forward.back().fft.size == ny / 2);
    check_transform(spec_2d(ny, nx), 1);
  }
  // NY = 8192 needs two column passes along Y; a small budget makes 3 (output and scratch alternate).
  auto small = spec_2d(8192, 4);
  small.shared_memory_bytes = 2048;
  CHECK(fftgen::make_program(small).forward.size() == 4);
  check_transform(small, 2);
  // Sides that are not powers of two: mixed-radix rows and column passes (1080 in two along Y; 720
  // and 540 in tiles of 8 columns).
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{30, 20}, {100, 12}, {3, 5}, {1080, 6}, {6, 1920}, {720, 16}, {540, 16}})
    check_transform(spec_2d(ny, nx), 1);
}

TEST_CASE("fp16 row passes aim at 64 invocations, fp32 ones at up to 256", "[layout]") {
  // invocations of the row pass of a 1D kernel of N and of a 2D kernel of N x N
  auto row_invocations = [](uint32_t n, bool two_d, fftgen::Precision precision) {
    KernelSpec spec = spec_for(n);
    if (two_d) spec.shape = {n, n};
    spec.precision = precision;
    const fftgen::KernelLayout layout = fftgen::make_layout(spec);
    const auto& row = layout.passes.front();
    return row.columns_per_workgroup * row.threads_per_column;
  };
  using fftgen::Precision;
  for (bool two_d : {false, true}) {
    INFO((two_d ? "2D " : "1D ") << "1024");
    CHECK(row_invocations(1024, two_d, Precision::fp32) == 128);  // two rows: four do not fit 32 KB
    CHECK(row_invocations(1024, two_d, Precision::fp16) == 64);
  }
  CHECK(row_invocations(64, false, Precision::fp16) == 64);
  CHECK(row_invocations(64, false, Precision::fp32) == 128);  // 32 rows: 64 do not fit 32 KB
  // Rows that take more than 64 invocations alone keep them (fp32 4096 takes 128 of 32 values, a
  // row of the table of measured choices; 2048 takes 128 of 16).
  CHECK(row_invocations(4096, false, Precision::fp16) == 256);
  CHECK(row_invocations(4096, false, Precision::fp32) == 128);
  CHECK(row_invocations(2048, false, Precision::fp16) == row_invocations(2048, false, Precision::fp32));
}

TEST_CASE("2D kernels keep the values between their X and Y passes in column tiles", "[layout][2d]") {
  using fftgen::IntermediateLayout;
  using fftgen::Transform;
  auto tiled = [](KernelSpec spec) {
    spec.intermediate_layout = IntermediateLayout::column_tiles;
    return spec;
  };
  // Where the X pass leaves value x of row y of plane p, the Y pass finds it (value y of column x).
  for (auto [ny, nx, t] : std::vector<std::tuple<uint32_t, uint32_t, Transform>>{
           {64, 256, Transform::c2c}, {16, 1024, Transform::c2c}, {4096, 64, Transform::c2c},
           {256, 512, Transform::c2c}, {64, 2048, Transform::r2c}, {32, 1024, Transform::r2c},
           {4096, 256, Transform::r2c}, {4096, 256, Transform::c2c}}) {
    const KernelSpec spec = tiled(spec_2d(ny, nx, t));
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    INFO("shape " << ny << " x " << nx << ", " << fftgen::to_string(t));
    const auto& rows = program.forward[0];
    const auto& columns = program.forward[1];
    const uint32_t tile = columns.fft.columns_per_workgroup, width = program.layout.columns;
    const uint64_t padded = (width + tile - 1) / tile * tile;
    CHECK(program.column_tiles == tile);
    CHECK(rows.store.view.tile_columns == tile);
    CHECK(rows.bindings[1].role == fftgen::BufferRole::scratch);
    CHECK(columns.bindings[0].role == fftgen::BufferRole::scratch);
    CHECK(columns.bindings[1].role == fftgen::BufferRole::output);
    CHECK(program.scratch_elements >= ny * padded);
    std::set<uint64_t> seen;
    uint64_t mismatches = 0, outside = 0;
    const fftgen::View& read = columns.load.view;
    // Where the X pass does the first Y stage (c2c 4096 x 256, and 256 x 512 with its rows at
    // once), row y leaves its values to column (y div NY/2) * NX + x of the Y pass (the parity of
    // its output), at position y mod NY/2.
    const uint64_t half = rows.fft.pair_rows;
    const bool small_grid = ny <= 512 && nx <= 512 && uint64_t{ny} * nx >= 131072;
    CHECK(half == ((ny >= 2048 || small_grid) && nx >= 256 && t == Transform::c2c ? ny / 2 : 0));
    CHECK(rows.fft.pair_rows_at_once == (small_grid && t == Transform::c2c));
    for (uint64_t p = 0; p < 2; ++p)
      for (uint64_t y = 0; y < ny; ++y)
        for (uint64_t x = 0; x < width; ++x) {
          const uint64_t written = rows.store.view.element(p * ny + y, x);
          const uint64_t column = half != 0 ? y / half * width + x : x, position = half != 0 ? y % half : y;
          mismatches += written != read.element(p, read.column_offset(column) + position * read.element_stride);
          outside += written >= 2 * program.scratch_elements;
          seen.insert(written);
        }
    CHECK(mismatches == 0);
    CHECK(outside == 0);
    CHECK(seen.size() == 2 * ny * uint64_t{width});  // no two values share an element
    // The c2c inverse runs X then Y too; the c2r inverse runs Y first and keeps rows.
    CHECK(program.inverse[0].store.view.tile_columns == (t == Transform::c2c ? tile : 0));
    check_transform(spec, 2);
  }
  // "auto": tiles of 32 to 64 bytes, and of 128 bytes for columns of 1024 values or more; rows
  // where the output's rows are not whole 32-byte sectors (r2c) or a tile would hold 16 bytes.
  auto tiles_of = [](KernelSpec spec, fftgen::Precision precision = fftgen::Precision::fp32) {
    spec.precision = precision;
    return fftgen::make_program(spec).column_tiles;
  };
  CHECK(tiles_of(spec_2d(4096, 4096)) == 8);  // its X pass does the first Y stage: columns of 2048
  CHECK(tiles_of(spec_2d(2048, 2048)) == 16);  // likewise: columns of 1024
  CHECK(tiles_of(spec_2d(1024, 1024)) == 16);
  CHECK(tiles_of(spec_2d(512, 512)) == 16);  // its rows paired at once: columns of 256
  auto unpaired_512 = spec_2d(512, 512);
  unpaired_512.first_y_stage = fftgen::FirstYStage::column_pass;
  CHECK(tiles_of(unpaired_512) == 0);
  CHECK(tiles_of(spec_2d(4096, 4096, Transform::r2c)) == 0);
  CHECK(tiles_of(spec_2d(1024, 1024), fftgen::Precision::fp16) == 16);
  CHECK(tiles_of(spec_2d(4096, 4096), fftgen::Precision::fp16) == 8);  // pairs of rows: columns of 2048
  auto unpaired = spec_2d(4096, 4096);
  unpaired.first_y_stage = fftgen::FirstYStage::column_pass;
  CHECK(tiles_of(unpaired, fftgen::Precision::fp16) == 0);  // 4-column tiles: 16 bytes a row
  auto rows_only = spec_2d(4096, 4096);
  rows_only.intermediate_layout = IntermediateLayout::rows;
  CHECK(fftgen::make_program(rows_only).column_tiles == 0);
  CHECK(fftgen::make_program(rows_only).scratch_elements == 0);
  // Forced where the passes cannot take them: a clear error naming the field.
  for (const KernelSpec& spec : {tiled(spec_2d(64, 32)), tiled(spec_2d(256, 128)), tiled(spec_2d(8192, 64))}) {
    INFO("shape " << spec.ny() << " x " << spec.n());
    CHECK_THROWS_WITH(fftgen::make_program(spec), Catch::Matchers::Contains("'intermediate_layout'") &&
                                                      Catch::Matchers::Contains("column_tiles needs"));
  }
}

TEST_CASE("r2c kernels compute the half spectrum and c2r inverts it", "[layout][real]") {
  // One pass up to 32768; beyond, the last pass separates in mirrored column tiles.
  for (uint32_t log2n = 1; log2n <= 19; ++log2n) {
    auto spec = spec_for(1u << log2n);
    spec.transform = fftgen::Transform::r2c;
    check_transform(spec, log2n > 16 ? 1 : 3);
  }
  auto small = spec_for(65536);
  small.transform = fftgen::Transform::r2c;
  small.shared_memory_bytes = 1024;  // three passes
  REQUIRE(fftgen::make_program(small).forward.size() == 3);
  check_transform(small);
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{2, 2}, {4, 8}, {8, 4}, {64, 64}, {16, 256}, {256, 16}, {2, 4096}})
    check_transform(spec_2d(ny, nx, fftgen::Transform::r2c));
  // Even lengths that are not powers of two: the half-length transform in mixed radices, balanced
  // (1000: 10x10x5) or not (1536: 16x16x3, 3000: 15x10x10), in 1D and along X of 2D.
  for (uint32_t n : {6u, 10u, 26u, 1000u, 1536u, 3000u}) {
    auto spec = spec_for(n);
    spec.transform = fftgen::Transform::r2c;
    check_transform(spec);
  }
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{30, 20}, {5, 1536}, {1080, 6}})
    check_transform(spec_2d(ny, nx, fftgen::Transform::r2c), 1);
}

TEST_CASE("2D r2c from NY = 2048: the X pass does the first Y stage on interleaved rows", "[layout][real][2d]") {
  using fftgen::Transform;
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{2048, 8}, {4096, 16}, {2048, 64}}) {
    for (auto twiddles : {fftgen::TwiddleSource::table, fftgen::TwiddleSource::computed}) {
      auto spec = spec_2d(ny, nx, Transform::r2c);
      spec.twiddles = twiddles;
      INFO("shape " << ny << " x " << nx << ", twiddles " << fftgen::to_string(twiddles));
      const fftgen::KernelProgram program = fftgen::make_program(spec);
      REQUIRE(program.forward.size() == 2);
      const auto &rows = program.forward[0], &columns = program.forward[1];
      CHECK(rows.fft.pair_rows == ny / 2);
      CHECK(rows.pair_rows_interleaved);
      CHECK(program.column_tiles == 0);
      // The Y pass: columns of NY/2 at stride 2 over rows of 2 (NX/2 + 1) values, in place.
      CHECK(columns.fft.size == ny / 2);
      CHECK(columns.fft.columns_per_transform == 2 * (nx / 2 + 1));
      CHECK(columns.in_place());
      CHECK(columns.load.pass_twiddle);
      // The c2r inverse: the Y pass twiddles as it stores, the X pass loads rows 2y and 2y + 1.
      const auto &inverse_columns = program.inverse[0], &inverse_rows = program.inverse[1];
      CHECK_FALSE(inverse_columns.load.pass_twiddle);
      CHECK(inverse_columns.store.pass_twiddle);
      CHECK(inverse_rows.pair_rows_interleaved);
      CHECK(inverse_rows.load.kind == fftgen::LoadKind::c2r);
      check_transform(spec, ny * nx > 65536 ? 1 : 3);
    }
  }
  // Not below NY = 2048 (measured slower at 1024², bench/results/2026-11-27-h100-r2c-pairs), nor
  // with an explicit workgroup size, column tiles, or an NX that is not a power of two.
  CHECK(fftgen::make_program(spec_2d(1024, 1024, Transform::r2c)).forward[0].fft.pair_rows == 0);
  auto sized = spec_2d(2048, 64, Transform::r2c);
  sized.workgroup_size = 128;
  CHECK(fftgen::make_program(sized).forward[0].fft.pair_rows == 0);
  CHECK(fftgen::make_program(spec_2d(2048, 24, Transform::r2c)).forward[0].fft.pair_rows == 0);
}

TEST_CASE("first_y_stage: row_pass asks for pairs of rows, column_pass refuses them", "[layout][2d]") {
  using fftgen::FirstYStage;
  using fftgen::Transform;
  auto with = [](KernelSpec spec, FirstYStage where) {
    spec.first_y_stage = where;
    return spec;
  };
  // Asked below the automatic bound: r2c (interleaved rows) and c2c (column tiles), both directions
  // on the CPU model, down to NY = 4 (a Y pass of 2).
  for (auto [ny, nx, t] : std::vector<std::tuple<uint32_t, uint32_t, Transform>>{
           {1024, 32, Transform::r2c}, {64, 64, Transform::r2c}, {4, 16, Transform::r2c},
           {512, 256, Transform::c2c}, {64, 512, Transform::c2c}}) {
    const KernelSpec spec = with(spec_2d(ny, nx, t), FirstYStage::row_pass);
    INFO("shape " << ny << " x " << nx << ", " << fftgen::to_string(t));
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    CHECK(program.forward.front().fft.pair_rows == ny / 2);
    CHECK(program.forward.front().pair_rows_interleaved == (t == Transform::r2c));
    CHECK((program.column_tiles != 0) == (t == Transform::c2c));
    check_transform(spec, 3);
  }
  // column_pass keeps the automatic pairs out.
  for (auto t : {Transform::c2c, Transform::r2c}) {
    const auto program = fftgen::make_program(with(spec_2d(4096, 256, t), FirstYStage::column_pass));
    CHECK(program.forward.front().fft.pair_rows == 0);
    CHECK(program.forward.back().fft.size == 4096);
  }
  // Where the passes cannot take pairs: a clear error naming the field.
  for (const KernelSpec& spec : {with(spec_2d(64, 32), FirstYStage::row_pass),             // a grid in one pass
                                 with(spec_2d(1024, 64), FirstYStage::row_pass),           // c2c rows below 256
                                 with(spec_2d(2048, 24, Transform::r2c), FirstYStage::row_pass),  // NX not 2^k
                                 with(spec_2d(2, 1024), FirstYStage::row_pass),            // NY below 4
                                 with(spec_2d(8192, 1024, Transform::r2c), FirstYStage::row_pass),  // 2 Y passes
                                 with(spec_2d(2048, 1000), FirstYStage::row_pass),     // values not tiles apart
                                 with(spec_2d(97, 256), FirstYStage::row_pass),        // NY through Bluestein
                                 with(spec_2d(64, 67), FirstYStage::row_pass),         // NX through Bluestein
                                 with(spec_2d(64, 45, Transform::r2c), FirstYStage::row_pass)}) {  // odd r2c NX
    INFO("shape " << spec.ny() << " x " << spec.n());
    CHECK_THROWS_WITH(fftgen::make_program(spec), Catch::Matchers::Contains("'first_y_stage'") &&
                                                      Catch::Matchers::Contains("row_pass has the row pass"));
  }
}

TEST_CASE("auto keeps the rows apart where the row width cannot take pairs", "[layout][2d]") {
  // Mixed-radix rows whose invocations do not lie whole column tiles apart, at grid sizes where
  // `auto` pairs power-of-two rows: the kernel is built without pairs (it used to fail to build).
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{512, 300}, {1024, 1000}, {1024, 300}, {2048, 1000}, {4096, 1000}}) {
    INFO("shape " << ny << " x " << nx);
    const fftgen::KernelProgram program = fftgen::make_program(spec_2d(ny, nx));
    CHECK(program.forward.front().fft.pair_rows == 0);
    CHECK(program.forward.back().fft.size == ny);
  }
  check_transform(spec_2d(1024, 300), 1);
  check_transform(spec_2d(512, 300), 1);  // where pairs would go at once
  // Rows of 768 as the cost model splits them (12x8x8 on 32 invocations) lie whole tiles apart and
  // take pairs at NY = 2048.
  const fftgen::KernelProgram paired = fftgen::make_program(spec_2d(2048, 768));
  CHECK(paired.forward.front().fft.pair_rows != 0);
  check_transform(spec_2d(2048, 768), 1);
}

TEST_CASE("pairs of rows at once: fp16 c2c rows of up to 2048 points, fp32 grids up to 512² and of NY = 1024", "[layout][2d]") {
  using fftgen::Transform;
  struct Case {
    uint32_t ny, nx;
    Transform transform;
    bool paired, at_once;
  };
  // Measured on an H100 (layout.cpp, make_layout): from NY = 2048, except rows of 2048 and 4096
  // points in turn, from NY = 4096; never at NY = 1024.
  for (const Case& c : std::vector<Case>{{2048, 2048, Transform::c2c, true, true},
                                         {2048, 256, Transform::c2c, true, true},
                                         {4096, 1024, Transform::c2c, true, true},
                                         {1024, 1024, Transform::c2c, false, false},
                                         {2048, 4096, Transform::c2c, false, false},
                                         {4096, 4096, Transform::c2c, true, false},
                                         {2048, 8192, Transform::c2c, true, false},
                                         {2048, 2048, Transform::r2c, true, false},
                                         {2048, 4096, Transform::r2c, false, false},
                                         {4096, 4096, Transform::r2c, true, false}}) {
    auto spec = spec_2d(c.ny, c.nx, c.transform);
    spec.precision = fftgen::Precision::fp16;
    INFO("fp16 " << fftgen::to_string(c.transform) << " " << c.ny << " x " << c.nx);
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    const fftgen::PassLayout& rows = program.forward.front().fft;
    CHECK((rows.pair_rows != 0) == c.paired);
    CHECK(rows.pair_rows_at_once == c.at_once);
    if (c.at_once) {
      // Each pair's two rows in one workgroup, one batch entry per transform in flight.
      CHECK(rows.columns_per_workgroup % 2 == 0);
      CHECK(rows.entries_per_workgroup() == rows.columns_per_workgroup);
      CHECK(rows.workgroup_size == rows.columns_per_workgroup * rows.threads_per_column);
    } else if (c.paired) {
      CHECK(rows.entries_per_workgroup() == 2 * rows.columns_per_workgroup);
    }
  }
  // fp32 keeps its rows in turn from NY = 2048 (at once measured slower: 2048² 0.388 -> 0.450 ms
  // at 256 MiB). Grids of 2^17 and 2^18 points with NY and NX up to 512, and c2c grids of NY = 1024
  // with rows of up to 1024 points, pair at once (faster at batch 1; at NY = 1024 at 512 MiB too, on
  // an H200); not 256² (one dispatch, pass_sync counters) or longer rows. fp16 grids of NY = 1024 do
  // not pair (above).
  auto fp32_rows = [](uint32_t ny, uint32_t nx) { return fftgen::make_program(spec_2d(ny, nx)).forward.front().fft; };
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{2048, 2048}, {2048, 1024}}) {
    INFO("fp32 " << ny << " x " << nx);
    CHECK(fp32_rows(ny, nx).pair_rows == ny / 2);
    CHECK_FALSE(fp32_rows(ny, nx).pair_rows_at_once);
  }
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{
           {512, 512}, {512, 256}, {256, 512}, {1024, 1024}, {1024, 512}, {1024, 256}}) {
    INFO("fp32 " << ny << " x " << nx);
    const fftgen::PassLayout rows = fp32_rows(ny, nx);
    CHECK(rows.pair_rows == ny / 2);
    CHECK(rows.pair_rows_at_once);
    // 64 invocations a workgroup, or one pair where a pair needs more (layout.cpp,
    // kAutoRowInvocationsPairsAtOnce).
    CHECK(rows.workgroup_size == std::max(64u, 2 * rows.threads_per_column));
  }
  // The NY = 1024 rule's layout, two pairs a workgroup of 64 (rows of 256 points), on the CPU model.
  check_transform(spec_2d(1024, 256), 3);
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{256, 256}, {512, 1024}, {1024, 2048}}) {
    INFO("fp32 " << ny << " x " << nx);
    CHECK(fp32_rows(ny, nx).pair_rows == 0);
  }
  // Asked for below the automatic bound, at once and in turn, checked on the CPU model.
  for (auto [ny, nx, t] : std::vector<std::tuple<uint32_t, uint32_t, Transform>>{
           {64, 512, Transform::c2c}, {16, 4096, Transform::c2c}, {64, 512, Transform::r2c}}) {
    auto spec = spec_2d(ny, nx, t);
    spec.precision = fftgen::Precision::fp16;
    spec.first_y_stage = fftgen::FirstYStage::row_pass;
    INFO("fp16 " << fftgen::to_string(t) << " " << ny << " x " << nx << ", row_pass");
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    CHECK(program.forward.front().fft.pair_rows == ny / 2);
    CHECK(program.forward.front().fft.pair_rows_at_once == (t == Transform::c2c && nx <= 2048));
    check_transform(spec, 3);
  }
}

TEST_CASE("the last pass of a multi-pass r2c separates in mirrored column tiles of 128-byte runs", "[layout][real]") {
  // 16 columns and their 16 mirrors (a split exchange keeps them within the 32 KB default budget):
  // on an H100, R2C 65536 went from 1366 to 1413 GB/s against 8 + 8 columns (64-byte runs).
  auto spec = spec_for(65536);
  spec.transform = fftgen::Transform::r2c;
  const auto last = fftgen::make_program(spec).forward.back();
  CHECK(last.store.kind == fftgen::StoreKind::r2c);
  CHECK(last.fft.mirror_tiles());
  CHECK(last.fft.columns_per_workgroup == 32);
  CHECK(last.fft.shared_bytes() <= 32768);
  // Where 32 columns do not fit (2^20: its last pass holds 512 values a column), 16 stay.
  spec.shape = {1u << 20};
  CHECK(fftgen::make_program(spec).forward.back().fft.columns_per_workgroup == 16);
  // A last pass of one stage whose invocation holds a whole column (1 KB of shared memory: passes
  // of 16) still exchanges with the mirror column through shared memory (it used to declare no
  // array and fail to compile); the inverse's pass over the same layout exchanges nothing and
  // keeps none (its SPIR-V declares none, which the runtime checks against the manifest).
  spec.shape = {131072};
  spec.shared_memory_bytes = 1024;
  const auto program = fftgen::make_program(spec);
  const auto& one_stage = program.forward.back();
  REQUIRE(one_stage.fft.stages.size() == 1);
  CHECK(one_stage.fft.threads_per_column == 1);
  CHECK(one_stage.fft.mirror_tiles());
  CHECK(one_stage.fft.shared.elements() > 0);
  CHECK(program.inverse.back().fft.shared.elements() == 0);
  check_transform(spec, 1);
}

// The columns of mirrored tiles as the printer maps them (pass_printer.cpp, print_indices): place c
// of tile t is the low column t*C/2 + c mod C/2 or its mirror; -1 where the place holds no column.
int64_t mirror_column(const fftgen::PassLayout& fft, uint32_t tile, uint32_t c) {
  const uint32_t s = fft.columns_per_transform, half = fft.columns_per_workgroup / 2;
  const uint32_t low = tile * half + c % half;
  if (low >= fft.mirror_low_columns()) return -1;
  if (c < half) return low;
  if (low == 0) return s % 2 == 0 ? int64_t{s / 2} : -1;
  return s - low;
}

TEST_CASE("mirrored column tiles take any column count and any stages of the last pass", "[layout][real]") {
  // Half lengths whose last pass has an even column count that is not a power of two (16400: 100
  // columns of 82 = 41x2, unbalanced), an odd one (31250: 125 columns of 5x5x5; 33614 = 2 x 7^5: 343
  // columns of 7x7), and longer ones of three passes: each runs at half length, its last pass's
  // tiles hold every column once, beside its mirror S - j (columns 0 and S/2 alone).
  for (uint32_t n : {16400u, 31250u, 33614u, 44100u, 466560u, 800000u, 403200u, 204800u}) {
    auto spec = spec_for(n);
    spec.transform = fftgen::Transform::r2c;
    INFO("r2c N = " << n);
    const fftgen::KernelLayout layout = fftgen::make_layout(spec);
    CHECK(!layout.real_full_length);
    CHECK(layout.n == n / 2);
    REQUIRE(layout.passes.size() >= 2);
    const fftgen::PassLayout& last = layout.passes.back();
    REQUIRE(last.mirror_tiles());
    const uint32_t s = last.columns_per_transform, c = last.columns_per_workgroup, tiles = last.mirror_tiles_per_transform();
    CHECK(s == last.stride);
    CHECK(c >= 2);
    CHECK(fftgen::is_power_of_two(c));
    CHECK(last.dispatch_columns() == tiles * c);
    CHECK(last.mirror_places_unused() == (tiles * c != s));
    std::vector<int> seen(s, 0);
    for (uint32_t t = 0; t < tiles; ++t)
      for (uint32_t place = 0; place < c; ++place) {
        const int64_t j = mirror_column(last, t, place);
        if (j < 0) continue;
        REQUIRE(j < s);
        ++seen[j];
        // The partner column: itself for 0 and S/2, else S - j at the place C/2 away.
        const bool self = j == 0 || 2 * j == s;
        const int64_t partner = mirror_column(last, t, self ? place : place ^ (c / 2));
        CHECK(partner == (self ? j : s - j));
      }
    CHECK(std::count(seen.begin(), seen.end(), 1) == s);
    if (n <= 44100) check_transform(spec, 2);
  }
  // An explicit workgroup_size must give the mirrored tiles a power of two of columns: 30
  // invocations run 3 columns of the first pass (10 invocations each), 10 of the last (3 each).
  auto odd = spec_for(16400);
  odd.transform = fftgen::Transform::r2c;
  REQUIRE(fftgen::make_layout(odd).passes.back().threads_per_column == 3);
  odd.workgroup_size = 30;
  CHECK_THROWS_WITH(fftgen::make_layout(odd), Catch::Contains("workgroup_size") && Catch::Contains("power of two"));
}

TEST_CASE("long 1D transforms run their smaller pass first where that was measured faster", "[layout]") {
  auto pass_sizes = [](const KernelSpec& spec) {
    std::vector<uint32_t> sizes;
    for (const auto& pass : fftgen::make_layout(spec).passes) sizes.push_back(pass.size);
    return sizes;
  };
  // c2c 2^21 and r2c 2^20 (its complex 2^19): the smaller pass first (H100: 1208 -> 1245 and
  // 1143 -> 1175 GB/s); the CPU model checks that the order still computes the transform.
  CHECK(pass_sizes(spec_for(1u << 21)) == std::vector<uint32_t>{1024, 2048});
  auto real = spec_for(1u << 20);
  real.transform = fftgen::Transform::r2c;
  CHECK(pass_sizes(real) == std::vector<uint32_t>{512, 1024});
  check_transform(real, 1);
  // Elsewhere the larger pass stays first: r2c 2^22 (slower the other way), c2c 2^19 (its passes
  // share one dispatch), 2^23 (three passes), and fp16.
  real.shape = {1u << 22};
  CHECK(pass_sizes(real) == std::vector<uint32_t>{2048, 1024});
  CHECK(pass_sizes(spec_for(1u << 19)) == std::vector<uint32_t>{1024, 512});
  CHECK(pass_sizes(spec_for(1u << 23)) == std::vector<uint32_t>{256, 256, 128});
  auto half = spec_for(1u << 21);
  half.precision = fftgen::Precision::fp16;
  CHECK(pass_sizes(half) == std::vector<uint32_t>{2048, 1024});
}

TEST_CASE("r2c_pair kernels separate two real signals and merge them back", "[layout][real]") {
  for (uint32_t log2n = 1; log2n <= 14; ++log2n) {
    auto spec = spec_for(1u << log2n);
    spec.transform = fftgen::Transform::r2c_pair;
    check_transform(spec);
  }
}

TEST_CASE("passes agree on where each buffer's transforms lie", "[layout][program]") {
  // A pass that works in place, or reads what an earlier pass wrote, must see the transforms at
  // the same stride (a mismatch only shows on a GPU, where workgroups of one pass overlap).
  std::vector<KernelSpec> specs;
  for (uint32_t log2n : {6u, 12u, 15u, 16u, 17u, 20u, 22u})
    for (auto t : {fftgen::Transform::c2c, fftgen::Transform::r2c}) {
      auto s = spec_for(1u << log2n);
      s.transform = t;
      specs.push_back(s);
    }
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{64, 64}, {256, 512}, {4096, 64}, {8192, 16}, {1024, 1024}})
    for (auto t : {fftgen::Transform::c2c, fftgen::Transform::r2c}) specs.push_back(spec_2d(ny, nx, t));
  for (const auto& spec : specs) {
    const auto program = fftgen::make_program(spec);
    for (auto d : {fftgen::Direction::forward, fftgen::Direction::inverse}) {
      std::map<fftgen::BufferRole, uint64_t> written;  // buffer -> stride of its last writer
      for (const auto& pass : program.passes(d)) {
        INFO("N = " << spec.n() << " x " << spec.ny() << ", " << fftgen::to_string(spec.transform) << ", "
                    << pass.name);
        const auto& src = pass.bindings[0];
        const auto& dst = pass.bindings[1];
        // Strides in transforms: a 2D row pass walks rows (batch_scale of them per transform).
        if (written.count(src.role)) CHECK(written[src.role] == src.stride * pass.batch_scale);
        if (pass.in_place()) CHECK(src.stride == dst.stride);
        written[dst.role] = dst.stride * pass.batch_scale;
      }
    }
  }
}

TEST_CASE("image kernels read their input image in the first pass only and write the output image in the last",
          "[layout][program][textures]") {
  auto image = [](fftgen::KernelSpec spec, fftgen::TextureFormat format) {
    spec.io = fftgen::Io::image;
    spec.image_format = format;
    return spec;
  };
  const std::vector<fftgen::KernelSpec> specs{
      image(spec_2d(64, 64), fftgen::TextureFormat::rg32f),
      image(spec_2d(256, 16), fftgen::TextureFormat::rgba16f),
      image(spec_2d(100, 12), fftgen::TextureFormat::rgba32f),
      image(spec_2d(1080, 6), fftgen::TextureFormat::rg32f),
      image(spec_for(8192), fftgen::TextureFormat::rg32f),
      image(spec_2d(64, 64, fftgen::Transform::r2c), fftgen::TextureFormat::r32f),
      image(spec_2d(30, 20, fftgen::Transform::r2c), fftgen::TextureFormat::r32f)};
  for (const auto& spec : specs) {
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    const bool real = spec.transform == fftgen::Transform::r2c;
    for (auto d : {fftgen::Direction::forward, fftgen::Direction::inverse}) {
      const auto& passes = program.passes(d);
      INFO(spec.name << " " << fftgen::to_string(d) << ", " << passes.size() << " passes");
      for (size_t i = 0; i < passes.size(); ++i)
        for (const auto& b : passes[i].bindings) {
          const bool input = i == 0 && b.slot.binding == 0, output = i + 1 == passes.size() && b.slot.binding == 1;
          CHECK(b.is_texture() == (input || output));
          // Values between passes live in scratch, never in the images.
          if (!input && !output) CHECK((b.role != fftgen::BufferRole::input && b.role != fftgen::BufferRole::output));
          if (!b.is_texture()) continue;
          // The real side of an r2c kernel is r32f, NX reals a row; its half spectrum rg32f, NX/2 + 1.
          const bool spectrum_side = real && (d == fftgen::Direction::forward) == output;
          const bool real_side = real && !spectrum_side;
          CHECK(b.texture == (real_side ? fftgen::TextureFormat::r32f
                              : real  ? fftgen::TextureFormat::rg32f
                                      : spec.image_format));
          CHECK(b.texels_per_row == (spectrum_side ? spec.n() / 2 + 1 : spec.n()));
        }
    }
    check_transform(spec, 1);  // the CPU model through the same views: the images change no address
  }
  // Four passes: a buffer kernel alternates output and scratch; an image holds no values between
  // passes, so scratch and a second scratch buffer alternate.
  auto four = image(spec_2d(8192, 4), fftgen::TextureFormat::rg32f);
  four.shared_memory_bytes = 2048;
  const fftgen::KernelProgram program = fftgen::make_program(four);
  REQUIRE(program.forward.size() == 4);
  std::vector<fftgen::BufferRole> written;
  for (const auto& pass : program.forward) written.push_back(pass.bindings[1].role);
  CHECK(written == std::vector<fftgen::BufferRole>{fftgen::BufferRole::scratch, fftgen::BufferRole::scratch2,
                                                   fftgen::BufferRole::scratch, fftgen::BufferRole::output});
  check_transform(four, 2);
}

TEST_CASE("pass_sync counters: every ticket is one item, and every wait is on earlier tickets", "[program][counters]") {
  struct Case {
    std::vector<uint32_t> items;
    uint32_t lag;
  };
  for (const Case& c : std::vector<Case>{{{8, 8}, 32}, {{16, 32}, 4}, {{3, 5, 7}, 2}, {{1, 1}, 1}, {{4, 2}, 7}})
    for (uint32_t batch : {1u, 2u, 5u, 33u, 100u}) {
      fftgen::CounterSchedule s;
      s.items = c.items;
      s.lag = c.lag;
      INFO("items " << c.items.size() << " passes, lag " << c.lag << ", batch " << batch);
      const uint64_t total = s.items_per_transform() * batch;
      CHECK(s.tickets_before(0, batch) == 0);
      CHECK(s.tickets_before(s.rounds(batch), batch) == total);
      // Where every pass has work, a round holds one transform's worth of tickets (the shader's
      // shortcut to the round of a ticket).
      for (uint64_t r = uint64_t{s.passes() - 1} * s.lag; r < batch; ++r)
        CHECK(s.tickets_before(r + 1, batch) - s.tickets_before(r, batch) == s.items_per_transform());
      // First and last ticket of each (pass, transform), and every item exactly once.
      std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>> span;
      std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
      for (uint64_t t = 0; t < total; ++t) {
        const auto item = s.item(t, batch);
        REQUIRE(item.pass < s.passes());
        REQUIRE(item.transform < batch);
        REQUIRE(item.index < s.items[item.pass]);
        CHECK(seen.insert({item.pass, item.transform, item.index}).second);
        auto [it, fresh] = span.try_emplace({item.pass, item.transform}, t, t);
        if (!fresh) it->second.second = t;
      }
      CHECK(seen.size() == total);
      // An item of pass p waits for pass p - 1 over its transform: all of it has earlier tickets.
      for (const auto& [key, range] : span)
        if (key.first > 0) CHECK(span.at({key.first - 1, key.second}).second < range.first);
      CHECK_THROWS_AS(s.item(total, batch), std::logic_error);
    }
}

TEST_CASE("pass_sync: auto takes counters where measured faster, and their passes bind buffers by role",
          "[program][counters]") {
  using fftgen::BufferRole;
  using fftgen::PassSync;
  const auto program = fftgen::make_program(spec_for(32768));
  REQUIRE(program.forward_counters);
  REQUIRE(program.inverse_counters);
  const fftgen::CounterSchedule& s = *program.forward_counters;
  CHECK(s.passes() == 2);
  CHECK(s.lag == 32);  // 8 MiB of 256 KiB transforms
  CHECK(program.dispatches(fftgen::Direction::forward) == 1);
  // One workgroup size; each pass's share of the dispatch is its workgroups per transform.
  const auto& passes = program.forward;
  CHECK(passes[0].fft.workgroup_size == passes[1].fft.workgroup_size);
  for (size_t p = 0; p < passes.size(); ++p)
    CHECK(uint64_t{s.items[p]} * passes[p].fft.entries_per_workgroup() ==
          uint64_t{passes[p].batch_scale} * passes[p].fft.columns_per_transform);
  // The interface: each role once, at its own slot; the second pass reads the output where the first wrote it.
  std::map<uint32_t, BufferRole> slots;
  for (const auto& b : s.bindings) CHECK(slots.emplace(b.slot.binding, b.role).second);
  CHECK(slots == std::map<uint32_t, BufferRole>{{0, BufferRole::input}, {1, BufferRole::output},
                                                {2, BufferRole::twiddles}, {7, BufferRole::sync}});
  CHECK(passes[1].load.view.binding.role == BufferRole::output);
  CHECK(passes[1].load.view.binding.slot.binding == 1);
  CHECK(passes[0].store.view.binding.slot.binding == 1);
  CHECK(s.counters(5) == 1 + 5);

  auto with = [](KernelSpec spec, auto change) {
    change(spec);
    return fftgen::make_program(spec);
  };
  // Where auto keeps a dispatch per pass: a plan for Metal, fp16, c2c 2^19 points (its passes'
  // workgroup sizes differ, and the larger does not fit), 131072 and from 2^20 (measured slower on an
  // H200), r2c out of place, in place c2c beyond 32768 and r2c beyond 2^18, one pass.
  CHECK_FALSE(with(spec_for(32768), [](KernelSpec& k) { k.targets_metal = true; }).forward_counters);
  CHECK_FALSE(with(spec_for(32768), [](KernelSpec& k) { k.pass_sync = PassSync::dispatch; }).forward_counters);
  CHECK_FALSE(with(spec_for(32768), [](KernelSpec& k) { k.precision = fftgen::Precision::fp16; }).forward_counters);
  CHECK_FALSE(fftgen::make_program(spec_for(524288)).forward_counters);
  CHECK_FALSE(fftgen::make_program(spec_for(4096)).forward_counters);
  CHECK(fftgen::make_program(spec_for(262144)).forward_counters);
  CHECK_FALSE(fftgen::make_program(spec_for(131072)).forward_counters);
  CHECK_FALSE(fftgen::make_program(spec_for(1u << 20)).forward_counters);
  CHECK_FALSE(fftgen::make_program(spec_for(1u << 21)).forward_counters);
  auto r2c = [](KernelSpec& k) { k.transform = fftgen::Transform::r2c; };
  auto in_place = [](KernelSpec& k) { k.placement = fftgen::Placement::in_place; };
  auto r2c_in_place = [&](KernelSpec& k) { r2c(k), in_place(k); };
  CHECK(with(spec_for(32768), in_place).forward_counters);
  CHECK_FALSE(with(spec_for(65536), in_place).forward_counters);
  CHECK_FALSE(with(spec_for(65536), r2c).forward_counters);
  CHECK_FALSE(with(spec_for(262144), r2c).forward_counters);
  CHECK_FALSE(with(spec_for(65536), r2c_in_place).forward_counters);
  CHECK(with(spec_for(262144), r2c_in_place).forward_counters);
  CHECK_FALSE(with(spec_for(524288), r2c_in_place).forward_counters);
  CHECK(fftgen::make_program(spec_2d(256, 256)).forward_counters);
  // 2^17 points: the passes exchange in both forms (complex, split) and share one array, the
  // larger of theirs, so the dispatch fits 32 KB. 2D 512² fits too but keeps a dispatch per pass
  // (slower at the small batches of ocean grids).
  const auto mixed = with(spec_for(131072), [](KernelSpec& k) { k.pass_sync = PassSync::counters; });
  REQUIRE(mixed.forward_counters);
  uint32_t complex_bytes = 0, split_bytes = 0;
  for (const auto& pass : mixed.forward)
    (pass.fft.shared.split ? split_bytes : complex_bytes) =
        std::max(pass.fft.shared.split ? split_bytes : complex_bytes, pass.fft.shared_bytes());
  REQUIRE(complex_bytes > 0);
  REQUIRE(split_bytes > 0);
  CHECK(complex_bytes + split_bytes + fftgen::CounterSchedule::kSharedBytes > 32768);
  CHECK(mixed.forward_counters->shared_bytes ==
        std::max(complex_bytes, (split_bytes + 7) / 8 * 8) + fftgen::CounterSchedule::kSharedBytes);
  CHECK(mixed.forward_counters->shared_bytes <= 32768);
  CHECK_FALSE(fftgen::make_program(spec_2d(512, 512)).forward_counters);
  // C2C 839808 = 1296 x 648 on 324 and 288 invocations: at 324 for both, the wide passes of auto
  // are not taken and it splits into three; auto keeps its two passes in a dispatch each.
  const auto wide = fftgen::make_program(spec_for(839808));
  CHECK_FALSE(wide.forward_counters);
  CHECK(wide.forward.size() == 2);
  // 186624 = 432 x 432, both on 144: one dispatch (419904 = 648 x 648 too, until measured slower above
  // 2^18 points on an H200).
  const auto even = fftgen::make_program(spec_for(186624));
  REQUIRE(even.forward_counters);
  CHECK(even.forward_counters->passes() == 2);
  // Asked for where it cannot run: a plan error naming the field and the reason.
  auto asked = [&](KernelSpec spec) {
    spec.pass_sync = PassSync::counters;
    return spec;
  };
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(fftgen::make_program(asked(spec_for(4096))), Contains("'pass_sync'") && Contains("one pass"));
  auto metal = asked(spec_for(32768));
  metal.targets_metal = true;
  CHECK_THROWS_WITH(fftgen::make_program(metal), Contains("'pass_sync'") && Contains("Metal"));
  CHECK_THROWS_WITH(fftgen::make_program(asked(spec_2d(64, 256, fftgen::Transform::r2c))),
                    Contains("'pass_sync'") && Contains("do not divide into whole transforms"));
  auto grid = asked(spec_2d(512, 512));
  CHECK(fftgen::make_program(grid).forward_counters);
  // An explicit lag is kept.
  auto lagged = asked(spec_for(65536));
  lagged.counter_lag = 3;
  CHECK(fftgen::make_program(lagged).forward_counters->lag == 3);
}

TEST_CASE("pass_sync counters: the passes bound by role compute the transform (CPU execution)",
          "[layout][counters]") {
  using fftgen::PassSync;
  auto counters = [](KernelSpec spec) {
    spec.pass_sync = PassSync::counters;
    REQUIRE(fftgen::make_program(spec).forward_counters);
    return spec;
  };
  check_transform(counters(spec_for(32768)), 2);
  auto r2c = spec_for(65536);
  r2c.transform = fftgen::Transform::r2c;
  check_transform(counters(r2c), 2);
  check_transform(counters(spec_2d(256, 256)), 2);
  check_transform(counters(spec_for(131072)), 1);  // complex and split passes in one array
  // Column tiles: the row pass writes scratch, bound at its own slot.
  auto tiles = spec_2d(64, 256);
  tiles.intermediate_layout = fftgen::IntermediateLayout::column_tiles;
  const auto tiled = fftgen::make_program(counters(tiles));
  bool scratch = false;
  for (const auto& b : tiled.forward_counters->bindings)
    scratch = scratch || (b.role == fftgen::BufferRole::scratch && b.slot.binding == fftgen::kScratchSlot.binding);
  CHECK(scratch);
  check_transform(counters(tiles), 2);
}

TEST_CASE("passes of one invocation a row move their rows through shared memory", "[layout][program]") {
  using fftgen::PassProgram;
  auto passes_of = [](const KernelSpec& spec) {
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    std::vector<PassProgram> all = program.forward;
    all.insert(all.end(), program.inverse.begin(), program.inverse.end());
    return all;
  };
  // C2C 17: one radix-17 butterfly a row, 128 rows a workgroup of 19 slots each (odd).
  for (const PassProgram& pass : passes_of(spec_for(17))) {
    CHECK(pass.rows_through_shared);
    CHECK(pass.fft.threads_per_column == 1);
    CHECK(pass.fft.columns_per_workgroup == 128);
    CHECK(pass.fft.shared.slice == 19);
    CHECK(pass.fft.shared_bytes() == 128 * 19 * 8);
  }
  // C2C 31: 128 rows of 33 slots would take 33 KB; half as many rows fit 32 KB.
  for (const PassProgram& pass : passes_of(spec_for(31))) {
    CHECK(pass.rows_through_shared);
    CHECK(pass.fft.workgroup_size == 64);
    CHECK(pass.fft.shared_bytes() <= 32768);
  }
  CHECK(fftgen::make_program(spec_for(31)).layout.passes.front().workgroup_size == 64);
  // R2C 34 (the half-length 17, its half spectrum of 18 stored), both directions, in place too.
  KernelSpec real = spec_for(34);
  real.transform = fftgen::Transform::r2c;
  for (const PassProgram& pass : passes_of(real)) CHECK(pass.rows_through_shared);
  real.placement = fftgen::Placement::in_place;
  for (const PassProgram& pass : passes_of(real)) CHECK(pass.rows_through_shared);
  // Not: passes of several invocations a row, fp16 and fp64 rows, the reals of an odd r2c.
  for (const PassProgram& pass : passes_of(spec_for(1024))) CHECK_FALSE(pass.rows_through_shared);
  KernelSpec half = spec_for(17);
  half.precision = fftgen::Precision::fp16;
  for (const PassProgram& pass : passes_of(half)) CHECK_FALSE(pass.rows_through_shared);
  KernelSpec odd = spec_for(17);
  odd.transform = fftgen::Transform::r2c;
  for (const PassProgram& pass : passes_of(odd)) CHECK_FALSE(pass.rows_through_shared);
}
