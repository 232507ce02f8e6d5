// GEMM in fp32, fp64, complex fp32 and complex fp64: Fortran ?gemm_ and CBLAS cblas_?gemm, one
// implementation over the element type. alpha and beta are read as the standard passes them: by
// address in Fortran and for complex CBLAS calls, by value for real CBLAS calls. Checks, xerbla
// numbering, row-major mapping and quick returns are compat/compat.cpp's; the computation is
// tileblas::gemm.
#include "compat.h"
#include "ops.h"

using tileblas::DataType;
using tileblas::GemmProblem;
using tileblas::compat::GemmArgs;
using tileblas::compat::scalar_at;

namespace {

// The netlib and CBLAS names of ?gemm for one element type.
struct GemmNames {
  const char* srname;  // xerbla's name, blank-padded as netlib passes it
  const char* fortran;
  const char* cblas;
};

constexpr GemmNames names_of(DataType t) {
  switch (t) {
    case DataType::kF64:
      return {"DGEMM ", "dgemm", "cblas_dgemm"};
    case DataType::kC32:
      return {"CGEMM ", "cgemm", "cblas_cgemm"};
    case DataType::kC64:
      return {"ZGEMM ", "zgemm", "cblas_zgemm"};
    default:
      return {"SGEMM ", "sgemm", "cblas_sgemm"};
  }
}

template <DataType kType>
void gemm_fortran(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                  const void* alpha, const void* a, const int* lda, const void* b, const int* ldb,
                  const void* beta, void* c, const int* ldc) {
  constexpr GemmNames kNames = names_of(kType);
  const GemmArgs args{*m,   *n, *k,   scalar_at(alpha, kType), scalar_at(beta, kType), a, *lda, b,
                      *ldb, c,  *ldc, kType,                   kType};
  GemmProblem p;
  if (tileblas::compat::fortran_gemm_problem(kNames.srname, *transa, *transb, args, &p)) {
    tileblas::gemm(p, kNames.fortran);
  }
}

template <DataType kType>
void gemm_cblas(int layout, int transa, int transb, int m, int n, int k, const void* alpha,
                const void* a, int lda, const void* b, int ldb, const void* beta, void* c,
                int ldc) {
  constexpr GemmNames kNames = names_of(kType);
  const GemmArgs args{m,   n, k,   scalar_at(alpha, kType), scalar_at(beta, kType), a, lda, b,
                      ldb, c, ldc, kType,                   kType};
  GemmProblem p;
  if (tileblas::compat::cblas_gemm_problem(kNames.cblas, layout, transa, transb, args, &p)) {
    tileblas::gemm(p, kNames.cblas);
  }
}

}  // namespace

TILEBLAS_EXPORT void sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                            const int* k, const float* alpha, const float* a, const int* lda,
                            const float* b, const int* ldb, const float* beta, float* c,
                            const int* ldc, size_t, size_t) {
  gemm_fortran<DataType::kF32>(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TILEBLAS_EXPORT void dgemm_(const char* transa, const char* transb, const int* m, const int* n,
                            const int* k, const double* alpha, const double* a, const int* lda,
                            const double* b, const int* ldb, const double* beta, double* c,
                            const int* ldc, size_t, size_t) {
  gemm_fortran<DataType::kF64>(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// Complex elements are (re, im) pairs: Fortran COMPLEX / COMPLEX*16, C float/double _Complex.
TILEBLAS_EXPORT void cgemm_(const char* transa, const char* transb, const int* m, const int* n,
                            const int* k, const void* alpha, const void* a, const int* lda,
                            const void* b, const int* ldb, const void* beta, void* c,
                            const int* ldc, size_t, size_t) {
  gemm_fortran<DataType::kC32>(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TILEBLAS_EXPORT void zgemm_(const char* transa, const char* transb, const int* m, const int* n,
                            const int* k, const void* alpha, const void* a, const int* lda,
                            const void* b, const int* ldb, const void* beta, void* c,
                            const int* ldc, size_t, size_t) {
  gemm_fortran<DataType::kC64>(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TILEBLAS_EXPORT void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k,
                                 float alpha, const float* a, int lda, const float* b, int ldb,
                                 float beta, float* c, int ldc) {
  gemm_cblas<DataType::kF32>(layout, transa, transb, m, n, k, &alpha, a, lda, b, ldb, &beta, c,
                             ldc);
}

TILEBLAS_EXPORT void cblas_dgemm(int layout, int transa, int transb, int m, int n, int k,
                                 double alpha, const double* a, int lda, const double* b, int ldb,
                                 double beta, double* c, int ldc) {
  gemm_cblas<DataType::kF64>(layout, transa, transb, m, n, k, &alpha, a, lda, b, ldb, &beta, c,
                             ldc);
}

TILEBLAS_EXPORT void cblas_cgemm(int layout, int transa, int transb, int m, int n, int k,
                                 const void* alpha, const void* a, int lda, const void* b, int ldb,
                                 const void* beta, void* c, int ldc) {
  gemm_cblas<DataType::kC32>(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TILEBLAS_EXPORT void cblas_zgemm(int layout, int transa, int transb, int m, int n, int k,
                                 const void* alpha, const void* a, int lda, const void* b, int ldb,
                                 const void* beta, void* c, int ldc) {
  gemm_cblas<DataType::kC64>(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
