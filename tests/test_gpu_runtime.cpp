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
#include <fstream>
#include <random>
#include <string>

#include "fftgen/runtime.hpp"
#include "fftgen/vktools/bench.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/half.hpp"
#include "fftgen/vktools/npy.hpp"
#include "fftgen/vktools/reference.hpp"
#include "fftgen/vktools/verify.hpp"

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
                       {"twiddles", {{"file", "dft16.twiddles.bin"}, {"count", n}}},
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
                       {"normalize", "ortho"}, {"twiddles", nullptr}, {"scratch_elements", n},
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
  REQUIRE(problems.size() == 2);  // one line per pass
  CHECK_THAT(problems[0], Catch::Contains("dft16") && Catch::Contains("complex32") &&
                              Catch::Contains("storageBuffer16BitAccess") && Catch::Contains(without.name()));
  CHECK_THROWS_AS(Kernel(without, info, m.directory), DeviceLimitError);
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
    expect_failure("'<f8' (float64)");
    expect_failure("'<c8' (complex64");
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
  const json j = bench_json(device, {copy, k}, o);
  CHECK(j["results"].size() == 2);
  CHECK(parse_byte_size("512MiB") == 512ull << 20);
  CHECK(parse_byte_size("1GiB") == 1ull << 30);
  CHECK_THROWS(parse_byte_size("12 parsecs"));
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
  fs::remove_all(dir);
}
#endif
