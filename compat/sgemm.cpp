// fp32 GEMM: Fortran sgemm_ and CBLAS cblas_sgemm.
#include "compat.h"
#include "ops.h"

using tileblas::DataType;
using tileblas::GemmProblem;
using tileblas::compat::GemmArgs;

TILEBLAS_EXPORT void sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                            const int* k, const float* alpha, const float* a, const int* lda,
                            const float* b, const int* ldb, const float* beta, float* c,
                            const int* ldc, size_t, size_t) {
  const GemmArgs args{*m,   *n, *k,   *alpha,         *beta,         a, *lda, b,
                      *ldb, c,  *ldc, DataType::kF32, DataType::kF32};
  GemmProblem p;
  if (tileblas::compat::fortran_gemm_problem("SGEMM ", *transa, *transb, args, &p)) {
    tileblas::gemm(p, "sgemm");
  }
}

TILEBLAS_EXPORT void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k,
                                 float alpha, const float* a, int lda, const float* b, int ldb,
                                 float beta, float* c, int ldc) {
  const GemmArgs args{m, n, k, alpha, beta, a, lda, b, ldb, c, ldc, DataType::kF32, DataType::kF32};
  GemmProblem p;
  if (tileblas::compat::cblas_gemm_problem("cblas_sgemm", layout, transa, transb, args, &p)) {
    tileblas::gemm(p, "cblas_sgemm");
  }
}
