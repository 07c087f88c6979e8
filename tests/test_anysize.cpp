// Lengths that are not powers of two (mixed radices), checked without a GPU: the plan accepts
// every length whose prime factors are at most kMaxPrimeFactor (61) and refuses the others with a
// reason where Bluestein's algorithm cannot take them, `auto`
// factors each into codelets, every layout keeps its invariants, and executing the passes on the
// CPU (tests/cpu_model.hpp: the views, stages and twiddle table the shaders use) gives the DFT.
#include <catch2/catch.hpp>

#include <complex>
#include <random>
#include <tuple>

#include "fftgen/divisor.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

#include "cpu_numerics.hpp"

using cd = std::complex<double>;
using fftgen::KernelSpec;
using fftgen::Transform;

using fftgen_test::check_numerics;

namespace {

KernelSpec spec_for(uint32_t n, std::vector<uint32_t> radices = {}) {
  KernelSpec s;
  s.name = "k" + std::to_string(n);
  s.plan_name = s.name;
  s.shape = {n};
  s.radices = std::move(radices);
  return s;
}

bool mixed_radix_length(uint32_t n) { return fftgen::largest_prime_factor(n) <= fftgen::kMaxPrimeFactor; }

// The invariants every layout keeps (layout.hpp), at the budget of `spec`.
void check_layout(const KernelSpec& spec) {
  const fftgen::KernelLayout layout = fftgen::make_layout(spec);
  INFO("N = " << spec.n() << ", radices " << fmt::format("{}", fmt::join(layout.radices, "x")));
  uint64_t product = 1;
  for (uint32_t r : layout.radices) {
    product *= r;
    CHECK(std::find(std::begin(fftgen::kSupportedRadices), std::end(fftgen::kSupportedRadices), r) !=
          std::end(fftgen::kSupportedRadices));
  }
  CHECK(product == spec.n());
  uint64_t stride = 1;
  for (const auto& pass : layout.passes) {
    CHECK(pass.stride == stride);
    // Registers: at most radix 64's butterfly an invocation (a prime stage holds p <= 61 values).
    CHECK(pass.elems_per_thread <= 64);
    CHECK(pass.workgroup_size <= 1024);
    CHECK(pass.workgroup_size == pass.columns_per_workgroup * pass.threads_per_column);
    CHECK(pass.shared_bytes() <= spec.shared_memory_bytes);
    // The transposed store writes the workgroup's columns as one run of one transform.
    if (pass.transposed_store()) CHECK(pass.columns_per_transform % pass.columns_per_workgroup == 0);
    for (const auto& stage : pass.stages) {
      // Every butterfly of every stage belongs to exactly one invocation, and its values fit.
      const uint32_t p = pass.butterflies_per_invocation(stage);
      CHECK(uint64_t{p} * pass.threads_per_column >= pass.size / stage.radix);
      CHECK(uint64_t{p - 1} * pass.threads_per_column < pass.size / stage.radix);
      CHECK(p * stage.radix <= pass.elems_per_thread);
    }
    stride *= pass.size;
  }
}

}  // namespace

TEST_CASE("every length from 2 to 4096 with prime factors up to 61 gets a valid layout", "[anysize]") {
  for (uint32_t n = 2; n <= 4096; ++n)
    if (mixed_radix_length(n)) check_layout(spec_for(n));
}

TEST_CASE("long lengths with prime factors up to 61 take several passes", "[anysize]") {
  // 44100 = 2^2 3^2 5^2 7^2, 3^15, 13^6, 10^6, 2^22 * 3, 5^10, 2^13 * 3, 61^4, 17 * 61 * 1000.
  for (uint32_t n : {44100u, 14348907u, 4826809u, 1000000u, 12582912u, 9765625u, 24576u, 13845841u, 1037000u}) {
    INFO("N = " << n);
    const KernelSpec spec = spec_for(n);
    check_layout(spec);
    CHECK(fftgen::make_layout(spec).passes.size() >= 2);
  }
}

// Every exchange of a pass in rounds, replayed slot by slot: in round k, the slots the writes of
// stage s fill (butterfly jj = q + i*T's output r at (jj div Ns)*Ns*R + jj mod Ns + r*Ns) are
// exactly the slots the reads of stage s + 1 take (PassLayout::value_place), every one in slice k.
void check_rounds(const fftgen::PassLayout& pass) {
  const uint32_t m = pass.size, t = pass.threads_per_column, slice = pass.exchange_size();
  for (size_t s = 0; s + 1 < pass.stages.size(); ++s) {
    const fftgen::StageLayout &stage = pass.stages[s], &next = pass.stages[s + 1];
    std::vector<std::vector<uint32_t>> written(pass.exchange_rounds()), read(pass.exchange_rounds());
    for (uint32_t q = 0; q < t; ++q) {
      for (uint32_t i = 0; i < pass.butterflies_per_invocation(stage); ++i) {
        const uint32_t jj = q + i * t;
        if (jj >= m / stage.radix) continue;
        const uint32_t base = jj / stage.stride * stage.stride * stage.radix + jj % stage.stride;
        for (uint32_t r = 0; r < stage.radix; ++r) written[jj / (slice / stage.radix)].push_back(base + r * stage.stride);
      }
      for (uint32_t e = 0; e < pass.butterflies_per_invocation(next) * next.radix; ++e) {
        const fftgen::PassLayout::ValuePlace at = pass.value_place(next, e);
        if (!at.guarded || q + at.guard < m / next.radix) read[at.offset / slice].push_back(q + at.offset);
      }
    }
    for (uint32_t k = 0; k < pass.exchange_rounds(); ++k) {
      INFO("exchange " << s << ", round " << k);
      std::sort(written[k].begin(), written[k].end());
      std::sort(read[k].begin(), read[k].end());
      REQUIRE(written[k].size() == slice);
      CHECK(written[k].front() == k * slice);
      CHECK(written[k].back() == (k + 1) * slice - 1);
      CHECK(std::adjacent_find(written[k].begin(), written[k].end()) == written[k].end());
      CHECK(read[k] == written[k]);
    }
  }
}

