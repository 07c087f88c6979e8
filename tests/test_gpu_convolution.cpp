// Fused convolution (plan field "convolution", docs/graphics.md) on the Vulkan device (lavapipe
// in CI), validation layer on: the filter kernel and the fused apply chain against a direct
// convolution in double, for 1 to 4 channels, odd image sizes, even and odd filter sizes, one
// filter for all channels and one per channel, "same" and "circular"; the HLSL of the chain
// compiled back to SPIR-V computes the same; PNG and .npy through `fftgen-vk convolve`; bad
// images and filters are clear errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/write_output.hpp"
#include "fftgen/runtime.hpp"
#include "fftgen/vktools/convolve.hpp"
#include "gpu_support.hpp"

namespace fs = std::filesystem;
using namespace fftgen::vk;

namespace {

const char* kPlan = R"({"kernels": [
  {"name": "gray",   "convolution": {"image": [5, 7],   "filter": [3, 4], "channels": 1, "mode": "same"}},
  {"name": "pair",   "convolution": {"image": [9, 6],   "filter": [5, 5], "channels": 2, "mode": "same", "packing": "r2c"}},
  {"name": "rgb",    "convolution": {"image": [16, 8],  "filter": [3, 3, 3], "channels": 3, "mode": "circular"}},
  {"name": "rgba",   "convolution": {"image": [13, 11], "filter": [4, 6], "channels": 4, "mode": "same", "packing": "r2c"}},
  {"name": "wide",   "convolution": {"image": [8, 8],   "filter": [8, 8, 4], "channels": 4, "mode": "circular"}},
  {"name": "big",    "convolution": {"image": [33, 70], "filter": [33, 70], "channels": 4, "mode": "same"}},
  {"name": "column", "convolution": {"image": [1100, 6], "filter": [949, 3], "channels": 3, "mode": "same", "packing": "r2c"}},
  {"name": "tall",   "convolution": {"image": [4099, 5], "filter": [7, 3], "channels": 2, "mode": "same", "packing": "r2c"}},
  {"name": "pair_pairs",   "convolution": {"image": [9, 6],    "filter": [5, 5], "channels": 2, "packing": "pairs"}},
  {"name": "rgb_pairs",    "convolution": {"image": [16, 8],   "filter": [3, 3], "channels": 3, "mode": "circular", "packing": "pairs"}},
  {"name": "rgba_pairs",   "convolution": {"image": [13, 11],  "filter": [4, 6], "channels": 4, "packing": "pairs"}},
  {"name": "column_pairs", "convolution": {"image": [1100, 6], "filter": [949, 3], "channels": 3, "packing": "pairs"}},
  {"name": "tall_pairs",   "convolution": {"image": [4099, 5], "filter": [7, 3], "channels": 4, "packing": "pairs"}},
  {"name": "col4096",      "convolution": {"image": [2100, 5], "filter": [1900, 3], "channels": 3, "packing": "r2c"}},
  {"name": "col4096_pairs", "convolution": {"image": [2100, 5], "filter": [1900, 3], "channels": 4, "packing": "pairs"}},
  {"name": "col8192",      "convolution": {"image": [8100, 5], "filter": [7, 3], "channels": 2, "packing": "r2c"}},
  {"name": "odd3",         "convolution": {"image": [27, 45], "filter": [5, 7], "channels": 3, "packing": "r2c"}},
  {"name": "odd3_pairs",   "convolution": {"image": [27, 45], "filter": [5, 7], "channels": 3, "packing": "pairs"}},
  {"name": "wider_filter", "convolution": {"image": [7, 9], "filter": [19, 25], "channels": 1}},
  {"name": "wider_filter_pairs", "convolution": {"image": [7, 9], "filter": [16, 24], "channels": 4, "packing": "pairs"}},
  {"name": "per_channel",  "convolution": {"image": [21, 11], "filter": [9, 6, 4], "channels": 4}},
  {"name": "circ_odd_pairs", "convolution": {"image": [9, 15], "filter": [3, 4], "channels": 4, "mode": "circular"}},
  {"name": "circ_r2c",     "convolution": {"image": [11, 26], "filter": [3, 5, 2], "channels": 2, "mode": "circular"}},
  {"name": "circ_180",     "convolution": {"image": [180, 10], "filter": [5, 3], "channels": 2, "mode": "circular"}},
  {"name": "circ_1620",    "convolution": {"image": [1620, 6], "filter": [5, 3], "channels": 1, "mode": "circular"}},
  {"name": "circ_180_rgba", "convolution": {"image": [180, 10], "filter": [5, 3], "channels": 4, "mode": "circular"}}
], "targets": ["spirv", "hlsl", "msl"]})";

