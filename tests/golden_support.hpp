// Golden files of emitted kernels (tests/golden/): each compared byte for byte with what the
// generator writes now, or rewritten with FFTGEN_UPDATE_GOLDEN=1 (review the diff before committing).
#pragma once
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "fftgen/generate.hpp"

namespace fftgen_test {

inline bool updating_golden() { return std::getenv("FFTGEN_UPDATE_GOLDEN") != nullptr; }

/// Checks (or, updating, writes) every file of `out` whose extension is one of `extensions`
/// against tests/golden/<name>; returns how many were compared.
inline size_t check_golden_files(const fftgen::GeneratedOutput& out, const std::set<std::string>& extensions) {
  const std::filesystem::path dir = std::filesystem::path(FFTGEN_TEST_DIR) / "golden";
  size_t compared = 0;
  for (const auto& file : out.files) {
    if (!extensions.count(std::filesystem::path(file.name).extension().string())) continue;
    const auto path = dir / file.name;
    if (updating_golden()) {
      std::filesystem::create_directories(dir);
      std::ofstream(path, std::ios::binary) << file.bytes;
      continue;
    }
    INFO("golden file " << path << " (refresh with FFTGEN_UPDATE_GOLDEN=1 after an intended change)");
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    std::stringstream ss;
    ss << in.rdbuf();
    CHECK(ss.str() == file.bytes);
    ++compared;
  }
  return compared;
}

}  // namespace fftgen_test
