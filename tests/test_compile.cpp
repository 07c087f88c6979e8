// The compile stage: GLSL -> SPIR-V (optimised, validated) -> HLSL / MSL, and HLSL back to SPIR-V
// with the same Vulkan interface.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <spirv_cross/spirv_cross.hpp>

#include "fftgen/compile.hpp"

using namespace fftgen;

namespace {

// The shape of an fftgen kernel: storage buffers in set 0, a push-constant block, shared memory,
// a barrier and helper functions with inout parameters.
const char* const kKernel = R"(#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Src { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { vec2 dst[]; };
layout(set = 0, binding = 2) readonly buffer Twiddles { vec2 tw[]; };
layout(push_constant) uniform Params {
  uint batch;
  uint group_offset;
  uint src_stride;
  uint dst_stride;
};
shared vec2 sh[4096];

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

void butterfly2(inout vec2 a, inout vec2 b) {
  vec2 t = a - b;
  a = a + b;
  b = t;
}

void main() {
  uint t = gl_LocalInvocationID.x;
  uint g = gl_WorkGroupID.x + group_offset;
  if (g >= batch) return;
  uint base_in = g * src_stride;
  uint base_out = g * dst_stride;
  vec2 a = src[base_in + t];
  vec2 b = src[base_in + t + 256u];
  butterfly2(a, b);
  b = cmul(b, tw[t]);
  sh[t] = a;
  sh[t + 256u] = b;
  barrier();
  a = sh[2u * t];
  b = sh[2u * t + 1u];
  butterfly2(a, b);
  dst[base_out + t] = a;
  dst[base_out + t + 256u] = b;
}
)";

// Register-resident exchange through subgroup operations (the design's alternative to shared
// memory): needs wave intrinsics (SM 6.0) and simdgroup reductions (MSL 2.1).
const char* const kSubgroupKernel = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { vec2 dst[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 v = src[i];
  vec2 w = subgroupShuffleXor(v, 1u);
  dst[i] = subgroupAdd(v) + w;
}
)";