// Kernels of kPlan whose plane has a side that is not a power of two (docs/graphics.md, "The
// padded plane"): "same" planes of 7-smooth sides, r2c and pairs, 1 to 4 channels, filters smaller
// and larger than the image; circular planes of the image's own sides (180 and 1620: column passes
// of unbalanced radices, 15x12 and 15x12x9, which keep the forward and inverse apart, so the
// inverse columns leave the planes in scratch, not in the pixels' buffer, for the inverse rows).
const char* const kAnySizePlanes[] = {"gray", "rgba", "big", "tall", "odd3", "odd3_pairs", "wider_filter",
                                      "wider_filter_pairs", "per_channel", "circ_odd_pairs", "circ_r2c", "circ_180",
                                      "circ_1620", "circ_180_rgba"};

// Half-float planes ("precision": "fp16"): one filter and per channel, r2c and pairs, "same" and
// "circular", padded columns of one pass (2048) and of two (8192, the inner round trip). A
// circular pairs kernel skips no rows: its inverse rows read the planes where, with skipped rows,
// they read them in a binding of their own (they once took the image's float32 elements there).
const char* kPlanFp16 = R"({"kernels": [
  {"name": "gray",         "convolution": {"image": [5, 7],    "filter": [3, 4], "channels": 1, "mode": "same"}, "precision": "fp16"},
  {"name": "rgba",         "convolution": {"image": [13, 11],  "filter": [4, 6], "channels": 4, "packing": "r2c"}, "precision": "fp16"},
  {"name": "rgb",          "convolution": {"image": [16, 8],   "filter": [3, 3, 3], "channels": 3, "mode": "circular"}, "precision": "fp16"},
  {"name": "column_pairs", "convolution": {"image": [1100, 6], "filter": [949, 3], "channels": 3, "packing": "pairs"}, "precision": "fp16"},
  {"name": "tall_pairs",   "convolution": {"image": [4099, 5], "filter": [7, 3], "channels": 4, "packing": "pairs"}, "precision": "fp16"},
  {"name": "col4096_pairs", "convolution": {"image": [2100, 5], "filter": [1900, 3], "channels": 4, "packing": "pairs"}, "precision": "fp16"},
  {"name": "circ_pairs",   "convolution": {"image": [16, 64], "filter": [3, 3], "channels": 3, "mode": "circular", "packing": "pairs"}, "precision": "fp16"},
  {"name": "odd3_pairs",   "convolution": {"image": [27, 45], "filter": [5, 7], "channels": 3, "packing": "pairs"}, "precision": "fp16"},
  {"name": "wider_filter", "convolution": {"image": [7, 9], "filter": [19, 25], "channels": 1}, "precision": "fp16"},
  {"name": "circ_180",     "convolution": {"image": [180, 10], "filter": [5, 3], "channels": 2, "mode": "circular"}, "precision": "fp16"}
], "targets": ["spirv", "hlsl", "msl"]})";

fs::path generate_plan(const char* text, const char* what) {
  fs::path d = fs::temp_directory_path() / (std::string("fftgen_") + what + "_" + std::to_string(std::random_device{}()));
  const fftgen::Plan plan = fftgen::parse_plan(text, std::string(what) + ".json");
  fftgen::write_output(fftgen::generate(plan, std::string(what) + ".json"), d);
  return d;
}

// A generated plan's folder, removed when the test process ends.
struct GeneratedDir {
  fs::path path;
  ~GeneratedDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The plans' kernels, generated once per test process (and only where a test asks).
const fs::path& output_dir() {
  static const GeneratedDir dir{generate_plan(kPlan, "convolution")};
  return dir.path;
}
const fs::path& fp16_dir() {
  static const GeneratedDir dir{generate_plan(kPlanFp16, "convolution_fp16")};
  return dir.path;
}

Device& device() {
  static Device d([] {
    DeviceOptions o;
    o.validation = true;
    return o;
  }());
  return d;
}

Image random_image(uint32_t h, uint32_t w, uint32_t c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Image im{h, w, c, std::vector<float>(uint64_t{h} * w * c)};
  for (float& v : im.values) v = u(rng);
  return im;
}

double rel_l2(const std::vector<float>& got, const std::vector<double>& want) {
  double err = 0, norm = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    err += (got[i] - want[i]) * (got[i] - want[i]);
    norm += want[i] * want[i];
  }
  return std::sqrt(err / norm);
}

}  // namespace

