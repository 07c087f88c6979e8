#include "fftgen/runtime/manifest.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <tuple>
#include <sstream>

#include "fftgen/runtime/error.hpp"
#include "fftgen/runtime/requirements.hpp"

namespace fftgen::vk {

using nlohmann::json;

const PushConstant* PassInfo::push_constant(const std::string& n) const {
  for (const auto& p : push_constants)
    if (p.name == n) return &p;
  return nullptr;
}

uint64_t PassInfo::tickets_before(uint64_t round, uint64_t batch) const {
  uint64_t total = 0;
  for (uint32_t p = 0; p < counter_passes(); ++p) {
    const uint64_t delay = uint64_t{p} * counter_lag;
    total += counter_items[p] * std::min<uint64_t>(round > delay ? round - delay : 0, batch);
  }
  return total;
}

uint64_t PassInfo::workgroups(uint64_t batch) const {
  return (batch * batch_scale * columns_per_transform + columns_per_workgroup - 1) / columns_per_workgroup;
}

namespace {

// The storage image a pass binds as `role`, or null.
const StorageImage* image_of(const PassInfo& pass, BufferRole role) {
  for (const auto& b : pass.bindings)
    if (b.role == role && b.image) return &*b.image;
  return nullptr;
}

}  // namespace

const StorageImage* KernelInfo::input_image(Direction d) const {
  const auto& p = passes(d);
  return p.empty() ? nullptr : image_of(p.front(), BufferRole::input);
}

const StorageImage* KernelInfo::output_image(Direction d) const {
  const auto& p = passes(d);
  return p.empty() ? nullptr : image_of(p.back(), BufferRole::output);
}

bool KernelInfo::uses_images() const {
  for (Direction d : directions)
    if (input_image(d) || output_image(d)) return true;
  return false;
}

bool KernelInfo::has(Direction d) const {
  for (auto x : directions)
    if (x == d) return true;
  return false;
}

const KernelInfo* Manifest::find(const std::string& n) const {
  for (const auto& k : kernels)
    if (k.name == n) return &k;
  return nullptr;
}

std::vector<std::string> Manifest::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& k : kernels) names.push_back(k.name);
  return names;
}

const KernelInfo& Manifest::kernel(const std::string& n) const {
  if (const auto* k = find(n)) return *k;
  std::string msg = "unknown kernel '" + n + "'; available:";
  for (const auto& k : kernels) msg += " " + k.name;
  if (kernels.empty()) msg += " (none)";
  throw ManifestError(msg);
}

namespace {

std::string shape_text(const std::vector<uint32_t>& shape) {
  std::string s;
  for (uint32_t side : shape) s += (s.empty() ? "" : ", ") + std::to_string(side);
  return "[" + s + "]";
}

// Bounds no fftgen kernel comes near; larger values come from a damaged or hand-edited manifest.
constexpr uint32_t kMaxBindingNumber = 16;        // fftgen's slots use bindings 0 to 7
static_assert([] {
  for (const ResourceSlot& slot : kResourceSlots)
    if (slot.binding >= kMaxBindingNumber) return false;
  return true;
}(), "a binding slot beyond what manifests may name");
constexpr uint32_t kMaxPushConstantBytes = 256;   // the largest maxPushConstantsSize in use
constexpr uint64_t kMaxPoints = uint64_t{1} << 32;  // values of one transform

// Field access that names the file and the JSON path of anything missing or mistyped.
class Reader {
 public:
  Reader(const json& j, std::string where) : j_(j), where_(std::move(where)) {}

  const json& at(const std::string& key) const {
    if (!j_.is_object()) fail("", "an object");
    auto it = j_.find(key);
    if (it == j_.end()) throw ManifestError(where_ + ": missing field '" + key + "'");
    return *it;
  }
  bool has(const std::string& key) const { return j_.is_object() && j_.contains(key); }
  Reader child(const std::string& key) const { return Reader(at(key), where_ + "." + key); }
  Reader element(size_t i) const { return Reader(j_.at(i), where_ + "[" + std::to_string(i) + "]"); }

  std::string str(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_string()) fail(key, "a string");
    return v.get<std::string>();
  }
  uint64_t uint(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
      fail(key, "a non-negative integer");
    return v.get<uint64_t>();
  }
  uint32_t uint32(const std::string& key) const {
    uint64_t v = uint(key);
    if (v > UINT32_MAX) fail(key, "an integer below 2^32");
    return static_cast<uint32_t>(v);
  }
  double number(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number()) fail(key, "a number");
    return v.get<double>();
  }
  std::vector<uint32_t> uints(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_array()) fail(key, "an array of integers");
    std::vector<uint32_t> out;
    for (const auto& e : v) {
      if (!e.is_number_integer() || e.get<int64_t>() < 0 || e.get<int64_t>() > UINT32_MAX)
        fail(key, "an array of non-negative integers");
      out.push_back(e.get<uint32_t>());
    }
    return out;
  }
  std::vector<std::string> strings(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_array()) fail(key, "an array of strings");
    std::vector<std::string> out;
    for (const auto& e : v) {
      if (!e.is_string()) fail(key, "an array of strings");
      out.push_back(e.get<std::string>());
    }
    return out;
  }
  size_t size() const { return j_.size(); }
  const json& raw() const { return j_; }
  [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
    throw ManifestError(where_ + (key.empty() ? "" : "." + key) + ": expected " + expected);
  }
  const std::string& where() const { return where_; }

 private:
  const json& j_;
  std::string where_;
};

