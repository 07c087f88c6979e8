// Kernel: the pipelines of one manifest kernel, created once, and the recording of its passes
// into a caller's command buffer. This is the reference for dispatching fftgen's kernels.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <vulkan/vulkan.h>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

class Device;

/// SPIR-V of one pass and its entry point.
struct ShaderCode {
  std::vector<uint32_t> spirv;
  std::string entry_point = "main";
};
/// Supplies a pass's shader; the default reads the pass's "spirv" file from the kernel's
/// FileSource (beside the manifest, or embedded).
/// Tests use it to run SPIR-V compiled from another target (HLSL) with the same layout.
using ShaderLoader = std::function<ShaderCode(const KernelInfo&, const PassInfo&)>;

/// The buffers one kernel call reads and writes. Each is a BufferRange: a VkBuffer and offset, and
/// where the caller says so (a Buffer from Kernel::make_buffer says both) its bytes and content,
/// which bind() checks against the kernel: too small, another element type, or a buffer made for
/// another role is a UsageError naming the field, what it holds and what the kernel needs.
struct KernelIo {
  BufferRange input;              ///< never written; the direction's input (Kernel::element)
  /// Another buffer than the input; for an in-place kernel (KernelInfo::in_place) the one buffer
  /// that holds the input and receives the output (`input` then unset, or the same range).
  BufferRange output;
  uint32_t max_batch = 1;         ///< largest batch later recorded with these bindings
  /// Elements (reals, for float32 data) between transforms in input and output; 0 means
  /// contiguous. For a 2D kernel, a row pitch: elements between rows (at least a row), transforms
  /// NY rows apart, where a row pass reads the input (c2c, r2c forward) or writes the output (c2r);
  /// bind() refuses it elsewhere. An in-place 1D kernel takes output_stride alone, counted in
  /// complex values (pairs of floats) of its data buffer; an in-place 2D kernel takes neither.
  uint32_t input_stride = 0;
  uint32_t output_stride = 0;
  /// Directions to bind (and later record); empty means all of the kernel's. Their buffers
  /// differ for real transforms (an r2c forward reads reals, its inverse a half spectrum), so a
  /// caller that runs one direction binds only that one.
  std::vector<Direction> directions;
  BufferRange scratch;            ///< optional; allocated by bind() when the kernel needs one
  /// optional; a second scratch buffer of the same size, allocated by bind() for image kernels of
  /// three or more passes (role scratch2)
  BufferRange scratch2;
  /// A convolution's filter spectrum (the filter kernel's forward output), for the apply kernel's
  /// passes that bind role `filter`; required by them, ignored otherwise.
  BufferRange filter;
  /// io image kernels (KernelInfo::uses_images()): views of the storage images that hold the input
  /// and the output, in place of the `input` and `output` buffers. Each image has the binding's
  /// format and at least its `width` × (max_batch × rows_per_transform) texels, and is in
  /// VK_IMAGE_LAYOUT_GENERAL when the kernel runs.
  VkImageView input_image = VK_NULL_HANDLE;
  VkImageView output_image = VK_NULL_HANDLE;
};

struct RecordOptions {
  /// Largest workgroup count of one vkCmdDispatch; 0 means the device's
  /// maxComputeWorkGroupCount[0]. Larger dispatches are split using push constant group_offset.
  uint32_t max_workgroups_per_dispatch = 0;
  /// Called after each pass's dispatches are recorded (timestamps between passes: time_passes).
  std::function<void(VkCommandBuffer)> after_pass;
  /// A dispatch of several passes (manifest "pass_sync": "counters") has workgroups that wait for
  /// workgroups of earlier tickets. `in_dispatch`: one dispatch, the waits spin on the GPU.
  /// `between_dispatches`: the dispatch is recorded in pieces of `lag` rounds of tickets with a
  /// barrier between them, so that every wait is already met (no workgroup spins). `automatic`:
  /// between dispatches on a CPU device (lavapipe ends any shader loop after 65535 iterations, a
  /// spin among them), in one dispatch elsewhere.
  enum class CounterWaits { automatic, in_dispatch, between_dispatches };
  CounterWaits counter_waits = CounterWaits::automatic;
};

/// Descriptor sets (and the scratch buffer, if the kernel needs one) binding a kernel to one set
/// of buffers. Create once per buffer set with Kernel::bind(), record many times. Move-only.
/// A kernel whose passes share one dispatch (pass_sync counters) also gets its counters here:
/// calls recorded with one KernelBindings must not overlap on the GPU (as they write one output).
class KernelBindings {
 public:
  KernelBindings() = default;
  ~KernelBindings();
  KernelBindings(KernelBindings&& other) noexcept;
  KernelBindings& operator=(KernelBindings&& other) noexcept;
  KernelBindings(const KernelBindings&) = delete;
  KernelBindings& operator=(const KernelBindings&) = delete;

  uint32_t max_batch() const { return max_batch_; }

 private:
  friend class Kernel;
  void release();
  VkDevice device_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> forward_sets_;
  std::vector<VkDescriptorSet> inverse_sets_;
  Buffer scratch_;
  Buffer scratch2_;
  Buffer sync_;  ///< pass_sync counters (BufferRole::sync), zeroed once
  uint32_t max_batch_ = 0;
  uint32_t input_stride_ = 0;
  uint32_t output_stride_ = 0;
};