TEST_CASE("convolution: the fused chain equals a direct convolution in double", "[gpu][convolution]") {
  Manifest m = load_manifest(output_dir());
  // "column" has padded columns of 2048 (one column pass, as bloom1024), "col8192" of 8192 and
  // "tall" of 4116 (two column passes per direction), "col4096" of 4096 (one round trip in tiles of
  // 2 columns, tile_swizzled): the shapes whose padding rows are skipped. The "_pairs" kernels pack
  // two channels per complex plane (3 channels: the last plane holds one). kAnySizePlanes' planes
  // have sides that are not powers of two.
  for (const char* name : {"gray", "pair", "rgb", "rgba", "wide", "big", "column", "tall", "col4096", "col8192",
                           "pair_pairs", "rgb_pairs", "rgba_pairs", "column_pairs", "tall_pairs", "col4096_pairs", "odd3",
                           "odd3_pairs", "wider_filter", "wider_filter_pairs", "per_channel", "circ_odd_pairs",
                           "circ_r2c", "circ_180", "circ_1620", "circ_180_rgba"}) {
    const KernelInfo& k = m.kernel(name);
    REQUIRE(k.convolution);
    const ConvolutionInfo& c = *k.convolution;
    INFO(name);
    const Image image = random_image(c.image_h, c.image_w, c.channels, 1);
    // A filter with a zero mean as well as one of all positive taps: the sum cancels in the first.
    for (bool centred : {false, true}) {
      Image filter = random_image(c.filter_h, c.filter_w, c.filter_channels, 2);
      if (centred)
        for (float& v : filter.values) v -= 0.5f;
      const Image out = convolve(device(), m, k, image, filter);
      CHECK(out.height == c.image_h);
      CHECK(out.width == c.image_w);
      CHECK(out.channels == c.channels);
      const std::vector<double> want = direct_convolution(c, image, filter);
      const double err = rel_l2(out.values, want);
      INFO("centred " << centred << ": rel L2 " << err);
      CHECK(err < 2e-6);
      // verify's reference for large sizes: FFTW in double agrees with the direct sum.
      std::vector<float> fftw;
      for (double v : fftw_convolution(c, image, filter)) fftw.push_back(static_cast<float>(v));
      CHECK(rel_l2(fftw, want) < 1e-7);
    }
    std::string messages;
    for (const auto& msg : device().validation_messages()) messages += msg.text + "\n";
    device().clear_validation_messages();
    INFO(messages);
    CHECK(messages.empty());
  }
}

TEST_CASE("convolution: the library's Convolution on an engine's buffers and command buffers", "[gpu][convolution]") {
  Manifest m = load_manifest(output_dir());
  Convolution conv(device(), m, "rgba");
  const ConvolutionInfo& c = conv.geometry();
  const Image image = random_image(c.image_h, c.image_w, c.channels, 5);
  Image filter = random_image(c.filter_h, c.filter_w, c.filter_channels, 6);
  // The engine's buffers: the input at an offset inside a larger one, the output another buffer.
  const VkDeviceSize offset = 256;
  Buffer frame(device(), offset + conv.image_bytes()), result(device(), conv.image_bytes());
  upload(device(), frame.handle(), image.values.data(), conv.image_bytes(), offset);
  const ConvolutionBindings bindings = conv.bind({frame.handle(), offset}, {result.handle(), 0});
  CHECK_THROWS_WITH(conv.record(VK_NULL_HANDLE, bindings), Catch::Contains("rgba") && Catch::Contains("set_filter"));
  CHECK_THROWS_WITH(conv.set_filter(filter.values.data(), 3), Catch::Contains("3 values") && Catch::Contains("24"));
  std::vector<float> out(image.values.size());
  for (int frame_index = 0; frame_index < 2; ++frame_index) {
    if (frame_index == 1)  // a new filter, the bindings kept
      for (float& v : filter.values) v -= 0.5f;
    conv.set_filter(filter.values.data(), filter.values.size());
    device().run_commands([&](VkCommandBuffer cmd) {
      record_transfer_to_compute_barrier(cmd);
      conv.record(cmd, bindings);
      record_compute_barrier(cmd);
      conv.record(cmd, bindings);  // twice in one command buffer: the same result
      record_compute_to_transfer_barrier(cmd);
    });
    download(device(), result.handle(), out.data(), conv.image_bytes());
    INFO("frame " << frame_index);
    CHECK(rel_l2(out, direct_convolution(c, image, filter)) < 2e-6);
  }
  // run(): bind, record and wait in one call.
  std::fill(out.begin(), out.end(), 0.0f);
  fill(device(), result.handle(), kNanPattern, conv.image_bytes());
  conv.run({frame.handle(), offset}, {result.handle(), 0});
  download(device(), result.handle(), out.data(), conv.image_bytes());
  CHECK(rel_l2(out, direct_convolution(c, image, filter)) < 2e-6);
  CHECK_THROWS_WITH(Convolution(device(), m, "rgba__filter"), Catch::Contains("not a convolution"));
  CHECK_THROWS_WITH(Convolution(device(), m, "nope"), Catch::Contains("nope"));
  std::string messages;
  for (const auto& msg : device().validation_messages()) messages += msg.text + "\n";
  device().clear_validation_messages();
  INFO(messages);
  CHECK(messages.empty());
}

