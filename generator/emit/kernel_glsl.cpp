#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <kainjow/mustache.hpp>

#include "fftgen/codelet.hpp"
#include "fftgen/emit.hpp"
#include "fftgen/emit_codelet.hpp"

namespace fftgen {
namespace {

// Spells the index arithmetic of one variant: every division, remainder and multiplication by a
// power of two goes through here, so `index_math` changes only these spellings.
class IndexMathWriter {
 public:
  explicit IndexMathWriter(IndexMath mode) : mode_(mode) {}

  std::string div(const std::string& x, uint32_t p) const {
    if (p == 1) return x;
    return mode_ == IndexMath::bitwise ? fmt::format("({} >> {}u)", x, log2_exact(p)) : fmt::format("({} / {}u)", x, p);
  }
  std::string mod(const std::string& x, uint32_t p) const {
    if (p == 1) return "0u";
    return mode_ == IndexMath::bitwise ? fmt::format("({} & {}u)", x, p - 1) : fmt::format("({} % {}u)", x, p);
  }
  std::string mul(const std::string& x, uint32_t p) const {
    if (p == 1) return x;
    return mode_ == IndexMath::bitwise ? fmt::format("({} << {}u)", x, log2_exact(p)) : fmt::format("({} * {}u)", x, p);
  }

 private:
  IndexMath mode_;
};

std::string codelet_name(uint32_t radix, Direction direction) {
  return fmt::format("radix{}_{}", radix, direction == Direction::forward ? "fwd" : "inv");
}

// Collects the body of main() with two-space indentation.
class Body {
 public:
  void line(const std::string& s) { out_ << std::string(indent_, ' ') << s << '\n'; }
  void open(const std::string& s) { line(s.empty() ? "{" : s + " {"); indent_ += 2; }
  void close() { indent_ -= 2; line("}"); }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  int indent_ = 2;
};

std::string v(uint32_t e) { return fmt::format("v{}", e); }

struct PassEmitter {
  const KernelSpec& spec;
  const KernelLayout& layout;
  const PassLayout& pass;
  Direction direction;
  IndexMathWriter im;
  Body body;
  uint32_t step() const { return pass.threads_per_column; }  // distance between one invocation's values

  // Value `i` of the workgroup's column `c` in shared memory (see PassLayout::pad_log2).
  std::string sh(const std::string& c, const std::string& i) const {
    const uint32_t slice = pass.exchange_size();
    if (pass.swizzle_mask != 0 && pass.row_mode())
      return fmt::format("sh[{} + ({} ^ {})]", im.mul(c, slice), i,
                         im.mod(im.div(i, 1u << pass.swizzle_shift), pass.swizzle_mask + 1));
    if (pass.swizzle_mask != 0)
      return fmt::format("sh[{} + ({} ^ ({} & {}u))]", im.mul(c, slice), i, c, pass.swizzle_mask);
    if (pass.column_pad != 0) return fmt::format("sh[{} * {}u + {}]", c, slice + pass.column_pad, i);
    if (pass.pad_log2 == 0) return fmt::format("sh[{} + {}]", im.mul(c, slice), i);
    // A padded column length is not a power of two: that product is a multiplication either way.
    const uint32_t column_length = slice + (slice >> pass.pad_log2);
    return fmt::format("sh[{} * {}u + {} + ({} >> {}u)]", c, column_length, i, i, pass.pad_log2);
  }

  void barrier() { body.line("memoryBarrierShared();"); body.line("barrier();"); }

  std::string constant(uint32_t x) const { return fmt::format("{}u", x); }

  // The forward twiddle exp(-2*pi*i*m/l) for a runtime exponent `m`, from the table or computed.
  std::string stage_twiddle(const StageLayout& stage, uint32_t r, const std::string& k) const {
    if (spec.twiddles == TwiddleSource::table)
      return fmt::format("tw[{} + {}u]", k, stage.twiddle_offset + (r - 1) * stage.stride);
    return fmt::format("twiddle({}u * {}, {})", r, k, angle_per_step(uint64_t{stage.stride} * stage.radix));
  }

  // Computed twiddles use the GPU's native sin/cos: fast, but only ~2^-21 accurate in absolute
  // terms. (An octant reduction with polynomials reached table accuracy but cost 12-40% of the
  // bandwidth on an H100: the kernels became ALU-bound.)
  static std::string angle_per_step(uint64_t l) { return glsl_float_literal(2.0 * M_PI / static_cast<double>(l)); }

