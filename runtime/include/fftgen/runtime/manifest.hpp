// The contents of manifest.json (docs/manifest.md), parsed and checked, with nothing Vulkan in
// it yet.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fftgen/interface.hpp"

namespace fftgen::vk {

// The kernels' interface, declared once for the generator and the runtime (fftgen/interface.hpp):
// directions, buffer roles, element types, image formats and their sizes, binding slots, push constants, and the
// manifest's spellings of them.
using fftgen::Access;
using fftgen::DeviceRequirements;
using fftgen::Feature;
using fftgen::Limit;
using fftgen::BufferRole;
using fftgen::Direction;
using fftgen::ElementType;
using fftgen::ImageFormat;
using fftgen::Resource;
using fftgen::element_bytes;
using fftgen::elements_per_pair;
using fftgen::from_string;
using fftgen::is_double;
using fftgen::is_half;
using fftgen::is_real;
using fftgen::pair_bytes;
using fftgen::texel_bytes;
using fftgen::to_string;

/// A binding that is a storage image (manifest "resource": "storage_image"): `width` texels per
/// row, `rows_per_transform` rows per transform, transforms one below the other (height = batch ×
/// rows_per_transform). Value e of the pass's view is texel (e mod width, e div width).
struct StorageImage {
  ImageFormat format = ImageFormat::rg32f;
  uint32_t width = 0;
  uint32_t rows_per_transform = 1;
  uint64_t height(uint32_t batch) const { return uint64_t{batch} * rows_per_transform; }
};

struct PassBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  BufferRole role = BufferRole::input;
  bool writes = false;  ///< access "write"
  ElementType element = ElementType::complex64;
  /// Elements between consecutive batch entries of the pass in this buffer when it is contiguous
  /// (manifest version 2; version 1: N).
  uint64_t stride = 0;
  /// Set when the binding is a storage image rather than a storage buffer.
  std::optional<StorageImage> image;
};

struct PushConstant {
  std::string name;  ///< batch, group_offset, src_stride, dst_stride
  uint32_t offset = 0;
  std::string type;  ///< "uint32" (kPushConstantType)
};

struct PassInfo {
  std::string name;                                ///< fwd0, fwd1, inv0, ...
  std::map<std::string, std::string> files;        ///< target -> file name
  std::map<std::string, std::string> entry_points; ///< target -> entry point
  uint32_t local_size[3] = {1, 1, 1};
  uint32_t size = 0;                               ///< sub-transform length of this pass
  std::vector<uint32_t> stages;
  uint64_t stride = 1;
  uint32_t batch_scale = 1;   ///< batch entries per transform (the rows of a 2D kernel's X pass)
  uint32_t columns_per_transform = 1;
  uint32_t columns_per_workgroup = 1;
  std::vector<PassBinding> bindings;
  std::vector<PushConstant> push_constants;
  uint32_t push_constant_bytes = 0;
  uint32_t shared_memory_bytes = 0;
  /// "pass_sync": "counters": the workgroups per transform of each pass this one dispatch runs
  /// ("counters" "passes" "workgroups_per_transform"), in the order its workgroups take tickets,
  /// and the lag in rounds between a pass's work on a transform and the next pass's ("lag"; the
  /// generator's CounterSchedule). Empty for a dispatch of one pass.
  std::vector<uint32_t> counter_items;
  uint32_t counter_lag = 0;
  uint32_t counter_passes() const { return static_cast<uint32_t>(counter_items.size()); }
  /// uint32 counters the sync binding holds for `batch` transforms: 1 + (passes - 1) * batch.
  uint64_t sync_counters(uint64_t batch) const {
    return counter_items.empty() ? 0 : 1 + uint64_t{counter_passes() - 1} * batch;
  }
  /// Tickets (workgroups) of the rounds before `round`: round r holds pass p's workgroups of
  /// transform r - p * lag.
  uint64_t tickets_before(uint64_t round, uint64_t batch) const;

  /// The push constant called `name`, or nullptr.
  const PushConstant* push_constant(const std::string& name) const;
  /// Workgroups to dispatch for `batch` transforms: ceil(batch * batch_scale * C_t / C_w).
  uint64_t workgroups(uint64_t batch) const;
};

