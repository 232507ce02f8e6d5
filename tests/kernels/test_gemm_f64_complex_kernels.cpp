// Kernel tier, double and complex GEMM: every "dgemm_", "zgemm_" and "cgemm_" row of
// gemm_kernels(), forced through its launch() on device buffers, against OpenBLAS's dgemm_,
// zgemm_ and cgemm_ in the same type (dlopen'd, tests/support).
//   - integer-valued inputs and scalars: every product and sum is exact in both (|values| <= 4,
//     sums far below 2^24), so C must equal OpenBLAS's result exactly;
//   - random inputs in [-1, 1): |C - ref| <= f eps (k + 2) S per real component, S = |alpha|
//     sum |a||b| + |beta||c| (moduli), f = 2 for real data and 4 for complex (each component of a
//     complex product sum is a sum of 2k real products), eps of the type: both results lie within
//     half of that of the exact one; and the Frobenius norm of the difference within
//     32 eps sqrt(k + 2) of the reference's (typical rounding, so an accumulation in lower
//     precision is caught at large k).
// Every case: fresh random data; C (padding too) filled with NaN where beta == 0 (NaN must not
// leak); C's padding rows checked bit for bit unchanged; leading dimensions above the minimum; all
// transposes (N/T for dgemm, N/T/C for complex); alpha, beta in {0, 1, 0.7, -2} (and complex values
// for zgemm/cgemm); alpha == 0 runs with A = B = nullptr (must not be read). Scalar-load rows run
// on pointers one real element off 16-byte alignment and odd leading dimensions, where the vector
// rows' supports() must say no; packed rows on such pointers in half the cases, aligned in the
// other half (operands then read in place where their layout allows). Suites: GemmF64ComplexRows.*
// (no GPU needed), GemmF64Complex.* (the grid), GemmF64ComplexSmall.* (quick subset for
// compute-sanitizer).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cgemm_simt.h"
#include "device_support.h"
#include "gemm_f64_mma.h"
#include "kernel_table.h"
#include "test_support.h"

namespace {

using tbtest::DeviceBytes;
using tileblas::DataType;
using tileblas::DeviceCaps;
using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;
using tileblas::Scalar;

DataType type_of(const GemmKernel& k) {
  if (std::strncmp(k.name, "dgemm_", 6) == 0) return DataType::kF64;
  if (std::strncmp(k.name, "zgemm_", 6) == 0) return DataType::kC64;
  return DataType::kC32;
}

std::vector<const GemmKernel*> rows() {
  std::vector<const GemmKernel*> out;
  for (const GemmKernel& k : tileblas::gemm_kernels()) {
    for (const char* prefix : {"dgemm_", "zgemm_", "cgemm_"}) {
      if (std::strncmp(k.name, prefix, 6) == 0) out.push_back(&k);
    }
  }
  return out;
}

bool is_scalarload(const GemmKernel& k) { return std::strstr(k.name, "scalarload") != nullptr; }
// The split-K rows' geometry (kernels/gemm_f64_mma.h, kernels/cgemm_simt.h), or nullptr for the
// other rows.
const tileblas::splitk::Geometry* split_geometry(const GemmKernel& k) {
  if (std::strncmp(k.name, "dgemm_splitk_", 13) == 0) return &tileblas::gemm_f64_mma::kDgemmSplitK;
  if (std::strncmp(k.name, "zgemm_splitk_", 13) == 0) return &tileblas::gemm_f64_mma::kZgemmSplitK;
  if (std::strncmp(k.name, "cgemm_splitk_", 13) == 0) return &tileblas::cgemm_simt::kSplitK;
  if (std::strncmp(k.name, "cgemm_widened_splitk_", 21) == 0)
    return &tileblas::gemm_f64_mma::kZgemmSplitK;
  return nullptr;
}
bool is_packed(const GemmKernel& k) { return std::strstr(k.name, "packed") != nullptr; }
bool is_peeled(const GemmKernel& k) { return std::strstr(k.name, "_peeled_") != nullptr; }
// Rows that pack what they cannot read in place: the packed rows and cgemm's split-K row; and
// the rows that widen A and B into a workspace.
bool packs(const GemmKernel& k) {
  return is_packed(k) || std::strncmp(k.name, "cgemm_splitk_", 13) == 0 ||
         std::strncmp(k.name, "cgemm_widened_", 14) == 0;
}
// Rows that take any alignment and leading dimension (the others need 16-byte-aligned A and B).
bool any_alignment(const GemmKernel& k) { return is_scalarload(k) || packs(k); }

struct Case {
  Op ta = Op::kNoTrans, tb = Op::kNoTrans;
  int64_t m = 1, n = 1, k = 1;
  Scalar alpha = 1.0, beta = 0.0;
  bool integers = true;
  bool misaligned = false;
  int64_t pad_a = 0, pad_b = 0, pad_c = 0;

