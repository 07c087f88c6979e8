// generator/plan: the planner's cost model (fftgen/cost_model.hpp).
#include "fftgen/cost_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "fftgen/layout.hpp"

namespace fftgen {

double split_short_runs(const PassLayout& pass, uint32_t element_bytes) {
  constexpr double kFullRunBytes = 128;
  return std::min(0.0, std::log2(static_cast<double>(pass.columns_per_workgroup) * element_bytes / kFullRunBytes));
}

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

constexpr uint32_t kBanks = 32, kWarp = 32, kNoValue = UINT32_MAX;

// Wavefronts of one warp's access to these 4-byte words: the most distinct words in one bank.
uint32_t warp_wavefronts(std::vector<uint32_t>& words) {
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::array<uint32_t, kBanks> per_bank{};
  for (uint32_t w : words) ++per_bank[w % kBanks];
  return *std::max_element(per_bank.begin(), per_bank.end());
}

}  // namespace

uint64_t exchange_wavefronts(const PassLayout& pass, const SharedMemoryMap& map) {
  const uint32_t t = pass.threads_per_column, m = pass.size;
  const uint32_t words_per_slot = map.split ? 1 : 2 * map.scalar_bytes / 4;
  uint64_t total = 0;
  std::vector<uint32_t> words;
  // One access by every warp: invocation q of column c touches value index(q) (kNoValue: none).
  auto access = [&](auto index) {
    for (uint32_t first = 0; first < pass.workgroup_size; first += kWarp) {
      words.clear();
      for (uint32_t lane = first; lane < std::min(first + kWarp, pass.workgroup_size); ++lane)
        if (const uint32_t i = index(lane % t); i != kNoValue)
          for (uint32_t w = 0; w < words_per_slot; ++w) words.push_back(map.slot(lane / t, i) * words_per_slot + w);
      if (!words.empty()) total += warp_wavefronts(words);
    }
  };
  for (size_t s = 0; s + 1 < pass.stages.size(); ++s) {
    // Stockham writes (PassPrinter::stage_writes): butterfly jj = q + i*T's output r at
    // (jj div Ns)*Ns*R + jj mod Ns + r*Ns.
    const StageLayout& stage = pass.stages[s];
    const uint32_t ns = stage.stride, radix = stage.radix;
    for (uint32_t i = 0; i < pass.butterflies_per_invocation(stage); ++i)
      for (uint32_t r = 0; r < radix; ++r)
        access([&](uint32_t q) {
          const uint32_t jj = q + i * t;
          return jj < m / radix ? jj / ns * ns * radix + jj % ns + r * ns : kNoValue;
        });
    // The next stage's reads (PassLayout::value_place).
    const StageLayout& next = pass.stages[s + 1];
    for (uint32_t e = 0; e < pass.butterflies_per_invocation(next) * next.radix; ++e) {
      const PassLayout::ValuePlace at = pass.value_place(next, e);
      access([&](uint32_t q) { return !at.guarded || q + at.guard < m / next.radix ? q + at.offset : kNoValue; });
    }
  }
  return total;
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
