// The Level-3 plans (see level3_plan.h for the decompositions).
#include "level3_plan.h"

#include <algorithm>

#include "tri_block.h"

namespace tileblas {

namespace {

constexpr Scalar kOne = 1.0;
constexpr Scalar kMinusOne = -1.0;
constexpr Scalar kZero = 0.0;

Scalar conj(const Scalar& s) { return Scalar(s.re, -s.im); }
Scalar real_part(const Scalar& s) { return Scalar(s.re, 0.0); }

// Where a recursive halving of `len` (> leaf) splits: the first part is the smallest whole number
// of leaf blocks covering half of them, so every block but the last is whole and every offset is
// a multiple of leaf (GEMM operands keep the alignment of the whole matrix).
int64_t split_of(int64_t len, int64_t leaf) {
  const int64_t blocks = (len + leaf - 1) / leaf;
  return (blocks + 1) / 2 * leaf;
}

// A GEMM operand: a block of a stored matrix and the op that makes it the block wanted.
struct Operand {
  const void* p;
  int64_t ld;
  Op op;
};

Problem gemm_of(DataType type, int64_t m, int64_t n, int64_t k, const Scalar& alpha,
                const Operand& a, const Operand& b, const Scalar& beta, void* c, int64_t ldc,
                Triangle c_triangle = Triangle::kAll) {
  Problem g;
  g.c_triangle = c_triangle;
  g.type = g.c_type = type;
  g.trans_a = a.op, g.trans_b = b.op;
  g.m = m, g.n = n, g.k = k;
  g.alpha = alpha, g.beta = beta;
  g.a = a.p, g.lda = a.ld;
  g.b = b.p, g.ldb = b.ld;
  g.c = c, g.ldc = ldc;
  return g;
}

// C = beta*C on the elements `fill` names (alpha == 0 and the like): reads nothing else.
cudaError_t scale_only(const Problem& p, Level3Backend& be, Fill fill, int64_t m, int64_t n,
                       const Scalar& beta, bool real_diagonal) {
  TriUpdateProblem u;
  u.type = p.type;
  u.fill = fill;
  u.real_diagonal = real_diagonal;
  u.m = m, u.n = n;
  u.beta = beta;
  u.c = p.c, u.ldc = p.ldc;
  return be.tri_update(u);
}

// ---- trmm, trsm -------------------------------------------------------------------------------
//
// M = op(A) is lower or upper triangular. For a diagonal block [off, off + len) split into parts 1
// and 2, the part solved first (trsm) or last (trmm) is f, the other s, and the off-diagonal block
// of M that couples them is M_sf (side L: B_s gets M_sf*B_f) or M_fs (side R: B_s gets B_f*M_fs):
//   side L, M lower: f = 1, s = 2     side L, M upper: f = 2, s = 1
//   side R, M lower: f = 2, s = 1     side R, M upper: f = 1, s = 2
//   trsm:  X_f = solve(alpha*B_f);  B_s = alpha*B_s - M_sf*X_f (L) or - X_f*M_fs (R);
//          X_s = solve(B_s)
//   trmm:  B_s = alpha*M_ss*B_s;  B_s += alpha*M_sf*B_f (L) or alpha*B_f*M_fs (R);
//          B_f = alpha*M_ff*B_f
class TriangularPlan {
 public:
  TriangularPlan(const Problem& p, Level3Backend& be, const Level3BlockSizes& sizes)
      : p_(p), be_(be), tri_leaf_(std::max<int64_t>(sizes.tri_leaf, 1)), elem_(size_of(p.type)) {
    const bool a_lower = p.uplo == Uplo::kLower;
    m_lower_ = p.trans_a == Op::kNoTrans ? a_lower : !a_lower;
    first_is_1_ = (p.side == Side::kLeft) == m_lower_;
    const int64_t gemm_leaf = p.op == Operation::kTrmm ? sizes.trmm_leaf : sizes.trsm_leaf;
    gemm_leaf_ = gemm_leaf > tri_leaf_ && p.a_order() > tri_leaf_;
    leaf_ = gemm_leaf_ ? gemm_leaf : tri_leaf_;
  }

