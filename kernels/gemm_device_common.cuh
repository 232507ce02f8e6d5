// Shared by the tensor-core GEMM families (gemm_mma, gemm_wgmma): the kernel arguments and the
// epilogue's access to C in its storage type (fp32, fp16 or bf16; fp32 arithmetic, rounded once).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "problem.h"

namespace tileblas::gemm_device {

struct Args {
  int m, n, k;
  float alpha, beta;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  void* c;
  int64_t ldc;
  DataType c_type;
};

__device__ inline float load_c(const void* c, int64_t at, DataType type) {
  if (type == DataType::kF32) return static_cast<const float*>(c)[at];
  if (type == DataType::kF16) return __half2float(static_cast<const __half*>(c)[at]);
  return __bfloat162float(static_cast<const __nv_bfloat16*>(c)[at]);
}
__device__ inline void store_c(void* c, int64_t at, DataType type, float v) {
  if (type == DataType::kF32) {
    static_cast<float*>(c)[at] = v;
  } else if (type == DataType::kF16) {
    static_cast<__half*>(c)[at] = __float2half_rn(v);
  } else {
    static_cast<__nv_bfloat16*>(c)[at] = __float2bfloat16_rn(v);
  }
}

}  // namespace tileblas::gemm_device
