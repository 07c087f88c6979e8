// io image kernels on the Vulkan device (lavapipe in CI), validation layer on: tests/plans/textures.json
// (every format, 1D rows and 2D, square and rectangular, one to four passes, c2c and r2c, a
// non-power-of-two image width, a prime length through Bluestein) through the fftgen CLI; every kernel forward and inverse from and
// into storage images against FFTW in double (rgba16f within the half-float bound of
// `fftgen-vk verify`), and the HLSL compiled back to SPIR-V computing the same as the GLSL path.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

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

// The plan's output, generated once per test process.
const fs::path& textures_dir() {
  static const GeneratedPlan plan("textures.json", "fftgen_textures");
  return plan.dir;
}

}  // namespace

TEST_CASE("gpu textures: image kernels match FFTW in double", "[gpu][textures]") {
  const Manifest m = load_manifest(textures_dir());
  REQUIRE(m.kernels.size() == 3 * 3 + 1 + 2 + 2 + 1 + 1 + 2 + 1 + 1);
  Device& device = validated_device();
  drain_validation(device);
  std::vector<VerifyResult> results;
  int half = 0;
  for (const auto& k : m.kernels) {
    REQUIRE(k.uses_images());
    VerifyOptions o;
    o.batches = {1, 2};  // 8192 rows x 2: lavapipe's images are at most 16384 high
    VerifyResult r = verify_kernel(device, m, k, o);
    const std::string messages = drain_validation(device);
    INFO(format_verify_table({r}) << "validation messages:\n" << messages);
    CHECK(r.pass);
    CHECK(r.nan_count == 0);
    CHECK(messages.empty());
    // rgba16f: the half-float bound; the others the fp32 tolerance.
    const bool rgba16f = k.options.value("image_format", "") == "rgba16f";
    CHECK(r.half_storage == rgba16f);
    half += rgba16f;
    results.push_back(std::move(r));
  }
  CHECK(half == 3 + 1);
  std::cout << format_verify_table(results);
}

TEST_CASE("gpu textures: the HLSL of image kernels computes what the GLSL path computes", "[gpu][textures][hlsl]") {
  const Manifest m = load_manifest(textures_dir());
  Device& device = validated_device();
  drain_validation(device);
  const ShaderLoader from_hlsl = hlsl_loader(m);
  const uint32_t batch = 2;
  for (const auto& k : m.kernels) {
    INFO("kernel " << k.name);
    check_hlsl_matches_spirv(device, m, k, from_hlsl, batch, 5);
    CHECK(drain_validation(device).empty());
  }
}

TEST_CASE("gpu textures: a kernel needs its images bound, and a batch within the image height", "[gpu][textures]") {
  const Manifest m = load_manifest(textures_dir());
  Device& device = validated_device();
  Kernel kernel(device, m.kernel("rows__rg32f"), m.files);
  KernelIo io;
  io.max_batch = 1;
  CHECK_THROWS_WITH(kernel.bind(io), Catch::Contains("KernelIo::input_image and output_image are required"));
  DeviceImage a(device, VK_FORMAT_R32G32_SFLOAT, 256, 1), b(device, VK_FORMAT_R32G32_SFLOAT, 256, 1);
  io.input_image = a.view();
  io.output_image = a.view();
  CHECK_THROWS_WITH(kernel.bind(io), Catch::Contains("input and output must be different images"));
  io.output_image = b.view();
  io.max_batch = device.limits().maxImageDimension2D + 1;
  CHECK_THROWS_WITH(kernel.bind(io), Catch::Contains("maxImageDimension2D"));
  CHECK(kernel.max_batch() == device.limits().maxImageDimension2D);
  drain_validation(device);
}

