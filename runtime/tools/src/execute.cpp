#include "fftgen/vktools/execute.hpp"

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/error.hpp"
#include "fftgen/vktools/half.hpp"
#include "fftgen/vktools/npy.hpp"
#include "fftgen/vktools/reference.hpp"
#include "fftgen/vktools/texels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace fftgen::vk {

namespace {

// Binds `io` and runs `direction` once, its input made visible first and its output after.
void run_once(Device& device, const Kernel& kernel, Direction direction, const KernelIo& io, uint32_t batch,
              const ExecuteOptions& options) {
  KernelBindings bindings = kernel.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    // Uploads and fills are finished (separate waited submissions), but their writes must still
    // be made visible to the shaders.
    record_transfer_to_compute_barrier(cmd);
    kernel.record(cmd, direction, bindings, batch, options.record);
    record_compute_to_transfer_barrier(cmd);
  });
}

// An io image kernel: the input uploaded into a storage image of its format, the output image
// poisoned with NaN texels, the output read back from its image.
std::vector<std::complex<float>> execute_images(Device& device, const Kernel& kernel, Direction direction,
                                                const std::vector<std::complex<float>>& input, uint32_t batch,
                                                uint64_t out_count, const ExecuteOptions& options) {
  const KernelInfo& info = kernel.info();
  const ImageFormat in_format = info.input_image(direction)->format, out_format = info.output_image(direction)->format;
  const KernelImages images = make_kernel_images(device, info, direction, batch);
  const std::vector<uint8_t> in_texels = to_texels(in_format, input);
  upload_image(device, images.input, in_texels.data(), in_texels.size());
  const float fill = options.poison_output ? std::nanf("") : 0.0f;
  std::vector<uint8_t> out_texels = to_texels(out_format, std::vector<std::complex<float>>(out_count, {fill, fill}));
  upload_image(device, images.output, out_texels.data(), out_texels.size());
  run_once(device, kernel, direction, image_io(images, direction, batch), batch, options);
  download_image(device, images.output, out_texels.data(), out_texels.size());
  return from_texels(out_format, out_texels);
}

// The buffers of one run: the output (an in-place kernel's one buffer, as large as the kernel binds
// it) and, out of place, the input, with the output poisoned with NaN where asked.
struct RunBuffers {
  Buffer out;
  std::optional<Buffer> in;
  VkBuffer input() const { return in ? in->handle() : out.handle(); }
};

RunBuffers make_run_buffers(Device& device, const Kernel& kernel, Direction direction, uint32_t batch,
                            uint64_t in_bytes, uint64_t out_bytes, const ExecuteOptions& options) {
  const KernelInfo& info = kernel.info();
  RunBuffers buffers{
      Buffer(device, info.in_place() ? kernel.required_bytes(direction, BufferRole::output, batch) : out_bytes), {}};
  if (info.in_place()) return buffers;
  buffers.in.emplace(device, in_bytes);
  if (options.poison_output) fill(device, buffers.out.handle(), nan_pattern(info.output(direction).element), out_bytes);
  return buffers;
}

// Runs `direction` once from the input into the output, each bound from its start (an in-place
// kernel binds the output alone).
void run_buffers(Device& device, const Kernel& kernel, Direction direction, const RunBuffers& buffers, uint32_t batch,
                 const ExecuteOptions& options) {
  KernelIo io;
  if (buffers.in) io.input = {buffers.in->handle(), 0};
  io.output = {buffers.out.handle(), 0};
  io.max_batch = batch;
  io.directions = {direction};
  run_once(device, kernel, direction, io, batch, options);
}

// An in-place c2r leaves each row's last pair (the padding of rows of 2 (NX/2 + 1) reals) as it
// found it, which FFTW leaves undefined too: it is zeroed here, as the reference holds it.
template <typename T>
void zero_row_padding(const KernelInfo& info, Direction direction, uint32_t batch, std::vector<std::complex<T>>& out) {
  if (!info.in_place() || !is_real(info.output(direction).element)) return;
  const uint64_t per_row = out.size() / batch / info.rows();
  for (uint64_t row = 0; row < uint64_t{batch} * info.rows(); ++row) out[(row + 1) * per_row - 1] = {};
}

}  // namespace

