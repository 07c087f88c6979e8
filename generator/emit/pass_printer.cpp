// generator/emit: the addressing every printer of a pass spells the same way (views, shared
// memory, twiddle tables, exchanges) and the indices a pass starts with.
#include "pass_printer.hpp"

#include <cmath>
#include <stdexcept>

#include "fftgen/emit_codelet.hpp"

namespace fftgen::glsl {

std::string IndexMathWriter::div(const std::string& x, uint32_t p) const {
  if (p == 1) return x;
  if (mode_ == IndexMath::divmod) return fmt::format("({} / {}u)", x, p);
  const Divisor d(p);
  if (d.power_of_two()) return fmt::format("({} >> {}u)", x, d.shift);
  uses_magic_division_ = true;
  return fmt::format("udiv({}, {}u, {}u)", x, d.magic, d.shift);
}

std::string IndexMathWriter::mod(const std::string& x, uint32_t p) const {
  if (p == 1) return "0u";
  if (mode_ == IndexMath::divmod) return fmt::format("({} % {}u)", x, p);
  if (is_power_of_two(p)) return fmt::format("({} & {}u)", x, p - 1);
  return fmt::format("({} - {} * {}u)", x, div(x, p), p);
}

std::string IndexMathWriter::mul(const std::string& x, uint32_t p) const {
  if (p == 1) return x;
  if (mode_ == IndexMath::bitwise && is_power_of_two(p)) return fmt::format("({} << {}u)", x, log2_exact(p));
  return fmt::format("({} * {}u)", x, p);
}

const Dialect& dialect_of(bool text_targets) {
  static const Dialect vulkan{"vec2", "f16vec2", "f16vec2", "#extension GL_EXT_shader_16bit_storage : require\n", false,
                              true};
  static const Dialect text{"unpackHalf2x16", "packHalf2x16", "uint", "", true, false};
  return text_targets ? text : vulkan;
}

Direction inverse_of(Direction d) { return d == Direction::forward ? Direction::inverse : Direction::forward; }

std::string codelet_name(uint32_t radix, Direction direction) {
  return fmt::format("radix{}_{}", radix, direction == Direction::forward ? "fwd" : "inv");
}

PassPrinter::PassPrinter(const PassProgram& p, const Dialect& d, bool several, bool split_in_complex)
    : pass(p), fft(p.fft), im(p.index_math), dialect(d), one_of_several(several),
      split_in_complex_array(split_in_complex) {}

std::string PassPrinter::literal(double x) const {
  return pass.in_double() ? glsl_double_literal(x) : glsl_float_literal(x);
}

std::string PassPrinter::guarded(const std::string& guard, const std::string& statement) {
  return guard.empty() ? statement : fmt::format("if ({}) {}", guard, statement);
}

std::string PassPrinter::both(const std::string& a, const std::string& b) {
  return a.empty() ? b : b.empty() ? a : fmt::format("{} && {}", a, b);
}

std::string PassPrinter::stride(const View& view) const {
  if (view.binding.stride_constant.empty()) return constant(static_cast<uint32_t>(view.binding.stride));
  return "params." + std::string(view.binding.stride_constant);
}

void PassPrinter::barrier() {
  body.line("memoryBarrierShared();");
  body.line("barrier();");
}

// Balanced passes hold value e at q + e*step in every stage.
Place PassPrinter::place(const StageLayout* stage, uint32_t e) const {
  if (stage == nullptr) return {e * step(), ""};
  const PassLayout::ValuePlace p = fft.value_place(*stage, e);
  if (!p.guarded) return {p.offset, ""};
  return {p.offset, fmt::format("q < {}", constant(fft.size / stage->radix - p.guard))};
}

// Values an invocation holds in `stage`: P*R (E in a balanced pass).
uint32_t PassPrinter::values_in(const StageLayout* stage) const {
  return stage == nullptr ? fft.elems_per_thread : fft.butterflies_per_invocation(*stage) * stage->radix;
}

// Slot `i` of the pass's shared array, as an lvalue.
std::string PassPrinter::shared_slot(const std::string& i) const {
  return fmt::format(fft.shared.split && split_in_complex_array ? "shf({})" : "sh[{}]", i);
}

// Value `i` of the workgroup's column `c` in shared memory: SharedMemoryMap::slot() spelt in GLSL.
std::string PassPrinter::sh(const std::string& c, const std::string& i) const {
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
      return shared_slot(fmt::format("{} * {}u + {} + ({} >> {}u)", c, map.column_slots(), i, i, map.pad_log2));
    case Scheme::plain:
    case Scheme::none: break;
  }
  return shared_slot(fmt::format("{} + {}", im.mul(c, map.slice), i));
}

