// The interface between fftgen's kernels and whoever runs them, declared once: the generator
// (plan, program, GLSL printer, compile, manifest writer) and the runtime (manifest reader,
// kernels, buffers) both include this header, and nothing else declares these values.
//
// It holds the directions, buffer roles, element types, resources and image formats of
// docs/manifest.md with their byte sizes and their spellings in manifest.json (to_string /
// from_string), the binding slots of set 0 (the table the GLSL declarations, HLSL registers and
// Metal buffer indices come from), the push constants, the twiddle table's format, and the device
// requirements a kernel declares (manifest "requires": the names of the Vulkan features and limits it
// needs, and what each binding and pass adds to them). It depends on the C++17 standard library
// only, so that the installed runtime package ships it as it is.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fftgen {

enum class Direction { forward, inverse };

/// What a bound buffer is for. filter: a convolution's filter spectrum (the filter kernel's output,
/// read by the apply kernel). scratch2: a second scratch buffer of scratch's size. sync: the uint32
/// counters of a dispatch that runs several passes (pass_sync counters), zeroed once by the runtime;
/// every call leaves them zero.
enum class BufferRole { input, output, scratch, twiddles, filter, scratch2, sync };

/// How a pass uses a binding (manifest "access"): read_write is the one data binding of an in-place
/// kernel's pass that reads the buffer it writes (plan placement "in_place").
enum class Access { read, write, read_write };

/// What one element of a buffer holds: complex64 (8 bytes) or float32 (4 bytes, real data), or the
/// same in half floats (precision fp16): complex32 (4 bytes) and float16 (2 bytes). Shaders move
/// every data buffer as pairs (GLSL vec2, or f16vec2 converted on load and store): a real buffer as
/// pairs of consecutive reals, so push-constant strides count pairs. uint32: the counters of role
/// sync, never data. complex128 (16 bytes) and float64 (8 bytes): the same in doubles (precision
/// fp64: every buffer of the kernel, its twiddle table included, moved as GLSL dvec2).
enum class ElementType { complex64, float32, complex32, float16, uint32, complex128, float64 };

/// The texel format of a storage image (manifest "format" of a binding with "resource":
/// "storage_image", io image kernels): rg32f, rgba32f and rgba16f hold one complex value in (r, g)
/// (b and a written 0, never read); r32f one real.
enum class ImageFormat { rg32f, rgba32f, rgba16f, r32f };

/// What a binding is (manifest "resource"; absent: a storage buffer).
enum class Resource { storage_buffer, storage_image };

/// An optional Vulkan feature a kernel may need (manifest "requires": {"features": [...]}), spelt
/// as the member of the Vulkan features structure that enables it. A kernel whose buffers hold half
/// floats (precision fp16) needs storageBuffer16BitAccess (VkPhysicalDevice16BitStorageFeatures,
/// core in Vulkan 1.1); one with rg32f storage images needs shaderStorageImageExtendedFormats
/// (VkPhysicalDeviceFeatures). A new requirement (shaderFloat64 for fp64 kernels) is one more value
/// here, its spelling, and one row of the runtime's table of checks (runtime/src/requirements.cpp).
/// A kernel whose buffers hold doubles (precision fp64) needs shaderFloat64 (VkPhysicalDeviceFeatures).
enum class Feature { storage_buffer_16bit_access, shader_storage_image_extended_formats, shader_float64 };

/// A Vulkan limit (VkPhysicalDeviceLimits) a kernel needs at least a value of (manifest "requires":
/// {"limits": {name: value}}): the most over its passes, and for maxStorageBufferRange the bytes of
/// the largest buffer one transform binds (input, output, scratch or twiddle table).
enum class Limit {
  max_compute_shared_memory_size,
  max_compute_work_group_size_x,
  max_compute_work_group_size_y,
  max_compute_work_group_size_z,
  max_compute_work_group_invocations,
  max_push_constants_size,
  max_per_stage_descriptor_storage_buffers,
  max_per_stage_descriptor_storage_images,
  max_storage_buffer_range,
  max_image_dimension_2d,
};

