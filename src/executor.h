// The executor: runs a routed call on the GPU. Operands already on the device (or managed) are
// used in place; host operands are copied to stream-ordered device buffers (C only when beta != 0)
// and the result copied back. Returns the first CUDA error; host outputs are untouched on error
// unless their copy back had begun (LeftInC says what it left).
//
// Small GEMMs on host data are bounced: packed into a pinned buffer by the calling thread, which
// the kernel reads and writes in place. Large GEMMs on host data are staged: C and op(B) are cut
// into column panels; panel j+1's operands are copied in while panel j computes and panel j-1's
// result is copied out, on two copy streams beside the compute stream. Pageable data goes through
// pinned slots, filled and emptied by a team of host threads (a single thread's memcpy, which is
// what a plain cudaMemcpy of pageable memory amounts to, is the bottleneck otherwise); pinned data
// is copied directly. One staged call runs at a time; the slots, streams and threads are made on
// first use and kept.
#pragma once

#include <cuda_runtime_api.h>

#include "kernel_table.h"
#include "problem.h"
#include "router.h"

namespace tileblas {

// What a failed run left in the caller's C (axpy: y; omatcopy, imatcopy: B): `final_cols` of its
// columns hold the result, its first ones (a staged GEMM copies C back panel by panel; a Level-3
// output its pieces, in the order level3_copy_back_last_first() says: then maybe its last ones);
// the other columns are as they were, unless `maybe_partial` says that some of them may hold part
// of it (a copy back was in flight when the error struck, and a fault that stops the device makes
// it impossible to tell whether it landed; or part of a column larger than a piece landed; or C
// went back in one copy, which failed).
struct LeftInC {
  int64_t final_cols = 0;
  bool maybe_partial = false;
};

// `kernel` runs the whole problem; host operands move as `copies` says (kStaged: with panel_cols
// < n each panel runs on the kernel the router picks for it, on `caps`). kStaged and kBounced fall
// back to plain copies where their buffers cannot be made, kBounced also where the operands do not
// fit (bounce_fits). On error, *left (if given) says what the caller's C holds.
cudaError_t run_gemm(const Problem& p, const Placement& where, const GemmKernel& kernel,
                     HostCopies copies, int64_t panel_cols, const DeviceCaps& caps,
                     cudaStream_t stream, LeftInC* left = nullptr);

// For tests of the fallback: a call fails with cudaErrorLaunchFailure once `after` pieces of its
// output have been copied back to host memory (negative: never): through the pinned slots, a
// staged GEMM's column panels in pieces (whole columns filling one slot; so the failure may strike
// inside a panel) and a Level-3 output's pieces (in the order level3_copy_back_last_first() says);
// a staged GEMM's panel of pinned C is one piece. An output copied back whole (plain copies, pinned
// outputs of Level-3 calls not written as a triangle, a host y of axpy, a host B of omatcopy and
// imatcopy) is one piece: with `after` 0 its copy lands
// and the call then fails, as a copy whose error leaves unknown how much of it landed. Set before
// the call.
void fail_staged_copy_back_for_testing(int after);

// Small GEMMs on host data go through one pinned buffer of this size (HostCopies::kBounced): the
// calling thread packs the host operands into it, the kernel reads them and writes C there across
// the bus, and the thread unpacks C: one launch and one wait, without copies by the copy engines
// or allocations. Larger operands are read over the bus once per tile row or column that needs
// them, so the buffer is sized for problems up to a few hundred in each dimension.
constexpr size_t kBounceBytes = size_t(1) << 20;
// Whether p may be bounced: an fp32 problem (no TF32) whose host operands fit the buffer (columns
// padded to 16 bytes, aligned starts).
bool bounce_fits(const Problem& p, const Placement& where);

// One staged copy of a rows x cols column-major host matrix (pageable or pinned) to or from
// device memory, as the pipeline copies an operand, waited for. The calibration times these.
cudaError_t staged_copy_to_device(void* dev, int64_t ld_dev, const void* host, int64_t ld_host,
                                  int64_t rows, int64_t cols, size_t elem, bool host_pinned);
cudaError_t staged_copy_to_host(void* host, int64_t ld_host, const void* dev, int64_t ld_dev,
                                int64_t rows, int64_t cols, size_t elem, bool host_pinned);

// A Level-3 call other than GEMM on the GPU, through its plan (src/plans.h). Device and managed
// operands are used in place. Host operands go through the staging pipeline's pinned slots (plain
// copies where it is busy or unavailable): A and B unless alpha is zero, C where the routine reads
// it (src/operands.h); the output comes back as its rows x cols, never the padding rows, and
// C of syrk, herk, syr2k and her2k as its written triangle only (plain copies move C whole, so they
// copy it in whatever beta). On error, *left (if given) says what a host output holds: through the
// slots, the columns copied back before the error (in the order level3_copy_back_last_first()
// says); copied whole, maybe part of anything once its copy back had begun. An output used in place
// is as the plan left it (run_level3_on_device() is to fail before writing it wherever the device
// survives).
cudaError_t run_level3(const Problem& p, const Placement& where, const DeviceCaps& caps,
                       cudaStream_t stream, LeftInC* left = nullptr);

// y = alpha * x + y. A host y is copied back whole once the kernel has finished: on error,
// left->maybe_partial (if left is given) says whether that copy had begun.
cudaError_t run_axpy(const AxpyProblem& p, bool x_on_device, bool y_on_device,
                     const AxpyKernel& kernel, cudaStream_t stream, LeftInC* left = nullptr);

// B = alpha * op(A). Host operands are staged (so host data in place, a == b, works with any
// kernel: A is copied in before B is copied out). `copy_a_first` reads A from a device scratch
// copy: for device data in place with a kernel that works out of place. A host B is copied back
// whole once the kernel has finished: on error, left->maybe_partial says whether that copy had
// begun.
cudaError_t run_transpose(const TransposeProblem& p, bool a_on_device, bool b_on_device,
                          const TransposeKernel& kernel, bool copy_a_first, cudaStream_t stream,
                          LeftInC* left = nullptr);

// Copies a rows x cols column-major matrix (element size `elem`) between any two kinds of memory
// (cudaMemcpy2DAsync with the default direction).
cudaError_t copy_matrix(void* dst, int64_t ld_dst, const void* src, int64_t ld_src, int64_t rows,
                        int64_t cols, size_t elem, cudaStream_t stream);

}  // namespace tileblas
