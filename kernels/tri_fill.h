// tri_fill: a full square matrix from one triangle of another, for the Level-3 plans (symm and
// hemm make A's triangle a full matrix for one GEMM) and for triangular copies.
//
// Formula and storage: TriFillProblem (src/level3_blocks.h): f32, f64, c32, c64, column-major;
// B_ij = A_ij in A's `uplo` triangle (diagonal included) and, outside it, A_ji (kSymmetric),
// conj(A_ji) with a real diagonal (kHermitian), or 0 (kTriangular; diag kUnit: B_jj = 1). Only
// A's `uplo` triangle is read (and not its diagonal for kTriangular, kUnit); every element of B's
// n x n is written, nothing beyond it (rows n..ldb-1 untouched).
//
// Layout: a block of 32 x 8 threads writes a 32 x 32 tile of B, each thread one row of four
// columns. Tiles inside the triangle are copied directly; tiles outside it read the mirrored tile
// of A through shared memory (padded to 33 columns: no bank conflicts either way), so every global
// access is a warp's 32 consecutive elements of a column; diagonal tiles do both. Memory-bound.
// Alignment: that of the element's real part.
#pragma once

#include <cuda_runtime_api.h>

#include "level3_blocks.h"
#include "problem.h"

namespace tileblas::tri_fill {

bool supports(const TriFillProblem& p, const DeviceCaps& caps);
cudaError_t launch(const TriFillProblem& p, cudaStream_t stream);

}  // namespace tileblas::tri_fill