  std::string str() const {
    std::ostringstream s;
    s << tileblas::name_of(ta) << tileblas::name_of(tb) << " m=" << m << " n=" << n << " k=" << k
      << " alpha=(" << alpha.re << "," << alpha.im << ") beta=(" << beta.re << "," << beta.im << ")"
      << (integers ? " integers" : " random") << (misaligned ? " misaligned" : "")
      << " pads=" << pad_a << "," << pad_b << "," << pad_c;
    return s.str();
  }
};

template <class Real>
std::vector<Real> fill(size_t n, bool integers) {
  std::vector<Real> v(n);
  if (integers) {
    const std::vector<float> f = tbtest::random_ints(n, -4, 4);
    for (size_t i = 0; i < n; ++i) v[i] = Real(f[i]);
  } else {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (Real& x : v) x = Real(d(tbtest::rng()));
  }
  return v;
}

// OpenBLAS in the row's type: C = alpha op(A) op(B) + beta C on host arrays (complex interleaved).
template <class Real>
void openblas_gemm(DataType type, char ta, char tb, int m, int n, int k, const Real* alpha,
                   const Real* a, int lda, const Real* b, int ldb, const Real* beta, Real* c,
                   int ldc) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if constexpr (sizeof(Real) == 8) {
    auto fn = type == DataType::kF64 ? blas.dgemm : blas.zgemm;
    fn(&ta, &tb, &m, &n, &k, alpha, a, &lda, b, &ldb, beta, c, &ldc, 1, 1);
  } else {
    blas.cgemm(&ta, &tb, &m, &n, &k, alpha, a, &lda, b, &ldb, beta, c, &ldc, 1, 1);
  }
}
// The real GEMM of the same precision, for the error bound on moduli.
template <class Real>
void openblas_real_gemm(char ta, char tb, int m, int n, int k, Real alpha, const Real* a, int lda,
                        const Real* b, int ldb, Real beta, Real* c, int ldc) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if constexpr (sizeof(Real) == 8) {
    blas.dgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  } else {
    blas.sgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  }
}

char op_char(Op op) { return op == Op::kNoTrans ? 'N' : op == Op::kTrans ? 'T' : 'C'; }

