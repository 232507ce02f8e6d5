// The CPU BLAS underneath tileblas. Resolution, once, thread-safe, on first use:
//   1. a BLAS later in the process's lookup order (dlsym(RTLD_NEXT)): the program's own BLAS when
//      tileblas is preloaded;
//   2. otherwise dlopen(RTLD_LOCAL) of TILEBLAS_CPU_BLAS, else libopenblas.so.0, else libblas.so.3.
// A symbol that resolves back into libtileblas itself is refused (no infinite recursion).
#pragma once

#include <cstdint>

#include "level3.h"
#include "problem.h"

namespace tileblas::cpu_blas {

// The address of `name` (e.g. "dgemm_") in the CPU BLAS, or nullptr if it lacks it.
void* symbol(const char* name);

// Like symbol(), but when no CPU BLAS could be loaded or it lacks `name`, prints one clear message
// naming what was tried and exits the program (there is no right answer to give).
void* require(const char* name);

// What was loaded: a path, "RTLD_NEXT (<object>)", or "none (<what was tried>)".
const char* description();

// A scalar as Fortran passes it: one element of a BLAS type (a re, im pair for complex), by
// address.
struct Element {
  alignas(16) unsigned char bytes[16];
};
// `v` as one element of `type` (kF32, kF64, kC32 or kC64).
Element element_of(Scalar v, DataType type);

// Typed calls into the CPU BLAS's Fortran entry points (column-major, netlib semantics).
void sgemm(char transa, char transb, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc);
// ?gemm_ of `type` (kF32, kF64, kC32 or kC64: sgemm_, dgemm_, cgemm_, zgemm_). alpha and beta
// point at one element of `type` (a re, im pair for complex), as Fortran passes them.
void gemm(DataType type, char transa, char transb, int m, int n, int k, const void* alpha,
          const void* a, int lda, const void* b, int ldb, const void* beta, void* c, int ldc);
// The Level-3 routines other than GEMM, one call per argument shape, each reaching the Fortran
// symbol of `op` and `type` (strsm_, zher2k_, ...; resolved on first use). alpha and beta point at
// one element of `type`, except herk's alpha and beta and her2k's beta, which are real (an element
// of the real type of the same precision), as netlib declares them.
void symm_hemm(Level3Op op, DataType type, char side, char uplo, int m, int n, const void* alpha,
               const void* a, int lda, const void* b, int ldb, const void* beta, void* c, int ldc);
void syrk_herk(Level3Op op, DataType type, char uplo, char trans, int n, int k, const void* alpha,
               const void* a, int lda, const void* beta, void* c, int ldc);
void syr2k_her2k(Level3Op op, DataType type, char uplo, char trans, int n, int k, const void* alpha,
                 const void* a, int lda, const void* b, int ldb, const void* beta, void* c,
                 int ldc);
// B (m x n, ldb) is read and written.
void trmm_trsm(Level3Op op, DataType type, char side, char uplo, char transa, char diag, int m,
               int n, const void* alpha, const void* a, int lda, void* b, int ldb);
void saxpy(int n, float alpha, const float* x, int incx, float* y, int incy);
// OpenBLAS extensions; false when the CPU BLAS lacks them (the caller then uses its own loop).
bool somatcopy(char order, char trans, int rows, int cols, float alpha, const float* a, int lda,
               float* b, int ldb);
bool simatcopy(char order, char trans, int rows, int cols, float alpha, float* a, int lda, int ldb);

}  // namespace tileblas::cpu_blas
