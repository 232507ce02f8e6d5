#include "level3_cases.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <sstream>

#include "host_plans.h"
#include "level3_cpu_backend.h"
#include "test_support.h"

namespace tbtest {

namespace {

using tileblas::DataType;
using tileblas::Diag;
using tileblas::Op;
using tileblas::Operation;
using tileblas::Scalar;
using tileblas::Side;
using tileblas::Uplo;

bool is_rank(Operation op) {
  return op == Operation::kSyrk || op == Operation::kHerk || op == Operation::kSyr2k ||
         op == Operation::kHer2k;
}
bool is_two(Operation op) { return op == Operation::kSyr2k || op == Operation::kHer2k; }
bool is_tri(Operation op) { return op == Operation::kTrmm || op == Operation::kTrsm; }
bool is_herm(Operation op) { return op == Operation::kHerk || op == Operation::kHer2k; }

// Element access on byte buffers, by type: parts re (and im) as doubles.
struct Elem {
  DataType type;
  size_t size() const { return tileblas::size_of(type); }
  bool complex() const { return tileblas::is_complex(type); }
  bool f32() const { return type == DataType::kF32 || type == DataType::kC32; }
  double part(const std::vector<unsigned char>& v, size_t at, int which) const {
    const unsigned char* p = v.data() + at * size() + which * (f32() ? 4 : 8);
    if (f32()) {
      float x;
      std::memcpy(&x, p, 4);
      return x;
    }
    double x;
    std::memcpy(&x, p, 8);
    return x;
  }
  void set_part(std::vector<unsigned char>& v, size_t at, int which, double x) const {
    unsigned char* p = v.data() + at * size() + which * (f32() ? 4 : 8);
    if (f32()) {
      const float y = float(x);
      std::memcpy(p, &y, 4);
    } else {
      std::memcpy(p, &x, 8);
    }
  }
  void set(std::vector<unsigned char>& v, size_t at, double re, double im = 0) const {
    set_part(v, at, 0, re);
    if (complex()) set_part(v, at, 1, im);
  }
  std::complex<double> get(const std::vector<unsigned char>& v, size_t at) const {
    return {part(v, at, 0), complex() ? part(v, at, 1) : 0.0};
  }
  bool same_bits(const std::vector<unsigned char>& x, const std::vector<unsigned char>& y,
                 size_t at) const {
    return std::memcmp(x.data() + at * size(), y.data() + at * size(), size()) == 0;
  }
  double eps() const {
    return f32() ? double(std::numeric_limits<float>::epsilon())
                 : std::numeric_limits<double>::epsilon();
  }
};

const double kNaN = std::numeric_limits<double>::quiet_NaN();

double uniform(double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng());
}

// A rows x cols matrix with leading dimension ld: random entries in [-1, 1] (both parts), NaN in
// the padding rows.
std::vector<unsigned char> random_matrix(const Elem& e, int64_t rows, int64_t cols, int64_t ld) {
  std::vector<unsigned char> v(size_t(std::max<int64_t>(ld * cols, 1)) * e.size());
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < ld; ++i) {
      const size_t at = size_t(i + j * ld);
      if (i < rows) {
        e.set(v, at, uniform(-1, 1), uniform(-1, 1));
      } else {
        e.set(v, at, kNaN, kNaN);
      }
    }
  }
  return v;
}

bool in_triangle(Uplo uplo, int64_t i, int64_t j) { return uplo == Uplo::kLower ? i >= j : i <= j; }

}  // namespace

std::string Level3Case::str() const {
  std::ostringstream s;
  s << tileblas::name_of(type) << " " << tileblas::name_of(op);
  if (op == Operation::kSymm || op == Operation::kHemm || is_tri(op))
    s << " side=" << (side == Side::kLeft ? "L" : "R");
  s << " uplo=" << (uplo == Uplo::kLower ? "L" : "U");
  if (!(op == Operation::kSymm || op == Operation::kHemm))
    s << " trans=" << tileblas::name_of(trans);
  if (is_tri(op)) s << " diag=" << (diag == Diag::kUnit ? "U" : "N");
  s << " m=" << m << " n=" << n;
  if (is_rank(op)) s << " k=" << k;
  s << " alpha=(" << alpha.re << "," << alpha.im << ") beta=(" << beta.re << "," << beta.im
    << ") pad=" << pad << " blocks=" << sizes.tri_leaf << "/" << sizes.rank_leaf << "/"
    << sizes.trmm_leaf << "/" << sizes.trsm_leaf << "/" << sizes.rank_triangle_leaf
    << " panels=" << sizes.tri_panels << "/" << sizes.tri_panel_min;
  return s.str();
}

