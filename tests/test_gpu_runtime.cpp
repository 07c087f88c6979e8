// The Vulkan runtime (fftgen::runtime) and its tools against hand-written fixture kernels: a
// direct DFT with the exact pass interface of docs/manifest.md (runtime/testdata/naive_dft.comp),
// compiled here with glslangValidator, so these tests do not depend on the generator.
// Runs on lavapipe with the validation layer on; any validation message fails a test.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <random>
#include <string>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/runtime.hpp"
#include "fftgen/vktools/bench.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/half.hpp"
#include "fftgen/vktools/npy.hpp"
#include "fftgen/vktools/reference.hpp"
#include "fftgen/vktools/verify.hpp"
#include "fftgen/write_output.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;
using nlohmann::json;

namespace {

fs::path make_temp_dir(const std::string& tag) {
  std::random_device rd;
  fs::path dir = fs::temp_directory_path() /
                 ("fftgen_" + tag + "_" + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(dir);
  return dir;
}

void compile_fixture(const fs::path& out, const std::string& defines) {
  const std::string src = std::string(FFTGEN_SOURCE_DIR) + "/runtime/testdata/naive_dft.comp";
  const std::string cmd = "glslangValidator -V --target-env vulkan1.1 " + defines + " -o \"" +
                          out.string() + "\" \"" + src + "\" > \"" + out.string() + ".log\" 2>&1";
  INFO("compiling: " << cmd);
  REQUIRE(std::system(cmd.c_str()) == 0);
}

json pass_json(const std::string& kernel, const std::string& pass, uint32_t n,
               const std::vector<std::pair<std::string, std::string>>& roles) {
  json bindings = json::array();
  for (size_t i = 0; i < roles.size(); ++i)
    bindings.push_back({{"set", 0}, {"binding", i}, {"role", roles[i].first},
                        {"access", roles[i].second}});
  json pcs = json::array();
  const char* names[] = {"batch", "group_offset", "src_stride", "dst_stride"};
  for (int i = 0; i < 4; ++i) pcs.push_back({{"name", names[i]}, {"offset", 4 * i}, {"type", "uint32"}});
  return {{"name", pass},
          {"files", {{"spirv", kernel + "." + pass + ".spv"}}},
          {"entry_point", {{"spirv", "main"}}},
          {"local_size", {64, 1, 1}},
          {"size", n},
          {"stages", {n}},
          {"stride", 1},
          {"dispatch", {{"columns_per_transform", n}, {"columns_per_workgroup", 64}}},
          {"bindings", bindings},
          {"push_constants", pcs},
          {"push_constant_bytes", 16},
          {"shared_memory_bytes", 0}};
}

// Two fixture kernels: "dft16" (one pass, twiddle table, normalize inverse) and "dft32s" (two
// passes through a scratch buffer, computed twiddles, normalize ortho).
fs::path make_fixture_manifest() {
  static fs::path dir;
  if (!dir.empty()) return dir;
  dir = make_temp_dir("runtime_fixture");
  json kernels = json::array();
  {
    const uint32_t n = 16;
    compile_fixture(dir / "dft16.fwd0.spv", "-DN=16 -DSIGN=-1.0 -DSCALE=1.0 -DTABLE");
    compile_fixture(dir / "dft16.inv0.spv", "-DN=16 -DSIGN=1.0 -DSCALE=0.0625 -DTABLE");
    std::vector<float> tw;
    for (uint32_t k = 0; k < n; ++k) {
      const double a = -2 * M_PI * k / n;
      tw.push_back(static_cast<float>(std::cos(a)));
      tw.push_back(static_cast<float>(std::sin(a)));
    }
    std::ofstream(dir / "dft16.twiddles.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(tw.data()), tw.size() * 4);
    const std::vector<std::pair<std::string, std::string>> roles = {
        {"input", "read"}, {"output", "write"}, {"twiddles", "read"}};
    kernels.push_back({{"name", "dft16"}, {"plan_kernel", "dft16"}, {"shape", {n}},
                       {"element", "complex64"}, {"directions", {"forward", "inverse"}},
                       {"normalize", "inverse"},
                       {"scale", {{"forward", 1.0}, {"inverse", 1.0 / n}}},
                       {"twiddles", {{"file", "dft16.twiddles.bin"}, {"count", n}, {"format", fftgen::kTwiddleFormat}}},
                       {"scratch_elements", 0},
                       {"forward", {pass_json("dft16", "fwd0", n, roles)}},
                       {"inverse", {pass_json("dft16", "inv0", n, roles)}}});
  }
  {
    const uint32_t n = 32;
    char s[32];
    std::snprintf(s, sizeof s, "%.9g", 1.0 / std::sqrt(32.0));
    compile_fixture(dir / "dft32s.fwd0.spv", "-DN=32 -DSIGN=-1.0 -DSCALE=1.0");
    compile_fixture(dir / "dft32s.fwd1.spv", std::string("-DN=32 -DSIGN=-1.0 -DSCALE=") + s + " -DCOPY");
    compile_fixture(dir / "dft32s.inv0.spv", "-DN=32 -DSIGN=1.0 -DSCALE=1.0");
    compile_fixture(dir / "dft32s.inv1.spv", std::string("-DN=32 -DSIGN=1.0 -DSCALE=") + s + " -DCOPY");
    const std::vector<std::pair<std::string, std::string>> first = {{"input", "read"},
                                                                    {"scratch", "write"}};
    const std::vector<std::pair<std::string, std::string>> second = {{"scratch", "read"},
                                                                     {"output", "write"}};
    kernels.push_back({{"name", "dft32s"}, {"shape", {n}}, {"directions", {"forward", "inverse"}},
                       {"normalize", "ortho"}, {"scale", {{"forward", 1 / std::sqrt(32.0)}, {"inverse", 1 / std::sqrt(32.0)}}},
                       {"twiddles", nullptr}, {"scratch_elements", n},
                       {"forward", {pass_json("dft32s", "fwd0", n, first),
                                    pass_json("dft32s", "fwd1", n, second)}},
                       {"inverse", {pass_json("dft32s", "inv0", n, first),
                                    pass_json("dft32s", "inv1", n, second)}}});
  }
  json manifest = {{"format", "fftgen-manifest"}, {"format_version", 1},
                   {"generator", "test fixture"}, {"plan", "fixture.json"},
                   {"targets", {"spirv"}}, {"kernels", kernels}};
  std::ofstream(dir / "manifest.json") << manifest.dump(2);
  return dir;
}

Device& shared_device() {
  static Device device([] {
    DeviceOptions o;
    o.validation = true;
    return o;
  }());
  return device;
}

void require_no_validation_messages(Device& device) {
  auto messages = device.validation_messages();
  for (const auto& m : messages) UNSCOPED_INFO("validation: " << m.text);
  CHECK(messages.empty());
  device.clear_validation_messages();
}

}  // namespace

TEST_CASE("fixture kernels verify against FFTW with validation on", "[gpu][runtime]") {
  Device& device = shared_device();
  Manifest m = load_manifest(make_fixture_manifest());
  REQUIRE(m.kernels.size() == 2);
  VerifyOptions o;
  o.batches = {1, 7, 13};
  for (const auto& k : m.kernels) {
    VerifyResult r = verify_kernel(device, m, k, o);
    INFO(format_verify_table({r}));
    CHECK(r.error.empty());
    CHECK(r.pass);
    CHECK(r.nan_count == 0);
    CHECK(r.rel_l2_forward.value() <= 1e-6);
    CHECK(r.rel_l2_inverse.value() <= 1e-6);
    CHECK(r.round_trip.value() <= 2e-6);
  }
  require_no_validation_messages(device);
}

TEST_CASE("dispatches split at the workgroup-count limit give the same result",
          "[gpu][runtime]") {
  Device& device = shared_device();
  Manifest m = load_manifest(make_fixture_manifest());
  for (const char* name : {"dft16", "dft32s"}) {
    Kernel kernel(device, m, name);
    const uint32_t batch = 13;  // 13·N/64 workgroups: several chunks for any small limit
    const auto x = random_normal(uint64_t{kernel.n()} * batch, 5);
    const auto whole = execute(device, kernel, Direction::forward, x, batch);
    for (uint32_t limit : {1u, 2u, 3u}) {
      ExecuteOptions o;
      o.record.max_workgroups_per_dispatch = limit;
      const auto split = execute(device, kernel, Direction::forward, x, batch, o);
      INFO(name << " limit " << limit);
      CHECK(split == whole);
    }
  }
  require_no_validation_messages(device);
}

TEST_CASE("caller buffers with offsets and strides", "[gpu][runtime]") {
  Device& device = shared_device();
  Manifest m = load_manifest(make_fixture_manifest());
  Kernel kernel(device, m, "dft16");
  const uint32_t n = 16, batch = 5, in_stride = 24, out_stride = 20;
  const VkDeviceSize offset = device.limits().minStorageBufferOffsetAlignment * 4;
  const auto x = random_normal(uint64_t{in_stride} * batch, 9);
  Buffer in(device, offset + x.size() * 8), out(device, offset + uint64_t{out_stride} * batch * 8);
  upload(device, in.handle(), x.data(), x.size() * 8, offset);
  fill(device, out.handle(), kNanPattern, out.size());
  KernelIo io;
  io.input = {in.handle(), offset};
  io.output = {out.handle(), offset};
  io.max_batch = batch;
  io.input_stride = in_stride;
  io.output_stride = out_stride;
  KernelBindings bindings = kernel.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    kernel.record(cmd, Direction::forward, bindings, batch);
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<std::complex<float>> y(uint64_t{out_stride} * batch);
  download(device, out.handle(), y.data(), y.size() * 8, offset);
  for (uint32_t b = 0; b < batch; ++b) {
    std::vector<std::complex<double>> xb(x.begin() + b * in_stride, x.begin() + b * in_stride + n);
    const auto ref = reference_dft(xb, n, 1, Direction::forward);
    std::vector<std::complex<float>> yb(y.begin() + b * out_stride, y.begin() + b * out_stride + n);
    CHECK(compare(yb, ref).rel_l2 < 1e-6);
    // The gap between transforms is never written: it keeps the NaN poison.
    for (uint32_t i = n; i < out_stride && b + 1 < batch; ++i)
      CHECK(std::isnan(y[b * out_stride + i].real()));
  }
  require_no_validation_messages(device);
}

TEST_CASE("a kernel that needs more than the device has is refused clearly", "[gpu][runtime]") {
  Device& device = shared_device();
  Manifest m = load_manifest(make_fixture_manifest());
  KernelInfo info = m.kernel("dft16");
  const uint32_t has = device.limits().maxComputeSharedMemorySize;
  info.forward[0].shared_memory_bytes = has + 4096;
  info.inverse[0].local_size[0] = device.limits().maxComputeWorkGroupInvocations * 2;
  try {
    Kernel kernel(device, info, m.directory);
    FAIL("no DeviceLimitError");
  } catch (const DeviceLimitError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("dft16") != std::string::npos);
    CHECK(msg.find("shared memory") != std::string::npos);
    CHECK(msg.find(std::to_string(has + 4096)) != std::string::npos);
    CHECK(msg.find(std::to_string(has)) != std::string::npos);
    CHECK(msg.find("maxComputeWorkGroupInvocations") != std::string::npos);
  }
  CHECK(device_limit_problems(device, m.kernel("dft16")).empty());
}

TEST_CASE("fp16 kernels need storageBuffer16BitAccess: refused clearly without it", "[gpu][runtime][fp16]") {
  Manifest m = load_manifest(make_fixture_manifest());
  KernelInfo info = m.kernel("dft16");
  for (auto* passes : {&info.forward, &info.inverse})
    for (auto& p : *passes)
      for (auto& b : p.bindings)
        if (b.role != BufferRole::twiddles) b.element = ElementType::complex32;
  info.forward_input.element = info.forward_output.element = ElementType::complex32;
  DeviceOptions o;
  o.enable_16bit_storage = false;
  Device without(o);
  CHECK_FALSE(without.storage_buffer_16bit_access());
  const auto problems = device_limit_problems(without, info);
  REQUIRE(problems.size() == 1);  // one per requirement, whatever passes need it
  CHECK_THAT(problems[0], Catch::Contains("precision fp16") && Catch::Contains("storageBuffer16BitAccess") &&
                              Catch::Contains(without.name()) && Catch::Contains("DeviceOptions"));
  CHECK_THROWS_AS(Kernel(without, info, m.directory), DeviceLimitError);
  CHECK_THROWS_WITH(Kernel(without, info, m.directory), Catch::StartsWith("kernel 'dft16' cannot run on device '"));
  // lavapipe has the feature, and a Device enables it by default.
  CHECK(shared_device().storage_buffer_16bit_access());
  CHECK(device_limit_problems(shared_device(), info).empty());
}

TEST_CASE("half floats: round to nearest even, both ways exact where they can be", "[fp16]") {
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(float_to_half(-2.0f) == 0xc000);
  CHECK(float_to_half(65504.0f) == 0x7bff);
  CHECK(float_to_half(65519.0f) == 0x7bff);
  CHECK(float_to_half(65520.0f) == 0x7c00);  // rounds to infinity
  CHECK(float_to_half(std::ldexp(1.0f, -24)) == 0x0001);
  CHECK(float_to_half(std::ldexp(1.0f, -26)) == 0x0000);
  CHECK(float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // tie: to even
  CHECK(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);  // tie: to even (up)
  CHECK(std::isnan(half_to_float(float_to_half(std::nanf("")))));
  // Every finite half survives the trip through float, and the float it gives converts back.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00u) == 0x7c00u) continue;
    const float f = half_to_float(static_cast<uint16_t>(h));
    if (float_to_half(f) != h) FAIL("half " << h << " -> " << f << " -> " << float_to_half(f));
  }
  CHECK(half_to_float(0x3555) == Approx(0.333251953125f));
}

TEST_CASE("manifest errors name the file, the kernel and the field", "[gpu][runtime]") {
  Manifest m = load_manifest(make_fixture_manifest());
  try {
    m.kernel("fft999");
    FAIL("no error");
  } catch (const ManifestError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("unknown kernel 'fft999'") != std::string::npos);
    CHECK(msg.find("dft16") != std::string::npos);
    CHECK(msg.find("dft32s") != std::string::npos);
  }
  json doc = json::parse(std::ifstream(make_fixture_manifest() / "manifest.json"));
  doc["kernels"][1]["forward"][0]["dispatch"].erase("columns_per_workgroup");
  try {
    parse_manifest(doc, "m.json", ".");
    FAIL("no error");
  } catch (const ManifestError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("m.json") != std::string::npos);
    CHECK(msg.find("dft32s") != std::string::npos);
    CHECK(msg.find("columns_per_workgroup") != std::string::npos);
  }
  CHECK_THROWS_AS(load_manifest(make_fixture_manifest() / "nope.json"), ManifestError);
}

