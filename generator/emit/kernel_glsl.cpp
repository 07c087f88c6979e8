#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <kainjow/mustache.hpp>

#include "fftgen/codelet.hpp"
#include "fftgen/divisor.hpp"
#include "fftgen/emit.hpp"
#include "fftgen/emit_codelet.hpp"

namespace fftgen {
namespace {

// Spells the index arithmetic of one variant: every division, remainder and multiplication by a
// constant goes through here, so `index_math` changes only these spellings. `bitwise` shifts and
// masks powers of two and divides by any other constant with a multiply-high (Divisor); `divmod`
// writes `/`, `%` and `*`.
class IndexMathWriter {
 public:
  explicit IndexMathWriter(IndexMath mode) : mode_(mode) {}

  std::string div(const std::string& x, uint32_t p) const {
    if (p == 1) return x;
    if (mode_ == IndexMath::divmod) return fmt::format("({} / {}u)", x, p);
    const Divisor d(p);
    if (d.power_of_two()) return fmt::format("({} >> {}u)", x, d.shift);
    uses_magic_division_ = true;
    return fmt::format("udiv({}, {}u, {}u)", x, d.magic, d.shift);
  }
  std::string mod(const std::string& x, uint32_t p) const {
    if (p == 1) return "0u";
    if (mode_ == IndexMath::divmod) return fmt::format("({} % {}u)", x, p);
    if (is_power_of_two(p)) return fmt::format("({} & {}u)", x, p - 1);
    return fmt::format("({} - {} * {}u)", x, div(x, p), p);
  }
  std::string mul(const std::string& x, uint32_t p) const {
    if (p == 1) return x;
    if (mode_ == IndexMath::bitwise && is_power_of_two(p)) return fmt::format("({} << {}u)", x, log2_exact(p));
    return fmt::format("({} * {}u)", x, p);
  }
  /// Whether some division needed the udiv() helper (the template declares it then).
  bool uses_magic_division() const { return uses_magic_division_; }

 private:
  IndexMath mode_;
  mutable bool uses_magic_division_ = false;
};

Direction inverse_of(Direction d) { return d == Direction::forward ? Direction::inverse : Direction::forward; }

std::string codelet_name(uint32_t radix, Direction direction) {
  return fmt::format("radix{}_{}", radix, direction == Direction::forward ? "fwd" : "inv");
}

// Collects the body of main() with two-space indentation.
class Body {
 public:
  void line(const std::string& s) { out_ << std::string(indent_, ' ') << s << '\n'; }
  void open(const std::string& s) { line(s.empty() ? "{" : s + " {"); indent_ += 2; }
  void close() { indent_ -= 2; line("}"); }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  int indent_ = 2;
};

// Prints one PassProgram: indices, load prologue, stages and exchanges, store epilogue.
struct PassPrinter {
  const PassProgram& pass;
  const PassLayout& fft;
  IndexMathWriter im;
  bool text_targets;  // printing the source of HLSL and MSL
  bool one_of_several;  // a pass of a dispatch that runs several (pass_sync counters)
  Body body;

  PassPrinter(const PassProgram& p, bool text, bool several = false)
      : pass(p), fft(p.fft), im(p.index_math), text_targets(text), one_of_several(several) {}

  // The variables an invocation's values live in (v<e>), and the element the load prologue reads
  // a transform from (src_base): a pair of interleaved rows loads its second row into w<e> from
  // src_base1 (PassProgram::pair_rows_interleaved).
  std::string value_prefix = "v";
  std::string load_base = "src_base";
  std::string v(uint32_t e) const { return fmt::format("{}{}", value_prefix, e); }

  // A split pass of a dispatch whose other passes exchange complex values: its floats are those of
  // the complex array (`shf(j)`, float j of `sh`; CounterSchedule::shared_bytes says why).
  bool split_in_complex_array = false;
  // Slot `i` of the pass's shared array, as an lvalue.
  std::string shared_slot(const std::string& i) const {
    return fmt::format(fft.shared.split && split_in_complex_array ? "shf({})" : "sh[{}]", i);
  }

  // The pass's batch entries: the push constant, or its share of the transforms of a shared dispatch.
  std::string batch() const { return one_of_several ? "batch" : "params.batch"; }
  // The distance between a view's batch entries: its push constant, or a constant of the shader.
  std::string stride(const View& view) const {
    if (view.binding.stride_constant.empty()) return constant(static_cast<uint32_t>(view.binding.stride));
    return "params." + std::string(view.binding.stride_constant);
  }

  uint32_t step() const { return fft.threads_per_column; }  // distance between one invocation's values

  // Value `i` of the workgroup's column `c` in shared memory: SharedMemoryMap::slot() spelt in GLSL.
  std::string sh(const std::string& c, const std::string& i) const {
    const SharedMemoryMap& map = fft.shared;
    using Scheme = SharedMemoryMap::Scheme;
    switch (map.scheme) {
      case Scheme::row_swizzled:
        return shared_slot(fmt::format("{} + ({} ^ {})", im.mul(c, map.slice), i,
                                       im.mod(im.div(i, 1u << map.swizzle_shift), map.swizzle_mask + 1)));
      case Scheme::column_swizzled:
        return shared_slot(fmt::format("{} + ({} ^ ({} & {}u))", im.mul(c, map.slice), i, c, map.swizzle_mask));
      case Scheme::tile_swizzled: return shared_slot(tile_swizzled_index(c, i));
      case Scheme::column_padded: return shared_slot(fmt::format("{} * {}u + {}", c, map.column_slots(), i));
      // A padded column length is not a power of two: that product is a multiplication either way.
      case Scheme::tile_padded:
      case Scheme::column_staggered:
        return shared_slot(fmt::format("{} * {}u + {} + ({} >> {}u)", c, map.column_slots(), i, i, map.pad_log2));
      case Scheme::row_padded:
        return shared_slot(fmt::format("{} * {}u + {} + ({} >> {}u)", c, map.column_slots(), i, i, SharedMemoryMap::kRowPadLog2));
      case Scheme::plain:
      case Scheme::none: break;
    }
    return shared_slot(fmt::format("{} + {}", im.mul(c, map.slice), i));
  }

  // tile_swizzled's index of value `i` of column `c` (SharedMemoryMap::slot).
  std::string tile_swizzled_index(const std::string& c, const std::string& i) const {
    const SharedMemoryMap& map = fft.shared;
    return fmt::format("{} + ({} ^ {} ^ {})", im.mul(c, map.slice), i,
                       im.mod(im.div(i, 1u << map.swizzle_shift), map.swizzle_mask + 1),
                       im.mul(c, 1u << map.swizzle_shift));
  }

  // Value `base + offset` of column `c`. tile_padded and column_staggered pad base and offset apart
  // where their low p = pad_log2 bits cannot carry into the pad (`no_carry`): (base + offset) >> p
  // is then (base >> p) + (offset >> p), so the accesses of one exchange share their base's pad and
  // the compiler folds the rest into constants. Padding each index whole took the 1024^2 bloom's
  // round trip from 128 registers to 167 on an H100 (one workgroup an SM instead of two: 0.077 ->
  // 0.110 ms); in the 2048-point
  // column passes of 1D 2^21 it spilled (2^21 at 1254 GB/s, 1294 split). row_padded keeps its
  // whole-index form: the same split cut its row passes' registers (c2c 1024^2 189 -> 146) but
  // measured 0.2-1.2 % slower at 512 MiB for 1D c2c and r2c 1024 and 2D r2c 1024^2
  // (bench/results/2026-11-27-h100-tile-padding).
  std::string sh(const std::string& c, const std::string& base, uint32_t offset, bool no_carry) const {
    const SharedMemoryMap& map = fft.shared;
    if (map.scheme == SharedMemoryMap::Scheme::tile_swizzled) return sh_swizzled_apart(c, base, offset, no_carry);
    if (map.pad_log2 == 0 || !no_carry)  // pad_log2: set by the maps that pad apart
      return sh(c, fmt::format("({} + {})", base, constant(offset)));
    const uint32_t pad = map.pad_log2;
    return shared_slot(fmt::format("{} * {}u + {} + (({}) >> {}u) + {}", c, map.column_slots(), base, base, pad,
                                   constant(offset + (offset >> pad))));
  }

  // tile_swizzled's slot of `base + offset`, with the swizzle of base computed once for all the
  // offsets of an exchange, as tile_padded pads base and offset apart (printed whole, the 2048² bloom's
  // round trip spilled at 128 registers). The swizzle reads bits s..s+3 of the index (s =
  // swizzle_shift) and changes bits 0..s: an offset that is a multiple of 2^(s+4) leaves those bits
  // alone, so the slot is swizzled(base) + offset. Where base and offset share no set bit
  // (`disjoint`: base + offset = base ^ offset), the swizzle, a XOR of shifted bits, splits too:
  // swizzled(base) ^ (offset ^ ((offset >> s) & mask)).
  std::string sh_swizzled_apart(const std::string& c, const std::string& base, uint32_t offset, bool disjoint) const {
    const SharedMemoryMap& map = fft.shared;
    const uint32_t shift = map.swizzle_shift, period = (map.swizzle_mask + 1) << shift;
    const std::string swizzled = tile_swizzled_index(c, "(" + base + ")");
    if (offset % period == 0) return shared_slot(fmt::format("{} + {}", swizzled, constant(offset)));
    if (disjoint)
      return shared_slot(fmt::format("({}) ^ {}", swizzled, constant(offset ^ ((offset >> shift) & map.swizzle_mask))));
    return sh(c, fmt::format("({} + {})", base, constant(offset)));
  }

  // Value `q + offset` of column `c`: q's low bits are any, so base and offset pad apart only where
  // the offset is a multiple of the pad period (and for tile_swizzled, of its period: q and the
  // offset may share bits).
  std::string sh_q(const std::string& c, uint32_t offset) const {
    const bool swizzled = fft.shared.scheme == SharedMemoryMap::Scheme::tile_swizzled;
    return sh(c, "q", offset, !swizzled && offset % (1u << fft.shared.pad_log2) == 0);
  }

  void barrier() { body.line("memoryBarrierShared();"); body.line("barrier();"); }

  std::string constant(uint32_t x) const { return fmt::format("{}u", x); }

  // Where value e of an invocation lies during `stage` (null: a pass without stages): its offset
  // from q within the sub-transform, and the condition under which its butterfly exists (empty:
  // always). Balanced passes hold value e at q + e*step in every stage.
  struct Place {
    uint32_t offset;
    std::string guard;
  };
  Place place(const StageLayout* stage, uint32_t e) const {
    if (stage == nullptr) return {e * step(), ""};
    const PassLayout::ValuePlace p = fft.value_place(*stage, e);
    if (!p.guarded) return {p.offset, ""};
    return {p.offset, fmt::format("q < {}", constant(fft.size / stage->radix - p.guard))};
  }
  // Values an invocation holds in `stage`: P*R (E in a balanced pass).
  uint32_t values_in(const StageLayout* stage) const {
    return stage == nullptr ? fft.elems_per_thread : fft.butterflies_per_invocation(*stage) * stage->radix;
  }
  const StageLayout* first_stage() const { return fft.stages.empty() ? nullptr : &fft.stages.front(); }
  const StageLayout* last_stage() const { return fft.stages.empty() ? nullptr : &fft.stages.back(); }
  // `statement`, only where `guard` holds.
  static std::string guarded(const std::string& guard, const std::string& statement) {
    return guard.empty() ? statement : fmt::format("if ({}) {}", guard, statement);
  }