// "  17 | text": the way number_lines() writes a line (width 4 for short sources).
std::string numbered(long line, const std::string& text) {
  std::string n = std::to_string(line);
  return std::string(n.size() < 4 ? 4 - n.size() : 0, ' ') + n + " | " + text;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

struct Binding {
  uint32_t set;
  uint32_t binding;
  bool operator<(const Binding& o) const { return std::tie(set, binding) < std::tie(o.set, o.binding); }
  bool operator==(const Binding& o) const { return set == o.set && binding == o.binding; }
};

std::vector<Binding> storage_buffer_bindings(const std::vector<uint32_t>& spirv) {
  spirv_cross::Compiler reflect(spirv);
  const auto resources = reflect.get_shader_resources();
  std::vector<Binding> out;
  for (const auto& r : resources.storage_buffers) {
    out.push_back({reflect.get_decoration(r.id, spv::DecorationDescriptorSet),
                   reflect.get_decoration(r.id, spv::DecorationBinding)});
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Push-constant variables as the pipeline layout sees them: storage class PushConstant, no
// descriptor decorations, and the member offsets of the GLSL block.
void check_push_constant_block(const std::vector<uint32_t>& spirv) {
  spirv_cross::Compiler reflect(spirv);
  const auto resources = reflect.get_shader_resources();
  REQUIRE(resources.push_constant_buffers.size() == 1);
  CHECK(resources.uniform_buffers.empty());
  const auto& pc = resources.push_constant_buffers[0];
  CHECK(reflect.get_storage_class(pc.id) == spv::StorageClassPushConstant);
  CHECK_FALSE(reflect.has_decoration(pc.id, spv::DecorationBinding));
  CHECK_FALSE(reflect.has_decoration(pc.id, spv::DecorationDescriptorSet));
  const auto& type = reflect.get_type(pc.base_type_id);
  REQUIRE(type.member_types.size() == 4);
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(reflect.type_struct_member_offset(type, i) == 4 * i);
  }
  CHECK(reflect.get_declared_struct_size(type) == 16);
}

}  // namespace

TEST_CASE("number_lines prefixes 1-based line numbers", "[compile]") {
  CHECK(number_lines("a\nb\n") == "   1 | a\n   2 | b\n");
  CHECK(number_lines("a\nb") == "   1 | a\n   2 | b\n");
  CHECK(number_lines("") == "");
  CHECK(number_lines("x\n\ny\n") == "   1 | x\n   2 | \n   3 | y\n");
}

TEST_CASE("a kernel-shaped compute shader compiles to valid SPIR-V, HLSL and MSL", "[compile]") {
  const CompiledShader out = compile_glsl(kKernel, "fft512.pass0", true, true, CrossCompileOptions{});

  REQUIRE_FALSE(out.spirv.empty());
  CHECK(out.spirv[0] == 0x07230203u);  // SPIR-V magic
  CHECK(out.spirv[1] == 0x00010300u);  // SPIR-V 1.3
  CHECK(validate_spirv(out.spirv).empty());

  const std::string dis = disassemble_spirv(out.spirv);
  CHECK(contains(dis, "OpEntryPoint GLCompute"));
  CHECK(contains(dis, "LocalSize 256 1 1"));
  CHECK(contains(dis, "OpControlBarrier"));

  // The GLSL path keeps the declared interface.
  const std::vector<Binding> expected{{0, 0}, {0, 1}, {0, 2}};
  CHECK(storage_buffer_bindings(out.spirv) == expected);
  check_push_constant_block(out.spirv);

  REQUIRE_FALSE(out.hlsl.empty());
  CHECK(out.hlsl_entry_point == "main");
  CHECK(contains(out.hlsl, "void " + out.hlsl_entry_point + "("));
  CHECK(contains(out.hlsl, "[numthreads(256, 1, 1)]"));
  CHECK(contains(out.hlsl, "GroupMemoryBarrierWithGroupSync"));
  CHECK(contains(out.hlsl, "register(t0)"));
  CHECK(contains(out.hlsl, "register(u1)"));
  CHECK(contains(out.hlsl, "register(t2)"));

  REQUIRE_FALSE(out.msl.empty());
  CHECK(out.msl_entry_point == "main0");
  CHECK(contains(out.msl, "kernel void " + out.msl_entry_point + "("));
  CHECK(contains(out.msl, "threadgroup_barrier"));
}

TEST_CASE("only the requested targets are cross-compiled", "[compile]") {
  const CompiledShader out = compile_glsl(kKernel, "k", false, false, CrossCompileOptions{});
  CHECK_FALSE(out.spirv.empty());
  CHECK(out.hlsl.empty());
  CHECK(out.msl.empty());
}

TEST_CASE("shipped HLSL compiles back to SPIR-V with the same Vulkan interface", "[compile]") {
  CrossCompileOptions sm50;
  CrossCompileOptions sm60;
  sm60.hlsl_shader_model = 60;
  for (const auto& cross : {sm50, sm60}) {
    SECTION("shader model " + std::to_string(cross.hlsl_shader_model)) {
      const CompiledShader out = compile_glsl(kKernel, "k", true, false, cross);
      const std::vector<uint32_t> back =
          compile_hlsl_to_spirv(out.hlsl, out.hlsl_entry_point, "k.hlsl");
      CHECK(validate_spirv(back).empty());

      const std::vector<Binding> expected{{0, 0}, {0, 1}, {0, 2}};
      CHECK(storage_buffer_bindings(back) == expected);
      check_push_constant_block(back);

      spirv_cross::Compiler reflect(back);
      const auto entry_points = reflect.get_entry_points_and_stages();
      REQUIRE(entry_points.size() == 1);
      CHECK(entry_points[0].name == out.hlsl_entry_point);
      CHECK(entry_points[0].execution_model == spv::ExecutionModelGLCompute);
      CHECK(reflect.get_execution_mode_argument(spv::ExecutionModeLocalSize, 0) == 256);

      // The shipped text keeps its plain cbuffer (a root-constant buffer under D3D).
      CHECK_FALSE(contains(out.hlsl, "vk::push_constant"));
    }
  }
}

TEST_CASE("a syntax error throws CompileError with the numbered line and glslang's log",
          "[compile]") {
  std::string bad = kKernel;
  const std::string good_line = "  vec2 t = a - b;";
  const auto pos = bad.find(good_line);
  REQUIRE(pos != std::string::npos);
  bad.replace(pos, good_line.size(), "  vec2 t = a - ;");

  // Line of the broken statement, counted the way the message numbers it.
  const auto line = 1 + std::count(bad.begin(), bad.begin() + static_cast<long>(pos), '\n');
  try {
    compile_glsl(bad, "broken.pass0", true, true, CrossCompileOptions{});
    FAIL("expected CompileError");
  } catch (const CompileError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(contains(what, "broken.pass0"));
    CHECK(contains(what, "glslang parse"));
    CHECK(contains(what, numbered(line, "  vec2 t = a - ;")));
    CHECK(contains(what, "ERROR: broken.pass0:" + std::to_string(line) + ":"));
    CHECK(contains(what, "syntax error"));
  }
}

TEST_CASE("a semantic error is reported the same way", "[compile]") {
  const std::string bad = "#version 450\nlayout(local_size_x = 64) in;\nvoid main() { undefined_name = 1; }\n";
  try {
    compile_glsl(bad, "undeclared", false, false, CrossCompileOptions{});
    FAIL("expected CompileError");
  } catch (const CompileError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(contains(what, "'undeclared'"));
    CHECK(contains(what, numbered(3, "void main() { undefined_name = 1; }")));
    CHECK(contains(what, "undeclared identifier"));
  }
}

TEST_CASE("broken HLSL throws CompileError naming the HLSL stage", "[compile]") {
  const CompiledShader out = compile_glsl(kKernel, "k", true, false, CrossCompileOptions{});
  std::string bad = out.hlsl;
  const auto pos = bad.find("GroupMemoryBarrierWithGroupSync();");
  REQUIRE(pos != std::string::npos);
  bad.insert(pos, "not_a_function(); ");
  try {
    compile_hlsl_to_spirv(bad, out.hlsl_entry_point, "k.hlsl");
    FAIL("expected CompileError");
  } catch (const CompileError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(contains(what, "HLSL compile"));
    CHECK(contains(what, "k.hlsl"));
    CHECK(contains(what, "not_a_function"));
  }
}

TEST_CASE("compilation is deterministic", "[compile]") {
  CrossCompileOptions cross;
  const CompiledShader a = compile_glsl(kKernel, "k", true, true, cross);
  const CompiledShader b = compile_glsl(kKernel, "k", true, true, cross);
  CHECK(a.spirv == b.spirv);
  CHECK(a.hlsl == b.hlsl);
  CHECK(a.msl == b.msl);
  CHECK(disassemble_spirv(a.spirv) == disassemble_spirv(b.spirv));
  CHECK(compile_hlsl_to_spirv(a.hlsl, "main", "k") == compile_hlsl_to_spirv(b.hlsl, "main", "k"));
}

TEST_CASE("cross-compile options are honoured", "[compile]") {
  CrossCompileOptions base;  // SM 5.0, MSL 2.0
  CrossCompileOptions newer;
  newer.hlsl_shader_model = 60;
  newer.msl_version_major = 2;
  newer.msl_version_minor = 1;
  const CompiledShader a = compile_glsl(kKernel, "k", true, true, base);
  const CompiledShader b = compile_glsl(kKernel, "k", true, true, newer);

  // Register spaces exist from SM 5.1 on; SPIRV-Cross writes them explicitly there.
  CHECK_FALSE(contains(a.hlsl, "space0"));
  CHECK(contains(b.hlsl, "register(t0, space0)"));
  CHECK(contains(b.hlsl, "register(u1, space0)"));
  CHECK(b.hlsl_entry_point == "main");

  // This kernel uses nothing that differs between MSL 2.0 and 2.1; it must still compile.
  CHECK_FALSE(b.msl.empty());
  CHECK(contains(b.msl, "kernel void " + b.msl_entry_point + "("));
}

TEST_CASE("subgroup kernels need SM 6.0 and MSL 2.1, and fail clearly below", "[compile]") {
  CrossCompileOptions old_targets;  // SM 5.0, MSL 2.0
  CrossCompileOptions new_targets;
  new_targets.hlsl_shader_model = 60;
  new_targets.msl_version_minor = 1;

  SECTION("SM 6.0 and MSL 2.1 produce wave / simdgroup code that round-trips") {
    const CompiledShader out = compile_glsl(kSubgroupKernel, "sg", true, true, new_targets);
    CHECK(contains(out.hlsl, "WaveActiveSum"));
    CHECK(contains(out.hlsl, "WaveReadLaneAt"));
    CHECK(contains(out.msl, "simd_sum"));
    CHECK(contains(out.msl, "simd_shuffle_xor"));
    const std::vector<uint32_t> back = compile_hlsl_to_spirv(out.hlsl, out.hlsl_entry_point, "sg");
    CHECK(validate_spirv(back).empty());
    CHECK(contains(disassemble_spirv(back), "OpGroupNonUniform"));
  }
  SECTION("SM 5.0 is refused by SPIRV-Cross, reported as CompileError") {
    try {
      compile_glsl(kSubgroupKernel, "sg_sm50", true, false, old_targets);
      FAIL("expected CompileError");
    } catch (const CompileError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(contains(what, "HLSL cross-compile"));
      CHECK(contains(what, "'sg_sm50'"));
      CHECK(contains(what, "SM 6.0"));
      CHECK(contains(what, numbered(1, "#version 450")));
    }
  }
  SECTION("MSL 2.0 is refused by SPIRV-Cross, reported as CompileError") {
    try {
      compile_glsl(kSubgroupKernel, "sg_msl20", false, true, old_targets);
      FAIL("expected CompileError");
    } catch (const CompileError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(contains(what, "MSL cross-compile"));
      CHECK(contains(what, "'sg_msl20'"));
      CHECK(contains(what, "Metal 2.1"));
    }
  }
}
