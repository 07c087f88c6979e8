#include "fftgen/compile.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <regex>

// Debian's glslang is built with the HLSL front end but its CMake targets do not export
// ENABLE_HLSL, which ShaderLang.h needs to declare the HLSL-only setters. It only adds member
// function declarations, so defining it here does not change any class layout.
#ifndef ENABLE_HLSL
#define ENABLE_HLSL 1
#endif
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <glslang/SPIRV/Logger.h>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv_cross/spirv_hlsl.hpp>
#include <spirv_cross/spirv_msl.hpp>

namespace fftgen {
namespace {

// Vulkan 1.1 guarantees SPIR-V 1.3, which is what every stage below targets.
constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_1;

// glslang keeps process-wide tables; InitializeProcess is reference counted, so one call that is
// never undone keeps them alive for every later compile.
void ensure_glslang_initialized() {
  static const bool initialized = glslang::InitializeProcess();
  (void)initialized;
}

[[noreturn]] void fail(const std::string& stage, const std::string& name, const std::string& source,
                       const std::string& log) {
  std::string message = stage + " failed for shader '" + name + "'\n";
  if (!log.empty()) {
    message += log;
    if (message.back() != '\n') message += '\n';
  }
  if (!source.empty()) {
    message += "source of '" + name + "':\n";
    message += number_lines(source);
  }
  throw CompileError(message);
}

// Collects SPIRV-Tools diagnostics as "error: line: message" lines.
spvtools::MessageConsumer collect_into(std::string& log) {
  return [&log](spv_message_level_t level, const char* /*source*/, const spv_position_t& position,
                const char* message) {
    const char* kind = "info";
    switch (level) {
      case SPV_MSG_FATAL:
      case SPV_MSG_INTERNAL_ERROR:
      case SPV_MSG_ERROR:
        kind = "error";
        break;
      case SPV_MSG_WARNING:
        kind = "warning";
        break;
      default:
        break;
    }
    log += std::string(kind) + " (instruction " + std::to_string(position.index) + "): " + message +
           "\n";
  };
}

std::string info_logs(const char* info, const char* debug) {
  std::string log = info ? info : "";
  if (debug && *debug) {
    if (!log.empty() && log.back() != '\n') log += '\n';
    log += debug;
  }
  return log;
}

// Front end shared by the GLSL and HLSL paths: parse, link, map I/O, emit SPIR-V 1.3 unoptimised.
std::vector<uint32_t> front_end(const std::string& source, const std::string& name,
                                glslang::EShSource language, const std::string& entry_point,
                                const std::string& stage_prefix) {
  ensure_glslang_initialized();

  glslang::TShader shader(EShLangCompute);
  const char* text = source.c_str();
  const int length = static_cast<int>(source.size());
  const char* names = name.c_str();
  shader.setStringsWithLengthsAndNames(&text, &length, &names, 1);
  // Vulkan 1.1 client; the input version is the Vulkan semantics version (100), not the client.
  shader.setEnvInput(language, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);

  auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (language == glslang::EShSourceHlsl) {
    shader.setEntryPoint(entry_point.c_str());
    shader.setSourceEntryPoint(entry_point.c_str());
    // register(tN)/register(uN) become binding N in set 0 (HLSL register spaces map to sets).
    shader.setHlslIoMapping(true);
    messages = static_cast<EShMessages>(messages | EShMsgReadHlsl);
  }

  if (!shader.parse(GetDefaultResources(), 450, false, messages)) {
    fail(stage_prefix + " (glslang parse)", name, source,
         info_logs(shader.getInfoLog(), shader.getInfoDebugLog()));
  }

  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    fail(stage_prefix + " (glslang link)", name, source,
         info_logs(program.getInfoLog(), program.getInfoDebugLog()));
  }
  if (!program.mapIO()) {
    fail(stage_prefix + " (glslang I/O mapping)", name, source,
         info_logs(program.getInfoLog(), program.getInfoDebugLog()));
  }

  std::vector<uint32_t> spirv;
  spv::SpvBuildLogger logger;
  glslang::SpvOptions options;
  options.disableOptimizer = true;  // SPIRV-Tools runs below with an explicit target env
  options.validate = false;         // validated below so failures carry our message format
  options.generateDebugInfo = false;
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv, &logger, &options);
  const std::string spv_log = logger.getAllMessages();
  if (spirv.empty()) {
    fail(stage_prefix + " (glslang SPIR-V generation)", name, source, spv_log);
  }
  return spirv;
}

