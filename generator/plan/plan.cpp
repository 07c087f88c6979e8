// generator/plan: JSON plan -> validated list of kernel variants.
//
// Validation stops at the first problem and throws PlanError. Every message has the shape
//   <source>: <kernel>: field '<field>': <what is wrong>; allowed: <what would be accepted>
// where <kernel> is "kernel 'name'" once the name is known and valid, "kernels[i]" before.
#include "fftgen/plan.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "fftgen/digest.hpp"
#include "fftgen/layout.hpp"
#include "fftgen/measured.hpp"
#include "fftgen/program.hpp"
#include "fftgen/webgpu.hpp"

namespace fftgen {

TwiddleSource KernelSpec::twiddle_source() const {
  if (twiddles != TwiddleSource::automatic) return twiddles;
  if (precision != Precision::fp16) return TwiddleSource::table;  // fp32, and fp64 (GLSL has no double sin/cos)
  return measured_yes(MeasuredDecision::fp16_table_twiddles, measured_facts(*this, n())) ? TwiddleSource::table
                                                                                         : TwiddleSource::computed;
}
namespace {

using json = nlohmann::json;

// The kernel fields (name, shape, ...) and which of them wisdom may set come from the field
// registry (plan_fields(), below the parsers); these are the other keys a plan or a wisdom table may hold.
// An entry: the kind of kernel it applies to (wisdom_key(): "shape", or the older "n", "transform",
// "precision", "io", or "convolution"), the run it came from, its measurements and winner.
const std::vector<std::string> kWisdomEntryFields{"shape",        "n",      "transform",   "precision",
                                                  "io",           "convolution", "run", "measured",
                                                  "default_gbps", "winner", "winner_gbps", "winner_rel_l2"};
// The top level of a wisdom table: what fftgen tune and bench/wisdom.py write ("runs": where each
// entry was measured; "device", "driver", "source": the single run of an older table), and a schema
// and description.
const std::vector<std::string> kWisdomTopFields{"$schema", "description", "device", "driver", "min_gain",
                                                "fixed",   "source",      "runs",   "sizes"};
const std::vector<std::string> kTopLevelFields{"$schema",          "description",  "kernels",
                                               "targets",          "hlsl_shader_model", "msl_version",
                                               "device_shared_memory_bytes"};
const std::vector<std::pair<std::string, uint32_t>> kShaderModels{
    {"5.0", 50}, {"5.1", 51}, {"6.0", 60}, {"6.1", 61}, {"6.2", 62},
    {"6.3", 63}, {"6.4", 64}, {"6.5", 65}, {"6.6", 66}};
const std::vector<std::pair<std::string, std::pair<uint32_t, uint32_t>>> kMslVersions{
    {"2.0", {2, 0}}, {"2.1", {2, 1}}, {"2.2", {2, 2}}, {"2.3", {2, 3}}, {"2.4", {2, 4}}, {"3.0", {3, 0}}};

constexpr size_t kMaxNameLength = 64;
// A convolution's default "packing" for images of two or more channels and one filter: pairs, as
// measured on an H100 (bench/results/2026-11-23-h100-pairs: RGBA blooms 1.2-1.3x faster than r2c
// per channel at 256^2, 1024^2 and 4096^2).
constexpr bool kPairsByDefault = true;
constexpr uint64_t kMinN = 2;
constexpr uint64_t kMaxN = uint64_t{1} << kMaxLog2N;
constexpr uint64_t kMinSharedMemory = 1024;
constexpr uint64_t kMaxSharedMemory = 65536;
// What the plan's devices offer a workgroup by default (its "device_shared_memory_bytes"): D3D12's
// groupshared memory and Metal's threadgroup memory stop at 32 KB, as do lavapipe and mobile GPUs.
constexpr uint32_t kPortableSharedMemory = 32768;


const std::string kAllowedName = fmt::format(
    "1 to {} characters from A-Z, a-z, 0-9 and _ (the name becomes part of file names)", kMaxNameLength);
const std::string kAllowedN =
    fmt::format("an integer from {} to {} (2^{}); a length with a prime factor above {} runs through Bluestein's algorithm",
                kMinN, kMaxN, kMaxLog2N, kMaxPrimeFactor);
const std::string kAllowedSide =
    fmt::format("an integer from {} to {} (2^{}); a side with a prime factor above {} runs through Bluestein's algorithm "
                "(c2c, and r2c of an even NX)", kMinN, 1u << kMaxLog2Side, kMaxLog2Side, kMaxPrimeFactor);
constexpr uint64_t kMaxVolumePoints = uint64_t{1} << 30;
const std::string kAllowedVolumeSide =
    fmt::format("an integer from {} to {} (2^{}), NZ * NY * NX at most 2^30; a side with a prime factor above {} runs "
                "through Bluestein's algorithm", kMinN, 1u << kMaxLog2Side, kMaxLog2Side, kMaxPrimeFactor);
const std::string kAllowedShape = "[N] with N " + kAllowedN + ", or [NY, NX] with each side " + kAllowedSide +
                                  ", or [NZ, NY, NX] with each side " + kAllowedVolumeSide + ", or a list of such shapes";
const std::string kAllowedRadixValues = fmt::format("{}", fmt::join(kSupportedRadices, ", "));
const std::string kAllowedRadices =
    "\"auto\" or a list of radices from {" + kAllowedRadixValues + "} whose product is N";
const std::string kAllowedWorkgroup =
    fmt::format("\"auto\" or a power of two from 1 to {}", kMaxWorkgroupSize);
const std::string kAllowedSharedMemory =
    fmt::format("an integer from {} to {}", kMinSharedMemory, kMaxSharedMemory);
constexpr uint32_t kMaxCounterLag = 4096;
const std::string kAllowedValuesPerInvocation =
    fmt::format("\"auto\" or an integer from 2 to {} (at least the largest radix)", kMaxValuesPerInvocation);
const std::string kAllowedCounterLag =
    fmt::format("\"auto\" or an integer from 1 to {} (transforms; with \"pass_sync\": \"counters\")", kMaxCounterLag);

std::string join(const std::vector<std::string>& items, std::string_view sep = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

// Plan text is user input: escape control characters and cut long strings before echoing them.
std::string quote(std::string_view s) {
  std::string shown = s.size() > 80 ? std::string(s.substr(0, 77)) + "..." : std::string(s);
  std::string body = json(shown).dump(-1, ' ', false, json::error_handler_t::replace);
  return "'" + body.substr(1, body.size() - 2) + "'";
}

// A short description of any JSON value. Containers are never dumped: they may be huge or deep.
std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::array: return v.empty() ? "an empty list" : "a list";
    case json::value_t::object: return "an object";
    case json::value_t::string: return "the string " + quote(v.get_ref<const std::string&>());
    case json::value_t::null: return "null";
    default: return v.dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

// Levenshtein distance, for "did you mean" suggestions on misspelt field names.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Where an error happened: the plan and, inside a kernel, which kernel.
struct Where {
  const std::string& source;
  std::string kernel;  // "kernel 'fft1k'", "kernels[3]" or "" for the top level

  [[noreturn]] void fail(std::string_view field, const std::string& what) const {
    std::string msg = source + ": ";
    if (!kernel.empty()) msg += kernel + ": ";
    if (!field.empty()) msg += "field '" + std::string(field) + "': ";
    throw PlanError(msg + what);
  }
  [[noreturn]] void fail(std::string_view field, const std::string& what, const std::string& allowed) const {
    fail(field, what + "; allowed: " + allowed);
  }
};

void reject_unknown_fields(const json& obj, const std::vector<std::string>& known, const Where& where,
                           std::string_view what) {
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string hint;
    size_t best = 3;
    for (const auto& k : known) {
      size_t d = edit_distance(lower(key), lower(k));
      if (d < best) best = d, hint = " (did you mean '" + k + "'?)";
    }
    where.fail("", fmt::format("unknown field {}{}; known {} fields: {}", quote(key), hint, what, join(known)));
  }
}

// JSON numbers arrive as unsigned, signed or floating point; only a non-negative integer written
// as one is accepted. `what` names the value in messages ("N", "radix", "workgroup_size").
uint64_t read_count(const json& v, const Where& where, std::string_view field, std::string_view what,
                    const std::string& allowed) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) {
    int64_t x = v.get<int64_t>();
    if (x < 0) where.fail(field, fmt::format("{} = {} is negative", what, x), allowed);
    return static_cast<uint64_t>(x);
  }
  if (v.is_number_float()) {
    double d = v.get<double>();
    std::string shown = describe(v);
    if (d < 0) where.fail(field, fmt::format("{} = {} is negative", what, shown), allowed);
    if (d != std::floor(d)) where.fail(field, fmt::format("{} = {} is not an integer", what, shown), allowed);
    if (d >= 9.0e18) where.fail(field, fmt::format("{} = {} is too large", what, shown), allowed);
    where.fail(field, fmt::format("{} = {} must be written as an integer (no fraction or exponent)", what, shown),
               allowed);
  }
  where.fail(field, fmt::format("{} must be an integer, got {}", what, describe(v)), allowed);
}

uint64_t read_in_range(const json& v, const Where& where, std::string_view field, std::string_view what,
                       uint64_t lo, uint64_t hi, bool power_of_two, const std::string& allowed) {
  uint64_t x = read_count(v, where, field, what, allowed);
  if (x < lo) where.fail(field, fmt::format("{} = {} is too small", what, x), allowed);
  if (x > hi) where.fail(field, fmt::format("{} = {} is too large", what, x), allowed);
  if (power_of_two && !is_power_of_two(x))
    where.fail(field, fmt::format("{} = {} is not a power of two", what, x), allowed);
  return x;
}

// One alternative of a field: how to apply it to a variant, and the name suffix it adds when the
// field lists more than one alternative.
struct Choice {
  std::function<void(KernelSpec&)> apply;
  std::string suffix;
  std::string shown;  // for the duplicate-value message
};

void reject_duplicates(const std::vector<Choice>& choices, const Where& where, std::string_view field) {
  std::map<std::string, size_t> first;  // suffix -> element; suffixes spell values uniquely
  for (size_t i = 0; i < choices.size(); ++i) {
    auto [it, fresh] = first.emplace(choices[i].suffix, i);
    if (!fresh)
      where.fail(field, fmt::format("value {} is listed twice (elements {} and {}); list each value once",
                                    choices[i].shown, it->second, i));
  }
}

void reject_empty_list(const json& v, const Where& where, std::string_view field, const std::string& allowed) {
  if (v.is_array() && v.empty())
    where.fail(field, "the list of values is empty; give one value or a list of at least one", allowed);
}

// The values of a field given as one value or as a list of values.
std::vector<const json*> values_of(const json& v) {
  std::vector<const json*> items;
  if (v.is_array())
    for (const auto& e : v) items.push_back(&e);
  else
    items.push_back(&v);
  return items;
}

template <typename E>
std::vector<Choice> parse_enum_field(const json* v, E fallback, std::optional<E> (*parse)(std::string_view),
                                     void (*set)(KernelSpec&, E), const Where& where, const std::string& field,
                                     std::string_view suffix) {
  if (!v) return {{[=](KernelSpec& k) { set(k, fallback); }, "", ""}};
  const auto& allowed_list = allowed_values(field);
  std::string allowed = join(allowed_list);
  reject_empty_list(*v, where, field, allowed);
  const std::vector<const json*> items = values_of(*v);
  std::vector<Choice> out;
  for (const json* e : items) {
    if (!e->is_string()) where.fail(field, "must be a string, got " + describe(*e), allowed);
    const std::string& s = e->get_ref<const std::string&>();
    std::optional<E> parsed = parse(s);
    if (!parsed) where.fail(field, "unknown value " + quote(s), allowed);
    E value = *parsed;
    out.push_back({[=](KernelSpec& k) { set(k, value); }, std::string(suffix) + std::string(to_string(value)), quote(s)});
  }
  reject_duplicates(out, where, field);
  return out;
}

