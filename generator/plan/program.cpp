#include "fftgen/program.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "fftgen/measured.hpp"

namespace fftgen {

namespace {
// The pairs (vec2 values) a kernel buffer's elements make, the last one padded.
uint64_t pairs_of(const KernelBuffer& b) {
  return (b.elements + elements_per_pair(b.element) - 1) / elements_per_pair(b.element);
}
}  // namespace

ElementType stored_as(ElementType t, Precision precision) {
  if (precision == Precision::fp32) return t;
  if (precision == Precision::fp64) return in_double(t);
  return t == ElementType::float32 || t == ElementType::float16 ? ElementType::float16 : ElementType::complex32;
}

bool PassProgram::in_double() const {
  return std::any_of(bindings.begin(), bindings.end(), [](const PassBinding& b) { return is_double(b.element); });
}

std::string_view to_string(LoadKind kind) {
  switch (kind) {
    case LoadKind::plain: return "plain";
    case LoadKind::c2r: return "c2r";
    case LoadKind::pair_merge: return "pair_merge";
    case LoadKind::chirp: return "chirp";
    case LoadKind::image: return "image";
  }
  return "?";
}

std::string_view to_string(StoreKind kind) {
  switch (kind) {
    case StoreKind::plain: return "plain";
    case StoreKind::transposed: return "transposed";
    case StoreKind::r2c: return "r2c";
    case StoreKind::pair_split: return "pair_split";
    case StoreKind::grid: return "grid";
    case StoreKind::chirp_filter: return "chirp_filter";
    case StoreKind::chirp_crop: return "chirp_crop";
    case StoreKind::image: return "image";
  }
  return "?";
}

std::string pass_name(Direction direction, size_t pass) {
  return fmt::format("{}{}", direction == Direction::forward ? "fwd" : "inv", pass);
}

double direction_scale(const KernelSpec& spec, Direction direction) {
  // A convolution's filter spectrum carries the 1/(padded plane) of the inverse transform. With
  // half-float planes (precision fp16) that would put a normalised filter's spectrum below what
  // half floats hold (1/N of 1, N up to 2^26); the apply kernel takes 1/sqrt(N) each way instead,
  // which keeps the planes as large as the image (an orthonormal transform keeps the L2 norm): its
  // DC term is the image's sum over sqrt(N).
  if (spec.convolution_filter) return spec.precision == Precision::fp16 ? 1.0 : 1.0 / static_cast<double>(spec.points());
  if (spec.convolution && spec.precision == Precision::fp16) return 1.0 / std::sqrt(static_cast<double>(spec.points()));
  switch (spec.normalize) {
    case Normalize::none: return 1.0;
    case Normalize::inverse: return direction == Direction::inverse ? 1.0 / static_cast<double>(spec.points()) : 1.0;
    case Normalize::ortho: return 1.0 / std::sqrt(static_cast<double>(spec.points()));
  }
  return 1.0;
}

namespace {

const codelet::Dag& cached_codelet(uint32_t radix, Direction direction) {
  static std::mutex mutex;
  static std::map<std::pair<uint32_t, Direction>, codelet::Dag> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(radix, direction);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, codelet::make_dft(radix, direction)).first;
  return it->second;
}

void add_ops(codelet::OpCounts& into, const codelet::OpCounts& x, uint64_t times) {
  into.adds += static_cast<uint32_t>(x.adds * times);
  into.muls += static_cast<uint32_t>(x.muls * times);
  into.fma_candidates += static_cast<uint32_t>(x.fma_candidates * times);
  into.negs += static_cast<uint32_t>(x.negs * times);
}

}  // namespace

bool PassProgram::stage_twiddle_tree(size_t s) const {
  const StageLayout& stage = fft.stages[s];
  if (twiddles != TwiddleSource::table || s == 0 || stage.twiddle_stride() <= 1) return false;
  const TwiddleTreeRule& rule = measured_twiddle_tree();
  if (!is_power_of_two(fft.size)) return stage.radix >= rule.mixed_radix_from;
  return stage.radix >= rule.power_of_two_from &&
         (fft.stage_twiddles_early(s) || fft.workgroup_size >= rule.late_workgroup_from);
}

codelet::OpCounts PassProgram::ops() const {
  const codelet::OpCounts cmul{2, 4, 2, 0};
  codelet::OpCounts total;
  // A round trip runs its stages twice, forward then inverse.
  for (Direction d : round_trip ? std::vector<Direction>{Direction::forward, Direction::inverse}
                                : std::vector<Direction>{direction})
    for (size_t s = 0; s < fft.stages.size(); ++s) {
      const StageLayout& stage = fft.stages[s];
      const uint64_t butterflies = uint64_t{fft.columns_per_transform} * (fft.size / stage.radix);
      add_ops(total, codelet::count_ops(cached_codelet(stage.radix, d)), butterflies);
      if (stage.twiddle_stride() > 1) add_ops(total, cmul, butterflies * (stage.radix - 1));
      // A product tree builds each twiddle of a butterfly but those of the powers of two.
      if (stage_twiddle_tree(s))
        add_ops(total, cmul, butterflies * (stage.radix - 1 - ceil_log2(stage.radix)));
    }
  // Scaled to one transform: a pass over the rows of a 2D kernel does batch_scale rows per transform.
  total.adds *= batch_scale;
  total.muls *= batch_scale;
  total.fma_candidates *= batch_scale;
  total.negs *= batch_scale;
  // One multiplication by the twiddle, plus one to assemble it from a two-level table.
  if (load.pass_twiddle || store.pass_twiddle)
    add_ops(total, cmul,
            uint64_t{n} * (twiddles == TwiddleSource::table && !fft.pass_twiddles.single_level() ? 2 : 1));
  // The separation of a real transform, per complex value of the half-length transform: two
  // conjugate sums and differences (4 adds), a complex multiplication by the twiddle and the halving
  // (c2r: no halving); the pair separation: the sums and differences and the halving.
  const uint64_t values = uint64_t{fft.size} * fft.columns_per_transform * batch_scale / fft.interleave;
  const codelet::OpCounts real_step{6, 6, 2, 0}, real_inverse_step{6, 4, 2, 0}, pair_step{4, 4, 0, 0};
  if (store.kind == StoreKind::r2c) add_ops(total, real_step, values);
  if (load.kind == LoadKind::c2r) add_ops(total, real_inverse_step, values);
  if (store.kind == StoreKind::pair_split) add_ops(total, pair_step, values / 2);
  if (store.filter_planes > 0) add_ops(total, cmul, values);
  // The first Y stage of an X pass that does it (PassLayout::pair_rows): a sum or a difference per value.
  if (fft.pair_rows != 0) total.adds += 2 * values;
  if (store.scale != 1.0) total.muls += 2 * n;
  return total;
}

