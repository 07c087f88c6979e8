// generator/plan: how one kernel variant is laid out on the GPU — passes, stages, workgroups,
// buffers, shared memory and twiddle tables. Pure arithmetic, no text: program.hpp turns a layout
// into passes with views, prologues and epilogues, and emit/ renders those as GLSL.
//
// The algorithm is the Stockham autosort FFT in the formulation of Govindaraju et al.,
// "High Performance Discrete Fourier Transforms on Graphics Processors" (SC'08): a radix-R step
// over data of length L with stride Ns (product of the radices before it) reads
// x[j + r*L/R], multiplies by W_{Ns*R}^{r*(j mod Ns)}, does a radix-R DFT and writes
// y[(j div Ns)*Ns*R + (j mod Ns) + r*Ns]. A *pass* (one dispatch) is such a step whose radix
// M is itself a product of stages run inside the workgroup through shared memory.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "fftgen/plan.hpp"

namespace fftgen {

// Buffer roles (BufferRole) are part of the kernels' interface, fftgen/interface.hpp. scratch2 is
// used by image kernels of three or more passes (their output image holds no values between
// passes) and between the sides of a 2D or 3D c2r through KernelLayout::sides_apart (its output of
// reals is too small); sync by a kernel whose passes share one dispatch (CounterSchedule in
// program.hpp).

/// One butterfly stage inside a pass (a Stockham step over the pass's M-point sub-transform).
struct StageLayout {
  uint32_t radix = 0;
  uint32_t stride = 1;          ///< Ns inside the pass: product of this pass's earlier radices
  /// The twiddle of output r of butterfly j is W_{T*R}^(r*k), k = (j mod Ns) div D, T = Ns / D:
  /// D = 1 for 1D stages; in a 2D transform done in one pass (PassLayout::grid_ny), the X stages
  /// follow the Y stages and D = NY, so that they twiddle by the X frequency digits only.
  uint32_t twiddle_divisor = 1;
  uint32_t twiddle_stride() const { return stride / twiddle_divisor; }
  uint32_t twiddle_offset = 0;  ///< table entries [(r-1)*T + k] for k < T (if T > 1): adjacent
                                ///< invocations (adjacent k) read adjacent entries
};

/// Two-level table for the twiddles between passes, W_L^m with m < L = stride*size:
/// W_L^m = lo[m mod B] * hi[m div B], B = 2^lo_log2 (so the table has ~2*sqrt(L) entries, not L;
/// hi holds ceil(L / B) entries, L need not be a power of two). Where every exponent the pass
/// uses, m <= (stride-1)*(size-1), fits kSingleLevelEntries, lo holds them all and hi the one
/// entry W^0 = 1 (single_level()): one load per value and no multiplication.
struct PassTwiddles {
  uint32_t lo_offset = 0;
  uint32_t hi_offset = 0;
  uint32_t lo_log2 = 0;
  uint32_t lo_count = 0;
  uint32_t hi_count = 0;
  static constexpr uint32_t kSingleLevelEntries = 4096;
  bool single_level() const { return hi_count == 1; }
};

/// Where value i of a workgroup's column c lies in shared memory during one exchange round. Every
/// scheme breaks the power-of-two strides that would send a warp's accesses to one memory bank:
/// - plain:           c*S + i (no exchange conflicts to break, or nothing fits otherwise; rows of
///                    other lengths where the CPU model counts the fewest conflicts for it)
/// - row_padded:      c*(S + S/2^p) + i + (i >> p), p = pad_log2: one slot every 16 values (p = 4:
///                    16 complex = 128 bytes = all banks), for row mode, where a radix-R stage writes
///                    at stride R; other p where the CPU model counts fewer bank conflicts
///                    (least_conflicted_map: lengths that are not powers of two)
/// - row_swizzled:    c*S + (i ^ ((i >> shift) & mask)), for register-resident row mode: the first
///                    stage's stride-R writes from a half-warp land in distinct bank pairs, while
///                    reads and later writes (runs of adjacent slots) stay conflict-free
///                    (and rows of other lengths where the CPU model counts fewer conflicts)
/// - column_padded:   c*(S + 1) + i, for column mode, where adjacent invocations are adjacent
///                    columns, S apart
/// - column_swizzled: c*S + (i ^ (c & mask)), column mode where the padded columns do not fit
/// - tile_padded:     c*P + i + (i >> 4), P = S + S/16 rounded up to 16 mod 32: column mode with
///                    few columns per workgroup, where a column's invocations are adjacent and its
///                    stages write at stride R as in row mode; the columns lie 16 banks apart
/// - column_staggered: c*P + i + (i >> p), 2^p = the first radix R, P = S + S/R raised to 16/C
///                    mod 16: column mode with a complex exchange of C columns, whose half-warp
///                    holds 16/C adjacent positions of each column. The columns lie 16/C bank pairs
///                    apart and the pad moves each of the first stage's runs of R values one bank
///                    pair on, so every exchange of a half-warp reaches 16 bank pairs (make_layout
///                    takes it where measured: C = 8, R = 32)
/// - tile_swizzled:   c*S + (i ^ ((i >> 4) & 15) ^ 16c): two columns of a split exchange where
///                    tile_padded's pads do not fit the budget (columns of 4096 in 32 KB). Within
///                    a column, row_swizzled's swizzle spreads the first stage's radix-16 writes
///                    over 16 banks; column 1's slots move 16 banks on (bit 4 flipped)
/// S is the slice: the slots one column moves per exchange round (the whole column when the
/// exchange takes one round).
struct SharedMemoryMap {
  enum class Scheme { none, plain, row_padded, row_swizzled, column_padded, column_swizzled, tile_padded,
                      column_staggered, tile_swizzled };
  Scheme scheme = Scheme::none;  ///< none: the pass uses no shared memory
  uint32_t columns = 0;          ///< columns (transforms in row mode) of one workgroup
  uint32_t slice = 0;            ///< S
  uint32_t swizzle_shift = 0;    ///< row_swizzled, tile_swizzled (4)
  uint32_t swizzle_mask = 0;     ///< row_swizzled, column_swizzled, tile_swizzled (15)
  uint32_t pad_log2 = 0;         ///< row_padded, tile_padded (4), column_staggered: one pad slot every 2^pad_log2 values
  /// Split exchange: real parts, then imaginary parts, move through a float array, which halves
  /// the shared memory a pass needs (two more barriers per stage).
  bool split = false;
  /// Register-resident exchange, for transforms (row mode) or column tiles too large for shared
  /// memory: each exchange runs in `rounds` rounds, round k moving the values whose slots lie in
  /// [k*S, (k+1)*S) through a shared array of one slice per column. The layout guarantees that
  /// every butterfly's outputs lie in one slice and that every invocation reads E/rounds values per
  /// round, so only the writes are conditional (on a round number that is uniform over runs of
  /// adjacent invocations).
  uint32_t rounds = 1;
  /// Bytes of one real of the exchange: 4 (float), or 8 (double, precision fp64, whose complex slot
  /// takes 16 bytes: the same budget holds half the values).
  uint32_t scalar_bytes = 4;

