// fftgen: the choices measurements made, as one table of data (generator/plan/measured.cpp).
//
// `auto` decides most of a kernel from structure: what fits shared memory, registers and a
// workgroup. Where a benchmark found a better choice than that for some kernels, the choice is a
// row of this table: which kernels it applies to (a predicate of plain values: transform, 1D or
// 2D, precision, ranges of lengths), what it chooses, and the run under bench/results/ that
// measured it. make_layout and make_program ask the table (measured_choice) at the point where the
// decision is made; no length or threshold from a benchmark is written in their code
// (tests/test_measured.cpp checks both).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "fftgen/cost_model.hpp"
#include "fftgen/types.hpp"

namespace fftgen {

struct KernelSpec;

/// The decisions the table makes. Each is asked at one place, which says what a row's choice means there.
enum class MeasuredDecision {
  row_split,           ///< the stages of a one-pass transform of `n` with auto workgroup size: `radices`
                       ///< (and `invocations`, where given, at the budget `bytes`)
  smaller_pass_first,  ///< the two passes of a long 1D transform of `n` run the smaller first
  pair_rows,           ///< first_y_stage auto: the row pass does the first stage along Y (`yes`)
  pair_rows_at_once,   ///< a pair's two rows go at once rather than in turn (`yes`)
  round_trip_tiles,    ///< a convolution's one-pass Y round trip: stages `radices` on `invocations`
  swizzle_real_rows,   ///< an r2c row pass (its store separates) of `size` swizzles in place of padding
  column_tiles,        ///< intermediate_layout auto keeps column tiles of `tile_bytes` of columns of `size`
  counters,            ///< pass_sync auto takes counters (`yes`)
  column_radix32,      ///< a column pass of `size` (a power of two) takes radix-32 stages, the remainder second
                       ///< (asked with `size` alone: auto_radices knows no kernel)
  fp16_table_twiddles, ///< twiddles auto of an fp16 kernel reads the table rather than computing them
  one_pass_budget,     ///< shared_memory_bytes not given: a 1D kernel that the plan's budget splits into several
                       ///< passes and a budget of `bytes` holds in one takes `bytes`, where the plan's devices offer it
  narrow_budget,       ///< shared_memory_bytes not given: a one-pass kernel takes the smaller budget `bytes`
                       ///< where it stays one pass (a layout of more values an invocation, exchanged in rounds)
  smooth_bluestein,    ///< a 1D Bluestein length takes the smallest 7-smooth M >= 2N - 2 (`n`) rather than the
                       ///< power of two, where its transform is one pass of one round (`yes`; `size`: the
                       ///< smooth M in eighths of the power of two, rounded up)
  chirp_round_trip,    ///< a 1D Bluestein kernel whose transform of M (`size`) is one row pass runs both
                       ///< transforms in one dispatch per direction (`yes`; PassProgram::round_trip)
  grid_budget,         ///< shared_memory_bytes not given: a 2D c2c grid done in one pass (a 3D kernel's planes,
                       ///< asked with the plane's facts) whose exchange fills the plan's budget unpadded takes
                       ///< `bytes`, where its slices are padded, if the plan's devices offer it
  chirp_budget,        ///< shared_memory_bytes not given: a 1D Bluestein kernel whose transforms of M (`size`)
                       ///< take several passes takes the smaller budget `bytes` where its passes keep their
                       ///< lengths and columns (each exchange in more rounds)
  smooth_bluestein_side, ///< a side of a 2D or 3D kernel through Bluestein takes the smallest 7-smooth M >=
                         ///< 2N - 2 rather than the power of two (`yes`; `size`: the smooth M in eighths of the
                         ///< power of two, rounded up; a 3D kernel's side asked as a 2D kernel's)
};

/// An inclusive range of values; the default holds every value.
struct MeasuredRange {
  uint64_t lo = 0, hi = std::numeric_limits<uint64_t>::max();
  bool contains(uint64_t v) const { return lo <= v && v <= hi; }
  bool any() const { return lo == 0 && hi == std::numeric_limits<uint64_t>::max(); }
};

/// What a row's predicate can test: facts of the kernel, or of the pass, being decided. The asker
/// fills what the decision depends on (MeasuredDecision says which).
struct MeasuredFacts {
  Transform transform = Transform::c2c;
  Precision precision = Precision::fp32;
  bool two_d = false;
  /// A 3D kernel: no row applies to it, so its structural choices stand (grid_budget asks with the
  /// facts of a 3D kernel's plane, a 2D grid, instead).
  bool three_d = false;
  bool convolution = false;  ///< a convolution's kernel
  bool in_place = false;     ///< placement in_place: one buffer in and out
  uint64_t n = 0;            ///< complex points along X (KernelLayout::n: N, N/2 for r2c), or the pass's length
  uint64_t nx = 0;           ///< NX (N in 1D) as the plan gives it (KernelSpec::n)
  uint64_t ny = 1;           ///< NY (1 in 1D)
  uint64_t points = 0;       ///< [NZ *] NY * NX as the plan gives them (KernelSpec::points)
  uint64_t size = 0;         ///< the sub-transform of the pass being decided
  uint64_t tile_bytes = 0;   ///< bytes of a column tile's run (column_tiles)
};

/// The kernels a row applies to: every field that is set (a non-empty list, a value, a range
/// narrower than all) must hold.
struct MeasuredKernels {
  std::vector<Transform> transforms;   ///< empty: any
  std::optional<bool> two_d;
  std::optional<Precision> precision;
  std::optional<bool> convolution;
  std::optional<bool> in_place;
  MeasuredRange n, nx, ny, points, size, tile_bytes;