// A transform length: in range, and a product of the primes the codelets cover or (1D, Bluestein)
// short enough; make_layout refuses Bluestein for what it does not cover (2D, r2c).
uint32_t read_length(const json& v, const Where& where, std::string_view what, uint64_t max, const std::string& allowed,
                     uint64_t max_bluestein = 0) {
  const uint64_t n = read_in_range(v, where, "shape", what, kMinN, max, false, allowed);
  if (const uint64_t p = largest_prime_factor(n); p > kMaxPrimeFactor && n > max_bluestein)
    where.fail("shape",
               max_bluestein == 0
                   ? fmt::format("{} = {} has the prime factor {}; every prime factor must be at most {}", what, n, p,
                                 kMaxPrimeFactor)
                   : fmt::format("{} = {} has the prime factor {}; lengths with a prime factor above {} (Bluestein) "
                                 "are supported up to {}", what, n, p, kMaxPrimeFactor, max_bluestein),
               allowed);
  return static_cast<uint32_t>(n);
}

// A 3D shape [NZ, NY, NX]: any sides up to 2^kMaxLog2Side, as in 2D, and a volume whose values fit
// the runtime's buffers.
Choice parse_volume_shape(const json& s, const Where& where, std::string_view suffix) {
  const uint64_t max_side = uint64_t{1} << kMaxLog2Side;
  const uint32_t nz = read_length(s[0], where, "NZ", max_side, kAllowedVolumeSide, max_side);
  const uint32_t ny = read_length(s[1], where, "NY", max_side, kAllowedVolumeSide, max_side);
  const uint32_t nx = read_length(s[2], where, "NX", max_side, kAllowedVolumeSide, max_side);
  if (uint64_t{nz} * ny * nx > kMaxVolumePoints)
    where.fail("shape", fmt::format("[{}, {}, {}] has {} points; a 3D kernel's volume is at most 2^30 points", nz, ny,
                                    nx, uint64_t{nz} * ny * nx),
               kAllowedShape);
  return {[=](KernelSpec& k) { k.shape = {nz, ny, nx}; }, fmt::format("{}{}x{}x{}", suffix, nz, ny, nx),
          fmt::format("[{}, {}, {}]", nz, ny, nx)};
}

std::vector<Choice> parse_shape_field(const json* v, const Where& where, std::string_view suffix) {
  const std::string field = "shape";
  if (!v) where.fail(field, "missing; every kernel needs a shape, e.g. \"shape\": [1024]", kAllowedShape);
  if (!v->is_array())
    where.fail(field, "must be a list like [1024], got " + describe(*v), kAllowedShape);
  bool is_list = std::any_of(v->begin(), v->end(), [](const json& e) { return e.is_array(); });
  std::vector<const json*> items;
  if (is_list)
    for (const auto& e : *v) items.push_back(&e);
  else
    items.push_back(v);
  std::vector<Choice> out;
  for (size_t i = 0; i < items.size(); ++i) {
    const json& s = *items[i];
    if (!s.is_array())
      where.fail(field, fmt::format("a list of shapes must hold only shapes like [1024]; element {} is {}", i,
                                    describe(s)),
                 kAllowedShape);
    if (s.empty()) where.fail(field, "the shape is empty; expected [N], [NY, NX] or [NZ, NY, NX]", kAllowedShape);
    if (s.size() > 3)
      where.fail(field, fmt::format("a shape with {} dimensions is not supported; 1D [N], 2D [NY, NX] and 3D [NZ, "
                                    "NY, NX] are", s.size()),
                 kAllowedShape);
    if (s.size() == 3) {
      out.push_back(parse_volume_shape(s, where, suffix));
      continue;
    }
    if (s.size() == 2) {
      const uint64_t max_side = uint64_t{1} << kMaxLog2Side;
      uint32_t ny = read_length(s[0], where, "NY", max_side, kAllowedSide, max_side);
      uint32_t nx = read_length(s[1], where, "NX", max_side, kAllowedSide, max_side);
      out.push_back({[=](KernelSpec& k) { k.shape = {ny, nx}; }, fmt::format("{}{}x{}", suffix, ny, nx),
                     fmt::format("[{}, {}]", ny, nx)});
      continue;
    }
    uint32_t n = read_length(s[0], where, "N", kMaxN, kAllowedN, kMaxBluesteinN);
    out.push_back({[=](KernelSpec& k) { k.shape = {n}; }, fmt::format("{}{}", suffix, n), fmt::format("[{}]", n)});
  }
  reject_duplicates(out, where, field);
  return out;
}

// A radix list as messages show it: "[8, 8, 16]", the first 16 only of a longer list (a hostile
// plan's 100,000 radices would otherwise make a 300 KB message).
std::string radix_list_text(const std::vector<uint32_t>& radices) {
  constexpr size_t kShown = 16;
  if (radices.size() <= kShown) return fmt::format("[{}]", fmt::join(radices, ", "));
  return fmt::format("[{}, ... ({} radices)]", fmt::join(radices.begin(), radices.begin() + kShown, ", "),
                     radices.size());
}

std::vector<Choice> parse_radices_field(const json* v, const Where& where, std::string_view suffix) {
  const std::string field = "radices";
  if (!v) return {{[](KernelSpec& k) { k.radices.clear(); }, "", ""}};
  if (v->is_array() && v->empty())
    where.fail(field, "the list of radices is empty; give \"auto\" or radices whose product is N",
               kAllowedRadices);
  // A flat list of integers is one value; a list holding "auto" or lists is a list of values.
  bool is_list = v->is_array() && std::any_of(v->begin(), v->end(), [](const json& e) {
                   return e.is_string() || e.is_array();
                 });
  std::vector<const json*> items;
  if (is_list)
    for (const auto& e : *v) items.push_back(&e);
  else
    items.push_back(v);
  std::vector<Choice> out;
  for (size_t i = 0; i < items.size(); ++i) {
    const json& r = *items[i];
    if (r.is_string()) {
      if (r.get_ref<const std::string&>() != "auto")
        where.fail(field, "unknown value " + quote(r.get_ref<const std::string&>()), kAllowedRadices);
      out.push_back({[](KernelSpec& k) { k.radices.clear(); }, std::string(suffix) + "auto", "'auto'"});
      continue;
    }
    if (!r.is_array()) {
      if (is_list)
        where.fail(field,
                   fmt::format("each element of a list of radix choices must be \"auto\" or a list like [8, 8, 16]; "
                               "element {} is {}",
                               i, describe(r)),
                   kAllowedRadices);
      where.fail(field, "must be \"auto\" or a list of radices, got " + describe(r), kAllowedRadices);
    }
    if (r.empty())
      where.fail(field, "the list of radices is empty; give \"auto\" or radices whose product is N",
                 kAllowedRadices);
    std::vector<uint32_t> radices;
    for (const auto& e : r) {
      uint64_t x = read_count(e, where, field, "radix", kAllowedRadixValues);
      if (std::find(std::begin(kSupportedRadices), std::end(kSupportedRadices), x) == std::end(kSupportedRadices))
        where.fail(field, fmt::format("radix {} is not supported", x), kAllowedRadixValues);
      radices.push_back(static_cast<uint32_t>(x));
    }
    std::string choice_suffix = fmt::format("{}{}", suffix, fmt::join(radices, "x"));
    std::string shown = radix_list_text(radices);
    out.push_back({[=](KernelSpec& k) { k.radices = radices; }, choice_suffix, shown});
  }
  reject_duplicates(out, where, field);
  return out;
}

// workgroup_size and shared_memory_bytes: an integer, or (workgroup_size only) "auto".
std::vector<Choice> parse_integer_field(const json* v, const Where& where, const std::string& field,
                                        uint32_t fallback, bool allow_auto, uint64_t lo, uint64_t hi,
                                        bool power_of_two, const std::string& allowed,
                                        std::string_view suffix, void (*set)(KernelSpec&, uint32_t)) {
  if (!v) return {{[=](KernelSpec& k) { set(k, fallback); }, "", ""}};
  reject_empty_list(*v, where, field, allowed);
  const std::vector<const json*> items = values_of(*v);
  std::vector<Choice> out;
  for (const json* e : items) {
    if (allow_auto && e->is_string()) {
      if (e->get_ref<const std::string&>() != "auto")
        where.fail(field, "unknown value " + quote(e->get_ref<const std::string&>()), allowed);
      out.push_back({[=](KernelSpec& k) { set(k, 0); }, std::string(suffix) + "auto",
                     "'auto'"});
      continue;
    }
    uint32_t x = static_cast<uint32_t>(read_in_range(*e, where, field, field, lo, hi, power_of_two, allowed));
    out.push_back({[=](KernelSpec& k) { set(k, x); }, fmt::format("{}{}", suffix, x),
                   fmt::format("{}", x)});
  }
  reject_duplicates(out, where, field);
  return out;
}

std::string read_name(const json& kernel, const Where& where) {
  auto it = kernel.find("name");
  if (it == kernel.end())
    where.fail("name", "missing; every kernel needs a unique name", kAllowedName);
  if (!it->is_string()) where.fail("name", "must be a string, got " + describe(*it), kAllowedName);
  const std::string& name = it->get_ref<const std::string&>();
  if (name.empty()) where.fail("name", "the name is empty", kAllowedName);
  if (name.size() > kMaxNameLength)
    where.fail("name", fmt::format("the name is {} characters long", name.size()), kAllowedName);
  for (char c : name) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) {
      std::string ch = c == '\'' ? "\"'\"" : quote(std::string(1, c));
      if (static_cast<unsigned char>(c) >= 0x80) ch = "a non-ASCII character";
      where.fail("name", fmt::format("name {} contains {}", quote(name), ch), kAllowedName);
    }
  }
  return name;
}

// A kernel with the wgsl target is planned within WebGPU's default limits (kWebGpuLimits) for every
// target, as the shared memory budget of D3D12 and Metal is kept for theirs; what it asks beyond
// them, and what WebGPU does not offer, is refused with the reason.
void limit_to_webgpu(KernelSpec& k) {
  auto refuse = [&](const char* field, const std::string& what) {
    throw PlanError(fmt::format("kernel '{}': field '{}': {}, or drop wgsl from the targets", k.name, field, what));
  };
  if (k.precision == Precision::fp16)
    refuse("precision", "fp16 storage needs WebGPU's optional shader-f16 feature, which the wgsl target does not "
                        "use; use fp32");
  if (k.shared_memory_bytes > kWebGpuLimits.shared_memory_bytes) {
    if (k.explicit_fields.count("shared_memory_bytes"))
      refuse("shared_memory_bytes",
             fmt::format("{} bytes is more than WebGPU's maxComputeWorkgroupStorageSize ({}); use at most {}",
                         k.shared_memory_bytes, kWebGpuLimits.shared_memory_bytes, kWebGpuLimits.shared_memory_bytes));
    k.shared_memory_bytes = kWebGpuLimits.shared_memory_bytes;
  }
  if (k.workgroup_size > kWebGpuLimits.invocations)
    refuse("workgroup_size", fmt::format("{} invocations is more than WebGPU's maxComputeInvocationsPerWorkgroup ({}); "
                                         "use \"auto\" or at most {}",
                                         k.workgroup_size, kWebGpuLimits.invocations, kWebGpuLimits.invocations));
  if (k.pass_sync == PassSync::counters)
    refuse("pass_sync", "counters make workgroups wait on each other, and WebGPU promises no progress to a workgroup "
                        "that waits on another; use \"auto\" or \"dispatch\"");
  // A 1D image kernel's rows are texture rows of N texels (2D sides and a convolution's frame sides are
  // at most 8192 for every target).
  if (k.io == Io::image && !k.convolution && k.n() > kWebGpuMaxTextureSide)
    refuse("shape", fmt::format("an image kernel's rows are texture rows, and N = {} is wider than WebGPU's "
                                "maxTextureDimension2D ({} by default); use N up to {}",
                                k.n(), kWebGpuMaxTextureSide, kWebGpuMaxTextureSide));
}