// Runs one case on `row` and checks it; returns "" or what went wrong.
template <class Real>
std::string run_typed(const GemmKernel& row, const DeviceCaps& caps, const Case& c) {
  const DataType type = type_of(row);
  const bool cplx = tileblas::is_complex(type);
  const int comps = cplx ? 2 : 1;
  Problem p;
  p.trans_a = c.ta, p.trans_b = c.tb;
  p.m = c.m, p.n = c.n, p.k = c.k;
  p.alpha = c.alpha, p.beta = c.beta;
  p.type = p.c_type = type;
  // Vector rows: even leading dimensions (16-byte chunks of fp64 and complex fp32 pairs).
  // Scalar-load rows: odd ones.
  auto ld_of = [&](int64_t rows, int64_t pad) {
    const int64_t ld = std::max<int64_t>(1, rows) + pad;
    return c.misaligned ? (ld % 2 ? ld : ld + 1) : (ld + 1) / 2 * 2;
  };
  p.lda = ld_of(p.a_rows(), c.pad_a);
  p.ldb = ld_of(p.b_rows(), c.pad_b);
  p.ldc = p.m + c.pad_c;
  // Misaligned: one real element (8 bytes fp64, 4 bytes fp32) past 16-byte alignment.
  const size_t off = c.misaligned ? 1 : 0;
  const size_t na = size_t(p.lda * p.a_cols()) * comps, nb = size_t(p.ldb * p.b_cols()) * comps,
               nc = size_t(p.ldc * p.n) * comps;

  const std::vector<Real> a = fill<Real>(na, c.integers), b = fill<Real>(nb, c.integers);
  std::vector<Real> c0 = fill<Real>(nc, c.integers);
  if (c.beta.is_zero()) std::fill(c0.begin(), c0.end(), std::numeric_limits<Real>::quiet_NaN());

  DeviceBytes da((off + na) * sizeof(Real)), db((off + nb) * sizeof(Real)),
      dc((off + nc) * sizeof(Real));
  Real* a_dev = static_cast<Real*>(da.ptr) + off;
  Real* b_dev = static_cast<Real*>(db.ptr) + off;
  Real* c_dev = static_cast<Real*>(dc.ptr) + off;
  if (cudaMemcpy(a_dev, a.data(), na * sizeof(Real), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(b_dev, b.data(), nb * sizeof(Real), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(c_dev, c0.data(), nc * sizeof(Real), cudaMemcpyHostToDevice) != cudaSuccess)
    return "upload failed";

  const bool null_ab = c.alpha.is_zero();  // A and B must not be read
  p.a = null_ab ? nullptr : a_dev;
  p.b = null_ab ? nullptr : b_dev;
  p.c = c_dev;
  if (!row.supports(p, caps)) return "supports() rejects the case";
  if (cudaError_t err = row.launch(p, nullptr); err != cudaSuccess)
    return std::string("launch: ") + cudaGetErrorString(err);
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return std::string("kernel: ") + cudaGetErrorString(err);
  std::vector<Real> got(nc);
  if (cudaMemcpy(got.data(), c_dev, nc * sizeof(Real), cudaMemcpyDeviceToHost) != cudaSuccess)
    return "download failed";

  // The reference (OpenBLAS may read C when beta == 0: it gets zeros there) and the bound's S.
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if (!blas.error.empty()) return blas.error;
  const int m = int(p.m), n = int(p.n), k = int(p.k);
  std::vector<Real> ref = c0;
  if (c.beta.is_zero()) std::fill(ref.begin(), ref.end(), Real(0));
  const Real alpha[2] = {Real(c.alpha.re), Real(c.alpha.im)};
  const Real beta[2] = {Real(c.beta.re), Real(c.beta.im)};
  openblas_gemm<Real>(type, op_char(c.ta), op_char(c.tb), m, n, k, alpha, a.data(), int(p.lda),
                      b.data(), int(p.ldb), beta, ref.data(), int(p.ldc));
  auto moduli = [&](const std::vector<Real>& x) {
    std::vector<Real> out(x.size() / comps);
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = cplx ? std::hypot(x[2 * i], x[2 * i + 1]) : std::fabs(x[i]);
    }
    return out;
  };
  std::vector<Real> scale(size_t(p.ldc * p.n), Real(0));
  const double abs_beta = std::hypot(c.beta.re, c.beta.im);
  if (!c.beta.is_zero()) scale = moduli(c0);
  const char ta = c.ta == Op::kNoTrans ? 'N' : 'T', tb = c.tb == Op::kNoTrans ? 'N' : 'T';
  openblas_real_gemm<Real>(ta, tb, m, n, k, Real(std::hypot(c.alpha.re, c.alpha.im)),
                           moduli(a).data(), int(p.lda), moduli(b).data(), int(p.ldb),
                           Real(abs_beta), scale.data(), int(p.ldc));

  const double eps = sizeof(Real) == 8 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  const double factor = (cplx ? 4.0 : 2.0) * eps * double(p.k + 2);
  double norm = 0.0, ref_norm = 0.0;
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.ldc; ++i) {
      const size_t at = size_t(i + j * p.ldc);
      for (int r = 0; r < comps; ++r) {
        const size_t e = at * comps + r;
        if (i >= p.m) {  // padding row: untouched, bit for bit
          if (std::memcmp(&got[e], &c0[e], sizeof(Real)) != 0)
            return "padding row " + std::to_string(i) + " of column " + std::to_string(j) +
                   " written";
          continue;
        }
        const double g = got[e], want = ref[e];
        norm += g * g;
        ref_norm += want * want;
        const bool ok =
            c.integers ? g == want : std::fabs(g - want) <= factor * double(scale[at]) + 1e-300;
        if (!ok) {
          std::ostringstream msg;
          msg.precision(17);
          msg << "C(" << i << "," << j << ")" << (cplx ? (r ? ".im" : ".re") : "") << " = " << g
              << ", want " << want << " (bound " << factor * double(scale[at]) << ")";
          return msg.str();
        }
      }
    }
  }
  if (ref_norm > 0.0 && norm == 0.0) return "result is all zeros";
  // Random data: the elementwise bound above is the worst case; typical rounding is far smaller,
  // ~eps sqrt(k) |C|. A product summed in lower precision than the type's (or rounded twice) would
  // still pass the worst case at large k, so the whole result must also lie within
  // 32 eps sqrt(k + 2) of OpenBLAS's in the Frobenius norm.
  // (Only where k and the count of elements are large enough for the norms to average out a
  // single element's cancellation.)
  if (!c.integers && ref_norm > 0.0 && !c.alpha.is_zero() && p.k >= 32 && p.m * p.n >= 64) {
    double diff = 0.0;
    for (int64_t j = 0; j < p.n; ++j) {
      for (int64_t i = 0; i < p.m; ++i) {
        for (int r = 0; r < comps; ++r) {
          const size_t e = size_t(i + j * p.ldc) * comps + r;
          diff += (double(got[e]) - double(ref[e])) * (double(got[e]) - double(ref[e]));
        }
      }
    }
    const double rel = std::sqrt(diff / ref_norm), limit = 32.0 * eps * std::sqrt(double(p.k + 2));
    if (!(rel <= limit)) {
      std::ostringstream msg;
      msg << "||C - ref|| / ||ref|| = " << rel << " above " << limit;
      return msg.str();
    }
  }
  return "";
}

