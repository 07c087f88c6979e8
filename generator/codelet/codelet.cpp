// Radix-R DFT codelets as simplified expression DAGs over real numbers (builder.hpp: signed
// handles, constant folding, CSE by interning).
//
// Powers of two are built by the split-radix decomposition (Yavne 1968; Duhamel & Hollmann 1984):
// X = DFT_{N/2}(x_{2m}) combined with DFT_{N/4}(x_{4m+1}) and DFT_{N/4}(x_{4m+3}) twiddled by W^k
// and W^{3k}. With trivial twiddles (+-1, +-i) turned into swaps and sign flips, W8^k into
// (a +- b) * sqrt(1/2) and other twiddles into 4 muls + 2 adds, this reaches the operation counts
// of FFTW's genfft no-twiddle codelets n1_8 / n1_16 / n1_32 / n1_64.
//
// Other sizes follow genfft's choice of algorithm (genfft/fft.ml): primes by prime.cpp; n = n1*n2
// with gcd(n1, n2) = 1 by the prime-factor algorithm (Good 1958, Thomas 1963), which needs no
// twiddles; other composites (9) by Cooley-Tukey with n1 the largest factor <= sqrt(n).
#include "fftgen/codelet.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "builder.hpp"

namespace fftgen::codelet {
namespace detail {

constexpr double kPi = 3.14159265358979323846264338327950288;

// Computed from the first-octant angle so that equal magnitudes (e.g. cos(pi/8) and sin(3*pi/8))
// are bit-identical constants, and exact where they can be (1/2 at multiples of pi/6).
std::pair<double, double> unit_root(long e, long n) {
  e %= n;
  if (e < 0) e += n;
  // Angle = 2*pi*e/n = (pi/4) * (8e/n); reduce by octant with exact rational arithmetic.
  long num = 8 * e;  // angle in units of (pi/4)/n
  long oct = num / n;  // octant 0..7
  long r = num % n;    // remainder within the octant, in units of (pi/4)/n
  // Octant q covers [q*pi/4, (q+1)*pi/4]: for even q the angle is q*pi/4 + fa, for odd q it is
  // (q+1)*pi/4 - fa, with fa = (pi/4) * m/n in the first octant.
  long m = (oct % 2 == 0) ? r : n - r;
  double fa = kPi / 4.0 * static_cast<double>(m) / static_cast<double>(n);
  double cm = m == 0 ? 1.0 : (m == n ? std::sqrt(0.5) : std::cos(fa));
  double sm = m == 0 ? 0.0 : (m == n ? std::sqrt(0.5) : std::sin(fa));
  if (3 * m == 2 * n) {  // fa = pi/6: sin is exactly 1/2 (std::sin gives 1/2 - 2^-54)
    cm = std::sqrt(0.75);
    sm = 0.5;
  }
  // Rotations by multiples of pi/2 and reflections are exact swaps and sign changes.
  double c = 0, s = 0;
  switch (oct) {
    case 0: c = cm; s = sm; break;          // fa
    case 1: c = sm; s = cm; break;          // pi/2 - fa
    case 2: c = -sm; s = cm; break;         // pi/2 + fa
    case 3: c = -cm; s = sm; break;         // pi - fa
    case 4: c = -cm; s = -sm; break;        // pi + fa
    case 5: c = -sm; s = -cm; break;        // 3pi/2 - fa
    case 6: c = sm; s = -cm; break;         // 3pi/2 + fa
    case 7: c = cm; s = -sm; break;         // 2pi - fa
  }
  return {c, s};
}

Dag finish_dag(Builder& b, uint32_t radix, Direction direction, const std::vector<Cx>& y) {
  std::vector<int> outs;
  for (const Cx& c : y) {
    outs.push_back(b.materialise(c.re));
    outs.push_back(b.materialise(c.im));
  }
  std::vector<Node> all = b.take_nodes();

  // Keep only the nodes reachable from the outputs; ids are already topological (operands are
  // interned before their users), so renumbering in id order keeps that.
  std::vector<char> live(all.size(), 0);
  for (int o : outs) live[o] = 1;
  for (size_t i = all.size(); i-- > 0;) {
    if (!live[i]) continue;
    if (all[i].a >= 0) live[all[i].a] = 1;
    if (all[i].b >= 0) live[all[i].b] = 1;
  }
  std::vector<int> remap(all.size(), -1);
  Dag dag;
  dag.radix = radix;
  dag.direction = direction;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!live[i]) continue;
    Node n = all[i];
    if (n.a >= 0) n.a = remap[n.a];
    if (n.b >= 0) n.b = remap[n.b];
    remap[i] = static_cast<int>(dag.nodes.size());
    dag.nodes.push_back(n);
  }
  for (int o : outs) dag.outputs.push_back(remap[o]);
  return dag;
}

}  // namespace detail

namespace {

using namespace detail;

class SplitRadix {
 public:
  SplitRadix(Builder& b, int sign) : b_(b), sign_(sign) {}

