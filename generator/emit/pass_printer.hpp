// generator/emit (internal): what the files of the pass printer share. pass_glsl.cpp prints a
// PassProgram as GLSL in four steps, each in a file of its own: the indices (pass_printer.cpp), the
// load prologue (load_glsl.cpp: one function per LoadKind), the stages and exchanges
// (stages_glsl.cpp), the store epilogue (store_glsl.cpp: one function per StoreKind).
#pragma once
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fftgen/divisor.hpp"
#include "fftgen/program.hpp"

namespace fftgen::glsl {

// Spells the index arithmetic of one variant: every division, remainder and multiplication by a
// constant goes through here, so `index_math` changes only these spellings. `bitwise` shifts and
// masks powers of two and divides by any other constant with a multiply-high (Divisor); `divmod`
// writes `/`, `%` and `*`.
class IndexMathWriter {
 public:
  explicit IndexMathWriter(IndexMath mode) : mode_(mode) {}

  std::string div(const std::string& x, uint32_t p) const;
  std::string mod(const std::string& x, uint32_t p) const;
  std::string mul(const std::string& x, uint32_t p) const;
  /// Whether some division needed the udiv() helper (the template declares it then).
  bool uses_magic_division() const { return uses_magic_division_; }

 private:
  IndexMath mode_;
  mutable bool uses_magic_division_ = false;
};

// What the GLSL of a pass spells differently in the Vulkan source and in the source the HLSL and
// MSL are cross-compiled from (emit_pass_glsl's `text_targets`); every difference is a field here.
// Vulkan's SPIR-V moves half floats as f16vec2 (16-bit storage); the HLSL and MSL source moves each
// pair of halves as a uint through unpackHalf2x16/packHalf2x16 (f16tof32/f32tof16 from Shader
// Model 5.0 on).
struct Dialect {
  const char* half_load;       ///< vec2 of a stored pair of halves: "vec2" or "unpackHalf2x16"
  const char* half_store;      ///< a pair of halves of a vec2: "f16vec2" or "packHalf2x16"
  const char* half_element;    ///< a buffer's element of half data: "f16vec2" or "uint"
  const char* half_extension;  ///< the #extension line half storage needs, or ""
  /// Binding 0 of a pass that reads the buffer it writes is declared writable: D3D12 forbids
  /// binding one resource as an SRV and a UAV in one dispatch, while two UAVs of it are allowed.
  /// SPIR-V keeps it read-only, which lets Vulkan drivers use their read-only load path.
  bool in_place_writable;
  /// A pass of its own dispatch that reads the buffer it writes through one binding (in place)
  /// reads it through a second, read-only declaration of that binding (`<name>_read`, GLSL
  /// readonly: SPIR-V NonWritable), for that read-only load path. Every workgroup reads its
  /// elements before it writes them and no other workgroup reads them, so no read sees a write.
  /// On an H200, in place against out of place: C2C 1024 1.033 -> 1.016, R2C 1024 1.029 -> 1.012
  /// (bench/results/2026-11-29-h200-fp64-counters-in-place, read_view/generated). Not for D3D12, Metal or WebGPU, which
  /// bind a resource once per dispatch as one kind.
  bool read_only_view;
};
const Dialect& dialect_of(bool text_targets);

Direction inverse_of(Direction d);
std::string codelet_name(uint32_t radix, Direction direction);

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

// Where value e of an invocation lies during a stage: its offset from q within the sub-transform,
// and the condition under which its butterfly exists (empty: always).
struct Place {
  uint32_t offset;
  std::string guard;
};

// One exchange through shared memory (PassPrinter::print_exchange). Each group of writes belongs
// to one round: `round` is a runtime expression that must equal the round number for the group to
// write (empty: the static round `at`); each read has a static round.
struct WriteGroup {
  std::string round;
  std::string guard;  ///< a condition for the group's writes (empty: none)
  uint32_t at = 0;
  std::vector<std::pair<std::string, std::string>> slots_values;
};
struct Read {
  std::string var, slot;
  uint32_t round = 0;
  std::string guard;
};

// The variables an invocation's values live in: v<e>, or w<e> for the second row of a pair that
// is loaded beside the first (print_row_pair).
struct Values {
  std::string prefix = "v";
  std::string operator()(uint32_t e) const { return fmt::format("{}{}", prefix, e); }
  // The c2r merge by halves: the mirror values an invocation forms for its partner, and Z[M/2].
  std::string mirror(uint32_t e) const { return fmt::format("{}m{}", prefix, e); }
  std::string mid() const { return prefix + "_mid"; }
};

// Prints one PassProgram: the addressing (views, shared memory, twiddle tables) every printer
// spells the same way, the indices, the stages and exchanges. The load prologue and the store
// epilogue are printed by the functions of their kinds (print_load, print_store).
struct PassPrinter {
  const PassProgram& pass;
  const PassLayout& fft;
  IndexMathWriter im;
  const Dialect& dialect;
  bool one_of_several;  // a pass of a dispatch that runs several (pass_sync counters)
  // A split pass of a dispatch whose other passes exchange complex values: its floats are those of
  // the complex array (`shf(j)`, float j of `sh`; CounterSchedule::shared_bytes says why).
  bool split_in_complex_array;
  Body body;
  // Shared memory was read by the load prologue (print_half_merge_exchange): the stages' first
  // exchange waits for it.
  bool load_read_shared = false;
  // The load or the store moves the pass's rows through shared memory (PassProgram::
  // rows_through_shared) and is printing the invocation's own row: load_value and store_value
  // spell slots of `sh`, and a store's dst_base is the row's first slot.
  bool rows_in_shared = false;