std::vector<Target> parse_targets(const json& doc, const Where& where) {
  const std::string allowed = join(allowed_values("targets"));
  auto it = doc.find("targets");
  if (it == doc.end()) return {Target::spirv, Target::glsl, Target::hlsl, Target::msl};
  if (!it->is_array()) where.fail("targets", "must be a list like [\"spirv\", \"msl\"], got " + describe(*it), allowed);
  if (it->empty()) where.fail("targets", "the list is empty; give at least one target or leave the field out", allowed);
  std::vector<Target> out;
  for (const auto& e : *it) {
    if (!e.is_string()) where.fail("targets", "each target must be a string, got " + describe(e), allowed);
    const std::string& s = e.get_ref<const std::string&>();
    std::optional<Target> t = parse_target(s);
    if (!t) where.fail("targets", "unknown target " + quote(s), allowed);
    if (std::find(out.begin(), out.end(), *t) != out.end())
      where.fail("targets", "target " + quote(s) + " is listed twice; list each target once", allowed);
    out.push_back(*t);
  }
  return out;
}

template <typename V>
V parse_version(const json& doc, const Where& where, const std::string& field,
                const std::vector<std::pair<std::string, V>>& table) {
  std::vector<std::string> names;
  for (const auto& [s, v] : table) names.push_back(s);
  const std::string allowed = join(names);
  auto it = doc.find(field);
  if (it == doc.end()) return table.front().second;
  if (!it->is_string())
    where.fail(field, fmt::format("must be a string such as \"{}\", got {}", table.front().first, describe(*it)),
               allowed);
  const std::string& s = it->get_ref<const std::string&>();
  for (const auto& [name, v] : table)
    if (name == s) return v;
  where.fail(field, "unknown value " + quote(s), allowed);
}

// --- The field registry -----------------------------------------------------------------------------
// One entry per kernel field, in expansion order (the first varies slowest; suffixes follow it too):
// how to parse its alternatives and how to spell a variant's value as a plan would. The parser, the
// variant suffixes, wisdom and `fftgen --list-variants` (and through it bench/wisdom.py) all read it.
struct FieldEntry {
  PlanField info;
  /// The field's alternatives; `v` is null when the kernel leaves the field out (its default).
  std::function<std::vector<Choice>(const json* v, const Where& where, std::string_view suffix)> parse;
  /// The variant's value, spelt as in a plan.
  std::function<json(const KernelSpec&)> spell;
};

template <typename E>
FieldEntry enum_field(const char* name, E fallback, std::optional<E> (*parse)(std::string_view),
                      void (*set)(KernelSpec&, E), E KernelSpec::*member) {
  return {{name, std::string(to_string(fallback)), false, "__"},
          [=](const json* v, const Where& where, std::string_view suffix) {
            return parse_enum_field<E>(v, fallback, parse, set, where, name, suffix);
          },
          [=](const KernelSpec& k) { return json(std::string(to_string(k.*member))); }};
}

json auto_or(uint32_t value) { return value == 0 ? json("auto") : json(value); }

const std::vector<FieldEntry>& registry() {
  static const std::vector<FieldEntry> fields = [] {
    std::vector<FieldEntry> f;
    f.push_back({{"name", nullptr, false, ""}, nullptr, [](const KernelSpec& k) { return json(k.plan_name); }});
    f.push_back({{"shape", nullptr, false, "__n"}, parse_shape_field,
                 [](const KernelSpec& k) { return json(k.shape); }});
    f.push_back(enum_field<Transform>("transform", Transform::c2c, parse_transform,
                                      [](KernelSpec& k, Transform x) { k.transform = x; }, &KernelSpec::transform));
    f.push_back(enum_field<DirectionSet>("direction", DirectionSet::both, parse_direction_set,
                                         [](KernelSpec& k, DirectionSet x) { k.direction = x; }, &KernelSpec::direction));
    f.push_back(enum_field<Normalize>("normalize", Normalize::inverse, parse_normalize,
                                      [](KernelSpec& k, Normalize x) { k.normalize = x; }, &KernelSpec::normalize));
    f.push_back({{"radices", "auto", true, "__r"},
                 parse_radices_field,
                 [](const KernelSpec& k) { return k.radices.empty() ? json("auto") : json(k.radices); }});
    f.push_back(enum_field<IndexMath>("index_math", IndexMath::bitwise, parse_index_math,
                                      [](KernelSpec& k, IndexMath x) { k.index_math = x; }, &KernelSpec::index_math));
    f.back().info.wisdom_tunable = true;
    f.push_back(enum_field<TwiddleSource>("twiddles", TwiddleSource::automatic, parse_twiddle_source,
                                          [](KernelSpec& k, TwiddleSource x) { k.twiddles = x; }, &KernelSpec::twiddles));
    f.back().info.wisdom_tunable = true;
    f.push_back({{"workgroup_size", "auto", true, "__wg"},
                 [](const json* v, const Where& where, std::string_view suffix) {
                   return parse_integer_field(v, where, "workgroup_size", 0, true, 1, kMaxWorkgroupSize, true,
                                              kAllowedWorkgroup, suffix,
                                              [](KernelSpec& k, uint32_t x) { k.workgroup_size = x; });
                 },
                 [](const KernelSpec& k) { return auto_or(k.workgroup_size); }});
    f.push_back(enum_field<Precision>("precision", Precision::fp32, parse_precision,
                                      [](KernelSpec& k, Precision x) { k.precision = x; }, &KernelSpec::precision));
    f.push_back(enum_field<Io>("io", Io::buffer, parse_io, [](KernelSpec& k, Io x) { k.io = x; }, &KernelSpec::io));
    f.push_back(enum_field<TextureFormat>("image_format", TextureFormat::automatic, parse_texture_format,
                                          [](KernelSpec& k, TextureFormat x) { k.image_format = x; },
                                          &KernelSpec::image_format));
    f.push_back(enum_field<IntermediateLayout>("intermediate_layout", IntermediateLayout::automatic,
                                               parse_intermediate_layout,
                                               [](KernelSpec& k, IntermediateLayout x) { k.intermediate_layout = x; },
                                               &KernelSpec::intermediate_layout));
    f.push_back(enum_field<FirstYStage>("first_y_stage", FirstYStage::automatic, parse_first_y_stage,
                                        [](KernelSpec& k, FirstYStage x) { k.first_y_stage = x; },
                                        &KernelSpec::first_y_stage));
    f.push_back(enum_field<PassSync>("pass_sync", PassSync::automatic, parse_pass_sync,
                                     [](KernelSpec& k, PassSync x) { k.pass_sync = x; }, &KernelSpec::pass_sync));
    f.push_back({{"counter_lag", "auto", false, "__lag"},
                 [](const json* v, const Where& where, std::string_view suffix) {
                   return parse_integer_field(v, where, "counter_lag", 0, true, 1, kMaxCounterLag, false,
                                              kAllowedCounterLag, suffix,
                                              [](KernelSpec& k, uint32_t x) { k.counter_lag = x; });
                 },
                 [](const KernelSpec& k) { return auto_or(k.counter_lag); }});
    f.push_back({{"values_per_invocation", "auto", true, "__vpi"},
                 [](const json* v, const Where& where, std::string_view suffix) {
                   return parse_integer_field(v, where, "values_per_invocation", 0, true, 2, kMaxValuesPerInvocation,
                                              false, kAllowedValuesPerInvocation, suffix,
                                              [](KernelSpec& k, uint32_t x) { k.values_per_invocation = x; });
                 },
                 [](const KernelSpec& k) { return auto_or(k.values_per_invocation); }});
    f.push_back({{"shared_memory_bytes", 32768, true, "__smem"},
                 [](const json* v, const Where& where, std::string_view suffix) {
                   return parse_integer_field(v, where, "shared_memory_bytes", 32768, false, kMinSharedMemory,
                                              kMaxSharedMemory, false, kAllowedSharedMemory, suffix,
                                              [](KernelSpec& k, uint32_t x) { k.shared_memory_bytes = x; });
                 },
                 [](const KernelSpec& k) { return json(k.shared_memory_bytes); }});
    f.push_back(enum_field<Placement>("placement", Placement::out_of_place, parse_placement,
                                      [](KernelSpec& k, Placement x) { k.placement = x; }, &KernelSpec::placement));
    // Not expanded: expand_kernel() rewrites a convolution into its padded plane first.
    f.push_back({{"convolution", nullptr, false, ""}, nullptr, [](const KernelSpec& k) {
                   if (!k.convolution) return json(nullptr);
                   const ConvolutionSpec& c = *k.convolution;
                   json filter{c.filter_h, c.filter_w};
                   if (c.filter_channels > 1) filter.push_back(c.filter_channels);
                   return json{{"image", {c.image_h, c.image_w}}, {"filter", filter}, {"channels", c.channels},
                               {"mode", c.circular ? "circular" : "same"}, {"packing", c.pairs ? "pairs" : "r2c"},
                               {"padded", {c.padded_h, c.padded_w}}, {"padding", c.padding}};
                 }});
    return f;
  }();
  return fields;
}

const FieldEntry& field_entry(const std::string& key) {
  for (const FieldEntry& e : registry())
    if (e.info.name == key) return e;
  throw PlanError("internal error: no plan field '" + key + "'");
}

std::vector<std::string> field_names(bool wisdom_only) {
  std::vector<std::string> names;
  for (const FieldEntry& e : registry())
    if (!wisdom_only || e.info.wisdom_tunable) names.push_back(e.info.name);
  return names;
}

// Kernel fields in expansion order, and those a wisdom winner may set (in this order when applied
// and reported).
const std::vector<std::string> kKernelFields = field_names(false);
const std::vector<std::string> kWisdomFields = field_names(true);

// The alternatives of one kernel field (any but "name"); `v` is null when the field is absent.
std::vector<Choice> parse_kernel_field(const std::string& key, const json* v, const Where& where) {
  const FieldEntry& entry = field_entry(key);
  return entry.parse(v, where, entry.info.suffix);
}

// "radices [a, b] multiply to P" when an explicit split's product P is not n (capped, with
// "or more", beyond 2^40); empty when it is n or the split is auto.
std::string radices_mismatch(const std::vector<uint32_t>& radices, uint32_t n) {
  if (radices.empty()) return "";
  uint64_t product = 1;
  for (uint32_t r : radices) product = std::min<uint64_t>(product * r, uint64_t{1} << 40);
  if (product == n) return "";
  return fmt::format("radices {} multiply to {}{}", radix_list_text(radices), product,
                     product >= (uint64_t{1} << 40) ? " or more" : "");
}