// The value of E spelt at `key` (fftgen/interface.hpp's spellings); fails listing them.
template <typename E>
E parse_spelling(const Reader& r, const std::string& key) {
  const std::string text = r.str(key);
  if (const auto value = from_string<E>(text)) return *value;
  r.fail(key, spellings<E>() + " (found '" + text + "')");
}

ElementType parse_element(const Reader& r, const std::string& key) { return parse_spelling<ElementType>(r, key); }

// "resource": "storage_image" (io image kernels): the image's format and geometry. Only a kernel's
// input and output are images, never written when read.
// A convolution's frame (io image): float32 pixels, one texel each (r32f for one channel a plane,
// rg32f, rgba32f or rgba16f for two), image_h rows a plane.
std::optional<StorageImage> parse_image(const Reader& e, const PassBinding& pb, uint64_t points, uint32_t ny,
                                        const std::optional<ConvolutionInfo>& convolution = std::nullopt) {
  if (!e.has("resource") || parse_spelling<Resource>(e, "resource") == Resource::storage_buffer) return std::nullopt;
  if (pb.role != BufferRole::input && pb.role != BufferRole::output)
    e.fail("role", "input or output for a storage image (found '" + std::string(to_string(pb.role)) + "')");
  StorageImage image;
  image.format = parse_spelling<ImageFormat>(e, "format");
  const std::string format = to_string(image.format);
  if (convolution) {
    if (pb.element != ElementType::float32 || (image.format == ImageFormat::r32f) != (convolution->channels_per_plane() == 1))
      e.fail("format", "r32f for a convolution's frame of one channel a plane, rg32f, rgba32f or rgba16f for two, "
                       "of float32 pixels (found " + format + " for " + to_string(pb.element) + ")");
    ny = convolution->image_h;
    points = uint64_t{convolution->image_h} * convolution->image_w;
  } else if ((image.format == ImageFormat::r32f) != (pb.element == ElementType::float32))
    e.fail("format", "r32f for float32 data and rg32f, rgba32f or rgba16f for complex64 (found " + format +
                         " for " + to_string(pb.element) + ")");
  image.width = e.uint32("width");
  image.rows_per_transform = e.uint32("rows_per_transform");
  if (image.width == 0 || image.width > points + 2)
    e.fail("width", "a positive integer, at most the kernel's " + std::to_string(points) + " points + 2");
  if (image.rows_per_transform != ny)
    e.fail("rows_per_transform", "the kernel's NY, " + std::to_string(ny) + " (found " +
                                     std::to_string(image.rows_per_transform) + ")");
  return image;
}

BufferShape parse_buffer(const Reader& r, uint64_t points) {
  BufferShape b{parse_element(r, "element"), r.uint("elements")};
  if (b.elements == 0 || b.elements > 2 * points + 2)
    r.fail("elements", "a positive integer, at most 2 x the kernel's " + std::to_string(points) + " points + 2");
  return b;
}

// A manifest names files inside its own folder only: a name that is empty, absolute or climbs
// out with ".." is refused (a hand-edited manifest must not read files elsewhere).
std::string file_name(const Reader& r, const std::string& key, const json& value) {
  if (!value.is_string()) r.fail(key, "a file name");
  const std::string name = value.get<std::string>();
  const std::filesystem::path path(name);
  bool climbs = false;
  for (const auto& part : path) climbs |= part == "..";
  if (name.empty() || path.is_absolute() || path.has_root_name() || path.has_root_directory() || climbs ||
      name.find('\0') != std::string::npos)
    r.fail(key, "a file name relative to the manifest's folder, without '..' (found '" + name + "')");
  return name;
}