namespace {

// What a pass reads and writes, before buffers are chosen: complex values per transform and
// whether it may work in place.
struct PassIo {
  size_t layout_index;
  uint64_t reads = 0, writes = 0;  // vec2 values per transform
  bool in_place = false;
};

// Buffers, walking back from the last pass (which writes the output): a pass that writes exactly
// what it reads reads the buffer it writes; any other reads the other one of output and scratch;
// the first pass reads the input. The output buffer holds intermediate values only where they fit
// (the reals of a c2r kernel do not hold its half spectrum); the scratch buffer is sized to what it
// must hold.
// An image output (io image) holds no intermediate values: its last pass reads scratch, and passes
// that do not work in place alternate between scratch and a second scratch buffer of its size. Nor
// does the pixels' buffer a convolution's inverse writes (`pixels_out`): its layout and elements
// are the image's, and its last pass would write pixels where other workgroups still read values;
// nor the reals of a 3D c2r (plan_direction).
void assign_buffers(const KernelSpec& spec, std::vector<PassIo>& io, uint64_t output_vec2, bool pixels_out,
                    std::vector<std::pair<BufferRole, BufferRole>>& roles, uint64_t& scratch_vec2) {
  const bool image = spec.io == Io::image || pixels_out;
  roles.assign(io.size(), {BufferRole::input, BufferRole::output});
  BufferRole dst = BufferRole::output;
  for (size_t p = io.size(); p-- > 0;) {
    roles[p].second = dst;
    if (dst == BufferRole::scratch || dst == BufferRole::scratch2) scratch_vec2 = std::max(scratch_vec2, io[p].writes);
    if (p == 0) break;
    BufferRole src = dst;
    if (image && (!io[p].in_place || dst == BufferRole::output))
      src = dst == BufferRole::scratch ? BufferRole::scratch2 : BufferRole::scratch;
    else if (!io[p].in_place)
      src = dst == BufferRole::output ? BufferRole::scratch : BufferRole::output;
    if (src == BufferRole::output && io[p].reads > output_vec2) {
      if (dst == BufferRole::scratch)
        throw PlanError(fmt::format("kernel '{}': field 'shared_memory_bytes': {} bytes split the transform into "
                                    "more passes than two buffers can hold; raise it",
                                    spec.name, spec.shared_memory_bytes));
      src = BufferRole::scratch;
    }
    if (src == BufferRole::scratch || src == BufferRole::scratch2) scratch_vec2 = std::max(scratch_vec2, io[p].reads);
    roles[p].first = src;
    dst = src;
  }
}

// Names and numbers a direction's passes in order, after a fusion removed some.
void number_passes(std::vector<PassProgram>& passes) {
  for (size_t i = 0; i < passes.size(); ++i) {
    passes[i].name = pass_name(passes[i].direction, i);
    passes[i].index = i;
    passes[i].count = passes.size();
  }
}

// Whether a direction of a convolution is one row pass along X and column passes along Y, the rows
// first (forward) or last (inverse): the structure whose padding rows can be skipped.
bool rows_then_columns(const std::vector<PassProgram>& passes, bool rows_first) {
  if (passes.size() < 2) return false;
  const PassProgram& rows = rows_first ? passes.front() : passes.back();
  if (!rows.fft.row_mode() || rows.fft.axis != 0 || rows.fft.grid_ny != 0) return false;
  for (size_t i = rows_first ? 1 : 0; i < passes.size() - (rows_first ? 0 : 1); ++i)
    if (passes[i].fft.axis != 1 || passes[i].fft.row_mode()) return false;
  return true;
}

// The rows of the padded plane below the image ("same" mode: rows H..PH-1) are zero on the way in
// and cropped away on the way out. The forward row pass transforms the H image rows only, the first
// column pass takes the rest as known zeros (its input is the row pass's output, row-major), the
// last inverse column pass stores only the H rows the crop keeps and the inverse row pass runs over
// those. Kernels of another pass structure (a 2D grid in one pass, an X axis in several passes)
// keep every row.
void skip_padding_rows(const ConvolutionSpec& c, KernelProgram& program) {
  if (c.image_h >= c.padded_h || !rows_then_columns(program.forward, true) ||
      !rows_then_columns(program.inverse, false))
    return;
  const uint64_t kept = uint64_t{c.image_h} * program.layout.columns;
  PassProgram& first_column = program.forward[1];
  PassProgram& last_column = program.inverse[program.inverse.size() - 2];
  if (first_column.load.kind != LoadKind::plain || first_column.load.pass_twiddle ||
      last_column.store.kind != StoreKind::plain)
    return;
  for (PassProgram* rows : {&program.forward.front(), &program.inverse.back()}) {
    rows->rows_per_transform = rows->batch_scale;
    rows->batch_scale = c.image_h;
    rows->planes_per_frame = c.planes();
  }
  first_column.load.zeros_from = kept;
  last_column.store.stored_below = kept;
}

// Where a padded column fits one workgroup (one column pass per direction), the forward column
// pass, the filter product and the inverse column pass become one dispatch: the spectrum never
// crosses memory. The forward output then holds the columns already transformed back (the X half
// spectrum of each row of the result), which the inverse row pass reads. A balanced pass holds
// value e at q + e*step in every stage, so the forward FFT leaves each value where the inverse FFT
// takes it.
void fuse_column_passes(KernelProgram& program) {
  if (program.forward.size() != 2 || program.inverse.size() != 2 || !rows_then_columns(program.forward, true))
    return;
  PassProgram& forward = program.forward[1];
  const PassProgram& inverse = program.inverse[0];
  if (!forward.fft.balanced() || forward.fft.stride != 1 || forward.store.kind != StoreKind::plain ||
      forward.store.filter_planes == 0 || inverse.load.kind != LoadKind::plain || inverse.fft.stride != 1)
    return;
  forward.round_trip = true;
  forward.store.scale *= inverse.store.scale;
  forward.store.stored_below = inverse.store.stored_below;
  program.inverse.erase(program.inverse.begin());
  number_passes(program.inverse);
  PassProgram& rows = program.inverse.front();
  // It reads what the fused pass wrote: the inverse direction's input (the forward output), of
  // the forward output's elements. (Without skipped rows the inverse column pass had left its
  // values in the output, the float32 image, and the rows read them there: the binding kept that
  // element type, which the same bytes made harmless in fp32 and wrong in half floats.)
  rows.bindings[0].role = BufferRole::input;
  rows.bindings[0].element = forward.bindings[1].element;
  rows.bindings[0].scalar = false;
  rows.load.view.binding = rows.bindings[0];
  bool scratch = false;
  for (const auto* passes : {&program.forward, &program.inverse})
    for (const PassProgram& p : *passes)
      for (const PassBinding& b : p.bindings) scratch = scratch || b.role == BufferRole::scratch;
  if (!scratch) program.scratch_elements = 0;
}

// Where the padded columns take two passes per direction (A of stride 1, then B of stride S = size
// of A), the last forward pass B, the filter product and its exact reverse become one dispatch: B
// reads and writes the values j + r*S of its column j, with the inter-pass twiddle W^(r*j) on the
// way in, so the round trip runs B's stages, the product, the inverse stages and the conjugate
// twiddle on the way out, and leaves A's output layout transformed back. The inverse then needs
// only A^-1: A with its views swapped (it reads value k of its column where A wrote it and writes
// value n where A read it), then the inverse rows. Two passes of the plane's traffic fewer.
void fuse_inner_column_passes(KernelProgram& program) {
  if (program.forward.size() != 3 || program.inverse.size() != 3 || !rows_then_columns(program.forward, true) ||
      !rows_then_columns(program.inverse, false))
    return;
  const PassProgram& a = program.forward[1];
  PassProgram& b = program.forward[2];
  const PassProgram &inverse_a = program.inverse[0], &inverse_b = program.inverse[1];
  if (a.fft.stride != 1 || b.fft.stride != a.fft.size || !b.fft.balanced() || !b.fft.in_place_safe() ||
      b.store.kind != StoreKind::plain || b.store.filter_planes == 0 || a.store.kind != StoreKind::plain ||
      a.load.kind != LoadKind::plain || a.load.pass_twiddle || inverse_a.load.kind != LoadKind::plain ||
      inverse_b.store.kind != StoreKind::plain)
    return;
  b.round_trip = true;
  // The round trip ends with B's reverse, which takes the scale of the inverse's pass over B's
  // layout; A's reverse (below) takes that of the pass over A's.
  b.store.scale *= inverse_b.store.scale;
  PassProgram reverse = a;
  reverse.direction = Direction::inverse;
  reverse.bindings[0] = inverse_a.bindings[0];  // the forward's output
  reverse.bindings[1] = inverse_b.bindings[1];  // what the inverse rows read
  reverse.load = LoadPrologue{};
  reverse.load.view = a.store.view;
  reverse.load.view.binding = reverse.bindings[0];
  reverse.store = StoreEpilogue{};
  reverse.store.view = a.load.view;
  reverse.store.view.binding = reverse.bindings[1];
  reverse.store.stored_below = inverse_b.store.stored_below;
  reverse.store.scale = inverse_a.store.scale;
  program.inverse.erase(program.inverse.begin(), program.inverse.begin() + 2);
  program.inverse.insert(program.inverse.begin(), std::move(reverse));
  number_passes(program.inverse);
}

// A convolution kernel is an r2c kernel of the padded plane (c2c where the channels are packed in
// pairs) whose first pass reads the image (the filter kernel: the filter, its centre moved to the
// origin) and whose apply kernel multiplies by the filter's spectrum in its last forward pass and
// writes the cropped image in its last inverse pass. The shader finds the pixels of the padded
// plane's rows (and skips the padding) itself.
void fuse_convolution(const KernelSpec& spec, KernelProgram& program) {
  const ConvolutionSpec& c = *spec.convolution;
  // A batch entry of the image binding is a row of the padded plane: its pairs of reals (r2c), or
  // its pixels (channel pairs). Reals one by one, as rows of odd width or of an odd channel count
  // start mid-pair; channel pairs of an even count move as pairs.
  auto image_binding = [&](PassBinding& b, const ImageView& image) {
    b.entry = b.stride = c.pairs ? c.padded_w : c.padded_w / 2;
    b.scalar = !image.channel_pairs || image.channels % 2 != 0;
  };
  auto unsupported = [&](const PassProgram& pass, const char* what) {
    return PlanError(fmt::format("kernel '{}': field 'convolution': the padded plane [{}, {}] makes pass {} {}, "
                                 "which a convolution cannot fuse yet; choose another image or filter size",
                                 spec.name, c.padded_h, c.padded_w, pass.name, what));
  };
  PassProgram& first = program.forward.front();
  if (!c.pairs && c.padded_w % 2 != 0)
    throw std::logic_error(fmt::format("fuse_convolution: kernel '{}': an r2c plane of odd width {}", spec.name,
                                       c.padded_w));
  if (first.load.kind != LoadKind::plain || first.fft.axis != 0) throw unsupported(first, "no plain row pass");
  first.load.kind = LoadKind::image;
  // Packed in pairs, the filter's plane is complex too: the filter as real parts.
  const ImageView image{c.image_h, c.image_w, c.channels, c.padded_h, c.padded_w, 0, 0, c.pairs};
  const ImageView filter{c.filter_h, c.filter_w, c.filter_channels, c.padded_h, c.padded_w,
                         c.centre_y(), c.centre_x(), c.pairs};
  first.load.image = spec.convolution_filter ? filter : image;
  image_binding(first.bindings[0], first.load.image);
  // io image (plan.cpp allows one plane per pixel): the frame's pixels are texels of a storage
  // image, W wide and H rows per frame (frames one below the other), read and written whole.
  auto frame_texture = [&](PassBinding& b) {
    if (spec.io != Io::image || spec.convolution_filter) return;
    b.texture = spec.image_format;
    b.texels_per_row = c.image_w;
    b.scalar = false;
  };
  frame_texture(first.bindings[0]);
  first.load.view.binding = first.bindings[0];
  if (spec.convolution_filter) {
    // The filter's spectrum laid out as its apply kernel reads it (make_program decided which).
    if (program.filter_by_columns) {
      PassProgram& columns = program.forward.back();
      if (columns.fft.axis != 1 || columns.store.kind != StoreKind::plain || program.forward.size() != 2)
        throw std::logic_error(fmt::format("fuse_convolution: kernel '{}': a filter kept by columns needs rows, then "
                                           "one column pass with a plain store",
                                           spec.name));
      columns.store.view.element_stride = 1;
      columns.store.view.column_split = 1;
      columns.store.view.split_stride = c.padded_h;
    }
    return;
  }

  PassProgram& multiply = program.forward.back();
  if (multiply.store.kind != StoreKind::plain) throw unsupported(multiply, "store through shared memory");
  multiply.store.filter_planes = c.filter_channels;
  // One filter for every channel: the channels' tiles take turns and share the filter's tile.
  if (c.filter_channels == 1) multiply.planes_per_frame = c.planes();
  multiply.store.filter_plane = program.forward_output.elements;
  const uint64_t planes = program.forward_output.elements * c.filter_channels;
  multiply.bindings.push_back({kFilterSlot, BufferRole::filter, stored_as(ElementType::complex64, spec.precision), planes,
                              planes, ""});

  PassProgram& last = program.inverse.back();
  if (last.store.kind != StoreKind::plain) throw unsupported(last, "store through shared memory");
  last.store.kind = StoreKind::image;
  last.store.image = image;
  image_binding(last.bindings[1], last.store.image);
  frame_texture(last.bindings[1]);
  last.store.view.binding = last.bindings[1];
  skip_padding_rows(c, program);
  fuse_column_passes(program);
  fuse_inner_column_passes(program);
  // A round trip of whole columns in narrow tiles keeps the filter by columns: a subgroup of 32
  // invocations reads C columns of 32/C values each, runs of C values in rows and of 32/C by
  // columns. Measured on an H100 (1024² RGBA bloom, 2-column tiles of layout.cpp's round-trip
  // rule): the round trip 0.100 ms by columns against 0.118 by rows. Wider tiles read a row-major
  // filter in runs as long as their data's, and so does the inner round trip of two column passes
  // (16 columns): they keep rows.
  const PassProgram& product = program.forward.back();
  const uint32_t tile = product.fft.columns_per_workgroup;
  if (program.forward.size() == 2 && product.round_trip && tile * tile < 32) {
    program.filter_by_columns = true;
    program.forward.back().store.filter_by_columns = true;
  }
}

// io image: the first pass of each direction reads its input from an image, the last pass writes
// its output to one; the values between passes stay in scratch (assign_buffers). An image row is a
// row of the data: NX texels (a half spectrum's NX/2 + 1), transforms one below the other.
void use_textures(const KernelSpec& spec, KernelProgram& program) {
  const bool real = spec.transform == Transform::r2c;
  auto mark = [&](PassBinding& b, const KernelBuffer& data) {
    const bool real_data = data.element == ElementType::float32;
    b.texture = real_data ? TextureFormat::r32f : real ? TextureFormat::rg32f : spec.image_format;
    b.texels_per_row = real_data ? spec.n() : static_cast<uint32_t>(data.elements / spec.ny());
  };
  for (Direction d : directions_of(spec.direction)) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    PassProgram& first = passes.front();
    PassProgram& last = passes.back();
    mark(first.bindings[0], program.input(d));
    first.load.view.binding = first.bindings[0];
    mark(last.bindings[1], program.output(d));
    last.store.view.binding = last.bindings[1];
  }
}

}  // namespace

namespace {

// A full-length r2c kernel (KernelLayout::real_full_length) is a complex transform of N whose
// first pass reads the reals (forward) or the half spectrum (inverse) and whose last pass writes
// the half spectrum (forward) or the reals (inverse): its views say so (View::RealSide).
void set_real_sides(KernelProgram& program, uint32_t n) {
  using Side = View::RealSide;
  for (Direction d : {Direction::forward, Direction::inverse}) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    if (passes.empty()) continue;
    auto mark = [&](View& view, PassBinding& binding, Side side) {
      view.real_side = side;
      view.real_n = n;
      binding.scalar = side == Side::reals;  // reals one by one: transforms of odd N start mid-pair
      view.binding = binding;
    };
    const bool forward = d == Direction::forward;
    mark(passes.front().load.view, passes.front().bindings[0], forward ? Side::reals : Side::half_spectrum);
    mark(passes.back().store.view, passes.back().bindings[1], forward ? Side::half_spectrum : Side::reals);
  }
}

