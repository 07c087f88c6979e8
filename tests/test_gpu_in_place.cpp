// In-place kernels (placement in_place) and views into a caller's buffers on the Vulkan device
// (lavapipe in CI), validation layer on: tests/plans/in_place.json through the fftgen CLI, every
// kernel forward, inverse and round trip against FFTW in double (in-place 1D 1024, 65536 in two
// passes through scratch, by dispatch and in one dispatch, the mixed-radix 1000, fp16, 2D c2c in
// rows and in column tiles, r2c and c2r 1D and 2D in FFTW's padded rows (r2c 65536 both ways too), 3D c2c 16³ and 12x10x18, 3D r2c and c2r 6x10x22); the in-place kernels'
// HLSL compiled back to SPIR-V against FFTW; an in-place kernel on the N-th slice of a
// sub-allocated buffer, and 2D kernels reading a sub-rectangle of a pitched buffer, with every
// byte outside the views checked untouched; and the views bind() refuses.
#include <cmath>
#include <cstring>

#include "fftgen/vktools/npy.hpp"
#include "gpu_support.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;
using fftgen_test::drain_validation;
using fftgen_test::validated_device;

namespace {

const fs::path& plan_dir() {
  static const fs::path dir = fftgen_test::generate_test_plan("in_place.json", "fftgen_in_place");
  return dir;
}

const Manifest& manifest() {
  static const Manifest m = load_manifest(plan_dir());
  return m;
}

// A buffer's words, read back whole.
std::vector<uint32_t> words_of(Device& device, const Buffer& buffer) {
  std::vector<uint32_t> words(buffer.size() / 4);
  download(device, buffer.handle(), words.data(), buffer.size());
  return words;
}

// Runs `direction` of `kernel` once on `io`.
void run(Device& device, const Kernel& kernel, Direction direction, const KernelIo& io, uint32_t batch) {
  KernelBindings bindings = kernel.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    kernel.record(cmd, direction, bindings, batch);
    record_compute_to_transfer_barrier(cmd);
  });
}

constexpr uint32_t kGuard = 0x7fc00bad;  // a NaN no kernel writes

}  // namespace

TEST_CASE("gpu in place: every in-place kernel matches FFTW in double", "[gpu][in_place]") {
  Device& device = validated_device();
  size_t in_place = 0;
  for (const KernelInfo& k : manifest().kernels) {
    VerifyOptions o;
    o.batches = {1, 3};
    const VerifyResult r = verify_kernel(device, manifest(), k, o);
    const std::string messages = drain_validation(device);
    INFO(format_verify_table({r}) << "validation messages:\n" << messages);
    CHECK(r.pass);
    CHECK(messages.empty());
    in_place += k.in_place();
  }
  CHECK(in_place == 15);
}

TEST_CASE("gpu in place: the HLSL of in-place kernels, compiled back to SPIR-V, matches FFTW", "[gpu][in_place]") {
  Device& device = validated_device();
  for (const char* name : {"c1024", "c65536", "c2d", "r1024", "r65536", "r2d_pairs", "v_mixed", "rv_mixed"}) {
    VerifyOptions o;
    o.batches = {3};
    o.loader = fftgen_test::hlsl_loader(manifest());
    const VerifyResult r = verify_kernel(device, manifest(), manifest().kernel(name), o);
    const std::string messages = drain_validation(device);
    INFO(name << "\n" << format_verify_table({r}) << messages);
    CHECK(r.pass);
    CHECK(messages.empty());
  }
}

TEST_CASE("gpu in place: the manifest binds one data buffer, read and written", "[gpu][in_place]") {
  // No pass binds an input. A kernel without scratch binds the data buffer (the output) in every
  // pass; one with scratch (a 3D c2r's Y and Z passes) binds the data buffer, scratch, or both,
  // and one pass at least goes from scratch to scratch.
  for (const char* name : {"c1024", "r1024", "c2d", "v16", "v_mixed", "rv_mixed"}) {
    const KernelInfo& k = manifest().kernel(name);
    const bool has_scratch = k.scratch_elements > 0;
    size_t scratch_only = 0;
    for (Direction d : k.directions)
      for (const PassInfo& p : k.passes(d)) {
        INFO(name << " " << p.name);
        size_t data = 0, scratch = 0;
        for (const PassBinding& b : p.bindings) {
          CHECK(b.role != BufferRole::input);
          data += b.role == BufferRole::output;
          scratch += b.role == BufferRole::scratch;
        }
        CHECK(data <= 1u);
        CHECK(scratch == (has_scratch && scratch > 0 ? 1u : 0u));
        CHECK(data + scratch >= 1u);
        scratch_only += data == 0;
      }
    INFO(name);
    CHECK((scratch_only > 0) == has_scratch);
  }
  CHECK(manifest().kernel("rv_mixed").scratch_elements > 0);
  CHECK(manifest().kernel("r1024").forward_input.elements == 1026);
  CHECK(manifest().kernel("rv_mixed").forward_input.elements == 6 * 10 * 2 * 12);
}

