// generator/plan: parse and validate a JSON plan and expand list-valued fields into variants.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "fftgen/types.hpp"

namespace fftgen {

/// The largest workgroup_size a plan may set (the invocations Vulkan guarantees a workgroup).
inline constexpr uint64_t kMaxWorkgroupSize = 1024;
/// The most complex values a plan may ask each invocation to hold (values_per_invocation).
inline constexpr uint32_t kMaxValuesPerInvocation = 64;

/// A fused convolution (plan field "convolution", docs/graphics.md): out = image ⊛ filter per
/// channel, computed as r2c of the zero-padded image (c2c of pairs of channels), a multiplication
/// by the filter's spectrum and c2r (c2c), over planes of padded_h × padded_w.
struct ConvolutionSpec {
  uint32_t image_h = 0, image_w = 0;
  uint32_t filter_h = 0, filter_w = 0;
  uint32_t channels = 1;         ///< of the image, interleaved: [H, W, C]
  uint32_t filter_channels = 1;  ///< 1 (one filter for every channel) or `channels` ([KH, KW, C])
  bool circular = false;         ///< "circular": the image wraps around; "same": zero padding
  /// "packing": "pairs": channels 2k and 2k+1 are the real and imaginary parts of one complex (c2c)
  /// plane, multiplied by the filter's full spectrum (one filter for every channel); "r2c": each
  /// channel is its own r2c plane.
  bool pairs = false;
  /// The plane the transforms run over: the image itself ("circular"), or for "same" the plane
  /// choose_padded_plane() picks (docs/graphics.md, "The padded plane"); `padding` says why.
  uint32_t padded_h = 0, padded_w = 0;
  bool padded_by_plan = false;  ///< the plan named the plane ("padded"), so the planner keeps it
  std::string padding;
  /// The filter tap that lands on the output pixel it is applied at (scipy's fftconvolve "same").
  uint32_t centre_y() const { return (filter_h - 1) / 2; }
  uint32_t centre_x() const { return (filter_w - 1) / 2; }
  /// Transforms (planes) per image: a batch entry of the apply kernel is one plane.
  uint32_t planes() const { return pairs ? (channels + 1) / 2 : channels; }
};

/// One kernel variant with every field resolved to a single value.
struct KernelSpec {
  std::string name;       ///< unique variant name, e.g. "fft4096__divmod__computed"
  std::string plan_name;  ///< the kernel's name in the plan, e.g. "fft4096"
  std::vector<uint32_t> shape;            ///< [N] for 1D, [NY, NX] for 2D, [NZ, NY, NX] for 3D (row-major, X contiguous)
  Transform transform = Transform::c2c;
  DirectionSet direction = DirectionSet::both;
  Normalize normalize = Normalize::inverse;
  std::vector<uint32_t> radices;          ///< empty means "auto"
  IndexMath index_math = IndexMath::bitwise;
  TwiddleSource twiddles = TwiddleSource::automatic;  ///< as the plan says; twiddle_source() resolves it
  uint32_t workgroup_size = 0;            ///< 0 means "auto"
  Precision precision = Precision::fp32;
  uint32_t shared_memory_bytes = 32768;   ///< budget per workgroup
  Io io = Io::buffer;                     ///< buffers, or storage images in and out
  /// The images' format (io image; resolved from "auto" when parsed). An r2c kernel's real side
  /// is r32f and its half spectrum rg32f.
  TextureFormat image_format = TextureFormat::automatic;
  /// A 2D kernel's values between its X and Y passes (resolved by make_program; "auto" here).
  IntermediateLayout intermediate_layout = IntermediateLayout::automatic;
  /// Where a 2D kernel's first stage along Y runs (resolved by make_layout; "auto" here).
  FirstYStage first_y_stage = FirstYStage::automatic;
  /// How a multi-pass kernel's passes wait for each other (resolved by make_program; "auto" here).
  PassSync pass_sync = PassSync::automatic;
  /// pass_sync counters: transforms between a pass's work on a transform and the next pass's work
  /// on it in the order workgroups take work (CounterSchedule::lag); 0 means "auto".
  uint32_t counter_lag = 0;
  /// Complex values each invocation of a pass along X that holds whole rows keeps in registers (E);
  /// the pass takes the fewest invocations a row whose every stage's butterflies fit in E values. 0
  /// means "auto": one butterfly of the largest radix an invocation.
  uint32_t values_per_invocation = 0;
  /// Whether the output overwrites the input in one buffer (make_program binds one data buffer).
  Placement placement = Placement::out_of_place;
  /// The plan's targets include msl: Metal promises no progress to a threadgroup that waits on
  /// another, so such a kernel keeps one dispatch per pass (pass_sync counters is refused).
  bool targets_metal = false;
  /// The plan's targets include hlsl or msl: a kernel planned beyond their kTextTargetSharedBytes
  /// gets those files laid out again within it, and the rows of a 2D or 3D kernel are then split
  /// as they would be within it (one twiddle table for every target).
  bool targets_hlsl_msl = false;
  /// The plan's "device_shared_memory_bytes": the shared memory per workgroup every device the plan
  /// is for offers (32768 unless the plan says more, which only Vulkan's targets may).
  uint32_t device_shared_memory_bytes = 32768;
  /// Internal (no plan field): the sizes of the two passes of a 1D transform whose length is not a
  /// power of two, first pass first, where the planner ranks splits (rank_real_split); empty: the
  /// split's own choice.
  std::vector<uint32_t> pass_sizes;
  /// The plan's targets include wgsl: the kernel is planned within WebGPU's default limits for
  /// every target (kWebGpuLimits), as one manifest pass describes every target's file.
  bool targets_webgpu = false;
  /// Kernel fields the plan gave for this kernel (as one value or a list, "auto" included), e.g.
  /// {"name", "shape", "shared_memory_bytes"}. apply_wisdom() never changes these.
  std::set<std::string> explicit_fields;
  /// Set for a convolution kernel: its shape is the padded plane, its transform r2c (c2c where
  /// the channels are packed in pairs). The plan kernel becomes two manifest kernels: the filter
  /// kernel (`convolution_filter`, forward only, the filter's half spectrum, or whole spectrum for
  /// pairs, scaled by 1/(padded_h·padded_w)) and the apply kernel.
  std::optional<ConvolutionSpec> convolution;
  bool convolution_filter = false;