  // The GEMM leaves' scratch: a copy of B's part, reused by every leaf of a panel (its leaves run
  // one after another), and every diagonal block made full before the run: trmm's the block with
  // zeros outside its triangle (one tri_fill each), trsm's the block's inverse (one tri_invert for
  // all of them).
  cudaError_t prepare() {
    if (!gemm_leaf_) return cudaSuccess;
    order_ = std::min(leaf_, p_.a_order());
    const int64_t count = p_.side == Side::kLeft ? p_.n : p_.m;
    const int64_t blocks = (p_.a_order() + leaf_ - 1) / leaf_;
    const size_t block = size_t(order_) * size_t(order_);
    const size_t elems = block * size_t(blocks) + size_t(order_) * size_t(count);
    void* s = nullptr;
    if (cudaError_t err = be_.scratch(elems * elem_, &s); err != cudaSuccess) return err;
    full_ = s;
    copy_ = static_cast<char*>(s) + block * size_t(blocks) * elem_;
    if (p_.op == Operation::kTrsm) {
      TriInvertProblem v;
      v.type = p_.type;
      v.uplo = p_.uplo, v.diag = p_.diag;
      v.n = p_.a_order(), v.block = order_;
      v.a = p_.a, v.lda = p_.lda;
      v.inv = full_;
      return be_.tri_invert(v);
    }
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t off = b * leaf_, len = std::min(leaf_, p_.a_order() - off);
      if (len <= tri_leaf_) continue;  // a last block left to tri_block
      TriFillProblem f;
      f.type = p_.type;
      f.uplo = p_.uplo;
      f.mode = TriFillMode::kTriangular;
      f.diag = p_.diag;
      f.n = len;
      f.a = element_at(p_.a, off, off, p_.lda, elem_), f.lda = p_.lda;
      f.b = full_block(b), f.ldb = order_;
      if (cudaError_t err = be_.tri_fill(f); err != cudaSuccess) return err;
    }
    return cudaSuccess;
  }

  // The same plan on B's columns (side L; rows for side R) [first, first + count): it shares the
  // prepared full blocks, and its GEMM leaves copy B's part into scratch of their own (the copy's
  // rows [order * first, ...)), so panels can run side by side.
  TriangularPlan panel(int64_t first, int64_t count) const {
    TriangularPlan q = *this;
    if (p_.side == Side::kLeft) {
      q.p_.c = element_at(p_.c, 0, first, p_.ldc, elem_), q.p_.n = count;
    } else {
      q.p_.c = element_at(p_.c, first, 0, p_.ldc, elem_), q.p_.m = count;
    }
    if (copy_) q.copy_ = static_cast<char*>(copy_) + size_t(order_) * size_t(first) * elem_;
    return q;
  }

  cudaError_t run(int64_t off, int64_t len, const Scalar& alpha) {
    if (len <= leaf_) return leaf(off, len, alpha);
    const int64_t l1 = split_of(len, leaf_);
    const int64_t off2 = off + l1, l2 = len - l1;
    const int64_t off_f = first_is_1_ ? off : off2, len_f = first_is_1_ ? l1 : l2;
    const int64_t off_s = first_is_1_ ? off2 : off, len_s = first_is_1_ ? l2 : l1;
    cudaError_t err;
    if (p_.op == Operation::kTrsm) {
      if ((err = run(off_f, len_f, alpha)) != cudaSuccess) return err;
      if ((err = couple(off_s, len_s, off_f, len_f, kMinusOne, alpha)) != cudaSuccess) return err;
      return run(off_s, len_s, kOne);
    }
    if ((err = run(off_s, len_s, alpha)) != cudaSuccess) return err;
    if ((err = couple(off_s, len_s, off_f, len_f, alpha, kOne)) != cudaSuccess) return err;
    return run(off_f, len_f, alpha);
  }

 private:
  // The block of M = op(A) at rows [i, ..), columns [j, ..) as a GEMM operand.
  Operand m_block(int64_t i, int64_t j) const {
    if (p_.trans_a == Op::kNoTrans)
      return {element_at(p_.a, i, j, p_.lda, elem_), p_.lda, Op::kNoTrans};
    return {element_at(p_.a, j, i, p_.lda, elem_), p_.lda, p_.trans_a};
  }
  // The part [off, off + len) of B: rows (side L) or columns (side R).
  void* b_part(int64_t off) const {
    return p_.side == Side::kLeft ? element_at(p_.c, off, 0, p_.ldc, elem_)
                                  : element_at(p_.c, 0, off, p_.ldc, elem_);
  }

