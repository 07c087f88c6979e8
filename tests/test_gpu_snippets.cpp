// The snippets of docs/runtime.md's "Runtime API" (tests/runtime_snippets/*.cpp), run on lavapipe
// with the validation layer on: an engine's own device, a 2D FFT, a convolution, an fp16 kernel.
// tests/docs/check_snippets.py checks that the document shows exactly their code.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "fftgen/generate.hpp"
#include "fftgen/plan.hpp"
#include "fftgen/runtime.hpp"
#include "engine_instance.hpp"
#include "runtime_snippets/snippets.hpp"

using namespace fftgen::vk;

namespace {

const fftgen::GeneratedOutput& generated() {
  static const fftgen::GeneratedOutput out = fftgen::generate(
      fftgen::parse_plan(R"({"targets": ["spirv"], "kernels": [
        {"name": "half1024", "shape": [1024], "precision": "fp16"},
        {"name": "image", "shape": [64, 32]},
        {"name": "slice", "shape": [1024], "placement": "in_place"},
        {"name": "glow", "convolution": {"image": [32, 32], "filter": [7, 7], "channels": 1}}]})",
                         "snippets.json"),
      "snippets.json");
  return out;
}

const Manifest& manifest() {
  static const Manifest m = [] {
    std::vector<MemoryFile> files;
    for (const auto& f : generated().files)
      if (f.name != "manifest.json") files.push_back({f.name, f.bytes.data(), f.bytes.size()});
    return parse_manifest_text(generated().files.back().bytes, "snippets manifest",
                               FileSource::in_memory_files(std::move(files)));
  }();
  return m;
}

Device& device() {
  static Device d([] {
    DeviceOptions o;
    o.validation = true;
    o.pipeline_cache_file = false;
    return o;
  }());
  return d;
}

void require_no_validation_messages() {
  for (const auto& m : device().validation_messages()) FAIL_CHECK(m.text);
  device().clear_validation_messages();
}

}  // namespace

TEST_CASE("snippet: a 2D FFT with typed buffers", "[gpu][snippets]") {
  const auto spectra = snippets::fft_2d(device(), manifest());
  REQUIRE(spectra.size() == 2 * 64 * 32);
  for (size_t i = 0; i < spectra.size(); ++i) {
    const float expected = i % (64 * 32) == 0 ? 64.0f * 32.0f : 0.0f;
    if (std::abs(spectra[i] - std::complex<float>(expected, 0.0f)) > 1e-3f) FAIL("bin " << i << ": " << spectra[i]);
  }
  require_no_validation_messages();
}

TEST_CASE("snippet: a convolution through fftgen::vk::Convolution", "[gpu][snippets]") {
  std::vector<float> image(32 * 32), filter(7 * 7, 0.0f);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>((i * 37) % 11) / 11.0f;
  filter[3 * 7 + 3] = 1.0f;  // the centre: the result is the image
  const auto out = snippets::convolve(device(), manifest(), image, filter);
  REQUIRE(out.size() == image.size());
  for (size_t i = 0; i < image.size(); ++i)
    if (std::abs(out[i] - image[i]) > 1e-4f) FAIL("pixel " << i << ": " << out[i] << " instead of " << image[i]);
  require_no_validation_messages();
}

TEST_CASE("snippet: an fp16 kernel's half-float buffers", "[gpu][snippets]") {
  std::vector<uint16_t> halves(2 * 1024, 0);
  halves[0] = 0x3c00;  // 1.0: an impulse, whose spectrum is 1 everywhere
  const auto spectrum = snippets::fft_fp16(device(), manifest(), halves);
  for (size_t k = 0; k < 1024; ++k)
    if (spectrum[2 * k] != 0x3c00 || (spectrum[2 * k + 1] & 0x7fff) != 0)
      FAIL("bin " << k << ": " << spectrum[2 * k] << ", " << spectrum[2 * k + 1]);
  require_no_validation_messages();
}

TEST_CASE("snippet: an in-place FFT in a slice of a sub-allocated buffer", "[gpu][snippets]") {
  std::vector<std::complex<float>> signals(2 * 1024);
  signals[0] = 1.0f;           // an impulse: its spectrum is 1 everywhere
  signals[1024 + 1] = 1.0f;    // delayed by one: W^k
  const auto spectra = snippets::in_place_view(device(), manifest(), signals);
  for (size_t k = 0; k < 1024; ++k) {
    if (std::abs(spectra[k] - std::complex<float>(1.0f, 0.0f)) > 1e-4f) FAIL("bin " << k << ": " << spectra[k]);
    const auto w = std::polar(1.0, -2 * M_PI * double(k) / 1024);
    if (std::abs(std::complex<double>(spectra[1024 + k]) - w) > 1e-4) FAIL("bin " << k << ": " << spectra[1024 + k]);
  }
  require_no_validation_messages();
}

TEST_CASE("snippet: an engine's own device, with the features it enabled", "[gpu][snippets]") {
  fftgen_test::EngineInstance engine;
  const auto [physical_device, family] = engine.compute_device();
  CHECK(snippets::own_device(engine.instance, physical_device, family, manifest()) == "storageBuffer16BitAccess");
  for (const auto& m : engine.messages) FAIL_CHECK(m);
}