TEST_CASE("gpu in place: the N-th slice of a sub-allocated buffer, transforms apart, the rest untouched",
          "[gpu][in_place]") {
  Device& device = validated_device();
  Kernel kernel(device, manifest(), "c1024");
  const uint32_t n = 1024, batch = 3, stride = 1100;  // complex values between transforms
  // The slice starts `first` complex values into the buffer, an aligned offset.
  const uint64_t first = device.limits().minStorageBufferOffsetAlignment * 8;
  const uint64_t used = uint64_t{batch - 1} * stride + n, total = first + used + 64;
  Buffer data(device, total * 8);
  fill(device, data.handle(), kGuard, data.size());
  const auto x = random_normal(uint64_t{batch} * n, 5);
  for (uint32_t b = 0; b < batch; ++b)
    upload(device, data.handle(), x.data() + uint64_t{b} * n, n * 8, (first + uint64_t{b} * stride) * 8);
  KernelIo io;
  io.output = {data.handle(), first * 8};
  io.max_batch = batch;
  io.output_stride = stride;
  run(device, kernel, Direction::forward, io, batch);
  const std::vector<uint32_t> words = words_of(device, data);
  std::vector<std::complex<float>> all(total);
  std::memcpy(static_cast<void*>(all.data()), words.data(), total * 8);
  for (uint32_t b = 0; b < batch; ++b) {
    const uint64_t at = first + uint64_t{b} * stride;
    std::vector<std::complex<double>> xb(x.begin() + b * n, x.begin() + (b + 1) * n);
    const auto ref = reference_dft(xb, n, 1, Direction::forward);
    const std::vector<std::complex<float>> yb(all.begin() + static_cast<long>(at), all.begin() + static_cast<long>(at + n));
    CHECK(compare(yb, ref).rel_l2 < 1e-6);
  }
  size_t touched = 0;
  for (uint64_t w = 0; w < words.size(); ++w) {
    const uint64_t value = w / 2;
    const bool inside = value >= first && (value - first) % stride < n && (value - first) / stride < batch;
    touched += !inside && words[w] != kGuard;
  }
  CHECK(touched == 0);
  CHECK(drain_validation(device).empty());
}

TEST_CASE("gpu in place: 2D kernels read a sub-rectangle of a pitched buffer", "[gpu][in_place]") {
  Device& device = validated_device();
  for (const char* name : {"pitched_c2c", "pitched_r2c"}) {
    INFO(name);
    Kernel kernel(device, manifest(), name);
    const KernelInfo& k = kernel.info();
    const bool real = k.transform == "r2c";
    const uint32_t ny = k.ny(), nx = k.n(), batch = 2;
    // Values (complex, or reals) of a pitched image: rows `pitch` apart, the view at (y0, x0).
    const uint32_t pitch = nx + 40, y0 = 3, x0 = 8, rows = batch * ny + 2 * y0;
    const uint32_t per_value = real ? 4 : 8;
    const uint64_t origin = uint64_t{y0} * pitch + x0;
    Buffer image(device, uint64_t{rows} * pitch * per_value);
    fill(device, image.handle(), kGuard, image.size());
    const auto x = random_normal(uint64_t{batch} * ny * nx, 11);  // pairs; reals take the real parts
    std::vector<float> row(real ? nx : 2 * nx);
    for (uint32_t r = 0; r < batch * ny; ++r) {
      for (uint32_t i = 0; i < nx; ++i) {
        const auto v = x[uint64_t{r} * nx + i];
        if (real) row[i] = v.real();
        else row[2 * i] = v.real(), row[2 * i + 1] = v.imag();
      }
      upload(device, image.handle(), row.data(), row.size() * 4, (origin + uint64_t{r} * pitch) * per_value);
    }
    const std::vector<uint32_t> before = words_of(device, image);
    const uint64_t out_pairs = k.forward_output.elements;
    Buffer out(device, out_pairs * batch * 8);
    KernelIo io;
    io.input = {image.handle(), origin * per_value};
    io.output = {out.handle(), 0};
    io.max_batch = batch;
    io.input_stride = pitch;
    io.directions = {Direction::forward};
    // The view's offset must be aligned: x0 and y0 * pitch make it so here.
    REQUIRE(origin * per_value % device.limits().minStorageBufferOffsetAlignment == 0);
    run(device, kernel, Direction::forward, io, batch);
    std::vector<std::complex<float>> y(out_pairs * batch);
    download(device, out.handle(), y.data(), y.size() * 8);
    std::vector<std::complex<double>> contiguous(x.size());
    for (size_t i = 0; i < x.size(); ++i) contiguous[i] = real ? std::complex<double>(x[i].real(), 0) : std::complex<double>(x[i]);
    std::vector<std::complex<double>> input;
    if (real)  // reference_transform takes the reals in pairs
      for (size_t i = 0; i < contiguous.size(); i += 2) input.emplace_back(contiguous[i].real(), contiguous[i + 1].real());
    const auto ref = reference_transform(k, Direction::forward, real ? input : contiguous, batch, k.forward_scale);
    CHECK(compare(y, ref).rel_l2 < 1e-6);
    CHECK(words_of(device, image) == before);  // the input is never written
    CHECK(drain_validation(device).empty());
  }
}