  // B_s = gemm_alpha * (M_sf*B_f or B_f*M_fs) + beta*B_s.
  cudaError_t couple(int64_t off_s, int64_t len_s, int64_t off_f, int64_t len_f,
                     const Scalar& gemm_alpha, const Scalar& beta) {
    const Operand bf{b_part(off_f), p_.ldc, Op::kNoTrans};
    if (p_.side == Side::kLeft) {
      return be_.gemm(gemm_of(p_.type, len_s, p_.n, len_f, gemm_alpha, m_block(off_s, off_f), bf,
                              beta, b_part(off_s), p_.ldc));
    }
    return be_.gemm(gemm_of(p_.type, p_.m, len_s, len_f, gemm_alpha, bf, m_block(off_f, off_s),
                            beta, b_part(off_s), p_.ldc));
  }

  // Full block b of full_: A's diagonal block b made full (trmm) or its inverse (trsm), in A's
  // orientation and triangle (inv(op(T)) = op(inv(T))).
  void* full_block(int64_t b) const {
    return static_cast<char*>(full_) + size_t(b) * size_t(order_) * size_t(order_) * elem_;
  }

  // B's part [off, off + len) = alpha * (F*copy or copy*F), with F = op(A)'s diagonal block made
  // full (trmm) or its inverse (trsm), prepared.
  cudaError_t gemm_leaf(int64_t off, int64_t len, const Scalar& alpha) {
    void* const full = full_block(off / leaf_);
    const bool left = p_.side == Side::kLeft;
    TriUpdateProblem copy;  // copy = B's part (beta == 0: a plain copy)
    copy.type = p_.type;
    copy.fill = Fill::kFull;
    copy.m = left ? len : p_.m, copy.n = left ? p_.n : len;
    copy.beta = kZero;
    copy.t = b_part(off), copy.ldt = p_.ldc;
    copy.c = copy_, copy.ldc = copy.m;
    if (cudaError_t err = be_.tri_update(copy); err != cudaSuccess) return err;
    const Operand f{full, order_, p_.trans_a}, part{copy_, copy.m, Op::kNoTrans};
    // op(F) is M's diagonal block (trsm: its inverse), zero outside M's triangle: the GEMM rows
    // that can skip those zeros' k-steps.
    const Triangle nonzero = m_lower_ ? Triangle::kLower : Triangle::kUpper;
    Problem g = left ? gemm_of(p_.type, len, p_.n, len, alpha, f, part, kZero, b_part(off), p_.ldc)
                     : gemm_of(p_.type, p_.m, len, len, alpha, part, f, kZero, b_part(off), p_.ldc);
    (left ? g.a_nonzero : g.b_nonzero) = nonzero;
    return be_.gemm(g);
  }

  cudaError_t leaf(int64_t off, int64_t len, const Scalar& alpha) {
    if (gemm_leaf_ && len > tri_leaf_) return gemm_leaf(off, len, alpha);
    TriBlockProblem t;
    t.type = p_.type;
    t.op = p_.op == Operation::kTrsm ? TriBlockOp::kSolve : TriBlockOp::kMultiply;
    t.side = p_.side, t.uplo = p_.uplo, t.trans = p_.trans_a, t.diag = p_.diag;
    t.order = len;
    t.count = p_.side == Side::kLeft ? p_.n : p_.m;
    t.alpha = alpha;
    t.a = element_at(p_.a, off, off, p_.lda, elem_), t.lda = p_.lda;
    t.b = b_part(off), t.ldb = p_.ldc;
    return be_.tri_block(t);
  }

