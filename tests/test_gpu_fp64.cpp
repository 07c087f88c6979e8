// precision fp64 on the Vulkan device (lavapipe in CI, validation layer on): tests/plans/fp64.json
// (1D c2c of 1024, 4096, 8192 in rounds, 65536 in two passes and in one dispatch (counters), 2^19 in column tiles in rounds, 1000 of mixed radices, the prime
// 1009 through Bluestein, r2c of 1024 and of odd 1001, 2D c2c 256 x 512 and r2c 256²) through the
// fftgen CLI; every kernel forward, inverse and round trip against FFTW in long double at double
// level, the device contract (shaderFloat64 required, enabled, and a manifest that omits it refused),
// and `fftgen-vk run` on complex128 and float64 .npy files.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
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
const fs::path& fp64_dir() {
  static const GeneratedPlan plan("fp64.json", "fftgen_fp64");
  return plan.dir;
}

}  // namespace

TEST_CASE("gpu fp64: every kernel matches FFTW in long double at double level", "[gpu][fp64]") {
  const Manifest m = load_manifest(fp64_dir());
  REQUIRE(m.kernels.size() == 21);
  Device& device = validated_device();
  drain_validation(device);
  REQUIRE(device.enabled_features().has(fftgen::Feature::shader_float64));
  std::vector<VerifyResult> results;
  size_t multi_pass = 0, in_place = 0;
  for (const auto& k : m.kernels) {
    multi_pass += k.passes(Direction::forward).size() > 1;
    in_place += k.in_place();
    VerifyOptions o;
    o.batches = {1, 3};
    VerifyResult r = verify_kernel(device, m, k, o);
    const std::string messages = drain_validation(device);
    INFO(format_verify_table({r}) << "validation messages:\n" << messages);
    CHECK(r.double_precision);
    CHECK(r.pass);
    CHECK(r.nan_count == 0);
    CHECK(r.rel_l2_forward.value_or(1.0) < 1e-13);
    CHECK(r.rel_l2_inverse.value_or(1.0) < 1e-13);
    CHECK(r.round_trip.value_or(1.0) < 1e-13);
    CHECK(messages.empty());
    results.push_back(std::move(r));
  }
  CHECK(multi_pass >= 3);  // 65536 and the two 2D kernels at least
  CHECK(in_place == 3);
  std::cout << format_verify_table(results);
}

TEST_CASE("gpu fp64: the kernels require shaderFloat64, and a manifest that omits it is refused", "[gpu][fp64]") {
  const Manifest m = load_manifest(fp64_dir());
  Device& device = validated_device();
  for (const auto& k : m.kernels) {
    INFO("kernel " << k.name);
    CHECK(requirements_of(k).needs(fftgen::Feature::shader_float64));
    CHECK(requirement_problems(device, k).empty());
  }
  nlohmann::json doc = nlohmann::json::parse(read_text(fp64_dir() / "manifest.json"));
  doc["kernels"][0]["requires"]["features"] = nlohmann::json::array();
  CHECK_THROWS_WITH(parse_manifest(doc, "edited.json", fp64_dir()), Catch::Contains("shaderFloat64"));
}

TEST_CASE("gpu fp64: execute() refuses an fp64 kernel's floats; execute_double moves doubles", "[gpu][fp64]") {
  const Manifest m = load_manifest(fp64_dir());
  Device& device = validated_device();
  const KernelInfo& info = m.kernel("z1024");
  Kernel kernel(device, info, m.files);
  CHECK_THROWS_WITH(execute(device, kernel, Direction::forward, std::vector<std::complex<float>>(1024), 1),
                    Catch::Contains("precision fp64"));
  // A unit impulse at 1: X[k] = exp(-2 pi i k / N), each within a few units of a double's rounding.
  std::vector<std::complex<double>> x(1024);
  x[1] = 1.0;
  const auto y = execute_double(device, kernel, Direction::forward, x, 1);
  double worst = 0;
  for (size_t k = 0; k < y.size(); ++k)
    worst = std::max(worst, std::abs(y[k] - std::polar(1.0, -2.0 * M_PI * static_cast<double>(k) / 1024.0)));
  CHECK(worst < 1e-15);
}

