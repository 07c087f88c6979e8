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
# In CI (CI set) only what the CI selection runs is built (the sanitize_ci target, label of the same
# name in tests/CMakeLists.txt, which says what it holds and why); FFTGEN_SANITIZE_ALL=1 builds and
# runs the whole suite.
selection=()
target=()
if [ -n "${CI:-}" ] && [ "${FFTGEN_SANITIZE_ALL:-0}" != 1 ]; then
  selection=(-L sanitize_ci)
  target=(--target sanitize_ci)
fi
cmake --build "$build_dir" --parallel "$(nproc)" "${target[@]}"
# Every report stops the program (-fno-sanitize-recover=all and halt_on_error); leak checking
# stays on. Lavapipe keeps a 128-byte buffer in a static and the Vulkan loader unloads the driver
# at vkDestroyInstance: LeakSanitizer then reports it as a direct leak from "<unknown module>",
# a frame no suppression can name (reaching a named frame needs fast_unwind_on_malloc=0, under
# which lavapipe's queue threads deadlock). Preloading the driver keeps it mapped, so the buffer
# stays reachable and nothing is reported; verify_asan_link_order=0 lets it come before libasan.
# (awk reads to the end: exiting early would kill ldconfig with SIGPIPE, fatal under pipefail)
lavapipe=$(ldconfig -p | awk '/libvulkan_lvp\.so / && !found {print $NF; found = 1}')
if [ -n "$lavapipe" ]; then
  export LD_PRELOAD="$lavapipe${LD_PRELOAD:+:$LD_PRELOAD}"
fi
export ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build_dir" --output-on-failure --timeout 1500 -j "$(nproc)" "${selection[@]}"