// "padded": [PH, PW], the plane a "same" convolution runs over when the plan names it (the
// planner's choice otherwise, choose_padded_plane): each side at least same_padding_minimum(), an
// r2c plane's width even. Whether its sides build is checked with the plane (choose_padded_plane).
void read_padded_plane(ConvolutionSpec& c, const json& v, const Where& where, const std::string& allowed) {
  const std::string field = "convolution";
  if (c.circular)
    where.fail(field, "'padded' is for \"same\": a circular convolution transforms the image itself", allowed);
  const uint32_t need_h = same_padding_minimum(c.image_h, c.filter_h);
  const uint32_t need_w = same_padding_minimum(c.image_w, c.filter_w);
  const uint64_t max_side = uint64_t{1} << kMaxLog2Side;
  const std::string sides = fmt::format("[PH, PW] with PH from {} and PW from {} (image + ceil((K-1)/2) per axis, at "
                                        "least K) up to {}{}",
                                        need_h, need_w, max_side, c.pairs ? "" : ", PW even (r2c rows are pairs of reals)");
  if (!v.is_array() || v.size() != 2 || !v[0].is_number_unsigned() || !v[1].is_number_unsigned())
    where.fail(field, "'padded' must be " + sides + ", got " + describe(v), allowed);
  const uint64_t h = v[0].get<uint64_t>(), w = v[1].get<uint64_t>();
  if (h < need_h || w < need_w || h > max_side || w > max_side || (!c.pairs && w % 2 != 0))
    where.fail(field, fmt::format("'padded' [{}, {}] does not hold this \"same\" convolution; use {}", h, w, sides),
               allowed);
  c.padded_h = static_cast<uint32_t>(h), c.padded_w = static_cast<uint32_t>(w);
  c.padded_by_plan = true;
}

// "convolution": {"image": [H, W], "filter": [KH, KW] or [KH, KW, C], "channels": C, "mode": "same" |
// "circular"}: one value (not a list). A circular convolution transforms the image itself; a
// "same" one a plane of at least same_padding_minimum() per axis, which choose_padded_plane()
// picks per variant (the power of two here, until then).
ConvolutionSpec parse_convolution(const json& v, const Where& where) {
  const std::string field = "convolution";
  const std::string allowed =
      R"({"image": [H, W], "filter": [KH, KW] or [KH, KW, C], "channels": 1 to 4, "mode": "same" or "circular", )"
      R"("packing": "r2c" or "pairs", "padded": [PH, PW] (same only; default: the planner's)})";
  if (!v.is_object()) where.fail(field, "must be an object, got " + describe(v), allowed);
  for (const auto& item : v.items())
    if (item.key() != "image" && item.key() != "filter" && item.key() != "channels" && item.key() != "mode" &&
        item.key() != "packing" && item.key() != "padded")
      where.fail(field, "unknown field " + quote(item.key()), allowed);
  const uint64_t max_side = uint64_t{1} << kMaxLog2Side;
  auto sides = [&](const char* key, size_t min_rank, size_t max_rank) {
    auto it = v.find(key);
    if (it == v.end()) where.fail(field, fmt::format("'{}' is missing", key), allowed);
    if (!it->is_array() || it->size() < min_rank || it->size() > max_rank)
      where.fail(field, fmt::format("'{}' must be a list of {} sizes, got {}", key,
                                    min_rank == max_rank ? std::to_string(min_rank) : "2 or 3", describe(*it)),
                 allowed);
    std::vector<uint32_t> out;
    for (const json& s : *it)
      out.push_back(static_cast<uint32_t>(
          read_in_range(s, where, field, key, 1, max_side, false, "sizes from 1 to " + std::to_string(max_side))));
    return out;
  };
  ConvolutionSpec c;
  const auto image = sides("image", 2, 2), filter = sides("filter", 2, 3);
  c.image_h = image[0], c.image_w = image[1], c.filter_h = filter[0], c.filter_w = filter[1];
  auto channels = v.find("channels");
  c.channels = channels == v.end() ? 1
                                   : static_cast<uint32_t>(read_in_range(*channels, where, field, "channels", 1, 4,
                                                                         false, "1 to 4"));
  c.filter_channels = filter.size() == 3 ? filter[2] : 1;
  if (filter.size() == 3 && c.filter_channels != c.channels)
    where.fail(field, fmt::format("the filter has {} channels and the image {}; a filter [KH, KW, C] has one "
                                  "channel per image channel",
                                  c.filter_channels, c.channels),
               allowed);
  auto mode = v.find("mode");
  const std::string m = mode == v.end() ? "same" : mode->is_string() ? mode->get<std::string>() : "";
  if (m != "same" && m != "circular")
    where.fail(field, "'mode' must be \"same\" or \"circular\", got " + (mode == v.end() ? "" : describe(*mode)),
               allowed);
  c.circular = m == "circular";
  auto packing = v.find("packing");
  if (packing != v.end()) {
    const std::string p = packing->is_string() ? packing->get<std::string>() : "";
    if (p != "r2c" && p != "pairs")
      where.fail(field, "'packing' must be \"r2c\" or \"pairs\", got " + describe(*packing), allowed);
    c.pairs = p == "pairs";
    if (c.pairs && c.channels == 1)
      where.fail(field, "'packing': \"pairs\" puts two channels in one complex transform, and the image has one "
                        "channel; use \"r2c\"",
                 allowed);
    if (c.pairs && c.filter_channels > 1)
      where.fail(field, fmt::format("'packing': \"pairs\" multiplies two channels by one spectrum, so it needs one "
                                    "filter for every channel; the filter has {} channels (use \"r2c\", or a filter "
                                    "[KH, KW])",
                                    c.filter_channels),
                 allowed);
  } else {
    c.pairs = kPairsByDefault && c.channels > 1 && c.filter_channels == 1;
  }
  if (c.circular) {
    for (uint32_t side : {c.image_h, c.image_w})
      if (side < 2 || largest_prime_factor(side) > kMaxPrimeFactor)
        where.fail(field, fmt::format("a circular convolution transforms the image itself, so its sides must be "
                                      "transform lengths: 2 to {} with no prime factor above {}; the image is [{}, {}] "
                                      "(use \"same\" for other sizes)",
                                      max_side, kMaxPrimeFactor, c.image_h, c.image_w),
                   allowed);
    if (!c.pairs && c.image_w % 2 != 0)
      where.fail(field, fmt::format("a circular convolution packed \"r2c\" transforms the image's rows as pairs of "
                                    "reals, so its width must be even; the image is [{}, {}]{}",
                                    c.image_h, c.image_w,
                                    c.channels > 1 && c.filter_channels == 1 ? " (or use \"packing\": \"pairs\")"
                                                                            : " (or use \"same\")"),
                 allowed);
    if (c.filter_h > c.image_h || c.filter_w > c.image_w)
      where.fail(field, fmt::format("the filter [{}, {}] is larger than the padded size [{}, {}] of a circular "
                                    "convolution (the image)",
                                    c.filter_h, c.filter_w, c.image_h, c.image_w),
                 allowed);
    c.padded_h = c.image_h, c.padded_w = c.image_w;
    c.padding = "circular transforms the image itself";
  } else {
    const uint32_t need_h = same_padding_minimum(c.image_h, c.filter_h);
    const uint32_t need_w = same_padding_minimum(c.image_w, c.filter_w);
    if (need_h > max_side || need_w > max_side)
      where.fail(field, fmt::format("image [{}, {}] and filter [{}, {}] need a padded plane of at least [{}, {}] "
                                    "(image + ceil((filter - 1) / 2) per axis, and at least the filter); the largest "
                                    "side is {}",
                                    c.image_h, c.image_w, c.filter_h, c.filter_w, need_h, need_w, max_side),
                 allowed);
    c.padded_h = static_cast<uint32_t>(uint64_t{1} << ceil_log2(need_h));
    c.padded_w = static_cast<uint32_t>(uint64_t{1} << ceil_log2(need_w));
  }
  if (v.contains("padded")) read_padded_plane(c, v["padded"], where, allowed);
  return c;
}

// The padded plane of a convolution variant: the image itself (circular), or of the planes whose
// sides padding_candidates() allows (at least same_padding_minimum() each), the one of least
// padding_cost() whose apply and filter kernels both build. Candidates go cheapest floor first,
// so the search stops at the first floor above the best cost found. The power of two of each
// side is among them: a "same" convolution builds wherever it did before sides of 3, 5 and 7.
void choose_padded_plane(KernelSpec& k, const Where& where, const std::string& which) {
  ConvolutionSpec& c = *k.convolution;
  auto build = [&](uint32_t h, uint32_t w) {
    KernelSpec apply = k;
    apply.shape = {h, w};
    apply.convolution->padded_h = h, apply.convolution->padded_w = w;
    KernelSpec filter = apply;
    filter.convolution_filter = true;
    filter.direction = DirectionSet::forward;
    filter.io = Io::buffer;
    filter.image_format = TextureFormat::automatic;
    (void)make_program(filter);
    return make_program(apply);
  };
  // The plane the plan fixed (the image, or "padded"): it builds, or the kernel is refused.
  auto build_fixed = [&](const std::string& what, const std::string& allowed) {
    try {
      (void)build(c.padded_h, c.padded_w);
    } catch (const PlanError& e) {
      where.fail("convolution", fmt::format("{} cannot run here{}: {}", what, which, e.what()), allowed);
    }
  };
  if (c.circular) {
    build_fixed(fmt::format("a circular convolution of [{}, {}]", c.image_h, c.image_w),
                "an image whose plane builds (sides that are powers of two do), or \"same\"");
    return;
  }
  const uint32_t need_h = same_padding_minimum(c.image_h, c.filter_h);
  const uint32_t need_w = same_padding_minimum(c.image_w, c.filter_w);
  const std::string needs =
      fmt::format("same needs >= {}x{} (image + ceil((K-1)/2) per axis, at least K); ", need_h, need_w);
  if (c.padded_by_plan) {
    build_fixed(fmt::format("the plan's padded plane [{}, {}]", c.padded_h, c.padded_w),
                "sides whose transforms build (7-smooth sides do), or no 'padded' (the planner's plane)");
    c.padding = needs + fmt::format("the plan asks for {}x{}", c.padded_h, c.padded_w);
    k.shape = {c.padded_h, c.padded_w};
    return;
  }
  struct Plane {
    ConvolutionSpec spec;
    double floor;
  };
  std::vector<Plane> planes;
  // An r2c plane's rows are pairs of reals (an odd width would run them as complex transforms).
  for (uint32_t h : padding_candidates(need_h, false))
    for (uint32_t w : padding_candidates(need_w, !c.pairs)) {
      ConvolutionSpec plane = c;
      plane.padded_h = h, plane.padded_w = w;
      planes.push_back({plane, padding_cost_floor(plane)});
    }
  std::stable_sort(planes.begin(), planes.end(), [](const Plane& a, const Plane& b) { return a.floor < b.floor; });
  std::optional<ConvolutionSpec> best;
  double best_cost = 0;
  std::vector<std::string> refused;
  for (const Plane& plane : planes) {
    if (best && plane.floor >= best_cost) break;
    try {
      const double cost = padding_cost(plane.spec, build(plane.spec.padded_h, plane.spec.padded_w), k.shared_memory_bytes);
      if (!best || cost < best_cost) best = plane.spec, best_cost = cost;
    } catch (const PlanError& e) {
      refused.push_back(fmt::format("{}x{} ({})", plane.spec.padded_h, plane.spec.padded_w, e.what()));
    }
  }
  if (!best) where.fail("convolution", "no padded plane builds" + which + ": " + join(refused, "; "));
  c = *best;
  c.padding = needs + fmt::format("of the 7-smooth planes up to {}x{}, {}x{} has the least estimated cost",
                                  uint64_t{1} << ceil_log2(need_h), uint64_t{1} << ceil_log2(need_w), c.padded_h,
                                  c.padded_w);
  if (!refused.empty())
    c.padding += fmt::format(" that builds ({} other planes refused, first {})", refused.size(), refused.front());
  k.shape = {c.padded_h, c.padded_w};
}