  void emit_indices() {
    const uint32_t c = pass.columns_per_workgroup;
    body.line("uint t = gl_LocalInvocationID.x;");
    body.line("uint group = gl_WorkGroupID.x + params.group_offset;");
    if (pass.row_mode()) {
      body.line(fmt::format("uint q = {};  // position inside the transform", im.mod("t", pass.threads_per_column)));
      body.line(fmt::format("uint c = {};  // transform inside the workgroup", im.div("t", pass.threads_per_column)));
      body.line(fmt::format("uint b = {} + c;", im.mul("group", c)));
      body.line("bool in_range = b < params.batch;");
      body.line("uint src_base = b * params.src_stride + q;");
    } else {
      const uint32_t cpt = pass.columns_per_transform;
      body.line(fmt::format("uint c = {};  // column inside the workgroup", im.mod("t", c)));
      body.line(fmt::format("uint q = {};  // position inside the column", im.div("t", c)));
      body.line(fmt::format("uint g = {} + c;", im.mul("group", c)));
      body.line(fmt::format("uint b = {};", im.div("g", cpt)));
      body.line(fmt::format("uint j = {};", im.mod("g", cpt)));
      body.line("bool in_range = b < params.batch;");
      body.line(fmt::format("uint src_base = b * params.src_stride + j + {};", im.mul("q", cpt)));
    }
  }

  void emit_load() {
    const uint32_t e_count = pass.elems_per_thread;
    const uint32_t element_stride = step() * pass.columns_per_transform;
    for (uint32_t e = 0; e < e_count; ++e) body.line(fmt::format("vec2 {} = vec2(0.0);", v(e)));
    body.open("if (in_range)");
    for (uint32_t e = 0; e < e_count; ++e)
      body.line(fmt::format("{} = src[src_base + {}];", v(e), constant(e * element_stride)));
    body.close();
    if (pass.stride > 1) emit_pass_twiddles();
  }

  // Between passes: value r of column j is multiplied by W_L^(r*k), k = j mod stride, L = stride*M.
  void emit_pass_twiddles() {
    const PassTwiddles& t = pass.pass_twiddles;
    body.line(fmt::format("uint k = {};", im.mod("j", pass.stride)));
    for (uint32_t e = 0; e < pass.elems_per_thread; ++e) {
      std::string m = fmt::format("m{}", e);
      body.line(fmt::format("uint {} = (q + {}) * k;", m, constant(e * step())));
      std::string w;
      if (spec.twiddles == TwiddleSource::table)
        w = fmt::format("cmul(tw[{}u + {}], tw[{}u + {}])", t.lo_offset, im.mod(m, t.lo_count), t.hi_offset,
                        im.div(m, t.lo_count));
      else
        w = fmt::format("twiddle({}, {})", m, angle_per_step(uint64_t{pass.stride} * pass.size));
      body.line(fmt::format("{0} = twiddle_mul({0}, {1});", v(e), w));
    }
  }

  // One exchange through shared memory. Each group of writes belongs to one round: `round` is a
  // runtime expression that must equal the round number for the group to write (empty: the static
  // round `at`); each read has a static round. Rounds run in order, each a write, a barrier and a read (see
  // PassLayout::exchange_rounds); the split exchange moves the real parts first and the imaginary
  // parts second through a float array of half the size. A barrier precedes the writes when
  // shared memory was read since the last barrier (`after_reads`).
  struct WriteGroup {
    std::string round;
    uint32_t at = 0;
    std::vector<std::pair<std::string, std::string>> slots_values;
  };
  struct Read {
    std::string var, slot;
    uint32_t round = 0;
  };
  void emit_exchange(const std::vector<WriteGroup>& writes, const std::vector<Read>& reads, bool after_reads) {
    const uint32_t rounds = pass.exchange_rounds;
    // With several rounds an invocation may read a value before writing the one its variable
    // holds, so reads land in fresh variables, copied back at the end.
    auto target = [&](const Read& r) { return rounds > 1 ? "n" + r.var : r.var; };
    if (rounds > 1) {
      body.open("");
      for (const Read& r : reads) body.line(fmt::format("vec2 {};", target(r)));
    }
    const std::vector<std::string> parts = pass.split_exchange ? std::vector<std::string>{".x", ".y"}
                                                               : std::vector<std::string>{""};
    bool barrier_needed = after_reads;
    for (uint32_t k = 0; k < rounds; ++k) {
      for (const std::string& part : parts) {
        if (barrier_needed) barrier();
        for (const WriteGroup& group : writes) {
          if (group.round.empty() && group.at != k) continue;
          if (!group.round.empty()) body.open(fmt::format("if ({} == {})", group.round, constant(k)));
          for (const auto& [slot, value] : group.slots_values) body.line(fmt::format("{} = {}{};", slot, value, part));
          if (!group.round.empty()) body.close();
        }
        barrier();
        for (const Read& r : reads)
          if (r.round == k) body.line(fmt::format("{}{} = {};", target(r), part, r.slot));
        barrier_needed = true;
      }
    }
    if (rounds > 1) {
      for (const Read& r : reads) body.line(fmt::format("{} = {};", r.var, target(r)));
      body.close();
    }
  }