TEST_CASE("gpu textures: the manifest reader refuses image bindings no image kernel has", "[gpu][textures][bad-input]") {
  const fs::path dir = textures_dir();
  const nlohmann::json generated = nlohmann::json::parse(read_text(dir / "manifest.json"));
  CHECK_NOTHROW(parse_manifest(generated, "textures.json", dir));
  // kernels[0] is tex__n16x16__rg32f: binding 0 of its first forward pass is its input image.
  auto refused = [&](const std::string& pass, size_t binding, const std::string& key, const nlohmann::json& value) {
    nlohmann::json doc = generated;
    doc["kernels"][0][pass][0]["bindings"][binding][key] = value;
    try {
      parse_manifest(doc, "textures.json", dir);
    } catch (const ManifestError& e) {
      return std::string(e.what());
    }
    FAIL("accepted " << key << " = " << value.dump());
    return std::string();
  };
  CHECK_THAT(refused("forward", 0, "resource", "texture"),
             Catch::Contains("resource: expected storage_buffer or storage_image (found 'texture')"));
  CHECK_THAT(refused("forward", 0, "format", "rgb8"),
             Catch::Contains("format: expected rg32f, rgba32f, rgba16f or r32f (found 'rgb8')"));
  CHECK_THAT(refused("forward", 0, "format", "r32f"),
             Catch::Contains("r32f for float32 data and rg32f, rgba32f or rgba16f for complex64"));
  CHECK_THAT(refused("forward", 0, "width", 0), Catch::Contains("width: expected a positive integer"));
  CHECK_THAT(refused("forward", 0, "width", 1u << 30), Catch::Contains("width: expected a positive integer, at most"));
  CHECK_THAT(refused("forward", 0, "rows_per_transform", 17),
             Catch::Contains("rows_per_transform: expected the kernel's NY, 16 (found 17)"));
  CHECK_THAT(refused("forward", 0, "role", "scratch"),
             Catch::Contains("role: expected input or output for a storage image (found 'scratch')"));
}

TEST_CASE("gpu textures: fftgen-vk run takes .npy arrays through an r2c image kernel", "[gpu][textures][cli]") {
  const fs::path dir = textures_dir();
  const Manifest m = load_manifest(dir);
  const KernelInfo& k = m.kernel("real__n30x90");
  // A batch of 2 real images [30, 90] as float32 .npy, through the forward and back.
  NpyArray x;
  x.type = NpyType::float32;
  x.shape = {2, 30, 90};
  const auto values = random_normal(2 * 30 * 90 / 2, 9);
  for (const auto& v : values) x.values.insert(x.values.end(), {v.real(), v.imag()});
  const fs::path in = dir / "x.npy", spectrum = dir / "y.npy", back = dir / "z.npy";
  write_npy(in, x);
  auto run = [&](const fs::path& from, const fs::path& to, const char* extra) {
    const std::string cmd = std::string("\"") + FFTGEN_VK_CLI + "\" run \"" + dir.string() + "\" real__n30x90 --input \"" +
                            from.string() + "\" --output \"" + to.string() + "\"" + extra;
    return std::system(cmd.c_str());
  };
  REQUIRE(run(in, spectrum, "") == 0);
  const NpyArray y = read_npy(spectrum);
  CHECK(y.type == NpyType::complex64);
  CHECK(y.shape == std::vector<uint64_t>{2, 30, 46});
  std::vector<std::complex<float>> got(y.values.size() / 2);
  for (size_t i = 0; i < got.size(); ++i) got[i] = {y.values[2 * i], y.values[2 * i + 1]};
  std::vector<std::complex<double>> wide(values.begin(), values.end());
  const auto stats = compare(got, reference_transform(k, Direction::forward, wide, 2, k.forward_scale));
  CHECK(stats.rel_l2 < 1e-6);
  REQUIRE(run(spectrum, back, " --inverse") == 0);
  const NpyArray z = read_npy(back);
  CHECK(z.type == NpyType::float32);
  CHECK(z.shape == x.shape);
  double err = 0, norm = 0;
  for (size_t i = 0; i < z.values.size(); ++i) {
    err += std::pow(z.values[i] - x.values[i], 2);  // normalize "inverse": the round trip is x
    norm += std::pow(x.values[i], 2);
  }
  CHECK(std::sqrt(err / norm) < 1e-6);
}