TEST_CASE("convolution: the filter is planned as [KH, KW] or [KH, KW, C], and the padded size fits",
          "[gpu][convolution]") {
  Manifest m = load_manifest(output_dir());
  const ConvolutionInfo& rgba = *m.kernel("rgba").convolution;
  CHECK(rgba.padded_h == 16);  // at least 13 + 4 / 2 = 15
  CHECK(rgba.padded_w == 14);  // at least 11 + 6 / 2 = 14
  CHECK(rgba.centre_y == 1);   // (4 - 1) / 2, as scipy's "same"
  CHECK(rgba.centre_x == 2);
  CHECK(m.kernel("rgba__filter").transform == "convolution_filter");
  CHECK(m.kernel("big").convolution->padded_h == 50);   // at least 33 + 33 / 2 = 49; 50 runs its columns as
  // a round trip in one part (16 columns of 50 fit 32 KB), weighed as any pass (padding.cpp), so less than 64
  CHECK(m.kernel("big").convolution->padded_w == 108);  // at least 70 + 70 / 2 = 105
  CHECK(m.kernel("col8192").convolution->padded_h == 8192);  // at least 8103: no 7-smooth length below 8192
  // Every plane holds the least plane "same" needs, and the manifest says why it was chosen.
  for (const KernelInfo& k : m.kernels) {
    const ConvolutionInfo& c = *k.convolution;
    INFO(k.name);
    if (c.mode == "circular") {
      CHECK((c.padded_h == c.image_h && c.padded_w == c.image_w));
      continue;
    }
    CHECK(c.padded_h >= std::max(c.image_h + c.filter_h / 2, c.filter_h));
    CHECK(c.padded_w >= std::max(c.image_w + c.filter_w / 2, c.filter_w));
  }
  nlohmann::json manifest_doc = nlohmann::json::parse(std::ifstream(output_dir() / "manifest.json"));
  for (const auto& k : manifest_doc["kernels"])
    if (k["name"] == "odd3") CHECK_THAT(k["convolution"]["padding"].get<std::string>(), Catch::Contains("same needs >= 29x48"));
  for (const char* name : kAnySizePlanes) {
    const ConvolutionInfo& c = *m.kernel(name).convolution;
    INFO(name << ": " << c.padded_h << " x " << c.padded_w);
    CHECK_FALSE((fftgen::is_power_of_two(c.padded_h) && fftgen::is_power_of_two(c.padded_w)));
  }
  // Packed in pairs: a plane per two channels, and the filter's whole spectrum (c2c of the plane).
  CHECK(rgba.packing == "r2c");
  CHECK(rgba.planes == 4);
  const KernelInfo& pairs = m.kernel("rgba_pairs");
  CHECK(pairs.convolution->packing == "pairs");
  CHECK(pairs.convolution->planes == 2);
  CHECK(m.kernel("rgb_pairs").convolution->planes == 2);
  CHECK(m.kernel("big").convolution->packing == "pairs");  // the default for one filter and C >= 2
  CHECK(m.kernel("gray").convolution->packing == "r2c");   // one channel
  CHECK(m.kernel("rgb").convolution->packing == "r2c");    // a filter per channel
  CHECK(pairs.forward_output.elements == 16 * 14);
  CHECK(m.kernel("rgba").forward_output.elements == 16 * 8);
  // Round trips in tiles of 2 columns ("column": r2c planes of 2048 x 5; "column_pairs": 2048 x 8,
  // as bloom1024) read a filter kept by columns, wider tiles one kept by rows; both kernels of a
  // convolution say so, and both layouts run in the tests above and in verify's.
  for (const char* name : {"column", "column__filter", "column_pairs", "column_pairs__filter", "wide"})
    CHECK(m.kernel(name).convolution->filter_layout == "columns");
  for (const char* name : {"rgba", "rgba__filter", "big", "tall", "tall_pairs__filter"})
    CHECK(m.kernel(name).convolution->filter_layout == "rows");
  // A layout the runtime does not know is refused naming the field and what it allows.
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(output_dir() / "manifest.json"));
  for (auto& k : doc["kernels"])
    if (k["name"] == "column") k["convolution"]["filter_layout"] = "diagonal";
  CHECK_THROWS_AS(parse_manifest(doc, "m.json", output_dir()), ManifestError);
  CHECK_THROWS_WITH(parse_manifest(doc, "m.json", output_dir()),
                    Catch::Contains("filter_layout") && Catch::Contains("rows or columns") && Catch::Contains("column"));
}