// A convolution with "io": "image" (docs/graphics.md, "Textures"): its apply kernel reads the
// frame's pixels from a storage image and writes the result to one (the filter stays a buffer).
// A texel is written whole, so one invocation must hold every channel of a pixel: one channel
// (r32f, its own r2c plane) or two packed in pairs (one complex plane: r, g). The planes of three
// or four channels are transformed by different workgroups.
void check_convolution_textures(const KernelSpec& k, const Where& where, const std::string& which) {
  const ConvolutionSpec& c = *k.convolution;
  const std::string format(to_string(k.image_format));
  const std::string allowed = "\"io\": \"image\" with 1 channel (r32f) or 2 channels packed in pairs (rg32f, "
                              "rgba32f); \"io\": \"buffer\" for 3 or 4 channels";
  if (c.planes() != 1)
    where.fail("io", fmt::format("a convolution with \"io\": \"image\" writes each texel whole from one plane; {} "
                                 "channel(s) in {} planes (packing {}) would need every plane of a pixel in one "
                                 "invocation, which fftgen does not build yet{}",
                                 c.channels, c.planes(), c.pairs ? "pairs" : "r2c", which),
               allowed);
  const bool complex_format = k.image_format == TextureFormat::rg32f || k.image_format == TextureFormat::rgba32f;
  if (k.image_format == TextureFormat::rgba16f)
    where.fail("image_format", "a convolution's frames are float32 pixels; rgba16f frames are not built (precision "
                               "fp16 keeps the padded planes in half floats)" + which,
               allowed);
  if (c.channels == 1 && k.image_format != TextureFormat::r32f)
    where.fail("image_format", fmt::format("a convolution of one channel reads and writes r32f images; {} holds two "
                                           "or more channels{}", quote(format), which),
               allowed);
  if (c.channels == 2 && !complex_format)
    where.fail("image_format", fmt::format("a convolution of two channels reads and writes them as a texel's r and g; "
                                           "{} holds one{}", quote(format), which),
               allowed);
  if (c.image_w > kMaxTextureWidth)
    where.fail("convolution", fmt::format("an image's rows are texel rows, and its width {} is wider than {} "
                                          "texels{}", c.image_w, kMaxTextureWidth, which),
               fmt::format("image widths up to {} with \"io\": \"image\"", kMaxTextureWidth));
}

// "io": "image" and its "image_format" (docs/graphics.md, "Textures"): which transforms and
// formats go together, and what storage images cannot hold.
// precision fp64: what has no double-precision form. (Its targets: refuse_double_targets.)
void check_double(const KernelSpec& k, const Where& where, const std::string& which) {
  if (k.precision != Precision::fp64) return;
  if (k.twiddles == TwiddleSource::computed)
    where.fail("twiddles", "computed twiddles call the shader's sin and cos, which GLSL has for float only; an fp64 "
                           "kernel reads its twiddles from a table computed in double" + which,
               "\"auto\" or \"table\" with precision fp64");
  const std::string allowed = "fp32 or fp16 here; fp64 for c2c and r2c kernels of buffers";
  if (k.convolution)
    where.fail("precision", "convolutions are planned in fp32 and fp16 only (their frames are float images)" + which,
               allowed);
  if (k.transform == Transform::r2c_pair)
    where.fail("precision", "r2c_pair is planned in fp32 and fp16 only; for two real signals in fp64 use r2c per "
                            "signal" + which, allowed);
}

// The targets an fp64 kernel cannot have: Metal and WebGPU have no double precision, and the HLSL
// of doubles in ByteAddressBuffers needs shader model 6.2 (SPIRV-Cross's templated loads).
void refuse_double_targets(const KernelSpec& k, const Plan& plan) {
  if (k.precision != Precision::fp64) return;
  auto refuse = [&](const char* target, const std::string& why) {
    throw PlanError(fmt::format("kernel '{}': field 'precision': {}; drop {} from the plan's targets (fp64 has spirv, "
                                "glsl and hlsl) or use fp32",
                                k.name, why, target));
  };
  if (k.targets_metal) refuse("msl", "Metal has no double precision (fp64)");
  if (k.targets_webgpu) refuse("wgsl", "WebGPU has no double precision (WGSL has no f64)");
  constexpr uint32_t kDoubleShaderModel = 62;
  if (std::find(plan.targets.begin(), plan.targets.end(), Target::hlsl) != plan.targets.end() &&
      plan.cross.hlsl_shader_model < kDoubleShaderModel)
    refuse("hlsl", fmt::format("its HLSL reads doubles from ByteAddressBuffers with templated loads, which need shader "
                               "model 6.2 (hlsl_shader_model is {}.{}); set \"hlsl_shader_model\": \"6.2\" or more",
                               plan.cross.hlsl_shader_model / 10, plan.cross.hlsl_shader_model % 10));
}

void check_textures(const KernelSpec& k, const Where& where, const std::string& which) {
  const std::string format(to_string(k.image_format));
  if (k.io == Io::buffer) {
    if (k.image_format != TextureFormat::automatic)
      where.fail("image_format", fmt::format("image_format {} is for kernels with \"io\": \"image\"{}", quote(format), which),
                 "\"io\": \"image\" beside \"image_format\", or no image_format");
    return;
  }
  const std::string io_allowed = "c2c (rg32f, rgba32f, rgba16f) or r2c (r32f) with \"io\": \"image\"";
  if (k.convolution) return check_convolution_textures(k, where, which);
  if (k.transform == Transform::r2c_pair)
    where.fail("io", "r2c_pair kernels read and write buffers only" + which, io_allowed);
  if (k.precision != Precision::fp32)
    where.fail("precision", "an image kernel takes its storage precision from its format (rgba16f holds half floats)" + which,
               "fp32 beside \"io\": \"image\", with image_format rgba16f for half floats");
  const bool real = k.transform == Transform::r2c;
  const bool complex_format = k.image_format == TextureFormat::rg32f || k.image_format == TextureFormat::rgba32f ||
                              k.image_format == TextureFormat::rgba16f;
  if (real && k.n() % 2 != 0)
    where.fail("shape", fmt::format("an r2c image kernel reads and writes its reals in pairs along a row, so NX (N in "
                                    "1D) must be even; {} is odd{}", k.n(), which),
               "an even NX for r2c with \"io\": \"image\", or c2c");
  if (real && k.image_format != TextureFormat::r32f)
    where.fail("image_format", fmt::format("an r2c kernel's real data are r32f images (its half spectrum rg32f); {} "
                                           "holds complex values{}", quote(format), which),
               "r32f for r2c; rg32f, rgba32f or rgba16f for c2c");
  if (!real && !complex_format)
    where.fail("image_format", fmt::format("{} holds one real per texel; a c2c kernel's images hold complex values{}",
                                           quote(format), which),
               "rg32f, rgba32f or rgba16f for c2c; r32f for r2c");
  if (k.n() > kMaxTextureWidth)
    where.fail("shape", fmt::format("an image kernel's rows are image rows, and {} = {} is wider than {} texels{}",
                                    k.is_2d() ? "NX" : "N", k.n(), kMaxTextureWidth, which),
               fmt::format("NX (N in 1D) up to {} with \"io\": \"image\"", kMaxTextureWidth));
}

// What a 3D kernel [NZ, NY, NX] cannot have: its passes are X, Y and Z passes over buffers, each
// laid out by fftgen (docs/plan.md, "3D kernels").
void check_volume(const KernelSpec& k, const Where& where, const std::string& which) {
  if (!k.is_3d()) return;
  const std::string kept = "a 3D kernel keeps one dispatch per pass along X, Y and Z" + which;
  if (k.io == Io::image)
    where.fail("io", "3D kernels read and write buffers" + which, "\"buffer\" for a 3D shape");
  if (k.transform == Transform::r2c_pair)
    where.fail("transform", "r2c_pair is for 1D kernels" + which, "c2c or r2c for a 3D shape");
  if (k.precision == Precision::fp16)
    where.fail("precision", "3D kernels are fp32 or fp64" + which, "fp32 or fp64 for a 3D shape");
  if (!k.radices.empty())
    where.fail("radices", "3D kernels choose the radices of each axis themselves" + which, "\"auto\" for a 3D shape");
  if (k.intermediate_layout == IntermediateLayout::column_tiles)
    where.fail("intermediate_layout", "column_tiles is for 2D kernels; " + kept, "\"auto\" or \"rows\" for a 3D shape");
  if (k.first_y_stage == FirstYStage::row_pass)
    where.fail("first_y_stage", "row_pass is for 2D kernels; " + kept, "\"auto\" or \"column_pass\" for a 3D shape");
  if (k.pass_sync == PassSync::counters)
    where.fail("pass_sync", "counters are for 1D and 2D kernels; " + kept, "\"auto\" or \"dispatch\" for a 3D shape");
}

// Every program of an image kernel must read and write its images at the ends; a way of building
// passes that does not know images is refused rather than run on buffers.
void check_image_program(const KernelSpec& k, const KernelProgram& program) {
  // A convolution's apply kernel reads the frame as its forward starts and writes it as its inverse ends.
  if (k.convolution && !k.convolution_filter) {
    if (program.forward.empty() || program.inverse.empty() || !program.forward.front().bindings.at(0).is_texture() ||
        !program.inverse.back().bindings.at(1).is_texture())
      throw PlanError(fmt::format("kernel '{}': field 'io': this convolution's passes do not read and write images; "
                                  "use \"io\": \"buffer\"", k.name));
    return;
  }
  for (Direction d : directions_of(k.direction)) {
    const auto& passes = program.passes(d);
    if (passes.empty() || !passes.front().bindings.at(0).is_texture() || !passes.back().bindings.at(1).is_texture())
      throw PlanError(fmt::format("kernel '{}': field 'io': \"io\": \"image\" is not supported for this shape and "
                                  "transform; use \"io\": \"buffer\"",
                                  k.name));
  }
}