namespace detail {
// Each enum's manifest spellings, in the order of its values.
template <typename E> struct Spellings;
template <> struct Spellings<Direction> {
  static constexpr std::array<const char*, 2> names{"forward", "inverse"};
};
template <> struct Spellings<BufferRole> {
  static constexpr std::array<const char*, 7> names{"input",   "output",   "scratch", "twiddles",
                                                    "filter",  "scratch2", "sync"};
};
template <> struct Spellings<Access> {
  static constexpr std::array<const char*, 3> names{"read", "write", "read_write"};
};
template <> struct Spellings<ElementType> {
  static constexpr std::array<const char*, 7> names{"complex64", "float32",    "complex32", "float16",
                                                    "uint32",    "complex128", "float64"};
};
template <> struct Spellings<ImageFormat> {
  static constexpr std::array<const char*, 4> names{"rg32f", "rgba32f", "rgba16f", "r32f"};
};
template <> struct Spellings<Resource> {
  static constexpr std::array<const char*, 2> names{"storage_buffer", "storage_image"};
};
template <> struct Spellings<Feature> {
  static constexpr std::array<const char*, 3> names{"storageBuffer16BitAccess", "shaderStorageImageExtendedFormats",
                                                    "shaderFloat64"};
};
template <> struct Spellings<Limit> {
  static constexpr std::array<const char*, 10> names{
      "maxComputeSharedMemorySize",          "maxComputeWorkGroupSize[0]",
      "maxComputeWorkGroupSize[1]",          "maxComputeWorkGroupSize[2]",
      "maxComputeWorkGroupInvocations",      "maxPushConstantsSize",
      "maxPerStageDescriptorStorageBuffers", "maxPerStageDescriptorStorageImages",
      "maxStorageBufferRange",               "maxImageDimension2D"};
};
template <typename E>
constexpr const char* spelling(E value) {
  const auto i = static_cast<std::size_t>(value);
  return i < Spellings<E>::names.size() ? Spellings<E>::names[i] : "?";
}
}  // namespace detail

/// The manifest's spelling of a value.
constexpr const char* to_string(Direction v) { return detail::spelling(v); }
constexpr const char* to_string(BufferRole v) { return detail::spelling(v); }
constexpr const char* to_string(Access v) { return detail::spelling(v); }
constexpr const char* to_string(ElementType v) { return detail::spelling(v); }
constexpr const char* to_string(ImageFormat v) { return detail::spelling(v); }
constexpr const char* to_string(Resource v) { return detail::spelling(v); }
constexpr const char* to_string(Feature v) { return detail::spelling(v); }
constexpr const char* to_string(Limit v) { return detail::spelling(v); }

/// The value spelt `text` in the manifest, e.g. from_string<BufferRole>("scratch2"); nullopt if none.
template <typename E>
constexpr std::optional<E> from_string(std::string_view text) {
  const auto& names = detail::Spellings<E>::names;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (text == names[i]) return static_cast<E>(i);
  return std::nullopt;
}

/// The spellings of E for an error message: "a, b or c".
template <typename E>
std::string spellings() {
  const auto& names = detail::Spellings<E>::names;
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return out;
}

constexpr bool is_half(ElementType t) { return t == ElementType::complex32 || t == ElementType::float16; }
/// Data in doubles (precision fp64).
constexpr bool is_double(ElementType t) { return t == ElementType::complex128 || t == ElementType::float64; }
constexpr bool is_real(ElementType t) {
  return t == ElementType::float32 || t == ElementType::float16 || t == ElementType::float64;
}
/// Bytes of one element.
constexpr uint32_t element_bytes(ElementType t) {
  if (is_double(t)) return is_real(t) ? 8 : 16;
  return t == ElementType::uint32 ? 4 : (is_real(t) ? 4 : 8) / (is_half(t) ? 2 : 1);
}
/// The same data in doubles (precision fp64): complex64 -> complex128, float32 -> float64.
constexpr ElementType in_double(ElementType t) {
  return t == ElementType::complex64 ? ElementType::complex128 : t == ElementType::float32 ? ElementType::float64 : t;
}
/// Elements of this type in one pair the shader moves (2 for real data).
constexpr uint32_t elements_per_pair(ElementType t) { return is_real(t) ? 2 : 1; }
/// Bytes of one pair (a complex value or two reals): 8, or 4 in half floats, 16 in doubles.
constexpr uint32_t pair_bytes(ElementType t) { return is_half(t) ? 4 : is_double(t) ? 16 : 8; }
/// Bytes of one texel.
constexpr uint32_t texel_bytes(ImageFormat f) {
  return f == ImageFormat::rgba32f ? 16 : f == ImageFormat::r32f ? 4 : 8;
}

// ---------------------------------------------------------------------------------------------
// Binding slots (descriptor set 0). Each is declared in GLSL as
// `layout(set = 0, binding = B) buffer <block> { vec2 data[]; } <name>;`: the instance name is what
// SPIRV-Cross names the HLSL and MSL resource (`src`, not `_102`). In the HLSL, binding B is
// register tB (read-only) or uB (written; also binding 0 of a pass that reads the buffer it writes);
// in the MSL it is [[buffer(B)]], or [[texture(B)]] for a storage image.

