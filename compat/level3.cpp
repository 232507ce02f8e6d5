// Level 3 other than GEMM: ?symm, ?syrk, ?syr2k, ?trmm, ?trsm (s, d, c, z) and ?hemm, ?herk, ?her2k
// (c, z), Fortran ?xxx_ and CBLAS cblas_?xxx, one implementation per routine family over the
// element type. Checks in netlib INFO order with max(1, .) leading dimensions, xerbla_ with
// netlib's names, quick returns as netlib's; CBLAS calls mapped onto the Fortran routine's
// arguments exactly as the reference CBLAS 3.11 maps them (row major: side and uplo flipped, m and
// n swapped; syrk .. her2k trans N <-> T, or N <-> C for herk/her2k, with both T and C taken as N;
// her2k's alpha conjugated), then checked as the Fortran routine checks them, errors reported to
// cblas_xerbla with the Fortran INFO plus one, as the reference CBLAS's xerbla does. The
// computation is tileblas::level3.
#include <utility>

#include "compat.h"
#include "level3.h"
#include "ops.h"

using tileblas::DataType;
using tileblas::Level3Op;
using tileblas::Level3Problem;
using tileblas::Scalar;
using tileblas::compat::lsame;
using tileblas::compat::scalar_at;

namespace {

namespace compat = tileblas::compat;

// One call's arguments in the Fortran routine's meaning (column major): m, n for symm, hemm, trmm
// and trsm; n, k for syrk .. her2k. B of trmm/trsm is in c/ldc, as Level3Problem holds it.
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

enum class Family { kSymm, kRankK, kTriangular };

constexpr Family family_of(Level3Op op) {
  switch (op) {
    case Level3Op::kSymm:
    case Level3Op::kHemm:
      return Family::kSymm;
    case Level3Op::kTrmm:
    case Level3Op::kTrsm:
      return Family::kTriangular;
    default:
      return Family::kRankK;
  }
}

constexpr bool is_hermitian(Level3Op op) {
  return op == Level3Op::kHemm || op == Level3Op::kHerk || op == Level3Op::kHer2k;
}

constexpr DataType real_of(DataType t) {
  return t == DataType::kC64 ? DataType::kF64 : t == DataType::kC32 ? DataType::kF32 : t;
}

// The netlib and CBLAS names of one routine in one type.
struct Names {
  const char* srname;  // xerbla's name, blank-padded to six as netlib passes it
  const char* fortran;
  const char* cblas;
};

// [op][s, d, c, z]; hemm, herk and her2k exist for complex types only.
constexpr Names kNames[8][4] = {
    {{"SSYMM ", "ssymm", "cblas_ssymm"},
     {"DSYMM ", "dsymm", "cblas_dsymm"},
     {"CSYMM ", "csymm", "cblas_csymm"},
     {"ZSYMM ", "zsymm", "cblas_zsymm"}},
    {{}, {}, {"CHEMM ", "chemm", "cblas_chemm"}, {"ZHEMM ", "zhemm", "cblas_zhemm"}},
    {{"SSYRK ", "ssyrk", "cblas_ssyrk"},
     {"DSYRK ", "dsyrk", "cblas_dsyrk"},
     {"CSYRK ", "csyrk", "cblas_csyrk"},
     {"ZSYRK ", "zsyrk", "cblas_zsyrk"}},
    {{}, {}, {"CHERK ", "cherk", "cblas_cherk"}, {"ZHERK ", "zherk", "cblas_zherk"}},
    {{"SSYR2K", "ssyr2k", "cblas_ssyr2k"},
     {"DSYR2K", "dsyr2k", "cblas_dsyr2k"},
     {"CSYR2K", "csyr2k", "cblas_csyr2k"},
     {"ZSYR2K", "zsyr2k", "cblas_zsyr2k"}},
    {{}, {}, {"CHER2K", "cher2k", "cblas_cher2k"}, {"ZHER2K", "zher2k", "cblas_zher2k"}},
    {{"STRMM ", "strmm", "cblas_strmm"},
     {"DTRMM ", "dtrmm", "cblas_dtrmm"},
     {"CTRMM ", "ctrmm", "cblas_ctrmm"},
     {"ZTRMM ", "ztrmm", "cblas_ztrmm"}},
    {{"STRSM ", "strsm", "cblas_strsm"},
     {"DTRSM ", "dtrsm", "cblas_dtrsm"},
     {"CTRSM ", "ctrsm", "cblas_ctrsm"},
     {"ZTRSM ", "ztrsm", "cblas_ztrsm"}},
};

constexpr const Names& names_of(Level3Op op, DataType t) {
  return kNames[int(op)][t == DataType::kF64   ? 1
                         : t == DataType::kC32 ? 2
                         : t == DataType::kC64 ? 3
                                               : 0];
}

int64_t max1(int64_t x) { return x > 1 ? x : 1; }

// The trans letters syrk .. her2k take: N and T (ssyrk, dsyrk also C, as T; csyrk, zsyrk not C);
// herk, her2k N and C.
bool rank_k_trans_valid(Level3Op op, DataType type, char t) {
  if (lsame(t, 'N')) return true;
  if (lsame(t, 'T')) return !is_hermitian(op);
  if (lsame(t, 'C')) return is_hermitian(op) || !tileblas::is_complex(type);
  return false;
}

// netlib's argument checks of `op` on Fortran arguments, in its INFO order; 0 when all are valid.
int check_args(Level3Op op, DataType type, const Level3Chars& ch, const Level3Args& g) {
  const bool upper_or_lower = lsame(ch.uplo, 'U') || lsame(ch.uplo, 'L');
  const bool left_or_right = lsame(ch.side, 'L') || lsame(ch.side, 'R');
  switch (family_of(op)) {
    case Family::kSymm: {
      const int64_t nrowa = lsame(ch.side, 'L') ? g.m : g.n;
      if (!left_or_right) return 1;
      if (!upper_or_lower) return 2;
      if (g.m < 0) return 3;
      if (g.n < 0) return 4;
      if (g.lda < max1(nrowa)) return 7;
      if (g.ldb < max1(g.m)) return 9;
      if (g.ldc < max1(g.m)) return 12;
      return 0;
    }
    case Family::kRankK: {
      const int64_t nrowa = lsame(ch.trans, 'N') ? g.n : g.k;
      const bool two = op == Level3Op::kSyr2k || op == Level3Op::kHer2k;
      if (!upper_or_lower) return 1;
      if (!rank_k_trans_valid(op, type, ch.trans)) return 2;
      if (g.n < 0) return 3;
      if (g.k < 0) return 4;
      if (g.lda < max1(nrowa)) return 7;
      if (two && g.ldb < max1(nrowa)) return 9;
      if (g.ldc < max1(g.n)) return two ? 12 : 10;
      return 0;
    }
    case Family::kTriangular: {
      const int64_t nrowa = lsame(ch.side, 'L') ? g.m : g.n;
      if (!left_or_right) return 1;
      if (!upper_or_lower) return 2;
      if (!lsame(ch.trans, 'N') && !lsame(ch.trans, 'T') && !lsame(ch.trans, 'C')) return 3;
      if (!lsame(ch.diag, 'U') && !lsame(ch.diag, 'N')) return 4;
      if (g.m < 0) return 5;
      if (g.n < 0) return 6;
      if (g.lda < max1(nrowa)) return 9;
      if (g.ldc < max1(g.m)) return 11;
      return 0;
    }
  }
  return 0;
}

// netlib's quick returns: nothing to do at all (alpha == 0 with beta != 1 still scales C, and
// trmm/trsm with alpha == 0 still zero B).
bool quick_return(Level3Op op, const Level3Args& g) {
  switch (family_of(op)) {
    case Family::kSymm:
      return g.m == 0 || g.n == 0 || (g.alpha.is_zero() && g.beta.is_one());
    case Family::kRankK:
      return g.n == 0 || ((g.alpha.is_zero() || g.k == 0) && g.beta.is_one());
    case Family::kTriangular:
      return g.m == 0 || g.n == 0;
  }
  return false;
}

// Valid, column-major arguments as the library's problem.
Level3Problem to_problem(Level3Op op, DataType type, const Level3Chars& ch, const Level3Args& g) {
  Level3Problem p;
  p.op = op;
  p.type = type;
  const Family f = family_of(op);
  p.side =
      f == Family::kRankK || lsame(ch.side, 'L') ? tileblas::Side::kLeft : tileblas::Side::kRight;
  p.uplo = lsame(ch.uplo, 'U') ? tileblas::Uplo::kUpper : tileblas::Uplo::kLower;
  if (f != Family::kSymm) compat::parse_trans(ch.trans, type, &p.trans);
  if (f == Family::kTriangular && lsame(ch.diag, 'U')) p.diag = tileblas::Diag::kUnit;
  // syrk .. her2k: C is n x n, so m = n (and a_order() is n).
  p.m = f == Family::kRankK ? g.n : g.m;
  p.n = g.n;
  p.k = f == Family::kRankK ? g.k : 0;
  p.alpha = g.alpha;
  p.beta = f == Family::kTriangular ? Scalar() : g.beta;
  p.a = g.a;
  p.lda = g.lda;
  p.b = g.b;
  p.ldb = g.ldb;
  p.c = g.c;
  p.ldc = g.ldc;
  return p;
}

// A Fortran call: checks (xerbla_), quick return, then the computation.
void run_fortran(Level3Op op, DataType type, const Level3Chars& ch, const Level3Args& g) {
  const Names& names = names_of(op, type);
  if (const int info = check_args(op, type, ch, g)) {
    compat::report_xerbla(names.srname, info);
    return;
  }
  if (quick_return(op, g)) return;
  tileblas::level3(to_problem(op, type, ch, g), names.fortran);
}

// A CBLAS call: the reference CBLAS's enum checks (layout 1; then side 2, uplo 3 for symm, hemm,
// trmm, trsm, with trans 4 and diag 5 for trmm, trsm; uplo 2 and trans 3 for syrk .. her2k, except
// that for a row-major call it numbers a bad uplo 3, as its syrk, herk and syr2k do, but not its
// her2k), its mapping onto the Fortran routine, the Fortran checks (INFO + 1), quick return, then
// the computation.
void run_cblas(Level3Op op, DataType type, int layout, int side, int uplo, int trans, int diag,
               Level3Args g) {
  const char* const rout = names_of(op, type).cblas;
  if (layout != compat::kCblasColMajor && layout != compat::kCblasRowMajor) {
    compat::report_cblas_xerbla(1, rout, false);
    return;
  }
  const bool row = layout == compat::kCblasRowMajor;
  const Family f = family_of(op);
  Level3Chars ch;
  int info = 0;
  if (f != Family::kRankK) {
    if (side == compat::kCblasLeft) {
      ch.side = row ? 'R' : 'L';
    } else if (side == compat::kCblasRight) {
      ch.side = row ? 'L' : 'R';
    } else {
      info = 2;
    }
  }
  if (!info) {
    if (uplo == compat::kCblasUpper) {
      ch.uplo = row ? 'L' : 'U';
    } else if (uplo == compat::kCblasLower) {
      ch.uplo = row ? 'U' : 'L';
    } else {
      info = f != Family::kRankK ? 3 : row && op != Level3Op::kHer2k ? 3 : 2;
    }
  }
  if (!info && f != Family::kSymm) {
    // Row major, syrk .. her2k: op(A) op(A)^T of the row-major A is op'(A') op'(A')^T of the
    // column-major A' = A^T with op' the other transpose (T and C both become N).
    if (trans == compat::kCblasNoTrans) {
      ch.trans = f == Family::kRankK && row ? (is_hermitian(op) ? 'C' : 'T') : 'N';
    } else if (trans == compat::kCblasTrans) {
      ch.trans = f == Family::kRankK && row ? 'N' : 'T';
    } else if (trans == compat::kCblasConjTrans) {
      ch.trans = f == Family::kRankK && row ? 'N' : 'C';
    } else {
      info = f == Family::kRankK ? 3 : 4;
    }
  }
  if (!info && f == Family::kTriangular) {
    if (diag == compat::kCblasUnit) {
      ch.diag = 'U';
    } else if (diag == compat::kCblasNonUnit) {
      ch.diag = 'N';
    } else {
      info = 5;
    }
  }
  if (info) {
    compat::report_cblas_xerbla(info, rout, row);
    return;
  }
  if (row) {
    // C^T = B^T A^T (symm, hemm), B^T op(A)^T (trmm, trsm): the column-major problem is n x m.
    if (f != Family::kRankK) std::swap(g.m, g.n);
    // her2k: the conjugated problem's two terms trade alpha and conj(alpha).
    if (op == Level3Op::kHer2k) g.alpha.im = -g.alpha.im;
  }
  if (const int fortran_info = check_args(op, type, ch, g)) {
    compat::report_cblas_xerbla(fortran_info + 1, rout, row);
    return;
  }
  if (quick_return(op, g)) return;
  tileblas::level3(to_problem(op, type, ch, g), rout);
}

// ---- One template per family and entry point: the exported signatures' arguments, read as the
// standard passes them (Fortran: all by address; CBLAS: real scalars by value, complex ones by
// address; herk's alpha and beta, her2k's beta real) ----

template <Level3Op kOp, DataType kType>
void symm_fortran(const char* side, const char* uplo, const int* m, const int* n, const void* alpha,
                  const void* a, const int* lda, const void* b, const int* ldb, const void* beta,
                  void* c, const int* ldc) {
  Level3Args g;
  g.m = *m, g.n = *n;
  g.alpha = scalar_at(alpha, kType), g.beta = scalar_at(beta, kType);
  g.a = a, g.lda = *lda, g.b = b, g.ldb = *ldb, g.c = c, g.ldc = *ldc;
  Level3Chars ch;
  ch.side = *side, ch.uplo = *uplo;
  run_fortran(kOp, kType, ch, g);
}

template <Level3Op kOp, DataType kType>
void symm_cblas(int layout, int side, int uplo, int m, int n, const void* alpha, const void* a,
                int lda, const void* b, int ldb, const void* beta, void* c, int ldc) {
  Level3Args g;
  g.m = m, g.n = n;
  g.alpha = scalar_at(alpha, kType), g.beta = scalar_at(beta, kType);
  g.a = a, g.lda = lda, g.b = b, g.ldb = ldb, g.c = c, g.ldc = ldc;
  run_cblas(kOp, kType, layout, side, uplo, compat::kCblasNoTrans, compat::kCblasNonUnit, g);
}

// syrk, herk (alpha and beta real); syr2k, her2k (beta real) with B.
template <Level3Op kOp, DataType kType>
Level3Args rank_k_args(int64_t n, int64_t k, const void* alpha, const void* a, int64_t lda,
                       const void* b, int64_t ldb, const void* beta, void* c, int64_t ldc) {
  constexpr bool kHermitian = is_hermitian(kOp);
  Level3Args g;
  g.n = n, g.k = k;
  g.alpha = scalar_at(alpha, kOp == Level3Op::kHerk ? real_of(kType) : kType);
  g.beta = scalar_at(beta, kHermitian ? real_of(kType) : kType);
  g.a = a, g.lda = lda, g.b = b, g.ldb = ldb, g.c = c, g.ldc = ldc;
  return g;
}

template <Level3Op kOp, DataType kType>
void syrk_fortran(const char* uplo, const char* trans, const int* n, const int* k,
                  const void* alpha, const void* a, const int* lda, const void* beta, void* c,
                  const int* ldc) {
  Level3Chars ch;
  ch.uplo = *uplo, ch.trans = *trans;
  run_fortran(kOp, kType, ch,
              rank_k_args<kOp, kType>(*n, *k, alpha, a, *lda, nullptr, 0, beta, c, *ldc));
}

template <Level3Op kOp, DataType kType>
void syrk_cblas(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* a,
                int lda, const void* beta, void* c, int ldc) {
  run_cblas(kOp, kType, layout, compat::kCblasLeft, uplo, trans, compat::kCblasNonUnit,
            rank_k_args<kOp, kType>(n, k, alpha, a, lda, nullptr, 0, beta, c, ldc));
}

template <Level3Op kOp, DataType kType>
void syr2k_fortran(const char* uplo, const char* trans, const int* n, const int* k,
                   const void* alpha, const void* a, const int* lda, const void* b, const int* ldb,
                   const void* beta, void* c, const int* ldc) {
  Level3Chars ch;
  ch.uplo = *uplo, ch.trans = *trans;
  run_fortran(kOp, kType, ch,
              rank_k_args<kOp, kType>(*n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc));
}

template <Level3Op kOp, DataType kType>
void syr2k_cblas(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* a,
                 int lda, const void* b, int ldb, const void* beta, void* c, int ldc) {
  run_cblas(kOp, kType, layout, compat::kCblasLeft, uplo, trans, compat::kCblasNonUnit,
            rank_k_args<kOp, kType>(n, k, alpha, a, lda, b, ldb, beta, c, ldc));
}

// trmm, trsm: B (read and written) is held in c/ldc.
template <Level3Op kOp, DataType kType>
void trmm_fortran(const char* side, const char* uplo, const char* transa, const char* diag,
                  const int* m, const int* n, const void* alpha, const void* a, const int* lda,
                  void* b, const int* ldb) {
  Level3Args g;
  g.m = *m, g.n = *n;
  g.alpha = scalar_at(alpha, kType);
  g.a = a, g.lda = *lda, g.c = b, g.ldc = *ldb;
  Level3Chars ch;
  ch.side = *side, ch.uplo = *uplo, ch.trans = *transa, ch.diag = *diag;
  run_fortran(kOp, kType, ch, g);
}

template <Level3Op kOp, DataType kType>
void trmm_cblas(int layout, int side, int uplo, int transa, int diag, int m, int n,
                const void* alpha, const void* a, int lda, void* b, int ldb) {
  Level3Args g;
  g.m = m, g.n = n;
  g.alpha = scalar_at(alpha, kType);
  g.a = a, g.lda = lda, g.c = b, g.ldc = ldb;
  run_cblas(kOp, kType, layout, side, uplo, transa, diag, g);
}

constexpr DataType S = DataType::kF32, D = DataType::kF64, C = DataType::kC32, Z = DataType::kC64;
constexpr Level3Op kSymm = Level3Op::kSymm, kHemm = Level3Op::kHemm, kSyrk = Level3Op::kSyrk,
                   kHerk = Level3Op::kHerk, kSyr2k = Level3Op::kSyr2k, kHer2k = Level3Op::kHer2k,
                   kTrmm = Level3Op::kTrmm, kTrsm = Level3Op::kTrsm;

}  // namespace

