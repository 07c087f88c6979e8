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
  for (uint32_t radix : codelet::kCodeletRadices) {
    for (Direction dir : {Direction::forward, Direction::inverse}) {
      INFO("radix " << radix << " " << dir_name(dir));
      codelet::Dag dag = codelet::make_dft(radix, dir);
      REQUIRE(dag.radix == radix);
      REQUIRE(dag.outputs.size() == 2 * radix);
      for (int trial = 0; trial < 20; ++trial) {
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

// The DAG evaluated as the GPU does: every constant rounded to float, every operation in float.
std::vector<cd> evaluate_fp32(const codelet::Dag& dag, const std::vector<cd>& x) {
  std::vector<float> v(dag.nodes.size());
  for (size_t i = 0; i < dag.nodes.size(); ++i) {
    const codelet::Node& n = dag.nodes[i];
    switch (n.op) {
      case codelet::Op::input: {
        const cd& c = x[static_cast<size_t>(n.index / 2)];
        v[i] = static_cast<float>(n.index % 2 == 0 ? c.real() : c.imag());
        break;
      }
      case codelet::Op::constant: v[i] = static_cast<float>(n.value); break;
      case codelet::Op::add: v[i] = v[n.a] + v[n.b]; break;
      case codelet::Op::sub: v[i] = v[n.a] - v[n.b]; break;
      case codelet::Op::mul: v[i] = static_cast<float>(n.value) * v[n.a]; break;
      case codelet::Op::neg: v[i] = -v[n.a]; break;
    }
  }
  std::vector<cd> out(dag.radix);
  for (size_t k = 0; k < dag.radix; ++k) out[k] = {v[dag.outputs[2 * k]], v[dag.outputs[2 * k + 1]]};
  return out;
}

TEST_CASE("codelets in fp32 are about as accurate as a direct DFT in fp32", "[codelet]") {
  // The prime codelets trade multiplications for residue transforms; in float they must stay
  // close to the straightforward sum with float twiddles (measured: within 10% up to radix 13;
  // above, up to 43%: radix 47, whose cosine part is a dense 22 x 22 residue block). The absolute
  // bound above radix 16 is the GPU tests' (test_gpu_anysize): direct float sums of 29 points and
  // more exceed 1.2e-7.
  std::mt19937_64 rng(777);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (uint32_t radix : codelet::kCodeletRadices) {
    INFO("radix " << radix);
    codelet::Dag dag = codelet::make_dft(radix, Direction::forward);
    double err_codelet = 0, err_direct = 0, norm = 0;
    for (int trial = 0; trial < 500; ++trial) {
      std::vector<cd> x(radix);
      for (auto& v : x) v = {static_cast<float>(uni(rng)), static_cast<float>(uni(rng))};
      std::vector<cd> want = direct_dft(x, Direction::forward);
      std::vector<cd> got = evaluate_fp32(dag, x);
      for (size_t k = 0; k < radix; ++k) {
        std::complex<float> direct = 0;
        for (size_t r = 0; r < radix; ++r) {
          double ang = -2.0 * M_PI * static_cast<double>((r * k) % radix) / static_cast<double>(radix);
          direct += std::complex<float>(x[r]) * std::complex<float>(std::polar(1.0, ang));
        }
        err_codelet += std::norm(got[k] - want[k]);
        err_direct += std::norm(cd(direct) - want[k]);
        norm += std::norm(want[k]);
      }
    }
    CHECK(std::sqrt(err_codelet / norm) <= (radix <= 16 ? 1.25 : 1.5) * std::sqrt(err_direct / norm));
    CHECK(std::sqrt(err_codelet / norm) <= (radix <= 16 ? 1.2e-7 : 4e-8 * (2.0 + std::log2(double(radix)))));
  }
}

TEST_CASE("codelet DAGs are topologically ordered and hold only reachable nodes", "[codelet]") {
  for (uint32_t radix : codelet::kCodeletRadices) {
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
  struct Expected {
    uint32_t radix, adds, muls;  // what make_dft builds
    uint32_t fftw_adds, fftw_muls;
  };
  // FFTW 3.3 genfft no-twiddle codelets n1_R without FMA, read from the header comments of
  // dft/scalar/codelets/n1_R.c ("This function contains N FP additions, M FP multiplications",
  // second half of each file; generated-codelet copies of FFTW 3.3.x in amd/amd-fftw and
  // e-kwsm/fj-fftw3 on GitHub). Radix 7, 11 and 13 need fewer multiplications than FFTW's.
  // FFTW has no n1_R for the primes above 13 (next test).
  const Expected expected[] = {
      {2, 4, 0, 4, 0},         {3, 12, 4, 12, 4},       {4, 16, 0, 16, 0},       {5, 32, 12, 32, 12},
      {6, 36, 8, 36, 8},       {7, 60, 28, 60, 36},     {8, 52, 4, 52, 4},       {9, 80, 40, 80, 40},
      {10, 84, 24, 84, 24},    {11, 140, 84, 140, 100}, {12, 96, 16, 96, 16},    {13, 176, 60, 176, 68},
      {15, 156, 56, 156, 56},  {16, 144, 24, 144, 24},  {32, 372, 84, 372, 84},  {64, 912, 248, 912, 248}};
  REQUIRE(std::size(expected) == std::size(codelet::kFftwN1Counts));
  for (size_t i = 0; i < std::size(expected); ++i) {
    const Expected& e = expected[i];
    INFO("radix " << e.radix);
    CHECK(e.adds <= e.fftw_adds);
    CHECK(e.muls <= e.fftw_muls);
    // The table --explain prints holds the same FFTW figures.
    CHECK(codelet::kFftwN1Counts[i].radix == e.radix);
    CHECK(codelet::kFftwN1Counts[i].adds == e.fftw_adds);
    CHECK(codelet::kFftwN1Counts[i].muls == e.fftw_muls);
    for (Direction dir : {Direction::forward, Direction::inverse}) {
      INFO(dir_name(dir));
      codelet::OpCounts c = codelet::count_ops(codelet::make_dft(e.radix, dir));
      CHECK(c.adds == e.adds);
      CHECK(c.muls == e.muls);
      CHECK(c.negs == 0);
      CHECK(c.fma_candidates <= c.adds);
    }
  }
}

TEST_CASE("prime codelets above 13 cost less than the paired direct sums", "[codelet]") {
  // The paired sums written out (genfft's dft_prime without the convolutions), m = (p - 1) / 2:
  // 4m additions to pair, 2m for X_0, 2m^2 for the cosine sums with x_0, 2m(m - 1) for the sine
  // sums, 4m to combine; 4m^2 multiplications. Where (p - 1) / 2 is a prime of 23 or more (47, 59)
  // the residue forms cost more additions, and the sums stay written out.
  uint32_t checked = 0;
  for (uint32_t p : codelet::kCodeletRadices) {
    if (p <= 13 || (p & (p - 1)) == 0 || fftgen::largest_prime_factor(p) != p) continue;
    ++checked;
    const uint32_t m = (p - 1) / 2;
    for (Direction dir : {Direction::forward, Direction::inverse}) {
      INFO("radix " << p << " " << dir_name(dir));
      const codelet::OpCounts c = codelet::count_ops(codelet::make_dft(p, dir));
      const codelet::OpCounts sums = codelet::prime_sums_written_out(p, dir);
      CHECK(sums.adds == 4 * m * m + 8 * m);
      CHECK(sums.muls == 4 * m * m);
      CHECK(c.adds <= sums.adds);
      CHECK(c.muls <= sums.muls);
      CHECK(c.negs == 0);
      // The residue forms pay off most where (p - 1) / 2 has small factors: 17, 31, 61 take under
      // 4/5 of the operations.
      if (p == 17 || p == 31 || p == 61) CHECK(5 * (c.adds + c.muls) < 4 * (8 * m * m + 8 * m));
    }
  }
  CHECK(checked == 12);  // 17 ... 61
}

TEST_CASE("codelet construction is deterministic", "[codelet]") {
  for (uint32_t radix : codelet::kCodeletRadices) {
    codelet::Dag a = codelet::make_dft(radix, Direction::inverse);
    codelet::Dag b = codelet::make_dft(radix, Direction::inverse);
    CHECK(emit_codelet_glsl(a, "f") == emit_codelet_glsl(b, "f"));
  }
}

TEST_CASE("make_dft rejects radices without a codelet", "[codelet]") {
  for (uint32_t radix : {0u, 1u, 14u, 18u, 25u, 67u, 128u})
    CHECK_THROWS_AS(codelet::make_dft(radix, Direction::forward), std::invalid_argument);
}

TEST_CASE("codelets multiply only by non-trivial constants", "[codelet]") {
  for (uint32_t radix : codelet::kCodeletRadices) {
    for (Direction dir : {Direction::forward, Direction::inverse}) {
      INFO("radix " << radix << " " << dir_name(dir));
      codelet::Dag dag = codelet::make_dft(radix, dir);
      for (const codelet::Node& n : dag.nodes) {
        if (n.op != codelet::Op::mul) continue;
        CHECK(std::fabs(n.value) > 1e-9);
        CHECK(std::fabs(std::fabs(n.value) - 1.0) > 1e-9);
        CHECK(dag.nodes[n.a].op != codelet::Op::constant);
      }
    }
  }
}

TEST_CASE("constants at multiples of pi/6 are exact", "[codelet]") {
  // cos(2*pi/3) = -1/2, where std::sin(pi/6) gives 1/2 - 2^-54.
  for (uint32_t radix : {3u, 6u, 12u, 15u}) {
    INFO("radix " << radix);
    codelet::Dag dag = codelet::make_dft(radix, Direction::forward);
    bool half = false;
    for (const codelet::Node& n : dag.nodes) half |= n.op == codelet::Op::mul && n.value == 0.5;
    CHECK(half);
  }
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
  for (uint32_t radix : codelet::kCodeletRadices) {
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