// What a full-length r2c kernel's buffers hold per transform: N reals (N + 1 for odd N, so that
// transforms start at whole pairs; the last is padding) and the N/2 + 1 complex values of the
// half spectrum.
void set_real_buffers(KernelProgram& program, uint32_t n) {
  program.forward_input = {ElementType::float32, n + n % 2};
  program.forward_output = {ElementType::complex64, n / 2 + 1};
}

// Whether Bluestein's transforms of M run in one dispatch per direction (PassProgram::round_trip):
// M in one row pass (a dispatch each until then: two trips of M values through memory saved),
// whose values go back to the first stage's places through one exchange round where its stages
// leave them elsewhere, where the table of measured choices says so (MeasuredDecision::
// chirp_round_trip: up to M = 8192 but smooth M above 4096).
bool chirp_round_trip(const KernelSpec& spec, const KernelLayout& layout) {
  if (layout.passes.size() != 1) return false;
  const PassLayout& pass = layout.passes.front();
  MeasuredFacts facts = measured_facts(spec, layout.n);
  facts.size = layout.n;
  return pass.row_mode() && (pass.balanced() || pass.exchange_rounds() == 1) &&
         measured_yes(MeasuredDecision::chirp_round_trip, facts);
}

// Complex values a transform of a Bluestein kernel keeps in scratch between its passes: none for a
// round trip, M between two passes, 2M (two halves, taken in turn) between more.
uint64_t chirp_scratch_between(const KernelSpec& spec, const KernelLayout& layout) {
  if (chirp_round_trip(spec, layout)) return 0;
  return uint64_t{layout.passes.size() == 1 ? 1u : 2u} * layout.n;
}

// Where Z = FFT_H(x[2n] + i x[2n+1]) of KernelLayout::bluestein_real_half lies between its real
// pass and the Bluestein passes: in the output (the forward's H + 1 complex values a transform, the
// inverse's 2H reals), or, where the output is a storage image (which a pass cannot read where it
// writes), in scratch after the values between the passes.
struct HalfZ {
  PassBinding binding;
  uint64_t base = 0;
  PassBinding at(ResourceSlot slot) const {
    PassBinding b = binding;
    b.slot = slot;
    b.stride_constant = slot.binding == kSourceSlot.binding ? kPushSrcStride : kPushDstStride;
    return b;
  }
};
std::optional<HalfZ> half_z(const KernelSpec& spec, const KernelLayout& layout, const KernelProgram& program, Direction d) {
  if (!layout.bluestein_real_half) return std::nullopt;
  if (spec.io == Io::image) {
    const uint64_t between = chirp_scratch_between(spec, layout), scratch = between + layout.bluestein_n;
    return HalfZ{{kSourceSlot, BufferRole::scratch, ElementType::complex64, scratch, scratch, kPushSrcStride}, between};
  }
  const uint64_t out = pairs_of(program.output(d));
  return HalfZ{{kSourceSlot, BufferRole::output, program.output(d).element, out, out, kPushSrcStride}, 0};
}

// The pass of KernelLayout::bluestein_real_half in direction d over H one-value columns: forward,
// the separation of Z (half_z) into the half spectrum in the output (mirrored tiles, an r2c store;
// in place where Z lies in the output); inverse, Z from the half spectrum (a c2r load).
PassProgram real_half_pass(const KernelSpec& spec, const KernelLayout& layout, const KernelProgram& program, Direction d) {
  const bool forward = d == Direction::forward;
  const uint32_t h = layout.bluestein_n;
  PassProgram pass;
  pass.direction = d;
  pass.fft = layout.real_pass;
  if (!forward) {  // stride 1: Z[j] to element j, nothing exchanged
    pass.fft.stride = 1;
    pass.fft.store_exchange = false;
    pass.fft.shared = SharedMemoryMap{};
  }
  pass.twiddles = spec.twiddle_source();
  pass.index_math = spec.index_math;
  pass.n = spec.n();
  pass.real_twiddle_offset = layout.real_twiddle_offset;
  const HalfZ z = *half_z(spec, layout, program, d);
  const PassBinding spectrum = forward ? PassBinding{kDestinationSlot, BufferRole::output, ElementType::complex64, h + 1,
                                                     h + 1, kPushDstStride}
                                       : PassBinding{kSourceSlot, BufferRole::input, ElementType::complex64, h + 1, h + 1,
                                                     kPushSrcStride};
  const PassBinding src = forward ? z.at(kSourceSlot) : spectrum, dst = forward ? spectrum : z.at(kDestinationSlot);
  pass.bindings = {src, dst};
  pass.twiddle_table = spec.twiddle_source() == TwiddleSource::table;
  if (pass.twiddle_table)
    pass.bindings.push_back({kTwiddleSlot, BufferRole::twiddles, ElementType::complex64, layout.twiddles.count, 0, ""});
  pass.load = {forward ? LoadKind::plain : LoadKind::c2r, {src, pass.fft.columns_per_transform, 0, 0}, false, {}};
  if (forward) pass.load.view.base = z.base;
  const uint32_t s = pass.fft.stride;
  pass.store.kind = forward ? StoreKind::r2c : StoreKind::plain;
  pass.store.view = View{dst, s, s, s * pass.fft.size};
  if (!forward) pass.store.view.base = z.base;
  return pass;
}

// KernelLayout::bluestein_real_half: the separation after the forward's Bluestein passes, the merge
// before the inverse's; the passes are renumbered.
void add_real_half_passes(const KernelSpec& spec, const KernelLayout& layout, KernelProgram& program) {
  for (Direction d : directions_of(spec.direction)) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    const PassProgram pass = real_half_pass(spec, layout, program, d);
    passes.insert(d == Direction::forward ? passes.end() : passes.begin(), pass);
    for (size_t i = 0; i < passes.size(); ++i) {
      passes[i].index = i;
      passes[i].count = passes.size();
      passes[i].name = pass_name(d, i);
    }
  }
}

// Bluestein's algorithm (layout.hpp): per kernel direction, the forward FFT of M whose first pass
// multiplies by the chirp and pads with zeros and whose last pass multiplies by the filter spectrum
// (into scratch), then the inverse FFT of M whose last pass multiplies by the chirp, scales and
// keeps the first N values. X_k = w_k sum_n x_n w_n conj(w_(k-n)), w_n = exp(-pi i n^2 / N).
// A transform of M in one dispatch goes input -> scratch -> output; with several passes each, the
// passes between alternate between the two halves of a scratch buffer of 2M (so no pass works in
// place, and the output, N < M values, holds only the result).
// Where M is one pass, both transforms run in one dispatch (chirp_round_trip) and no scratch holds
// values between them.
KernelProgram make_bluestein_program(const KernelSpec& spec, KernelLayout layout) {
  KernelProgram program;
  const uint32_t n = layout.bluestein_n, m = layout.n;
  const bool round_trip = chirp_round_trip(spec, layout);
  const size_t fft_passes = layout.passes.size(), count = round_trip ? 1 : 2 * fft_passes;
  // fp16: the input and the output in half floats; the chirp products and the values between the
  // passes stay float in scratch, so the kernel rounds to half only as it loads and as it stores.
  program.forward_input = program.forward_output = KernelBuffer{stored_as(ElementType::complex64, spec.precision), n};
  if (layout.real_full_length) set_real_buffers(program, n);
  if (layout.bluestein_real_half) {  // 2H reals read as H pairs; the half spectrum of H + 1 values
    program.forward_input = {ElementType::float32, 2 * uint64_t{n}};
    program.forward_output.elements = n + 1;
  }
  const uint64_t scratch = chirp_scratch_between(spec, layout) + (layout.bluestein_real_half && spec.io == Io::image ? n : 0);
  program.scratch_elements = scratch;
  for (Direction d : directions_of(spec.direction)) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    const uint64_t in = pairs_of(program.input(d)), out = pairs_of(program.output(d));
    const std::optional<HalfZ> z = half_z(spec, layout, program, d);
    for (size_t i = 0; i < count; ++i) {
      const PassLayout& fft = layout.passes[i % fft_passes];
      const bool first = i == 0, last = i + 1 == count;
      // The half-length route: the inverse reads Z where its merge put it, the forward leaves it for its separation.
      const bool reads_z = z && first && d == Direction::inverse, writes_z = z && last && d == Direction::forward;
      PassProgram pass;
      pass.name = pass_name(d, i);
      pass.direction = i < fft_passes ? Direction::forward : Direction::inverse;
      pass.index = i;
      pass.count = count;
      pass.fft = fft;
      pass.twiddles = spec.twiddle_source();
      pass.index_math = spec.index_math;
      pass.n = n;
      pass.chirp = {n, layout.chirp_offset, layout.spectrum_offset[d == Direction::forward ? 0 : 1],
                    d == Direction::inverse,
                    d == Direction::inverse && layout.spectrum_offset[1] == layout.spectrum_offset[0]};
      const PassBinding input{kSourceSlot, BufferRole::input, program.input(d).element, in, in, kPushSrcStride};
      const PassBinding scratch_in{kSourceSlot, BufferRole::scratch, ElementType::complex64, scratch, scratch, kPushSrcStride};
      const PassBinding scratch_out{kDestinationSlot, BufferRole::scratch, ElementType::complex64, scratch, scratch,
                                    kPushDstStride};
      const PassBinding output{kDestinationSlot, BufferRole::output, program.output(d).element, out, out, kPushDstStride};
      const PassBinding table{kTwiddleSlot, BufferRole::twiddles, ElementType::complex64, layout.twiddles.count, 0, ""};
      pass.bindings = {first ? input : scratch_in, last ? output : scratch_out, table};
      if (reads_z) pass.bindings[0] = z->at(kSourceSlot);
      if (writes_z) pass.bindings[1] = z->at(kDestinationSlot);
      pass.twiddle_table = true;
      // With computed twiddles (fp16's default) a pass between the chirp passes reads no table.
      if (spec.twiddle_source() == TwiddleSource::computed && !first && !last && i + 1 != fft_passes) {
        pass.bindings.pop_back();
        pass.twiddle_table = false;
      }
      pass.load = {first ? LoadKind::chirp : LoadKind::plain, {pass.bindings[0], fft.columns_per_transform, 0, 0},
                   fft.stride > 1, {}};
      if (!first) pass.load.view.base = uint64_t{(i - 1) % 2} * m;
      if (reads_z) pass.load.view.base = z->base;
      pass.round_trip = round_trip;
      pass.store.kind = round_trip || last     ? StoreKind::chirp_crop
                        : i + 1 == fft_passes  ? StoreKind::chirp_filter
                        : fft.transposed_store() ? StoreKind::transposed
                                                 : StoreKind::plain;
      const uint32_t s = fft.stride;
      pass.store.view = fft.row_mode() ? View{pass.bindings[1], 1, 0, 0} : View{pass.bindings[1], s, s, s * fft.size};
      if (!last) pass.store.view.base = uint64_t{i % 2} * m;
      if (writes_z) pass.store.view.base = z->base;
      pass.store.scale = last ? direction_scale(spec, d) : 1.0;
      passes.push_back(std::move(pass));
    }
  }
  if (layout.real_full_length) set_real_sides(program, n);
  if (layout.bluestein_real_half) add_real_half_passes(spec, layout, program);
  program.layout = std::move(layout);
  if (spec.io == Io::image) use_textures(spec, program);
  return program;
}