std::string run_case(const GemmKernel& row, const DeviceCaps& caps, const Case& c) {
  return type_of(row) == DataType::kC32 ? run_typed<float>(row, caps, c)
                                        : run_typed<double>(row, caps, c);
}

const std::vector<int64_t> kDims = {1,  2,  3,   7,   8,   15,  16,  17,  31,  33,  63,
                                    64, 65, 127, 128, 129, 255, 257, 300, 513, 1000};
const std::vector<int64_t> kSmallDims = {1, 2, 7, 16, 17, 33, 64, 65, 127, 129};

std::vector<Op> ops_of(DataType t) {
  if (tileblas::is_complex(t)) return {Op::kNoTrans, Op::kTrans, Op::kConjTrans};
  return {Op::kNoTrans, Op::kTrans};
}
std::vector<Scalar> scalars_of(DataType t, bool integers) {
  std::vector<Scalar> v =
      integers ? std::vector<Scalar>{0.0, 1.0, -2.0} : std::vector<Scalar>{0.0, 1.0, 0.7, -2.0};
  if (tileblas::is_complex(t)) {
    if (integers) {
      v.push_back(Scalar(0.0, 1.0));
      v.push_back(Scalar(2.0, -1.0));
    } else {
      v.push_back(Scalar(0.7, -0.3));
      v.push_back(Scalar(0.0, 1.0));
    }
  }
  return v;
}

