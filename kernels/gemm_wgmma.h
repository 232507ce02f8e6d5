// gemm_wgmma: Hopper tensor-core GEMM through wgmma.mma_async (sm_90a), fp32 accumulation.
//
// Computes  C = alpha * op(A) * op(B) + beta * C  (column-major, Problem's conventions) with
//   f16  rows: A, B IEEE fp16; C fp32 (gemm_f16f16f32), fp16 (hgemm) or bf16; wgmma .f16
//   bf16 rows: A, B bfloat16;  C fp32 (sbgemm, gemm_bf16bf16f32) or bf16;     wgmma .bf16
//   tf32 rows: A, B fp32 rounded to TF32 (to nearest, ties to even) by the copy engine as it
//              loads them (tensor-map type TFLOAT32); C fp32; wgmma .tf32; only when the
//              problem opts in (Problem::allow_tf32).
// All products are accumulated in fp32; the epilogue computes alpha * acc + beta * C in fp32 and
// rounds once to C's type.
//
// Tiling: a block of two warpgroups (256 threads) computes a 128 x N tile of C (the narrow rows
// below: one warpgroup, 64 x 64; the persistent 256 x 128 rows: four warpgroups), each warpgroup
// 64 x N with one wgmma.m64nN per k-step (k16; k8
// for TF32), both operands read from shared memory through matrix descriptors, accumulators in
// registers. Block k-tile: 128 bytes per row (64 16-bit elements, 32 fp32). Rows: N = 256 with 4
// stages and one block per SM (f16, bf16, TF32); N = 128 with 3 stages and N = 64 with 4 stages,
// two blocks per SM (f16, bf16): more blocks for small outputs, and a block's epilogue runs beside
// the other's main loop. Split-K rows (_splitk_): the 128 x 128 kernel over blockIdx.y slices of k
// (splitk.h: slice rule kSplitK); the narrow ones (_narrow_splitk_) the 64 x 64 kernel
// (kNarrowSplitK below). Where a split-K row's rule gives one slice the row runs as a plain row.
// Up to kMaxClusterSlices slices, a tile's slices are one thread-block cluster: each block puts its
// fp32 tile in its shared memory, and after a cluster barrier each writes its share of the tile's
// columns of C, summing the slices' tiles in slice order through distributed shared memory (no
// workspace, no second kernel; the same sums, in the same order, as splitk::reduce()). More slices
// write fp32 partials to a workspace; where all of the grid's blocks can be resident at once (a
// cooperative launch, which the slice rule's one round of blocks allows unless the device is
// shared), the grid then passes a grid-wide barrier and sums them itself, each thread some
// elements of C, as splitk::reduce() would (kernels/splitk_sum.cuh: the same sums in the same
// order, without the reduce's launch); else splitk::reduce() sums them. One thread issues the copy
// engine (TMA, cp.async.bulk.tensor with 128-byte-swizzle tensor maps) stages - 2 k-tiles ahead
// into the ring, each stage completing on an mbarrier; one wgmma group stays in flight while the
// next is issued. 16-bit operands are read as they lie in memory: k-contiguous ones K-major,
// m/n-contiguous ones MN-major (wgmma's transpose immediates). Staging: TF32 wgmma reads K-major
// operands only, so launch() first transposes an m/n-contiguous fp32 operand (A not transposed, B
// transposed; with kernels/transpose.h's sheared row) into a k-contiguous workspace; an operand the
// copy engine cannot read in place (base or leading dimension not a multiple of 16 bytes) is first
// copied as it lies into a workspace with 16-byte rows (kernels/realign.h: both operands in one
// launch). Workspaces come from the device's default memory pool (cudaMallocAsync, freed
// stream-ordered). Blocks are rasterized in groups of 8 tile rows (L2 reuse).
//
// Edges: any m, n >= 1 and k >= 0. The copy engine zero-fills rows, columns and k outside the
// matrix. The epilogue passes the tile through shared memory (the ring, free by then) and writes
// C (or a slice's partials) a column at a time, 32 consecutive rows a store, predicated per
// element; the persistent rows (below) store from the accumulators, 8 consecutive rows of 4 columns
// a store, predicated. k == 0 or alpha == 0: A and B are not read, C = beta * C.  beta == 0: C is
// not read.
//
// Alignment: any for A and B (staged as above where not 16-byte aligned, or lda, ldb not multiples
// of 16 bytes); C needs only element alignment. Needs an sm_90 device, this file built for sm_90a
// (CMake does so when 90 is in TILEBLAS_CUDA_ARCHS; otherwise supports() is always false), a
// driver with cuTensorMapEncodeTiled, and 194 KiB (N = 256), 97 KiB (N = 128) or 98 KiB (N = 64)
// of dynamic shared memory per block (the narrow rows and the 256 x 128 rows: 194 KiB).
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"
#include "splitk.h"

