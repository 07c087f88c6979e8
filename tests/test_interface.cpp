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
  check_round_trip({Access::read, Access::write});
  check_round_trip({Resource::storage_buffer, Resource::storage_image});
  check_round_trip({ImageFormat::rg32f, ImageFormat::rgba32f, ImageFormat::rgba16f, ImageFormat::r32f});
  check_round_trip({ElementType::complex64, ElementType::float32, ElementType::complex32, ElementType::float16,
                    ElementType::uint32});
  CHECK(spellings<Access>() == "read or write");
  CHECK(spellings<ElementType>() == "complex64, float32, complex32, float16 or uint32");
}

TEST_CASE("element sizes: pairs of 8 bytes, or 4 in half floats", "[interface]") {
  CHECK(element_bytes(ElementType::complex64) == 8);
  CHECK(element_bytes(ElementType::float32) == 4);
  CHECK(element_bytes(ElementType::complex32) == 4);
  CHECK(element_bytes(ElementType::float16) == 2);
  CHECK(element_bytes(ElementType::uint32) == 4);
  for (ElementType t : {ElementType::complex64, ElementType::float32, ElementType::complex32, ElementType::float16})
    CHECK(elements_per_pair(t) * element_bytes(t) == pair_bytes(t));
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
