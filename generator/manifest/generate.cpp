#include "fftgen/generate.hpp"

#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "fftgen/compile.hpp"
#include "fftgen/emit.hpp"

namespace fftgen {
namespace {

using json = nlohmann::ordered_json;

const codelet::Dag& cached_codelet(uint32_t radix, Direction direction) {
  static std::map<std::pair<uint32_t, Direction>, codelet::Dag> cache;
  auto key = std::make_pair(radix, direction);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, codelet::make_dft(radix, direction)).first;
  return it->second;
}

bool wants(const Plan& plan, Target target) {
  for (Target t : plan.targets)
    if (t == target) return true;
  return false;
}

std::string file_name(const KernelSpec& spec, const std::string& pass, Target target) {
  static const std::map<Target, const char*> ext{
      {Target::spirv, "spv"}, {Target::glsl, "comp"}, {Target::hlsl, "hlsl"}, {Target::msl, "metal"}};
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
  return where;
}

json pass_json(const Plan& plan, const KernelSpec& spec, const KernelLayout& layout, size_t p, Direction direction,
               const CompiledShader& shader, const codelet::OpCounts& ops) {
  const PassLayout& pass = layout.passes[p];
  const std::string name = pass_name(direction, p);
  json files = json::object(), entry = json::object();
  for (Target t : plan.targets) files[std::string(to_string(t))] = file_name(spec, name, t);
  for (Target t : plan.targets)
    entry[std::string(to_string(t))] = t == Target::msl    ? shader.msl_entry_point
                                       : t == Target::hlsl ? shader.hlsl_entry_point
                                                           : "main";
  json stages = json::array();
  for (const StageLayout& s : pass.stages) stages.push_back(s.radix);
  // How many complex64 elements a buffer bound in `role` must hold, `stride` naming its push constant.
  auto size_rule = [&](BufferRole role, const char* stride) {
    if (role == BufferRole::scratch) return fmt::format("batch * {} elements", layout.n);
    return fmt::format("(batch - 1) * {} + {} elements", stride, layout.n);
  };
  auto binding = [&](int index, std::string_view role, const char* access, const std::string& rule) {
    json b{{"set", 0}, {"binding", index}, {"role", role}, {"access", access}, {"element", "complex64"},
           {"size_rule", rule}};
    if (wants(plan, Target::hlsl)) b["hlsl_register"] = fmt::format("{}{}", access[0] == 'r' ? 't' : 'u', index);
    if (wants(plan, Target::msl)) b["msl_buffer"] = index;
    return b;
  };
  json bindings = json::array();
  bindings.push_back(binding(0, to_string(pass.src), "read", size_rule(pass.src, "src_stride")));
  bindings.push_back(binding(1, to_string(pass.dst), "write", size_rule(pass.dst, "dst_stride")));
  if (spec.twiddles == TwiddleSource::table && layout.twiddle_count > 0)
    bindings.push_back(binding(2, "twiddles", "read", fmt::format("{} elements (the twiddle file)", layout.twiddle_count)));
  json push = json::array();
  const char* names[] = {"batch", "group_offset", "src_stride", "dst_stride"};
  for (int i = 0; i < 4; ++i) push.push_back({{"name", names[i]}, {"offset", 4 * i}, {"type", "uint32"}});
  return json{{"name", name},
              {"files", files},
              {"entry_point", entry},
              {"local_size", {pass.workgroup_size, 1, 1}},
              {"size", pass.size},
              {"stages", stages},
              {"stride", pass.stride},
              {"dispatch",
               {{"columns_per_transform", pass.columns_per_transform},
                {"columns_per_workgroup", pass.columns_per_workgroup}}},
              {"bindings", bindings},
              {"push_constants", push},
              {"push_constant_bytes", 16},
              {"push_constant_binding",
               push_constant_binding(plan)},
              {"shared_memory_bytes", pass.shared_bytes()},
              {"ops", ops_json(ops)}};
}

}  // namespace

codelet::OpCounts count_pass_ops(const KernelSpec& spec, const KernelLayout& layout, size_t p, Direction direction) {
  const PassLayout& pass = layout.passes[p];
  const codelet::OpCounts cmul{2, 4, 2, 0};
  auto times = [](codelet::OpCounts x, uint64_t k) {
    return codelet::OpCounts{uint32_t(x.adds * k), uint32_t(x.muls * k), uint32_t(x.fma_candidates * k), uint32_t(x.negs * k)};
  };
  codelet::OpCounts total;
  for (const StageLayout& stage : pass.stages) {
    const uint64_t butterflies = uint64_t{pass.columns_per_transform} * (pass.size / stage.radix);
    add_ops(total, times(codelet::count_ops(cached_codelet(stage.radix, direction)), butterflies));
    if (stage.stride > 1) add_ops(total, times(cmul, butterflies * (stage.radix - 1)));
  }
  if (pass.stride > 1) {
    // One multiplication by the twiddle, plus one to assemble it from the two-level table.
    const uint64_t per_value = spec.twiddles == TwiddleSource::table ? 2 : 1;
    add_ops(total, times(cmul, uint64_t{layout.n} * per_value));
  }
  if (p + 1 == layout.passes.size() && direction_scale(spec, direction) != 1.0)
    total.muls += 2 * layout.n;
  return total;
}

