// Division of a 32-bit index by a constant, as the `bitwise` index math spells it: a power of two
// is a shift and a mask; any other divisor d becomes a multiply-high by a magic number (Granlund &
// Montgomery, "Division by invariant integers using multiplication", PLDI 1994; Hacker's Delight
// 10-8, the "add" variant, exact for every 32-bit x):
//   t = (x * m) >> 32,  x div d = (t + ((x - t) >> 1)) >> (l - 1),  l = ceil(log2 d),
//   m = floor(2^32 * (2^l - d) / d) + 1.
// `divmod` index math spells `/` and `%` instead; both give the same quotient for every x.
#pragma once
#include <cstdint>

#include "fftgen/types.hpp"

namespace fftgen {

struct Divisor {
  uint32_t d = 1;
  uint32_t magic = 0;  ///< m (unused for powers of two)
  uint32_t shift = 0;  ///< l - 1, or log2 d for a power of two

  explicit Divisor(uint32_t divisor) : d(divisor) {
    if (is_power_of_two(d)) {
      shift = log2_exact(d);
      return;
    }
    const uint32_t l = ceil_log2(d);
    magic = static_cast<uint32_t>(((uint64_t{1} << 32) * ((uint64_t{1} << l) - d)) / d + 1);
    shift = l - 1;
  }
  bool power_of_two() const { return is_power_of_two(d); }
  /// x div d the way the shader computes it.
  uint32_t divide(uint32_t x) const {
    if (power_of_two()) return x >> shift;
    const uint32_t t = static_cast<uint32_t>((uint64_t{x} * magic) >> 32);
    return (t + ((x - t) >> 1)) >> shift;
  }
};

}  // namespace fftgen
