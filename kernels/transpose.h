// Transpose and scaled copy of fp32 matrices (somatcopy / simatcopy on the GPU).
//
// Formula: B = alpha * op(A), column-major, op = N (scaled copy) or T (transpose). A is rows x cols
// with lda >= rows; B is rows x cols (N) or cols x rows (T) with ldb >= its row count.
// alpha == 0 writes +0 everywhere (NaN or Inf in A does not leak), as OpenBLAS does.
// Pointers are device or managed memory; every launch is asynchronous on `stream`.
//
// Variants (one table row each, src/kernel_table.cpp):
//   transpose_tiled_64x64_vec4   op T, out of place. 64x64 tile through shared memory, 16-byte
//                                global loads and stores, 256 threads (4 float4 each), tiles
//                                visited in groups of 256 rows of A. Needs A and B 16-byte
//                                aligned and lda, ldb multiples of 4.
//   transpose_sheared_64x64      op T, out of place, any alignment and leading dimension: 64x64
//                                tiles with 4-byte accesses, 256 threads (16 loads each, all
//                                issued before the shared-memory stores), groups of 256 rows;
//                                each column of B is cut where its own 32-byte sectors begin:
//                                a block writes, for each of its 64
//                                columns of B, the 64 elements from a sector boundary (clipped to
//                                B), so no sector inside B is written by two blocks. The block
//                                reads the matching sheared patch of A (64 rows, up to 71 columns).
//   transpose_inplace_square_32x32
//                                op T in place (a == b, rows == cols, lda == ldb): each block
//                                swaps one pair of 32x32 tiles (or transposes one diagonal tile).
//   scale_copy                   op N, any alignment, 4-byte accesses (they reach the copy rate);
//                                a contiguous matrix (lda == ldb == rows) is copied as one vector.
//                                In place when a == b and lda == ldb.
// Edges (partial tiles, rows not a multiple of 4) are handled by predicated scalar accesses in
// every variant: nothing outside the rows x cols of A is read, nothing outside B's is written.
// The 4-byte tiled variants (in place too) start each warp's run down a column of A or B at a
// 32-byte sector boundary (the lanes rotated, wrapping within the tile), whatever the column's
// alignment.
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"

namespace tileblas::transpose {

bool supports_tiled_vec4(const TransposeProblem& p, const DeviceCaps& caps);
cudaError_t launch_tiled_vec4(const TransposeProblem& p, cudaStream_t stream);

bool supports_sheared_64x64(const TransposeProblem& p, const DeviceCaps& caps);
cudaError_t launch_sheared_64x64(const TransposeProblem& p, cudaStream_t stream);

bool supports_inplace_square(const TransposeProblem& p, const DeviceCaps& caps);
cudaError_t launch_inplace_square(const TransposeProblem& p, cudaStream_t stream);

bool supports_scale_copy(const TransposeProblem& p, const DeviceCaps& caps);
cudaError_t launch_scale_copy(const TransposeProblem& p, cudaStream_t stream);

}  // namespace tileblas::transpose
