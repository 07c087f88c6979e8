// generator/emit: the store epilogue of a pass, one function per StoreKind (store_printer picks
// it), and the exchanges that bring the r2c separation's partners together.
#include <algorithm>
#include <stdexcept>

#include "fftgen/emit_codelet.hpp"
#include "pass_printer.hpp"

namespace fftgen::glsl {
namespace {

// What a store prints for one batch entry.
struct StoreSite {
  std::string entry;  ///< the batch entry its view counts from (PassPrinter::view_base)
  bool after_reads;   ///< shared memory was read since the last barrier whatever the stages did (a pair's second row)
  std::string scaled;  ///< " * <scale>", or "" for a scale of 1
};

// The r2c separation by halves: where every invocation holds E values (E even) of a row stored
// as it is, invocation q separates the pairs (k, M - k) of its values e < E/2 (k = q + e*step),
// storing X[k] and X[M - k]. Z[M - k] is value E-1-e of invocation step - q, so only the values
// E/2.. cross shared memory: half the exchange, and half the values live beside the partners.
// Invocation 0 pairs with itself (its value E-e, e > 0; value E/2 alone, X[M/2]; value 0 gives
// X[0] and X[M]), as does step/2 (value E-1-e). PassPrinter::by_halves says where it pays.
// The c2r merge by halves is its mirror image (load_c2r_by_halves).
bool half_separation(const PassPrinter& p) {
  return p.pass.store.kind == StoreKind::r2c && p.by_halves(p.pass.store.view);
}

// The pair of column c in mirrored tiles (PassLayout::mirror_tiles): columns 0 and S/2 pair with
// themselves, the others with the column C/2 places away.
void print_mirror_column(PassPrinter& p) {
  const uint32_t half = p.fft.columns_per_workgroup / 2;
  p.body.line(fmt::format("bool self_pair = tile == 0u && {} == 0u;  // columns 0 and S/2", p.im.mod("c", half)));
  p.body.line(fmt::format("uint pc = self_pair ? c : (c ^ {});", p.constant(half)));
}

// The r2c and r2c_pair separations pair Z[k] with Z[H-k]: after an exchange, p<e> holds Z[H-k].
// A pass whose invocations hold different numbers of values (one round): value e is element
// i = q + place(e) of the column. Row mode: k = i, and its partner Z[M - k] is read from slot M - k
// (slot 0 for k = 0). Mirrored column tiles: k = j + i*S, and Z[H-k] is element M-1-i of the
// mirror column S - j (of column S/2 itself), element M - i of column 0 (0 for i = 0).
void print_unbalanced_partner_exchange(PassPrinter& p, bool after_reads) {
  const bool tiles = p.fft.mirror_tiles();
  const uint32_t m = p.fft.size;
  p.body.line(fmt::format("// exchange: each value meets its mirror Z[{} - k]", tiles ? "H" : "M"));
  if (tiles) {
    print_mirror_column(p);
    p.body.line(fmt::format("uint pm = j == 0u ? {} : {};  // the mirror of element i is element pm - i",
                            p.constant(m), p.constant(m - 1)));
  }
  std::vector<Read> reads;
  for (uint32_t e = 0; e < p.values_in(p.last_stage()); ++e) {
    const Place at = p.place(p.last_stage(), e);
    p.body.line(fmt::format("vec2 p{};", e));
    std::string mirror;
    if (tiles)
      mirror = at.offset == 0 ? "(j + q == 0u ? 0u : pm - q)" : fmt::format("(pm - q - {})", p.constant(at.offset));
    else
      mirror = at.offset == 0 ? fmt::format("(q == 0u ? 0u : {} - q)", p.constant(m))
                              : fmt::format("({} - q)", p.constant(m - at.offset));
    reads.push_back({fmt::format("p{}", e), p.sh(tiles ? "pc" : "c", mirror), 0, at.guard});
  }
  p.print_exchange(p.last_stage_writes(), reads, (tiles && after_reads) || p.fft.stages.size() > 1);
  p.body.line(fmt::format("uint kq = {};", p.frequency_base(p.pass.store.view.element_stride)));
}

// The exchange of the separation by halves: values E/2.. go to the invocation whose values
// 0..E/2-1 they mirror (print_half_exchange), into p<e>: value E-1-e of invocation step - q.
void print_half_partner_exchange(PassPrinter& p, bool after_reads) {
  const uint32_t e_count = p.fft.elems_per_thread, half = e_count / 2;
  p.body.line("// exchange: values E/2.. go to the invocation that holds their mirrors Z[M - k]");
  for (uint32_t e = 0; e < half; ++e) p.body.line(fmt::format("vec2 p{};", e));
  const std::vector<uint32_t> kept = p.print_half_exchange([&](uint32_t h) { return p.v(half + h); },
                                                           [&](uint32_t e) { return fmt::format("p{}", e); },
                                                           after_reads || p.fft.stages.size() > 1);
  p.body.line("uint kq = q;");
  for (uint32_t e : kept) p.body.line(fmt::format("p{0} = kq == 0u ? {1} : p{0};", e, p.v((e_count - e) % e_count)));
}

// Row mode (k = q + e*step): invocation 0 holds both ends itself (H - e*step = (E-e)*step); every
// other reads slot (step - q) + (E-1-e)*step, in the round of value E-1-e. Mirrored column tiles
// (k = j + (q + e*step)*S): the mirror column S - j holds Z[H-k] at element M-1-i, i.e. slot
// (step-1-q) + (E-1-e)*step of the other half of the tile; columns 0 and S/2 pair with
// themselves, column 0 as row mode does.
void print_partner_exchange(PassPrinter& p, bool after_reads) {
  if (half_separation(p)) return print_half_partner_exchange(p, after_reads);
  if (!p.fft.balanced()) return print_unbalanced_partner_exchange(p, after_reads);
  const PassLayout& fft = p.fft;
  const uint32_t e_count = fft.elems_per_thread, t = p.step();
  const uint32_t per_round = e_count / fft.exchange_rounds();
  if (t == 1 && fft.row_mode()) {  // one invocation holds the whole transform
    for (uint32_t e = 0; e < e_count; ++e) p.body.line(fmt::format("vec2 p{} = {};", e, p.v((e_count - e) % e_count)));
    p.body.line("uint kq = q;");
    return;
  }
  p.body.line("// exchange: each value meets its mirror Z[M - k]");
  std::vector<WriteGroup> writes(fft.exchange_rounds());
  std::vector<Read> reads;
  const std::string column = fft.mirror_tiles() ? "pc" : "c";
  const std::string position = fft.mirror_tiles() ? "pq" : p.im.mod(fmt::format("({} - q)", p.constant(t)), t);
  for (uint32_t e = 0; e < e_count; ++e) {
    p.body.line(fmt::format("vec2 p{};", e));
    const uint32_t k = e / per_round, e_in_round = e % per_round, mirror = e_count - 1 - e;
    writes[k].at = k;
    writes[k].slots_values.emplace_back(p.sh("c", fmt::format("(q + {})", p.constant(e_in_round * t))), p.v(e));
    reads.push_back({fmt::format("p{}", e), p.sh(column, fmt::format("({} + {})", position, p.constant(mirror % per_round * t))),
                     mirror / per_round, ""});
  }
  if (fft.mirror_tiles()) {
    print_mirror_column(p);
    p.body.line(fmt::format("uint pq = j == 0u ? {} : {} - q;", p.im.mod(fmt::format("({} - q)", p.constant(t)), t),
                            p.constant(t - 1)));
  }
  p.print_exchange(writes, reads, after_reads || fft.stages.size() > 1);
  p.body.line(fmt::format("uint kq = {};", p.frequency_base(p.pass.store.view.element_stride)));
  for (uint32_t e = 0; e < e_count; ++e)
    p.body.line(fmt::format("p{0} = kq == 0u ? {1} : p{0};", e, p.v((e_count - e) % e_count)));
}

// dst_base (the row's first slot where the rows go through shared memory), and for the reals of an
// odd-length full-length r2c kernel the padding real after them, written as zero by the invocation
// that holds value 0.
void print_destination_base(PassPrinter& p, const View& view, const std::string& entry) {
  if (p.rows_in_shared) return p.body.line(fmt::format("uint dst_base = {};", p.im.mul("c", p.fft.shared.slice)));
  p.body.line(fmt::format("uint dst_base = {};", p.view_base(view, entry)));
  if (view.real_side == View::RealSide::reals && view.real_n % 2 != 0)
    p.body.line(fmt::format("if (dst_base == dst_first) {}[dst_first + dst_first + {}] = 0.0;", p.view_name(view),
                            p.constant(view.real_n)));
}

// The r2c and r2c_pair stores: each value meets its partner Z[H-k] (print_partner_exchange), then
// the kind's `separate` prints the stores from dst_base.
void store_partners(PassPrinter& p, const StoreSite& site, const std::function<void()>& separate) {
  print_partner_exchange(p, site.after_reads);
  p.body.open("if (in_range)");
  print_destination_base(p, p.pass.store.view, site.entry);
  separate();
  p.body.close();
}

// X[k] and X[M - k] for k = q + e*step, e < E/2: W_N^(M-k) = -conj W_N^k (N = 2M).
void separate_r2c_by_halves(PassPrinter& p, const StoreSite& site) {
  const View& view = p.pass.store.view;
  const uint32_t m = p.fft.length, t = p.step(), e_count = p.fft.elems_per_thread;
  p.body.line(fmt::format("uint dst_mirror = dst_base + {} - {};", p.constant(m), p.im.mul("q", 2)));
  p.print_real_twiddle_base();
  for (uint32_t e = 0; e < e_count / 2; ++e) {
    p.body.line(fmt::format("vec2 wk{} = {};", e, p.real_twiddle(e * t)));
    p.body.line(p.store_value(view, "dst_base + " + p.constant(e * t),
                              fmt::format("r2c_split({0}, p{1}, wk{1}){2}", p.v(e), e, site.scaled)));
    p.body.line(p.store_value(view, e == 0 ? "dst_mirror" : "dst_mirror - " + p.constant(e * t),
                              fmt::format("r2c_split(p{0}, {1}, vec2(-wk{0}.x, wk{0}.y)){2}", e, p.v(e), site.scaled)));
  }
  p.body.open("if (kq == 0u)");  // X[M/2]: value E/2 of invocation 0, its own mirror
  p.body.line(p.store_value(view, "dst_base + " + p.constant(m / 2),
                            fmt::format("r2c_split({0}, {0}, {1}){2}", p.v(e_count / 2), p.real_twiddle(m / 2), site.scaled)));
  p.body.close();
}

// X[k] for k = kq + place(e)*S (e*step*S when balanced); X[H] from Z[0] by the invocation that
// holds it.
void separate_r2c(PassPrinter& p, const StoreSite& site) {
  const View& view = p.pass.store.view;
  const uint32_t stride = view.element_stride;
  p.print_real_twiddle_base();
  for (uint32_t e = 0; e < p.values_in(p.last_stage()); ++e) {
    const Place at = p.place(p.last_stage(), e);
    p.body.line(PassPrinter::guarded(
        at.guard, p.store_value(view, "dst_base + " + p.constant(p.step(view, at.offset * stride)),
                                fmt::format("r2c_split({}, p{}, {}){}", p.v(e), e, p.real_twiddle(at.offset * stride), site.scaled))));
  }
  p.body.open("if (kq == 0u)");
  p.body.line(p.store_value(view, "dst_base + " + p.constant(p.step(view, p.fft.length)),
                            fmt::format("r2c_nyquist({}){}", p.v(0), site.scaled)));
  p.body.close();
}

void store_r2c(PassPrinter& p, const StoreSite& site) {
  store_partners(p, site, [&] { half_separation(p) ? separate_r2c_by_halves(p, site) : separate_r2c(p, site); });
}

// X[k] and Y[k] for k = q + e*step <= N/2: values below E/2, and E/2 at invocation 0.
void store_pair_split(PassPrinter& p, const StoreSite& site) {
  store_partners(p, site, [&] {
    const View& view = p.pass.store.view;
    const uint32_t half = p.fft.size / 2 + 1, e_count = p.fft.elems_per_thread;
    for (uint32_t e = 0; e <= e_count / 2; ++e) {
      if (e == e_count / 2) p.body.open("if (q == 0u)");
      p.body.line(p.store_value(view, "dst_base + " + p.constant(e * p.step()),
                                fmt::format("pair_split_x({}, p{}){}", p.v(e), e, site.scaled)));
      p.body.line(p.store_value(view, "dst_base + " + p.constant(half + e * p.step()),
                                fmt::format("pair_split_y({}, p{}){}", p.v(e), e, site.scaled)));
      if (e == e_count / 2) p.body.close();
    }
  });
}

// Bluestein's last stores: value e is frequency k = q + place(e) of the transform of M in row
// mode, k = k0 + place(e)*S, k0 = j + q*S, in column mode (the last pass of a multi-pass M); times
// the chirp filter's spectrum S[k] (chirp_filter), or times w_k for k < N only (chirp_crop).
void store_chirp(PassPrinter& p, const StoreSite& site, bool crop) {
  const PassLayout& fft = p.fft;
  const View& view = p.pass.store.view;
  const auto& chirp = p.pass.chirp;
  const uint32_t stride = fft.row_mode() ? 1 : view.element_stride;
  const uint32_t position_step = fft.row_mode() ? 1 : stride / fft.interleave;
  const std::string k = fft.row_mode() ? "q" : "k0";
  p.body.open("if (in_range)");
  print_destination_base(p, view, site.entry);
  if (!fft.row_mode()) p.body.line(fmt::format("uint k0 = {};", p.axis_position(stride)));
  for (uint32_t e = 0; e < p.values_in(p.last_stage()); ++e) {
    const Place at = p.place(p.last_stage(), e);
    const uint32_t offset = at.offset * stride;
    const uint32_t position = at.offset * position_step;
    const std::string spectrum = p.table(chirp.spectrum_offset + position, k);
    const std::string factor = crop                     ? p.chirp(position, k)
                               : chirp.conjugate_spectrum ? fmt::format("conj_chirp({})", spectrum)
                                                          : spectrum;
    const std::string write =
        p.store_value(view, "dst_base + " + p.constant(offset), fmt::format("cmul({}, {}){}", p.v(e), factor, site.scaled));
    if (!crop) p.body.line(PassPrinter::guarded(at.guard, write));
    else if (position < chirp.n)
      p.body.line(PassPrinter::guarded(at.guard, fmt::format("if ({} < {}) {}", k, p.constant(chirp.n - position), write)));
  }
  p.body.close();
}
void store_chirp_filter(PassPrinter& p, const StoreSite& site) { store_chirp(p, site, false); }
void store_chirp_crop(PassPrinter& p, const StoreSite& site) { store_chirp(p, site, true); }

void store_image(PassPrinter& p, const StoreSite& site) {
  const View& view = p.pass.store.view;
  p.body.open("if (in_range)");
  p.body.line(fmt::format("uint dst_base = {};", p.view_base(view, site.entry)));
  for (uint32_t e = 0; e < p.values_in(p.last_stage()); ++e) {
    const Place at = p.place(p.last_stage(), e);
    p.body.line(PassPrinter::guarded(at.guard, fmt::format("store_image(dst_base + {}, {}{});",
                                                           p.constant(at.offset * view.element_stride), p.v(e), site.scaled)));
  }
  p.body.close();
}

void store_plain(PassPrinter& p, const StoreSite& site) {
  const StoreEpilogue& store = p.pass.store;
  const View& view = store.view;
  p.body.open("if (in_range)");
  print_destination_base(p, view, site.entry);
  // A convolution's product (a round trip has applied it): element k of this transform's filter plane.
  const bool product = store.filter_planes > 0 && !p.pass.round_trip;
  if (product)
    p.body.line(fmt::format("uint filter_base = dst_base - b * {} + {};", p.stride(view),
                            p.im.mul(p.im.mod("b", store.filter_planes), static_cast<uint32_t>(store.filter_plane))));
  // Elements from StoreEpilogue::stored_below on are not stored: element dst_at + k of the transform.
  if (store.stored_below != 0) p.body.line(fmt::format("uint dst_at = dst_base - b * {};", p.stride(view)));
  for (uint32_t e = 0; e < p.values_in(p.last_stage()); ++e) {
    const Place at = p.place(p.last_stage(), e);
    const uint32_t k = at.offset * view.element_stride;
    const std::string offset = p.constant(k);
    const std::string value = product ? fmt::format("cmul({}, {})", p.v(e), p.filter_value("filter_base + " + offset)) : p.v(e);
    const std::string kept = store.stored_below == 0 ? "" : fmt::format("dst_at + {} < {}u", offset, store.stored_below);
    p.body.line(PassPrinter::guarded(PassPrinter::both(at.guard, kept),
                                     p.store_value(view, "dst_base + " + p.constant(p.step(view, k)), value + site.scaled)));
  }
  p.body.close();
}

// Value e of invocation q is frequency p = q + e*step in the order kx*NY + ky; element o of the
// row-major output (ky*NX + kx) is read from slot (o mod NX)*NY + o div NX, then stored as a
// plain store stores.
void store_grid(PassPrinter& p, const StoreSite& site) {
  const uint32_t ny = p.fft.grid_ny, nx = p.fft.size / ny;
  p.body.line("// store through shared memory: column-major frequencies become row-major");
  WriteGroup writes;
  std::vector<Read> reads;
  for (uint32_t e = 0; e < p.fft.elems_per_thread; ++e) {
    const std::string o = fmt::format("(q + {})", p.constant(e * p.step()));
    writes.slots_values.emplace_back(p.sh("c", o), p.v(e));
    reads.push_back({p.v(e), p.sh("c", fmt::format("({} + {})", p.im.mul(p.im.mod(o, nx), ny), p.im.div(o, nx))), 0, ""});
  }
  p.print_exchange({writes}, reads, p.fft.stages.size() > 1);
  store_plain(p, site);
}

// y[j*M + r]: a transpose, staged in shared memory so that both sides are coalesced. The values
// come back into v0.. in row order: value e of invocation t is row element t + e*W.
// With several rounds, round k moves slots [k*S, (k+1)*S) of every column (S = slice size): the
// values e of round k (e div (E/rounds) = k) go in, and come out as C runs of S contiguous output
// elements; value e = k*(E/rounds) + e' is element l = t + e'*W of them.
void store_transposed(PassPrinter& p, const StoreSite& site) {
  const PassLayout& fft = p.fft;
  const View& view = p.pass.store.view;
  p.body.line("// store through shared memory: the workgroup's columns become contiguous rows");
  const uint32_t slice = fft.exchange_size(), e_count = fft.elems_per_thread;
  const uint32_t per_round = e_count / fft.exchange_rounds();
  std::vector<WriteGroup> writes(fft.exchange_rounds());
  std::vector<Read> reads;
  std::vector<std::string> out_index;
  for (uint32_t e = 0; e < e_count; ++e) {
    const uint32_t k = e / per_round, e_in_round = e % per_round;
    writes[k].at = k;
    writes[k].slots_values.emplace_back(p.sh_q("c", e_in_round * p.step()), p.v(e));
    std::string l = e_in_round == 0 ? "t" : fmt::format("(t + {})", p.constant(e_in_round * fft.workgroup_size));
    reads.push_back({p.v(e), p.sh(p.im.div(l, slice), p.im.mod(l, slice)), k, ""});
    out_index.push_back(fft.exchange_rounds() == 1
                            ? (e == 0 ? "t" : fmt::format("t + {}", p.constant(e * fft.workgroup_size)))
                            : fmt::format("{} + {} + {}", p.im.mul(p.im.div(l, slice), fft.size), p.im.mod(l, slice),
                                          p.constant(k * slice)));
  }
  p.print_exchange(writes, reads, fft.stages.size() > 1);
  const uint32_t cpt = fft.columns_per_transform;
  p.body.line(fmt::format("uint g0 = {};", p.im.mul("group", fft.columns_per_workgroup)));
  p.body.line(fmt::format("uint b0 = {};", p.im.div("g0", cpt)));
  p.body.open(fmt::format("if (b0 < {})", p.batch()));
  p.body.line(fmt::format("uint dst_base = b0 * {} + {}{};", p.stride(view),
                          view.base != 0 ? p.constant(static_cast<uint32_t>(view.base)) + " + " : "",
                          p.im.mul(p.im.mod("g0", cpt), fft.size)));
  for (uint32_t e = 0; e < e_count; ++e) p.body.line(p.store_value(view, "dst_base + " + out_index[e], p.v(e) + site.scaled));
  p.body.close();
}

// The printer of a store kind, and the GLSL helpers its text calls.
KindPrinter<StoreSite> store_printer(StoreKind kind) {
  switch (kind) {
    case StoreKind::plain: return {store_plain, nullptr};
    case StoreKind::transposed: return {store_transposed, nullptr};
    case StoreKind::r2c: return {store_r2c, "store_r2c.glsl"};
    case StoreKind::pair_split: return {store_pair_split, "store_pair_split.glsl"};
    case StoreKind::grid: return {store_grid, nullptr};
    case StoreKind::chirp_filter: return {store_chirp_filter, nullptr};
    case StoreKind::chirp_crop: return {store_chirp_crop, nullptr};
    case StoreKind::image: return {store_image, nullptr};
  }
  throw std::logic_error("store_printer: a store kind without a printer");
}

}  // namespace

const char* store_snippet(StoreKind kind) { return store_printer(kind).snippet; }

// An X pass that does the first Y stage (PassLayout::pair_rows) stores row y, then row y + NY/2.
// Interleaved rows (PassProgram::pair_rows_interleaved, r2c forward) store rows 2y and 2y + 1,
// each r2c separation in a scope of its own (its exchange declares its partners).
void print_store(PassPrinter& p) {
  const StoreEpilogue& store = p.pass.store;
  const auto print = store_printer(store.kind).print;
  const std::string scaled = store.scale == 1.0 ? "" : " * " + p.literal(store.scale);
  if (store.pass_twiddle) p.print_pass_twiddles(false, p.last_stage());
  // Rows through shared memory: each invocation stores its row into its slots (once every
  // invocation has loaded its own), then the workgroup copies them out.
  if (p.pass.rows_through_shared) {
    p.barrier();
    p.rows_in_shared = true;
    print(p, StoreSite{p.entry(), false, scaled});
    p.rows_in_shared = false;
    p.barrier();
    return p.print_rows_copy(store.view, p.row_width(false), false);
  }
  if (!p.fft.pair_rows_in_turn()) return print(p, StoreSite{p.entry(), false, scaled});
  const std::string entry = p.interleaved_store() ? "b_y" : p.entry();
  const bool separate = store.kind == StoreKind::r2c;
  for (bool second : {false, true}) {
    if (second) {
      p.body.line(p.interleaved_store() ? "b_y += 1u;" : fmt::format("b += {};", p.constant(p.fft.pair_rows)));
      for (uint32_t e = 0; e < p.fft.elems_per_thread; ++e) p.body.line(fmt::format("{} = d{};", p.v(e), e));
    }
    if (separate) p.body.open("");
    print(p, StoreSite{entry, second, scaled});
    if (separate) p.body.close();
  }
}

}  // namespace fftgen::glsl
