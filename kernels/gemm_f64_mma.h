// gemm_f64_mma: double and complex double GEMM on the FP64 tensor cores (mma.sync .f64).
//
// Computes  C = alpha * op(A) * op(B) + beta * C  (column-major, Problem's conventions) with
//   dgemm rows: A, B, C fp64 (DataType::kF64); alpha, beta real. op is N or T (C counts as T).
//   zgemm rows: A, B, C complex fp64 (kC64: interleaved re, im); alpha, beta complex. op is N, T
//               or C (conjugate transpose) for A and B independently.
// Every product is an IEEE fp64 fused multiply-add on the tensor cores (DMMA), accumulated in fp64:
// results agree with a CPU dgemm/zgemm to double accuracy (the order of the k-sum differs). The
// epilogue computes alpha * acc + beta * C in fp64 (complex arithmetic for zgemm).
//
// MMA: mma.sync.m16n8k8.f64 on sm_90; on sm_80 each is issued as the four m8n8k4.f64 it contains
// (same fragments). Complex products are four real products on planes of the same fragments:
//   re += Ar Br + Ai (-Bi),  im += Ar Bi + Ai Br,
// with Ai and Bi negated on load where op() conjugates (the sign bit flipped in registers).
//
// Tiling (8 warps per SM: the accumulators take 128 registers a thread):
//   dgemm 128 x 128 block, warps 2 (m) x 4 (n) of 64 x 32 (4 x 4 MMA tiles), k-tile 16, 4 stages
//         (128 KiB of shared memory), one block per SM; dgemm_..._128x64x16: 2 x 2 warps, 96 KiB,
//         two blocks per SM;
//   zgemm 64 x 64 block, warps 2 x 2 of 32 x 32 (2 x 4 MMA tiles, a re and an im accumulator
//         each), k-tile 8, 6 stages (96 KiB), two blocks per SM; the scalar-load row a 128 x 64
//         block of 4 x 2 such warps (144 KiB), one per SM.
// A multistage cp.async pipeline copies each operand tile into shared memory as it lies in global
// memory (k-contiguous: A transposed, B not; or m/n-contiguous), XOR-swizzled in 16-byte chunks so
// that the 16-byte fragment loads and the copies are free of bank conflicts; dgemm stores a
// k-contiguous A and an m/n-contiguous B paired instead (each chunk one element of two consecutive
// rows of the matrix as stored, copied 8 bytes at a time), so that every fragment load fills one
// MMA register pair. dgemm fragments are read 16 bytes (two doubles) a load: the MMA's k index is
// permuted inside each k-step (lane q holds k = 2q, 2q + 1) and its rows and columns inside the
// warp tile (lane g holds rows 2g, 2g + 1, and columns of two n8 tiles side by side), the same
// permutation for A and B, undone by the epilogue. zgemm fragments are one complex element (16
// bytes) a load. One barrier per k-tile; the next k-step's fragments are loaded into the registers
// of the current one as soon as these are dead. Blocks are rasterized in groups of 8 tile rows (L2
// reuse).
//
// Edges: any m, n >= 1 and k >= 0. Rows, columns and k outside the matrices are zero-filled in
// shared memory (cp.async with a short source size: nothing outside is read), C's stores are
// predicated per element; rows m..ldc-1 of C are never written.
// k == 0 or alpha == 0: A and B are not read (they may be null), C = beta * C.
// beta == 0: C is not read (NaN in C does not leak).
//
// Split-K rows (dgemm_splitk_*, zgemm_splitk_*): the same kernels over slices of k, one per
// blockIdx.y; each slice's blocks write their unscaled partial tiles (alpha 1, beta 0) to a
// workspace, and splitk::reduce (kernels/splitk.h) sums the slices in a fixed order and applies
// alpha and beta: deterministic, no atomics; beta == 0 never reads C there either. They take no
// triangle of C (Problem::c_triangle): a slice writes its tiles whole.
//
// Complex fp32 on the FP64 tensor cores (cgemm_widened_*): A, B, C complex fp32 (kC32); alpha,
// beta complex. op(A) and op(B) as stored are first widened, exactly, into a complex fp64 workspace
// (kernels/widen.h: one pass over each); the zgemm kernel multiplies them, and its epilogue
// computes alpha * acc + beta * C in fp64 and rounds once into C (the split-K row: fp64 partials,
// rounded once by splitk::reduce). So every product is exact and every sum is fp64: the result is
// the exact product rounded to fp32 up to fp64 accumulation error, at least as accurate as an fp32
// cgemm. On devices whose FP64 tensor cores run at the fp32 SIMT rate (sm_80, sm_90) this is
// faster than complex fp32 on the SIMT units; the router takes it only there. The workspace holds
// 16 bytes per element of A and B (cudaErrorMemoryAllocation where the pool cannot give it).
//
// fp32 on the FP64 tensor cores (sgemm_widened_*): A, B, C fp32; alpha, beta real; op N or T (C
// counts as T). op(A) and op(B) are widened, exactly, into an fp64 workspace as column-major m x k
// and k x n matrices (a transposed operand transposed on the way, kernels/widen.h), the dgemm
// kernel of the row's tile multiplies them not transposed, and its epilogue computes
// alpha * acc + beta * C in fp64 and rounds once into C: every product exact, every sum fp64, so
// the result is at least as accurate as an fp32 sgemm's (no TF32 anywhere). On sm_80 and sm_90
// the FP64 tensor cores run at the fp32 SIMT rate, and the dgemm kernel runs closer to its peak
// than the SIMT sgemm kernels to theirs. The workspace holds 8 bytes per element of A and B. They
// take a triangle of C.
//
// fp32 with only B widened (sgemm_widened_b_*): as sgemm_widened, but where A is not transposed,
// 16-byte aligned and lda a multiple of 4, A is read as it lies: its tiles hold fp32 (rows of k,
// 16-byte copies) and each fragment element is converted to fp64 as it is loaded, so the larger
// operand of a product with a narrow B is not passed over twice more. Elsewhere A is widened too.
// The split-K row (the dgemm split-K geometry) writes fp64 partials, which splitk::reduce rounds
// into C once; it takes no triangle. The workspace holds 8 bytes per element of B (and of A where
// widened).
//
// Complex fp32 as three real fp64 GEMMs (cgemm_widened_3m_*, the 3M scheme): op(A) and op(B) are
// split into fp64 planes as column-major m x k and k x n matrices (kernels/widen.h: re, im,
// re + im, the imaginary parts negated where op() conjugates, a transposed operand transposed on
// the way), one dgemm launch computes P0 = Ar Br, P1 = Ai Bi and P2 = (Ar + Ai)(Br + Bi) as three
// batches of blockIdx.y (the dgemm tile of the row's name, not transposed), and widen::combine_3m
// rounds alpha ((P0 - P1) + i (P2 - P0 - P1)) +
// beta C into C once. Three real products where the other rows make four: on the FP64 tensor
// cores that is 4/3 of their complex rate, for one pass more over A and B and one over C. Every
// product and sum is fp64 (P2's operands are fp64 sums of the parts), so the result is the exact
// product rounded to fp32 up to fp64 rounding of the sums: still far more accurate than an fp32
// cgemm, though the imaginary part's fp64 error scales with (|Ar| + |Ai|)(|Br| + |Bi|) rather
// than with |Ar||Bi| + |Ai||Br|. They take a triangle of C (the dgemm skips the tiles outside,
// the combine writes only inside). The workspace holds 24 bytes per element of A, B and C.
//
// Alignment: the vector rows (names without "scalarload") copy A and B in 16-byte chunks (dgemm's
// paired tiles: 8 bytes) and need A and B 16-byte aligned, and (dgemm) lda, ldb even. The
// "scalarload" rows copy 8 bytes at a time and need only 8-byte alignment of A and B (any leading
// dimension); otherwise they are identical. C needs 8-byte alignment (16-byte stores are used where
// C and ldc allow them). Needs sm_80 or newer and the row's shared memory per block. The
// cgemm_widened rows take A and B at any alignment of their parts (4 bytes) and any leading
// dimension; C aligned to its parts.
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"
#include "splitk.h"