Case random_case(const GemmKernel& row, const std::vector<int64_t>& dims, int64_t max_volume,
                 bool integers) {
  const DataType t = type_of(row);
  Case c;
  do {
    c.m = tbtest::pick(dims), c.n = tbtest::pick(dims), c.k = tbtest::pick(dims);
  } while (c.m * c.n * c.k > max_volume);
  c.ta = tbtest::pick(ops_of(t));
  c.tb = tbtest::pick(ops_of(t));
  c.alpha = tbtest::pick(scalars_of(t, integers));
  c.beta = tbtest::pick(scalars_of(t, integers));
  c.integers = integers;
  // Packed rows: both, so that operands read in place (aligned) and packed ones are covered.
  c.misaligned = is_scalarload(row) || (packs(row) && tbtest::pick(std::vector<bool>{false, true}));
  c.pad_a = tbtest::pick(std::vector<int64_t>{0, 1, 5, 16});
  c.pad_b = tbtest::pick(std::vector<int64_t>{0, 1, 5, 16});
  c.pad_c = tbtest::pick(std::vector<int64_t>{0, 1, 3});
  return c;
}

void run_cases(const std::vector<int64_t>& dims, int64_t max_volume, int cases_per_row) {
  const DeviceCaps caps = tbtest::device_caps();
  if (caps.sm_version < 80) GTEST_SKIP() << "needs sm_80; device is sm_" << caps.sm_version;
  for (const GemmKernel* row : rows()) {
    for (int i = 0; i < cases_per_row; ++i) {
      const Case c = random_case(*row, dims, max_volume, i % 2 == 0);
      const std::string err = run_case(*row, caps, c);
      EXPECT_EQ(err, "") << row->name << " " << c.str();
      if (!err.empty()) break;  // one failure per row is enough to read
    }
  }
}

// ---- No GPU needed ------------------------------------------------------------------------------

TEST(GemmF64ComplexRows, ExistForEveryTypeAndLoadPath) {
  for (const char* prefix : {"dgemm_", "zgemm_", "cgemm_"}) {
    int vector = 0, scalar = 0;
    for (const GemmKernel* row : rows()) {
      if (std::strncmp(row->name, prefix, 6) == 0) (is_scalarload(*row) ? scalar : vector)++;
    }
    EXPECT_GE(vector, 1) << prefix;
    EXPECT_GE(scalar, 1) << prefix;
  }
}

TEST(GemmF64ComplexRows, SupportsOnlyWhatTheyCompute) {
  const DeviceCaps caps = tbtest::hopper_caps();
  alignas(16) static double buffer[256];
  for (const GemmKernel* row : rows()) {
    const DataType t = type_of(*row);
    Problem p;
    p.m = p.n = p.k = 8;
    p.lda = p.ldb = p.ldc = 8;
    p.a = p.b = p.c = buffer;
    p.type = p.c_type = t;
    EXPECT_TRUE(row->supports(p, caps)) << row->name;
    for (Op op : ops_of(t)) {
      Problem q = p;
      q.trans_a = q.trans_b = op;
      EXPECT_TRUE(row->supports(q, caps)) << row->name << " " << tileblas::name_of(op);
    }
    Problem k0 = p;
    k0.k = 0;
    EXPECT_TRUE(row->supports(k0, caps)) << row->name;
    // Other element types (and mixed ones) are not this row's.
    for (DataType other : {DataType::kF32, DataType::kF16, DataType::kBF16, DataType::kF64,
                           DataType::kC32, DataType::kC64}) {
      if (other == t) continue;
      Problem q = p;
      q.type = q.c_type = other;
      EXPECT_FALSE(row->supports(q, caps)) << row->name << " " << tileblas::name_of(other);
      q = p;
      q.c_type = other;
      EXPECT_FALSE(row->supports(q, caps)) << row->name << " C " << tileblas::name_of(other);
    }
    DeviceCaps old = caps;
    old.sm_version = 75;
    EXPECT_FALSE(row->supports(p, old)) << row->name;
    Problem short_ld = p;
    short_ld.lda = 7;
    EXPECT_FALSE(row->supports(short_ld, caps)) << row->name;
    // One real element off 16-byte alignment and an odd leading dimension: scalar-load and packed
    // rows only.
    const size_t real_bytes = t == DataType::kC32 ? 4 : 8;
    Problem odd = p;
    odd.a = reinterpret_cast<const unsigned char*>(buffer) + real_bytes;
    EXPECT_EQ(row->supports(odd, caps), any_alignment(*row)) << row->name;
    odd = p;
    odd.lda = 9;
    // (An odd lda keeps zgemm's 16-byte elements aligned.)
    EXPECT_EQ(row->supports(odd, caps), any_alignment(*row) || t == DataType::kC64) << row->name;
  }
}

