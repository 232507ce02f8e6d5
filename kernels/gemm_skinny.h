// gemm_skinny: GEMMs with one small side of C, on the SIMT cores, in fp32, fp64, complex fp32 and
// complex fp64.
//
//   C = alpha * op(A) * op(B) + beta * C     column-major (Problem's conventions)
//
// where m or n is at most the row's tile (8, 16 or 32). A, B and C of one type: fp32, fp64, complex
// fp32 (kC32) or complex fp64 (kC64), interleaved re, im. op is N or T (C counts as T) for real
// data, N, T or C (conjugate transpose) for complex data, for A and B independently.
//
// Such a product streams the large operand once and does few FLOPs per element it reads: with
// m = 16 the tiles of the GEMM kernels (64 or 128 rows) multiply zeros three times over or more.
// Here a thread owns one column of C, all of its rows: it reads each element of the large operand
// once from shared memory, and multiplies it with the small operand's column, which every thread
// reads at once (a broadcast, 16 bytes a read) for the same k.
//
// Orientation: with m <= tile (m <= n where both are) the kernel computes C = op(A) op(B) with
// op(A) the small operand X (rows x k) and op(B) the streamed one Y (k x cols); else (n <= tile)
// it computes C^T = op(B)^T op(A)^T, X = op(B)^T, Y = op(A)^T, and writes C transposed. Each
// operand is read through its two strides, so a transpose is a stride pair, not another kernel.
//
// Arithmetic: products and sums in the type's precision (four FMAs per complex product, re += xr
// yr - xi yi, im += xr yi + xi yr, conjugation applied as an operand is stored in shared memory).
// No tensor cores, so no TF32.
//
// Split-K (kernels/splitk.h): grid (blocks of 256 columns, slices of k); each slice writes its
// unscaled partial sums to a workspace, m x n column-major, and splitk::reduce sums the slices in a
// fixed order and applies alpha and beta (deterministic, no atomics; beta == 0 never reads C). The
// slice rule fills the SMs with two blocks each (one for 32 rows of fp64 or complex data), each
// slice at least 32 k.
//
// Copies: a thread holds its share of the next k-chunk (16 registers of the large operand: 16 k of
// fp32, 8 of fp64 or complex fp32, 4 of complex fp64 per column) while the block multiplies the
// current chunk; the large operand's chunk lies column by column in shared memory (one padded row
// per column: conflict-free reads by the column's thread), loaded along whichever of k or the
// columns is contiguous in memory (coalesced either way), the small operand's k-major (a k's rows
// contiguous). Nothing outside the matrices is read (zero outside rows, columns and k).
//
// Edges: any m, n >= 1 and k >= 0 with min(m, n) <= the tile. k == 0 or alpha == 0: A and B are
// not read (they may be null), C = beta * C. Only C's m x n elements are written (rows m..ldc-1
// untouched). No triangle of C (Problem::c_triangle must be kAll); a_nonzero and b_nonzero are
// not used (their zeros are multiplied).
//
// Alignment: A and B aligned to their element (16 bytes for complex fp64, 8 for complex fp32),
// any leading dimension; C aligned to its real part. Needs sm_80 or newer.
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"

namespace tileblas::gemm_skinny {

bool supports_8(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_8(const Problem& p, cudaStream_t stream);
bool supports_16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_16(const Problem& p, cudaStream_t stream);
bool supports_32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_32(const Problem& p, cudaStream_t stream);

}  // namespace tileblas::gemm_skinny
