// The planner's cost model (generator/plan/cost_model.cpp): the candidates it enumerates, the
// features it reads off a pass, each checked against a count done by hand here, and the splits the
// planner then takes for small lengths (bench/results/2026-11-29-h200-cost-model measured them).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "fftgen/cost_model.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/measured.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

using fftgen::KernelSpec;

namespace {

KernelSpec spec_for(uint32_t n, std::vector<uint32_t> radices = {}, fftgen::Transform t = fftgen::Transform::c2c) {
  KernelSpec s;
  s.name = "k" + std::to_string(n);
  s.plan_name = s.name;
  s.shape = {n};
  s.transform = t;
  s.radices = std::move(radices);
  return s;
}

fftgen::PassFeatures features_of(uint32_t n, std::vector<uint32_t> radices) {
  const fftgen::KernelLayout layout = fftgen::make_layout(spec_for(n, std::move(radices)));
  REQUIRE(layout.passes.size() == 1);
  return fftgen::pass_features(layout.passes[0], 8);
}

}  // namespace

TEST_CASE("radix_orders lists every order of the splits with the fewest stages, largest radices first", "[cost]") {
  const auto orders = fftgen::radix_orders(24, {2, 3, 4, 6, 8, 12, 16}, 0);
  // 24 in two stages: 12x2, 8x3, 6x4, each in both orders.
  const std::set<std::vector<uint32_t>> expected = {{12, 2}, {2, 12}, {8, 3}, {3, 8}, {6, 4}, {4, 6}};
  CHECK(std::set<std::vector<uint32_t>>(orders.begin(), orders.end()) == expected);
  CHECK(orders.size() == expected.size());
  CHECK(orders.front() == std::vector<uint32_t>{12, 2});
  // One stage more: 24 = 2x3x4 and 2x2x6 (and more) join, after the two-stage splits.
  const auto more = fftgen::radix_orders(24, {2, 3, 4, 6, 8, 12, 16}, 1);
  CHECK(more.size() > orders.size());
  CHECK(std::equal(orders.begin(), orders.end(), more.begin()));
  CHECK(std::find(more.begin(), more.end(), std::vector<uint32_t>{2, 3, 4}) != more.end());
  for (const auto& o : more) CHECK(o.size() <= 3);
}

TEST_CASE("pass_features counts what a pass wastes", "[cost]") {
  // 16 as one radix-16 stage: one invocation a transform, 8-byte runs: a quarter of each sector used.
  const fftgen::PassFeatures one = features_of(16, {16});
  CHECK(one.sector_waste == Approx(3.0));
  CHECK(one.stages == 1);
  CHECK(one.idle == Approx(0.0));
  // 4x4: four invocations a transform fill a 32-byte sector.
  const fftgen::PassFeatures two = features_of(16, {4, 4});
  CHECK(two.sector_waste == Approx(0.0));
  CHECK(two.stages == 2);
  // 24 = 6x4 on T = 4 invocations: the radix-4 stage has 6 butterflies, 2 per invocation for 8 slots
  // (idle 8/6 - 1), and as the last stage its store is guarded: uneven_store = 4 / T = 1.
  const fftgen::PassFeatures last_uneven = features_of(24, {6, 4});
  CHECK(last_uneven.idle == Approx(8.0 / 6 - 1));
  CHECK(last_uneven.uneven_store == Approx(1.0));
  // 4x6: the same stages, the uneven one first.
  const fftgen::PassFeatures first_uneven = features_of(24, {4, 6});
  CHECK(first_uneven.idle == Approx(8.0 / 6 - 1));
  CHECK(first_uneven.uneven_store == Approx(0.0));
  // 1050 = 15x10x7 takes 70 invocations a transform, one transform a workgroup (1D rows aim for 128
  // invocations): 3 warps, 96 lanes (lane_waste 26/70); no uneven_store term at T >= 32.
  const fftgen::PassFeatures wide = features_of(1050, {15, 10, 7});
  CHECK(wide.lane_waste == Approx(96.0 / 70 - 1));
  CHECK(wide.uneven_store == Approx(0.0));
}

TEST_CASE("the planner takes the modelled split where it predicts a gain beyond the margin", "[cost]") {
  auto radices = [](uint32_t n, fftgen::Transform t = fftgen::Transform::c2c) {
    return fftgen::make_layout(spec_for(n, {}, t)).passes.at(0).stages;
  };
  auto radix_list = [](const std::vector<fftgen::StageLayout>& stages) {
    std::vector<uint32_t> r;
    for (const auto& s : stages) r.push_back(s.radix);
    return r;
  };
  // Measured on an H200: 16 as 4x4 0.267 ms against 1.107 for radix 16; 24 as 4x6 0.294 against 0.371 for 6x4;
  // r2c 64 (32 complex points) as 8x4 0.349 against 0.603 for 16x2.
  CHECK(radix_list(radices(16)) == std::vector<uint32_t>{4, 4});
  CHECK(radix_list(radices(24)) == std::vector<uint32_t>{4, 6});
  CHECK(radix_list(radices(64, fftgen::Transform::r2c)) == std::vector<uint32_t>{8, 4});
  // Where no candidate is predicted 6% faster, the search's split stands (1000: 10x10x10, measured fastest).
  CHECK(radix_list(radices(1000)) == std::vector<uint32_t>{10, 10, 10});
  // An explicit workgroup size keeps the search's split (its invocations were chosen for it).
  KernelSpec fixed = spec_for(16);
  fixed.workgroup_size = 64;
  CHECK(radix_list(fftgen::make_layout(fixed).passes.at(0).stages) == std::vector<uint32_t>{16});
}

