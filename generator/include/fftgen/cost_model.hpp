// fftgen: the planner's cost model (generator/plan/cost_model.cpp). It ranks candidate layouts of
// one pass by what their PassLayout says about the work on a GPU, with weights measured per
// device class (measured_cost_model(), in the table of measured choices), and enumerates the
// candidates it ranks: every order of every split of a length into codelets.
#pragma once

#include <cstdint>
#include <vector>

namespace fftgen {

struct PassLayout;
struct SharedMemoryMap;

/// What the cost model reads off a pass. Each term is 0 for the ideal and grows with the waste.
struct PassFeatures {
  double sector_waste = 0;    ///< 32 / (bytes of a warp's contiguous run of one transform) - 1, at least 0:
                              ///< fewer than 4 invocations of 8-byte values per transform touch 32-byte sectors in part
  double uneven_store = 0;    ///< 4 / T where the last stage's butterflies do not divide evenly among the T < 32
                              ///< invocations of a transform (a guarded store: partial sectors where T is small)
  double stages = 0;          ///< stages (each but the first after an exchange through shared memory)
  double idle = 0;            ///< sum over stages of the invocation slots without a butterfly, as a fraction
  double lane_waste = 0;      ///< lanes of the workgroup's last warp left empty, as a fraction of the workgroup
  double shared = 0;          ///< shared memory of the workgroup, in units of 32 KB (fewer workgroups resident)
};

/// The weights of a device class: the log of a pass's time grows by weight × feature.
struct CostModel {
  const char* device_class;  ///< e.g. "nvidia"
  const char* run;           ///< bench/results folder whose measurements fitted it
  double sector_waste, uneven_store, stages, idle, lane_waste, shared;
  /// A candidate replaces the structural choice only where it is predicted faster by more than this
  /// (the log of the ratio): the model's errors on the runs it was fitted to stay below it.
  double margin;
  /// A row pass's exchange takes another shared-memory map than its structural one only where the
  /// CPU model counts this fraction fewer wavefronts (exchange_wavefronts, least_conflicted_map).
  double exchange_map_margin;
};

/// The weights of a device class for the two passes of a 1D r2c whose half length is not a power
/// of two (rank_real_split in layout.cpp): the log of the kernel's time grows by weight ×
/// split_short_runs for its first pass (strided columns) and its last (contiguous rows, then the
/// r2c separation).
struct SplitModel {
  const char* device_class;  ///< e.g. "nvidia"
  const char* run;           ///< bench/results folder whose measurements fitted it
  double first_short_runs, last_short_runs;
  double margin;  ///< a ranked split replaces the layout's own only where predicted faster by more than this
};

/// log2 of the bytes a row of a workgroup's columns spans, below 128: 0 for 16 or more 8-byte
/// columns, -1 for 8, -2 for 4.
double split_short_runs(const PassLayout& pass, uint32_t element_bytes);

PassFeatures pass_features(const PassLayout& pass, uint32_t element_bytes);

/// The predicted log of the time, up to a constant of the length: lower is faster.
double pass_cost(const PassFeatures& features, const CostModel& model);

/// Shared-memory wavefronts of the exchanges between a pass's stages (each stage's writes and the
/// next stage's reads, one round, row mode) if it used `map`, on the CPU model of a GPU's shared
/// memory: 32 banks of 4 bytes, a warp of 32 invocations, whose access takes as many wavefronts as
/// the most distinct words one bank serves (at least 2 for a warp's 8-byte complex values).
uint64_t exchange_wavefronts(const PassLayout& pass, const SharedMemoryMap& map);

/// Every ordered split of m into factors from `radices` with at most `fewest + extra_stages`
/// stages (fewest: the fewest stages any split of m takes), each order once: the splits with fewer
/// stages first, each split's orders from its largest radices first (the search's order) to its
/// smallest first.
std::vector<std::vector<uint32_t>> radix_orders(uint32_t m, const std::vector<uint32_t>& radices, uint32_t extra_stages);

}  // namespace fftgen