TEST_CASE("gpu fp64: an engine's VkDeviceCreateInfo enabling shaderFloat64 counts", "[gpu][fp64]") {
  VkDeviceCreateInfo dci{};
  dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  VkPhysicalDeviceFeatures core{};
  core.shaderFloat64 = VK_TRUE;
  dci.pEnabledFeatures = &core;
  CHECK(features_enabled_by(dci).names() == "shaderFloat64");
  CHECK(features_enabled_by(dci).has(fftgen::Feature::shader_float64));
}

namespace {

// `count` doubles as an NpyArray's words.
std::vector<float> words_of(const double* values, size_t count) {
  std::vector<float> words(2 * count);
  std::memcpy(words.data(), values, count * 8);
  return words;
}

// An fp64 kernel run by `fftgen-vk run` (run_npy) on `in`, its output read back as doubles.
std::vector<double> run_file(const std::string& kernel, const NpyArray& in, NpyType want) {
  const fs::path dir = fp64_dir();
  write_npy(dir / "in.npy", in);
  RunRequest request;
  request.manifest = dir;
  request.kernel = kernel;
  request.input = dir / "in.npy";
  request.output = dir / "out.npy";
  run_npy(request);
  const NpyArray out = read_npy(dir / "out.npy");
  CHECK(out.type == want);
  std::vector<double> values(out.values.size() / 2);
  std::memcpy(values.data(), out.values.data(), values.size() * 8);
  return values;
}

}  // namespace

TEST_CASE("gpu fp64: fftgen-vk run reads and writes complex128 and float64 .npy files", "[gpu][fp64]") {
  const Manifest m = load_manifest(fp64_dir());
  SECTION("c2c: complex128 [batch, N]") {
    const KernelInfo& info = m.kernel("z1000");
    const auto x = random_input_double(info, Direction::forward, 2, 5);
    const NpyArray in{NpyType::complex128, {2, 1000}, words_of(reinterpret_cast<const double*>(x.data()), 2 * x.size())};
    const std::vector<double> y = run_file("z1000", in, NpyType::complex128);
    std::vector<std::complex<double>> out(y.size() / 2);
    std::memcpy(static_cast<void*>(out.data()), y.data(), y.size() * 8);
    CHECK(compare_long(out, reference_transform_long(info, Direction::forward, x, 2, info.forward_scale)).rel_l2 < 1e-14);
  }
  SECTION("r2c of odd N: float64 [batch, N] in, complex128 [batch, N/2 + 1] out") {
    const KernelInfo& info = m.kernel("r1001");
    const auto padded = random_input_double(info, Direction::forward, 2, 6);  // rows of 1002 reals
    std::vector<double> reals;
    for (size_t row = 0; row < 2; ++row)
      for (size_t j = 0; j < 1001; ++j) reals.push_back(j % 2 == 0 ? padded[row * 501 + j / 2].real()
                                                                   : padded[row * 501 + j / 2].imag());
    const NpyArray in{NpyType::float64, {2, 1001}, words_of(reals.data(), reals.size())};
    const std::vector<double> y = run_file("r1001", in, NpyType::complex128);
    REQUIRE(y.size() == 2 * 2 * 501);
    std::vector<std::complex<double>> out(y.size() / 2);
    std::memcpy(static_cast<void*>(out.data()), y.data(), y.size() * 8);
    CHECK(compare_long(out, reference_transform_long(info, Direction::forward, padded, 2, info.forward_scale)).rel_l2 <
          1e-14);
  }
  SECTION("a complex64 file for an fp64 kernel is refused with the dtype it takes") {
    const NpyArray in{NpyType::complex64, {1000}, std::vector<float>(2000, 0.0f)};
    CHECK_THROWS_WITH(run_file("z1000", in, NpyType::complex128), Catch::Contains("complex128 ('<c16')"));
  }
}