std::vector<std::string> planned_files(const Plan& plan) {
  std::vector<std::string> names;
  for (const KernelSpec& spec : plan.kernels) {
    KernelLayout layout = make_layout(spec);
    for (Direction d : directions_of(spec.direction))
      for (size_t p = 0; p < layout.passes.size(); ++p)
        for (Target t : plan.targets) names.push_back(file_name(spec, pass_name(d, p), t));
    if (layout.twiddle_count > 0) names.push_back(twiddle_file_name(spec));
  }
  names.push_back("manifest.json");
  return names;
}

GeneratedOutput generate(const Plan& plan, const std::string& plan_source,
                         const std::function<void(const std::string&)>& progress) {
  GeneratedOutput out;
  json kernels = json::array();
  json targets = json::array();
  for (Target t : plan.targets) targets.push_back(to_string(t));
  const bool want_hlsl = wants(plan, Target::hlsl), want_msl = wants(plan, Target::msl);

  for (const KernelSpec& spec : plan.kernels) {
    if (progress) progress(spec.name);
    const KernelLayout layout = make_layout(spec);
    json kernel{{"name", spec.name}, {"plan_kernel", spec.plan_name}, {"shape", spec.shape}, {"element", "complex64"}};
    json dirs = json::array();
    for (Direction d : directions_of(spec.direction)) dirs.push_back(to_string(d));
    kernel["directions"] = dirs;
    kernel["normalize"] = to_string(spec.normalize);
    json scale = json::object();
    for (Direction d : directions_of(spec.direction)) scale[std::string(to_string(d))] = direction_scale(spec, d);
    kernel["scale"] = scale;
    kernel["options"] = {{"radices", layout.radices},
                         {"index_math", to_string(spec.index_math)},
                         {"twiddles", to_string(spec.twiddles)},
                         {"workgroup_size", layout.passes.front().workgroup_size},
                         {"precision", to_string(spec.precision)},
                         {"shared_memory_bytes", spec.shared_memory_bytes}};
    if (layout.twiddle_count > 0) {
      out.files.push_back({twiddle_file_name(spec), bytes_of(make_twiddle_table(layout))});
      kernel["twiddles"] = {{"file", twiddle_file_name(spec)},
                            {"count", layout.twiddle_count},
                            {"format", "float32 pairs (re, im), little-endian"}};
    } else {
      kernel["twiddles"] = nullptr;
    }
    kernel["scratch_elements"] = layout.needs_scratch() ? layout.n : 0;
    json ops = json::object();
    for (Direction d : directions_of(spec.direction)) {
      json passes = json::array();
      codelet::OpCounts total;
      for (size_t p = 0; p < layout.passes.size(); ++p) {
        const std::string name = pass_name(d, p);
        const std::string glsl = emit_pass_glsl(spec, layout, p, d, plan_source);
        const CompiledShader shader = compile_glsl(glsl, spec.name + "." + name, want_hlsl, want_msl, plan.cross);
        // The GLSL carries this line from the template (after #version); SPIR-V is binary.
        const std::string header = generated_header(plan_source, spec, name);
        for (Target t : plan.targets) {
          std::string bytes = t == Target::spirv ? bytes_of(shader.spirv)
                              : t == Target::glsl ? glsl
                              : t == Target::hlsl ? "// " + header + "\n" + shader.hlsl
                                                  : "// " + header + "\n" + shader.msl;
          out.files.push_back({file_name(spec, name, t), std::move(bytes)});
        }
        const codelet::OpCounts ops = count_pass_ops(spec, layout, p, d);
        json pj = pass_json(plan, spec, layout, p, d, shader, ops);
        passes.push_back(pj);
        add_ops(total, ops);
      }
      kernel[std::string(to_string(d))] = passes;
      ops[std::string(to_string(d))] = ops_json(total);
    }
    kernel["ops"] = ops;
    kernels.push_back(kernel);
  }
  out.manifest = json{{"format", "fftgen-manifest"},
                      {"format_version", 1},
                      {"generator", std::string("fftgen ") + FFTGEN_VERSION},
                      {"plan", plan_source},
                      {"targets", targets},
                      {"kernels", kernels}};
  if (!plan.wisdom.empty()) out.manifest["wisdom"] = plan.wisdom;
  out.files.push_back({"manifest.json", out.manifest.dump(2) + "\n"});
  return out;
}

void write_output(const GeneratedOutput& output, const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> created;
  const bool dir_existed = fs::exists(dir);
  try {
    fs::create_directories(dir);
    for (const OutputFile& file : output.files) {
      const fs::path target = dir / file.name;
      if (fs::exists(target) && fs::file_size(target) == file.bytes.size()) {
        std::ifstream in(target, std::ios::binary);
        std::string current((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (current == file.bytes) continue;
      }
      const fs::path tmp = dir / (file.name + ".fftgen-tmp");
      {
        std::ofstream os(tmp, std::ios::binary | std::ios::trunc);
        os.write(file.bytes.data(), static_cast<std::streamsize>(file.bytes.size()));
        if (!os) throw std::runtime_error("cannot write " + tmp.string());
      }
      fs::rename(tmp, target);
      created.push_back(target);
    }
  } catch (...) {
    std::error_code ec;
    for (const fs::path& p : created) fs::remove(p, ec);
    for (const OutputFile& file : output.files) fs::remove(dir / (file.name + ".fftgen-tmp"), ec);
    if (!dir_existed) fs::remove_all(dir, ec);
    throw;
  }
}

std::string_view default_plan_text() { return embedded_template("default.json"); }

}  // namespace fftgen