  bool contains(const MeasuredFacts& f) const;
};

/// What a row chooses.
struct MeasuredChoice {
  bool yes = true;                ///< for yes/no decisions
  std::vector<uint32_t> radices;  ///< row_split, round_trip_tiles
  uint32_t invocations = 0;       ///< round_trip_tiles: the workgroup size; row_split: a transform's (0: the split's)
  uint32_t bytes = 0;             ///< one_pass_budget, narrow_budget: the shared-memory budget; row_split: the
                                  ///< budget its invocations were measured at
};

struct MeasuredRow {
  MeasuredDecision decision;
  MeasuredKernels kernels;
  MeasuredChoice choice;
  const char* run;   ///< the folder under bench/results/ whose measurements chose it
  const char* note;  ///< what was measured: the numbers behind the choice
};

/// The facts of a kernel (its transform, precision, dimensions, convolution, NY and points), with
/// `n` the length being decided; the asker sets `size` and `tile_bytes` where its decision needs them.
MeasuredFacts measured_facts(const KernelSpec& spec, uint64_t n);

/// Every row, in the order they are tried: the first row of a decision whose kernels hold the facts wins.
const std::vector<MeasuredRow>& measured_rows();

/// The first row of `decision` that applies to `facts`; nullptr where none does (the structural choice stands).
const MeasuredRow* measured_choice(MeasuredDecision decision, const MeasuredFacts& facts);

/// A yes/no decision: the row's `yes`, or `otherwise` where no row applies.
bool measured_yes(MeasuredDecision decision, const MeasuredFacts& facts, bool otherwise = false);

/// The weights a convolution's padded plane is chosen by (padding.cpp), measured like the rows above.
/// side_factors: relative time per value of a padded side by its largest prime factor (2, 3, 5, 7);
/// mixed_round_trip: relative time per value of a column round trip whose height is not a power of two
/// and whose exchange goes in parts (real and imaginary parts in turn, or rounds);
/// full_round_trip: of a column round trip whose exchange takes the whole shared-memory budget (a
/// 4096-point column at 32 KB: two columns, real and imaginary parts in turn). Every weight is at
/// least 1, so padding_cost_floor() stays below every plane's cost.
struct PaddingWeights {
  struct SideFactor {
    uint32_t largest_prime;
    double factor;
  };
  std::vector<SideFactor> side_factors;
  double mixed_round_trip;
  double full_round_trip;
};
const PaddingWeights& measured_padding_weights();

/// The cost model's weights for the device class kernels are planned for (fftgen/cost_model.hpp).
const CostModel& measured_cost_model();

/// The two-pass split model of the device class the plan is for (NVIDIA's: measured on an H200).
const SplitModel& measured_split_model();

/// Which stages build their table twiddles by a product tree (PassProgram::stage_twiddle_tree):
/// in a pass whose length is not a power of two, every stage of radix `mixed_radix_from` or more;
/// in a power of two, radix `power_of_two_from` or more where the twiddles are loaded early or the
/// workgroup has `late_workgroup_from` invocations or more.
struct TwiddleTreeRule {
  uint32_t mixed_radix_from;
  uint32_t power_of_two_from;
  uint32_t late_workgroup_from;
  const char* run;  ///< the folder under bench/results/ that measured the mixed-radix threshold
};
const TwiddleTreeRule& measured_twiddle_tree();

}  // namespace fftgen