  // Next stage's reads: value e is slot q + e*step, which lies in round e div (E/rounds).
  std::vector<Read> column_reads() const {
    const uint32_t per_round = pass.elems_per_thread / pass.exchange_rounds;
    std::vector<Read> reads;
    for (uint32_t e = 0; e < pass.elems_per_thread; ++e)
      reads.push_back({v(e), sh("c", fmt::format("(q + {})", constant(e % per_round * step()))), e / per_round});
    return reads;
  }

  void emit_stages() {
    const uint32_t e_count = pass.elems_per_thread;
    for (size_t s = 0; s < pass.stages.size(); ++s) {
      const StageLayout& stage = pass.stages[s];
      const uint32_t r_count = stage.radix;
      const uint32_t per_thread = e_count / r_count;  // butterflies per invocation in this stage
      body.line(fmt::format("// stage {}: radix {}, stride {}", s, r_count, stage.stride));
      for (uint32_t i = 0; i < per_thread; ++i) {
        std::string jj = fmt::format("j{}_{}", s, i);
        if (stage.stride > 1) {
          body.line(fmt::format("uint {} = {};", jj, i == 0 ? "q" : fmt::format("q + {}", constant(i * step()))));
          std::string k = fmt::format("k{}_{}", s, i);
          body.line(fmt::format("uint {} = {};", k, im.mod(jj, stage.stride)));
          for (uint32_t r = 1; r < r_count; ++r)
            body.line(fmt::format("{0} = twiddle_mul({0}, {1});", v(i + r * per_thread), stage_twiddle(stage, r, k)));
        }
        std::string args;
        for (uint32_t r = 0; r < r_count; ++r) args += (r ? ", " : "") + v(i + r * per_thread);
        body.line(fmt::format("{}({});", codelet_name(r_count, direction), args));
      }
      if (s + 1 == pass.stages.size()) continue;
      // Stockham: butterfly jj's output r goes to (jj div Ns)*Ns*R + (jj mod Ns) + r*Ns. With
      // several rounds, those R slots lie in slice jj div (S/R) (S = slice size), at the offset
      // the base has within its slice.
      const uint32_t slice = pass.exchange_size();
      std::vector<WriteGroup> writes;
      for (uint32_t i = 0; i < per_thread; ++i) {
        std::string jj = i == 0 ? std::string("q") : fmt::format("(q + {})", constant(i * step()));
        std::string base = fmt::format("{} + {}", im.mul(im.div(jj, stage.stride), stage.stride * r_count),
                                       im.mod(jj, stage.stride));
        WriteGroup group;
        if (pass.exchange_rounds > 1) {
          group.round = im.div(jj, slice / r_count);
          base = im.mod("(" + base + ")", slice);
        }
        for (uint32_t r = 0; r < r_count; ++r)
          group.slots_values.emplace_back(sh("c", fmt::format("({} + {})", base, constant(r * stage.stride))),
                                          v(i + r * per_thread));
        writes.push_back(std::move(group));
      }
      body.line(fmt::format("// exchange {} -> {}", s, s + 1));
      emit_exchange(writes, column_reads(), s > 0);
    }
  }

