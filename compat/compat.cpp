#include "compat.h"

#include <dlfcn.h>

#include <cstring>

namespace tileblas::compat {

namespace {
thread_local bool t_reporting_row_major = false;
}  // namespace

void report_xerbla(const char* srname, int info) { xerbla_(srname, &info, std::strlen(srname)); }

void report_cblas_xerbla(int info, const char* rout, bool row_major) {
  // The reference CBLAS keeps the layout of the call being checked in this global; its testers
  // and its cblas_xerbla read it to map row-major argument positions.
  static int* const reference_row_major = static_cast<int*>(dlsym(RTLD_DEFAULT, "RowMajorStrg"));
  if (reference_row_major) *reference_row_major = row_major ? 1 : 0;
  t_reporting_row_major = row_major;
  cblas_xerbla(info, rout, "");
  t_reporting_row_major = false;
  if (reference_row_major) *reference_row_major = 0;
}

bool reporting_row_major() { return t_reporting_row_major; }

bool lsame(char a, char b) {
  auto upper = [](char c) { return (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c; };
  return upper(a) == upper(b);
}

bool parse_trans(char c, Op* op) {
  if (lsame(c, 'N')) {
    *op = Op::kNoTrans;
    return true;
  }
  if (lsame(c, 'T') || lsame(c, 'C')) {
    *op = Op::kTrans;
    return true;
  }
  return false;
}

bool parse_cblas_trans(int t, Op* op) {
  if (t == kCblasNoTrans) {
    *op = Op::kNoTrans;
    return true;
  }
  if (t == kCblasTrans || t == kCblasConjTrans) {
    *op = Op::kTrans;
    return true;
  }
  return false;
}

int check_gemm_args(char transa, char transb, long m, long n, long k, long lda, long ldb,
                    long ldc) {
  Op ta, tb;
  if (!parse_trans(transa, &ta)) return 1;
  if (!parse_trans(transb, &tb)) return 2;
  const long a_rows = ta == Op::kNoTrans ? m : k;
  const long b_rows = tb == Op::kNoTrans ? k : n;
  auto max1 = [](long x) { return x > 1 ? x : 1; };
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < max1(a_rows)) return 8;
  if (ldb < max1(b_rows)) return 10;
  if (ldc < max1(m)) return 13;
  return 0;
}

bool gemm_quick_return(long m, long n, long k, float alpha, float beta) {
  return m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f);
}

namespace {

void fill_problem(Op ta, Op tb, const GemmArgs& g, GemmProblem* p) {
  p->trans_a = ta;
  p->trans_b = tb;
  p->m = g.m;
  p->n = g.n;
  p->k = g.k;
  p->alpha = g.alpha;
  p->beta = g.beta;
  p->ab_type = g.ab_type;
  p->c_type = g.c_type;
  p->a = g.a;
  p->lda = g.lda;
  p->b = g.b;
  p->ldb = g.ldb;
  p->c = g.c;
  p->ldc = g.ldc;
}

}  // namespace

bool fortran_gemm_problem(const char* srname, char transa, char transb, const GemmArgs& g,
                          GemmProblem* p) {
  if (int info = check_gemm_args(transa, transb, g.m, g.n, g.k, g.lda, g.ldb, g.ldc)) {
    report_xerbla(srname, info);
    return false;
  }
  if (gemm_quick_return(g.m, g.n, g.k, g.alpha, g.beta)) return false;
  Op ta, tb;
  parse_trans(transa, &ta);
  parse_trans(transb, &tb);
  fill_problem(ta, tb, g, p);
  return true;
}

bool cblas_gemm_problem(const char* rout, int layout, int transa, int transb, const GemmArgs& g,
                        GemmProblem* p) {
  if (layout != kCblasColMajor && layout != kCblasRowMajor) {
    report_cblas_xerbla(1, rout, false);
    return false;
  }
  const bool row_major = layout == kCblasRowMajor;
  Op ta, tb;
  if (!parse_cblas_trans(transa, &ta)) {
    report_cblas_xerbla(2, rout, row_major);
    return false;
  }
  if (!parse_cblas_trans(transb, &tb)) {
    report_cblas_xerbla(3, rout, row_major);
    return false;
  }
  const char ta_char = ta == Op::kNoTrans ? 'N' : 'T';
  const char tb_char = tb == Op::kNoTrans ? 'N' : 'T';
  GemmArgs col = g;
  if (row_major) {  // C^T (n x m, column-major) = op(B)^T * op(A)^T
    col.m = g.n;
    col.n = g.m;
    col.a = g.b;
    col.lda = g.ldb;
    col.b = g.a;
    col.ldb = g.lda;
  }
  const char col_ta = row_major ? tb_char : ta_char;
  const char col_tb = row_major ? ta_char : tb_char;
  if (int info = check_gemm_args(col_ta, col_tb, col.m, col.n, col.k, col.lda, col.ldb, col.ldc)) {
    report_cblas_xerbla(info + 1, rout, row_major);
    return false;
  }
  if (gemm_quick_return(col.m, col.n, col.k, col.alpha, col.beta)) return false;
  fill_problem(row_major ? tb : ta, row_major ? ta : tb, col, p);
  return true;
}

}  // namespace tileblas::compat
