// generator/plan: the pass IR. A kernel is, per direction, a list of passes (one dispatch each),
// and every pass is
//
//   view in ──► load prologue ──► sub-FFT (stages, exchanges) ──► store epilogue ──► view out
//
// The layout (layout.hpp) decides the sub-FFT geometry; make_program() decides the views, the
// prologue and the epilogue of each pass. All of it is data: emit/ prints a PassProgram as GLSL
// (index expressions spelt under the index_math policy), the manifest writer reads its interface,
// op counts come from it, and tests execute it on the CPU.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fftgen/codelet.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/plan.hpp"

namespace fftgen {

// The pass interface (directions, buffer roles, element types, binding slots, push constants) is
// declared once, in fftgen/interface.hpp, which the runtime reads too: it drives the GLSL
// declarations, the HLSL registers and Metal buffer indices, the manifest's bindings and push
// constants, and (through the manifest) the runtime's descriptor sets and push-constant writes.

/// The type in memory of data of type `t` at `precision` (complex64 becomes complex32 in fp16).
ElementType stored_as(ElementType t, Precision precision);

/// One binding of a pass: a slot, the buffer bound there and how the pass walks it.
struct PassBinding {
  ResourceSlot slot;
  BufferRole role;
  ElementType element = ElementType::complex64;
  /// vec2 values of one batch entry of this pass (a transform; a row for the X pass of a 2D
  /// kernel). For the twiddle table: its whole size.
  uint64_t entry = 0;
  /// vec2 values between consecutive batch entries when the buffer is contiguous (the value of
  /// `stride_constant` unless a caller lays out a 1D kernel's input or output with gaps).
  uint64_t stride = 0;
  /// The push constant that carries that distance (empty: none).
  std::string_view stride_constant;
  /// Declared `float data[]` rather than pairs: a real image whose rows may have odd lengths
  /// (LoadKind::image, StoreKind::image). `entry` and `stride` still count pairs of the padded plane.
  bool scalar = false;
  /// A storage image rather than a buffer (io image): the kernel's input at binding 0 of its first
  /// pass, its output at binding 1 of its last. Value e of the flat view (the buffer's layout: rows
  /// of `texels_per_row` values, transforms one below the other) is texel (e mod W, e div W), or for
  /// r32f (real data) the reals 2e and 2e + 1 are texels 2e and 2e + 1 of rows of W reals.
  /// The one data binding of a pass of an in-place kernel that reads the buffer it writes (plan
  /// placement in_place): declared once, read and written (manifest access read_write).
  bool read_write = false;
  Access access() const { return read_write ? Access::read_write : slot.access; }
  TextureFormat texture = TextureFormat::automatic;  ///< automatic: a buffer
  uint32_t texels_per_row = 0;
  bool is_texture() const { return texture != TextureFormat::automatic; }
};

/// A real image in memory, [rows, cols, channels] per frame (channels interleaved), frames and
/// channels one after another as planes (plane = frame * channels + channel), as a pass sees it:
/// planes of padded_rows × padded_cols reals, zero outside the image (those zeros are never read),
/// shifted cyclically by (offset_y, offset_x) (the filter kernel puts the filter's centre at the
/// origin). Pair p of a pass's view is reals 2p and 2p+1 counted over these padded planes.
/// With channel_pairs (a convolution packed in pairs) a plane is complex, two channels per pixel:
/// plane = frame * P + k (P = ceil(channels / 2)) holds channel 2k as real and channel 2k+1 (zero
/// past the last channel) as imaginary parts, and value p is one pixel of these planes.
struct ImageView {
  uint32_t rows = 0, cols = 0, channels = 1;
  uint32_t padded_rows = 0, padded_cols = 0;
  uint32_t offset_y = 0, offset_x = 0;
  bool channel_pairs = false;
};

// ---------------------------------------------------------------------------------------------
// Views: where a pass reads or writes its values.

/// Value i (0 <= i < M) of column j of transform b lies, in elements of the bound buffer, at
///   b * <stride push constant> + column_offset(j) + i * element_stride,
///   column_offset(j) = (j div column_split) * split_stride + (j mod column_split)   (split > 0)
///                    = j                                                           (split = 0)
/// (split = 1: each column contiguous, j * split_stride: a convolution's filter spectrum kept by
/// columns, KernelProgram::filter_by_columns.) Row mode has one column per transform (j = 0).
struct View {
  PassBinding binding;
  uint32_t element_stride = 1;
  uint32_t column_split = 0;
  uint32_t split_stride = 0;
  /// An r2c kernel computed as a complex transform of its full length N (odd N, and the lengths
  /// the half-length route does not cover, transforms.md): what the buffer holds of the N complex
  /// values. reals: their real parts, value n of transform b at real 2*b*stride + n (a float
  /// binding; the imaginary parts are zero on load and dropped on store; for odd N the real after
  /// the last is padding, written as zero). half_spectrum: X[0..N/2] (N/2 + 1 complex values); a load
  /// rebuilds X[k] = conj X[N-k] above N/2, a store keeps k <= N/2.
  enum class RealSide { none, reals, half_spectrum };
  RealSide real_side = RealSide::none;
  uint32_t real_n = 0;  ///< N, where real_side is set
  /// Elements of the bound buffer before value 0 of every transform (the second half of a
  /// scratch buffer that holds two intermediate transforms: Bluestein's multi-pass transforms).
  uint64_t base = 0;
  /// A row pass's store into column tiles (IntermediateLayout::column_tiles): value x of row y of
  /// plane p (the row b = p * tile_rows + y, tile_rows = NY) lies at
  ///   p * tile_rows * <stride> + (x div tile_columns) * tile_rows * tile_columns
  ///     + y * tile_columns + (x mod tile_columns),
  /// <stride> being the row length rounded up to whole tiles: every tile of tile_columns columns is
  /// contiguous, as the Y pass reads it (column_split = element_stride = tile_columns, split_stride =
  /// tile_rows * tile_columns). 0: rows as they are.
  uint32_t tile_columns = 0;
  uint32_t tile_rows = 0;
  uint64_t column_offset(uint64_t j) const {
    return column_split == 0 ? j : (j / column_split) * split_stride + j % column_split;
  }
  /// The element of position p (column_offset(j) + i * element_stride) of batch entry b.
  uint64_t element(uint64_t b, uint64_t p) const {
    if (tile_columns == 0) return base + b * binding.stride + p;
    return base + b / tile_rows * tile_rows * binding.stride + p / tile_columns * tile_rows * tile_columns +
           b % tile_rows * tile_columns + p % tile_columns;
  }
  /// How far position p + k lies from position p, for k a multiple of tile_columns when tiled.
  uint64_t step(uint64_t k) const {
    if (tile_columns == 0) return k;
    if (k % tile_columns != 0) throw std::logic_error("View::step: an offset within a column tile");
    return k / tile_columns * tile_rows * tile_columns;
  }
};

/// How values come in (H = M of an r2c pass, the half length; N = M of an r2c_pair pass).
enum class LoadKind {
  plain,       ///< v = view[i]
  c2r,         ///< the inverse of an r2c kernel, from the half spectrum X[0..H]:
               ///< Z[k] = (X[k] + conj X[H-k]) + i W_N^-k (X[k] - conj X[H-k]), N = 2H
  pair_merge,  ///< the inverse of r2c_pair, from the half spectra X[0..N/2] then Y[0..N/2]:
               ///< Z[k] = X[k] + i Y[k], with X[N-k] = conj X[k] (likewise Y) above N/2
  chirp,       ///< Bluestein: v = x[n] w_n for n < N (conj w_n in the inverse kernel), 0 up to M
  image,       ///< v = pair i of a zero-padded real image (ImageView): known zeros are not loaded
};
std::string_view to_string(LoadKind);

/// How values go out.
enum class StoreKind {
  plain,       ///< view[i] = v * scale
  transposed,  ///< the first pass of a multi-pass kernel: y[j*M + r] through shared memory so
               ///< that both sides stay coalesced (the view is then contiguous per workgroup)
  r2c,         ///< forward r2c: from Z = FFT_H(x[2n] + i x[2n+1]) and Z[H-k] (through shared memory),
               ///< X[k] = E + W_N^k O with E = (Z[k] + conj Z[H-k])/2, O = -i (Z[k] - conj Z[H-k])/2,
               ///< for k < H, and X[H] = E_0 - O_0
  pair_split,  ///< forward r2c_pair: X[k] = (Z[k] + conj Z[N-k])/2, Y[k] = -i (Z[k] - conj Z[N-k])/2
               ///< for k <= N/2, written as X[0..N/2] then Y[0..N/2]
  grid,        ///< a 2D transform done in one pass: value kx*NY + ky goes to ky*NX + kx, through
               ///< shared memory so that the stores stay contiguous
  chirp_filter,  ///< Bluestein, after the forward FFT of M: view[k] = v * S[k] (S = FFT_M(b) / M)
  chirp_crop,    ///< Bluestein, after the inverse FFT of M: view[k] = v * w_k * scale for k < N only
  image,       ///< reals 2i, 2i+1 into a real image (ImageView), cropped: what lies outside it is dropped
};
std::string_view to_string(StoreKind);

struct LoadPrologue {
  LoadKind kind = LoadKind::plain;
  View view;
  /// Multiply value r of column j by W_L^(r*(j mod stride)), L = stride*M (passes after the first).
  bool pass_twiddle = false;
  ImageView image;  ///< LoadKind::image
  /// Elements of a transform from this index on (counted in vec2 values of one batch entry of the
  /// view, in the buffer's natural row-major order) are known zeros: they are not loaded. 0: none.
  /// A convolution's first column pass: the rows of the padded plane below the image.
  uint64_t zeros_from = 0;
};

struct StoreEpilogue {
  StoreKind kind = StoreKind::plain;
  View view;
  double scale = 1.0;  ///< normalisation (the last pass of a direction)
  ImageView image;     ///< StoreKind::image
  /// A convolution's pointwise product (plain stores): value k of transform b is multiplied by
  /// element k of filter plane (b mod filter_planes) at binding kFilterSlot, planes `filter_plane`
  /// complex values apart. 0: no product.
  uint32_t filter_planes = 0;
  uint64_t filter_plane = 0;
  /// The filter plane is kept by columns (KernelProgram::filter_by_columns): value i of column j
  /// at j * M + i. Otherwise it is laid out as the data.
  bool filter_by_columns = false;
  /// Only the elements of a transform below this index (natural row-major order) are stored; the
  /// rest is never read. 0: all. A convolution's last column pass: the rows the crop keeps.
  uint64_t stored_below = 0;
  /// Multiply value r of column j by W_L^(r*(j mod stride)), L = stride*M, after the stages (the
  /// first pass of a c2r inverse whose X pass does the last Y stage, PassProgram::pair_rows_interleaved:
  /// a decimation in time, where the forward's decimation in frequency twiddles as the Y pass loads).
  bool pass_twiddle = false;
};

/// One dispatch.
struct PassProgram {
  std::string name;         ///< fwd0, inv1, ...
  Direction direction = Direction::forward;
  size_t index = 0, count = 1;
  PassLayout fft;           ///< the sub-FFT: tiling, stages, shared memory, twiddle placement
  uint32_t batch_scale = 1; ///< batch entries per transform (the NY rows of a 2D kernel's X pass)
  /// A row pass over some rows only: each transform has this many rows, of which the pass
  /// computes the first batch_scale; its batch entry b is row (b div batch_scale) * rows_per_transform
  /// + b mod batch_scale. 0: every row (batch_scale of them). A convolution's row passes skip the
  /// padding rows below the image.
  uint32_t rows_per_transform = 0;
  /// Transforms come in frames of this many planes (P, an image's channels) that take turns. A row
  /// pass with rows_per_transform: entry b of a whole frame f is row (b mod (P*batch_scale)) div P of
  /// transform f*P + b mod P, so the channels of one pixel row run in neighbouring workgroups and
  /// share the interleaved image's cache lines. A column pass: the P planes' tiles of the same
  /// columns run in neighbouring workgroups, so a filter shared by the channels is read once per
  /// tile. Entries past the last whole frame go transform after transform. 1: no turns.
  uint32_t planes_per_frame = 1;
  /// The column pass of a convolution that does forward FFT, filter product and inverse FFT in one
  /// dispatch: its stages run forward, the values are multiplied by the filter spectrum (the
  /// store's filter_planes) where they lie, the stages run again inverse, then the store. With the
  /// chirp load, Bluestein's two transforms of a one-pass M (row mode) in one dispatch: the filter
  /// spectrum comes from the table (chirp.spectrum_offset) and the store is the crop.
  bool round_trip = false;
  /// An X pass that does the first Y stage (PassLayout::pair_rows) of an r2c kernel: the Y side of
  /// its rows is interleaved, row y's output (parity 0) at row 2y and row y + NY/2's (parity 1) at
  /// 2y + 1, which the Y pass reads as one row of 2 (NX/2 + 1) columns in place. The forward stores
  /// so; the c2r inverse loads rows 2y and 2y + 1 (the Y pass has twiddled the second as it stored
  /// it) and stores rows y and y + NY/2. (A c2c kernel keeps each parity's rows in column tiles.)
  bool pair_rows_interleaved = false;
  /// A row pass of one invocation a row (fft.threads_per_column 1: a length that is one codelet,
  /// a prime from 17 to 61, or the half of an r2c of twice one), whose loads and stores would lie a
  /// row apart across a warp: the load copies the workgroup's rows into shared memory in coalesced
  /// runs, and each invocation takes its row from there; the store goes the other way. fft.shared
  /// holds them, one row of an odd number of slots (at least the row's length + 1) each.
  bool rows_through_shared = false;
  LoadPrologue load;
  StoreEpilogue store;
  std::vector<PassBinding> bindings;  ///< in binding order
  bool twiddle_table = false;         ///< whether binding 2 (the kernel's twiddle table) is bound
  /// Whether the pass computes in doubles (precision fp64: its buffers hold complex128/float64).
  bool in_double() const;
  TwiddleSource twiddles = TwiddleSource::table;
  IndexMath index_math = IndexMath::bitwise;
  uint32_t n = 0;                     ///< points of one transform (NY * NX)
  uint32_t real_twiddle_offset = 0;   ///< c2r and r2c: where W_N^k, k < N/2, starts in the table
  /// Bluestein passes (LoadKind::chirp, StoreKind::chirp_filter, chirp_crop): N, where the chirp
  /// and this kernel direction's filter spectrum start in the table, and whether the chirp is
  /// conjugated (the inverse kernel). `direction` is the FFT's (forward, then inverse).
  /// conjugate_spectrum: the filter spectrum is read conjugated (the inverse kernel of a
  /// multi-pass Bluestein kernel, whose table holds one spectrum).
  struct Chirp {
    uint32_t n = 0, chirp_offset = 0, spectrum_offset = 0;
    bool conjugate = false;
    bool conjugate_spectrum = false;
  } chirp;