// One entry of a pass's "bindings", checked against the ones before it.
PassBinding parse_binding(const Reader& e, const KernelInfo& k, const std::vector<PassBinding>& earlier) {
  PassBinding pb;
  pb.set = e.has("set") ? e.uint32("set") : 0;
  pb.binding = e.uint32("binding");
  if (pb.binding >= kMaxBindingNumber)
    e.fail("binding", "a binding number below " + std::to_string(kMaxBindingNumber) + " (found " +
                          std::to_string(pb.binding) + ")");
  for (const auto& other : earlier)
    if (other.binding == pb.binding)
      e.fail("binding", "a binding number not used by another binding of the pass (found " +
                            std::to_string(pb.binding) + " twice)");
  pb.role = parse_spelling<BufferRole>(e, "role");
  pb.writes = e.has("access") && parse_spelling<Access>(e, "access") != Access::read;
  pb.element = e.has("element") ? parse_element(e, "element") : ElementType::complex64;
  // Counters are uint32s, and only counters are.
  if ((pb.role == BufferRole::sync) != (pb.element == ElementType::uint32))
    e.fail("element", pb.role == BufferRole::sync ? "uint32 for the sync binding (found '" +
                                                        std::string(to_string(pb.element)) + "')"
                                                  : "complex64, float32, complex32, float16, complex128 or "
                                                    "float64 for role " +
                                                        std::string(to_string(pb.role)) + " (found 'uint32')");
  pb.stride = e.has("stride") ? e.uint("stride") : k.n();
  pb.image = parse_image(e, pb, k.points(), k.ny(), k.transform == "convolution" ? k.convolution : std::nullopt);
  if (pb.set != 0)
    throw ManifestError(e.where() + ": descriptor set " + std::to_string(pb.set) +
                        " is not supported (fftgen::runtime binds set 0 only)");
  return pb;
}

// A pass's "push_constants" and "push_constant_bytes" (at least the end of the last one).
void parse_push_constants(const Reader& r, PassInfo& p) {
  if (r.has("push_constants")) {
    Reader pc = r.child("push_constants");
    if (!pc.raw().is_array()) r.fail("push_constants", "an array");
    for (size_t i = 0; i < pc.size(); ++i) {
      Reader e = pc.element(i);
      PushConstant c{e.str("name"), e.uint32("offset"), e.has("type") ? e.str("type") : kPushConstantType};
      if (c.offset % 4 || c.offset > kMaxPushConstantBytes - 4)
        e.fail("offset", "a multiple of 4 below " + std::to_string(kMaxPushConstantBytes) + " (found " +
                             std::to_string(c.offset) + ")");
      p.push_constants.push_back(c);
    }
  }
  uint32_t needed = 0;  // offsets are below kMaxPushConstantBytes: no overflow
  for (const auto& c : p.push_constants) needed = std::max(needed, c.offset + 4);
  p.push_constant_bytes = r.has("push_constant_bytes") ? r.uint32("push_constant_bytes") : needed;
  if (p.push_constant_bytes < needed || p.push_constant_bytes > kMaxPushConstantBytes ||
      p.push_constant_bytes % 4)
    r.fail("push_constant_bytes", "a multiple of 4 from " + std::to_string(needed) + " (the end of the last "
           "push constant) to " + std::to_string(kMaxPushConstantBytes) + " (found " +
           std::to_string(p.push_constant_bytes) + ")");
}

// A dispatch of several passes: its passes, and the counters they wait on (a sync binding).
void parse_pass_sync(const Reader& r, PassInfo& p) {
  const std::string sync = r.has("pass_sync") ? r.str("pass_sync") : "dispatch";
  if (sync != "dispatch" && sync != "counters") r.fail("pass_sync", "dispatch or counters (found '" + sync + "')");
  bool has_sync = false;
  for (const auto& b : p.bindings) has_sync = has_sync || b.role == BufferRole::sync;
  if (sync != "counters") {
    if (has_sync) r.fail("pass_sync", "counters where a pass binds the role sync (found '" + sync + "')");
    return;
  }
  Reader c = r.child("counters");
  Reader passes = c.child("passes");
  if (!passes.raw().is_array() || passes.size() < 2 || passes.size() > 16)
    c.fail("passes", "a list of 2 to 16 passes");
  uint64_t items = 0;
  for (size_t i = 0; i < passes.size(); ++i) {
    const uint32_t n = passes.element(i).uint32("workgroups_per_transform");
    if (n == 0) passes.element(i).fail("workgroups_per_transform", "a positive integer");
    p.counter_items.push_back(n);
    items += n;
  }
  p.counter_lag = c.uint32("lag");
  if (p.counter_lag == 0 || p.counter_lag > 4096) c.fail("lag", "an integer from 1 to 4096");
  // The dispatch is one workgroup per ticket: batch * (the passes' workgroups per transform).
  if (p.batch_scale != 1 || p.columns_per_workgroup != 1 || p.columns_per_transform != items)
    r.fail("dispatch", "batch_scale 1, columns_per_workgroup 1 and columns_per_transform " + std::to_string(items) +
                           " (the passes' workgroups_per_transform together) for pass_sync counters");
  if (!has_sync) r.fail("bindings", "a binding of role sync (the counters of pass_sync counters)");
}

