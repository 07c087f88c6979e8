// Prime-size DFT codelets (3, 5, 7, 11, 13 and 17 ... kMaxPrimeFactor).
//
// As genfft's dft_prime, x_j is paired with x_{p-j}: with a_j = x_j + x_{p-j},
// b_j = x_j - x_{p-j} (j = 1 ... m, m = (p-1)/2) and w = exp(sign*2*pi*i/p),
//   X_0 = x_0 + sum_j a_j,   X_k = A_k + i B_k,   X_{p-k} = A_k - i B_k   (k = 1 ... m),
//   A_k = x_0 + sum_j cos(2 pi jk/p) a_j,   B_k = sum_j sign*sin(2 pi jk/p) b_j,
// each sum taken over the real and the imaginary parts separately.
//
// Written out, each of the two sums costs m^2 multiplications. Ordered by powers of a primitive
// root g mod p (Rader 1968), the cosine matrix becomes a cyclic convolution of length m and the
// sine matrix a negacyclic one (g^m = -1 mod p). Such a convolution is computed as T^T D T:
// T takes residues modulo the rational factors of x^m - 1 (or x^m + 1) with additions only
// (Winograd's small convolutions through the Chinese remainder theorem: for m = q^k the factors
// are the cyclotomic polynomials of q^0 ... q^k, one fold of q chunks each; coprime factors of m
// combine by the Good-Thomas index map), D multiplies each residue by the kernel's (a small dense
// block per factor) and T^T, the same additions run backwards (the transposition principle), maps
// back. The residue subspaces are orthogonal, so D = T^-T M T^-1 is block diagonal; it is
// computed in double and checked. The plain-sum residue gives X_0 and takes x_0 in, so x_0 is
// added once.
//
// Each part takes this form or the sums written out, whichever the whole codelet needs fewer
// additions for, then fewer multiplications (all four are built): the cosine part the residues
// for every p up to 61 (equal additions but fewer multiplications at 5, 7, 11, 47 and 59), the
// sine part at 13, 19, 29, 31, 37, 41, 43, 53 and 61.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "builder.hpp"

namespace fftgen::codelet::detail {
namespace {

using Matrix = std::vector<std::vector<double>>;

struct SignedVar {
  int id = 0;
  int sign = 1;
};

// A straight-line program of signed additions over `inputs` values: var ids 0 ... inputs-1 are
// the inputs, inputs + s the result of step s. Each output belongs to a block (a factor of
// x^m -+ 1); block 0 of a cyclic net is the plain sum.
struct LinearNet {
  struct Step {
    SignedVar a, b;  // value = a + b
  };
  int inputs = 0;
  std::vector<Step> steps;
  std::vector<SignedVar> outputs;
  std::vector<int> blocks;