TEST_CASE("fftgen-vk run: npy in, npy out, and clean failures", "[gpu][runtime][cli]") {
  const fs::path dir = make_temp_dir("run");
  RunRequest r;
  r.manifest = make_fixture_manifest();
  r.kernel = "dft16";
  r.validation = true;
  const auto x = random_normal(3 * 16, 11);
  auto write = [&](const fs::path& p, const std::vector<char>& bytes) {
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  const fs::path good = dir / "x.npy";
  write(good, encode_npy_complex64({{3, 16}, x}));

  SECTION("forward and inverse") {
    r.input = good;
    r.output = dir / "y.npy";
    run_npy(r);
    ComplexArray y = read_npy_complex64(r.output);
    CHECK(y.shape == std::vector<uint64_t>{3, 16});
    std::vector<std::complex<double>> xd(x.begin(), x.end());
    CHECK(compare(y.data, reference_dft(xd, 16, 3, Direction::forward)).rel_l2 < 1e-6);
    r.input = r.output;
    r.output = dir / "z.npy";
    r.direction = Direction::inverse;
    run_npy(r);
    CHECK(compare(read_npy_complex64(r.output).data, xd).rel_l2 < 1e-6);
  }

  auto expect_failure = [&](const std::string& needle) {
    r.output = dir / "out.npy";
    try {
      run_npy(r);
      FAIL("no error");
    } catch (const std::exception& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
    }
    CHECK_FALSE(fs::exists(r.output));
    for (const auto& entry : fs::directory_iterator(dir))
      CHECK(entry.path().filename().string().find("out.npy") == std::string::npos);
  };
  SECTION("unknown kernel lists the available ones") {
    r.input = good;
    r.kernel = "fft4096";
    expect_failure("available: dft16 dft32s");
  }
  SECTION("truncated file") {
    auto bytes = encode_npy_complex64({{3, 16}, x});
    bytes.resize(bytes.size() - 20);
    r.input = dir / "short.npy";
    write(r.input, bytes);
    expect_failure("truncated");
  }
  SECTION("wrong dtype names the dtype found and the one required") {
    auto bytes = encode_npy_complex64({{3, 16}, x});
    std::string header(bytes.begin() + 10, bytes.begin() + 64);
    header.replace(header.find("<c8"), 3, "<f8");
    std::copy(header.begin(), header.end(), bytes.begin() + 10);
    r.input = dir / "f8.npy";
    write(r.input, bytes);
    expect_failure("dtype float64 ('<f8')");  // read (fp64 kernels take it), then refused by this kernel
    expect_failure("takes complex64 ('<c8')");
  }
  SECTION("missing file") {
    r.input = dir / "absent.npy";
    expect_failure("no such file");
  }
  SECTION("wrong length names the shape found and the one required") {
    write(dir / "n8.npy", encode_npy_complex64({{6, 8}, x}));
    r.input = dir / "n8.npy";
    expect_failure("shape [6, 8]");
    expect_failure("takes complex64 ('<c8') of shape [16] or [batch, 16]");
  }
  fs::remove_all(dir);
}

TEST_CASE("fftgen-vk run: an fp16 overflow and a convolution kernel are clear errors", "[gpu][runtime][cli][fp16]") {
  const fs::path dir = make_temp_dir("run_fp16");
  const char* plan_text = R"({"kernels": [{"name": "h", "shape": [4096], "precision": "fp16"},
    {"name": "blur", "convolution": {"image": [8, 8], "filter": [3, 3], "channels": 1, "mode": "same"}}]})";
  fftgen::write_output(fftgen::generate(fftgen::parse_plan(plan_text, "run_fp16.json"), "run_fp16.json"), dir / "k");
  RunRequest r;
  r.manifest = dir / "k";
  r.kernel = "h";
  r.output = dir / "out.npy";
  auto write_input = [&](std::vector<std::complex<float>> values) {
    r.input = dir / "in.npy";
    const std::vector<char> bytes = encode_npy_complex64({{4096}, std::move(values)});
    std::ofstream(r.input, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  // All 100: bin 0 is 409600, beyond the half floats' 65504 (it was written as inf, exit 0).
  write_input(std::vector<std::complex<float>>(4096, {100.0f, 0.0f}));
  CHECK_THROWS_WITH(run_npy(r), Catch::Contains("kernel 'h': ") && Catch::Contains("result values are not finite") &&
                                    Catch::Contains("beyond 65504") && Catch::Contains("nothing was written"));
  CHECK_FALSE(fs::exists(r.output));
  // A NaN in the input is the input's, not an overflow: passed through.
  std::vector<std::complex<float>> with_nan(4096, {0.01f, 0.0f});
  with_nan[3] = {std::nanf(""), 0.0f};
  write_input(with_nan);
  CHECK_NOTHROW(run_npy(r));
  r.kernel = "blur";
  CHECK_THROWS_WITH(run_npy(r), Catch::Contains("kernel 'blur' is a convolution") && Catch::Contains("fftgen-vk convolve"));
  fs::remove_all(dir);
}

TEST_CASE("timestamps and the bench loop", "[gpu][runtime][bench]") {
  Device& device = shared_device();
  Manifest m = load_manifest(make_fixture_manifest());
  BenchOptions o;
  o.bytes = 1 << 16;
  o.trials = 3;
  o.calls_per_trial = 2;
  BenchResult copy = bench_copy(device, o);
  INFO(copy.error);
  CHECK(copy.error.empty());
  CHECK(copy.trial_ms.size() == 3);
  CHECK(copy.gb_per_s > 0);
  BenchResult k = bench_kernel(device, m, m.kernel("dft32s"), o);
  INFO(k.error);
  CHECK(k.error.empty());
  CHECK(k.batch == (1 << 16) / (32 * 8));
  CHECK(k.median_ms > 0);
  CHECK(k.direction == "forward");  // the default where a kernel has it
  // --direction inverse times the inverse passes; a kernel without the asked direction gets an
  // error naming it (the others still run).
  BenchOptions inverse = o;
  inverse.direction = Direction::inverse;
  inverse.per_pass = true;
  BenchResult ki = bench_kernel(device, m, m.kernel("dft32s"), inverse);
  INFO(ki.error);
  CHECK(ki.error.empty());
  CHECK(ki.direction == "inverse");
  REQUIRE_FALSE(ki.passes.empty());
  CHECK(ki.passes.front().name.rfind("inv", 0) == 0);
  KernelInfo forward_only = m.kernel("dft32s");
  forward_only.directions = {Direction::forward};
  forward_only.inverse.clear();
  REQUIRE_FALSE(forward_only.has(Direction::inverse));
  const BenchResult missing = bench_kernel(device, m, forward_only, inverse);
  CHECK(missing.error.find("has no inverse direction") != std::string::npos);
  const json j = bench_json(device, {copy, k, ki}, o);
  CHECK(j["results"].size() == 3);
  CHECK(j["results"][2]["direction"] == "inverse");
  CHECK(format_bench_table({copy, k, ki}).find("inverse") != std::string::npos);
  CHECK(parse_byte_size("512MiB") == 512ull << 20);
  CHECK(parse_byte_size("1GiB") == 1ull << 30);
  CHECK_THROWS(parse_byte_size("12 parsecs"));
  CHECK_THROWS_WITH(parse_byte_size("1e30"), Catch::Contains("'1e30': more than 2^63 bytes"));
  CHECK_THROWS_WITH(parse_byte_size("inf"), Catch::Contains("more than 2^63 bytes"));
  CHECK_THROWS_WITH(parse_byte_size("nan"), Catch::Contains("size must be positive"));
  CHECK_THROWS_WITH(parse_byte_size("0.5"), Catch::Contains("'0.5': less than one byte"));
  require_no_validation_messages(device);
}


// ---------------------------------------------------------------------------------------------
// Bad input (docs/errors.md, "Runtime"): each hostile manifest, module, .npy file or option gets
// a clear error naming what is wrong, before anything reaches the driver.

namespace {

json fixture_doc() { return json::parse(std::ifstream(make_fixture_manifest() / "manifest.json")); }

// parse_manifest(doc) must throw a ManifestError whose message holds every needle.
void require_manifest_error(const json& doc, const std::vector<std::string>& needles) {
  try {
    parse_manifest(doc, "hostile.json", make_fixture_manifest());
    FAIL("no error for " << doc.dump().substr(0, 200));
  } catch (const ManifestError& e) {
    const std::string msg = e.what();
    INFO(msg);
    for (const auto& n : needles) CHECK(msg.find(n) != std::string::npos);
  }
}

// A copy of the fixture folder to damage.
fs::path fixture_copy(const std::string& tag) {
  const fs::path dir = make_temp_dir(tag);
  fs::copy(make_fixture_manifest(), dir, fs::copy_options::recursive);
  return dir;
}

// Making kernel `name` from `dir` must throw a ManifestError holding every needle, with no
// validation message (nothing reached the driver).
void require_kernel_error(const fs::path& dir, const std::string& name,
                          const std::vector<std::string>& needles) {
  Device& device = shared_device();
  Manifest m = load_manifest(dir);
  try {
    Kernel kernel(device, m, name);
    FAIL("no error");
  } catch (const ManifestError& e) {
    const std::string msg = e.what();
    INFO(msg);
    for (const auto& n : needles) CHECK(msg.find(n) != std::string::npos);
  }
  require_no_validation_messages(device);
}

void write_bytes(const fs::path& p, const std::vector<char>& bytes) {
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<char> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("hostile manifest fields are refused with the field and the allowed range",
          "[gpu][runtime][bad-input]") {
  SECTION("push-constant offset that would wrap offset + 4") {
    json doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["push_constants"][1]["offset"] = 4294967292u;
    require_manifest_error(doc, {"hostile.json", "dft16", "push_constants[1].offset", "4294967292", "below 256"});
  }
  SECTION("push_constant_bytes beyond any device") {
    json doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["push_constant_bytes"] = 4294967295u;
    require_manifest_error(doc, {"push_constant_bytes", "4294967295", "to 256"});
  }
  SECTION("binding number of 4e9") {
    json doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["bindings"][2]["binding"] = 4000000000u;
    require_manifest_error(doc, {"bindings[2].binding", "below 16", "4000000000"});
  }
  SECTION("binding number repeated") {
    json doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["bindings"][2]["binding"] = 1;
    require_manifest_error(doc, {"bindings[2].binding", "found 1 twice"});
  }
  SECTION("columns_per_transform of 2^31") {
    json doc = fixture_doc();
    doc["kernels"][1]["forward"][0]["dispatch"]["columns_per_transform"] = 2147483648u;
    require_manifest_error(doc, {"dft32s", "columns_per_transform", "32 points"});
  }
  SECTION("batch_scale beyond the kernel's points") {
    json doc = fixture_doc();
    doc["kernels"][0]["inverse"][0]["dispatch"]["batch_scale"] = 17;
    require_manifest_error(doc, {"inverse[0].dispatch.batch_scale", "16 points"});
  }
  SECTION("scratch_elements beyond the kernel's points") {
    json doc = fixture_doc();
    doc["kernels"][1]["scratch_elements"] = uint64_t{1} << 40;
    require_manifest_error(doc, {"dft32s", "scratch_elements"});
  }
  SECTION("a shape of more than 2^32 points") {
    json doc = fixture_doc();
    doc["kernels"][0]["shape"] = {4294967295u, 4294967295u};
    require_manifest_error(doc, {"dft16", "shape", "at most 4294967296 points"});
  }
  SECTION("file names that leave the manifest's folder") {
    for (const char* bad : {"../dft16.fwd0.spv", "/etc/passwd", "sub/../../x.spv", ""}) {
      json doc = fixture_doc();
      doc["kernels"][0]["forward"][0]["files"]["spirv"] = bad;
      require_manifest_error(doc, {"files.spirv", "relative to the manifest's folder", std::string("'") + bad + "'"});
    }
    json doc = fixture_doc();
    doc["kernels"][0]["twiddles"]["file"] = "../../twiddles.bin";
    require_manifest_error(doc, {"twiddles.file", "'../../twiddles.bin'"});
  }
  SECTION("the factors come from scale alone, one per direction; the twiddle format is one the runtime knows") {
    json doc = fixture_doc();
    doc["kernels"][0]["normalize"] = "ortho";  // says otherwise: scale wins
    const Manifest parsed = parse_manifest(doc, "hostile.json", ".");
    const KernelInfo& k = parsed.kernels[0];
    CHECK(k.forward_scale == 1.0);
    CHECK(k.inverse_scale == 1.0 / 16);
    doc = fixture_doc();
    doc["kernels"][0]["scale"].erase("inverse");
    require_manifest_error(doc, {"dft16", "scale", "missing field 'inverse'"});
    doc = fixture_doc();
    doc["kernels"][0]["scale"]["forward"] = 0;
    require_manifest_error(doc, {"scale.forward", "a positive finite factor"});
    doc = fixture_doc();
    doc["kernels"][0]["twiddles"]["format"] = "float64 pairs";
    require_manifest_error(doc, {"twiddles.format", "(found 'float64 pairs')"});
  }
  SECTION("another format_version names both versions") {
    json doc = fixture_doc();
    doc["format_version"] = 3;
    require_manifest_error(doc, {"hostile.json", "format_version 3", "versions 1 and 2"});
  }
  SECTION("pass_sync counters: the sync binding, its element and the schedule are checked") {
    // A dispatch of two passes of one workgroup per transform each, as the generator writes it.
    auto counters_doc = [](bool sync_binding) {
      json doc = fixture_doc();
      json& pass = doc["kernels"][0]["forward"][0];
      pass["pass_sync"] = "counters";
      pass["counters"] = {{"lag", 1}, {"passes", {{{"workgroups_per_transform", 1}}, {{"workgroups_per_transform", 1}}}}};
      pass["dispatch"] = {{"batch_scale", 1}, {"columns_per_transform", 2}, {"columns_per_workgroup", 1}};
      if (sync_binding)
        pass["bindings"].push_back({{"binding", 7}, {"role", "sync"}, {"access", "write"}, {"element", "uint32"}});
      return doc;
    };
    CHECK_NOTHROW(parse_manifest(counters_doc(true), "hostile.json", "."));
    require_manifest_error(counters_doc(false), {"dft16", "bindings", "a binding of role sync"});
    json doc = counters_doc(true);
    doc["kernels"][0]["forward"][0]["counters"]["lag"] = 0;
    require_manifest_error(doc, {"counters.lag", "1 to 4096"});
    doc = counters_doc(true);
    doc["kernels"][0]["forward"][0]["dispatch"]["columns_per_transform"] = 5;
    require_manifest_error(doc, {"forward[0].dispatch", "columns_per_transform 2"});
    doc = counters_doc(true);
    doc["kernels"][0]["forward"][0]["counters"]["passes"][1]["workgroups_per_transform"] = 0;
    require_manifest_error(doc, {"workgroups_per_transform", "a positive integer"});
    doc = counters_doc(true);
    doc["kernels"][0]["forward"][0]["pass_sync"] = "barrier";
    require_manifest_error(doc, {"pass_sync", "dispatch or counters", "'barrier'"});
    doc = counters_doc(true);
    doc["kernels"][0]["forward"][0].erase("pass_sync");
    require_manifest_error(doc, {"pass_sync", "counters where a pass binds the role sync"});
    doc = counters_doc(true);
    doc["kernels"][0]["forward"][0]["bindings"].back()["element"] = "complex64";
    require_manifest_error(doc, {"element", "uint32 for the sync binding"});
    doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["bindings"][0]["element"] = "uint32";
    require_manifest_error(doc, {"bindings[0].element", "for role input", "'uint32'"});
  }
  SECTION("a hand-made KernelInfo with a wrapping offset cannot make record() write out of bounds") {
    Manifest m = load_manifest(make_fixture_manifest());
    KernelInfo info = m.kernel("dft16");
    info.forward[0].push_constants[1].offset = 4294967292u;
    Device& device = shared_device();
    try {
      Kernel kernel(device, info, m.files);
      FAIL("no error");
    } catch (const ManifestError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find("does not fit in push_constant_bytes 16") != std::string::npos);
    }
    require_no_validation_messages(device);
  }
}

TEST_CASE("SPIR-V that is truncated, foreign or unlike its manifest is refused naming the file",
          "[gpu][runtime][bad-input]") {
  const fs::path dir = fixture_copy("spirv");
  const fs::path spv = dir / "dft16.fwd0.spv";
  const auto good = read_bytes(spv);
  SECTION("truncated at a word boundary") {
    write_bytes(spv, std::vector<char>(good.begin(), good.begin() + (good.size() / 8) * 4));
    require_kernel_error(dir, "dft16", {spv.string(), "truncated"});
  }
  SECTION("truncated inside a word") {
    write_bytes(spv, std::vector<char>(good.begin(), good.end() - 3));
    require_kernel_error(dir, "dft16", {spv.string(), "is not SPIR-V", "size"});
  }
  SECTION("an empty file") {
    write_bytes(spv, {});
    require_kernel_error(dir, "dft16", {spv.string(), "is not SPIR-V"});
  }
  SECTION("not SPIR-V at all") {
    std::vector<char> text(64, 'x');
    write_bytes(spv, text);
    require_kernel_error(dir, "dft16", {spv.string(), "bad magic number"});
  }
  SECTION("another kernel's module: its bindings differ") {
    fs::copy_file(dir / "dft32s.fwd0.spv", spv, fs::copy_options::overwrite_existing);
    require_kernel_error(dir, "dft16", {spv.string(), "storage-buffer bindings [0, 1]", "says [0, 1, 2]"});
  }
  SECTION("the manifest's workgroup size edited") {
    json doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["local_size"] = {128, 1, 1};
    std::ofstream(dir / "manifest.json") << doc.dump();
    require_kernel_error(dir, "dft16", {"fwd0", spv.string(), "workgroup size x 64", "says 128"});
  }
  SECTION("the manifest's shared memory edited") {
    json doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["shared_memory_bytes"] = 1024;
    std::ofstream(dir / "manifest.json") << doc.dump();
    require_kernel_error(dir, "dft16", {spv.string(), "shared memory bytes 0", "says 1024"});
  }
  SECTION("the manifest's push constants shortened") {
    json doc = fixture_doc();
    auto& pass = doc["kernels"][0]["forward"][0];
    pass["push_constants"].erase(3);
    pass["push_constants"].erase(2);
    pass["push_constant_bytes"] = 8;
    std::ofstream(dir / "manifest.json") << doc.dump();
    require_kernel_error(dir, "dft16", {spv.string(), "push-constant block of bytes 16", "says 8"});
  }
  SECTION("the manifest's entry point edited") {
    json doc = fixture_doc();
    doc["kernels"][0]["forward"][0]["entry_point"]["spirv"] = "main2";
    std::ofstream(dir / "manifest.json") << doc.dump();
    require_kernel_error(dir, "dft16", {spv.string(), "entry points 'main'", "says 'main2'"});
  }
  fs::remove_all(dir);
}

TEST_CASE("a generated kernel's .spv swapped for another N is detected", "[gpu][runtime][bad-input]") {
  // generated/ holds the default plan's output: kernels of several N whose passes differ in
  // shared memory or workgroup size. Every swap of one kernel's first forward module for another
  // kernel's that the reflection can tell apart is refused; the test needs at least one.
  const fs::path dir = make_temp_dir("generated_swap");
  fs::copy(fs::path(FFTGEN_SOURCE_DIR) / "generated", dir, fs::copy_options::recursive);
  Manifest m = load_manifest(dir);
  REQUIRE(m.kernels.size() >= 2);
  const KernelInfo& a = m.kernels[0];
  int refused = 0;
  const auto original = read_bytes(dir / a.forward[0].files.at("spirv"));
  for (const auto& b : m.kernels) {
    if (b.n() == a.n()) continue;
    write_bytes(dir / a.forward[0].files.at("spirv"), read_bytes(dir / b.forward[0].files.at("spirv")));
    const PassInfo& pa = a.forward[0];
    const PassInfo& pb = b.forward[0];
    const bool tellable = pa.local_size[0] != pb.local_size[0] || pa.shared_memory_bytes != pb.shared_memory_bytes;
    INFO(a.name << " with " << b.name << "'s module");
    if (tellable) {
      try {
        Kernel kernel(shared_device(), m, a.name);
        FAIL("no error");
      } catch (const ManifestError& e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find("another kernel's") != std::string::npos);
        ++refused;
      } catch (const DeviceLimitError&) {
        // a kernel beyond lavapipe's limits is refused before its module is read
      }
    }
    write_bytes(dir / a.forward[0].files.at("spirv"), original);
  }
  CHECK(refused >= 1);
  require_no_validation_messages(shared_device());
  fs::remove_all(dir);
}

TEST_CASE(".npy files whose header lies are refused before any allocation", "[gpu][runtime][bad-input][npy]") {
  const fs::path dir = make_temp_dir("npy");
  const auto x = random_normal(3 * 16, 2);
  const auto good = encode_npy_complex64({{3, 16}, x});
  // A version 1.0 file with this header text (padded as numpy pads it) and the good file's data.
  auto with_header = [&](std::string header) {
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::vector<char> bytes = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<char>(header.size() & 0xff),
                               static_cast<char>(header.size() >> 8)};
    bytes.reserve(bytes.size() + header.size() + 3 * 16 * 8);
    bytes.insert(bytes.end(), header.begin(), header.end());
    bytes.insert(bytes.end(), good.end() - 3 * 16 * 8, good.end());
    return bytes;
  };
  auto expect = [&](const std::string& file, const std::vector<char>& bytes,
                    const std::vector<std::string>& needles) {
    const fs::path p = dir / file;
    write_bytes(p, bytes);
    try {
      read_npy(p);
      FAIL("no error for " << file);
    } catch (const NpyError& e) {
      const std::string msg = e.what();
      INFO(msg);
      CHECK(msg.find(p.string()) == 0);
      for (const auto& n : needles) CHECK(msg.find(n) != std::string::npos);
    }
  };
  // The helper's file with a true header reads (so each failure below is the header's doing).
  write_bytes(dir / "true.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (3, 16), }"));
  CHECK(read_npy(dir / "true.npy").values.size() == 3 * 16 * 2);
  {
    // A 72-byte version-2 file claiming a 0xFFFFFFF0-byte header.
    std::vector<char> bytes = {'\x93', 'N', 'U', 'M', 'P', 'Y', 2, 0, '\xf0', '\xff', '\xff', '\xff'};
    bytes.resize(72, ' ');
    expect("huge_header.npy", bytes, {"claims 4294967280 bytes", "at most 65536"});
    bytes[8] = '\x00', bytes[9] = '\x01', bytes[10] = 0, bytes[11] = 0;  // 256 bytes in a 72-byte file
    expect("long_header.npy", bytes, {"truncated header", "claims 256 bytes"});
  }
  expect("negative.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (-3, 16), }"),
         {"must not be negative"});
  expect("overflow.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
         {"overflows 64 bits"});
  expect("product.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
         {"truncated", "(4294967296, 4294967296)"});
  expect("extra.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (2, 16), }"),
         {"needs 256 bytes of data, the file holds 384", "does not describe"});
  expect("fortran.npy", with_header("{'descr': '<c8', 'fortran_order': True, 'shape': (3, 16), }"),
         {"Fortran-ordered"});
  expect("order.npy", with_header("{'descr': '<c8', 'fortran_order': 0, 'shape': (3, 16), }"),
         {"True or False"});
  expect("no_shape.npy", with_header("{'descr': '<c8', 'fortran_order': False, }"), {"missing 'shape'"});
  expect("unknown.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (3, 16), 'x': 1}"),
         {"key 'x'"});
  expect("twice.npy", with_header("{'descr': '<c8', 'descr': '<c8', 'shape': (3, 16), }"), {"key 'descr'"});
  expect("big_endian.npy", with_header("{'descr': '>c8', 'fortran_order': False, 'shape': (3, 16), }"),
         {"'>c8' (big-endian complex64)", "'<c8' (complex64)"});
  expect("scalar.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (), }"),
         {"1 to 4 dimensions"});
  expect("empty.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (0, 16), }"),
         {"holds no elements"});
  expect("not_a_dict.npy", with_header("['descr', '<c8']"), {"malformed .npy header", "expected '{'"});
  {
    std::vector<char> bytes = good;
    bytes[6] = 9;
    expect("version9.npy", bytes, {"unsupported .npy version 9"});
  }
  expect("short.npy", std::vector<char>(good.begin(), good.begin() + 5), {"not a .npy file"});
  // A directory is not a file.
  try {
    read_npy(dir);
    FAIL("no error");
  } catch (const NpyError& e) {
    CHECK(std::string(e.what()).find("not a regular file") != std::string::npos);
  }
  // The good file still reads, and numpy's own header for this array is what encode_npy wrote.
  write_bytes(dir / "good.npy", good);
  CHECK(read_npy(dir / "good.npy").shape == std::vector<uint64_t>{3, 16});
  fs::remove_all(dir);
}