struct ResourceSlot {
  uint32_t binding;
  std::string_view block;  ///< GLSL block name
  std::string_view name;   ///< GLSL instance name; the values are <name>.data[i]
  Access access;
};
/// A pass reads binding 0 and writes binding 1, whatever buffer (input, output, scratch) is bound.
inline constexpr ResourceSlot kSourceSlot{0, "Src", "src", Access::read};
inline constexpr ResourceSlot kDestinationSlot{1, "Dst", "dst", Access::write};
inline constexpr ResourceSlot kTwiddleSlot{2, "Twiddles", "tw", Access::read};
inline constexpr ResourceSlot kFilterSlot{4, "Filter", "filt", Access::read};
/// A dispatch that runs several passes (pass_sync counters) binds each buffer role once: the input
/// at binding 0, the output at binding 1 (read and written), the scratch buffers and the counters
/// at their own slots.
inline constexpr ResourceSlot kScratchSlot{5, "Scratch", "scratch", Access::write};
inline constexpr ResourceSlot kScratch2Slot{6, "Scratch2", "scratch2", Access::write};
inline constexpr ResourceSlot kSyncSlot{7, "Sync", "sync", Access::write};
inline constexpr ResourceSlot kResourceSlots[] = {kSourceSlot,  kDestinationSlot, kTwiddleSlot, kFilterSlot,
                                                  kScratchSlot, kScratch2Slot,    kSyncSlot};

/// The slot of a role where each role has one (a dispatch of several passes, and twiddles and
/// filter everywhere).
constexpr ResourceSlot slot_of(BufferRole role) {
  switch (role) {
    case BufferRole::input: return kSourceSlot;
    case BufferRole::output: return kDestinationSlot;
    case BufferRole::twiddles: return kTwiddleSlot;
    case BufferRole::filter: return kFilterSlot;
    case BufferRole::scratch: return kScratchSlot;
    case BufferRole::scratch2: return kScratch2Slot;
    case BufferRole::sync: return kSyncSlot;
  }
  return kSourceSlot;
}

/// Metal: the push constants are [[buffer(kMslPushConstantBuffer)]]; binding B is [[buffer(i)]], or
/// [[texture(i)]] for a storage image, with i = msl_index(B).
inline constexpr uint32_t kMslPushConstantBuffer = 3;
constexpr uint32_t msl_index(uint32_t binding) { return binding; }
/// HLSL: binding B's register, "tB" (read-only, a ByteAddressBuffer) or "uB" (a UAV).
inline std::string hlsl_register(uint32_t binding, bool uav) { return (uav ? "u" : "t") + std::to_string(binding); }

namespace detail {
constexpr bool slots_clear_of_push_constants() {
  for (const ResourceSlot& s : kResourceSlots)
    if (msl_index(s.binding) == kMslPushConstantBuffer) return false;
  return true;
}
}  // namespace detail
static_assert(detail::slots_clear_of_push_constants(), "a binding slot takes Metal's push-constant buffer index");

// ---------------------------------------------------------------------------------------------
// Push constants: one uint32 each, in this order, in every pass.

struct PushConstantSlot {
  std::string_view name;
  std::string_view comment;  ///< what it holds, as written in the GLSL block
};
inline constexpr PushConstantSlot kPushConstants[] = {
    {"batch", "transforms to compute"},
    {"group_offset", "first workgroup of this dispatch, when a large grid is split"},
    {"src_stride", "complex elements between consecutive transforms at binding 0"},
    {"dst_stride", "... at binding 1"},
};
inline constexpr std::size_t kPushConstantCount = sizeof(kPushConstants) / sizeof(kPushConstants[0]);
inline constexpr uint32_t kPushConstantBytes = 4 * kPushConstantCount;
/// The manifest's "type" of every push constant.
inline constexpr const char* kPushConstantType = "uint32";
/// The names, for whoever writes them.
inline constexpr std::string_view kPushBatch = kPushConstants[0].name;
inline constexpr std::string_view kPushGroupOffset = kPushConstants[1].name;
inline constexpr std::string_view kPushSrcStride = kPushConstants[2].name;
inline constexpr std::string_view kPushDstStride = kPushConstants[3].name;
/// Byte offset of the push constant called `name` in the block (kPushConstantBytes if none).
constexpr uint32_t push_constant_offset(std::string_view name) {
  for (std::size_t i = 0; i < kPushConstantCount; ++i)
    if (kPushConstants[i].name == name) return static_cast<uint32_t>(4 * i);
  return kPushConstantBytes;
}

// ---------------------------------------------------------------------------------------------
// The twiddle table's file (manifest "twiddles": {"format": ...}).

