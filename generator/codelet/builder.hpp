// The codelet builder's internals, shared by the power-of-two, prime and composite constructions
// in generator/codelet (not a public header).
//
// Values are carried as signed handles (node id + sign), as genfft's simplifier does: a negation
// is never a node while it can still be absorbed by the add/sub that consumes it, and c*a and
// (-c)*a are the same mul node (stored with |c|). Only an output left negative needs fixing up.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "fftgen/codelet.hpp"

namespace fftgen::codelet::detail {

struct Handle {
  int id = -1;
  bool neg = false;
};

inline Handle negate(Handle h) { return {h.id, !h.neg}; }

struct Cx {
  Handle re, im;
};

class Builder {
 public:
  Handle input(int index) { return {intern({Op::input, -1, -1, 0.0, index}), false}; }

  Handle constant(double v) {
    int id = intern({Op::constant, -1, -1, std::fabs(v) == 0.0 ? 0.0 : std::fabs(v), -1});
    return {id, v < 0.0};
  }

  bool is_constant(Handle h) const { return nodes_[h.id].op == Op::constant; }
  double constant_value(Handle h) const {
    double v = nodes_[h.id].value;
    return h.neg ? -v : v;
  }
  bool is_zero(Handle h) const { return is_constant(h) && nodes_[h.id].value == 0.0; }

  Handle add(Handle x, Handle y) {
    if (is_constant(x) && is_constant(y)) return constant(constant_value(x) + constant_value(y));
    if (is_zero(x)) return y;
    if (is_zero(y)) return x;
    // a + (-b) -> a - b, (-a) + b -> b - a, (-a) + (-b) -> -(a + b).
    if (!x.neg && !y.neg) return plain_add(x.id, y.id);
    if (!x.neg && y.neg) return plain_sub(x.id, y.id);
    if (x.neg && !y.neg) return plain_sub(y.id, x.id);
    return negate(plain_add(x.id, y.id));
  }

  Handle sub(Handle x, Handle y) { return add(x, negate(y)); }

  Handle mul(double c, Handle x) {
    if (c == 0.0 || is_zero(x)) return constant(0.0);
    if (is_constant(x)) return constant(c * constant_value(x));
    if (c == 1.0) return x;
    if (c == -1.0) return negate(x);
    // c * (-x) -> (-c) * x; the sign of c is carried by the handle so c*a and (-c)*a share a node.
    int id = intern({Op::mul, x.id, -1, std::fabs(c), -1});
    return {id, (c < 0.0) != x.neg};
  }

  // Turns a handle into a node id that holds the value itself, for a DAG output.
  int materialise(Handle h) {
    if (!h.neg) return h.id;
    const Node n = nodes_[h.id];
    switch (n.op) {
      case Op::sub:  // -(a - b) -> b - a
        return intern({Op::sub, n.b, n.a, 0.0, -1});
      case Op::mul:
        return intern({Op::mul, n.a, -1, -n.value, -1});
      case Op::constant:
        return intern({Op::constant, -1, -1, -n.value, -1});
      default:
        return intern({Op::neg, h.id, -1, 0.0, -1});
    }
  }

  std::vector<Node> take_nodes() { return std::move(nodes_); }

 private:
  Handle plain_add(int a, int b) {
    if (a > b) std::swap(a, b);  // add is commutative: one canonical operand order
    return {intern({Op::add, a, b, 0.0, -1}), false};
  }

  Handle plain_sub(int a, int b) {
    if (a == b) return constant(0.0);
    return {intern({Op::sub, a, b, 0.0, -1}), false};
  }

  int intern(const Node& n) {
    uint64_t bits = 0;
    std::memcpy(&bits, &n.value, sizeof bits);
    auto key = std::make_tuple(static_cast<int>(n.op), n.a, n.b, bits, n.index);
    auto it = table_.find(key);
    if (it != table_.end()) return it->second;
    int id = static_cast<int>(nodes_.size());
    nodes_.push_back(n);
    table_.emplace(key, id);
    return id;
  }

  std::vector<Node> nodes_;
  std::map<std::tuple<int, int, int, uint64_t, int>, int> table_;
};

inline Cx cx_add(Builder& b, Cx x, Cx y) { return {b.add(x.re, y.re), b.add(x.im, y.im)}; }
inline Cx cx_sub(Builder& b, Cx x, Cx y) { return {b.sub(x.re, y.re), b.sub(x.im, y.im)}; }

/// cos and sin of 2*pi*e/n, exact for multiples of pi/4 and bit-identical for equal magnitudes.
std::pair<double, double> unit_root(long e, long n);

/// The radix-R DFT whose outputs are `y`: outputs materialised, unreachable nodes dropped, nodes
/// renumbered in topological order.
Dag finish_dag(Builder& b, uint32_t radix, Direction direction, const std::vector<Cx>& y);

/// A prime-size DFT (3, 5, 7, 11, 13, ...) of `x` with root exp(sign*2*pi*i/p), built into `b`.
std::vector<Cx> prime_dft(Builder& b, int sign, const std::vector<Cx>& x);

}  // namespace fftgen::codelet::detail