TEST_CASE("convolution: the HLSL compiled back to SPIR-V computes what the GLSL path computes",
          "[gpu][convolution][hlsl]") {
  Manifest m = load_manifest(output_dir());
  // col4096_pairs: the round trip of 4096-point columns, whose shared-memory map (tile_swizzled)
  // SPIRV-Cross carries into the HLSL.
  for (const char* name : {"rgba", "rgba_pairs", "col4096_pairs"}) {
    INFO(name);
    const KernelInfo& k = m.kernel(name);
    const ConvolutionInfo& c = *k.convolution;
    const Image image = random_image(c.image_h, c.image_w, c.channels, 3);
    const Image filter = random_image(c.filter_h, c.filter_w, c.filter_channels, 4);
    const std::vector<double> want = direct_convolution(*k.convolution, image, filter);
    // The same chain with every pass's SPIR-V taken from its HLSL.
    const Image out = convolve(device(), m, k, image, filter, fftgen_test::hlsl_loader(m));
    CHECK(rel_l2(out.values, want) < 2e-6);
  }
}

TEST_CASE("convolution: fftgen-vk convolve reads and writes PNG and .npy; bad files are clear errors",
          "[gpu][convolution][cli]") {
  Manifest m = load_manifest(output_dir());
  const fs::path dir = fs::temp_directory_path() / ("fftgen_convolve_" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  const KernelInfo& k = m.kernel("rgba");
  Image image = random_image(13, 11, 4, 5);
  for (float& v : image.values) v = std::round(v * 255.0f) / 255.0f;  // what 8 bits hold
  Image filter = random_image(4, 6, 1, 6);
  for (float& v : filter.values) v = std::round(v * 255.0f) / 255.0f * (1.0f / 12.0f);
  write_image(dir / "in.png", image);
  write_image(dir / "filter.npy", filter);
  ConvolveRequest r;
  r.manifest = output_dir();
  r.kernel = "rgba";
  r.input = dir / "in.png";
  r.filter = dir / "filter.npy";
  r.output = dir / "out.png";
  run_convolve(r);
  const Image got = read_image(dir / "out.png");
  REQUIRE(got.size() == image.size());
  const std::vector<double> want = direct_convolution(*k.convolution, read_image(dir / "in.png"), filter);
  // 8 bits out: clamped to 0..1 and rounded to the nearest 1/255.
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, std::abs(got.values[i] - std::clamp(want[i], 0.0, 1.0)));
  CHECK(worst <= 0.5 / 255 + 1e-6);
  r.output = dir / "out.npy";
  run_convolve(r);
  CHECK(rel_l2(read_image(dir / "out.npy").values, want) < 2e-6);

  SECTION("a PNG that is not a PNG") {
    std::ofstream(dir / "fake.png") << "GIF89a, not a PNG";
    r.input = dir / "fake.png";
    CHECK_THROWS_WITH(run_convolve(r), Catch::Contains("fake.png") && Catch::Contains("not a PNG"));
  }
  SECTION("the wrong number of channels") {
    write_image(dir / "rgb.npy", random_image(13, 11, 3, 7));
    r.input = dir / "rgb.npy";
    CHECK_THROWS_WITH(run_convolve(r), Catch::Contains("[13, 11, 3]") && Catch::Contains("[13, 11, 4]"));
  }
  SECTION("a filter of another size than planned") {
    write_image(dir / "f.npy", random_image(5, 6, 1, 8));
    r.filter = dir / "f.npy";
    CHECK_THROWS_WITH(run_convolve(r), Catch::Contains("filter is [5, 6]") && Catch::Contains("[4, 6]"));
  }
  SECTION("PNGs whose header lies, of 16-bit samples, with a wrong CRC or no IEND: refused before decoding") {
    std::ifstream in(dir / "in.png", std::ios::binary);
    const std::vector<unsigned char> good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(good.size() > 33);
    // The IHDR chunk: its data at bytes 16..28, its CRC (over type and data) at 29..32.
    auto with_ihdr = [&](uint32_t height, uint32_t width, unsigned char depth) {
      std::vector<unsigned char> b = good;
      for (int i = 0; i < 4; ++i) {
        b[16 + i] = static_cast<unsigned char>(width >> (24 - 8 * i));
        b[20 + i] = static_cast<unsigned char>(height >> (24 - 8 * i));
      }
      b[24] = depth;
      uint32_t crc = 0xffffffffu;
      for (size_t i = 12; i < 29; ++i) {
        crc ^= b[i];
        for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
      }
      crc = ~crc;
      for (int i = 0; i < 4; ++i) b[29 + i] = static_cast<unsigned char>(crc >> (24 - 8 * i));
      return b;
    };
    auto write = [&](const std::vector<unsigned char>& bytes) {
      std::ofstream(dir / "bad.png", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                              static_cast<std::streamsize>(bytes.size()));
    };
    auto refused = [&](const std::vector<unsigned char>& bytes, const std::string& message) {
      write(bytes);
      r.input = dir / "bad.png";
      CHECK_THROWS_WITH(run_convolve(r), Catch::Contains("bad.png: " + message));
    };
    write(with_ihdr(13, 11, 8));  // the patch itself keeps a valid PNG
    CHECK(read_image(dir / "bad.png", 13, 11).size() == image.size());
    refused(with_ihdr(16384, 16384, 8), "a PNG of 16384 x 16384 pixels (height x width); the kernel takes 13 x 11");
    refused(with_ihdr(13, 11, 16), "a PNG of 16-bit samples; 8-bit PNGs are read");
    write(with_ihdr(20000, 20000, 8));  // read where no size is expected: a cap on the pixels
    CHECK_THROWS_WITH(read_image(dir / "bad.png"),
                      Catch::Contains("a PNG of 20000 x 20000 pixels; sides from 1 to 65536 and at most 268435456"));
    std::vector<unsigned char> damaged = good;
    damaged[good.size() - 20] ^= 0x55;  // inside the last IDAT
    refused(damaged, "damaged PNG: the CRC of chunk 'IDAT'");
    refused(std::vector<unsigned char>(good.begin(), good.end() - 12), "truncated PNG: the file ends before its IEND chunk");
  }
  SECTION("an image kind it does not know") {
    r.output = dir / "out.bmp";
    CHECK_THROWS_WITH(run_convolve(r), Catch::Contains("out.bmp") && Catch::Contains(".npy") && Catch::Contains(".png"));
  }
  SECTION("a kernel that is not a convolution") {
    r.kernel = "rgba__filter";
    CHECK_THROWS_WITH(run_convolve(r), Catch::Contains("not a convolution"));
  }
  fs::remove_all(dir);
}