// A 2D or 3D kernel with a side through Bluestein, or an r2c of odd NX (KernelLayout::sides_apart):
// per direction the X side over the NY (NZ * NY) rows of each transform (batch entries), then the
// Y side over each plane's columns, then (3D) the Z side over the volume's columns. A side through
// Bluestein runs the forward FFT of its M with the chirp load and the filter store, then the
// inverse FFT with the crop; another side runs its FFT once. Each side reads its
// source (the input, then the output the X side wrote) and ends in the output; the passes between
// alternate between the two halves of scratch, laid out per side (a row's 2M values along X, a
// plane's M x C values along Y, C columns; a volume's M x NY x C along Z), so no pass but a lone Y
// or Z pass works in place.
// An r2c kernel's X side is the complex transform of NX with a real load and a half-spectrum
// store, as a 1D r2c of full length (View::RealSide), and its Y and Z sides transform the C =
// NX/2 + 1 columns of the half spectrum. Its inverse (c2r) runs the sides the other way round,
// from the input into scratch2 (the output, NY x NX reals, cannot hold NY x C complex values), the
// X side last from there, with a half-spectrum load and a real store. Rows of odd NX lie NX + 1
// reals apart.
// One pass of a side of a chirp-sides kernel: its layout, the direction of its sub-FFT, its load and store.
struct ChirpStep {
  const PassLayout* fft;
  Direction fft_direction;
  LoadKind load;
  StoreKind store;
};

// The passes of each side (axis) of direction d, in the order the sides run: along a side through
// Bluestein's algorithm, the forward passes of M (the first loading through the chirp, the last
// storing the product with the filter spectrum) and the inverse ones (the last cropping through the
// chirp); along another side, its passes in direction d.
std::vector<std::pair<uint32_t, std::vector<ChirpStep>>> chirp_side_steps(const KernelSpec& spec,
                                                                          const KernelLayout& layout, Direction d) {
  std::vector<std::pair<uint32_t, std::vector<ChirpStep>>> sides;
  for (uint32_t a = 0; a < (layout.nz > 1 ? 3u : 2u); ++a) {
    std::vector<const PassLayout*> axis;
    for (const PassLayout& p : layout.passes)
      if (p.axis == a) axis.push_back(&p);
    std::vector<ChirpStep> steps;
    const bool chirp = layout.chirp_sides[a].n != 0;
    for (const PassLayout* p : axis) steps.push_back({p, chirp ? Direction::forward : d, LoadKind::plain, StoreKind::plain});
    if (chirp) {
      for (const PassLayout* p : axis) steps.push_back({p, Direction::inverse, LoadKind::plain, StoreKind::plain});
      steps.front().load = LoadKind::chirp;
      steps[axis.size() - 1].store = StoreKind::chirp_filter;
      steps.back().store = StoreKind::chirp_crop;
    }
    for (ChirpStep& s : steps)
      if (s.store == StoreKind::plain && s.fft->transposed_store()) s.store = StoreKind::transposed;
    sides.push_back({a, std::move(steps)});
  }
  if (spec.transform == Transform::r2c && d == Direction::inverse) std::reverse(sides.begin(), sides.end());  // c2r: X last
  return sides;
}

// What the passes of one side share.
struct ChirpSide {
  Direction direction = Direction::forward;
  uint32_t axis = 0;
  const std::vector<ChirpStep>* steps = nullptr;
  bool last_side = false;
  uint32_t halves = 1;    ///< scratch halves the side's passes alternate between
  uint64_t half = 0;      ///< vec2 values of one half, per batch entry
  BufferRole source = BufferRole::input, destination = BufferRole::output;  ///< what it reads first and writes last
  size_t count = 0;       ///< passes of the direction
  double scale = 1.0;     ///< what its last pass's store multiplies by
};

// Batch entries per transform of a pass: the rows of an X pass (NY, or NZ * NY in 3D), the planes
// of a 3D kernel's Y pass or of a grid done in one pass, one otherwise (a Y pass of 2D, a Z pass).
uint32_t entries_per_transform(const KernelLayout& layout, const PassLayout& fft) {
  if (fft.grid_ny != 0) return layout.nz;
  return fft.axis == 0 ? layout.ny * layout.nz : fft.axis == 1 ? layout.nz : 1;
}

// vec2 values per batch entry of the data a side reads and writes: a row along X (reals: NX/2
// pairs), a plane along Y, a volume along Z; scratch holds what the side's passes exchange,
// scratch2 (c2r) the values between the sides.
uint64_t chirp_entry(const KernelProgram& program, const KernelLayout& layout, const ChirpSide& side, BufferRole role) {
  if (role == BufferRole::scratch) return side.halves * side.half;
  const uint32_t entries = entries_per_transform(layout, *side.steps->front().fft);
  if (side.axis != 0) return uint64_t{layout.columns} * layout.ny * layout.nz / entries;
  const Direction d = side.direction;
  const uint64_t whole = role == BufferRole::input ? pairs_of(program.input(d)) : pairs_of(program.output(d));
  return role == BufferRole::scratch2 ? layout.columns : whole / entries;
}

// The X side of an r2c kernel: reals and the half spectrum of each row (View::RealSide).
void mark_real_side(View& view, PassBinding& binding, View::RealSide real_side, uint32_t nx) {
  view.real_side = real_side;
  view.real_n = nx;
  binding.scalar = real_side == View::RealSide::reals;
  view.binding = binding;
}

PassProgram make_chirp_side_pass(const KernelSpec& spec, const KernelProgram& program, const KernelLayout& layout,
                                 const ChirpSide& side, size_t i, size_t index) {
  const ChirpStep& step = (*side.steps)[i];
  const PassLayout& fft = *step.fft;
  const Direction d = side.direction;
  const bool first = i == 0, last = i + 1 == side.steps->size();
  const KernelLayout::ChirpSide chirp = layout.chirp_sides[side.axis];
  PassProgram pass;
  pass.index = index;
  pass.name = pass_name(d, index);
  pass.direction = step.fft_direction;
  pass.count = side.count;
  pass.fft = fft;
  pass.batch_scale = entries_per_transform(layout, fft);
  pass.twiddles = spec.twiddle_source();
  pass.index_math = spec.index_math;
  pass.n = static_cast<uint32_t>(uint64_t{layout.n} * layout.ny * layout.nz);
  pass.chirp = {chirp.n, chirp.chirp_offset, chirp.spectrum_offset, d == Direction::inverse, d == Direction::inverse};
  const BufferRole src_role = first ? side.source : BufferRole::scratch;
  const BufferRole dst_role = last ? side.destination : BufferRole::scratch;
  auto element = [&](BufferRole role) {
    return role == BufferRole::input    ? program.input(d).element
           : role == BufferRole::output ? program.output(d).element
                                        : ElementType::complex64;
  };
  const uint64_t src_entry = chirp_entry(program, layout, side, src_role), dst_entry = chirp_entry(program, layout, side, dst_role);
  pass.bindings = {{kSourceSlot, src_role, element(src_role), src_entry, src_entry, kPushSrcStride},
                   {kDestinationSlot, dst_role, element(dst_role), dst_entry, dst_entry, kPushDstStride}};
  // The table is bound to the passes that read it: the chirp passes, and table twiddles.
  bool reads_table =
      step.load == LoadKind::chirp || step.store == StoreKind::chirp_filter || step.store == StoreKind::chirp_crop;
  if (spec.twiddle_source() == TwiddleSource::table) {
    reads_table = reads_table || fft.stride > 1;
    for (const StageLayout& stage : fft.stages) reads_table = reads_table || stage.twiddle_stride() > 1;
  }
  pass.twiddle_table = reads_table;
  if (reads_table)
    pass.bindings.push_back({kTwiddleSlot, BufferRole::twiddles, ElementType::complex64, layout.twiddles.count, 0, ""});
  pass.load = {step.load, {pass.bindings[0], fft.columns_per_transform, 0, 0}, fft.stride > 1, {}};
  if (!first) pass.load.view.base = (i - 1) % 2 * side.half;
  pass.store.kind = step.store;
  const uint32_t s = fft.stride * fft.interleave;
  pass.store.view = fft.row_mode() ? View{pass.bindings[1], 1, 0, 0} : View{pass.bindings[1], s, s, s * fft.size};
  if (!last) pass.store.view.base = i % 2 * side.half;
  pass.store.scale = last ? side.scale : 1.0;
  const bool real = spec.transform == Transform::r2c, forward = d == Direction::forward;
  if (real && side.axis == 0 && first)
    mark_real_side(pass.load.view, pass.bindings[0], forward ? View::RealSide::reals : View::RealSide::half_spectrum, layout.n);
  if (real && side.axis == 0 && last)
    mark_real_side(pass.store.view, pass.bindings[1], forward ? View::RealSide::half_spectrum : View::RealSide::reals, layout.n);
  return pass;
}

// The scale a side's last pass applies: fp32 scales as the last side stores. An fp16 kernel (2D:
// 3D kernels are fp32 or fp64) keeps the values between its sides in its half-float output, so it
// scales each side by its share, scale^(log side / log N) (as pass_scales does per pass), the last
// side taking the rest.
double side_scale(const KernelSpec& spec, const KernelLayout& layout, Direction d, uint32_t axis, bool last_side) {
  const double scale = direction_scale(spec, d);
  if (spec.precision != Precision::fp16 || scale == 1.0) return last_side ? scale : 1.0;
  const double share = std::log(static_cast<double>(layout.n)) / std::log(static_cast<double>(layout.n) * layout.ny);
  const double x_scale = std::pow(scale, share);
  return axis == 0 ? x_scale : scale / x_scale;
}

KernelProgram make_chirp_sides_program(const KernelSpec& spec, KernelLayout layout) {
  KernelProgram program;
  const bool real = spec.transform == Transform::r2c;
  const uint32_t nx = layout.n, rows = layout.ny * layout.nz, columns = layout.columns;
  const uint64_t points = uint64_t{nx} * rows, spectrum = uint64_t{columns} * rows;
  // Rows of reals start at whole pairs: an odd NX keeps them NX + 1 apart (the last is padding).
  // fp16 (c2c only, layout.cpp): the input and the output in half floats, the values the Y side
  // reads from the output too; scratch stays float.
  const ElementType complex_data = stored_as(ElementType::complex64, spec.precision);
  program.forward_input = real ? KernelBuffer{ElementType::float32, uint64_t{nx + nx % 2} * rows}
                               : KernelBuffer{complex_data, points};
  program.forward_output = KernelBuffer{complex_data, spectrum};
  uint64_t scratch = 0;
  for (Direction d : directions_of(spec.direction)) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    const bool forward = d == Direction::forward;
    const auto sides = chirp_side_steps(spec, layout, d);
    size_t count = 0;
    for (const auto& s : sides) count += s.second.size();
    for (size_t side_index = 0; side_index < sides.size(); ++side_index) {
      ChirpSide side;
      side.direction = d;
      side.axis = sides[side_index].first;
      side.steps = &sides[side_index].second;
      side.last_side = side_index + 1 == sides.size();
      side.count = count;
      side.scale = side_scale(spec, layout, d, side.axis, side.last_side);
      const uint32_t length = side.steps->front().fft->length;  // M, or the side
      side.halves = side.steps->size() > 2 ? 2 : 1;
      side.half = uint64_t{length} * side.steps->front().fft->interleave;  // a row, plane or volume of M
      scratch = std::max(scratch, entries_per_transform(layout, *side.steps->front().fft) * side.halves * side.half);
      side.source = side_index == 0 ? BufferRole::input : real && !forward ? BufferRole::scratch2 : BufferRole::output;
      side.destination = side.last_side || forward || !real ? BufferRole::output : BufferRole::scratch2;
      for (size_t i = 0; i < side.steps->size(); ++i)
        passes.push_back(make_chirp_side_pass(spec, program, layout, side, i, passes.size()));
    }
  }
  program.scratch_elements = std::max(scratch, real ? spectrum : 0);  // scratch2 has as much
  program.layout = std::move(layout);
  return program;
}

