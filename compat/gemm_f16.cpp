// fp16 GEMM entry points (MKL's names): A and B IEEE fp16, accumulation in fp32.
//   hgemm_ / cblas_hgemm                    C, alpha, beta fp16 (alpha, beta converted to fp32 for
//                                           the computation; C rounded once to fp16)
//   gemm_f16f16f32_ / cblas_gemm_f16f16f32  C, alpha, beta fp32
// Checks, xerbla numbering, row-major mapping and quick returns are those of xGEMM
// (compat/compat.cpp); the computation is tileblas::gemm (GPU tensor cores or the CPU path).
#include "compat.h"
#include "half_convert.h"
#include "ops.h"
#include "tileblas.h"

using tileblas::DataType;
using tileblas::GemmProblem;
using tileblas::half_to_float;
using tileblas::compat::cblas_gemm_problem;
using tileblas::compat::fortran_gemm_problem;
using tileblas::compat::GemmArgs;

TILEBLAS_EXPORT void hgemm_(const char* transa, const char* transb, const int* m, const int* n,
                            const int* k, const tileblas_half* alpha, const tileblas_half* a,
                            const int* lda, const tileblas_half* b, const int* ldb,
                            const tileblas_half* beta, tileblas_half* c, const int* ldc) noexcept {
  const GemmArgs args{*m,   *n, *k,   half_to_float(*alpha), half_to_float(*beta), a, *lda, b,
                      *ldb, c,  *ldc, DataType::kF16,        DataType::kF16};
  GemmProblem p;
  if (fortran_gemm_problem("HGEMM ", *transa, *transb, args, &p)) tileblas::gemm(p, "hgemm");
}

TILEBLAS_EXPORT void cblas_hgemm(int layout, int transa, int transb, int m, int n, int k,
                                 tileblas_half alpha, const tileblas_half* a, int lda,
                                 const tileblas_half* b, int ldb, tileblas_half beta,
                                 tileblas_half* c, int ldc) {
  const GemmArgs args{m,   n, k,   half_to_float(alpha), half_to_float(beta), a, lda, b,
                      ldb, c, ldc, DataType::kF16,       DataType::kF16};
  GemmProblem p;
  if (cblas_gemm_problem("cblas_hgemm", layout, transa, transb, args, &p))
    tileblas::gemm(p, "hgemm");
}

TILEBLAS_EXPORT void gemm_f16f16f32_(const char* transa, const char* transb, const int* m,
                                     const int* n, const int* k, const float* alpha,
                                     const tileblas_half* a, const int* lda, const tileblas_half* b,
                                     const int* ldb, const float* beta, float* c,
                                     const int* ldc) noexcept {
  const GemmArgs args{*m,   *n, *k,   *alpha,         *beta,         a, *lda, b,
                      *ldb, c,  *ldc, DataType::kF16, DataType::kF32};
  GemmProblem p;
  if (fortran_gemm_problem("GEMM_F16F16F32 ", *transa, *transb, args, &p))
    tileblas::gemm(p, "gemm_f16f16f32");
}

TILEBLAS_EXPORT void cblas_gemm_f16f16f32(int layout, int transa, int transb, int m, int n, int k,
                                          float alpha, const tileblas_half* a, int lda,
                                          const tileblas_half* b, int ldb, float beta, float* c,
                                          int ldc) {
  const GemmArgs args{m, n, k, alpha, beta, a, lda, b, ldb, c, ldc, DataType::kF16, DataType::kF32};
  GemmProblem p;
  if (cblas_gemm_problem("cblas_gemm_f16f16f32", layout, transa, transb, args, &p))
    tileblas::gemm(p, "gemm_f16f16f32");
}
