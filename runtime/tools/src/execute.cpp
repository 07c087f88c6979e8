#include "fftgen/vktools/execute.hpp"

#include "fftgen/runtime/buffer.hpp"
#include "fftgen/runtime/error.hpp"
#include "fftgen/vktools/npy.hpp"

namespace fftgen::vk {

std::vector<std::complex<float>> execute(Device& device, const Kernel& kernel,
                                         Direction direction,
                                         const std::vector<std::complex<float>>& input,
                                         uint32_t batch, const ExecuteOptions& options) {
  const uint64_t count = uint64_t{kernel.n()} * batch;
  if (input.size() != count)
    throw UsageError("kernel '" + kernel.info().name + "': input holds " +
                     std::to_string(input.size()) + " values, batch " + std::to_string(batch) +
                     " × N " + std::to_string(kernel.n()) + " needs " + std::to_string(count));
  if (batch > kernel.max_batch())
    throw DeviceLimitError("kernel '" + kernel.info().name + "': batch " + std::to_string(batch) +
                           " exceeds the device's largest bindable batch " +
                           std::to_string(kernel.max_batch()) + " (maxStorageBufferRange)");
  const VkDeviceSize bytes = count * 8;
  Buffer in(device, bytes), out(device, bytes);
  upload(device, in.handle(), input.data(), bytes);
  if (options.poison_output) fill(device, out.handle(), kNanPattern, bytes);
  KernelIo io;
  io.input = {in.handle(), 0};
  io.output = {out.handle(), 0};
  io.max_batch = batch;
  KernelBindings bindings = kernel.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    // Upload and fill are finished (separate waited submissions), but their writes must still
    // be made visible to the shaders.
    record_transfer_to_compute_barrier(cmd);
    kernel.record(cmd, direction, bindings, batch, options.record);
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<std::complex<float>> result(count);
  download(device, out.handle(), result.data(), bytes);
  return result;
}

void run_npy(const RunRequest& r) {
  // Everything that can fail before the GPU runs is checked first, cheapest first.
  Manifest manifest = load_manifest(r.manifest);
  const KernelInfo& info = manifest.kernel(r.kernel);
  if (!info.has(r.direction))
    throw UsageError("kernel '" + info.name + "' has no " + to_string(r.direction) +
                     " direction (it has: " +
                     (info.has(Direction::forward) ? "forward" : "inverse") + ")");
  ComplexArray a = read_npy_complex64(r.input);
  const uint64_t n = a.shape.back();
  if (n != info.n())
    throw UsageError(r.input.string() + ": last dimension is " + std::to_string(n) +
                     "; kernel '" + info.name + "' transforms N = " + std::to_string(info.n()) +
                     " (shape [N] or [batch, N] is required)");
  const uint64_t batch = a.shape.size() == 2 ? a.shape[0] : 1;
  if (batch > UINT32_MAX) throw UsageError(r.input.string() + ": batch too large");
  DeviceOptions opts;
  opts.device_index = r.device_index;
  opts.validation = r.validation;
  Device device(opts);
  Kernel kernel(device, info, manifest.files);
  ComplexArray out;
  out.shape = a.shape;
  out.data = execute(device, kernel, r.direction, a.data, static_cast<uint32_t>(batch));
  write_npy_complex64(r.output, out);
}

}  // namespace fftgen::vk