/// The format fftgen writes: complex values as pairs of little-endian float32s.
inline constexpr const char* kTwiddleFormat = "float32 pairs (re, im), little-endian";
/// An fp64 kernel's table: pairs of little-endian float64s (its twiddle binding is complex128).
inline constexpr const char* kTwiddleFormatDouble = "float64 pairs (re, im), little-endian";
/// Bytes of one value of a twiddle file in `format`; nullopt for a format this version does not know.
constexpr std::optional<uint32_t> twiddle_value_bytes(std::string_view format) {
  if (format == kTwiddleFormat) return 8;
  if (format == kTwiddleFormatDouble) return 16;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Device requirements (manifest "requires"). The generator writes them from its passes, the runtime
// reads them and derives the same from the passes it parsed (refusing a manifest that declares less
// than its passes need), then checks the device against both (runtime/src/requirements.cpp).

/// The manifest's keys: "requires": {"features": [...], "limits": {...}, "storage_image_formats": [...]}.
inline constexpr const char* kRequiresKey = "requires";
inline constexpr const char* kRequiresFeatures = "features";
inline constexpr const char* kRequiresLimits = "limits";
inline constexpr const char* kRequiresImageFormats = "storage_image_formats";

inline constexpr std::size_t kFeatureCount = detail::Spellings<Feature>::names.size();
inline constexpr std::size_t kLimitCount = detail::Spellings<Limit>::names.size();
inline constexpr std::size_t kImageFormatCount = detail::Spellings<ImageFormat>::names.size();

/// The feature a binding holding `element` needs, if any.
constexpr std::optional<Feature> feature_for(ElementType element) {
  if (is_half(element)) return Feature::storage_buffer_16bit_access;
  if (is_double(element)) return Feature::shader_float64;
  return std::nullopt;
}
/// The feature a storage image of `format` needs, if any (Vulkan's extended storage formats).
constexpr std::optional<Feature> feature_for(ImageFormat format) {
  if (format == ImageFormat::rg32f) return Feature::shader_storage_image_extended_formats;
  return std::nullopt;
}

/// What a kernel needs of a device: features, the least value of each limit (0: none), and the
/// formats it uses as storage images (each needs VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT).
struct DeviceRequirements {
  std::array<bool, kFeatureCount> features{};
  std::array<uint64_t, kLimitCount> limits{};
  std::array<bool, kImageFormatCount> image_formats{};

  constexpr bool needs(Feature f) const { return features[static_cast<std::size_t>(f)]; }
  constexpr bool needs(ImageFormat f) const { return image_formats[static_cast<std::size_t>(f)]; }
  constexpr uint64_t least(Limit l) const { return limits[static_cast<std::size_t>(l)]; }

  constexpr void need(Feature f) { features[static_cast<std::size_t>(f)] = true; }
  constexpr void need(Limit l, uint64_t value) {
    uint64_t& v = limits[static_cast<std::size_t>(l)];
    v = value > v ? value : v;
  }
  /// A pass: its shared memory, workgroup, push constants, and how many storage buffers and
  /// images it binds.
  constexpr void need_pass(uint64_t shared_bytes, const uint64_t (&local_size)[3], uint64_t push_constant_bytes,
                           uint64_t buffers, uint64_t images) {
    need(Limit::max_compute_shared_memory_size, shared_bytes);
    need(Limit::max_compute_work_group_size_x, local_size[0]);
    need(Limit::max_compute_work_group_size_y, local_size[1]);
    need(Limit::max_compute_work_group_size_z, local_size[2]);
    need(Limit::max_compute_work_group_invocations, local_size[0] * local_size[1] * local_size[2]);
    need(Limit::max_push_constants_size, push_constant_bytes);
    need(Limit::max_per_stage_descriptor_storage_buffers, buffers);
    need(Limit::max_per_stage_descriptor_storage_images, images);
  }
  /// A binding of `element`s; for a storage image also its format, texels per row and rows.
  constexpr void need_binding(ElementType element) {
    if (const auto f = feature_for(element)) need(*f);
  }
  constexpr void need_image(ImageFormat format, uint64_t width, uint64_t rows) {
    image_formats[static_cast<std::size_t>(format)] = true;
    if (const auto f = feature_for(format)) need(*f);
    need(Limit::max_image_dimension_2d, width);
    need(Limit::max_image_dimension_2d, rows);
  }
  /// Everything `other` needs as well.
  constexpr void add(const DeviceRequirements& other) {
    for (std::size_t i = 0; i < kFeatureCount; ++i) features[i] = features[i] || other.features[i];
    for (std::size_t i = 0; i < kLimitCount; ++i) need(static_cast<Limit>(i), other.limits[i]);
    for (std::size_t i = 0; i < kImageFormatCount; ++i) image_formats[i] = image_formats[i] || other.image_formats[i];
  }
  /// Whether this asks at least what `other` asks.
  constexpr bool covers(const DeviceRequirements& other) const {
    for (std::size_t i = 0; i < kFeatureCount; ++i)
      if (other.features[i] && !features[i]) return false;
    for (std::size_t i = 0; i < kLimitCount; ++i)
      if (other.limits[i] > limits[i]) return false;
    for (std::size_t i = 0; i < kImageFormatCount; ++i)
      if (other.image_formats[i] && !image_formats[i]) return false;
    return true;
  }
};

}  // namespace fftgen