  // The forward twiddle exp(-2*pi*i*m/l) for a runtime exponent `m`, from the table or computed.
  std::string stage_twiddle(const StageLayout& stage, uint32_t r, const std::string& k) const {
    if (pass.twiddles == TwiddleSource::table)
      return fmt::format("tw.data[{} + {}u]", k, stage.twiddle_offset + (r - 1) * stage.twiddle_stride());
    return fmt::format("twiddle({}u * {}, {})", r, k, angle_per_step(uint64_t{stage.twiddle_stride()} * stage.radix));
  }

  // Computed twiddles use the GPU's native sin/cos: fast, but only ~2^-21 accurate in absolute
  // terms. (An octant reduction with polynomials reached table accuracy but cost 12-40% of the
  // bandwidth on an H100: the kernels became ALU-bound.)
  static std::string angle_per_step(uint64_t l) { return glsl_float_literal(2.0 * M_PI / static_cast<double>(l)); }

  // b * params.<stride> + column_offset(j) + q * element_stride: the element of a view that
  // invocation q's value 0 lies at (value e lies e * step * element_stride further).
  std::string view_base(const View& view) const {
    if (view.tile_columns != 0) {
      // A row into column tiles (View::tile_columns): row y = b mod NY of plane b div NY.
      if (!fft.row_mode() || view.base != 0) throw std::logic_error("view_base: column tiles are for row passes");
      const uint32_t tc = view.tile_columns, ny = view.tile_rows;
      return fmt::format("{} * {} + {} + {} + {}", im.mul(im.div(entry(), ny), ny), stride(view),
                         im.mul(im.div("q", tc), ny * tc), im.mul(im.mod(entry(), ny), tc), im.mod("q", tc));
    }
    std::string base = fmt::format("{} * {}", entry(), stride(view));
    if (view.base != 0) base += " + " + constant(static_cast<uint32_t>(view.base));
    if (!fft.row_mode()) {
      if (view.column_split == 0)
        base += " + j";
      else
        base += fmt::format(" + {} + {}", im.mul(im.div("j", view.column_split), view.split_stride),
                            im.mod("j", view.column_split));
    }
    return base + " + " + im.mul("q", view.element_stride);
  }
  // Elements between position p and p + k of a view (View::step), as a shader constant's value.
  static uint32_t step(const View& view, uint32_t k) { return static_cast<uint32_t>(view.step(k)); }
  // The batch entry a view's base counts from: b, or the row of the transform a row pass that
  // skips rows computes (PassProgram::rows_per_transform).
  std::string entry() const { return !entry_name.empty() ? entry_name : pass.rows_per_transform != 0 ? "row" : "b"; }
  std::string entry_name;  // in place of b: "b_y", a pair's row on its interleaved side
  // PassProgram::pair_rows_interleaved: the side that faces the Y pass, the store of the pass that
  // comes first (r2c forward), the load of the one that comes last (c2r).
  bool interleaved_store() const { return pass.pair_rows_interleaved && pass.index == 0; }
  bool interleaved_load() const { return pass.pair_rows_interleaved && pass.index > 0; }
  // "a && b" of the conditions that are not empty.
  static std::string both(const std::string& a, const std::string& b) {
    return a.empty() ? b : b.empty() ? a : fmt::format("{} && {}", a, b);
  }
  std::string view_name(const View& view) const { return std::string(view.binding.slot.name) + ".data"; }
  // Element `index` of a view as a vec2, and the statement storing vec2 `value` there: half data
  // (precision fp16) is converted on the way in and out, the arithmetic stays in float. Vulkan's
  // SPIR-V moves f16vec2 (16-bit storage); the HLSL and MSL source moves each pair of halves as a
  // uint through unpackHalf2x16/packHalf2x16 (f16tof32/f32tof16 from Shader Model 5.0 on).
  std::string load_value(const View& view, const std::string& index) const {
    if (view.binding.is_texture()) return fmt::format("load_{}({})", view.binding.slot.name, index);
    const std::string at = fmt::format("{}[{}]", view_name(view), index);
    // A full-length r2c kernel's real side: its reals, or X[k] = conj X[N-k] above N/2.
    if (view.real_side == View::RealSide::reals) return fmt::format("vec2({}[src_first + {}], 0.0)", view_name(view), index);
    if (view.real_side == View::RealSide::half_spectrum)
      return fmt::format("({1} - src_first <= {2} ? {0}[{1}] : {0}[src_first + ({3} - ({1} - src_first))] * vec2(1.0, -1.0))",
                         view_name(view), index, constant(view.real_n / 2), constant(view.real_n));
    if (!is_half(view.binding.element)) return at;
    return (text_targets ? "unpackHalf2x16(" : "vec2(") + at + ")";
  }
  std::string store_value(const View& view, const std::string& index, const std::string& value) const {
    if (view.binding.is_texture()) return fmt::format("store_{}({}, {});", view.binding.slot.name, index, value);
    const std::string at = fmt::format("{}[{}]", view_name(view), index);
    if (view.real_side == View::RealSide::reals)
      return fmt::format("{}[dst_first + {}] = ({}).x;", view_name(view), index, value);
    if (view.real_side == View::RealSide::half_spectrum)
      return fmt::format("if ({} - dst_first <= {}) {} = {};", index, constant(view.real_n / 2), at, value);
    if (!is_half(view.binding.element)) return fmt::format("{} = {};", at, value);
    return fmt::format("{} = {}({});", at, text_targets ? "packHalf2x16" : "f16vec2", value);
  }

  // Element `index` of the pass's filter plane (a convolution's spectrum: complex, half floats in fp16).
  std::string filter_value(const std::string& index) const {
    View filter;
    for (const PassBinding& b : pass.bindings)
      if (b.role == BufferRole::filter) filter.binding = b;
    return load_value(filter, index);
  }

  void print_indices() {
    const uint32_t c = fft.columns_per_workgroup;
    body.line("uint t = gl_LocalInvocationID.x;");
    // In a dispatch of several passes, `group` is the pass's workgroup the ticket gave (a parameter),
    // and the pass's batch entries are its share of the transforms.
    if (!one_of_several) {
      body.line("uint group = gl_WorkGroupID.x + params.group_offset;");
    } else {
      body.line(fmt::format("uint batch = {};", im.mul("params.batch", pass.batch_scale)));
    }
    if (fft.row_mode()) {
      body.line(fmt::format("uint q = {};  // position inside the transform", im.mod("t", fft.threads_per_column)));
      body.line(fmt::format("uint c = {};  // transform inside the workgroup", im.div("t", fft.threads_per_column)));
      if (fft.pair_rows_at_once) {
        // PassLayout::pair_rows_at_once: transforms 2p and 2p + 1 are rows y and y + NY/2 of pair p.
        const uint32_t d = fft.pair_rows;
        body.line(fmt::format("uint pair_c = {};  // row y of this transform's pair", im.mul(im.div("c", 2), 2)));
        body.line(fmt::format("uint pair = {} + {};", im.mul("group", c / 2), im.div("c", 2)));
        body.line(fmt::format("uint b = {} + {} + {};  // row y, or row y + {}", im.mul(im.div("pair", d), 2 * d),
                              im.mod("pair", d), im.mul("(c - pair_c)", d), d));
        body.line("float pair_sign = c == pair_c ? 1.0 : -1.0;  // row y takes the sum, row y + NY/2 the difference");
      } else if (fft.pair_rows != 0) {
        // PassLayout::pair_rows: transform c is rows y and y + NY/2 of a plane, in turn.
        const uint32_t d = fft.pair_rows;
        body.line(fmt::format("uint pair = {} + c;", im.mul("group", c)));
        body.line(fmt::format("uint b = {} + {};  // row y, then row y + {}", im.mul(im.div("pair", d), 2 * d),
                              im.mod("pair", d), d));
        if (pass.pair_rows_interleaved)
          body.line(fmt::format("uint b_y = {} + {};  // rows 2y and 2y + 1 on the Y side", im.mul(im.div("pair", d), 2 * d),
                                im.mul(im.mod("pair", d), 2)));
      } else {
        body.line(fmt::format("uint b = {} + c;", im.mul("group", c)));
      }
      if (pass.rows_per_transform != 0) print_row_of_entry();
    } else if (fft.mirror_tiles()) {
      // Columns j = tile*C/2 + u and their mirrors S - j (S/2 in place of the mirror of column 0).
      const uint32_t cpt = fft.columns_per_transform, tiles = cpt / c;
      body.line(fmt::format("uint c = {};  // column inside the workgroup", im.mod("t", c)));
      body.line(fmt::format("uint q = {};  // position inside the column", im.div("t", c)));
      body.line(fmt::format("uint tile = {};", im.mod("group", tiles)));
      body.line(fmt::format("uint b = {};", im.div("group", tiles)));
      body.line(fmt::format("uint low = {} + {};", im.mul("tile", c / 2), im.mod("c", c / 2)));
      body.line(fmt::format("uint j = c < {} ? low : (low == 0u ? {} : {} - low);", constant(c / 2), constant(cpt / 2),
                            constant(cpt)));
    } else {
      const uint32_t cpt = fft.columns_per_transform;
      body.line(fmt::format("uint c = {};  // column inside the workgroup", im.mod("t", c)));
      body.line(fmt::format("uint q = {};  // position inside the column", im.div("t", c)));
      body.line(fmt::format("uint g = {} + c;", im.mul("group", c)));
      body.line(fmt::format("uint b = {};", im.div("g", cpt)));
      body.line(fmt::format("uint j = {};", im.mod("g", cpt)));
      if (pass.planes_per_frame > 1) print_column_turns();
    }
    body.line(fmt::format("bool in_range = b < {};", batch()));
    // Where transform b starts in a full-length r2c kernel's real side (in pairs).
    if (pass.load.view.real_side != View::RealSide::none)
      body.line(fmt::format("uint src_first = b * {};", stride(pass.load.view)));
    if (pass.store.view.real_side != View::RealSide::none)
      body.line(fmt::format("uint dst_first = b * {};", stride(pass.store.view)));
    if (interleaved_load()) entry_name = "b_y";
    body.line(fmt::format("uint src_base = {};", view_base(pass.load.view)));
    entry_name.clear();
  }

  // The row a row pass that skips rows computes for batch entry b (PassProgram::rows_per_transform,
  // planes_per_frame): the rows past batch_scale of each transform are skipped.
  void print_row_of_entry() {
    const uint32_t kept = pass.batch_scale, rows = pass.rows_per_transform, planes = pass.planes_per_frame;
    const std::string in_order = fmt::format("{} + {}", im.mul(im.div("b", kept), rows), im.mod("b", kept));
    if (planes <= 1) {
      body.line(fmt::format("uint row = {};  // the rows past {} are skipped", in_order, kept));
      return;
    }
    // Whole frames: the planes of a frame take turns row by row.
    const uint32_t frame = planes * kept;
    body.line(fmt::format("uint frame_entry = {};", im.mod("b", frame)));
    body.line(fmt::format("uint turns = {} + {};",
                          im.mul(fmt::format("({} + {})", im.mul(im.div("b", frame), planes), im.mod("frame_entry", planes)), rows),
                          im.div("frame_entry", planes)));
    body.line(fmt::format("uint row = b < {} - {} ? turns : {};  // the rows past {} are skipped", batch(),
                          im.mod(batch(), frame), in_order, kept));
  }

