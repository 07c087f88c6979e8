#include "fftgen/program.hpp"

#include <cmath>
#include <map>
#include <mutex>

#include <fmt/format.h>

namespace fftgen {

std::string_view to_string(Access access) { return access == Access::read ? "read" : "write"; }

std::string_view to_string(ElementType) { return "complex64"; }

uint32_t element_bytes(ElementType) { return 8; }

uint32_t PushConstantSlot::offset() const {
  for (uint32_t i = 0; i < kPushConstantBytes / 4; ++i)
    if (kPushConstants[i].name == name) return 4 * i;
  return 0;
}

std::string_view to_string(LoadKind) { return "plain"; }

std::string_view to_string(StoreKind kind) { return kind == StoreKind::plain ? "plain" : "transposed"; }

std::string pass_name(Direction direction, size_t pass) {
  return fmt::format("{}{}", direction == Direction::forward ? "fwd" : "inv", pass);
}

double direction_scale(const KernelSpec& spec, Direction direction) {
  switch (spec.normalize) {
    case Normalize::none: return 1.0;
    case Normalize::inverse: return direction == Direction::inverse ? 1.0 / spec.n() : 1.0;
    case Normalize::ortho: return 1.0 / std::sqrt(static_cast<double>(spec.n()));
  }
  return 1.0;
}

namespace {

const codelet::Dag& cached_codelet(uint32_t radix, Direction direction) {
  static std::mutex mutex;
  static std::map<std::pair<uint32_t, Direction>, codelet::Dag> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(radix, direction);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, codelet::make_dft(radix, direction)).first;
  return it->second;
}

void add_ops(codelet::OpCounts& into, const codelet::OpCounts& x, uint64_t times) {
  into.adds += static_cast<uint32_t>(x.adds * times);
  into.muls += static_cast<uint32_t>(x.muls * times);
  into.fma_candidates += static_cast<uint32_t>(x.fma_candidates * times);
  into.negs += static_cast<uint32_t>(x.negs * times);
}

PassBinding buffer_binding(const ResourceSlot& slot, BufferRole role, uint64_t elements, std::string_view stride) {
  return {slot, role, ElementType::complex64, elements, stride};
}

}  // namespace

codelet::OpCounts PassProgram::ops() const {
  const codelet::OpCounts cmul{2, 4, 2, 0};
  codelet::OpCounts total;
  for (const StageLayout& stage : fft.stages) {
    const uint64_t butterflies = uint64_t{fft.columns_per_transform} * (fft.size / stage.radix);
    add_ops(total, codelet::count_ops(cached_codelet(stage.radix, direction)), butterflies);
    if (stage.stride > 1) add_ops(total, cmul, butterflies * (stage.radix - 1));
  }
  // One multiplication by the twiddle, plus one to assemble it from the two-level table.
  if (load.pass_twiddle) add_ops(total, cmul, uint64_t{n} * (twiddles == TwiddleSource::table ? 2 : 1));
  if (store.scale != 1.0) total.muls += 2 * n;
  return total;
}

KernelProgram make_program(const KernelSpec& spec) {
  KernelProgram program;
  program.layout = make_layout(spec);
  const KernelLayout& layout = program.layout;
  const uint32_t n = layout.n;
  program.scratch_elements = layout.needs_scratch() ? n : 0;
  const bool table = spec.twiddles == TwiddleSource::table && layout.twiddles.count > 0;
  for (Direction d : directions_of(spec.direction)) {
    auto& passes = d == Direction::forward ? program.forward : program.inverse;
    for (size_t p = 0; p < layout.passes.size(); ++p) {
      const PassLayout& fft = layout.passes[p];
      PassProgram pass;
      pass.name = pass_name(d, p);
      pass.direction = d;
      pass.index = p;
      pass.count = layout.passes.size();
      pass.fft = fft;
      pass.twiddles = spec.twiddles;
      pass.index_math = spec.index_math;
      pass.n = n;
      pass.twiddle_table = table;
      const PassBinding src = buffer_binding(kSourceSlot, fft.src, n, "src_stride");
      const PassBinding dst = buffer_binding(kDestinationSlot, fft.dst, n, "dst_stride");
      pass.bindings = {src, dst};
      if (table) pass.bindings.push_back({kTwiddleSlot, BufferRole::twiddles, ElementType::complex64, layout.twiddles.count, ""});

      // Column mode reads column j at j + i*columns_per_transform; row mode reads whole transforms.
      pass.load.view = {src, fft.columns_per_transform, 0, 0};
      pass.load.pass_twiddle = fft.stride > 1;
      // Stockham: value i of column j goes to (j div S)*S*M + (j mod S) + i*S; the first pass of a
      // multi-pass kernel (S = 1) writes y[j*M + i], through shared memory.
      pass.store.kind = fft.transposed_store() ? StoreKind::transposed : StoreKind::plain;
      if (fft.row_mode()) pass.store.view = {dst, 1, 0, 0};
      else pass.store.view = {dst, fft.stride, fft.stride, fft.stride * fft.size};
      pass.store.scale = p + 1 == layout.passes.size() ? direction_scale(spec, d) : 1.0;
      passes.push_back(std::move(pass));
    }
  }
  return program;
}

}  // namespace fftgen