  static constexpr uint32_t kRowPadLog2 = 4;
  /// Slots one column takes (padding included).
  uint32_t column_slots() const;
  /// Slots of the whole array.
  uint32_t elements() const { return columns * column_slots(); }
  uint32_t bytes() const { return elements() * scalar_bytes * (split ? 1 : 2); }
  /// The slot of value i (i < slice) of column c. The printer spells the same formula in GLSL.
  uint32_t slot(uint32_t c, uint32_t i) const;
};

/// One entry kind of a kernel's twiddle table. Entry e of a run is exp(-2*pi*i*m/L) with
///   stage:   L = radix*stride, e = (r-1)*stride + k -> m = r*k   (r = 1..radix-1, k < stride)
///   pass_lo: m = e;  pass_hi: m = e << lo_log2   (two-level table of an inter-pass twiddle)
///   real:    m = e   (L = N of an r2c kernel: the separation twiddles W_N^k, k < N/2)
///   chirp:   m = e^2 mod L, L = 2N: Bluestein's chirp w_n = exp(-pi i n^2 / N), n < N
///   chirp_spectrum, chirp_spectrum_inverse: not roots of unity but FFT_M(b) / M of Bluestein's
///            filter b (M = length, N = stride): b_m = conj(w_m) for m < N, b_(M-m) = b_m, zero
///            between; the inverse kernel's filter is conj(b)
struct TwiddleRun {
  enum class Kind { stage, pass_lo, pass_hi, real, chirp, chirp_spectrum, chirp_spectrum_inverse };
  Kind kind = Kind::stage;
  uint32_t offset = 0;   ///< first entry in the table
  uint32_t count = 0;    ///< entries
  uint64_t length = 0;   ///< L
  uint32_t stride = 0;   ///< stage: Ns
  uint32_t lo_log2 = 0;  ///< pass_hi
  /// The exponent m of entry `e` (0 <= e < count), for W_L^m.
  uint64_t exponent(uint32_t e) const;
};

/// The twiddle table of a kernel variant: runs placed one after another. Both directions use it;
/// the inverse conjugates. Computed in double and rounded once to float (values()).
struct TwiddleTable {
  std::vector<TwiddleRun> runs;
  uint32_t count = 0;  ///< complex entries (0 for computed twiddles)
  /// Appends a run and returns its offset.
  uint32_t place(TwiddleRun run);
  /// 2*count floats (re, im).
  std::vector<float> values() const;
  /// The same in double, unrounded (the table of an fp64 kernel).
  std::vector<double> values_in_double() const;
};

/// One dispatch over M-point sub-transforms ("columns") along one axis.
///
/// Row mode (columns_per_transform == 1): a workgroup covers whole transforms (rows), whose
/// elements are contiguous, so invocations of one transform are adjacent. Column mode: the C
/// sub-transforms of a workgroup are adjacent columns and invocations are column-fastest; column j
/// holds the values at j + i*columns_per_transform. Along Y of a 2D transform, `interleave`
/// adjacent columns (the data's row width) belong to the same Y sub-transform position: column
/// j is data column j mod interleave of sub-transform j div interleave.
struct PassLayout {
  uint32_t axis = 0;                   ///< 0: X (contiguous), 1: Y, 2: Z (3D: interleave NY * row width)
  uint32_t length = 0;                 ///< the axis' FFT length (X of an r2c kernel: N/2)
  uint32_t size = 0;                   ///< M: sub-transform length (product of stage radices)
  uint32_t stride = 1;                 ///< product of the earlier passes' sizes along this axis
  uint32_t interleave = 1;             ///< data columns per sub-transform position (Y passes: the row width)
  uint32_t columns_per_transform = 1;  ///< (length / M) * interleave: columns per transform
  uint32_t columns_per_workgroup = 1;  ///< C: sub-transforms per workgroup (transforms, in row mode)
  uint32_t elems_per_thread = 0;       ///< E: complex values each invocation holds (max radix)
  uint32_t threads_per_column = 0;     ///< M / E
  uint32_t workgroup_size = 0;         ///< C * M / E
  /// The store needs values other invocations hold (the r2c and r2c_pair separation pairs
  /// element k with element M-k): one more exchange through shared memory after the last stage.
  bool store_exchange = false;
  /// Column mode with store_exchange (the last pass of a multi-pass r2c transform): the
  /// workgroup's columns are C/2 adjacent columns j and their mirrors S - j (S = stride, the
  /// columns of the pass), whose values are the partners Z[H-k] of the separation. Tile t holds
  /// j = t*C/2 + u and S - j for u < C/2, except that column S/2 takes the place of the mirror of
  /// column 0 (both pair with themselves). The low columns are the ceil(S/2) columns j < S - j
  /// and column 0; where C/2 does not divide them, the last tile's columns past them compute
  /// nothing that is stored, and where S is odd (no column S/2) neither does column 0's mirror
  /// place. C is a power of two (the exchange finds a column's mirror place by flipping bit C/2).
  bool mirror_tiles() const { return store_exchange && !row_mode(); }
  /// Low columns of mirrored tiles: ceil(S/2) (column 0, and each j < S - j).
  uint32_t mirror_low_columns() const { return (columns_per_transform + 1) / 2; }
  /// Workgroups of mirrored tiles per transform: ceil(ceil(S/2) / (C/2)).
  uint32_t mirror_tiles_per_transform() const {
    const uint32_t half = columns_per_workgroup / 2;
    return (mirror_low_columns() + half - 1) / half;
  }
  /// Whether some places of mirrored tiles hold no column (C/2 does not divide the low columns, or
  /// S is odd): those invocations store nothing.
  bool mirror_places_unused() const {
    return mirror_tiles() && (mirror_tiles_per_transform() * (columns_per_workgroup / 2) != mirror_low_columns() ||
                              columns_per_transform % 2 != 0);
  }
  /// Columns per transform as the dispatch counts them (the manifest's columns_per_transform):
  /// S, or for mirrored tiles C per tile, unused places included.
  uint32_t dispatch_columns() const {
    return mirror_tiles() ? mirror_tiles_per_transform() * columns_per_workgroup : columns_per_transform;
  }
  /// A whole 2D transform of NY x NX in one row-mode pass (small grids, and the planes of a small
  /// 3D c2c kernel, one batch entry each): NY here (0 otherwise).
  /// Its stages run along Y first, then along X (twiddle_divisor); the values come out in the
  /// order kx*NY + ky and go through shared memory to row-major order on the way out.
  uint32_t grid_ny = 0;
  /// The X pass of a 2D kernel that also does the first stage of the Y axis, radix 2 (its Y pass
  /// is then of NY/2 at stride 2): NY/2 here (0 otherwise). Each of its columns_per_workgroup
  /// transforms in flight is a pair of rows y and y + NY/2 of one plane, loaded together and
  /// transformed in turn in the same invocations, which then hold both rows' values of each
  /// position: row y stores their sum, row y + NY/2 their difference (outputs 0 and 1 of the
  /// radix-2 butterfly, the Y pass's columns of parity 0 and 1).
  uint32_t pair_rows = 0;
  /// Pairs of rows (pair_rows) whose two rows run at once, each in invocations of its own:
  /// transforms 2p and 2p + 1 of the workgroup are rows y and y + NY/2 of one pair, and the
  /// first exchange reads both rows' slots, the sum into row y, the difference into row y + NY/2
  /// (the Y stage commutes with the X stages: both rows take the same X twiddles). Half the
  /// values per invocation of the rows in turn, which the same invocations transform one after
  /// the other (pair_rows without this).
  bool pair_rows_at_once = false;
  /// Pairs of rows transformed in turn by the same invocations (pair_rows, not at once).
  bool pair_rows_in_turn() const { return pair_rows != 0 && !pair_rows_at_once; }
  /// Batch entries (columns, or rows in row mode) one workgroup computes: its transforms in
  /// flight, twice that for pairs of rows in turn.
  uint32_t entries_per_workgroup() const { return pair_rows_in_turn() ? 2 * columns_per_workgroup : columns_per_workgroup; }
  std::vector<StageLayout> stages;
  PassTwiddles pass_twiddles;          ///< used when stride > 1
  SharedMemoryMap shared;

