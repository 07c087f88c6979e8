// Lengths that are not powers of two on the Vulkan device (lavapipe in CI), validation layer on:
// tests/plans/anysize.json (every N from 2 to 64 whose prime factors are at most 13, a spread of
// composite, prime-power and long lengths, r2c, 2D) and tests/plans/primes.json (prime stages from
// 17 to 61), and tests/plans/bluestein_fp16.json (Bluestein in fp16) through the fftgen CLI, then every kernel
// forward and inverse against FFTW in double, batches 1 and 3, within a relative L2 bound that
// grows with log2 N. scripts/sweep_sizes.sh runs the full sweep (every N from 2 to 2048).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "fftgen/runtime.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/npy.hpp"
#include "fftgen/vktools/verify.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;

namespace {

// The bound on the relative L2 error of one fp32 transform of N points: rounding grows like log N.
double anysize_tolerance(uint64_t points) { return 4e-8 * (2.0 + std::log2(static_cast<double>(points))); }

// Generates tests/plans/<plan> into a fresh folder (returned) and verifies each kernel forward and
// inverse against FFTW, batches 1 and 3.
// fp16: each kernel is held to verify's own fp16 bound (a few fp16 round trips of its input) and
// its error must show the half floats (above fp32's).
fs::path verify_plan(const std::string& plan_file, size_t min_kernels, bool fp16 = false) {
  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("fftgen_anysize_" + std::to_string(rd()) + std::to_string(rd()));
  const std::string plan = std::string(FFTGEN_TEST_DIR) + "/plans/" + plan_file;
  const std::string cmd = std::string("\"") + FFTGEN_CLI + "\" \"" + plan + "\" -o \"" + dir.string() + "\" > \"" +
                          dir.string() + ".log\" 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream log(dir.string() + ".log");
    FAIL("fftgen failed on " << plan << ":\n" << log.rdbuf());
  }
  const Manifest m = load_manifest(dir);
  REQUIRE(m.kernels.size() >= min_kernels);
  Device device([] {
    DeviceOptions o;
    o.validation = true;
    return o;
  }());
  std::vector<VerifyResult> results;
  for (const auto& k : m.kernels) {
    VerifyOptions o;
    o.batches = {1, 3};
    if (!fp16) o.tolerance = anysize_tolerance(k.points());
    VerifyResult r = verify_kernel(device, m, k, o);
    if (fp16) {
      INFO(format_verify_table({r}));
      CHECK(r.half_storage);
      CHECK(r.rel_l2_forward.value_or(0.0) > 2e-5);
      CHECK(r.rel_l2_forward.value_or(1.0) < 4e-4);  // as other fp16 kernels: the input's and output's roundings
    }
    std::string messages;
    for (const auto& msg : device.validation_messages()) messages += msg.text + "\n";
    device.clear_validation_messages();
    INFO(format_verify_table({r}) << "bound " << o.tolerance << "\nvalidation messages:\n" << messages);
    CHECK(r.pass);
    CHECK(messages.empty());
    results.push_back(std::move(r));
  }
  std::cout << format_verify_table(results);
  return dir;
}

}  // namespace

TEST_CASE("gpu anysize: mixed-radix lengths match FFTW in double within a log N bound", "[gpu][anysize]") {
  const fs::path dir = verify_plan("anysize.json", 70);

  // `fftgen-vk run` on r2c kernels of odd N (NX): numpy's contiguous [batch, (NY,) N] reals in, its
  // rfft (rfft2) [batch, (NY,) N/2 + 1] out, and back (the kernel keeps its rows of reals N + 1
  // apart; run spaces them), against a direct DFT in double.
  auto check_run = [&](const std::string& kernel, uint32_t ny, uint32_t n) {
    INFO(kernel);
    const uint32_t batch = 3, h = n / 2 + 1;
    std::vector<uint64_t> item = {n}, half = {h};
    if (ny > 1) item.insert(item.begin(), ny), half.insert(half.begin(), ny);
    std::mt19937 rng(n * ny);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    NpyArray x{NpyType::float32, {batch}, {}};
    x.shape.insert(x.shape.end(), item.begin(), item.end());
    for (uint32_t i = 0; i < batch * ny * n; ++i) x.values.push_back(uniform(rng));
    write_npy(dir / "x.npy", x);
    RunRequest run{dir, kernel, dir / "x.npy", dir / "s.npy", fftgen::vk::Direction::forward};
    run_npy(run);
    const NpyArray spectrum = read_npy(dir / "s.npy");
    std::vector<uint64_t> want_shape = {batch};
    want_shape.insert(want_shape.end(), half.begin(), half.end());
    REQUIRE(spectrum.shape == want_shape);
    double err = 0, norm = 0;
    for (uint32_t b = 0; b < batch; ++b)
      for (uint32_t ky = 0; ky < ny; ++ky)
        for (uint32_t k = 0; k < h; ++k) {
          std::complex<double> want = 0;
          for (uint32_t y = 0; y < ny; ++y)
            for (uint32_t t = 0; t < n; ++t)
              want += double(x.values[(size_t{b} * ny + y) * n + t]) *
                      std::polar(1.0, -2 * M_PI * (double(t * k) / n + double(y * ky) / ny));
          const size_t at = 2 * ((size_t{b} * ny + ky) * h + k);
          err += std::norm(std::complex<double>(spectrum.values[at], spectrum.values[at + 1]) - want);
          norm += std::norm(want);
        }
    CHECK(std::sqrt(err / norm) < anysize_tolerance(uint64_t{n} * ny));
    run = {dir, kernel, dir / "s.npy", dir / "back.npy", fftgen::vk::Direction::inverse};
    run_npy(run);
    const NpyArray back = read_npy(dir / "back.npy");
    REQUIRE(back.shape == x.shape);
    err = norm = 0;
    for (size_t i = 0; i < x.values.size(); ++i)
      err += std::pow(back.values[i] - x.values[i], 2), norm += std::pow(x.values[i], 2);
    CHECK(std::sqrt(err / norm) < anysize_tolerance(uint64_t{n} * ny));
  };
  check_run("real_full__n15__inverse", 1, 15);
  check_run("grid_odd_real__n6x5", 6, 5);

  std::error_code ec;
  if (!getenv("FFTGEN_KEEP_SUITE")) fs::remove_all(dir, ec);
}

TEST_CASE("gpu anysize: prime stages from 17 to 61 match FFTW in double within a log N bound", "[gpu][anysize]") {
  const fs::path dir = verify_plan("primes.json", 33);
  std::error_code ec;
  if (!getenv("FFTGEN_KEEP_SUITE")) fs::remove_all(dir, ec);
}

TEST_CASE("gpu anysize: Bluestein in fp16 matches FFTW in double within verify's fp16 bound", "[gpu][anysize][fp16]") {
  // Half floats in and out, float between: about the error of any one- or two-pass fp16 kernel.
  verify_plan("bluestein_fp16.json", 15, true);
}