TEST_CASE("lengths from 8193 to 16384 beyond the split exchange take one pass exchanged in rounds", "[anysize]") {
  // 32 KB holds 4096 complex values (8192 with the split exchange): longer lengths keep their values
  // in registers (at most 32 an invocation) and exchange them in rounds of at most 4096 slots.
  for (uint32_t n : {8400u, 9000u, 10000u, 11025u, 12096u, 13122u, 15625u, 16200u}) {
    INFO("N = " << n);
    const KernelSpec spec = spec_for(n);
    check_layout(spec);
    const fftgen::KernelLayout layout = fftgen::make_layout(spec);
    REQUIRE(layout.passes.size() == 1);
    const fftgen::PassLayout& pass = layout.passes.front();
    CHECK(pass.exchange_rounds() >= 2);
    CHECK(pass.exchange_size() * 8 <= spec.shared_memory_bytes);
    CHECK(pass.elems_per_thread <= 32);
    CHECK(pass.threads_per_column * pass.elems_per_thread <= 16384);
    check_rounds(pass);
  }
  // Lengths with no such split (every order of their codelets leaves a read across two slices, or
  // would need more values an invocation) keep two passes.
  CHECK(fftgen::make_layout(spec_for(12600)).passes.size() == 2);
  // The rounds of powers of two replay alike.
  check_rounds(fftgen::make_layout(spec_for(16384)).passes.front());
}

TEST_CASE("2D Y sides that are not powers of two take 16 columns exchanged in rounds where they fit", "[anysize]") {
  // 4 columns fit the plain exchange; 16 (128-byte runs) fit in rounds of a slice each.
  for (auto [ny, nx, transform] : {std::tuple{960u, 540u, Transform::c2c}, std::tuple{768u, 1024u, Transform::r2c},
                                   std::tuple{600u, 800u, Transform::c2c}}) {
    INFO(ny << " x " << nx);
    KernelSpec spec = spec_for(nx);
    spec.shape = {ny, nx};
    spec.transform = transform;
    const fftgen::KernelLayout layout = fftgen::make_layout(spec);
    const fftgen::PassLayout& y = layout.passes.back();
    REQUIRE(y.size == ny);
    CHECK(y.columns_per_workgroup == 16);
    CHECK(y.exchange_rounds() >= 2);
    CHECK(y.stages.back().radix % y.exchange_rounds() == 0);
    check_rounds(y);
  }
  // Where only 8 would fit (1000, 1200: measured slower than 4 plain), the plain exchange stays.
  for (uint32_t ny : {1000u, 1200u}) {
    KernelSpec spec = spec_for(1000);
    spec.shape = {ny, 1000};
    const fftgen::KernelLayout layout = fftgen::make_layout(spec);
    const fftgen::PassLayout& y = layout.passes.back();
    CHECK(y.columns_per_workgroup == 4);
    CHECK(y.exchange_rounds() == 1);
  }
}

TEST_CASE("auto factors lengths into few large codelets", "[anysize]") {
  CHECK(fftgen::auto_radices(1000, false) == std::vector<uint32_t>{10, 10, 10});
  CHECK(fftgen::auto_radices(1536, false) == std::vector<uint32_t>{16, 16, 6});
  CHECK(fftgen::auto_radices(4095, false) == std::vector<uint32_t>{13, 9, 7, 5});
  CHECK(fftgen::auto_radices(3, false) == std::vector<uint32_t>{3});
  // One-pass transforms of sizes measured on an H100 take the fastest split found there (the search
  // takes 15x8x8 and 15x9x8), unless the plan fixes the workgroup size; column passes search.
  CHECK(fftgen::make_layout(spec_for(960)).radices == std::vector<uint32_t>{16, 10, 6});
  CHECK(fftgen::make_layout(spec_for(1080)).radices == std::vector<uint32_t>{12, 9, 10});
  KernelSpec fixed = spec_for(960);
  fixed.workgroup_size = 64;
  CHECK(fftgen::make_layout(fixed).radices == std::vector<uint32_t>{15, 8, 8});
  CHECK(fftgen::auto_radices(1080, true) == std::vector<uint32_t>{15, 9, 8});
  // Powers of two keep their radices.
  CHECK(fftgen::auto_radices(1024, false) == std::vector<uint32_t>{16, 16, 4});
}

TEST_CASE("mixed-radix passes compute the DFT (CPU execution)", "[anysize]") {
  for (uint32_t n = 2; n <= 130; ++n)
    if (mixed_radix_length(n)) check_numerics(spec_for(n));
  for (uint32_t n : {1000u, 1536u, 4095u, 2197u, 1331u, 6561u, 7203u}) check_numerics(spec_for(n));
  // The measured row splits (single_pass_radices): largest radix neither first nor last, and E = 30.
  for (uint32_t n : {360u, 540u, 960u, 1080u, 1200u, 2160u}) check_numerics(spec_for(n));
  // Explicit splits, balanced and not.
  check_numerics(spec_for(1000, {8, 5, 5, 5}));
  check_numerics(spec_for(1000, {5, 8, 5, 5}));
  check_numerics(spec_for(360, {3, 12, 10}));
}

TEST_CASE("one-pass splits may run on balanced invocations: every stage's butterflies divide evenly", "[anysize]") {
  // C2C 7776: 12x12x9x6 on 216 invocations, 36 values each in every stage (the search's 16x9x9x6
  // on 486 leaves invocations idle in the radix-9 and radix-6 stages).
  const fftgen::PassLayout pass = fftgen::make_layout(spec_for(7776)).passes.at(0);
  CHECK(pass.stages.size() == 4);
  CHECK(fftgen::make_layout(spec_for(7776)).radices == std::vector<uint32_t>{12, 12, 9, 6});
  CHECK(pass.threads_per_column == 216);
  CHECK(pass.elems_per_thread == 36);
  // Every one-pass 1D length up to 8192 (largest prime at most 13): its invocations are either one
  // butterfly of the largest radix each (at most 1024), or a balanced count of at least 32 holding
  // at most 36 values; and the layout keeps its invariants.
  uint32_t balanced = 0;
  for (uint32_t n = 16; n <= 8192; ++n) {
    if (fftgen::largest_prime_factor(n) > 13) continue;
    const fftgen::KernelLayout layout = fftgen::make_layout(spec_for(n));
    if (layout.passes.size() != 1) continue;
    const fftgen::PassLayout& p = layout.passes[0];
    const uint32_t largest = *std::max_element(layout.radices.begin(), layout.radices.end());
    if (p.threads_per_column == std::min(n / largest, 1024u)) continue;
    INFO("N = " << n << ", radices " << fmt::format("{}", fmt::join(layout.radices, "x")) << " on "
                << p.threads_per_column);
    ++balanced;
    CHECK(p.threads_per_column >= 32);
    CHECK(p.elems_per_thread == n / p.threads_per_column);
    CHECK(p.elems_per_thread <= 36);
    for (uint32_t r : layout.radices) CHECK(n / r % p.threads_per_column == 0);
    check_layout(spec_for(n));
  }
  CHECK(balanced >= 9);  // 9 lengths since 1D rows aim for 128 invocations (10 or more at 256)
  // A plan's values per invocation keeps its own invocations (the fewest holding at most 16 values:
  // 864, one radix-9 butterfly each).
  KernelSpec fixed = spec_for(7776);
  fixed.values_per_invocation = 16;
  CHECK(fftgen::make_layout(fixed).passes.at(0).threads_per_column == 864);
  // They compute the DFT (CPU execution).
  for (uint32_t n : {7776u, 3600u, 6144u, 640u}) check_numerics(spec_for(n));
}

