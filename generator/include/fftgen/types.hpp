// Vocabulary shared by every stage of the generator: the option enums of a plan and their
// spellings. Each enum has to_string()/parse helpers so the plan parser, the variant suffixes and
// the manifest all spell values the same way.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fftgen/interface.hpp"

namespace fftgen {

enum class DirectionSet { forward, inverse, both };
enum class Normalize { none, inverse, ortho };
enum class IndexMath { bitwise, divmod };
/// table: computed in double on the host, rounded once to fp32; computed: the GPU's sin/cos.
/// `automatic` ("auto"): KernelSpec::twiddle_source() says which.
enum class TwiddleSource { automatic, table, computed };
/// fp32: data and arithmetic in float. fp16: data in memory as half floats (storage only, as
/// GL_EXT_shader_16bit_storage allows), arithmetic in float. fp64: data, twiddle table, shared
/// memory and arithmetic in double (GLSL double/dvec2; Vulkan's shaderFloat64; no Metal, no WebGPU).
enum class Precision { fp32, fp16, fp64 };
/// c2c: complex to complex. r2c: real input, half spectrum (N/2+1 along X) out; its inverse is c2r.
/// r2c_pair: two real signals packed as one complex signal (x + i y), their two half spectra out.
enum class Transform { c2c, r2c, r2c_pair };
/// wgsl: WebGPU, printed from the pass IR (generator/emit/*wgsl*), not cross-compiled.
enum class Target { spirv, glsl, hlsl, msl, wgsl };
/// Where a kernel's input and output live: storage buffers, or storage images (docs/graphics.md,
/// "Textures"): the first pass reads an image, the last pass writes one, the passes between use
/// buffers.
enum class Io { buffer, image };
/// The texel format of a kernel's images (io image). rg32f, rgba32f and rgba16f hold one complex
/// value per texel in (r, g) (b and a are written 0 and never read); r32f holds one real. `automatic`
/// ("auto") is rg32f for c2c and r32f for r2c.
enum class TextureFormat { automatic, rg32f, rgba32f, rgba16f, r32f };
/// Where a 2D kernel keeps its values between its X pass and its Y pass (docs/transforms.md, "2D"):
/// rows: row-major in the output buffer, no extra memory; column_tiles: in a scratch buffer of the
/// data's size, each tile of the Y pass's columns contiguous, so that the Y pass reads one run per
/// tile where rows give it runs of a few columns. `automatic` ("auto") picks column_tiles where they
/// were measured faster on an H100 (c2c 1024² to 4096²; intermediate_tiles in program.cpp).
enum class IntermediateLayout { automatic, rows, column_tiles };
/// How the passes of a multi-pass kernel wait for each other (docs/transforms.md, "Passes in one
/// dispatch"): dispatch: each pass is a dispatch of its own and the runtime records a barrier
/// between them; counters: every pass of a direction runs in one dispatch, whose workgroups take
/// their work in order from a counter and wait on per-transform counters for the previous pass, so
/// that the values between passes stay in the GPU's L2 cache. `automatic` ("auto") picks counters
/// where they were measured faster on an H100 and the targets allow them (not msl).
enum class PassSync { automatic, dispatch, counters };
/// Where a 2D kernel's first stage along Y (radix 2) runs (docs/transforms.md, "2D"): in its column
/// pass (column_pass), or in its row pass (row_pass), which then transforms rows y and y + NY/2 of
/// each plane in turn and stores their sum and difference, so that the column pass transforms
/// columns of NY/2, twice as many per workgroup (PassLayout::pair_rows). `automatic` ("auto") takes
/// row_pass where it was measured faster on an H100 (NY >= 2048; make_layout).
enum class FirstYStage { automatic, column_pass, row_pass };
/// Whether a kernel's input and output are one buffer (docs/plan.md, "In place"): out_of_place
/// reads the input buffer and writes another; in_place overwrites its input with its output (one
/// data binding; multi-pass kernels go through their scratch buffer where a pass cannot write what
/// other workgroups still read; r2c/c2r rows padded to 2 (N/2 + 1) reals, as FFTW's in-place rows).
enum class Placement { out_of_place, in_place };

std::string_view to_string(DirectionSet);
std::string_view to_string(Normalize);
std::string_view to_string(IndexMath);
std::string_view to_string(TwiddleSource);
std::string_view to_string(Precision);
std::string_view to_string(Transform);
std::string_view to_string(Target);
std::string_view to_string(Io);
std::string_view to_string(TextureFormat);
std::string_view to_string(IntermediateLayout);
std::string_view to_string(PassSync);
std::string_view to_string(FirstYStage);
std::string_view to_string(Placement);

/// Spellings accepted for each enum, in the order they are listed in error messages.
const std::vector<std::string>& allowed_values(std::string_view field);

std::optional<DirectionSet> parse_direction_set(std::string_view);
std::optional<Normalize> parse_normalize(std::string_view);
std::optional<IndexMath> parse_index_math(std::string_view);
std::optional<TwiddleSource> parse_twiddle_source(std::string_view);
std::optional<Precision> parse_precision(std::string_view);
std::optional<Transform> parse_transform(std::string_view);
std::optional<Target> parse_target(std::string_view);
std::optional<Io> parse_io(std::string_view);
std::optional<TextureFormat> parse_texture_format(std::string_view);
std::optional<IntermediateLayout> parse_intermediate_layout(std::string_view);
std::optional<PassSync> parse_pass_sync(std::string_view);
std::optional<FirstYStage> parse_first_y_stage(std::string_view);
std::optional<Placement> parse_placement(std::string_view);
/// Widest image fftgen writes a kernel for: the texture size D3D12 and Metal guarantee (Vulkan
/// guarantees 4096; the runtime checks the device's maxImageDimension2D).
inline constexpr uint32_t kMaxTextureWidth = 16384;

/// Directions a DirectionSet expands to, forward first.
std::vector<Direction> directions_of(DirectionSet);

/// Largest prime factor a transform length may have without Bluestein's algorithm: every stage is a
/// codelet, and a codelet exists for each prime up to this one.
inline constexpr uint32_t kMaxPrimeFactor = 61;

namespace detail {
inline constexpr uint32_t kCompositeRadices[] = {4, 6, 8, 9, 10, 12, 15, 16, 32, 64};

constexpr bool is_prime(uint32_t n) {
  if (n < 2) return false;
  for (uint32_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

constexpr size_t radix_count() {
  size_t count = std::size(kCompositeRadices);
  for (uint32_t n = 2; n <= kMaxPrimeFactor; ++n) count += is_prime(n) ? 1 : 0;
  return count;
}

// kCompositeRadices and the primes up to kMaxPrimeFactor, ascending.
constexpr std::array<uint32_t, radix_count()> supported_radices() {
  std::array<uint32_t, radix_count()> radices{};
  constexpr uint32_t largest_composite = kCompositeRadices[std::size(kCompositeRadices) - 1];
  size_t count = 0;
  for (uint32_t n = 2; n <= largest_composite || n <= kMaxPrimeFactor; ++n) {
    bool composite = false;
    for (uint32_t c : kCompositeRadices) composite = composite || c == n;
    if (composite || (n <= kMaxPrimeFactor && is_prime(n))) radices[count++] = n;
  }
  return radices;
}
}  // namespace detail

/// Radices a plan may name (a codelet exists for each: codelet::kCodeletRadices): the primes up to
/// kMaxPrimeFactor, the powers of two up to 64 and the composites 6, 9, 10, 12, 15.
inline constexpr std::array<uint32_t, detail::radix_count()> kSupportedRadices = detail::supported_radices();

/// Longest 1D length with a larger prime factor (c2c and r2c): Bluestein's algorithm runs it
/// through two transforms of M >= 2N - 2, a power of two (M <= 2^25; one dispatch each up to 16384)
/// or, where the planner takes it, a smaller 7-smooth M (smooth_bluestein_length).
inline constexpr uint32_t kMaxBluesteinN = 1u << 24;
/// M of Bluestein's algorithm for N: the smallest power of two >= 2N - 2. The cyclic convolution
/// needs the filter's taps b[k] and b[M - k] (k < N) apart, except that the two copies of
/// b[N - 1] may share a slot: the chirp is even, so both hold the same value. That saves half of
/// M for N = 2^j + 1 (4097 takes M = 8192, not 16384).
inline uint32_t bluestein_length(uint32_t n) {
  uint32_t m = 1;
  while (m < 2 * n - 2) m *= 2;
  return m;
}
inline constexpr uint32_t kMaxLog2N = 24;
/// Largest side of a 2D transform: 2^13 = 8192.
inline constexpr uint32_t kMaxLog2Side = 13;

inline bool is_power_of_two(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }
/// ceil(log2 n).
inline uint32_t ceil_log2(uint64_t n) {
  uint32_t l = 0;
  while ((uint64_t{1} << l) < n) ++l;
  return l;
}
/// floor(log2 n) (n > 0).
inline uint32_t floor_log2(uint32_t n) {
  uint32_t l = 0;
  while ((n >> (l + 1)) != 0) ++l;
  return l;
}
/// The highest power of two that is at most n (n > 0).
inline uint32_t highest_power_of_two_in(uint32_t n) { return 1u << floor_log2(n); }
/// log2 of a power of two; anything else is a logic error (a shift would divide wrongly).
inline uint32_t log2_exact(uint64_t n) {
  if (!is_power_of_two(n)) throw std::logic_error("log2_exact: " + std::to_string(n) + " is not a power of two");
  return ceil_log2(n);
}

/// The largest prime factor of n (1 for n = 1).
inline uint64_t largest_prime_factor(uint64_t n) {
  uint64_t largest = 1;
  for (uint64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) largest = p, n /= p;
  return n > 1 ? n : largest;
}

/// The smallest 7-smooth M >= 2N - 2 (2^a 3^b 5^c 7^d): the other length Bluestein's transforms may
/// take (layout.cpp, bluestein_transform_layout, chooses between it and bluestein_length).
inline uint32_t smooth_bluestein_length(uint32_t n) {
  uint32_t m = 2 * n - 2;
  while (largest_prime_factor(m) > 7) ++m;
  return m;
}

/// A plan that is malformed or asks for something unsupported. The message names the kernel and
/// the field and lists what is allowed. The CLI maps it to exit code 1.
class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// glslang, the SPIR-V optimiser/validator or SPIRV-Cross rejected a generated shader.
/// what() holds the numbered source and the tool's log. The CLI maps it to exit code 2.
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fftgen
