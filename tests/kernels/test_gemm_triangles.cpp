// Kernel tier, GEMMs on a triangle of C (Problem::c_triangle, what syrk .. her2k's plans ask
// for): every row whose supports() accepts a triangle, forced, against OpenBLAS's full GEMM of the
// same type on fresh random data. C holds NaN outside the triangle and in the padding rows, which
// must come back bit for bit; with beta == 0 the triangle holds NaN too (C not read). Tolerances
// from the type's eps and k. Suites: GemmTriangleRows.* (which rows accept a triangle, on a
// nominal Hopper: no GPU), GemmTriangle.* (the rows on the device), GemmZeroTriangle.* (every row
// on the device, op(A) or op(B) zero outside a triangle: Problem::a_nonzero, b_nonzero).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device_support.h"
#include "kernel_table.h"
#include "level3_cpu_backend.h"
#include "problem.h"
#include "test_support.h"

namespace {

using tileblas::DataType;
using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;
using tileblas::Scalar;
using tileblas::Triangle;

const DataType kTypes[] = {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64};

bool in_triangle(Triangle t, int64_t i, int64_t j) {
  return t == Triangle::kLower ? i >= j : t == Triangle::kUpper ? i <= j : true;
}

// A problem of `type` whose pointers are aligned fakes (supports() only looks at addresses).
Problem probe(DataType type, int64_t m, int64_t n, int64_t k, Triangle t) {
  Problem p;
  p.type = p.c_type = type;
  p.m = m, p.n = n, p.k = k;
  p.a = p.b = p.c = reinterpret_cast<void*>(uintptr_t(1) << 20);
  p.lda = p.ldc = m + 4, p.ldb = k + 4;
  p.c_triangle = t;
  return p;
}

bool accepts_triangles(const GemmKernel& row, DataType type) {
  const tileblas::DeviceCaps caps = tbtest::hopper_caps();
  return row.supports(probe(type, 64, 64, 32, Triangle::kLower), caps) &&
         row.supports(probe(type, 64, 64, 32, Triangle::kUpper), caps);
}

// Rows that compute all of C in pieces of their own (split-K slices, sgemm's packed strips) or on
// tensor cores for 16-bit and TF32 data refuse a triangle; the other SIMT and FP64 rows (cgemm's
// packed row too: it packs A and B, not C) take one, only on a square C.
TEST(GemmTriangleRows, WhichRowsTakeATriangle) {
  const tileblas::DeviceCaps caps = tbtest::hopper_caps();
  int taking = 0;
  for (const GemmKernel& row : tileblas::gemm_kernels()) {
    const std::string name = row.name;
    const bool expected =
        name.rfind("sgemm_regblock_", 0) == 0 || name.rfind("dgemm_mma_", 0) == 0 ||
        name.rfind("zgemm_mma_", 0) == 0 || name.rfind("cgemm_simt_", 0) == 0 ||
        name == "cgemm_widened_64x64x8" || name == "cgemm_widened_b_64x64x8" ||
        name.rfind("cgemm_widened_3m_", 0) == 0 ||
        (name.rfind("sgemm_widened_", 0) == 0 && name.find("splitk") == std::string::npos);
    bool takes = false;
    for (DataType t : kTypes) {
      if (!row.supports(probe(t, 64, 64, 32, Triangle::kAll), caps)) continue;
      takes = accepts_triangles(row, t);
      EXPECT_FALSE(row.supports(probe(t, 64, 65, 32, Triangle::kLower), caps))
          << name << ": a triangle of a C that is not square";
    }
    EXPECT_EQ(takes, expected) << name;
    taking += takes;
  }
  EXPECT_EQ(taking, 24);  // sgemm_regblock 6, sgemm widened 4, dgemm 5, zgemm 2, cgemm 3,
                          // cgemm widened 4
  Problem f16 = probe(DataType::kF16, 64, 64, 32, Triangle::kLower);
  f16.c_type = DataType::kF32;
  for (const GemmKernel& row : tileblas::gemm_kernels()) EXPECT_FALSE(row.supports(f16, caps));
}

// ---- On the device ------------------------------------------------------------------------------

struct Case {
  int64_t n, k;
  Op ta, tb;
  Triangle tri;
  Scalar alpha, beta;
  int64_t pad;
  // op(A) (op(B)) zero outside this triangle, as Problem::a_nonzero (b_nonzero) says (k == n).
  Triangle a_nonzero = Triangle::kAll, b_nonzero = Triangle::kAll;
};

double eps_of(DataType t) {
  return t == DataType::kF32 || t == DataType::kC32 ? double(FLT_EPSILON) : DBL_EPSILON;
}
bool is_single(DataType t) { return t == DataType::kF32 || t == DataType::kC32; }

// Components (re, im for complex) of `count` elements in [-1, 1], as bytes of the type.
std::vector<unsigned char> random_elements(DataType t, size_t count, std::mt19937& rng) {
  const size_t parts = count * (tileblas::is_complex(t) ? 2 : 1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<unsigned char> bytes(count * tileblas::size_of(t));
  for (size_t i = 0; i < parts; ++i) {
    if (is_single(t)) {
      reinterpret_cast<float*>(bytes.data())[i] = float(u(rng));
    } else {
      reinterpret_cast<double*>(bytes.data())[i] = u(rng);
    }
  }
  return bytes;
}

// Component `part` of element `e` as a double.
double component(DataType t, const std::vector<unsigned char>& v, size_t e, int part) {
  const size_t i = e * (tileblas::is_complex(t) ? 2 : 1) + size_t(part);
  return is_single(t) ? double(reinterpret_cast<const float*>(v.data())[i])
                      : reinterpret_cast<const double*>(v.data())[i];
}

// Element (r, c) of op(X) for X stored with leading dimension ld: its index in X.
size_t op_index(Op op, int64_t r, int64_t c, int64_t ld) {
  return size_t(op == Op::kNoTrans ? r + c * ld : c + r * ld);
}

// op(X) (order x order) made zero outside `nonzero` (kLower: wherever col > row; kUpper: col <
// row).
void zero_outside(DataType t, std::vector<unsigned char>& x, Op op, int64_t ld, int64_t order,
                  Triangle nonzero) {
  if (nonzero == Triangle::kAll) return;
  const size_t elem = tileblas::size_of(t);
  for (int64_t c = 0; c < order; ++c) {
    for (int64_t r = 0; r < order; ++r) {
      if (!in_triangle(nonzero, r, c)) std::memset(&x[op_index(op, r, c, ld) * elem], 0, elem);
    }
  }
}

void set_nan(DataType t, std::vector<unsigned char>& v, size_t e) {
  const size_t elem = tileblas::size_of(t);
  if (is_single(t)) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (size_t b = 0; b < elem; b += sizeof(float)) std::memcpy(&v[e * elem + b], &nan, 4);
  } else {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (size_t b = 0; b < elem; b += sizeof(double)) std::memcpy(&v[e * elem + b], &nan, 8);
  }
}

// Runs one case on `row` and returns "" or what is wrong.
std::string run_case(const GemmKernel& row, DataType type, const Case& c, std::mt19937& rng) {
  const size_t elem = tileblas::size_of(type);
  const int64_t n = c.n, k = c.k;
  // A as stored is a_rows x a_cols (n x k, or k x n transposed), B likewise (k x n, or n x k).
  const int64_t a_rows = c.ta == Op::kNoTrans ? n : k, a_cols = c.ta == Op::kNoTrans ? k : n;
  const int64_t b_rows = c.tb == Op::kNoTrans ? k : n, b_cols = c.tb == Op::kNoTrans ? n : k;
  const int64_t lda = a_rows + c.pad, ldb = b_rows + c.pad, ldc = n + c.pad;
  std::vector<unsigned char> a = random_elements(type, size_t(lda * a_cols), rng);
  std::vector<unsigned char> b = random_elements(type, size_t(ldb * b_cols), rng);
  std::vector<unsigned char> cm = random_elements(type, size_t(ldc * n), rng);
  zero_outside(type, a, c.ta, lda, n, c.a_nonzero);
  zero_outside(type, b, c.tb, ldb, n, c.b_nonzero);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < ldc; ++i) {
      const bool in = i < n && in_triangle(c.tri, i, j);
      if (!in || c.beta.is_zero()) set_nan(type, cm, size_t(i + j * ldc));
    }
  }
  Problem p;
  p.type = p.c_type = type;
  p.trans_a = c.ta, p.trans_b = c.tb;
  p.m = p.n = n, p.k = k;
  p.alpha = c.alpha, p.beta = c.beta;
  p.lda = lda, p.ldb = ldb, p.ldc = ldc;
  p.c_triangle = c.tri;
  p.a_nonzero = c.a_nonzero, p.b_nonzero = c.b_nonzero;

  // The reference: OpenBLAS's full GEMM on host copies (what lies outside the triangle ignored).
  std::vector<unsigned char> want = cm;
  Problem h = p;
  h.a = a.data(), h.b = b.data(), h.c = want.data();
  h.c_triangle = Triangle::kAll;
  h.a_nonzero = h.b_nonzero = Triangle::kAll;
  const std::string why = tbtest::openblas_gemm(h);
  if (!why.empty()) return "OpenBLAS: " + why;

  void *da = nullptr, *db = nullptr, *dc = nullptr;
  auto release = [&] { cudaFree(da), cudaFree(db), cudaFree(dc); };
  if (cudaMalloc(&da, a.size()) != cudaSuccess || cudaMalloc(&db, b.size()) != cudaSuccess ||
      cudaMalloc(&dc, cm.size()) != cudaSuccess) {
    release();
    return "cudaMalloc failed";
  }
  cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, cm.data(), cm.size(), cudaMemcpyHostToDevice);
  p.a = da, p.b = db, p.c = dc;
  if (!row.supports(p, tbtest::device_caps())) {
    release();
    return "skip";
  }
  cudaError_t err = row.launch(p, nullptr);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  std::vector<unsigned char> got(cm.size());
  if (err == cudaSuccess) err = cudaMemcpy(got.data(), dc, got.size(), cudaMemcpyDeviceToHost);
  release();
  if (err != cudaSuccess) return std::string("CUDA: ") + cudaGetErrorString(err);

  const int parts = tileblas::is_complex(type) ? 2 : 1;
  const double a_abs = std::hypot(c.alpha.re, c.alpha.im), b_abs = std::hypot(c.beta.re, c.beta.im);
  // Products of components in [-1, 1]: |op(A) op(B)| <= parts * k per element; a few eps of that
  // and of beta * C, per rounding of a k-term sum.
  const double tol = 4 * eps_of(type) * (double(parts) * double(k + 2) * a_abs + 2 * b_abs + 1);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < ldc; ++i) {
      const size_t e = size_t(i + j * ldc);
      const bool in = i < n && in_triangle(c.tri, i, j);
      if (!in) {
        if (std::memcmp(&got[e * elem], &cm[e * elem], elem) != 0) {
          return "C(" + std::to_string(i) + "," + std::to_string(j) +
                 ") outside the triangle (or padding) was written";
        }
        continue;
      }
      for (int part = 0; part < parts; ++part) {
        const double g = component(type, got, e, part), w = component(type, want, e, part);
        if (!(std::fabs(g - w) <= tol)) {
          return "C(" + std::to_string(i) + "," + std::to_string(j) + ") part " +
                 std::to_string(part) + ": " + std::to_string(g) + " against " + std::to_string(w) +
                 " (tolerance " + std::to_string(tol) + ")";
        }
      }
    }
  }
  return "";
}

