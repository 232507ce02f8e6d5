// sgemm_regblock: register-blocked fp32 GEMM (SIMT), one kernel template in several
// configurations, each a row of the kernel table.
//
//   C = alpha * op(A) * op(B) + beta * C     column-major, fp32 storage and accumulation
//
// Storage: A, B, C on the device, any transpose combination, any m, n >= 1, k >= 0, leading
// dimensions >= the minimum. alpha == 0 or k == 0: A and B are not read. beta == 0: C is not read
// (NaN in C does not leak). Only C's m x n elements are written (rows m..ldc-1 stay untouched).
//
// Tiling: a block computes a kBlockM x kBlockN tile of C, stepping through k kBlockK at a time.
// Each k-step of op(A) and op(B) is copied into shared memory with cp.async into a ring of
// kStages buffers (so kStages-1 copies are in flight while one buffer is computed on), stored
// k-major (a_smem[k][m], b_smem[k][n], rows padded by 4 floats: 16-byte aligned rows, and
// conflict-free writes of k-contiguous operands). Warps tile the block (warp tile kWarpM x kWarpN),
// lanes tile the warp LanesM (m) x 32/LanesM (n) (8 x 4 unless a row says otherwise), and each
// thread accumulates a (kWarpM/LanesM) x (kWarpN*LanesM/32) register tile as outer products of
// float4 shared-memory reads, in 4x4 sub-tiles 4*LanesM rows / 128/LanesM columns apart (so a
// warp's shared reads are contiguous and conflict-free). Blocks are rasterized in groups of 8
// block-rows so blocks running together share panels of A and B in L2.
//
// Alignment: the _align16 rows copy the operands that are contiguous along m or n (A not
// transposed, B transposed) with 16-byte cp.async and store C with 16-byte stores; they need A, B
// and C 16-byte aligned and lda, ldb, ldc multiples of 4. The _align4 rows copy 4 bytes at a time
// and need only float alignment; they (and the packed row) store C 4 bytes at a time through
// shared memory, so that a warp's stores cover 32 consecutive rows of a column. Operands contiguous
// along k are always copied 4 bytes at a time (8 consecutive k per lane group: full 32-byte
// sectors), so they are transposed on the way into shared memory.
//
// Edges: copies beyond m, n or k are zero-filled (cp.async src-size 0); stores are predicated.
// The 128x128 _align16 and split-K _align16 rows copy the full k-steps of tiles wholly inside m
// and n without bounds checks; only their edge tiles and a partial last k-step (which only the
// last slice of k can hold) take the zero-filling copies.
// The packed row's workspaces are zero-padded to whole tiles in m and n and whole k-steps in k, so
// its main loop has no edges: copies without bounds, only C's stores predicated. It computes a
// thin last tile row or column (m or n at most 8 past a multiple of 128) with strip blocks that
// read each packed operand value once per k (see the .cu file).
//
// Split-K (sgemm_splitk_*), on the shared machinery of kernels/splitk.h: the k-steps are divided
// into slices by splitk::slices_for (enough blocks to fill every SM with as many blocks as the
// tile's register and shared memory budget lets run together, at least kMinTilesPerSlice k-steps
// each); the blocks of slice blockIdx.y write their unscaled partial tiles to a workspace, and
// splitk::reduce sums the slices in a fixed order and applies alpha and beta: deterministic, no
// atomics. The 64x64 rows sum up to kMaxClusterSlices slices in a thread-block cluster instead
// (kClusterSplitK64 below). Workspaces (split-K partials, packed operands) come from the device's
// default memory pool, whose release threshold is raised to hold the largest one asked for (256 MiB
// to 2 GiB) so that back-to-back calls reuse them.
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"
#include "splitk.h"

namespace tileblas::sgemm_regblock {

// The 64x64 split-K rows on a device with thread-block clusters (sm_90): where this slice rule (at
// least 4 k-steps a slice, blocks to fill each SM four times over) gives at most
// kMaxClusterSlices slices (the portable cluster size), a tile's slices are one cluster, which
// sums them through distributed shared memory (in slice order, then alpha and beta as
// splitk::reduce applies them): no partials and no second kernel, so slices half as long as the
// workspace's pay, and a small problem's few tiles, each a long chain of k-steps on one SM, spread
// over more SMs. Otherwise the workspace rule of the split-K paragraph above.
inline constexpr splitk::Geometry kClusterSplitK64{64, 64, 16, 4, 4};
inline constexpr int kMaxClusterSlices = splitk::kMaxClusterSlices;

// 128x128 block tile, BK 16, 256 threads (8 warps of 32x64): large problems. _align16: 8x8 per
// thread on 4 (m) x 8 (n) paired lanes (4 float4 reads per 64 FMAs, each 2 cycles), interior tiles
// copied without bounds checks; _align4: 4x16 per thread on 8x4 lanes.
bool supports_128x128x16_align16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_128x128x16_align16(const Problem& p, cudaStream_t stream);
bool supports_128x128x16_align4(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_128x128x16_align4(const Problem& p, cudaStream_t stream);

// 128x64 block tile, BK 16, 128 threads (4 warps of 64x32), 8x8 per thread: mid sizes, n <= 64.
bool supports_128x64x16_align16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_128x64x16_align16(const Problem& p, cudaStream_t stream);
bool supports_128x64x16_align4(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_128x64x16_align4(const Problem& p, cudaStream_t stream);

// 64x64 block tile, BK 16, 128 threads (4 warps of 32x32), 4x8 per thread: small problems.
bool supports_64x64x16_align16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_64x64x16_align16(const Problem& p, cudaStream_t stream);
bool supports_64x64x16_align4(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_64x64x16_align4(const Problem& p, cudaStream_t stream);

// Packed: op(A) and op(B) copied first into 16-byte-aligned, tile-panelled workspaces (each
// 128-row panel's k-steps contiguous, zero-padded to whole tiles and k-steps; any input layout and
// alignment), then a 128x128 kernel (4x16 per thread on 8x4 lanes) with 16-byte copies at fixed
// offsets and no bounds checks; C may be misaligned. For unaligned problems and k-contiguous
// operands, whose copies are otherwise 4-byte. Where m or n is 1 to 8 past a multiple of 128
// (4097), the tiles cover only the interior, and strip blocks placed last in the same grid compute
// the thin remainder (bandwidth-bound, in the slots the tiles' last wave leaves idle).
bool supports_packed_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_packed_128x128x16(const Problem& p, cudaStream_t stream);

// Split-K over the 128x64 tile (4 warps of 64x32, 8x8 per thread, 3 blocks per SM): large k and
// few output tiles. _align16: paired lanes (A's and B's float4 reads 2 shared-memory cycles each),
// interior tiles copied without bounds checks; _align4: m-major 8x4 lanes, checked copies.
bool supports_splitk_128x64x16_align16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_splitk_128x64x16_align16(const Problem& p, cudaStream_t stream);
bool supports_splitk_128x64x16_align4(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_splitk_128x64x16_align4(const Problem& p, cudaStream_t stream);

// Split-K over the 64x64 tile (4 blocks per SM): few rows (m <= 64) and long k, where a 128-row
// tile would multiply at least half zeros.
bool supports_splitk_64x64x16_align16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_splitk_64x64x16_align16(const Problem& p, cudaStream_t stream);
bool supports_splitk_64x64x16_align4(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_splitk_64x64x16_align4(const Problem& p, cudaStream_t stream);

}  // namespace tileblas::sgemm_regblock
