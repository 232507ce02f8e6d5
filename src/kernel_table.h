// The kernel tables: every CUDA kernel family tileblas has, by operation, in priority order.
// A row's supports() says whether the kernel computes a problem correctly (shape, transposes,
// alignment, data type, SM version) on device pointers; launch() enqueues it. The router picks,
// among the rows whose supports() holds, by its own preference table (src/router.cpp); tests and
// benches take kernel names from these tables so they cannot drift from them.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "problem.h"

namespace tileblas {

struct GemmKernel {
  const char* name;
  bool (*supports)(const Problem&, const DeviceCaps&);
  cudaError_t (*launch)(const Problem&, cudaStream_t);
  // C is written by more than one launch (the peeled rows): a launch() that fails may have
  // written part of it. Every other row writes C in its last launch or not at all.
  bool c_in_parts = false;
};

struct AxpyKernel {
  const char* name;
  bool (*supports)(const AxpyProblem&, const DeviceCaps&);
  cudaError_t (*launch)(const AxpyProblem&, cudaStream_t);
};

struct TransposeKernel {
  const char* name;
  bool (*supports)(const TransposeProblem&, const DeviceCaps&);
  cudaError_t (*launch)(const TransposeProblem&, cudaStream_t);
};

const std::vector<GemmKernel>& gemm_kernels();
const std::vector<AxpyKernel>& axpy_kernels();
const std::vector<TransposeKernel>& transpose_kernels();

// The row named `name`, or nullptr.
const GemmKernel* find_gemm_kernel(const char* name);
const AxpyKernel* find_axpy_kernel(const char* name);
const TransposeKernel* find_transpose_kernel(const char* name);
// True when some table has a row named `name` (host data: no device needed).
bool is_kernel_name(const char* name);

}  // namespace tileblas