  /// Whether stage s's table twiddles W^(rk), r < R, are built by a product tree: W^(hk) for each
  /// power of two h < R from the table, and tw_r = tw_(r-h) * tw_h (h the highest power of two in
  /// r): ceil(log2 R) loads a butterfly instead of R - 1, each twiddle at most that many table
  /// values deep. Which stages take it is measured (measured_twiddle_tree(), fftgen/measured.hpp).
  bool stage_twiddle_tree(size_t s) const;
  /// Real operations of one transform in this pass: butterflies, twiddle multiplications, scaling.
  codelet::OpCounts ops() const;
  /// Whether the pass reads the buffer it writes (bindings 0 and 1 then hold one buffer).
  bool in_place() const { return bindings.size() >= 2 && bindings[0].role == bindings[1].role; }
};

/// pass_sync counters: the order in which the workgroups of one dispatch take the work of every
/// pass of a direction (docs/transforms.md, "Passes in one dispatch"). Each workgroup takes a ticket
/// from a counter, in order, and computes the ticket's item: workgroup `index` (of `items[pass]`)
/// of pass `pass` over transform `transform`. Tickets go round by round: round r holds, pass by
/// pass, the items of transform r - pass * lag (where that is a transform of the batch), so a
/// pass's items of a transform come `lag` rounds after the previous pass's. An item waits until
/// every item of the previous pass over its transform is done; those have earlier tickets, so they
/// were taken by workgroups already running, and nothing waits on a workgroup not yet started.
struct CounterSchedule {
  /// Shared memory of the dispatch's own beside the passes' arrays: what a workgroup claimed (3 uints).
  static constexpr uint32_t kSharedBytes = 12;
  std::vector<uint32_t> items;  ///< workgroups per transform of each pass, in pass order
  uint32_t lag = 1;             ///< rounds between a pass's items of a transform and the next pass's
  /// The dispatch's interface: the passes' bindings by role (kSourceSlot: input, kDestinationSlot:
  /// output, kTwiddleSlot, kScratchSlot, kScratch2Slot) and the counters (kSyncSlot).
  std::vector<PassBinding> bindings;
  /// Shared memory per workgroup: kSharedBytes and one array, the largest of the passes'; where
  /// some passes exchange complex values and others split ones, the split passes use its floats (a
  /// workgroup runs one pass, so they never meet; two arrays side by side would halve the workgroups
  /// an SM holds: 1D 131072 1769 -> 1263 GB/s on an H100).
  uint32_t shared_bytes = 0;

