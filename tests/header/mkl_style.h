/* An MKL-style CBLAS header for the header tests: the declarations of the names include/tileblas.h
 * also declares, in the form oneMKL's mkl_cblas.h and mkl_blas.h give them (enum CBLAS_LAYOUT,
 * MKL_INT, 16-bit storage types, noexcept in C++), and one standard routine. */
#ifndef TILEBLAS_TEST_MKL_STYLE_H
#define TILEBLAS_TEST_MKL_STYLE_H

#ifdef __cplusplus
#if __cplusplus > 199711L
#define NOTHROW noexcept
#else
#define NOTHROW throw()
#endif
#else
#define NOTHROW
#endif

#define MKL_INT int
typedef unsigned short MKL_F16;
typedef unsigned short MKL_BF16;

#ifdef __cplusplus
extern "C" {
#endif

enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
typedef enum CBLAS_LAYOUT CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE CBLAS_TRANSPOSE;

void cblas_sgemm(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
                 const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
                 const float alpha, const float* A, const MKL_INT lda, const float* B,
                 const MKL_INT ldb, const float beta, float* C, const MKL_INT ldc) NOTHROW;
void cblas_hgemm(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
                 const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
                 const MKL_F16 alpha, const MKL_F16* A, const MKL_INT lda, const MKL_F16* B,
                 const MKL_INT ldb, const MKL_F16 beta, MKL_F16* C, const MKL_INT ldc) NOTHROW;
void cblas_gemm_f16f16f32(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
                          const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N,
                          const MKL_INT K, const float alpha, const MKL_F16* A, const MKL_INT lda,
                          const MKL_F16* B, const MKL_INT ldb, const float beta, float* C,
                          const MKL_INT ldc) NOTHROW;
void cblas_gemm_bf16bf16f32(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
                            const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N,
                            const MKL_INT K, const float alpha, const MKL_BF16* A,
                            const MKL_INT lda, const MKL_BF16* B, const MKL_INT ldb,
                            const float beta, float* C, const MKL_INT ldc) NOTHROW;

void hgemm_(const char* transa, const char* transb, const MKL_INT* m, const MKL_INT* n,
            const MKL_INT* k, const MKL_F16* alpha, const MKL_F16* a, const MKL_INT* lda,
            const MKL_F16* b, const MKL_INT* ldb, const MKL_F16* beta, MKL_F16* c,
            const MKL_INT* ldc) NOTHROW;
void gemm_f16f16f32_(const char* transa, const char* transb, const MKL_INT* m, const MKL_INT* n,
                     const MKL_INT* k, const float* alpha, const MKL_F16* a, const MKL_INT* lda,
                     const MKL_F16* b, const MKL_INT* ldb, const float* beta, float* c,
                     const MKL_INT* ldc) NOTHROW;
void gemm_bf16bf16f32_(const char* transa, const char* transb, const MKL_INT* m, const MKL_INT* n,
                       const MKL_INT* k, const float* alpha, const MKL_BF16* a, const MKL_INT* lda,
                       const MKL_BF16* b, const MKL_INT* ldb, const float* beta, float* c,
                       const MKL_INT* ldc) NOTHROW;

#ifdef __cplusplus
}
#endif

#endif /* TILEBLAS_TEST_MKL_STYLE_H */