  // A column pass whose planes take turns (PassProgram::planes_per_frame): within a whole frame, the
  // P planes' tiles of the same C columns run in neighbouring workgroups (and so read the filter's
  // tile once); the columns past the last whole tile follow plane after plane. Column g of the
  // frame's P * S is (plane, column) = ((g mod CP) div C, (g div CP) * C + g mod C) below the whole
  // tiles, and from there (r = S mod C columns left) (k div r, S - r + k mod r), k = g - tiled.
  void print_column_turns() {
    const uint32_t c = fft.columns_per_workgroup, cpt = fft.columns_per_transform, planes = pass.planes_per_frame;
    const uint32_t frame = planes * cpt, tile = c * planes, tiled = (cpt / c) * tile, rest = cpt % c;
    body.open(fmt::format("if (g < {})", im.mul(fmt::format("({} - {})", batch(), im.mod(batch(), planes)), cpt)));
    body.line(fmt::format("uint frame_g = {};", im.mod("g", frame)));
    body.line(fmt::format("uint first = {};", im.mul(im.div("g", frame), planes)));
    if (rest == 0) {
      body.line(fmt::format("b = first + {};", im.div(im.mod("frame_g", tile), c)));
      body.line(fmt::format("j = {} + {};", im.mul(im.div("frame_g", tile), c), im.mod("frame_g", c)));
    } else {
      body.line(fmt::format("uint k = frame_g - {};", constant(tiled)));
      body.line(fmt::format("b = first + (frame_g < {} ? {} : {});", constant(tiled), im.div(im.mod("frame_g", tile), c),
                            im.div("k", rest)));
      body.line(fmt::format("j = frame_g < {} ? {} + {} : {} + {};", constant(tiled), im.mul(im.div("frame_g", tile), c),
                            im.mod("frame_g", c), constant(cpt - rest), im.mod("k", rest)));
    }
    body.close();
  }

  // The separation of a real transform pairs frequencies k and H - k of the half-length transform
  // (H = the axis length). Value e of an invocation is k = kq + e*step*K, where kq = j + q*K is its
  // value 0 and K the element stride (1 in row mode, where kq = q).
  std::string frequency_base(uint32_t element_stride) const {
    return fft.row_mode() ? "q" : fmt::format("(j + {})", im.mul("q", element_stride));
  }
  // The position along the axis of a column-mode invocation's value 0, for a view of element
  // stride K: j + q*K, or along Y, where `interleave` adjacent columns share a position,
  // j div I + q*(K/I) (value e lies place(e)*K/I further).
  std::string axis_position(uint32_t element_stride) const {
    if (fft.interleave == 1) return frequency_base(element_stride);
    return fmt::format("({} + {})", im.div("j", fft.interleave), im.mul("q", element_stride / fft.interleave));
  }
  // Bluestein's chirp w_n (conjugated in the inverse kernel), n = q + offset, from the table.
  std::string chirp(uint32_t offset, const std::string& n = "q") const {
    const std::string w = fmt::format("tw.data[{}u + {}]", pass.chirp.chirp_offset + offset, n);
    return pass.chirp.conjugate ? fmt::format("conj_chirp({})", w) : w;
  }

  // W_N^k of an r2c kernel's separation (N = 2H), k = kq + offset: from the table or computed.
  // W_N^k of the real separation for k = kq + offset (N = 2H). From the table: W_N^kq, loaded once
  // (print_real_twiddle_base), times the exact W_N^offset as a constant, one rounding more than a
  // table entry each: one load per invocation instead of one per value (on an H100, R2C 1024 went
  // from 2933 to 2978 GB/s and 4096 from 2875 to 2952; rel. L2 1.19e-7 -> 1.27e-7 at 1024).
  std::string real_twiddle(uint32_t offset) const {
    if (pass.twiddles == TwiddleSource::table) {
      if (offset == 0) return "w_kq";
      const double angle = -2.0 * M_PI * offset / (2.0 * fft.length);
      auto exact = [](double x) { return glsl_float_literal(std::abs(x) < 1e-15 ? 0.0 : x); };
      return fmt::format("cmul(w_kq, vec2({}, {}))", exact(std::cos(angle)), exact(std::sin(angle)));
    }
    return fmt::format("twiddle(kq + {}u, {})", offset, angle_per_step(2 * uint64_t{fft.length}));
  }
  void print_real_twiddle_base() {
    if (pass.twiddles == TwiddleSource::table)
      body.line(fmt::format("vec2 w_kq = tw.data[{}u + kq];", pass.real_twiddle_offset));
  }

  void print_load() {
    const View& view = pass.load.view;
    const uint32_t e_count = fft.elems_per_thread;
    for (uint32_t e = 0; e < e_count; ++e) body.line(fmt::format("vec2 {} = vec2(0.0);", v(e)));
    if (half_merge()) {
      for (uint32_t e = 0; e < e_count / 2; ++e) body.line(fmt::format("vec2 {} = vec2(0.0);", mirror(e)));
      body.line(fmt::format("vec2 {}_mid = vec2(0.0);", value_prefix));
    }
    body.open("if (in_range)");
    switch (pass.load.kind) {
      case LoadKind::plain:
        // Known zeros (LoadPrologue::zeros_from) stay zero: element src_at + k of the transform.
        if (pass.load.zeros_from != 0)
          body.line(fmt::format("uint src_at = {} - b * {};", load_base, stride(view)));
        for (uint32_t e = 0; e < values_in(first_stage()); ++e) {
          const Place at = place(first_stage(), e);
          const uint32_t k = at.offset * view.element_stride;
          const std::string nonzero =
              pass.load.zeros_from == 0 ? "" : fmt::format("src_at + {} < {}u", constant(k), pass.load.zeros_from);
          body.line(guarded(both(at.guard, nonzero),
                            fmt::format("{} = {};", v(e), load_value(view, load_base + " + " + constant(k)))));
        }
        break;
      case LoadKind::c2r: {
        if (half_merge()) {
          print_half_merge_loads();
          break;
        }
        // Value e is Z[k], k = kq + place(e)*K (e*step*K when balanced), from X[k] and X[H-k] of
        // the half spectrum.
        const uint32_t h = fft.length, stride = view.element_stride;
        body.line(fmt::format("uint kq = {};", frequency_base(stride)));
        body.line(fmt::format("uint src_row = {} - kq;", load_base));
        print_real_twiddle_base();
        for (uint32_t e = 0; e < values_in(first_stage()); ++e) {
          const Place at = place(first_stage(), e);
          const uint32_t k = at.offset * stride;
          body.line(guarded(at.guard, fmt::format("{} = c2r_merge({}, {}, {});", v(e), load_value(view, load_base + " + " + constant(k)),
                                                  load_value(view, fmt::format("src_row + ({} - kq)", constant(h - k))),
                                                  real_twiddle(k))));
        }
        break;
      }
      case LoadKind::chirp: {
        // Value e is x[n] * w_n for n < N, zero padding up to M: n = q + place(e) in row mode,
        // n = n0 + place(e)*K, n0 = j + q*K in column mode (the first pass of a multi-pass M).
        if (!fft.row_mode()) {
          const uint32_t stride = view.element_stride, position_step = stride / fft.interleave;
          body.line(fmt::format("uint n0 = {};", axis_position(stride)));
          for (uint32_t e = 0; e < values_in(first_stage()); ++e) {
            const uint32_t offset = place(first_stage(), e).offset * stride;
            const uint32_t n = place(first_stage(), e).offset * position_step;
            body.line(fmt::format("if (n0 < {}) {} = cmul({}, {});", constant(pass.chirp.n - std::min(n, pass.chirp.n)),
                                  v(e), load_value(view, load_base + " + " + constant(offset)), chirp(n, "n0")));
          }
          break;
        }
        for (uint32_t e = 0; e < values_in(first_stage()); ++e) {
          const uint32_t offset = place(first_stage(), e).offset;
          body.line(fmt::format("if (q < {}) {} = cmul({}, {});", constant(pass.chirp.n - std::min(offset, pass.chirp.n)),
                                v(e), load_value(view, load_base + " + " + constant(offset)), chirp(offset)));
        }
        break;
      }
      case LoadKind::image:
        for (uint32_t e = 0; e < values_in(first_stage()); ++e) {
          const Place at = place(first_stage(), e);
          body.line(guarded(at.guard, fmt::format("{} = load_image({} + {});", v(e), load_base,
                                                  constant(at.offset * view.element_stride))));
        }
        break;
      case LoadKind::pair_merge: {
        // Value e is Z[k] = X[k] + i Y[k], k = q + e*step; X and Y above N/2 mirror those below.
        const uint32_t n = fft.size, half = n / 2 + 1;
        body.line(fmt::format("uint src_row = {} - q;", load_base));
        for (uint32_t e = 0; e < e_count; ++e) {
          const std::string k = fmt::format("k{}", e);
          body.line(fmt::format("uint {} = q + {};", k, constant(e * step())));
          body.line(fmt::format("uint m{0} = {1} > {2} ? {3} - {1} : {1};", e, k, constant(n / 2), constant(n)));
          body.line(fmt::format("{} = pair_merge({}, {}, {} > {});", v(e), load_value(view, fmt::format("src_row + m{}", e)),
                                load_value(view, fmt::format("src_row + {} + m{}", constant(half), e)), k, constant(n / 2)));
        }
        break;
      }
    }
    body.close();
    if (half_merge()) print_half_merge_exchange();
    if (pass.load.pass_twiddle) print_pass_twiddles(false);
  }

  // The c2r merge by halves (where half_separation would separate the forward's): invocation q
  // loads X[k] and X[M - k] for its values e < E/2 (k = q + e*step) and forms both Z[k], its value
  // e, and Z[M - k], value E-1-e of invocation step - q, which it sends through shared memory (half
  // the loads of merging each value alone, and half an exchange). Invocation 0 forms its value E/2,
  // Z[M/2], from X[M/2] alone; its values E-e (e > 0) are its own mirrors. Measured on an H200
  // against merging each value alone (bench/results/2026-11-28-h200-r2c-half-exchange): c2r 1024
  // 4030 -> 4083 GB/s, 16384 2377 -> 2876 (160 -> 122 registers), 2D c2r 2048² 1413 -> 1432;
  // 2D c2r 4096² 1357 -> 1353 and the r2c-packed 4096² bloom 3.032 -> 3.047 ms lose a little.
  std::string mirror(uint32_t e) const { return fmt::format("{}m{}", value_prefix, e); }
  void print_half_merge_loads() {
    const View& view = pass.load.view;
    const uint32_t half = fft.elems_per_thread / 2, t = step(), m = fft.length;
    body.line("uint kq = q;");
    body.line(fmt::format("uint src_row = {} - kq;", load_base));
    print_real_twiddle_base();
    for (uint32_t e = 0; e < half; ++e) {
      body.line(fmt::format("vec2 xk{} = {};", e, load_value(view, load_base + " + " + constant(e * t))));
      body.line(fmt::format("vec2 xm{} = {};", e, load_value(view, fmt::format("src_row + ({} - kq)", constant(m - e * t)))));
      body.line(fmt::format("vec2 wk{} = {};", e, real_twiddle(e * t)));
      body.line(fmt::format("{0} = c2r_merge(xk{1}, xm{1}, wk{1});", v(e), e));
      body.line(fmt::format("{0} = c2r_merge(xm{1}, xk{1}, vec2(-wk{1}.x, wk{1}.y));", mirror(e), e));
    }
    body.open("if (kq == 0u)");  // Z[M/2]: value E/2 of invocation 0, its own mirror
    body.line(fmt::format("vec2 x = {};", load_value(view, load_base + " + " + constant(m / 2))));
    body.line(fmt::format("{}_mid = c2r_merge(x, x, {});", value_prefix, real_twiddle(m / 2)));
    body.close();
  }

