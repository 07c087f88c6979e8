#include "fftgen/generate.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <fstream>
#include <future>
#include <mutex>
#include <thread>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "fftgen/compile.hpp"
#include "fftgen/emit.hpp"
#include "fftgen/program.hpp"
#include "fftgen/webgpu.hpp"

namespace fftgen {
namespace {

using json = nlohmann::ordered_json;

// A pass's axis as the manifest spells it (PassLayout::axis).
const char* axis_name(uint32_t axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

bool wants(const Plan& plan, Target target) {
  for (Target t : plan.targets)
    if (t == target) return true;
  return false;
}

std::string file_name(const KernelSpec& spec, const std::string& pass, Target target) {
  static const std::map<Target, const char*> ext{
      {Target::spirv, "spv"}, {Target::glsl, "comp"}, {Target::hlsl, "hlsl"}, {Target::msl, "metal"},
      {Target::wgsl, "wgsl"}};
  return fmt::format("{}.{}.{}", spec.name, pass, ext.at(target));
}

std::string twiddle_file_name(const KernelSpec& spec) { return spec.name + ".twiddles.bin"; }

std::string bytes_of(const std::vector<uint32_t>& words) {
  std::string out(words.size() * 4, '\0');
  for (size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b) out[4 * i + b] = static_cast<char>((words[i] >> (8 * b)) & 0xff);
  return out;
}

std::string bytes_of(const std::vector<float>& values) {
  std::vector<uint32_t> words(values.size());
  static_assert(sizeof(float) == 4);
  std::memcpy(words.data(), values.data(), values.size() * 4);
  return bytes_of(words);
}

std::string bytes_of(const std::vector<double>& values) {
  std::vector<uint32_t> words(values.size() * 2);
  static_assert(sizeof(double) == 8);
  std::memcpy(words.data(), values.data(), values.size() * 8);  // little-endian hosts: low word first
  return bytes_of(words);
}

json ops_json(const codelet::OpCounts& ops) {
  return json{{"adds", ops.adds}, {"muls", ops.muls}, {"fma_candidates", ops.fma_candidates}};
}

void add_ops(codelet::OpCounts& into, const codelet::OpCounts& x) {
  into.adds += x.adds;
  into.muls += x.muls;
  into.fma_candidates += x.fma_candidates;
  into.negs += x.negs;
}

// Where the push constants live in each text target (see compile.hpp).
json push_constant_binding(const Plan& plan) {
  json where = json::object();
  if (wants(plan, Target::hlsl)) where["hlsl"] = "cbuffer Params without a register (root constants)";
  if (wants(plan, Target::msl)) where["msl_buffer"] = kMslPushConstantBuffer;
  // WebGPU has no push constants: the same bytes are a uniform buffer.
  if (wants(plan, Target::wgsl))
    where["wgsl"] = {{"group", 0}, {"binding", kWgslParamsBinding}, {"type", "uniform"}, {"bytes", kPushConstantBytes}};
  return where;
}

// The passes the HLSL and MSL are written from: the kernel's own, or, where a pass uses more shared
// memory than D3D12 and Metal allow, the kernel laid out again within that limit. Its passes must
// line up with the Vulkan kernel's one for one and read the same twiddle table, so that one
// manifest pass describes every target's file (each target's local size, dispatch and shared
// memory are stated where they differ); otherwise the plan is refused for those targets.
KernelProgram text_target_program(const Plan& plan, const KernelSpec& spec, const KernelProgram& program) {
  if (!wants(plan, Target::hlsl) && !wants(plan, Target::msl)) return program;
  uint32_t most = 0;
  std::string which;
  for (Direction d : directions_of(spec.direction))
    for (const PassProgram& pass : program.passes(d))
      if (pass.fft.shared_bytes() > most) most = pass.fft.shared_bytes(), which = pass.name;
  if (most <= kTextTargetSharedBytes) return program;
  KernelSpec limited = spec;
  limited.shared_memory_bytes = kTextTargetSharedBytes;
  // The same passes for every target: a dispatch per pass, as the kernel's own (a kernel whose
  // passes share one dispatch is refused below).
  limited.pass_sync = PassSync::dispatch;
  const std::string refusal = fmt::format(
      "kernel '{}': pass {} uses {} bytes of shared memory (shared_memory_bytes={}); D3D12 and Metal allow {} per "
      "workgroup, ", spec.name, which, most, spec.shared_memory_bytes, kTextTargetSharedBytes);
  const std::string remedy = "; drop hlsl and msl from the targets, or set shared_memory_bytes to at most 32768";
  KernelProgram limited_program;
  try {
    limited_program = make_program(limited);
  } catch (const PlanError& e) {
    throw PlanError(refusal + "and within that the kernel cannot be laid out (" + e.what() + ")" + remedy);
  }
  if (program.forward_counters || program.inverse_counters)
    throw PlanError(refusal + "and a kernel whose passes share one dispatch (pass_sync counters) keeps one layout "
                              "for every target" + remedy);
  for (Direction d : directions_of(spec.direction))
    if (limited_program.passes(d).size() != program.passes(d).size())
      throw PlanError(refusal + fmt::format("and within that the {} direction needs {} passes instead of {}",
                                            to_string(d), limited_program.passes(d).size(), program.passes(d).size()) +
                      remedy);
  if (limited_program.layout.twiddles.values() != program.layout.twiddles.values())
    throw PlanError(refusal + "and within that the kernel needs another twiddle table" + remedy);
  if (limited_program.filter_by_columns != program.filter_by_columns)
    throw PlanError(refusal + "and within that the convolution's filter spectrum needs another layout" + remedy);
  if (limited_program.column_tiles != program.column_tiles)
    throw PlanError(refusal + "and within that the values between its X and Y passes need another layout" + remedy);
  return limited_program;
}

// A storage texture's WebGPU fields: its WGSL type, and the GPUTextureFormat and
// GPUStorageTextureAccess its bind group layout entry takes (read-only or write-only; never read-write).
void wgsl_texture_json(json& j, const PassBinding& b) {
  const bool write = b.slot.access == Access::write;
  j["wgsl_format"] = std::string(webgpu_texture_format(b.texture));
  j["wgsl_access"] = write ? "write-only" : "read-only";
  j["wgsl_type"] = fmt::format("texture_storage_2d<{}, {}>", webgpu_texture_format(b.texture), write ? "write" : "read");
}

// A binding's manifest entry: slot, role, element, size rule, and the HLSL and MSL resource it is.
// `in_place`: the pass reads the buffer it writes (its binding 0 is then a UAV in HLSL too).
json binding_json(const Plan& plan, const KernelSpec& spec, const PassBinding& b, const std::string& size_rule,
                  bool in_place) {
  const std::string_view access = to_string(b.access());
  json j{{"set", 0}, {"binding", b.slot.binding}, {"role", to_string(b.role)}, {"access", access},
         {"element", to_string(b.element)}, {"size_rule", size_rule}};
  if (!b.stride_constant.empty()) j["stride"] = b.stride * elements_per_pair(b.element);
  // io image: a storage image of `width` texels per row and batch * rows_per_transform rows.
  if (b.is_texture()) {
    j["resource"] = to_string(Resource::storage_image);
    j["format"] = to_string(b.texture);
    // A convolution's frame: H rows of the image per plane (transform), not the padded plane's.
    const uint32_t rows = spec.convolution ? spec.convolution->image_h : spec.ny();
    j["width"] = b.texels_per_row;
    j["rows_per_transform"] = rows;
    j["size_rule"] = fmt::format("{} x (batch * {}) texels", b.texels_per_row, rows);
  }
  // A pass that reads the buffer it writes binds it as two UAVs in HLSL (see interface_glsl).
  const bool uav = b.access() != Access::read || (in_place && b.slot.binding == 0);
  if (wants(plan, Target::hlsl)) {
    j["hlsl_register"] = hlsl_register(b.slot.binding, uav);
    j["hlsl_space"] = "space0";
    j["hlsl_type"] = uav ? "RWByteAddressBuffer" : "ByteAddressBuffer";
    if (b.is_texture()) {
      j["hlsl_register"] = hlsl_register(b.slot.binding, true);
      // SPIRV-Cross declares the texel type by the format's channels.
      j["hlsl_type"] = b.texture == TextureFormat::r32f    ? "RWTexture2D<float>"
                       : b.texture == TextureFormat::rg32f ? "RWTexture2D<float2>"
                                                           : "RWTexture2D<float4>";
    }
  }
  if (wants(plan, Target::msl)) {
    j[b.is_texture() ? "msl_texture" : "msl_buffer"] = msl_index(b.slot.binding);
  }
  // WebGPU: binding 0 of a pass that reads the buffer it writes is read_write (pass_wgsl.cpp).
  if (wants(plan, Target::wgsl)) {
    j["wgsl_group"] = 0;
    // WebGPU forbids a writable binding that aliases another: a pass that reads the buffer it
    // writes declares it once, at binding 1 (pass_wgsl.cpp).
    j["wgsl_binding"] = in_place && b.slot.binding == kSourceSlot.binding ? kDestinationSlot.binding : b.slot.binding;
    j["wgsl_type"] = uav ? "storage, read_write" : "storage, read";
    if (b.is_texture()) wgsl_texture_json(j, b);
  }
  return j;
}

// The fields every dispatch's manifest entry starts with: its name, files and entry points.
json dispatch_json(const Plan& plan, const KernelSpec& spec, const std::string& name, const CompiledShader& shader) {
  json files = json::object(), entry = json::object();
  for (Target t : plan.targets) files[std::string(to_string(t))] = file_name(spec, name, t);
  for (Target t : plan.targets)
    entry[std::string(to_string(t))] = t == Target::msl    ? shader.msl_entry_point
                                       : t == Target::hlsl ? shader.hlsl_entry_point
                                                           : "main";
  return json{{"name", name}, {"files", files}, {"entry_point", entry}};
}

json push_constants_json() {
  json push = json::array();
  for (const PushConstantSlot& pc : kPushConstants)
    push.push_back({{"name", pc.name}, {"offset", push_constant_offset(pc.name)}, {"type", kPushConstantType}});
  return push;
}

json stages_json(const PassLayout& fft) {
  json stages = json::array();
  for (const StageLayout& s : fft.stages) stages.push_back(s.radix);
  return stages;
}

json pass_json(const Plan& plan, const KernelSpec& spec, const PassProgram& pass, const PassProgram& text_pass,
               const CompiledShader& shader) {
  const PassLayout& fft = pass.fft;
  // How many elements a buffer bound at `b` must hold, and the distance between its batch entries,
  // in the buffer's own elements (reals of a float32 buffer).
  auto size_rule = [&](const PassBinding& b) {
    const uint64_t per = elements_per_pair(b.element);
    if (b.role == BufferRole::twiddles) return fmt::format("{} elements (the twiddle file)", b.entry);
    if (b.role == BufferRole::filter) return fmt::format("{} elements (the filter kernel's output)", b.entry);
    if (b.role == BufferRole::scratch || b.role == BufferRole::scratch2) return fmt::format("batch * {} elements", b.entry * pass.batch_scale * per);
    // A row pass that skips rows reaches as far as the last row of the last transform.
    const uint32_t rows = pass.rows_per_transform != 0 ? pass.rows_per_transform : pass.batch_scale;
    const std::string entries = rows == 1 ? "batch" : fmt::format("batch * {}", rows);
    return fmt::format("({} - 1) * {} + {} elements", entries, b.stride_constant, b.entry * per);
  };
  json bindings = json::array();
  for (const PassBinding& b : pass.bindings) bindings.push_back(binding_json(plan, spec, b, size_rule(b), text_pass.in_place()));
  json result = dispatch_json(plan, spec, pass.name, shader);
  result.update(json{{"local_size", {fft.workgroup_size, 1, 1}},
                     {"size", fft.size},
                     {"stages", stages_json(fft)},
                     {"stride", fft.stride},
                     {"axis", axis_name(fft.axis)},
                     {"load", to_string(pass.load.kind)},
                     {"store", to_string(pass.store.kind)},
                     {"dispatch",
                      {{"batch_scale", pass.batch_scale},
                       {"columns_per_transform", fft.dispatch_columns()},
                       {"columns_per_workgroup", fft.entries_per_workgroup()}}},
                     {"bindings", bindings},
                     {"push_constants", push_constants_json()},
                     {"push_constant_bytes", kPushConstantBytes},
                     {"push_constant_binding", push_constant_binding(plan)},
                     {"shared_memory_bytes", fft.shared_bytes()},
                     {"ops", ops_json(pass.ops())}});
  // A convolution's shortcuts (docs/manifest.md), only where a pass takes them.
  if (pass.rows_per_transform != 0) result["dispatch"]["rows_per_transform"] = pass.rows_per_transform;
  if (pass.planes_per_frame > 1) result["dispatch"]["planes_per_frame"] = pass.planes_per_frame;
  if (pass.load.zeros_from != 0) result["zeros_from"] = pass.load.zeros_from;
  if (pass.store.stored_below != 0) result["stored_below"] = pass.store.stored_below;
  if (pass.round_trip) result["round_trip"] = true;
  // The text targets' layout of this pass, where it differs (their 32 KB shared-memory limit).
  const PassLayout& text = text_pass.fft;
  if (text.shared_bytes() != fft.shared_bytes() || text.workgroup_size != fft.workgroup_size ||
      text.columns_per_workgroup != fft.columns_per_workgroup) {
    json layout{{"local_size", {text.workgroup_size, 1, 1}},
                {"dispatch",
                 {{"batch_scale", text_pass.batch_scale},
                  {"columns_per_transform", text.dispatch_columns()},
                  {"columns_per_workgroup", text.entries_per_workgroup()}}},
                {"shared_memory_bytes", text.shared_bytes()}};
    json per_target = json::object();
    for (Target t : {Target::hlsl, Target::msl})
      if (wants(plan, t)) per_target[std::string(to_string(t))] = layout;
    result["targets"] = per_target;
  }
  return result;
}

// The manifest entry of a dispatch that runs every pass of a direction (pass_sync counters): one
// workgroup per item, ceil(batch * items per transform / 1), and the passes it runs in "counters".
// `ops`: the passes' operations together.
json counters_json(const Plan& plan, const KernelSpec& spec, const std::vector<PassProgram>& passes,
                   const CounterSchedule& schedule, const codelet::OpCounts& ops, const std::string& name,
                   const CompiledShader& shader) {
  auto size_rule = [&](const PassBinding& b) {
    const uint64_t per = elements_per_pair(b.element);
    if (b.role == BufferRole::twiddles) return fmt::format("{} elements (the twiddle file)", b.entry);
    if (b.role == BufferRole::sync)
      return fmt::format("1 + batch * {} elements, zero before the first dispatch (each call leaves them zero)",
                         schedule.passes() - 1);
    if (b.role == BufferRole::scratch || b.role == BufferRole::scratch2) return fmt::format("batch * {} elements", b.entry * per);
    const std::string stride = b.stride_constant.empty() ? std::to_string(b.stride * per) : std::string(b.stride_constant);
    return fmt::format("(batch - 1) * {} + {} elements", stride, b.entry * per);
  };
  json bindings = json::array();
  for (const PassBinding& b : schedule.bindings) bindings.push_back(binding_json(plan, spec, b, size_rule(b), false));
  json stages = json::array(), parts = json::array();
  for (size_t i = 0; i < passes.size(); ++i) {
    const PassLayout& fft = passes[i].fft;
    for (const StageLayout& s : fft.stages) stages.push_back(s.radix);
    parts.push_back({{"size", fft.size},
                     {"stages", stages_json(fft)},
                     {"stride", fft.stride},
                     {"axis", axis_name(fft.axis)},
                     {"load", to_string(passes[i].load.kind)},
                     {"store", to_string(passes[i].store.kind)},
                     {"batch_scale", passes[i].batch_scale},
                     {"columns_per_transform", fft.dispatch_columns()},
                     {"columns_per_workgroup", fft.entries_per_workgroup()},
                     {"workgroups_per_transform", schedule.items[i]}});
  }
  const PassProgram& first = passes.front();
  json result = dispatch_json(plan, spec, name, shader);
  result.update(json{{"local_size", {first.fft.workgroup_size, 1, 1}},
                     {"size", first.n},
                     {"stages", stages},
                     {"stride", 1},
                     {"axis", axis_name(first.fft.axis)},
                     {"load", to_string(first.load.kind)},
                     {"store", to_string(passes.back().store.kind)},
                     {"dispatch",
                      {{"batch_scale", 1}, {"columns_per_transform", schedule.items_per_transform()},
                       {"columns_per_workgroup", 1}}},
                     {"bindings", bindings},
                     {"push_constants", push_constants_json()},
                     {"push_constant_bytes", kPushConstantBytes},
                     {"push_constant_binding", push_constant_binding(plan)},
                     {"shared_memory_bytes", schedule.shared_bytes},
                     {"ops", ops_json(ops)},
                     {"pass_sync", "counters"},
                     {"counters", {{"lag", schedule.lag}, {"passes", parts}}}});
  return result;
}

// What a kernel needs of a Vulkan device (manifest "requires", docs/manifest.md), from its entry as
// written: the runtime derives the same from the entry it reads and refuses a manifest whose
// "requires" asks less.
json requires_json(const json& kernel) {
  DeviceRequirements needs;
  for (const json& direction : kernel["directions"])
    for (const json& pass : kernel[direction.get<std::string>()]) {
      uint64_t images = 0;
      for (const json& b : pass["bindings"]) {
        needs.need_binding(*from_string<ElementType>(b["element"].get<std::string>()));
        if (b.contains("resource") && b["resource"] == to_string(Resource::storage_image)) {
          ++images;
          needs.need_image(*from_string<ImageFormat>(b["format"].get<std::string>()), b["width"].get<uint64_t>(),
                           b["rows_per_transform"].get<uint64_t>());
        }
      }
      const json& ls = pass["local_size"];
      const uint64_t local_size[3] = {ls[0].get<uint64_t>(), ls[1].get<uint64_t>(), ls[2].get<uint64_t>()};
      needs.need_pass(pass["shared_memory_bytes"].get<uint64_t>(), local_size, pass["push_constant_bytes"].get<uint64_t>(),
                      pass["bindings"].size() - images, images);
      // The scratch buffers hold pairs in the passes' precision.
      for (const json& b : pass["bindings"])
        if (b["role"] == to_string(BufferRole::scratch) || b["role"] == to_string(BufferRole::scratch2))
          needs.need(Limit::max_storage_buffer_range,
                     kernel["scratch_elements"].get<uint64_t>() *
                         pair_bytes(*from_string<ElementType>(b["element"].get<std::string>())));
    }
  for (const auto& [direction, buffers] : kernel["buffers"].items())
    for (const char* side : {"input", "output"})
      needs.need(Limit::max_storage_buffer_range,
                 buffers[side]["elements"].get<uint64_t>() *
                     element_bytes(*from_string<ElementType>(buffers[side]["element"].get<std::string>())));
  if (!kernel["twiddles"].is_null())
    needs.need(Limit::max_storage_buffer_range,
               kernel["twiddles"]["count"].get<uint64_t>() *
                   *twiddle_value_bytes(kernel["twiddles"]["format"].get<std::string>()));
  json features = json::array(), limits = json::object(), formats = json::array();
  for (size_t i = 0; i < kFeatureCount; ++i)
    if (needs.needs(static_cast<Feature>(i))) features.push_back(to_string(static_cast<Feature>(i)));
  for (size_t i = 0; i < kLimitCount; ++i)
    if (needs.least(static_cast<Limit>(i)) > 0) limits[to_string(static_cast<Limit>(i))] = needs.least(static_cast<Limit>(i));
  for (size_t i = 0; i < kImageFormatCount; ++i)
    if (needs.needs(static_cast<ImageFormat>(i))) formats.push_back(to_string(static_cast<ImageFormat>(i)));
  json result{{kRequiresFeatures, features}, {kRequiresLimits, limits}};
  if (!formats.empty()) result[kRequiresImageFormats] = formats;
  return result;
}

// What one variant contributes: its files (in generate()'s order) and its manifest entry.
struct KernelOutput {
  std::vector<OutputFile> files;
  json kernel;
  std::map<std::string, std::vector<uint32_t>> unoptimised_spirv;
};

// Compiles each distinct GLSL text once, whichever variant and thread asks first; the others wait
// for that result. Variants often print the same shader (a field that resolves to what `auto`
// picks anyway). The key is the text without its header line (which names the variant): the
// SPIR-V, HLSL and MSL carry no comments, so they depend on the rest of the text alone.
class ShaderCache {
 public:
  explicit ShaderCache(const CrossCompileOptions& cross) : cross_(cross) {}

  CompiledShader compile(const std::string& glsl, const std::string& header, const std::string& name, bool want_hlsl,
                         bool want_msl) {
    std::string key = glsl;
    if (size_t at = key.find(header); at != std::string::npos) key.erase(at, header.size());
    key += want_hlsl ? "\n//hlsl" : "";
    key += want_msl ? "\n//msl" : "";
    std::promise<CompiledShader> promise;
    std::shared_future<CompiledShader> result;
    bool first = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto [it, fresh] = shaders_.try_emplace(key);
      if (fresh) {
        it->second = promise.get_future().share();
        ++compiled_;
      }
      result = it->second;
      first = fresh;
    }
    if (first) {
      try {
        promise.set_value(compile_glsl(glsl, name, want_hlsl, want_msl, cross_));
      } catch (...) {
        promise.set_exception(std::current_exception());
      }
    }
    return result.get();
  }

  /// Distinct shaders compiled so far.
  size_t compiled() const { return compiled_; }

 private:
  const CrossCompileOptions& cross_;
  std::mutex mutex_;
  std::map<std::string, std::shared_future<CompiledShader>> shaders_;
  size_t compiled_ = 0;
};

// The header's second line in a kernel built with wisdom, so that a regeneration from the plan
// alone is not mistaken for the same build; empty without wisdom (those kernels stay as they were).
std::string wisdom_header_line(const Plan& plan) {
  if (plan.wisdom.empty()) return "";
  return fmt::format("\n// Tuned by wisdom table '{}' (sha256 {}): fields the plan leaves unset may differ from the "
                     "plan alone.", plan.wisdom, plan.wisdom_sha256);
}

// A kernel with the wgsl target is planned within WebGPU's default limits (limit_to_webgpu in the
// plan parser); one that a wisdom table or a layout rule still takes past them is refused here.
void check_webgpu_limits(const KernelSpec& spec, const KernelProgram& program) {
  for (Direction d : directions_of(spec.direction)) {
    if (program.counters(d))
      throw PlanError(fmt::format("kernel '{}': field 'pass_sync': WebGPU promises no progress to a workgroup that "
                                  "waits on another; use \"dispatch\", or drop wgsl from the targets", spec.name));
    for (const PassProgram& pass : program.passes(d)) {
      if (pass.fft.shared_bytes() > kWebGpuLimits.shared_memory_bytes)
        throw PlanError(fmt::format("kernel '{}': pass {} uses {} bytes of workgroup memory, more than WebGPU's "
                                    "maxComputeWorkgroupStorageSize ({}); set shared_memory_bytes to at most {}, or "
                                    "drop wgsl from the targets",
                                    spec.name, pass.name, pass.fft.shared_bytes(), kWebGpuLimits.shared_memory_bytes,
                                    kWebGpuLimits.shared_memory_bytes));
      if (pass.fft.workgroup_size > kWebGpuLimits.invocations)
        throw PlanError(fmt::format("kernel '{}': pass {} has {} invocations per workgroup, more than WebGPU's "
                                    "maxComputeInvocationsPerWorkgroup ({}); drop wgsl from the targets",
                                    spec.name, pass.name, pass.fft.workgroup_size, kWebGpuLimits.invocations));
    }
  }
}

// A kernel's program and the one its HLSL and MSL are written from (text_target_program), or the
// plan error that refuses it, named like the parser's plan errors. generate() and planned_files()
// (--dry-run) both come through here, so that a dry run refuses what a run would.
std::pair<KernelProgram, KernelProgram> kernel_programs(const Plan& plan, const std::string& plan_source,
                                                        const KernelSpec& spec) {
  try {
    KernelProgram program = make_program(spec);
    if (wants(plan, Target::wgsl)) check_webgpu_limits(spec, program);
    KernelProgram text_program = text_target_program(plan, spec, program);
    return {std::move(program), std::move(text_program)};
  } catch (const PlanError& e) {
    throw PlanError(plan_source + ": " + e.what());
  }
}

// The manifest's "convolution" entry of a convolution's kernel (its filter or apply kernel).
json convolution_json(const KernelSpec& spec, const KernelProgram& program) {
  const ConvolutionSpec& c = *spec.convolution;
  const std::string apply = spec.convolution_filter ? spec.name.substr(0, spec.name.size() - 8) : spec.name;
  return {{"image", {c.image_h, c.image_w}},
          {"filter", {c.filter_h, c.filter_w}},
          {"channels", c.channels},
          {"filter_channels", c.filter_channels},
          {"packing", c.pairs ? "pairs" : "r2c"},
          {"planes", c.planes()},
          {"filter_layout", program.filter_by_columns ? "columns" : "rows"},
          {"mode", c.circular ? "circular" : "same"},
          {"padded", {c.padded_h, c.padded_w}},
          {"padding", c.padding},
          {"centre", {c.centre_y(), c.centre_x()}},
          {"filter_kernel", apply + "__filter"},
          {"apply_kernel", apply}};
}

// What a kernel's manifest entry says before its passes: name, shape, transform, buffers,
// directions, scale and the options the variant took.
json kernel_json(const KernelSpec& spec, const KernelProgram& program) {
  const KernelLayout& layout = program.layout;
  json kernel{{"name", spec.name}, {"plan_kernel", spec.plan_name}, {"shape", spec.shape},
              {"transform", to_string(spec.transform)}};
  if (spec.convolution) {
    kernel["transform"] = spec.convolution_filter ? "convolution_filter" : "convolution";
    kernel["convolution"] = convolution_json(spec, program);
  }
  // What the input and output buffers of each direction hold per transform.
  json buffers = json::object();
  for (Direction d : directions_of(spec.direction)) {
    auto describe = [](const KernelBuffer& b) {
      return json{{"element", to_string(b.element)}, {"elements", b.elements}};
    };
    buffers[std::string(to_string(d))] = {{"input", describe(program.input(d))}, {"output", describe(program.output(d))}};
  }
  kernel["buffers"] = buffers;
  json dirs = json::array();
  for (Direction d : directions_of(spec.direction)) dirs.push_back(to_string(d));
  kernel["directions"] = dirs;
  kernel["normalize"] = to_string(spec.normalize);
  json scale = json::object();
  for (Direction d : directions_of(spec.direction)) scale[std::string(to_string(d))] = direction_scale(spec, d);
  kernel["scale"] = scale;
  kernel["options"] = {{"radices", layout.radices},
                       {"index_math", to_string(spec.index_math)},
                       {"twiddles", to_string(spec.twiddle_source())},
                       {"workgroup_size", layout.passes.front().workgroup_size},
                       {"precision", to_string(spec.precision)},
                       {"shared_memory_bytes", spec.shared_memory_bytes}};
  // Written where it is not rows, so that kernels without column tiles keep their manifests.
  if (program.column_tiles != 0) kernel["options"]["intermediate_layout"] = to_string(IntermediateLayout::column_tiles);
  // Written where the passes share a dispatch, so that other kernels keep their manifests.
  for (const auto* counters : {&program.forward_counters, &program.inverse_counters})
    if (*counters) {
      kernel["options"]["pass_sync"] = to_string(PassSync::counters);
      kernel["options"]["counter_lag"] = (*counters)->lag;
    }
  // Written for in-place kernels only (their input and output are one buffer, role output), so that
  // other kernels keep their manifests.
  if (spec.placement == Placement::in_place) kernel["options"]["placement"] = to_string(spec.placement);
  if (spec.io == Io::image) {
    kernel["options"]["io"] = to_string(spec.io);
    kernel["options"]["image_format"] = to_string(spec.image_format);
  }
  return kernel;
}

KernelOutput generate_kernel(const Plan& plan, const std::string& plan_source, const KernelSpec& spec,
                             ShaderCache& cache, bool keep_unoptimised) {
  KernelOutput out;
  const bool want_hlsl = wants(plan, Target::hlsl), want_msl = wants(plan, Target::msl);
  auto [program, text_program] = kernel_programs(plan, plan_source, spec);
  const KernelLayout& layout = program.layout;
  json kernel = kernel_json(spec, program);
  if (layout.twiddles.count > 0) {
    const bool doubles = spec.precision == Precision::fp64;
    out.files.push_back({twiddle_file_name(spec), doubles ? bytes_of(layout.twiddles.values_in_double())
                                                          : bytes_of(layout.twiddles.values())});
    kernel["twiddles"] = {{"file", twiddle_file_name(spec)},
                          {"count", layout.twiddles.count},
                          {"format", doubles ? kTwiddleFormatDouble : kTwiddleFormat}};
  } else {
    kernel["twiddles"] = nullptr;
  }
  kernel["scratch_elements"] = program.scratch_elements;
  // Compiles one dispatch's GLSL (and the text targets' source where it differs) and adds its files.
  auto compile_dispatch = [&](const std::string& name, const std::string& header, const std::string& glsl,
                              const std::string& text_glsl, const std::string& wgsl = "") {
    // HLSL and MSL come from the text targets' source where it differs from Vulkan's.
    const bool same_source = text_glsl == glsl;
    CompiledShader shader = cache.compile(glsl, header, spec.name + "." + name, want_hlsl && same_source,
                                          want_msl && same_source);
    if (!same_source && (want_hlsl || want_msl)) {
      const CompiledShader text = cache.compile(text_glsl, header, spec.name + "." + name + " (HLSL/MSL source)",
                                                want_hlsl, want_msl);
      shader.hlsl = text.hlsl;
      shader.msl = text.msl;
      shader.hlsl_entry_point = text.hlsl_entry_point;
      shader.msl_entry_point = text.msl_entry_point;
    }
    for (Target t : plan.targets) {
      std::string bytes = t == Target::spirv ? bytes_of(shader.spirv)
                          : t == Target::glsl ? glsl
                          : t == Target::hlsl ? "// " + header + "\n" + shader.hlsl
                          : t == Target::wgsl ? wgsl
                                              : "// " + header + "\n" + shader.msl;
      out.files.push_back({file_name(spec, name, t), std::move(bytes)});
      if (keep_unoptimised) out.unoptimised_spirv[file_name(spec, name, Target::spirv)] = shader.unoptimised_spirv;
    }
    return shader;
  };
  json ops = json::object();
  for (Direction d : directions_of(spec.direction)) {
    json passes = json::array();
    codelet::OpCounts total;
    for (const PassProgram& pass : program.passes(d)) add_ops(total, pass.ops());
    if (const auto& counters = program.counters(d)) {
      // Every pass of the direction in one dispatch (pass_sync counters), named as its first pass.
      const std::string name = pass_name(d, 0);
      const std::string header = generated_header(plan_source, spec, name) + wisdom_header_line(plan);
      const std::string glsl = emit_counters_glsl(program.passes(d), *counters, header);
      const std::string text_glsl = emit_counters_glsl(text_program.passes(d), *text_program.counters(d), header, true);
      const CompiledShader shader = compile_dispatch(name, header, glsl, text_glsl);
      passes.push_back(counters_json(plan, spec, program.passes(d), *counters, total, name, shader));
    } else {
      for (size_t p = 0; p < program.passes(d).size(); ++p) {
        const PassProgram& pass = program.passes(d)[p];
        const PassProgram& text_pass = text_program.passes(d)[p];
        // The GLSL carries this line from the template (after #version); SPIR-V is binary.
        const std::string header = generated_header(plan_source, spec, pass.name) + wisdom_header_line(plan);
        const CompiledShader shader =
            compile_dispatch(pass.name, header, emit_pass_glsl(pass, header), emit_pass_glsl(text_pass, header, true),
                             wants(plan, Target::wgsl) ? emit_pass_wgsl(pass, header) : "");
        passes.push_back(pass_json(plan, spec, pass, text_pass, shader));
      }
    }
    kernel[std::string(to_string(d))] = passes;
    ops[std::string(to_string(d))] = ops_json(total);
  }
  kernel["ops"] = ops;
  kernel[kRequiresKey] = requires_json(kernel);
  out.kernel = std::move(kernel);
  return out;
}

unsigned job_count(unsigned asked) {
  if (asked > 0) return asked;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

std::vector<std::string> planned_files(const Plan& plan, const std::string& plan_source) {
  std::vector<std::string> names;
  for (const KernelSpec& spec : plan.kernels) {
    const KernelProgram program = kernel_programs(plan, plan_source, spec).first;
    for (Direction d : directions_of(spec.direction))
      for (size_t i = 0; i < program.dispatches(d); ++i)
        for (Target t : plan.targets) names.push_back(file_name(spec, pass_name(d, i), t));
    if (program.layout.twiddles.count > 0) names.push_back(twiddle_file_name(spec));
  }
  names.push_back("manifest.json");
  return names;
}

GeneratedOutput generate(const Plan& plan, const std::string& plan_source,
                         const std::function<void(const std::string&)>& progress) {
  GenerateOptions options;
  options.jobs = 1;
  if (progress) options.progress = [&](size_t, size_t, const std::string& name) { progress(name); };
  return generate(plan, plan_source, options);
}

GeneratedOutput generate(const Plan& plan, const std::string& plan_source, const GenerateOptions& options) {
  const size_t count = plan.kernels.size();
  std::vector<KernelOutput> results(count);
  std::vector<std::exception_ptr> errors(count);
  ShaderCache cache(plan.cross);
  std::atomic<size_t> next{0}, done{0};
  // Past the first failure nothing more is started, unless failures are skipped (a sweep).
  std::atomic<size_t> first_error{count};
  std::mutex progress_mutex;
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++) {
      if (!options.skip_failed_variants && i > first_error) break;
      const KernelSpec& spec = plan.kernels[i];
      try {
        results[i] = generate_kernel(plan, plan_source, spec, cache, options.keep_unoptimised_spirv);
      } catch (...) {
        errors[i] = std::current_exception();
        for (size_t seen = first_error; i < seen && !first_error.compare_exchange_weak(seen, i);) {
        }
      }
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        options.progress(++done, count, spec.name);
      }
    }
  };
  const unsigned jobs = static_cast<unsigned>(std::min<size_t>(job_count(options.jobs), std::max<size_t>(count, 1)));
  if (jobs <= 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(work);
    for (std::thread& t : threads) t.join();
  }