  SignedVar add(SignedVar a, SignedVar b) {
    steps.push_back({a, b});
    return {inputs + static_cast<int>(steps.size()) - 1, 1};
  }
  int block_count() const { return blocks.empty() ? 0 : *std::max_element(blocks.begin(), blocks.end()) + 1; }
};

SignedVar flip(SignedVar v, int sign) { return {v.id, v.sign * sign}; }

// Runs `sub` inside `net` on the given vars; returns its outputs.
std::vector<SignedVar> append(LinearNet& net, const LinearNet& sub, const std::vector<SignedVar>& in) {
  std::vector<SignedVar> var(in);
  for (const auto& s : sub.steps)
    var.push_back(net.add(flip(var[s.a.id], s.a.sign), flip(var[s.b.id], s.b.sign)));
  std::vector<SignedVar> out;
  for (const SignedVar& o : sub.outputs) out.push_back(flip(var[o.id], o.sign));
  return out;
}

LinearNet identity(int m) {
  LinearNet net;
  net.inputs = m;
  for (int i = 0; i < m; ++i) {
    net.outputs.push_back({i, 1});
    net.blocks.push_back(0);
  }
  return net;
}

// Residues of a length-q*c sequence (q prime) as q chunks of c, with y = x^c: modulo y - 1 (the
// chunks summed, then `folded`'s residues of that sum) and modulo 1 + y + ... + y^{q-1}
// (chunk_i - chunk_{q-1}, i < q-1; irreducible where q*c is a power of q).
LinearNet cyclic_chunks(int q, const LinearNet& folded) {
  const int c = folded.inputs;
  LinearNet net;
  net.inputs = q * c;
  std::vector<SignedVar> sums;
  for (int t = 0; t < c; ++t) {
    SignedVar sum{t, 1};
    for (int i = 1; i < q; ++i) sum = net.add(sum, {i * c + t, 1});
    sums.push_back(sum);
  }
  net.outputs = append(net, folded, sums);
  net.blocks = folded.blocks;
  for (int i = 0; i + 1 < q; ++i)
    for (int t = 0; t < c; ++t) {
      net.outputs.push_back(net.add({i * c + t, 1}, {(q - 1) * c + t, -1}));
      net.blocks.push_back(folded.block_count());
    }
  return net;
}

// Residues modulo the irreducible factors of x^(q^k) - 1 (q prime): the cyclotomic polynomials
// of q^0 ... q^k, one chunk fold each.
LinearNet cyclic_prime_power(int q, int k) {
  LinearNet net = identity(1);
  for (int i = 0; i < k; ++i) net = cyclic_chunks(q, net);
  return net;
}

// a (length m1) tensor b (length m2) with gcd(m1, m2) = 1: element n of the length-m1*m2 input
// sits at (n mod m1, n mod m2), where the cyclic shift is a shift along both axes at once.
LinearNet tensor(const LinearNet& a, const LinearNet& b) {
  const int m1 = a.inputs, m2 = b.inputs, m = m1 * m2;
  LinearNet net;
  net.inputs = m;
  std::vector<std::vector<SignedVar>> rows(m1);
  for (int r1 = 0; r1 < m1; ++r1) {
    std::vector<SignedVar> in(m2);
    for (int n = r1; n < m; n += m1) in[n % m2] = {n, 1};
    rows[r1] = append(net, b, in);
  }
  for (size_t c2 = 0; c2 < b.outputs.size(); ++c2) {
    std::vector<SignedVar> in(m1);
    for (int r1 = 0; r1 < m1; ++r1) in[r1] = rows[r1][c2];
    std::vector<SignedVar> col = append(net, a, in);
    for (size_t c1 = 0; c1 < col.size(); ++c1) {
      net.outputs.push_back(col[c1]);
      net.blocks.push_back(a.blocks[c1] * b.block_count() + b.blocks[c2]);
    }
  }
  return net;
}

// Residues modulo the rational factors of x^m - 1: one prime power of m, tensor the rest.
LinearNet cyclic(int m) {
  if (m == 1) return identity(1);
  int q = 2;
  while (m % q != 0) ++q;
  int k = 0, power = 1;
  for (; m % (power * q) == 0; power *= q) ++k;
  if (m == power) return cyclic_prime_power(q, k);
  return tensor(cyclic_prime_power(q, k), cyclic(m / power));
}

// Residues modulo factors of x^m + 1: for odd m, x -> -x turns it into x^m - 1; for m = 2^a k with
// k odd, x^m + 1 = y^k + 1 with y = x^(2^a), taken on each class of elements mod 2^a.
LinearNet negacyclic(int m) {
  if (m % 2 == 1) {
    const LinearNet c = cyclic(m);
    LinearNet net;
    net.inputs = m;
    std::vector<SignedVar> in;
    for (int i = 0; i < m; ++i) in.push_back({i, i % 2 == 0 ? 1 : -1});
    net.outputs = append(net, c, in);
    net.blocks = c.blocks;
    return net;
  }
  int stride = 1;
  while (m % (2 * stride) == 0) stride *= 2;
  const LinearNet odd = negacyclic(m / stride);
  LinearNet net;
  net.inputs = m;
  for (int parity = 0; parity < stride; ++parity) {
    std::vector<SignedVar> in;
    for (int i = parity; i < m; i += stride) in.push_back({i, 1});
    for (const SignedVar& o : append(net, odd, in)) net.outputs.push_back(o);
    net.blocks.insert(net.blocks.end(), odd.blocks.begin(), odd.blocks.end());
  }
  return net;
}

// The net's forward and transposed programs over any value type: `ops` supplies add(x, y),
// signed(x, s) and zero().
template <class V, class Ops>
std::vector<V> run_forward(const LinearNet& net, const std::vector<V>& in, Ops& ops) {
  std::vector<V> var(in);
  for (const auto& s : net.steps) var.push_back(ops.add(ops.signed_(var[s.a.id], s.a.sign), ops.signed_(var[s.b.id], s.b.sign)));
  std::vector<V> out;
  for (const SignedVar& o : net.outputs) out.push_back(ops.signed_(var[o.id], o.sign));
  return out;
}

template <class V, class Ops>
std::vector<V> run_transposed(const LinearNet& net, const std::vector<V>& y, Ops& ops) {
  std::vector<std::optional<V>> adj(net.inputs + net.steps.size());
  auto accumulate = [&](SignedVar v, const V& value) {
    V term = ops.signed_(value, v.sign);
    adj[v.id] = adj[v.id] ? ops.add(*adj[v.id], term) : term;
  };
  for (size_t i = 0; i < y.size(); ++i) accumulate(net.outputs[i], y[i]);
  for (size_t s = net.steps.size(); s-- > 0;) {
    const auto& value = adj[net.inputs + s];
    if (!value) continue;
    accumulate(net.steps[s].a, *value);
    accumulate(net.steps[s].b, *value);
  }
  std::vector<V> out;
  for (int i = 0; i < net.inputs; ++i) out.push_back(adj[i] ? *adj[i] : ops.zero());
  return out;
}

struct DoubleOps {
  double add(double x, double y) { return x + y; }
  double signed_(double x, int s) { return s * x; }
  double zero() { return 0.0; }
};

struct HandleOps {
  Builder& b;
  Handle add(Handle x, Handle y) { return b.add(x, y); }
  Handle signed_(Handle x, int s) { return s > 0 ? x : negate(x); }
  Handle zero() { return b.constant(0.0); }
};

Matrix inverse(Matrix a) {
  const size_t n = a.size();
  Matrix inv(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1.0;
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    if (std::fabs(a[pivot][c]) < 1e-9) throw std::logic_error("fftgen: codelet: singular residue transform");
    std::swap(a[c], a[pivot]);
    std::swap(inv[c], inv[pivot]);
    const double d = a[c][c];
    for (size_t k = 0; k < n; ++k) {
      a[c][k] /= d;
      inv[c][k] /= d;
    }
    for (size_t r = 0; r < n; ++r) {
      if (r == c || a[r][c] == 0.0) continue;
      const double f = a[r][c];
      for (size_t k = 0; k < n; ++k) {
        a[r][k] -= f * a[c][k];
        inv[r][k] -= f * inv[c][k];
      }
    }
  }
  return inv;
}

// The block-diagonal D with M = T^T D T, entries that are zero in exact arithmetic set to 0 and
// equal magnitudes made bit-identical (so that c*a and -c*a share one multiplication).
Matrix middle_factor(const LinearNet& net, const Matrix& m) {
  const size_t n = m.size();
  DoubleOps ops;
  Matrix t(n, std::vector<double>(n));  // t[row][col], row = residue
  for (size_t c = 0; c < n; ++c) {
    std::vector<double> unit(n, 0.0);
    unit[c] = 1.0;
    std::vector<double> col = run_forward(net, unit, ops);
    for (size_t r = 0; r < n; ++r) t[r][c] = col[r];
  }
  const Matrix ti = inverse(t);
  Matrix d(n, std::vector<double>(n, 0.0));
  double largest = 0.0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (size_t k = 0; k < n; ++k)
        for (size_t l = 0; l < n; ++l) s += ti[k][i] * m[k][l] * ti[l][j];
      d[i][j] = s;
      largest = std::max(largest, std::fabs(s));
    }
  std::vector<double> magnitudes;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      double& v = d[i][j];
      if (std::fabs(v) <= 1e-12 * largest) {
        v = 0.0;
        continue;
      }
      if (net.blocks[i] != net.blocks[j])
        throw std::logic_error("fftgen: codelet: convolution residues are not independent");
      auto same = std::find_if(magnitudes.begin(), magnitudes.end(),
                               [&](double u) { return std::fabs(u - std::fabs(v)) <= 1e-12 * u; });
      if (same == magnitudes.end()) magnitudes.push_back(std::fabs(v));
      else v = std::copysign(*same, v);
    }
  return d;
}