TEST_CASE("convolution: fftgen-vk verify checks both kernels of each convolution; bench times the chain",
          "[gpu][convolution][verify]") {
  Manifest m = load_manifest(output_dir());
  VerifyOptions o;
  for (const auto& k : m.kernels) {
    const VerifyResult r = verify_convolution(device(), m, k, o);
    INFO(format_verify_table({r}));
    CHECK(r.pass);
    CHECK(r.rel_l2_forward.value_or(1.0) < 1e-6);
    CHECK(r.rel_l2_forward.value_or(0.0) > 0.0);  // it measured something
  }
  BenchOptions b;
  b.trials = 1;
  b.calls_per_trial = 1;
  b.warmup_ms = 0;
  b.per_pass = true;
  const KernelInfo& rgba = m.kernel("rgba");
  const BenchResult r = bench_convolution(device(), m, rgba, b);
  CHECK(r.error.empty());
  CHECK(r.median_ms > 0);
  CHECK(r.batch == 4);
  // --passes: a share for every pass of the chain, forward then inverse, each timed.
  std::vector<std::string> names;
  for (const auto* passes : {&rgba.forward, &rgba.inverse})
    for (const PassInfo& p : *passes) names.push_back(p.name);
  REQUIRE(r.passes.size() == names.size());
  CHECK(names.size() >= 3);
  for (size_t i = 0; i < names.size(); ++i) {
    CHECK(r.passes[i].name == names[i]);
    CHECK(r.passes[i].ms > 0);
  }
  CHECK_THAT(format_bench_table({r}), Catch::Contains("\n  " + names[0] + " "));
  CHECK(bench_json(device(), {r}, b)["results"][0]["passes"].size() == names.size());
  CHECK(r.direction == "both");
  // A convolution is timed as its chain: a direction asked for is refused, naming why.
  b.direction = Direction::inverse;
  CHECK_THAT(bench_convolution(device(), m, rgba, b).error, Catch::Contains("timed as its whole chain"));
}

