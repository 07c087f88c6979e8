// generator/plan: the padded plane of a "same" convolution (plan.hpp, docs/graphics.md).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fftgen/measured.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/program.hpp"

namespace fftgen {

namespace {

double side_factor(uint32_t side) {
  const uint64_t p = largest_prime_factor(side);
  for (const auto& f : measured_padding_weights().side_factors)
    if (f.largest_prime == p) return f.factor;
  return 0;  // not a candidate side
}

// The plane's values, each side's weighed by its factor.
double padded_values(const ConvolutionSpec& c) {
  return static_cast<double>(c.padded_h) * c.padded_w * side_factor(c.padded_h) * side_factor(c.padded_w);
}

// What one pass counts, in planes: a row pass that skips the padding rows the image's share of
// them; a column round trip whose exchange takes the whole budget, or whose height is not a power
// of two and whose exchange goes in parts (real and imaginary parts in turn, or rounds), by its
// weight (measured_padding_weights); any other pass one.
double pass_planes(const ConvolutionSpec& c, const PassProgram& pass, uint32_t budget_bytes) {
  const PaddingWeights& weights = measured_padding_weights();
  if (pass.rows_per_transform != 0) return static_cast<double>(c.image_h) / c.padded_h;
  if (!pass.round_trip) return 1.0;
  if (pass.fft.shared.bytes() >= budget_bytes) return weights.full_round_trip;
  const bool in_parts = pass.fft.shared.split || pass.fft.shared.rounds > 1;
  return in_parts && !is_power_of_two(pass.fft.size) ? weights.mixed_round_trip : 1.0;
}

}  // namespace

uint32_t same_padding_minimum(uint32_t image, uint32_t filter) {
  return std::max({image + filter / 2, filter, 2u});
}

std::vector<uint32_t> padding_candidates(uint32_t minimum, bool even) {
  const uint32_t top = static_cast<uint32_t>(uint64_t{1} << ceil_log2(minimum));
  const uint32_t largest = measured_padding_weights().side_factors.back().largest_prime;
  std::vector<uint32_t> sides;
  for (uint32_t p = minimum; p <= top; ++p)
    if (largest_prime_factor(p) <= largest && (!even || p % 2 == 0))
      sides.push_back(p);
  return sides;
}

double padding_cost(const ConvolutionSpec& c, const KernelProgram& apply, uint32_t budget_bytes) {
  double planes = 0;
  for (const auto* direction : {&apply.forward, &apply.inverse})
    for (const PassProgram& pass : *direction) planes += pass_planes(c, pass, budget_bytes);
  return planes * padded_values(c);
}

double padding_cost_floor(const ConvolutionSpec& c) {
  return (1.0 + 2.0 * c.image_h / c.padded_h) * padded_values(c);
}

}  // namespace fftgen