PassInfo parse_pass(const Reader& r, const KernelInfo& k) {
  const uint64_t points = k.points();
  PassInfo p;
  p.name = r.str("name");
  Reader files = r.child("files");
  if (!files.raw().is_object()) r.fail("files", "an object of target: file name");
  for (const auto& [target, file] : files.raw().items()) p.files[target] = file_name(files, target, file);
  if (r.has("entry_point"))
    for (const auto& [target, entry] : r.at("entry_point").items()) {
      if (!entry.is_string()) r.child("entry_point").fail(target, "a name");
      p.entry_points[target] = entry.get<std::string>();
    }
  auto ls = r.uints("local_size");
  if (ls.empty() || ls.size() > 3) r.fail("local_size", "[x, y, z]");
  for (size_t i = 0; i < ls.size(); ++i) p.local_size[i] = ls[i];
  p.size = r.has("size") ? r.uint32("size") : k.n();
  if (r.has("stages")) p.stages = r.uints("stages");
  p.stride = r.has("stride") ? r.uint("stride") : 1;
  Reader d = r.child("dispatch");
  p.batch_scale = d.has("batch_scale") ? d.uint32("batch_scale") : 1;
  // Bounds a pass of this kernel can have: a transform of `points` values has at most that many
  // rows (batch_scale) and columns of work (one value each; pairs of reals count twice): more
  // comes from a corrupted or hand-edited manifest and would launch billions of workgroups.
  if (p.batch_scale == 0 || p.batch_scale > points)
    d.fail("batch_scale", "a positive integer, at most the kernel's " + std::to_string(points) + " points");
  p.columns_per_transform = d.uint32("columns_per_transform");
  p.columns_per_workgroup = d.uint32("columns_per_workgroup");
  if (p.columns_per_transform == 0 || p.columns_per_transform > 2 * points + 2)
    d.fail("columns_per_transform",
           "a positive integer, at most 2 x the kernel's " + std::to_string(points) + " points + 2");
  if (p.columns_per_workgroup == 0) d.fail("columns_per_workgroup", "a positive integer");
  Reader b = r.child("bindings");
  if (!b.raw().is_array()) r.fail("bindings", "an array");
  for (size_t i = 0; i < b.size(); ++i) p.bindings.push_back(parse_binding(b.element(i), k, p.bindings));
  parse_push_constants(r, p);
  p.shared_memory_bytes = r.has("shared_memory_bytes") ? r.uint32("shared_memory_bytes") : 0;
  parse_pass_sync(r, p);
  return p;
}

std::string describe(const BufferShape& b) { return std::to_string(b.elements) + " " + to_string(b.element); }

// The input and output buffers the transform, shape (and convolution) imply, per transform, in
// the precision of the output (the generator's KernelProgram): a manifest whose "buffers" say
// otherwise would have the runtime size its host arrays and FFTW's reference by one and the
// kernel work by the other.
void check_buffers(const Reader& kr, const KernelInfo& k) {
  const bool half = is_half(k.forward_output.element), doubles = is_double(k.forward_output.element);
  const ElementType complex = half ? ElementType::complex32 : doubles ? ElementType::complex128 : ElementType::complex64;
  const ElementType real = half ? ElementType::float16 : doubles ? ElementType::float64 : ElementType::float32;
  const uint64_t nx = k.n(), ny = k.rows();
  BufferShape in{complex, k.points()}, out{complex, k.points()};
  if (k.transform == "r2c") {
    // Rows of odd NX keep N + 1 reals, rows of an in-place kernel 2 (NX/2 + 1) (FFTW's padding).
    in = {real, (k.in_place() ? 2 * (nx / 2 + 1) : nx + nx % 2) * ny};
    out = {complex, (nx / 2 + 1) * ny};
  } else if (k.transform == "r2c_pair") {
    if (ny != 1) kr.fail("shape", "[N] for r2c_pair (found a 2D shape)");
    out = {complex, nx + 2};
  } else if (k.convolution) {
    const ConvolutionInfo& c = *k.convolution;
    in = {ElementType::float32, k.transform == "convolution_filter"
                                    ? uint64_t{c.filter_h} * c.filter_w
                                    : uint64_t{c.image_h} * c.image_w * c.channels_per_plane()};
    out = {complex, uint64_t{c.padded_h} * c.spectrum_columns()};
  }
  const bool same = k.forward_input.element == in.element && k.forward_input.elements == in.elements &&
                    k.forward_output.element == out.element && k.forward_output.elements == out.elements;
  if (!same)
    kr.fail("buffers", "forward input " + describe(in) + " and output " + describe(out) + " for a " + k.transform +
                           " kernel of shape " + shape_text(k.shape) + " (found input " + describe(k.forward_input) +
                           ", output " + describe(k.forward_output) + ")");
}