namespace {

std::vector<uint32_t> pass_sizes(const fftgen::KernelLayout& layout) {
  std::vector<uint32_t> sizes;
  for (const fftgen::PassLayout& pass : layout.passes) sizes.push_back(pass.size);
  return sizes;
}

}  // namespace

TEST_CASE("split_short_runs reads a pass's columns a workgroup as log2 of its row's bytes below 128", "[cost]") {
  fftgen::PassLayout pass;
  for (const auto& [columns, expected] : std::vector<std::pair<uint32_t, double>>{{1, -4}, {4, -2}, {8, -1}, {16, 0}, {32, 0}}) {
    pass.columns_per_workgroup = columns;
    CHECK(fftgen::split_short_runs(pass, 8) == Approx(expected));
  }
}

TEST_CASE("the split model ranks the two passes of a 1D r2c whose half is not a power of two", "[cost]") {
  // r2c 98000: its half 49000 splits evenly as 280 x 175 (the first pass in tiles of 8 columns, the
  // last in tiles of 8); measured on an H200, 490 x 100 ran 1.94x as fast (first pass in tiles of 4,
  // last in 16), which the model ranks first.
  const KernelSpec real = spec_for(98000, {}, fftgen::Transform::r2c);
  const fftgen::KernelLayout ranked = fftgen::make_layout(real);
  CHECK(ranked.ranked_split);
  CHECK(pass_sizes(ranked) == std::vector<uint32_t>{490, 100});
  const fftgen::SplitModel& model = fftgen::measured_split_model();
  auto cost = [&](const fftgen::KernelLayout& l) {
    return model.first_short_runs * fftgen::split_short_runs(l.passes.front(), 8) +
           model.last_short_runs * fftgen::split_short_runs(l.passes.back(), 8);
  };
  KernelSpec even = real;
  even.pass_sizes = {280, 175};
  const fftgen::KernelLayout even_layout = fftgen::make_layout(even);
  CHECK_FALSE(even_layout.ranked_split);
  CHECK(cost(ranked) < cost(even_layout) - model.margin);
  // The first pass's tiles divide its columns: rows of every tile start on a 32-byte sector.
  CHECK(ranked.passes.front().columns_per_transform % ranked.passes.front().columns_per_workgroup == 0);
  // Where the model prefers none by more than its margin, the even split stands (r2c 31250: 125 x 125).
  const fftgen::KernelLayout square = fftgen::make_layout(spec_for(31250, {}, fftgen::Transform::r2c));
  CHECK_FALSE(square.ranked_split);
  CHECK(pass_sizes(square) == std::vector<uint32_t>{125, 125});
}

TEST_CASE("the split model leaves other kernels to the even split", "[cost]") {
  auto ranked = [](KernelSpec spec) { return fftgen::make_layout(spec).ranked_split; };
  CHECK_FALSE(ranked(spec_for(98000)));                                  // c2c
  CHECK_FALSE(ranked(spec_for(1u << 18, {}, fftgen::Transform::r2c)));   // a half that is a power of two
  KernelSpec wider = spec_for(98000, {}, fftgen::Transform::r2c);
  wider.shared_memory_bytes = 49152;  // the model was measured at 32 KB
  CHECK_FALSE(ranked(wider));
}

TEST_CASE("a ranked split keeps a dispatch per pass where pass_sync auto would take counters", "[cost]") {
  // r2c 24000 took counters over its even split; the model was fitted on a dispatch per pass.
  const KernelSpec real = spec_for(24000, {}, fftgen::Transform::r2c);
  const fftgen::KernelProgram program = fftgen::make_program(real);
  CHECK(program.layout.ranked_split);
  CHECK(pass_sizes(program.layout) == std::vector<uint32_t>{125, 96});  // 1.78x cuFFT on an H200, counters 1.18x
  CHECK(program.passes(fftgen::Direction::forward).size() == 2);
  CHECK(program.passes(fftgen::Direction::inverse).size() == 2);
}

TEST_CASE("modelled_splits ranks the one-pass splits of a kernel, each split once, for fftgen tune", "[cost]") {
  KernelSpec z = spec_for(4096);
  z.precision = fftgen::Precision::fp64;
  const auto splits = fftgen::modelled_splits(z, 4096, 3);
  REQUIRE(splits.size() == 3);
  std::set<std::vector<uint32_t>> seen;
  for (const auto& radices : splits) {
    uint32_t product = 1;
    for (uint32_t r : radices) product *= r;
    CHECK(product == 4096);
    std::vector<uint32_t> split = radices;
    std::sort(split.begin(), split.end());
    CHECK(seen.insert(split).second);  // one order of each split
    KernelSpec given = z;
    given.radices = radices;
    CHECK(fftgen::make_layout(given).passes.size() == 1);
  }
  // The split that ran fastest on an H200 (bench/results/2026-12-03-h200-low-rows, fp64/), which
  // the planner's own (32x4x32) and its orders never were, is among them.
  CHECK(seen.count({16, 16, 16}) == 1);
  // A length beyond one pass has no one-pass split to rank.
  CHECK(fftgen::modelled_splits(spec_for(1 << 20), 1 << 20, 3).empty());
}