  PassPrinter(const PassProgram& p, const Dialect& dialect, bool several, bool split_in_complex_array);

  // --- names and constants (pass_printer.cpp)
  static std::string v(uint32_t e) { return Values{}(e); }
  static std::string constant(uint32_t x) { return fmt::format("{}u", x); }
  // A real constant in the pass's precision (a double literal in an fp64 pass).
  std::string literal(double x) const;
  // `statement`, only where `guard` holds.
  static std::string guarded(const std::string& guard, const std::string& statement);
  // "a && b" of the conditions that are not empty.
  static std::string both(const std::string& a, const std::string& b);
  // The pass's batch entries: the push constant, or its share of the transforms of a shared dispatch.
  std::string batch() const { return one_of_several ? "batch" : "params.batch"; }
  // The distance between a view's batch entries: its push constant, or a constant of the shader.
  std::string stride(const View& view) const;
  uint32_t step() const { return fft.threads_per_column; }  // distance between one invocation's values
  // Elements between position p and p + k of a view (View::step), as a shader constant's value.
  static uint32_t step(const View& view, uint32_t k) { return static_cast<uint32_t>(view.step(k)); }
  void barrier();

  // --- places of values (pass_printer.cpp); a null stage: a pass without stages
  Place place(const StageLayout* stage, uint32_t e) const;
  uint32_t values_in(const StageLayout* stage) const;
  const StageLayout* first_stage() const { return fft.stages.empty() ? nullptr : &fft.stages.front(); }
  const StageLayout* last_stage() const { return fft.stages.empty() ? nullptr : &fft.stages.back(); }

  // --- shared memory (pass_printer.cpp)
  std::string shared_slot(const std::string& i) const;
  std::string sh(const std::string& c, const std::string& i) const;
  std::string tile_swizzled_index(const std::string& c, const std::string& i) const;
  std::string sh(const std::string& c, const std::string& base, uint32_t offset, bool no_carry) const;
  std::string sh_swizzled_apart(const std::string& c, const std::string& base, uint32_t offset, bool disjoint) const;
  std::string sh_q(const std::string& c, uint32_t offset) const;
  void print_exchange(const std::vector<WriteGroup>& writes, const std::vector<Read>& reads, bool after_reads,
                      uint32_t rounds_used = 0);
  std::vector<uint32_t> print_half_exchange(const std::function<std::string(uint32_t)>& sent,
                                            const std::function<std::string(uint32_t)>& received, bool after_reads);