std::vector<uint32_t> optimize(const std::vector<uint32_t>& spirv, const std::string& name,
                               const std::string& source) {
  std::string log;
  spvtools::Optimizer optimizer(kTargetEnv);
  optimizer.SetMessageConsumer(collect_into(log));
  optimizer.RegisterPerformancePasses();
  std::vector<uint32_t> out;
  // Its callers validated the input (validate_spirv), so the optimizer does not validate it again.
  spvtools::ValidatorOptions validator_options;
  if (!optimizer.Run(spirv.data(), spirv.size(), &out, validator_options, true)) {
    fail("SPIR-V optimisation (spirv-opt)", name, source, log);
  }
  return out;
}

// Whether a module declares `OpCapability capability` (precision fp64: Float64, 10).
bool declares_capability(const std::vector<uint32_t>& spirv, uint32_t capability) {
  constexpr uint32_t kOpCapability = (2u << 16) | 17u;  // word count 2, opcode 17
  for (size_t i = 5; i + 1 < spirv.size(); i += std::max<uint32_t>(1, spirv[i] >> 16))
    if (spirv[i] == kOpCapability && spirv[i + 1] == capability) return true;
  return false;
}

std::string cross_to_hlsl(const std::vector<uint32_t>& spirv, const CrossCompileOptions& cross,
                          std::string& entry_point) {
  spirv_cross::CompilerHLSL compiler(spirv);
  auto options = compiler.get_hlsl_options();
  options.shader_model = cross.hlsl_shader_model;
  // Doubles (precision fp64) are read from ByteAddressBuffers with templated loads (Load<double2>),
  // which SPIRV-Cross writes from shader model 6.2 with its 16-bit types option (the plan refuses
  // fp64 with hlsl below 6.2); the kernels hold no 16-bit values.
  constexpr uint32_t kFloat64 = 10;
  if (cross.hlsl_shader_model >= 62 && declares_capability(spirv, kFloat64)) options.enable_16bit_types = true;
  compiler.set_hlsl_options(options);
  std::string text = compiler.compile();
  // The HLSL back end always emits the entry function as "main".
  entry_point = "main";
  return text;
}

std::string cross_to_msl(const std::vector<uint32_t>& spirv, const CrossCompileOptions& cross,
                         std::string& entry_point) {
  spirv_cross::CompilerMSL compiler(spirv);
  auto options = compiler.get_msl_options();
  options.platform = spirv_cross::CompilerMSL::Options::macOS;
  options.msl_version = spirv_cross::CompilerMSL::Options::make_msl_version(
      cross.msl_version_major, cross.msl_version_minor);
  compiler.set_msl_options(options);
  // Metal buffer indices come from the interface's slots (msl_index), the push constants'
  // from kMslPushConstantBuffer, which no slot takes; left automatic, SPIRV-Cross would number
  // them in the order it meets them. The manifest states the same mapping per binding.
  for (const ResourceSlot& slot : kResourceSlots) {
    spirv_cross::MSLResourceBinding r;
    r.stage = spv::ExecutionModelGLCompute;
    r.desc_set = 0;
    r.binding = slot.binding;
    r.msl_buffer = msl_index(slot.binding);
    r.msl_texture = msl_index(slot.binding);  // io image: a storage image
    compiler.add_msl_resource_binding(r);
  }
  spirv_cross::MSLResourceBinding push;
  push.stage = spv::ExecutionModelGLCompute;
  push.desc_set = spirv_cross::kPushConstDescSet;
  push.binding = spirv_cross::kPushConstBinding;
  push.msl_buffer = kMslPushConstantBuffer;
  compiler.add_msl_resource_binding(push);
  std::string text = compiler.compile();
  // "main" is reserved in Metal; SPIRV-Cross renames it (normally to "main0"). Ask rather than
  // assume so the manifest always names the function that exists.
  entry_point = compiler.get_cleansed_entry_point_name("main", spv::ExecutionModelGLCompute);
  return text;
}

// Adds [[vk::push_constant]] to the cbuffer SPIRV-Cross wrote for the GLSL push-constant block, so
// glslang's HLSL front end makes it a Vulkan push-constant block again instead of a uniform
// buffer (which would also collide with the storage buffer at binding 0). SPIRV-Cross writes every
// descriptor-backed cbuffer with a register(bN) clause, and the push-constant block without one
// ("cbuffer Params\n{"), which is how it is recognised. The attribute is inserted on the same line
// so line numbers in error messages still match the shipped HLSL.
std::string mark_push_constant_cbuffer(const std::string& hlsl) {
  static const std::regex kUnregisteredCbuffer(R"((^|\n)(cbuffer\s+\w+\s*\{))");
  std::smatch match;
  if (!std::regex_search(hlsl, match, kUnregisteredCbuffer)) return hlsl;
  const auto pos = static_cast<size_t>(match.position(2));
  return hlsl.substr(0, pos) + "[[vk::push_constant]] " + hlsl.substr(pos);
}

}  // namespace

