// 3D kernels [NZ, NY, NX] on the Vulkan device (lavapipe in CI), validation layer on:
// tests/plans/volume.json through the fftgen CLI, then every kernel forward and inverse against
// FFTW in double (fftw_plan_many_dft of rank 3, r2c and c2r), batches 1 and 3, within the relative
// L2 bound of the other fp32 GPU tests (test_gpu_anysize), the shipped HLSL against the SPIR-V,
// and `fftgen-vk run` on [batch, NZ, NY, NX] arrays.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>

#include "fftgen/vktools/npy.hpp"
#include "gpu_support.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;

namespace {

// The bound on the relative L2 error of one fp32 transform of N points: rounding grows like log N.
double volume_tolerance(uint64_t points) { return 4e-8 * (2.0 + std::log2(static_cast<double>(points))); }

const KernelInfo& kernel_named(const Manifest& m, const std::string& name) {
  for (const KernelInfo& k : m.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  throw;
}

// `fftgen-vk run` of `kernel` forward on a [batch, NZ, NY, NX] array, then back: the spectrum
// against FFTW (reference_transform) and the round trip against the input.
void check_run(const fs::path& dir, const Manifest& m, const std::string& kernel) {
  INFO(kernel);
  const KernelInfo& k = kernel_named(m, kernel);
  const bool real = k.transform == "r2c";
  const uint32_t batch = 2;
  std::vector<uint64_t> shape(k.shape.begin(), k.shape.end());
  shape.insert(shape.begin(), batch);
  std::mt19937 rng(static_cast<uint32_t>(k.points()));
  std::normal_distribution<float> normal;
  NpyArray x{real ? NpyType::float32 : NpyType::complex64, shape, {}};
  x.values.resize(batch * k.points() * (real ? 1 : 2));
  for (float& v : x.values) v = normal(rng);
  write_npy(dir / "x.npy", x);
  run_npy({dir, kernel, dir / "x.npy", dir / "s.npy", Direction::forward});
  const NpyArray spectrum = read_npy(dir / "s.npy");
  std::vector<uint64_t> want_shape = shape;
  if (real) want_shape.back() = k.n() / 2 + 1;
  REQUIRE(spectrum.shape == want_shape);
  // The reference takes pairs of floats as the buffers hold them: reals two to a pair, rows of an
  // odd NX NX + 1 reals apart.
  std::vector<float> held;
  const size_t row = k.n();
  for (size_t r = 0; r < x.values.size() / row; ++r) {
    held.insert(held.end(), x.values.begin() + static_cast<long>(r * row), x.values.begin() + static_cast<long>((r + 1) * row));
    if (real && row % 2 != 0) held.push_back(0.0f);
  }
  std::vector<std::complex<double>> in(held.size() / 2);
  for (size_t i = 0; i < in.size(); ++i) in[i] = {held[2 * i], held[2 * i + 1]};
  const auto want = reference_transform(k, Direction::forward, in, batch, k.forward_scale);
  std::vector<std::complex<float>> got(spectrum.values.size() / 2);
  for (size_t i = 0; i < got.size(); ++i) got[i] = {spectrum.values[2 * i], spectrum.values[2 * i + 1]};
  CHECK(compare(got, want).rel_l2 < volume_tolerance(k.points()));
  run_npy({dir, kernel, dir / "s.npy", dir / "back.npy", Direction::inverse});
  const NpyArray back = read_npy(dir / "back.npy");
  REQUIRE(back.shape == x.shape);
  const double gain = static_cast<double>(k.points()) * k.forward_scale * k.inverse_scale;
  double err = 0, norm = 0;
  for (size_t i = 0; i < x.values.size(); ++i)
    err += std::pow(back.values[i] / gain - x.values[i], 2), norm += std::pow(x.values[i], 2);
  CHECK(std::sqrt(err / norm) < volume_tolerance(k.points()));
}

}  // namespace

TEST_CASE("gpu volume: 3D c2c and r2c match FFTW in double within a log N bound", "[gpu][volume]") {
  const fs::path dir = fftgen_test::generate_test_plan("volume.json", "fftgen_volume");
  const Manifest m = load_manifest(dir);
  REQUIRE(m.kernels.size() == 32);
  Device& device = fftgen_test::validated_device();
  std::vector<VerifyResult> results;
  for (const auto& k : m.kernels) {
    REQUIRE(k.shape.size() == 3);
    VerifyOptions o;
    o.batches = {1, 3};
    o.tolerance = volume_tolerance(k.points());
    VerifyResult r = verify_kernel(device, m, k, o);
    const std::string messages = fftgen_test::drain_validation(device);
    INFO(format_verify_table({r}) << "bound " << o.tolerance << "\nvalidation messages:\n" << messages);
    CHECK(r.pass);
    CHECK(messages.empty());
    results.push_back(std::move(r));
  }
  std::cout << format_verify_table(results);

  // The passes: one along each axis (X rows, Y and Z columns), or a c2c plane of powers of two in
  // one pass where it fits a workgroup; three along an axis of 8192 in a small shared-memory budget;
  // a side through Bluestein's algorithm, the forward and inverse passes of its M.
  CHECK(kernel_named(m, "vol__n64x64x64__inverse").forward.size() == 2);
  CHECK(kernel_named(m, "vol__n5x12x9__inverse").forward.size() == 3);
  CHECK(kernel_named(m, "vol_real__n64x64x64__inverse").forward.size() == 3);
  CHECK(kernel_named(m, "vol_passes__n8192x2x4").forward.size() == 4);
  for (const char* name : {"vol_passes__n2x8192x4", "vol_passes__n2x2x8192", "vol_passes_real__n8192x2x4",
                           "vol_passes_real__n2x8192x4"})
    CHECK(kernel_named(m, name).forward.size() == 5);
  CHECK(kernel_named(m, "vol_sides__n67x8x12").forward.size() == 4);
  CHECK(kernel_named(m, "vol_sides_real__n6x10x15").forward.size() == 3);

  // The shipped HLSL, compiled back to SPIR-V, computes what the SPIR-V does: the X, Y and Z passes,
  // a grid pass of planes, an r2c and a c2r through scratch2.
  const ShaderLoader from_hlsl = fftgen_test::hlsl_loader(m);
  for (const char* name : {"vol__n5x12x9__inverse", "vol__n16x16x16__ortho", "vol_real__n8x16x32__inverse",
                           "vol_passes_real__n2x8192x4", "vol_sides_real__n5x67x12"}) {
    INFO(name << " from HLSL");
    fftgen_test::check_hlsl_matches_spirv(device, m, kernel_named(m, name), from_hlsl, 2, 5);
  }

  check_run(dir, m, "vol__n5x12x9__ortho");
  check_run(dir, m, "vol_real__n8x16x32__inverse");
  check_run(dir, m, "vol_sides_real__n6x10x15");  // rows of 15 reals
  std::error_code ec;
  if (!getenv("FFTGEN_KEEP_SUITE")) fs::remove_all(dir, ec);
}