std::vector<std::complex<float>> execute(Device& device, const Kernel& kernel,
                                         Direction direction,
                                         const std::vector<std::complex<float>>& input,
                                         uint32_t batch, const ExecuteOptions& options) {
  const KernelInfo& info = kernel.info();
  const uint64_t in_count = pairs_per_transform(info, direction, true) * batch;
  const uint64_t out_count = pairs_per_transform(info, direction, false) * batch;
  if (input.size() != in_count)
    throw UsageError("kernel '" + info.name + "': input holds " + std::to_string(input.size()) +
                     " values (pairs of floats), batch " + std::to_string(batch) + " needs " +
                     std::to_string(in_count));
  if (batch > kernel.max_batch())
    throw DeviceLimitError("kernel '" + info.name + "': batch " + std::to_string(batch) +
                           " exceeds the device's largest bindable batch " +
                           std::to_string(kernel.max_batch()) +
                           (info.uses_images() ? " (maxImageDimension2D)" : " (maxStorageBufferRange)"));
  if (info.uses_images()) return execute_images(device, kernel, direction, input, batch, out_count, options);
  if (is_double(info.forward_output.element))
    throw UsageError("kernel '" + info.name + "' computes in doubles (precision fp64): use execute_double()");
  // Half-float data (precision fp16) are converted on the way up and down. An in-place kernel's
  // input is uploaded into its one buffer and its output read back from it.
  const ElementType in_type = info.input(direction).element, out_type = info.output(direction).element;
  const uint64_t in_bytes = in_count * pair_bytes(in_type), out_bytes = out_count * pair_bytes(out_type);
  const RunBuffers buffers = make_run_buffers(device, kernel, direction, batch, in_bytes, out_bytes, options);
  if (is_half(in_type)) upload(device, buffers.input(), to_half(input).data(), in_bytes);
  else upload(device, buffers.input(), input.data(), in_bytes);
  run_buffers(device, kernel, direction, buffers, batch, options);
  std::vector<std::complex<float>> result = download_pairs(device, buffers.out.handle(), out_type, out_count);
  zero_row_padding(info, direction, batch, result);
  return result;
}

std::vector<std::complex<double>> execute_double(Device& device, const Kernel& kernel, Direction direction,
                                                 const std::vector<std::complex<double>>& input, uint32_t batch,
                                                 const ExecuteOptions& options) {
  const KernelInfo& info = kernel.info();
  const uint64_t in_count = pairs_per_transform(info, direction, true) * batch;
  const uint64_t out_count = pairs_per_transform(info, direction, false) * batch;
  if (!is_double(info.forward_output.element))
    throw UsageError("kernel '" + info.name + "' stores " + to_string(info.forward_output.element) +
                     ", not doubles (precision fp64): use execute()");
  if (input.size() != in_count)
    throw UsageError("kernel '" + info.name + "': input holds " + std::to_string(input.size()) +
                     " values (pairs of doubles), batch " + std::to_string(batch) + " needs " +
                     std::to_string(in_count));
  const uint64_t in_bytes = in_count * 16, out_bytes = out_count * 16;
  const RunBuffers buffers = make_run_buffers(device, kernel, direction, batch, in_bytes, out_bytes, options);
  upload(device, buffers.input(), input.data(), in_bytes);
  run_buffers(device, kernel, direction, buffers, batch, options);
  std::vector<std::complex<double>> result(out_count);
  download(device, buffers.out.handle(), result.data(), out_bytes);
  zero_row_padding(info, direction, batch, result);
  return result;
}

