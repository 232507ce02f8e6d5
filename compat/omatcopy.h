// Scaled copy and transpose, OpenBLAS's extensions, one template per form over the name set
// (integer width): somatcopy_ / cblas_somatcopy (out of place, B = alpha * op(A)) and simatcopy_ /
// cblas_simatcopy (in place: A is read with lda and the result written over it with ldb) under
// every set's spelling (compat/entry_points.txt). Argument order, checks and error numbers as
// OpenBLAS's interface/omatcopy.c and interface/imatcopy.c (the latter as of OpenBLAS 0.3.22+,
// which allows empty matrices and numbers ldb 8):
//   order 'C'/'R' (CblasColMajor/CblasRowMajor)                              1
//   trans 'N','R' = N and 'T','C' = T for real data (CblasNoTrans, CblasConjNoTrans = N;
//         CblasTrans, CblasConjTrans = T)                                    2
//   rows  omatcopy: >= 1; imatcopy: >= 0                                     3
//   cols  omatcopy: >= 1; imatcopy: >= 0                                     4
//   lda   >= rows (column order) or cols (row order); imatcopy: and >= 1     7
//   ldb   >= rows of op(A) as stored in that order; imatcopy: and >= 1       omatcopy 9, imatcopy 8
// The lowest failing number is reported once, through the set's xerbla with "SOMATCOPY" /
// "SIMATCOPY" for both forms (as OpenBLAS does), and nothing is written; so is a size wider than
// the set's CPU BLAS takes. A row-major matrix is the column-major matrix of its transpose: rows
// and cols swap, op and leading dimensions stay.
#pragma once

#include <string>

#include "compat.h"

namespace tileblas::compat {

// A call after parsing: order and op known (when valid), sizes as given.
struct MatcopyArgs {
  bool order_ok, trans_ok;
  bool row_major;
  Op op;
  int64_t rows, cols, lda, ldb;
};

MatcopyArgs fortran_matcopy_args(char order, char trans, int64_t rows, int64_t cols, int64_t lda,
                                 int64_t ldb);
MatcopyArgs cblas_matcopy_args(int order, int trans, int64_t rows, int64_t cols, int64_t lda,
                               int64_t ldb);

// Checks, then tileblas::omatcopy / imatcopy under `routine`, the exported name.
void somatcopy(NameSet s, const MatcopyArgs& m, float alpha, const float* a, float* b,
               const char* routine);
void simatcopy(NameSet s, const MatcopyArgs& m, float alpha, float* a, const char* routine);

template <NameSet S>
void somatcopy_fortran(const char* order, const char* trans, const Int<S>* rows, const Int<S>* cols,
                       const float* alpha, const float* a, const Int<S>* lda, float* b,
                       const Int<S>* ldb) noexcept {
  static const std::string routine = entry_label(S, "somatcopy", false);
  somatcopy(S, fortran_matcopy_args(*order, *trans, *rows, *cols, *lda, *ldb), *alpha, a, b,
            routine.c_str());
}

template <NameSet S>
void somatcopy_cblas(int order, int trans, Int<S> rows, Int<S> cols, float alpha, const float* a,
                     Int<S> lda, float* b, Int<S> ldb) noexcept {
  static const std::string routine = entry_label(S, "somatcopy", true);
  somatcopy(S, cblas_matcopy_args(order, trans, rows, cols, lda, ldb), alpha, a, b,
            routine.c_str());
}

template <NameSet S>
void simatcopy_fortran(const char* order, const char* trans, const Int<S>* rows, const Int<S>* cols,
                       const float* alpha, float* a, const Int<S>* lda,
                       const Int<S>* ldb) noexcept {
  static const std::string routine = entry_label(S, "simatcopy", false);
  simatcopy(S, fortran_matcopy_args(*order, *trans, *rows, *cols, *lda, *ldb), *alpha, a,
            routine.c_str());
}

template <NameSet S>
void simatcopy_cblas(int order, int trans, Int<S> rows, Int<S> cols, float alpha, float* a,
                     Int<S> lda, Int<S> ldb) noexcept {
  static const std::string routine = entry_label(S, "simatcopy", true);
  simatcopy(S, cblas_matcopy_args(order, trans, rows, cols, lda, ldb), alpha, a, routine.c_str());
}

}  // namespace tileblas::compat