  struct Item {
    uint32_t pass = 0, transform = 0, index = 0;
  };
  uint32_t passes() const { return static_cast<uint32_t>(items.size()); }
  uint64_t items_per_transform() const;
  uint64_t rounds(uint32_t batch) const { return batch + uint64_t{passes() - 1} * lag; }
  /// Tickets before round `round`: sum over passes p of items[p] * clamp(round - p * lag, 0, batch).
  uint64_t tickets_before(uint64_t round, uint32_t batch) const;
  /// The item of `ticket` (< batch * items_per_transform()). The shader computes the same.
  Item item(uint64_t ticket, uint32_t batch) const;
  /// uint32 counters of a batch: the next ticket, and per pass but the last and transform the
  /// workgroups done with it, then those of the next pass that have seen them all (1 + (passes - 1)
  /// * batch). Zero before the first dispatch; each call leaves them zero.
  uint64_t counters(uint32_t batch) const { return 1 + uint64_t{passes() - 1} * batch; }
};

/// What a kernel's input or output buffer holds per transform.
struct KernelBuffer {
  ElementType element = ElementType::complex64;
  uint64_t elements = 0;  ///< per transform, in `element`s
};

/// Every pass of both directions of a kernel variant.
struct KernelProgram {
  KernelLayout layout;
  uint64_t scratch_elements = 0;  ///< complex values per transform (complex64, or complex32 in fp16), of the scratch buffer (0: none)
  /// Per direction: what the input and output buffers hold (an r2c kernel's forward reads reals,
  /// its inverse writes them).
  KernelBuffer forward_input, forward_output;
  const KernelBuffer& input(Direction d) const { return d == Direction::forward ? forward_input : forward_output; }
  const KernelBuffer& output(Direction d) const { return d == Direction::forward ? forward_output : forward_input; }
  std::vector<PassProgram> forward, inverse;
  const std::vector<PassProgram>& passes(Direction d) const { return d == Direction::forward ? forward : inverse; }
  /// A convolution (filter and apply kernel alike) whose apply kernel runs its padded columns as
  /// one round trip: the filter's spectrum is kept by columns, value k of column j of a filter
  /// plane at j * padded_h + k, so that the round trip's narrow column tiles read it in contiguous
  /// runs. Otherwise row-major, as the data.
  bool filter_by_columns = false;
  /// A 2D kernel whose values between its X and Y passes lie in scratch in tiles of this many
  /// columns (IntermediateLayout::column_tiles, View::tile_columns), in the directions whose X pass
  /// comes first. 0: row-major, in the output buffer.
  uint32_t column_tiles = 0;
  /// pass_sync counters: the passes of a direction run in one dispatch, in this order of work; their
  /// views are bound by role (CounterSchedule::bindings). Empty: one dispatch per pass.
  std::optional<CounterSchedule> forward_counters, inverse_counters;
  const std::optional<CounterSchedule>& counters(Direction d) const {
    return d == Direction::forward ? forward_counters : inverse_counters;
  }
  /// The dispatches of direction `d`: one per pass, or one for all (counters).
  size_t dispatches(Direction d) const { return counters(d) ? 1 : passes(d).size(); }
};

/// Builds the passes of a kernel variant (make_layout, then views, prologues and epilogues).
/// Throws PlanError like make_layout.
KernelProgram make_program(const KernelSpec& spec);

/// "fwd0", "inv1", ...
std::string pass_name(Direction direction, size_t pass);

/// The factor a direction's last pass applies (normalisation).
double direction_scale(const KernelSpec& spec, Direction direction);

}  // namespace fftgen