std::vector<Op> ops_of(DataType t) {
  if (tileblas::is_complex(t)) return {Op::kNoTrans, Op::kTrans, Op::kConjTrans};
  return {Op::kNoTrans, Op::kTrans};
}

const char* name_of(Triangle t) { return t == Triangle::kLower ? "lower" : "upper"; }

// `cases_per_row` cases on every row of each type that `takes(row, type)`: sizes from `sizes`,
// random transposes, alpha, beta (zero every third case) and padding, then `shape(i, &c)` sets the
// case's k and triangles.
template <class Takes, class Shape>
void run_cases(const std::vector<int64_t>& sizes, int cases_per_row, Takes takes, Shape shape) {
  std::mt19937 rng(tbtest::rng()());
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  int ran = 0;
  for (DataType type : kTypes) {
    const bool complex = tileblas::is_complex(type);
    const std::vector<Op> ops = ops_of(type);
    for (const GemmKernel& row : tileblas::gemm_kernels()) {
      if (!takes(row, type)) continue;
      for (int i = 0; i < cases_per_row; ++i) {
        Case c;
        c.n = sizes[rng() % sizes.size()];
        c.ta = ops[rng() % ops.size()], c.tb = ops[rng() % ops.size()];
        c.alpha = complex ? Scalar(u(rng), u(rng)) : Scalar(u(rng));
        c.beta = i % 3 == 0 ? Scalar(0.0) : complex ? Scalar(u(rng), u(rng)) : Scalar(u(rng));
        c.pad = int64_t(rng() % 3);
        shape(i, rng, &c);
        const std::string why = run_case(row, type, c, rng);
        if (why == "skip") continue;
        ++ran;
        EXPECT_EQ(why, "") << row.name << " " << tileblas::name_of(type) << " n=" << c.n
                           << " k=" << c.k << " " << tileblas::name_of(c.ta)
                           << tileblas::name_of(c.tb) << " C "
                           << (c.tri == Triangle::kAll ? "all" : name_of(c.tri)) << " op(A) "
                           << (c.a_nonzero == Triangle::kAll ? "full" : name_of(c.a_nonzero))
                           << " op(B) "
                           << (c.b_nonzero == Triangle::kAll ? "full" : name_of(c.b_nonzero))
                           << " beta=(" << c.beta.re << "," << c.beta.im << ") pad=" << c.pad;
      }
    }
  }
  EXPECT_GT(ran, 0);
}