tileblas::Problem Level3Operands::problem() const {
  return problem(a.data(), b.empty() ? nullptr : b.data(), const_cast<unsigned char*>(out.data()));
}

tileblas::Problem Level3Operands::problem(const void* a_at, const void* b_at, void* out_at) const {
  tileblas::Problem p;
  p.op = c.op;
  p.type = c.type;
  p.side = c.side, p.uplo = c.uplo, p.trans_a = c.trans, p.diag = c.diag;
  p.m = c.m, p.n = c.n, p.k = c.k;
  p.alpha = c.alpha, p.beta = c.beta;
  p.a = a_at, p.lda = lda;
  if (is_two(c.op) || c.op == Operation::kSymm || c.op == Operation::kHemm) p.b = b_at, p.ldb = ldb;
  p.c = out_at, p.ldc = ldo;
  return p;
}

Level3Operands make_operands(const Level3Case& c) {
  Level3Operands o;
  o.c = c;
  const Elem e{c.type};
  const int64_t ka = c.side == Side::kLeft ? c.m : c.n;
  if (is_rank(c.op)) {
    o.a_rows = c.trans == Op::kNoTrans ? c.n : c.k;
    o.a_cols = c.trans == Op::kNoTrans ? c.k : c.n;
    o.out_rows = o.out_cols = c.n;
    if (is_two(c.op)) o.b_rows = o.a_rows, o.b_cols = o.a_cols;
  } else {
    o.a_rows = o.a_cols = ka;
    o.out_rows = c.m, o.out_cols = c.n;
    if (!is_tri(c.op)) o.b_rows = c.m, o.b_cols = c.n;
  }
  o.lda = std::max<int64_t>(o.a_rows, 1) + c.pad;
  o.ldb = std::max<int64_t>(o.b_rows, 1) + c.pad;
  o.ldo = std::max<int64_t>(o.out_rows, 1) + c.pad;
  o.a = random_matrix(e, o.a_rows, o.a_cols, o.lda);
  if (o.b_rows > 0) o.b = random_matrix(e, o.b_rows, o.b_cols, o.ldb);
  o.out = random_matrix(e, o.out_rows, o.out_cols, o.ldo);

  // A: triangles and diagonals.
  if (is_tri(c.op) || c.op == Operation::kSymm || c.op == Operation::kHemm) {
    for (int64_t j = 0; j < ka; ++j) {
      for (int64_t i = 0; i < ka; ++i) {
        const size_t at = size_t(i + j * o.lda);
        if (!in_triangle(c.uplo, i, j)) {
          e.set(o.a, at, kNaN, kNaN);
        } else if (is_tri(c.op) && i == j) {
          // Well-conditioned triangles: |diagonal| in [1, 2], off-diagonal entries / ka.
          if (c.diag == Diag::kUnit) {
            e.set(o.a, at, kNaN, kNaN);
          } else {
            const double sign = uniform(0, 1) < 0.5 ? -1 : 1;
            e.set(o.a, at, sign * uniform(1, 2), uniform(-1, 1));
          }
        } else if (is_tri(c.op)) {
          const std::complex<double> v = e.get(o.a, at);
          e.set(o.a, at, v.real() / double(ka), v.imag() / double(ka));
        } else if (c.op == Operation::kHemm && i == j) {
          e.set_part(o.a, at, 1, kNaN);  // taken as zero, never read
        }
      }
    }
  }
  // C: the other triangle of the rank-k forms, herk's diagonal imaginary parts, beta == 0.
  for (int64_t j = 0; j < o.out_cols; ++j) {
    for (int64_t i = 0; i < o.out_rows; ++i) {
      const size_t at = size_t(i + j * o.ldo);
      const bool written = !is_rank(c.op) || in_triangle(c.uplo, i, j);
      if (!written) {
        e.set(o.out, at, kNaN, kNaN);
      } else if ((c.beta.is_zero() && !is_tri(c.op)) || (is_tri(c.op) && c.alpha.is_zero())) {
        e.set(o.out, at, kNaN, kNaN);
      } else if (is_herm(c.op) && i == j) {
        e.set_part(o.out, at, 1, kNaN);
      }
    }
  }
  // alpha == 0: A and B are not read.
  if (c.alpha.is_zero()) {
    for (size_t at = 0; at < o.a.size() / e.size(); ++at) e.set(o.a, at, kNaN, kNaN);
    for (size_t at = 0; at < o.b.size() / e.size(); ++at) e.set(o.b, at, kNaN, kNaN);
  }
  return o;
}

