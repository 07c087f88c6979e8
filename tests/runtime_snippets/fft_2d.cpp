#include "snippets.hpp"

namespace snippets {

std::vector<std::complex<float>> fft_2d(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest) {
  // [snippet]
  using namespace fftgen::vk;
  Kernel fft(device, manifest, "image");  // shape [64, 32]: 64 rows of 32, X contiguous
  const uint32_t batch = 2;
  // Buffers that say what they hold (element type, role, bytes): bind() and upload() check them.
  Buffer in = fft.make_buffer(Direction::forward, BufferRole::input, batch);
  Buffer out = fft.make_buffer(Direction::forward, BufferRole::output, batch);
  std::vector<std::complex<float>> pixels(batch * 64 * 32, {1.0f, 0.0f});
  upload(device, in, pixels);  // complex64 values into a complex64 buffer, and they fit

  KernelIo io;
  io.input = in;  // a Buffer is a BufferRange with its bytes and content; a bare {vk_buffer, offset} works too
  io.output = out;
  io.max_batch = batch;
  io.directions = {Direction::forward};
  KernelBindings bindings = fft.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {  // or record into your own command buffer
    record_transfer_to_compute_barrier(cmd);
    fft.record(cmd, Direction::forward, bindings, batch);
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<std::complex<float>> spectra(batch * 64 * 32);
  download(device, out, spectra);  // spectra[0] is 64 x 32, the sum of the first image
  // [/snippet]
  return spectra;
}

}  // namespace snippets
