// Level-3 entry points other than GEMM, one template per family and form over the routine (op and
// element type) and the name set (integer width): every exported ?symm, ?hemm, ?syrk, ?herk,
// ?syr2k, ?her2k, ?trmm, ?trsm name (compat/entry_points.txt) is one instantiation.
// Fortran form: every argument by address (the hidden string lengths that follow are not read).
// CBLAS form, as cblas.h declares it: alpha and beta by value for real types, by address for
// complex ones, except herk's alpha and beta and her2k's beta, real values. The templates only turn
// the typed arguments into Level3Args; checks, mapping, numbering and the computation are
// compat/level3.cpp's.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "compat.h"
#include "problem.h"

namespace tileblas::compat {

// One call's arguments in the Fortran routine's meaning (column major): m, n for symm, hemm, trmm
// and trsm; n, k for syrk .. her2k. B of trmm/trsm is in c/ldc, as Problem holds it.
struct Level3Args {
  int64_t m = 0, n = 0, k = 0;
  Scalar alpha, beta;
  const void* a = nullptr;
  int64_t lda = 0;
  const void* b = nullptr;
  int64_t ldb = 0;
  void* c = nullptr;
  int64_t ldc = 0;
};

// The routine's option characters as the Fortran routine takes them (those it lacks are ignored).
struct Level3Chars {
  char side = 'L', uplo = 'U', trans = 'N', diag = 'N';
};

// "ssyrk": the Fortran name without its "_", the CBLAS name without "cblas_".
const char* level3_name(Operation op, DataType type);

// A Fortran call of Op on set s: checks, quick return, refusal of arguments wider than the set's
// CPU BLAS takes, then tileblas::level3 under `label`. One instantiation per operation
// (compat/level3.cpp), so that its checks and its Problem are made without asking which
// operation's they are.
template <Operation Op>
void run_level3_fortran(NameSet s, DataType type, const Level3Chars& ch, const Level3Args& g,
                        const char* label);

// A CBLAS call of Op on set s: enum checks, row-major mapping, then as run_level3_fortran();
// errors in the set's CBLAS convention (compat/level3.cpp).
template <Operation Op>
void run_level3_cblas(NameSet s, DataType type, int layout, int side, int uplo, int trans, int diag,
                      Level3Args g, const char* label);

// A scalar as CBLAS passes it: a real one by value, a complex one by address.
template <DataType T>
using CblasValue = std::conditional_t<is_complex(T), const void*,
                                      std::conditional_t<T == DataType::kF64, double, float>>;

template <typename V>
const void* address_of(const V& v) {
  if constexpr (std::is_pointer_v<V>) {
    return v;
  } else {
    return &v;
  }
}

template <Operation Op, DataType T, NameSet S>
void symm_fortran(const char* side, const char* uplo, const Int<S>* m, const Int<S>* n,
                  const void* alpha, const void* a, const Int<S>* lda, const void* b,
                  const Int<S>* ldb, const void* beta, void* c, const Int<S>* ldc) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), false);
  Level3Args g;
  g.m = *m, g.n = *n;
  g.alpha = scalar_at(alpha, T), g.beta = scalar_at(beta, T);
  g.a = a, g.lda = *lda, g.b = b, g.ldb = *ldb, g.c = c, g.ldc = *ldc;
  Level3Chars ch;
  ch.side = *side, ch.uplo = *uplo;
  run_level3_fortran<Op>(S, T, ch, g, label.c_str());
}

template <Operation Op, DataType T, NameSet S>
void symm_cblas(int layout, int side, int uplo, Int<S> m, Int<S> n, CblasValue<T> alpha,
                const void* a, Int<S> lda, const void* b, Int<S> ldb, CblasValue<T> beta, void* c,
                Int<S> ldc) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), true);
  Level3Args g;
  g.m = m, g.n = n;
  g.alpha = scalar_at(address_of(alpha), T), g.beta = scalar_at(address_of(beta), T);
  g.a = a, g.lda = lda, g.b = b, g.ldb = ldb, g.c = c, g.ldc = ldc;
  run_level3_cblas<Op>(S, T, layout, side, uplo, kCblasNoTrans, kCblasNonUnit, g, label.c_str());
}