TEST_CASE("run into a folder that cannot be written leaves nothing behind", "[gpu][runtime][bad-input][cli]") {
  const fs::path dir = make_temp_dir("unwritable");
  const auto x = random_normal(16, 3);
  write_bytes(dir / "x.npy", encode_npy_complex64({{16}, x}));
  write_bytes(dir / "plain_file", {'x'});
  RunRequest r;
  r.manifest = make_fixture_manifest();
  r.kernel = "dft16";
  r.input = dir / "x.npy";
  // Below a regular file: no folder can be made there, whoever runs the test (root included).
  r.output = dir / "plain_file" / "y.npy";
  try {
    run_npy(r);
    FAIL("no error");
  } catch (const NpyError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(r.output.string() + ": cannot create") == 0);
  }
  size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    (void)entry;
    ++entries;
  }
  CHECK(entries == 2);  // x.npy and plain_file, no temporary
  fs::remove_all(dir);
}

TEST_CASE("verify reports a batch the device cannot hold as an error, not a failed comparison",
          "[gpu][runtime][bad-input]") {
  Device& device = shared_device();
  Manifest m = load_manifest(make_fixture_manifest());
  const KernelInfo& info = m.kernel("dft16");
  Kernel kernel(device, info, m.files);
  VerifyOptions o;
  o.batches = {1, kernel.max_batch() + 1};
  VerifyResult r = verify_kernel(device, m, info, o);
  INFO(r.error);
  CHECK_FALSE(r.pass);
  CHECK(r.error.find("batch " + std::to_string(kernel.max_batch() + 1) + " exceeds the device's largest bindable batch") !=
        std::string::npos);
  CHECK_FALSE(r.rel_l2_forward.has_value());  // nothing ran: no figures
  // An allocation that fails (here the module loader's) is reported as running out of memory.
  o.batches = {1};
  o.loader = [](const KernelInfo&, const PassInfo&) -> ShaderCode { throw std::bad_alloc(); };
  r = verify_kernel(device, m, info, o);
  CHECK(r.error.find("out of host memory") != std::string::npos);
  // The bench loop refuses zero trials or calls rather than taking the median of nothing.
  BenchOptions b;
  b.trials = 0;
  CHECK_THROWS_AS(time_calls(device, b, [](VkCommandBuffer) {}), UsageError);
  b.trials = 1;
  b.calls_per_trial = 0;
  CHECK_THROWS_AS(time_calls(device, b, [](VkCommandBuffer) {}), UsageError);
  require_no_validation_messages(device);
}