  Cx add(Cx x, Cx y) { return cx_add(b_, x, y); }
  Cx sub(Cx x, Cx y) { return cx_sub(b_, x, y); }
  // (s*i) * z, s = +-1: multiplication by +-i is a swap of re/im with a sign flip.
  Cx times_i(Cx z, int s) {
    if (s > 0) return {negate(z.im), z.re};  // i*(a+ib) = -b + ia
    return {z.im, negate(z.re)};             // -i*(a+ib) = b - ia
  }

  // z * exp(sign * 2*pi*i * e / n)
  Cx twiddle(Cx z, long e, long n) {
    e %= n;
    if (e == 0) return z;
    if ((8 * e) % n == 0) {
      long oct = (8 * e / n) * (sign_ > 0 ? 1 : 7) % 8;  // multiple of pi/4, direction applied
      switch (oct) {
        case 0: return z;
        case 2: return times_i(z, +1);
        case 4: return {negate(z.re), negate(z.im)};
        case 6: return times_i(z, -1);
        default: {
          // exp(i*oct*pi/4) = (cx + i*sx) * sqrt(1/2), cx, sx in {+1, -1}.
          int cx = (oct == 1 || oct == 7) ? 1 : -1;
          int sx = (oct == 1 || oct == 3) ? 1 : -1;
          Handle re = b_.sub(signed_(z.re, cx), signed_(z.im, sx));
          Handle im = b_.add(signed_(z.im, cx), signed_(z.re, sx));
          const double h = std::sqrt(0.5);
          return {b_.mul(h, re), b_.mul(h, im)};
        }
      }
    }
    auto [c, s] = unit_root(sign_ > 0 ? e : -e, n);
    // (zr + i zi)(c + i s) = (c zr - s zi) + i (c zi + s zr)
    Handle re = b_.sub(b_.mul(c, z.re), b_.mul(s, z.im));
    Handle im = b_.add(b_.mul(c, z.im), b_.mul(s, z.re));
    return {re, im};
  }

  std::vector<Cx> dft(const std::vector<Cx>& x) {
    const size_t n = x.size();
    if (n == 1) return x;
    if (n == 2) return {add(x[0], x[1]), sub(x[0], x[1])};
    std::vector<Cx> even, odd1, odd3;
    for (size_t m = 0; m < n; m += 2) even.push_back(x[m]);
    for (size_t m = 1; m < n; m += 4) odd1.push_back(x[m]);
    for (size_t m = 3; m < n; m += 4) odd3.push_back(x[m]);
    std::vector<Cx> u = dft(even), z1 = dft(odd1), z3 = dft(odd3);
    std::vector<Cx> out(n);
    const size_t q = n / 4;
    for (size_t k = 0; k < q; ++k) {
      Cx a = twiddle(z1[k], static_cast<long>(k), static_cast<long>(n));
      Cx b = twiddle(z3[k], static_cast<long>(3 * k), static_cast<long>(n));
      Cx s = add(a, b);
      // W^{N/4} = exp(sign*i*pi/2) = sign*i, so the k+N/4 terms see sign*i*(a - b).
      Cx d = times_i(sub(a, b), sign_);
      out[k] = add(u[k], s);
      out[k + n / 2] = sub(u[k], s);
      out[k + q] = add(u[k + q], d);
      out[k + 3 * q] = sub(u[k + q], d);
    }
    return out;
  }

 private:
  Handle signed_(Handle h, int s) { return s > 0 ? h : negate(h); }

  Builder& b_;
  int sign_;
};

// Any size in kCodeletRadices: genfft's algorithm choice (genfft/fft.ml, `algorithm`).
class MixedRadix {
 public:
  MixedRadix(Builder& b, int sign) : b_(b), sign_(sign), sr_(b, sign) {}

  std::vector<Cx> dft(const std::vector<Cx>& x) {
    const long n = static_cast<long>(x.size());
    if ((n & (n - 1)) == 0) return sr_.dft(x);
    const long r = choose_factor(n);
    if (r == 1) return prime_dft(b_, sign_, x);
    if (std::gcd(r, n / r) == 1) return prime_factor(x, r, n / r);
    return cooley_tukey(x, r, n / r);
  }

 private:
  // genfft's choose_factor: the largest n1 <= sqrt(n) with gcd(n1, n/n1) = 1 if there is one > 1,
  // else the largest factor <= sqrt(n); 1 for a prime.
  static long choose_factor(long n) {
    long coprime = 1, any = 1;
    for (long i = 2; i * i <= n; ++i) {
      if (n % i != 0) continue;
      any = i;
      if (std::gcd(i, n / i) == 1) coprime = i;
    }
    return coprime > 1 ? coprime : any;
  }