  bool row_mode() const { return columns_per_transform == 1; }
  /// Butterflies of `stage` each invocation computes, P = ceil((M/R) / T) (T = threads_per_column):
  /// butterfly i of invocation q is q + i*T, skipped where that is not below M/R.
  uint32_t butterflies_per_invocation(const StageLayout& stage) const;
  /// Whether stage s (s > 0, with twiddles) of a pass with table twiddles loads them before the
  /// exchange that precedes it: where they are few enough to hold in registers across it, at most
  /// kEarlyTwiddles an invocation (one radix-16 butterfly, or two radix-8 ones).
  static constexpr uint32_t kEarlyTwiddles = 15;
  bool stage_twiddles_early(size_t s) const;
  /// Whether T divides M/R, so that no butterfly of `stage` is skipped.
  bool stage_balanced(const StageLayout& stage) const { return (size / stage.radix) % threads_per_column == 0; }
  /// Every stage balanced and T*E = M: value e of invocation q is element q + e*T in every stage
  /// (true of every power of two; mixed radices such as 13x9x7x5 are not).
  bool balanced() const;
  /// Where value e (e < P*R) of an invocation lies during `stage`: element q + offset of the
  /// sub-transform, as butterfly e mod P's input (and output) e div P. Without a balanced stage,
  /// `guard` is the butterfly's distance i*T from q when it may lie beyond M/R (q + guard < M/R
  /// then decides), 0 when it never does.
  struct ValuePlace {
    uint32_t offset = 0, guard = 0;
    bool guarded = false;
  };
  ValuePlace value_place(const StageLayout& stage, uint32_t e) const;
  uint32_t exchange_rounds() const { return shared.rounds; }
  uint32_t exchange_size() const { return size / shared.rounds; }  ///< slots of one slice per column
  /// The first pass of a multi-pass 1D transform writes y[j*M + r]: its store goes through shared
  /// memory so that it stays coalesced. (Along Y, interleaved columns already give coalesced runs.)
  /// (It needs the workgroup's columns to lie in one transform, C dividing the columns, and value e
  /// at q + e*step: powers of two; other lengths store their columns directly.)
  bool transposed_store() const {
    return (!row_mode() && stride == 1 && interleave == 1 && is_power_of_two(columns_per_transform) && balanced()) ||
           grid_ny != 0;
  }
  /// Whether each workgroup writes exactly the elements it reads (it may then work in place):
  /// row mode, and the last pass of an axis (its columns j < stride are written at j + r*stride,
  /// where they were read).
  bool in_place_safe() const { return row_mode() || uint64_t{stride} * size == length; }
  uint32_t shared_bytes() const { return shared.bytes(); }
};

/// The sub-FFT geometry of a kernel variant: the passes along X, then along Y (2D), and their
/// twiddle table. Which buffers each pass reads and writes, in which order a direction runs them,
/// and what happens on the way in and out are the program's (program.hpp).
struct KernelLayout {
  uint32_t n = 0;                 ///< the X FFT length: N, or N/2 for an r2c kernel
  uint32_t ny = 1;                ///< NY (2D, 3D), 1 for 1D
  uint32_t nz = 1;                ///< NZ (3D), 1 otherwise
  uint32_t columns = 1;           ///< complex values per row after the X passes: N, or N/2 + 1 (r2c)
  std::vector<uint32_t> radices;  ///< every stage radix, X passes then Y passes (the split actually used)
  std::vector<PassLayout> passes; ///< X passes, then Y passes
  TwiddleTable twiddles;
  /// r2c: the table offset of W_N^k, k < N/2, for the separation of the half-length transform (0
  /// with computed twiddles).
  uint32_t real_twiddle_offset = 0;
  /// Bluestein (N with a prime factor above kMaxPrimeFactor): N, and where the chirp and the filter spectra
  /// (forward, inverse kernel) start in the table; the passes are those of a c2c transform of
  /// n = M. bluestein_n = 0: not Bluestein. Where the transforms of M take several passes, both
  /// offsets are the forward spectrum's: the inverse kernel reads it conjugated (S of conj(b) is conj S).
  uint32_t bluestein_n = 0;
  uint32_t chirp_offset = 0, spectrum_offset[2] = {0, 0};
  /// An r2c kernel computed as a complex transform of its full length N (the passes are those of
  /// c2c of N, n = N, columns = N/2 + 1): odd N, and in fp16 N with a prime factor above
  /// kMaxPrimeFactor (Bluestein; fp32 takes bluestein_real_half). Every other even N runs as a
  /// complex transform of N/2 and a separation (the last pass's mirrored column tiles where N/2
  /// takes several passes). Its first pass loads reals, its last keeps the half spectrum
  /// (View::RealSide).
  bool real_full_length = false;
  /// The split model chose this 1D r2c's two passes (rank_real_split): it was fitted on kernels of
  /// a dispatch per pass, so pass_sync "auto" keeps them so (counters_by_default).
  bool ranked_split = false;
  /// A 1D fp32 r2c of even N whose half N/2 = H has a prime factor above kMaxPrimeFactor: the
  /// complex transform of H (x[2n] + i x[2n+1]) runs through Bluestein's algorithm (bluestein_n =
  /// H, the passes those of its M), and `real_pass` (a pass of H one-value columns, no stages)
  /// separates its output into the half spectrum in place (forward, mirrored column tiles) or
  /// merges the half spectrum into Z before it (inverse, a c2r load): two transforms of M >= 2H - 2
  /// where the full-length route (real_full_length) takes two of M >= 2N - 2.
  bool bluestein_real_half = false;
  PassLayout real_pass;
  /// A 2D or 3D kernel with a side whose prime factors exceed kMaxPrimeFactor, or an r2c of odd
  /// NX: each such side runs through Bluestein (its passes are those of the side's M, X then Y then
  /// Z), the others as mixed radices; an r2c kernel's X side is a complex transform of NX (or M)
  /// with a real load and a half-spectrum store, and its Y and Z sides cover `columns` = NX/2 + 1
  /// columns. Per side (X, Y, Z): N (0: not through Bluestein), and where its chirp and its filter
  /// spectrum lie in the table (the inverse kernel reads both conjugated).
  struct ChirpSide {
    uint32_t n = 0, chirp_offset = 0, spectrum_offset = 0;
  };
  bool sides_apart = false;
  ChirpSide chirp_sides[3];
  size_t x_passes() const;        ///< passes along X (the first ones)
};

/// Lays out a kernel variant. Throws PlanError (naming the kernel and field) if an explicit radix
/// split or workgroup size cannot be honoured within the shared-memory budget.
KernelLayout make_layout(const KernelSpec& spec);

/// shared_memory_bytes for a kernel that leaves it unset: the budget the table of measured choices
/// gives (MeasuredDecision::one_pass_budget) where that budget holds in one pass a transform the
/// kernel's own budget splits into several, and the plan's devices offer it
/// (KernelSpec::device_shared_memory_bytes); a smaller one it gives (narrow_budget) where the
/// kernel stays one pass at it; else the kernel's own.
uint32_t auto_shared_memory_bytes(const KernelSpec& spec);

/// Radices `auto` picks for an M-point sub-transform (`column_pass`: a pass of a multi-pass kernel).
std::vector<uint32_t> auto_radices(uint32_t m, bool column_pass);

/// The best order of each of the `count` splits of a one-pass 1D kernel's m points that the cost
/// model ranks first (every split into codelets with at most one stage more than the fewest that
/// the kernel, given it as its radices, lays out in one pass), best first: the splits `fftgen tune`
/// times beside the planner's.
std::vector<std::vector<uint32_t>> modelled_splits(const KernelSpec& spec, uint32_t m, size_t count);

}  // namespace fftgen