  // Mirror e goes to the invocation that holds Z[M - k] as its value E-1-e (print_half_exchange);
  // invocation 0 keeps Z[M/2] and its own mirrors.
  void print_half_merge_exchange() {
    const uint32_t half = fft.elems_per_thread / 2;
    body.line("// values E/2.. come from the invocation that formed them as its mirrors Z[M - k]");
    auto received = [&](uint32_t h) { return v(half + h); };
    for (uint32_t h : print_half_exchange([&](uint32_t e) { return mirror(e); }, received, load_read_shared))
      body.line(fmt::format("{0} = q == 0u ? {1} : {0};", received(h), h == 0 ? value_prefix + "_mid" : mirror(half - h)));
    load_read_shared = true;
  }

  // Half an exchange between the partner invocations q and step - q (the r2c separation and c2r
  // merge by halves): sent(i), i < E/2, goes to slot q + i*step (in the round of i), and
  // received(j) is the partner's sent(E/2-1-j). Invocation 0 is its own partner: it reads its
  // sent(E/2-j) at the unmasked slot one further on, except where that crosses a round (and for
  // j = 0): those j are returned, for the caller to take the value from invocation 0's registers.
  // A split exchange (real parts, then imaginary ones) whose slots hold both parts of the E/2
  // values writes them in one round.
  std::vector<uint32_t> print_half_exchange(const std::function<std::string(uint32_t)>& sent,
                                            const std::function<std::string(uint32_t)>& received, bool after_reads) {
    const uint32_t half = fft.elems_per_thread / 2, t = step();
    const uint32_t per_round = fft.elems_per_thread / fft.exchange_rounds();
    const uint32_t rounds_used = (half + per_round - 1) / per_round;
    const bool both_parts = fft.shared.split && 2 * half <= per_round;
    auto slot = [&](const std::string& position, uint32_t i) {
      return sh("c", fmt::format("({} + {})", position, constant((both_parts ? i : i % per_round) * t)));
    };
    std::vector<WriteGroup> writes(rounds_used);
    std::vector<Read> reads;
    std::vector<uint32_t> kept;
    for (uint32_t i = 0; i < half; ++i) {
      writes[i / per_round].at = i / per_round;
      if (!both_parts) {
        writes[i / per_round].slots_values.emplace_back(sh_q("c", i % per_round * t), sent(i));
        continue;
      }
      writes[0].slots_values.emplace_back(slot("q", i), sent(i) + ".x");
      writes[0].slots_values.emplace_back(slot("q", i + half), sent(i) + ".y");
    }
    for (uint32_t j = 0; j < half; ++j) {
      const uint32_t from = half - 1 - j;
      const bool crosses = j == 0 || from % per_round == per_round - 1;
      if (crosses) kept.push_back(j);
      const std::string position = crosses ? im.mod(fmt::format("({} - q)", constant(t)), t)
                                           : fmt::format("({} - q)", constant(t));
      if (both_parts)
        reads.push_back({received(j), fmt::format("vec2({}, {})", slot(position, from), slot(position, from + half)), 0, ""});
      else
        reads.push_back({received(j), slot(position, from), from / per_round, ""});
    }
    if (both_parts) {
      if (after_reads) barrier();
      for (const auto& [at, value] : writes[0].slots_values) body.line(fmt::format("{} = {};", at, value));
      barrier();
      for (const Read& r : reads) body.line(fmt::format("{} = {};", r.var, r.slot));
    } else {
      print_exchange(writes, reads, after_reads, rounds_used);
    }
    return kept;
  }
  // Shared memory was read by a load prologue (print_half_merge_exchange): the stages' first
  // exchange waits for it.
  bool load_read_shared = false;

  // W^m between passes from the table: one entry of a single-level table, else the two-level
  // table's low part times its high part.
  std::string pass_twiddle_from_table(const std::string& m) const {
    const PassTwiddles& t = fft.pass_twiddles;
    if (t.single_level()) return fmt::format("tw.data[{}u + {}]", t.lo_offset, m);
    return fmt::format("cmul(tw.data[{}u + {}], tw.data[{}u + {}])", t.lo_offset, im.mod(m, t.lo_count), t.hi_offset,
                       im.div(m, t.lo_count));
  }

  // Between passes: value r of column j is multiplied by W_L^(r*k), k = j' mod stride, L = stride*M,
  // where j' = j div interleave is the column's position along the axis (by its conjugate on the
  // way out of a round trip, which leaves each value where it was loaded).
  // `stage`: whose places the values hold (the first stage's as loaded; the last's as stored, for
  // StoreEpilogue::pass_twiddle).
  void print_pass_twiddles(bool conjugate, const StageLayout* stage = nullptr) {
    if (stage == nullptr) stage = first_stage();
    body.line(fmt::format("uint k = {};", im.mod(im.div("j", fft.interleave), fft.stride)));
    const uint32_t count = values_in(stage);
    if (pass.twiddles == TwiddleSource::table && count >= 4) {
      const uint32_t s = place(stage, 1).offset;
      bool arithmetic = place(stage, 0).offset == 0;
      for (uint32_t e = 1; e < count; ++e) arithmetic = arithmetic && place(stage, e).offset == e * s;
      if (arithmetic) return print_pass_twiddle_tree(conjugate, count, s);
    }
    for (uint32_t e = 0; e < count; ++e) {
      std::string m = fmt::format("m{}", e);
      body.line(fmt::format("uint {} = (q + {}) * k;", m, constant(place(stage, e).offset)));
      std::string w;
      if (pass.twiddles == TwiddleSource::table)
        w = pass_twiddle_from_table(m);
      else
        w = fmt::format("twiddle({}, {})", m, angle_per_step(uint64_t{fft.stride} * fft.size));
      body.line(fmt::format("{0} = {1}({0}, {2});", v(e), conjugate ? "twiddle_mul_inverse" : "twiddle_mul", w));
    }
  }

  // The same twiddles where value e sits at q + e*s, from the table: W^((q + e*s)k) as a product
  // tree, tw<e> = tw<e - 2^j> * W^(2^j*s*k) (2^j the highest bit of e), from the base W^(qk) and one
  // step per bit, each from the table: 1 + log2(E) table values an invocation instead of E (a
  // two-level table: twice that, each a product of two loads), and each twiddle at most log2(E) + 1
  // table values deep. Measured on an H100: with a two-level table (bench/results/
  // 2026-11-28-h100-interpass-twiddles) 1D c2c 2^21 1289 -> 1337 GB/s (its 2048-point pass 0.456
  // -> 0.426 ms), rel. L2 1.76e-7 -> 1.87e-7; with a single-level one (the Y passes of 2D grids up
  // to 4096 rows; bench/results/2026-11-28-h100-stage-twiddle-tree) 2D R2C 4096² 1237 -> 1251.
  void print_pass_twiddle_tree(bool conjugate, uint32_t count, uint32_t s) {
    auto from_table = [&](const std::string& name, const std::string& exponent) {
      body.line(fmt::format("uint {}_m = {};", name, exponent));
      body.line(fmt::format("vec2 {} = {};", name, pass_twiddle_from_table(name + "_m")));
    };
    from_table("tw0", "q * k");
    for (uint32_t h = 1; h < count; h *= 2) from_table(fmt::format("tws{}", h), fmt::format("{} * k", constant(h * s)));
    for (uint32_t e = 1; e < count; ++e) {
      const uint32_t h = highest_power_of_two_in(e);
      body.line(fmt::format("vec2 tw{} = cmul(tw{}, tws{});", e, e - h, h));
    }
    for (uint32_t e = 0; e < count; ++e)
      body.line(fmt::format("{0} = {1}({0}, tw{2});", v(e), conjugate ? "twiddle_mul_inverse" : "twiddle_mul", e));
  }

  // One exchange through shared memory. Each group of writes belongs to one round: `round` is a
  // runtime expression that must equal the round number for the group to write (empty: the static
  // round `at`); each read has a static round. Rounds run in order, each a write, a barrier and a read (see
  // SharedMemoryMap::rounds); the split exchange moves the real parts first and the imaginary
  // parts second through a float array of half the size. A barrier precedes the writes when
  // shared memory was read since the last barrier (`after_reads`).
  struct WriteGroup {
    std::string round;
    std::string guard;  ///< a condition for the group's writes (empty: none)
    uint32_t at = 0;
    std::vector<std::pair<std::string, std::string>> slots_values;
  };
  struct Read {
    std::string var, slot;
    uint32_t round = 0;
    std::string guard;
  };
  // `rounds_used`: the first rounds only (0: all of the pass's), for an exchange of fewer values.
  void print_exchange(const std::vector<WriteGroup>& writes, const std::vector<Read>& reads, bool after_reads,
                      uint32_t rounds_used = 0) {
    const uint32_t rounds = rounds_used != 0 ? rounds_used : fft.exchange_rounds();
    // With several rounds an invocation may read a value before writing the one its variable
    // holds, so reads land in fresh variables, copied back at the end.
    auto target = [&](const Read& r) { return rounds > 1 ? "n" + r.var : r.var; };
    if (rounds > 1) {
      body.open("");
      for (const Read& r : reads) body.line(fmt::format("vec2 {};", target(r)));
    }
    const std::vector<std::string> parts = fft.shared.split ? std::vector<std::string>{".x", ".y"}
                                                            : std::vector<std::string>{""};
    bool barrier_needed = after_reads;
    for (uint32_t k = 0; k < rounds; ++k) {
      for (const std::string& part : parts) {
        if (barrier_needed) barrier();
        for (const WriteGroup& group : writes) {
          if (group.round.empty() && group.at != k) continue;
          if (!group.round.empty()) body.open(fmt::format("if ({} == {})", group.round, constant(k)));
          if (!group.guard.empty()) body.open(fmt::format("if ({})", group.guard));
          for (const auto& [slot, value] : group.slots_values) body.line(fmt::format("{} = {}{};", slot, value, part));
          if (!group.guard.empty()) body.close();
          if (!group.round.empty()) body.close();
        }
        barrier();
        for (const Read& r : reads)
          if (r.round == k) body.line(guarded(r.guard, fmt::format("{}{} = {};", target(r), part, r.slot)));
        barrier_needed = true;
      }
    }
    if (rounds > 1) {
      for (const Read& r : reads) body.line(fmt::format("{} = {};", r.var, target(r)));
      body.close();
    }
  }

  // The reads of stage `next`: value e is slot q + place(e) (q + e*step when balanced), which lies in
  // round e div (E/rounds) (several rounds only in balanced passes).
  // `y_stage`: the first exchange of pairs of rows at once (PassLayout::pair_rows_at_once), which
  // reads the slot of both rows of the pair and keeps their sum (row y) or difference (row y + NY/2).
  std::vector<Read> column_reads(const StageLayout& next, bool y_stage = false) const {
    const uint32_t per_round = fft.elems_per_thread / fft.exchange_rounds();
    std::vector<Read> reads;
    for (uint32_t e = 0; e < values_in(&next); ++e) {
      const Place at = place(&next, e);
      const uint32_t offset = at.offset - e / per_round * per_round * step();
      const std::string slot = y_stage ? fmt::format("({} + pair_sign * {})", sh_q("pair_c", offset), sh_q("(pair_c + 1u)", offset))
                                       : sh_q("c", offset);
      reads.push_back({v(e), slot, e / per_round, at.guard});
    }
    return reads;
  }

