// sgemm_tiled: the fp32 GEMM baseline and fallback. Shared-memory tiles, every load and store
// predicated, so it computes any fp32 Problem on device pointers: all four transpose
// combinations, any m, n >= 1, k >= 0, any leading dimensions >= the minimum, any alignment.
//   C = alpha * op(A) * op(B) + beta * C   (column-major; k == 0 or alpha == 0: C = beta * C and
//   A, B are not read; beta == 0: C is not read, so NaN in C does not leak)
// Only C's m x n elements are written (rows m..ldc-1 stay untouched).
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"

namespace tileblas::sgemm_tiled {

bool supports(const Problem& p, const DeviceCaps& caps);
cudaError_t launch(const Problem& p, cudaStream_t stream);

}  // namespace tileblas::sgemm_tiled