// The split-K rows exist for the three types and never take a triangle of C (syrk .. her2k's plans
// ask for one): a slice writes its tiles whole.
TEST(GemmF64ComplexRows, SplitKRowsTakeNoTriangle) {
  const DeviceCaps caps = tbtest::hopper_caps();
  alignas(16) static double buffer[256];
  int split_rows = 0;
  for (const GemmKernel* row : rows()) {
    if (!split_geometry(*row)) continue;
    ++split_rows;
    Problem p;
    p.m = p.n = p.k = 8;
    p.lda = p.ldb = p.ldc = 8;
    p.a = p.b = p.c = buffer;
    p.type = p.c_type = type_of(*row);
    EXPECT_TRUE(row->supports(p, caps)) << row->name;
    for (tileblas::Triangle t : {tileblas::Triangle::kLower, tileblas::Triangle::kUpper}) {
      p.c_triangle = t;
      EXPECT_FALSE(row->supports(p, caps)) << row->name;
    }
  }
  EXPECT_EQ(split_rows, 5);  // dgemm 16- and 8-byte loads, zgemm 16-byte loads, cgemm, widened
}

TEST(GemmF64ComplexRows, OlderRowsRejectTheNewTypes) {
  const DeviceCaps caps = tbtest::hopper_caps();
  alignas(16) static double buffer[256];
  for (const GemmKernel& row : tileblas::gemm_kernels()) {
    bool mine = false;
    for (const GemmKernel* r : rows()) mine |= r == &row;
    // The skinny rows serve every type of one precision throughout
    // (tests/kernels/test_gemm_skinny).
    if (mine || std::strncmp(row.name, "gemm_skinny_", 12) == 0) continue;
    for (DataType t : {DataType::kF64, DataType::kC32, DataType::kC64}) {
      Problem p;
      p.m = p.n = p.k = 8;
      p.lda = p.ldb = p.ldc = 8;
      p.a = p.b = p.c = buffer;
      p.type = p.c_type = t;
      p.allow_tf32 = true;
      EXPECT_FALSE(row.supports(p, caps)) << row.name << " " << tileblas::name_of(t);
    }
  }
}

// ---- GPU ----------------------------------------------------------------------------------------

TEST(GemmF64Complex, GridSubset) {
  TB_REQUIRE_GPU();
  run_cases(kDims, int64_t(2e7), 40);
}

// Every transpose pair of every row (each a kernel instantiation of its own), across tile edges.
TEST(GemmF64Complex, AllTransposes) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  for (const GemmKernel* row : rows()) {
    for (Op ta : ops_of(type_of(*row))) {
      for (Op tb : ops_of(type_of(*row))) {
        for (bool integers : {true, false}) {
          Case c = random_case(*row, {129}, int64_t(1e9), integers);
          c.ta = ta, c.tb = tb;
          c.m = 129, c.n = 131, c.k = integers ? 37 : 300;
          c.alpha = integers ? Scalar(2.0, -1.0) : Scalar(0.7, -0.3);
          c.beta = integers ? Scalar(-2.0) : Scalar(0.0, 1.0);
          if (!tileblas::is_complex(type_of(*row))) c.alpha.im = c.beta.im = 0.0;
          EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
        }
      }
    }
  }
}

