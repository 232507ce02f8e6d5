// The Level-3 plans: symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm as GEMMs plus a few
// operations on diagonal blocks (src/level3_blocks.h), written once over a small backend
// interface. The device backend (src/plans.cpp) launches our GEMM kernels (the router's choice)
// and the block kernels of kernels/; a test backend runs the same plans with a CPU GEMM and plain
// loops, so the decompositions are checked against a reference BLAS without a GPU.
//
// Decompositions (details and block sizes in docs/NOTES-level3.md):
//   trsm, trmm    recursive halving of the triangular order into whole blocks of `tri_leaf`
//                 (trmm: of `trmm_leaf` where set): solve (or multiply) one half, update the other
//                 with one GEMM, recurse into it; blocks of order <= tri_leaf go to tri_block
//                 (substitution against all vectors at once). trmm's blocks of order in
//                 (tri_leaf, trmm_leaf] are one GEMM by the block made full in scratch (zeros
//                 outside the triangle, with a copy of B's part as the other operand): their only
//                 flops on zeros. trsm's blocks of order in (tri_leaf, trsm_leaf] likewise by the
//                 block's inverse, computed for every diagonal block before the solve (one
//                 tri_invert for all of them). B's columns (side L; rows for side R) in up to
//                 `tri_panels` panels, each such a plan in a lane of its own.
//   syrk .. her2k where the GEMM computes a triangle of C (Problem::c_triangle): C's
//                 diagonal blocks of `rank_triangle_leaf` (all of C by default) each one GEMM (two
//                 for the 2k forms) on the block's triangle straight into C, the off-diagonal
//                 blocks of a recursive halving down to them plain GEMMs into C; herk/her2k make
//                 C's diagonal real before (where beta != 0: its imaginary parts are not to be
//                 read) and after. Else C's off-diagonal blocks of a recursive halving (whole
//                 blocks of `rank_leaf`) by GEMM straight into C; its diagonal blocks by GEMM (two
//                 for the 2k forms) into a scratch panel that holds them stacked, then one
//                 tri_update writes their triangles into C (beta applied there; herk/her2k
//                 diagonals real).
//   symm, hemm    A's triangle made a full matrix in scratch (tri_fill), then one GEMM.
// alpha == 0 (and k == 0 for the rank-k forms) reads neither A nor B: C = beta*C on what the
// routine writes (trmm/trsm: B = 0), by tri_update alone.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "level3_blocks.h"
#include "problem.h"

namespace tileblas {

// What a plan runs on. Each call is ordered after the previous ones (a stream's order on the
// device); a failure is returned and ends the plan.
//
// Independent operations: between fork() and join() every operation goes to the current lane, and
// next_lane() starts another. Within a lane operations keep their order, every lane runs after
// everything before fork(), and everything after join() runs after every lane; lanes are not
// ordered among themselves (the device runs them on several streams at once, the tests' CPU
// backend in reverse). The defaults run everything in order, which is one valid schedule.
class Level3Backend {
 public:
  virtual ~Level3Backend() = default;
  virtual cudaError_t fork() { return cudaSuccess; }
  virtual void next_lane() {}
  virtual cudaError_t join() { return cudaSuccess; }
  virtual cudaError_t gemm(const Problem& p) = 0;
  // Whether gemm(p) would run p (on the device: a kernel supports it), asked before a plan starts
  // where it has two ways (a triangle of C: Problem::c_triangle).
  virtual bool gemm_supports(const Problem& p) = 0;
  // Whether gemm_supports() can hold for a GEMM on a triangle of C at all: a backend without
  // triangle GEMMs says no here, and the plans ask nothing per block (a small call's plan).
  virtual bool computes_triangles() { return true; }
  virtual cudaError_t tri_update(const TriUpdateProblem& p) = 0;
  virtual cudaError_t tri_fill(const TriFillProblem& p) = 0;
  virtual cudaError_t tri_block(const TriBlockProblem& p) = 0;
  virtual cudaError_t tri_invert(const TriInvertProblem& p) = 0;
  // `bytes` of scratch memory the backend's operations can use, valid until the backend is
  // destroyed (its contents undefined).
  virtual cudaError_t scratch(size_t bytes, void** p) = 0;
};

struct Level3BlockSizes {
  int64_t tri_leaf = 64;    // trmm/trsm: largest diagonal block left to tri_block
  int64_t rank_leaf = 512;  // syrk..her2k: order of C's diagonal blocks computed into scratch
  // syrk..her2k where the backend's GEMM computes triangles: order of C's diagonal blocks, each
  // one GEMM (two for the 2k forms) on its triangle straight into C; 0: all of C as one block.
  int64_t rank_triangle_leaf = 0;
  // trmm: diagonal blocks of order up to trmm_leaf (and above tri_leaf) multiply as one GEMM by
  // the block made full in scratch (zeros outside the triangle) with a copy of B's part; 0: none.
  int64_t trmm_leaf = 0;
  // trsm: the same with the block's inverse (every diagonal block inverted first by one
  // tri_invert, so at most its largest order); 0: none.
  int64_t trsm_leaf = 0;
  // trmm, trsm: B's other dimension (columns for side L, rows for side R) cut into at most
  // `tri_panels` panels of at least `tri_panel_min`, each the whole plan in a lane of its own.
  int64_t tri_panels = 1;
  int64_t tri_panel_min = 1;
};

// The block sizes the device plans use for `type` (tri_leaf: tri_block's largest order there).
Level3BlockSizes level3_block_sizes(DataType type);

// Runs p (column-major, every pointer usable by the backend's operations) as a plan on `backend`
// with block sizes `sizes`. Writes nothing outside what the routine may write, reads nothing it may
// not read. Returns the first failure of an operation (what ran before it stays done).
cudaError_t run_level3_plan(const Problem& p, Level3Backend& backend,
                            const Level3BlockSizes& sizes);

// Whether p's type and operation form a routine the plans compute (s/d/c/z; hemm, herk, her2k
// complex only; trans kConjTrans only for complex data, and not for complex symm/syrk/syr2k).
bool level3_plan_handles(const Problem& p);

// level3_on_device_supports() and run_level3_on_device() (src/plans.h) with other block sizes,
// for tests and benches (a plan's operations, so whether the device has a kernel for each, depend
// on its block sizes).
bool level3_on_device_supports_with(const Problem& p, const DeviceCaps& caps,
                                    const Level3BlockSizes& sizes);
cudaError_t run_level3_on_device_with(const Problem& p, const DeviceCaps& caps, cudaStream_t stream,
                                      const Level3BlockSizes& sizes);

}  // namespace tileblas