// The width of the column tiles a direction of a 2D kernel keeps between its X and Y passes (View::
// tile_columns), or 0 for rows. Tiles need one X pass in row mode whose store can split a row into
// them (a plain or r2c store with every value's offset a whole number of tiles), followed by one Y
// pass, which reads the tiles from scratch and writes the output: a Y pass of narrow tiles reads
// runs of a few columns from rows, which an H100 serves at half its copy speed (32-byte runs of a
// 4096² c2c: the Y pass took 0.737 ms, 0.585 from tiles, while the X pass's store into tiles took
// 0.417 ms against 0.362; bench/results/2026-11-24-h100-column-tiles). "auto" takes them where they
// were measured faster (below).
uint32_t intermediate_tiles(const KernelSpec& spec, const KernelLayout& layout, const std::vector<size_t>& order) {
  if (spec.intermediate_layout == IntermediateLayout::rows || !spec.is_2d() || spec.io == Io::image ||
      spec.convolution || order.size() != 2)
    return 0;
  // The X pass first (c2c both ways, r2c forward; a c2r runs Y first), in rows, and every value it
  // stores (q + e * M/E, and X[N/2] at the row's length for r2c) a whole number of tiles from q's.
  const PassLayout &x = layout.passes[order[0]], &y = layout.passes[order[1]];
  const uint32_t tile = y.columns_per_workgroup;
  if (x.axis != 0 || !x.row_mode() || x.grid_ny != 0 || y.axis != 1 || y.row_mode() || !x.balanced() ||
      tile == 0 || (x.size / x.elems_per_thread) % tile != 0 || x.length % tile != 0)
    return 0;
  // An X pass that does the first Y stage (PassLayout::pair_rows) stores each parity's columns as
  // whole tiles: the layout chose it for them.
  if (x.pair_rows != 0) return spec.transform == Transform::c2c ? tile : 0;  // r2c: interleaved rows
  if (spec.intermediate_layout == IntermediateLayout::column_tiles) return tile;
  // Rows that are not whole 32-byte sectors (r2c: NX/2 + 1 values) keep rows: the Y pass would
  // write parts of sectors it has not read (in place, it had; 13-17% slower in
  // bench/results/2026-11-24-h100-column-tiles). Otherwise the tile widths that measured faster
  // (MeasuredDecision::column_tiles).
  const uint32_t value_bytes = element_bytes(stored_as(ElementType::complex64, spec.precision));
  const bool whole_sectors = uint64_t{layout.columns} * value_bytes % 32 == 0;
  MeasuredFacts facts = measured_facts(spec, layout.n);
  facts.size = y.size;
  facts.tile_bytes = uint64_t{tile} * value_bytes;
  return whole_sectors && measured_yes(MeasuredDecision::column_tiles, facts) ? tile : 0;
}

// What a dispatch kernel cannot combine with a side through Bluestein's algorithm.
void check_chirp_sides(const KernelSpec& spec, const KernelLayout& laid_out) {
  if (spec.intermediate_layout == IntermediateLayout::column_tiles &&
      (laid_out.sides_apart || laid_out.bluestein_n != 0))
    throw PlanError(fmt::format("kernel '{}': field 'intermediate_layout': column_tiles needs one X pass and one Y "
                                "pass; a side through Bluestein's algorithm (a prime factor above {}, or the rows of "
                                "an r2c of odd NX) keeps its own layout; use \"auto\" or \"rows\"",
                                spec.name, kMaxPrimeFactor));
  // Its Y side reads what the X side left in the output, which an image output cannot hold.
  if (laid_out.sides_apart && spec.io == Io::image)
    throw PlanError(fmt::format("kernel '{}': field 'io': a 2D side with a prime factor above {} runs through "
                                "Bluestein's algorithm (as do the rows of a 2D r2c of odd NX), whose second side "
                                "reads the values the first left in the output, and an image output holds none; use "
                                "\"io\": \"buffer\", or sides whose prime factors are at most {} (an even NX for r2c)",
                                spec.name, kMaxPrimeFactor, kMaxPrimeFactor));
}

// column_tiles asked for, and not possible for this kernel's passes.
void check_column_tiles(const KernelSpec& spec, const KernelProgram& program) {
  if (spec.intermediate_layout != IntermediateLayout::column_tiles || program.column_tiles != 0) return;
  const KernelLayout& layout = program.layout;
  throw PlanError(fmt::format("kernel '{}': field 'intermediate_layout': column_tiles needs a direction of one X "
                              "pass (in rows, each invocation's values a whole tile of the Y pass's columns "
                              "apart) followed by one Y pass; {}; use \"auto\" or \"rows\"",
                              spec.name,
                              layout.passes.size() == 1
                                  ? "this kernel's grid is one pass (it fits one workgroup)"
                                  : fmt::format("this kernel has {} X pass(es) of {} points and {} Y pass(es) "
                                                "of {} columns per workgroup",
                                                layout.x_passes(), layout.passes.front().size,
                                                layout.passes.size() - layout.x_passes(),
                                                layout.passes.back().columns_per_workgroup)));
}

// What the passes of a dispatch kernel share: the kernel's kind and sizes.
struct DispatchShape {
  bool full_real = false;  ///< a full-length r2c kernel: a c2c kernel of N apart from its first and last views
  bool real = false;       ///< r2c of N/2 complex points
  bool pair = false;       ///< r2c_pair
  uint64_t spectrum = 0;   ///< complex values per row after the X passes (the rows the Y passes transform)
  ElementType complex_data = ElementType::complex64;  ///< input, output and values between passes, stored at the precision
};

// The kernel's input and output buffers, per transform.
void set_kernel_buffers(const KernelSpec& spec, const DispatchShape& shape, KernelProgram& program) {
  const uint64_t points = spec.points();
  const ElementType real_data = stored_as(ElementType::float32, spec.precision);
  program.forward_input = shape.real ? KernelBuffer{real_data, points} : KernelBuffer{shape.complex_data, points};
  program.forward_output = shape.real ? KernelBuffer{shape.complex_data, shape.spectrum}
                           : shape.pair ? KernelBuffer{shape.complex_data, uint64_t{spec.n()} + 2}
                                        : KernelBuffer{shape.complex_data, points};
  if (shape.full_real) set_real_buffers(program, spec.n());
  // A convolution's real side is the image (the filter, for the filter kernel), not the padded plane:
  // per transform one channel, or two when the channels are packed in pairs.
  if (spec.convolution) {
    const ConvolutionSpec& c = *spec.convolution;
    program.forward_input = {ElementType::float32, spec.convolution_filter
                                                       ? uint64_t{c.filter_h} * c.filter_w
                                                       : uint64_t{c.image_h} * c.image_w * (c.pairs ? 2 : 1)};
  }
}

// One direction's passes before they become PassPrograms: their order, what each reads and writes,
// the buffers they use, the column tiles between them and each pass's share of the scale.
struct DirectionPlan {
  Direction direction = Direction::forward;
  std::vector<size_t> order;  ///< layout passes in the order they run
  std::vector<PassIo> io;
  std::vector<std::pair<BufferRole, BufferRole>> roles;
  uint32_t tiles = 0, tile_rows = 0;
  bool scratch_halves = false;
  uint64_t scratch_half = 0;
  uint64_t in_vec2 = 0, out_vec2 = 0;  ///< vec2 values of the input and output, per transform
  std::vector<double> pass_scales;
};

// Pass order: X then Y; the inverse of an r2c kernel (c2r) runs Y first and ends along X. So does a
// convolution packed in pairs (a c2c kernel): its inverse rows write the image.
std::vector<size_t> pass_order(const KernelSpec& spec, const KernelLayout& layout, const DispatchShape& shape,
                               Direction d) {
  std::vector<size_t> order;
  for (size_t i = 0; i < layout.passes.size(); ++i) order.push_back(i);
  const bool y_first = shape.real || (spec.convolution && !spec.convolution_filter);
  if (y_first && d == Direction::inverse)
    std::rotate(order.begin(), order.begin() + static_cast<long>(layout.x_passes()), order.end());
  return order;
}

// What each pass reads and writes (vec2 values per transform) and whether it may work in place.
std::vector<PassIo> pass_io(const KernelProgram& program, const DispatchShape& shape, const DirectionPlan& plan) {
  const KernelLayout& layout = program.layout;
  const bool forward = plan.direction == Direction::forward;
  std::vector<PassIo> io;
  for (size_t i = 0; i < plan.order.size(); ++i) {
    const PassLayout& fft = layout.passes[plan.order[i]];
    const uint64_t along = fft.axis == 0 ? uint64_t{layout.n} * layout.ny * layout.nz : shape.spectrum;
    PassIo p{plan.order[i], along, along, fft.in_place_safe()};
    if (i == 0) p.reads = plan.in_vec2;
    if (i + 1 == plan.order.size()) p.writes = plan.out_vec2;
    // The separation passes change the element count. Only the last pass of a multi-pass r2c
    // works in place: its mirrored tiles write the frequencies they read (and X[N/2] besides).
    const bool separates =
        fft.axis == 0 && (shape.real || shape.pair) && (forward ? fft.store_exchange : fft.stride == 1);
    if (separates) {
      p.in_place = forward && fft.mirror_tiles();
      if (shape.real) (forward ? p.writes : p.reads) = shape.spectrum;
    }
    if (program.filter_by_columns && i + 1 == plan.order.size()) p.in_place = false;
    io.push_back(p);
  }
  return io;
}

// fp32 scales as the last pass stores. Half floats hold 6e-5 … 65504 at full precision, and a
// sub-FFT of M points grows coherent values M times, noise sqrt(M) times: an fp16 kernel that
// normalises scales each pass's store by its share of the scale (scale^(log M_i / log of all M),
// the last pass taking what rounding left), so the values stored between passes stay about as
// large as the input and the output.
std::vector<double> pass_scales(const KernelSpec& spec, const KernelLayout& layout, const std::vector<size_t>& order,
                                Direction d) {
  std::vector<double> scales(order.size(), 1.0);
  const double scale = direction_scale(spec, d);
  if (spec.precision != Precision::fp16 || scale == 1.0) {
    scales.back() = scale;
    return scales;
  }
  double log_points = 0, applied = 1;
  for (size_t i : order) log_points += std::log(static_cast<double>(layout.passes[i].size));
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    scales[i] = std::pow(scale, std::log(static_cast<double>(layout.passes[order[i]].size)) / log_points);
    applied *= scales[i];
  }
  scales.back() = scale / applied;
  return scales;
}

