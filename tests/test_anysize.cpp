// Lengths that are not powers of two (mixed radices), checked without a GPU: the plan accepts
// every length whose prime factors are at most 13 and refuses the others with a reason, `auto`
// factors each into codelets, every layout keeps its invariants, and executing the passes on the
// CPU (tests/cpu_model.hpp: the views, stages and twiddle table the shaders use) gives the DFT.
#include <catch2/catch.hpp>

#include <complex>

#include "fftgen/divisor.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

#include "cpu_numerics.hpp"

using cd = std::complex<double>;
using fftgen::KernelSpec;

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

bool factors_within_13(uint32_t n) { return fftgen::largest_prime_factor(n) <= 13; }

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

TEST_CASE("every length from 2 to 4096 with prime factors up to 13 gets a valid layout", "[anysize]") {
  for (uint32_t n = 2; n <= 4096; ++n)
    if (factors_within_13(n)) check_layout(spec_for(n));
}

TEST_CASE("long lengths with prime factors up to 13 take several passes", "[anysize]") {
  // 44100 = 2^2 3^2 5^2 7^2, 3^15, 13^6, 10^6, 2^22 * 3, 5^10, 2^13 * 3.
  for (uint32_t n : {44100u, 14348907u, 4826809u, 1000000u, 12582912u, 9765625u, 24576u}) {
    INFO("N = " << n);
    const KernelSpec spec = spec_for(n);
    check_layout(spec);
    CHECK(fftgen::make_layout(spec).passes.size() >= 2);
  }
}

TEST_CASE("auto factors lengths into few large codelets", "[anysize]") {
  CHECK(fftgen::auto_radices(1000, false) == std::vector<uint32_t>{10, 10, 10});
  CHECK(fftgen::auto_radices(1536, false) == std::vector<uint32_t>{16, 16, 6});
  CHECK(fftgen::auto_radices(4095, false) == std::vector<uint32_t>{13, 9, 7, 5});
  CHECK(fftgen::auto_radices(3, false) == std::vector<uint32_t>{3});
  // Powers of two keep their radices.
  CHECK(fftgen::auto_radices(1024, false) == std::vector<uint32_t>{16, 16, 4});
}

TEST_CASE("mixed-radix passes compute the DFT (CPU execution)", "[anysize]") {
  for (uint32_t n = 2; n <= 130; ++n)
    if (factors_within_13(n)) check_numerics(spec_for(n));
  for (uint32_t n : {1000u, 1536u, 4095u, 2197u, 1331u, 6561u, 7203u}) check_numerics(spec_for(n));
  // Explicit splits, balanced and not.
  check_numerics(spec_for(1000, {8, 5, 5, 5}));
  check_numerics(spec_for(1000, {5, 8, 5, 5}));
  check_numerics(spec_for(360, {3, 12, 10}));
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

TEST_CASE("plans accept lengths with prime factors up to 13 and refuse others with a reason", "[anysize][plan]") {
  CHECK(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000]}]})").kernels.at(0).n() == 1000);
  CHECK(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1080, 1920]}]})").kernels.at(0).ny() == 1080);
  const auto plan = fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000], "radices": [8, 5, 5, 5]}]})");
  CHECK(plan.kernels.at(0).radices == std::vector<uint32_t>{8, 5, 5, 5});
  CHECK(fftgen::make_layout(plan.kernels.at(0)).radices == std::vector<uint32_t>{8, 5, 5, 5});
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1003]}]})"),
                    Catch::Contains("prime factor 59") && Catch::Contains("at most 13"));
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000], "radices": [8, 5, 25]}]})"),
                    Catch::Contains("radix 25 is not supported"));
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [1000], "radices": [8, 5, 5]}]})"),
                    Catch::Contains("multiply to 200"));
  CHECK_THROWS_WITH(fftgen::parse_plan(R"({"kernels": [{"name": "k", "shape": [945], "transform": "r2c"}]})"),
                    Catch::Contains("odd length"));
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
