#!/usr/bin/env bash
# The main job: install what is missing, build, generate the built-in default plan for every
# target into out/default, and verify every kernel on the local Vulkan device (lavapipe when
# there is no GPU) against FFTW in double.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
build_dir="${FFTGEN_BUILD_DIR:-build}"
"$build_dir/generator/fftgen" -o out/default
"$build_dir/runtime/fftgen-vk" verify out/default/manifest.json
