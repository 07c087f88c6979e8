// generator/emit: the load prologue of a pass, one function per LoadKind (load_printer picks it).
#include <algorithm>
#include <stdexcept>

#include "pass_printer.hpp"

namespace fftgen::glsl {
namespace {

// Where a load puts its values, and the element of the load view its transform starts at.
struct LoadSite {
  Values values;
  std::string base;
  // Element `k` of the transform.
  std::string element(uint32_t k) const { return base + " + " + PassPrinter::constant(k); }
};

// The c2r merge by halves (PassPrinter::by_halves), where half_separation would separate the
// forward's.
bool half_merge(const PassPrinter& p) { return p.pass.load.kind == LoadKind::c2r && p.by_halves(p.pass.load.view); }

void load_plain(PassPrinter& p, const LoadSite& site) {
  const View& view = p.pass.load.view;
  const uint32_t zeros_from = p.pass.load.zeros_from;
  // Known zeros (LoadPrologue::zeros_from) stay zero: element src_at + k of the transform.
  if (zeros_from != 0) p.body.line(fmt::format("uint src_at = {} - b * {};", site.base, p.stride(view)));
  for (uint32_t e = 0; e < p.values_in(p.first_stage()); ++e) {
    const Place at = p.place(p.first_stage(), e);
    const uint32_t k = at.offset * view.element_stride;
    const std::string nonzero = zeros_from == 0 ? "" : fmt::format("src_at + {} < {}u", p.constant(k), zeros_from);
    p.body.line(PassPrinter::guarded(PassPrinter::both(at.guard, nonzero),
                                     fmt::format("{} = {};", site.values(e), p.load_value(view, site.element(k)))));
  }
}

// The c2r merge by halves: invocation q loads X[k] and X[M - k] for its values e < E/2 (k = q +
// e*step) and forms both Z[k], its value e, and Z[M - k], value E-1-e of invocation step - q,
// which it sends through shared memory (half the loads of merging each value alone, and half an
// exchange: print_half_merge_exchange). Invocation 0 forms its value E/2, Z[M/2], from X[M/2]
// alone; its values E-e (e > 0) are its own mirrors. Measured on an H200 against merging each
// value alone (bench/results/2026-11-28-h200-r2c-half-exchange): c2r 1024 4030 -> 4083 GB/s, 16384
// 2377 -> 2876 (160 -> 122 registers), 2D c2r 2048² 1413 -> 1432; 2D c2r 4096² 1357 -> 1353 and
// the r2c-packed 4096² bloom 3.032 -> 3.047 ms lose a little.
void load_c2r_by_halves(PassPrinter& p, const LoadSite& site) {
  const View& view = p.pass.load.view;
  const uint32_t half = p.fft.elems_per_thread / 2, t = p.step(), m = p.fft.length;
  p.body.line("uint kq = q;");
  p.body.line(fmt::format("uint src_row = {} - kq;", site.base));
  p.print_real_twiddle_base();
  for (uint32_t e = 0; e < half; ++e) {
    p.body.line(fmt::format("vec2 xk{} = {};", e, p.load_value(view, site.element(e * t))));
    p.body.line(fmt::format("vec2 xm{} = {};", e, p.load_value(view, fmt::format("src_row + ({} - kq)", p.constant(m - e * t)))));
    p.body.line(fmt::format("vec2 wk{} = {};", e, p.real_twiddle(e * t)));
    p.body.line(fmt::format("{0} = c2r_merge(xk{1}, xm{1}, wk{1});", site.values(e), e));
    p.body.line(fmt::format("{0} = c2r_merge(xm{1}, xk{1}, vec2(-wk{1}.x, wk{1}.y));", site.values.mirror(e), e));
  }
  p.body.open("if (kq == 0u)");  // Z[M/2]: value E/2 of invocation 0, its own mirror
  p.body.line(fmt::format("vec2 x = {};", p.load_value(view, site.element(m / 2))));
  p.body.line(fmt::format("{} = c2r_merge(x, x, {});", site.values.mid(), p.real_twiddle(m / 2)));
  p.body.close();
}

// Value e is Z[k], k = kq + place(e)*K (e*step*K when balanced), from X[k] and X[H-k] of the half
// spectrum.
void load_c2r(PassPrinter& p, const LoadSite& site) {
  if (half_merge(p)) return load_c2r_by_halves(p, site);
  const View& view = p.pass.load.view;
  const uint32_t h = p.fft.length, stride = view.element_stride;
  p.body.line(fmt::format("uint kq = {};", p.frequency_base(stride)));
  p.body.line(fmt::format("uint src_row = {} - kq;", site.base));
  p.print_real_twiddle_base();
  for (uint32_t e = 0; e < p.values_in(p.first_stage()); ++e) {
    const Place at = p.place(p.first_stage(), e);
    const uint32_t k = at.offset * stride;
    p.body.line(PassPrinter::guarded(
        at.guard, fmt::format("{} = c2r_merge({}, {}, {});", site.values(e), p.load_value(view, site.element(k)),
                              p.load_value(view, fmt::format("src_row + ({} - kq)", p.constant(h - k))), p.real_twiddle(k))));
  }
}

// Value e is x[n] * w_n for n < N, zero padding up to M: n = q + place(e) in row mode, n = n0 +
// place(e)*K, n0 = j + q*K in column mode (the first pass of a multi-pass M).
void load_chirp(PassPrinter& p, const LoadSite& site) {
  const View& view = p.pass.load.view;
  const uint32_t n_count = p.pass.chirp.n;
  if (p.fft.row_mode()) {
    for (uint32_t e = 0; e < p.values_in(p.first_stage()); ++e) {
      const Place at = p.place(p.first_stage(), e);
      const std::string kept = fmt::format("q < {}", p.constant(n_count - std::min(at.offset, n_count)));
      p.body.line(PassPrinter::guarded(PassPrinter::both(at.guard, kept),
                                       fmt::format("{} = cmul({}, {});", site.values(e),
                                                   p.load_value(view, site.element(at.offset)), p.chirp(at.offset))));
    }
    return;
  }
  const uint32_t stride = view.element_stride, position_step = stride / p.fft.interleave;
  p.body.line(fmt::format("uint n0 = {};", p.axis_position(stride)));
  for (uint32_t e = 0; e < p.values_in(p.first_stage()); ++e) {
    const uint32_t offset = p.place(p.first_stage(), e).offset * stride;
    const uint32_t n = p.place(p.first_stage(), e).offset * position_step;
    p.body.line(fmt::format("if (n0 < {}) {} = cmul({}, {});", p.constant(n_count - std::min(n, n_count)), site.values(e),
                            p.load_value(view, site.element(offset)), p.chirp(n, "n0")));
  }
}

void load_image(PassPrinter& p, const LoadSite& site) {
  for (uint32_t e = 0; e < p.values_in(p.first_stage()); ++e) {
    const Place at = p.place(p.first_stage(), e);
    p.body.line(PassPrinter::guarded(at.guard, fmt::format("{} = load_image({});", site.values(e),
                                                           site.element(at.offset * p.pass.load.view.element_stride))));
  }
}

// Value e is Z[k] = X[k] + i Y[k], k = q + e*step; X and Y above N/2 mirror those below.
void load_pair_merge(PassPrinter& p, const LoadSite& site) {
  const View& view = p.pass.load.view;
  const uint32_t n = p.fft.size, half = n / 2 + 1;
  p.body.line(fmt::format("uint src_row = {} - q;", site.base));
  for (uint32_t e = 0; e < p.fft.elems_per_thread; ++e) {
    const std::string k = fmt::format("k{}", e);
    p.body.line(fmt::format("uint {} = q + {};", k, p.constant(e * p.step())));
    p.body.line(fmt::format("uint m{0} = {1} > {2} ? {3} - {1} : {1};", e, k, p.constant(n / 2), p.constant(n)));
    p.body.line(fmt::format("{} = pair_merge({}, {}, {} > {});", site.values(e), p.load_value(view, fmt::format("src_row + m{}", e)),
                            p.load_value(view, fmt::format("src_row + {} + m{}", p.constant(half), e)), k, p.constant(n / 2)));
  }
}

// The printer of a load kind, and the GLSL helpers its text calls.
KindPrinter<LoadSite> load_printer(LoadKind kind) {
  switch (kind) {
    case LoadKind::plain: return {load_plain, nullptr};
    case LoadKind::c2r: return {load_c2r, "load_c2r.glsl"};
    case LoadKind::pair_merge: return {load_pair_merge, "load_pair_merge.glsl"};
    case LoadKind::chirp: return {load_chirp, nullptr};
    case LoadKind::image: return {load_image, nullptr};
  }
  throw std::logic_error("load_printer: a load kind without a printer");
}

// Mirror e goes to the invocation that holds Z[M - k] as its value E-1-e (print_half_exchange);
// invocation 0 keeps Z[M/2] and its own mirrors.
void print_half_merge_exchange(PassPrinter& p, const Values& values) {
  const uint32_t half = p.fft.elems_per_thread / 2;
  p.body.line("// values E/2.. come from the invocation that formed them as its mirrors Z[M - k]");
  auto received = [&](uint32_t h) { return values(half + h); };
  for (uint32_t h : p.print_half_exchange([&](uint32_t e) { return values.mirror(e); }, received, p.load_read_shared))
    p.body.line(fmt::format("{0} = q == 0u ? {1} : {0};", received(h), h == 0 ? values.mid() : values.mirror(half - h)));
  p.load_read_shared = true;
}

}  // namespace

const char* load_snippet(LoadKind kind) { return load_printer(kind).snippet; }

void print_load(PassPrinter& p, const Values& values, const std::string& base) {
  const uint32_t e_count = p.fft.elems_per_thread;
  for (uint32_t e = 0; e < e_count; ++e) p.body.line(fmt::format("vec2 {} = vec2(0.0);", values(e)));
  if (half_merge(p)) {
    for (uint32_t e = 0; e < e_count / 2; ++e) p.body.line(fmt::format("vec2 {} = vec2(0.0);", values.mirror(e)));
    p.body.line(fmt::format("vec2 {} = vec2(0.0);", values.mid()));
  }
  // Rows through shared memory: each invocation's loads read its row's slots.
  if (p.pass.rows_through_shared) {
    p.print_rows_copy(p.pass.load.view, p.row_width(true), true);
    p.barrier();
    p.body.line(fmt::format("{} = {};", base, p.im.mul("c", p.fft.shared.slice)));
    p.rows_in_shared = true;
  }
  p.body.open("if (in_range)");
  load_printer(p.pass.load.kind).print(p, LoadSite{values, base});
  p.body.close();
  p.rows_in_shared = false;
  if (half_merge(p)) print_half_merge_exchange(p, values);
  if (p.pass.load.pass_twiddle) p.print_pass_twiddles(false, nullptr, values);
}

}  // namespace fftgen::glsl
