#include "router.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <vector>

#include "cgemm_simt.h"
#include "cpu_gemm.h"
#include "executor.h"
#include "gemm_f64_mma.h"
#include "gemm_host_small.h"
#include "gemm_peel.h"
#include "gemm_wgmma.h"
#include "log.h"
#include "operands.h"
#include "sgemm_regblock.h"
#include "splitk.h"

namespace tileblas {

namespace {

// ---- GEMM kernel preferences: the routing thresholds, in one table ----------------------------
// A row applies when its kernel exists, supports the problem, and its rule holds; the first such
// row wins. Problems no row claims go to the first supporting row of gemm_kernels().

int64_t tiles(int64_t extent, int64_t tile) { return (extent + tile - 1) / tile; }
int64_t tiles(const Problem& p, int64_t bm, int64_t bn) { return tiles(p.m, bm) * tiles(p.n, bn); }

// The rules below were measured on an H200 (docs/NOTES-sgemm.md, docs/NOTES-tensorcore.md):
// each row is the fastest kernel for the shapes its rule admits.

bool always(const Problem&, const DeviceCaps&) { return true; }

// The 128x128 tile, unsplit, where those tiles cover more than half a round of the SMs but not a
// whole one and k is long (one block on each SM but a few, the larger tile's fewer loads per
// FLOP): at 8192x256x2048 (128 tiles) it ran 39.3 TFLOP/s, 0.91 of cuBLAS, against 34.2-34.6 (0.79)
// for the same kernel over two k slices and 0.82 for the 128x64 tiles unsplit (H100, each row
// forced in one run, docs/bench/h100-2026-11-27-sweep-f32-tall-forced.md). The split-K row had
// beaten the 128x64 rows there (36.9 TFLOP/s against 35.8 unsplit and 36.4 split,
// -sweep-f32-splitk-128x128-forced.md) and lost everywhere else it was tried (128x128x65536,
// 32768x128x256, the panels): it is no longer routed to.
bool nearly_fills_sms_128x128(const Problem& p, const DeviceCaps& caps) {
  const int64_t t = tiles(p, 128, 128);
  return std::min(p.m, p.n) >= 128 && 2 * t > caps.num_sms && t <= caps.num_sms && p.k >= 2048;
}
// Too few 128x64 output tiles to fill the SMs and k long enough to split.
bool split_k_pays(const Problem& p, const DeviceCaps& caps) {
  const int64_t t = tiles(p, 128, 64);
  return (t < caps.num_sms && p.k >= 4096) || (2 * t <= caps.num_sms && p.k >= 512);
}
// The same on 64x64 tiles where m <= 64: a 128-row tile would multiply at least as many zero rows
// as real ones (H200, docs/NOTES-sgemm.md: 16x4096x4096 0.71 of cuBLAS against 0.48, 64x8192x8192
// 0.85 against 0.53; with n <= 64 and m large, 16384x64x4096, the 128x64 tile stays ahead).
// Also with m at most 32 under a long n and k >= 1024, where the 128x64 tiles would not have split
// (H100, 32x8192x2048 with each row forced,
// docs/bench/h100-2026-11-27-sweep-f32-few-rows-forced.md: 64x64 split-K 1.08 of cuBLAS, 64x64
// unsplit 0.98, the skinny 32-row tile 0.80; in an earlier run the 128x64 row routed before 0.66,
// -sweep-tall-skinny-before.md).
bool split_k_pays_few_rows(const Problem& p, const DeviceCaps& caps) {
  return p.m <= 64 && (split_k_pays(p, caps) || (p.m <= 32 && p.n >= 4096 && p.k >= 1024));
}
// fp64, complex fp64 and complex fp32 split-K, on the row it routes to (kRow: that row's tile,
// blocks per SM and shortest slice, kernels/gemm_f64_mma.h, kernels/cgemm_simt.h): its slice rule
// cuts k into two slices or more, and either its tiles leave a quarter of the SMs idle or k is long
// (the partials' extra pass then costs little). H100 sweep, split against not, same run
// (docs/NOTES-f64-complex.md): dgemm 1024^3 (128 tiles, 2 slices) lost 14 %; zgemm 513^3 (81 tiles)
// gained 29 %, 64x8192x8192 (128 tiles, k 8192) 20 %; dgemm 8192x128x8192 and 64x8192x8192 (128
// tiles) 3-4 %.
template <const splitk::Geometry& kRow>
bool split_k_pays_on(const Problem& p, const DeviceCaps& caps) {
  const int64_t t = tiles(p, kRow.block_m, kRow.block_n);
  return (4 * t <= 3 * int64_t(caps.num_sms) || p.k >= 4096) &&
         splitk::slices_for(kRow, p.m, p.n, p.k, caps.num_sms).count >= 2;
}
// Complex fp64 also splits where one side of C is at most 32 (its 64x64 tiles at least half empty)
// and k >= 1024 (H100, the sweep's tall and skinny shapes with the split-K row forced, same run,
// docs/bench/h100-2026-11-27-sweep-f64-c64-splitk-forced.md against -f64-c64-tall-skinny.md):
// 8193x32x1024 0.70 of cuBLAS against 0.58 unsplit, 32x8192x2048 0.61 against 0.54; with both sides
// past 32 and k < 4096 the split lost (256x16384x1024 0.88 against 0.95, 32768x128x256 0.79 against
// 0.99). fp64's 128x64 split-K row lost at 32x8192x2048 (0.75 against 0.79).
bool zgemm_split_k_pays(const Problem& p, const DeviceCaps& caps) {
  return split_k_pays_on<gemm_f64_mma::kZgemmSplitK>(p, caps) ||
         (std::min(p.m, p.n) <= 32 && p.k >= 1024 &&
          splitk::slices_for(gemm_f64_mma::kZgemmSplitK, p.m, p.n, p.k, caps.num_sms).count >= 2);
}
// With interior tiles copied without bounds the 128x128 _align16 row is also faster than the
// 256x128 row once was on large aligned outputs (2048^3 0.870 vs 0.864, 4096^3 0.874 vs 0.857;
// 0.897 at 2048^3 with the lean k-step test), and the 256x128 row was removed.
bool fills_sms_128x128(const Problem& p, const DeviceCaps& caps) {
  return tiles(p, 128, 128) >= caps.num_sms;
}
// Whether the direct fp32 rows can take p with 16-byte copies (their _align16 variants), as the
// 128x128 _align16 row's supports() says.
bool direct_rows_copy_16_bytes(const Problem& p, const DeviceCaps& caps) {
  static const GemmKernel* const aligned_row =
      find_gemm_kernel("sgemm_regblock_128x128x16_align16");
  return aligned_row && aligned_row->supports(p, caps);
}
// Large in every dimension: packing op(A), op(B) into zero-padded tile panels costs little and
// gives a main loop without edges, faster than the direct rows in every layout (4096^3: NN 0.91
// vs 0.85, TN 0.93 vs 0.82, aligned NT 0.90 vs 0.88; docs/NOTES-sgemm.md). At 2048^3 the pack's
// share makes the direct 128x128 row faster (0.854 vs 0.897).
// Operands not 16-byte aligned (the direct rows then copy 4 bytes at a time) are packed once the
// 128x128 tiles fill the SMs and k is at least 64: the packed row forced against the _align4
// 128x128 row in the shape sweep, same run, ran 2049^3 40 % faster, 4095^3 11 %, 3001x2999x1531
// 10-12 % in all four transposes, 2047^3 4 % (H200, 2026-11-23), and 4097^2 x 64 at 0.90 of
// cuBLAS against 0.87 (H100, docs/bench/h100-2026-11-27-sweep-f32-staged-store-forced.md; both
// rows store such a C through shared memory, docs/NOTES-sgemm.md). k below 64 was not measured.
// The packed row multiplies what Problem::a_nonzero / b_nonzero say is zero, where the direct
// rows skip those k-steps (half of them for a triangular operand): such GEMMs stay on the direct
// rows.
bool packing_pays(const Problem& p, const DeviceCaps& caps) {
  if (p.a_nonzero != Triangle::kAll || p.b_nonzero != Triangle::kAll) return false;
  return std::min({p.m, p.n, p.k}) >= 4096 ||
         (p.k >= 64 && fills_sms_128x128(p, caps) && !direct_rows_copy_16_bytes(p, caps));
}
bool half_fills_sms_128x64(const Problem& p, const DeviceCaps& caps) {
  return 2 * tiles(p, 128, 64) >= caps.num_sms;
}
// fp16/bf16 on Hopper, among the wgmma rows (which take every operand, staging what the copy
// engine cannot read). Measured in the shape sweep (H100, 2026-11-25, each row forced against
// cuBLAS, same run; docs/NOTES-tensorcore.md):
// - split-K (128x128 tiles, fp32 partials) where the output covers at most half a wave of 128x64
//   tiles and k is long: 128x128x65536 0.73 of cuBLAS (unsplit 0.06-0.10), 16x4096x4096 0.79
//   (0.71), 64x8192x8192 0.85 (0.78); at 8192x128x8192 (twice that area) 128x64 tiles won (0.95
//   against 0.85), and at 1024^3 the partials' pass lost (0.60 against 0.98);
// - 128x256 tiles once they fill the SMs twice over and k is long enough to fill their 4-stage
//   ring: 4096^3 0.91 (128x128: 0.87), 8192^3 0.96 (0.82), 4097^3 2.1 (1.8); at 2048^3 (128 of
//   them) 0.86 against 1.00, and on m = n = 4096-8192 with k = 32-256 0.66-0.76 against 0.77-0.99
//   (k between 256 and 1531 was not measured);
// - 128x64 tiles where 128x128 tiles would not fill the SMs, or n is 64 or less: 1024^3 0.98
//   (0.81), 8192x256x2048 0.96 (0.80), 16384x64x4096 1.03 (0.90); 2048^3 0.76 (1.00) and
//   32768x128x256 0.95 (1.02) with more tiles;
// - 128x128 tiles elsewhere (panels: 4096^2 x 32-256 0.89-0.99, 8192^2 x 32-256 0.77-0.88).
// The mma.sync rows lost to these everywhere on Hopper (4096^2 x 32: 0.90 against 0.99) and serve
// other devices.
// The narrow split-K rows (64x64 tiles of one warpgroup, a 12-stage ring, one block per SM) where
// an output side is 128 or less, k is long and the 64x64 tiles take at most one block per SM.
// H100, forced over the f16 sweep's tall and skinny shapes against the routing before, same run
// (docs/NOTES-tensorcore.md): 64x8192x8192 0.97 of cuBLAS (split-K 128x128: 0.79), 32x8192x2048
// 0.96 (128x64: 0.79), 128x128x65536 0.88 (0.82), 16x4096x4096 0.81 (0.78), 4096x16x4096 0.87
// (0.86); with more tiles than SMs it lost (16384x64x4096 0.90 against 1.03, 16384x8x1024 0.97
// against 1.04), and at k = 1024 (8193x32x1024 0.80 against 0.82). Routed in the next run: f16
// and bf16 64x8192x8192 0.97-0.98, 32x8192x2048 0.98-1.01, 128x128x65536 0.89.
bool wgmma_narrow_pays(const Problem& p, const DeviceCaps& caps) {
  return std::min(p.m, p.n) <= 128 && p.k >= 2048 && tiles(p, 64, 64) <= caps.num_sms;
}
// fp16/bf16 with an operand the copy engine cannot read in place (a base or leading dimension off
// 16 bytes), which the wgmma rows first copy into aligned columns (kernels/realign.h): on the
// mma.sync 64x64 rows that shift its columns into place as they load, where the product does
// little work per operand byte (mn / (m + n) <= 160: the copy's pass and extra launch are then
// much of the call), its 64x64 tiles take at most one round of the SMs and k is at most 1024 (the
// longest measured). Against the wgmma 128x64 row (the routing before) forced, two runs in turn
// (docs/bench/h100-2026-11-28-f16-shifted-forced.md, h200-...): 251^3-257^3 (and 257^3 in every
// transpose) f16 0.82-1.07 of cuBLAS against 0.71-0.85 on the H100, 0.85-0.97 against 0.72-0.82
// on the H200; bf16 0.95-1.07 against 0.83-0.90, 0.98-1.03 against 0.83-0.89; 8193x32x1024 f16
// 0.90-0.94 against 0.82-0.83, 0.93 against 0.86-0.88; bf16 1.05-1.07 against 0.94-0.98, 1.06
// against 0.99-1.00. At 511^3 and 513^3 (mn / (m + n) about 256) the rows were within 5 % of the
// wgmma row either way on the H100, and with more tiles (1009^3-1025^3) lower; a first build with
// 4 warps a block lost on the H200 (8193x32x1024 f16 0.69-0.72).
// An fp16/bf16 operand is off 16 bytes where the vector mma.sync row of its type, which needs
// exactly what the copy engine needs, does not take the problem.
bool vector_mma_row_reads_in_place(const Problem& p, const DeviceCaps& caps) {
  static const GemmKernel* const f16_row = find_gemm_kernel("gemm_mma_f16_128x128x32");
  static const GemmKernel* const bf16_row = find_gemm_kernel("gemm_mma_bf16_128x128x32");
  const GemmKernel* const row = p.type == DataType::kBF16 ? bf16_row : f16_row;
  return row && row->supports(p, caps);
}
bool shifted_loads_pay(const Problem& p, const DeviceCaps& caps) {
  return caps.sm_version == 90 && p.k <= 1024 && p.m * p.n <= 160 * (p.m + p.n) &&
         tiles(p, 64, 64) <= caps.num_sms && !vector_mma_row_reads_in_place(p, caps);
}
bool wgmma_split_k_pays(const Problem& p, const DeviceCaps& caps) {
  return 2 * p.m * p.n <= int64_t(caps.num_sms) * 128 * 64 && p.k >= 4096 &&
         splitk::slices_for(gemm_wgmma::kSplitK, p.m, p.n, p.k, caps.num_sms).count >= 2;
}
// The persistent 256x128 rows (four warpgroups; H100, forced over the f16 sweep and the bf16
// square, transpose, panel and tall shapes against the routing before, same run,
// docs/bench/h100-2026-11-27-wgmma-256x128.md), where the persistent 128x256 rows do not run
// (fewer than two of their tiles per SM, or k < 1024) and the 256x128 tiles give at least 7/8 of
// the SMs one: f16 (the run's cuBLAS steady) 2048^3 436 TFLOP/s against 410 on 128x128 (1.01 of
// cuBLAS against 0.94), the 4096^2 panels 11-15 % faster (0.96-1.06 against 0.87-0.94), 8192^2 x
// 128-256 4-6 % (8192^2 x 256: 0.88 against 0.82; a tile writes 1 KiB of each column of C, the
// 128-row tiles 512 bytes: ncu 135 us at 59 % of DRAM peak against 151 us at 55 %),
// 256x16384x1024 5 %; bf16 likewise. At 4096^3 and 8192^3 they ran at the persistent 128x256
// rows' rate in the sweep and 1-2 % below it in the kernel bench (another H100,
// -wgmma-persistent-rows.json), so those stay on 128x256. With fewer tiles they lost (1024^3 0.74
// against 0.91, 8192x256x2048 0.82 against 0.92, 16384x64x4096 0.96 against 1.00).
bool wgmma_256x128_fills_sms(const Problem& p, const DeviceCaps& caps) {
  return 8 * tiles(p, 256, 128) >= 7 * int64_t(caps.num_sms);
}
bool wgmma_128x256_fills_sms(const Problem& p, const DeviceCaps& caps) {
  return tiles(p, 128, 256) >= 2 * int64_t(caps.num_sms) && p.k >= 1024;
}
// The persistent rows (an fp32 C with 32-byte aligned columns; H200, each row forced in the f16
// sweep against the routing before, same run, docs/NOTES-tensorcore.md): 128x256 wherever the
// 128x256 row would run (4096^3 0.94 of cuBLAS against 0.92, 8192^3 0.98 against 0.97, the
// transposes at 4096^3 +2 %); 128x128 once its tiles fill the SMs' two blocks 8 times over (the
// panels 8192^2 x 32-128 0.81-0.83 against 0.79-0.82; the 4096^2 panels, 4 waves, lost 2-3 %).
bool wgmma_128x128_many_waves(const Problem& p, const DeviceCaps& caps) {
  return tiles(p, 128, 128) >= 16 * int64_t(caps.num_sms);
}
bool wgmma_128x128_starves(const Problem& p, const DeviceCaps& caps) {
  return p.n <= 64 || tiles(p, 128, 128) < caps.num_sms;
}
// fp64 on the tensor cores: the 128x128 tile wins once its tiles fill the SMs four times over;
// below that the 128x64 tile with two blocks per SM (H200, docs/NOTES-f64-complex.md: 1024^3 0.94
// of cuBLAS on 128x64 against 0.56 on 128x128, 8192x128x8192 0.95 against 0.52).
bool fills_sms_4x_128x128(const Problem& p, const DeviceCaps& caps) {
  return tiles(p, 128, 128) >= 4 * int64_t(caps.num_sms);
}
// Complex fp32: the vector row's k-contiguous copies (A transposed, B not) and the scalar-load
// row run at 0.67-0.85 of cuBLAS where the packed row reaches 0.82-0.94 (H100, 1024^3 to 8192^3,
// NN, TN, CC, 4097^3, skinny shapes; docs/NOTES-f64-complex.md). The packed row packs only what
// the vector kernel cannot read in place (so with A not transposed and B transposed, aligned, it
// is the vector row) and peels thin remainders of m and n. Packing costs one pass over the packed
// operands: at 1024^3 it still left the packed row 22 % ahead, so it is taken down to about 512^3
// (1.07 GFLOP); smaller problems run in place.
bool cgemm_packing_pays(const Problem& p, const DeviceCaps&) { return p.flops() >= 1e9; }
// Complex fp32 on the FP64 tensor cores (the cgemm_widened rows): only where those run at the fp32
// SIMT rate (sm_80, sm_90; elsewhere fp64 is a fraction of it). The widening pass costs about
// 34 / n of the product's time for A and 34 / m for B (24 bytes moved per element against 8 n
// FLOPs), so m and n must be large; the 64x64 tiles (two blocks per SM) must fill at least 3/4
// of their waves' slots; and k must be long enough for the zgemm kernel's pipeline. Measured in the
// shape sweep (H200, the row forced against the SIMT rows as routed before,
// docs/NOTES-f64-complex.md): 4096^3 1.00 of cuBLAS against 0.87, 8192^3 1.02 against 0.87, 1024^3
// 0.91 against 0.84, 3001x2999x1531 0.96 against 0.81, the panels 4096^2 x 256 0.97 against 0.92;
// it lost with k = 32-128 (4096^2 x 32: 0.78 against 0.97), with n or m at most 256 (32768x128x256:
// 0.74 against 0.88), and at 1025^3 (289 tiles: two waves, the second almost empty; 0.76 against
// 0.96).
bool fast_fp64(const DeviceCaps& caps) { return caps.sm_version == 80 || caps.sm_version == 90; }
// The share of the slots (per_sm blocks on every SM) over all the waves that bm x bn tiles fill.
double wave_fill(const Problem& p, const DeviceCaps& caps, int64_t bm, int64_t bn, int64_t per_sm) {
  const int64_t t = tiles(p, bm, bn), slots = per_sm * caps.num_sms;
  return double(t) / double(tiles(t, slots) * slots);
}
// Below m, n >= 1000 the widening's cost is weighed against the SIMT row's own: the packed row
// makes the same pass (16 bytes moved per element against 24) over the operands it cannot read in
// place (A transposed, B not), so only widening an operand it reads in place is extra (34 / n of
// the product for A, 34 / m for B). From m, n >= 256 on, the widened row takes A transposed or
// n >= 512, and B not transposed or m >= 1000. Measured (H200, every row at the trsm/trmm plans'
// narrow GEMMs against cublasCgemm, same run, docs/bench/h200-2026-11-26-cgemm-narrow.md; NT:
// -cgemm-narrow-nt.md), widened against SIMT packed: 256x4096x256 NN 0.79 against 0.78,
// 512x4096x512 NN 1.09 / 1.04, 512x8192x512 NN 0.90 / 0.83, 4096x512x512 NN 1.09 / 1.07,
// 8192x512x512 NN 0.90 / 0.87, 256x4096x256 TN 0.79 / 0.73, 4096x256x256 TN 0.79 / 0.72; where
// the rule keeps the SIMT row: 8192x256x256 NN 0.98 / 1.04, 4096x256x256 NN 0.79 / 0.81,
// 256x4096x256 NT 0.78 / 0.89, 512x4096x512 NT 0.91 / 0.94 (B read in place: m = 512 is not
// enough), and in the sweep 8192x256x2048 NN 0.86 / 0.88. Of the sweep's shapes only
// 256x16384x1024 NN changed rows: 0.81 to 0.86.
// Narrow B under a tall C (n <= 64, m >= 4096, k >= 256) widens whatever the rule above says: the
// SIMT rows' 64x128 tiles are at least half empty there, the widened rows' 64x64 at most half.
// H200, the sweep's two such shapes with the rows forced
// (docs/bench/h200-2026-11-26-sweep-c32-widened-forced.md and -widened-splitk-forced.md):
// 8193x32x1024 0.38 (split-K 0.42) of cuBLAS against 0.29 on the SIMT packed row, 16384x64x4096
// 0.60 (0.60) against 0.46.
bool cgemm_narrow_b(const Problem& p) { return p.n <= 64 && p.m >= 4096 && p.k >= 256; }
// Complex fp32 with only B widened and A read as complex fp32 (the cgemm_widened_b row) where A is
// read as it lies and is much the larger operand (n from 64 to 128, m >= 16 n, k >= 256): the pass
// over A that widening it makes is the larger part of the call there. Measured (H100, the row
// forced against the routing before, two runs in turn,
// docs/bench/h100-2026-11-27-cgemm-widened-b-forced.md), ours / cublasCgemm:
// 16384x64x4096 1.00-1.01 against 0.55-0.56 (cgemm_widened_64x64x8), 8192x128x8192 1.00 against
// 0.88 (SIMT split-K), 32768x128x256 0.98 against 0.87 (SIMT packed); 8192x256x2048 1.02 against
// 0.99-1.00 on the 3M row, a wash, which keeps it.
bool cgemm_widened_b_pays(const Problem& p, const DeviceCaps& caps) {
  return fast_fp64(caps) && p.k >= 256 && p.n >= 64 && p.n <= 128 && p.m >= 16 * p.n &&
         gemm_f64_mma::cgemm_widened_b_reads_a(p);
}
bool cgemm_widening_pays(const Problem& p, const DeviceCaps& caps) {
  if (!fast_fp64(caps) || p.k < 256) return false;
  if (cgemm_narrow_b(p)) return true;
  if (std::min(p.m, p.n) < 256 || wave_fill(p, caps, 64, 64, 2) < 0.75) return false;
  const bool a_read_in_place = p.trans_a == Op::kNoTrans,
             b_read_in_place = p.trans_b != Op::kNoTrans;
  return (!a_read_in_place || p.n >= 512) && (!b_read_in_place || p.m >= 1000);
}
// Complex fp32 as three real fp64 GEMMs (the cgemm_widened_3m rows): a quarter fewer tensor-core
// FLOPs than the widened zgemm kernel, for passes over A and B (32 bytes moved per element) and
// over C (40-48 bytes per element) that the saved FLOPs repay only with k long: 2k FLOPs saved per
// element of C at 60 TFLOP/s against 48 bytes at 2.5 TB/s is k >= 500 on the H100 for C's pass
// alone. Measured (H100, the shape sweep with each 3M row forced against the rows routed before,
// docs/bench/h100-2026-11-26-sweep-c32-3m*.md): it wins from k = 1000 on wherever m and n are 256
// or more (1009^3 0.97 of cuBLAS against 0.89, 1023^3 1.07 / 0.88, 4096^3 1.40 / 1.00,
// 8192x256x2048 1.01 / 0.88, 256x16384x1024 0.95 / 0.84), and loses with k <= 513 (513^3 0.76
// against 0.89, 4096^2 x 256 0.92 / 1.03) or n <= 128 (8192x128x8192 0.78 / 0.88). The 128x128
// dgemm tile where its tiles of the three products fill the SMs four times over (4097^3 TT 1.27
// against 1.14 on 128x64), else the 128x64 tile (1024^3 1.09 against 0.90), as the dgemm rule
// (fills_sms_4x_128x128).
bool cgemm_3m_pays(const Problem& p, const DeviceCaps& caps) {
  return fast_fp64(caps) && std::min(p.m, p.n) >= 256 && p.k >= 1000;
}
bool cgemm_3m_fills_sms_128x128(const Problem& p, const DeviceCaps& caps) {
  return cgemm_3m_pays(p, caps) && 3 * tiles(p, 128, 128) >= 4 * int64_t(caps.num_sms);
}
// fp32 on the FP64 tensor cores (the sgemm_widened rows): the dgemm kernel on operands widened
// once (12 bytes moved per element of A and B against 2 n or 2 m FLOPs each). Measured (H100, the
// shape sweep with each row forced against the SIMT rows as routed,
// docs/bench/h100-2026-11-26-sweep-f32-widened-forced-*.md): it wins wherever m and n are 1000 or
// more and k 256 or more (1024^3 1.12 of cuBLAS against 0.97, 1025^3 0.78 / 0.66, 8192^3 1.17 /
// 0.94, 8192^2 x 256 1.23 / 1.03, 4096^2 x 256 1.01 / 0.94), and loses below (512^3 0.72 / 0.98,
// 4096^2 x 64 0.91 / 1.06, 256x16384x1024 0.76 / 0.91, 8192x128x8192 0.56 / 0.85). The 128x128
// tile (one block per SM) where its tiles fill the SMs four times over and k is long enough for
// its pipeline (4096^3 TN 1.08 against 1.02 on 128x64), else the 128x64 tile (two blocks per SM:
// 2049^3 1.06 against 0.92, 8192^2 x 256 1.23 against 1.12).
bool sgemm_widening_pays(const Problem& p, const DeviceCaps& caps) {
  return fast_fp64(caps) && std::min(p.m, p.n) >= 1000 && p.k >= 256;
}
bool sgemm_widened_fills_sms_128x128(const Problem& p, const DeviceCaps& caps) {
  return sgemm_widening_pays(p, caps) && fills_sms_4x_128x128(p, caps) && p.k >= 1024;
}
// The FP64 tensor cores' 64x64 tile (three blocks per SM) where its tiles take at most one round
// of the SMs, on squares and near-squares of 251 and more (k at most twice the larger side; longer
// k stays with split-K): the 128x64 tiles leave much of a round idle there or take a second one
// for a few tiles (1025^3: 153 of them on 132 SMs), the 64x64 ones balance (289 on 396 slots).
// Measured (H100, each row forced against the routing before, same run,
// docs/bench/h100-2026-11-27-sweep-64x64-forced.md), ours / cuBLAS:
// - fp32 widened, from 500 on (256-257 stay on the SIMT 64x64 row: 0.75-0.94 widened against
//   0.88-1.02): 1025^3 0.99 against 0.79, 513^3 0.99 / 0.80, 511^3 0.99 / 0.89, 512^3 1.01 /
//   0.94, 1009^3 0.98 / 0.95, 1023^3 1.19 / 1.06, 1024^3 NN / NT / TN / TT 1.22 / 0.91 / 1.08 /
//   0.95 against 1.12 / 0.88 / 1.00 / 0.90; past one round it lost (2047^3 0.92 / 1.00, 2049^3
//   0.95 / 1.18, 3001x2999x1531 NN 0.75 / 0.97);
// - fp64, 16-byte loads where aligned, else 8-byte: 256^3 1.13 / 0.70, 512^3 1.10 / 0.80, 1024^3
//   NN 1.14 / 1.07, 251^3-257^3 0.92-1.07 / 0.67-0.71, 511^3 and 513^3 1.17 and 1.28 / 0.88 and
//   0.87, 1009^3-1025^3 1.03-1.14 / 0.78-0.96; it lost at 1024^3 NT and TT (1.01 / 1.06, 0.86 /
//   0.92) and past one round (2048^3 0.81 / 1.02).
bool one_round_of_64x64(const Problem& p, const DeviceCaps& caps, int64_t min_side) {
  return std::min(p.m, p.n) >= min_side && p.k <= 2 * std::max(p.m, p.n) &&
         tiles(p, 64, 64) <= 3 * int64_t(caps.num_sms);
}
bool dgemm_one_round_of_64x64(const Problem& p, const DeviceCaps& caps) {
  return one_round_of_64x64(p, caps, 251);
}
bool sgemm_widened_one_round_of_64x64(const Problem& p, const DeviceCaps& caps) {
  return fast_fp64(caps) && p.k >= 256 && one_round_of_64x64(p, caps, 500);
}
// fp32 with both sides at least 250, whose 64x64 tiles take at most half a round of the SMs, k at
// most twice the larger side, and whose k the 64x64 split-K rows' cluster rule
// (sgemm_regblock::kClusterSplitK64; sm_90) cuts into 2 to 8 slices, summed in their cluster:
// each tile's chain of k-steps spread over more SMs, with no partials. H100, the row forced over
// the fp32 sweep's small, tall and skinny shapes against the routing before, two runs in turn
// (docs/bench/h100-2026-11-28-sweep-f32-cluster-splitk.md): 251^3-257^3, every transpose,
// 1.09-1.30 of cuBLAS against 0.86-1.46 (257^3 NT 1.09-1.10 against 0.86-0.88); 511^3 and 512^3
// 0.96-1.02 against 0.94-0.99 on sgemm_widened_64x64x16; it lost at 513^3 (81 tiles: 0.89-0.95
// against 1.00-1.02) and on every tall and skinny shape (16x4096x4096 0.66-0.68 against 0.93-0.95
// on gemm_skinny_16, 32x8192x2048 0.93 against 1.25-1.27). Routed, the whole fp32 sweep against
// the build before, two runs in turn (-routed.md): 251^3-257^3 1.11-1.53, 511^3 and 512^3
// 0.98-1.06; the sweep's geometric mean 1.086-1.090 against 1.048-1.060.
bool sgemm_split_k_in_cluster_pays(const Problem& p, const DeviceCaps& caps) {
  if (caps.sm_version < 90 || std::min(p.m, p.n) < 250 || p.k > 2 * std::max(p.m, p.n) ||
      2 * tiles(p, 64, 64) > caps.num_sms)
    return false;
  const int64_t slices =
      splitk::slices_for(sgemm_regblock::kClusterSplitK64, p.m, p.n, p.k, caps.num_sms).count;
  return slices >= 2 && slices <= sgemm_regblock::kMaxClusterSlices;
}
// Split-K on widened operands where the zgemm split-K rule holds and m and n exceed 128 (or B is
// narrow under a tall C, above): the small squares 251^3-513^3 ran at 0.63-0.91 of cuBLAS against
// 0.47-0.85 on the SIMT split-K row (the row forced, same sweep); with m or n at most 128 the SIMT
// row stayed ahead (64x8192x8192: 0.66 against 0.61).
bool cgemm_widened_split_k_pays(const Problem& p, const DeviceCaps& caps) {
  return fast_fp64(caps) && (std::min(p.m, p.n) > 128 || cgemm_narrow_b(p)) &&
         split_k_pays_on<gemm_f64_mma::kZgemmSplitK>(p, caps);
}
// fp32 with B alone widened and A read as fp32 (the sgemm_widened_b rows) where A is read as it
// lies and is the much larger operand (m >= 16 n, n >= 64: widening B then costs about 5 n / m of
// A's stream): the FP64 tensor cores without the pass over A that the sgemm_widened rows make.
// Measured (H200, each row forced against the routing before, two runs in turn,
// docs/bench/h200-2026-11-27-widened-b-forced.md), ours / cuBLAS: split-K on the 128x64 tile where
// the SIMT split-K rule holds, 8192x128x8192 0.94-0.95 against 0.83 (SIMT split-K), 16384x64x4096
// 0.97-0.99 against 0.87-0.89 (128x128x65536, m = n: 0.77-0.79 against 0.99; 64x8192x8192, A the
// small operand: 0.36-0.38 against 0.84-0.86); the 128x128 tile where those tiles nearly fill the
// SMs, 8192x256x2048 1.07 against 0.90 (SIMT 128x128). Not on squares: 4096^3 1.04 against 1.13
// with A widened too.
bool sgemm_widened_b_pays(const Problem& p, const DeviceCaps& caps) {
  return fast_fp64(caps) && p.n >= 64 && p.m >= 16 * p.n &&
         gemm_f64_mma::sgemm_widened_b_reads_a(p);
}
// The same with the roles swapped (the sgemm_widened_a row: A widened, B read as fp32) where B is
// the much larger operand, on few rows (32 to 64) where the SIMT 64x64 split-K rule holds, (H200,
// forced against the routing before, two runs in turn,
// docs/bench/h200-2026-11-27-widened-a-forced.md): 64x8192x8192 1.09 against 0.84, 32x8192x2048
// 1.25-1.26 against 1.06 (16x4096x4096 0.84 against 0.90 on the skinny row, which comes first;
// 256x16384x1024, unsplit, 0.73 against 0.90).
bool sgemm_widened_a_split_k_pays(const Problem& p, const DeviceCaps& caps) {
  return fast_fp64(caps) && p.m >= 32 && p.n >= 16 * p.m && split_k_pays_few_rows(p, caps) &&
         gemm_f64_mma::sgemm_widened_a_reads_b(p);
}
bool sgemm_widened_b_split_k_pays(const Problem& p, const DeviceCaps& caps) {
  return sgemm_widened_b_pays(p, caps) && split_k_pays(p, caps);
}
bool sgemm_widened_b_nearly_fills_sms_128x128(const Problem& p, const DeviceCaps& caps) {
  return sgemm_widened_b_pays(p, caps) && nearly_fills_sms_128x128(p, caps);
}

// One small side of C (the gemm_skinny rows, kernels/gemm_skinny.h): a thread per column of the
// long side streams the large operand once, where the tiled rows multiply mostly zero rows.
// Measured (H100, the sweep's shapes with m or n at most 32, each row forced,
// docs/bench/h100-2026-11-27-sweep-skinny-forced-16.md and -32.md, against the rows routed before
// in an earlier run on the same machine, -sweep-tall-skinny-before.md): the 16-row tile wins in
// fp32 (4096x16x4096 1.65 of cuBLAS against 1.16, 16384x8x1024 0.86 / 0.57, 16x4096x4096 0.89 /
// 0.73) and complex fp32 (1.23 / 0.34, 1.25 / 0.34, 0.93 / 0.41); the 32-row tile in complex fp32
// where a side is 17 to 32 (32x8192x2048 0.54 / 0.39, 8193x32x1024 0.82 / 0.36; 0.61-0.64 and
// 0.80-0.81 with one block per SM, -skinny-forced-oneblock.md), not in fp32
// (8193x32x1024 1.31 / 1.24; 32x8192x2048 0.86, where the 64x64 split-K row reaches 1.08: see
// split_k_pays_few_rows). Complex fp64 wins only with n small (4096x16x4096 0.72 / 0.59,
// 16384x8x1024 0.77 / 0.64; 16x4096x4096 0.56 / 0.60, and the 32-row tile lost everywhere); fp64's
// tensor-core rows won every shape (4096x16x4096 0.92 / 0.97, 16384x8x1024 0.87 / 1.00,
// 16x4096x4096 0.68 / 0.73). Only shapes like those measured: the long side 4096 or more, k 1024
// or more. The 8-row tile (half the FMAs and broadcast reads of the 16-row one where the side is at
// most 8) is taken where the 16-row one was, for a side of at most 8: at 16384x8x1024, same run
// (H100, docs/bench/h100-2026-11-27-skinny8.md), fp32 0.94 of cuBLAS against 0.85 on the 16-row
// tile, complex fp32 1.52 against 1.24, complex fp64 1.02 against 0.79. The preferences try the
// smaller tiles first: a side of at most 8 goes to the 8-row tile, 9 to 16 to the 16-row one.
bool skinny_fits(const Problem& p, int64_t tile) {
  if (std::max(p.m, p.n) < 4096 || p.k < 1024) return false;
  switch (p.type) {
    case DataType::kF32:
      return tile <= 16 && std::min(p.m, p.n) <= tile;
    case DataType::kC32:
      return std::min(p.m, p.n) <= tile;
    case DataType::kC64:
      return tile <= 16 && p.n <= tile && p.m > tile;
    default:
      return false;
  }
}
bool skinny_8_pays(const Problem& p, const DeviceCaps&) { return skinny_fits(p, 8); }
bool skinny_16_pays(const Problem& p, const DeviceCaps&) { return skinny_fits(p, 16); }
bool skinny_32_pays(const Problem& p, const DeviceCaps&) { return skinny_fits(p, 32); }
// A row's interior with the thin remainders of m and n on gemm_skinny (the _peeled_ rows,
// src/gemm_peel.h), where the row's own rule holds and peeling_pays(): the interior takes two
// rounds of the SMs (tiles / SMs, rounded up) or more and a tenth fewer than the whole C, with k of
// 512 or more. Measured (H100, each peeled row forced against its interior row in one run, the
// remainders on the call's stream; docs/bench/h100-2026-11-28-peel-streams.md), TFLOP/s: fp32
// 2049^3 44.4 against 40.5, 4097^3 NN / TN / NT / TT 50.3 / 51.0 / 51.7 / 52.6 against 47.5 /
// 48.5 / 48.6 / 48.5; fp64 2049^3 44.1 against 35.3, 4097^3 52.2 against 50.4; complex fp64
// 1025^3 35.0 against 31.5, 2049^3 48.2 against 46.6. Lost: fp64 1025^3 17.3 against 21.9 (one
// round either way; fp32 1025^3 won there, 23.2 against 19.9, in that one run), fp64 4097^2 x 64
// 9.8 against 12.0 (docs/bench/h100-2026-11-27-sweep-peel-forced-serial.md: with k = 64 the
// remainders cost more than the round they save).
constexpr int64_t kMinPeeledK = 512;
bool peeling_pays(const Problem& p, const DeviceCaps& caps, int64_t bm, int64_t bn) {
  const gemm_peel::Split s = gemm_peel::split_of(p, bm, bn);
  if (p.k < kMinPeeledK || (s.m_in == p.m && s.n_in == p.n)) return false;
  auto rounds = [&](int64_t m, int64_t n) {
    return (tiles(m, bm) * tiles(n, bn) + caps.num_sms - 1) / caps.num_sms;
  };
  const int64_t interior = rounds(s.m_in, s.n_in);
  return interior >= 2 && 10 * interior <= 9 * rounds(p.m, p.n);
}
template <bool (*kRule)(const Problem&, const DeviceCaps&), int kBm, int kBn>
bool peeled(const Problem& p, const DeviceCaps& caps) {
  return kRule(p, caps) && peeling_pays(p, caps, kBm, kBn);
}
// TF32 pays once the 128x128 tensor-core tiles fill the SMs (tile-starved at 1024^3).
bool large_tf32(const Problem& p, const DeviceCaps& caps) {
  return fills_sms_128x128(p, caps) && p.k >= 512;
}

// Host data goes to the GPU only when predicted this much faster: near the crossover the two
// predictions are within their error of each other, and there the CPU BLAS is the safe side.
constexpr double kGpuAdvantage = 1.25;
// Level 3 other than GEMM on host data (route_level3()) takes the same margin: at or below 512^3
// (the routine's measured points, Level3Points) over the routine's own times on each side, above
// it over a prediction made from the GEMM rates of the same element type: the CPU BLAS at its GEMM
// time for the call's FLOPs (OpenBLAS builds these routines on its GEMM kernels), the GPU plan at
// this fraction of our GEMM kernel's rate, for its diagonal-block kernels and extra launches (not
// measured per plan), plus the host operands' copies (staged, where the pipeline is there). Calls
// that multiply nothing (alpha == 0, or k == 0) stay on the CPU, as O(n) work does.
constexpr double kPlanShareOfGemmRate = 0.5;
// Likewise the host team, and our host kernel, against one CPU BLAS call.
constexpr double kTeamAdvantage = 1.1;
constexpr double kHostKernelAdvantage = 1.1;
// And a Level-3 routine's plan on the host against the CPU BLAS's own routine, at its measured
// points (route_level3()).
constexpr double kHostPlanAdvantage = 1.1;
// Its points are measured with the CPU BLAS's workers asleep. Right after a call on the CPU BLAS,
// with them still spinning (cpu_blas::kWorkersSpinSeconds), the plan's team ran 1.7-3.2x slower on
// the H100 host (csyr2k_, cher2k_ 128: 46-71 GFLOP/s against 148 alone; chemm_ 128 with its GEMM
// on the CPU BLAS: 78-126 against 338): then its times count this many times over.
constexpr double kHostPlanSlowdownWhileSpinning = 4.0;
// A host-team call whose workers sleep wakes them when the call would take at least this long on
// one thread (the faster of one CPU BLAS call and the host kernel). Waking costs the caller one
// system call, but woken workers on cold cores, sharing them with a CPU BLAS's spinning threads,
// may finish late, and the call waits for a part a worker has started. Measured on the H200 host
// (docs/NOTES-host.md): 128^3 (33 us on one thread) after a 1 ms pause took 59 and 122 us woken,
// against 63-67 us on the host kernel alone; 256^3 (190 us on one thread) took 69-76 us woken,
// against about 130 us on the GPU.
constexpr double kTeamWakeAboveSeconds = 100e-6;
// Host team panels: about this much work each, in fp32 FLOPs (measured in fp32 on the H200 host,
// docs/NOTES-host.md: OpenBLAS's own per-call cost and its allocator's lock make smaller panels
// lose; 48^3 ran fastest in 2 panels, 64^3 in 4). Other types' panels take about as long:
// flops() counts a complex multiply-add as 8, the real FLOPs the "1m" host kernel runs on the real
// kernel of its precision, and a FLOP of fp64 or complex double takes twice as long as one of fp32
// (half the lanes per vector, on our host kernel as in a CPU BLAS), so it counts twice. For CPU
// BLAS panels, at most kCpuTeamMaxPartProducts multiply-adds (m n k) each, whatever the type:
// OpenBLAS keeps a ?gemm_ call of up to 64^3 on one thread; a larger panel would wake its threads
// from each of ours.
constexpr double kCpuTeamPartFlops = double(1 << 17);
constexpr double kCpuTeamMaxPartProducts = 64.0 * 64 * 64;

// `kernel` is a name prefix: it covers a family's alignment variants (e.g. _align16 before
// _align4), tried in gemm_kernels() order.
struct Preference {
  const char* kernel;
  bool (*rule)(const Problem&, const DeviceCaps&);
  const char* why;
};

const Preference kGemmPreferences[] = {
    {"gemm_skinny_8", skinny_8_pays, "one side of C at most 8: a thread per column, split-K"},
    {"gemm_skinny_16", skinny_16_pays, "one side of C at most 16: a thread per column, split-K"},
    {"gemm_skinny_32", skinny_32_pays, "one side of C at most 32: a thread per column, split-K"},
    {"gemm_wgmma_f16_narrow_splitk_", wgmma_narrow_pays,
     "fp16 tensor cores, wgmma (sm_90): a narrow output, long k: 64x64 tiles, deep ring"},
    {"gemm_wgmma_bf16_narrow_splitk_", wgmma_narrow_pays,
     "bf16 tensor cores, wgmma (sm_90): a narrow output, long k: 64x64 tiles, deep ring"},
    {"gemm_wgmma_f16_splitk_", wgmma_split_k_pays,
     "fp16 tensor cores, wgmma (sm_90): few tiles, long k: split-K"},
    {"gemm_wgmma_bf16_splitk_", wgmma_split_k_pays,
     "bf16 tensor cores, wgmma (sm_90): few tiles, long k: split-K"},
    {"gemm_mma_f16_shifted_64x64x32", shifted_loads_pay,
     "fp16 tensor cores, an operand off 16 bytes, few tiles: its columns shifted in as they load"},
    {"gemm_mma_bf16_shifted_64x64x32", shifted_loads_pay,
     "bf16 tensor cores, an operand off 16 bytes, few tiles: its columns shifted in as they load"},
    {"gemm_wgmma_f16_persistent_128x256x64", wgmma_128x256_fills_sms,
     "fp16 tensor cores, wgmma (sm_90), 128x256, persistent"},
    {"gemm_wgmma_bf16_persistent_128x256x64", wgmma_128x256_fills_sms,
     "bf16 tensor cores, wgmma (sm_90), 128x256, persistent"},
    {"gemm_wgmma_f16_persistent_256x128x64", wgmma_256x128_fills_sms,
     "fp16 tensor cores, wgmma (sm_90), 256x128, persistent"},
    {"gemm_wgmma_bf16_persistent_256x128x64", wgmma_256x128_fills_sms,
     "bf16 tensor cores, wgmma (sm_90), 256x128, persistent"},
    {"gemm_wgmma_f16_128x256x64", wgmma_128x256_fills_sms,
     "fp16 tensor cores, wgmma (sm_90), 128x256"},
    {"gemm_wgmma_bf16_128x256x64", wgmma_128x256_fills_sms,
     "bf16 tensor cores, wgmma (sm_90), 128x256"},
    {"gemm_wgmma_f16_128x64x64", wgmma_128x128_starves, "fp16 tensor cores, wgmma (sm_90), 128x64"},
    {"gemm_wgmma_bf16_128x64x64", wgmma_128x128_starves,
     "bf16 tensor cores, wgmma (sm_90), 128x64"},
    {"gemm_wgmma_f16_persistent_128x128x64", wgmma_128x128_many_waves,
     "fp16 tensor cores, wgmma (sm_90), 128x128, persistent"},
    {"gemm_wgmma_bf16_persistent_128x128x64", wgmma_128x128_many_waves,
     "bf16 tensor cores, wgmma (sm_90), 128x128, persistent"},
    {"gemm_wgmma_f16_128x128x64", always, "fp16 tensor cores, wgmma (sm_90), 128x128"},
    {"gemm_wgmma_bf16_128x128x64", always, "bf16 tensor cores, wgmma (sm_90), 128x128"},
    {"gemm_wgmma_tf32_", large_tf32, "TF32 tensor cores, wgmma (sm_90, TILEBLAS_ALLOW_TF32=1)"},
    {"gemm_mma_f16_", always, "fp16 tensor cores"},
    {"gemm_mma_bf16_", always, "bf16 tensor cores"},
    {"gemm_mma_tf32_", large_tf32, "TF32 tensor cores (TILEBLAS_ALLOW_TF32=1)"},
    {"dgemm_mma_f64_64x64x16", dgemm_one_round_of_64x64,
     "fp64 tensor cores, 64x64 tiles: at most one round of the SMs"},
    {"dgemm_mma_f64_scalarload_64x64x16", dgemm_one_round_of_64x64,
     "fp64 tensor cores, 8-byte loads, 64x64 tiles: at most one round of the SMs"},
    {"dgemm_splitk_", split_k_pays_on<gemm_f64_mma::kDgemmSplitK>,
     "fp64: few tiles, long k: split-K"},
    {"zgemm_splitk_", zgemm_split_k_pays,
     "complex fp64: few tiles or a side of at most 32, long k: split-K"},
    {"zgemm_peeled_64x64x8", peeled<always, 64, 64>,
     "complex fp64 tensor cores, thin remainders of m and n peeled"},
    {"dgemm_peeled_128x128x16", peeled<fills_sms_4x_128x128, 128, 128>,
     "fp64 tensor cores, 128x128 tiles, thin remainders of m and n peeled"},
    {"dgemm_mma_f64_128x128x16", fills_sms_4x_128x128, "fp64 tensor cores, 128x128 tiles"},
    {"dgemm_peeled_128x64x16", peeled<always, 128, 64>,
     "fp64 tensor cores, 128x64 tiles, thin remainders of m and n peeled"},
    {"dgemm_mma_f64_128x64x16", always, "fp64 tensor cores, 128x64 tiles (few tiles)"},
    {"dgemm_peeled_scalarload_128x128x16", peeled<always, 128, 128>,
     "fp64 tensor cores, 8-byte loads, thin remainders of m and n peeled"},
    {"cgemm_widened_b_64x64x8", cgemm_widened_b_pays,
     "complex fp32, A much larger than B: B widened, A read as complex fp32"},
    {"cgemm_widened_3m_128x128x16", cgemm_3m_fills_sms_128x128,
     "complex fp32 as three fp64 GEMMs (3M), 128x128 tiles"},
    {"cgemm_widened_3m_128x64x16", cgemm_3m_pays,
     "complex fp32 as three fp64 GEMMs (3M), 128x64 tiles"},
    {"cgemm_widened_splitk_", cgemm_widened_split_k_pays,
     "complex fp32 on the FP64 tensor cores: few tiles, long k: split-K"},
    {"cgemm_widened_64x64x8", cgemm_widening_pays, "complex fp32 on the FP64 tensor cores"},
    {"cgemm_splitk_", split_k_pays_on<cgemm_simt::kSplitK>,
     "complex fp32: few tiles, long k: split-K"},
    {"cgemm_simt_packed_", cgemm_packing_pays,
     "complex fp32: packed where not m/n-contiguous, edges peeled"},
    {"sgemm_splitk_64x64x16", sgemm_split_k_in_cluster_pays,
     "fp32, few 64x64 tiles: split-K summed in each tile's cluster"},
    {"sgemm_widened_64x64x16", sgemm_widened_one_round_of_64x64,
     "fp32 on the FP64 tensor cores, 64x64 tiles: at most one round of the SMs"},
    {"sgemm_peeled_widened_128x128x16", peeled<sgemm_widened_fills_sms_128x128, 128, 128>,
     "fp32 on the FP64 tensor cores, 128x128 tiles, thin remainders of m and n peeled"},
    {"sgemm_widened_128x128x16", sgemm_widened_fills_sms_128x128,
     "fp32 on the FP64 tensor cores, 128x128 tiles"},
    {"sgemm_peeled_widened_128x64x16", peeled<sgemm_widening_pays, 128, 64>,
     "fp32 on the FP64 tensor cores, 128x64 tiles, thin remainders of m and n peeled"},
    {"sgemm_widened_128x64x16", sgemm_widening_pays, "fp32 on the FP64 tensor cores, 128x64 tiles"},
    {"sgemm_widened_b_splitk_128x64x16", sgemm_widened_b_split_k_pays,
     "fp32, A much larger than B: B widened, A read as fp32, split-K on 128x64 tiles"},
    {"sgemm_widened_b_128x128x16", sgemm_widened_b_nearly_fills_sms_128x128,
     "fp32, A much larger than B: B widened, A read as fp32, 128x128 tiles"},
    {"sgemm_widened_a_splitk_64x64x16", sgemm_widened_a_split_k_pays,
     "fp32, few rows, B much larger than A: A widened, B read as fp32, split-K on 64x64 tiles"},
    {"sgemm_splitk_64x64x16", split_k_pays_few_rows, "few rows, long k: split-K on 64x64 tiles"},
    {"sgemm_regblock_128x128x16", nearly_fills_sms_128x128,
     "128x128 tiles fill more than half a round of the SMs, long k"},
    {"sgemm_splitk_128x64x16", split_k_pays, "few output tiles, long k: split-K"},
    {"sgemm_packed_128x128x16", packing_pays, "large, or unaligned with long k: packed operands"},
    {"sgemm_regblock_128x128x16", fills_sms_128x128, "128x128 tiles fill the SMs"},
    {"sgemm_regblock_128x64x16", half_fills_sms_128x64, "mid-size: 128x64 tiles"},
    {"sgemm_regblock_64x64x16", always, "small or skinny: 64x64 tiles"},
};

constexpr size_t kPreferences = std::size(kGemmPreferences);

// The rows of gemm_kernels() that each preference's prefix names, in table order: matched once,
// not on every call (comparing every row's name with every prefix took ~1.5 us a call).
const std::array<std::vector<const GemmKernel*>, kPreferences>& preference_rows() {
  static const auto rows = [] {
    std::array<std::vector<const GemmKernel*>, kPreferences> r;
    for (size_t i = 0; i < kPreferences; ++i) {
      const size_t len = std::strlen(kGemmPreferences[i].kernel);
      for (const GemmKernel& k : gemm_kernels()) {
        if (std::strncmp(k.name, kGemmPreferences[i].kernel, len) == 0) r[i].push_back(&k);
      }
    }
    return r;
  }();
  return rows;
}

// The preference's rule once (cheap arithmetic on the shape), then its rows' supports(), which may
// cost more (a peeled row asks its interior row and gemm_skinny about each part).
const GemmKernel* preferred(size_t i, const Problem& p, const DeviceCaps& caps) {
  if (!kGemmPreferences[i].rule(p, caps)) return nullptr;
  for (const GemmKernel* k : preference_rows()[i]) {
    if (k->supports(p, caps)) return k;
  }
  return nullptr;
}

template <class Call, class Kernel>
const Kernel* forced(const std::vector<Kernel>& table, const Call& p, const DeviceCaps& caps,
                     const std::string& force, std::string* why) {
  if (force.empty()) return nullptr;
  for (const Kernel& k : table) {
    if (force != k.name) continue;
    if (k.supports(p, caps)) {
      *why = "TILEBLAS_FORCE_KERNEL";
      return &k;
    }
    warn_once(("force-unsupported-" + force).c_str(),
              "TILEBLAS_FORCE_KERNEL=" + force +
                  " does not support some calls; those use the kernel the router picks");
    return nullptr;
  }
  return nullptr;
}

template <class Call, class Kernel>
const Kernel* first_supporting(const std::vector<Kernel>& table, const Call& p,
                               const DeviceCaps& caps) {
  for (const Kernel& k : table) {
    if (k.supports(p, caps)) return &k;
  }
  return nullptr;
}

double bytes_of(int64_t rows, int64_t cols, DataType t) {
  return double(rows) * double(cols) * double(size_of(t));
}

double rate_for(MemKind kind, double pinned, double pageable) {
  return kind == MemKind::kHostPinned ? pinned : pageable;
}

}  // namespace

const GemmKernel* pick_gemm_kernel(const Problem& p, const DeviceCaps& caps,
                                   const std::string& force, std::string* why) {
  if (const GemmKernel* k = forced(gemm_kernels(), p, caps, force, why)) return k;
  for (size_t i = 0; i < kPreferences; ++i) {
    if (const GemmKernel* k = preferred(i, p, caps)) {
      *why = kGemmPreferences[i].why;
      return k;
    }
  }
  *why = "first kernel that supports the problem";
  return first_supporting(gemm_kernels(), p, caps);
}

namespace {

// Linear interpolation at f between the measured points i - 1 and i (x[i - 1] < f <= x[i]).
double between_points(const double* x, const double* t, int i, double f) {
  return t[i - 1] + (t[i] - t[i - 1]) * (f - x[i - 1]) / (x[i] - x[i - 1]);
}

}  // namespace

double predict_cpu_seconds(const Problem& p, const Rates& r) {
  const double f = p.flops();
  if (r.cpu_points < 2) return r.cpu_overhead_s + f / r.cpu_flops;
  const double* x = r.cpu_point_flops;
  const double* t = r.cpu_point_s;
  if (f <= x[0]) return t[0];  // below the smallest size measured: at most its time
  for (int i = 1; i < r.cpu_points; ++i) {
    if (f <= x[i]) return between_points(x, t, i, f);
  }
  return t[r.cpu_points - 1] + (f - x[r.cpu_points - 1]) / r.cpu_flops;
}

bool team_call_wakes(double cpu_blas_seconds, double host_kernel_seconds) {
  const double one_thread =
      host_kernel_seconds > 0 ? std::min(host_kernel_seconds, cpu_blas_seconds) : cpu_blas_seconds;
  return one_thread >= kTeamWakeAboveSeconds;
}

int cpu_team_parts(const Problem& p, int threads) {
  if (!cpu_team_serves(p)) return 0;
  const double fp32_flops = p.flops() * double(real_size_of(p.type) / sizeof(float));
  const int64_t by_work = int64_t(std::ceil(fp32_flops / kCpuTeamPartFlops));
  const int64_t wanted = std::min(by_work, int64_t(threads));
  const bool on_host_kernel = team_panels_on_host_kernel(p);
  const int64_t parts = std::min(wanted, team_split(p, wanted, on_host_kernel).room);
  if (parts < 2) return 0;
  // Panels on our host kernel never wake a CPU BLAS's threads: any size.
  const double products = double(p.m) * double(p.n) * double(p.k);
  if (products / double(parts) > kCpuTeamMaxPartProducts && !on_host_kernel) {
    return 0;
  }
  return int(parts);
}

namespace {

// Seconds interpolated from measured points t (0 where not measured) at the CPU points' FLOPs:
// below the first point its time when `below_first` (a smaller problem costs at most that), else
// 0 (unknown), as above the last or next to a point that was not measured.
double from_points(const Rates& r, const double* t, double f, bool below_first) {
  const double* x = r.cpu_point_flops;
  for (int i = 0; i < r.cpu_points; ++i) {
    if (f > x[i]) continue;
    if (f == x[i]) return t[i];
    if (i == 0) return below_first ? t[0] : 0;
    if (t[i - 1] <= 0 || t[i] <= 0) return 0;
    return between_points(x, t, i, f);
  }
  return 0;
}

}  // namespace

double predict_cpu_team_seconds(const Problem& p, const Rates& r) {
  return from_points(r, r.cpu_team_point_s, p.flops(), false);
}

double predict_host_kernel_seconds(const Problem& p, const Rates& r) {
  if (!gemm_host_small::supports(p, gemm_host_small::best_isa())) return 0;
  return from_points(r, r.host_kernel_point_s, p.flops(), true);
}

namespace {

// Host operands of at least this many bytes go through the staging pipeline when no measured rates
// decide (TILEBLAS_MODE=gpu, host operands beside device ones): below it, plain copies cost less
// than handing work to the copy threads.
constexpr double kStagedMinBytes = double(4 << 20);
// Staging panels: at most this many (each adds copy and launch latencies).
constexpr int64_t kMaxPanels = 8;

double host_bytes(const Problem& p, const Placement& where) {
  double bytes = 0;
  if (!device_accessible(where.a)) bytes += bytes_of(p.a_rows(), p.a_cols(), p.type);
  if (!device_accessible(where.b)) bytes += bytes_of(p.b_rows(), p.b_cols(), p.type);
  if (!device_accessible(where.c)) {
    bytes += bytes_of(p.m, p.n, p.c_type) * (p.beta != 0.0f ? 2 : 1);
  }
  return bytes;
}

// Without measured rates: bounced where the host operands fit the buffer, staged from
// kStagedMinBytes, plain copies between.
void copies_by_size(const Problem& p, const Placement& where, const DeviceCaps& caps,
                    GemmRoute* r) {
  const double bytes = host_bytes(p, where);
  if (bytes > 0 && bounce_fits(p, where)) {
    r->copies = HostCopies::kBounced;
  } else if (bytes >= kStagedMinBytes) {
    r->copies = HostCopies::kStaged;
    r->panel_cols = gemm_panel_cols(p, where, caps);
  }
}

}  // namespace

int64_t gemm_panel_cols(const Problem& p, const Placement& where, const DeviceCaps& caps) {
  // Only A to copy: all of it is needed before any panel can start.
  if (device_accessible(where.b) && device_accessible(where.c)) return p.n;
  // Each panel at least two waves of 128x128 tiles.
  const int64_t min_cols = tiles(2 * int64_t(std::max(caps.num_sms, 1)), tiles(p.m, 128)) * 128;
  const int64_t panels = std::clamp<int64_t>(p.n / min_cols, 1, kMaxPanels);
  return std::min(p.n, tiles(tiles(p.n, panels), 128) * 128);
}

double predict_gpu_seconds(const Problem& p, const Placement& where, const Rates& r,
                           int64_t panel_cols) {
  const double a_bytes = bytes_of(p.a_rows(), p.a_cols(), p.type);
  const double b_bytes = bytes_of(p.b_rows(), p.b_cols(), p.type);
  const double c_bytes = bytes_of(p.m, p.n, p.c_type);
  const double compute = p.flops() / r.gpu_flops;
  if (panel_cols <= 0) {  // plain copies, one after another, then the kernel, then C back
    double t = r.gpu_overhead_s + compute;
    if (!device_accessible(where.a)) {
      t += a_bytes / rate_for(where.a, r.h2d_pinned_bps, r.h2d_pageable_bps);
    }
    if (!device_accessible(where.b)) {
      t += b_bytes / rate_for(where.b, r.h2d_pinned_bps, r.h2d_pageable_bps);
    }
    if (!device_accessible(where.c)) {
      if (p.beta != 0.0f) {
        t += r.transfer_latency_s +
             c_bytes / rate_for(where.c, r.h2d_pinned_bps, r.h2d_pageable_bps);
      }
      t += c_bytes / rate_for(where.c, r.d2h_pinned_bps, r.d2h_pageable_bps);
    }
    return t;
  }
  // Staged: A whole first; then per panel its share of op(B) and C in and C out (the copy threads
  // do both directions in turn) against its share of the compute, one overlapping the other.
  const double panels = double(tiles(p.n, panel_cols));
  double first = 0, copies = 0;
  int copies_per_panel = 0;
  if (!device_accessible(where.a)) {
    first = r.staged_latency_s + a_bytes / rate_for(where.a, r.h2d_pinned_bps, r.h2d_staged_bps);
  }
  if (!device_accessible(where.b)) {
    copies += b_bytes / rate_for(where.b, r.h2d_pinned_bps, r.h2d_staged_bps);
    ++copies_per_panel;
  }
  if (!device_accessible(where.c)) {
    if (p.beta != 0.0f) {
      copies += c_bytes / rate_for(where.c, r.h2d_pinned_bps, r.h2d_staged_bps);
      ++copies_per_panel;
    }
    copies += c_bytes / rate_for(where.c, r.d2h_pinned_bps, r.d2h_staged_bps);
    ++copies_per_panel;
  }
  const double x = copies / panels + copies_per_panel * r.staged_latency_s;
  const double y = compute / panels;
  return r.gpu_overhead_s + first + panels * std::max(x, y) + std::min(x, y);
}

double predict_bounced_seconds(const Problem& p, const Placement& where, const Rates& r) {
  return r.bounce_overhead_s + host_bytes(p, where) / r.bounce_bps + p.flops() / r.bounce_flops;
}

namespace {

bool bounce_was_measured(const Rates& r) { return r.bounce_bps > 0 && r.bounce_flops > 0; }

// The least a host-data call on the GPU costs: the fixed cost of a tiny GEMM, plain or bounced.
double gpu_fixed_cost(const Rates& r) {
  return bounce_was_measured(r) ? std::min(r.gpu_overhead_s, r.bounce_overhead_s)
                                : r.gpu_overhead_s;
}

// The reason's text for a host call kept on the CPU, compared with the GPU's fixed cost alone
// (`fixed`) or with its whole prediction. Static strings: Reason keeps the pointer.
const char* cpu_path_label(CpuPath path, bool fixed) {
  switch (path) {
    case CpuPath::kHostTeam:
      return fixed ? "host data, host team; GPU fixed cost" : "host data, host team";
    case CpuPath::kHostKernel:
      return fixed ? "host data, host kernel; GPU fixed cost" : "host data, host kernel";
    case CpuPath::kCpuBlas:
      break;
  }
  return fixed ? "host data, GPU fixed cost" : "host data";
}

// The CPU side per the rates: one CPU BLAS call, the host team running it in panels, or our host
// kernel, either of the last two only where predicted faster by its margin. Sets r's cpu_path,
// cpu_parts and wake_team; returns the predicted seconds.
// With `own_paths_only`, the CPU BLAS only where neither our host kernel nor the team takes p.
double choose_cpu_path(const Problem& p, const Rates& rates, GemmRoute* r,
                       bool own_paths_only = false) {
  double t_cpu = predict_cpu_seconds(p, rates);
  const double t_blas = t_cpu;
  const double t_team = predict_cpu_team_seconds(p, rates);
  const double t_kernel = predict_host_kernel_seconds(p, rates);
  if (t_team > 0 && (own_paths_only || t_team * kTeamAdvantage < t_blas)) {
    t_cpu = t_team;
    r->cpu_path = CpuPath::kHostTeam;
    r->cpu_parts = cpu_team_parts(p, rates.cpu_team_threads);
  }
  const bool kernel_may_run = own_paths_only || t_kernel * kHostKernelAdvantage < t_blas;
  if (t_kernel > 0 && kernel_may_run && (r->cpu_path != CpuPath::kHostTeam || t_kernel < t_cpu)) {
    t_cpu = t_kernel;
    r->cpu_path = CpuPath::kHostKernel;
    r->cpu_parts = 0;
  }
  r->wake_team = r->cpu_path == CpuPath::kHostTeam && team_call_wakes(t_blas, t_kernel);
  return t_cpu;
}

// The reason's text for a call without a GPU, before the reason no GPU is used.
const char* no_gpu_label(CpuPath path) {
  switch (path) {
    case CpuPath::kHostTeam:
      return "host team; no GPU: ";
    case CpuPath::kHostKernel:
      return "host kernel; no GPU: ";
    case CpuPath::kCpuBlas:
      break;
  }
  return "no GPU: ";
}

}  // namespace

SmallCallRule small_call_rule(const Rates& r) {
  const double gpu_floor = gpu_fixed_cost(r);
  SmallCallRule rule;
  for (int i = 0; i < r.cpu_points; ++i) {
    const double t_blas = r.cpu_point_s[i], t_kernel = r.host_kernel_point_s[i],
                 t_team = r.cpu_team_point_s[i];
    const bool kernel_wins = t_kernel > 0 && t_kernel * kHostKernelAdvantage < t_blas &&
                             (t_team <= 0 || t_kernel < t_team);
    const bool blas_wins = !(t_kernel > 0 && t_kernel * kHostKernelAdvantage < t_blas) &&
                           !(t_team > 0 && t_team * kTeamAdvantage < t_blas);
    const double t_cpu = kernel_wins ? t_kernel : t_blas;
    if (!(kernel_wins || blas_wins) || gpu_floor * kGpuAdvantage < t_cpu) break;
    rule.path[i] = kernel_wins ? CpuPath::kHostKernel : CpuPath::kCpuBlas;
    rule.point_flops[i] = r.cpu_point_flops[i];
    rule.points = i + 1;
  }
  return rule;
}

bool gemm_needs_rates(const Placement& where, const Config& cfg) {
  return cfg.mode == Mode::kAuto && where.all_host();
}

GemmRoute route_gemm_on_cpu(const Problem& p, const Rates& rates) {
  GemmRoute r;
  choose_cpu_path(p, rates, &r);
  return r;
}

GemmRoute route_plan_gemm_on_cpu(const Problem& p, const Rates& rates) {
  GemmRoute r;
  choose_cpu_path(p, rates, &r, /*own_paths_only=*/true);
  return r;
}

GemmRoute route_gemm(const Problem& p, const Placement& where, const Config& cfg,
                     const DeviceCaps* caps, const std::string& no_device_why, const Rates* rates) {
  GemmRoute r;
  if (!caps) {
    // Without a GPU, rates (of the CPU side alone) say which CPU path runs host data.
    if (rates && where.all_host()) r = route_gemm_on_cpu(p, *rates);
    r.reason = Reason(no_gpu_label(r.cpu_path), no_device_why);
    return r;
  }
  // Host data is costed before a kernel is picked: a call that stays on the CPU pays for no
  // kernel choice (this runs on every call, and small calls are the CPU's).
  Reason side_why;
  if (where.any_device_accessible()) {
    side_why = "data on the device";
    copies_by_size(p, where, *caps, &r);
  } else if (cfg.mode == Mode::kGpu) {
    side_why = "TILEBLAS_MODE=gpu";
    copies_by_size(p, where, *caps, &r);
  } else if (!rates) {
    r.reason = "host data, no measured rates";
    return r;
  } else {
    const double t_cpu = choose_cpu_path(p, *rates, &r);
    // Most host calls are small: where the CPU beats even the GPU's fixed cost, nothing else needs
    // costing.
    const bool bounce_measured = bounce_was_measured(*rates);
    const double gpu_floor = gpu_fixed_cost(*rates);
    if (!(gpu_floor * kGpuAdvantage < t_cpu)) {
      r.reason = Reason::predicted(cpu_path_label(r.cpu_path, true), t_cpu, gpu_floor);
      return r;
    }
    // Otherwise the fastest way to move the host operands, against the CPU BLAS.
    double t_gpu = predict_gpu_seconds(p, where, *rates);
    if (bounce_measured && bounce_fits(p, where)) {
      const double t_bounced = predict_bounced_seconds(p, where, *rates);
      if (t_bounced < t_gpu) {
        t_gpu = t_bounced;
        r.copies = HostCopies::kBounced;
      }
    }
    if (rates->h2d_staged_bps > 0 && rates->d2h_staged_bps > 0) {
      const int64_t cols = gemm_panel_cols(p, where, *caps);
      const double t_staged = predict_gpu_seconds(p, where, *rates, cols);
      if (t_staged < t_gpu) {
        t_gpu = t_staged;
        r.copies = HostCopies::kStaged;
        r.panel_cols = cols;
      }
    }
    const char* label = r.copies == HostCopies::kStaged    ? "host data, staged"
                        : r.copies == HostCopies::kBounced ? "host data, bounced"
                                                           : "host data";
    if (!(t_gpu * kGpuAdvantage < t_cpu)) {
      r.copies = HostCopies::kPlain;
      r.panel_cols = 0;
      r.reason = Reason::predicted(
          r.cpu_path == CpuPath::kCpuBlas ? label : cpu_path_label(r.cpu_path, false), t_cpu,
          t_gpu);
      return r;
    }
    r.cpu_path = CpuPath::kCpuBlas;
    r.cpu_parts = 0;
    r.wake_team = false;
    side_why = Reason::predicted(label, t_cpu, t_gpu);
  }
  std::string kernel_why;
  const GemmKernel* k = pick_gemm_kernel(p, *caps, cfg.force_kernel, &kernel_why);
  if (!k) {
    r.copies = HostCopies::kPlain;
    r.panel_cols = 0;
    r.reason = "no kernel supports this problem";
    return r;
  }
  r.side = TILEBLAS_ROUTE_GPU;
  r.kernel = k;
  r.reason = std::move(side_why.with_detail(std::move(kernel_why)));
  return r;
}

Placement placement_of(const Operands& o, int device) {
  Placement where;
  where.a = classify(o.a.ptr, device);
  where.b = o.b.ptr ? classify(o.b.ptr, device) : where.a;
  where.c = classify(o.c.ptr, device);
  return where;
}

Problem gemm_like(const Problem& p) {
  Problem g;
  g.type = g.c_type = p.type;
  const double per_product = is_complex(p.type) ? 8.0 : 2.0;
  const int64_t n = std::max<int64_t>(1, std::llround(std::cbrt(p.flops() / per_product)));
  g.m = g.n = g.k = n;
  g.lda = g.ldb = g.ldc = n;
  return g;
}

double predict_level3_cpu_seconds(const Problem& p, const Rates& r) {
  return predict_cpu_seconds(gemm_like(p), r);
}

double predict_level3_gpu_seconds(const Problem& p, const Placement& where, const Rates& r) {
  const Operands ops = operands_of(p);
  double t = r.gpu_overhead_s + p.flops() / (r.gpu_flops * kPlanShareOfGemmRate);
  // Host operands go through the staging pipeline where it is available (src/executor.h): pageable
  // data at its rates, C of syrk .. her2k copied in only where it is read. Else plain copies.
  const bool staged = r.h2d_staged_bps > 0 && r.d2h_staged_bps > 0;
  const double h2d_pageable = staged ? r.h2d_staged_bps : r.h2d_pageable_bps;
  const double d2h_pageable = staged ? r.d2h_staged_bps : r.d2h_pageable_bps;
  const double per_copy = staged ? r.staged_latency_s : 0.0;
  int copies = 0;
  auto move = [&](const Operand& x, MemKind kind) {
    if (!x.ptr || device_accessible(kind)) return;
    const double bytes = bytes_of(x.rows, x.cols, p.type);
    if (staged ? x.in : x.in_when_copied_back_whole()) {
      t += per_copy + bytes / rate_for(kind, r.h2d_pinned_bps, h2d_pageable), ++copies;
    }
    if (x.out) t += per_copy + bytes / rate_for(kind, r.d2h_pinned_bps, d2h_pageable), ++copies;
  };
  move(ops.a, where.a);
  move(ops.b, where.b);
  move(ops.c, where.c);
  // gpu_overhead_s was timed on a GEMM with beta == 0: two copies in and one out.
  return t + std::max(copies - 3, 0) * r.transfer_latency_s;
}

bool level3_needs_rates(const Problem& p, const Placement& where, const Config& cfg) {
  return gemm_needs_rates(where, cfg) && p.multiplies();
}

double level3_point_seconds(const Level3Points& pts, const double* seconds, double flops) {
  const double* x = pts.flops;
  if (flops <= x[0]) return seconds[0];
  for (int i = 1; i < Level3Points::kCount; ++i) {
    if (flops <= x[i]) return between_points(x, seconds, i, flops);
  }
  return seconds[Level3Points::kCount - 1];
}

Level3CpuPath level3_cpu_path_at(const Level3Points& pts, int i) {
  return pts.host_s[i] > 0 && pts.host_s[i] * kHostPlanAdvantage < pts.cpu_s[i]
             ? Level3CpuPath::kHostPlan
             : Level3CpuPath::kCpuBlas;
}

Level3SmallCalls level3_small_calls(const Level3Points& pts) {
  Level3SmallCalls small;
  bool first_path = true;  // every point so far has path[0]
  for (int i = 0; i < Level3Points::kCount; ++i) {
    const Level3CpuPath path = level3_cpu_path_at(pts, i);
    const double t_cpu = path == Level3CpuPath::kHostPlan ? pts.host_s[i] : pts.cpu_s[i];
    if (pts.gpu_s[i] * kGpuAdvantage < t_cpu) break;
    small.path[i] = path;
    small.points = i + 1;
    first_path = first_path && path == small.path[0];
    if (first_path) small.first_path_flops = pts.flops[i];
  }
  return small;
}

namespace {

// Host data at most as much work as the points' largest, `f` FLOPs: the faster CPU path there, both
// sides' times read off the points as level3_point_seconds() reads them (the host plan where it
// wins by its margin; its time kHostPlanSlowdownWhileSpinning times over while the CPU BLAS's
// workers spin), and its seconds.
double level3_cpu_path(double f, const Level3Points& pts, bool cpu_blas_workers_spin,
                       Level3Route* r) {
  const double t_blas = level3_point_seconds(pts, pts.cpu_s, f);
  const bool host_measured =
      std::all_of(std::begin(pts.host_s), std::end(pts.host_s), [](double s) { return s > 0; });
  if (!host_measured) return t_blas;
  const double t_host_alone = level3_point_seconds(pts, pts.host_s, f);
  const double t_host =
      t_host_alone * (cpu_blas_workers_spin ? kHostPlanSlowdownWhileSpinning : 1.0);
  if (t_host * kHostPlanAdvantage < t_blas) {
    r->cpu_path = Level3CpuPath::kHostPlan;
    return t_host;
  }
  r->cpu_blas_while_workers_spin = t_host_alone * kHostPlanAdvantage < t_blas;
  return t_blas;
}

// Calls route_level3() routes by the points where their operands are in host memory in auto mode.
bool covered_by(const Problem& p, const Level3Points& pts) {
  return p.multiplies() && p.flops() <= pts.flops[Level3Points::kCount - 1];
}

// route_level3() for a host call (every operand in host memory, auto mode) of `f` FLOPs, at most as
// much work as the points' largest, from the points alone.
Level3Route route_level3_on_points(double f, const Level3Points& pts, bool cpu_blas_workers_spin) {
  Level3Route r;
  const double t_cpu = level3_cpu_path(f, pts, cpu_blas_workers_spin, &r);
  const double t_gpu = level3_point_seconds(pts, pts.gpu_s, f);
  if (t_gpu * kGpuAdvantage < t_cpu) {
    r.side = TILEBLAS_ROUTE_GPU;
    r.cpu_path = Level3CpuPath::kCpuBlas;
    r.cpu_blas_while_workers_spin = false;
  }
  const char* label = r.cpu_path == Level3CpuPath::kHostPlan
                          ? "host data, measured for this routine: host plan"
                      : cpu_blas_workers_spin
                          ? "host data, measured for this routine, the CPU BLAS's workers spinning"
                          : "host data, measured for this routine";
  r.reason = Reason::predicted(label, t_cpu, t_gpu);
  return r;
}

}  // namespace

std::optional<Level3CpuPath> level3_small_call_path_above_first(const Level3Points& pts, double f) {
  const Level3SmallCalls& small = pts.small_calls;
  for (int i = 0; i < small.points; ++i) {
    if (!(f <= pts.flops[i])) continue;
    if (i == 0 || f == pts.flops[i] || small.path[i] == small.path[i - 1]) return small.path[i];
    const Level3Route r = route_level3_on_points(f, pts, false);
    if (r.side != TILEBLAS_ROUTE_CPU) return std::nullopt;
    return r.cpu_path;
  }
  return std::nullopt;
}

Level3Route route_level3(const Problem& p, const Placement& where, const Config& cfg,
                         const DeviceCaps* caps, const std::string& no_device_why,
                         bool plan_supports, const Rates* rates, const Level3Points* points,
                         bool cpu_blas_workers_spin) {
  Level3Route r;
  const bool measured =
      points && where.all_host() && cfg.mode == Mode::kAuto && covered_by(p, *points);
  if (!caps || !plan_supports) {
    // Host data still has two CPU paths, which the points choose between.
    if (measured) level3_cpu_path(p.flops(), *points, cpu_blas_workers_spin, &r);
    const bool host_plan = r.cpu_path == Level3CpuPath::kHostPlan;
    if (!caps) {
      r.reason = Reason(host_plan ? "host plan (measured for this routine); no GPU: " : "no GPU: ",
                        no_device_why);
    } else {
      r.reason = host_plan ? "no GPU plan supports this problem; host plan (measured)"
                           : "no GPU plan supports this problem";
    }
    return r;
  }
  if (where.any_device_accessible() || cfg.mode == Mode::kGpu) {
    r.side = TILEBLAS_ROUTE_GPU;
    r.reason = where.any_device_accessible() ? "data on the device" : "TILEBLAS_MODE=gpu";
    return r;
  }
  if (!p.multiplies()) {
    r.reason = "host data, alpha == 0 or k == 0: O(n^2) work stays on the CPU";
    return r;
  }
  if (measured) return route_level3_on_points(p.flops(), *points, cpu_blas_workers_spin);
  if (!rates) {
    r.reason = "host data, no measured rates";
    return r;
  }
  const double t_cpu = predict_level3_cpu_seconds(p, *rates);
  const double t_gpu = predict_level3_gpu_seconds(p, where, *rates);
  if (t_gpu * kGpuAdvantage < t_cpu) r.side = TILEBLAS_ROUTE_GPU;
  r.reason = Reason::predicted("host data", t_cpu, t_gpu);
  return r;
}

Route<AxpyKernel> route_axpy(const AxpyProblem& p, bool x_on_device, bool y_on_device,
                             const Config& cfg, const DeviceCaps* caps,
                             const std::string& no_device_why) {
  Route<AxpyKernel> r;
  if (!caps) {
    r.reason = "no GPU: " + no_device_why;
    return r;
  }
  if (!x_on_device && !y_on_device && cfg.mode != Mode::kGpu) {
    r.reason = "host data: O(n) work stays on the CPU";
    return r;
  }
  std::string why;
  const AxpyKernel* k = forced(axpy_kernels(), p, *caps, cfg.force_kernel, &why);
  if (!k) k = first_supporting(axpy_kernels(), p, *caps);
  if (!k) {
    r.reason = "no kernel supports this problem";
    return r;
  }
  r.side = TILEBLAS_ROUTE_GPU;
  r.kernel = k;
  r.reason = (x_on_device || y_on_device) ? "data on the device" : "TILEBLAS_MODE=gpu";
  return r;
}

Route<TransposeKernel> route_transpose(const TransposeProblem& p, bool a_on_device,
                                       bool b_on_device, const Config& cfg, const DeviceCaps* caps,
                                       const std::string& no_device_why) {
  Route<TransposeKernel> r;
  if (!caps) {
    r.reason = "no GPU: " + no_device_why;
    return r;
  }
  if (!a_on_device && !b_on_device && cfg.mode != Mode::kGpu) {
    r.reason = "host data: O(n) work stays on the CPU";
    return r;
  }
  std::string why;
  const TransposeKernel* k = forced(transpose_kernels(), p, *caps, cfg.force_kernel, &why);
  if (!k) k = first_supporting(transpose_kernels(), p, *caps);
  if (!k) {
    r.reason = "no kernel supports this problem";
    return r;
  }
  r.side = TILEBLAS_ROUTE_GPU;
  r.kernel = k;
  r.reason = (a_on_device || b_on_device) ? "data on the device" : "TILEBLAS_MODE=gpu";
  return r;
}

}  // namespace tileblas
