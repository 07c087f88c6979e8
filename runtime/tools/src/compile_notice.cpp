#include "fftgen/vktools/compile_notice.hpp"

#include <algorithm>
#include <set>

namespace fftgen::vk {

namespace {

size_t pipelines_of(const KernelInfo& info) {
  size_t n = 0;
  for (Direction d : info.directions) n += info.passes(d).size();
  return n;
}

const char* reason(PipelineCacheState cache) {
  switch (cache) {
    case PipelineCacheState::absent: return "first run on this device; cached for the next";
    case PipelineCacheState::ignored: return "the pipeline cache file was ignored; cached for the next";
    case PipelineCacheState::loaded: return "new to the pipeline cache; cached for the next";
    default: return "the pipeline cache is off";
  }
}

}  // namespace

size_t count_pipelines(const Manifest& manifest, const std::vector<const KernelInfo*>& kernels) {
  std::set<std::string> counted;
  size_t n = 0;
  auto add = [&](const KernelInfo& k) {
    if (counted.insert(k.name).second) n += pipelines_of(k);
  };
  for (const KernelInfo* k : kernels) {
    add(*k);
    if (k->transform == "convolution" && k->convolution)
      for (const auto& other : manifest.kernels)
        if (other.name == k->convolution->filter_kernel) add(other);
  }
  return n;
}

CompileNotice::CompileNotice(std::string program, size_t total, std::ostream& out, std::chrono::milliseconds delay)
    : program_(std::move(program)), total_(total), out_(out), delay_(delay) {}

CompileNotice::~CompileNotice() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

PipelineListener CompileNotice::listener() {
  return [this](const PipelineCreation& event) { on_creation(event); };
}

void CompileNotice::print_locked(size_t pipelines, PipelineCacheState cache) {
  const size_t remaining = total_ > created_ ? total_ - created_ : 0;
  out_ << program_ << ": compiling " << std::max(pipelines, remaining) << " pipelines (" << reason(cache) << ")"
       << std::endl;
  printed_ = true;
}

void CompileNotice::on_creation(const PipelineCreation& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (event.done) {
    compiling_ = false;
    created_ += event.pipelines;
    return;
  }
  if (printed_ || event.pipelines == 0) return;
  const bool first_run = event.cache == PipelineCacheState::absent || event.cache == PipelineCacheState::ignored;
  if (first_run) return print_locked(event.pipelines, event.cache);
  if (!compiling_) deadline_ = std::chrono::steady_clock::now() + delay_;  // from the first not yet run
  compiling_ = true;
  current_ = event;
  if (!watcher_.joinable()) watcher_ = std::thread([this] { watch(); });
  wake_.notify_all();
}

// Sleeps until a Kernel's creation passes its deadline (then prints) or the notice ends.
void CompileNotice::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_ && !printed_) {
    if (!compiling_) {
      wake_.wait(lock);
    } else if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && compiling_ &&
               std::chrono::steady_clock::now() >= deadline_) {
      print_locked(current_.pipelines, current_.cache);
    }
  }
}

}  // namespace fftgen::vk