namespace tileblas::gemm_wgmma {

// True when this file was built for sm_90a (otherwise every supports() below is false).
bool built_for_sm90a();

bool supports_f16_128x256x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_128x256x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_128x256x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_128x256x64(const Problem& p, cudaStream_t stream);
bool supports_tf32_128x256x32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_tf32_128x256x32(const Problem& p, cudaStream_t stream);
bool supports_f16_128x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_128x128x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_128x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_128x128x64(const Problem& p, cudaStream_t stream);
bool supports_f16_128x64x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_128x64x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_128x64x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_128x64x64(const Problem& p, cudaStream_t stream);

// Persistent rows: at most one wave of blocks, each computing tiles blockIdx.x + t * gridDim.x with
// its copy ring running on from one tile's k-tiles into the next's, and an epilogue that stores
// straight from the accumulators (no pass through shared memory) while the next tile's first
// k-tiles land. Only an fp32 C whose columns start on 32-byte boundaries (C 32-byte aligned, ldc a
// multiple of 8): each store then writes whole sectors. The 256 x 128 rows: four warpgroups of
// 64 x 128 (512 threads, 64 accumulators a thread), 4 stages of 48 KiB, one block per SM; their
// tiles write 1 KiB of each column of C where the 128-row tiles write 512 bytes.
bool supports_f16_persistent_128x256x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_persistent_128x256x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_persistent_128x256x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_persistent_128x256x64(const Problem& p, cudaStream_t stream);
bool supports_f16_persistent_128x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_persistent_128x128x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_persistent_128x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_persistent_128x128x64(const Problem& p, cudaStream_t stream);
bool supports_f16_persistent_256x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_persistent_256x128x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_persistent_256x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_persistent_256x128x64(const Problem& p, cudaStream_t stream);

// A split-K row whose rule gives at most this many slices launches each tile's slices as one
// cluster, which sums them through distributed shared memory; more slices go through the partials'
// workspace and splitk::reduce().
inline constexpr int kMaxClusterSlices = splitk::kMaxClusterSlices;

// The split-K rows' geometry (the 128 x 128 tile, two blocks per SM; a slice is at least eight
// k-tiles, 512 of k: the ring fills and drains twice a slice, and half as many partials as with
// four pass through the reduce: 128x128x65536 0.81 of cuBLAS against 0.73 on the H200).
inline constexpr splitk::Geometry kSplitK{128, 128, 64, 2, 8};
bool supports_f16_splitk_128x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_splitk_128x128x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_splitk_128x128x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_splitk_128x128x64(const Problem& p, cudaStream_t stream);

// The narrow split-K rows: a 64 x 64 tile of one warpgroup with a 12-stage ring (one block per SM),
// over slices of k where the tiles leave SMs idle (one slice: no partials, the kernel writes C),
// for outputs with a side of 128 or less and long k: such calls stream the wide operand, and the
// deep ring keeps ten of its k-tiles in flight per SM.
inline constexpr splitk::Geometry kNarrowSplitK{64, 64, 64, 1, 8};
bool supports_f16_narrow_splitk_64x64x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_narrow_splitk_64x64x64(const Problem& p, cudaStream_t stream);
bool supports_bf16_narrow_splitk_64x64x64(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_narrow_splitk_64x64x64(const Problem& p, cudaStream_t stream);

}  // namespace tileblas::gemm_wgmma
