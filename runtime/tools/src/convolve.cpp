#include "fftgen/vktools/convolve.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/error.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/vktools/npy.hpp"

namespace fftgen::vk {

namespace {

bool has_extension(const std::filesystem::path& path, const char* ext) {
  std::string e = path.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e == ext;
}

[[noreturn]] void unknown_kind(const std::filesystem::path& path) {
  throw ImageError(path.string() + ": unknown image kind '" + path.extension().string() +
                   "'; allowed: .npy (float32 [H, W] or [H, W, C]) and .png (8-bit)");
}

Image read_png(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ImageError(path.string() + ": cannot open");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kSignature, 8) != 0)
    throw ImageError(path.string() + ": not a PNG file (no PNG signature)");
  int w = 0, h = 0, n = 0;
  unsigned char* pixels = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &n, 0);
  if (!pixels) throw ImageError(path.string() + ": unreadable PNG (" + stbi_failure_reason() + ")");
  Image image{static_cast<uint32_t>(h), static_cast<uint32_t>(w), static_cast<uint32_t>(n), {}};
  image.values.resize(image.size());
  for (uint64_t i = 0; i < image.size(); ++i) image.values[i] = pixels[i] / 255.0f;
  stbi_image_free(pixels);
  return image;
}

void write_png(const std::filesystem::path& path, const Image& image) {
  std::vector<unsigned char> pixels(image.size());
  for (uint64_t i = 0; i < image.size(); ++i)
    pixels[i] = static_cast<unsigned char>(std::lround(std::clamp(image.values[i], 0.0f, 1.0f) * 255.0f));
  std::vector<char> bytes;
  auto append = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<char>*>(context);
    out->insert(out->end(), static_cast<char*>(data), static_cast<char*>(data) + size);
  };
  if (!stbi_write_png_to_func(append, &bytes, static_cast<int>(image.width), static_cast<int>(image.height),
                              static_cast<int>(image.channels), pixels.data(),
                              static_cast<int>(image.width * image.channels)))
    throw ImageError(path.string() + ": PNG encoding failed");
  const std::filesystem::path tmp = path.string() + ".fftgen-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw ImageError(path.string() + ": cannot write");
  }
  std::filesystem::rename(tmp, path);
}

std::string dims(uint32_t h, uint32_t w, uint32_t c) {
  return "[" + std::to_string(h) + ", " + std::to_string(w) + (c == 1 ? "" : ", " + std::to_string(c)) + "]";
}

}  // namespace

Image read_image(const std::filesystem::path& path) {
  if (has_extension(path, ".png")) return read_png(path);
  if (!has_extension(path, ".npy")) unknown_kind(path);
  NpyArray a = read_npy(path);
  if (a.type != NpyType::float32 || a.shape.size() < 2 || a.shape.size() > 3)
    throw ImageError(path.string() + ": an image .npy is float32 [H, W] or [H, W, C]; this one is " +
                     describe(a.type) + " with " + std::to_string(a.shape.size()) + " dimensions");
  for (uint64_t d : a.shape)
    if (d == 0 || d > 65536) throw ImageError(path.string() + ": a side of " + std::to_string(d) + " is out of range");
  Image image{static_cast<uint32_t>(a.shape[0]), static_cast<uint32_t>(a.shape[1]),
              a.shape.size() == 3 ? static_cast<uint32_t>(a.shape[2]) : 1u, std::move(a.values)};
  return image;
}

void write_image(const std::filesystem::path& path, const Image& image) {
  if (has_extension(path, ".png")) return write_png(path, image);
  if (!has_extension(path, ".npy")) unknown_kind(path);
  NpyArray a{NpyType::float32, {image.height, image.width}, image.values};
  if (image.channels > 1) a.shape.push_back(image.channels);
  write_npy(path, a);
}

std::vector<double> direct_convolution(const ConvolutionInfo& c, const Image& image, const Image& filter) {
  const int64_t h = image.height, w = image.width, ch = image.channels;
  const int64_t kh = filter.height, kw = filter.width, cy = c.centre_y, cx = c.centre_x;
  const bool circular = c.mode == "circular";
  std::vector<double> out(image.size(), 0.0);
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int64_t k = 0; k < ch; ++k) {
        double sum = 0;
        for (int64_t ky = 0; ky < kh; ++ky)
          for (int64_t kx = 0; kx < kw; ++kx) {
            int64_t sy = y + cy - ky, sx = x + cx - kx;
            if (circular) sy = ((sy % h) + h) % h, sx = ((sx % w) + w) % w;
            if (sy < 0 || sy >= h || sx < 0 || sx >= w) continue;
            const double f = filter.values[(ky * kw + kx) * filter.channels + (filter.channels == 1 ? 0 : k)];
            sum += f * image.values[(sy * w + sx) * ch + k];
          }
        out[(y * w + x) * ch + k] = sum;
      }
  return out;
}

