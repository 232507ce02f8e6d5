// Scaled copy and transpose, OpenBLAS's extensions: somatcopy_ / cblas_somatcopy (out of place,
// B = alpha * op(A)) and simatcopy_ / cblas_simatcopy (in place: A is read with lda and the
// result written over it with ldb). Argument order, checks and error numbers as OpenBLAS's
// interface/omatcopy.c and interface/imatcopy.c (the latter as of OpenBLAS 0.3.22+, which allows
// empty matrices and numbers ldb 8):
//   order 'C'/'R' (CblasColMajor/CblasRowMajor)                              1
//   trans 'N','R' = N and 'T','C' = T for real data (CblasNoTrans, CblasConjNoTrans = N;
//         CblasTrans, CblasConjTrans = T)                                    2
//   rows  omatcopy: >= 1; imatcopy: >= 0                                     3
//   cols  omatcopy: >= 1; imatcopy: >= 0                                     4
//   lda   >= rows (column order) or cols (row order); imatcopy: and >= 1     7
//   ldb   >= rows of op(A) as stored in that order; imatcopy: and >= 1       omatcopy 9, imatcopy 8
// The lowest failing number is reported once, to xerbla_ with "SOMATCOPY" / "SIMATCOPY" for both
// forms (as OpenBLAS does), and nothing is written. A row-major matrix is the column-major
// matrix of its transpose: rows and cols swap, op and leading dimensions stay.
#include "compat.h"
#include "ops.h"
#include "tileblas.h"

using tileblas::Op;
using tileblas::TransposeProblem;

namespace {

constexpr int kCblasConjNoTrans = 114;  // OpenBLAS's cblas.h; not in compat.h's reference set

// The call after parsing: order and op known, sizes as given.
struct MatcopyArgs {
  bool row_major;
  Op op;
  int rows, cols, lda, ldb;
};

bool parse_order_char(char c, bool* row_major) {
  if (tileblas::compat::lsame(c, 'C')) {
    *row_major = false;
    return true;
  }
  if (tileblas::compat::lsame(c, 'R')) {
    *row_major = true;
    return true;
  }
  return false;
}

bool parse_trans_char(char c, Op* op) {
  if (tileblas::compat::lsame(c, 'N') || tileblas::compat::lsame(c, 'R')) {
    *op = Op::kNoTrans;
    return true;
  }
  if (tileblas::compat::lsame(c, 'T') || tileblas::compat::lsame(c, 'C')) {
    *op = Op::kTrans;
    return true;
  }
  return false;
}

bool parse_order_enum(int order, bool* row_major) {
  if (order == tileblas::compat::kCblasColMajor || order == tileblas::compat::kCblasRowMajor) {
    *row_major = order == tileblas::compat::kCblasRowMajor;
    return true;
  }
  return false;
}

bool parse_trans_enum(int trans, Op* op) {
  if (trans == tileblas::compat::kCblasNoTrans || trans == kCblasConjNoTrans) {
    *op = Op::kNoTrans;
    return true;
  }
  if (trans == tileblas::compat::kCblasTrans || trans == tileblas::compat::kCblasConjTrans) {
    *op = Op::kTrans;
    return true;
  }
  return false;
}

int at_least_one(int x) { return x > 1 ? x : 1; }

// Leading dimensions each matrix needs in the caller's order.
int lda_needed(const MatcopyArgs& m) { return m.row_major ? m.cols : m.rows; }
int ldb_needed(const MatcopyArgs& m) {
  const bool b_has_a_rows = (m.op == Op::kNoTrans) != m.row_major;
  return b_has_a_rows ? m.rows : m.cols;
}

// OpenBLAS's omatcopy checks (order and trans already parsed): 0 when valid.
int omatcopy_info(const MatcopyArgs& m) {
  if (m.rows <= 0) return 3;
  if (m.cols <= 0) return 4;
  if (m.lda < lda_needed(m)) return 7;
  if (m.ldb < ldb_needed(m)) return 9;
  return 0;
}

// OpenBLAS's imatcopy checks (order and trans already parsed): 0 when valid.
int imatcopy_info(const MatcopyArgs& m) {
  if (m.rows < 0) return 3;
  if (m.cols < 0) return 4;
  if (m.lda < at_least_one(lda_needed(m))) return 7;
  if (m.ldb < at_least_one(ldb_needed(m))) return 8;
  return 0;
}

// The first failing parameter of a call: order, then trans, then the rest as `check_sizes` says.
int check_call(bool order_ok, bool trans_ok, int (*check_sizes)(const MatcopyArgs&),
               const MatcopyArgs& m) {
  if (!order_ok) return 1;
  if (!trans_ok) return 2;
  return check_sizes(m);
}

// The column-major problem of a checked call.
TransposeProblem problem_of(const MatcopyArgs& m, float alpha, const float* a, float* b) {
  TransposeProblem p;
  p.trans = m.op;
  p.rows = m.row_major ? m.cols : m.rows;
  p.cols = m.row_major ? m.rows : m.cols;
  p.alpha = alpha;
  p.a = a;
  p.lda = m.lda;
  p.b = b;
  p.ldb = m.ldb;
  return p;
}

}  // namespace