TEST_CASE("batch 0, wrong buffer sizes and strides are usage errors", "[gpu][runtime][bad-input]") {
  Device& device = shared_device();
  Manifest m = load_manifest(make_fixture_manifest());
  Kernel kernel(device, m, "dft16");
  auto require_usage_error = [](const std::function<void()>& f, const std::string& needle) {
    try {
      f();
      FAIL("no error");
    } catch (const UsageError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
    }
  };
  Buffer a(device, 16 * 8 * 4), b(device, 16 * 8 * 4);
  KernelIo io;
  io.input = {a.handle(), 0};
  io.output = {b.handle(), 0};
  io.max_batch = 0;
  require_usage_error([&] { kernel.bind(io); }, "max_batch must be > 0");
  io.max_batch = 4;
  io.input_stride = 8;
  require_usage_error([&] { kernel.bind(io); }, "the input stride 8 is less than the 16 complex64 elements");
  io.input_stride = 0;
  io.output = io.input;
  require_usage_error([&] { kernel.bind(io); }, "input and output must be different buffers");
  io.output = {b.handle(), 0};
  KernelBindings bindings = kernel.bind(io);
  require_usage_error(
      [&] { device.run_commands([&](VkCommandBuffer cmd) { kernel.record(cmd, Direction::forward, bindings, 5); }); },
      "batch 5 exceeds the bindings' max_batch 4");
  // Batch 0 records nothing (and is no error).
  device.run_commands([&](VkCommandBuffer cmd) { kernel.record(cmd, Direction::forward, bindings, 0); });
  const auto x = random_normal(16 * 2, 1);
  require_usage_error([&] { execute(device, kernel, Direction::forward, x, 3); },
                      "input holds 32 values (pairs of floats), batch 3 needs 48");
  require_no_validation_messages(device);
}

