// The GEMM-like calls after compat/gemm.h's templates: argument checks in each name set's
// conventions, row-major mapping, quick returns, refusal of integers the CPU BLAS cannot take, then
// tileblas::gemm (or, for what tileblas does not compute, the set's own BLAS).
#include "compat.h"
#include "ops.h"

namespace tileblas::compat {

namespace {

// The CBLAS transpose as the Fortran character it stands for; '?' for none.
char cblas_trans_char(int t, bool openblas) {
  switch (t) {
    case kCblasNoTrans:
      return 'N';
    case kCblasTrans:
      return 'T';
    case kCblasConjTrans:
      return 'C';
    case kCblasConjNoTrans:
      return openblas ? 'R' : '?';
  }
  return '?';
}

// Reports bad argument `info` of the column-major call: for a CBLAS call in the reference
// convention through cblas_xerbla (plus one: the layout comes first), else through the set's
// xerbla.
void report_gemm(const GemmSite& site, bool cblas, bool row_major, int info) {
  if (cblas && !openblas_conventions(site.set)) {
    report_cblas_xerbla(info + 1, site.cblas, row_major);
  } else {
    report_xerbla(site.set, site.srname, info);
  }
}

// A checked column-major call: quick return, refusal of arguments wider than the set's CPU BLAS
// takes, then the computation.
void run_checked(const GemmSite& site, bool cblas, bool row_major, char transa, char transb,
                 const GemmArgs& g, const char* routine) {
  if (gemm_quick_return(g.m, g.n, g.k, g.alpha, g.beta)) return;
  if (cpu_blas::info(site.set).int64) {
    // Whatever side computes it, a call the CPU side could not take is refused: the answer must
    // not depend on the route.
    const int64_t limit =
        cpu_blas::max_int(site.set, cpu_blas::routine_of(Operation::kGemm, g.type));
    for (const NumberedArg& a :
         {NumberedArg{g.m, 3}, NumberedArg{g.n, 4}, NumberedArg{g.k, 5}, NumberedArg{g.lda, 8},
          NumberedArg{g.ldb, 10}, NumberedArg{g.ldc, 13}}) {
      if (a.value > limit) {
        report_gemm(site, cblas, row_major, a.info);
        return;
      }
    }
  }
  const bool openblas = openblas_conventions(site.set);
  // OpenBLAS's 'R': for real data 'N'; for complex data conjugate without transposing, which
  // tileblas does not compute: the set's own BLAS does, as the caller would have had it.
  if (openblas && (lsame(transa, 'R') || lsame(transb, 'R'))) {
    if (is_complex(g.type)) {
      cpu_blas::gemm(site.set, g.type, transa, transb, g.m, g.n, g.k, g.alpha_at, g.a, g.lda, g.b,
                     g.ldb, g.beta_at, g.c, g.ldc);
      return;
    }
    if (lsame(transa, 'R')) transa = 'N';
    if (lsame(transb, 'R')) transb = 'N';
  }
  Problem p;
  parse_trans(transa, g.type, &p.trans_a);
  parse_trans(transb, g.type, &p.trans_b);
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.alpha = g.alpha;
  p.beta = g.beta;
  p.type = g.type;
  p.c_type = g.c_type;
  p.a = g.a;
  p.lda = g.lda;
  p.b = g.b;
  p.ldb = g.ldb;
  p.c = g.c;
  p.ldc = g.ldc;
  p.name_set = site.set;
  tileblas::gemm(p, routine);
}

}  // namespace

void fortran_gemm(const GemmSite& site, char transa, char transb, const GemmArgs& g,
                  const char* routine) {
  if (int info = check_gemm_args(openblas_conventions(site.set), transa, transb, g.m, g.n, g.k,
                                 g.lda, g.ldb, g.ldc)) {
    report_xerbla(site.set, site.srname, info);
    return;
  }
  run_checked(site, false, false, transa, transb, g, routine);
}

void cblas_gemm(const GemmSite& site, int layout, int transa, int transb, const GemmArgs& g,
                const char* routine) {
  const bool openblas = openblas_conventions(site.set);
  const bool row_major = layout == kCblasRowMajor;
  if (layout != kCblasColMajor && !row_major) {
    // INFO 0 of the Fortran call: the reference CBLAS reports 1; OpenBLAS leaves INFO at 0 for a
    // bad layout and still reports it.
    report_gemm(site, true, false, 0);
    return;
  }
  const char ta = cblas_trans_char(transa, openblas);
  const char tb = cblas_trans_char(transb, openblas);
  if (!openblas) {  // the reference CBLAS checks the transposes as given, before the mapping
    if (ta == '?') {
      report_cblas_xerbla(2, site.cblas, row_major);
      return;
    }
    if (tb == '?') {
      report_cblas_xerbla(3, site.cblas, row_major);
      return;
    }
  }
  GemmArgs col = g;
  char col_ta = ta, col_tb = tb;
  if (row_major) {  // C^T (n x m, column-major) = op(B)^T * op(A)^T
    col.m = g.n;
    col.n = g.m;
    col.a = g.b;
    col.lda = g.ldb;
    col.b = g.a;
    col.ldb = g.lda;
    col_ta = tb;
    col_tb = ta;
  }
  if (int info = check_gemm_args(openblas, col_ta, col_tb, col.m, col.n, col.k, col.lda, col.ldb,
                                 col.ldc)) {
    report_gemm(site, true, row_major, info);
    return;
  }
  run_checked(site, true, row_major, col_ta, col_tb, col, routine);
}

}  // namespace tileblas::compat