// Whether pass p of an in-place kernel may read and write the one data buffer: a pass that writes
// exactly what it reads (PassIo::in_place), or a row pass whose workgroups read whole rows before
// they write them (an r2c or c2r separation keeps its row's padded 2 (N/2 + 1) reals), except one
// that writes the outputs of rows y and y + NY/2 to rows 2y and 2y + 1 (pair_rows_interleaved),
// where other workgroups still read.
bool data_in_place(const KernelProgram& program, const DirectionPlan& plan, size_t p) {
  const PassLayout& fft = program.layout.passes[plan.order[p]];
  const bool interleaved = fft.pair_rows != 0 && plan.tiles == 0;
  return !interleaved && (plan.io[p].in_place || fft.row_mode());
}

// An in-place kernel (Placement::in_place): its first pass reads the output buffer, which holds the
// input. Walking forward from it, a pass that would write the buffer it reads but may not work in
// place (other workgroups still read where it writes: a transposed first pass, a c2r separation
// across workgroups) writes the other one of output and scratch instead, and the passes after it
// follow; the last pass writes the output.
void place_in_place(const KernelSpec& spec, const KernelProgram& program, DirectionPlan& plan, uint64_t& scratch_vec2) {
  const uint64_t capacity = std::max(plan.in_vec2, plan.out_vec2);
  BufferRole at = BufferRole::output;
  for (size_t p = 0; p < plan.roles.size(); ++p) {
    const bool last = p + 1 == plan.roles.size();
    BufferRole dst = last ? BufferRole::output : plan.roles[p].second;
    if (dst == at && !data_in_place(program, plan, p))
      dst = at == BufferRole::output ? BufferRole::scratch : BufferRole::output;
    if (dst != BufferRole::output && last)
      throw PlanError(fmt::format("kernel '{}': field 'placement': pass {} of the {} direction cannot write the buffer "
                                  "it reads (other workgroups still read it); allowed here: \"out_of_place\"",
                                  spec.name, p, to_string(plan.direction)));
    if (dst == BufferRole::output && !last && plan.io[p].writes > capacity)
      throw PlanError(fmt::format("kernel '{}': field 'placement': the values after pass {} do not fit the data "
                                  "buffer; allowed here: \"out_of_place\"", spec.name, p));
    if (at == BufferRole::scratch) scratch_vec2 = std::max(scratch_vec2, plan.io[p].reads);
    if (dst == BufferRole::scratch) scratch_vec2 = std::max(scratch_vec2, plan.io[p].writes);
    plan.roles[p] = {at, dst};
    at = dst;
  }
}

DirectionPlan plan_direction(const KernelSpec& spec, KernelProgram& program, const DispatchShape& shape, Direction d,
                             uint64_t& scratch_vec2) {
  const KernelLayout& layout = program.layout;
  DirectionPlan plan;
  plan.direction = d;
  plan.order = pass_order(spec, layout, shape, d);
  plan.in_vec2 = pairs_of(program.input(d));
  plan.out_vec2 = pairs_of(program.output(d));
  plan.io = pass_io(program, shape, plan);
  // Column tiles: the X pass writes scratch (whole tiles per row), the Y pass reads it. Tiles hold
  // a plane's NY rows, or where the X pass does the first Y stage (pair_rows), the NY/2 rows of
  // each parity: the X pass's transforms y + c * NY/2 (c = 0, 1) then lie in the tiles of parity
  // c, and the Y pass's column j = c * NX + x reads tile j div C of them.
  plan.tiles = shape.full_real ? 0 : intermediate_tiles(spec, layout, plan.order);
  const uint32_t first_pairs = layout.passes[plan.order[0]].pair_rows;
  plan.tile_rows = first_pairs != 0 ? first_pairs : layout.ny;
  if (plan.tiles != 0) {
    plan.io[1].in_place = false;
    plan.io[0].writes = plan.io[1].reads = uint64_t{layout.ny} * ((layout.columns + plan.tiles - 1) / plan.tiles * plan.tiles);
    program.column_tiles = plan.tiles;
  }
  // A full-length r2c kernel of three passes or more: its output (the half spectrum, the reals)
  // holds none of the values between passes, so they alternate between the two halves of a
  // scratch buffer of 2N values per transform, as Bluestein's do.
  plan.scratch_halves = shape.full_real && plan.order.size() > 2;
  plan.scratch_half = layout.n;  // N complex values
  if (plan.scratch_halves) {
    for (size_t i = 0; i < plan.order.size(); ++i)
      plan.roles.push_back({i == 0 ? BufferRole::input : BufferRole::scratch,
                            i + 1 == plan.order.size() ? BufferRole::output : BufferRole::scratch});
    scratch_vec2 = 2 * plan.scratch_half;
  } else {
    // A 3D c2r's reals hold none of its values between passes either, and its Y and Z passes come
    // before the X pass that writes them: passes that do not work in place alternate between
    // scratch and scratch2, as an image output's do.
    const bool no_output_between = spec.convolution || (spec.is_3d() && shape.real);
    assign_buffers(spec, plan.io, plan.out_vec2, no_output_between && d == Direction::inverse, plan.roles,
                   scratch_vec2);
  }
  if (spec.placement == Placement::in_place) place_in_place(spec, program, plan, scratch_vec2);
  plan.pass_scales = pass_scales(spec, layout, plan.order, d);
  return plan;
}

// The load and store kinds of pass `fft`, and the table it reads.
void set_pass_kinds(const DispatchShape& shape, bool forward, bool table, PassProgram& pass) {
  const PassLayout& fft = pass.fft;
  const bool along_x = fft.axis == 0;
  pass.load.kind = along_x && !forward && fft.stride == 1
                       ? (shape.real ? LoadKind::c2r : shape.pair ? LoadKind::pair_merge : LoadKind::plain)
                       : LoadKind::plain;
  pass.store.kind = along_x && forward && fft.store_exchange ? (shape.real ? StoreKind::r2c : StoreKind::pair_split)
                    : fft.grid_ny != 0                        ? StoreKind::grid
                    : fft.transposed_store()                  ? StoreKind::transposed
                                                              : StoreKind::plain;
  // Shared memory the layout keeps for the forward's separation exchange alone (a pass of one
  // stage whose store exchanges, layout.cpp's uses_shared_memory) is not the inverse's: its
  // pass over the same layout exchanges nothing, and its SPIR-V declares no shared array.
  if (!forward && fft.store_exchange && fft.stages.size() <= 1 && !fft.transposed_store() && fft.grid_ny == 0)
    pass.fft.shared = SharedMemoryMap{};
  // The table is bound to the passes that read it.
  bool reads_table = fft.stride > 1 || pass.load.kind == LoadKind::c2r || pass.store.kind == StoreKind::r2c;
  for (const StageLayout& stage : fft.stages) reads_table = reads_table || stage.twiddle_stride() > 1;
  pass.twiddle_table = table && reads_table;
}

// Pass i's bindings: source, destination and (where it reads it) the twiddle table.
void set_pass_bindings(const KernelProgram& program, const DispatchShape& shape, const DirectionPlan& plan, size_t i,
                       PassProgram& pass) {
  const KernelLayout& layout = program.layout;
  const Direction d = plan.direction;
  const bool last = i + 1 == plan.order.size();
  // vec2 values of one batch entry (a transform, a row along X of a 2D or 3D kernel, a plane along
  // Y of a 3D one) read and written, and the buffers' element types.
  const uint32_t entries = entries_per_transform(layout, pass.fft);
  auto entry_of = [&](uint64_t per_transform) { return per_transform / entries; };
  uint64_t reads = entry_of(plan.io[i].reads), writes = entry_of(plan.io[i].writes);
  // Intermediate values are complex wherever they lie (an output of reals holds them as pairs).
  auto element = [&](BufferRole role) {
    return role == BufferRole::input                 ? program.input(d).element
           : role == BufferRole::output && last ? program.output(d).element
                                                     : shape.complex_data;
  };
  const BufferRole src_role = plan.roles[i].first, dst_role = plan.roles[i].second;
  if (plan.scratch_halves && src_role == BufferRole::scratch) reads = 2 * plan.scratch_half;
  if (plan.scratch_halves && dst_role == BufferRole::scratch) writes = 2 * plan.scratch_half;
  // Batch entries lie as far apart as the buffer's own layout puts them (the input's and the
  // output's transforms), whatever a pass reads or writes of each: every pass that works in
  // place on a buffer then sees its transforms where the others left them. Scratch holds
  // just what its passes exchange.
  auto stride_in = [&](BufferRole role, uint64_t used) {
    return role == BufferRole::input ? entry_of(plan.in_vec2) : role == BufferRole::output ? entry_of(plan.out_vec2) : used;
  };
  const PassBinding src{kSourceSlot, src_role, element(src_role), reads, stride_in(src_role, reads), kPushSrcStride};
  const PassBinding dst{kDestinationSlot, dst_role, element(dst_role), writes, stride_in(dst_role, writes),
                        kPushDstStride};
  pass.bindings = {src, dst};
  if (pass.twiddle_table)
    pass.bindings.push_back({kTwiddleSlot, BufferRole::twiddles, ElementType::complex64, layout.twiddles.count, 0, ""});
}

// Pass i's load and store views over its bindings.
void set_pass_views(const KernelProgram& program, const DispatchShape& shape, const DirectionPlan& plan, size_t i,
                    PassProgram& pass) {
  const PassLayout& fft = pass.fft;
  const PassBinding& src = pass.bindings[0];
  const PassBinding& dst = pass.bindings[1];
  // Column mode reads column j at j + i*columns_per_transform; row mode reads whole rows.
  pass.load.view = {src, fft.columns_per_transform, 0, 0};
  pass.load.pass_twiddle = fft.stride > 1;
  // A c2r inverse whose X pass does the last Y stage: its Y pass (first) twiddles as it stores.
  if (shape.real && plan.direction == Direction::inverse && fft.axis == 1 &&
      program.layout.passes.front().pair_rows != 0) {
    pass.load.pass_twiddle = false;
    pass.store.pass_twiddle = true;
  }
  pass.pair_rows_interleaved = fft.pair_rows != 0 && plan.tiles == 0;
  // Stockham: value i of column j goes to (j div S')*S'*M + (j mod S') + i*S', S' = S * interleave;
  // the first pass of a multi-pass 1D kernel (S' = 1) writes y[j*M + i], through shared memory.
  const uint32_t s = fft.stride * fft.interleave;
  if (fft.row_mode()) pass.store.view = {dst, 1, 0, 0};
  else pass.store.view = {dst, s, s, s * fft.size};
  if (plan.tiles != 0 && i == 0) {
    pass.store.view.tile_columns = plan.tiles;
    pass.store.view.tile_rows = plan.tile_rows;
  }
  if (plan.tiles != 0 && i == 1) pass.load.view = {src, plan.tiles, plan.tiles, plan.tile_rows * plan.tiles};
  if (plan.scratch_halves) {
    if (i > 0) pass.load.view.base = (i - 1) % 2 * plan.scratch_half;
    if (i + 1 < plan.order.size()) pass.store.view.base = i % 2 * plan.scratch_half;
  }
}

