// generator/codelet: a radix-R DFT as an expression DAG over real numbers.
//
// The algebra never sees text: emit/ turns a Dag into GLSL. A Dag is built once per
// (radix, direction), simplified (constants folded, multiplications by +-1 and +-i turned into
// swaps and sign flips, W8^k turned into (a +- b) * sqrt(1/2), common subexpressions shared) and
// can be evaluated in double on the CPU so tests check it against a direct DFT.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "fftgen/types.hpp"

namespace fftgen::codelet {

enum class Op {
  input,     ///< real or imaginary part of input `index`
  constant,  ///< `value`
  add,       ///< a + b
  sub,       ///< a - b
  mul,       ///< value * a (multiplication by a real constant)
  neg,       ///< -a (left only where no add/sub could absorb it)
};

struct Node {
  Op op = Op::constant;
  int a = -1;          ///< operand node id
  int b = -1;          ///< second operand (add, sub)
  double value = 0.0;  ///< constant value, or the factor of mul
  int index = -1;      ///< input: 2*r for Re(x_r), 2*r+1 for Im(x_r)
};

/// out[k] = sum_r in[r] * exp(sign * 2*pi*i * r*k / radix), sign = -1 forward, +1 inverse.
struct Dag {
  uint32_t radix = 0;
  Direction direction = Direction::forward;
  std::vector<Node> nodes;   ///< topologically ordered (operands before users)
  std::vector<int> outputs;  ///< 2*radix node ids: Re(X_0), Im(X_0), Re(X_1), ...
};

struct OpCounts {
  uint32_t adds = 0;            ///< add + sub nodes reachable from the outputs
  uint32_t muls = 0;            ///< mul nodes reachable from the outputs
  uint32_t fma_candidates = 0;  ///< add/sub nodes with a mul operand used only there
  uint32_t negs = 0;            ///< neg nodes left over (ideally 0)
};

/// Builds the simplified DAG of a radix-R DFT. R must be one of kSupportedRadices.
Dag make_dft(uint32_t radix, Direction direction);

/// Evaluates the DAG in double precision; x.size() == radix.
std::vector<std::complex<double>> evaluate(const Dag& dag, const std::vector<std::complex<double>>& x);

/// Operation counts of the nodes reachable from the outputs.
OpCounts count_ops(const Dag& dag);

}  // namespace fftgen::codelet
