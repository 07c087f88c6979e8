#include "fftgen/types.hpp"

#include <array>
#include <map>

namespace fftgen {
namespace {

template <typename E, size_t K>
using Names = std::array<std::pair<E, std::string_view>, K>;

constexpr Names<DirectionSet, 3> kDirectionSet{
    {{DirectionSet::forward, "forward"}, {DirectionSet::inverse, "inverse"}, {DirectionSet::both, "both"}}};
constexpr Names<Normalize, 3> kNormalize{
    {{Normalize::none, "none"}, {Normalize::inverse, "inverse"}, {Normalize::ortho, "ortho"}}};
constexpr Names<IndexMath, 2> kIndexMath{{{IndexMath::bitwise, "bitwise"}, {IndexMath::divmod, "divmod"}}};
constexpr Names<TwiddleSource, 3> kTwiddles{
    {{TwiddleSource::automatic, "auto"}, {TwiddleSource::table, "table"}, {TwiddleSource::computed, "computed"}}};
constexpr Names<Precision, 3> kPrecision{
    {{Precision::fp32, "fp32"}, {Precision::fp16, "fp16"}, {Precision::fp64, "fp64"}}};
constexpr Names<Transform, 3> kTransform{
    {{Transform::c2c, "c2c"}, {Transform::r2c, "r2c"}, {Transform::r2c_pair, "r2c_pair"}}};
constexpr Names<Target, 5> kTarget{{{Target::spirv, "spirv"},
                                    {Target::glsl, "glsl"},
                                    {Target::hlsl, "hlsl"},
                                    {Target::msl, "msl"},
                                    {Target::wgsl, "wgsl"}}};
constexpr Names<Io, 2> kIo{{{Io::buffer, "buffer"}, {Io::image, "image"}}};
constexpr Names<TextureFormat, 5> kTextureFormat{{{TextureFormat::automatic, "auto"},
                                                  {TextureFormat::rg32f, "rg32f"},
                                                  {TextureFormat::rgba32f, "rgba32f"},
                                                  {TextureFormat::rgba16f, "rgba16f"},
                                                  {TextureFormat::r32f, "r32f"}}};
constexpr Names<IntermediateLayout, 3> kIntermediateLayout{{{IntermediateLayout::automatic, "auto"},
                                                            {IntermediateLayout::rows, "rows"},
                                                            {IntermediateLayout::column_tiles, "column_tiles"}}};
constexpr Names<PassSync, 3> kPassSync{
    {{PassSync::automatic, "auto"}, {PassSync::dispatch, "dispatch"}, {PassSync::counters, "counters"}}};
constexpr Names<FirstYStage, 3> kFirstYStage{{{FirstYStage::automatic, "auto"},
                                              {FirstYStage::column_pass, "column_pass"},
                                              {FirstYStage::row_pass, "row_pass"}}};
constexpr Names<Placement, 2> kPlacement{
    {{Placement::out_of_place, "out_of_place"}, {Placement::in_place, "in_place"}}};

template <typename E, size_t K>
std::string_view name_of(const Names<E, K>& names, E value) {
  for (const auto& [v, s] : names)
    if (v == value) return s;
  return "?";
}

template <typename E, size_t K>
std::optional<E> parse_name(const Names<E, K>& names, std::string_view text) {
  for (const auto& [v, s] : names)
    if (s == text) return v;
  return std::nullopt;
}

template <typename E, size_t K>
std::vector<std::string> spellings(const Names<E, K>& names) {
  std::vector<std::string> out;
  for (const auto& [v, s] : names) out.emplace_back(s);
  return out;
}

}  // namespace

std::string_view to_string(DirectionSet v) { return name_of(kDirectionSet, v); }
std::string_view to_string(Normalize v) { return name_of(kNormalize, v); }
std::string_view to_string(IndexMath v) { return name_of(kIndexMath, v); }
std::string_view to_string(TwiddleSource v) { return name_of(kTwiddles, v); }
std::string_view to_string(Precision v) { return name_of(kPrecision, v); }
std::string_view to_string(Target v) { return name_of(kTarget, v); }
std::string_view to_string(Transform v) { return name_of(kTransform, v); }
std::string_view to_string(Io v) { return name_of(kIo, v); }
std::string_view to_string(TextureFormat v) { return name_of(kTextureFormat, v); }
std::string_view to_string(IntermediateLayout v) { return name_of(kIntermediateLayout, v); }
std::string_view to_string(PassSync v) { return name_of(kPassSync, v); }
std::string_view to_string(FirstYStage v) { return name_of(kFirstYStage, v); }
std::string_view to_string(Placement v) { return name_of(kPlacement, v); }

std::optional<DirectionSet> parse_direction_set(std::string_view s) { return parse_name(kDirectionSet, s); }
std::optional<Normalize> parse_normalize(std::string_view s) { return parse_name(kNormalize, s); }
std::optional<IndexMath> parse_index_math(std::string_view s) { return parse_name(kIndexMath, s); }
std::optional<TwiddleSource> parse_twiddle_source(std::string_view s) { return parse_name(kTwiddles, s); }
std::optional<Precision> parse_precision(std::string_view s) { return parse_name(kPrecision, s); }
std::optional<Target> parse_target(std::string_view s) { return parse_name(kTarget, s); }
std::optional<Transform> parse_transform(std::string_view s) { return parse_name(kTransform, s); }
std::optional<Io> parse_io(std::string_view s) { return parse_name(kIo, s); }
std::optional<TextureFormat> parse_texture_format(std::string_view s) { return parse_name(kTextureFormat, s); }
std::optional<IntermediateLayout> parse_intermediate_layout(std::string_view s) {
  return parse_name(kIntermediateLayout, s);
}
std::optional<PassSync> parse_pass_sync(std::string_view s) { return parse_name(kPassSync, s); }
std::optional<FirstYStage> parse_first_y_stage(std::string_view s) { return parse_name(kFirstYStage, s); }
std::optional<Placement> parse_placement(std::string_view s) { return parse_name(kPlacement, s); }

const std::vector<std::string>& allowed_values(std::string_view field) {
  static const std::map<std::string_view, std::vector<std::string>> table{
      {"direction", spellings(kDirectionSet)}, {"normalize", spellings(kNormalize)},
      {"index_math", spellings(kIndexMath)},   {"twiddles", spellings(kTwiddles)},
      {"precision", spellings(kPrecision)},    {"targets", spellings(kTarget)},
      {"transform", spellings(kTransform)},    {"io", spellings(kIo)},
      {"image_format", spellings(kTextureFormat)}, {"intermediate_layout", spellings(kIntermediateLayout)},
      {"pass_sync", spellings(kPassSync)},     {"first_y_stage", spellings(kFirstYStage)},
      {"placement", spellings(kPlacement)},
  };
  static const std::vector<std::string> none;
  auto it = table.find(field);
  return it == table.end() ? none : it->second;
}

std::vector<Direction> directions_of(DirectionSet set) {
  switch (set) {
    case DirectionSet::forward: return {Direction::forward};
    case DirectionSet::inverse: return {Direction::inverse};
    case DirectionSet::both: break;
  }
  return {Direction::forward, Direction::inverse};
}

}  // namespace fftgen