TEST_CASE("rows planned beyond 32 KB take the split they take within it (HLSL and MSL read one table)", "[anysize]") {
  // A kernel whose passes use more than 32 KB gets HLSL and MSL laid out within 32 KB, reading the
  // Vulkan kernel's twiddle table (generate.cpp, text_target_program): the cost model's split of
  // its rows must not depend on the budget where the plan targets them. 1D: every 13-smooth
  // one-pass length up to 8192, c2c and r2c; 2D and 3D: frames and volumes whose rows the model
  // splits (and which, for Vulkan's targets alone, it splits at their own budget: R2C 1080 x 1280).
  uint32_t beyond = 0;
  auto same_split = [&beyond](KernelSpec spec) {
    spec.targets_hlsl_msl = true;
    const fftgen::KernelLayout wide = fftgen::make_layout(spec);
    if (std::none_of(wide.passes.begin(), wide.passes.end(), [](const fftgen::PassLayout& p) {
          return p.shared_bytes() > fftgen::kTextTargetSharedBytes;
        }))
      return;  // HLSL and MSL are written from this layout
    ++beyond;
    spec.shared_memory_bytes = fftgen::kTextTargetSharedBytes;
    const fftgen::KernelLayout within = fftgen::make_layout(spec);
    INFO(spec.name << ", radices " << fmt::format("{}", fmt::join(wide.radices, "x")) << " and "
                   << fmt::format("{}", fmt::join(within.radices, "x")));
    CHECK(wide.passes.size() == within.passes.size());
    CHECK(wide.twiddles.values() == within.twiddles.values());
  };
  for (uint32_t budget : {49152u, 65536u}) {
    for (uint32_t n = 16; n <= 8192; ++n) {
      if (fftgen::largest_prime_factor(n) > 13) continue;
      for (Transform t : {Transform::c2c, Transform::r2c}) {
        KernelSpec spec = spec_for(n);
        spec.transform = t;
        spec.shared_memory_bytes = budget;
        if (t == Transform::c2c || n % 2 == 0) same_split(spec);
      }
    }
    for (std::vector<uint32_t> shape : std::vector<std::vector<uint32_t>>{
             {1024, 1024}, {1080, 1280}, {1440, 1024}, {720, 1600}, {16, 256, 512}, {8, 64, 1000}})
      for (Transform t : {Transform::c2c, Transform::r2c}) {
        KernelSpec spec = spec_for(1);
        spec.name = fmt::format("{}", fmt::join(shape, "x"));
        spec.shape = shape;
        spec.transform = t;
        spec.shared_memory_bytes = budget;
        same_split(spec);
      }
  }
  CHECK(beyond >= 300);
  KernelSpec vulkan = spec_for(1);
  vulkan.shape = {1080, 1280};
  vulkan.transform = Transform::r2c;
  vulkan.shared_memory_bytes = 49152;
  KernelSpec text = vulkan;
  text.targets_hlsl_msl = true;
  CHECK(fftgen::make_layout(vulkan).passes.at(0).stages.size() != fftgen::make_layout(text).passes.at(0).stages.size());
}

TEST_CASE("lengths with prime factors from 17 to 61 take prime stages, not Bluestein", "[anysize]") {
  // The stages each length takes, and lengths with a prime factor above 61 that stay with Bluestein.
  const std::pair<uint32_t, std::vector<uint32_t>> routes[] = {
      {17, {17}},          {61, {61}},         {34, {17, 2}},          {190, {19, 10}},
      {221, {17, 13}},     {323, {19, 17}},    {361, {19, 19}},        {1037, {61, 17}},
      {1110, {37, 15, 2}}, {3721, {61, 61}},   {2 * 5 * 19 * 7, {19, 10, 7}}};
  for (const auto& [n, radices] : routes) {
    INFO("N = " << n);
    const fftgen::KernelLayout layout = fftgen::make_layout(spec_for(n));
    CHECK(layout.bluestein_n == 0);
    CHECK(layout.radices == radices);
    check_layout(spec_for(n));
  }
  // 305 = 61 x 5: 6 invocations (one idle in the radix-61 stage) hold 61 values each, where the 5
  // that radix 61 needs would hold 13 radix-5 butterflies (65 values).
  const fftgen::PassLayout pass = fftgen::make_layout(spec_for(305)).passes.at(0);
  CHECK(pass.threads_per_column == 6);
  CHECK(pass.elems_per_thread == 61);
  for (uint32_t n : {67u, 4097u, 4087u, 2u * 5u * 71u}) {  // 4097 = 17 x 241, 4087 = 61 x 67
    INFO("N = " << n);
    CHECK(fftgen::make_layout(spec_for(n)).bluestein_n == n);
  }
  // 2D sides and r2c follow the same rule: a side of 19 or 34 is mixed radix, the half length of
  // an r2c of 2 x 61 = 122 is radix 61, and an odd 221 runs at full length without Bluestein.
  const fftgen::KernelLayout grid =
      fftgen::make_layout(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [34, 19]}]})").kernels.at(0));
  CHECK(!grid.sides_apart);
  CHECK(grid.radices == std::vector<uint32_t>{19, 17, 2});
  KernelSpec real = spec_for(122);
  real.transform = fftgen::Transform::r2c;
  CHECK(!fftgen::make_layout(real).real_full_length);
  CHECK(fftgen::make_layout(real).radices == std::vector<uint32_t>{61});
  real.shape = {221};
  CHECK(fftgen::make_layout(real).real_full_length);
  CHECK(fftgen::make_layout(real).bluestein_n == 0);
}

TEST_CASE("prime stages from 17 to 61 compute the DFT (CPU execution)", "[anysize]") {
  for (uint32_t n : {17u, 19u, 23u, 29u, 31u, 37u, 41u, 43u, 47u, 53u, 59u, 61u, 38u, 190u, 221u, 305u, 1037u, 1110u, 3721u})
    check_numerics(spec_for(n));
  // Prime stages in several passes (a small budget), and explicit prime radices.
  KernelSpec small = spec_for(17 * 61 * 4);
  small.shared_memory_bytes = 2048;
  REQUIRE(fftgen::make_layout(small).passes.size() >= 2);
  check_numerics(small);
  check_numerics(spec_for(190, {2, 5, 19}));
}

