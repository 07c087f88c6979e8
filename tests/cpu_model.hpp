// A CPU model of the pass IR: executes a KernelProgram's passes the way the shaders do (views,
// prologues, stages with the codelet DAGs and the kernel's twiddle table, epilogues), one column
// at a time, in double. Tests compare it with an independent reference FFT, so the views and the
// twiddle placement are checked without a GPU; the printer is checked against the same IR on
// lavapipe (test_gpu_suite).
#pragma once
#include <complex>
#include <map>
#include <stdexcept>
#include <vector>

#include "fftgen/codelet.hpp"
#include "fftgen/program.hpp"

namespace fftgen_test {

using cd = std::complex<double>;

// Buffers by role; each holds `batch` transforms `elements` apart (the contiguous layout).
struct CpuBuffers {
  std::map<fftgen::BufferRole, std::vector<cd>> data;
};

inline cd twiddle_entry(const std::vector<float>& table, uint64_t i) { return {table[2 * i], table[2 * i + 1]}; }

// exp(-2*pi*i*m/l), for computed twiddles.
inline cd exact_twiddle(uint64_t m, uint64_t l) { return std::polar(1.0, -2.0 * M_PI * double(m % l) / double(l)); }

inline void run_pass(const fftgen::PassProgram& pass, const std::vector<float>& table, CpuBuffers& buffers,
                     uint32_t batch) {
  using namespace fftgen;
  const PassLayout& fft = pass.fft;
  const bool forward = pass.direction == Direction::forward;
  auto conj_if = [&](cd w) { return forward ? w : std::conj(w); };
  const View& in = pass.load.view;
  const View& out = pass.store.view;
  const std::vector<cd> src = buffers.data.at(in.binding.role);  // a copy: passes may work in place
  std::vector<cd>& dst = buffers.data[out.binding.role];
  dst.resize(std::max<size_t>(dst.size(), size_t{batch} * out.binding.elements));
  const uint32_t m = fft.size, cpt = fft.columns_per_transform, ns = fft.stride;
  const uint64_t in_stride = in.binding.elements, out_stride = out.binding.elements;
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t j = 0; j < cpt; ++j) {
      std::vector<cd> a(m);
      for (uint32_t r = 0; r < m; ++r) {
        a[r] = src.at(b * in_stride + in.column_offset(j) + uint64_t{r} * in.element_stride);
        if (pass.load.pass_twiddle) {
          const uint64_t e = uint64_t{r} * (j % ns), l = uint64_t{ns} * m;
          const PassTwiddles& t = fft.pass_twiddles;
          a[r] *= conj_if(pass.twiddles == TwiddleSource::table
                              ? twiddle_entry(table, t.lo_offset + e % t.lo_count) *
                                    twiddle_entry(table, t.hi_offset + e / t.lo_count)
                              : exact_twiddle(e, l));
        }
      }
      for (const StageLayout& stage : fft.stages) {
        const uint32_t radix = stage.radix, sns = stage.stride;
        const auto dag = codelet::make_dft(radix, pass.direction);
        std::vector<cd> next(m);
        for (uint32_t jj = 0; jj < m / radix; ++jj) {
          std::vector<cd> v(radix);
          const uint32_t k = jj % sns;
          for (uint32_t r = 0; r < radix; ++r) {
            v[r] = a[jj + r * (m / radix)];
            if (sns > 1 && r > 0)
              v[r] *= conj_if(pass.twiddles == TwiddleSource::table
                                  ? twiddle_entry(table, stage.twiddle_offset + (r - 1) * sns + k)
                                  : exact_twiddle(uint64_t{r} * k, uint64_t{sns} * radix));
          }
          v = codelet::evaluate(dag, v);
          for (uint32_t r = 0; r < radix; ++r) next[(jj / sns) * sns * radix + k + r * sns] = v[r];
        }
        a = next;
      }
      // Plain and transposed stores put value r of column j at the same place (the transposed
      // one only goes through shared memory on the way).
      for (uint32_t r = 0; r < m; ++r)
        dst.at(b * out_stride + out.column_offset(j) + uint64_t{r} * out.element_stride) = a[r] * pass.store.scale;
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
