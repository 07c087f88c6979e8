#include "fftgen/vktools/convolve.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>

#include <fftw3.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/error.hpp"
#include "fftgen/runtime/kernel.hpp"
#include "fftgen/vktools/execute.hpp"
#include "fftgen/vktools/npy.hpp"
#include "fftgen/vktools/reference.hpp"

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

uint32_t big_endian(const unsigned char* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

// The CRC-32 of PNG chunks (ISO 3309, as zlib's crc32).
uint32_t png_crc(const unsigned char* data, size_t size) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) c = table[(c ^ data[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

// 1 GiB of RGBA pixels, the most a PNG is inflated to where no size is expected.
constexpr uint64_t kMaxPngPixels = uint64_t{1} << 28;

// Walks the chunks (IHDR first, every CRC right, IEND last) and checks the header: 8 bits per
// sample, and the sides `height` x `width` where they are given, before stb_image inflates
// anything (a 1 MB file may claim 16384 x 16384 RGBA: 1 GB of pixels).
void check_png(const std::filesystem::path& path, const std::vector<unsigned char>& bytes, uint32_t height,
               uint32_t width) {
  const std::string name = path.string();
  size_t at = 8;
  bool ended = false;
  for (int chunk = 0; !ended; ++chunk) {
    if (bytes.size() - at < 12)
      throw ImageError(name + ": truncated PNG: the file ends before its IEND chunk (" + std::to_string(bytes.size()) +
                       " bytes)");
    const uint32_t length = big_endian(&bytes[at]);
    if (length > bytes.size() - at - 12)
      throw ImageError(name + ": truncated PNG: a chunk of " + std::to_string(length) + " bytes at byte " +
                       std::to_string(at) + " runs past the end of the file");
    const unsigned char* type = &bytes[at + 4];
    const std::string type_name(reinterpret_cast<const char*>(type), 4);
    if (png_crc(type, length + 4) != big_endian(type + 4 + length))
      throw ImageError(name + ": damaged PNG: the CRC of chunk '" + type_name + "' at byte " + std::to_string(at) +
                       " is wrong");
    if ((chunk == 0) != (type_name == "IHDR") || (type_name == "IHDR" && length != 13))
      throw ImageError(name + ": damaged PNG: the first chunk must be a 13-byte IHDR, and the only one");
    if (chunk == 0) {
      const uint32_t w = big_endian(type + 4), h = big_endian(type + 8), depth = type[12];
      if (depth != 8)
        throw ImageError(name + ": a PNG of " + std::to_string(depth) + "-bit samples; 8-bit PNGs are read (use .npy "
                         "float32 for more precision)");
      if (height && width && (h != height || w != width))
        throw ImageError(name + ": a PNG of " + std::to_string(h) + " x " + std::to_string(w) +
                         " pixels (height x width); the kernel takes " + std::to_string(height) + " x " +
                         std::to_string(width));
      if (h == 0 || w == 0 || h > 65536 || w > 65536 || uint64_t{h} * w > kMaxPngPixels)
        throw ImageError(name + ": a PNG of " + std::to_string(h) + " x " + std::to_string(w) +
                         " pixels; sides from 1 to 65536 and at most " + std::to_string(kMaxPngPixels) +
                         " pixels are read");
    }
    ended = type_name == "IEND";
    at += size_t{length} + 12;
  }
}

Image read_png(const std::filesystem::path& path, uint32_t height, uint32_t width) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw ImageError(path.string() + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ImageError(path.string() + ": cannot open");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kSignature, 8) != 0)
    throw ImageError(path.string() + ": not a PNG file (no PNG signature)");
  check_png(path, bytes, height, width);
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

Image read_image(const std::filesystem::path& path, uint32_t height, uint32_t width) {
  if (has_extension(path, ".png")) return read_png(path, height, width);
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

namespace {

// A frame of a convolution of images: image_w x image_h texels of its format.
DeviceImage frame_image(Device& device, const Convolution& convolution) {
  if (!convolution.uses_images()) return DeviceImage();
  const ConvolutionInfo& c = convolution.geometry();
  return DeviceImage(device, vk_format(convolution.image_format()), c.image_w, c.image_h);
}

Buffer frame_buffer(Device& device, const Convolution& convolution) {
  return convolution.uses_images() ? Buffer() : Buffer(device, convolution.image_bytes());
}

// The texels of a frame's [H, W, C] pixels (C = 1: r32f; C = 2: rg32f, or rgba32f with b, a = 0), and back.
std::vector<float> frame_texels(ImageFormat format, const std::vector<float>& pixels) {
  if (format != ImageFormat::rgba32f) return pixels;
  std::vector<float> texels(pixels.size() * 2, 0.0f);
  for (size_t i = 0; i < pixels.size() / 2; ++i) texels[4 * i] = pixels[2 * i], texels[4 * i + 1] = pixels[2 * i + 1];
  return texels;
}

void frame_pixels(ImageFormat format, const std::vector<float>& texels, std::vector<float>& pixels) {
  if (format != ImageFormat::rgba32f) {
    pixels = texels;
    return;
  }
  for (size_t i = 0; i < pixels.size() / 2; ++i) pixels[2 * i] = texels[4 * i], pixels[2 * i + 1] = texels[4 * i + 1];
}

}  // namespace

ConvolutionChain::ConvolutionChain(Device& device, const Manifest& manifest, const KernelInfo& apply,
                                   const ShaderLoader& loader)
    : device_(device),
      convolution_(device, manifest, apply, loader),
      image_in_(frame_buffer(device, convolution_)),
      image_out_(frame_buffer(device, convolution_)),
      frame_in_(frame_image(device, convolution_)),
      frame_out_(frame_image(device, convolution_)),
      bindings_(convolution_.uses_images() ? convolution_.bind(frame_in_.view(), frame_out_.view())
                                           : convolution_.bind({image_in_.handle(), 0}, {image_out_.handle(), 0})) {}

ConvolutionChain::~ConvolutionChain() = default;

void ConvolutionChain::check(const Image& image, const Image& filter) const {
  const ConvolutionInfo& c = convolution_.geometry();
  const std::string& name = info().name;
  if (image.height != c.image_h || image.width != c.image_w || image.channels != c.channels)
    throw UsageError("the image is " + dims(image.height, image.width, image.channels) + "; kernel '" + name +
                     "' convolves images of " + dims(c.image_h, c.image_w, c.channels) + " ([H, W, C], C = " +
                     std::to_string(c.channels) + " channels)");
  if (filter.height != c.filter_h || filter.width != c.filter_w || filter.channels != c.filter_channels)
    throw UsageError("the filter is " + dims(filter.height, filter.width, filter.channels) + "; kernel '" + name +
                     "' was planned for a filter of " + dims(c.filter_h, c.filter_w, c.filter_channels) +
                     (c.filter_channels == 1 ? " (one channel for every image channel)" : " (one channel per image channel)"));
}

void ConvolutionChain::set_filter(const Image& filter) { convolution_.set_filter(filter.values.data(), filter.values.size()); }

void ConvolutionChain::set_image(const Image& image) {
  if (convolution_.uses_images()) {
    const std::vector<float> texels = frame_texels(convolution_.image_format(), image.values);
    upload_image(device_, frame_in_, texels.data(), texels.size() * 4);
    return;
  }
  upload(device_, image_in_.handle(), image.values.data(), image.values.size() * 4);
}

void ConvolutionChain::record(VkCommandBuffer cmd, const RecordOptions& options) const {
  convolution_.record(cmd, bindings_, options);
}

Image ConvolutionChain::result() {
  const ConvolutionInfo& c = convolution_.geometry();
  Image out{c.image_h, c.image_w, c.channels, std::vector<float>(uint64_t{c.image_h} * c.image_w * c.channels)};
  if (convolution_.uses_images()) {
    std::vector<float> texels = frame_texels(convolution_.image_format(), out.values);
    download_image(device_, frame_out_, texels.data(), texels.size() * 4);
    frame_pixels(convolution_.image_format(), texels, out.values);
    return out;
  }
  download(device_, image_out_.handle(), out.values.data(), out.values.size() * 4);
  return out;
}

std::vector<std::complex<float>> ConvolutionChain::filter_spectrum() {
  const KernelInfo& apply = info();
  return download_pairs(device_, convolution_.filter_spectrum().handle(), apply.forward_output.element,
                        apply.forward_output.elements * apply.convolution->filter_channels);
}

namespace {

Image random_image(uint32_t h, uint32_t w, uint32_t c, uint64_t seed) {
  Image image{h, w, c, {}};
  for (const auto& v : random_normal((image.size() + 1) / 2, seed)) image.values.push_back(v.real()), image.values.push_back(v.imag());
  image.values.resize(image.size());
  return image;
}

// FFTW's spectra of the padded planes of `filter`, its centre moved to the origin, scaled: half
// spectra, or whole ones where the channels are packed in pairs (a c2c kernel of the filter), laid
// out as the filter kernel writes them (ConvolutionInfo::filter_layout).
std::vector<std::complex<double>> filter_spectrum_reference(const KernelInfo& apply, const KernelInfo& filter_kernel,
                                                             const Image& filter) {
  const ConvolutionInfo& c = *apply.convolution;
  const bool pairs = c.packing == "pairs";
  KernelInfo plane;  // an r2c (c2c) kernel of the padded plane: the reference's geometry
  plane.name = apply.name;
  plane.transform = pairs ? "c2c" : "r2c";
  plane.shape = {c.padded_h, c.padded_w};
  plane.forward_input = {pairs ? ElementType::complex64 : ElementType::float32, uint64_t{c.padded_h} * c.padded_w};
  plane.forward_output = apply.forward_output;
  std::vector<double> reals(uint64_t{c.padded_h} * c.padded_w * c.filter_channels, 0.0);
  for (uint32_t k = 0; k < c.filter_channels; ++k)
    for (uint32_t y = 0; y < c.filter_h; ++y)
      for (uint32_t x = 0; x < c.filter_w; ++x) {
        const uint32_t py = (y + c.padded_h - c.centre_y) % c.padded_h, px = (x + c.padded_w - c.centre_x) % c.padded_w;
        reals[(uint64_t{k} * c.padded_h + py) * c.padded_w + px] = filter.values[(uint64_t{y} * c.filter_w + x) * c.filter_channels + k];
      }
  std::vector<std::complex<double>> values;
  if (pairs)
    for (double r : reals) values.emplace_back(r, 0.0);
  else
    for (size_t i = 0; i + 1 < reals.size(); i += 2) values.emplace_back(reals[i], reals[i + 1]);
  auto spectra = reference_transform(plane, Direction::forward, values, c.filter_channels, filter_kernel.forward_scale);
  if (c.filter_layout == "rows") return spectra;
  const uint64_t rows = c.padded_h, columns = c.spectrum_columns();
  std::vector<std::complex<double>> by_columns(spectra.size());
  for (uint64_t p = 0; p < c.filter_channels; ++p)
    for (uint64_t y = 0; y < rows; ++y)
      for (uint64_t x = 0; x < columns; ++x)
        by_columns[(p * columns + x) * rows + y] = spectra[(p * rows + y) * columns + x];
  return by_columns;
}

}  // namespace

VerifyResult verify_convolution(Device& device, const Manifest& manifest, const KernelInfo& kernel,
                                const VerifyOptions& options) {
  VerifyResult r;
  r.kernel = kernel.name;
  r.n = kernel.n();
  r.directions = {"forward"};
  r.batches = {1};
  r.tolerance = options.tolerance;
  try {
    if (!kernel.convolution) throw UsageError("kernel '" + kernel.name + "' has no convolution");
    const ConvolutionInfo& c = *kernel.convolution;
    const bool filter_only = kernel.transform == "convolution_filter";
    r.shape = std::to_string(c.image_h) + "x" + std::to_string(c.image_w) + "x" + std::to_string(c.channels) +
              (filter_only ? " filter" : " conv");
    const KernelInfo& apply = filter_only ? manifest.kernel(c.apply_kernel) : kernel;
    const KernelInfo& filter_kernel = manifest.kernel(c.filter_kernel);
    ConvolutionChain chain(device, manifest, apply, options.loader);
    const Image image = random_image(c.image_h, c.image_w, c.channels, options.seed);
    const Image filter = random_image(c.filter_h, c.filter_w, c.filter_channels, options.seed + 1);
    chain.set_filter(filter);
    // Half-float planes: every store between passes rounds, in the filter kernel's chain (its
    // output included) and in the apply kernel's (all but its last pass, which writes fp32 pixels).
    if (chain.half_planes()) {
      const size_t filter_roundings = filter_kernel.passes(Direction::forward).size();
      const size_t apply_roundings =
          apply.passes(Direction::forward).size() + apply.passes(Direction::inverse).size() - 1;
      const Image& input = filter_only ? filter : image;
      std::vector<std::complex<float>> values;
      for (size_t i = 0; i + 1 < input.values.size(); i += 2) values.emplace_back(input.values[i], input.values[i + 1]);
      r.half_storage = true;
      r.half_factor = half_chain_factor(filter_only ? filter_roundings : filter_roundings + apply_roundings);
      // A result of a few dozen values scatters more: a 5 x 7 image with a 3 x 4 filter measured
      // 1.0 to 2.5 times its round trip over 12 seeds, where 64 x 64 x 2 measured 1.3 to 1.35.
      if (!filter_only && image.values.size() < 4096) r.half_factor *= 1.5;
      r.tolerance = r.half_factor * half_yardstick(values);
    }
    ErrorStats stats;
    if (filter_only) {
      stats = compare(chain.filter_spectrum(), filter_spectrum_reference(apply, filter_kernel, filter));
    } else {
      if (kernel.directions.size() == 2) r.directions = {"forward", "inverse"};
      chain.set_image(image);
      device.run_commands([&](VkCommandBuffer cmd) {
        record_transfer_to_compute_barrier(cmd);
        chain.record(cmd);
        record_compute_to_transfer_barrier(cmd);
      });
      const Image out = chain.result();
      // The direct sum where it is quick, FFTW in double beyond (both exact to far below fp32).
      const double direct_cost = static_cast<double>(image.size()) * c.filter_h * c.filter_w;
      const std::vector<double> want =
          direct_cost <= 1e8 ? direct_convolution(c, image, filter) : fftw_convolution(c, image, filter);
      std::vector<std::complex<float>> got;
      std::vector<std::complex<double>> ref;
      for (size_t i = 0; i < want.size(); ++i) got.emplace_back(out.values[i], 0.0f), ref.emplace_back(want[i], 0.0);
      stats = compare(got, ref);
    }
    r.rel_l2_forward = stats.rel_l2;
    r.max_err = stats.max_rel;
    r.nan_count = stats.nan_count;
    r.pass = stats.nan_count == 0 && stats.rel_l2 <= r.tolerance;
  } catch (const std::exception& e) {
    r.error = e.what();
    r.pass = false;
  }
  return r;
}

BenchResult bench_convolution(Device& device, const Manifest& manifest, const KernelInfo& apply,
                              const BenchOptions& options) {
  BenchResult r;
  r.name = apply.name;
  r.n = apply.n();
  r.direction = "both";
  try {
    if (options.direction)
      throw UsageError("kernel '" + apply.name + "' is a convolution, timed as its whole chain (forward, then "
                       "inverse); --direction applies to transforms: time it without --direction");
    ConvolutionChain chain(device, manifest, apply);
    const ConvolutionInfo& c = *apply.convolution;
    chain.set_filter(random_image(c.filter_h, c.filter_w, c.filter_channels, 2));
    chain.set_image(random_image(c.image_h, c.image_w, c.channels, 1));
    r.batch = c.channels;
    r.bytes = uint64_t{c.image_h} * c.image_w * c.channels * 4;
    r.traffic = 2 * r.bytes;
    r.trial_ms = time_calls(device, options, [&](VkCommandBuffer cmd) { chain.record(cmd); });
    if (options.per_pass)
      r.passes = time_passes(device, options, pass_names(apply, {Direction::forward, Direction::inverse}),
                             [&](VkCommandBuffer cmd, const RecordOptions& ro) { chain.record(cmd, ro); });
    finish_bench_result(r);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

std::vector<double> fftw_convolution(const ConvolutionInfo& c, const Image& image, const Image& filter) {
  const uint64_t ph = c.padded_h, pw = c.padded_w, half = pw / 2 + 1;
  std::vector<double> plane(ph * pw), kernel_plane(ph * pw);
  std::vector<std::complex<double>> spectrum(ph * half), kernel_spectrum(ph * half);
  auto* re = plane.data();
  auto* sp = reinterpret_cast<fftw_complex*>(spectrum.data());
  const fftw_plan forward = fftw_plan_dft_r2c_2d(static_cast<int>(ph), static_cast<int>(pw), re, sp, FFTW_ESTIMATE);
  const fftw_plan inverse = fftw_plan_dft_c2r_2d(static_cast<int>(ph), static_cast<int>(pw), sp, re, FFTW_ESTIMATE);
  std::vector<double> out(image.size());
  for (uint32_t k = 0; k < image.channels; ++k) {
    // The filter of this channel, its centre moved to the origin.
    std::fill(plane.begin(), plane.end(), 0.0);
    const uint32_t fk = filter.channels == 1 ? 0 : k;
    for (uint64_t y = 0; y < filter.height; ++y)
      for (uint64_t x = 0; x < filter.width; ++x)
        plane[((y + ph - c.centre_y) % ph) * pw + (x + pw - c.centre_x) % pw] =
            filter.values[(y * filter.width + x) * filter.channels + fk];
    fftw_execute(forward);
    kernel_spectrum = spectrum;
    std::fill(plane.begin(), plane.end(), 0.0);
    for (uint64_t y = 0; y < image.height; ++y)
      for (uint64_t x = 0; x < image.width; ++x)
        plane[y * pw + x] = image.values[(y * image.width + x) * image.channels + k];
    fftw_execute(forward);
    for (uint64_t i = 0; i < spectrum.size(); ++i) spectrum[i] *= kernel_spectrum[i] / static_cast<double>(ph * pw);
    fftw_execute(inverse);
    for (uint64_t y = 0; y < image.height; ++y)
      for (uint64_t x = 0; x < image.width; ++x)
        out[(y * image.width + x) * image.channels + k] = plane[y * pw + x];
  }
  fftw_destroy_plan(forward);
  fftw_destroy_plan(inverse);
  return out;
}

Image convolve(Device& device, const Manifest& manifest, const KernelInfo& apply, const Image& image,
               const Image& filter, const ShaderLoader& loader) {
  ConvolutionChain chain(device, manifest, apply, loader);
  chain.check(image, filter);
  chain.set_filter(filter);
  chain.set_image(image);
  device.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    chain.record(cmd);
    record_compute_to_transfer_barrier(cmd);
  });
  Image out = chain.result();
  // A value beyond 65504 in a half-float plane becomes infinite, and the pixels it reaches NaN.
  // Not finite in, not finite out: that is the input's, not an overflow.
  auto all_finite = [](const Image& im) {
    return std::all_of(im.values.begin(), im.values.end(), [](float v) { return std::isfinite(v); });
  };
  if (chain.half_planes() && all_finite(image) && all_finite(filter)) {
    const auto bad = std::count_if(out.values.begin(), out.values.end(), [](float v) { return !std::isfinite(v); });
    if (bad > 0)
      throw UsageError("kernel '" + apply.name + "': " + std::to_string(bad) + " result values are not finite: a value "
                       "of its half-float planes (precision fp16) went beyond 65504. The largest are the spectra's terms "
                       "at frequency 0: the image's sum over sqrt(" + std::to_string(apply.convolution->padded_h) + " x " +
                       std::to_string(apply.convolution->padded_w) + ") per channel, and the filter's sum (its spectrum "
                       "is not scaled); scale the image or the filter down (and the result up), or plan the "
                       "convolution in fp32");
  }
  return out;
}

void run_convolve(const ConvolveRequest& r) {
  Manifest manifest = load_manifest(r.manifest);
  const KernelInfo& apply = manifest.kernel(r.kernel);
  const ConvolutionInfo* c = apply.convolution ? &*apply.convolution : nullptr;
  const Image image = read_image(r.input, c ? c->image_h : 0, c ? c->image_w : 0);
  const Image filter = read_image(r.filter, c ? c->filter_h : 0, c ? c->filter_w : 0);
  if (!has_extension(r.output, ".png") && !has_extension(r.output, ".npy")) unknown_kind(r.output);
  DeviceOptions options;
  options.device_index = r.device_index;
  options.validation = r.validation;
  options.pipeline_listener = r.pipeline_listener;
  options.notes = r.notes;
  Device device(options);
  write_image(r.output, convolve(device, manifest, apply, image, filter));
}

}  // namespace fftgen::vk