TEST_CASE("mixed-radix lengths in several passes compute the DFT (CPU execution)", "[anysize]") {
  // A small budget splits short transforms into passes: the column passes, their tiling and the
  // inter-pass twiddles of lengths that are not powers of two.
  for (uint32_t n : {840u, 1000u, 2310u, 1859u}) {
    KernelSpec spec = spec_for(n);
    spec.shared_memory_bytes = 2048;
    INFO("N = " << n);
    REQUIRE(fftgen::make_layout(spec).passes.size() >= 2);
    check_numerics(spec);
  }
  KernelSpec long_one = spec_for(44100);
  REQUIRE(fftgen::make_layout(long_one).passes.size() == 2);
}

// The layout of c2c N in two passes of these sizes, checked (invariants, and the DFT on the CPU).
fftgen::KernelLayout check_two_passes(uint32_t n, uint32_t first, uint32_t second) {
  INFO("N = " << n);
  const KernelSpec spec = spec_for(n);
  fftgen::KernelLayout layout = fftgen::make_layout(spec);
  REQUIRE(layout.passes.size() == 2);
  CHECK(layout.passes[0].size == first);
  CHECK(layout.passes[1].size == second);
  check_layout(spec);
  check_numerics(spec);
  return layout;
}

TEST_CASE("long lengths that are not powers of two take two passes of 4 columns on up to 512 invocations", "[anysize]") {
  // 688905 = 3^9 x 5 x 7: every split into two passes has one of 81 invocations a column (1215 =
  // 15x9x9, or 729 = 9x9x9), whose 4 columns need 324. At most 256 it took three passes (135, 81, 63).
  const fftgen::KernelLayout layout = check_two_passes(688905, 1215, 567);
  CHECK(layout.passes[0].columns_per_workgroup == 4);
  CHECK(layout.passes[0].workgroup_size == 324);
  // WebGPU's 256 invocations keep three.
  KernelSpec webgpu = spec_for(688905);
  webgpu.targets_webgpu = true;
  CHECK(fftgen::make_layout(webgpu).passes.size() == 3);
  // 2^7 x 3 x 5^5: 1200 x 1000 (75 and 100 invocations a column) where three passes took 120, 100, 100.
  const KernelSpec even = spec_for(1200000);
  REQUIRE(fftgen::make_layout(even).passes.size() == 2);
  check_layout(even);
}

TEST_CASE("two c2c passes: the most even split that fits, the larger at most twice the smaller", "[anysize]") {
  // 857500 = 2^2 5^4 7^3: the even split 980 x 875 does not fit (980 = 7x7x5x4, 140 invocations a
  // column); 1250 x 686 does.
  check_two_passes(857500, 1250, 686);
  // 1097600 = 2^7 5^2 7^3: the most even that fits, 1600 x 686, is less even: three passes.
  CHECK(fftgen::make_layout(spec_for(1097600)).passes.size() == 3);
  // An r2c keeps the even split: R2C 1741824 (its half 870912 = 972 x 896 would fit) takes three.
  KernelSpec real = spec_for(1741824);
  real.transform = fftgen::Transform::r2c;
  CHECK(fftgen::make_layout(real).passes.size() == 3);
}

TEST_CASE("a 2D side that is not a power of two takes one Y pass where 4 columns fit the split exchange",
          "[anysize][2d]") {
  // 1080 = 15x9x8 needs 72 invocations per column: 4 columns take 288 invocations (beyond the 256
  // aimed for) and 4 x 1081 split slots of 32 KB. One Y pass, not two (36 and 30).
  for (const char* transform : {"c2c", "r2c"}) {
    INFO(transform);
    const fftgen::KernelLayout layout = fftgen::make_layout(
        fftgen::parse_plan(fmt::format(R"({{"kernels": [{{"name": "k", "shape": [1080, 1920], "transform": "{}"}}]}})",
                                       transform))
            .kernels.at(0));
    REQUIRE(layout.passes.size() == 2);
    const fftgen::PassLayout& y = layout.passes[1];
    CHECK(y.size == 1080);
    CHECK(y.columns_per_workgroup == 4);
    CHECK(y.workgroup_size == 288);
    CHECK(y.shared.split);
    CHECK(y.shared.bytes() <= 32768);
  }
  // Its numbers are checked on the device: test_gpu_anysize runs 1080 x 6 (c2c and r2c), whose Y
  // pass is one such tile.
}

TEST_CASE("a 2D side that is not a power of two widens its Y tile to 8 columns on up to 512 invocations",
          "[anysize][2d]") {
  // 720 = 12x12x5 needs 60 invocations per column: 4 columns on the 256 aimed for left 32-byte runs;
  // 8 columns take 480 invocations and 8 x 721 split slots of 32 KB (measured faster on an H200:
  // layout.cpp, choose_tiling). 540 likewise: 36 invocations per column, 288 at 8 columns.
  for (const char* transform : {"c2c", "r2c"})
    for (auto [ny, nx, invocations] : std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>{{720, 1280, 480}, {540, 960, 288}}) {
      INFO(transform << " " << ny << " x " << nx);
      const fftgen::KernelLayout layout = fftgen::make_layout(
          fftgen::parse_plan(fmt::format(R"({{"kernels": [{{"name": "k", "shape": [{}, {}], "transform": "{}"}}]}})",
                                         ny, nx, transform))
              .kernels.at(0));
      REQUIRE(layout.passes.size() == 2);
      const fftgen::PassLayout& y = layout.passes[1];
      CHECK(y.columns_per_workgroup == 8);
      CHECK(y.workgroup_size == invocations);
      CHECK(y.exchange_rounds() == 1);
      CHECK(y.shared.bytes() <= 32768);
    }
  // Not beyond 512 invocations (1000 = 10x10x10: 8 columns would take 800) nor for WebGPU's 256.
  const auto y_columns = [](const char* plan) {
    return fftgen::make_layout(fftgen::parse_plan(plan).kernels.at(0)).passes.at(1).columns_per_workgroup;
  };
  CHECK(y_columns(R"({"kernels": [{"name": "k", "shape": [1000, 1000]}]})") == 4);
  CHECK(y_columns(R"({"targets": ["spirv", "wgsl"], "kernels": [{"name": "k", "shape": [720, 1280]}]})") < 8);
  // Its numbers: test_layout runs 720 x 16 and 540 x 16 on the CPU model, test_gpu_anysize the
  // same shapes (c2c and r2c, whose 9 columns leave a partial tile) on the device.
}

