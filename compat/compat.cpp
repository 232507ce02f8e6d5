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

bool parse_trans(char c, DataType type, Op* op) {
  if (lsame(c, 'N')) {
    *op = Op::kNoTrans;
    return true;
  }
  if (lsame(c, 'T')) {
    *op = Op::kTrans;
    return true;
  }
  if (lsame(c, 'C')) {
    *op = is_complex(type) ? Op::kConjTrans : Op::kTrans;
    return true;
  }
  return false;
}

bool parse_cblas_trans(int t, DataType type, Op* op) {
  switch (t) {
    case kCblasNoTrans:
      return parse_trans('N', type, op);
    case kCblasTrans:
      return parse_trans('T', type, op);
    case kCblasConjTrans:
      return parse_trans('C', type, op);
  }
  return false;
}

namespace {
char trans_char(Op op) { return op == Op::kNoTrans ? 'N' : op == Op::kTrans ? 'T' : 'C'; }
}  // namespace

int check_gemm_args(char transa, char transb, int64_t m, int64_t n, int64_t k, int64_t lda,
                    int64_t ldb, int64_t ldc) {
  Op ta, tb;
  if (!parse_trans(transa, DataType::kF32, &ta)) return 1;
  if (!parse_trans(transb, DataType::kF32, &tb)) return 2;
  const int64_t a_rows = ta == Op::kNoTrans ? m : k;
  const int64_t b_rows = tb == Op::kNoTrans ? k : n;
  auto max1 = [](int64_t x) { return x > 1 ? x : int64_t(1); };
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < max1(a_rows)) return 8;
  if (ldb < max1(b_rows)) return 10;
  if (ldc < max1(m)) return 13;
  return 0;
}

bool gemm_quick_return(int64_t m, int64_t n, int64_t k, Scalar alpha, Scalar beta) {
  return m == 0 || n == 0 || ((alpha.is_zero() || k == 0) && beta.is_one());
}

Scalar scalar_at(const void* v, DataType type) {
  switch (type) {
    case DataType::kF64:
      return *static_cast<const double*>(v);
    case DataType::kC32: {
      const float* re_im = static_cast<const float*>(v);
      return {re_im[0], re_im[1]};
    }
    case DataType::kC64: {
      const double* re_im = static_cast<const double*>(v);
      return {re_im[0], re_im[1]};
    }
    default:
      return *static_cast<const float*>(v);
  }
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
  parse_trans(transa, g.ab_type, &ta);
  parse_trans(transb, g.ab_type, &tb);
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
  if (!parse_cblas_trans(transa, g.ab_type, &ta)) {
    report_cblas_xerbla(2, rout, row_major);
    return false;
  }
  if (!parse_cblas_trans(transb, g.ab_type, &tb)) {
    report_cblas_xerbla(3, rout, row_major);
    return false;
  }
  const char ta_char = trans_char(ta);
  const char tb_char = trans_char(tb);
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
