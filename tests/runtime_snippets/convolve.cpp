#include "snippets.hpp"

namespace snippets {

std::vector<float> convolve(fftgen::vk::Device& device, const fftgen::vk::Manifest& manifest,
                            const std::vector<float>& image, const std::vector<float>& filter) {
  // [snippet]
  using namespace fftgen::vk;
  Convolution glow(device, manifest, "glow");  // the plan's kernel "glow" and its filter kernel "glow__filter"
  // float32 [32, 32, 1] images and a [7, 7] filter, as glow.geometry() says.
  glow.set_filter(filter.data(), filter.size());  // its spectrum, once
  Buffer frame(device, glow.image_bytes()), result(device, glow.image_bytes());
  upload(device, frame, image);

  ConvolutionBindings bindings = glow.bind(frame, result);  // the padded planes between them
  device.run_commands([&](VkCommandBuffer cmd) {             // or your own command buffer, every frame
    record_transfer_to_compute_barrier(cmd);
    glow.record(cmd, bindings);  // forward with the product, barrier, inverse with the crop
    record_compute_to_transfer_barrier(cmd);
  });
  std::vector<float> out(image.size());
  download(device, result, out);
  // [/snippet]
  return out;
}

}  // namespace snippets