  // The stages in `direction` (the pass's own, or the inverse half of a round trip, whose first
  // exchange follows reads of shared memory: `after_reads`).
  // `name_tag` prefixes the stages' index names where they are printed twice in one direction
  // (PassLayout::pair_rows's second row); a round trip's inverse half takes "i".
  void print_stages(Direction direction, bool after_reads, const std::string& name_tag = "") {
    const bool own = direction == pass.direction;
    const std::string twiddle_mul = own ? "twiddle_mul" : "twiddle_mul_inverse";
    const std::string tag = !name_tag.empty() ? name_tag : own ? "" : "i";
    // Table twiddles of a stage are loaded before the exchange that precedes it, so that their
    // latency overlaps the exchange, where they take few registers (PassLayout::stage_twiddles_early).
    // Measured on an H100 (bench/results/2026-11-27-h100-twiddle-prefetch): 1D C2C
    // 131072 1770 -> 1819 GB/s, 2D R2C 256² 1373 -> 1388, 2D C2C 512² 1477 -> 1486, R2C 1024
    // 2979 -> 2990; prefetched at every stage, the 31 twiddles of a radix-32 stage on top of 32
    // values raised an 8192-point pass from 117 to 167 registers (1D C2C 8192 2919 -> 2503).
    auto prefetch = [&](size_t s) { return pass.twiddles == TwiddleSource::table && fft.stage_twiddles_early(s); };
    // Declares butterfly i's index in stage s and its twiddle exponent; returns the exponent's name.
    auto twiddle_exponent = [&](size_t s, uint32_t i) {
      const StageLayout& stage = fft.stages[s];
      const std::string jj = fmt::format("{}j{}_{}", tag, s, i), k = fmt::format("{}k{}_{}", tag, s, i);
      body.line(fmt::format("uint {} = {};", jj, i == 0 ? "q" : fmt::format("q + {}", constant(i * step()))));
      body.line(fmt::format("uint {} = {};", k, im.div(im.mod(jj, stage.stride), stage.twiddle_divisor)));
      return k;
    };
    auto twiddle_name = [&](size_t s, uint32_t i, uint32_t r) { return fmt::format("{}w{}_{}_{}", tag, s, i, r); };
    // Twiddle r of butterfly i of stage s, from the table, or by the product tree
    // (PassProgram::stage_twiddle_tree): W^(hk) from the table for the powers of two h,
    // tw_r = tw_(r-h) * tw_h for the rest. Measured on an H100 for the early twiddles (bench/results/
    // 2026-11-28-h100-stage-twiddle-tree): 2D C2C 512² x 4 14.0-14.4 -> 12.9-13.0 µs, 1D C2C 32768
    // 1763 -> 1958 GB/s and 65536 1749 -> 2000, 2D R2C 256² 1367 -> 1341; 2D C2C 512² rel. L2
    // 1.51e-7 -> 1.84e-7. On an H200 for the late ones (bench/results/2026-11-28-h200-late-twiddle-
    // tree): 1D C2C 16384 3136 -> 3283 GB/s, 2^20 1619 -> 1646, 2D R2C 1024² 1652 -> 1692.
    auto stage_twiddle_value = [&](size_t s, uint32_t i, uint32_t r, const std::string& k) {
      const uint32_t h = highest_power_of_two_in(r);
      if (!pass.stage_twiddle_tree(s) || h == r) return stage_twiddle(fft.stages[s], r, k);
      return fmt::format("cmul({}, {})", twiddle_name(s, i, r - h), twiddle_name(s, i, h));
    };
    auto twiddle_loads = [&](size_t s) {
      const StageLayout& stage = fft.stages[s];
      for (uint32_t i = 0; i < fft.butterflies_per_invocation(stage); ++i) {
        const std::string k = twiddle_exponent(s, i);
        for (uint32_t r = 1; r < stage.radix; ++r)
          body.line(fmt::format("vec2 {} = {};", twiddle_name(s, i, r), stage_twiddle_value(s, i, r, k)));
      }
    };
    for (size_t s = 0; s < fft.stages.size(); ++s) {
      const StageLayout& stage = fft.stages[s];
      const uint32_t r_count = stage.radix;
      const uint32_t per_thread = fft.butterflies_per_invocation(stage);
      body.line(fmt::format("// stage {}: radix {}, stride {}", s, r_count, stage.stride));
      const bool prefetched = prefetch(s);
      // Late twiddles by a tree: each multiplies its value as soon as it is formed. Formed first,
      // all of them, they made the 2D C2C 4096² column pass (512 invocations, at their cap of 128
      // registers) 1.4 % slower on an H200, 362 -> 367 µs; interleaved, it stays at 362.
      const bool late_tree = !prefetched && pass.stage_twiddle_tree(s);
      // Prefetched and late-tree twiddles are named values; the rest are read where they multiply.
      const bool named = prefetched || late_tree;
      for (uint32_t i = 0; i < per_thread; ++i) {
        // stage_twiddle_tree implies a twiddle stride above 1.
        if (stage.twiddle_stride() > 1) {
          const std::string k = prefetched ? "" : twiddle_exponent(s, i);
          for (uint32_t r = 1; r < r_count; ++r) {
            if (late_tree) body.line(fmt::format("vec2 {} = {};", twiddle_name(s, i, r), stage_twiddle_value(s, i, r, k)));
            body.line(fmt::format("{0} = {1}({0}, {2});", v(i + r * per_thread), twiddle_mul,
                                  named ? twiddle_name(s, i, r) : stage_twiddle(stage, r, k)));
          }
        }
        std::string args;
        for (uint32_t r = 0; r < r_count; ++r) args += (r ? ", " : "") + v(i + r * per_thread);
        body.line(fmt::format("{}({});", codelet_name(r_count, direction), args));
      }
      if (s + 1 == fft.stages.size()) continue;
      // Stockham: butterfly jj's output r goes to (jj div Ns)*Ns*R + (jj mod Ns) + r*Ns. With
      // several rounds, those R slots lie in slice jj div (S/R) (S = slice size), at the offset
      // the base has within its slice.
      const uint32_t slice = fft.exchange_size();
      std::vector<WriteGroup> writes;
      for (uint32_t i = 0; i < per_thread; ++i) {
        std::string jj = i == 0 ? std::string("q") : fmt::format("(q + {})", constant(i * step()));
        std::string base = fmt::format("{} + {}", im.mul(im.div(jj, stage.stride), stage.stride * r_count),
                                       im.mod(jj, stage.stride));
        WriteGroup group;
        group.guard = place(&stage, i).guard;
        if (fft.exchange_rounds() > 1) {
          group.round = im.div(jj, slice / r_count);
          base = im.mod("(" + base + ")", slice);
        }
        // base is a multiple of stride * R plus jj mod stride (of one exchange round: a slice of a
        // power-of-two size): with stride and R powers of two, base mod 2^p plus r * stride mod 2^p
        // stays below 2^p for every power of two 2^p (the pad of tile_padded, column_staggered).
        const bool no_carry = is_power_of_two(stage.stride) && is_power_of_two(r_count) &&
                              (fft.exchange_rounds() == 1 || is_power_of_two(slice));
        for (uint32_t r = 0; r < r_count; ++r)
          group.slots_values.emplace_back(sh("c", base, r * stage.stride, no_carry), v(i + r * per_thread));
        writes.push_back(std::move(group));
      }
      if (prefetch(s + 1)) twiddle_loads(s + 1);
      body.line(fmt::format("// exchange {} -> {}", s, s + 1));
      const bool y_stage = fft.pair_rows_at_once && s == 0 && own && name_tag.empty();
      print_exchange(writes, column_reads(fft.stages[s + 1], y_stage), s > 0 || after_reads);
    }
  }

  // A round trip (PassProgram::round_trip): the forward stages, the filter product of each value
  // where it lies (frequency src_at + k of the load's view: a balanced pass ends its stages with
  // value e where it began them), and the inverse stages.
  void print_round_trip() {
    print_stages(pass.direction, load_read_shared);
    const StoreEpilogue& store = pass.store;
    const View& view = pass.load.view;
    body.open("if (in_range)");
    // Value 0 of invocation q is element q of column j: in the filter plane at j * M + q when the
    // filter is kept by columns, else where the data has it.
    const uint32_t filter_stride = store.filter_by_columns ? 1 : view.element_stride;
    const std::string column = store.filter_by_columns ? fmt::format("{} + q", im.mul("j", fft.size))
                                                       : fmt::format("src_base - b * {}", stride(view));
    body.line(fmt::format("uint filter_base = {} + {};", column,
                          im.mul(im.mod("b", store.filter_planes), static_cast<uint32_t>(store.filter_plane))));
    for (uint32_t e = 0; e < values_in(last_stage()); ++e)
      body.line(fmt::format("{0} = cmul({0}, {1});", v(e),
                            filter_value("filter_base + " + constant(place(last_stage(), e).offset * filter_stride))));
    body.close();
    print_stages(inverse_of(pass.direction), fft.stages.size() > 1);
    if (pass.load.pass_twiddle) {
      body.open("");  // its own names k, m<e>
      print_pass_twiddles(true);
      body.close();
    }
  }

  // The r2c and r2c_pair separations pair Z[k] with Z[H-k]: after an exchange, p<e> holds Z[H-k].
  // Row mode (k = q + e*step): invocation 0 holds both ends itself (H - e*step = (E-e)*step); every
  // other reads slot (step - q) + (E-1-e)*step, in the round of value E-1-e. Mirrored column tiles
  // (k = j + (q + e*step)*S): the mirror column S - j holds Z[H-k] at element M-1-i, i.e. slot
  // (step-1-q) + (E-1-e)*step of the other half of the tile; columns 0 and S/2 pair with
  // themselves, column 0 as row mode does.
  // A pass whose invocations hold different numbers of values (row mode, one round): value e is
  // Z[k], k = q + place(e), and its partner Z[M - k] is read from slot M - k (slot 0 for k = 0).
  void print_unbalanced_partner_exchange() {
    body.line("// exchange: each value meets its mirror Z[M - k]");
    std::vector<Read> reads;
    for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
      const Place at = place(last_stage(), e);
      body.line(fmt::format("vec2 p{};", e));
      const std::string mirror = at.offset == 0 ? fmt::format("(q == 0u ? 0u : {} - q)", constant(fft.size))
                                                : fmt::format("({} - q)", constant(fft.size - at.offset));
      reads.push_back({fmt::format("p{}", e), sh("c", mirror), 0, at.guard});
    }
    // Guarded values are written by the invocations that hold them: one group per guard.
    std::vector<WriteGroup> groups;
    for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
      const Place at = place(last_stage(), e);
      auto it = std::find_if(groups.begin(), groups.end(), [&](const WriteGroup& g) { return g.guard == at.guard; });
      if (it == groups.end()) it = groups.insert(groups.end(), WriteGroup{"", at.guard, 0, {}});
      it->slots_values.emplace_back(sh("c", fmt::format("(q + {})", constant(at.offset))), v(e));
    }
    print_exchange(groups, reads, fft.stages.size() > 1);
    body.line("uint kq = q;");
  }