namespace tileblas::gemm_f64_mma {

bool supports_dgemm_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_dgemm_128x128x16(const Problem& p, cudaStream_t stream);
bool supports_dgemm_scalarload_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_dgemm_scalarload_128x128x16(const Problem& p, cudaStream_t stream);

// Half-size tile, two blocks per SM: twice the tiles, for shapes with few of them.
bool supports_dgemm_128x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_dgemm_128x64x16(const Problem& p, cudaStream_t stream);
// Quarter-size tile (4 warps of 32 x 32), three blocks per SM: for shapes whose 128 x 64 tiles
// leave much of a round of the SMs idle.
bool supports_dgemm_64x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_dgemm_64x64x16(const Problem& p, cudaStream_t stream);
bool supports_dgemm_scalarload_64x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_dgemm_scalarload_64x64x16(const Problem& p, cudaStream_t stream);

bool supports_zgemm_64x64x8(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_zgemm_64x64x8(const Problem& p, cudaStream_t stream);
bool supports_zgemm_scalarload_128x64x8(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_zgemm_scalarload_128x64x8(const Problem& p, cudaStream_t stream);

// Split-K (kernels/splitk.h): the 128x64 dgemm tile (16-byte and 8-byte loads) and the 64x64
// zgemm tile, two blocks per SM, k cut into blockIdx.y slices of at least min_steps_per_slice
// k-tiles: 128 of k, as sgemm's split-K (twice dgemm's copy ring of 4 k-tiles; not tuned further).
// Their geometry is what the slice rule and the router's split-K rule read.
inline constexpr splitk::Geometry kDgemmSplitK{128, 64, 16, 2, 8};
inline constexpr splitk::Geometry kZgemmSplitK{64, 64, 8, 2, 16};
// On a device with thread-block clusters (sm_90) the 64x64 zgemm tile's split-K (the
// zgemm_splitk and cgemm_widened_splitk rows) sums a tile's slices in its cluster, without the
// partials' workspace and pass, where this rule (slices of at least 4 k-tiles: 32 of k) gives
// more slices than kZgemmSplitK, at most splitk::kMaxClusterSlices: small k, where the
// workspace's slices of 16 k-tiles leave SMs idle. Else kZgemmSplitK's slices and the reduce.
// Measured (H100, the cluster sum wherever this rule gave 2-8 slices against the workspace, two
// runs each, docs/NOTES-f64-complex.md): complex fp64 251^3-257^3 0.57-0.69 of cuBLAS -> 0.86-1.12,
// complex fp32 0.64-0.71 -> 0.78-0.88 (8 slices against 2); with the same slice count as
// kZgemmSplitK's it lost (512^3 4 slices 0.79-0.80 -> 0.70-0.78, 16x4096x4096 0.57-0.59 -> 0.41).
inline constexpr splitk::Geometry kZgemmClusterSplitK{64, 64, 8, 2, 4};
bool supports_dgemm_splitk_128x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_dgemm_splitk_128x64x16(const Problem& p, cudaStream_t stream);
bool supports_dgemm_splitk_scalarload_128x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_dgemm_splitk_scalarload_128x64x16(const Problem& p, cudaStream_t stream);
bool supports_zgemm_splitk_64x64x8(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_zgemm_splitk_64x64x8(const Problem& p, cudaStream_t stream);

// Complex fp32 through the zgemm kernel's 64x64 tile on widened operands, and its split-K (the
// zgemm split-K geometry, no triangle).
bool supports_cgemm_widened_64x64x8(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_cgemm_widened_64x64x8(const Problem& p, cudaStream_t stream);
bool supports_cgemm_widened_splitk_64x64x8(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_cgemm_widened_splitk_64x64x8(const Problem& p, cudaStream_t stream);

// fp32 widened to fp64, on the dgemm 128x128 tile or its 128x64 half.
bool supports_sgemm_widened_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_sgemm_widened_128x128x16(const Problem& p, cudaStream_t stream);
bool supports_sgemm_widened_128x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_sgemm_widened_128x64x16(const Problem& p, cudaStream_t stream);
bool supports_sgemm_widened_64x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_sgemm_widened_64x64x16(const Problem& p, cudaStream_t stream);

// fp32 with B widened to fp64 and A read as fp32 where it is m-contiguous (else widened too), on
// the dgemm 128x128 tile, and split-K on its 128x64 half (the dgemm split-K geometry).
// Whether they read p's A as it lies: not transposed, 16-byte aligned, lda a multiple of 4 (the
// fp32 tile's 16-byte copies).
bool sgemm_widened_b_reads_a(const Problem& p);
bool supports_sgemm_widened_b_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_sgemm_widened_b_128x128x16(const Problem& p, cudaStream_t stream);
bool supports_sgemm_widened_b_splitk_128x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_sgemm_widened_b_splitk_128x64x16(const Problem& p, cudaStream_t stream);
// The same with the roles swapped (sgemm_widened_a_*): A widened, B read as fp32 where it is
// k-contiguous (not transposed), 16-byte aligned and ldb a multiple of 4; split-K on the dgemm
// 64x64 tile (three blocks per SM).
bool sgemm_widened_a_reads_b(const Problem& p);
inline constexpr splitk::Geometry kSgemmWidenedASplitK{64, 64, 16, 3, 8};
bool supports_sgemm_widened_a_splitk_64x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_sgemm_widened_a_splitk_64x64x16(const Problem& p, cudaStream_t stream);
// Complex fp32 with only B widened: A read as complex fp32 where it is not transposed, 16-byte
// aligned and lda even (cgemm_widened_b_reads_a(); else widened too), converted as its fragments
// are loaded, on the zgemm 64x64 tile (the sgemm_widened_b scheme, complex).
bool cgemm_widened_b_reads_a(const Problem& p);
bool supports_cgemm_widened_b_64x64x8(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_cgemm_widened_b_64x64x8(const Problem& p, cudaStream_t stream);
// Complex fp32 in three real fp64 products (3M), on the dgemm 128x128 tile or its 128x64 half.
bool supports_cgemm_widened_3m_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_cgemm_widened_3m_128x128x16(const Problem& p, cudaStream_t stream);
bool supports_cgemm_widened_3m_128x64x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_cgemm_widened_3m_128x64x16(const Problem& p, cudaStream_t stream);

}  // namespace tileblas::gemm_f64_mma