// y = M x as T^T D T x. With `x0` given, block 0 of the net must be the plain sum alone: `*sum`
// receives that residue and x0 is added to it after D, which adds x0 to every output.
std::vector<Handle> convolve(Builder& b, const LinearNet& net, const Matrix& m, const std::vector<Handle>& x,
                             const Handle* x0 = nullptr, Handle* sum = nullptr) {
  const Matrix d = middle_factor(net, m);
  HandleOps ops{b};
  const std::vector<Handle> z = run_forward(net, x, ops);
  std::vector<Handle> w(z.size());
  for (size_t i = 0; i < z.size(); ++i) {
    Handle acc = b.constant(0.0);
    for (size_t j = 0; j < z.size(); ++j)
      if (d[i][j] != 0.0) acc = b.add(acc, b.mul(d[i][j], z[j]));
    if (x0 && net.blocks[i] == 0) {
      *sum = z[i];
      acc = b.add(*x0, acc);
    }
    w[i] = acc;
  }
  return run_transposed(net, w, ops);
}

long power_mod(long g, long e, long p) {
  long r = 1;
  for (long i = 0; i < e; ++i) r = r * g % p;
  return r;
}

long primitive_root(long p) {
  for (long g = 2; g < p; ++g) {
    bool generates = true;
    for (long q = 2; q < p - 1 && generates; ++q)
      if ((p - 1) % q == 0 && power_mod(g, (p - 1) / q, p) == 1) generates = false;
    if (generates) return g;
  }
  return 1;  // p = 2
}