// ---- Exported entry points: one line each. Complex elements are (re, im) pairs (Fortran COMPLEX /
// COMPLEX*16, C float/double _Complex). ----

// symm, hemm
TILEBLAS_EXPORT void ssymm_(const char* side, const char* uplo, const int* m, const int* n,
                            const float* alpha, const float* a, const int* lda, const float* b,
                            const int* ldb, const float* beta, float* c, const int* ldc, size_t,
                            size_t) {
  symm_fortran<kSymm, S>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void dsymm_(const char* side, const char* uplo, const int* m, const int* n,
                            const double* alpha, const double* a, const int* lda, const double* b,
                            const int* ldb, const double* beta, double* c, const int* ldc, size_t,
                            size_t) {
  symm_fortran<kSymm, D>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void csymm_(const char* side, const char* uplo, const int* m, const int* n,
                            const void* alpha, const void* a, const int* lda, const void* b,
                            const int* ldb, const void* beta, void* c, const int* ldc, size_t,
                            size_t) {
  symm_fortran<kSymm, C>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void zsymm_(const char* side, const char* uplo, const int* m, const int* n,
                            const void* alpha, const void* a, const int* lda, const void* b,
                            const int* ldb, const void* beta, void* c, const int* ldc, size_t,
                            size_t) {
  symm_fortran<kSymm, Z>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void chemm_(const char* side, const char* uplo, const int* m, const int* n,
                            const void* alpha, const void* a, const int* lda, const void* b,
                            const int* ldb, const void* beta, void* c, const int* ldc, size_t,
                            size_t) {
  symm_fortran<kHemm, C>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void zhemm_(const char* side, const char* uplo, const int* m, const int* n,
                            const void* alpha, const void* a, const int* lda, const void* b,
                            const int* ldb, const void* beta, void* c, const int* ldc, size_t,
                            size_t) {
  symm_fortran<kHemm, Z>(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_ssymm(int layout, int side, int uplo, int m, int n, float alpha,
                                 const float* a, int lda, const float* b, int ldb, float beta,
                                 float* c, int ldc) {
  symm_cblas<kSymm, S>(layout, side, uplo, m, n, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_dsymm(int layout, int side, int uplo, int m, int n, double alpha,
                                 const double* a, int lda, const double* b, int ldb, double beta,
                                 double* c, int ldc) {
  symm_cblas<kSymm, D>(layout, side, uplo, m, n, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_csymm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                 const void* a, int lda, const void* b, int ldb, const void* beta,
                                 void* c, int ldc) {
  symm_cblas<kSymm, C>(layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_zsymm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                 const void* a, int lda, const void* b, int ldb, const void* beta,
                                 void* c, int ldc) {
  symm_cblas<kSymm, Z>(layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_chemm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                 const void* a, int lda, const void* b, int ldb, const void* beta,
                                 void* c, int ldc) {
  symm_cblas<kHemm, C>(layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_zhemm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                 const void* a, int lda, const void* b, int ldb, const void* beta,
                                 void* c, int ldc) {
  symm_cblas<kHemm, Z>(layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

// syrk, herk
TILEBLAS_EXPORT void ssyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                            const float* alpha, const float* a, const int* lda, const float* beta,
                            float* c, const int* ldc, size_t, size_t) {
  syrk_fortran<kSyrk, S>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                            const double* alpha, const double* a, const int* lda,
                            const double* beta, double* c, const int* ldc, size_t, size_t) {
  syrk_fortran<kSyrk, D>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void csyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                            const void* alpha, const void* a, const int* lda, const void* beta,
                            void* c, const int* ldc, size_t, size_t) {
  syrk_fortran<kSyrk, C>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void zsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                            const void* alpha, const void* a, const int* lda, const void* beta,
                            void* c, const int* ldc, size_t, size_t) {
  syrk_fortran<kSyrk, Z>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void cherk_(const char* uplo, const char* trans, const int* n, const int* k,
                            const float* alpha, const void* a, const int* lda, const float* beta,
                            void* c, const int* ldc, size_t, size_t) {
  syrk_fortran<kHerk, C>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void zherk_(const char* uplo, const char* trans, const int* n, const int* k,
                            const double* alpha, const void* a, const int* lda, const double* beta,
                            void* c, const int* ldc, size_t, size_t) {
  syrk_fortran<kHerk, Z>(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_ssyrk(int layout, int uplo, int trans, int n, int k, float alpha,
                                 const float* a, int lda, float beta, float* c, int ldc) {
  syrk_cblas<kSyrk, S>(layout, uplo, trans, n, k, &alpha, a, lda, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_dsyrk(int layout, int uplo, int trans, int n, int k, double alpha,
                                 const double* a, int lda, double beta, double* c, int ldc) {
  syrk_cblas<kSyrk, D>(layout, uplo, trans, n, k, &alpha, a, lda, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_csyrk(int layout, int uplo, int trans, int n, int k, const void* alpha,
                                 const void* a, int lda, const void* beta, void* c, int ldc) {
  syrk_cblas<kSyrk, C>(layout, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_zsyrk(int layout, int uplo, int trans, int n, int k, const void* alpha,
                                 const void* a, int lda, const void* beta, void* c, int ldc) {
  syrk_cblas<kSyrk, Z>(layout, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_cherk(int layout, int uplo, int trans, int n, int k, float alpha,
                                 const void* a, int lda, float beta, void* c, int ldc) {
  syrk_cblas<kHerk, C>(layout, uplo, trans, n, k, &alpha, a, lda, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_zherk(int layout, int uplo, int trans, int n, int k, double alpha,
                                 const void* a, int lda, double beta, void* c, int ldc) {
  syrk_cblas<kHerk, Z>(layout, uplo, trans, n, k, &alpha, a, lda, &beta, c, ldc);
}

// syr2k, her2k
TILEBLAS_EXPORT void ssyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                             const float* alpha, const float* a, const int* lda, const float* b,
                             const int* ldb, const float* beta, float* c, const int* ldc, size_t,
                             size_t) {
  syr2k_fortran<kSyr2k, S>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void dsyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                             const double* alpha, const double* a, const int* lda, const double* b,
                             const int* ldb, const double* beta, double* c, const int* ldc, size_t,
                             size_t) {
  syr2k_fortran<kSyr2k, D>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void csyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                             const void* alpha, const void* a, const int* lda, const void* b,
                             const int* ldb, const void* beta, void* c, const int* ldc, size_t,
                             size_t) {
  syr2k_fortran<kSyr2k, C>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void zsyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                             const void* alpha, const void* a, const int* lda, const void* b,
                             const int* ldb, const void* beta, void* c, const int* ldc, size_t,
                             size_t) {
  syr2k_fortran<kSyr2k, Z>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cher2k_(const char* uplo, const char* trans, const int* n, const int* k,
                             const void* alpha, const void* a, const int* lda, const void* b,
                             const int* ldb, const float* beta, void* c, const int* ldc, size_t,
                             size_t) {
  syr2k_fortran<kHer2k, C>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void zher2k_(const char* uplo, const char* trans, const int* n, const int* k,
                             const void* alpha, const void* a, const int* lda, const void* b,
                             const int* ldb, const double* beta, void* c, const int* ldc, size_t,
                             size_t) {
  syr2k_fortran<kHer2k, Z>(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_ssyr2k(int layout, int uplo, int trans, int n, int k, float alpha,
                                  const float* a, int lda, const float* b, int ldb, float beta,
                                  float* c, int ldc) {
  syr2k_cblas<kSyr2k, S>(layout, uplo, trans, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_dsyr2k(int layout, int uplo, int trans, int n, int k, double alpha,
                                  const double* a, int lda, const double* b, int ldb, double beta,
                                  double* c, int ldc) {
  syr2k_cblas<kSyr2k, D>(layout, uplo, trans, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_csyr2k(int layout, int uplo, int trans, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, const void* beta,
                                  void* c, int ldc) {
  syr2k_cblas<kSyr2k, C>(layout, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_zsyr2k(int layout, int uplo, int trans, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, const void* beta,
                                  void* c, int ldc) {
  syr2k_cblas<kSyr2k, Z>(layout, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_cher2k(int layout, int uplo, int trans, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, float beta,
                                  void* c, int ldc) {
  syr2k_cblas<kHer2k, C>(layout, uplo, trans, n, k, alpha, a, lda, b, ldb, &beta, c, ldc);
}
TILEBLAS_EXPORT void cblas_zher2k(int layout, int uplo, int trans, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, double beta,
                                  void* c, int ldc) {
  syr2k_cblas<kHer2k, Z>(layout, uplo, trans, n, k, alpha, a, lda, b, ldb, &beta, c, ldc);
}

// trmm
TILEBLAS_EXPORT void strmm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const float* alpha,
                            const float* a, const int* lda, float* b, const int* ldb, size_t,
                            size_t, size_t, size_t) {
  trmm_fortran<kTrmm, S>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void dtrmm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const double* alpha,
                            const double* a, const int* lda, double* b, const int* ldb, size_t,
                            size_t, size_t, size_t) {
  trmm_fortran<kTrmm, D>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void ctrmm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const void* alpha,
                            const void* a, const int* lda, void* b, const int* ldb, size_t, size_t,
                            size_t, size_t) {
  trmm_fortran<kTrmm, C>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void ztrmm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const void* alpha,
                            const void* a, const int* lda, void* b, const int* ldb, size_t, size_t,
                            size_t, size_t) {
  trmm_fortran<kTrmm, Z>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_strmm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 float alpha, const float* a, int lda, float* b, int ldb) {
  trmm_cblas<kTrmm, S>(layout, side, uplo, transa, diag, m, n, &alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_dtrmm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 double alpha, const double* a, int lda, double* b, int ldb) {
  trmm_cblas<kTrmm, D>(layout, side, uplo, transa, diag, m, n, &alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_ctrmm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 const void* alpha, const void* a, int lda, void* b, int ldb) {
  trmm_cblas<kTrmm, C>(layout, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_ztrmm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 const void* alpha, const void* a, int lda, void* b, int ldb) {
  trmm_cblas<kTrmm, Z>(layout, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

// trsm
TILEBLAS_EXPORT void strsm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const float* alpha,
                            const float* a, const int* lda, float* b, const int* ldb, size_t,
                            size_t, size_t, size_t) {
  trmm_fortran<kTrsm, S>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void dtrsm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const double* alpha,
                            const double* a, const int* lda, double* b, const int* ldb, size_t,
                            size_t, size_t, size_t) {
  trmm_fortran<kTrsm, D>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void ctrsm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const void* alpha,
                            const void* a, const int* lda, void* b, const int* ldb, size_t, size_t,
                            size_t, size_t) {
  trmm_fortran<kTrsm, C>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void ztrsm_(const char* side, const char* uplo, const char* transa,
                            const char* diag, const int* m, const int* n, const void* alpha,
                            const void* a, const int* lda, void* b, const int* ldb, size_t, size_t,
                            size_t, size_t) {
  trmm_fortran<kTrsm, Z>(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_strsm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 float alpha, const float* a, int lda, float* b, int ldb) {
  trmm_cblas<kTrsm, S>(layout, side, uplo, transa, diag, m, n, &alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_dtrsm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 double alpha, const double* a, int lda, double* b, int ldb) {
  trmm_cblas<kTrsm, D>(layout, side, uplo, transa, diag, m, n, &alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_ctrsm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 const void* alpha, const void* a, int lda, void* b, int ldb) {
  trmm_cblas<kTrsm, C>(layout, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TILEBLAS_EXPORT void cblas_ztrsm(int layout, int side, int uplo, int transa, int diag, int m, int n,
                                 const void* alpha, const void* a, int lda, void* b, int ldb) {
  trmm_cblas<kTrsm, Z>(layout, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