  // --- views (pass_printer.cpp)
  std::string entry() const { return pass.rows_per_transform != 0 ? "row" : "b"; }
  std::string view_base(const View& view, const std::string& entry) const;
  bool interleaved_store() const { return pass.pair_rows_interleaved && pass.index == 0; }
  bool interleaved_load() const { return pass.pair_rows_interleaved && pass.index > 0; }
  static std::string view_name(const View& view) { return std::string(view.binding.slot.name) + ".data"; }
  /// The array a load reads: the view's, or its read-only declaration (Dialect::read_only_view).
  std::string read_name(const View& view) const;
  std::string load_value(const View& view, const std::string& index) const;
  std::string store_value(const View& view, const std::string& index, const std::string& value) const;
  // The workgroup's rows between a view and shared memory (PassProgram::rows_through_shared),
  // `width` elements a row, in coalesced runs: into shared memory (`to_shared`), or out of it.
  void print_rows_copy(const View& view, uint32_t width, bool to_shared);
  // Elements a row the pass's load (`load`) or store moves: its transform's, and one more for an
  // r2c kernel's half spectrum (X[0..N/2] of the c2r load, the r2c store).
  uint32_t row_width(bool load) const;
  std::string filter_value(const std::string& index) const;
  std::string frequency_base(uint32_t element_stride) const;
  std::string axis_position(uint32_t element_stride) const;
  bool by_halves(const View& view) const;

  // --- twiddles and chirps from the table or computed (pass_printer.cpp)
  static std::string table(const std::string& index) { return "tw.data[" + index + "]"; }
  static std::string table(uint32_t offset, const std::string& index) { return table(fmt::format("{}u + {}", offset, index)); }
  static std::string angle_per_step(uint64_t l);
  std::string stage_twiddle(const StageLayout& stage, uint32_t r, const std::string& k) const;
  std::string chirp(uint32_t offset, const std::string& n = "q") const;
  std::string real_twiddle(uint32_t offset) const;
  void print_real_twiddle_base();
  std::string pass_twiddle_from_table(const std::string& m) const;

  // --- indices (pass_printer.cpp)
  void print_indices();
  void print_row_indices();
  void print_row_of_entry();
  void print_column_turns();

  // --- stages (stages_glsl.cpp)
  void print_pass_twiddles(bool conjugate, const StageLayout* stage = nullptr, const Values& values = {});
  void print_pass_twiddle_tree(bool conjugate, uint32_t count, uint32_t s, const Values& values);
  std::vector<Read> column_reads(const StageLayout& next, bool y_stage = false) const;
  void print_stages(Direction direction, bool after_reads, const std::string& name_tag = "");
  bool twiddles_early(size_t s) const;
  std::string twiddle_exponent(const std::string& tag, size_t s, uint32_t i);
  static std::string twiddle_name(const std::string& tag, size_t s, uint32_t i, uint32_t r);
  std::string stage_twiddle_value(const std::string& tag, size_t s, uint32_t i, uint32_t r, const std::string& k) const;
  void print_twiddle_loads(const std::string& tag, size_t s);
  void print_butterflies(Direction direction, const std::string& tag, size_t s);
  std::vector<WriteGroup> stage_writes(size_t s) const;
  void print_round_trip();
  void print_chirp_round_trip();
  std::vector<WriteGroup> last_stage_writes() const;
  void print_row_pair();
};

/// The function that prints a load or store kind (`Site`: where it loads or stores), and the GLSL
/// helpers (templates/*.glsl) its text calls, or nullptr.
template <class Site>
struct KindPrinter {
  void (*print)(PassPrinter&, const Site&);
  const char* snippet;
};

/// The load prologue of a pass into `values`, the transform read from element `base` of the load
/// view (load_glsl.cpp): the values declared, the function of the pass's LoadKind, the pass twiddle.
void print_load(PassPrinter& p, const Values& values = {}, const std::string& base = "src_base");
/// The GLSL helpers (templates/*.glsl) a load kind calls, or nullptr.
const char* load_snippet(LoadKind kind);

/// One pass printed as emit_pass_glsl prints it (pass_glsl.cpp): the body of main() and the
/// functions it calls, each a chunk of text in the order the shader declares them. The WGSL printer
/// (pass_wgsl.cpp) re-spells both.
struct PassText {
  std::string body;
  std::vector<std::string> functions;
};
PassText print_pass_text(const PassProgram& pass, const Dialect& dialect);

/// The store epilogue of a pass (store_glsl.cpp): the function of the pass's StoreKind, once, or
/// for each row of a pair.
void print_store(PassPrinter& p);
/// The GLSL helpers (templates/*.glsl) a store kind calls, or nullptr.
const char* store_snippet(StoreKind kind);

}  // namespace fftgen::glsl
