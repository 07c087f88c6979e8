#!/usr/bin/env bash
# The test suite again under AddressSanitizer + UndefinedBehaviorSanitizer (FFTGEN_SANITIZE=ON),
# in its own build folder (build-sanitize/, override with FFTGEN_SANITIZE_BUILD_DIR); extra
# arguments go to cmake's configure step (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
#
# Not built there, so not run under the sanitizers (both run in the normal suite):
# - the package_* tests (FFTGEN_INSTALL=OFF): they install fftgen and build consumer projects
#   with the plain compiler, so nothing of theirs would be sanitized; they take ~10 minutes.
# - bench_compare_images and the bench drivers (FFTGEN_BUILD_BENCH=OFF): a timing comparison with
#   VkFFT; the code it runs (generation, fftgen-vk verify and bench) is covered by the other tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${FFTGEN_SANITIZE_BUILD_DIR:-build-sanitize}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFFTGEN_SANITIZE=ON \
      -DFFTGEN_BUILD_BENCH=OFF -DFFTGEN_INSTALL=OFF "$@" >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
# Every report stops the program (-fno-sanitize-recover=all and halt_on_error); leak checking
# stays on, with lavapipe's one known exit leak suppressed (scripts/lsan.supp says which).
# fast_unwind_on_malloc=0: full allocation stacks, so that the suppression's frame is seen.
export ASAN_OPTIONS="detect_leaks=1:fast_unwind_on_malloc=0:strict_string_checks=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build_dir" --output-on-failure --timeout 1500 -j "$(nproc)"
