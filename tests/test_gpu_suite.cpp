// Generates tests/plans/gpu_suite.json with the fftgen CLI and runs every kernel (1D and 2D; c2c,
// r2c/c2r and r2c_pair) on a Vulkan device (lavapipe in CI) with the validation layer on:
//  - forward and inverse against FFTW in double, batches 1 and 7, rel L2 ≤ 1e-6, round trip,
//    output poisoned with NaN first;
//  - the shipped HLSL compiled back to SPIR-V (glslang's HLSL front end) run with the same
//    pipeline layout must compute what the SPIR-V from GLSL computes.
// Any validation message fails.
//
// CTest runs it in shards (tests/CMakeLists.txt), as lavapipe compiles each pipeline on one core:
// the test_gpu_suite_generate fixture generates the plan once into FFTGEN_GPU_SUITE_DIR, and
// FFTGEN_GPU_SUITE_SHARD = "i/n" gives a process the kernels at indices i, i + n, i + 2n, ... of
// the per-kernel cases. Run by hand without them, it generates the plan itself and checks every
// kernel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "fftgen/compile.hpp"
#include "fftgen/runtime.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/npy.hpp"
#include "fftgen/vktools/reference.hpp"
#include "fftgen/vktools/verify.hpp"
#include "gpu_support.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;
using namespace fftgen_test;

namespace {

const char* given_suite_dir() { return std::getenv("FFTGEN_GPU_SUITE_DIR"); }

// The suite's output: the fixture's, or generated once per test process.
const fs::path& suite_dir() {
  static const fs::path dir = given_suite_dir() ? fs::path(given_suite_dir())
                                                : generate_test_plan("gpu_suite.json", "fftgen_gpu_suite");
  return dir;
}

Device& suite_device() { return validated_device(); }

struct Cleanup {
  ~Cleanup() {
    std::error_code ec;
    // Only a directory this process created (the generated suite) is removed.
    if (!given_suite_dir() && !getenv("FFTGEN_KEEP_SUITE")) fs::remove_all(suite_dir(), ec);
  }
};

// This process's shard of the kernels, FFTGEN_GPU_SUITE_SHARD = "i/n" (all of them without it).
struct Shard {
  size_t index = 0, count = 1;
  bool has(size_t kernel_index) const { return kernel_index % count == index; }
};

Shard suite_shard() {
  Shard shard;
  const char* text = std::getenv("FFTGEN_GPU_SUITE_SHARD");
  if (!text) return shard;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> shard.index >> slash >> shard.count) || slash != '/' || shard.count == 0 || shard.index >= shard.count)
    throw std::runtime_error(std::string("FFTGEN_GPU_SUITE_SHARD: expected i/n with i < n, got '") + text + "'");
  return shard;
}

// Whether two kernels of one plan entry have the same shape, transform and directions, and the same
// resolved options apart from `option` (where it differs, the caller asked for) and the normalisation.
bool same_passes_but(const KernelInfo& a, const KernelInfo& b, const std::string& option) {
  if (a.name == b.name || a.plan_kernel != b.plan_kernel || a.shape != b.shape || a.transform != b.transform ||
      a.directions != b.directions)
    return false;
  nlohmann::json x = a.options, y = b.options;
  if (!option.empty() && x.is_object() && y.is_object()) x.erase(option), y.erase(option);
  return x == y;
}

// A kernel another kernel of the suite stands for in the HLSL round trip, which costs lavapipe a
// second compile of every pipeline: a divmod kernel's bitwise twin (the same passes, with index
// math SPIRV-Cross maps one to one into HLSL: udiv, umod against shifts, masks), and a kernel's
// twin in another normalisation (the same passes, another constant scale), preferring inverse,
// then none, then ortho.
bool has_hlsl_stand_in(const Manifest& m, const KernelInfo& k) {
  const auto rank = [](const std::string& normalize) {
    return normalize == "inverse" ? 0 : normalize == "none" ? 1 : 2;
  };
  const auto index_math = [](const KernelInfo& info) { return info.options.value("index_math", ""); };
  return std::any_of(m.kernels.begin(), m.kernels.end(), [&](const KernelInfo& other) {
    const bool bitwise_twin = index_math(k) == "divmod" && index_math(other) == "bitwise" &&
                              other.normalize == k.normalize && same_passes_but(k, other, "index_math");
    const bool scale_twin = rank(other.normalize) < rank(k.normalize) && same_passes_but(k, other, "");
    return bitwise_twin || scale_twin;
  });
}

}  // namespace

