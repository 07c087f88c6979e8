#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every CTest test (the GPU-labelled
# ones on the local Vulkan device; lavapipe when there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
build_dir="${FFTGEN_BUILD_DIR:-build}"
ctest --test-dir "$build_dir" --output-on-failure --timeout 1500 -j "$(nproc)"
# Then the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, in build-sanitize/
# (scripts/test_sanitize.sh; FFTGEN_SKIP_SANITIZE=1 skips it for a quick local run).
if [ "${FFTGEN_SKIP_SANITIZE:-0}" != 1 ]; then
  bash scripts/test_sanitize.sh
fi