// A convolution's planes: the shape is the padded plane, which holds the image and the filter.
void check_convolution(const Reader& c, const KernelInfo& k) {
  const ConvolutionInfo& ci = *k.convolution;
  if (ci.image_h == 0 || ci.image_w == 0) c.fail("image", "two positive sizes");
  if (ci.filter_h == 0 || ci.filter_w == 0) c.fail("filter", "two positive sizes");
  if (ci.padded_h < std::max(ci.image_h, ci.filter_h) || ci.padded_w < std::max(ci.image_w, ci.filter_w))
    c.fail("padded", "sides at least the image's and the filter's (found [" + std::to_string(ci.padded_h) + ", " +
                         std::to_string(ci.padded_w) + "])");
  if (k.shape != std::vector<uint32_t>{ci.padded_h, ci.padded_w})
    c.fail("padded", "the kernel's shape " + shape_text(k.shape) + " (found [" + std::to_string(ci.padded_h) + ", " +
                         std::to_string(ci.padded_w) + "])");
  if (ci.centre_y >= ci.filter_h || ci.centre_x >= ci.filter_w) c.fail("centre", "a point inside the filter");
}

// Each direction's input and output bindings hold the kernel's buffers: a batch entry's stride
// where one is written (a row's, for passes of batch_scale rows) or an image's texels cover a
// transform exactly. Strides count bytes: a pass between others may view the output's reals as
// complex values.
void check_pass_buffers(const Reader& kr, const KernelInfo& k) {
  for (Direction d : k.directions) {
    const auto& passes = k.passes(d);
    for (size_t i = 0; i < passes.size(); ++i)
      for (size_t j = 0; j < passes[i].bindings.size(); ++j) {
        const PassBinding& b = passes[i].bindings[j];
        if (b.role != BufferRole::input && b.role != BufferRole::output) continue;
        const BufferShape& buffer = b.role == BufferRole::input ? k.input(d) : k.output(d);
        const std::string what = std::string("the ") + to_string(d) + " " + to_string(b.role) + "'s ";
        const Reader e = kr.child(to_string(d)).element(i).child("bindings").element(j);
        // A convolution's frame: a texel holds a pixel's channels of the plane.
        const uint64_t per_texel = b.image && k.convolution ? k.convolution->channels_per_plane() : 1;
        if (b.image && uint64_t{b.image->width} * b.image->rows_per_transform * per_texel != buffer.elements)
          e.fail("width", std::to_string(buffer.elements / b.image->rows_per_transform) + " texels, " + what +
                              std::to_string(buffer.elements) + " elements over " +
                              std::to_string(b.image->rows_per_transform) + " rows (found " +
                              std::to_string(b.image->width) + ")");
        const uint64_t scale = passes[i].batch_scale, stride_bytes = b.stride * element_bytes(b.element);
        if (!b.image && !k.convolution && e.has("stride") &&
            (b.stride > buffer.bytes() || stride_bytes * scale != buffer.bytes()))
          e.fail("stride", (scale == 1 ? what : "1/" + std::to_string(scale) + " (the pass's batch_scale) of " + what) +
                               std::to_string(buffer.bytes()) + " bytes (found " + std::to_string(b.stride) + " " +
                               to_string(b.element) + ", " + std::to_string(stride_bytes) + " bytes)");
      }
  }
}

// The factor each direction's kernel applies, from "scale" alone: "normalize" says what the plan
// asked for, which is not always what a kernel does (an fp16 convolution's apply kernel scales by
// 1/sqrt(N) both ways with normalize "none").
void parse_scales(const Reader& kr, KernelInfo& k) {
  k.normalize = kr.has("normalize") ? kr.str("normalize") : "none";
  if (k.normalize != "none" && k.normalize != "inverse" && k.normalize != "ortho")
    kr.fail("normalize", "none, inverse or ortho (found '" + k.normalize + "')");
  const Reader scale = kr.child("scale");
  for (Direction d : k.directions) {
    const double factor = scale.number(to_string(d));
    if (!(factor > 0) || !std::isfinite(factor)) scale.fail(to_string(d), "a positive finite factor");
    (d == Direction::forward ? k.forward_scale : k.inverse_scale) = factor;
  }
}

// Bytes of one value of the twiddle file, as its "format" says.
uint32_t twiddle_bytes(const Reader& t) {
  const std::string format = t.str("format");
  if (const auto bytes = twiddle_value_bytes(format)) return *bytes;
  t.fail("format", "'" + std::string(kTwiddleFormat) + "' or '" + kTwiddleFormatDouble + "' (found '" + format + "')");
}