std::vector<unsigned char> openblas_result(const Level3Operands& ops) {
  const Elem e{ops.c.type};
  auto cleared = [&](std::vector<unsigned char> v) {
    for (size_t at = 0; at < v.size() / e.size(); ++at) {
      for (int part = 0; part < (e.complex() ? 2 : 1); ++part) {
        if (std::isnan(e.part(v, at, part))) e.set_part(v, at, part, 0.0);
      }
    }
    return v;
  };
  std::vector<unsigned char> a = cleared(ops.a), b = cleared(ops.b), out = cleared(ops.out);
  const tileblas::Problem p = ops.problem(a.data(), b.empty() ? nullptr : b.data(), out.data());
  const std::string why = openblas_level3(p);
  if (!why.empty()) ADD_FAILURE() << why;
  return out;
}

std::string check_level3(const Level3Operands& before, const std::vector<unsigned char>& got,
                         const std::vector<unsigned char>& want,
                         const std::vector<unsigned char>& a_after,
                         const std::vector<unsigned char>& b_after) {
  const Level3Case& c = before.c;
  const Elem e{c.type};
  if (a_after != before.a) return "A was written";
  if (b_after != before.b) return "B was written";
  if (got.size() != before.out.size()) return "output of the wrong size";
  // netlib's quick returns: C exactly as it was (herk's diagonal imaginary parts included).
  const bool no_product = c.alpha.is_zero() || (is_rank(c.op) && c.k == 0);
  if (!is_tri(c.op) && no_product && c.beta.is_one()) {
    return got == before.out ? "" : "C changed by a call that must return at once";
  }
  // Tolerance: eps * (inner dimension + 2) * 16 * the largest magnitude the result is made of: of
  // the reference's elements, and of the terms summed into them (|alpha| max|A| max|B|, |beta|
  // max|C|), which a cancelling sum can make far larger than the result itself.
  const int64_t inner = is_rank(c.op) ? c.k : (c.side == Side::kLeft ? c.m : c.n);
  auto largest_finite = [&](const std::vector<unsigned char>& v) {
    double m = 0;
    for (size_t at = 0; at < v.size() / e.size(); ++at) {
      const double x = std::abs(e.get(v, at));
      if (std::isfinite(x)) m = std::max(m, x);
    }
    return m;
  };
  const double max_out = largest_finite(before.out);
  double scale = std::abs(std::complex<double>(c.alpha.re, c.alpha.im)) * largest_finite(before.a) *
                 (before.b.empty() ? (is_tri(c.op) ? max_out : largest_finite(before.a))
                                   : largest_finite(before.b));
  if (!is_tri(c.op)) {
    scale = std::max(scale, std::abs(std::complex<double>(c.beta.re, c.beta.im)) * max_out);
  }
  for (int64_t j = 0; j < before.out_cols; ++j) {
    for (int64_t i = 0; i < before.out_rows; ++i) {
      if (is_rank(c.op) && !in_triangle(c.uplo, i, j)) continue;
      scale = std::max(scale, std::abs(e.get(want, size_t(i + j * before.ldo))));
    }
  }
  const double tol = 16 * e.eps() * double(inner + 2) * std::max(scale, 1e-30);
  std::ostringstream msg;
  for (int64_t j = 0; j < before.out_cols; ++j) {
    for (int64_t i = 0; i < before.ldo; ++i) {
      const size_t at = size_t(i + j * before.ldo);
      const bool written = i < before.out_rows && (!is_rank(c.op) || in_triangle(c.uplo, i, j));
      if (!written) {
        if (!e.same_bits(got, before.out, at)) {
          msg << "element (" << i << "," << j << ") outside what the routine writes was changed";
          return msg.str();
        }
        continue;
      }
      const std::complex<double> g = e.get(got, at), w = e.get(want, at);
      if (!(std::abs(g - w) <= tol)) {
        msg << "element (" << i << "," << j << ") = " << g << ", want " << w << " (tol " << tol
            << ")";
        return msg.str();
      }
      if (is_herm(c.op) && i == j && e.part(got, at, 1) != 0.0) {
        msg << "diagonal element " << i << " has imaginary part " << e.part(got, at, 1);
        return msg.str();
      }
    }
  }
  if (scale == 0 && !(c.alpha.is_zero() || (c.beta.is_zero() && inner == 0)))
    return "the reference is all zeros: the case tests nothing";
  return "";
}