TEST_CASE("convolution: half-float planes (precision fp16) stay within verify's bound; out of range is a clear error",
          "[gpu][convolution][fp16]") {
  Manifest m = load_manifest(fp16_dir());
  for (const auto& k : m.kernels) {
    INFO(k.name);
    // Planes and the filter's spectrum are half floats, pixels float32.
    CHECK(k.forward_output.element == ElementType::complex32);
    CHECK(k.forward_input.element == ElementType::float32);
    if (k.transform == "convolution") {
      CHECK(k.inverse.front().bindings.front().element == ElementType::complex32);  // the planes
      CHECK(k.inverse.back().bindings.back().element == ElementType::float32);      // the pixels
    }
    // verify holds both kernels to the fp16 chain bound: a few fp16 round trips of the input.
    const VerifyResult r = verify_convolution(device(), m, k, VerifyOptions{});
    INFO(format_verify_table({r}));
    CHECK(r.pass);
    CHECK(r.half_storage);
    CHECK(r.tolerance < 1e-3);
    // fp32 planes measure about 2e-7 (above): this much error shows the half floats are used.
    CHECK(r.rel_l2_forward.value_or(0.0) > 2e-5);
  }
  for (const char* name : {"gray", "rgba", "rgb", "column_pairs", "tall_pairs", "col4096_pairs", "circ_pairs"}) {
    INFO(name);
    const KernelInfo& k = m.kernel(name);
    const ConvolutionInfo& c = *k.convolution;
    const Image image = random_image(c.image_h, c.image_w, c.channels, 1);
    const Image filter = random_image(c.filter_h, c.filter_w, c.filter_channels, 2);
    const std::vector<double> want = direct_convolution(c, image, filter);
    const Image out = convolve(device(), m, k, image, filter);
    const double err = rel_l2(out.values, want);
    INFO("rel L2 " << err);
    CHECK(err > 2e-5);
    CHECK(err < 1e-3);
    // The HLSL reads the half floats as uints (unpackHalf2x16): compiled back to SPIR-V, it
    // computes the same.
    const Image via_hlsl = convolve(device(), m, k, image, filter, fftgen_test::hlsl_loader(m));
    CHECK(rel_l2(via_hlsl.values, want) < 1e-3);
  }
  // Values beyond 65504 in a plane: the result is not written, the error says why and what to do.
  const KernelInfo& k = m.kernel("rgba");
  Image image = random_image(13, 11, 4, 3);
  for (float& v : image.values) v *= 1e6f;
  CHECK_THROWS_WITH(convolve(device(), m, k, image, random_image(4, 6, 1, 4)),
                    Catch::Contains("not finite") && Catch::Contains("65504") && Catch::Contains("fp32"));
  // A NaN in the image is the image's, not an overflow: it goes through as it would in fp32.
  Image with_nan = random_image(13, 11, 4, 3);
  with_nan.values[5] = std::nanf("");
  CHECK_NOTHROW(convolve(device(), m, k, with_nan, random_image(4, 6, 1, 4)));
  std::string messages;
  for (const auto& msg : device().validation_messages()) messages += msg.text + "\n";
  device().clear_validation_messages();
  INFO(messages);
  CHECK(messages.empty());
}

namespace {

// Frames as storage images ("io": "image", docs/graphics.md "Textures"): one channel (r32f) or two
// packed in pairs (rg32f, rgba32f with b, a = 0), "same" and "circular", filters smaller and as
// large as the frame, padded columns of one round trip and of two passes (8192), fp16 planes.
const char* kPlanImages = R"({"kernels": [
  {"name": "mono",      "io": "image", "convolution": {"image": [37, 50], "filter": [9, 7], "channels": 1}},
  {"name": "mono_circ", "io": "image", "convolution": {"image": [32, 48], "filter": [5, 5], "channels": 1, "mode": "circular"}},
  {"name": "mono_big",  "io": "image", "convolution": {"image": [33, 70], "filter": [33, 70], "channels": 1}},
  {"name": "rg",        "io": "image", "convolution": {"image": [27, 45], "filter": [5, 7], "channels": 2}},
  {"name": "rg_rgba",   "io": "image", "image_format": "rgba32f", "convolution": {"image": [13, 11], "filter": [4, 6], "channels": 2}},
  {"name": "rg_tall",   "io": "image", "convolution": {"image": [8100, 5], "filter": [7, 3], "channels": 2}},
  {"name": "rg16",      "io": "image", "precision": "fp16", "convolution": {"image": [33, 48], "filter": [33, 48], "channels": 2}},
  {"name": "mono16",    "io": "image", "precision": "fp16", "convolution": {"image": [2100, 5], "filter": [1900, 3], "channels": 1}}
], "targets": ["spirv", "hlsl", "msl"]})";

