#include "snippets.hpp"

namespace snippets {

std::vector<std::complex<float>> in_place_view(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest,
                                               const std::vector<std::complex<float>>& signals) {
  // [snippet]
  using namespace fftgen::vk;
  Kernel fft(device, manifest, "slice");  // shape [1024], "placement": "in_place"
  const uint32_t batch = 2, stride = 1040;  // complex values between the two signals
  // The engine's big buffer; ours is its slice from `offset` (a multiple of
  // minStorageBufferOffsetAlignment), the signals `stride` apart, the gaps and the rest its own.
  const VkDeviceSize offset = 4096, bytes = fft.required_bytes(Direction::forward, BufferRole::output, batch, stride);
  Buffer pool(device, offset + bytes + 4096);
  for (uint32_t b = 0; b < batch; ++b)
    upload(device, pool.handle(), signals.data() + b * 1024, 1024 * 8, offset + b * stride * 8);

  KernelIo io;
  io.output = {pool.handle(), offset, bytes};  // one buffer: in, then out; bind() refuses a range too small
  io.output_stride = stride;
  io.max_batch = batch;
  io.directions = {Direction::forward};
  KernelBindings bindings = fft.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    fft.record(cmd, Direction::forward, bindings, batch);
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<std::complex<float>> spectra(batch * 1024);
  for (uint32_t b = 0; b < batch; ++b)
    download(device, pool.handle(), spectra.data() + b * 1024, 1024 * 8, offset + b * stride * 8);
  // [/snippet]
  return spectra;
}

}  // namespace snippets
