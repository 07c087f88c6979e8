// Codelet DAGs: numerics against a direct DFT, operation counts against FFTW's genfft no-twiddle
// codelets, and the emitted GLSL (no multiplications in radix 4; every radix compiles).
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "fftgen/codelet.hpp"
#include "fftgen/emit_codelet.hpp"

using namespace fftgen;
using cd = std::complex<double>;

namespace {

std::vector<cd> direct_dft(const std::vector<cd>& x, Direction dir) {
  const size_t n = x.size();
  const double sign = dir == Direction::forward ? -1.0 : 1.0;
  std::vector<cd> out(n);
  for (size_t k = 0; k < n; ++k) {
    cd s = 0;
    for (size_t r = 0; r < n; ++r) {
      // Reduce r*k mod n first so the angle is small and exact in its integer part.
      double ang = sign * 2.0 * M_PI * static_cast<double>((r * k) % n) / static_cast<double>(n);
      s += x[r] * cd(std::cos(ang), std::sin(ang));
    }
    out[k] = s;
  }
  return out;
}

std::string dir_name(Direction d) { return d == Direction::forward ? "forward" : "inverse"; }

const char* kGlslang = "/usr/bin/glslangValidator";

// Wraps a codelet function in a compute shader and compiles it with glslangValidator.
int compile_with_glslang(const std::string& function, const std::string& fname, uint32_t radix,
                         std::string& log) {
  std::string src = "#version 450\n"
                    "layout(local_size_x = 64) in;\n"
                    "layout(std430, binding = 0) buffer Data { vec2 data[]; };\n" +
                    function +
                    "void main() {\n"
                    "  uint base = gl_GlobalInvocationID.x * " + std::to_string(radix) + "u;\n";
  for (uint32_t r = 0; r < radix; ++r)
    src += "  vec2 v" + std::to_string(r) + " = data[base + " + std::to_string(r) + "u];\n";
  src += "  " + fname + "(";
  for (uint32_t r = 0; r < radix; ++r) src += (r ? ", v" : "v") + std::to_string(r);
  src += ");\n";
  for (uint32_t r = 0; r < radix; ++r)
    src += "  data[base + " + std::to_string(r) + "u] = v" + std::to_string(r) + ";\n";
  src += "}\n";

  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("fftgen_test_codelet_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path comp = dir / (fname + ".comp");
  fs::path spv = dir / (fname + ".spv");
  fs::path out = dir / (fname + ".log");
  { std::ofstream(comp) << src; }
  std::string cmd = std::string(kGlslang) + " -V --target-env vulkan1.1 -S comp \"" + comp.string() +
                    "\" -o \"" + spv.string() + "\" > \"" + out.string() + "\" 2>&1";
  int rc = std::system(cmd.c_str());
  std::ifstream in(out);
  log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (rc != 0) log = src + "\n" + log;
  fs::remove_all(dir);
  return rc;
}

}  // namespace

TEST_CASE("codelets match a direct DFT", "[codelet]") {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (uint32_t radix : kSupportedRadices) {
    for (Direction dir : {Direction::forward, Direction::inverse}) {
      INFO("radix " << radix << " " << dir_name(dir));
      codelet::Dag dag = codelet::make_dft(radix, dir);
      REQUIRE(dag.radix == radix);
      REQUIRE(dag.outputs.size() == 2 * radix);
      for (int trial = 0; trial < 5; ++trial) {
        std::vector<cd> x(radix);
        for (auto& v : x) v = {uni(rng), uni(rng)};
        std::vector<cd> got = codelet::evaluate(dag, x);
        std::vector<cd> want = direct_dft(x, dir);
        double err = 0;
        for (size_t k = 0; k < radix; ++k) err = std::max(err, std::abs(got[k] - want[k]));
        CHECK(err <= 1e-12 * radix);
      }
      // Each unit impulse gives one column of the DFT matrix.
      for (uint32_t r = 0; r < radix; ++r) {
        std::vector<cd> x(radix, 0.0);
        x[r] = 1.0;
        std::vector<cd> got = codelet::evaluate(dag, x);
        std::vector<cd> want = direct_dft(x, dir);
        for (size_t k = 0; k < radix; ++k) CHECK(std::abs(got[k] - want[k]) <= 1e-12 * radix);
      }
    }
  }
}

TEST_CASE("codelet DAGs are topologically ordered and hold only reachable nodes", "[codelet]") {
  for (uint32_t radix : kSupportedRadices) {
    codelet::Dag dag = codelet::make_dft(radix, Direction::forward);
    for (size_t i = 0; i < dag.nodes.size(); ++i) {
      const auto& n = dag.nodes[i];
      CHECK(n.a < static_cast<int>(i));
      CHECK(n.b < static_cast<int>(i));
    }
    std::vector<char> live(dag.nodes.size(), 0);
    for (int o : dag.outputs) live[o] = 1;
    for (size_t i = dag.nodes.size(); i-- > 0;)
      if (live[i]) {
        if (dag.nodes[i].a >= 0) live[dag.nodes[i].a] = 1;
        if (dag.nodes[i].b >= 0) live[dag.nodes[i].b] = 1;
      }
    for (size_t i = 0; i < dag.nodes.size(); ++i) CHECK(live[i]);
  }
}

TEST_CASE("codelet operation counts reach FFTW genfft's", "[codelet]") {
  struct Bound {
    uint32_t radix, adds, muls;
  };
  // FFTW 3.3 genfft no-twiddle codelets n1_R (dft/scalar/codelets/n1_*.c headers).
  const Bound bounds[] = {{2, 4, 0}, {4, 16, 0}, {8, 52, 4}, {16, 144, 24}, {32, 372, 84}, {64, 912, 248}};
  for (const Bound& b : bounds) {
    for (Direction dir : {Direction::forward, Direction::inverse}) {
      INFO("radix " << b.radix << " " << dir_name(dir));
      codelet::OpCounts c = codelet::count_ops(codelet::make_dft(b.radix, dir));
      CHECK(c.adds <= b.adds);
      CHECK(c.muls <= b.muls);
      CHECK(c.negs == 0);
      CHECK(c.fma_candidates <= c.adds);
    }
  }
}

TEST_CASE("codelet construction is deterministic", "[codelet]") {
  for (uint32_t radix : kSupportedRadices) {
    codelet::Dag a = codelet::make_dft(radix, Direction::inverse);
    codelet::Dag b = codelet::make_dft(radix, Direction::inverse);
    CHECK(emit_codelet_glsl(a, "f") == emit_codelet_glsl(b, "f"));
  }
}

TEST_CASE("make_dft rejects unsupported radices", "[codelet]") {
  CHECK_THROWS(codelet::make_dft(3, Direction::forward));
  CHECK_THROWS(codelet::make_dft(128, Direction::forward));
}

TEST_CASE("GLSL float literals round-trip and are float literals", "[codelet][emit]") {
  CHECK(glsl_float_literal(2.0) == "2.0");
  CHECK(glsl_float_literal(-1.0) == "-1.0");
  for (double v : {std::sqrt(0.5), std::cos(M_PI / 8), std::sin(M_PI / 32), 1e-20, -3.5e12}) {
    std::string s = glsl_float_literal(v);
    CHECK(s.find_first_of(".e") != std::string::npos);
    CHECK(std::strtof(s.c_str(), nullptr) == static_cast<float>(v));
  }
}

TEST_CASE("emitted radix-4 GLSL has no multiplication", "[codelet][emit]") {
  for (Direction dir : {Direction::forward, Direction::inverse}) {
    std::string text = emit_codelet_glsl(codelet::make_dft(4, dir), "fft4");
    CHECK(text.find('*') == std::string::npos);
    CHECK(text.find("void fft4(inout vec2 x0, inout vec2 x1, inout vec2 x2, inout vec2 x3)") == 0);
  }
}

TEST_CASE("emitted GLSL assigns outputs only after every temporary", "[codelet][emit]") {
  std::string text = emit_codelet_glsl(codelet::make_dft(16, Direction::forward), "fft16");
  size_t last_temp = text.rfind("float t");
  size_t first_out = text.find("  x0 = vec2(");
  REQUIRE(last_temp != std::string::npos);
  REQUIRE(first_out != std::string::npos);
  CHECK(last_temp < first_out);
}

TEST_CASE("emitted GLSL of every codelet compiles with glslang", "[codelet][emit][glslang]") {
  REQUIRE(std::filesystem::exists(kGlslang));
  for (uint32_t radix : kSupportedRadices) {
    for (Direction dir : {Direction::forward, Direction::inverse}) {
      std::string fname = "fft" + std::to_string(radix) + "_" + dir_name(dir);
      std::string text = emit_codelet_glsl(codelet::make_dft(radix, dir), fname);
      std::string log;
      int rc = compile_with_glslang(text, fname, radix, log);
      INFO(log);
      CHECK(rc == 0);
    }
  }
}