#ifdef FFTGEN_VK_CLI
TEST_CASE("fftgen-vk CLI: usage errors and exit codes", "[gpu][cli]") {
  const fs::path dir = make_temp_dir("cli");
  auto run = [&](const std::string& args) {
    const std::string cmd = std::string("\"") + FFTGEN_VK_CLI + "\" " + args + " > \"" +
                            (dir / "stdout").string() + "\" 2> \"" + (dir / "stderr").string() +
                            "\"";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  auto stderr_text = [&] {
    std::ifstream in(dir / "stderr");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  CHECK(run("--help") == 0);
  CHECK(run("run --help") == 0);
  CHECK(run("verify --help") == 0);
  CHECK(run("bench --help") == 0);
  CHECK(run("") == 1);
  CHECK(stderr_text().find("fftgen-vk: error:") != std::string::npos);
  CHECK(run("frobnicate") == 1);
  const std::string manifest = make_fixture_manifest().string();
  CHECK(run("run \"" + manifest + "\" nope -i \"" + (dir / "a.npy").string() + "\" -o \"" +
            (dir / "b.npy").string() + "\"") == 1);
  CHECK(stderr_text().find("fftgen-vk: error: unknown kernel 'nope'") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "b.npy"));
  CHECK(run("verify \"" + manifest + "\" --batches 1,3 --validation --json \"" +
            (dir / "v.json").string() + "\"") == 0);
  const json v = json::parse(std::ifstream(dir / "v.json"));
  CHECK(v["kernels"].size() == 2);
  CHECK(v["kernels"][0]["pass"] == true);
  CHECK(run("verify \"" + manifest + "\" dft16 --tolerance 1e-12") == 2);
  // Options out of range: exit 1 naming the option, before any device work.
  for (const char* bad : {"bench \"M\" --trials 0", "bench \"M\" --calls 0", "verify \"M\" --tolerance -1",
                          "verify \"M\" --tolerance nan", "verify \"M\" --tolerance 0", "verify \"M\" --device -2",
                          "bench \"M\" --device -2", "verify \"M\" --batches 0", "bench \"M\" --direction sideways"}) {
    std::string args = bad;
    args.replace(args.find('M'), 1, manifest);
    INFO(args << "\n" << stderr_text());
    CHECK(run(args) == 1);
    const std::string option = std::string(bad).substr(std::string(bad).find("--"));
    CHECK(stderr_text().find(option.substr(0, option.find(' '))) != std::string::npos);
  }
  // A manifest with no kernels is an error, not an empty success.
  json empty = json::parse(std::ifstream(make_fixture_manifest() / "manifest.json"));
  empty["kernels"] = json::array();
  std::ofstream(dir / "empty.json") << empty.dump();
  for (const char* sub : {"verify", "bench"}) {
    CHECK(run(std::string(sub) + " \"" + (dir / "empty.json").string() + "\"") == 1);
    CHECK(stderr_text().find("the manifest lists no kernels") != std::string::npos);
  }
  // A batch beyond the device: exit 1 (the work stopped), not 2 (a failed comparison).
  CHECK(run("verify \"" + manifest + "\" dft16 --batches 4000000000") == 1);
  // --json into a folder that cannot be written: exit 1, nothing left behind.
  std::ofstream(dir / "plain_file") << "x";
  CHECK(run("verify \"" + manifest + "\" dft16 --batches 1 --json \"" + (dir / "plain_file" / "v.json").string() + "\"") == 1);
  CHECK(stderr_text().find("cannot write") != std::string::npos);
  fs::remove_all(dir);
}
#endif