PassProgram make_dispatch_pass(const KernelSpec& spec, const KernelProgram& program, const DispatchShape& shape,
                               const DirectionPlan& plan, size_t i) {
  const KernelLayout& layout = program.layout;
  const PassLayout& fft = layout.passes[plan.order[i]];
  PassProgram pass;
  pass.name = pass_name(plan.direction, i);
  pass.direction = plan.direction;
  pass.index = i;
  pass.count = plan.order.size();
  pass.fft = fft;
  pass.twiddles = spec.twiddle_source();
  pass.index_math = spec.index_math;
  pass.n = static_cast<uint32_t>(spec.points());
  pass.real_twiddle_offset = layout.real_twiddle_offset;
  // A 2D kernel's X pass transforms the NY rows of each transform as a batch of rows (a grid
  // done in one pass takes the whole transform); a 3D kernel's X pass its NZ * NY rows, its Y pass
  // (or a pass of its planes as grids) its NZ planes.
  pass.batch_scale = entries_per_transform(layout, fft);
  const bool table = spec.twiddle_source() == TwiddleSource::table && layout.twiddles.count > 0;
  set_pass_kinds(shape, plan.direction == Direction::forward, table, pass);
  set_pass_bindings(program, shape, plan, i, pass);
  set_pass_views(program, shape, plan, i, pass);
  pass.store.scale = plan.pass_scales[i];
  return pass;
}

// Why an in-place kernel of this layout cannot be built (empty: it can). Its transforms through a
// complex transform of another length (Bluestein's chirps, a full-length r2c) keep their own buffers.
std::string in_place_refusal(const KernelLayout& layout) {
  const bool chirp_side = std::any_of(std::begin(layout.chirp_sides), std::end(layout.chirp_sides),
                                      [](const KernelLayout::ChirpSide& side) { return side.n != 0; });
  if (layout.bluestein_n != 0 || chirp_side)
    return fmt::format("a length through Bluestein's algorithm (a prime factor above {}) is out of place only",
                       kMaxPrimeFactor);
  if (layout.sides_apart)
    return "an r2c kernel of odd NX computes its rows as complex transforms of NX, which is out of place only";
  if (layout.real_full_length)
    return "an r2c kernel computed as a complex transform of its full length (odd N) is out of place only";
  return "";
}

// An in-place r2c kernel's real side: rows of 2 (NX/2 + 1) reals, the last two padding, so that a
// row of reals and its half spectrum take the same bytes (FFTW's in-place layout).
void pad_real_rows(const DispatchShape& shape, KernelProgram& program) {
  if (shape.real) program.forward_input.elements = 2 * shape.spectrum;
}

// An in-place kernel's passes that read and write the data buffer bind it once, at the output's
// slot, read and written: their load view reads it there, at its stride (dst_stride). The first
// pass of a direction reads it as the direction's input (reals, for an r2c forward).
void bind_data_once(KernelProgram& program) {
  for (Direction d : {Direction::forward, Direction::inverse}) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    for (PassProgram& pass : passes) {
      const ElementType read_as = pass.index == 0 ? program.input(d).element : pass.load.view.binding.element;
      pass.load.view.binding.element = read_as;
      if (pass.bindings[0].role == BufferRole::output) pass.bindings[0].element = read_as;
      if (!pass.in_place()) continue;
      pass.bindings.erase(pass.bindings.begin());
      pass.bindings[0].read_write = true;
      PassBinding& load = pass.load.view.binding;
      load.slot = kDestinationSlot;
      load.stride_constant = kPushDstStride;
      load.read_write = true;
      pass.store.view.binding.read_write = true;
    }
  }
}

// PassProgram::rows_through_shared for the fp32 passes of one invocation a row whose views are rows
// as they are (complex, or an r2c kernel's half spectrum) and whose rows fit the plan's budget (with
// half the rows a workgroup, or fewer, where the layout's do not). Measured on an H200 at 512 MiB
// (bench/results/2026-11-30-h200-rows-through-shared): 19 such lengths from C2C 17 to R2C 122 at
// 0.441 times cuFFT's speed (geometric mean) reading and writing each row alone, 1.346 through shared
// memory; C2C 17 0.22 -> 0.95, R2C 34 0.30 -> 1.39, C2C 41 0.72 -> 2.50.
void stage_rows(const KernelSpec& spec, KernelProgram& program) {
  if (spec.precision != Precision::fp32 || program.layout.passes.size() != 1) return;
  const auto rows_as_they_are = [](const View& v) {
    return !v.binding.is_texture() && v.element_stride == 1 && v.tile_columns == 0 && v.column_split == 0 &&
           v.real_side == View::RealSide::none;
  };
  for (std::vector<PassProgram>* passes : {&program.forward, &program.inverse})
    for (PassProgram& pass : *passes) {
      PassLayout& fft = pass.fft;
      const bool one_a_row = fft.row_mode() && fft.threads_per_column == 1 && fft.pair_rows == 0 && fft.grid_ny == 0 &&
                             !pass.round_trip && pass.rows_per_transform == 0 &&
                             fft.shared.scheme == SharedMemoryMap::Scheme::none;
      const bool kinds = (pass.load.kind == LoadKind::plain || pass.load.kind == LoadKind::c2r) &&
                         (pass.store.kind == StoreKind::plain || pass.store.kind == StoreKind::r2c) &&
                         pass.load.zeros_from == 0 && !pass.load.pass_twiddle && pass.store.stored_below == 0 &&
                         pass.store.filter_planes == 0 && !pass.store.pass_twiddle;
      if (!one_a_row || !kinds || !rows_as_they_are(pass.load.view) || !rows_as_they_are(pass.store.view)) continue;
      SharedMemoryMap rows = fft.shared;
      rows.scheme = SharedMemoryMap::Scheme::plain;
      rows.columns = fft.columns_per_workgroup;
      rows.slice = (fft.size + 1) | 1u;  // odd: a warp's reads of its rows' element e hit distinct banks
      // Fewer rows a workgroup where the layout's do not fit with their slots (C2C 31: 128 rows of 33).
      while (rows.bytes() > spec.shared_memory_bytes && rows.columns % 2 == 0 && spec.workgroup_size == 0)
        rows.columns /= 2;
      if (rows.bytes() > spec.shared_memory_bytes) continue;
      fft.shared = rows;
      fft.columns_per_workgroup = fft.workgroup_size = rows.columns;
      pass.rows_through_shared = true;
      program.layout.passes.front() = fft;  // the one pass both directions run
    }
}

// A kernel of one dispatch per pass (pass_sync dispatch), as make_program builds it before it
// decides whether the passes share a dispatch.
KernelProgram make_dispatch_program(const KernelSpec& spec) {
  KernelLayout laid_out = make_layout(spec);
  check_chirp_sides(spec, laid_out);
  if (const std::string refusal = in_place_refusal(laid_out); spec.placement == Placement::in_place && !refusal.empty())
    throw PlanError(fmt::format("kernel '{}': field 'placement': {}; allowed here: \"out_of_place\"", spec.name,
                                refusal));
  if (laid_out.sides_apart) return make_chirp_sides_program(spec, std::move(laid_out));
  if (laid_out.bluestein_n != 0) return make_bluestein_program(spec, std::move(laid_out));
  KernelProgram program;
  program.layout = std::move(laid_out);
  const KernelLayout& layout = program.layout;
  DispatchShape shape;
  shape.full_real = layout.real_full_length;
  shape.real = spec.transform == Transform::r2c && !shape.full_real;
  shape.pair = spec.transform == Transform::r2c_pair;
  shape.spectrum = uint64_t{layout.columns} * layout.ny * layout.nz;
  shape.complex_data = stored_as(ElementType::complex64, spec.precision);
  set_kernel_buffers(spec, shape, program);
  if (spec.placement == Placement::in_place) pad_real_rows(shape, program);
  // A filter kernel lays out the filter's spectrum as its apply kernel reads it. Kept by columns,
  // it is written transposed: the last pass cannot work in place (other workgroups still read
  // where it writes), so the row pass leaves the plane in scratch.
  if (spec.convolution_filter) {
    KernelSpec apply = spec;
    apply.convolution_filter = false;
    apply.direction = DirectionSet::both;
    program.filter_by_columns = make_program(apply).filter_by_columns;
  }
  uint64_t scratch_vec2 = 0;
  for (Direction d : directions_of(spec.direction)) {
    const DirectionPlan plan = plan_direction(spec, program, shape, d, scratch_vec2);
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    for (size_t i = 0; i < plan.order.size(); ++i) passes.push_back(make_dispatch_pass(spec, program, shape, plan, i));
  }
  program.scratch_elements = scratch_vec2;
  if (spec.placement == Placement::in_place) bind_data_once(program);
  check_column_tiles(spec, program);
  if (shape.full_real) set_real_sides(program, spec.n());
  if (spec.convolution) fuse_convolution(spec, program);
  else if (spec.io == Io::image) use_textures(spec, program);
  stage_rows(spec, program);
  return program;
}

// --- pass_sync counters: the passes of a direction in one dispatch ------------------------------