Image convolve(Device& device, const Manifest& manifest, const KernelInfo& apply, const Image& image,
               const Image& filter, const ShaderLoader& loader) {
  if (!apply.convolution || apply.transform != "convolution")
    throw UsageError("kernel '" + apply.name + "' is not a convolution (transform " + apply.transform +
                     "); `fftgen-vk convolve` takes the kernel a plan's \"convolution\" field names");
  const ConvolutionInfo& c = *apply.convolution;
  if (image.height != c.image_h || image.width != c.image_w || image.channels != c.channels)
    throw UsageError("the image is " + dims(image.height, image.width, image.channels) + "; kernel '" + apply.name +
                     "' convolves images of " + dims(c.image_h, c.image_w, c.channels) + " ([H, W, C], C = " +
                     std::to_string(c.channels) + " channels)");
  if (filter.height != c.filter_h || filter.width != c.filter_w || filter.channels != c.filter_channels)
    throw UsageError("the filter is " + dims(filter.height, filter.width, filter.channels) + "; kernel '" +
                     apply.name + "' was planned for a filter of " + dims(c.filter_h, c.filter_w, c.filter_channels) +
                     (c.filter_channels == 1 ? " (one channel for every image channel)" : " (one channel per image channel)"));
  const KernelInfo& filter_info = manifest.kernel(c.filter_kernel);
  Kernel filter_kernel(device, filter_info, manifest.files, loader);
  Kernel apply_kernel(device, apply, manifest.files, loader);

  const uint64_t spectrum_bytes = apply.forward_output.bytes();
  Buffer filter_in(device, filter.size() * 4), filter_spectrum(device, spectrum_bytes * c.filter_channels);
  Buffer image_in(device, image.size() * 4), spectrum(device, spectrum_bytes * c.channels),
      image_out(device, image.size() * 4);
  upload(device, filter_in.handle(), filter.values.data(), filter.size() * 4);
  upload(device, image_in.handle(), image.values.data(), image.size() * 4);

  auto bind = [](const Kernel& kernel, Direction d, const Buffer& in, const Buffer& out, uint32_t batch,
                 VkBuffer filter_spectrum_buffer) {
    KernelIo io;
    io.input = {in.handle(), 0};
    io.output = {out.handle(), 0};
    io.filter = {filter_spectrum_buffer, 0};
    io.max_batch = batch;
    io.directions = {d};
    return kernel.bind(io);
  };
  const KernelBindings filter_bindings =
      bind(filter_kernel, Direction::forward, filter_in, filter_spectrum, c.filter_channels, VK_NULL_HANDLE);
  const KernelBindings forward_bindings =
      bind(apply_kernel, Direction::forward, image_in, spectrum, c.channels, filter_spectrum.handle());
  const KernelBindings inverse_bindings =
      bind(apply_kernel, Direction::inverse, spectrum, image_out, c.channels, VK_NULL_HANDLE);

  device.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    filter_kernel.record(cmd, Direction::forward, filter_bindings, c.filter_channels);
    record_compute_barrier(cmd);
    apply_kernel.record(cmd, Direction::forward, forward_bindings, c.channels);
    record_compute_barrier(cmd);
    apply_kernel.record(cmd, Direction::inverse, inverse_bindings, c.channels);
    record_compute_to_transfer_barrier(cmd);
  });
  Image out{image.height, image.width, image.channels, std::vector<float>(image.size())};
  download(device, image_out.handle(), out.values.data(), image.size() * 4);
  return out;
}

void run_convolve(const ConvolveRequest& r) {
  Manifest manifest = load_manifest(r.manifest);
  const KernelInfo& apply = manifest.kernel(r.kernel);
  const Image image = read_image(r.input);
  const Image filter = read_image(r.filter);
  if (!has_extension(r.output, ".png") && !has_extension(r.output, ".npy")) unknown_kind(r.output);
  DeviceOptions options;
  options.device_index = r.device_index;
  options.validation = r.validation;
  Device device(options);
  write_image(r.output, convolve(device, manifest, apply, image, filter));
}

}  // namespace fftgen::vk