TILEBLAS_EXPORT void somatcopy_(const char* order, const char* trans, const int* rows,
                                const int* cols, const float* alpha, const float* a, const int* lda,
                                float* b, const int* ldb) noexcept {
  MatcopyArgs m{false, Op::kNoTrans, *rows, *cols, *lda, *ldb};
  const bool order_ok = parse_order_char(*order, &m.row_major);
  const bool trans_ok = parse_trans_char(*trans, &m.op);
  if (const int info = check_call(order_ok, trans_ok, omatcopy_info, m)) {
    tileblas::compat::report_xerbla("SOMATCOPY", info);
    return;
  }
  tileblas::omatcopy(problem_of(m, *alpha, a, b), "somatcopy");
}

TILEBLAS_EXPORT void cblas_somatcopy(int order, int trans, int rows, int cols, float alpha,
                                     const float* a, int lda, float* b, int ldb) {
  MatcopyArgs m{false, Op::kNoTrans, rows, cols, lda, ldb};
  const bool order_ok = parse_order_enum(order, &m.row_major);
  const bool trans_ok = parse_trans_enum(trans, &m.op);
  if (const int info = check_call(order_ok, trans_ok, omatcopy_info, m)) {
    tileblas::compat::report_xerbla("SOMATCOPY", info);
    return;
  }
  tileblas::omatcopy(problem_of(m, alpha, a, b), "cblas_somatcopy");
}

TILEBLAS_EXPORT void simatcopy_(const char* order, const char* trans, const int* rows,
                                const int* cols, const float* alpha, float* a, const int* lda,
                                const int* ldb) noexcept {
  MatcopyArgs m{false, Op::kNoTrans, *rows, *cols, *lda, *ldb};
  const bool order_ok = parse_order_char(*order, &m.row_major);
  const bool trans_ok = parse_trans_char(*trans, &m.op);
  if (const int info = check_call(order_ok, trans_ok, imatcopy_info, m)) {
    tileblas::compat::report_xerbla("SIMATCOPY", info);
    return;
  }
  if (m.rows == 0 || m.cols == 0) return;
  tileblas::imatcopy(problem_of(m, *alpha, a, a), "simatcopy");
}

TILEBLAS_EXPORT void cblas_simatcopy(int order, int trans, int rows, int cols, float alpha,
                                     float* a, int lda, int ldb) {
  MatcopyArgs m{false, Op::kNoTrans, rows, cols, lda, ldb};
  const bool order_ok = parse_order_enum(order, &m.row_major);
  const bool trans_ok = parse_trans_enum(trans, &m.op);
  if (const int info = check_call(order_ok, trans_ok, imatcopy_info, m)) {
    tileblas::compat::report_xerbla("SIMATCOPY", info);
    return;
  }
  if (m.rows == 0 || m.cols == 0) return;
  tileblas::imatcopy(problem_of(m, alpha, a, a), "cblas_simatcopy");
}