TEST_CASE("plans accept lengths with prime factors up to 61 and refuse others with a reason", "[anysize][plan]") {
  CHECK(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000]}]})").kernels.at(0).n() == 1000);
  CHECK(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1080, 1920]}]})").kernels.at(0).ny() == 1080);
  const auto plan = fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000], "radices": [8, 5, 5, 5]}]})");
  CHECK(plan.kernels.at(0).radices == std::vector<uint32_t>{8, 5, 5, 5});
  CHECK(fftgen::make_layout(plan.kernels.at(0)).radices == std::vector<uint32_t>{8, 5, 5, 5});
  // Any 1D length runs (Bluestein above 61); 2D sides and r2c_pair still need factors up to 61.
  CHECK(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [17000]}]})").kernels.at(0).n() == 17000);
  CHECK(fftgen::make_layout(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [64, 67]}]})").kernels.at(0))
            .sides_apart);
  // 2D r2c: a prime side through Bluestein (the X side as a complex transform of NX with real
  // load and half-spectrum store), odd NX too.
  CHECK(fftgen::make_layout(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [67, 64], "transform": "r2c"}]})")
                                .kernels.at(0))
            .sides_apart);
  CHECK(fftgen::make_layout(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [64, 134], "transform": "r2c"}]})")
                                .kernels.at(0))
            .columns == 68);
  CHECK(fftgen::make_layout(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [64, 17], "transform": "r2c"}]})")
                                .kernels.at(0))
            .sides_apart);
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [134], "transform": "r2c_pair"}]})"),
                    Catch::Contains("Bluestein") && Catch::Contains("1D c2c and r2c"));
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [134], "radices": [2, 67]}]})"),
                    Catch::Contains("radix 67 is not supported"));
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000], "radices": [8, 5, 25]}]})"),
                    Catch::Contains("radix 25 is not supported"));
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000], "radices": [8, 5, 5]}]})"),
                    Catch::Contains("multiply to 200"));
  CHECK(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [945], "transform": "r2c"}]})").kernels.size() == 1);
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [945], "transform": "r2c_pair"}]})"),
                    Catch::Contains("odd length"));
  // 2D r2c of odd NX: its rows run as complex transforms of NX (the sides program), 473 columns.
  CHECK(fftgen::make_layout(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [64, 945], "transform": "r2c"}]})")
                                .kernels.at(0))
            .columns == 473);
}

TEST_CASE("Bluestein: lengths with a prime factor above 61 compute the DFT (CPU execution)", "[anysize][bluestein]") {
  // One dispatch per direction (a round trip): FFT of M with the chirp on the way in, the filter
  // spectrum where each frequency lies, the inverse FFT of M, the chirp, the scale and the crop
  // to N on the way out; no scratch. Some of these M leave their values elsewhere than they took
  // them (unbalanced stages) and exchange them back before the inverse stages.
  uint32_t unbalanced = 0;
  for (uint32_t n : {67u, 71u, 134u, 97u, 201u, 283u, 1009u, 1031u, 4097u}) {
    INFO("N = " << n);
    const fftgen::KernelProgram program = fftgen::make_program(spec_for(n));
    CHECK(program.layout.bluestein_n == n);
    CHECK((program.layout.n == fftgen::bluestein_length(n) || program.layout.n == fftgen::smooth_bluestein_length(n)));
    CHECK(program.layout.n >= 2 * n - 2);
    REQUIRE(program.forward.size() == 1);
    CHECK(program.forward[0].round_trip);
    CHECK(program.forward[0].load.kind == fftgen::LoadKind::chirp);
    CHECK(program.forward[0].store.kind == fftgen::StoreKind::chirp_crop);
    CHECK(program.scratch_elements == 0);
    unbalanced += !program.layout.passes[0].balanced();
    check_numerics(spec_for(n));
  }
  CHECK(unbalanced > 0);
  // N = 2^j + 1 shares the slot of b[N - 1] between its two taps: M = 2N - 2, half of 2N - 1's.
  CHECK(fftgen::bluestein_length(17) == 32);
  CHECK(fftgen::bluestein_length(4097) == 8192);
  CHECK(fftgen::bluestein_length(4099) == 16384);
  KernelSpec ortho = spec_for(4097);
  ortho.normalize = fftgen::Normalize::ortho;
  ortho.twiddles = fftgen::TwiddleSource::computed;
  check_numerics(ortho);
  // The longest: N = 8192 - 1 needs M = 16384 (one register-resident dispatch each way).
  CHECK(fftgen::make_layout(spec_for(8191)).passes.size() == 1);
}

TEST_CASE("Bluestein takes a 7-smooth M well below the power of two where it is one round (CPU)", "[anysize][bluestein]") {
  // M = 2^a 3^b 5^c 7^d >= 2N - 2, at most 5/8 of the power of two, in one pass of one round each
  // way; 283 and 1031 (M = 567 = 3^4 x 7, 2100) have passes whose invocations hold different
  // numbers of values.
  for (uint32_t n : {67u, 131u, 283u, 1031u, 2111u}) {
    INFO("N = " << n);
    const fftgen::KernelLayout layout = fftgen::make_layout(spec_for(n));
    CHECK(layout.n == fftgen::smooth_bluestein_length(n));
    CHECK(layout.n * 8 <= fftgen::bluestein_length(n) * 5);
    REQUIRE(layout.passes.size() == 1);
    CHECK(layout.passes[0].exchange_rounds() == 1);
    check_numerics(spec_for(n));
  }
  CHECK(fftgen::smooth_bluestein_length(283) == 567);
  CHECK(fftgen::smooth_bluestein_length(1031) == 2100);
  // The power of two stays where the smooth M is close to it (251: 500 of 512; 1009: 2016 of 2048; 1511: 3024 of
  // 4096), exchanges in rounds (4099: 8232; 5003: 10080) or takes several passes (12289, 100003).
  for (uint32_t n : {251u, 1009u, 1511u, 4099u, 5003u, 12289u, 100003u})
    CHECK(fftgen::make_layout(spec_for(n)).n == fftgen::bluestein_length(n));
  // fp16 has no measured row: the power of two.
  KernelSpec half = spec_for(283);
  half.precision = fftgen::Precision::fp16;
  CHECK(fftgen::make_layout(half).n == 1024);
}