struct TwiddleTable {
  std::string file;
  uint64_t count = 0;        ///< values (complex)
  uint32_t value_bytes = 8;  ///< bytes of one value, as the manifest's "format" says
  uint64_t bytes() const { return count * value_bytes; }
};

/// What a kernel's input or output buffer holds per transform.
struct BufferShape {
  ElementType element = ElementType::complex64;
  uint64_t elements = 0;
  uint64_t bytes() const { return elements * element_bytes(element); }
};

/// A fused convolution (manifest "convolution", docs/graphics.md): the apply kernel (transform
/// "convolution") and its filter kernel (transform "convolution_filter") carry the same one.
struct ConvolutionInfo {
  uint32_t image_h = 0, image_w = 0, filter_h = 0, filter_w = 0;
  uint32_t channels = 1, filter_channels = 1;
  /// Transforms per image, the apply kernel's batch: `channels` (packing r2c) or channels packed two
  /// per complex plane (packing pairs, whose filter spectra are full complex planes).
  uint32_t planes = 1;
  std::string packing = "r2c";  ///< r2c | pairs
  uint32_t channels_per_plane() const { return packing == "pairs" ? 2 : 1; }
  /// How the filter kernel lays out each filter spectrum (PH rows of `spectrum_columns()`): "rows"
  /// (row-major, as the data) or "columns" (column by column: value k of column j at j * PH + k).
  std::string filter_layout = "rows";
  uint32_t spectrum_columns() const { return packing == "pairs" ? padded_w : padded_w / 2 + 1; }
  std::string mode = "same";  ///< same | circular
  uint32_t padded_h = 0, padded_w = 0;
  uint32_t centre_y = 0, centre_x = 0;
  std::string filter_kernel, apply_kernel;
};

struct KernelInfo {
  std::string name;
  std::string plan_kernel;
  std::vector<uint32_t> shape;     ///< [N] or [NY, NX]
  std::string transform = "c2c";   ///< c2c, r2c (its inverse is c2r) or r2c_pair
  /// The forward direction's input and output (the inverse's are the other way round).
  BufferShape forward_input, forward_output;
  std::vector<Direction> directions;
  std::string normalize = "none";  ///< none | inverse | ortho (for information; the factors are below)
  /// The factor each direction's kernel applies: the manifest's "scale", which is what the plan's
  /// normalisation asked for except where a kernel scales otherwise (an fp16 convolution's apply
  /// kernel takes 1/sqrt(N) both ways with normalize "none"). 1 for a direction the kernel lacks.
  double forward_scale = 1.0;
  double inverse_scale = 1.0;
  nlohmann::json options;          ///< resolved plan options, as written
  std::optional<TwiddleTable> twiddles;
  uint64_t scratch_elements = 0;   ///< complex values per transform (8 bytes, or 4 in fp16)
  std::vector<PassInfo> forward;
  std::vector<PassInfo> inverse;
  std::optional<ConvolutionInfo> convolution;
  /// What the manifest's "requires" declares the kernel needs of a device (features, limits,
  /// storage-image formats); at least what its passes need (parse_manifest checks). Empty for a
  /// manifest without "requires" (older fftgen): requirements_of() adds what the passes need.
  DeviceRequirements requirements;

