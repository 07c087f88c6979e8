// The reference of fp64 kernels: FFTW in long double (fftwl_), every transform computed as a
// complex one (the real sides built from their symmetry), and its error measure.
#include <cmath>
#include <limits>
#include <mutex>
#include <random>
#include <stdexcept>

#include <fftw3.h>

#include "fftgen/vktools/reference.hpp"

namespace fftgen::vk {

namespace {

using LComplex = std::complex<long double>;

// `batch` contiguous complex transforms of `shape`, in place, unnormalised. FFTW's planner is not
// thread-safe; execution is.
void fftwl_c2c(const std::vector<int>& shape, int batch, std::vector<LComplex>& data, bool forward) {
  static std::mutex planner;
  int points = 1;
  for (int s : shape) points *= s;
  auto* p = reinterpret_cast<fftwl_complex*>(data.data());
  fftwl_plan plan;
  {
    std::lock_guard<std::mutex> lock(planner);
    plan = fftwl_plan_many_dft(static_cast<int>(shape.size()), shape.data(), batch, p, nullptr, 1, points, p, nullptr,
                               1, points, forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  }
  if (!plan) throw std::runtime_error("FFTW (long double) could not plan the reference transform");
  fftwl_execute(plan);
  std::lock_guard<std::mutex> lock(planner);
  fftwl_destroy_plan(plan);
}

// The rows of a kernel's transforms: `ny` rows of NX points a transform (NY in 2D, NZ * NY in 3D,
// one in 1D); a real row takes `pitch` reals in memory (NX, NX + 1 for an odd NX, 2 (NX/2 + 1) in
// place), a half spectrum `half` = NX/2 + 1 values.
struct Rows {
  std::vector<uint64_t> lead;  // the sides before X, outermost first
  uint64_t ny = 1, nx, pitch, half;
  explicit Rows(const KernelInfo& k)
      : lead(k.shape.begin(), k.shape.end() - 1),
        nx(k.n()),
        pitch(k.in_place() ? 2 * (k.n() / 2 + 1) : k.n() + k.n() % 2),
        half(k.n() / 2 + 1) {
    for (uint64_t side : lead) ny *= side;
  }
  // The row at the negated coordinates (-z, -y) of row `row` of a transform: the row a half
  // spectrum's mirrored values come from.
  uint64_t mirror(uint64_t row) const {
    uint64_t out = 0, scale = 1;
    for (size_t a = lead.size(); a-- > 0; row /= lead[a], scale *= lead[a])
      out += (lead[a] - row % lead[a]) % lead[a] * scale;
    return out;
  }
};

// Real j of the buffer whose pairs are `pairs` (two consecutive reals each).
double real_at(const std::vector<std::complex<double>>& pairs, uint64_t j) {
  return j % 2 == 0 ? pairs[j / 2].real() : pairs[j / 2].imag();
}

// r2c forward: the rows' reals as a complex grid, its transform, the half of each row.
std::vector<LComplex> r2c_long(const Rows& r, const std::vector<int>& shape, uint32_t batch,
                               const std::vector<std::complex<double>>& input) {
  std::vector<LComplex> grid(batch * r.ny * r.nx);
  for (uint64_t row = 0; row < batch * r.ny; ++row)
    for (uint64_t x = 0; x < r.nx; ++x) grid[row * r.nx + x] = real_at(input, row * r.pitch + x);
  fftwl_c2c(shape, static_cast<int>(batch), grid, true);
  std::vector<LComplex> out;
  for (uint64_t row = 0; row < batch * r.ny; ++row)
    out.insert(out.end(), grid.begin() + static_cast<long>(row * r.nx),
               grid.begin() + static_cast<long>(row * r.nx + r.half));
  return out;
}

// c2r: the whole spectrum from the half (X[z][y][x] = conj X[-z][-y][-x] above NX/2), its inverse
// transform's real parts, as pairs of reals in rows of `pitch` (the padding real zero).
std::vector<LComplex> c2r_long(const Rows& r, const std::vector<int>& shape, uint32_t batch,
                               const std::vector<std::complex<double>>& input) {
  std::vector<LComplex> grid(batch * r.ny * r.nx);
  for (uint64_t b = 0; b < batch; ++b)
    for (uint64_t y = 0; y < r.ny; ++y)
      for (uint64_t x = 0; x < r.nx; ++x) {
        const uint64_t plane = b * r.ny, mirror_y = r.mirror(y);
        grid[(plane + y) * r.nx + x] =
            x < r.half ? LComplex(input[(plane + y) * r.half + x])
                       : std::conj(LComplex(input[(plane + mirror_y) * r.half + (r.nx - x)]));
      }
  fftwl_c2c(shape, static_cast<int>(batch), grid, false);
  std::vector<long double> reals(batch * r.ny * r.pitch, 0.0L);
  for (uint64_t row = 0; row < batch * r.ny; ++row)
    for (uint64_t x = 0; x < r.nx; ++x) reals[row * r.pitch + x] = grid[row * r.nx + x].real();
  std::vector<LComplex> out;
  for (uint64_t i = 0; i < reals.size(); i += 2) out.emplace_back(reals[i], reals[i + 1]);
  return out;
}

std::vector<std::complex<double>> normal_doubles(uint64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> dist(0.0, 1.0);
  std::vector<std::complex<double>> v;
  v.reserve(count);
  while (v.size() < count) {
    const double re = dist(rng);  // re first: the order of the draws is part of the seed's values
    v.emplace_back(re, dist(rng));
  }
  return v;
}

// Makes the columns of a half spectrum that hold their own mirrors (x = 0 and x = NX/2 of an
// even NX) exactly Hermitian: X[-z][-y][x] = conj X[z][y][x], real where (z, y) = (-z, -y).
void make_hermitian(const Rows& r, uint32_t batch, std::vector<std::complex<double>>& spectrum) {
  for (uint64_t x : {uint64_t{0}, r.nx / 2}) {
    if (x == r.nx / 2 && r.nx % 2 != 0) continue;
    for (uint64_t b = 0; b < batch; ++b)
      for (uint64_t y = 0; y < r.ny; ++y) {
        const uint64_t mirror_y = r.mirror(y);
        auto& v = spectrum[(b * r.ny + y) * r.half + x];
        if (mirror_y == y) v.imag(0.0);
        else if (mirror_y < y) v = std::conj(spectrum[(b * r.ny + mirror_y) * r.half + x]);
      }
  }
}

}  // namespace

std::vector<std::complex<long double>> reference_transform_long(const KernelInfo& k, Direction d,
                                                                const std::vector<std::complex<double>>& input,
                                                                uint32_t batch, long double scale) {
  const std::vector<int> shape(k.shape.begin(), k.shape.end());
  const uint64_t in_pairs = pairs_per_transform(k, d, true) * batch;
  if (input.size() < in_pairs) throw std::invalid_argument("reference_transform_long: input holds too few values");
  std::vector<LComplex> out;
  if (k.transform == "c2c") {
    out.assign(input.begin(), input.begin() + static_cast<long>(in_pairs));
    fftwl_c2c(shape, static_cast<int>(batch), out, d == Direction::forward);
  } else if (k.transform == "r2c") {
    out = d == Direction::forward ? r2c_long(Rows(k), shape, batch, input) : c2r_long(Rows(k), shape, batch, input);
  } else {
    throw std::invalid_argument("reference_transform_long: transform " + k.transform + " has no fp64 reference");
  }
  if (scale != 1.0L)
    for (auto& v : out) v *= scale;
  return out;
}

std::vector<std::complex<double>> random_input_double(const KernelInfo& k, Direction d, uint32_t batch,
                                                      uint64_t seed) {
  const Rows rows(k);
  if (d == Direction::inverse && k.transform == "r2c") {
    const auto signal = random_input_double(k, Direction::forward, batch, seed);
    const auto spectrum = reference_transform_long(k, Direction::forward, signal, batch);
    std::vector<std::complex<double>> x(spectrum.begin(), spectrum.end());
    make_hermitian(rows, batch, x);
    return x;
  }
  auto x = normal_doubles(pairs_per_transform(k, d, true) * batch, seed);
  // Rows of reals of odd NX lie NX + 1 reals apart, an in-place kernel's 2 (NX/2 + 1): the
  // padding reals after each are zero.
  if (k.transform == "r2c" && rows.pitch != rows.nx)
    for (uint64_t row = 0; row < uint64_t{batch} * rows.ny; ++row) {
      if (rows.nx % 2 == 0) x[(row + 1) * rows.pitch / 2 - 1].real(0.0);
      x[(row + 1) * rows.pitch / 2 - 1].imag(0.0);
    }
  return x;
}

ErrorStats compare_long(const std::vector<std::complex<double>>& out,
                        const std::vector<std::complex<long double>>& ref) {
  ErrorStats s;
  long double err2 = 0, ref2 = 0, max_err = 0, max_ref = 0;
  const size_t count = std::min(out.size(), ref.size());
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(out[i].real()) || !std::isfinite(out[i].imag())) {
      ++s.nan_count;
      continue;
    }
    const long double e = std::abs(LComplex(out[i]) - ref[i]);
    err2 += e * e;
    ref2 += std::norm(ref[i]);
    max_err = std::max(max_err, e);
    max_ref = std::max(max_ref, std::abs(ref[i]));
  }
  s.nan_count += ref.size() - count;
  s.rel_l2 = static_cast<double>(ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2));
  s.max_rel = static_cast<double>(max_ref > 0 ? max_err / max_ref : max_err);
  if (s.nan_count) s.rel_l2 = s.max_rel = std::numeric_limits<double>::infinity();
  return s;
}

}  // namespace fftgen::vk