std::vector<Level3Case> level3_plan_cases(const std::vector<DataType>& types, bool small_blocks,
                                          bool device_blocks, bool host_blocks) {
  std::vector<Level3Case> cases;
  auto random_scalar = [](DataType t) {
    return tileblas::is_complex(t) ? Scalar(uniform(-1.5, 1.5), uniform(-1.5, 1.5))
                                   : Scalar(uniform(-1.5, 1.5));
  };
  struct Blocks {
    tileblas::Level3BlockSizes sizes;
    std::vector<std::pair<int64_t, int64_t>> tri_shapes;   // (order, other extent)
    std::vector<std::pair<int64_t, int64_t>> rank_shapes;  // (n, k)
    std::vector<std::pair<int64_t, int64_t>> symm_shapes;  // (m, n)
  };
  auto blocks_for = [&](DataType t) {
    std::vector<Blocks> blocks;
    if (small_blocks) {
      Blocks b;
      // trmm, trsm: GEMM leaves of order 5..9 beside tri_block's (19 = 9 + 9 + 1); 47 = 5 * 9 + 2
      // in one panel: more full blocks than are issued ahead of the leaves.
      b.sizes.tri_leaf = 4, b.sizes.rank_leaf = 5, b.sizes.trmm_leaf = b.sizes.trsm_leaf = 9;
      b.sizes.rank_triangle_leaf = 5;
      b.sizes.tri_panels = 3, b.sizes.tri_panel_min = 2;
      b.tri_shapes = {{1, 3}, {9, 5}, {17, 12}, {4, 1}, {19, 4}, {47, 3}};
      b.rank_shapes = {{1, 2}, {6, 1}, {13, 7}, {22, 3}};
      b.symm_shapes = {{1, 1}, {13, 7}, {6, 17}};
      blocks.push_back(b);
    }
    if (device_blocks) {
      Blocks b;
      b.sizes = tileblas::level3_block_sizes(t);
      const int64_t leaf = b.sizes.tri_leaf, rank = b.sizes.rank_leaf;
      b.tri_shapes = {{leaf, 9}, {leaf + 1, 33}, {2 * leaf + 7, 20}};
      b.rank_shapes = {{rank, 4}, {rank + 37, 9}};
      b.symm_shapes = {{70, 33}};
      blocks.push_back(b);
    }
    if (host_blocks) {
      // trmm, trsm: one tri_block (its vectors crossing the kernel's chunks), just past it and two
      // levels of halving; syrk's diagonal blocks.
      Blocks b;
      b.sizes = tileblas::host_level3_block_sizes(t);
      const int64_t leaf = b.sizes.tri_leaf, rank = b.sizes.rank_leaf;
      b.tri_shapes = {{leaf - 3, 20}, {leaf + 1, 9}, {2 * leaf + 5, 17}};
      b.rank_shapes = {{rank - 1, 5}, {rank + 37, 9}};
      b.symm_shapes = {{70, 33}};
      blocks.push_back(b);
      // Small calls: trmm and trsm as one tri_block of a few vectors (on AVX-512 hosts the AVX2
      // variant where they fit its register), syrk .. her2k as one diagonal block in the
      // backend's own scratch (up to 16^2 complex doubles) or just past it.
      Blocks small;
      small.sizes = b.sizes;
      small.tri_shapes = {{8, 8}, {16, 16}, {5, 3}, {16, 4}, {7, 9}};
      small.rank_shapes = {{8, 8}, {16, 16}, {3, 7}, {17, 2}, {16, 1}};
      small.symm_shapes = {{8, 8}, {16, 5}};
      blocks.push_back(small);
    }
    return blocks;
  };
  const Side sides[] = {Side::kLeft, Side::kRight};
  const Uplo uplos[] = {Uplo::kLower, Uplo::kUpper};
  for (DataType t : types) {
    const bool complex = tileblas::is_complex(t);
    for (const Blocks& bl : blocks_for(t)) {
      // trmm, trsm
      for (Operation op : {Operation::kTrsm, Operation::kTrmm}) {
        std::vector<Op> transes = {Op::kNoTrans, Op::kTrans};
        if (complex) transes.push_back(Op::kConjTrans);
        int shape = 0;
        for (Side side : sides) {
          for (Uplo uplo : uplos) {
            for (Op trans : transes) {
              for (Diag diag : {Diag::kNonUnit, Diag::kUnit}) {
                const auto& s = bl.tri_shapes[size_t(shape++) % bl.tri_shapes.size()];
                Level3Case c;
                c.op = op, c.type = t, c.side = side, c.uplo = uplo, c.trans = trans, c.diag = diag;
                c.m = side == Side::kLeft ? s.first : s.second;
                c.n = side == Side::kLeft ? s.second : s.first;
                c.alpha = shape % 5 == 0 ? Scalar(1.0) : random_scalar(t);
                c.sizes = bl.sizes;
                cases.push_back(c);
              }
            }
          }
        }
        Level3Case zero;  // alpha == 0: B = 0, neither A nor B read
        zero.op = op, zero.type = t, zero.m = 7, zero.n = 5, zero.alpha = 0.0;
        zero.sizes = bl.sizes;
        cases.push_back(zero);
      }
      // syrk, herk, syr2k, her2k
      std::vector<Operation> rank_ops = {Operation::kSyrk, Operation::kSyr2k};
      if (complex) rank_ops.push_back(Operation::kHerk), rank_ops.push_back(Operation::kHer2k);
      for (Operation op : rank_ops) {
        const Op other = is_herm(op) ? Op::kConjTrans : Op::kTrans;
        int shape = 0;
        for (Uplo uplo : uplos) {
          for (Op trans : {Op::kNoTrans, other}) {
            for (int scalars = 0; scalars < 3; ++scalars) {
              const auto& s = bl.rank_shapes[size_t(shape++) % bl.rank_shapes.size()];
              Level3Case c;
              c.op = op, c.type = t, c.uplo = uplo, c.trans = trans;
              c.n = s.first, c.k = s.second;
              c.alpha = is_herm(op) && op == Operation::kHerk ? Scalar(uniform(-1.5, 1.5))
                                                              : random_scalar(t);
              // beta: random, 0 (C not read), 1
              c.beta = scalars == 1   ? Scalar(0.0)
                       : scalars == 2 ? Scalar(1.0)
                       : is_herm(op)  ? Scalar(uniform(-1.5, 1.5))
                                      : random_scalar(t);
              c.sizes = bl.sizes;
              cases.push_back(c);
            }
          }
        }
        for (Scalar beta : {Scalar(0.0), Scalar(0.5), Scalar(1.0)}) {  // alpha == 0
          Level3Case zero;
          zero.op = op, zero.type = t, zero.n = 9, zero.k = 4, zero.alpha = 0.0, zero.beta = beta;
          zero.sizes = bl.sizes;
          cases.push_back(zero);
        }
      }
      // symm, hemm
      std::vector<Operation> symm_ops = {Operation::kSymm};
      if (complex) symm_ops.push_back(Operation::kHemm);
      for (Operation op : symm_ops) {
        int shape = 0;
        for (Side side : sides) {
          for (Uplo uplo : uplos) {
            for (int scalars = 0; scalars < 2; ++scalars) {
              const auto& s = bl.symm_shapes[size_t(shape++) % bl.symm_shapes.size()];
              Level3Case c;
              c.op = op, c.type = t, c.side = side, c.uplo = uplo;
              c.m = s.first, c.n = s.second;
              c.alpha = random_scalar(t);
              c.beta = scalars == 1 ? Scalar(0.0) : random_scalar(t);
              c.sizes = bl.sizes;
              cases.push_back(c);
            }
          }
        }
        Level3Case zero;
        zero.op = op, zero.type = t, zero.m = 6, zero.n = 4, zero.alpha = 0.0;
        zero.beta = random_scalar(t);
        zero.sizes = bl.sizes;
        cases.push_back(zero);
      }
    }
  }
  return cases;
}

}  // namespace tbtest
