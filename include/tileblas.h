/* tileblas: a drop-in BLAS that runs GEMM, transpose and axpy on its own CUDA kernels.
 *
 * This header is plain C (no CUDA types). It declares
 *   - the library's own API: version, configuration and route queries, and device-pointer entry
 *     points that take a CUDA stream as an opaque pointer;
 *   - the extension symbols tileblas exports beyond the standard BLAS/CBLAS (MKL's and OpenBLAS's
 *     half/bfloat16 GEMM and OpenBLAS's omatcopy/imatcopy), with plain 16-bit storage types.
 * Standard BLAS/CBLAS prototypes come from your usual cblas.h; tileblas exports all of them. */
#ifndef TILEBLAS_H
#define TILEBLAS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILEBLAS_VERSION_MAJOR 0
#define TILEBLAS_VERSION_MINOR 1
#define TILEBLAS_VERSION_PATCH 0

/* IEEE binary16 and bfloat16 values, stored as their 16 bits. */
typedef uint16_t tileblas_half;
typedef uint16_t tileblas_bfloat16;

/* ---- Library information --------------------------------------------------------------------- */

/* "MAJOR.MINOR.PATCH". */
const char* tileblas_version(void);

/* Where a call ran. */
typedef enum {
  TILEBLAS_ROUTE_NONE = 0, /* no accelerated call yet on this thread, or a quick return */
  TILEBLAS_ROUTE_CPU = 1,  /* the CPU BLAS underneath (or tileblas's CPU code) */
  TILEBLAS_ROUTE_GPU = 2   /* one of tileblas's CUDA kernels */
} tileblas_route;

/* The route, kernel name and reason of the last accelerated call (sgemm, hgemm, ..., saxpy,
 * omatcopy, imatcopy) made on the calling thread. The strings are static or thread-local and
 * stay valid until the thread's next accelerated call. */
tileblas_route tileblas_last_route(void);
const char* tileblas_last_kernel(void);
const char* tileblas_last_reason(void);

/* The configuration the library is running with. Strings are static. */
typedef struct {
  const char* mode;          /* "auto", "gpu" or "cpu" (TILEBLAS_MODE) */
  int device_found;          /* 1 if a usable CUDA device was found, 0 if not (probes once) */
  int device_index;          /* TILEBLAS_DEVICE */
  const char* device_name;   /* e.g. "NVIDIA H100 80GB HBM3", or "" */
  int sm_version;            /* e.g. 90, or 0 */
  const char* no_device_why; /* why no device is used, or "" */
  const char* cpu_blas;      /* the CPU BLAS in use: a path, or "RTLD_NEXT (...)" */
  int allow_tf32;            /* TILEBLAS_ALLOW_TF32 */
  int verbose;               /* TILEBLAS_VERBOSE */
  const char* force_kernel;  /* TILEBLAS_FORCE_KERNEL, or "" */
} tileblas_config;

/* Fills *out. Loads the CPU BLAS and probes the device if that has not happened yet. */
void tileblas_get_config(tileblas_config* out);

/* ---- Device-pointer entry points ------------------------------------------------------------ */

/* Column-major SGEMM on device (or managed) pointers, enqueued on `stream` (a cudaStream_t, or
 * NULL for the calling thread's tileblas stream); returns without waiting for the GPU.
 * trans: 'N', 'T' or 'C'. Returns 0 on success, a positive netlib INFO for a bad argument (the
 * call does nothing), or -1 if the GPU is unavailable or the launch failed. */
int tileblas_sgemm_device(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                          const float* a, int64_t lda, const float* b, int64_t ldb, float beta,
                          float* c, int64_t ldc, void* stream);

/* ---- Extension symbols -------------------------------------------------------------------- */

/* Other BLAS headers declare some of these names too, with their own types: OpenBLAS's cblas.h
 * (cblas_sbgemm, cblas_somatcopy, cblas_simatcopy, with enum CBLAS_ORDER / CBLAS_TRANSPOSE),
 * MKL's mkl_cblas.h (cblas_hgemm, cblas_gemm_f16f16f32, cblas_gemm_bf16bf16f32, with enum
 * CBLAS_LAYOUT / CBLAS_TRANSPOSE) and mkl_blas.h (hgemm_, gemm_f16f16f32_, gemm_bf16bf16f32_,
 * noexcept in C++). This header compiles beside any of them, included before or after it:
 *  - Fortran names carry exactly MKL's types, and in C++ its exception specification, since C++
 *    allows a C function one type and one exception specification.
 *  - CBLAS names take the CBLAS enums as unsigned int. In C that is the type GCC and Clang give an
 *    enum whose values are all non-negative, so these prototypes are compatible with the enum-typed
 *    ones. In C++ an enum is a type of its own: there the prototypes are C++ declarations bound to
 *    the C symbol by an asm label, which overload another header's C declarations; any overload a
 *    call picks reaches the same symbol. */