TEST(GemmF64Complex, LargeShapes) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  for (const GemmKernel* row : rows()) {
    Case c = random_case(*row, {1024}, int64_t(2e9), false);
    c.m = 1000, c.n = 257, c.k = 1023;
    c.ta = Op::kNoTrans, c.tb = Op::kTrans;
    c.alpha = 0.7, c.beta = -2.0;
    EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
    c.m = 257, c.n = 1000, c.k = 2047;
    c.ta = tileblas::is_complex(type_of(*row)) ? Op::kConjTrans : Op::kTrans;
    c.tb = Op::kNoTrans;
    c.beta = 0.0;
    EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
    c.m = 130, c.n = 129, c.k = 8192;  // long k: the norm-wise check sees the accumulation
    c.ta = Op::kNoTrans;
    EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
  }
}

// The packed and peeled rows: m or n a few past a multiple of the tile (cgemm's packed row computes
// m remainders of 1..8 past 64 and n remainders of 1..8 past 128 as strips, 9 is a tile row; the
// peeled rows give remainders of 1..16 to gemm_skinny), alone, together, next to a dimension below
// one tile, with k below the strip blocks' 8-way split and not a multiple of it; every transpose,
// operands read in place and packed (aligned and misaligned where the row takes both).
TEST(GemmF64Complex, ThinRemaindersOfTiles) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  const int64_t shapes[][3] = {{65, 136, 3},     {72, 129, 33},  {129, 257, 9}, {4097, 200, 64},
                               {200, 4097, 19},  {73, 137, 17},  {1, 129, 7},   {65, 64, 100},
                               {513, 385, 1000}, {136, 8, 5},    {64, 129, 1},  {2, 2, 2},
                               {144, 272, 40},   {145, 273, 40}, {80, 80, 80}};
  for (const GemmKernel* row : rows()) {
    if (!is_packed(*row) && !is_peeled(*row)) continue;
    const std::vector<Op> ops = ops_of(type_of(*row));
    int i = 0;
    for (const auto& s : shapes) {
      for (bool misaligned : {false, true}) {
        if (misaligned && !any_alignment(*row)) continue;
        const bool integers = i / 2 % 2 == 0;  // exact results expected
        Case c = random_case(*row, {1}, 1, integers);
        c.m = s[0], c.n = s[1], c.k = s[2];
        c.ta = ops[i % ops.size()], c.tb = ops[(i / ops.size()) % ops.size()];
        c.misaligned = misaligned;
        c.alpha = integers ? Scalar(2.0, -1.0) : Scalar(0.7, -0.3);
        c.beta = i % 3 == 0 ? Scalar(0.0) : integers ? Scalar(-2.0, 1.0) : Scalar(-2.0, 0.5);
        if (!tileblas::is_complex(type_of(*row))) c.alpha.im = c.beta.im = 0.0;
        EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
        ++i;
      }
    }
  }
}

// Split-K case i of `row` at shape s: the transposes cycle, integer (exact) and random data
// alternate, real and complex scalars, beta == 0 (NaN in C) and not.
Case split_case(const GemmKernel& row, int i, const std::array<int64_t, 3>& s) {
  // Integer data takes integer scalars (the result is then exact).
  const std::vector<Scalar> alphas[2] = {{Scalar(0.7, -0.3), Scalar(1.0), Scalar(-0.5, 2.0)},
                                         {Scalar(2.0, -1.0), Scalar(1.0), Scalar(-2.0, 1.0)}};
  const std::vector<Scalar> betas[2] = {{Scalar(0.0), Scalar(-2.0, 0.5), Scalar(1.0)},
                                        {Scalar(0.0), Scalar(-2.0, 1.0), Scalar(1.0)}};
  const DataType t = type_of(row);
  const std::vector<Op> ops = ops_of(t);
  const bool integers = i % 2 == 0;
  Case c = random_case(row, {1}, 1, integers);
  c.m = s[0], c.n = s[1], c.k = s[2];
  c.ta = ops[i % ops.size()], c.tb = ops[(i / ops.size()) % ops.size()];
  c.alpha = alphas[integers][(i / 2) % 3];
  c.beta = betas[integers][(i / 6) % 3];
  if (!tileblas::is_complex(t)) c.alpha.im = c.beta.im = 0.0;
  return c;
}

