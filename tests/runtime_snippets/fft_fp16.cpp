#include "snippets.hpp"

namespace snippets {

std::vector<uint16_t> fft_fp16(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest,
                               const std::vector<uint16_t>& halves) {
  // [snippet]
  using namespace fftgen::vk;
  // precision fp16: refused (DeviceLimitError, one line) on a device without storageBuffer16BitAccess.
  Kernel fft(device, manifest, "half1024");
  // Its buffers hold complex32: (re, im) as two IEEE half floats, 4 bytes a value.
  Buffer in = fft.make_buffer(Direction::forward, BufferRole::input, 1);
  Buffer out = fft.make_buffer(Direction::forward, BufferRole::output, 1);
  // upload(device, in, std::vector<std::complex<float>>{...}) is a UsageError (complex64 values into
  // a complex32 buffer): convert to half floats first (fftgen::runtime_tools has float_to_half).
  upload(device, in, ElementType::complex32, halves.data(), halves.size() * sizeof(uint16_t));

  KernelIo io;
  io.input = in;
  io.output = out;
  io.directions = {Direction::forward};
  KernelBindings bindings = fft.bind(io);
  device.run_commands([&](VkCommandBuffer cmd) {
    record_transfer_to_compute_barrier(cmd);
    fft.record(cmd, Direction::forward, bindings, 1);
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<uint16_t> spectrum(2 * 1024);
  download(device, out.handle(), spectrum.data(), spectrum.size() * sizeof(uint16_t));
  // [/snippet]
  return spectrum;
}

}  // namespace snippets