// syrk and herk; syr2k and her2k (with B).
template <Operation Op, DataType T>
Level3Args rank_k_args(int64_t n, int64_t k, const void* alpha, const void* a, int64_t lda,
                       const void* b, int64_t ldb, const void* beta, void* c, int64_t ldc) {
  Level3Args g;
  g.n = n, g.k = k;
  g.alpha = scalar_at(alpha, cpu_blas::alpha_type(Op, T));
  g.beta = scalar_at(beta, cpu_blas::beta_type(Op, T));
  g.a = a, g.lda = lda, g.b = b, g.ldb = ldb, g.c = c, g.ldc = ldc;
  return g;
}

template <Operation Op, DataType T, NameSet S>
void syrk_fortran(const char* uplo, const char* trans, const Int<S>* n, const Int<S>* k,
                  const void* alpha, const void* a, const Int<S>* lda, const void* beta, void* c,
                  const Int<S>* ldc) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), false);
  Level3Chars ch;
  ch.uplo = *uplo, ch.trans = *trans;
  run_level3_fortran<Op>(S, T, ch,
                         rank_k_args<Op, T>(*n, *k, alpha, a, *lda, nullptr, 0, beta, c, *ldc),
                         label.c_str());
}

template <Operation Op, DataType T, NameSet S>
void syrk_cblas(int layout, int uplo, int trans, Int<S> n, Int<S> k,
                CblasValue<cpu_blas::alpha_type(Op, T)> alpha, const void* a, Int<S> lda,
                CblasValue<cpu_blas::beta_type(Op, T)> beta, void* c, Int<S> ldc) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), true);
  run_level3_cblas<Op>(
      S, T, layout, kCblasLeft, uplo, trans, kCblasNonUnit,
      rank_k_args<Op, T>(n, k, address_of(alpha), a, lda, nullptr, 0, address_of(beta), c, ldc),
      label.c_str());
}

template <Operation Op, DataType T, NameSet S>
void syr2k_fortran(const char* uplo, const char* trans, const Int<S>* n, const Int<S>* k,
                   const void* alpha, const void* a, const Int<S>* lda, const void* b,
                   const Int<S>* ldb, const void* beta, void* c, const Int<S>* ldc) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), false);
  Level3Chars ch;
  ch.uplo = *uplo, ch.trans = *trans;
  run_level3_fortran<Op>(
      S, T, ch, rank_k_args<Op, T>(*n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc), label.c_str());
}

template <Operation Op, DataType T, NameSet S>
void syr2k_cblas(int layout, int uplo, int trans, Int<S> n, Int<S> k,
                 CblasValue<cpu_blas::alpha_type(Op, T)> alpha, const void* a, Int<S> lda,
                 const void* b, Int<S> ldb, CblasValue<cpu_blas::beta_type(Op, T)> beta, void* c,
                 Int<S> ldc) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), true);
  run_level3_cblas<Op>(
      S, T, layout, kCblasLeft, uplo, trans, kCblasNonUnit,
      rank_k_args<Op, T>(n, k, address_of(alpha), a, lda, b, ldb, address_of(beta), c, ldc),
      label.c_str());
}

// trmm, trsm: B (read and written) is held in c/ldc.
template <Operation Op, DataType T, NameSet S>
void trmm_fortran(const char* side, const char* uplo, const char* transa, const char* diag,
                  const Int<S>* m, const Int<S>* n, const void* alpha, const void* a,
                  const Int<S>* lda, void* b, const Int<S>* ldb) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), false);
  Level3Args g;
  g.m = *m, g.n = *n;
  g.alpha = scalar_at(alpha, T);
  g.a = a, g.lda = *lda, g.c = b, g.ldc = *ldb;
  Level3Chars ch;
  ch.side = *side, ch.uplo = *uplo, ch.trans = *transa, ch.diag = *diag;
  run_level3_fortran<Op>(S, T, ch, g, label.c_str());
}

template <Operation Op, DataType T, NameSet S>
void trmm_cblas(int layout, int side, int uplo, int transa, int diag, Int<S> m, Int<S> n,
                CblasValue<T> alpha, const void* a, Int<S> lda, void* b, Int<S> ldb) noexcept {
  static const std::string label = entry_label(S, level3_name(Op, T), true);
  Level3Args g;
  g.m = m, g.n = n;
  g.alpha = scalar_at(address_of(alpha), T);
  g.a = a, g.lda = lda, g.c = b, g.ldc = ldb;
  run_level3_cblas<Op>(S, T, layout, side, uplo, transa, diag, g, label.c_str());
}

}  // namespace tileblas::compat