TEST_CASE("gpu suite: every kernel matches FFTW in double", "[gpu][suite][fftw]") {
  static Cleanup cleanup;
  const auto t0 = std::chrono::steady_clock::now();
  Manifest m = load_manifest(suite_dir());
  REQUIRE(m.kernels.size() > 50);
  Device& device = suite_device();
  drain_validation(device);
  VerifyOptions o;
  o.batches = {1, 7};
  o.tolerance = 1e-6;
  std::vector<VerifyResult> results;
  const Shard shard = suite_shard();
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    if (!shard.has(i)) continue;
    const KernelInfo& k = m.kernels[i];
    // Kernels of a million points run at batch 1 only, for lavapipe's time.
    o.batches = k.points() > (1u << 19) ? std::vector<uint32_t>{1} : std::vector<uint32_t>{1, 7};
    VerifyResult r = verify_kernel(device, m, k, o);
    const std::string messages = drain_validation(device);
    INFO(format_verify_table({r}));
    INFO("validation messages:\n" << messages);
    CHECK(r.pass);
    CHECK(messages.empty());
    // fp16 storage is held to twice the error of rounding its input to half floats (about 2e-4),
    // and must be measurably less accurate than fp32 (it really stored halves).
    if (k.options.value("precision", "") == "fp16") {
      CHECK(r.half_storage);
      CHECK(r.tolerance > 2e-4);
      CHECK(r.tolerance < 1e-3);
      CHECK(r.rel_l2_forward.value_or(0) > 1e-5);
    }
    results.push_back(std::move(r));
  }
  CHECK_FALSE(results.empty());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << format_verify_table(results) << "(" << results.size() << " kernels, " << s
            << " s)\n";
}

TEST_CASE("gpu suite: HLSL compiled back to SPIR-V computes what the GLSL path computes",
          "[gpu][suite][hlsl][roundtrip]") {
  static Cleanup cleanup;
  Manifest m = load_manifest(suite_dir());
  Device& device = suite_device();
  drain_validation(device);
  const ShaderLoader from_hlsl = hlsl_loader(m);
  const uint32_t batch = 7;
  const Shard shard = suite_shard();
  size_t checked = 0, expected = 0;
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const KernelInfo& k = m.kernels[i];
    // For lavapipe's time, once per pass shape (has_hlsl_stand_in).
    if (!shard.has(i) || has_hlsl_stand_in(m, k)) continue;
    ++expected;
    INFO("kernel " << k.name);
    try {
      check_hlsl_matches_spirv(device, m, k, from_hlsl, batch, 77);
      ++checked;
    } catch (const std::exception& e) {
      FAIL_CHECK(e.what());
    }
    const std::string messages = drain_validation(device);
    INFO("validation messages:\n" << messages);
    CHECK(messages.empty());
  }
  CHECK(checked == expected);
  CHECK(expected > 0);
}

TEST_CASE("gpu suite: kernels whose passes share one dispatch leave their counters zero for the next call",
          "[gpu][suite][counters]") {
  static Cleanup cleanup;
  Manifest m = load_manifest(suite_dir());
  Device& device = suite_device();
  drain_validation(device);
  int checked = 0;
  for (const auto& k : m.kernels) {
    // fp16 kernels too pass `verify` above; here the buffers are filled with floats as they are.
    if (k.passes(k.directions.front()).front().counter_passes() == 0 || k.uses_images() ||
        k.options.value("precision", "") == "fp16")
      continue;
    INFO("kernel " << k.name);
    Kernel kernel(device, k, m.directory);
    const Direction d = k.directions.front();
    // One set of bindings for calls of batch 5, 2 and 5, recorded back to back in one command
    // buffer: each call must find the counters as the previous one left them (zero), whatever its
    // batch. The output of each call is read back after it.
    const uint32_t max_batch = 5;
    Buffer in(device, kernel.required_bytes(d, BufferRole::input, max_batch)), out(device, kernel.required_bytes(d, BufferRole::output, max_batch));
    KernelIo io;
    io.input = {in.handle(), 0};
    io.output = {out.handle(), 0};
    io.max_batch = max_batch;
    io.directions = {d};
    const KernelBindings bindings = kernel.bind(io);
    const auto x = random_input(k, d, max_batch, 91);
    upload(device, in.handle(), x.data(), x.size() * sizeof(x[0]));
    const std::vector<std::complex<double>> xd(x.begin(), x.end());
    for (uint32_t batch : {5u, 2u, 5u}) {
      INFO("batch " << batch);
      fill(device, out.handle(), kNanPattern, kernel.required_bytes(d, BufferRole::output, max_batch));
      device.run_commands([&](VkCommandBuffer cmd) {
        record_transfer_to_compute_barrier(cmd);
        kernel.record(cmd, d, bindings, batch);
        record_compute_barrier(cmd);  // a second call on the same counters, after the first
        kernel.record(cmd, d, bindings, batch);
        record_compute_to_transfer_barrier(cmd);
      });
      const uint64_t values = pairs_per_transform(k, d, false) * batch;
      std::vector<std::complex<float>> y(values);
      download(device, out.handle(), y.data(), values * sizeof(y[0]));
      const std::vector<std::complex<double>> first(xd.begin(), xd.begin() + pairs_per_transform(k, d, true) * batch);
      const auto stats = compare(y, reference_transform(k, d, first, batch, d == Direction::forward ? k.forward_scale : k.inverse_scale));
      CHECK(stats.nan_count == 0);
      CHECK(stats.rel_l2 <= 1e-6);
    }
    ++checked;
    const std::string messages = drain_validation(device);
    INFO("validation messages:\n" << messages);
    CHECK(messages.empty());
  }
  CHECK(checked >= 10);
}

