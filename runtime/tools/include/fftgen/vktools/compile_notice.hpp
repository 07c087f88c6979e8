// fftgen-vk's line while pipelines compile, so that a cold first run (36 s of lavapipe compiling, no
// output) says what it is doing.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "fftgen/runtime/device.hpp"
#include "fftgen/runtime/manifest.hpp"

namespace fftgen::vk {

/// Pipelines the Kernels of `kernels` create (every pass of every direction), a convolution's filter
/// kernel included.
size_t count_pipelines(const Manifest& manifest, const std::vector<const KernelInfo*>& kernels);

/// Prints "<program>: compiling 12 pipelines (first run on this device; cached for the next)" once:
/// at the first Kernel where the device has no pipeline cache file yet (or ignored it), else when
/// pipelines have not been created and run once within `delay` (PipelineCreation). `total` is what the command will create (the
/// count said is what remains of it). Give listener() to DeviceOptions::pipeline_listener.
class CompileNotice {
 public:
  CompileNotice(std::string program, size_t total, std::ostream& out,
                std::chrono::milliseconds delay = std::chrono::milliseconds(1500));
  ~CompileNotice();
  CompileNotice(const CompileNotice&) = delete;
  CompileNotice& operator=(const CompileNotice&) = delete;
  PipelineListener listener();

 private:
  void on_creation(const PipelineCreation& event);
  void watch();
  void print_locked(size_t pipelines, PipelineCacheState cache);

  std::string program_;
  size_t total_, created_ = 0;
  std::ostream& out_;
  std::chrono::milliseconds delay_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread watcher_;
  bool compiling_ = false, printed_ = false, stop_ = false;
  PipelineCreation current_;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace fftgen::vk
