// Level 3 other than GEMM after compat/level3_entry.h's templates: ?symm, ?syrk, ?syr2k, ?trmm,
// ?trsm (s, d, c, z) and ?hemm, ?herk, ?her2k (c, z). Checks in netlib INFO order with max(1, .)
// leading dimensions (OpenBLAS's interface checks the same), quick returns as netlib's; CBLAS calls
// mapped onto the Fortran routine's arguments exactly as the reference CBLAS 3.11 maps them (row
// major: side and uplo flipped, m and n swapped; syrk .. her2k trans N <-> T, or N <-> C for
// herk/her2k, with both T and C taken as N; her2k's alpha conjugated), then checked as the Fortran
// routine checks them. Errors go to the name set's xerbla: under the standard names a CBLAS call's
// to cblas_xerbla with the Fortran INFO plus one, as the reference CBLAS's xerbla does; under
// OpenBLAS's (wheel and ILP64) names to the set's Fortran xerbla, numbered as the Fortran routine
// numbers its arguments (0 for a bad layout), as OpenBLAS does. The computation is
// tileblas::level3, whose first step for a small call handed to the CPU BLAS runs here
// (src/level3_small_call.h).
#include <utility>

#include "level3_entry.h"
#include "level3_small_call.h"
#include "ops.h"