// The workgroup sizes of a kernel's passes, smallest first.
std::vector<uint32_t> workgroup_sizes(const KernelSpec& spec, const KernelProgram& program) {
  std::vector<uint32_t> sizes;
  for (Direction d : directions_of(spec.direction))
    for (const PassProgram& pass : program.passes(d))
      if (std::find(sizes.begin(), sizes.end(), pass.fft.workgroup_size) == sizes.end())
        sizes.push_back(pass.fft.workgroup_size);
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

// Workgroups of `pass` per transform (its share of the dispatch), or 0 where its workgroups do not
// divide into whole transforms.
uint32_t items_per_transform(const PassProgram& pass) {
  const uint64_t entries = uint64_t{pass.batch_scale} * pass.fft.dispatch_columns();
  const uint32_t per_group = pass.fft.entries_per_workgroup();
  return entries % per_group == 0 ? static_cast<uint32_t>(entries / per_group) : 0;
}

// The shared memory of one direction's passes in one dispatch (CounterSchedule::shared_bytes).
uint32_t dispatch_shared_bytes(const std::vector<PassProgram>& passes) {
  uint32_t complex_bytes = 0, split_bytes = 0;
  for (const PassProgram& pass : passes) {
    uint32_t& bytes = pass.fft.shared.split ? split_bytes : complex_bytes;
    bytes = std::max(bytes, pass.fft.shared_bytes());
  }
  // The split passes' floats in the complex array: as many complex values as hold them.
  if (complex_bytes > 0 && split_bytes > 0) split_bytes = (split_bytes + 7) / 8 * 8;
  return std::max(complex_bytes, split_bytes) + CounterSchedule::kSharedBytes;
}

// Why the passes of `program` cannot share one dispatch; empty where they can.
std::string counters_refusal(const KernelSpec& spec, const KernelProgram& program) {
  if (spec.targets_metal)
    return "Metal promises no progress to a threadgroup that waits on another (a pass waits on the previous one); "
           "drop msl from the targets";
  if (spec.targets_webgpu)
    return "WebGPU promises no progress to a workgroup that waits on another; drop wgsl from the targets";
  if (spec.io == Io::image || spec.convolution) return "image kernels and convolutions keep a dispatch per pass";
  if (program.layout.bluestein_n != 0 || program.layout.sides_apart)
    return fmt::format("a transform through Bluestein's algorithm (a prime factor above {}) keeps a dispatch per pass",
                       kMaxPrimeFactor);
  bool several = false;
  for (Direction d : directions_of(spec.direction)) several = several || program.passes(d).size() > 1;
  if (!several) return "this kernel is one pass (one dispatch) already";
  if (workgroup_sizes(spec, program).size() > 1)
    return "its passes have workgroups of different sizes; set workgroup_size";
  for (Direction d : directions_of(spec.direction)) {
    const std::vector<PassProgram>& passes = program.passes(d);
    for (const PassProgram& pass : passes)
      if (items_per_transform(pass) == 0)
        return fmt::format("pass {}'s workgroups ({} entries each) do not divide into whole transforms", pass.name,
                           pass.fft.entries_per_workgroup());
    const uint32_t bytes = dispatch_shared_bytes(passes);
    if (bytes > spec.shared_memory_bytes)
      return fmt::format("its passes' shared array (the largest of theirs) and the dispatch's own take {} "
                         "bytes together, more than shared_memory_bytes ({})",
                         bytes, spec.shared_memory_bytes);
  }
  return "";
}

// What the values between passes cost in the L2 cache: the bytes a transform's data takes.
uint64_t transform_bytes(const KernelProgram& program) {
  uint64_t bytes = 0;
  for (const KernelBuffer* b : {&program.forward_input, &program.forward_output})
    bytes = std::max(bytes, b->elements * element_bytes(b->element));
  return bytes;
}

// counter_lag "auto": the transforms whose data fill about kLagBytes of L2 between a pass's work on a
// transform and the next pass's. Measured on an H100 (bench/results/2026-11-26-h100-counters): 8 MiB
// was the best lag of those tried for 1D c2c 32768 (1731 GB/s, 1713 at 4 MiB), 65536 (1705, 1687),
// 262144 (1870, 1866 at 6 MiB) and r2c 65536 (1540, 1533); 2D 256² does better with less (1733 at
// 6 MiB, 1715 at 4, 1690 at 8). Much more (16 MiB and up) loses: the values are evicted to memory
// before the next pass reads them.
constexpr uint64_t kLagBytes = uint64_t{8} << 20;
uint32_t automatic_lag(const KernelProgram& program) {
  const uint64_t bytes = std::max<uint64_t>(transform_bytes(program), 1);
  return static_cast<uint32_t>(std::clamp<uint64_t>((kLagBytes + bytes / 2) / bytes, 1, 4096));
}

// The shared memory D3D12 gives a workgroup: pass_sync auto takes counters only within it, so that
// the HLSL needs no other layout (text_target_program).
constexpr uint32_t kD3D12SharedBytes = 32768;

// Where pass_sync "auto" takes counters: kernels of two passes per direction within D3D12's shared
// memory (not r2c_pair, nor the full-length route of r2c, nor a split the split model chose), where
// the table of measured choices says so (MeasuredDecision::counters).
bool counters_by_default(const KernelSpec& spec, const KernelProgram& program) {
  if (spec.transform == Transform::r2c_pair || program.layout.real_full_length || program.layout.ranked_split ||
      spec.shared_memory_bytes > kD3D12SharedBytes)
    return false;
  for (Direction d : directions_of(spec.direction))
    if (program.passes(d).size() != 2) return false;
  return measured_yes(MeasuredDecision::counters, measured_facts(spec, program.layout.n));
}

// A binding as a dispatch of several passes declares it: by role, one slot per buffer. The input's
// and the output's distance between transforms stay push constants where every pass counts batch
// entries in transforms (1D: the runtime may space them as its caller asks); otherwise every
// distance is a constant of the shader (the manifest's).
PassBinding bound_by_role(PassBinding b, bool strides_pushed) {
  b.slot = slot_of(b.role);
  const bool data = b.role == BufferRole::input || b.role == BufferRole::output;
  if (b.role != BufferRole::twiddles && b.role != BufferRole::filter)
    b.stride_constant = data && strides_pushed ? (b.role == BufferRole::input ? kPushSrcStride : kPushDstStride) : "";
  return b;
}

// Makes each direction of several passes one dispatch (CounterSchedule): its passes' views bound by
// role, and the dispatch's interface.
void share_one_dispatch(const KernelSpec& spec, KernelProgram& program) {
  const uint32_t lag = spec.counter_lag != 0 ? spec.counter_lag : automatic_lag(program);
  for (Direction d : directions_of(spec.direction)) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    if (passes.size() < 2) continue;
    CounterSchedule schedule;
    schedule.lag = lag;
    schedule.shared_bytes = dispatch_shared_bytes(passes);
    bool strides_pushed = true;
    for (const PassProgram& pass : passes) strides_pushed = strides_pushed && pass.batch_scale == 1;
    for (PassProgram& pass : passes) {
      schedule.items.push_back(items_per_transform(pass));
      for (PassBinding& b : pass.bindings) b = bound_by_role(b, strides_pushed);
      pass.load.view.binding = bound_by_role(pass.load.view.binding, strides_pushed);
      pass.store.view.binding = bound_by_role(pass.store.view.binding, strides_pushed);
      // The interface: each role once, in slot order; entry and stride per transform.
      for (const PassBinding& b : pass.bindings) {
        PassBinding whole = b;
        whole.entry = b.entry * pass.batch_scale;
        whole.stride = b.stride * pass.batch_scale;
        auto same = std::find_if(schedule.bindings.begin(), schedule.bindings.end(),
                                 [&](const PassBinding& o) { return o.slot.binding == b.slot.binding; });
        if (same == schedule.bindings.end()) {
          schedule.bindings.push_back(whole);
        } else {
          // One declaration per buffer: pairs of floats (complex values or reals), single reals, or halves.
          if (is_half(same->element) != is_half(b.element) || same->scalar != b.scalar)
            throw PlanError(fmt::format("kernel '{}': field 'pass_sync': counters need each buffer declared one way; "
                                        "the {} buffer holds {} in one pass and {} in another; use \"dispatch\"",
                                        spec.name, to_string(b.role), to_string(same->element), to_string(b.element)));
          same->entry = std::max(same->entry, whole.entry);
          if (b.role == BufferRole::twiddles) same->stride = 0;
        }
      }
    }
    // The input and the output hold what the kernel's buffers hold (an output of reals holds the
    // values between passes as pairs).
    for (PassBinding& b : schedule.bindings) {
      if (b.role == BufferRole::input) b.element = program.input(d).element;
      if (b.role == BufferRole::output) b.element = program.output(d).element;
    }
    schedule.bindings.push_back({kSyncSlot, BufferRole::sync, ElementType::uint32, schedule.counters(1) - 1,
                                 schedule.counters(1) - 1, ""});
    std::sort(schedule.bindings.begin(), schedule.bindings.end(),
              [](const PassBinding& a, const PassBinding& b) { return a.slot.binding < b.slot.binding; });
    (d == Direction::forward ? program.forward_counters : program.inverse_counters) = std::move(schedule);
  }
}

}  // namespace

uint64_t CounterSchedule::items_per_transform() const {
  uint64_t total = 0;
  for (uint32_t n : items) total += n;
  return total;
}

uint64_t CounterSchedule::tickets_before(uint64_t round, uint32_t batch) const {
  uint64_t total = 0;
  for (uint32_t p = 0; p < passes(); ++p) {
    const uint64_t delay = uint64_t{p} * lag;
    total += items[p] * std::min<uint64_t>(round > delay ? round - delay : 0, batch);
  }
  return total;
}

CounterSchedule::Item CounterSchedule::item(uint64_t ticket, uint32_t batch) const {
  if (ticket >= items_per_transform() * batch) throw std::logic_error("CounterSchedule::item: ticket past the batch");
  // The round of the ticket: the last round whose first ticket is not past it.
  uint64_t lo = 0, hi = rounds(batch);
  while (hi - lo > 1) {
    const uint64_t mid = (lo + hi) / 2;
    (tickets_before(mid, batch) <= ticket ? lo : hi) = mid;
  }
  uint64_t offset = ticket - tickets_before(lo, batch);
  for (uint32_t p = 0; p < passes(); ++p) {
    const uint64_t delay = uint64_t{p} * lag;
    if (lo < delay || lo - delay >= batch) continue;
    if (offset < items[p]) return {p, static_cast<uint32_t>(lo - delay), static_cast<uint32_t>(offset)};
    offset -= items[p];
  }
  throw std::logic_error("CounterSchedule::item: no item in the ticket's round");
}

namespace {
// An fp64 kernel: every buffer it binds (data, scratch, twiddle table, filter) holds doubles, which
// the printer spells as dvec2 (pass_glsl.cpp).
KernelProgram in_double(KernelProgram program) {
  auto promote = [](PassBinding& b) { b.element = in_double(b.element); };
  for (auto* passes : {&program.forward, &program.inverse})
    for (PassProgram& pass : *passes) {
      for (PassBinding& b : pass.bindings) promote(b);
      promote(pass.load.view.binding);
      promote(pass.store.view.binding);
    }
  for (auto* schedule : {&program.forward_counters, &program.inverse_counters})
    if (*schedule)
      for (PassBinding& b : (*schedule)->bindings) promote(b);
  program.forward_input.element = in_double(program.forward_input.element);
  program.forward_output.element = in_double(program.forward_output.element);
  return program;
}
}  // namespace

namespace {
// The program with its buffers spelt in single precision (fp32, fp16 and fp64 alike), its passes
// sharing one dispatch where counters are asked for or measured faster; make_program promotes an
// fp64 kernel's bindings to doubles after (in_double).
KernelProgram make_float_program(const KernelSpec& spec) {
  KernelProgram program = make_dispatch_program(spec);
  const bool asked = spec.pass_sync == PassSync::counters;
  if (!asked && (spec.pass_sync == PassSync::dispatch || !counters_by_default(spec, program))) return program;
  // One workgroup size for every pass, unless the plan set it: the largest of the passes' sizes
  // where the kernel can run so, else the next smaller. `auto` takes only the largest for 1D
  // kernels: there a pass given fewer invocations than its own layout chose loses more than the
  // dispatch saves (H100, 512 MiB: 524288, 512 invocations down to 256, 1431 -> 1092 GB/s).
  const bool shrink = asked || spec.is_2d();
  std::string refusal = counters_refusal(spec, program);
  if (const std::vector<uint32_t> sizes = workgroup_sizes(spec, program); sizes.size() > 1 && spec.workgroup_size == 0)
    for (auto size = sizes.rbegin(); size != sizes.rend() && !refusal.empty() && (shrink || size == sizes.rbegin());
         ++size) {
      KernelSpec sized = spec;
      sized.workgroup_size = *size;
      try {
        KernelProgram resized = make_dispatch_program(sized);
        // Refused at one size too, the kernel is refused for that reason, which says more.
        refusal = counters_refusal(spec, resized);
        // `auto` measured counters for the passes it split: where one workgroup size splits the
        // length otherwise (passes beyond 256 invocations are taken only at `auto`, mixed_column_passes:
        // C2C 839808 became three passes in one dispatch, 0.85 -> 0.54 x cuFFT on an H200), it keeps a
        // dispatch per pass.
        if (refusal.empty() && !asked && !counters_by_default(spec, resized)) refusal = "its passes split otherwise";
        if (refusal.empty()) program = std::move(resized);
      } catch (const PlanError&) {
        // Not at that size.
      }
    }
  if (!refusal.empty()) {
    if (!asked) return program;
    throw PlanError(fmt::format("kernel '{}': field 'pass_sync': counters run a kernel's passes in one dispatch; {}; "
                                "allowed here: \"auto\" or \"dispatch\"",
                                spec.name, refusal));
  }
  share_one_dispatch(spec, program);
  return program;
}
}  // namespace

KernelProgram make_program(const KernelSpec& spec) {
  KernelProgram program = make_float_program(spec);
  return spec.precision == Precision::fp64 ? in_double(std::move(program)) : program;
}

}  // namespace fftgen