#ifdef __cplusplus
#if __cplusplus > 199711L
#define TILEBLAS_NOTHROW noexcept
#else
#define TILEBLAS_NOTHROW throw()
#endif
#define TILEBLAS_C_SYMBOL(name) __asm__(#name)
#else
#define TILEBLAS_NOTHROW
#define TILEBLAS_C_SYMBOL(name)
#endif

/* CBLAS enums: order 101 row / 102 column; trans 111 N / 112 T / 113 C. */
typedef unsigned int tileblas_cblas_enum;

/* MKL's names. */
void hgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const tileblas_half* alpha, const tileblas_half* a, const int* lda,
            const tileblas_half* b, const int* ldb, const tileblas_half* beta, tileblas_half* c,
            const int* ldc) TILEBLAS_NOTHROW;
void gemm_f16f16f32_(const char* transa, const char* transb, const int* m, const int* n,
                     const int* k, const float* alpha, const tileblas_half* a, const int* lda,
                     const tileblas_half* b, const int* ldb, const float* beta, float* c,
                     const int* ldc) TILEBLAS_NOTHROW;
void gemm_bf16bf16f32_(const char* transa, const char* transb, const int* m, const int* n,
                       const int* k, const float* alpha, const tileblas_bfloat16* a, const int* lda,
                       const tileblas_bfloat16* b, const int* ldb, const float* beta, float* c,
                       const int* ldc) TILEBLAS_NOTHROW;

/* OpenBLAS's names. B = alpha * op(A) out of place; A in place (lda on entry, ldb on exit).
 * order 'C'/'R' (Fortran) or 101/102 (CBLAS), trans 'N','T','R','C' (R = N, C = T for real). */
void sbgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const float* alpha, const tileblas_bfloat16* a, const int* lda,
             const tileblas_bfloat16* b, const int* ldb, const float* beta, float* c,
             const int* ldc) TILEBLAS_NOTHROW;
void somatcopy_(const char* order, const char* trans, const int* rows, const int* cols,
                const float* alpha, const float* a, const int* lda, float* b,
                const int* ldb) TILEBLAS_NOTHROW;
void simatcopy_(const char* order, const char* trans, const int* rows, const int* cols,
                const float* alpha, float* a, const int* lda, const int* ldb) TILEBLAS_NOTHROW;

#ifdef __cplusplus
}
#endif

/* MKL's names. */
void cblas_hgemm(tileblas_cblas_enum layout, tileblas_cblas_enum transa, tileblas_cblas_enum transb,
                 int m, int n, int k, tileblas_half alpha, const tileblas_half* a, int lda,
                 const tileblas_half* b, int ldb, tileblas_half beta, tileblas_half* c, int ldc)
    TILEBLAS_C_SYMBOL(cblas_hgemm);
void cblas_gemm_f16f16f32(tileblas_cblas_enum layout, tileblas_cblas_enum transa,
                          tileblas_cblas_enum transb, int m, int n, int k, float alpha,
                          const tileblas_half* a, int lda, const tileblas_half* b, int ldb,
                          float beta, float* c, int ldc) TILEBLAS_C_SYMBOL(cblas_gemm_f16f16f32);
void cblas_gemm_bf16bf16f32(tileblas_cblas_enum layout, tileblas_cblas_enum transa,
                            tileblas_cblas_enum transb, int m, int n, int k, float alpha,
                            const tileblas_bfloat16* a, int lda, const tileblas_bfloat16* b,
                            int ldb, float beta, float* c, int ldc)
    TILEBLAS_C_SYMBOL(cblas_gemm_bf16bf16f32);

/* OpenBLAS's names. */
void cblas_sbgemm(tileblas_cblas_enum order, tileblas_cblas_enum transa, tileblas_cblas_enum transb,
                  int m, int n, int k, float alpha, const tileblas_bfloat16* a, int lda,
                  const tileblas_bfloat16* b, int ldb, float beta, float* c, int ldc)
    TILEBLAS_C_SYMBOL(cblas_sbgemm);
void cblas_somatcopy(tileblas_cblas_enum order, tileblas_cblas_enum trans, int rows, int cols,
                     float alpha, const float* a, int lda, float* b, int ldb)
    TILEBLAS_C_SYMBOL(cblas_somatcopy);
void cblas_simatcopy(tileblas_cblas_enum order, tileblas_cblas_enum trans, int rows, int cols,
                     float alpha, float* a, int lda, int ldb) TILEBLAS_C_SYMBOL(cblas_simatcopy);

#endif /* TILEBLAS_H */