class Kernel {
 public:
  /// Checks the device limits (throws DeviceLimitError), loads the SPIR-V and the twiddle table
  /// from `files`, and creates every pass's pipeline (in the device's pipeline cache, if any).
  Kernel(Device& device, const KernelInfo& info, const FileSource& files, ShaderLoader loader = {});
  /// The same with the files in `directory`.
  Kernel(Device& device, const KernelInfo& info, const std::filesystem::path& directory,
         ShaderLoader loader = {});
  /// The kernel called `name` in `manifest` (ManifestError listing the names if none), its files
  /// read from manifest.files.
  Kernel(Device& device, const Manifest& manifest, const std::string& name,
         ShaderLoader loader = {});
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  const KernelInfo& info() const { return info_; }
  uint32_t n() const { return info_.n(); }
  bool has(Direction d) const { return info_.has(d); }

  /// Bytes the buffer of `role` of `direction` needs for `batch` transforms: the input or output
  /// `stride` elements apart (0: contiguous), ((batch-1)·stride + elements)·element bytes; scratch
  /// and scratch2, batch × their bytes per transform (0 where the kernel binds none). UsageError for
  /// another role (twiddles, filter, sync: the kernel or its filter kernel sizes those).
  VkDeviceSize required_bytes(Direction direction, BufferRole role, uint32_t batch, uint32_t stride = 0) const;
  /// The same for the input of the kernel's first direction (complex kernels: either buffer).
  VkDeviceSize required_bytes(uint32_t batch, uint32_t stride = 0) const;
  /// The element type the buffer of `role` of `direction` holds (input, output, scratch, scratch2,
  /// filter), e.g. complex32 for an fp16 kernel's complex data. UsageError for a role it binds not.
  ElementType element(Direction direction, BufferRole role) const;
  /// A buffer for `role` of `direction` holding `batch` transforms (required_bytes), that says what
  /// it holds: bind() and the typed upload() check it.
  Buffer make_buffer(Direction direction, BufferRole role, uint32_t batch,
                     MemoryKind kind = MemoryKind::device_local) const;
  /// Largest batch of contiguous transforms the device can bind (maxStorageBufferRange) and
  /// number (group_offset).
  uint32_t max_batch() const;

  /// Allocates descriptor sets for `io` (and a scratch buffer if needed). Throws UsageError if
  /// max_batch exceeds what the device can bind.
  KernelBindings bind(const KernelIo& io) const;

  /// Records all passes of `direction` for `batch` transforms into `cmd`, with a compute→compute
  /// barrier between passes. The caller orders the kernel against its own work: a barrier
  /// before (making the input visible to compute shaders) and after (before reading the output).
  void record(VkCommandBuffer cmd, Direction direction, const KernelBindings& bindings,
              uint32_t batch, const RecordOptions& options = {}) const;

  /// Whether record() splits a dispatch of several passes so that no workgroup waits
  /// (RecordOptions::counter_waits).
  bool waits_between_dispatches(const RecordOptions& options) const;

  /// The driver's statistics of each pass's pipeline (VK_KHR_pipeline_executable_properties; the
  /// Device must have been made with DeviceOptions::pipeline_statistics and offer it, else this
  /// returns an empty list): [{"pass": "fwd0", "executables": [{"name", "description",
  /// "statistics": {name: number}}]}], forward passes first.
  nlohmann::json pipeline_statistics() const;

 private:
  struct Pass {
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    // The push-constant words record() writes (-1: the pass has no such constant) and the
    // bindings 0 and 1 (in info_) whose strides src_stride/dst_stride carry, resolved from the
    // manifest once so that recording looks nothing up by name.
    int batch_word = -1, group_offset_word = -1, src_stride_word = -1, dst_stride_word = -1;
    const PassBinding* src_binding = nullptr;
    const PassBinding* dst_binding = nullptr;
  };
  void create_pass(const PassInfo& info, const ShaderCode& code, Pass& pass);
  void destroy();
  // bind()'s steps, in order.
  struct WorkBuffers;  // the scratch buffers and counters bind() uses
  std::vector<Direction> bound_directions(const KernelIo& io) const;
  struct ImageSides {
    bool input = false, output = false;
  };
  ImageSides image_sides(const std::vector<Direction>& directions) const;
  void check_resources(const KernelIo& io, const std::vector<Direction>& directions) const;
  void check_images(const KernelIo& io, ImageSides sides) const;
  void check_in_place(const KernelIo& io) const;
  void check_row_pitch(Direction d, const std::string& what, uint32_t pitch) const;
  void check_strides(const KernelIo& io, const std::vector<Direction>& directions) const;
  void check_ranges(const KernelIo& io, const std::vector<Direction>& directions) const;
  void check_typed(const KernelIo& io, const std::vector<Direction>& directions) const;
  WorkBuffers work_buffers(const KernelIo& io, const std::vector<Direction>& directions, KernelBindings& kb) const;
  void create_pool(const std::vector<Direction>& directions, KernelBindings& kb) const;
  void write_sets(const KernelIo& io, Direction direction, const WorkBuffers& work, KernelBindings& kb) const;

  Device& device_;
  KernelInfo info_;
  Buffer twiddles_;
  std::vector<Pass> forward_;
  std::vector<Pass> inverse_;
};

/// What prevents `info` from running on `device`: requirement_problems() (a feature not enabled, a
/// limit below the kernel's need, a storage-image format the device lacks) and device-local memory
/// for one transform, a phrase each ("needs ..."); empty if it fits. Buffer-range needs are checked
/// for a batch of one.
std::vector<std::string> device_limit_problems(const Device& device, const KernelInfo& info);
/// Throws DeviceLimitError if there is any problem: one line, "kernel 'K' cannot run on device 'D': "
/// and the problems separated by "; ".
void check_device_limits(const Device& device, const KernelInfo& info);

}  // namespace fftgen::vk