TEST_CASE("gpu in place: views bind() refuses, in one line", "[gpu][in_place]") {
  Device& device = validated_device();
  Kernel in_place(device, manifest(), "c1024");
  Buffer a(device, 1024 * 8), b(device, 1024 * 8);
  KernelIo io;
  io.output = {a.handle(), 0};
  io.input = {b.handle(), 0};
  CHECK_THROWS_WITH(in_place.bind(io), Catch::Contains("works in place") && Catch::Contains("unset or the same buffer"));
  io.input = {};
  io.output_stride = 1000;
  CHECK_THROWS_WITH(in_place.bind(io), Catch::Contains("at least the 1024 complex values"));
  // A pitch narrower than a row, and a pitch on a side no row pass reads (the c2c inverse's output
  // is written by its Y pass).
  Kernel pitched(device, manifest(), "pitched_c2c");
  KernelIo p;
  p.input = {a.handle(), 0};
  p.output = {b.handle(), 0};
  p.input_stride = 100;
  CHECK_THROWS_WITH(pitched.bind(p), Catch::Contains("less than the row of 256"));
  p.input_stride = 0;
  p.output_stride = 160;
  CHECK_THROWS_WITH(pitched.bind(p), Catch::Contains("row pitch, which its forward pass fwd1 does not take"));
  // A typed buffer too small for the view: refused before anything runs.
  Buffer small = in_place.make_buffer(Direction::forward, BufferRole::output, 1);
  KernelIo s;
  s.output = small;
  s.max_batch = 2;
  CHECK_THROWS_WITH(in_place.bind(s), Catch::Contains("needs 16384"));
}

TEST_CASE("gpu in place: fftgen-vk run takes an in-place r2c kernel's arrays as numpy lays them out",
          "[gpu][in_place][run]") {
  // numpy's contiguous [batch, (NZ,) NY, NX] reals in, rfftn's [batch, (NZ,) NY, NX/2 + 1] out and
  // back: run spaces the rows to the kernel's padded 2 (NX/2 + 1) reals and back.
  for (const char* name : {"r2d", "rv_mixed"}) {
    INFO(name);
    const KernelInfo& k = manifest().kernel(name);
    const uint32_t batch = 3, nx = k.n(), h = nx / 2 + 1;
    const uint64_t rows = k.rows();
    const auto values = random_normal(batch * rows * nx / 2, 21);
    std::vector<uint64_t> shape{batch};
    shape.insert(shape.end(), k.shape.begin(), k.shape.end());
    NpyArray x{NpyType::float32, shape, {}};
    std::vector<std::complex<double>> padded;  // the kernel's layout, in pairs of reals
    for (uint64_t row = 0; row < batch * rows; ++row) {
      for (uint32_t i = 0; i < nx / 2; ++i) {
        const auto v = values[row * nx / 2 + i];
        x.values.push_back(v.real()), x.values.push_back(v.imag());
        padded.emplace_back(v.real(), v.imag());
      }
      padded.emplace_back(0.0, 0.0);
    }
    write_npy(plan_dir() / "x.npy", x);
    run_npy({plan_dir(), name, plan_dir() / "x.npy", plan_dir() / "s.npy", Direction::forward});
    const NpyArray s = read_npy(plan_dir() / "s.npy");
    std::vector<uint64_t> spectrum_shape = shape;
    spectrum_shape.back() = h;
    REQUIRE(s.shape == spectrum_shape);
    std::vector<std::complex<float>> spectrum(s.values.size() / 2);
    std::memcpy(static_cast<void*>(spectrum.data()), s.values.data(), s.values.size() * 4);
    CHECK(compare(spectrum, reference_transform(k, Direction::forward, padded, batch, 1.0)).rel_l2 < 1e-6);
    run_npy({plan_dir(), name, plan_dir() / "s.npy", plan_dir() / "back.npy", Direction::inverse});
    const NpyArray back = read_npy(plan_dir() / "back.npy");
    REQUIRE(back.shape == x.shape);
    double err = 0, norm = 0;
    for (size_t i = 0; i < x.values.size(); ++i)
      err += std::pow(back.values[i] - x.values[i], 2), norm += std::pow(x.values[i], 2);
    CHECK(std::sqrt(err / norm) < 1e-6);
    CHECK(drain_validation(validated_device()).empty());
  }
}