  // The r2c separation by halves: where every invocation holds E values (E even) of a row stored
  // as it is, invocation q separates the pairs (k, M - k) of its values e < E/2 (k = q + e*step),
  // storing X[k] and X[M - k]. Z[M - k] is value E-1-e of invocation step - q, so only the values
  // E/2.. cross shared memory: half the exchange, and half the values live beside the partners.
  // Invocation 0 pairs with itself (its value E-e, e > 0; value E/2 alone, X[M/2]; value 0 gives
  // X[0] and X[M]), as does step/2 (value E-1-e).
  // Measured on an H200 against every value meeting its partner, at 512 MiB
  // (bench/results/2026-11-28-h200-r2c-half-exchange): with 32 invocations a row or more it is
  // faster everywhere (R2C 1024 3837 -> 3958 GB/s, 4096 3733 -> 3855, 16384 2316 -> 3318 as its
  // registers fall from 135 to 115, 32768 2562 -> 2782; 2D R2C row passes 1.3-3.3 %); with 4, 8
  // or 16 invocations a row, whose warps store several rows in short runs, it is slower (R2C 128
  // -6 %, 256 -6.6 %, 512 -1.1 %; 2D R2C 256² -3 %), so those keep the full exchange.
  // The c2r merge by halves is its mirror image (print_half_merge_loads).
  static constexpr uint32_t kHalfSeparationInvocations = 32;
  bool by_halves(const View& view) const {
    return fft.row_mode() && fft.balanced() && step() >= kHalfSeparationInvocations && fft.elems_per_thread % 2 == 0 &&
           fft.size == fft.length && view.tile_columns == 0 && view.element_stride == 1 &&
           view.real_side == View::RealSide::none;
  }
  bool half_separation() const { return pass.store.kind == StoreKind::r2c && by_halves(pass.store.view); }
  bool half_merge() const { return pass.load.kind == LoadKind::c2r && by_halves(pass.load.view); }

  // The exchange of the separation by halves: values E/2.. go to the invocation whose values
  // 0..E/2-1 they mirror (print_half_exchange), into p<e>: value E-1-e of invocation step - q.
  void print_half_partner_exchange(bool after_reads) {
    const uint32_t e_count = fft.elems_per_thread, half = e_count / 2;
    body.line("// exchange: values E/2.. go to the invocation that holds their mirrors Z[M - k]");
    for (uint32_t e = 0; e < half; ++e) body.line(fmt::format("vec2 p{};", e));
    const std::vector<uint32_t> kept = print_half_exchange([&](uint32_t h) { return v(half + h); },
                                                           [&](uint32_t e) { return fmt::format("p{}", e); },
                                                           after_reads || fft.stages.size() > 1);
    body.line("uint kq = q;");
    for (uint32_t e : kept) body.line(fmt::format("p{0} = kq == 0u ? {1} : p{0};", e, v((e_count - e) % e_count)));
  }

  void print_partner_exchange(bool after_reads = false) {
    if (half_separation()) return print_half_partner_exchange(after_reads);
    if (!fft.balanced()) return print_unbalanced_partner_exchange();
    const uint32_t e_count = fft.elems_per_thread, t = step();
    const uint32_t per_round = e_count / fft.exchange_rounds();
    if (t == 1 && fft.row_mode()) {  // one invocation holds the whole transform
      for (uint32_t e = 0; e < e_count; ++e) body.line(fmt::format("vec2 p{} = {};", e, v((e_count - e) % e_count)));
      body.line("uint kq = q;");
      return;
    }
    body.line("// exchange: each value meets its mirror Z[M - k]");
    std::vector<WriteGroup> writes(fft.exchange_rounds());
    std::vector<Read> reads;
    for (uint32_t e = 0; e < e_count; ++e) {
      body.line(fmt::format("vec2 p{};", e));
      const uint32_t k = e / per_round, e_in_round = e % per_round;
      writes[k].at = k;
      writes[k].slots_values.emplace_back(sh("c", fmt::format("(q + {})", constant(e_in_round * t))), v(e));
      const uint32_t mirror = e_count - 1 - e;
      const std::string column = fft.mirror_tiles() ? "pc" : "c";
      const std::string position = fft.mirror_tiles() ? "pq" : im.mod(fmt::format("({} - q)", constant(t)), t);
      reads.push_back({fmt::format("p{}", e),
                       sh(column, fmt::format("({} + {})", position, constant(mirror % per_round * t))),
                       mirror / per_round, ""});
    }
    if (fft.mirror_tiles()) {
      const uint32_t half = fft.columns_per_workgroup / 2;
      body.line(fmt::format("bool self_pair = tile == 0u && {} == 0u;  // columns 0 and S/2", im.mod("c", half)));
      body.line(fmt::format("uint pc = self_pair ? c : (c ^ {});", constant(half)));
      body.line(fmt::format("uint pq = j == 0u ? {} : {} - q;", im.mod(fmt::format("({} - q)", constant(t)), t),
                            constant(t - 1)));
    }
    print_exchange(writes, reads, after_reads || fft.stages.size() > 1);
    body.line(fmt::format("uint kq = {};", frequency_base(pass.store.view.element_stride)));
    for (uint32_t e = 0; e < e_count; ++e)
      body.line(fmt::format("p{0} = kq == 0u ? {1} : p{0};", e, v((e_count - e) % e_count)));
  }

  // dst_base, and for the reals of an odd-length full-length r2c kernel the padding real after
  // them, written as zero by the invocation that holds value 0.
  void print_destination_base(const View& view) {
    body.line(fmt::format("uint dst_base = {};", view_base(view)));
    if (view.real_side == View::RealSide::reals && view.real_n % 2 != 0)
      body.line(fmt::format("if (dst_base == dst_first) {}[dst_first + dst_first + {}] = 0.0;", view_name(view),
                            constant(view.real_n)));
  }

  // An X pass that does the first Y stage (PassLayout::pair_rows): row y + NY/2 is loaded with
  // row y (into w<e>) and transformed after it in the same invocations, which then hold both
  // rows' values of each position: v<e> becomes row y's output (the sum), d<e> row y + NY/2's
  // (the difference). The Y pass applies the twiddles between the stages.
  // The second row goes through the same load prologue as the first, into w<e>: row y + NY/2, or
  // with interleaved rows (PassProgram::pair_rows_interleaved, a c2r inverse) row 2y + 1.
  void print_row_pair() {
    const View& view = pass.load.view;
    if (interleaved_load()) {
      body.line(fmt::format("uint src_base1 = src_base + {};  // row 2y + 1", stride(view)));
      load_base = "src_base1";
    } else {
      load_base = fmt::format("src_base + {}", im.mul(stride(view), fft.pair_rows));
    }
    value_prefix = "w";
    print_load();
    value_prefix = "v";
    load_base = "src_base";
    print_stages(pass.direction, load_read_shared);
    body.line("// row y's values wait; row y + NY/2's take their place");
    for (uint32_t e = 0; e < fft.elems_per_thread; ++e) body.line(fmt::format("vec2 a{0} = {1}; {1} = w{0};", e, v(e)));
    print_stages(pass.direction, true, "y");
    body.line("// the first Y stage, radix 2: row y keeps the sum, row y + NY/2 the difference");
    for (uint32_t e = 0; e < fft.elems_per_thread; ++e)
      body.line(fmt::format("vec2 d{0} = a{0} - {1}; {1} = a{0} + {1};", e, v(e)));
  }

  // The store epilogue; an X pass that does the first Y stage (PassLayout::pair_rows) stores row y,
  // then row y + NY/2.
  // Interleaved rows (PassProgram::pair_rows_interleaved, r2c forward) store rows 2y and 2y + 1,
  // each r2c separation in a scope of its own (its exchange declares its partners).
  void print_store() {
    if (pass.store.pass_twiddle) print_pass_twiddles(false, last_stage());
    if (!fft.pair_rows_in_turn()) return print_store_values();
    const bool separate = pass.store.kind == StoreKind::r2c;
    if (interleaved_store()) entry_name = "b_y";
    if (separate) body.open("");
    print_store_values();
    if (separate) body.close();
    body.line(interleaved_store() ? "b_y += 1u;" : fmt::format("b += {};", constant(fft.pair_rows)));
    for (uint32_t e = 0; e < fft.elems_per_thread; ++e) body.line(fmt::format("{} = d{};", v(e), e));
    if (separate) body.open("");
    print_store_values(true);
    if (separate) body.close();
    entry_name.clear();
  }