  // Assembled in plan order, so the output does not depend on which thread finished first.
  GeneratedOutput out;
  json kernels = json::array();
  for (size_t i = 0; i < count; ++i) {
    if (errors[i]) {
      if (!options.skip_failed_variants) std::rethrow_exception(errors[i]);
      try {
        std::rethrow_exception(errors[i]);
      } catch (const PlanError& e) {
        out.skipped.push_back({plan.kernels[i].name, e.what()});
        continue;
      }
    }
    for (OutputFile& f : results[i].files) out.files.push_back(std::move(f));
    out.unoptimised_spirv.merge(results[i].unoptimised_spirv);
    kernels.push_back(std::move(results[i].kernel));
  }
  json targets = json::array();
  for (Target t : plan.targets) targets.push_back(to_string(t));
  out.manifest = json{{"format", "fftgen-manifest"},
                      {"format_version", 2},
                      {"generator", std::string("fftgen ") + FFTGEN_VERSION},
                      {"plan", plan_source},
                      {"targets", targets},
                      {"kernels", kernels}};
  if (!plan.wisdom.empty()) {
    out.manifest["wisdom"] = plan.wisdom;
    out.manifest["wisdom_sha256"] = plan.wisdom_sha256;
  }
  out.files.push_back({"manifest.json", out.manifest.dump(2) + "\n"});
  out.shaders_compiled = cache.compiled();
  return out;
}

std::string_view default_plan_text() { return embedded_template("default.json"); }

}  // namespace fftgen
