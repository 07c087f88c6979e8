// A CPU model of the pass IR: executes a KernelProgram's passes the way the shaders do (views,
// prologues, stages with the codelet DAGs and the kernel's twiddle table, epilogues), one column
// at a time, in double. Tests compare it with an independent reference FFT, so the views and the
// twiddle placement are checked without a GPU; the printer is checked against the same IR on
// lavapipe (test_gpu_suite).
#pragma once
#include <complex>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "fftgen/codelet.hpp"
#include "fftgen/program.hpp"

namespace fftgen_test {

using cd = std::complex<double>;

// Buffers by role, in vec2 units (reals as consecutive pairs); transforms contiguous.
struct CpuBuffers {
  std::map<fftgen::BufferRole, std::vector<cd>> data;
};

inline cd twiddle_entry(const std::vector<float>& table, uint64_t i) { return {table[2 * i], table[2 * i + 1]}; }

// exp(-2*pi*i*m/l), for computed twiddles.
// The codelet of a radix and direction, built once per test process: a pass asks for it at every
// stage of every column, and building the DAG costs more than evaluating it.
inline const fftgen::codelet::Dag& cached_dft(uint32_t radix, fftgen::Direction direction) {
  static std::map<std::pair<uint32_t, fftgen::Direction>, fftgen::codelet::Dag> dags;
  const auto key = std::make_pair(radix, direction);
  auto it = dags.find(key);
  if (it == dags.end()) it = dags.emplace(key, fftgen::codelet::make_dft(radix, direction)).first;
  return it->second;
}

inline cd exact_twiddle(uint64_t m, uint64_t l) { return std::polar(1.0, -2.0 * M_PI * double(m % l) / double(l)); }

inline void run_pass(const fftgen::PassProgram& pass, const std::vector<float>& table, CpuBuffers& buffers,
                     uint32_t batch) {
  using namespace fftgen;
  const PassLayout& fft = pass.fft;
  const bool forward = pass.direction == Direction::forward;
  const bool from_table = pass.twiddles == TwiddleSource::table;
  auto conj_if = [&](cd w) { return forward ? w : std::conj(w); };
  const View& in = pass.load.view;
  const View& out = pass.store.view;
  const std::vector<cd> src = buffers.data.at(in.binding.role);  // a copy: passes may work in place
  std::vector<cd>& dst = buffers.data[out.binding.role];
  const uint64_t entries = uint64_t{batch} * pass.batch_scale;
  dst.resize(std::max<size_t>(dst.size(), entries * out.binding.stride));
  const uint32_t m = fft.size, cpt = fft.columns_per_transform, ns = fft.stride;
  // W_N^k of the real separation (N = 2M).
  auto real_twiddle = [&](uint64_t k) {
    return conj_if(from_table ? twiddle_entry(table, pass.real_twiddle_offset + k)
                              : exact_twiddle(k, 2 * uint64_t{fft.length}));
  };
  // Bluestein's chirp w_n, conjugated in the inverse kernel.
  auto chirp = [&](uint64_t i) {
    const cd w = twiddle_entry(table, pass.chirp.chirp_offset + i);
    return pass.chirp.conjugate ? std::conj(w) : w;
  };
  // Value p of transform b through a view (View::base, View::RealSide): a full-length r2c kernel
  // keeps reals one by one (real 2*b*stride + p of a buffer of pairs) and the half spectrum, whose
  // values above N/2 are the conjugates of those below.
  using Side = View::RealSide;
  auto load = [&](uint64_t b, uint64_t p) -> cd {
    const uint64_t row = b * in.binding.stride;
    switch (in.real_side) {
      case Side::reals: {
        const cd pair = src.at(row + p / 2);
        return p % 2 ? pair.imag() : pair.real();
      }
      case Side::half_spectrum:
        return p <= in.real_n / 2 ? src.at(row + p) : std::conj(src.at(row + in.real_n - p));
      case Side::none: break;
    }
    return src.at(in.element(b, p));
  };
  auto store = [&](uint64_t b, uint64_t p, cd value) {
    const uint64_t row = b * out.binding.stride;
    switch (out.real_side) {
      case Side::reals: {
        cd& pair = dst.at(row + p / 2);
        pair = p % 2 ? cd(pair.real(), value.real()) : cd(value.real(), pair.imag());
        if (out.real_n % 2 != 0 && p == 0) dst.at(row + out.real_n / 2) = cd(dst.at(row + out.real_n / 2).real(), 0);
        return;
      }
      case Side::half_spectrum:
        if (p <= out.real_n / 2) dst.at(row + p) = value;
        return;
      case Side::none: break;
    }
    dst.at(out.element(b, p)) = value;
  };
  // The separating stores need the whole half-length transform Z of a batch entry: collected
  // from every column first (at frequency k = the store view's position), separated after.
  const bool separates = pass.store.kind == StoreKind::r2c || pass.store.kind == StoreKind::pair_split;
  std::vector<cd> z(separates ? fft.length : 0);
  // An X pass that does the first Y stage (PassLayout::pair_rows): each row's transform waits for
  // its partner (rows y and y + NY/2 of a plane), then row y stores their sum, the other their difference.
  std::map<uint64_t, std::vector<cd>> paired;
  for (uint64_t b = 0; b < entries; ++b)
    for (uint32_t j = 0; j < cpt; ++j) {
      const uint64_t in_base = b * in.binding.stride + in.column_offset(j);
      std::vector<cd> a(m);
      for (uint32_t r = 0; r < m; ++r) {
        const uint64_t p = in.column_offset(j) + uint64_t{r} * in.element_stride;  // position in the transform
        switch (pass.load.kind) {
          case LoadKind::plain: a[r] = load(b, p); break;
          case LoadKind::c2r: {
            // X[k] and X[H-k] of the half spectrum, k = j + r*K (H: the axis length).
            const uint64_t k = in.column_offset(j) + uint64_t{r} * in.element_stride;
            auto merged = [&](uint64_t entry) {
              const uint64_t row = entry * in.binding.stride;
              const cd x = src.at(row + k), y = std::conj(src.at(row + (fft.length - k)));
              return (x + y) + cd(0, 1) * ((x - y) * real_twiddle(k));
            };
            if (!pass.pair_rows_interleaved) {
              a[r] = merged(b);
              break;
            }
            // Rows 2y and 2y + 1 (the second twiddled by the Y pass): row y takes their sum, row
            // y + NY/2 their difference (the FFT that follows is linear, so the GPU's order, sum
            // after the stages, gives the same values).
            const uint64_t d = fft.pair_rows, y = b % d, first = b / (2 * d) * 2 * d + 2 * y;
            a[r] = (b % (2 * d) < d) ? merged(first) + merged(first + 1) : merged(first) - merged(first + 1);
            break;
          }
          case LoadKind::chirp: {
            // Bluestein: x[n] times the chirp for n < N, zero padding up to M.
            const uint64_t n = p / fft.interleave;  // position along the axis (Y: interleaved columns)
            a[r] = n < pass.chirp.n ? load(b, p) * chirp(n) : cd(0);
            break;
          }
          case LoadKind::pair_merge: {
            const bool mirrored = r > m / 2;
            const uint32_t k = mirrored ? m - r : r;
            cd x = src.at(in_base + k), y = src.at(in_base + m / 2 + 1 + k);
            if (mirrored) x = std::conj(x), y = std::conj(y);
            a[r] = x + cd(0, 1) * y;
            break;
          }
          case LoadKind::image:  // a convolution's zero-padded real image: test_gpu_convolution checks it
            throw std::logic_error("cpu_model: the image load of a convolution is not modelled");
        }
        if (pass.load.pass_twiddle) {
          const uint64_t e = uint64_t{r} * ((j / fft.interleave) % ns), l = uint64_t{ns} * m;
          const PassTwiddles& t = fft.pass_twiddles;
          a[r] *= conj_if(from_table ? twiddle_entry(table, t.lo_offset + e % t.lo_count) *
                                           twiddle_entry(table, t.hi_offset + e / t.lo_count)
                                     : exact_twiddle(e, l));
        }
      }
      // The stages in direction d (a round trip runs them forward, then inverse).
      auto run_stages = [&](Direction d) {
        for (const StageLayout& stage : fft.stages) {
          const uint32_t radix = stage.radix, sns = stage.stride;
          const codelet::Dag& dag = cached_dft(radix, d);
          std::vector<cd> next(m);
          for (uint32_t jj = 0; jj < m / radix; ++jj) {
            std::vector<cd> v(radix);
            const uint32_t k = jj % sns, tk = k / stage.twiddle_divisor, ts = stage.twiddle_stride();
            for (uint32_t r = 0; r < radix; ++r) {
              v[r] = a[jj + r * (m / radix)];
              const cd w = ts > 1 && r > 0 ? (from_table ? twiddle_entry(table, stage.twiddle_offset + (r - 1) * ts + tk)
                                                         : exact_twiddle(uint64_t{r} * tk, uint64_t{ts} * radix))
                                           : cd(1);
              v[r] *= d == Direction::forward ? w : std::conj(w);
            }
            v = codelet::evaluate(dag, v);
            for (uint32_t r = 0; r < radix; ++r) next[(jj / sns) * sns * radix + k + r * sns] = v[r];
          }
          a = next;
        }
      };
      run_stages(pass.direction);
      if (pass.round_trip) {  // Bluestein in one dispatch: the filter spectrum, then the inverse stages
        if (pass.load.kind != LoadKind::chirp || !fft.row_mode())
          throw std::logic_error("cpu_model: a convolution's round trip is not modelled");
        for (uint32_t r = 0; r < m; ++r) a[r] *= twiddle_entry(table, pass.chirp.spectrum_offset + r);
        run_stages(pass.direction == Direction::forward ? Direction::inverse : Direction::forward);
      }
      if (pass.store.pass_twiddle)  // StoreEpilogue::pass_twiddle: value r is output r of the column
        for (uint32_t r = 0; r < m; ++r) {
          const uint64_t e = uint64_t{r} * ((j / fft.interleave) % ns), l = uint64_t{ns} * m;
          const PassTwiddles& t = fft.pass_twiddles;
          a[r] *= conj_if(from_table ? twiddle_entry(table, t.lo_offset + e % t.lo_count) *
                                           twiddle_entry(table, t.hi_offset + e / t.lo_count)
                                     : exact_twiddle(e, l));
        }
      const double scale = pass.store.scale;
      const uint64_t out_base = b * out.binding.stride + out.column_offset(j);
      if (separates) {
        for (uint32_t r = 0; r < m; ++r) z.at(out.column_offset(j) + uint64_t{r} * out.element_stride) = a[r];
        if (j + 1 < cpt) continue;
        a = z;  // every column is in: separate the whole transform
      }
      const uint32_t h = static_cast<uint32_t>(a.size());
      const uint64_t row = b * out.binding.stride;
      switch (pass.store.kind) {
        // Plain and transposed stores put value r of column j at the same place (the transposed
        // one only goes through shared memory on the way).
        case StoreKind::grid: {
          // Frequencies come out as kx*NY + ky; the output is row-major.
          const uint32_t ny = fft.grid_ny, nx = m / ny;
          for (uint32_t p = 0; p < m; ++p) dst.at(out_base + (p % ny) * nx + p / ny) = a[p] * scale;
          break;
        }
        case StoreKind::chirp_filter:
          for (uint32_t r = 0; r < m; ++r) {
            const uint64_t p = out.column_offset(j) + uint64_t{r} * out.element_stride, k = p / fft.interleave;
            const cd s = twiddle_entry(table, pass.chirp.spectrum_offset + k);
            store(b, p, a[r] * (pass.chirp.conjugate_spectrum ? std::conj(s) : s) * scale);
          }
          break;
        case StoreKind::chirp_crop:
          for (uint32_t r = 0; r < m; ++r) {
            const uint64_t p = out.column_offset(j) + uint64_t{r} * out.element_stride, k = p / fft.interleave;
            if (k < pass.chirp.n) store(b, p, a[r] * chirp(k) * scale);
          }
          break;
        case StoreKind::plain:
        case StoreKind::transposed:
          if (fft.pair_rows != 0 && !pass.pair_rows_interleaved) {  // (a c2r pair has summed as it loaded)
            paired[b] = a;
            break;
          }
          for (uint32_t r = 0; r < m; ++r) store(b, out.column_offset(j) + uint64_t{r} * out.element_stride, a[r] * scale);
          break;
        case StoreKind::r2c: {
          // Interleaved pairs of rows (PassProgram::pair_rows_interleaved) wait for their partner.
          std::vector<cd> spectrum(h + 1);
          for (uint32_t k = 0; k < h; ++k) {
            const cd zk = a[k], p = std::conj(a[(h - k) % h]);
            const cd even = (zk + p) / 2.0, odd = cd(0, -1) * (zk - p) / 2.0;
            spectrum[k] = (even + real_twiddle(k) * odd) * scale;
            if (k == 0) spectrum[h] = (even - odd) * scale;
          }
          if (pass.pair_rows_interleaved) {
            paired[b] = spectrum;
            break;
          }
          for (uint32_t k = 0; k <= h; ++k) dst.at(out.element(b, k)) = spectrum[k];
          break;
        }
        case StoreKind::pair_split:
          for (uint32_t k = 0; k <= h / 2; ++k) {
            const cd zk = a[k], p = std::conj(a[(h - k) % h]);
            dst.at(row + k) = (zk + p) / 2.0 * scale;
            dst.at(row + h / 2 + 1 + k) = cd(0, -1) * (zk - p) / 2.0 * scale;
          }
          break;
        case StoreKind::image:  // a convolution's cropped real image: test_gpu_convolution checks it
          throw std::logic_error("cpu_model: the image store of a convolution is not modelled");
      }
    }
  for (const auto& [b, a] : paired) {
    const uint64_t d = fft.pair_rows;
    if (b % (2 * d) >= d) continue;
    const std::vector<cd>& other = paired.at(b + d);
    if (pass.pair_rows_interleaved) {  // r2c: rows 2y and 2y + 1 of the plane, scaled already
      const uint64_t first = b / (2 * d) * 2 * d + 2 * (b % d);
      for (size_t k = 0; k < a.size(); ++k) {
        dst.at(out.element(first, k)) = a[k] + other[k];
        dst.at(out.element(first + 1, k)) = a[k] - other[k];
      }
      continue;
    }
    for (uint32_t r = 0; r < m; ++r) {
      store(b, r, (a[r] + other[r]) * pass.store.scale);
      store(b + d, r, (a[r] - other[r]) * pass.store.scale);
    }
  }
}

// Runs every pass of `direction` on `x` (batch transforms of N, contiguous) and returns the output.
inline std::vector<cd> run_program(const fftgen::KernelProgram& program, fftgen::Direction direction,
                                   const std::vector<cd>& x, uint32_t batch = 1) {
  const std::vector<float> table = program.layout.twiddles.values();
  CpuBuffers buffers;
  buffers.data[fftgen::BufferRole::input] = x;
  for (const fftgen::PassProgram& pass : program.passes(direction)) run_pass(pass, table, buffers, batch);
  return buffers.data.at(fftgen::BufferRole::output);
}

}  // namespace fftgen_test