  Problem p_;
  Level3Backend& be_;
  int64_t tri_leaf_, leaf_ = 1;
  size_t elem_;
  bool m_lower_ = true;
  bool first_is_1_ = true;
  bool gemm_leaf_ = false;
  int64_t order_ = 0;  // the full blocks' order (and leading dimension)
  void* full_ = nullptr;
  void* copy_ = nullptr;
};

cudaError_t run_triangular(const Problem& p, Level3Backend& be, const Level3BlockSizes& s) {
  if (p.alpha.is_zero()) return scale_only(p, be, Fill::kFull, p.m, p.n, kZero, false);
  TriangularPlan plan(p, be, s);
  if (cudaError_t err = plan.prepare(); err != cudaSuccess) return err;
  // B's other dimension in panels, each the whole plan in a lane of its own: one panel's small
  // leaf steps overlap another's coupling GEMMs.
  const int64_t count = p.side == Side::kLeft ? p.n : p.m;
  const int64_t panels =
      std::clamp<int64_t>(count / std::max<int64_t>(s.tri_panel_min, 1), 1, s.tri_panels);
  if (panels <= 1) return plan.run(0, p.a_order(), p.alpha);
  if (cudaError_t err = be.fork(); err != cudaSuccess) return err;
  cudaError_t err = cudaSuccess;
  for (int64_t i = 0; i < panels && err == cudaSuccess; ++i) {
    const int64_t first = count * i / panels, last = count * (i + 1) / panels;
    be.next_lane();
    err = plan.panel(first, last - first).run(0, p.a_order(), p.alpha);
  }
  const cudaError_t joined = be.join();
  return err != cudaSuccess ? err : joined;
}

// ---- syrk, herk, syr2k, her2k -----------------------------------------------------------------
//
// With P = op(A) and Q = op(B) (n x k), C = alpha*P*Q' + alpha2*Q*P' + beta*C (the 2k forms;
// ' is ^T, or ^H for herk/her2k, alpha2 = alpha or conj(alpha)); syrk/herk: alpha*P*P' + beta*C.
// C's off-diagonal block (s, f) (below the diagonal for uplo L, above for U) is one GEMM per term
// into C; the diagonal blocks are GEMMs on their triangle into C where the backend has them, else
// GEMMs into scratch and one tri_update.
class RankPlan {
 public:
  RankPlan(const Problem& p, Level3Backend& be, const Level3BlockSizes& sizes)
      : p_(p),
        be_(be),
        sizes_(sizes),
        elem_(size_of(p.type)),
        herm_(p.op == Operation::kHerk || p.op == Operation::kHer2k),
        two_(p.op == Operation::kSyr2k || p.op == Operation::kHer2k),
        tr_op_(herm_ ? Op::kConjTrans : Op::kTrans) {
    alpha_ = p.op == Operation::kHerk ? real_part(p.alpha) : p.alpha;
    alpha2_ = herm_ ? conj(alpha_) : alpha_;
    beta_ = herm_ ? real_part(p.beta) : p.beta;
  }

  cudaError_t run() {
    const int64_t n = p_.n;
    if (alpha_.is_zero() || p_.k == 0) {
      if (beta_.is_one()) return cudaSuccess;
      return scale_only(p_, be_, fill(), n, n, beta_, herm_);
    }
    const int64_t triangle_leaf =
        sizes_.rank_triangle_leaf > 0 ? std::min(sizes_.rank_triangle_leaf, n) : n;
    if (triangles_supported(triangle_leaf)) return run_on_triangles(triangle_leaf);
    return run_through_scratch();
  }

 private:
  Fill fill() const { return p_.uplo == Uplo::kLower ? Fill::kLower : Fill::kUpper; }
  Triangle triangle() const {
    return p_.uplo == Uplo::kLower ? Triangle::kLower : Triangle::kUpper;
  }

  // Whether the backend computes every diagonal block of order `leaf` on its triangle.
  bool triangles_supported(int64_t leaf) {
    if (!be_.computes_triangles()) return false;
    for (int64_t off = 0; off < p_.n; off += leaf) {
      const int64_t len = std::min(leaf, p_.n - off);
      const cudaError_t err = each_product(
          len, len, off, off, alpha_, alpha2_, beta_, element_at(p_.c, off, off, p_.ldc, elem_),
          p_.ldc, triangle(), [this](const Problem& g) {
            return be_.gemm_supports(g) ? cudaSuccess : cudaErrorNotSupported;
          });
      if (err != cudaSuccess) return false;
    }
    return true;
  }

