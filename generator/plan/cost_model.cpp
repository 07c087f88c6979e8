// generator/plan: the planner's cost model (fftgen/cost_model.hpp).
#include "fftgen/cost_model.hpp"

#include <algorithm>
#include <cmath>

#include "fftgen/layout.hpp"

namespace fftgen {

PassFeatures pass_features(const PassLayout& pass, uint32_t element_bytes) {
  constexpr double kSectorBytes = 32, kWarp = 32, kSharedUnit = 32768;
  PassFeatures f;
  const uint32_t t = pass.threads_per_column;
  f.sector_waste = std::max(0.0, kSectorBytes / (std::min<double>(t, kWarp) * element_bytes) - 1);
  for (const StageLayout& stage : pass.stages) {
    const uint32_t butterflies = pass.size / stage.radix;
    const uint32_t per_invocation = (butterflies + t - 1) / t;
    f.idle += static_cast<double>(per_invocation) * t / butterflies - 1;
  }
  constexpr double kSectorValues = 4;  // 8-byte values in a 32-byte sector
  if (t < kWarp && !pass.stages.empty() && (pass.size / pass.stages.back().radix) % t != 0)
    f.uneven_store = kSectorValues / t;
  f.stages = static_cast<double>(pass.stages.size());
  const double warps = std::ceil(pass.workgroup_size / kWarp);
  f.lane_waste = warps * kWarp / pass.workgroup_size - 1;
  f.shared = pass.shared_bytes() / kSharedUnit;
  return f;
}

double pass_cost(const PassFeatures& f, const CostModel& m) {
  return m.sector_waste * f.sector_waste + m.uneven_store * f.uneven_store + m.stages * f.stages +
         m.idle * f.idle + m.lane_waste * f.lane_waste + m.shared * f.shared;
}

namespace {

// Splits of `rest` into non-increasing factors from `radices` (largest first), each as a multiset.
void splits(uint32_t rest, size_t from, const std::vector<uint32_t>& radices, std::vector<uint32_t>& current,
            std::vector<std::vector<uint32_t>>& out) {
  if (rest == 1) return out.push_back(current);
  for (size_t i = from; i < radices.size(); ++i)
    if (rest % radices[i] == 0) {
      current.push_back(radices[i]);
      splits(rest / radices[i], i, radices, current, out);
      current.pop_back();
    }
}

}  // namespace

std::vector<std::vector<uint32_t>> radix_orders(uint32_t m, const std::vector<uint32_t>& radices, uint32_t extra_stages) {
  std::vector<uint32_t> descending = radices;
  std::sort(descending.rbegin(), descending.rend());
  std::vector<std::vector<uint32_t>> sets, orders;
  std::vector<uint32_t> current;
  splits(m, 0, descending, current, sets);
  size_t fewest = SIZE_MAX;
  for (const auto& s : sets) fewest = std::min(fewest, s.size());
  std::stable_sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (auto& s : sets) {
    if (s.size() > fewest + extra_stages) continue;
    do orders.push_back(s);  // s starts largest first (splits() builds it so)
    while (std::prev_permutation(s.begin(), s.end()));
  }
  return orders;
}

}  // namespace fftgen
