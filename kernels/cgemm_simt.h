// cgemm_simt: complex single-precision GEMM on the fp32 SIMT cores (complex FMA in registers).
//
//   C = alpha * op(A) * op(B) + beta * C     column-major, complex fp32 (DataType::kC32:
//                                            interleaved re, im), alpha and beta complex
//
// op is N, T or C (conjugate transpose) for A and B independently. Each complex product is four
// fp32 FMAs into fp32 re and im accumulators (re += ar br - ai bi, im += ar bi + ai br, with the
// signs of ai, bi folded into the FMAs where op() conjugates): fp32 accuracy, no TF32 (this family
// has no tensor-core variant; TILEBLAS_ALLOW_TF32 does not change it). The epilogue computes
// alpha * acc + beta * C in fp32 complex arithmetic.
//
// Tiling: a block computes a 64 x 128 tile of C with 8 warps (4 in m x 2 in n) of 16 x 64, stepping
// through k 16 at a time; two blocks per SM. A lane holds a 4 x 8 complex register tile (64 fp32
// accumulators): rows 8a + 2 m_lane + {0,1} (a = 0..1), columns 16b + 2 n_lane + {0,1} (b = 0..3)
// of its warp tile, with lane bit 0 and bits 3-4 the n lane and bits 1-2 the m lane, so lanes
// (l, l^1) read one A vector and lanes (l, l^2) one B vector (16-byte shared-memory reads, two
// complex each). Each k-step of op(A) and op(B) lies k-major in shared memory (a[k][m], b[k][n],
// rows padded by 2 complex: 16-byte aligned rows, and conflict-free 8-byte writes of
// k-contiguous operands), filled by a 3-stage cp.async ring; one barrier per k-tile, before the
// last k-step's products (its reads already in registers). Blocks are rasterized in groups of 8
// tile rows (L2 reuse).
//
// Copies: operands contiguous along m or n (A not transposed, B transposed) in 16-byte chunks (two
// complex) in the vector row; operands contiguous along k (A transposed, B not) one complex (8
// bytes) at a time, 8 consecutive k per lane group, transposed on the way into shared memory. The
// scalar-load row copies 4 bytes (re or im) at a time. The packed row first packs each operand
// the 16-byte m/n-contiguous copies cannot read in place (A transposed, B not transposed, or either
// unaligned or of odd leading dimension) into a workspace from the device's default memory pool:
// op() applied (transposed, conjugated), m/n-contiguous, even leading dimension; then it runs the
// vector kernel on m/n-contiguous operands only. The k-contiguous copies are the slow ones (4096^3
// on an H100: NN 0.79 of cuBLAS, NT 0.89), and packing costs one pass over the packed operands.
// Where m is 1 to 8 past a multiple of 64, or n 1 to 8 past a multiple of 128 (4097), the packed
// row's tiles cover only the interior, and strip blocks placed last in the same grid compute the
// thin remainder (bandwidth-bound, in the slots the tiles' last wave leaves idle; the warps of a
// strip block split k and add their sums in a fixed order).
//
// Edges: any m, n >= 1 and k >= 0; copies beyond m, n or k are zero-filled (nothing outside the
// matrices is read), stores are predicated; rows m..ldc-1 of C are never written.
// k == 0 or alpha == 0: A and B are not read (they may be null), C = beta * C.
// beta == 0: C is not read (NaN in C does not leak).
//
// Alignment: cgemm_simt_64x128x16 needs A and B 16-byte aligned and lda, ldb even; the
// "scalarload" and "packed" rows need only 4-byte (float) alignment of A and B, any leading
// dimension (the scalar-load row copies whole complex elements, 8 bytes, where A and B are 8-byte
// aligned, else re and im apart; the packing reads float by float). C needs
// 4-byte alignment (16-byte accesses where C and ldc allow them, else float by float). Needs sm_80
// or newer (cp.async) and 150 KiB of shared memory per SM for two blocks (one block runs where less
// is available).
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"
#include "splitk.h"

namespace tileblas::cgemm_simt {

bool supports_64x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_64x128x16(const Problem& p, cudaStream_t stream);
bool supports_scalarload_64x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_scalarload_64x128x16(const Problem& p, cudaStream_t stream);
bool supports_packed_64x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_packed_64x128x16(const Problem& p, cudaStream_t stream);

// Split-K (cgemm_splitk_64x128x16, kernels/splitk.h): the packed row's operands (packed where not
// m/n-contiguous and 16-byte readable) and kernel over slices of k, one per blockIdx.y, each
// slice's tiles writing their unscaled partial product to a workspace, then splitk::reduce (slice
// order, alpha, beta; beta == 0 never reads C). No triangle of C. Its geometry is what the slice
// rule and the router's split-K rule read: 64x128 tiles, k-steps of 16, two blocks per SM, slices
// of at least 8 k-steps.
inline constexpr splitk::Geometry kSplitK{64, 128, 16, 2, 8};
bool supports_splitk_64x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_splitk_64x128x16(const Problem& p, cudaStream_t stream);

}  // namespace tileblas::cgemm_simt
