// bfloat16 GEMM entry points: A and B bfloat16, C, alpha, beta fp32, accumulation in fp32.
//   gemm_bf16bf16f32_ / cblas_gemm_bf16bf16f32   MKL's names
//   sbgemm_ / cblas_sbgemm                        OpenBLAS's names
// Checks, xerbla numbering, row-major mapping and quick returns are those of xGEMM
// (compat/compat.cpp); the computation is tileblas::gemm (GPU tensor cores or the CPU path).
#include "compat.h"
#include "ops.h"
#include "tileblas.h"

using tileblas::DataType;
using tileblas::GemmProblem;
using tileblas::compat::cblas_gemm_problem;
using tileblas::compat::fortran_gemm_problem;
using tileblas::compat::GemmArgs;

TILEBLAS_EXPORT void gemm_bf16bf16f32_(const char* transa, const char* transb, const int* m,
                                       const int* n, const int* k, const float* alpha,
                                       const tileblas_bfloat16* a, const int* lda,
                                       const tileblas_bfloat16* b, const int* ldb,
                                       const float* beta, float* c, const int* ldc) noexcept {
  const GemmArgs args{*m,   *n, *k,   *alpha,          *beta,         a, *lda, b,
                      *ldb, c,  *ldc, DataType::kBF16, DataType::kF32};
  GemmProblem p;
  if (fortran_gemm_problem("GEMM_BF16BF16F32 ", *transa, *transb, args, &p))
    tileblas::gemm(p, "gemm_bf16bf16f32");
}

TILEBLAS_EXPORT void cblas_gemm_bf16bf16f32(int layout, int transa, int transb, int m, int n, int k,
                                            float alpha, const tileblas_bfloat16* a, int lda,
                                            const tileblas_bfloat16* b, int ldb, float beta,
                                            float* c, int ldc) {
  const GemmArgs args{m,   n, k,   alpha,           beta,          a, lda, b,
                      ldb, c, ldc, DataType::kBF16, DataType::kF32};
  GemmProblem p;
  if (cblas_gemm_problem("cblas_gemm_bf16bf16f32", layout, transa, transb, args, &p))
    tileblas::gemm(p, "gemm_bf16bf16f32");
}

TILEBLAS_EXPORT void sbgemm_(const char* transa, const char* transb, const int* m, const int* n,
                             const int* k, const float* alpha, const tileblas_bfloat16* a,
                             const int* lda, const tileblas_bfloat16* b, const int* ldb,
                             const float* beta, float* c, const int* ldc) noexcept {
  const GemmArgs args{*m,   *n, *k,   *alpha,          *beta,         a, *lda, b,
                      *ldb, c,  *ldc, DataType::kBF16, DataType::kF32};
  GemmProblem p;
  if (fortran_gemm_problem("SBGEMM ", *transa, *transb, args, &p)) tileblas::gemm(p, "sbgemm");
}

TILEBLAS_EXPORT void cblas_sbgemm(int order, int transa, int transb, int m, int n, int k,
                                  float alpha, const tileblas_bfloat16* a, int lda,
                                  const tileblas_bfloat16* b, int ldb, float beta, float* c,
                                  int ldc) {
  const GemmArgs args{m,   n, k,   alpha,           beta,          a, lda, b,
                      ldb, c, ldc, DataType::kBF16, DataType::kF32};
  GemmProblem p;
  if (cblas_gemm_problem("cblas_sbgemm", order, transa, transb, args, &p))
    tileblas::gemm(p, "sbgemm");
}