  cudaError_t run_on_triangles(int64_t leaf) {
    leaf_ = leaf;
    // herk, her2k: the imaginary parts of C's diagonal are taken as zero (not read; beta*C is a
    // complex product in the GEMM), and come out zero.
    if (herm_ && !beta_.is_zero()) {
      if (cudaError_t err = scale_only(p_, be_, Fill::kDiagonal, p_.n, p_.n, kOne, true);
          err != cudaSuccess)
        return err;
    }
    const cudaError_t err = all_blocks([&](int64_t off, int64_t len) {
      return product(len, len, off, off, alpha_, alpha2_, beta_,
                     element_at(p_.c, off, off, p_.ldc, elem_), p_.ldc, triangle());
    });
    if (err != cudaSuccess || !herm_) return err;
    return scale_only(p_, be_, Fill::kDiagonal, p_.n, p_.n, kOne, true);
  }

  cudaError_t run_through_scratch() {
    const int64_t n = p_.n;
    leaf_ = std::max<int64_t>(sizes_.rank_leaf, 1);
    const int64_t leaf = std::min(leaf_, n);
    void* t = nullptr;
    if (cudaError_t err = be_.scratch(size_t(n) * size_t(leaf) * elem_, &t); err != cudaSuccess)
      return err;
    // The diagonal blocks, stacked in t (n x leaf): block b at rows [b*leaf, ..).
    const cudaError_t err = all_blocks([&](int64_t off, int64_t len) {
      return product(len, len, off, off, alpha_, alpha2_, kZero, element_at(t, off, 0, n, elem_),
                     n);
    });
    if (err != cudaSuccess) return err;
    TriUpdateProblem u;
    u.type = p_.type;
    u.fill = fill();
    u.real_diagonal = herm_;
    u.m = u.n = n;
    u.block = leaf;
    u.beta = beta_;
    u.t = t, u.ldt = n;
    u.c = p_.c, u.ldc = p_.ldc;
    return be_.tri_update(u);
  }

  // Every block's product of C: the off-diagonal blocks of a recursive halving down to order
  // leaf_ (straight into C), then diagonal(off, len) for each diagonal block. Every product is
  // independent of the others: each in a lane of its own where there are several (small blocks'
  // GEMMs do not fill the GPU one at a time).
  template <class Diagonal>
  cudaError_t all_blocks(Diagonal&& diagonal) {
    const int64_t n = p_.n;
    const bool lanes = n > leaf_;
    if (lanes) {
      if (cudaError_t err = be_.fork(); err != cudaSuccess) return err;
    }
    cudaError_t err = off_diagonal(0, n);
    for (int64_t off = 0; off < n && err == cudaSuccess; off += leaf_) {
      err = diagonal(off, std::min(leaf_, n - off));
    }
    const cudaError_t joined = lanes ? be_.join() : cudaSuccess;
    return err != cudaSuccess ? err : joined;
  }

  // Rows [r, ..) of P = op(A) (or Q = op(B)) as the left GEMM operand, and the same rows'
  // transpose (P', ^H for herk/her2k) as the right one.
  Operand rows_of(const void* x, int64_t ld, int64_t r) const {
    if (p_.trans_a == Op::kNoTrans) return {element_at(x, r, 0, ld, elem_), ld, Op::kNoTrans};
    return {element_at(x, 0, r, ld, elem_), ld, tr_op_};
  }
  Operand rows_transposed(const void* x, int64_t ld, int64_t r) const {
    if (p_.trans_a == Op::kNoTrans) return {element_at(x, r, 0, ld, elem_), ld, tr_op_};
    return {element_at(x, 0, r, ld, elem_), ld, Op::kNoTrans};
  }