// "requires": {"features": [...], "limits": {name: value}, "storage_image_formats": [...]}. A name
// this runtime does not know is refused: it could not check the device for it.
DeviceRequirements parse_requirements(const Reader& r) {
  DeviceRequirements needs;
  const std::string newer = ": a requirement this runtime cannot check; use the runtime of the fftgen that wrote it";
  if (r.has(kRequiresFeatures))
    for (const std::string& name : r.strings(kRequiresFeatures)) {
      const auto feature = from_string<Feature>(name);
      if (!feature) r.fail(kRequiresFeatures, spellings<Feature>() + " (found '" + name + "'" + newer + ")");
      needs.need(*feature);
    }
  if (r.has(kRequiresLimits)) {
    const Reader limits = r.child(kRequiresLimits);
    if (!limits.raw().is_object()) r.fail(kRequiresLimits, "an object of limit name: least value");
    for (const auto& [name, value] : limits.raw().items()) {
      const auto limit = from_string<Limit>(name);
      if (!limit) r.fail(kRequiresLimits, spellings<Limit>() + " (found '" + name + "'" + newer + ")");
      needs.need(*limit, limits.uint(name));
    }
  }
  if (r.has(kRequiresImageFormats))
    for (const std::string& name : r.strings(kRequiresImageFormats)) {
      const auto format = from_string<ImageFormat>(name);
      if (!format) r.fail(kRequiresImageFormats, spellings<ImageFormat>() + " (found '" + name + "')");
      needs.need_image(*format, 0, 0);
    }
  return needs;
}

// What `declared` omits of `derived`, in words ("" if nothing).
std::string requirement_gap(const DeviceRequirements& declared, const DeviceRequirements& derived) {
  for (std::size_t i = 0; i < kFeatureCount; ++i)
    if (derived.features[i] && !declared.features[i])
      return std::string("the feature ") + to_string(static_cast<Feature>(i));
  for (std::size_t i = 0; i < kLimitCount; ++i)
    if (derived.limits[i] > declared.limits[i])
      return std::string(to_string(static_cast<Limit>(i))) + " >= " + std::to_string(derived.limits[i]) +
             " (it says " + std::to_string(declared.limits[i]) + ")";
  for (std::size_t i = 0; i < kImageFormatCount; ++i)
    if (derived.image_formats[i] && !declared.image_formats[i])
      return std::string("the storage image format ") + to_string(static_cast<ImageFormat>(i));
  return "";
}