// Combinations of fields no kernel can have; `which` names the variant (" (variant 'x')" or "").
void check_combination(const KernelSpec& k, const Where& where, const std::string& which) {
  check_volume(k, where, which);
  check_textures(k, where, which);
  check_double(k, where, which);
  if (k.is_2d() && !k.radices.empty())
    where.fail("radices", fmt::format("2D kernels choose the radices of each axis themselves{}; explicit splits are "
                                      "for 1D kernels", which), "\"auto\" for a 2D shape");
  if (k.intermediate_layout == IntermediateLayout::column_tiles && (!k.is_2d() || k.io == Io::image || k.convolution))
    where.fail("intermediate_layout",
               fmt::format("column_tiles keeps the values between a 2D kernel's X and Y passes in a scratch buffer; "
                           "{}{}", !k.is_2d() ? "a 1D kernel has no Y pass" : k.io == Io::image
                                                  ? "an image kernel (io image) keeps its own passes' layout"
                                                  : "a convolution keeps its own passes' layout",
                           which),
               "\"auto\" or \"rows\"; \"column_tiles\" for 2D c2c and r2c kernels of buffers");
  if (k.first_y_stage == FirstYStage::row_pass && (!k.is_2d() || k.io == Io::image || k.convolution ||
                                                   k.workgroup_size != 0))
    where.fail("first_y_stage",
               fmt::format("row_pass has a 2D kernel's row pass do the first stage along Y; {}{}",
                           !k.is_2d()          ? "a 1D kernel has no Y axis"
                           : k.io == Io::image ? "an image kernel (io image) keeps its own passes"
                           : k.convolution     ? "a convolution keeps its own passes"
                                               : "its pairs of rows take the automatic workgroup size",
                           which),
               "\"auto\" or \"column_pass\"; \"row_pass\" for 2D c2c and r2c kernels of buffers with "
               "workgroup_size \"auto\"");
  if (k.pass_sync == PassSync::counters && (k.io == Io::image || k.convolution))
    where.fail("pass_sync",
               fmt::format("counters run the passes of a kernel of buffers in one dispatch; {}{}",
                           k.io == Io::image ? "an image kernel (io image) keeps a dispatch per pass"
                                             : "a convolution keeps a dispatch per pass",
                           which),
               "\"auto\" or \"dispatch\"; \"counters\" for c2c, r2c and r2c_pair kernels of buffers");
  if (k.counter_lag != 0 && k.pass_sync == PassSync::dispatch)
    where.fail("counter_lag", "the lag orders the work of passes that share one dispatch; with pass_sync "
                              "\"dispatch\" each pass has its own" + which,
               "\"auto\", or pass_sync \"counters\" or \"auto\" beside an integer lag");
  if (k.placement == Placement::in_place && (k.io == Io::image || k.convolution || k.transform == Transform::r2c_pair))
    where.fail("placement",
               fmt::format("in_place overwrites a kernel's input buffer with its output; {}{}",
                           k.io == Io::image     ? "an image kernel (io image) reads and writes storage images"
                           : k.convolution       ? "a convolution reads an image and writes another"
                                                 : "r2c_pair's output (N + 2 values) is larger than its input",
                           which),
               "\"out_of_place\"; \"in_place\" for c2c and r2c kernels of buffers");
  if (k.is_2d() && k.transform == Transform::r2c_pair)
    where.fail("transform", fmt::format("r2c_pair is for 1D kernels{}; for the channels of an image use c2c on the "
                                        "packed pairs (a packed spectrum times a real filter's spectrum needs no "
                                        "separation) or r2c per channel", which),
               "c2c or r2c for a 2D shape");
  // An r2c kernel of odd N (odd NX) computes the complex transform of N (of each row:
  // transforms.md); r2c_pair computes one of half the length.
  const bool odd_real = k.transform == Transform::r2c && k.n() % 2 != 0;
  if (k.transform == Transform::r2c_pair && k.n() % 2 != 0)
    where.fail("shape", fmt::format("r2c_pair of an odd length (N = {}{}) is not supported: it computes a complex "
                                    "transform of half the length; use an even length, or r2c per signal", k.n(),
                                    which),
               "an even N for r2c_pair, any N (NX) for r2c");
  // An r2c kernel's butterflies compute the half-length complex transform (odd N: the full one).
  const uint32_t fft_length = k.transform == Transform::r2c && !odd_real ? k.n() / 2 : k.n();
  const std::string mismatch = radices_mismatch(k.radices, fft_length);
  if (mismatch.empty()) return;
  if (k.transform == Transform::r2c && !odd_real)
    where.fail("radices", fmt::format("{}, but an r2c kernel of N = {} computes a complex transform of N/2 = {}{}",
                                      mismatch, k.n(), fft_length, which), kAllowedRadices);
  where.fail("radices", fmt::format("{}, but N = {}{}", mismatch, k.n(), which), kAllowedRadices);
}

// Refuses a kernel whose fields' lists multiply, with the variants before it, into more than
// kMaxPlanVariants: before anything is built, since a few long lists exceed what memory holds.
// Each list holds at most a few thousand distinct values, so the product cannot overflow before it
// is capped here.
void check_variant_count(const std::vector<std::pair<std::string, std::vector<Choice>>>& fields, size_t variants_so_far,
                         const Where& where) {
  size_t count = 1;
  std::vector<std::string> factors;
  for (const auto& [key, choices] : fields) {
    count = std::min(count * choices.size(), kMaxPlanVariants * kMaxPlanVariants);
    if (choices.size() > 1) factors.push_back(fmt::format("{} {}", choices.size(), key));
  }
  if (variants_so_far + count > kMaxPlanVariants)
    where.fail("", fmt::format("the plan expands to {}{} variants up to this kernel ({}this kernel {}); at most {} "
                               "are allowed; shorten the value lists or split the plan",
                               variants_so_far + count, count == kMaxPlanVariants * kMaxPlanVariants ? " or more" : "",
                               variants_so_far > 0 ? fmt::format("{} before it, ", variants_so_far) : "",
                               factors.empty() ? "1" : fmt::format("{}: {}", count, join(factors, " x ")),
                               kMaxPlanVariants));
}

// Variants that a kernel expands to: the cartesian product of its fields' alternatives.
std::vector<KernelSpec> expand_kernel(const json& plan_kernel, const std::string& source,
                                      const std::string& name, size_t variants_so_far,
                                      std::vector<SkippedVariant>* skipped) {
  Where where{source, "kernel " + quote(name)};
  reject_unknown_fields(plan_kernel, kKernelFields, where, "kernel");
  // A convolution kernel is an r2c (pairs: c2c) kernel of its padded plane; the fields that would
  // say otherwise are its own.
  std::optional<ConvolutionSpec> convolution;
  json rewritten;
  if (plan_kernel.contains("convolution")) {
    for (const char* derived : {"shape", "transform", "direction", "normalize", "radices"})
      if (plan_kernel.contains(derived))
        where.fail(derived, "a convolution kernel derives it from \"convolution\"; remove the field",
                   "no shape, transform, direction, normalize or radices beside \"convolution\"");
    convolution = parse_convolution(plan_kernel["convolution"], where);
    rewritten = plan_kernel;
    rewritten.erase("convolution");
    rewritten["shape"] = {convolution->padded_h, convolution->padded_w};
    rewritten["transform"] = convolution->pairs ? "c2c" : "r2c";
    rewritten["normalize"] = "none";
  }
  const json& kernel = convolution ? rewritten : plan_kernel;  // only known fields: checked above
  // Fields in expansion order; the first varies slowest.
  std::vector<std::pair<std::string, std::vector<Choice>>> fields;
  for (const std::string& key : kKernelFields) {
    if (key == "name" || key == "convolution") continue;  // a convolution is rewritten above
    auto it = kernel.find(key);
    fields.emplace_back(key, parse_kernel_field(key, it == kernel.end() ? nullptr : &*it, where));
  }

  check_variant_count(fields, variants_so_far, where);

  KernelSpec base;
  base.name = name;
  base.plan_name = name;
  for (const auto& item : plan_kernel.items()) base.explicit_fields.insert(item.key());
  base.convolution = convolution;
  std::vector<KernelSpec> variants{base};
  for (const auto& [key, choices] : fields) {
    std::vector<KernelSpec> next;
    next.reserve(variants.size() * choices.size());
    for (const auto& v : variants)
      for (const auto& c : choices) {
        KernelSpec k = v;
        c.apply(k);
        if (choices.size() > 1) k.name += c.suffix;
        next.push_back(std::move(k));
      }
    variants = std::move(next);
  }

  // Combinations no kernel can have. A sweep (`skipped` given) lists them and goes on.
  auto which_of = [&](const KernelSpec& k) { return k.name == name ? "" : " (variant " + quote(k.name) + ")"; };
  std::vector<KernelSpec> possible;
  for (auto& k : variants) {
    if (k.io == Io::image && k.image_format == TextureFormat::automatic)
      k.image_format = k.convolution ? (k.convolution->channels == 1 ? TextureFormat::r32f : TextureFormat::rg32f)
                       : k.transform == Transform::r2c ? TextureFormat::r32f
                                                       : TextureFormat::rg32f;
    try {
      check_combination(k, where, which_of(k));
      if (k.convolution) choose_padded_plane(k, where, which_of(k));
    } catch (const PlanError& e) {
      if (!skipped) throw;
      skipped->push_back({k.name, e.what()});
      continue;
    }
    possible.push_back(std::move(k));
  }
  if (!convolution) return possible;
  // Each convolution variant is two kernels: the filter's spectrum, then the apply kernel.
  std::vector<KernelSpec> pairs;
  for (const KernelSpec& k : possible) {
    KernelSpec filter = k;
    filter.name += "__filter";
    filter.convolution_filter = true;
    filter.direction = DirectionSet::forward;
    filter.io = Io::buffer;  // the filter is read from a buffer once; only the frames are images
    filter.image_format = TextureFormat::automatic;
    pairs.push_back(std::move(filter));
    pairs.push_back(k);
  }
  return pairs;
}

// nlohmann keeps the last of duplicate object keys silently; a plan with "name" twice is a mistake
// worth reporting, so the parse callback records the first duplicate and where it is.
struct DuplicateKeyFinder {
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;
    size_t elements = 0;
  };
  std::vector<Frame> frames;
  std::string duplicate_path;

  std::string path() const {
    std::string p;
    for (const auto& f : frames) {
      if (f.object)
        p += (p.empty() ? "" : ".") + f.key;
      else
        p += fmt::format("[{}]", f.elements - 1);
    }
    return p;
  }
  void element_starts() {
    if (!frames.empty() && !frames.back().object) ++frames.back().elements;
  }
  bool operator()(int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        element_starts();
        frames.push_back({event == json::parse_event_t::object_start, {}, {}, 0});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames.empty()) frames.pop_back();
        break;
      case json::parse_event_t::key:
        if (!frames.empty() && parsed.is_string()) {
          auto& f = frames.back();
          f.key = parsed.get<std::string>();
          if (!f.keys.insert(f.key).second && duplicate_path.empty()) duplicate_path = path();
        }
        break;
      case json::parse_event_t::value:
        element_starts();
        break;
    }
    return true;
  }
};

// "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> "parse error at ...".
// nlohmann quotes the bytes it last read, which may be invalid UTF-8: those are shown as \xNN so
// the message is always printable text.
std::string clean_json_message(const std::string& what) {
  std::string_view text = what;
  if (text.rfind("[json.exception.", 0) == 0) {
    size_t end = text.find("] ");
    if (end != std::string_view::npos) text.remove_prefix(end + 2);
  }
  std::string out;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || byte < 0x20)
      out += fmt::format("\\x{:02X}", byte);
    else
      out += c;
  }
  return out;
}

namespace {

// The plan's "device_shared_memory_bytes": the shared memory per workgroup every device it is for
// offers (Vulkan's maxComputeSharedMemorySize), which the planner may use where it measured faster
// (KernelSpec::device_shared_memory_bytes). Above 32 KB only for Vulkan's targets.
uint32_t parse_device_shared_memory(const json& doc, const Where& top, const std::vector<Target>& targets) {
  auto it = doc.find("device_shared_memory_bytes");
  if (it == doc.end()) return kPortableSharedMemory;
  const std::string allowed = fmt::format("an integer from {} to {} (default {})", kMinSharedMemory, kMaxSharedMemory,
                                          kPortableSharedMemory);
  if (!it->is_number_integer() || it->get<int64_t>() < int64_t{kMinSharedMemory} ||
      it->get<int64_t>() > int64_t{kMaxSharedMemory})
    top.fail("device_shared_memory_bytes", "got " + describe(*it), allowed);
  const auto bytes = it->get<uint32_t>();
  for (Target t : targets) {
    const bool webgpu = t == Target::wgsl;
    const uint32_t offers = webgpu ? kWebGpuLimits.shared_memory_bytes : kPortableSharedMemory;
    if ((t == Target::hlsl || t == Target::msl || webgpu) && bytes > offers)
      top.fail("device_shared_memory_bytes",
               fmt::format("{} bytes is more than {} offers ({}); drop \"{}\" from the targets or give at most {}", bytes,
                           t == Target::hlsl ? "D3D12" : t == Target::msl ? "Metal" : "WebGPU by default", offers,
                           to_string(t), offers),
               allowed);
  }
  return bytes;
}

}  // namespace

