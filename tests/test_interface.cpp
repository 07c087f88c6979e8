// fftgen/interface.hpp: the spellings round-trip, the sizes, and the slot and push-constant tables
// the generator and the runtime share.
#include <catch2/catch.hpp>

#include <set>

#include "fftgen/interface.hpp"
#include "fftgen/types.hpp"

using namespace fftgen;

namespace {
template <typename E, size_t K>
void check_round_trip(const E (&values)[K]) {
  for (E v : values) CHECK(from_string<E>(to_string(v)) == v);
  CHECK_FALSE(from_string<E>("nonsense").has_value());
}
}  // namespace

TEST_CASE("every manifest spelling parses back to its value", "[interface]") {
  check_round_trip({Direction::forward, Direction::inverse});
  check_round_trip({BufferRole::input, BufferRole::output, BufferRole::scratch, BufferRole::twiddles,
                    BufferRole::filter, BufferRole::scratch2, BufferRole::sync});
  check_round_trip({Access::read, Access::write, Access::read_write});
  check_round_trip({Resource::storage_buffer, Resource::storage_image});
  check_round_trip({ImageFormat::rg32f, ImageFormat::rgba32f, ImageFormat::rgba16f, ImageFormat::r32f});
  check_round_trip({ElementType::complex64, ElementType::float32, ElementType::complex32, ElementType::float16,
                    ElementType::uint32, ElementType::complex128, ElementType::float64});
  CHECK(spellings<Access>() == "read, write or read_write");
  CHECK(spellings<ElementType>() == "complex64, float32, complex32, float16, uint32, complex128 or float64");
}

TEST_CASE("element sizes: pairs of 8 bytes, or 4 in half floats", "[interface]") {
  CHECK(element_bytes(ElementType::complex64) == 8);
  CHECK(element_bytes(ElementType::float32) == 4);
  CHECK(element_bytes(ElementType::complex32) == 4);
  CHECK(element_bytes(ElementType::float16) == 2);
  CHECK(element_bytes(ElementType::uint32) == 4);
  for (ElementType t : {ElementType::complex64, ElementType::float32, ElementType::complex32, ElementType::float16,
                        ElementType::complex128, ElementType::float64})
    CHECK(elements_per_pair(t) * element_bytes(t) == pair_bytes(t));
}

TEST_CASE("element sizes in doubles (precision fp64): pairs of 16 bytes", "[interface]") {
  CHECK(element_bytes(ElementType::complex128) == 16);
  CHECK(element_bytes(ElementType::float64) == 8);
  CHECK(is_double(ElementType::complex128));
  CHECK(is_real(ElementType::float64));
  CHECK_FALSE(is_double(ElementType::complex64));
  CHECK(in_double(ElementType::complex64) == ElementType::complex128);
  CHECK(in_double(ElementType::float32) == ElementType::float64);
  CHECK(in_double(ElementType::uint32) == ElementType::uint32);
  CHECK(twiddle_value_bytes(kTwiddleFormatDouble) == 16u);
  DeviceRequirements fp64;
  fp64.need_binding(ElementType::complex128);
  CHECK(fp64.needs(Feature::shader_float64));
  CHECK_FALSE(fp64.needs(Feature::storage_buffer_16bit_access));
  CHECK(std::string(to_string(Feature::shader_float64)) == "shaderFloat64");
}

TEST_CASE("binding slots are distinct, one per role, and clear of Metal's push constants", "[interface]") {
  std::set<uint32_t> bindings;
  for (const ResourceSlot& slot : kResourceSlots) {
    CHECK(bindings.insert(slot.binding).second);
    CHECK(msl_index(slot.binding) != kMslPushConstantBuffer);
  }
  std::set<uint32_t> by_role;
  for (BufferRole role : {BufferRole::input, BufferRole::output, BufferRole::scratch, BufferRole::twiddles,
                          BufferRole::filter, BufferRole::scratch2, BufferRole::sync})
    CHECK(by_role.insert(slot_of(role).binding).second);
  CHECK(hlsl_register(kTwiddleSlot.binding, false) == "t2");
  CHECK(hlsl_register(kDestinationSlot.binding, true) == "u1");
}

TEST_CASE("push constants: one uint32 each, in block order", "[interface]") {
  for (size_t i = 0; i < kPushConstantCount; ++i) CHECK(push_constant_offset(kPushConstants[i].name) == 4 * i);
  CHECK(push_constant_offset(kPushDstStride) + 4 == kPushConstantBytes);
  CHECK(push_constant_offset("nonsense") == kPushConstantBytes);
  CHECK(twiddle_value_bytes(kTwiddleFormat) == 8u);
  CHECK_FALSE(twiddle_value_bytes("float64 pairs").has_value());
}

TEST_CASE("the plan's image formats are spelt as the manifest's", "[interface]") {
  for (ImageFormat f : {ImageFormat::rg32f, ImageFormat::rgba32f, ImageFormat::rgba16f, ImageFormat::r32f}) {
    const auto texture = parse_texture_format(to_string(f));
    REQUIRE(texture.has_value());
    CHECK(std::string(to_string(*texture)) == to_string(f));
  }
  CHECK(texel_bytes(ImageFormat::rgba32f) == 16);
  CHECK(texel_bytes(ImageFormat::rgba16f) == 8);
  CHECK(texel_bytes(ImageFormat::r32f) == 4);
}

TEST_CASE("device requirements: Vulkan's names, and what bindings and passes add", "[interface]") {
  check_round_trip({Feature::storage_buffer_16bit_access, Feature::shader_storage_image_extended_formats,
                    Feature::shader_float64});
  CHECK(std::string(to_string(Feature::storage_buffer_16bit_access)) == "storageBuffer16BitAccess");
  CHECK(std::string(to_string(Limit::max_compute_work_group_size_x)) == "maxComputeWorkGroupSize[0]");
  for (size_t i = 0; i < kLimitCount; ++i)
    CHECK(from_string<Limit>(to_string(static_cast<Limit>(i))) == static_cast<Limit>(i));

  DeviceRequirements fp16, image, none;
  fp16.need_binding(ElementType::complex32);
  fp16.need_binding(ElementType::complex64);
  CHECK(fp16.needs(Feature::storage_buffer_16bit_access));
  CHECK_FALSE(fp16.needs(Feature::shader_storage_image_extended_formats));
  const uint64_t local_size[3] = {256, 1, 1};
  image.need_pass(16384, local_size, 16, 3, 1);
  image.need_image(ImageFormat::rg32f, 64, 16);
  CHECK(image.needs(Feature::shader_storage_image_extended_formats));
  CHECK(image.needs(ImageFormat::rg32f));
  CHECK(image.least(Limit::max_compute_work_group_invocations) == 256);
  CHECK(image.least(Limit::max_image_dimension_2d) == 64);
  image.need(Limit::max_compute_shared_memory_size, 4096);  // the most is kept
  CHECK(image.least(Limit::max_compute_shared_memory_size) == 16384);
  CHECK(image.covers(none));
  CHECK_FALSE(image.covers(fp16));
  DeviceRequirements both = image;
  both.add(fp16);
  CHECK(both.covers(image));
  CHECK(both.covers(fp16));
  CHECK_FALSE(fp16.covers(both));
}