KernelInfo parse_kernel(const Reader& r) {
  KernelInfo k;
  k.name = r.str("name");
  Reader kr(r.raw(), r.where() + "(" + k.name + ")");
  k.plan_kernel = kr.has("plan_kernel") ? kr.str("plan_kernel") : k.name;
  k.shape = kr.uints("shape");
  if (k.shape.empty() || k.shape.size() > 3 || std::find(k.shape.begin(), k.shape.end(), 0u) != k.shape.end())
    kr.fail("shape", "[N], [NY, NX] or [NZ, NY, NX] with positive sides");
  if (k.points() > kMaxPoints)
    kr.fail("shape", "at most " + std::to_string(kMaxPoints) + " points (found " + std::to_string(k.points()) + ")");
  if (kr.has("element") && kr.str("element") != "complex64")  // version 1
    kr.fail("element", "\"complex64\" (found \"" + kr.str("element") + "\")");
  k.transform = kr.has("transform") ? kr.str("transform") : "c2c";
  const bool convolution = k.transform == "convolution" || k.transform == "convolution_filter";
  if (k.transform != "c2c" && k.transform != "r2c" && k.transform != "r2c_pair" && !convolution)
    kr.fail("transform", "c2c, r2c, r2c_pair, convolution or convolution_filter (found '" + k.transform + "')");
  if (convolution) {
    Reader c = kr.child("convolution");
    ConvolutionInfo ci;
    auto pair = [&](const char* key, uint32_t& a, uint32_t& b) {
      const auto v = c.uints(key);
      if (v.size() != 2) c.fail(key, "two sizes");
      a = static_cast<uint32_t>(v[0]), b = static_cast<uint32_t>(v[1]);
    };
    pair("image", ci.image_h, ci.image_w);
    pair("filter", ci.filter_h, ci.filter_w);
    pair("padded", ci.padded_h, ci.padded_w);
    pair("centre", ci.centre_y, ci.centre_x);
    ci.channels = c.uint32("channels");
    ci.filter_channels = c.uint32("filter_channels");
    ci.mode = c.str("mode");
    ci.filter_kernel = c.str("filter_kernel");
    ci.apply_kernel = c.str("apply_kernel");
    if (ci.channels < 1 || ci.channels > 4) c.fail("channels", "1 to 4");
    if (ci.filter_channels != 1 && ci.filter_channels != ci.channels) c.fail("filter_channels", "1 or channels");
    // Manifests before "packing" ran each channel as an r2c plane.
    ci.packing = c.has("packing") ? c.str("packing") : "r2c";
    if (ci.packing != "r2c" && ci.packing != "pairs") c.fail("packing", "r2c or pairs");
    if (ci.packing == "pairs" && ci.filter_channels != 1) c.fail("packing", "r2c with a filter per channel");
    // Manifests before "filter_layout" kept every filter spectrum by rows.
    ci.filter_layout = c.has("filter_layout") ? c.str("filter_layout") : "rows";
    if (ci.filter_layout != "rows" && ci.filter_layout != "columns") c.fail("filter_layout", "rows or columns");
    ci.planes = (ci.channels + ci.channels_per_plane() - 1) / ci.channels_per_plane();
    if (c.has("planes") && c.uint32("planes") != ci.planes)
      c.fail("planes", std::to_string(ci.planes) + " for " + std::to_string(ci.channels) + " channels packed " + ci.packing);
    k.convolution = ci;
  }
  k.forward_input = k.forward_output = {ElementType::complex64, k.points()};
  if (kr.has("buffers")) {
    // Either direction describes both buffers (the inverse's input is the forward's output).
    Reader b = kr.child("buffers");
    if (b.has("forward")) {
      k.forward_input = parse_buffer(b.child("forward").child("input"), k.points());
      k.forward_output = parse_buffer(b.child("forward").child("output"), k.points());
    } else {
      k.forward_input = parse_buffer(b.child("inverse").child("output"), k.points());
      k.forward_output = parse_buffer(b.child("inverse").child("input"), k.points());
    }
  }
  for (const auto& d : kr.strings("directions")) {
    const auto direction = from_string<Direction>(d);
    if (!direction) kr.fail("directions", "forward and/or inverse (found '" + d + "')");
    k.directions.push_back(*direction);
  }
  if (k.directions.empty()) kr.fail("directions", "at least one direction");
  parse_scales(kr, k);
  if (kr.has("options")) k.options = kr.at("options");
  if (kr.has("twiddles") && !kr.at("twiddles").is_null()) {
    Reader t = kr.child("twiddles");
    k.twiddles = TwiddleTable{file_name(t, "file", t.at("file")), t.uint("count"), twiddle_bytes(t)};
    if (k.twiddles->count > kMaxPoints)
      t.fail("count", "at most " + std::to_string(kMaxPoints) + " values");
  }
  k.scratch_elements = kr.has("scratch_elements") ? kr.uint("scratch_elements") : 0;
  // Bluestein's scratch holds a transform of M < 4N (the power of two >= 2N - 1), two where the
  // transforms of M take several passes.
  if (k.scratch_elements > 8 * k.points() + 2)
    kr.fail("scratch_elements", "at most 8 x the kernel's " + std::to_string(k.points()) + " points + 2");
  for (Direction d : k.directions) {
    const char* key = to_string(d);
    Reader passes = kr.child(key);
    if (!passes.raw().is_array() || passes.size() == 0) kr.fail(key, "a non-empty list of passes");
    auto& out = d == Direction::forward ? k.forward : k.inverse;
    for (size_t i = 0; i < passes.size(); ++i) out.push_back(parse_pass(passes.element(i), k));
  }
  if (k.convolution) check_convolution(kr.child("convolution"), k);
  check_buffers(kr, k);
  check_pass_buffers(kr, k);
  if (kr.has(kRequiresKey)) {
    k.requirements = parse_requirements(kr.child(kRequiresKey));
    const std::string gap = requirement_gap(k.requirements, derive_requirements(k));
    if (!gap.empty()) kr.fail(kRequiresKey, "what the kernel's passes need, which includes " + gap);
  }
  return k;
}

bool operator==(const ConvolutionInfo& a, const ConvolutionInfo& b) {
  auto fields = [](const ConvolutionInfo& c) {
    return std::tie(c.image_h, c.image_w, c.filter_h, c.filter_w, c.channels, c.filter_channels, c.planes, c.packing,
                    c.filter_layout, c.mode, c.padded_h, c.padded_w, c.centre_y, c.centre_x, c.filter_kernel,
                    c.apply_kernel);
  };
  return fields(a) == fields(b);
}

// A convolution's apply and filter kernels name each other (`names`), and describe one convolution
// (otherwise).
void check_convolution_pair(const Reader& r, const Manifest& m, const KernelInfo& k, bool names) {
  const Reader c = Reader(r.raw(), r.where() + "(" + k.name + ")").child("convolution");
  const ConvolutionInfo& ci = *k.convolution;
  const std::pair<const char*, const std::string*> partners[] = {{"filter_kernel", &ci.filter_kernel},
                                                                 {"apply_kernel", &ci.apply_kernel}};
  for (const auto& [key, name] : partners) {
    const std::string transform = std::string(key) == "filter_kernel" ? "convolution_filter" : "convolution";
    const KernelInfo* partner = m.find(*name);
    if (names && (!partner || partner->transform != transform))
      c.fail(key, "a kernel of transform " + transform + " in this manifest (found '" + *name + "'" +
                      (partner ? ", of transform " + partner->transform : std::string(", no such kernel")) + ")");
    if (!names && !(*partner->convolution == ci))
      c.fail(key, "a kernel describing the same convolution ('" + *name + "' describes another)");
  }
}

}  // namespace

