// tri_block_host: the Level-3 plans' diagonal-block operation (TriBlockProblem,
// src/level3_blocks.h) on host memory, on the calling CPU thread: a triangular block of order n
// applied to, or solved against, `count` vectors in place (B's columns for side L, its rows for
// side R).
//   side L: B = alpha op(A) B   or  B = alpha op(A)^-1 B   (B n x count)
//   side R: B = alpha B op(A)   or  B = alpha B op(A)^-1   (B count x n)
// f32, f64, c32, c64; any order and count >= 0, leading dimensions, alignment. Only A's triangle is
// read (not its diagonal for diag kUnit), only B's n x count (count x n) elements are written.
// Solves multiply by the reciprocals of A's diagonal, as the device kernel does (no check for
// zeros, as netlib: a zero gives Inf or NaN).
//
// Layout: the vectors go in chunks of lanes(type) (one register of reals of the variant; real and
// imaginary parts in planes of their own), each copied, scaled by alpha, into a buffer row by row:
// element i of every vector of the chunk in one row of lanes (side R's rows are contiguous; side L
// transposes, real data a square tile of registers at a time). With M = op(A) (side L) or op(A)^T
// (side R) every vector x becomes M x or solves M x = x, 8 rows of M (4 complex) at a time on all
// lanes, each loaded row x_j feeding their accumulators, in the order in which each x_j is read
// before it is overwritten (multiply) or after it is solved (solve). M's elements are read from A
// in place as scalars, so every trans, side and uplo runs the same loops. Variants: AVX-512,
// AVX2+FMA and the baseline instruction set, one body compiled for each; the widest this CPU runs
// is taken, but AVX2 on an AVX-512 CPU where the vectors fit one AVX2 register (count <= 8 fp32
// and c32, 4 fp64 and c64).
#pragma once

#include <cstdint>

#include "gemm_host_small.h"
#include "level3_blocks.h"

namespace tileblas::tri_block_host {

// Vectors per chunk: 16 for f32 and c32, 8 for f64 and c64 (a team splitting p.count should give
// each part whole chunks).
int64_t lanes(DataType type);

// Computes p on the calling thread with the variant named above. alpha == 0 is the plans'
// own case (they write B's zeros without tri_block): here B is read and scaled like any alpha.
void run(const TriBlockProblem& p);
// The same with the variant of `isa` (kNone: the baseline instruction set); the CPU must run it.
void run(const TriBlockProblem& p, gemm_host_small::Isa isa);

}  // namespace tileblas::tri_block_host
