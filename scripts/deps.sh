#!/usr/bin/env bash
# Installs the Debian packages fftgen builds and tests with, if any is missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  nlohmann-json3-dev libfmt-dev libcli11-dev libkainjow-mustache-dev catch2
  glslang-dev glslang-tools spirv-tools spirv-headers libspirv-cross-c-shared-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  libfftw3-dev libstb-dev libvkfft-dev python3-jsonschema libssl-dev chromium
)
# The libFuzzer harnesses (tests/fuzz, docs/fuzzing.md) need clang: FFTGEN_FUZZ=1 bash scripts/deps.sh
if [ "${FFTGEN_FUZZ:-0}" = 1 ]; then
  packages+=(clang)
fi
# Optional: the photographs examples/bloom blooms with --photo (scikit-image's astronaut.png and
# coffee.png; without them it blooms its synthetic scene and the test example_bloom_photo is
# skipped): FFTGEN_PHOTOS=1 bash scripts/deps.sh
if [ "${FFTGEN_PHOTOS:-0}" = 1 ]; then
  packages+=(python3-skimage)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "fftgen: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
