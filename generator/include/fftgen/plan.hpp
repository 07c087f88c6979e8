// generator/plan: parse and validate a JSON plan and expand list-valued fields into variants.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fftgen/types.hpp"

namespace fftgen {

/// One kernel variant with every field resolved to a single value.
struct KernelSpec {
  std::string name;       ///< unique variant name, e.g. "fft4096__divmod__computed"
  std::string plan_name;  ///< the kernel's name in the plan, e.g. "fft4096"
  std::vector<uint32_t> shape;            ///< [N] for 1D
  DirectionSet direction = DirectionSet::both;
  Normalize normalize = Normalize::inverse;
  std::vector<uint32_t> radices;          ///< empty means "auto"
  IndexMath index_math = IndexMath::bitwise;
  TwiddleSource twiddles = TwiddleSource::table;
  uint32_t workgroup_size = 0;            ///< 0 means "auto"
  Precision precision = Precision::fp32;
  uint32_t shared_memory_bytes = 32768;   ///< budget per workgroup

  uint32_t n() const { return shape.empty() ? 0 : shape.back(); }
};

struct CrossCompileOptions {
  uint32_t hlsl_shader_model = 50;  ///< 50 = SM 5.0, 60 = SM 6.0, ...
  uint32_t msl_version_major = 2;
  uint32_t msl_version_minor = 0;
};

struct Plan {
  std::vector<KernelSpec> kernels;  ///< after expansion; names unique
  std::vector<Target> targets;      ///< default: all four, in enum order
  CrossCompileOptions cross;
};

/// A plan may expand to at most this many variants in all; more is almost surely a mistake in the
/// value lists, and refusing early keeps a typo from exhausting memory.
inline constexpr std::size_t kMaxPlanVariants = 65536;

/// Parses plan text (JSON). `source` names the plan in messages ("plan.json").
/// Throws PlanError on any malformed or unsupported input.
Plan parse_plan(const std::string& text, const std::string& source = "plan");
Plan parse_plan(const nlohmann::json& doc, const std::string& source = "plan");
/// Plan text given as a C string. Without this overload a string literal would be ambiguous:
/// nlohmann::json is implicitly constructible from const char* as well (as a JSON string value).
Plan parse_plan(const char* text, const std::string& source = "plan");

}  // namespace fftgen