  /// N along X (the transform length of a 1D kernel).
  uint32_t n() const { return shape.empty() ? 0 : shape.back(); }
  /// NY of a 2D or 3D kernel, 1 for 1D.
  uint32_t ny() const { return shape.size() >= 2 ? shape[shape.size() - 2] : 1; }
  /// Points of one transform: the product of the sides.
  uint64_t points() const {
    uint64_t p = shape.empty() ? 0 : 1;
    for (uint32_t side : shape) p *= side;
    return p;
  }
  /// Rows of one transform along X: NY in 2D, NZ * NY in 3D, 1 in 1D.
  uint64_t rows() const { return n() == 0 ? 0 : points() / n(); }
  bool has(Direction d) const;
  const BufferShape& input(Direction d) const { return d == Direction::forward ? forward_input : forward_output; }
  const BufferShape& output(Direction d) const { return d == Direction::forward ? forward_output : forward_input; }
  const std::vector<PassInfo>& passes(Direction d) const {
    return d == Direction::forward ? forward : inverse;
  }
  /// The storage image a direction reads its input from (binding 0 of its first pass) or writes
  /// its output to (binding 1 of its last pass); nullptr where that is a buffer.
  const StorageImage* input_image(Direction d) const;
  const StorageImage* output_image(Direction d) const;
  /// Whether any direction reads or writes a storage image (io image).
  bool uses_images() const;
  /// Whether the kernel works in place (options "placement": "in_place"): its input and output are
  /// one buffer, bound as KernelIo::output; an r2c kernel's rows of reals are 2 (NX/2 + 1) apart.
  bool in_place() const { return options.is_object() && options.value("placement", "") == "in_place"; }
  /// Pairs of floats (complex values) per transform of an in-place kernel's one data buffer.
  uint64_t data_pairs() const {
    return std::max(forward_input.elements / elements_per_pair(forward_input.element),
                    forward_output.elements / elements_per_pair(forward_output.element));
  }
};

/// The bytes of one file a manifest names, held in memory by the caller (not copied; they must
/// outlive the FileSource): what `fftgen --headers` embeds.
struct MemoryFile {
  std::string name;  ///< the name the manifest uses, e.g. "fft1024.fwd0.spv"
  const void* data = nullptr;
  std::size_t size = 0;  ///< bytes
};

/// Where the files a manifest names (each pass's SPIR-V, twiddle tables) are read from: a folder
/// (the one holding manifest.json) or memory.
class FileSource {
 public:
  /// Files in `directory`; "" is the current directory. Implicit, so that a folder can be passed
  /// wherever a FileSource is expected.
  FileSource(std::filesystem::path directory = {});
  /// Files in memory. `files` is any range of objects with members `name` (convertible to
  /// std::string), `data` and `size`, such as the `files` array of the header that
  /// `fftgen --headers` writes.
  template <typename Range>
  static FileSource in_memory(const Range& files) {
    std::vector<MemoryFile> list;
    for (const auto& f : files) list.push_back({std::string(f.name), f.data, f.size});
    return in_memory_files(std::move(list));
  }
  static FileSource in_memory_files(std::vector<MemoryFile> files);

  /// The bytes of the file called `name`. Throws ManifestError naming the file if there is none.
  std::vector<char> read(const std::string& name) const;
  /// How messages name the file: its path, or "'name' (embedded)".
  std::string describe(const std::string& name) const;
  bool in_memory() const { return memory_ != nullptr; }
  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  std::shared_ptr<const std::map<std::string, MemoryFile>> memory_;
};

struct Manifest {
  std::filesystem::path directory;  ///< where manifest.json lies; files are relative to it
  FileSource files;                 ///< where the files it names are read from
  int format_version = 1;
  std::string generator;
  std::string plan;
  std::vector<std::string> targets;
  std::vector<KernelInfo> kernels;

  /// The kernel called `name`; throws ManifestError listing the available names if none.
  const KernelInfo& kernel(const std::string& name) const;
  const KernelInfo* find(const std::string& name) const;
  std::vector<std::string> kernel_names() const;
};

/// Reads and checks `path` (a manifest.json, or a directory holding one). Throws ManifestError.
Manifest load_manifest(const std::filesystem::path& path);
/// Checks an already parsed document; `source` names it in messages.
Manifest parse_manifest(const nlohmann::json& doc, const std::string& source,
                        const std::filesystem::path& directory);
/// Parses manifest.json's text, e.g. the `manifest` string of the header `fftgen --headers`
/// writes; the files it names are read from `files`. Throws ManifestError.
Manifest parse_manifest_text(std::string_view text, const std::string& source, FileSource files);

/// Reads a whole binary file. Throws ManifestError naming the file if it cannot.
std::vector<char> read_binary_file(const std::filesystem::path& path);
/// Reads a .spv file into words, checking the size and the SPIR-V magic number.
std::vector<uint32_t> read_spirv_file(const std::filesystem::path& path);
/// SPIR-V words from bytes, with the same checks; `what` names the bytes in messages.
std::vector<uint32_t> spirv_from_bytes(const std::vector<char>& bytes, const std::string& what);

}  // namespace fftgen::vk