namespace {

// A full-length r2c kernel (odd N, Bluestein) on the CPU, batch 2: the forward transform of
// reals (N + 1 apart for odd N) against the reference's first N/2 + 1 values, and the inverse of
// that half spectrum against the reals, scaled as the plan asks.
void check_real_numerics(const KernelSpec& spec) {
  const fftgen::KernelProgram program = fftgen::make_program(spec);
  REQUIRE((program.layout.real_full_length || program.layout.bluestein_real_half));
  const uint32_t n = spec.n(), h = n / 2 + 1, dist = n + n % 2, batch = 2;
  std::mt19937 rng(n);
  std::normal_distribution<double> normal;
  std::vector<cd> reals(size_t{dist} * batch / 2), half(size_t{h} * batch);
  std::vector<std::vector<cd>> signals(batch);
  for (uint32_t b = 0; b < batch; ++b) {
    for (uint32_t i = 0; i < n; ++i) signals[b].push_back(normal(rng));
    for (uint32_t i = 0; i < n; ++i) {
      cd& pair = reals[(size_t{b} * dist + i) / 2];
      pair = i % 2 ? cd(pair.real(), signals[b][i].real()) : cd(signals[b][i].real(), pair.imag());
    }
    const std::vector<cd> spectrum = fftgen_test::reference_of(signals[b], -1);
    std::copy(spectrum.begin(), spectrum.begin() + h, half.begin() + size_t{b} * h);
  }
  const auto forward = fftgen_test::run_program(program, fftgen::Direction::forward, reals, batch);
  const auto inverse = fftgen_test::run_program(program, fftgen::Direction::inverse, half, batch);
  for (uint32_t b = 0; b < batch; ++b) {
    INFO("N = " << n << ", passes " << program.forward.size() << ", transform " << b);
    std::vector<cd> want(half.begin() + size_t{b} * h, half.begin() + size_t{b + 1} * h);
    for (cd& w : want) w *= fftgen::direction_scale(spec, fftgen::Direction::forward);
    CHECK(fftgen_test::rel_l2({forward.begin() + size_t{b} * h, forward.begin() + size_t{b + 1} * h}, want) < 1e-6);
    std::vector<cd> got, back;
    for (uint32_t i = 0; i < n; ++i) {
      const cd pair = inverse.at((size_t{b} * dist + i) / 2);
      got.push_back(i % 2 ? pair.imag() : pair.real());
      back.push_back(signals[b][i] * (double(n) * fftgen::direction_scale(spec, fftgen::Direction::inverse)));
    }
    CHECK(fftgen_test::rel_l2(got, back) < 1e-6);
    if (n % 2 != 0) CHECK(inverse.at((size_t{b} * dist + n) / 2).imag() == 0.0);  // the padding real
  }
}

KernelSpec real_spec(uint32_t n) {
  KernelSpec s = spec_for(n);
  s.transform = fftgen::Transform::r2c;
  return s;
}

}  // namespace

TEST_CASE("r2c of odd N and large primes runs as a full-length transform (CPU)", "[anysize][r2c]") {
  for (uint32_t n : {3u, 15u, 21u, 1001u, 4095u}) check_real_numerics(real_spec(n));
  // Two passes with an odd length (a small budget), and Bluestein with a real load.
  KernelSpec small = real_spec(1155);
  small.shared_memory_bytes = 4096;
  REQUIRE(fftgen::make_layout(small).passes.size() == 2);
  check_real_numerics(small);
  // Three passes: the values between them alternate between the halves of a scratch of 2N.
  KernelSpec three = real_spec(1001);
  three.shared_memory_bytes = 2048;
  const fftgen::KernelProgram program = fftgen::make_program(three);
  REQUIRE(program.forward.size() == 3);
  CHECK(program.scratch_elements == 2 * 1001);
  CHECK(program.forward[1].load.view.base == 0);
  CHECK(program.forward[1].store.view.base == 1001);
  check_real_numerics(three);
  for (uint32_t n : {67u, 134u, 97u, 17u, 221u, 566u}) check_real_numerics(real_spec(n));
  // Every even length free of large primes keeps the half-length route, including those whose
  // half takes several passes that do not split evenly (44100: 22050 = 210 x 105; 31250: 125 x 125).
  for (uint32_t n : {1000u, 1536u, 4096u, 44100u, 31250u, 16400u})
    CHECK(!fftgen::make_layout(real_spec(n)).real_full_length);
}

TEST_CASE("r2c of even N with a prime above 61 in N/2 runs Bluestein on the half (CPU)", "[anysize][r2c][bluestein]") {
  // H = N/2 odd and even (268: Z[H/2] is its own partner), M in one pass and in two (16418: H =
  // 8209, M = 32768), each way: the separation after the forward's Bluestein passes, in place in
  // the output, and the merge before the inverse's, into the output.
  for (uint32_t n : {134u, 268u, 566u, 6002u, 16418u}) {
    INFO("N = " << n);
    const fftgen::KernelProgram program = fftgen::make_program(real_spec(n));
    const fftgen::KernelLayout& layout = program.layout;
    CHECK(layout.bluestein_real_half);
    CHECK(!layout.real_full_length);
    CHECK(layout.bluestein_n == n / 2);
    CHECK(layout.columns == n / 2 + 1);
    CHECK(program.forward.size() == (layout.passes.size() == 1 ? 2 : 2 * layout.passes.size() + 1));
    CHECK(program.forward.back().store.kind == fftgen::StoreKind::r2c);
    CHECK(program.forward.back().in_place());
    CHECK(program.forward.back().fft.mirror_tiles());
    CHECK(program.inverse.front().load.kind == fftgen::LoadKind::c2r);
    CHECK(program.inverse.front().bindings[1].role == fftgen::BufferRole::output);
    CHECK(program.inverse[1].load.kind == fftgen::LoadKind::chirp);
    check_real_numerics(real_spec(n));
  }
  // Computed twiddles (the separation's too), and a normalised kernel.
  KernelSpec computed = real_spec(566);
  computed.twiddles = fftgen::TwiddleSource::computed;
  check_real_numerics(computed);
  KernelSpec ortho = real_spec(6002);
  ortho.normalize = fftgen::Normalize::ortho;
  check_real_numerics(ortho);
  // Storage images: Z lies in scratch after the values between the passes (a pass cannot read
  // the image it writes), so the separation and the merge do not work in place.
  KernelSpec image = real_spec(566);
  image.io = fftgen::Io::image;
  const fftgen::KernelProgram textured = fftgen::make_program(image);
  CHECK(textured.layout.bluestein_real_half);
  const uint64_t between = 0;  // one pass of M: a round trip, nothing between its transforms
  CHECK(textured.scratch_elements == between + 283);
  CHECK(textured.forward.back().bindings[0].role == fftgen::BufferRole::scratch);
  CHECK(textured.forward.back().load.view.base == between);
  CHECK(textured.forward.back().bindings[1].is_texture());
  CHECK(textured.inverse.front().bindings[1].role == fftgen::BufferRole::scratch);
  CHECK(textured.inverse[1].load.view.base == between);
  KernelSpec image_long = real_spec(16418);  // M in two passes each way: 2M between them, then Z
  image_long.io = fftgen::Io::image;
  const fftgen::KernelProgram textured_long = fftgen::make_program(image_long);
  CHECK(textured_long.scratch_elements == 2 * textured_long.layout.n + 8209);
  CHECK(textured_long.forward.back().load.view.base == 2 * textured_long.layout.n);
  // fp16 keeps the full-length route, refused as before.
  KernelSpec half = real_spec(566);
  half.precision = fftgen::Precision::fp16;
  CHECK_THROWS_AS(fftgen::make_layout(half), fftgen::PlanError);
}

