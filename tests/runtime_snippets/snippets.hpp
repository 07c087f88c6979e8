// The code of docs/runtime.md's "Runtime API" section: each function's body between the markers
// `// [snippet]` and `// [/snippet]` is what the document shows (tests/docs/check_snippets.py
// compares them), and tests/test_gpu_snippets.cpp runs each on lavapipe, so the document cannot rot.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "fftgen/runtime.hpp"

namespace snippets {

/// An engine's own VkDevice (16-bit storage enabled) adopted by the runtime, an fp16 kernel made on
/// it; returns the features the runtime saw enabled.
std::string own_device(VkInstance instance, VkPhysicalDevice physical_device, uint32_t family,
                       const fftgen::vk::Manifest& manifest);
/// The forward 2D FFT of two 64 x 32 images of ones: the spectra.
std::vector<std::complex<float>> fft_2d(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest);
/// A convolution of `image` (float32 [32, 32]) with `filter` (float32 [7, 7]).
std::vector<float> convolve(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest,
                            const std::vector<float>& image, const std::vector<float>& filter);
/// The forward FFT of 1024 complex32 values (`halves`: re, im as IEEE half floats).
std::vector<uint16_t> fft_fp16(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest,
                               const std::vector<uint16_t>& halves);

/// The forward FFT of two 1024-point `signals`, in place, in a slice of a larger buffer, 1040
/// complex values apart: the spectra.
std::vector<std::complex<float>> in_place_view(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest,
                                               const std::vector<std::complex<float>>& signals);

}  // namespace snippets