// The split-K rows on shapes their slice rule cuts into several slices (the last one shorter, k
// not a whole number of k-tiles), two cases a shape (split_case()).
void run_split_cases(const std::vector<std::array<int64_t, 3>>& shapes) {
  const DeviceCaps caps = tbtest::device_caps();
  if (caps.sm_version < 80) GTEST_SKIP() << "needs sm_80; device is sm_" << caps.sm_version;
  for (const GemmKernel* row : rows()) {
    const tileblas::splitk::Geometry* g = split_geometry(*row);
    if (!g) continue;
    int i = 0;
    for (const auto& s : shapes) {
      EXPECT_GE(tileblas::splitk::slices_for(*g, s[0], s[1], s[2], caps.num_sms).count, 2)
          << row->name << " " << s[0] << "x" << s[1] << "x" << s[2] << " is not split";
      for (int rep = 0; rep < 2; ++rep, ++i) {
        const Case c = split_case(*row, i, s);
        EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
      }
    }
  }
}

TEST(GemmF64Complex, SplitKSlices) {
  TB_REQUIRE_GPU();
  run_split_cases({{130, 129, 8192},
                   {1000, 257, 1023},
                   {17, 33, 1000},
                   {1, 1, 4099},
                   {300, 7, 513},
                   {129, 65, 2049},
                   {64, 64, 65536}});
}

// The complex 64x64 split-K rows (kZgemmClusterSplitK on a device with clusters): every slice
// count they sum in the cluster and one past it (the workspace and the reduce). 4 tiles, so k (32
// a slice at least) sets the count on 16 SMs or more; k not always a whole number of k-tiles.
TEST(GemmF64Complex, ClusterSliceCounts) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  if (caps.sm_version < 80) GTEST_SKIP() << "needs sm_80; device is sm_" << caps.sm_version;
  const tileblas::splitk::Geometry& g = tileblas::gemm_f64_mma::kZgemmClusterSplitK;
  int rows_run = 0;
  for (const GemmKernel* row : rows()) {
    if (split_geometry(*row) != &tileblas::gemm_f64_mma::kZgemmSplitK) continue;
    ++rows_run;
    int i = 0;
    for (int64_t slices = 2; slices <= tileblas::splitk::kMaxClusterSlices + 1; ++slices, ++i) {
      const std::array<int64_t, 3> s{100 + i % 29, 70, 32 * slices - (i % 2 ? 5 : 0)};
      if (caps.num_sms >= 16) {
        EXPECT_EQ(tileblas::splitk::slices_for(g, s[0], s[1], s[2], caps.num_sms).count, slices)
            << row->name;
      }
      const Case c = split_case(*row, i, s);
      EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
    }
  }
  EXPECT_EQ(rows_run, 2) << "zgemm_splitk_64x64x8 and cgemm_widened_splitk_64x64x8";
}

TEST(GemmF64Complex, ZeroKAndZeroAlphaScaleC) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  for (const GemmKernel* row : rows()) {
    for (Scalar beta : {Scalar(0.0), Scalar(-2.0), Scalar(0.0, 1.0)}) {
      if (!tileblas::is_complex(type_of(*row)) && beta.im != 0.0) continue;
      Case c = random_case(*row, {33}, int64_t(1e6), true);
      c.k = 0, c.alpha = 1.0, c.beta = beta;
      EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
      c.k = 17, c.alpha = 0.0;  // A and B are null
      EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
    }
  }
}

TEST(GemmF64ComplexSmall, QuickSubset) {
  TB_REQUIRE_GPU();
  run_cases(kSmallDims, int64_t(3e5), 8);
}

TEST(GemmF64ComplexSmall, SplitKSlices) {
  TB_REQUIRE_GPU();
  run_split_cases({{17, 33, 1000}, {1, 7, 513}, {65, 2, 300}, {33, 17, 257}, {130, 100, 250}});
}

}  // namespace