// Which of the two sums take the residue form; the others are written out.
struct PrimeForm {
  bool cosine_residues = true, sine_residues = false;
};

// The cosine part written out: x_0 + the m sums, and `*sum` = the plain sum of `a`.
std::vector<Handle> direct_cosine(Builder& b, const Matrix& m, const std::vector<Handle>& a, Handle x0, Handle* sum) {
  *sum = a[0];
  for (size_t i = 1; i < a.size(); ++i) *sum = b.add(*sum, a[i]);
  std::vector<Handle> out = convolve(b, identity(static_cast<int>(a.size())), m, a);
  for (Handle& o : out) o = b.add(x0, o);
  return out;
}

std::vector<Cx> build_prime_dft(Builder& b, int sign, const std::vector<Cx>& x, PrimeForm form) {
  const long p = static_cast<long>(x.size());
  const int m = static_cast<int>((p - 1) / 2);
  // Rader order: slot i holds index e_i = g^i mod p, which is +-j_i with j_i in 1 ... m.
  const long g = primitive_root(p);
  std::vector<long> e(m), j(m);
  std::vector<int> s(m);
  for (int i = 0; i < m; ++i) {
    e[i] = power_mod(g, i, p);
    j[i] = std::min(e[i], p - e[i]);
    s[i] = e[i] <= m ? 1 : -1;
  }
  Matrix cosine(m, std::vector<double>(m)), sine(m, std::vector<double>(m));
  for (int l = 0; l < m; ++l)
    for (int i = 0; i < m; ++i) {
      auto [c, sn] = unit_root(sign * e[l] * e[i], p);
      cosine[l][i] = c;
      sine[l][i] = sn;
    }

  // a_{j_i} and b_{e_i} = s_i * b_{j_i} (b_{p-j} = -b_j), for the real and the imaginary parts.
  std::vector<Handle> a_re(m), a_im(m), b_re(m), b_im(m);
  for (int i = 0; i < m; ++i) {
    const Cx sum = cx_add(b, x[j[i]], x[p - j[i]]);
    const Cx diff = cx_sub(b, x[j[i]], x[p - j[i]]);
    a_re[i] = sum.re;
    a_im[i] = sum.im;
    b_re[i] = s[i] > 0 ? diff.re : negate(diff.re);
    b_im[i] = s[i] > 0 ? diff.im : negate(diff.im);
  }
  const LinearNet sin_net = form.sine_residues ? negacyclic(m) : identity(m);
  Handle sum_re, sum_im;
  std::vector<Handle> c_re, c_im;
  if (form.cosine_residues) {
    const LinearNet cos_net = cyclic(m);
    c_re = convolve(b, cos_net, cosine, a_re, &x[0].re, &sum_re);
    c_im = convolve(b, cos_net, cosine, a_im, &x[0].im, &sum_im);
  } else {
    c_re = direct_cosine(b, cosine, a_re, x[0].re, &sum_re);
    c_im = direct_cosine(b, cosine, a_im, x[0].im, &sum_im);
  }
  const std::vector<Handle> s_re = convolve(b, sin_net, sine, b_re);
  const std::vector<Handle> s_im = convolve(b, sin_net, sine, b_im);

  std::vector<Cx> out(p);
  out[0] = {b.add(x[0].re, sum_re), b.add(x[0].im, sum_im)};
  for (int l = 0; l < m; ++l) {
    // A_{j_l} is slot l of the cosine part; B_{j_l} = s_l * (slot l of the sine part).
    const Handle br = s[l] > 0 ? s_re[l] : negate(s_re[l]);
    const Handle bi = s[l] > 0 ? s_im[l] : negate(s_im[l]);
    out[j[l]] = {b.sub(c_re[l], bi), b.add(c_im[l], br)};
    out[p - j[l]] = {b.add(c_re[l], bi), b.sub(c_im[l], br)};
  }
  return out;
}

