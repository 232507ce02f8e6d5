#include "omatcopy.h"

#include "ops.h"

namespace tileblas::compat {

namespace {

bool parse_order_char(char c, bool* row_major) {
  if (lsame(c, 'C')) {
    *row_major = false;
    return true;
  }
  if (lsame(c, 'R')) {
    *row_major = true;
    return true;
  }
  return false;
}

bool parse_trans_char(char c, Op* op) {
  if (lsame(c, 'N') || lsame(c, 'R')) {
    *op = Op::kNoTrans;
    return true;
  }
  if (lsame(c, 'T') || lsame(c, 'C')) {
    *op = Op::kTrans;
    return true;
  }
  return false;
}

bool parse_order_enum(int order, bool* row_major) {
  if (order == kCblasColMajor || order == kCblasRowMajor) {
    *row_major = order == kCblasRowMajor;
    return true;
  }
  return false;
}

bool parse_trans_enum(int trans, Op* op) {
  if (trans == kCblasNoTrans || trans == kCblasConjNoTrans) {
    *op = Op::kNoTrans;
    return true;
  }
  if (trans == kCblasTrans || trans == kCblasConjTrans) {
    *op = Op::kTrans;
    return true;
  }
  return false;
}

int64_t at_least_one(int64_t x) { return x > 1 ? x : 1; }

// Leading dimensions each matrix needs in the caller's order.
int64_t lda_needed(const MatcopyArgs& m) { return m.row_major ? m.cols : m.rows; }
int64_t ldb_needed(const MatcopyArgs& m) {
  const bool b_has_a_rows = (m.op == Op::kNoTrans) != m.row_major;
  return b_has_a_rows ? m.rows : m.cols;
}

// OpenBLAS's omatcopy checks: 0 when valid.
int omatcopy_info(const MatcopyArgs& m) {
  if (!m.order_ok) return 1;
  if (!m.trans_ok) return 2;
  if (m.rows <= 0) return 3;
  if (m.cols <= 0) return 4;
  if (m.lda < lda_needed(m)) return 7;
  if (m.ldb < ldb_needed(m)) return 9;
  return 0;
}

// OpenBLAS's imatcopy checks: 0 when valid.
int imatcopy_info(const MatcopyArgs& m) {
  if (!m.order_ok) return 1;
  if (!m.trans_ok) return 2;
  if (m.rows < 0) return 3;
  if (m.cols < 0) return 4;
  if (m.lda < at_least_one(lda_needed(m))) return 7;
  if (m.ldb < at_least_one(ldb_needed(m))) return 8;
  return 0;
}

// Sizes wider than set s's CPU BLAS takes (a 64-bit set running on a 32-bit BLAS), reported as
// `srname` with number `ldb_info` for ldb.
bool refused_as_wide(NameSet s, const MatcopyArgs& m, cpu_blas::Routine r, const char* srname,
                     int ldb_info) {
  if (!cpu_blas::info(s).int64) return false;
  return refuse_wide(s, srname, cpu_blas::max_int(s, r),
                     {{m.rows, 3}, {m.cols, 4}, {m.lda, 7}, {m.ldb, ldb_info}});
}

// The column-major problem of a checked call.
TransposeProblem problem_of(NameSet s, const MatcopyArgs& m, float alpha, const float* a,
                            float* b) {
  TransposeProblem p;
  p.trans = m.op;
  p.rows = m.row_major ? m.cols : m.rows;
  p.cols = m.row_major ? m.rows : m.cols;
  p.alpha = alpha;
  p.a = a;
  p.lda = m.lda;
  p.b = b;
  p.ldb = m.ldb;
  p.name_set = s;
  return p;
}

}  // namespace

MatcopyArgs fortran_matcopy_args(char order, char trans, int64_t rows, int64_t cols, int64_t lda,
                                 int64_t ldb) {
  MatcopyArgs m{false, false, false, Op::kNoTrans, rows, cols, lda, ldb};
  m.order_ok = parse_order_char(order, &m.row_major);
  m.trans_ok = parse_trans_char(trans, &m.op);
  return m;
}

MatcopyArgs cblas_matcopy_args(int order, int trans, int64_t rows, int64_t cols, int64_t lda,
                               int64_t ldb) {
  MatcopyArgs m{false, false, false, Op::kNoTrans, rows, cols, lda, ldb};
  m.order_ok = parse_order_enum(order, &m.row_major);
  m.trans_ok = parse_trans_enum(trans, &m.op);
  return m;
}

void somatcopy(NameSet s, const MatcopyArgs& m, float alpha, const float* a, float* b,
               const char* routine) {
  if (const int info = omatcopy_info(m)) {
    report_xerbla(s, "SOMATCOPY", info);
    return;
  }
  if (refused_as_wide(s, m, cpu_blas::Routine::kSomatcopy, "SOMATCOPY", 9)) return;
  tileblas::omatcopy(problem_of(s, m, alpha, a, b), routine);
}

void simatcopy(NameSet s, const MatcopyArgs& m, float alpha, float* a, const char* routine) {
  if (const int info = imatcopy_info(m)) {
    report_xerbla(s, "SIMATCOPY", info);
    return;
  }
  if (m.rows == 0 || m.cols == 0) return;
  if (refused_as_wide(s, m, cpu_blas::Routine::kSimatcopy, "SIMATCOPY", 8)) return;
  tileblas::imatcopy(problem_of(s, m, alpha, a, a), routine);
}

}  // namespace tileblas::compat