  // x_{(i1*n2 + i2*n1) mod n} -> n2 DFTs of size n1 -> n1 DFTs of size n2; X_k sits at
  // (k mod n1, k mod n2) by the Chinese remainder theorem, so no twiddles are needed.
  std::vector<Cx> prime_factor(const std::vector<Cx>& x, long n1, long n2) {
    const long n = n1 * n2;
    std::vector<std::vector<Cx>> rows(n2);
    for (long i2 = 0; i2 < n2; ++i2) {
      std::vector<Cx> in(n1);
      for (long i1 = 0; i1 < n1; ++i1) in[i1] = x[(i1 * n2 + i2 * n1) % n];
      rows[i2] = dft(in);
    }
    std::vector<Cx> out(n);
    for (long k1 = 0; k1 < n1; ++k1) {
      std::vector<Cx> in(n2);
      for (long k2 = 0; k2 < n2; ++k2) in[k2] = rows[k2][k1];
      std::vector<Cx> col = dft(in);
      for (long k = 0; k < n; ++k)
        if (k % n1 == k1) out[k] = col[k % n2];
    }
    return out;
  }

  // x_{i1*n2 + i2}: n2 DFTs of size n1, twiddles W_n^{k1*i2}, n1 DFTs of size n2; X_{k1 + n1*k2}.
  std::vector<Cx> cooley_tukey(const std::vector<Cx>& x, long n1, long n2) {
    const long n = n1 * n2;
    std::vector<std::vector<Cx>> rows(n2);
    for (long i2 = 0; i2 < n2; ++i2) {
      std::vector<Cx> in(n1);
      for (long i1 = 0; i1 < n1; ++i1) in[i1] = x[i1 * n2 + i2];
      rows[i2] = dft(in);
    }
    std::vector<Cx> out(n);
    for (long k1 = 0; k1 < n1; ++k1) {
      std::vector<Cx> in(n2);
      for (long i2 = 0; i2 < n2; ++i2) in[i2] = sr_.twiddle(rows[i2][k1], k1 * i2, n);
      std::vector<Cx> col = dft(in);
      for (long k2 = 0; k2 < n2; ++k2) out[k1 + n1 * k2] = col[k2];
    }
    return out;
  }

  Builder& b_;
  int sign_;
  SplitRadix sr_;
};

bool supported(uint32_t radix) {
  return std::find(std::begin(kCodeletRadices), std::end(kCodeletRadices), radix) != std::end(kCodeletRadices);
}

}  // namespace

Dag make_dft(uint32_t radix, Direction direction) {
  if (!supported(radix)) throw std::invalid_argument("fftgen: no codelet for radix " + std::to_string(radix));
  Builder b;
  std::vector<Cx> x(radix);
  for (uint32_t r = 0; r < radix; ++r) x[r] = {b.input(2 * static_cast<int>(r)), b.input(2 * static_cast<int>(r) + 1)};
  MixedRadix dft(b, direction == Direction::forward ? -1 : +1);
  return finish_dag(b, radix, direction, dft.dft(x));
}

std::vector<std::complex<double>> evaluate(const Dag& dag, const std::vector<std::complex<double>>& x) {
  if (x.size() != dag.radix) throw std::invalid_argument("fftgen: evaluate: input size != radix");
  std::vector<double> v(dag.nodes.size());
  for (size_t i = 0; i < dag.nodes.size(); ++i) {
    const Node& n = dag.nodes[i];
    switch (n.op) {
      case Op::input: {
        const auto& c = x[static_cast<size_t>(n.index / 2)];
        v[i] = (n.index % 2 == 0) ? c.real() : c.imag();
        break;
      }
      case Op::constant: v[i] = n.value; break;
      case Op::add: v[i] = v[n.a] + v[n.b]; break;
      case Op::sub: v[i] = v[n.a] - v[n.b]; break;
      case Op::mul: v[i] = n.value * v[n.a]; break;
      case Op::neg: v[i] = -v[n.a]; break;
    }
  }
  std::vector<std::complex<double>> out(dag.radix);
  for (size_t k = 0; k < dag.radix; ++k) out[k] = {v[dag.outputs[2 * k]], v[dag.outputs[2 * k + 1]]};
  return out;
}

OpCounts count_ops(const Dag& dag) {
  const size_t n = dag.nodes.size();
  std::vector<char> live(n, 0);
  std::vector<int> users(n, 0);
  for (int o : dag.outputs) {
    live[o] = 1;
    ++users[o];
  }
  for (size_t i = n; i-- > 0;) {
    if (!live[i]) continue;
    const Node& nd = dag.nodes[i];
    if (nd.a >= 0) {
      live[nd.a] = 1;
      ++users[nd.a];
    }
    if (nd.b >= 0) {
      live[nd.b] = 1;
      ++users[nd.b];
    }
  }
  OpCounts c;
  auto lone_mul = [&](int id) { return id >= 0 && dag.nodes[id].op == Op::mul && users[id] == 1; };
  for (size_t i = 0; i < n; ++i) {
    if (!live[i]) continue;
    const Node& nd = dag.nodes[i];
    switch (nd.op) {
      case Op::add:
      case Op::sub:
        ++c.adds;
        if (lone_mul(nd.a) || lone_mul(nd.b)) ++c.fma_candidates;
        break;
      case Op::mul: ++c.muls; break;
      case Op::neg: ++c.negs; break;
      default: break;
    }
  }
  return c;
}

}  // namespace fftgen::codelet