OpCounts standalone_counts(long p, int sign, PrimeForm form) {
  Builder b;
  std::vector<Cx> x(p);
  for (long r = 0; r < p; ++r) x[r] = {b.input(2 * static_cast<int>(r)), b.input(2 * static_cast<int>(r) + 1)};
  const Direction dir = sign < 0 ? Direction::forward : Direction::inverse;
  return count_ops(finish_dag(b, static_cast<uint32_t>(p), dir, build_prime_dft(b, sign, x, form)));
}

}  // namespace

std::vector<Cx> prime_dft(Builder& b, int sign, const std::vector<Cx>& x) {
  const long p = static_cast<long>(x.size());
  // Fewest additions (each multiplication can fuse into one), then fewest multiplications; on a
  // tie the earlier form.
  PrimeForm best;
  OpCounts best_counts = standalone_counts(p, sign, best);
  for (PrimeForm form : {PrimeForm{true, true}, PrimeForm{false, false}, PrimeForm{false, true}}) {
    const OpCounts c = standalone_counts(p, sign, form);
    if (std::make_pair(c.adds, c.muls) < std::make_pair(best_counts.adds, best_counts.muls)) best = form, best_counts = c;
  }
  return build_prime_dft(b, sign, x, best);
}

}  // namespace fftgen::codelet::detail

namespace fftgen::codelet {

OpCounts prime_sums_written_out(uint32_t p, Direction direction) {
  return detail::standalone_counts(p, direction == Direction::forward ? -1 : +1, detail::PrimeForm{false, false});
}

}  // namespace fftgen::codelet