Plan parse_document(const json& doc, const std::string& source, bool skip_impossible) {
  Where top{source, ""};
  if (!doc.is_object())
    top.fail("", "the top level must be a JSON object with a 'kernels' list, got " + describe(doc));
  reject_unknown_fields(doc, kTopLevelFields, top, "top-level");
  for (const char* key : {"$schema", "description"}) {
    auto it = doc.find(key);
    if (it != doc.end() && !it->is_string()) top.fail(key, "must be a string, got " + describe(*it));
  }

  Plan plan;
  plan.targets = parse_targets(doc, top);
  plan.cross.hlsl_shader_model = parse_version(doc, top, "hlsl_shader_model", kShaderModels);
  auto msl = parse_version(doc, top, "msl_version", kMslVersions);
  plan.cross.msl_version_major = msl.first;
  plan.cross.msl_version_minor = msl.second;
  const uint32_t device_shared_memory = parse_device_shared_memory(doc, top, plan.targets);

  auto kernels = doc.find("kernels");
  const std::string allowed_kernels = "a non-empty list of kernel objects, e.g. [{\"name\": \"fft1k\", \"shape\": [1024]}]";
  if (kernels == doc.end()) top.fail("kernels", "missing; a plan needs at least one kernel", allowed_kernels);
  if (!kernels->is_array()) top.fail("kernels", "must be a list, got " + describe(*kernels), allowed_kernels);
  if (kernels->empty()) top.fail("kernels", "the list is empty; a plan needs at least one kernel", allowed_kernels);

  std::map<std::string, size_t> plan_names;  // lower-cased name -> kernel index
  struct Origin {
    std::string variant;
    std::string kernel;
    size_t index;
  };
  std::map<std::string, Origin> variant_names;  // lower-cased: files must not clash on case-insensitive file systems
  for (size_t i = 0; i < kernels->size(); ++i) {
    const json& k = (*kernels)[i];
    Where at{source, fmt::format("kernels[{}]", i)};
    if (!k.is_object())
      at.fail("", "a kernel must be an object with at least 'name' and 'shape', got " + describe(k));
    std::string name = read_name(k, at);
    auto [seen, fresh] = plan_names.emplace(lower(name), i);
    if (!fresh) {
      const std::string& other = (*kernels)[seen->second]["name"].get_ref<const std::string&>();
      Where named{source, "kernel " + quote(name)};
      if (other == name)
        named.fail("name", fmt::format("name {} is used by kernels[{}] and kernels[{}]; names must be unique",
                                       quote(name), seen->second, i));
      named.fail("name", fmt::format("names {} (kernels[{}]) and {} (kernels[{}]) differ only in case; they would "
                                     "clash as file names on case-insensitive file systems",
                                     quote(other), seen->second, quote(name), i));
    }
    for (auto& v : expand_kernel(k, source, name, plan.kernels.size(), skip_impossible ? &plan.skipped : nullptr)) {
      auto [it, ok] = variant_names.emplace(lower(v.name), Origin{v.name, name, i});
      if (!ok) {
        const Origin& o = it->second;
        Where named{source, "kernel " + quote(name)};
        named.fail("", fmt::format("variant name {} clashes with variant {} of kernel {} (kernels[{}]); variant "
                                   "names must be unique (ignoring case); rename one of the kernels",
                                   quote(v.name), quote(o.variant), quote(o.kernel), o.index));
      }
      // Combinations the layout cannot build (a split that does not fit the shared memory, an
      // r2c kernel too long for one pass) are plan errors too, named like the others.
      v.targets_metal = std::find(plan.targets.begin(), plan.targets.end(), Target::msl) != plan.targets.end();
      v.targets_webgpu = std::find(plan.targets.begin(), plan.targets.end(), Target::wgsl) != plan.targets.end();
      v.targets_hlsl_msl =
          v.targets_metal || std::find(plan.targets.begin(), plan.targets.end(), Target::hlsl) != plan.targets.end();
      v.device_shared_memory_bytes = device_shared_memory;
      if (!v.explicit_fields.count("shared_memory_bytes")) v.shared_memory_bytes = auto_shared_memory_bytes(v);
      try {
        refuse_double_targets(v, plan);
        if (v.targets_webgpu) limit_to_webgpu(v);
        check_buildable(v);
      } catch (const PlanError& e) {
        if (!skip_impossible) throw PlanError(source + ": " + e.what());
        plan.skipped.push_back({v.name, source + ": " + e.what()});
        continue;
      }
      plan.kernels.push_back(std::move(v));
    }
  }
  return plan;
}

// Parses JSON text with the duplicate-key check; `what` names the document in messages ("plan",
// "wisdom file").
json parse_json_text(const std::string& text, const std::string& source, const std::string& what) {
  json doc;
  DuplicateKeyFinder finder;
  try {
    doc = json::parse(text, std::ref(finder));
  } catch (const json::exception& e) {
    throw PlanError(source + ": invalid JSON: " + clean_json_message(e.what()));
  }
  if (!finder.duplicate_path.empty())
    throw PlanError(source + ": invalid " + what + ": key '" + finder.duplicate_path +
                    "' appears twice in the same object; JSON readers keep only one of them, so remove the other");
  return doc;
}

// --- Wisdom ---------------------------------------------------------------------------------------

const std::string kAllowedWinner =
    "\"defaults\" or an object of plan fields, e.g. {\"shared_memory_bytes\": 49152}";
const std::string kAllowedEntries =
    "a list of entries like {\"shape\": [4096], \"winner\": {\"shared_memory_bytes\": 49152}} (fftgen tune writes them)";

// One entry of a wisdom table, validated.
struct WisdomEntry {
  size_t index = 0;
  std::string where;                                   // "sizes[4] (n = 4096)"
  std::string key;                                     // wisdom_key() of the kernels it applies to, as text
  std::vector<std::pair<std::string, Choice>> winner;  // in kWisdomFields order; empty for "defaults"
  std::optional<double> winner_gbps, default_gbps;
};

// A field's value in a kernel, spelt as in a plan: "auto", "[8, 8, 16]", "49152".
std::string field_text(const KernelSpec& k, const std::string& field) {
  const json value = field_entry(field).spell(k);
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) return fmt::format("[{}]", fmt::join(value.get<std::vector<uint32_t>>(), ", "));
  return value.dump();
}

std::optional<double> read_gbps(const json& entry, const Where& where, const char* field) {
  auto it = entry.find(field);
  if (it == entry.end()) return std::nullopt;
  if (!it->is_number() || it->get<double>() < 0) where.fail(field, "must be a non-negative number, got " + describe(*it));
  return it->get<double>();
}

// The length the radices of a 1D kernel multiply to: N, or N/2 for an r2c kernel of even N.
uint32_t radices_length(const KernelSpec& k) {
  return k.transform == Transform::r2c && k.n() % 2 == 0 ? k.n() / 2 : k.n();
}

// The winner's fields, each checked as the plan parser checks it, against the kind of kernel the
// entry names (`probe`): radices multiply to its length, and set a 1D kernel's split only.
std::vector<std::pair<std::string, Choice>> parse_winner(const json& winner, const Where& at, const KernelSpec& probe) {
  if (winner.is_string()) {
    if (winner.get_ref<const std::string&>() != "defaults")
      at.fail("winner", "unknown value " + quote(winner.get_ref<const std::string&>()), kAllowedWinner);
    return {};
  }
  if (!winner.is_object()) at.fail("winner", "must be \"defaults\" or an object, got " + describe(winner), kAllowedWinner);
  Where in_winner{at.source, at.kernel + ": winner"};
  for (const auto& item : winner.items()) {
    const std::string& key = item.key();
    bool plan_field = std::find(kKernelFields.begin(), kKernelFields.end(), key) != kKernelFields.end();
    bool tunable = std::find(kWisdomFields.begin(), kWisdomFields.end(), key) != kWisdomFields.end();
    if (plan_field && !tunable)
      in_winner.fail(key, "wisdom may not set it: it changes what the kernel computes or what it is called, not how "
                          "fast it runs", join(kWisdomFields));
  }
  reject_unknown_fields(winner, kWisdomFields, in_winner, "wisdom");
  std::vector<std::pair<std::string, Choice>> out;
  for (const std::string& key : kWisdomFields) {
    auto it = winner.find(key);
    if (it == winner.end()) continue;
    std::vector<Choice> choices = parse_kernel_field(key, &*it, in_winner);
    if (choices.size() != 1)
      in_winner.fail(key, fmt::format("a winner gives one value per field, got a list of {} values", choices.size()));
    KernelSpec k = probe;
    choices.front().apply(k);
    if (!k.radices.empty() && k.is_2d())
      in_winner.fail(key, "radices set the split of a 1D kernel; this entry is of a 2D kernel", kAllowedRadices);
    const std::string mismatch = radices_mismatch(k.radices, radices_length(k));
    if (!mismatch.empty())
      in_winner.fail(key, fmt::format("{}, but the entry's n = {}{}", mismatch, k.n(),
                                      radices_length(k) != k.n() ? " (r2c: N/2)" : ""),
                     kAllowedRadices);
    out.emplace_back(key, choices.front());
  }
  return out;
}

// One key field of an entry ("transform", "precision", "io", "shape"), read as the plan reads the
// kernel field and set on `probe`; absent, the plan's default.
void read_key_field(const json& e, const std::string& field, const Where& at, KernelSpec& probe) {
  auto it = e.find(field);
  std::vector<Choice> choices = parse_kernel_field(field, it == e.end() ? nullptr : &*it, at);
  if (choices.size() != 1)
    at.fail(field, fmt::format("an entry names one kind of kernel, got a list of {} values", choices.size()));
  choices.front().apply(probe);
}

// The kind of kernel an entry was measured on, as a kernel of that kind (the probe): a transform
// ("shape" [N] or [NY, NX], or the older "n": N for [N]; "transform", "precision", "io") or a
// convolution ("convolution": image, filter, channels, mode, packing; "precision").
KernelSpec read_entry_kind(const json& e, const Where& at) {
  KernelSpec probe;
  if (auto conv = e.find("convolution"); conv != e.end()) {
    for (const char* other : {"n", "shape", "transform", "io"})
      if (e.contains(other))
        at.fail(other, "a convolution entry's plane, transform and io follow from its 'convolution'; leave it out");
    probe.convolution = parse_convolution(*conv, at);
    probe.shape = {probe.convolution->padded_h, probe.convolution->padded_w};  // 2D, for the winner's checks
    probe.transform = probe.convolution->pairs ? Transform::c2c : Transform::r2c;
    read_key_field(e, "precision", at, probe);
    return probe;
  }
  const bool has_n = e.contains("n"), has_shape = e.contains("shape");
  if (has_n == has_shape)
    at.fail(has_n ? "n" : "shape",
            has_n ? "give 'shape' or the older 'n', not both" : "missing; every entry names the shape it was measured at",
            "\"shape\": [N] or [NY, NX] (or \"n\": N), or \"convolution\": {...}");
  if (has_n)
    probe.shape = {static_cast<uint32_t>(read_in_range(e["n"], at, "n", "n", kMinN, kMaxN, false, kAllowedN))};
  else
    read_key_field(e, "shape", at, probe);
  for (const char* field : {"transform", "precision", "io"}) read_key_field(e, field, at, probe);
  return probe;
}