std::string number_lines(const std::string& source) {
  size_t line_count = static_cast<size_t>(std::count(source.begin(), source.end(), '\n'));
  if (!source.empty() && source.back() != '\n') ++line_count;
  const int width = std::max<int>(4, static_cast<int>(std::to_string(line_count).size()));

  std::string out;
  out.reserve(source.size() + line_count * (width + 3));
  size_t start = 0;
  size_t number = 1;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%*zu | ", width, number);
    out += prefix;
    out.append(source, start, end - start);
    out += '\n';
    start = end + 1;
    ++number;
  }
  return out;
}

// The module without its OpName and OpMemberName instructions. The validator gives every named id
// a unique friendly name, trying name_1, name_2 ... in turn: quadratic in the ids that share a name,
// which glslang's "param" temporaries of a long kernel's codelet calls make tens of seconds.
std::vector<uint32_t> without_names(const std::vector<uint32_t>& spirv) {
  constexpr uint32_t kHeaderWords = 5, kOpName = 5, kOpMemberName = 6;
  std::vector<uint32_t> out(spirv.begin(), spirv.begin() + std::min<size_t>(kHeaderWords, spirv.size()));
  for (size_t i = kHeaderWords; i < spirv.size();) {
    const size_t words = std::max<uint32_t>(1, spirv[i] >> 16), end = std::min(spirv.size(), i + words);
    const uint32_t opcode = spirv[i] & 0xffffu;
    if (opcode != kOpName && opcode != kOpMemberName) out.insert(out.end(), spirv.begin() + i, spirv.begin() + end);
    i = end;
  }
  return out;
}

// Validation of the module as it is, its names aside (without_names); where it fails, the log of
// the module with its names, whose messages name the ids.
std::string validate_spirv(const std::vector<uint32_t>& spirv) {
  std::string log;
  spvtools::SpirvTools tools(kTargetEnv);
  tools.SetMessageConsumer(collect_into(log));
  if (tools.Validate(without_names(spirv))) return "";
  log.clear();
  if (tools.Validate(spirv)) return "invalid SPIR-V once its names were dropped\n";
  return log.empty() ? std::string("invalid SPIR-V (no diagnostics)\n") : log;
}

std::string disassemble_spirv(const std::vector<uint32_t>& spirv) {
  std::string log;
  spvtools::SpirvTools tools(kTargetEnv);
  tools.SetMessageConsumer(collect_into(log));
  std::string text;
  if (!tools.Disassemble(spirv, &text,
                         SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES)) {
    throw CompileError("SPIR-V disassembly failed\n" + log);
  }
  return text;
}

CompiledShader compile_glsl(const std::string& glsl, const std::string& name, bool want_hlsl,
                            bool want_msl, const CrossCompileOptions& cross) {
  const std::vector<uint32_t> unoptimised =
      front_end(glsl, name, glslang::EShSourceGlsl, "main", "GLSL compile");
  if (std::string log = validate_spirv(unoptimised); !log.empty()) {
    fail("SPIR-V validation of glslang output", name, glsl, log);
  }

  CompiledShader result;
  result.spirv = optimize(unoptimised, name, glsl);
  result.unoptimised_spirv = unoptimised;
  if (std::string log = validate_spirv(result.spirv); !log.empty()) {
    fail("SPIR-V validation of optimised output", name, glsl, log + disassemble_spirv(result.spirv));
  }

  if (want_hlsl) {
    try {
      result.hlsl = cross_to_hlsl(result.spirv, cross, result.hlsl_entry_point);
    } catch (const std::exception& e) {
      fail("HLSL cross-compile (SPIRV-Cross)", name, glsl, e.what());
    }
  }
  if (want_msl) {
    try {
      result.msl = cross_to_msl(result.spirv, cross, result.msl_entry_point);
    } catch (const std::exception& e) {
      fail("MSL cross-compile (SPIRV-Cross)", name, glsl, e.what());
    }
  }
  return result;
}

std::vector<uint32_t> compile_hlsl_to_spirv(const std::string& hlsl, const std::string& entry_point,
                                            const std::string& name) {
  const std::string source = mark_push_constant_cbuffer(hlsl);
  std::vector<uint32_t> spirv =
      front_end(source, name, glslang::EShSourceHlsl, entry_point, "HLSL compile");
  if (std::string log = validate_spirv(spirv); !log.empty()) {
    fail("SPIR-V validation of HLSL front-end output", name, source, log);
  }
  // Optimised as the GLSL path's output is (and as DXC and FXC optimise by default): glslang's HLSL
  // output keeps every local in memory, which lavapipe compiles slowly (one twelfth of the gpu
  // suite's round trips, the suite's longest tests: 220 -> 135 s on two cores).
  std::vector<uint32_t> optimised = optimize(spirv, name, source);
  if (std::string log = validate_spirv(optimised); !log.empty()) {
    fail("SPIR-V validation of optimised HLSL front-end output", name, source, log);
  }
  return optimised;
}

}  // namespace fftgen
