// Lengths that are not powers of two on the Vulkan device (lavapipe in CI), validation layer on:
// tests/plans/anysize.json (every N from 2 to 64 whose prime factors are at most 13, a spread of
// composite, prime-power and long lengths, r2c, 2D) through the fftgen CLI, then every kernel
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
#include "fftgen/vktools/verify.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;

namespace {

// The bound on the relative L2 error of one fp32 transform of N points: rounding grows like log N.
double anysize_tolerance(uint64_t points) { return 4e-8 * (2.0 + std::log2(static_cast<double>(points))); }

}  // namespace

TEST_CASE("gpu anysize: mixed-radix lengths match FFTW in double within a log N bound", "[gpu][anysize]") {
  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("fftgen_anysize_" + std::to_string(rd()) + std::to_string(rd()));
  const std::string plan = std::string(FFTGEN_TEST_DIR) + "/plans/anysize.json";
  const std::string cmd = std::string("\"") + FFTGEN_CLI + "\" \"" + plan + "\" -o \"" + dir.string() + "\" > \"" +
                          dir.string() + ".log\" 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream log(dir.string() + ".log");
    FAIL("fftgen failed on " << plan << ":\n" << log.rdbuf());
  }
  const Manifest m = load_manifest(dir);
  REQUIRE(m.kernels.size() >= 70);
  Device device([] {
    DeviceOptions o;
    o.validation = true;
    return o;
  }());
  std::vector<VerifyResult> results;
  for (const auto& k : m.kernels) {
    VerifyOptions o;
    o.batches = {1, 3};
    o.tolerance = anysize_tolerance(k.points());
    VerifyResult r = verify_kernel(device, m, k, o);
    std::string messages;
    for (const auto& msg : device.validation_messages()) messages += msg.text + "\n";
    device.clear_validation_messages();
    INFO(format_verify_table({r}) << "bound " << o.tolerance << "\nvalidation messages:\n" << messages);
    CHECK(r.pass);
    CHECK(messages.empty());
    results.push_back(std::move(r));
  }
  std::cout << format_verify_table(results);
  std::error_code ec;
  if (!getenv("FFTGEN_KEEP_SUITE")) fs::remove_all(dir, ec);
}