  /// N along X (the contiguous axis): the transform length of a 1D kernel.
  uint32_t n() const { return shape.empty() ? 0 : shape.back(); }
  /// NY of a 2D or 3D kernel, 1 for 1D.
  uint32_t ny() const { return shape.size() >= 2 ? shape[shape.size() - 2] : 1; }
  /// NZ of a 3D kernel, 1 otherwise.
  uint32_t nz() const { return shape.size() == 3 ? shape.front() : 1; }
  bool is_2d() const { return shape.size() == 2; }
  bool is_3d() const { return shape.size() == 3; }
  /// Points of one transform (the logical input size): NZ * NY * NX.
  uint64_t points() const { return uint64_t{nz()} * ny() * n(); }
  /// The twiddles the kernel uses. "auto" computes them for fp16 storage, whose rounding to 11
  /// bits hides the ~2^-21 error of the GPU's sin/cos, and saves the table's loads (H100, 2D C2C
  /// fp16: 512² 0.394 -> 0.383 ms, 1024² 0.432 -> 0.428, errors unchanged); fp32 keeps the table,
  /// since computed twiddles double its error (bench/results/2026-11-27-h100-twiddles). Except a
  /// convolution of padded rows where the table of measured choices says so: its inverse rows, which also
  /// crop and store the pixels, take fewer registers with the table (wide planes only; narrower planes
  /// are faster computed; MeasuredDecision::fp16_table_twiddles).
  TwiddleSource twiddle_source() const;
};

/// WebGPU's default limits a kernel with the wgsl target is planned within (the limits an adapter
/// grants without asking: maxComputeWorkgroupStorageSize, maxComputeInvocationsPerWorkgroup).
struct TargetLimits {
  uint32_t shared_memory_bytes;
  uint32_t invocations;
};
inline constexpr TargetLimits kWebGpuLimits{16384, 256};

/// The most invocations a workgroup of `spec` may have (its targets' limit).
uint32_t max_invocations(const KernelSpec& spec);

struct KernelProgram;

/// The least side of a "same" convolution's circular plane for an image side H and a filter side
/// K: H + ceil((K - 1) / 2), and at least K. The plane holds tap k of the filter at
/// (k - (K - 1) / 2) mod P (centre_y(), centre_x()) and the crop keeps outputs 0..H-1, so output i
/// takes image pixel (i + (K - 1) / 2 - k) mod P; the taps that wrap past either end land on the
/// zeros beyond the image once P >= H + ceil((K - 1) / 2) (for K <= 2H one less puts the last tap
/// on the image's last pixel), and P >= K keeps every tap (tests/test_plan.cpp checks both).
uint32_t same_padding_minimum(uint32_t image, uint32_t filter);

/// The sides a plane of at least `minimum` may take: the lengths from `minimum` up to the next
/// power of two whose prime factors are at most 7 (even ones only where `even`: an r2c plane's
/// rows), ascending. The power of two itself is always among them.
std::vector<uint32_t> padding_candidates(uint32_t minimum, bool even);

/// Estimated time of a convolution's apply kernel over its padded plane (c.padded_h x c.padded_w),
/// in units of one power-of-two plane value through one pass: each pass of `apply` counts the
/// values it transforms (a row pass that skips the padding rows: the image's rows; a column round
/// trip weighed by its kind: PaddingWeights), times a factor per side for radices 3, 5 and 7.
/// `budget_bytes`: the kernel's shared_memory_bytes (a round trip whose exchange takes all of it).
double padding_cost(const ConvolutionSpec& c, const KernelProgram& apply, uint32_t budget_bytes);
/// The least padding_cost() any apply kernel of that plane can have: rows each way and one column
/// pass.
double padding_cost_floor(const ConvolutionSpec& c);

struct CrossCompileOptions {
  uint32_t hlsl_shader_model = 50;  ///< 50 = SM 5.0, 60 = SM 6.0, ...
  uint32_t msl_version_major = 2;
  uint32_t msl_version_minor = 0;
};

/// A variant a sweep leaves out: no kernel can have that combination of field values.
struct SkippedVariant {
  std::string name;    ///< the variant's name, e.g. "fft64__r4x4x4__smem1024"
  std::string reason;  ///< the plan error a plan of that variant alone gets
};

/// D3D12 caps groupshared memory at 32 KB per thread group, as Metal caps threadgroup memory: the
/// HLSL and MSL of a kernel that uses more are written from the kernel laid out again within this.
inline constexpr uint32_t kTextTargetSharedBytes = 32768;

struct Plan {
  std::vector<KernelSpec> kernels;  ///< after expansion; names unique
  std::vector<SkippedVariant> skipped;  ///< only from parse_sweep_plan
  std::vector<Target> targets;      ///< default: all four, in enum order
  CrossCompileOptions cross;
  std::string wisdom;               ///< name of the wisdom table applied (apply_wisdom), if any
  std::string wisdom_sha256;        ///< SHA-256 of that table's text, lower-case hex
};

/// A plan may expand to at most this many variants in all (at ~0.35 s of compiling a variant, 4096
/// are already some 25 minutes); more is almost surely a mistake in the value lists, refused with
/// the count before any work.
inline constexpr std::size_t kMaxPlanVariants = 4096;

/// Parses plan text (JSON). `source` names the plan in messages ("plan.json").
/// Throws PlanError on any malformed or unsupported input.
Plan parse_plan(const std::string& text, const std::string& source = "plan");
Plan parse_plan(const nlohmann::json& doc, const std::string& source = "plan");
/// Plan text given as a C string. Without this overload a string literal would be ambiguous:
/// nlohmann::json is implicitly constructible from const char* as well (as a JSON string value).
Plan parse_plan(const char* text, const std::string& source = "plan");

/// As parse_plan, but a variant whose combination of values no kernel can have (radices that do not
/// multiply to N, a layout that does not fit the shared memory) is left out and listed in
/// Plan::skipped with the reason, instead of failing the plan. Other errors still throw.
Plan parse_sweep_plan(const std::string& text, const std::string& source = "plan");

/// One kernel field of the plan format: the field registry that the parser, the variant names,
/// wisdom and `fftgen --list-variants` share.
struct PlanField {
  std::string name;
  nlohmann::json default_value;  ///< spelt as in a plan ("auto", "c2c", 32768); null where required
  bool wisdom_tunable = false;   ///< a wisdom winner may set it (it changes speed, not results)
  /// Put before the value in a variant's name when the kernel lists several values: "__smem" + "49152".
  std::string suffix;
};

/// The kernel fields in expansion order (the first varies slowest, suffixes follow this order).
const std::vector<PlanField>& plan_fields();

/// Every field of a variant, spelt as in a plan: {"name": plan name, "shape": [4096], ...,
/// "radices": "auto" or [8, 8, 64], "workgroup_size": "auto" or 256, ...}.
nlohmann::ordered_json variant_fields(const KernelSpec& kernel);

/// What wisdom changed in one kernel variant.
struct WisdomChange {
  std::string kernel;  ///< the variant's name, e.g. "fft4096"
  std::size_t entry = 0;  ///< index of the table entry in "sizes"
  /// (field, value) in plan-field order, the value spelt as in a plan: "49152", "divmod", "[8, 8, 16]".
  std::vector<std::pair<std::string, std::string>> fields;
  std::optional<double> winner_gbps;   ///< the entry's measured figures, when it gives them
  std::optional<double> default_gbps;
};

/// The kind of kernel a wisdom entry applies to, spelt as a table entry spells it (docs/plan.md,
/// "Wisdom tables"), every part given: {"shape": [NY, NX] or [N], "transform", "io", "precision"},
/// or for both kernels of a convolution {"convolution": {"image", "filter", "channels", "mode",
/// "packing"}, "precision"}. Kernels of equal keys take the same entry.
nlohmann::ordered_json wisdom_key(const KernelSpec& kernel);

/// Throws PlanError, with the generator's reason, where the generator cannot build `kernel` (the
/// check the plan parser makes of every variant: its layout, or its program for image, counters
/// and convolution kernels).
void check_buildable(const KernelSpec& kernel);

/// Sets a wisdom-tunable field (PlanField::wisdom_tunable) of `kernel` to `value`, spelt as in a
/// plan ("auto", 256, [8, 8, 16]); throws PlanError for another field or a bad value.
void set_tunable_field(KernelSpec& kernel, const std::string& field, const nlohmann::json& value);

/// Applies a per-device wisdom table (bench/wisdom/<device>.json, written by `fftgen tune`) to
/// every kernel variant of `plan`: the entry whose key is the variant's wisdom_key() sets each
/// field of its winner (radices, index_math, twiddles, workgroup_size, shared_memory_bytes: fields
/// that change how fast a kernel runs, never what it computes) that the plan did not set for that
/// kernel (KernelSpec::explicit_fields). Kernels the table lacks are left alone; entries for kinds
/// the plan does not use are ignored. The whole table is validated first, through the plan parser's field
/// checks; a malformed table, a bad value or a combination the layout cannot build throws
/// PlanError naming `wisdom_name`, the entry and the field, and leaves `plan` unchanged. Returns
/// one change per variant that wisdom changed, in plan order (a winner value equal to the
/// variant's own is no change).
std::vector<WisdomChange> apply_wisdom(Plan& plan, const std::string& wisdom_text, const std::string& wisdom_name);

}  // namespace fftgen