  // The store epilogue of the values v<e> of batch entry b; `after_reads`: shared memory was read
  // since the last barrier whatever the stages did (a pair's second row).
  void print_store_values(bool after_reads = false) {
    StoreEpilogue store = pass.store;
    const std::string scaled = store.scale == 1.0 ? "" : " * " + glsl_float_literal(store.scale);
    const uint32_t e_count = fft.elems_per_thread;
    if (store.kind == StoreKind::r2c || store.kind == StoreKind::pair_split) {
      print_partner_exchange(after_reads);
      body.open("if (in_range)");
      body.line(fmt::format("uint dst_base = {};", view_base(store.view)));
      if (half_separation()) {
        // X[k] and X[M - k] for k = q + e*step, e < E/2: W_N^(M-k) = -conj W_N^k (N = 2M).
        const uint32_t m = fft.length, t = step();
        body.line(fmt::format("uint dst_mirror = dst_base + {} - {};", constant(m), im.mul("q", 2)));
        print_real_twiddle_base();
        for (uint32_t e = 0; e < e_count / 2; ++e) {
          body.line(fmt::format("vec2 wk{} = {};", e, real_twiddle(e * t)));
          body.line(store_value(store.view, "dst_base + " + constant(e * t),
                                fmt::format("r2c_split({0}, p{1}, wk{1}){2}", v(e), e, scaled)));
          body.line(store_value(store.view, e == 0 ? "dst_mirror" : "dst_mirror - " + constant(e * t),
                                fmt::format("r2c_split(p{0}, {1}, vec2(-wk{0}.x, wk{0}.y)){2}", e, v(e), scaled)));
        }
        body.open("if (kq == 0u)");  // X[M/2]: value E/2 of invocation 0, its own mirror
        body.line(store_value(store.view, "dst_base + " + constant(m / 2),
                              fmt::format("r2c_split({0}, {0}, {1}){2}", v(e_count / 2), real_twiddle(m / 2), scaled)));
        body.close();
      } else if (store.kind == StoreKind::r2c) {
        // X[k] for k = kq + place(e)*S (e*step*S when balanced); X[H] from Z[0] by the invocation
        // that holds it.
        const uint32_t stride = store.view.element_stride;
        print_real_twiddle_base();
        for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
          const Place at = place(last_stage(), e);
          body.line(guarded(at.guard, store_value(store.view, "dst_base + " + constant(step(store.view, at.offset * stride)),
                                                  fmt::format("r2c_split({}, p{}, {}){}", v(e), e,
                                                              real_twiddle(at.offset * stride), scaled))));
        }
        body.open("if (kq == 0u)");
        body.line(store_value(store.view, "dst_base + " + constant(step(store.view, fft.length)),
                              fmt::format("r2c_nyquist({}){}", v(0), scaled)));
        body.close();
      } else {
        // X[k] and Y[k] for k = q + e*step <= N/2: values below E/2, and E/2 at invocation 0.
        const uint32_t half = fft.size / 2 + 1;
        for (uint32_t e = 0; e <= e_count / 2; ++e) {
          if (e == e_count / 2) body.open("if (q == 0u)");
          body.line(store_value(store.view, "dst_base + " + constant(e * step()),
                                fmt::format("pair_split_x({}, p{}){}", v(e), e, scaled)));
          body.line(store_value(store.view, "dst_base + " + constant(half + e * step()),
                                fmt::format("pair_split_y({}, p{}){}", v(e), e, scaled)));
          if (e == e_count / 2) body.close();
        }
      }
      body.close();
      return;
    }
    if (store.kind == StoreKind::chirp_filter || store.kind == StoreKind::chirp_crop) {
      // Value e is frequency k = q + place(e) of the transform of M in row mode, k = k0 +
      // place(e)*S, k0 = j + q*S, in column mode (the last pass of a multi-pass M).
      const bool crop = store.kind == StoreKind::chirp_crop;
      const uint32_t stride = fft.row_mode() ? 1 : store.view.element_stride;
      const uint32_t position_step = fft.row_mode() ? 1 : stride / fft.interleave;
      const std::string k = fft.row_mode() ? "q" : "k0";
      body.open("if (in_range)");
      print_destination_base(store.view);
      if (!fft.row_mode()) body.line(fmt::format("uint k0 = {};", axis_position(stride)));
      for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
        const uint32_t offset = place(last_stage(), e).offset * stride;
        const uint32_t position = place(last_stage(), e).offset * position_step;
        const std::string spectrum = fmt::format("tw.data[{}u + {}]", pass.chirp.spectrum_offset + position, k);
        const std::string factor = crop                            ? chirp(position, k)
                                   : pass.chirp.conjugate_spectrum ? fmt::format("conj_chirp({})", spectrum)
                                                                   : spectrum;
        const std::string write =
            store_value(store.view, "dst_base + " + constant(offset), fmt::format("cmul({}, {}){}", v(e), factor, scaled));
        if (!crop) body.line(write);
        else if (position < pass.chirp.n)
          body.line(fmt::format("if ({} < {}) {}", k, constant(pass.chirp.n - position), write));
      }
      body.close();
      return;
    }
    if (store.kind == StoreKind::grid) {
      // Value e of invocation q is frequency p = q + e*step in the order kx*NY + ky; element o of
      // the row-major output (ky*NX + kx) is read from slot (o mod NX)*NY + o div NX.
      const uint32_t ny = fft.grid_ny, nx = fft.size / ny;
      body.line("// store through shared memory: column-major frequencies become row-major");
      WriteGroup writes;
      std::vector<Read> reads;
      for (uint32_t e = 0; e < e_count; ++e) {
        writes.slots_values.emplace_back(sh("c", fmt::format("(q + {})", constant(e * step()))), v(e));
        const std::string o = fmt::format("(q + {})", constant(e * step()));
        reads.push_back({v(e), sh("c", fmt::format("({} + {})", im.mul(im.mod(o, nx), ny), im.div(o, nx))), 0, ""});
      }
      print_exchange({writes}, reads, fft.stages.size() > 1);
      store.kind = StoreKind::plain;  // then as a plain store
    }
    if (store.kind == StoreKind::image) {
      body.open("if (in_range)");
      body.line(fmt::format("uint dst_base = {};", view_base(store.view)));
      for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
        const Place at = place(last_stage(), e);
        body.line(guarded(at.guard, fmt::format("store_image(dst_base + {}, {}{});",
                                                constant(at.offset * store.view.element_stride), v(e), scaled)));
      }
      body.close();
      return;
    }
    if (store.kind == StoreKind::plain) {
      body.open("if (in_range)");
      print_destination_base(store.view);
      // A convolution's product (a round trip has applied it): element k of this transform's filter plane.
      const bool product = store.filter_planes > 0 && !pass.round_trip;
      if (product)
        body.line(fmt::format("uint filter_base = dst_base - b * {} + {};", stride(store.view),
                              im.mul(im.mod("b", store.filter_planes), static_cast<uint32_t>(store.filter_plane))));
      // Elements from StoreEpilogue::stored_below on are not stored: element dst_at + k of the transform.
      if (store.stored_below != 0)
        body.line(fmt::format("uint dst_at = dst_base - b * {};", stride(store.view)));
      for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
        const Place at = place(last_stage(), e);
        const uint32_t k = at.offset * store.view.element_stride;
        const std::string offset = constant(k);
        const std::string value = product ? fmt::format("cmul({}, {})", v(e), filter_value("filter_base + " + offset)) : v(e);
        const std::string kept =
            store.stored_below == 0 ? "" : fmt::format("dst_at + {} < {}u", offset, store.stored_below);
        body.line(guarded(both(at.guard, kept),
                          store_value(store.view, "dst_base + " + constant(step(store.view, k)), value + scaled)));
      }
      body.close();
      return;
    }
    // y[j*M + r]: a transpose, staged in shared memory so that both sides are coalesced. The
    // values come back into v0.. in row order: value e of invocation t is row element t + e*W.
    body.line("// store through shared memory: the workgroup's columns become contiguous rows");
    // With several rounds, round k moves slots [k*S, (k+1)*S) of every column (S = slice size):
    // the values e of round k (e div (E/rounds) = k) go in, and come out as C runs of S
    // contiguous output elements; value e = k*(E/rounds) + e' is element l = t + e'*W of them.
    const uint32_t slice = fft.exchange_size();
    const uint32_t per_round = e_count / fft.exchange_rounds();
    std::vector<WriteGroup> writes(fft.exchange_rounds());
    std::vector<Read> reads;
    std::vector<std::string> out_index;
    for (uint32_t e = 0; e < e_count; ++e) {
      const uint32_t k = e / per_round, e_in_round = e % per_round;
      writes[k].at = k;
      writes[k].slots_values.emplace_back(sh_q("c", e_in_round * step()), v(e));
      std::string l = e_in_round == 0 ? "t" : fmt::format("(t + {})", constant(e_in_round * fft.workgroup_size));
      reads.push_back({v(e), sh(im.div(l, slice), im.mod(l, slice)), k, ""});
      out_index.push_back(fft.exchange_rounds() == 1
                              ? (e == 0 ? "t" : fmt::format("t + {}", constant(e * fft.workgroup_size)))
                              : fmt::format("{} + {} + {}", im.mul(im.div(l, slice), fft.size), im.mod(l, slice),
                                            constant(k * slice)));
    }
    print_exchange(writes, reads, fft.stages.size() > 1);
    const uint32_t cpt = fft.columns_per_transform;
    body.line(fmt::format("uint g0 = {};", im.mul("group", fft.columns_per_workgroup)));
    body.line(fmt::format("uint b0 = {};", im.div("g0", cpt)));
    body.open(fmt::format("if (b0 < {})", batch()));
    body.line(fmt::format("uint dst_base = b0 * {} + {}{};", stride(store.view),
                          store.view.base != 0 ? constant(static_cast<uint32_t>(store.view.base)) + " + " : "",
                          im.mul(im.mod("g0", cpt), fft.size)));
    for (uint32_t e = 0; e < e_count; ++e)
      body.line(store_value(store.view, "dst_base + " + out_index[e], v(e) + scaled));
    body.close();
  }
};

// A storage buffer's declaration: `qualifier` ("readonly ", "writeonly ", "coherent " or "") and
// the element each pass moves (vec2, float for real images of odd rows, halves).
std::string buffer_glsl(const PassBinding& b, const char* qualifier, bool text_targets) {
  const char* type = b.scalar ? "float" : !is_half(b.element) ? "vec2" : text_targets ? "uint" : "f16vec2";
  return fmt::format("layout(set = 0, binding = {}) {}buffer {} {{ {} data[]; }} {};\n", b.slot.binding, qualifier,
                     b.slot.block, type, b.slot.name);
}

// The push-constant block (kPushConstants), after the buffers.
std::string push_constants_glsl() {
  std::string out = "\nlayout(push_constant) uniform Params {\n";
  size_t width = 0;
  for (const PushConstantSlot& pc : kPushConstants) width = std::max(width, pc.name.size());
  for (const PushConstantSlot& pc : kPushConstants)
    out += fmt::format("  uint {}; {}// {}\n", pc.name, std::string(width - pc.name.size() + 1, ' '), pc.comment);
  return out + "} params;";
}

// The GLSL declarations of a pass's interface (kSourceSlot..., kPushConstants). For the text
// targets (`text_targets`) a pass that reads the buffer it writes declares binding 0 writable too:
// D3D12 forbids binding one resource as an SRV and a UAV in one dispatch, while two UAVs of it are
// allowed. SPIR-V keeps it read-only, which lets Vulkan drivers use their read-only load path.
std::string interface_glsl(const PassProgram& pass, bool text_targets) {
  std::string out =
      "// Binding 0 and 1 may alias (a pass that works in place on the output): every workgroup reads\n"
      "// exactly the elements it writes, and reads them all before it writes.\n";
  for (const PassBinding& b : pass.bindings) {
    if (b.is_texture()) {
      out += fmt::format("layout(set = 0, binding = {}, {}) uniform {}image2D {};\n", b.slot.binding,
                         to_string(b.texture), b.slot.access == Access::write ? "writeonly " : "readonly ", b.slot.name);
      continue;
    }
    const bool writable = b.slot.access == Access::write || (text_targets && pass.in_place() && b.slot.binding == 0);
    out += buffer_glsl(b, b.slot.access == Access::write ? "writeonly " : writable ? "" : "readonly ", text_targets);
  }
  return out + push_constants_glsl();
}

}  // namespace

std::string generated_header(const std::string& plan_source, const KernelSpec& spec, const std::string& pass) {
  return fmt::format("Generated by fftgen {} from plan '{}': kernel '{}', pass {}. Do not edit.", FFTGEN_VERSION,
                     plan_source, spec.name, pass);
}