TEST_CASE("gpu suite: HLSL laid out within D3D12's 32 KB runs with the manifest's per-target dispatch",
          "[gpu][suite][hlsl][targets]") {
  // Planned at 48 KB, these kernels' Vulkan passes exceed lavapipe's 32 KB of shared memory; their
  // HLSL was laid out within 32 KB, and the manifest says how to dispatch it.
  const fs::path dir = fs::temp_directory_path() / ("fftgen_targets_" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  const fs::path plan = dir / "targets.json";
  // (A 1024-point row takes the same two transforms of 128 invocations at 32 and 48 KB, so no HLSL
  // layout of its own; 6144, 48 KB unsplit, has one.)
  std::ofstream(plan) << R"({"kernels": [{"name": "big", "shape": [[6144], [4096], [64, 1024]],
                                          "shared_memory_bytes": 49152}], "targets": ["spirv", "hlsl"]})";
  const std::string cmd = std::string("\"") + FFTGEN_CLI + "\" \"" + plan.string() + "\" -q -o \"" + (dir / "out").string() + "\"";
  REQUIRE(std::system(cmd.c_str()) == 0);
  Manifest m = load_manifest(dir / "out");
  const auto doc = nlohmann::json::parse(read_text(dir / "out" / "manifest.json"));
  Device& device = suite_device();
  drain_validation(device);
  int overridden = 0;
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    KernelInfo k = m.kernels[i];
    INFO("kernel " << k.name);
    for (Direction d : k.directions) {
      auto& passes = d == Direction::forward ? k.forward : k.inverse;
      const auto& json_passes = doc["kernels"][i][to_string(d)];
      for (size_t p = 0; p < passes.size(); ++p) {
        if (!json_passes[p].contains("targets")) continue;
        const auto& t = json_passes[p]["targets"]["hlsl"];
        passes[p].local_size[0] = t["local_size"][0];
        passes[p].columns_per_workgroup = t["dispatch"]["columns_per_workgroup"];
        passes[p].shared_memory_bytes = t["shared_memory_bytes"];
        ++overridden;
      }
    }
    // The manifest's "requires" describes the Vulkan layout; the HLSL layout needs its own passes' shared memory.
    uint64_t shared = 0;
    for (Direction d : k.directions)
      for (const auto& p : d == Direction::forward ? k.forward : k.inverse)
        shared = std::max<uint64_t>(shared, p.shared_memory_bytes);
    k.requirements.limits[static_cast<size_t>(fftgen::Limit::max_compute_shared_memory_size)] = shared;
    const ShaderLoader from_hlsl = hlsl_loader(m);
    VerifyOptions o;
    o.batches = {1, 5};
    o.loader = from_hlsl;
    const VerifyResult r = verify_kernel(device, m, k, o);
    INFO(format_verify_table({r}));
    CHECK(r.pass);
    CHECK(drain_validation(device).empty());
  }
  CHECK(overridden >= 6);
  fs::remove_all(dir);
}