namespace tileblas::compat {

namespace {

enum class Family { kSymm, kRankK, kTriangular };

constexpr Family family_of(Operation op) {
  switch (op) {
    case Operation::kSymm:
    case Operation::kHemm:
      return Family::kSymm;
    case Operation::kTrmm:
    case Operation::kTrsm:
      return Family::kTriangular;
    default:
      return Family::kRankK;
  }
}

constexpr bool is_hermitian(Operation op) {
  return op == Operation::kHemm || op == Operation::kHerk || op == Operation::kHer2k;
}

// The netlib and CBLAS names of one routine in one type.
struct Names {
  const char* srname;  // xerbla's name, blank-padded to six as netlib passes it
  const char* fortran;
  const char* cblas;
};

// [op - symm][s, d, c, z] (the operations after gemm); hemm, herk and her2k exist for complex
// types only.
constexpr Names kNames[kOperationCount - 1][4] = {
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

constexpr const Names& names_of(Operation op, DataType t) {
  return kNames[int(op) - int(Operation::kSymm)][cpu_blas::letter_index(t)];
}

int64_t max1(int64_t x) { return x > 1 ? x : 1; }

// The trans letters syrk .. her2k take: N and T (ssyrk, dsyrk also C, as T; csyrk, zsyrk not C);
// herk, her2k N and C.
bool rank_k_trans_valid(Operation op, DataType type, char t) {
  if (lsame(t, 'N')) return true;
  if (lsame(t, 'T')) return !is_hermitian(op);
  if (lsame(t, 'C')) return is_hermitian(op) || !tileblas::is_complex(type);
  return false;
}

// netlib's argument checks of Op on Fortran arguments, in its INFO order; 0 when all are valid.
template <Operation Op>
int check_args(DataType type, const Level3Chars& ch, const Level3Args& g) {
  const bool upper_or_lower = lsame(ch.uplo, 'U') || lsame(ch.uplo, 'L');
  const bool left_or_right = lsame(ch.side, 'L') || lsame(ch.side, 'R');
  switch (family_of(Op)) {
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
      const bool two = Op == Operation::kSyr2k || Op == Operation::kHer2k;
      if (!upper_or_lower) return 1;
      if (!rank_k_trans_valid(Op, type, ch.trans)) return 2;
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
template <Operation Op>
bool quick_return(const Level3Args& g) {
  switch (family_of(Op)) {
    case Family::kSymm:
      return g.m == 0 || g.n == 0 || (g.alpha.is_zero() && g.beta.is_one());
    case Family::kRankK:
      return g.n == 0 || ((g.alpha.is_zero() || g.k == 0) && g.beta.is_one());
    case Family::kTriangular:
      return g.m == 0 || g.n == 0;
  }
  return false;
}

// Valid, column-major arguments of a call on set s as the library's problem. Inline
// (run_checked()).
template <Operation Op>
[[gnu::always_inline]] inline Problem to_problem(NameSet s, DataType type, const Level3Chars& ch,
                                                 const Level3Args& g) {
  Problem p;
  p.op = Op;
  p.type = type;
  p.name_set = s;
  const Family f = family_of(Op);
  p.side =
      f == Family::kRankK || lsame(ch.side, 'L') ? tileblas::Side::kLeft : tileblas::Side::kRight;
  p.uplo = lsame(ch.uplo, 'U') ? tileblas::Uplo::kUpper : tileblas::Uplo::kLower;
  if (f != Family::kSymm) parse_trans(ch.trans, type, &p.trans_a);
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

// The Fortran INFO number of the first size or leading dimension wider than `limit`, or 0.
template <Operation Op>
int first_too_wide(const Level3Args& g, int64_t limit) {
  auto first = [limit](std::initializer_list<NumberedArg> args) {
    for (const NumberedArg& a : args) {
      if (a.value > limit) return a.info;
    }
    return 0;
  };
  switch (family_of(Op)) {
    case Family::kSymm:
      return first({{g.m, 3}, {g.n, 4}, {g.lda, 7}, {g.ldb, 9}, {g.ldc, 12}});
    case Family::kRankK: {
      const bool two = Op == Operation::kSyr2k || Op == Operation::kHer2k;
      return first({{g.n, 3}, {g.k, 4}, {g.lda, 7}, {two ? g.ldb : 0, 9}, {g.ldc, two ? 12 : 10}});
    }
    case Family::kTriangular:
      return first({{g.m, 5}, {g.n, 6}, {g.lda, 9}, {g.ldc, 11}});
  }
  return 0;
}

// level3() on the call's Problem, made again: out of line, where the dispatch takes its address,
// so that run_checked()'s own Problem, read only by level3_small_call_on_cpu_blas(), stays in
// registers.
template <Operation Op>
[[gnu::noinline]] void route(NameSet s, DataType type, const Level3Chars& ch, const Level3Args& g,
                             const char* label) {
  tileblas::level3(to_problem<Op>(s, type, ch, g), label);
}

// After the checks: quick return, refusal of arguments wider than the set's CPU BLAS takes
// (reported by `report` with the Fortran INFO), then the computation: a small call handed to the
// CPU BLAS at once (src/level3_small_call.h), any other through level3(). Inline in the runners.
template <Operation Op, class Report>
[[gnu::always_inline]] inline void run_checked(NameSet s, DataType type, const Level3Chars& ch,
                                               const Level3Args& g, const char* label,
                                               Report report) {
  if (quick_return<Op>(g)) return;
  if (cpu_blas::info(s).int64) {
    if (const int info =
            first_too_wide<Op>(g, cpu_blas::max_int(s, cpu_blas::routine_of(Op, type)))) {
      report(info);
      return;
    }
  }
  if (level3_small_call_on_cpu_blas(to_problem<Op>(s, type, ch, g))) return;
  route<Op>(s, type, ch, g, label);
}

}  // namespace

const char* level3_name(Operation op, DataType type) { return names_of(op, type).fortran; }

template <Operation Op>
void run_level3_fortran(NameSet s, DataType type, const Level3Chars& ch, const Level3Args& g,
                        const char* label) {
  const Names& names = names_of(Op, type);
  auto report = [&](int info) { report_xerbla(s, names.srname, info); };
  if (const int info = check_args<Op>(type, ch, g)) {
    report(info);
    return;
  }
  run_checked<Op>(s, type, ch, g, label, report);
}

// A CBLAS call: the reference CBLAS's enum checks (layout 1; then side 2, uplo 3 for symm, hemm,
// trmm, trsm, with trans 4 and diag 5 for trmm, trsm; uplo 2 and trans 3 for syrk .. her2k, except
// that for a row-major call it numbers a bad uplo 3, as its syrk, herk and syr2k do, but not its
// her2k), its mapping onto the Fortran routine, the Fortran checks (INFO + 1), quick return, then
// the computation. Under OpenBLAS's names the same checks, reported with the Fortran routine's
// numbers through the set's xerbla.
template <Operation Op>
void run_level3_cblas(NameSet s, DataType type, int layout, int side, int uplo, int trans, int diag,
                      Level3Args g, const char* label) {
  const Names& names = names_of(Op, type);
  const char* const rout = names.cblas;
  const bool openblas = openblas_conventions(s);
  const Family f = family_of(Op);
  // `reference`: the reference CBLAS's number; `fortran`: the Fortran routine's.
  auto report = [&](int reference, int fortran, bool row_major) {
    if (openblas) {
      report_xerbla(s, names.srname, fortran);
    } else {
      report_cblas_xerbla(reference, rout, row_major);
    }
  };
  if (layout != kCblasColMajor && layout != kCblasRowMajor) {
    report(1, 0, false);
    return;
  }
  const bool row = layout == kCblasRowMajor;
  Level3Chars ch;
  int info = 0, fortran = 0;  // the reference CBLAS's number of a bad enum, and the Fortran one
  if (f != Family::kRankK) {
    if (side == kCblasLeft) {
      ch.side = row ? 'R' : 'L';
    } else if (side == kCblasRight) {
      ch.side = row ? 'L' : 'R';
    } else {
      info = 2, fortran = 1;
    }
  }
  if (!info) {
    if (uplo == kCblasUpper) {
      ch.uplo = row ? 'L' : 'U';
    } else if (uplo == kCblasLower) {
      ch.uplo = row ? 'U' : 'L';
    } else {
      info = f != Family::kRankK ? 3 : row && Op != Operation::kHer2k ? 3 : 2;
      fortran = f != Family::kRankK ? 2 : 1;
    }
  }
  if (!info && f != Family::kSymm) {
    // Row major, syrk .. her2k: op(A) op(A)^T of the row-major A is op'(A') op'(A')^T of the
    // column-major A' = A^T with op' the other transpose (T and C both become N).
    if (trans == kCblasNoTrans) {
      ch.trans = f == Family::kRankK && row ? (is_hermitian(Op) ? 'C' : 'T') : 'N';
    } else if (trans == kCblasTrans) {
      ch.trans = f == Family::kRankK && row ? 'N' : 'T';
    } else if (trans == kCblasConjTrans) {
      ch.trans = f == Family::kRankK && row ? 'N' : 'C';
    } else {
      info = f == Family::kRankK ? 3 : 4;
      fortran = f == Family::kRankK ? 2 : 3;
    }
  }
  if (!info && f == Family::kTriangular) {
    if (diag == kCblasUnit) {
      ch.diag = 'U';
    } else if (diag == kCblasNonUnit) {
      ch.diag = 'N';
    } else {
      info = 5, fortran = 4;
    }
  }
  if (info) {
    report(info, fortran, row);
    return;
  }
  if (row) {
    // C^T = B^T A^T (symm, hemm), B^T op(A)^T (trmm, trsm): the column-major problem is n x m.
    if (f != Family::kRankK) std::swap(g.m, g.n);
    // her2k: the conjugated problem's two terms trade alpha and conj(alpha).
    if (Op == Operation::kHer2k) g.alpha.im = -g.alpha.im;
  }
  if (const int fortran_info = check_args<Op>(type, ch, g)) {
    report(fortran_info + 1, fortran_info, row);
    return;
  }
  run_checked<Op>(s, type, ch, g, label,
                  [&](int fortran_info) { report(fortran_info + 1, fortran_info, row); });
}

// The instantiations compat/level3_entry.h's templates call: every operation but GEMM.
#define TILEBLAS_LEVEL3_RUNNERS(op)                                                         \
  template void run_level3_fortran<Operation::op>(NameSet, DataType, const Level3Chars&,    \
                                                  const Level3Args&, const char*);          \
  template void run_level3_cblas<Operation::op>(NameSet, DataType, int, int, int, int, int, \
                                                Level3Args, const char*);
TILEBLAS_LEVEL3_RUNNERS(kSymm)
TILEBLAS_LEVEL3_RUNNERS(kHemm)
TILEBLAS_LEVEL3_RUNNERS(kSyrk)
TILEBLAS_LEVEL3_RUNNERS(kHerk)
TILEBLAS_LEVEL3_RUNNERS(kSyr2k)
TILEBLAS_LEVEL3_RUNNERS(kHer2k)
TILEBLAS_LEVEL3_RUNNERS(kTrmm)
TILEBLAS_LEVEL3_RUNNERS(kTrsm)
#undef TILEBLAS_LEVEL3_RUNNERS

}  // namespace tileblas::compat
