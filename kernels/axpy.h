// fp32 AXPY on the GPU (saxpy).
//
// Formula: y[i] = fma(alpha, x[i], y[i]) for i < n, one rounding per element. Strides as netlib:
// element i of x is x[i * incx] when incx >= 0 and x[(n - 1 - i) * |incx|] when incx < 0 (the
// pointer addresses the first stored element); likewise y. incx == 0 reads x[0] for every i.
// alpha == 0 or n == 0: y is left as it is and nothing is launched (netlib's quick return).
// Pointers are device or managed memory; every launch is asynchronous on `stream`.
//
// Variants (one table row each, src/kernel_table.cpp):
//   axpy_vec4     incx == incy == 1 and x, y at the same address mod 16 bytes: a scalar prologue
//                 of at most 3 elements until y (and so x) is 16-byte aligned, a grid-stride body
//                 of 16-byte loads and stores (4 vectors of x and of y in flight per thread), a
//                 scalar epilogue of at most 3 elements.
//   axpy_strided  any incx, any incy != 0 (incy == 0 would make every element update one y; the
//                 CPU path does that sequentially): grid-stride, 4 elements in flight per thread.
// Grids are sized to the blocks the device holds at once (SM count x resident blocks per SM).
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"

namespace tileblas::axpy {

bool supports_vec4(const AxpyProblem& p, const DeviceCaps& caps);
cudaError_t launch_vec4(const AxpyProblem& p, cudaStream_t stream);

bool supports_strided(const AxpyProblem& p, const DeviceCaps& caps);
cudaError_t launch_strided(const AxpyProblem& p, cudaStream_t stream);

}  // namespace tileblas::axpy
