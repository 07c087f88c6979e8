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
  /// The high word of a 32x32-bit product from 16-bit halves, in 32-bit arithmetic, as the shader
  /// computes it (templates/udiv.glsl).
  static uint32_t mulhi(uint32_t a, uint32_t b) {
    const uint32_t a_lo = a & 0xFFFFu, a_hi = a >> 16, b_lo = b & 0xFFFFu, b_hi = b >> 16;
    const uint32_t hi_lo = a_hi * b_lo;
    const uint32_t cross = ((a_lo * b_lo) >> 16) + (hi_lo & 0xFFFFu) + a_lo * b_hi;
    return a_hi * b_hi + (hi_lo >> 16) + (cross >> 16);
  }
  /// x div d the way the shader computes it.
  uint32_t divide(uint32_t x) const {
    if (power_of_two()) return x >> shift;
    const uint32_t t = mulhi(x, magic);
    return (t + ((x - t) >> 1)) >> shift;
  }
};

}  // namespace fftgen
