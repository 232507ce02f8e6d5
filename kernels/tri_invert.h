// tri_invert: the inverses of a triangular matrix's diagonal blocks, every block in one launch (the
// Level-3 plans' trsm multiplies each block of B by its diagonal block's inverse).
//
// Formula and storage: TriInvertProblem (src/level3_blocks.h): f32, f64, c32, c64, column-major;
// block b of A (rows and columns [b*block, b*block + len), len = block but for a shorter last one)
// is inverted into its own block of the output stack, written whole (len x len): the inverse in the
// `uplo` triangle, exact zeros in the other (a column's solution is never updated above its
// diagonal, so no Inf or NaN of A reaches there). Only A's `uplo` triangle of each diagonal block
// is read, and not its diagonal for diag kUnit (the inverse's diagonal is then exactly one).
// Divides by reciprocals of A's diagonal (no check for zeros, as netlib), a complex one by Smith's
// method.
//
// Layout: the grid's x is the block, its y groups of kColumns columns of the inverse. With an upper
// block held index-reversed as a lower one L (L(i, k) = A(len-1-i, len-1-k)), column j of inv(L)
// solves L x = e_j by forward substitution; a group's kThreads threads own rows i (i = thread +
// r*kThreads, r < R: blocks up to R*kThreads) and hold x's rows of every column of the group in
// registers. For k = first column of the group .. len-1: the thread of row k finishes x_k (times
// L(k, k)^-1) and puts it in shared memory; after one barrier every row i > k subtracts L(i, k) x_k
// (L's column k, one coalesced load per thread issued a group of steps ahead). Columns whose
// diagonal is past k are left alone: their x_k is structurally zero. A group of columns
// [j0, j0 + kColumns) runs len - j0 steps of one barrier each.
// Alignment: that of the element's real part. Edges: any n >= 0, block <= max_order(type).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "level3_blocks.h"
#include "problem.h"

namespace tileblas::tri_invert {

// The largest block order the kernel takes (0 for types it does not handle).
int64_t max_order(DataType type);

bool supports(const TriInvertProblem& p, const DeviceCaps& caps);
cudaError_t launch(const TriInvertProblem& p, cudaStream_t stream);

}  // namespace tileblas::tri_invert
