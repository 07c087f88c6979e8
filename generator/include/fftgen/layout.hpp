// generator/plan: how one kernel variant is laid out on the GPU — passes, stages, workgroups,
// buffers and twiddle tables. Pure arithmetic, no text: emit/ renders a KernelLayout as GLSL.
//
// The algorithm is the Stockham autosort FFT in the formulation of Govindaraju et al.,
// "High Performance Discrete Fourier Transforms on Graphics Processors" (SC'08): a radix-R step
// over data of length L with stride Ns (product of the radices before it) reads
// x[j + r*L/R], multiplies by W_{Ns*R}^{r*(j mod Ns)}, does a radix-R DFT and writes
// y[(j div Ns)*Ns*R + (j mod Ns) + r*Ns]. A *pass* (one dispatch) is such a step whose radix
// M is itself a product of stages run inside the workgroup through shared memory.
#pragma once
#include <cstdint>
#include <vector>

#include "fftgen/plan.hpp"

namespace fftgen {

enum class BufferRole { input, output, scratch, twiddles };
std::string_view to_string(BufferRole);

/// One butterfly stage inside a pass (a Stockham step over the pass's M-point sub-transform).
struct StageLayout {
  uint32_t radix = 0;
  uint32_t stride = 1;          ///< Ns inside the pass: product of this pass's earlier radices
  uint32_t twiddle_offset = 0;  ///< table entries [(r-1)*stride + k] for k < stride (if stride > 1): adjacent
                                ///< invocations (adjacent k) read adjacent entries
};

/// Two-level table for the twiddles between passes, W_L^m with m < L = stride*size:
/// W_L^m = lo[m mod B] * hi[m div B], B = 2^lo_log2 (so the table has ~2*sqrt(L) entries, not L).
struct PassTwiddles {
  uint32_t lo_offset = 0;
  uint32_t hi_offset = 0;
  uint32_t lo_log2 = 0;
  uint32_t lo_count = 0;
  uint32_t hi_count = 0;
};

/// One dispatch.
struct PassLayout {
  uint32_t size = 0;                   ///< M: sub-transform length (product of stage radices)
  uint32_t stride = 1;                 ///< product of the earlier passes' sizes
  uint32_t columns_per_transform = 1;  ///< N / M: sub-transforms per transform
  uint32_t columns_per_workgroup = 1;  ///< C: sub-transforms per workgroup (transforms, in row mode)
  uint32_t elems_per_thread = 0;       ///< E: complex values each invocation holds (max radix)
  uint32_t threads_per_column = 0;     ///< M / E
  uint32_t workgroup_size = 0;         ///< C * M / E
  std::vector<StageLayout> stages;
  PassTwiddles pass_twiddles;          ///< used when stride > 1
  BufferRole src = BufferRole::input;
  BufferRole dst = BufferRole::output;
  /// Shared memory holds value i of column c at c*L + i + (i >> pad_log2) in row mode
  /// (L = S + S/16 for S = exchange_size(); no padding when pad_log2 is 0); in column mode at c*(size + column_pad) + i,
  /// or, where the padded columns do not fit, at c*size + (i ^ (c & swizzle_mask)); register-resident
  /// row mode (exchange_rounds > 1) at c*S + (i ^ ((i >> swizzle_shift) & swizzle_mask)). All of them
  /// break the power-of-two strides that would send a warp's accesses to one memory bank.
  uint32_t pad_log2 = 0;
  uint32_t column_pad = 0;
  uint32_t swizzle_mask = 0;
  uint32_t swizzle_shift = 0;
  uint32_t shared_elements = 0;        ///< slots of shared memory (vec2, or float when split), padding included
  /// Split exchange: the stages exchange real parts, then imaginary parts, through a float array,
  /// which halves the shared memory a pass needs (two more barriers per stage). Chosen where the
  /// complex exchange does not fit the budget.
  bool split_exchange = false;
  /// Register-resident exchange, for transforms (row mode) or column tiles too large for shared
  /// memory: each exchange runs in `exchange_rounds` rounds, round k moving the values whose slots
  /// lie in [k*M/rounds, (k+1)*M/rounds) through a shared array of one such slice per column
  /// (padded or swizzled). The layout guarantees that every butterfly's outputs lie in one slice
  /// and that every invocation reads E/rounds values per round, so only the writes are
  /// conditional (on a round number that is uniform over runs of adjacent invocations).
  uint32_t exchange_rounds = 1;
  uint32_t exchange_size() const { return size / exchange_rounds; }  ///< slots of one slice per column

  /// Row mode: the pass covers whole transforms (single-pass kernels), whose elements are
  /// contiguous, so invocations of one transform are adjacent. Otherwise (column mode) the C
  /// sub-transforms of a workgroup are adjacent columns and invocations are column-fastest.
  bool row_mode() const { return columns_per_transform == 1; }
  /// The first pass of a multi-pass kernel writes y[j*M + r]: its store goes through shared memory
  /// so that it stays coalesced.
  bool transposed_store() const { return !row_mode() && stride == 1; }
  uint32_t shared_bytes() const { return shared_elements * (split_exchange ? 4 : 8); }
};

struct KernelLayout {
  uint32_t n = 0;
  std::vector<uint32_t> radices;  ///< every stage radix, in order (the split actually used)
  std::vector<PassLayout> passes;
  uint32_t twiddle_count = 0;     ///< complex entries of the table (0 for computed twiddles)
  bool needs_scratch() const;
};

/// Lays out a kernel variant. Throws PlanError (naming the kernel and field) if an explicit radix
/// split or workgroup size cannot be honoured within the shared-memory budget.
KernelLayout make_layout(const KernelSpec& spec);

/// The forward twiddle table of a layout (both directions use it; the inverse conjugates),
/// computed in double and rounded once to float: 2*twiddle_count floats (re, im).
std::vector<float> make_twiddle_table(const KernelLayout& layout);

/// Radices `auto` picks for an M-point sub-transform (`column_pass`: a pass of a multi-pass kernel).
std::vector<uint32_t> auto_radices(uint32_t m, bool column_pass);

}  // namespace fftgen