TEST_CASE("Bluestein beyond one dispatch: the transforms of M take several passes (CPU)", "[anysize][bluestein]") {
  // N = 8209 (prime) needs M = 32768: two passes each way, the chirp load of a column pass, the
  // filter product and the crop in the last column passes, the halves of scratch between.
  for (uint32_t n : {8209u}) {
    KernelSpec spec = spec_for(n);
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    INFO("N = " << n);
    REQUIRE(program.layout.passes.size() >= 2);
    CHECK(program.forward.size() == 2 * program.layout.passes.size());
    CHECK(program.scratch_elements == 2 * uint64_t{program.layout.n});
    // One spectrum in the table: the inverse kernel reads it conjugated.
    CHECK(program.layout.spectrum_offset[1] == program.layout.spectrum_offset[0]);
    CHECK(program.inverse.at(program.layout.passes.size() - 1).chirp.conjugate_spectrum);
    check_numerics(spec);
    spec.transform = fftgen::Transform::r2c;
    check_real_numerics(spec);
  }
  // One-dispatch kernels keep both spectra (their kernels are unchanged).
  const fftgen::KernelLayout one = fftgen::make_layout(spec_for(4097));
  CHECK(one.spectrum_offset[1] == one.spectrum_offset[0] + one.n);
  // Long lengths plan: N = 10^5 + 3 (prime) needs M = 2^18, 2^24 - 3 needs M = 2^25.
  CHECK(fftgen::make_layout(spec_for(100003)).passes.size() >= 2);
  CHECK(fftgen::make_layout(spec_for(16777213)).n == (1u << 25));
}

TEST_CASE("a 2D or 3D side through Bluestein takes a 7-smooth M at most 5/8 of the power of two (smooth_bluestein_side)",
          "[anysize][bluestein]") {
  const auto layout_of = [](const std::string& fields) {
    const KernelSpec spec =
        fftgen::parse_plan(fmt::format(R"({{"kernels": [{{"name": "k", {}}}]}})", fields)).kernels.at(0);
    return fftgen::make_layout(spec);
  };
  // The length of the passes along `axis`, all of one transform of M: their sizes multiply to it.
  const auto axis_length = [](const fftgen::KernelLayout& layout, uint32_t axis) {
    uint64_t m = 0;
    for (const auto& pass : layout.passes)
      if (pass.axis == axis) m = pass.length;
    return m;
  };
  // 131: 2N - 2 = 260, 270 = 2 * 3^3 * 5 against 512; 67: 135 against 256; 1031: 2100 against 4096.
  const fftgen::KernelLayout frame = layout_of(R"("shape": [1031, 131])");
  CHECK(frame.chirp_sides[0].n == 131);
  CHECK(axis_length(frame, 0) == 270);
  CHECK(axis_length(frame, 1) == 2100);
  const fftgen::KernelLayout volume = layout_of(R"("shape": [67, 8, 12], "transform": "r2c")");
  CHECK(volume.chirp_sides[2].n == 67);
  CHECK(axis_length(volume, 2) == 135);
  CHECK(axis_length(volume, 0) == 12);  // an even NX without Bluestein: its complex transform of NX
  // Above 5/8 the power of two stays (97: 192 of 256, 101: 200 of 256), and so does fp64 (not measured).
  const fftgen::KernelLayout near = layout_of(R"("shape": [97, 101])");
  CHECK(axis_length(near, 0) == 256);
  CHECK(axis_length(near, 1) == 256);
  const KernelSpec fp64 = fftgen::parse_plan(R"({"targets": ["spirv"], "kernels": [{"name": "k", "shape": [67, 131],
                                                   "precision": "fp64"}]})").kernels.at(0);
  CHECK(axis_length(fftgen::make_layout(fp64), 0) == 512);
}

TEST_CASE("Bluestein of several passes takes 16 KB where its passes keep their shape (chirp_budget)", "[anysize][bluestein]") {
  const auto kernel = [](const std::string& fields) {
    return fftgen::parse_plan(fmt::format(R"({{"kernels": [{{"name": "k", {}}}]}})", fields)).kernels.at(0);
  };
  // M = 32768 and 65536: two passes of 256 or 128 points in tiles of 16 columns, c2c and r2c (Bluestein
  // on the half), whose exchanges then go in two rounds.
  for (const char* fields : {R"("shape": [8209])", R"("shape": [13733])", R"("shape": [30011])",
                             R"("shape": [21992], "transform": "r2c")"}) {
    INFO(fields);
    const KernelSpec spec = kernel(fields);
    CHECK(spec.shared_memory_bytes == 16384u);
    KernelSpec wide = spec;
    wide.shared_memory_bytes = 32768;
    const fftgen::KernelLayout at = fftgen::make_layout(spec), before = fftgen::make_layout(wide);
    REQUIRE(at.passes.size() == before.passes.size());
    CHECK(at.bluestein_n != 0);
    for (size_t p = 0; p < at.passes.size(); ++p) {
      CHECK(at.passes[p].size == before.passes[p].size);
      CHECK(at.passes[p].columns_per_workgroup == before.passes[p].columns_per_workgroup);
    }
  }
  // Not a one-pass M (4099: 16384), passes of 512 points (50021: M = 131072), fp16, the full-length
  // r2c of an odd N (not measured), 2D sides, a length without Bluestein, nor a budget the plan gives.
  CHECK(kernel(R"("shape": [4099])").shared_memory_bytes == 32768u);
  CHECK(kernel(R"("shape": [50021])").shared_memory_bytes == 32768u);
  CHECK(kernel(R"("shape": [8209], "precision": "fp16")").shared_memory_bytes == 32768u);
  CHECK(kernel(R"("shape": [8209], "transform": "r2c")").shared_memory_bytes == 32768u);  // full length: odd N
  CHECK(kernel(R"("shape": [4099, 4])").shared_memory_bytes == 32768u);
  CHECK(kernel(R"("shape": [32768])").shared_memory_bytes == 32768u);
  CHECK(kernel(R"("shape": [8209], "shared_memory_bytes": 32768)").shared_memory_bytes == 32768u);
  // The kernels at 16 KB compute the DFT (CPU execution): c2c 8209, and r2c 16418 (Bluestein on the half).
  KernelSpec spec = spec_for(8209);
  spec.shared_memory_bytes = 16384;
  check_numerics(spec);
  KernelSpec real = spec_for(16418);
  real.transform = fftgen::Transform::r2c;
  real.shared_memory_bytes = 16384;
  REQUIRE(fftgen::make_layout(real).bluestein_real_half);
  check_real_numerics(real);
}

