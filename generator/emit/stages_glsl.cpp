// generator/emit: the middle of a pass: its stages (twiddles, codelets, exchanges), the twiddles
// between passes, a convolution's round trip and an X pass that does the first Y stage.
#include <algorithm>

#include "pass_printer.hpp"

namespace fftgen::glsl {

// Between passes: value r of column j is multiplied by W_L^(r*k), k = j' mod stride, L = stride*M,
// where j' = j div interleave is the column's position along the axis (by its conjugate on the
// way out of a round trip, which leaves each value where it was loaded).
// `stage`: whose places the values hold (the first stage's as loaded; the last's as stored, for
// StoreEpilogue::pass_twiddle).
void PassPrinter::print_pass_twiddles(bool conjugate, const StageLayout* stage, const Values& values) {
  if (stage == nullptr) stage = first_stage();
  body.line(fmt::format("uint k = {};", im.mod(im.div("j", fft.interleave), fft.stride)));
  const uint32_t count = values_in(stage);
  if (pass.twiddles == TwiddleSource::table && count >= 4) {
    const uint32_t s = place(stage, 1).offset;
    bool arithmetic = place(stage, 0).offset == 0;
    for (uint32_t e = 1; e < count; ++e) arithmetic = arithmetic && place(stage, e).offset == e * s;
    if (arithmetic) return print_pass_twiddle_tree(conjugate, count, s, values);
  }
  for (uint32_t e = 0; e < count; ++e) {
    std::string m = fmt::format("m{}", e);
    body.line(fmt::format("uint {} = (q + {}) * k;", m, constant(place(stage, e).offset)));
    std::string w;
    if (pass.twiddles == TwiddleSource::table)
      w = pass_twiddle_from_table(m);
    else
      w = fmt::format("twiddle({}, {})", m, angle_per_step(uint64_t{fft.stride} * fft.size));
    body.line(fmt::format("{0} = {1}({0}, {2});", values(e), conjugate ? "twiddle_mul_inverse" : "twiddle_mul", w));
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
void PassPrinter::print_pass_twiddle_tree(bool conjugate, uint32_t count, uint32_t s, const Values& values) {
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
    body.line(fmt::format("{0} = {1}({0}, tw{2});", values(e), conjugate ? "twiddle_mul_inverse" : "twiddle_mul", e));
}

// The reads of stage `next`: value e is slot q + place(e) (q + e*step when balanced), which lies in
// round place(e) div S (S = slice size) for every q: the layout keeps each value's slots in one
// slice (PassLayout balanced, or mixed_register_split's reads_within_slices).
// `y_stage`: the first exchange of pairs of rows at once (PassLayout::pair_rows_at_once), which
// reads the slot of both rows of the pair and keeps their sum (row y) or difference (row y + NY/2).
std::vector<Read> PassPrinter::column_reads(const StageLayout& next, bool y_stage) const {
  const uint32_t slice = fft.exchange_size();
  std::vector<Read> reads;
  for (uint32_t e = 0; e < values_in(&next); ++e) {
    const Place at = place(&next, e);
    const uint32_t round = at.offset / slice, offset = at.offset - round * slice;
    const std::string slot = y_stage ? fmt::format("({} + pair_sign * {})", sh_q("pair_c", offset), sh_q("(pair_c + 1u)", offset))
                                     : sh_q("c", offset);
    reads.push_back({v(e), slot, round, at.guard});
  }
  return reads;
}

// Table twiddles of a stage are loaded before the exchange that precedes it, so that their
// latency overlaps the exchange, where they take few registers (PassLayout::stage_twiddles_early).
// Measured on an H100 (bench/results/2026-11-27-h100-twiddle-prefetch): 1D C2C
// 131072 1770 -> 1819 GB/s, 2D R2C 256² 1373 -> 1388, 2D C2C 512² 1477 -> 1486, R2C 1024
// 2979 -> 2990; prefetched at every stage, the 31 twiddles of a radix-32 stage on top of 32
// values raised an 8192-point pass from 117 to 167 registers (1D C2C 8192 2919 -> 2503).
bool PassPrinter::twiddles_early(size_t s) const {
  return pass.twiddles == TwiddleSource::table && fft.stage_twiddles_early(s);
}

// Declares butterfly i's index in stage s and its twiddle exponent; returns the exponent's name.
// `tag` prefixes the names where the stages are printed twice in one direction (print_stages).
std::string PassPrinter::twiddle_exponent(const std::string& tag, size_t s, uint32_t i) {
  const StageLayout& stage = fft.stages[s];
  const std::string jj = fmt::format("{}j{}_{}", tag, s, i), k = fmt::format("{}k{}_{}", tag, s, i);
  body.line(fmt::format("uint {} = {};", jj, i == 0 ? "q" : fmt::format("q + {}", constant(i * step()))));
  body.line(fmt::format("uint {} = {};", k, im.div(im.mod(jj, stage.stride), stage.twiddle_divisor)));
  return k;
}

std::string PassPrinter::twiddle_name(const std::string& tag, size_t s, uint32_t i, uint32_t r) {
  return fmt::format("{}w{}_{}_{}", tag, s, i, r);
}

// Twiddle r of butterfly i of stage s, from the table, or by the product tree
// (PassProgram::stage_twiddle_tree): W^(hk) from the table for the powers of two h,
// tw_r = tw_(r-h) * tw_h for the rest. Measured on an H100 for the early twiddles (bench/results/
// 2026-11-28-h100-stage-twiddle-tree): 2D C2C 512² x 4 14.0-14.4 -> 12.9-13.0 µs, 1D C2C 32768
// 1763 -> 1958 GB/s and 65536 1749 -> 2000, 2D R2C 256² 1367 -> 1341; 2D C2C 512² rel. L2
// 1.51e-7 -> 1.84e-7. On an H200 for the late ones (bench/results/2026-11-28-h200-late-twiddle-
// tree): 1D C2C 16384 3136 -> 3283 GB/s, 2^20 1619 -> 1646, 2D R2C 1024² 1652 -> 1692.
std::string PassPrinter::stage_twiddle_value(const std::string& tag, size_t s, uint32_t i, uint32_t r,
                                             const std::string& k) const {
  const uint32_t h = highest_power_of_two_in(r);
  if (!pass.stage_twiddle_tree(s) || h == r) return stage_twiddle(fft.stages[s], r, k);
  return fmt::format("cmul({}, {})", twiddle_name(tag, s, i, r - h), twiddle_name(tag, s, i, h));
}

// The twiddles of stage s, loaded ahead (twiddles_early) as named values.
void PassPrinter::print_twiddle_loads(const std::string& tag, size_t s) {
  const StageLayout& stage = fft.stages[s];
  for (uint32_t i = 0; i < fft.butterflies_per_invocation(stage); ++i) {
    const std::string k = twiddle_exponent(tag, s, i);
    for (uint32_t r = 1; r < stage.radix; ++r)
      body.line(fmt::format("vec2 {} = {};", twiddle_name(tag, s, i, r), stage_twiddle_value(tag, s, i, r, k)));
  }
}

// The butterflies of stage s: each input r > 0 times its twiddle, then the codelet.
void PassPrinter::print_butterflies(Direction direction, const std::string& tag, size_t s) {
  const StageLayout& stage = fft.stages[s];
  const uint32_t r_count = stage.radix;
  const uint32_t per_thread = fft.butterflies_per_invocation(stage);
  const std::string twiddle_mul = direction == pass.direction ? "twiddle_mul" : "twiddle_mul_inverse";
  const bool prefetched = twiddles_early(s);
  // Late twiddles by a tree: each multiplies its value as soon as it is formed. Formed first,
  // all of them, they made the 2D C2C 4096² column pass (512 invocations, at their cap of 128
  // registers) 1.4 % slower on an H200, 362 -> 367 µs; interleaved, it stays at 362.
  const bool late_tree = !prefetched && pass.stage_twiddle_tree(s);
  // Prefetched and late-tree twiddles are named values; the rest are read where they multiply.
  const bool named = prefetched || late_tree;
  for (uint32_t i = 0; i < per_thread; ++i) {
    // stage_twiddle_tree implies a twiddle stride above 1.
    if (stage.twiddle_stride() > 1) {
      const std::string k = prefetched ? "" : twiddle_exponent(tag, s, i);
      for (uint32_t r = 1; r < r_count; ++r) {
        if (late_tree)
          body.line(fmt::format("vec2 {} = {};", twiddle_name(tag, s, i, r), stage_twiddle_value(tag, s, i, r, k)));
        body.line(fmt::format("{0} = {1}({0}, {2});", v(i + r * per_thread), twiddle_mul,
                              named ? twiddle_name(tag, s, i, r) : stage_twiddle(stage, r, k)));
      }
    }
    std::string args;
    for (uint32_t r = 0; r < r_count; ++r) args += (r ? ", " : "") + v(i + r * per_thread);
    body.line(fmt::format("{}({});", codelet_name(r_count, direction), args));
  }
}

// The writes of the exchange after stage s. Stockham: butterfly jj's output r goes to
// (jj div Ns)*Ns*R + (jj mod Ns) + r*Ns. With several rounds, those R slots lie in slice
// jj div (S/R) (S = slice size), at the offset the base has within its slice.
std::vector<WriteGroup> PassPrinter::stage_writes(size_t s) const {
  const StageLayout& stage = fft.stages[s];
  const uint32_t r_count = stage.radix, per_thread = fft.butterflies_per_invocation(stage);
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
  return writes;
}

// The stages in `direction` (the pass's own, or the inverse half of a round trip, whose first
// exchange follows reads of shared memory: `after_reads`).
// `name_tag` prefixes the stages' index names where they are printed twice in one direction
// (PassLayout::pair_rows's second row); a round trip's inverse half takes "i".
void PassPrinter::print_stages(Direction direction, bool after_reads, const std::string& name_tag) {
  const bool own = direction == pass.direction;
  const std::string tag = !name_tag.empty() ? name_tag : own ? "" : "i";
  for (size_t s = 0; s < fft.stages.size(); ++s) {
    const StageLayout& stage = fft.stages[s];
    body.line(fmt::format("// stage {}: radix {}, stride {}", s, stage.radix, stage.stride));
    print_butterflies(direction, tag, s);
    if (s + 1 == fft.stages.size()) continue;
    const std::vector<WriteGroup> writes = stage_writes(s);
    if (twiddles_early(s + 1)) print_twiddle_loads(tag, s + 1);
    body.line(fmt::format("// exchange {} -> {}", s, s + 1));
    const bool y_stage = fft.pair_rows_at_once && s == 0 && own && name_tag.empty();
    print_exchange(writes, column_reads(fft.stages[s + 1], y_stage), s > 0 || after_reads);
  }
}

// A round trip (PassProgram::round_trip): the forward stages, the filter product of each value
// where it lies (frequency src_at + k of the load's view: a balanced pass ends its stages with
// value e where it began them), and the inverse stages.
void PassPrinter::print_round_trip() {
  print_stages(pass.direction, load_read_shared);
  if (pass.load.kind == LoadKind::chirp) return print_chirp_round_trip();
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

// Bluestein in one dispatch (a round trip with the chirp load, PassProgram::round_trip): after the
// forward stages, value e is frequency k = q + place(e) of the row's transform of M; it is
// multiplied by the filter spectrum S[k] where it lies, and where the stages leave values
// elsewhere than they took them (an unbalanced pass) an exchange puts them back in the first
// stage's places; then the inverse stages.
void PassPrinter::print_chirp_round_trip() {
  body.line("// the filter spectrum, where each frequency lies");
  for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
    const Place at = place(last_stage(), e);
    const std::string k = at.offset == 0 ? "q" : fmt::format("q + {}", constant(at.offset));
    body.line(guarded(at.guard, fmt::format("{0} = cmul({0}, {1});", v(e), table(pass.chirp.spectrum_offset, k))));
  }
  if (!fft.balanced()) {
    body.line("// back to the first stage's places");
    print_exchange(last_stage_writes(), column_reads(fft.stages.front()), true);
  }
  print_stages(inverse_of(pass.direction), true);
}

// Each value to its slot after the last stage (q + place(e)), for an exchange of one round:
// guarded values are written by the invocations that hold them, one group per guard.
std::vector<WriteGroup> PassPrinter::last_stage_writes() const {
  std::vector<WriteGroup> groups;
  for (uint32_t e = 0; e < values_in(last_stage()); ++e) {
    const Place at = place(last_stage(), e);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const WriteGroup& g) { return g.guard == at.guard; });
    if (it == groups.end()) it = groups.insert(groups.end(), WriteGroup{"", at.guard, 0, {}});
    it->slots_values.emplace_back(sh("c", fmt::format("(q + {})", constant(at.offset))), v(e));
  }
  return groups;
}

// An X pass that does the first Y stage (PassLayout::pair_rows): row y + NY/2 is loaded with
// row y (into w<e>) and transformed after it in the same invocations, which then hold both
// rows' values of each position: v<e> becomes row y's output (the sum), d<e> row y + NY/2's
// (the difference). The Y pass applies the twiddles between the stages.
// The second row goes through the same load prologue as the first, into w<e>: row y + NY/2, or
// with interleaved rows (PassProgram::pair_rows_interleaved, a c2r inverse) row 2y + 1.
void PassPrinter::print_row_pair() {
  const View& view = pass.load.view;
  std::string second_row = "src_base1";
  if (interleaved_load())
    body.line(fmt::format("uint src_base1 = src_base + {};  // row 2y + 1", stride(view)));
  else
    second_row = fmt::format("src_base + {}", im.mul(stride(view), fft.pair_rows));
  print_load(*this, Values{"w"}, second_row);
  print_stages(pass.direction, load_read_shared);
  body.line("// row y's values wait; row y + NY/2's take their place");
  for (uint32_t e = 0; e < fft.elems_per_thread; ++e) body.line(fmt::format("vec2 a{0} = {1}; {1} = w{0};", e, v(e)));
  print_stages(pass.direction, true, "y");
  body.line("// the first Y stage, radix 2: row y keeps the sum, row y + NY/2 the difference");
  for (uint32_t e = 0; e < fft.elems_per_thread; ++e)
    body.line(fmt::format("vec2 d{0} = a{0} - {1}; {1} = a{0} + {1};", e, v(e)));
}

}  // namespace fftgen::glsl