  // fn(g) for each GEMM g of C_block (rows [ri, ri + rows), columns [cj, cj + cols) of the
  // product) =
  //   a1*P_i*Q_j' + a2*Q_i*P_j' + beta*C_block  (2k forms), a1*P_i*P_j' + beta*C_block (rank k),
  // in order, on `tri` of the block, until one returns a failure. Each g is made in place as fn's
  // argument: a small call's plan copies no Problem.
  template <class Fn>
  cudaError_t each_product(int64_t rows, int64_t cols, int64_t ri, int64_t cj, const Scalar& a1,
                           const Scalar& a2, const Scalar& beta, void* c, int64_t ldc, Triangle tri,
                           Fn&& fn) const {
    const Operand pi = rows_of(p_.a, p_.lda, ri);
    if (!two_) {
      return fn(gemm_of(p_.type, rows, cols, p_.k, a1, pi, rows_transposed(p_.a, p_.lda, cj), beta,
                        c, ldc, tri));
    }
    if (cudaError_t err = fn(gemm_of(p_.type, rows, cols, p_.k, a1, pi,
                                     rows_transposed(p_.b, p_.ldb, cj), beta, c, ldc, tri));
        err != cudaSuccess)
      return err;
    return fn(gemm_of(p_.type, rows, cols, p_.k, a2, rows_of(p_.b, p_.ldb, ri),
                      rows_transposed(p_.a, p_.lda, cj), kOne, c, ldc, tri));
  }

  // Runs each_product() (on `tri` of the block) in a lane of its own.
  cudaError_t product(int64_t rows, int64_t cols, int64_t ri, int64_t cj, const Scalar& a1,
                      const Scalar& a2, const Scalar& beta, void* c, int64_t ldc,
                      Triangle tri = Triangle::kAll) {
    be_.next_lane();
    return each_product(rows, cols, ri, cj, a1, a2, beta, c, ldc, tri,
                        [this](const Problem& g) { return be_.gemm(g); });
  }

  // The off-diagonal blocks of C's diagonal block [off, off + len).
  cudaError_t off_diagonal(int64_t off, int64_t len) {
    if (len <= leaf_) return cudaSuccess;
    const int64_t l1 = split_of(len, leaf_);
    const int64_t off2 = off + l1, l2 = len - l1;
    cudaError_t err;
    if (p_.uplo == Uplo::kLower) {
      err = product(l2, l1, off2, off, alpha_, alpha2_, beta_,
                    element_at(p_.c, off2, off, p_.ldc, elem_), p_.ldc);
    } else {
      err = product(l1, l2, off, off2, alpha_, alpha2_, beta_,
                    element_at(p_.c, off, off2, p_.ldc, elem_), p_.ldc);
    }
    if (err != cudaSuccess) return err;
    if ((err = off_diagonal(off, l1)) != cudaSuccess) return err;
    return off_diagonal(off2, l2);
  }

  const Problem& p_;
  Level3Backend& be_;
  const Level3BlockSizes& sizes_;
  int64_t leaf_ = 1;  // the diagonal blocks' order: where off_diagonal() stops
  size_t elem_;
  bool herm_, two_;
  Op tr_op_;
  Scalar alpha_, alpha2_, beta_;
};

// ---- symm, hemm -------------------------------------------------------------------------------

cudaError_t run_symmetric(const Problem& p, Level3Backend& be) {
  if (p.alpha.is_zero()) {
    if (p.beta.is_one()) return cudaSuccess;
    return scale_only(p, be, Fill::kFull, p.m, p.n, p.beta, false);
  }
  const size_t elem = size_of(p.type);
  const int64_t ka = p.a_order();
  void* full = nullptr;
  if (cudaError_t err = be.scratch(size_t(ka) * size_t(ka) * elem, &full); err != cudaSuccess)
    return err;
  TriFillProblem f;
  f.type = p.type;
  f.uplo = p.uplo;
  f.mode = p.op == Operation::kHemm ? TriFillMode::kHermitian : TriFillMode::kSymmetric;
  f.n = ka;
  f.a = p.a, f.lda = p.lda;
  f.b = full, f.ldb = ka;
  if (cudaError_t err = be.tri_fill(f); err != cudaSuccess) return err;
  const Operand s{full, ka, Op::kNoTrans}, b{p.b, p.ldb, Op::kNoTrans};
  if (p.side == Side::kLeft) {
    return be.gemm(gemm_of(p.type, p.m, p.n, ka, p.alpha, s, b, p.beta, p.c, p.ldc));
  }
  return be.gemm(gemm_of(p.type, p.m, p.n, ka, p.alpha, b, s, p.beta, p.c, p.ldc));
}

bool is_float_type(DataType t) {
  return t == DataType::kF32 || t == DataType::kF64 || t == DataType::kC32 || t == DataType::kC64;
}

}  // namespace

