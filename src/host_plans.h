// The Level-3 plans on the host: src/level3_plan.cpp's decompositions on host memory, each GEMM on
// our host kernel or the host team (route_plan_gemm_on_cpu(): one CPU BLAS call where neither
// takes it), trmm's and trsm's diagonal blocks on kernels/tri_block_host.h, the other block
// operations as loops. For small host calls, where these outrun the CPU BLAS's own trsm, syrk,
// symm, ... by more than the plan's extra work (syrk's diagonal blocks computed whole, symm's A
// made full): route_level3() takes this path where its measured points say so.
#pragma once

#include "level3_blocks.h"
#include "level3_plan.h"
#include "problem.h"

namespace tileblas {

struct Rates;

// The diagonal-block operations on host memory, with the contracts of src/level3_blocks.h, on the
// calling thread (tri_block: kernels/tri_block_host.h). The device's block kernels are tested
// against them.
void host_tri_update(const TriUpdateProblem& p);
void host_tri_fill(const TriFillProblem& p);
void host_tri_block(const TriBlockProblem& p);
// Each block's inverse by host_tri_block's substitution on the identity.
void host_tri_invert(const TriInvertProblem& p);

// The block sizes of plans on the host for `type`: no triangle GEMMs (the host kernel computes
// whole blocks), so syrk .. her2k compute C's diagonal blocks of rank_leaf whole into scratch;
// trmm and trsm run diagonal blocks of up to tri_leaf on tri_block (no GEMM leaves: the host's
// tri_block multiplies no zeros and inverts nothing), in ranges of B's vectors on the host team.
Level3BlockSizes host_level3_block_sizes(DataType type);

// Runs p (host pointers, column-major; a routine and type level3_plan_handles()) as a plan from the
// calling thread, each GEMM on the CPU path route_plan_gemm_on_cpu() picks for it with `rates`
// (those of p's type), each block operation of more than a few thousand elements in column ranges
// on the host team (src/cpu_team.h) where it can take them. Scratch is the calling thread's, kept
// between calls. Writes nothing outside what the routine may write.
void run_level3_on_host(const Problem& p, const Rates& rates);
void run_level3_on_host_with(const Problem& p, const Rates& rates, const Level3BlockSizes& sizes);

}  // namespace tileblas
