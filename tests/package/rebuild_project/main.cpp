// Prints how many files the embedded kernels hold, so the test can compare with what fftgen wrote.
#include <cstdio>
#include <iterator>

#include "fftgen_kernels.hpp"

int main() {
  std::printf("%zu embedded files, manifest of %zu bytes\n", std::size(fftgen_kernels::files),
              fftgen_kernels::manifest.size());
  return 0;
}