TEST_CASE("Bluestein in fp16: half floats in and out, the chirp products in float scratch", "[anysize][bluestein]") {
  // 1D c2c in one dispatch each way (1009) and in several (100003), and 2D sides (97 x 101).
  for (const std::vector<uint32_t>& shape : {std::vector<uint32_t>{1009}, {100003}, {97, 101}}) {
    KernelSpec spec = spec_for(shape.back());
    spec.shape = shape;
    spec.precision = fftgen::Precision::fp16;
    INFO("shape " << fmt::format("{}", fmt::join(shape, " x ")));
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    CHECK((program.layout.bluestein_n != 0 || program.layout.sides_apart));
    CHECK(program.forward_input.element == fftgen::ElementType::complex32);
    CHECK(program.forward_output.element == fftgen::ElementType::complex32);
    for (const auto* passes : {&program.forward, &program.inverse})
      for (const fftgen::PassProgram& pass : *passes)
        for (const fftgen::PassBinding& b : pass.bindings) {
          INFO(pass.name << " binding " << b.slot.binding);
          if (b.role == fftgen::BufferRole::scratch) CHECK(b.element == fftgen::ElementType::complex64);
          if (b.role == fftgen::BufferRole::input || b.role == fftgen::BufferRole::output)
            CHECK(b.element == fftgen::ElementType::complex32);
          // Computed twiddles (fp16's default): a pass binds the table only where it reads the chirp.
          if (b.role == fftgen::BufferRole::twiddles && spec.is_2d() == false)
            CHECK((pass.load.kind == fftgen::LoadKind::chirp || pass.store.kind == fftgen::StoreKind::chirp_filter ||
                   pass.store.kind == fftgen::StoreKind::chirp_crop));
        }
    if (shape.size() == 1 && shape[0] < 10000) check_numerics(spec);
  }
  // fp16 2D sides scale each side by its share of 1/N (the values between them are half floats).
  KernelSpec sides = spec_for(101);
  sides.shape = {97, 101};
  sides.precision = fftgen::Precision::fp16;
  const fftgen::KernelProgram program = fftgen::make_program(sides);
  double scale = 1;
  for (const fftgen::PassProgram& pass : program.inverse) scale *= pass.store.scale;
  CHECK(scale == Approx(1.0 / (97 * 101)));
  CHECK(program.inverse.back().store.scale > 1.0 / (97 * 101) * 1.5);
  // What stays refused: reals stored one half float at a time.
  KernelSpec odd = spec_for(1009);
  odd.transform = fftgen::Transform::r2c;
  odd.precision = fftgen::Precision::fp16;
  CHECK_THROWS_WITH(fftgen::make_layout(odd), Catch::Contains("field 'precision'") && Catch::Contains("fp32 only"));
}

TEST_CASE("2D sides with a prime factor above 61 run through Bluestein (CPU execution)", "[anysize][bluestein]") {
  // [NY, NX]: X through Bluestein, Y through Bluestein (interleaved columns), both, and a Y of M =
  // 16384 in two passes; each against row then column transforms in double, batch 2. Sides with
  // prime factors up to 61 (19 x 23, 6 x 5) take mixed radices.
  for (auto [ny, nx] : std::vector<std::pair<uint32_t, uint32_t>>{{8, 67}, {67, 8}, {71, 73}, {4, 8191}, {19, 23}, {6, 5}}) {
    KernelSpec spec = spec_for(nx);
    spec.shape = {ny, nx};
    spec.normalize = fftgen::Normalize::ortho;
    const fftgen::KernelProgram program = fftgen::make_program(spec);
    INFO("[" << ny << ", " << nx << "]");
    CHECK(program.layout.sides_apart == !(mixed_radix_length(nx) && mixed_radix_length(ny)));
    const uint32_t batch = 2, points = nx * ny;
    std::mt19937 rng(points);
    std::normal_distribution<double> normal;
    std::vector<cd> x(size_t{points} * batch);
    for (cd& v : x) v = {normal(rng), normal(rng)};
    for (auto dir : {fftgen::Direction::forward, fftgen::Direction::inverse}) {
      const auto got = fftgen_test::run_program(program, dir, x, batch);
      std::vector<cd> want = x;
      for (uint32_t b = 0; b < batch; ++b) {
        cd* t = want.data() + size_t{b} * points;
        for (uint32_t y = 0; y < ny; ++y) {
          std::vector<cd> row(t + size_t{y} * nx, t + size_t{y + 1} * nx);
          row = fftgen_test::reference_of(row, dir == fftgen::Direction::forward ? -1 : 1);
          std::copy(row.begin(), row.end(), t + size_t{y} * nx);
        }
        for (uint32_t c = 0; c < nx; ++c) {
          std::vector<cd> column(ny);
          for (uint32_t y = 0; y < ny; ++y) column[y] = t[size_t{y} * nx + c];
          column = fftgen_test::reference_of(column, dir == fftgen::Direction::forward ? -1 : 1);
          for (uint32_t y = 0; y < ny; ++y) t[size_t{y} * nx + c] = column[y] * fftgen::direction_scale(spec, dir);
        }
      }
      INFO(fftgen::to_string(dir));
      CHECK(fftgen_test::rel_l2({got.begin(), got.begin() + want.size()}, want) < 1e-6);
    }
  }
}

TEST_CASE("index division by any constant is exact in both index maths", "[anysize][divisor]") {
  // Every divisor a mixed-radix layout prints, against every index it can meet (and 32-bit edges).
  for (uint32_t d : {3u, 5u, 7u, 9u, 10u, 11u, 12u, 13u, 15u, 25u, 100u, 105u, 1000u, 1001u, 4095u, 44100u}) {
    const fftgen::Divisor div(d);
    CHECK(!div.power_of_two());
    for (uint32_t x = 0; x < 300000; ++x) REQUIRE(div.divide(x) == x / d);
    for (uint32_t x : {0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u, 0x7FFFFFFFu}) CHECK(div.divide(x) == x / d);
  }
  CHECK_THROWS_AS(fftgen::log2_exact(1000), std::logic_error);
}
