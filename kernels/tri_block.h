// tri_block: a small triangular block applied to many vectors, in place: the diagonal blocks of
// the Level-3 plans' trsm (forward or backward substitution) and trmm (triangular multiply).
//
// Formula and storage: TriBlockProblem (src/level3_blocks.h): f32, f64, c32, c64, column-major;
//   side L: B = alpha*op(A)*B or alpha*op(A)^-1*B (B order x count: its columns are the vectors);
//   side R: B = alpha*B*op(A) or alpha*B*op(A)^-1 (B count x order: its rows are the vectors);
// order <= max_order(type). Only A's `uplo` triangle is read, and not its diagonal when diag is
// kUnit; only B's order x count (or count x order) elements are read and written. Solves multiply
// by reciprocals of A's diagonal (no check for zeros, as netlib), a complex one by Smith's method.
//
// Layout: each vector is an independent system M*x = alpha*b (solve) or x = M*alpha*b, with
// M = op(A) (side L) or op(A)^T (side R: x^T = b^T op(A)). A block of kThreads threads handles
// kThreads vectors, one per thread, its order elements held in registers (a compile-time NB of
// them, the elements past `order` zero). The block first stores M in shared memory as a lower
// triangle (an upper M is index-reversed: M'(i, j) = M(order-1-i, order-1-j), x likewise), column
// by column with the reciprocal of the diagonal (solve) or the diagonal (multiply) on it, and
// zeros/ones as padding past `order`. Then every thread runs the same unrolled column sweep,
// reading M's columns as broadcasts:
//   solve     for j = 0..NB-1:  x_j *= M'_jj^-1;  x_i -= M'_ij*x_j (i > j)
//   multiply  for j = NB-1..0:  x_i += M'_ij*x_j (i > j);  x_j *= M'_jj
// Side R's vectors are rows of B, so a warp's loads and stores are 32 consecutive elements of a
// column; side L's are columns, read element by element per thread (each 32-byte sector is reused
// from L1 by the next elements of the same column).
// Alignment: that of the element's real part. Edges: any order <= NB and count >= 0.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "level3_blocks.h"
#include "problem.h"

namespace tileblas::tri_block {

// The largest order the kernel takes for `type` (its registers hold that many elements per thread);
// 0 for types it does not handle.
int64_t max_order(DataType type);

bool supports(const TriBlockProblem& p, const DeviceCaps& caps);
cudaError_t launch(const TriBlockProblem& p, cudaStream_t stream);

}  // namespace tileblas::tri_block