std::vector<std::complex<float>> download_pairs(Device& device, VkBuffer buffer, ElementType element, uint64_t pairs) {
  if (is_half(element)) {
    std::vector<uint16_t> halves(pairs * 2);
    download(device, buffer, halves.data(), pairs * pair_bytes(element));
    return from_half(halves);
  }
  std::vector<std::complex<float>> result(pairs);
  download(device, buffer, result.data(), pairs * pair_bytes(element));
  return result;
}

namespace {

// The trailing dimensions of one transform's input or output array, and its dtype: complex
// [NY,] NX; real data [NY,] NX as float32; a half spectrum [NY,] NX/2+1; the two half spectra of
// r2c_pair [2, N/2+1].
struct ItemShape {
  NpyType type = NpyType::complex64;
  std::vector<uint64_t> dims;
};

ItemShape item_shape(const KernelInfo& k, Direction d, bool input) {
  const bool spectrum_side = (d == Direction::forward) != input;  // the forward output, the inverse input
  std::vector<uint64_t> dims;
  for (size_t a = 0; a + 1 < k.shape.size(); ++a) dims.push_back(k.shape[a]);  // [NZ,] NY
  if (k.transform == "r2c") {
    dims.push_back(spectrum_side ? k.n() / 2 + 1 : k.n());
    return {spectrum_side ? NpyType::complex64 : NpyType::float32, dims};
  }
  if (k.transform == "r2c_pair" && spectrum_side) return {NpyType::complex64, {2, k.n() / 2 + 1}};
  dims.push_back(k.n());
  return {NpyType::complex64, dims};
}

// item_shape in the kernel's precision: complex128 and float64 for an fp64 kernel.
ItemShape item_shape_of(const KernelInfo& k, Direction d, bool input) {
  ItemShape item = item_shape(k, d, input);
  if (is_double(k.forward_output.element))
    item.type = item.type == NpyType::complex64 ? NpyType::complex128 : NpyType::float64;
  return item;
}

// Floats of one transform (4-byte words: two a double): in an array of `item` (its dims), and in
// the kernel's buffer. They differ where the buffer spaces rows out (an r2c kernel of odd N, or NX,
// keeps its rows of reals N + 1 apart).
uint64_t item_floats(const ItemShape& item) {
  uint64_t floats = npy_words(item.type);
  for (uint64_t d : item.dims) floats *= d;
  return floats;
}
uint64_t buffer_floats(const BufferShape& b) {
  return b.elements * (is_real(b.element) ? 1 : 2) * (is_double(b.element) ? 2 : 1);
}

// `run` (an execute on complex<T> values) on 4-byte words, and its result as words.
template <class T, class Run>
std::vector<float> on_words(const std::vector<float>& words, Run run) {
  std::vector<std::complex<T>> in(words.size() * 4 / sizeof(std::complex<T>));
  std::memcpy(static_cast<void*>(in.data()), words.data(), in.size() * sizeof(in[0]));
  const std::vector<std::complex<T>> result = run(in);
  std::vector<float> out(result.size() * sizeof(result[0]) / 4);
  std::memcpy(out.data(), result.data(), out.size() * 4);
  return out;
}

// Runs `d` of `kernel` on the input buffer's words and returns the output buffer's: floats, or the
// halves of doubles for an fp64 kernel.
std::vector<float> run_words(Device& device, const Kernel& kernel, Direction d, const std::vector<float>& words,
                             uint32_t batch) {
  if (is_double(kernel.info().forward_output.element))
    return on_words<double>(words, [&](const auto& in) { return execute_double(device, kernel, d, in, batch); });
  return on_words<float>(words, [&](const auto& in) { return execute(device, kernel, d, in, batch); });
}

// `batch` runs of `from` floats, each moved to the start of a run of `to` (zero after it, or cut).
std::vector<float> respace(const std::vector<float>& v, uint64_t batch, uint64_t from, uint64_t to) {
  if (from == to || from == 0 || to == 0) return v;
  std::vector<float> out(batch * to, 0.0f);
  for (uint64_t b = 0; b < batch; ++b)
    std::copy_n(v.begin() + static_cast<long>(b * from), std::min(from, to), out.begin() + static_cast<long>(b * to));
  return out;
}

std::string shape_text(const std::vector<uint64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace

void run_npy(const RunRequest& r) {
  // Everything that can fail before the GPU runs is checked first, cheapest first.
  Manifest manifest = load_manifest(r.manifest);
  const KernelInfo& info = manifest.kernel(r.kernel);
  if (info.convolution)
    throw UsageError("kernel '" + info.name + "' is a convolution (transform " + info.transform +
                     "), which takes an image and a filter: use `fftgen-vk convolve`");
  if (!info.has(r.direction))
    throw UsageError("kernel '" + info.name + "' has no " + to_string(r.direction) +
                     " direction (it has: " +
                     (info.has(Direction::forward) ? "forward" : "inverse") + ")");
  NpyArray a = read_npy(r.input);
  const ItemShape want = item_shape_of(info, r.direction, true);
  const std::string expected = std::string(describe(want.type)) + " of shape " + shape_text(want.dims) +
                               " or [batch, " + shape_text(want.dims).substr(1);
  if (a.type != want.type)
    throw UsageError(r.input.string() + ": dtype " + describe(a.type) + "; the " + to_string(r.direction) +
                     " of kernel '" + info.name + "' (" + info.transform + ") takes " + expected);
  const size_t item_rank = want.dims.size();
  const bool batched = a.shape.size() == item_rank + 1;
  if ((a.shape.size() != item_rank && !batched) ||
      !std::equal(want.dims.begin(), want.dims.end(), a.shape.end() - static_cast<long>(item_rank)))
    throw UsageError(r.input.string() + ": shape " + shape_text(a.shape) + "; the " + to_string(r.direction) +
                     " of kernel '" + info.name + "' (" + info.transform + ") takes " + expected);
  const uint64_t batch = batched ? a.shape[0] : 1;
  if (batch == 0 || batch > UINT32_MAX)
    throw UsageError(r.input.string() + ": batch " + std::to_string(batch) + " is out of range");
  DeviceOptions opts;
  opts.device_index = r.device_index;
  opts.validation = r.validation;
  opts.pipeline_listener = r.pipeline_listener;
  opts.notes = r.notes;
  Device device(opts);
  Kernel kernel(device, info, manifest.files);
  // Only an r2c kernel's rows of reals may lie apart: runs of one row each.
  const bool real = info.transform == "r2c";
  const uint64_t rows = batch * info.rows();
  const std::vector<float> values =
      real ? respace(a.values, rows, item_floats(want) / info.rows(), buffer_floats(info.input(r.direction)) / info.rows())
           : a.values;
  const std::vector<float> floats = run_words(device, kernel, r.direction, values, static_cast<uint32_t>(batch));
  const ItemShape got = item_shape_of(info, r.direction, false);
  NpyArray out;
  out.type = got.type;
  if (batched) out.shape.push_back(batch);
  for (auto d : got.dims) out.shape.push_back(d);
  out.values = real ? respace(floats, rows, buffer_floats(info.output(r.direction)) / info.rows(), item_floats(got) / info.rows())
                    : floats;
  // A value beyond 65504 in a half-float buffer becomes infinite, and what it reaches NaN. Where the
  // input was finite, that is an overflow, not a result.
  auto finite = [](float v) { return std::isfinite(v); };
  if (is_half(info.output(r.direction).element) && std::all_of(a.values.begin(), a.values.end(), finite)) {
    const auto bad = std::count_if(out.values.begin(), out.values.end(), [&](float v) { return !finite(v); });
    if (bad > 0)
      throw UsageError("kernel '" + info.name + "': " + std::to_string(bad) + " of the " +
                       std::to_string(out.values.size()) + " result values are not finite, from a finite input: a "
                       "value of its half floats (precision fp16) went beyond 65504 (the largest is the sum of the "
                       "input at frequency 0); scale the input down (and the result up), or plan the kernel in fp32; "
                       "nothing was written");
  }
  write_npy(r.output, out);
}

}  // namespace fftgen::vk