const fs::path& images_dir() {
  static const GeneratedDir dir{generate_plan(kPlanImages, "convolution_images")};
  return dir.path;
}

}  // namespace

TEST_CASE("convolution: frames as storage images (io image) equal a direct convolution in double",
          "[gpu][convolution][textures]") {
  Manifest m = load_manifest(images_dir());
  for (const char* name : {"mono", "mono_circ", "mono_big", "rg", "rg_rgba", "rg_tall", "rg16", "mono16"}) {
    INFO(name);
    const KernelInfo& k = m.kernel(name);
    const ConvolutionInfo& c = *k.convolution;
    // The frame is a storage image (r32f for one channel, rg32f / rgba32f for two); the filter is not.
    REQUIRE(k.input_image(Direction::forward));
    REQUIRE(k.output_image(Direction::inverse));
    CHECK(k.input_image(Direction::forward)->format ==
          (c.channels == 1 ? ImageFormat::r32f : std::string(name) == "rg_rgba" ? ImageFormat::rgba32f : ImageFormat::rg32f));
    CHECK(k.input_image(Direction::forward)->rows_per_transform == c.image_h);
    CHECK_FALSE(m.kernel(c.filter_kernel).uses_images());
    const bool half = is_half(k.forward_output.element);
    const Image image = random_image(c.image_h, c.image_w, c.channels, 1);
    Image filter = random_image(c.filter_h, c.filter_w, c.filter_channels, 2);
    for (float& v : filter.values) v -= 0.5f;
    const std::vector<double> want = direct_convolution(c, image, filter);
    const Image out = convolve(device(), m, k, image, filter);
    const double err = rel_l2(out.values, want);
    INFO("rel L2 " << err);
    CHECK(err < (half ? 1e-3 : 2e-6));
    // The HLSL (RWTexture2D) compiled back to SPIR-V computes the same.
    CHECK(rel_l2(convolve(device(), m, k, image, filter, fftgen_test::hlsl_loader(m)).values, want) < (half ? 1e-3 : 2e-6));
    // verify runs both kernels on images too.
    const VerifyResult r = verify_convolution(device(), m, k, VerifyOptions{});
    INFO(format_verify_table({r}));
    CHECK(r.pass);
    std::string messages;
    for (const auto& msg : device().validation_messages()) messages += msg.text + "\n";
    device().clear_validation_messages();
    INFO(messages);
    CHECK(messages.empty());
  }
}

TEST_CASE("convolution: the library's Convolution binds an engine's image views; buffers are refused",
          "[gpu][convolution][textures]") {
  Manifest m = load_manifest(images_dir());
  Convolution conv(device(), m, "rg");
  const ConvolutionInfo& c = conv.geometry();
  REQUIRE(conv.uses_images());
  CHECK(conv.image_format() == ImageFormat::rg32f);
  const Image image = random_image(c.image_h, c.image_w, c.channels, 5);
  const Image filter = random_image(c.filter_h, c.filter_w, c.filter_channels, 6);
  DeviceImage frame(device(), vk_format(ImageFormat::rg32f), c.image_w, c.image_h);
  DeviceImage result(device(), vk_format(ImageFormat::rg32f), c.image_w, c.image_h);
  upload_image(device(), frame, image.values.data(), image.values.size() * 4);
  conv.set_filter(filter.values.data(), filter.values.size());
  const ConvolutionBindings bindings = conv.bind(frame.view(), result.view());
  device().run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    conv.record(cmd, bindings);
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<float> out(image.values.size());
  download_image(device(), result, out.data(), out.size() * 4);
  CHECK(rel_l2(out, direct_convolution(c, image, filter)) < 2e-6);
  Buffer buffer(device(), conv.image_bytes()), other(device(), conv.image_bytes());
  CHECK_THROWS_WITH(conv.bind({buffer.handle(), 0}, {other.handle(), 0}),
                    Catch::Contains("'rg'") && Catch::Contains("storage images") && Catch::Contains("image views"));
  // A convolution of buffers refuses image views.
  Manifest buffers = load_manifest(output_dir());
  Convolution plain(device(), buffers, "pair_pairs");
  CHECK_FALSE(plain.uses_images());
  CHECK_THROWS_WITH(plain.bind(frame.view(), result.view()),
                    Catch::Contains("'pair_pairs'") && Catch::Contains("buffers of pixels"));
  std::string messages;
  for (const auto& msg : device().validation_messages()) messages += msg.text + "\n";
  device().clear_validation_messages();
  INFO(messages);
  CHECK(messages.empty());
}