TEST_CASE("gpu suite: fftgen-vk run takes and gives the arrays of 2D, real and pair kernels", "[gpu][suite][npy]") {
  static Cleanup cleanup;
  Manifest m = load_manifest(suite_dir());
  const fs::path dir = fs::temp_directory_path() / ("fftgen_run_" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  auto run = [&](const std::string& kernel, const NpyArray& in, bool inverse) {
    write_npy(dir / "in.npy", in);
    RunRequest r;
    r.manifest = suite_dir();
    r.kernel = kernel;
    r.input = dir / "in.npy";
    r.output = dir / "out.npy";
    r.direction = inverse ? Direction::inverse : Direction::forward;
    run_npy(r);
    return read_npy(r.output);
  };
  auto pairs = [](const NpyArray& a) {
    std::vector<std::complex<float>> v;
    for (size_t i = 0; i < a.values.size(); i += 2) v.emplace_back(a.values[i], a.values[i + 1]);
    return v;
  };
  SECTION("r2c 2D: float32 [batch, NY, NX] -> complex64 [batch, NY, NX/2+1] -> float32 back") {
    const KernelInfo& k = m.kernel("r2c_2d__n16x256__bitwise");
    const auto x = random_input(k, Direction::forward, 3, 5);
    NpyArray in{NpyType::float32, {3, 16, 256}, std::vector<float>(reinterpret_cast<const float*>(x.data()),
                                                                   reinterpret_cast<const float*>(x.data()) + 2 * x.size())};
    const NpyArray spectrum = run(k.name, in, false);
    CHECK(spectrum.type == NpyType::complex64);
    CHECK(spectrum.shape == std::vector<uint64_t>{3, 16, 129});
    const auto want = reference_transform(k, Direction::forward, std::vector<std::complex<double>>(x.begin(), x.end()), 3);
    CHECK(compare(pairs(spectrum), want).rel_l2 < 1e-6);
    const NpyArray back = run(k.name, spectrum, true);
    CHECK(back.type == NpyType::float32);
    CHECK(back.shape == in.shape);
    double err = 0, norm = 0;
    for (size_t i = 0; i < in.values.size(); ++i)
      err += std::pow(back.values[i] - in.values[i], 2), norm += std::pow(in.values[i], 2);
    CHECK(std::sqrt(err / norm) < 1e-6);
  }
  SECTION("r2c_pair: complex64 [N] -> complex64 [2, N/2+1]") {
    const KernelInfo& k = m.kernel("pair__n1024__inverse");
    const auto x = random_input(k, Direction::forward, 1, 9);
    NpyArray in{NpyType::complex64, {1024}, std::vector<float>(reinterpret_cast<const float*>(x.data()),
                                                               reinterpret_cast<const float*>(x.data()) + 2 * x.size())};
    const NpyArray spectra = run(k.name, in, false);
    CHECK(spectra.shape == std::vector<uint64_t>{2, 513});
    const auto want = reference_transform(k, Direction::forward, std::vector<std::complex<double>>(x.begin(), x.end()), 1);
    CHECK(compare(pairs(spectra), want).rel_l2 < 1e-6);
  }
  SECTION("fp16 r2c 2D: float32 and complex64 arrays, converted to and from half floats") {
    const KernelInfo& k = m.kernel("fp16__n64x128__r2c");
    CHECK(k.forward_input.element == ElementType::float16);
    CHECK(k.forward_output.element == ElementType::complex32);
    const auto x = random_input(k, Direction::forward, 2, 5);
    NpyArray in{NpyType::float32, {2, 64, 128}, std::vector<float>(reinterpret_cast<const float*>(x.data()),
                                                                   reinterpret_cast<const float*>(x.data()) + 2 * x.size())};
    const NpyArray spectrum = run(k.name, in, false);
    CHECK(spectrum.type == NpyType::complex64);
    CHECK(spectrum.shape == std::vector<uint64_t>{2, 64, 65});
    const auto want = reference_transform(k, Direction::forward, std::vector<std::complex<double>>(x.begin(), x.end()), 2);
    const double err = compare(pairs(spectrum), want).rel_l2;
    CHECK(err < 1e-3);
    CHECK(err > 1e-5);  // half floats, not floats
    const NpyArray back = run(k.name, spectrum, true);
    CHECK(back.type == NpyType::float32);
    CHECK(back.shape == in.shape);
  }
  SECTION("a wrong dtype or shape names what the kernel takes") {
    NpyArray complex_in{NpyType::complex64, {16, 256}, std::vector<float>(2 * 16 * 256, 1.0f)};
    CHECK_THROWS_WITH(run("r2c_2d__n16x256__bitwise", complex_in, false),
                      Catch::Contains("dtype complex64") && Catch::Contains("takes float32 ('<f4') of shape [16, 256]"));
    NpyArray wrong_shape{NpyType::float32, {256, 16}, std::vector<float>(256 * 16, 1.0f)};
    CHECK_THROWS_WITH(run("r2c_2d__n16x256__bitwise", wrong_shape, false),
                      Catch::Contains("shape [256, 16]") && Catch::Contains("[batch, 16, 256]"));
    CHECK_FALSE(fs::exists(dir / "out.npy"));
  }
  fs::remove_all(dir);
}
