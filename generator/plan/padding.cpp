// generator/plan: the padded plane of a "same" convolution (plan.hpp, docs/graphics.md).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

namespace fftgen {

namespace {

// Relative time per padded value of a side by its largest prime factor; a plane's factor is the
// product of its sides'. Not measured per length yet (a tuning run is to calibrate them): on an
// H100 (bench/results/2026-11-23-h100-anysize2) 2D C2C 1080x1920 (sides of primes 2, 3 and 5) ran
// at 1253 GB/s and R2C at 1083, against 1397-1423 and 1222-1324 for 2048² (layout.cpp's pair-rows
// measurements): 1.12-1.2 a plane, about 1.06 a side. Radix 7 is unmeasured; its codelet takes 88
// real operations for 7 points (radix 5: 44 for 5, radix 8: 56 for 8), so a little more.
struct SideFactor {
  uint32_t largest_prime;
  double factor;
};
constexpr SideFactor kSideFactors[] = {{2, 1.00}, {3, 1.06}, {5, 1.06}, {7, 1.10}};

// A column round trip (PassProgram::round_trip: forward FFT, filter product and inverse FFT in one
// dispatch) of a height that is not a power of two: relative time per value against one of a power
// of two. Measured on an H200 (bench/results/2026-11-29-h200-planner-frames, RGBA 1080x1920 with
// 63- and 127-pixel filters, rows of 2048 both ways): the round trip of 1125 columns took 0.041 ms
// more than that of 2048 at 0.55x the values, of 1250 0.014 ms more: 4.1x and 2.3x a value.
constexpr double kMixedRoundTripFactor = 3.0;

double side_factor(uint32_t side) {
  const uint64_t p = largest_prime_factor(side);
  for (const SideFactor& f : kSideFactors)
    if (f.largest_prime == p) return f.factor;
  return 0;  // not a candidate side
}

// The plane's values, each side's weighed by its factor.
double padded_values(const ConvolutionSpec& c) {
  return static_cast<double>(c.padded_h) * c.padded_w * side_factor(c.padded_h) * side_factor(c.padded_w);
}

}  // namespace

uint32_t same_padding_minimum(uint32_t image, uint32_t filter) {
  return std::max({image + filter / 2, filter, 2u});
}

std::vector<uint32_t> padding_candidates(uint32_t minimum, bool even) {
  const uint32_t top = static_cast<uint32_t>(uint64_t{1} << ceil_log2(minimum));
  std::vector<uint32_t> sides;
  for (uint32_t p = minimum; p <= top; ++p)
    if (largest_prime_factor(p) <= kSideFactors[std::size(kSideFactors) - 1].largest_prime && (!even || p % 2 == 0))
      sides.push_back(p);
  return sides;
}

double padding_cost(const ConvolutionSpec& c, const KernelProgram& apply) {
  double planes = 0;
  for (const auto* direction : {&apply.forward, &apply.inverse})
    for (const PassProgram& pass : *direction)
      planes += pass.rows_per_transform != 0                       ? static_cast<double>(c.image_h) / c.padded_h
                : pass.round_trip && !is_power_of_two(pass.fft.size) ? kMixedRoundTripFactor
                                                                      : 1.0;
  return planes * padded_values(c);
}

double padding_cost_floor(const ConvolutionSpec& c) {
  return (1.0 + 2.0 * c.image_h / c.padded_h) * padded_values(c);
}

}  // namespace fftgen
