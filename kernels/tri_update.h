// tri_update: C = T + beta*C on a triangle of C (or all of it), for the Level-3 plans' diagonal
// blocks (syrk, herk, syr2k, her2k) and their alpha == 0 cases (C = beta*C).
//
// Formula and storage: TriUpdateProblem (src/level3_blocks.h): f32, f64, c32, c64, column-major;
// only the elements of C that `fill` names (and, with T's stacked diagonal blocks, only those in
// C's diagonal blocks) are read and written; of T only the elements that update them are read.
// real_diagonal (herk/her2k): diagonal = Re(T_jj) + Re(beta)*Re(C_jj), imaginary part 0.
// beta == 0: C is not read (NaN there does not leak). t == nullptr: T = 0.
//
// Layout: a block of 32 x 8 threads updates a 32 x 32 tile of C, each thread one row of four
// columns (a warp reads and writes 32 consecutive elements of a column); tiles with no element in
// the triangle return at once. With stacked blocks the grid covers only C's diagonal blocks (one
// grid z per block), not the whole matrix. Memory-bound: one read of T and C, one write of C.
// Alignment: that of the element's real part (complex elements are moved as two reals).
#pragma once

#include <cuda_runtime_api.h>

#include "level3_blocks.h"
#include "problem.h"

namespace tileblas::tri_update {

bool supports(const TriUpdateProblem& p, const DeviceCaps& caps);
cudaError_t launch(const TriUpdateProblem& p, cudaStream_t stream);

}  // namespace tileblas::tri_update