namespace {

// One pass printed: its body, and the GLSL functions it calls (prologue and epilogue snippets, index
// math helpers, codelets), each a chunk of text in the order the shader declares them.
struct PrintedPass {
  std::string body;
  std::vector<std::string> functions;
};

// `split_in_complex_array`: a pass of a dispatch whose passes exchange in both forms.
PrintedPass print_pass(const PassProgram& pass, bool text_targets, bool one_of_several,
                       bool split_in_complex_array = false) {
  PassPrinter printer(pass, text_targets, one_of_several);
  printer.split_in_complex_array = split_in_complex_array;
  printer.print_indices();
  printer.print_load();
  if (pass.round_trip) printer.print_round_trip();
  else if (pass.fft.pair_rows_in_turn()) printer.print_row_pair();
  else printer.print_stages(pass.direction, printer.load_read_shared);
  printer.print_store();
  const PassLayout& fft = pass.fft;

  std::vector<std::string> texture_snippets;
  // Storage images (io image): the texel of a view's value, and its load or store (before the
  // index math's helpers are chosen: the texel may divide by a row that is not a power of two).
  for (const PassBinding& b : pass.bindings) {
    if (!b.is_texture()) continue;
    const bool real = b.texture == TextureFormat::r32f;
    kainjow::mustache::mustache snippet{std::string(embedded_template("texture.glsl"))};
    kainjow::mustache::data d;
    d.set("binding", std::to_string(b.slot.binding));
    d.set("format", std::string(to_string(b.texture)));
    d.set("width", std::to_string(b.texels_per_row));
    d.set("what", real ? "reals" : "complex values");
    d.set("name", std::string(b.slot.name));
    d.set("x", printer.im.mod("e", b.texels_per_row));
    d.set("y", printer.im.div("e", b.texels_per_row));
    d.set("real", real);
    d.set("load", b.slot.access == Access::read);
    texture_snippets.push_back(snippet.render(d) + "\n");
  }
  // GLSL functions of the prologue, the epilogue and the index math, from templates/<name>.glsl.
  PrintedPass out;
  std::vector<std::string>& functions = out.functions;
  auto add_snippet = [&](const char* name) { functions.push_back(std::string(embedded_template(name)) + "\n"); };
  if (printer.im.uses_magic_division()) add_snippet("udiv.glsl");
  // A round trip's inverse stages in a forward pass: the conjugate twiddle.
  if (pass.round_trip) functions.push_back("vec2 twiddle_mul_inverse(vec2 a, vec2 w) { return cmul(a, vec2(w.x, -w.y)); }\n\n");
  if (pass.load.kind == LoadKind::c2r) add_snippet("load_c2r.glsl");
  if (pass.load.kind == LoadKind::pair_merge) add_snippet("load_pair_merge.glsl");
  if (pass.store.kind == StoreKind::r2c) add_snippet("store_r2c.glsl");
  if (pass.store.kind == StoreKind::pair_split) add_snippet("store_pair_split.glsl");
  if (pass.chirp.conjugate && (pass.load.kind == LoadKind::chirp || pass.store.kind == StoreKind::chirp_crop ||
                               (pass.store.kind == StoreKind::chirp_filter && pass.chirp.conjugate_spectrum)))
    add_snippet("chirp_conjugate.glsl");
  // The image snippets take the image's geometry as constants; channel pairs have their own.
  auto add_image_snippet = [&](const char* reals, const char* pixels, const ImageView& image) {
    kainjow::mustache::mustache snippet{std::string(embedded_template(image.channel_pairs ? pixels : reals))};
    kainjow::mustache::data d;
    for (const auto& [key, value] :
         {std::pair<const char*, uint32_t>{"rows", image.rows}, {"cols", image.cols}, {"channels", image.channels},
          {"padded_rows", image.padded_rows}, {"padded_cols", image.padded_cols}, {"half_cols", image.padded_cols / 2},
          {"offset_y", image.offset_y}, {"offset_x", image.offset_x}, {"row_floats", image.cols * image.channels},
          {"planes", (image.channels + 1) / 2}})
      d.set(key, std::to_string(value));
    d.set("even", image.channels % 2 == 0);
    functions.push_back(snippet.render(d) + "\n");
  };
  functions.insert(functions.end(), texture_snippets.begin(), texture_snippets.end());
  if (pass.load.kind == LoadKind::image)
    add_image_snippet("load_image.glsl", "load_image_pixels.glsl", pass.load.image);
  if (pass.store.kind == StoreKind::image)
    add_image_snippet("store_image.glsl", "store_image_pixels.glsl", pass.store.image);
  std::set<uint32_t> radices;
  for (const StageLayout& stage : fft.stages) radices.insert(stage.radix);
  for (Direction d : {pass.direction, inverse_of(pass.direction)}) {
    if (d != pass.direction && !pass.round_trip) continue;
    for (uint32_t r : radices) functions.push_back(emit_codelet_glsl(codelet::make_dft(r, d), codelet_name(r, d)) + "\n");
  }
  out.body = printer.body.str();
  return out;
}

std::string stages_text(const PassLayout& fft) {
  std::string stages;
  for (const StageLayout& stage : fft.stages) stages += (stages.empty() ? "" : "x") + std::to_string(stage.radix);
  return stages;
}

// What the template's declarations around the passes share: the version line's extensions, shared
// memory, the twiddle operand.
void set_common(kainjow::mustache::data& data, const std::string& header, const std::vector<PassBinding>& bindings,
                const PassProgram& pass, const SharedMemoryMap& shared, bool text_targets) {
  data.set("header", header);
  bool half_storage = false;
  for (const PassBinding& b : bindings) half_storage = half_storage || is_half(b.element);
  // Vulkan's SPIR-V moves half floats with 16-bit storage (loads and stores only).
  data.set("extensions", half_storage && !text_targets ? "#extension GL_EXT_shader_16bit_storage : require\n" : "");
  data.set("workgroup_size", std::to_string(pass.fft.workgroup_size));
  data.set("computed_twiddles", pass.twiddles == TwiddleSource::computed);
  data.set("shared_type", shared.split ? "float" : "vec2");
  if (shared.elements() > 0) data.set("shared_elements", std::to_string(shared.elements()));
  else data.set("shared_elements", false);
  data.set("twiddle_operand", pass.direction == Direction::forward ? "w" : "vec2(w.x, -w.y)");
}

std::string render(const char* name, const kainjow::mustache::data& data) {
  kainjow::mustache::mustache tmpl{std::string(embedded_template(name))};
  std::string text = tmpl.render(data);
  if (!tmpl.is_valid()) throw std::runtime_error(std::string("template ") + name + ": " + tmpl.error_message());
  return text;
}

// The declarations of a dispatch of several passes: one buffer per role (CounterSchedule::bindings).
// The buffers one pass writes and another reads are coherent: a workgroup reads what workgroups on
// other compute units wrote in the same dispatch, past their own caches (HLSL: globallycoherent).
std::string counters_interface_glsl(const std::vector<PassBinding>& bindings, bool text_targets) {
  std::string out;
  for (const PassBinding& b : bindings) {
    if (b.role == BufferRole::sync) {
      out += fmt::format("layout(set = 0, binding = {}) coherent buffer {} {{ uint data[]; }} {};\n", b.slot.binding,
                         b.slot.block, b.slot.name);
      continue;
    }
    const bool read_only = b.role == BufferRole::input || b.role == BufferRole::twiddles || b.role == BufferRole::filter;
    out += buffer_glsl(b, read_only ? "readonly " : "coherent ", text_targets);
  }
  return out + push_constants_glsl();
}

}  // namespace

std::string emit_pass_glsl(const PassProgram& pass, const std::string& header, bool text_targets) {
  const PrintedPass printed = print_pass(pass, text_targets, false);
  const PassLayout& fft = pass.fft;
  std::string codelets;
  for (const std::string& f : printed.functions) codelets += f;
  kainjow::mustache::data data;
  set_common(data, header, pass.bindings, pass, fft.shared, text_targets);
  data.set("summary",
           fmt::format("N = {}, {} {}, pass {} of {}: sub-transform {} (stages {}) at stride {}, {} per workgroup; "
                       "index math {}, twiddles {}",
                       pass.n, to_string(pass.direction), "FFT", pass.index + 1, pass.count, fft.size, stages_text(fft),
                       fft.stride, fft.columns_per_workgroup, to_string(pass.index_math), to_string(pass.twiddles)));
  data.set("interface", interface_glsl(pass, text_targets));
  data.set("codelets", codelets);
  data.set("body", printed.body);
  return render("stockham.comp", data);
}

std::string emit_counters_glsl(const std::vector<PassProgram>& passes, const CounterSchedule& schedule,
                               const std::string& header, bool text_targets) {
  if (passes.size() < 2 || passes.size() != schedule.passes())
    throw std::logic_error("emit_counters_glsl: a dispatch of several passes needs their schedule");
  std::vector<std::string> functions;
  std::string bodies, calls, summary;
  // The passes' exchanges share one array `sh` of CounterSchedule::shared_bytes: complex values
  // where any pass exchanges them (the split passes then use its floats), else floats.
  bool complex_exchange = false, split_exchange = false;
  for (const PassProgram& pass : passes)
    if (pass.fft.shared.elements() > 0) (pass.fft.shared.split ? split_exchange : complex_exchange) = true;
  const bool mixed = complex_exchange && split_exchange;
  for (size_t i = 0; i < passes.size(); ++i) {
    const PassProgram& pass = passes[i];
    const PrintedPass printed = print_pass(pass, text_targets, true, mixed);
    for (const std::string& f : printed.functions)
      if (std::find(functions.begin(), functions.end(), f) == functions.end()) functions.push_back(f);
    bodies += fmt::format("// pass {}: sub-transform {} (stages {}) at stride {}, {} per workgroup, {} workgroups per "
                          "transform\nvoid pass{}(uint group) {{\n{}}}\n\n",
                          i, pass.fft.size, stages_text(pass.fft), pass.fft.stride, pass.fft.columns_per_workgroup,
                          schedule.items[i], i, printed.body);
    calls += fmt::format("  {}if (pass == {}u) pass{}(group);\n", i == 0 ? "" : "else ", i, i);
    summary += fmt::format("{}{}", i == 0 ? "" : " then ", pass.fft.size);
  }
  if (!calls.empty()) calls.pop_back();  // the template ends the line
  std::string codelets;
  for (const std::string& f : functions) codelets += f;
  const PassProgram& first = passes.front();
  kainjow::mustache::data data;
  set_common(data, header, schedule.bindings, first, SharedMemoryMap{}, text_targets);
  const uint32_t array_bytes = schedule.shared_bytes - CounterSchedule::kSharedBytes;
  std::string shared;
  if (complex_exchange) shared = fmt::format("\nshared vec2 sh[{}];", array_bytes / 8);
  else if (split_exchange) shared = fmt::format("\nshared float sh[{}];", array_bytes / 4);
  if (mixed) {
    const IndexMathWriter im(first.index_math);
    shared += fmt::format("\n#define shf(j) sh[{}][{}]  // float j of sh, for the split passes", im.div("(j)", 2),
                          im.mod("(j)", 2));
  }
  data.set("shared", shared);
  data.set("summary", fmt::format("N = {}, {} FFT: {} passes in one dispatch (sub-transforms {}), each workgroup "
                                  "one pass's work on one transform in ticket order; index math {}, twiddles {}",
                                  first.n, to_string(first.direction), passes.size(), summary,
                                  to_string(first.index_math), to_string(first.twiddles)));
  data.set("interface", counters_interface_glsl(schedule.bindings, text_targets));
  data.set("codelets", codelets);
  data.set("passes", bodies);
  data.set("calls", calls);
  data.set("pass_count", std::to_string(passes.size()));
  data.set("lag", std::to_string(schedule.lag));
  data.set("items_per_transform", std::to_string(schedule.items_per_transform()));
  // The schedule's constants spelt out (an array indexed at run time may land in local memory).
  std::string items_of_pass, tickets_before;
  for (uint32_t p = 0; p < schedule.passes(); ++p) {
    const bool last = p + 1 == schedule.passes();
    items_of_pass += last ? fmt::format("{}u", schedule.items[p]) : fmt::format("p == {}u ? {}u : ", p, schedule.items[p]);
    const uint64_t delay = uint64_t{p} * schedule.lag;
    tickets_before += fmt::format("{}{}u * min({}, params.batch)", p == 0 ? "" : " + ", schedule.items[p],
                                  delay == 0 ? "r" : fmt::format("r > {0}u ? r - {0}u : 0u", delay));
  }
  data.set("items_of_pass", items_of_pass);
  data.set("tickets_before", tickets_before);
  return render("counters.comp", data);
}

}  // namespace fftgen