  void emit_store(double scale) {
    const std::string scaled = scale == 1.0 ? "" : " * " + glsl_float_literal(scale);
    const uint32_t e_count = pass.elems_per_thread;
    if (pass.row_mode()) {
      body.open("if (in_range)");
      body.line("uint dst_base = b * params.dst_stride + q;");
      for (uint32_t e = 0; e < e_count; ++e)
        body.line(fmt::format("dst[dst_base + {}] = {}{};", constant(e * step()), v(e), scaled));
      body.close();
    } else if (!pass.transposed_store()) {
      body.open("if (in_range)");
      body.line(fmt::format("uint dst_base = b * params.dst_stride + {} + {} + {};",
                            im.mul(im.div("j", pass.stride), pass.stride * pass.size), im.mod("j", pass.stride),
                            im.mul("q", pass.stride)));
      for (uint32_t e = 0; e < e_count; ++e)
        body.line(fmt::format("dst[dst_base + {}] = {}{};", constant(e * step() * pass.stride), v(e), scaled));
      body.close();
    } else {
      // y[j*M + r]: a transpose, staged in shared memory so that both sides are coalesced. The
      // values come back into v0.. in row order: value e of invocation t is row element t + e*W.
      body.line("// store through shared memory: the workgroup's columns become contiguous rows");
      // With several rounds, round k moves slots [k*S, (k+1)*S) of every column (S = slice size):
      // the values e of round k (e div (E/rounds) = k) go in, and come out as C runs of S
      // contiguous output elements; value e = k*(E/rounds) + e' is element l = t + e'*W of them.
      const uint32_t slice = pass.exchange_size();
      const uint32_t per_round = e_count / pass.exchange_rounds;
      std::vector<WriteGroup> writes(pass.exchange_rounds);
      std::vector<Read> reads;
      std::vector<std::string> out_index;
      for (uint32_t e = 0; e < e_count; ++e) {
        const uint32_t k = e / per_round, e_in_round = e % per_round;
        writes[k].at = k;
        writes[k].slots_values.emplace_back(sh("c", fmt::format("(q + {})", constant(e_in_round * step()))), v(e));
        std::string l = e_in_round == 0 ? "t" : fmt::format("(t + {})", constant(e_in_round * pass.workgroup_size));
        reads.push_back({v(e), sh(im.div(l, slice), im.mod(l, slice)), k});
        out_index.push_back(pass.exchange_rounds == 1
                                ? (e == 0 ? "t" : fmt::format("t + {}", constant(e * pass.workgroup_size)))
                                : fmt::format("{} + {} + {}", im.mul(im.div(l, slice), pass.size), im.mod(l, slice),
                                              constant(k * slice)));
      }
      emit_exchange(writes, reads, pass.stages.size() > 1);
      const uint32_t cpt = pass.columns_per_transform;
      body.line(fmt::format("uint g0 = {};", im.mul("group", pass.columns_per_workgroup)));
      body.line(fmt::format("uint b0 = {};", im.div("g0", cpt)));
      body.open("if (b0 < params.batch)");
      body.line(fmt::format("uint dst_base = b0 * params.dst_stride + {};", im.mul(im.mod("g0", cpt), pass.size)));
      for (uint32_t e = 0; e < e_count; ++e)
        body.line(fmt::format("dst[dst_base + {}] = {}{};", out_index[e], v(e), scaled));
      body.close();
    }
  }
};

}  // namespace

std::string generated_header(const std::string& plan_source, const KernelSpec& spec, const std::string& pass) {
  return fmt::format("Generated by fftgen {} from plan '{}': kernel '{}', pass {}. Do not edit.", FFTGEN_VERSION,
                     plan_source, spec.name, pass);
}

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

std::string emit_pass_glsl(const KernelSpec& spec, const KernelLayout& layout, size_t pass_index, Direction direction,
                           const std::string& plan_source) {
  const PassLayout& pass = layout.passes.at(pass_index);
  PassEmitter emitter{spec, layout, pass, direction, IndexMathWriter(spec.index_math), {}};
  emitter.emit_indices();
  emitter.emit_load();
  emitter.emit_stages();
  const bool last = pass_index + 1 == layout.passes.size();
  emitter.emit_store(last ? direction_scale(spec, direction) : 1.0);

  std::string codelets;
  std::set<uint32_t> radices;
  for (const StageLayout& stage : pass.stages) radices.insert(stage.radix);
  for (uint32_t r : radices) codelets += emit_codelet_glsl(codelet::make_dft(r, direction), codelet_name(r, direction)) + "\n";

  std::string stages;
  for (const StageLayout& stage : pass.stages) stages += (stages.empty() ? "" : "x") + std::to_string(stage.radix);

  kainjow::mustache::mustache tmpl{std::string(embedded_template("stockham.comp"))};
  kainjow::mustache::data data;
  data.set("header", generated_header(plan_source, spec, pass_name(direction, pass_index)));
  data.set("summary",
           fmt::format("N = {}, {} {}, pass {} of {}: sub-transform {} (stages {}) at stride {}, {} per workgroup; "
                       "index math {}, twiddles {}",
                       layout.n, to_string(direction), "FFT", pass_index + 1, layout.passes.size(), pass.size, stages,
                       pass.stride, pass.columns_per_workgroup, to_string(spec.index_math), to_string(spec.twiddles)));
  data.set("workgroup_size", std::to_string(pass.workgroup_size));
  data.set("twiddle_table", spec.twiddles == TwiddleSource::table && layout.twiddle_count > 0);
  data.set("computed_twiddles", spec.twiddles == TwiddleSource::computed);
  data.set("shared_type", pass.split_exchange ? "float" : "vec2");
  if (pass.shared_elements > 0) data.set("shared_elements", std::to_string(pass.shared_elements));
  else data.set("shared_elements", false);
  data.set("twiddle_operand", direction == Direction::forward ? "w" : "vec2(w.x, -w.y)");
  data.set("codelets", codelets);
  data.set("body", emitter.body.str());
  std::string text = tmpl.render(data);
  if (!tmpl.is_valid()) throw std::runtime_error("template stockham.comp: " + tmpl.error_message());
  return text;
}

}  // namespace fftgen