Level3BlockSizes level3_block_sizes(DataType type) {
  Level3BlockSizes s;
  s.tri_leaf = tri_block::max_order(type);
  // Measured on the H200 and the H100 (docs/NOTES-level3.md). syrk..her2k through scratch (where
  // the GEMM has no triangle rows): fp32 diagonal blocks of 256 beat 512 by 1-2 % at 4096 and 8192
  // since the blocks' GEMMs run side by side (512 won before); the other types keep 512. trmm:
  // since its GEMM leaves skip the zeros of their full block (Problem::a_nonzero), large leaves
  // won at 1024-8192: 4096 for fp64 and complex fp32, 8192 for fp32 (up to that order the whole
  // trmm is one GEMM on the direct rows, which skip the zeros: strmm 1.19 / 1.03 of cuBLAS at 4096
  // / 8192 against 1.13 / 0.98 with 2048), 512 still for complex double (within 2 %). trsm, with
  // every diagonal block inverted by one tri_invert before the solve: 512 beat 256 at 4096 and 8192
  // in every type (ctrsm 1.03-1.05 / 0.99-1.01 of cuBLAS against 1.01-1.03 / 0.98-0.99, H100) and
  // lost at 1024 (1.38 against 1.49-1.54); 1024 lost at every size (its inverses' 1024 steps).
  s.rank_leaf = type == DataType::kF32 ? 256 : 512;
  s.trmm_leaf = type == DataType::kF32 ? 8192 : type == DataType::kC64 ? 512 : 4096;
  s.trsm_leaf = 512;
  // trmm, trsm in panels of B side by side: complex double gained at 4096 and 8192 (ztrsm 1.08 /
  // 1.13 of cuBLAS against 1.02 / 1.09, ztrmm 1.02 / 1.01 against 0.97 / 0.99; H100), fp32 and
  // fp64 lost at 4096 (strsm 0.83 against 0.93, strmm 0.89 against 1.06) and ztrmm at 1024.
  s.tri_panels = type == DataType::kC64 ? 4 : 1;
  s.tri_panel_min = 1024;
  return s;
}

bool level3_plan_handles(const Problem& p) {
  if (p.op == Operation::kGemm || !is_float_type(p.type)) return false;  // gemm(): no plan
  const bool complex = is_complex(p.type);
  switch (p.op) {
    case Operation::kHemm:
    case Operation::kHerk:
    case Operation::kHer2k:
      if (!complex) return false;
      break;
    default:
      break;
  }
  switch (p.op) {
    case Operation::kSyrk:
    case Operation::kSyr2k:
      return p.trans_a != Op::kConjTrans;
    case Operation::kHerk:
    case Operation::kHer2k:
      return p.trans_a != Op::kTrans;
    case Operation::kTrmm:
    case Operation::kTrsm:
      return complex || p.trans_a != Op::kConjTrans;
    default:
      return true;
  }
}

cudaError_t run_level3_plan(const Problem& p, Level3Backend& backend,
                            const Level3BlockSizes& sizes) {
  if (!level3_plan_handles(p)) return cudaErrorNotSupported;
  switch (p.op) {
    case Operation::kGemm:
      break;
    case Operation::kSymm:
    case Operation::kHemm:
      if (p.m == 0 || p.n == 0) return cudaSuccess;
      return run_symmetric(p, backend);
    case Operation::kSyrk:
    case Operation::kHerk:
    case Operation::kSyr2k:
    case Operation::kHer2k: {
      if (p.n == 0) return cudaSuccess;
      RankPlan plan(p, backend, sizes);
      return plan.run();
    }
    case Operation::kTrmm:
    case Operation::kTrsm:
      if (p.m == 0 || p.n == 0) return cudaSuccess;
      return run_triangular(p, backend, sizes);
  }
  return cudaErrorNotSupported;
}

}  // namespace tileblas