// tile_swizzled's index of value `i` of column `c` (SharedMemoryMap::slot).
std::string PassPrinter::tile_swizzled_index(const std::string& c, const std::string& i) const {
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
std::string PassPrinter::sh(const std::string& c, const std::string& base, uint32_t offset, bool no_carry) const {
  const SharedMemoryMap& map = fft.shared;
  if (map.scheme == SharedMemoryMap::Scheme::tile_swizzled) return sh_swizzled_apart(c, base, offset, no_carry);
  const bool pads_apart = map.scheme == SharedMemoryMap::Scheme::tile_padded ||
                          map.scheme == SharedMemoryMap::Scheme::column_staggered;
  if (!pads_apart || !no_carry)
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
std::string PassPrinter::sh_swizzled_apart(const std::string& c, const std::string& base, uint32_t offset,
                                           bool disjoint) const {
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
std::string PassPrinter::sh_q(const std::string& c, uint32_t offset) const {
  const bool swizzled = fft.shared.scheme == SharedMemoryMap::Scheme::tile_swizzled;
  return sh(c, "q", offset, !swizzled && offset % (1u << fft.shared.pad_log2) == 0);
}

// One exchange through shared memory. Rounds run in order, each a write, a barrier and a read (see
// SharedMemoryMap::rounds); the split exchange moves the real parts first and the imaginary
// parts second through a float array of half the size. A barrier precedes the writes when
// shared memory was read since the last barrier (`after_reads`).
// `rounds_used`: the first rounds only (0: all of the pass's), for an exchange of fewer values.
void PassPrinter::print_exchange(const std::vector<WriteGroup>& writes, const std::vector<Read>& reads,
                                 bool after_reads, uint32_t rounds_used) {
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

// Half an exchange between the partner invocations q and step - q (the r2c separation and c2r
// merge by halves): sent(i), i < E/2, goes to slot q + i*step (in the round of i), and
// received(j) is the partner's sent(E/2-1-j). Invocation 0 is its own partner: it reads its
// sent(E/2-j) at the unmasked slot one further on, except where that crosses a round (and for
// j = 0): those j are returned, for the caller to take the value from invocation 0's registers.
// A split exchange (real parts, then imaginary ones) whose slots hold both parts of the E/2
// values writes them in one round.
std::vector<uint32_t> PassPrinter::print_half_exchange(const std::function<std::string(uint32_t)>& sent,
                                                       const std::function<std::string(uint32_t)>& received,
                                                       bool after_reads) {
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
  if (!both_parts) {
    print_exchange(writes, reads, after_reads, rounds_used);
    return kept;
  }
  if (after_reads) barrier();
  for (const auto& [at, value] : writes[0].slots_values) body.line(fmt::format("{} = {};", at, value));
  barrier();
  for (const Read& r : reads) body.line(fmt::format("{} = {};", r.var, r.slot));
  return kept;
}

// `entry` * params.<stride> + column_offset(j) + q * element_stride: the element of a view that
// invocation q's value 0 lies at (value e lies e * step * element_stride further). `entry` is the
// batch entry the view counts from: b, the row of the transform a row pass that skips rows
// computes (PassProgram::rows_per_transform), or a pair's row on its interleaved side (b_y).
std::string PassPrinter::view_base(const View& view, const std::string& entry) const {
  if (view.tile_columns != 0) {
    // A row into column tiles (View::tile_columns): row y = b mod NY of plane b div NY.
    if (!fft.row_mode() || view.base != 0) throw std::logic_error("view_base: column tiles are for row passes");
    const uint32_t tc = view.tile_columns, ny = view.tile_rows;
    return fmt::format("{} * {} + {} + {} + {}", im.mul(im.div(entry, ny), ny), stride(view),
                       im.mul(im.div("q", tc), ny * tc), im.mul(im.mod(entry, ny), tc), im.mod("q", tc));
  }
  std::string base = fmt::format("{} * {}", entry, stride(view));
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

std::string PassPrinter::read_name(const View& view) const {
  if (!dialect.read_only_view || one_of_several || !view.binding.read_write) return view_name(view);
  return std::string(view.binding.slot.name) + "_read.data";
}

// Element `index` of a view as a vec2: half data (precision fp16) is converted on the way in, the
// arithmetic stays in float (Dialect).
std::string PassPrinter::load_value(const View& view, const std::string& index) const {
  if (rows_in_shared) return shared_slot(index);
  if (view.binding.is_texture()) return fmt::format("load_{}({})", view.binding.slot.name, index);
  const std::string at = fmt::format("{}[{}]", read_name(view), index);
  // A full-length r2c kernel's real side: its reals, or X[k] = conj X[N-k] above N/2.
  if (view.real_side == View::RealSide::reals) return fmt::format("vec2({}[src_first + {}], 0.0)", read_name(view), index);
  if (view.real_side == View::RealSide::half_spectrum)
    return fmt::format("({1} - src_first <= {2} ? {0}[{1}] : {0}[src_first + ({3} - ({1} - src_first))] * vec2(1.0, -1.0))",
                       read_name(view), index, constant(view.real_n / 2), constant(view.real_n));
  if (!is_half(view.binding.element)) return at;
  return fmt::format("{}({})", dialect.half_load, at);
}

// The statement storing vec2 `value` at element `index` of a view (half data converted).
std::string PassPrinter::store_value(const View& view, const std::string& index, const std::string& value) const {
  if (rows_in_shared) return fmt::format("{} = {};", shared_slot(index), value);
  if (view.binding.is_texture()) return fmt::format("store_{}({}, {});", view.binding.slot.name, index, value);
  const std::string at = fmt::format("{}[{}]", view_name(view), index);
  if (view.real_side == View::RealSide::reals)
    return fmt::format("{}[dst_first + {}] = ({}).x;", view_name(view), index, value);
  if (view.real_side == View::RealSide::half_spectrum)
    return fmt::format("if ({} - dst_first <= {}) {} = {};", index, constant(view.real_n / 2), at, value);
  if (!is_half(view.binding.element)) return fmt::format("{} = {};", at, value);
  return fmt::format("{} = {}({});", at, dialect.half_store, value);
}

// Element k of row r of the workgroup (r < C) lies at slot r*S + k (S = fft.shared.slice, odd).
// Invocation t moves elements f = t + i*C (i < width) of the C*width in row order, so that a warp's
// accesses are adjacent, for the rows of the batch.
void PassPrinter::print_rows_copy(const View& view, uint32_t width, bool to_shared) {
  const uint32_t c = fft.columns_per_workgroup, s = fft.shared.slice;
  body.line(to_shared ? "// the workgroup's rows into shared memory, in coalesced runs"
                      : "// the workgroup's rows out of shared memory, in coalesced runs");
  body.open("");
  body.line("uint row0 = b - c;");
  for (uint32_t i = 0; i < width; ++i) {
    const std::string f = i == 0 ? "t" : fmt::format("(t + {})", constant(i * c));
    body.open("");
    body.line(fmt::format("uint r = {};", im.div(f, width)));
    body.line(fmt::format("uint k = {};", im.mod(f, width)));
    const std::string element = view_base(view, "(row0 + r)") + " + k";
    const std::string slot = shared_slot(im.mul("r", s) + " + k");
    body.line(guarded(fmt::format("row0 + r < {}", batch()),
                      to_shared ? fmt::format("{} = {};", slot, load_value(view, element)) : store_value(view, element, slot)));
    body.close();
  }
  body.close();
}

uint32_t PassPrinter::row_width(bool load) const {
  const bool half_spectrum = load ? pass.load.kind == LoadKind::c2r : pass.store.kind == StoreKind::r2c;
  return fft.size + (half_spectrum ? 1 : 0);
}

// Element `index` of the pass's filter plane (a convolution's spectrum: complex, half floats in fp16).
std::string PassPrinter::filter_value(const std::string& index) const {
  View filter;
  for (const PassBinding& b : pass.bindings)
    if (b.role == BufferRole::filter) filter.binding = b;
  return load_value(filter, index);
}

// The separation of a real transform pairs frequencies k and H - k of the half-length transform
// (H = the axis length). Value e of an invocation is k = kq + e*step*K, where kq = j + q*K is its
// value 0 and K the element stride (1 in row mode, where kq = q).
std::string PassPrinter::frequency_base(uint32_t element_stride) const {
  return fft.row_mode() ? "q" : fmt::format("(j + {})", im.mul("q", element_stride));
}

// The position along the axis of a column-mode invocation's value 0, for a view of element
// stride K: j + q*K, or along Y, where `interleave` adjacent columns share a position,
// j div I + q*(K/I) (value e lies place(e)*K/I further).
std::string PassPrinter::axis_position(uint32_t element_stride) const {
  if (fft.interleave == 1) return frequency_base(element_stride);
  return fmt::format("({} + {})", im.div("j", fft.interleave), im.mul("q", element_stride / fft.interleave));
}

// The r2c separation and the c2r merge by halves (print_half_partner_exchange, load_c2r_by_halves):
// where every invocation holds E values (E even) of a row stored as it is, the partners k and M - k
// are formed by one invocation of the two. Measured on an H200 against every value meeting its
// partner, at 512 MiB (bench/results/2026-11-28-h200-r2c-half-exchange): with 32 invocations a row
// or more it is faster everywhere (R2C 1024 3837 -> 3958 GB/s, 4096 3733 -> 3855, 16384 2316 ->
// 3318 as its registers fall from 135 to 115, 32768 2562 -> 2782; 2D R2C row passes 1.3-3.3 %);
// with 4, 8 or 16 invocations a row, whose warps store several rows in short runs, it is slower
// (R2C 128 -6 %, 256 -6.6 %, 512 -1.1 %; 2D R2C 256² -3 %), so those keep the full exchange.
bool PassPrinter::by_halves(const View& view) const {
  constexpr uint32_t kHalfSeparationInvocations = 32;
  return fft.row_mode() && fft.balanced() && step() >= kHalfSeparationInvocations && fft.elems_per_thread % 2 == 0 &&
         fft.size == fft.length && view.tile_columns == 0 && view.element_stride == 1 &&
         view.real_side == View::RealSide::none;
}

// Computed twiddles use the GPU's native sin/cos: fast, but only ~2^-21 accurate in absolute
// terms. (An octant reduction with polynomials reached table accuracy but cost 12-40% of the
// bandwidth on an H100: the kernels became ALU-bound.)
std::string PassPrinter::angle_per_step(uint64_t l) { return glsl_float_literal(2.0 * M_PI / static_cast<double>(l)); }

// The forward twiddle exp(-2*pi*i*m/l) for a runtime exponent `m`, from the table or computed.
std::string PassPrinter::stage_twiddle(const StageLayout& stage, uint32_t r, const std::string& k) const {
  if (pass.twiddles == TwiddleSource::table)
    return table(fmt::format("{} + {}", k, constant(stage.twiddle_offset + (r - 1) * stage.twiddle_stride())));
  return fmt::format("twiddle({}u * {}, {})", r, k, angle_per_step(uint64_t{stage.twiddle_stride()} * stage.radix));
}

// Bluestein's chirp w_n (conjugated in the inverse kernel), n = q + offset, from the table.
std::string PassPrinter::chirp(uint32_t offset, const std::string& n) const {
  const std::string w = table(pass.chirp.chirp_offset + offset, n);
  return pass.chirp.conjugate ? fmt::format("conj_chirp({})", w) : w;
}

// W_N^k of the real separation for k = kq + offset (N = 2H). From the table: W_N^kq, loaded once
// (print_real_twiddle_base), times the exact W_N^offset as a constant, one rounding more than a
// table entry each: one load per invocation instead of one per value (on an H100, R2C 1024 went
// from 2933 to 2978 GB/s and 4096 from 2875 to 2952; rel. L2 1.19e-7 -> 1.27e-7 at 1024).
std::string PassPrinter::real_twiddle(uint32_t offset) const {
  if (pass.twiddles == TwiddleSource::table) {
    if (offset == 0) return "w_kq";
    const double angle = -2.0 * M_PI * offset / (2.0 * fft.length);
    auto exact = [this](double x) { return literal(std::abs(x) < 1e-15 ? 0.0 : x); };
    return fmt::format("cmul(w_kq, vec2({}, {}))", exact(std::cos(angle)), exact(std::sin(angle)));
  }
  return fmt::format("twiddle(kq + {}u, {})", offset, angle_per_step(2 * uint64_t{fft.length}));
}

void PassPrinter::print_real_twiddle_base() {
  if (pass.twiddles == TwiddleSource::table) body.line(fmt::format("vec2 w_kq = {};", table(pass.real_twiddle_offset, "kq")));
}

// W^m between passes from the table: one entry of a single-level table, else the two-level
// table's low part times its high part.
std::string PassPrinter::pass_twiddle_from_table(const std::string& m) const {
  const PassTwiddles& t = fft.pass_twiddles;
  if (t.single_level()) return table(t.lo_offset, m);
  return fmt::format("cmul({}, {})", table(t.lo_offset, im.mod(m, t.lo_count)), table(t.hi_offset, im.div(m, t.lo_count)));
}

void PassPrinter::print_indices() {
  body.line("uint t = gl_LocalInvocationID.x;");
  // In a dispatch of several passes, `group` is the pass's workgroup the ticket gave (a parameter),
  // and the pass's batch entries are its share of the transforms.
  if (!one_of_several) {
    body.line("uint group = gl_WorkGroupID.x + params.group_offset;");
  } else {
    body.line(fmt::format("uint batch = {};", im.mul("params.batch", pass.batch_scale)));
  }
  const uint32_t c = fft.columns_per_workgroup, cpt = fft.columns_per_transform;
  if (fft.row_mode()) {
    print_row_indices();
  } else if (fft.mirror_tiles()) {
    // Columns j = tile*C/2 + u and their mirrors S - j (S/2 in place of the mirror of column 0).
    const uint32_t tiles = fft.mirror_tiles_per_transform(), lows = fft.mirror_low_columns();
    body.line(fmt::format("uint c = {};  // column inside the workgroup", im.mod("t", c)));
    body.line(fmt::format("uint q = {};  // position inside the column", im.div("t", c)));
    body.line(fmt::format("uint tile = {};", im.mod("group", tiles)));
    body.line(fmt::format("uint b = {};", im.div("group", tiles)));
    body.line(fmt::format("uint low = {} + {};", im.mul("tile", c / 2), im.mod("c", c / 2)));
    if (cpt % 2 == 0)
      body.line(fmt::format("uint j = c < {} ? low : (low == 0u ? {} : {} - low);", constant(c / 2), constant(cpt / 2),
                            constant(cpt)));
    else  // no column S/2: column 0's mirror place holds no column
      body.line(fmt::format("uint j = c < {} ? low : {} - low;", constant(c / 2), constant(cpt)));
    // The places past the low columns (the last tile's), and column 0's mirror place of an odd S,
    // compute column 0 again and store nothing.
    if (fft.mirror_places_unused()) {
      body.line(fmt::format("bool column_in_range = low < {} && j < {};", constant(lows), constant(cpt)));
      body.line("j = column_in_range ? j : 0u;");
    }
  } else {
    body.line(fmt::format("uint c = {};  // column inside the workgroup", im.mod("t", c)));
    body.line(fmt::format("uint q = {};  // position inside the column", im.div("t", c)));
    body.line(fmt::format("uint g = {} + c;", im.mul("group", c)));
    body.line(fmt::format("uint b = {};", im.div("g", cpt)));
    body.line(fmt::format("uint j = {};", im.mod("g", cpt)));
    if (pass.planes_per_frame > 1) print_column_turns();
  }
  if (fft.mirror_places_unused())
    body.line(fmt::format("bool in_range = b < {} && column_in_range;", batch()));
  else
    body.line(fmt::format("bool in_range = b < {};", batch()));
  // Where transform b starts in a full-length r2c kernel's real side (in pairs).
  if (pass.load.view.real_side != View::RealSide::none)
    body.line(fmt::format("uint src_first = b * {};", stride(pass.load.view)));
  if (pass.store.view.real_side != View::RealSide::none)
    body.line(fmt::format("uint dst_first = b * {};", stride(pass.store.view)));
  body.line(fmt::format("uint src_base = {};", view_base(pass.load.view, interleaved_load() ? "b_y" : entry())));
}

// A row pass's q (position in the transform), c (transform in the workgroup) and b (batch entry).
void PassPrinter::print_row_indices() {
  const uint32_t c = fft.columns_per_workgroup;
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
}

// The row a row pass that skips rows computes for batch entry b (PassProgram::rows_per_transform,
// planes_per_frame): the rows past batch_scale of each transform are skipped.
void PassPrinter::print_row_of_entry() {
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
void PassPrinter::print_column_turns() {
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

}  // namespace fftgen::glsl