// A triangle of C, on the rows that accept one.
void run_rows(const std::vector<int64_t>& sizes, int cases_per_row) {
  run_cases(sizes, cases_per_row, accepts_triangles, [](int i, std::mt19937& rng, Case* c) {
    c->k = std::vector<int64_t>{1, 7, 16, 33, 130}[rng() % 5];
    c->tri = i % 2 == 0 ? Triangle::kLower : Triangle::kUpper;
  });
}

// op(A) or op(B) zero outside a triangle (Problem::a_nonzero, b_nonzero: trmm's and trsm's
// GEMM leaves): every row of the type, forced, on all of C. The rows that skip the zeros' k-steps
// must still multiply every k-step a tile needs (a range cut one step short loses products).
void run_zero_triangles(const std::vector<int64_t>& sizes, int cases_per_row) {
  auto any_row = [](const GemmKernel& row, DataType type) {
    return row.supports(probe(type, 64, 64, 64, Triangle::kAll), tbtest::hopper_caps());
  };
  run_cases(sizes, cases_per_row, any_row, [](int i, std::mt19937&, Case* c) {
    c->k = c->n;
    c->tri = Triangle::kAll;
    (i % 4 < 2 ? c->a_nonzero : c->b_nonzero) = i % 2 == 0 ? Triangle::kLower : Triangle::kUpper;
  });
}

TEST(GemmZeroTriangle, EveryRowAcrossTileEdges) {
  TB_REQUIRE_GPU();
  run_zero_triangles({1, 31, 64, 65, 128, 129, 200, 257, 520}, 8);
}

TEST(GemmTriangle, EveryRowAcrossTileEdges) {
  TB_REQUIRE_GPU();
  run_rows({1, 2, 31, 64, 65, 127, 128, 129, 200, 257}, 16);
}

TEST(GemmTriangleSmall, QuickSubset) {
  TB_REQUIRE_GPU();
  run_rows({1, 33, 130}, 3);
}

}  // namespace