// "n = 4096", "r2c, shape = [512, 512], fp16, image", "convolution [1080, 1920] * [64, 64], 4 channels, same".
std::string entry_kind_text(const KernelSpec& k) {
  std::vector<std::string> parts;
  if (k.convolution) {
    const ConvolutionSpec& c = *k.convolution;
    parts.push_back(fmt::format("convolution [{}, {}] * [{}, {}]", c.image_h, c.image_w, c.filter_h, c.filter_w));
    parts.push_back(fmt::format("{} channel{}", c.channels, c.channels == 1 ? "" : "s"));
    parts.push_back(c.circular ? "circular" : "same");
  } else {
    if (k.transform != Transform::c2c) parts.emplace_back(to_string(k.transform));
    parts.push_back(k.shape.size() > 1 ? fmt::format("shape = [{}]", fmt::join(k.shape, ", "))
                                       : fmt::format("n = {}", k.n()));
    if (k.io != Io::buffer) parts.emplace_back(to_string(k.io));
  }
  if (k.precision != Precision::fp32) parts.emplace_back(to_string(k.precision));
  return join(parts);
}

// A table's runs ("runs": [{"device", "driver", "date", "command", ...}]): how many there are.
size_t read_runs(const json& doc, const Where& top) {
  const std::vector<std::string> known{"device", "driver", "date", "command", "fftgen", "bytes", "trials"};
  const std::string allowed = "a list of objects {\"device\", \"driver\", \"date\", \"command\"} (strings), "
                              "optionally \"fftgen\", \"bytes\", \"trials\"";
  auto runs = doc.find("runs");
  if (runs == doc.end()) return 0;
  if (!runs->is_array()) top.fail("runs", "must be a list, got " + describe(*runs), allowed);
  for (size_t i = 0; i < runs->size(); ++i) {
    const json& r = (*runs)[i];
    Where at{top.source, fmt::format("runs[{}]", i)};
    if (!r.is_object()) at.fail("", "a run must be an object, got " + describe(r), allowed);
    reject_unknown_fields(r, known, at, "run");
    for (const char* key : {"device", "driver", "date", "command", "fftgen", "bytes"}) {
      auto it = r.find(key);
      const bool required = std::string_view(key) != "fftgen" && std::string_view(key) != "bytes";
      if (it == r.end() && required) at.fail(key, "missing; a run names its device, driver, date and command", allowed);
      if (it != r.end() && !it->is_string()) at.fail(key, "must be a string, got " + describe(*it), allowed);
    }
    if (auto t = r.find("trials"); t != r.end()) (void)read_in_range(*t, at, "trials", "trials", 1, 1000000, false, "1 to 1000000");
  }
  return runs->size();
}

// "run": the index of the entry's run in "runs"; required where the table has runs.
void read_entry_run(const json& e, const Where& at, size_t runs) {
  auto it = e.find("run");
  if (it == e.end()) {
    if (runs) at.fail("run", "missing; every entry of a table with 'runs' names the run it came from",
                      fmt::format("an index into 'runs', 0 to {}", runs - 1));
    return;
  }
  if (!runs) at.fail("run", "the table has no 'runs' list to refer to", "leave it out, or add 'runs'");
  (void)read_in_range(*it, at, "run", "run", 0, runs - 1, false, fmt::format("an index into 'runs', 0 to {}", runs - 1));
}

// One entry of "sizes", validated.
WisdomEntry read_entry(const json& e, size_t i, const std::string& source, size_t runs) {
  Where at{source, fmt::format("sizes[{}]", i)};
  if (!e.is_object()) at.fail("", "an entry must be an object with 'shape' and 'winner', got " + describe(e), kAllowedEntries);
  reject_unknown_fields(e, kWisdomEntryFields, at, "entry");
  const KernelSpec probe = read_entry_kind(e, at);
  WisdomEntry entry;
  entry.index = i;
  entry.where = fmt::format("sizes[{}] ({})", i, entry_kind_text(probe));
  entry.key = wisdom_key(probe).dump();
  Where named{source, entry.where};
  read_entry_run(e, named, runs);
  auto measured = e.find("measured");
  if (measured != e.end() && !measured->is_object())
    named.fail("measured", "must be an object of candidate -> GB/s, got " + describe(*measured));
  entry.default_gbps = read_gbps(e, named, "default_gbps");
  entry.winner_gbps = read_gbps(e, named, "winner_gbps");
  (void)read_gbps(e, named, "winner_rel_l2");
  auto winner = e.find("winner");
  if (winner == e.end()) named.fail("winner", "missing; every entry names its winner", kAllowedWinner);
  entry.winner = parse_winner(*winner, named, probe);
  return entry;
}

// The whole table, validated: wisdom_key() text -> its entry.
std::map<std::string, WisdomEntry> parse_wisdom(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw PlanError(source + ": the wisdom file is empty; expected a JSON object with a 'sizes' list");
  const json doc = parse_json_text(text, source, "wisdom file");
  Where top{source, ""};
  if (!doc.is_object())
    top.fail("", "the top level of a wisdom file must be a JSON object with a 'sizes' list, got " + describe(doc));
  reject_unknown_fields(doc, kWisdomTopFields, top, "top-level wisdom");
  // min_gain (what the tuner required of a winner over the default, a fraction) is a record, not
  // an input, but a table that says something else of it is not one a tuner wrote.
  if (auto gain = doc.find("min_gain"); gain != doc.end() && (!gain->is_number() || gain->get<double>() < -1))
    top.fail("min_gain", "must be a number, the least gain a winner needed over the default, got " + describe(*gain),
             "a number >= -1, e.g. 0.003 for 0.3 % (negative: a check of the tuning, winners slower than the defaults)");
  const size_t runs = read_runs(doc, top);
  auto sizes = doc.find("sizes");
  if (sizes == doc.end()) top.fail("sizes", "missing; a wisdom file lists its measured kernels in 'sizes'", kAllowedEntries);
  if (!sizes->is_array()) top.fail("sizes", "must be a list, got " + describe(*sizes), kAllowedEntries);
  std::map<std::string, WisdomEntry> table;
  for (size_t i = 0; i < sizes->size(); ++i) {
    WisdomEntry entry = read_entry((*sizes)[i], i, source, runs);
    if (auto seen = table.find(entry.key); seen != table.end())
      Where{source, entry.where}.fail("", fmt::format("sizes[{}] names the same kind of kernel; give each kind once",
                                                      seen->second.index));
    table.emplace(entry.key, std::move(entry));
  }
  return table;
}

Plan parse_plan_document(const nlohmann::json& doc, const std::string& source, bool skip_impossible) {
  try {
    return parse_document(doc, source, skip_impossible);
  } catch (const json::exception& e) {
    // Every access above is type-checked first; this keeps a missed case a PlanError, not a crash.
    throw PlanError(source + ": " + clean_json_message(e.what()));
  }
}

// Text -> plan, with the empty-text check.
Plan parse_plan_text(const std::string& text, const std::string& source, bool skip_impossible) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw PlanError(source + ": the plan is empty; expected a JSON object with a 'kernels' list");
  return parse_plan_document(parse_json_text(text, source, "plan"), source, skip_impossible);
}

}  // namespace

const std::vector<PlanField>& plan_fields() {
  static const std::vector<PlanField> fields = [] {
    std::vector<PlanField> out;
    for (const FieldEntry& e : registry()) out.push_back(e.info);
    return out;
  }();
  return fields;
}

nlohmann::ordered_json variant_fields(const KernelSpec& kernel) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (const FieldEntry& e : registry()) values[e.info.name] = e.spell(kernel);
  return values;
}

Plan parse_plan(const nlohmann::json& doc, const std::string& source) {
  return parse_plan_document(doc, source, false);
}

Plan parse_sweep_plan(const std::string& text, const std::string& source) {
  return parse_plan_text(text, source, true);
}

Plan parse_plan(const std::string& text, const std::string& source) {
  return parse_plan_text(text, source, false);
}

Plan parse_plan(const char* text, const std::string& source) {
  return parse_plan(std::string(text ? text : ""), source);
}

nlohmann::ordered_json wisdom_key(const KernelSpec& k) {
  nlohmann::ordered_json key;
  if (k.convolution) {
    const json spelt = field_entry("convolution").spell(k);
    nlohmann::ordered_json c;
    for (const char* part : {"image", "filter", "channels", "mode", "packing"}) c[part] = spelt[part];
    key["convolution"] = c;
  } else {
    key["shape"] = k.shape;
    key["transform"] = to_string(k.transform);
    key["io"] = to_string(k.io);
  }
  key["precision"] = to_string(k.precision);
  return key;
}

void check_buildable(const KernelSpec& k) {
  if (k.io == Io::image) check_image_program(k, make_program(k));
  else if (k.pass_sync == PassSync::counters || k.convolution || k.placement == Placement::in_place)
    (void)make_program(k);  // refuses what counters or in_place cannot run
  else (void)make_layout(k);
}

void set_tunable_field(KernelSpec& k, const std::string& field, const nlohmann::json& value) {
  if (std::find(kWisdomFields.begin(), kWisdomFields.end(), field) == kWisdomFields.end())
    throw PlanError(fmt::format("field '{}' is not one wisdom may set; allowed: {}", field, join(kWisdomFields)));
  const std::string source = "candidate";
  const std::vector<Choice> choices = parse_kernel_field(field, &value, Where{source, "kernel " + quote(k.name)});
  if (choices.size() != 1) throw PlanError(fmt::format("field '{}': one value, not a list", field));
  choices.front().apply(k);
}

std::vector<WisdomChange> apply_wisdom(Plan& plan, const std::string& wisdom_text, const std::string& wisdom_name) {
  std::map<std::string, WisdomEntry> table;
  try {
    table = parse_wisdom(wisdom_text, wisdom_name);
  } catch (const json::exception& e) {
    throw PlanError(wisdom_name + ": " + clean_json_message(e.what()));
  }
  // Applied to a copy, so that a failure leaves the plan as it was.
  std::vector<KernelSpec> kernels = plan.kernels;
  std::vector<WisdomChange> changes;
  for (KernelSpec& k : kernels) {
    auto it = table.find(wisdom_key(k).dump());
    if (it == table.end()) continue;
    const WisdomEntry& entry = it->second;
    WisdomChange change{k.name, entry.index, {}, entry.winner_gbps, entry.default_gbps};
    for (const auto& [field, choice] : entry.winner) {
      if (k.explicit_fields.count(field)) continue;  // the plan's own value wins
      const std::string before = field_text(k, field);
      choice.apply(k);
      const std::string after = field_text(k, field);
      if (after != before) change.fields.emplace_back(field, after);
    }
    if (change.fields.empty()) continue;
    try {
      check_buildable(k);
    } catch (const PlanError& e) {
      std::vector<std::string> applied;
      for (const auto& [field, value] : change.fields) applied.push_back(field + " = " + value);
      throw PlanError(fmt::format("{}: {}: the winner ({}) does not fit kernel {} of the plan: {}; set the field in "
                                  "the plan to keep the plan's value",
                                  wisdom_name, entry.where, join(applied), quote(k.name), e.what()));
    }
    changes.push_back(std::move(change));
  }
  plan.kernels = std::move(kernels);
  plan.wisdom = wisdom_name;
  plan.wisdom_sha256 = sha256_hex(wisdom_text);
  return changes;
}

}  // namespace fftgen