Manifest parse_manifest(const json& doc, const std::string& source,
                        const std::filesystem::path& directory) {
  Reader r(doc, source);
  if (!doc.is_object()) r.fail("", "a JSON object");
  if (r.str("format") != "fftgen-manifest")
    r.fail("format", "\"fftgen-manifest\" (is this a manifest written by fftgen?)");
  Manifest m;
  m.directory = directory;
  m.files = FileSource(directory);
  const uint64_t version = r.uint("format_version");
  if (version != 1 && version != 2)
    throw ManifestError(source + ": format_version " + std::to_string(version) +
                        " is not supported (this runtime reads versions 1 and 2; regenerate the "
                        "kernels with this fftgen)");
  m.format_version = static_cast<int>(version);
  if (r.has("generator")) m.generator = r.str("generator");
  if (r.has("plan")) m.plan = r.str("plan");
  if (r.has("targets")) m.targets = r.strings("targets");
  Reader ks = r.child("kernels");
  if (!ks.raw().is_array()) r.fail("kernels", "an array");
  for (size_t i = 0; i < ks.size(); ++i) {
    KernelInfo k = parse_kernel(ks.element(i));
    if (m.find(k.name)) throw ManifestError(source + ": kernel name '" + k.name + "' repeated");
    m.kernels.push_back(std::move(k));
  }
  for (bool names : {true, false})
    for (size_t i = 0; i < m.kernels.size(); ++i)
      if (m.kernels[i].convolution) check_convolution_pair(ks.element(i), m, m.kernels[i], names);
  return m;
}

Manifest load_manifest(const std::filesystem::path& path) {
  std::filesystem::path file = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) file = path / "manifest.json";
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    throw ManifestError("manifest '" + file.string() + "': not a regular file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ManifestError("cannot open manifest '" + file.string() + "'");
  json doc;
  try {
    in >> doc;
  } catch (const json::exception& e) {
    throw ManifestError(file.string() + ": not valid JSON: " + e.what());
  }
  return parse_manifest(doc, file.string(), file.parent_path());
}

Manifest parse_manifest_text(std::string_view text, const std::string& source, FileSource files) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    throw ManifestError(source + ": not valid JSON: " + e.what());
  }
  Manifest m = parse_manifest(doc, source, files.directory());
  m.files = std::move(files);
  return m;
}

FileSource::FileSource(std::filesystem::path directory) : directory_(std::move(directory)) {}

FileSource FileSource::in_memory_files(std::vector<MemoryFile> files) {
  auto table = std::make_shared<std::map<std::string, MemoryFile>>();
  for (auto& f : files) {
    std::string name = f.name;
    (*table)[name] = std::move(f);
  }
  FileSource source;
  source.memory_ = std::move(table);
  return source;
}

std::vector<char> FileSource::read(const std::string& name) const {
  if (!memory_) return read_binary_file(directory_ / name);
  auto it = memory_->find(name);
  if (it == memory_->end()) {
    std::string msg = describe(name) + " is missing; the embedded files are:";
    for (const auto& [n, f] : *memory_) msg += " " + n;
    if (memory_->empty()) msg += " (none)";
    throw ManifestError(msg);
  }
  const auto* bytes = static_cast<const char*>(it->second.data);
  return std::vector<char>(bytes, bytes + it->second.size);
}

std::string FileSource::describe(const std::string& name) const {
  return memory_ ? "'" + name + "' (embedded)" : "'" + (directory_ / name).string() + "'";
}

std::vector<char> read_binary_file(const std::filesystem::path& path) {
  // A FIFO would block the open; a folder opens, then reads as "out of host memory".
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw ManifestError("'" + path.string() + "': not a regular file");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw ManifestError("cannot open '" + path.string() + "'");
  const auto size = static_cast<size_t>(in.tellg());
  std::vector<char> data(size);
  in.seekg(0);
  if (size && !in.read(data.data(), static_cast<std::streamsize>(size)))
    throw ManifestError("cannot read '" + path.string() + "'");
  return data;
}

std::vector<uint32_t> read_spirv_file(const std::filesystem::path& path) {
  return spirv_from_bytes(read_binary_file(path), "'" + path.string() + "'");
}

std::vector<uint32_t> spirv_from_bytes(const std::vector<char>& bytes, const std::string& what) {
  if (bytes.size() < 20 || bytes.size() % 4)
    throw ManifestError(what + " is not SPIR-V (size " + std::to_string(bytes.size()) + " bytes)");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words[0] != 0x07230203u) throw ManifestError(what + " is not SPIR-V (bad magic number)");
  return words;
}

}  // namespace fftgen::vk
