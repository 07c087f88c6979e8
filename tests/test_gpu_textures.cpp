// io image kernels on the Vulkan device (lavapipe in CI), validation layer on: tests/plans/textures.json
// (every format, 1D rows and 2D, square and rectangular, one and two passes, c2c and r2c, a
// non-power-of-two image width) through the fftgen CLI; every kernel forward and inverse from and
// into storage images against FFTW in double (rgba16f within the half-float bound of
// `fftgen-vk verify`), and the HLSL compiled back to SPIR-V computing the same as the GLSL path.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "fftgen/compile.hpp"
#include "fftgen/runtime.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/reference.hpp"
#include "fftgen/vktools/verify.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;

namespace {

const fs::path& textures_dir() {
  static const fs::path dir = [] {
    std::random_device rd;
    fs::path d = fs::temp_directory_path() / ("fftgen_textures_" + std::to_string(rd()) + std::to_string(rd()));
    const std::string plan = std::string(FFTGEN_TEST_DIR) + "/plans/textures.json";
    const std::string cmd = std::string("\"") + FFTGEN_CLI + "\" \"" + plan + "\" -o \"" + d.string() + "\" > \"" +
                            d.string() + ".log\" 2>&1";
    if (std::system(cmd.c_str()) != 0) {
      std::ifstream log(d.string() + ".log");
      std::cerr << log.rdbuf();
      throw std::runtime_error("fftgen failed on " + plan);
    }
    return d;
  }();
  return dir;
}

// Removes the generated folder when the test process ends (FFTGEN_KEEP_SUITE=1 keeps it).
struct Cleanup {
  ~Cleanup() {
    std::error_code ec;
    if (std::getenv("FFTGEN_KEEP_SUITE")) return;
    fs::remove_all(textures_dir(), ec);
    fs::remove(textures_dir().string() + ".log", ec);
  }
};

Device& validated_device() {
  static Device device([] {
    DeviceOptions o;
    o.validation = true;
    return o;
  }());
  return device;
}

std::string drain_validation(Device& device) {
  std::string text;
  for (const auto& m : device.validation_messages()) text += m.text + "\n";
  device.clear_validation_messages();
  return text;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("gpu textures: image kernels match FFTW in double", "[gpu][textures]") {
  const Manifest m = load_manifest(textures_dir());
  static Cleanup cleanup;  // made after the folder's path, so destroyed before it
  REQUIRE(m.kernels.size() == 3 * 3 + 1 + 2 + 1 + 2 + 1 + 1);
  Device& device = validated_device();
  drain_validation(device);
  std::vector<VerifyResult> results;
  int half = 0;
  for (const auto& k : m.kernels) {
    REQUIRE(k.uses_images());
    VerifyOptions o;
    o.batches = {1, 3};
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
  const ShaderLoader from_hlsl = [&m](const KernelInfo& k, const PassInfo& p) {
    ShaderCode code;
    code.spirv = fftgen::compile_hlsl_to_spirv(read_text(m.directory / p.files.at("hlsl")), "main",
                                               k.name + "." + p.name + ".hlsl");
    return code;
  };
  const uint32_t batch = 2;
  for (const auto& k : m.kernels) {
    INFO("kernel " << k.name);
    Kernel glsl(device, k, m.directory);
    Kernel hlsl(device, k, m.directory, from_hlsl);
    for (Direction d : k.directions) {
      const auto x = random_input(k, d, batch, 5);
      const auto a = execute(device, glsl, d, x, batch);
      const auto b = execute(device, hlsl, d, x, batch);
      const auto stats = compare(b, std::vector<std::complex<double>>(a.begin(), a.end()));
      CHECK(stats.nan_count == 0);
      CHECK(stats.rel_l2 <= 1e-6);
    }
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
