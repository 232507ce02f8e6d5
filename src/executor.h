// The executor: runs a routed call on the GPU. Operands already on the device (or managed) are
// used in place; host operands are copied to stream-ordered device buffers (C only when beta != 0)
// and the result copied back. Returns the first CUDA error; host outputs are untouched on error.
#pragma once

#include <cuda_runtime_api.h>

#include "kernel_table.h"
#include "router.h"

namespace tileblas {

cudaError_t run_gemm(const GemmProblem& p, const Placement& where, const GemmKernel& kernel,
                     cudaStream_t stream);

cudaError_t run_axpy(const AxpyProblem& p, bool x_on_device, bool y_on_device,
                     const AxpyKernel& kernel, cudaStream_t stream);

// B = alpha * op(A). Host operands are staged (so host data in place, a == b, works with any
// kernel: A is copied in before B is copied out). `copy_a_first` reads A from a device scratch
// copy: for device data in place with a kernel that works out of place.
cudaError_t run_transpose(const TransposeProblem& p, bool a_on_device, bool b_on_device,
                          const TransposeKernel& kernel, bool copy_a_first, cudaStream_t stream);

// Copies a rows x cols column-major matrix (element size `elem`) between any two kinds of memory
// (cudaMemcpy2DAsync with the default direction).
cudaError_t copy_matrix(void* dst, int64_t ld_dst, const void* src, int64_t ld_src, int64_t rows,
                        int64_t cols, size_t elem, cudaStream_t stream);

}  // namespace tileblas
