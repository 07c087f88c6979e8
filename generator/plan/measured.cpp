// generator/plan: the table of measured choices (fftgen/measured.hpp). Every length, shape and
// threshold that a benchmark chose lives here, with the run that measured it and its numbers;
// layout.cpp and program.cpp ask measured_choice() where they decide.
//
// To add a row after a measurement: commit the run under bench/results/<date>-<device>-<what>/,
// add the row under its decision (the first row that applies wins, so put a narrower row before a
// wider one), name the folder in `run` and the numbers in `note`, then regenerate (generated/ and
// any golden files the choice changes) and run the unit tests (tests/test_measured.cpp checks
// the folder exists).
#include "fftgen/measured.hpp"

#include <algorithm>

#include "fftgen/plan.hpp"

namespace fftgen {

bool MeasuredKernels::contains(const MeasuredFacts& f) const {
  if (!transforms.empty() && std::find(transforms.begin(), transforms.end(), f.transform) == transforms.end())
    return false;
  if (f.three_d) return false;
  if (two_d && *two_d != f.two_d) return false;
  if (precision && *precision != f.precision) return false;
  if (convolution && *convolution != f.convolution) return false;
  if (in_place && *in_place != f.in_place) return false;
  return n.contains(f.n) && nx.contains(f.nx) && ny.contains(f.ny) && points.contains(f.points) && size.contains(f.size) &&
         tile_bytes.contains(f.tile_bytes);
}

MeasuredFacts measured_facts(const KernelSpec& spec, uint64_t n) {
  MeasuredFacts f;
  f.transform = spec.transform;
  f.precision = spec.precision;
  f.two_d = spec.is_2d();
  f.three_d = spec.is_3d();
  f.convolution = spec.convolution.has_value();
  f.in_place = spec.placement == Placement::in_place;
  f.n = n;
  f.nx = spec.n();
  f.ny = spec.ny();
  f.points = spec.points();
  return f;
}

namespace {

using D = MeasuredDecision;
constexpr uint64_t kAll = std::numeric_limits<uint64_t>::max();

MeasuredRange at(uint64_t v) { return {v, v}; }
MeasuredRange up_to(uint64_t v) { return {0, v}; }
MeasuredRange from(uint64_t v) { return {v, kAll}; }
MeasuredRange between(uint64_t lo, uint64_t hi) { return {lo, hi}; }

// The kernels of a row, spelt as a chain: K().c2c().fp32().two_d().ny(at(1024)).
struct K {
  MeasuredKernels k;
  K& c2c() { return k.transforms.push_back(Transform::c2c), *this; }
  K& r2c() { return k.transforms.push_back(Transform::r2c), *this; }
  K& one_d() { return k.two_d = false, *this; }
  K& two_d() { return k.two_d = true, *this; }
  K& fp32() { return k.precision = Precision::fp32, *this; }
  K& fp16() { return k.precision = Precision::fp16, *this; }
  K& fp64() { return k.precision = Precision::fp64, *this; }
  K& convolution(bool c) { return k.convolution = c, *this; }
  K& in_place(bool p) { return k.in_place = p, *this; }
  K& n(MeasuredRange r) { return k.n = r, *this; }
  K& nx(MeasuredRange r) { return k.nx = r, *this; }
  K& ny(MeasuredRange r) { return k.ny = r, *this; }
  K& points(MeasuredRange r) { return k.points = r, *this; }
  K& size(MeasuredRange r) { return k.size = r, *this; }
  K& tile_bytes(MeasuredRange r) { return k.tile_bytes = r, *this; }
  operator MeasuredKernels() const { return k; }
};

MeasuredChoice yes() { return {true, {}, 0}; }
MeasuredChoice no() { return {false, {}, 0}; }
MeasuredChoice stages(std::vector<uint32_t> radices) { return {true, std::move(radices), 0}; }
MeasuredChoice stages_on(std::vector<uint32_t> radices, uint32_t invocations, uint32_t bytes = 0) {
  return {true, std::move(radices), invocations, bytes};
}
MeasuredChoice budget(uint32_t bytes) { return {true, {}, 0, bytes}; }

const std::vector<MeasuredRow> kRows = {
    // --- row_split: the split measured fastest on an H100 among every ordered split into the
    // fewest codelets (1D C2C, 512 MiB batches, GB/s). The search (auto_radices) cannot see
    // shared-memory bank conflicts or register allocation, and its choice ran up to 1.3x slower
    // here. Column passes keep the search's split (1080 as the Y pass of 1080x1920: 12x9x10 1249
    // GB/s against 1252 for 15x9x8). An explicit workgroup_size keeps the search's split too.
    {D::row_split, K().n(at(360)), stages({8, 5, 9}), "2026-11-23-h100-splits", "GB/s: 2993; the search's 10x6x6: 2822"},
    {D::row_split, K().n(at(480)), stages({8, 6, 10}), "2026-11-23-h100-splits", "GB/s: 2982; 15x8x4: 2433"},
    {D::row_split, K().n(at(540)), stages({9, 10, 6}), "2026-11-23-h100-splits", "GB/s: 2885; 15x9x4: 2210"},
    {D::row_split, K().n(at(960)), stages({16, 10, 6}), "2026-11-23-h100-splits", "GB/s: 2876; 15x8x8: 2367"},
    {D::row_split, K().n(at(1080)), stages({12, 9, 10}), "2026-11-23-h100-splits", "GB/s: 2608; 15x9x8: 2162"},
    {D::row_split, K().n(at(1200)), stages({16, 5, 15}), "2026-11-23-h100-splits", "GB/s: 2442; 15x10x8: 2173"},
    {D::row_split, K().n(at(1440)), stages({16, 9, 10}), "2026-11-23-h100-splits", "GB/s: 2886; 16x10x9: 2562"},
    {D::row_split, K().n(at(2160)), stages({12, 12, 15}), "2026-11-23-h100-splits", "GB/s: 2630; 15x12x12: 2008"},
    // C2C 4096 (H200, fftgen tune, 512 MiB): the split stays 16x16x16, on 128 invocations of 32 values
    // rather than 256 of 16 at 32 KB (at 48 KB 128 ran slower: 3517 against 3775 GB/s).
    {D::row_split, K().c2c().one_d().fp32().n(at(4096)), stages_on({16, 16, 16}, 128, 32768),
     "2026-12-03-h200-pass-sync", "GB/s (tune/): 3783 on 256 invocations -> 4022 on 128; 3859 at 16 KB"},

    // --- smaller_pass_first (column_passes puts the larger pass first).
    {D::smaller_pass_first, K().c2c().one_d().fp32().convolution(false).n(at(1u << 21)), yes(),
     "2026-11-27-h100-pass-order",
     "H100, GB/s at 512 MiB, one dispatch per pass: c2c 2^21 (2048 x 1024) 1208 -> 1245 (inverse 1212 -> 1250): "
     "the 1024-point pass of 16 columns runs faster first (0.410 -> 0.373 ms), the 2048-point pass of 8 columns as "
     "fast either way. Not, on an H200: three passes (c2c 2^23 1256 -> 1235), the passes of one dispatch with "
     "counters (c2c 2^19 1778 -> 1744), 2D Y passes (8192: equal; the 4096² bloom 2.244 -> 2.284 ms)"},
    {D::smaller_pass_first, K().r2c().one_d().fp32().convolution(false).n(at(1u << 19)), yes(),
     "2026-11-27-h100-pass-order",
     "H100: r2c 2^20 (its complex 2^19 = 1024 x 512) 1143 -> 1175 (c2r 1200 -> 1271). Not, on an H200: r2c 2^22 "
     "(1062 -> 1004: its separation's mirrored tiles then hold 8 columns), r2c 2^18 with counters (1490 -> 1009)"},

    // --- pair_rows: first_y_stage auto has the row pass do the first Y stage (PassLayout::pair_rows)
    // where a row applies, where the kernel can take pairs at all (make_layout checks that).
    {D::pair_rows, K().c2c().two_d().fp32().nx(up_to(512)).ny(up_to(512)).points(from(131072)), yes(),
     "2026-11-27-h100-small-pairs",
     "fp32 c2c grids of 2^17 and 2^18 points with sides of 256 or 512: a pass's chain is what a small batch waits "
     "for (H100, µs a call at batch 1 and 4, 200 calls; ms at 512 MiB): 512² 10.5 -> 8.6, 14.1 -> 14.2, 0.7304 -> "
     "0.7286; 512 x 256 9.4 -> 7.9, 10.8 -> 9.7, 0.7308 -> 0.7238; 256 x 512 8.0 -> 7.5, 10.1 -> 9.9, 0.7274 -> "
     "0.7265. Not 256² (both passes in one dispatch, pass_sync counters: 6.8 -> 7.0 µs, 0.634 -> 0.651 ms), longer "
     "rows (512 x 1024 at batch 4 21.8 -> 29.2 µs, 512 x 2048 0.735 -> 0.863 ms)"},
    {D::pair_rows, K().c2c().two_d().fp32().nx(up_to(1024)).ny(at(1024)), yes(), "2026-11-27-h100-pairs-1024",
     "at 512 MiB in turn they lost 0.1-0.3 % on an H100, but a small batch, as engines run them, waits less for the "
     "chain (µs a call at batch 1, 4 and 16, 200 calls; GB/s at 512 MiB): 1024² 16.7 -> 15.6, 57.3 -> 57.0, 194.8 "
     "-> 194.4, 1466 -> 1463; 1024 x 512 14.4 -> 12.4, 1470 -> 1466. Not 1024 x 2048 (30.3 µs either way at batch "
     "1, 1452 -> 1441 GB/s)"},
    {D::pair_rows, K().r2c().two_d().fp16().n(between(2048, 4096)).ny(up_to(2048)), no(),
     "2026-11-27-h100-fp16-pairs",
     "fp16 rows whose pairs go in turn (r2c) of 2048 and 4096 points at NY = 2048 lose: their X pass runs near the "
     "copy floor alone and takes 1.6 times as long in turn, more than the Y pass gains (ms at 256 MiB, H100: r2c "
     "2048 x 4096 0.625 -> 0.665, 2048 x 8192 0.614 -> 0.634). They pair from NY = 4096"},
    {D::pair_rows, K().c2c().two_d().fp16().n(between(2049, 4096)).ny(up_to(2048)), no(),
     "2026-11-27-h100-fp16-pairs",
     "fp16 c2c rows whose pair does not fit one workgroup at 32 KB (above 2048 points) go in turn, and at NY = 2048 "
     "lose (H100, ms at 256 MiB: c2c 2048 x 4096 0.546 -> 0.612). They pair from NY = 4096"},
    {D::pair_rows, K().ny(from(2048)), yes(), "2026-11-25-h100-pair-rows",
     "NY = 4096 takes Y tiles of 4 columns (32-byte runs, about half an H100's copy speed), 2048 of 8: pairs halve "
     "the columns and double the tiles (GB/s at 512 MiB): c2c 4096² 1077 -> 1316, 4096 x 2048 1192 -> 1352; 2048² "
     "1397 -> 1423 (64.3 -> 61.7 µs a call at batch 1), 2048 x 1024 1413 -> 1455, 2048 x 512 1423 -> 1459, 2048 x "
     "256 1422 -> 1464; not NY = 1024 (1024² 1463 -> 1464, 1024 x 2048 1448 -> 1440, 1024 x 512 1468 -> 1465). r2c "
     "(2026-11-27-h100-r2c-pairs), forward / c2r inverse: 4096² 995 -> 1200 / 784 -> 1037, 2048² 1222 -> 1324 / "
     "1029 -> 1160; not 1024² (1397 -> 1369 / 1183 -> 1146) nor 512² (1394 -> 1403 / 1147 -> 1351). fp16 (ms at "
     "256 MiB, 2026-11-27-h100-fp16-pairs): c2c 4096² 0.818 -> 0.741, r2c 2048² 0.626 -> 0.581, 4096² 0.788 -> "
     "0.734, 4096 x 2048 0.825 -> 0.689; c2c 4096 x 8192 1.095 -> 0.786, 2048 x 8192 0.743 -> 0.646"},

    // --- pair_rows_at_once: a pair's two rows at once where they fit one workgroup (PassLayout::
    // pair_rows_at_once), for pairs chosen by auto or asked for by first_y_stage row_pass.
    {D::pair_rows_at_once, K().c2c().fp16(), yes(), "2026-11-27-h100-fp16-pairs",
     "fp16 c2c rows of up to 2048 points: in turn, each workgroup's chain doubles, and half-float data leaves it "
     "less memory time to hide behind (H100, ms at 256 MiB): 2048² 0.530 -> 0.502 (inverse 0.532 -> 0.499), 4096 x "
     "2048 0.790 -> 0.620, 2048 x 1024 0.512 -> 0.466, 4096 x 1024 0.780 -> 0.571, 2048 x 256 0.497 -> 0.428"},
    {D::pair_rows_at_once, K().c2c().two_d().fp32().nx(up_to(512)).ny(up_to(512)).points(from(131072)), yes(),
     "2026-11-27-h100-small-pairs", "as their pair_rows row; at once (fp32 rows of 2048 at once lose: 2048² 0.388 -> "
     "0.450 ms at 256 MiB, so fp32 rows from NY = 2048 stay in turn)"},
    {D::pair_rows_at_once, K().c2c().two_d().fp32().nx(up_to(1024)).ny(at(1024)), yes(),
     "2026-11-28-h200-pairs-at-once",
     "H200 against in turn (µs a call at batch 1 and 4, 200 calls; GB/s at 512 MiB): 1024² 14.7 -> 13.8, 49.0 -> "
     "46.6, 1900 -> 1977; 1024 x 512 11.9 -> 11.3, 26.1 -> 24.9, 1912 -> 1998; 1024 x 256 10.8 -> 9.9, 14.0 -> "
     "13.2, 2033 -> 2029. (On an H100, at once had cost 1024² at 512 MiB 1 %: 0.7339 -> 0.7408 ms)"},

    // --- round_trip_tiles: a convolution's apply kernel whose padded columns take one Y pass runs it
    // as one round trip (forward FFT, filter product, inverse FFT), which its latency bounds rather
    // than its bytes: there workgroups of 2 columns win.
    {D::round_trip_tiles, K().two_d().convolution(true).ny(at(2048)), stages_on({8, 16, 16}, 256),
     "2026-11-23-h100-pairs", "1024² RGBA bloom on an H100: 8x16x16 on 256 invocations against 32x2x32 on 512 (8 columns)"},
    {D::round_trip_tiles, K().two_d().convolution(true).ny(at(4096)), stages_on({16, 16, 16}, 512),
     "2026-11-29-h200-round-trip-4096",
     "16x16x16 on 512 invocations, 16 values each, against 32x4x32 on 512 (4 columns, 32 values each: 128 "
     "registers, spilled). H200, round trip, ms: 2048² RGBA bloom 0.763 -> 0.521 at 32 KB (the two unpadded "
     "columns fill it: tile_swizzled), 0.340 with 48 KB (tile_padded); a circular 4096 x 8192 RGBA convolution "
     "1.759 -> 1.489 and 1.262. One column on 256 invocations won the bloom at 32 KB (0.452) but lost the "
     "circular one (2.139); 2 columns of 32 values on 256 (48 KB) 0.359 / 1.283"},

    // --- swizzle_real_rows: one round swizzles in place of padding in r2c row passes of these sizes.
    {D::swizzle_real_rows, K().size(from(2048)), yes(), "2026-11-25-h100-pair-rows",
     "at the same transforms per workgroup, H100: R2C 4096 2952 -> 2960 GB/s (C2C 4096 2974 -> 2994, the "
     "4096-point row pass of a 2D 4096² c2c 0.450 -> 0.400 ms, where the padded slices do not fit). Elsewhere "
     "padding stays: R2C 1024 and 2D R2C 1024² were unchanged; with the twice the transforms per workgroup the "
     "swizzle's smaller slices allow, R2C 1024 and 4096 lost 2-3 %"},

    // --- column_tiles: intermediate_layout auto keeps a 2D kernel's values between its passes in
    // column tiles (rows of whole 32-byte sectors only: make_program checks that).
    {D::column_tiles, K().tile_bytes(between(32, 127)), yes(), "2026-11-24-h100-column-tiles",
     "tiles narrower than a 128-byte line gain 5-9 % (c2c fp32 4096² and 2048², fp16 2048² and 1024²); 16-byte "
     "tiles (fp16 4096²) lose more in the X pass's store than the Y pass gains"},
    {D::column_tiles, K().tile_bytes(at(128)).size(from(1024)), yes(), "2026-11-24-h100-column-tiles",
     "128-byte tiles of columns of 1024 values gain 1 % (fp32 1024²); of 256 or 512 values under 1 % at 512 MiB, "
     "and slower at batch 1"},

    // --- counters: pass_sync auto takes counters (fp32 kernels of two passes per direction within
    // D3D12's 32 KB: make_program checks that). GB/s at 512 MiB, one dispatch per pass -> counters;
    // first measured on an H100 (2026-11-26-h100-counters), the 1D rows again on an H200, where
    // fewer lengths gain. Not fp16 (H100: 2D 256² 1441 -> 1287, 1D 32768 1181 -> 968).
    {D::counters, K().two_d().fp32().points(up_to(1u << 16)), yes(), "2026-11-26-h100-counters",
     "2D c2c 256²: 1475 -> 1690; 7.5 -> 6.8 µs a call at batch 1, but 8.0 -> 9.1 at batch 4. Not 512² (1470 -> "
     "1500 at 512 MiB, but 10.5 -> 11.6 µs at batch 1 and 14.0 -> 18.2 at batch 4, the sizes ocean grids use), "
     "1024² (1463 -> 1239), 1024 x 128 (1444 -> 1209); 128 x 1024 (1476 -> 1900) and 256 x 512 (1476 -> 1617) "
     "gain at 512 MiB but lose at batch 4 (9.8 -> 11.9, 10.1 -> 12.5 µs). H200 (2026-12-03-h200-pass-sync, "
     "in and out of place alike): 128² 1997 -> 2307, 256² 2038 -> 2086, 128 x 512 2051 -> 2188; 256 x 512 "
     "2027 -> 1979, 512² 2024 -> 1582"},
    {D::counters, K().c2c().one_d().fp32().in_place(true).points(up_to(1u << 15)), yes(), "2026-12-03-h200-pass-sync",
     "H200, in place (through scratch): c2c 32768 1927 -> 2115"},
    {D::counters, K().c2c().one_d().fp32().in_place(true), no(), "2026-12-03-h200-pass-sync",
     "H200, in place: c2c 65536 1928 -> 1773, 131072 2064 -> 1868, 262144 2045 -> 1963, 2^20 1770 -> 1563"},
    {D::counters, K().c2c().one_d().fp32().points(at(1u << 17)), no(), "2026-12-03-h200-pass-sync",
     "H200: c2c 131072 (512 then 256 points) 2031 -> 1914"},
    {D::counters, K().c2c().one_d().fp32().points(up_to(1u << 18)), yes(), "2026-12-03-h200-pass-sync",
     "H200: c2c 32768 1908 -> 2243 (inverse 1911 -> 2249), 65536 1907 -> 2243, 262144 2005 -> 2139 (inverse "
     "2007 -> 2141). Not 2^20 (1697 -> 1639, inverse 1715 -> 1647; the H100 gained, 1382 -> 1445), 2^21 (1570 "
     "-> 1443)"},
    {D::counters, K().r2c().one_d().fp32().in_place(true).points(between(1u << 17, 1u << 18)), yes(),
     "2026-12-03-h200-pass-sync",
     "H200, r2c in place: 131072 1402 -> 1448, 262144 1448 -> 1510; 65536 equal (1579, 1582), 524288 1474 -> "
     "1199. Out of place every r2c loses (65536 1799 -> 1620, 131072 1665 -> 1484, 262144 1729 -> 1540, "
     "524288 1403 -> 1238; the H100 gained at 65536 and 262144, 1413 -> 1541, 1350 -> 1454)"},

    // --- column_radix32: column passes of 512 values or more take radix-32 stages, the remainder
    // second, as register-resident transforms do: one shared-memory exchange fewer, and the stages
    // before the last span few slots, so their exchange rounds can be small.
    {D::column_radix32, K().size(from(512)), yes(), "2026-11-22-h100-rounds",
     "from 1024 first: 2^20 = 1024 x 1024 on an H100, 4 columns per workgroup either way, 32x32 passes 1140 GB/s "
     "against 16x16x4 passes 984, in two sessions (the 1140 in 2026-11-22-h100); from 512 with exchange rounds "
     "(this run): 2^18 = 512 x 512 (32x16 stages, 16 padded columns in 4 rounds) 1446, against 1300 for 16x16x2 "
     "stages in 2 swizzled rounds"},

    // --- fp16_table_twiddles: fp16 kernels compute their twiddles (KernelSpec::twiddle_source), except:
    {D::fp16_table_twiddles, K().fp16().convolution(true).nx(from(8192)), yes(), "2026-11-27-h100-fp16-bloom",
     "a convolution of padded rows of 8192: its inverse rows, which also crop and store the pixels, take 145 "
     "registers with sin/cos against 120 with the table, one workgroup per SM instead of two (H100, 4096² RGBA "
     "bloom: 2.003 -> 1.935 ms, those rows 0.398 -> 0.291; narrower planes are faster computed, 1024² 0.135 -> "
     "0.130)"},

    // --- one_pass_budget: shared_memory_bytes not given, a 1D fp32 kernel whose transform the
    // default budget (32 KB) splits into two passes, or exchanges in rounds, and 48 KB holds in one
    // pass of one round (C2C N up to 12288, R2C up to 24576) takes 48 KB where the plan's devices
    // offer it (its "device_shared_memory_bytes").
    {D::one_pass_budget, K().c2c().one_d().fp32().convolution(false), budget(49152), "2026-11-29-h200-one-pass-budget",
     "H200, ms at 512 MiB, two passes at 32 KB -> one at 48 KB: c2c 8400 0.860 -> 0.662, 8748 0.903 -> 0.596, 9000 "
     "0.824 -> 0.563, 9600 0.857 -> 0.534, 10000 0.823 -> 0.519, 10800 0.849 -> 0.571, 11025 0.912 -> 0.682, 11664 "
     "0.854 -> 0.449, 12000 0.849 -> 0.448; longer lengths take two passes either way (12500 0.686 -> 0.685, 16200 "
     "0.881 -> 0.881). Not 2D rows (c2c 1440 x 2560: 0.830 -> 0.957). One pass exchanged in rounds at 32 KB "
     "(2026-11-30-h200-mixed-rounds, ms at 512 MiB) against one round at 48 KB: 8400 0.624 / 0.485, 9600 0.567 / "
     "0.508, 10000 0.439 / 0.407, 11664 0.531 / 0.493, 12000 0.561 / 0.450"},
    {D::one_pass_budget, K().r2c().one_d().fp32().convolution(false), budget(49152), "2026-11-29-h200-one-pass-budget",
     "H200, ms at 512 MiB, two passes at 32 KB -> one at 48 KB: r2c 16800 1.073 -> 0.802, 18000 1.514 -> 0.668, "
     "20000 0.979 -> 0.602, 22050 1.123 -> 0.945, 24000 0.951 -> 0.527"},

    // --- smooth_bluestein: Bluestein's transforms of a 1D N (a prime factor above 61; c2c, and r2c
    // at full length, which runs as a c2c) take the smallest 7-smooth M >= 2N - 2 rather than the
    // power of two where that M is at most 5/8 of it and its transform one pass of one round
    // (bluestein_transform_layout).
    {D::smooth_bluestein, K().c2c().one_d().fp32().size(up_to(5)), yes(), "2026-11-30-h200-bluestein-lengths",
     "H200, x cuFFT at 512 MiB, M a power of two -> 7-smooth: one pass of one round, M at most 5/8: c2c 131 (512 -> "
     "270) 0.52 -> 0.74, 283 (1024 -> 567) 0.71 -> 0.99, 566 0.76 -> 0.93, 1031 (4096 -> 2100) 0.55 -> 0.76, 2111 "
     "(8192 -> 4320) 0.53 -> 0.92, 2503 (8192 -> 5040) 0.51 -> 0.75, r2c 262 0.36 -> 0.48, 566 0.50 -> 0.60. M "
     "above 5/8: c2c 251 (512 -> 500) 0.86 -> 0.76, 1511 (4096 -> 3024) 0.74 -> 0.63, 1709 1.02 -> 0.73, 4001 0.95 "
     "-> 0.75 (3001, 8192 -> 6000: 0.51 -> 0.74). Rounds: c2c 4099 (16384 -> 8232) 1.69 -> 1.44, 5003 1.57 -> "
     "1.35. Several passes: c2c 12289 (32768 -> 24576) 1.54 -> 1.27, 1000003 1.79 -> 1.26, r2c 349488 0.68 -> "
     "0.56 (c2c 134487, 2^19 -> 270000: 1.19 -> 1.97; r2c 34946 0.56 -> 0.69)"},

    // --- chirp_round_trip: Bluestein's two transforms of a one-pass M in one dispatch per direction
    // (chirp_round_trip, program.cpp) rather than one each (c2c, and r2c through Bluestein on the
    // half: both measured; `size` is M).
    {D::chirp_round_trip, K().one_d().fp32().size(between(4097, 8191)), no(), "2026-11-30-h200-bluestein-real-half",
     "H200, x cuFFT at 512 MiB, two dispatches -> one: smooth M 4320 (c2c 2111) 0.92 -> 0.87, 5040 (c2c 2503) 0.74 "
     "-> 0.66"},
    {D::chirp_round_trip, K().one_d().fp32().size(up_to(8192)), yes(), "2026-11-30-h200-bluestein-real-half",
     "H200, x cuFFT at 512 MiB, two dispatches -> one: M 270 (c2c 131) 0.75 -> 0.82, 512 (c2c 251) 0.87 -> 1.27, "
     "567 (c2c 283) 0.99 -> 1.05, 1134 (c2c 566) 0.92 -> 0.99, 2100 (c2c 1031) 0.76 -> 0.75, 4096 (c2c 1511, 1709, "
     "2029) 0.74 / 1.03 / 0.97 -> 0.73 / 1.01 / 0.98, 8192 (c2c 3001, 3511, 4001) 0.50 / 0.93 / 0.94 -> 0.60 / 1.12 "
     "/ 1.10; r2c on the half: 262 0.63 -> 0.67, 1022 1.26 -> 1.46, 6002 0.54 -> 0.63. Not above: M 16384 in 4 "
     "rounds (c2c 4099, 5003, 6007, 7001) 1.69 / 1.57 / 2.60 / 2.59 -> 1.32 / 1.20 / 2.04 / 2.02, r2c 10006 1.47 -> "
     "1.17"},

    // --- chirp_budget: shared_memory_bytes not given, a 1D Bluestein kernel (c2c, and r2c through
    // Bluestein on the half) whose M takes two passes of at most 256 points in tiles of 16 columns
    // takes 16 KB: the same passes, each exchange in two rounds of 8 KB rather than one of 16 KB.
    {D::chirp_budget, K().one_d().fp32().convolution(false).size(between(32768, 65536)), budget(16384),
     "2026-12-01-h200-tuned-wisdom",
     "H200, ms at 512 MiB, 32 KB -> 16 KB: M 32768: c2c 8209 4.04 -> 3.57, 10007 3.38 -> 2.98, 12289 2.75 -> 2.47, "
     "13733 2.50 -> 2.23, r2c 16418 4.37 -> 3.89, 21992 3.44 -> 3.05; M 65536: c2c 16411 4.19 -> 3.61, 24431 2.85 -> "
     "2.52, 30011 2.42 -> 2.19, r2c 60022 2.74 -> 2.51. Not a one-pass M (16384: c2c 4099 2.29 -> 2.48, 5003 1.90 "
     "-> 2.06, r2c 8198 2.62 -> 2.80, 10006 2.24 -> 2.39) nor passes of 512 points (M 131072: c2c 50021 2.72 -> "
     "2.70; 262144: 100003 2.93 -> 3.07, r2c 200006 3.27 -> 3.40; 524288: c2c 250007 2.66 -> 2.88)"},

    // --- smooth_bluestein_side: a side of a 2D or 3D kernel through Bluestein (c2c and r2c; fp32)
    // takes the smallest 7-smooth M >= 2N - 2 rather than the power of two where that M is at most
    // 5/8 of it (sides_layout), in any number of passes.
    {D::smooth_bluestein_side, K().two_d().fp32().convolution(false).size(up_to(5)), yes(),
     "2026-12-03-h200-three-d-sides",
     "H200, x cuFFT at 512 MiB, every side's M a power of two -> 7-smooth at most 5/8 of it: 17 frames and volumes "
     "0.654 -> 0.837 (geomean), none slower beyond 1 %: 2D c2c 512 x 131 (512 -> 270) 0.73 -> 0.97, 263 x 1024 "
     "(1024 -> 525) 1.01 -> 1.27, 1031^2 (4096 -> 2100) 0.40 -> 0.69, 2053 x 256 (8192 -> 4116) 0.61 -> 1.00, 67 x "
     "512 0.61 -> 0.62; r2c 1031 x 1024 0.36 -> 0.63, 263 x 512 0.74 -> 1.01, 512 x 134 0.54 -> 0.74; 3D c2c 131 x "
     "64 x 64 0.71 -> 0.98, 128 x 128 x 67 0.89 -> 1.04, 67 x 128 x 128 0.70 -> 0.72; r2c 64 x 131 x 256 0.59 -> "
     "0.83, 128 x 128 x 131 0.58 -> 0.76, 67 x 64 x 128 0.71 -> 0.70"},

    // --- grid_budget: shared_memory_bytes not given, a one-pass 2D grid (or 3D plane) of 4096 or
    // 8192 points fills 32 KB unpadded (swizzled, or real and imaginary parts in turn); at 48 KB its
    // slices are padded. Taken where the plan's devices offer 48 KB (its "device_shared_memory_bytes").
    {D::grid_budget, K().c2c().two_d().fp32().convolution(false).points(between(4096, 8192)), budget(49152),
     "2026-11-30-h200-grid-budget",
     "H200, ms at 1 GiB, 32 KB -> 48 KB: 64 x 64 1.020 -> 0.617 (cuFFT 0.961), 64 x 128 1.790 -> 1.013 (cuFFT "
     "1.877), 32 x 128 0.611 -> 0.607; 3D planes: 64^3 1.542 -> 1.134 (cuFFT 1.638), 8 x 64 x 64 1.658 -> 1.250"},
    {D::grid_budget, K().c2c().two_d().fp16().convolution(false).points(between(4096, 8192)), budget(49152),
     "2026-11-30-h200-grid-budget", "H200, ms at 1 GiB, 32 KB -> 48 KB: fp16 64 x 64 1.107 -> 1.023, 64 x 128 3.424 -> 1.822"},

    // --- narrow_budget: shared_memory_bytes not given, a one-pass kernel planned within less.
    // fp64 C2C 4096 (64 KB of values): at 32 KB it exchanges real and imaginary parts in turn on 256
    // invocations (16x16x16); at 16 KB it holds 32 values an invocation on 128 (32x4x32), exchanged
    // in rounds of 1024. Not 2048 (fits 32 KB whole) nor 8192 (32 KB fastest).
    {D::narrow_budget, K().c2c().one_d().fp64().n(at(4096)), budget(16384), "2026-11-29-h200-fp64-counters-in-place",
     "H200, 512 MiB, GB/s against cuFFT's Z2Z in the same run: 4096 3514 (0.865) at 32 KB -> 3978 (0.979) at 16 KB, "
     "3566 at 8 KB; 2048 4076 at 32 KB, 3727 at 16 KB; 8192 3124 at 32 KB, 2834 at 16 KB"},
    // fp32 C2C 8192 (64 KB of values), exchanged in rounds either way: 16x16x32 at 32 KB, 32x16x16 in
    // more and smaller rounds at 16 KB. Measured by fftgen tune twice.
    {D::narrow_budget, K().c2c().one_d().fp32().n(at(8192)), budget(16384), "2026-12-03-h200-pass-sync",
     "H200, 512 MiB, GB/s (tune/): 8192 3447 at 32 KB -> 3851 at 16 KB (3881 as 32x16x16); "
     "2026-12-02-h200-row-workgroups (tune/, 256 MiB): 3342 -> 3746. Not 4096 (3783 -> 3859 at 16 KB; 4022 "
     "with 32 values an invocation at 32 KB, a choice this table does not make)"},
};

}  // namespace

const std::vector<MeasuredRow>& measured_rows() { return kRows; }

const MeasuredRow* measured_choice(MeasuredDecision decision, const MeasuredFacts& facts) {
  for (const MeasuredRow& row : kRows)
    if (row.decision == decision && row.kernels.contains(facts)) return &row;
  return nullptr;
}

bool measured_yes(MeasuredDecision decision, const MeasuredFacts& facts, bool otherwise) {
  const MeasuredRow* row = measured_choice(decision, facts);
  return row ? row->choice.yes : otherwise;
}

// Side factors: not measured per length yet; on an H100 (bench/results/2026-11-23-h100-anysize2) 2D C2C
// 1080x1920 (sides of primes 2, 3 and 5) ran at 1253 GB/s and R2C at 1083, against 1397-1423 and
// 1222-1324 for 2048²: 1.12-1.2 a plane, about 1.06 a side. Radix 7 is unmeasured; its codelet takes
// 88 real operations for 7 points (radix 5: 44 for 5, radix 8: 56 for 8), so a little more.
// Round trips: a mixed one in parts 3, from an H200 (bench/results/2026-11-29-h200-planner-frames,
// RGBA 1080x1920 with 63- and 127-pixel filters, rows of 2048 both ways: the round trip of 1125
// columns took 0.041 ms more than that of 2048 at 0.55x the values, of 1250 0.014 ms more: 4.1x
// and 2.3x a value); one that takes the whole budget 4 (the 4096-point column's at 32 KB, counted
// 1 until then, which put 1440p frames on 4096 x 3840 planes at 1.8x the time of 2160 x 4096):
// ranked on an H200 (bench/results/2026-12-02-h200-padded-planes, planes/: 48 convolutions, 36 of
// workload samples 200-399 and bench/plans/frames.json, each at up to 9 planes, 389 kernels), any
// weight from 3 to 6 ranks the same there. A mixed round trip in one part counts 1, as any pass.
const PaddingWeights& measured_padding_weights() {
  static const PaddingWeights weights{{{2, 1.00}, {3, 1.06}, {5, 1.06}, {7, 1.10}}, 3.0, 4.0};
  return weights;
}

// The cost model (fftgen/cost_model.hpp), fitted by bench/fit_cost_model.py to 387 one-pass 1D
// kernels timed on an H200 (bench/results/2026-11-29-h200-cost-model: radix orders and workgroup
// sizes of 13 lengths of 16 to 128 points, c2c and r2c; 23 mixed-radix lengths of 90 to 8000; and
// the 38 lengths whose split a first fit changed, before and after). Least squares on the log of
// the time with one constant per length. Left-one-length-out, with the margin below, its choices
// among the measured ones ran 1.12x as fast as the search's split (geometric mean of 55 lengths),
// from 4.2x (16) to 0.91x (96). The margin keeps the search's split unless the model predicts a
// gain of 6% (C2C 160: 16x10 measured 8% faster than 10x16, predicted 5.4% slower).
// The exchange map margin: on an H200 (bench/results/2026-11-29-h200-exchange-banks), the 105
// kernels of five workload samples and three plans of lengths whose maps the model changes ran 1.16x
// as fast (geometric mean; 0.86x to 1.74x). C2C 343, predicted 6% fewer wavefronts, 0.96x; C2C 275,
// 8% fewer, 1.30x.
const CostModel& measured_cost_model() {
  static const CostModel nvidia{"nvidia", "2026-11-29-h200-cost-model", 0.514, 0.135, 0.111, 0.146, 1.064, 0.294, 0.06,
                                0.07};
  return nvidia;
}

// The two-pass split model (fftgen/cost_model.hpp), fitted by bench/fit_split_model.py to the 20 of
// 28 swept r2c lengths from 16464 to 3211264 (workloads.py seeds 200-399) with two or more splits
// whose first pass's tiles divide its columns, 110 splits (bench/results/2026-12-02-h200-two-pass-splits,
// sweep/): ranked by weights fitted on the other half of the lengths, splits 1.29x as fast as the
// even split (geometric mean, none slower) and 0.99x the fastest measured. Fewer columns a tile in
// the first pass, and more in the last, ran faster. On lengths of seeds 400-799 never swept: 1.14x
// and 1.11x (final/).
const SplitModel& measured_split_model() {
  static const SplitModel nvidia{"nvidia", "2026-12-02-h200-two-pass-splits", 0.087, -0.170, 0.02};
  return nvidia;
}

// The product tree of a stage's twiddles (PassProgram::stage_twiddle_tree). Powers of two: radix 8
// and more (radix 4 would save one load for one product), early twiddles, or late ones in
// workgroups of 512 invocations or more. Those are held to 128 registers an invocation whatever
// they do (65536 a multiprocessor), so the tree's live twiddles cost no occupancy. With 256, a pass
// under 128 registers can rise above and fit one workgroup a multiprocessor instead of two: on an
// H200, 1D C2C 8192 went from 117 to 141 registers and 3443 to 2716 GB/s, the 4096² bloom's row
// passes from 117 to 136 and 0.31 to 0.40 ms.
// Lengths that are not powers of two: radix 5 and more, early or late, whatever the workgroup: its
// loads a butterfly, held across the exchange or waited for after it, cost more than the
// products (odd radices 5, 7, 9, 15 had no tree before). On an H200
// (bench/results/2026-11-29-h200-mixed-radix-twiddles, 58 mixed-radix kernels): 1.034x as fast
// (geometric mean); C2C 1050 (15x10x7) 1.25x, 1320 1.25x, 735 1.16x, 2352 1.14x, 2145 1.14x; the
// slowest 0.975x (2D 1200 x 1600).
const TwiddleTreeRule& measured_twiddle_tree() {
  static const TwiddleTreeRule rule{5, 8, 512, "2026-11-29-h200-mixed-radix-twiddles"};
  return rule;
}

}  // namespace fftgen
