// API tier for the 16-bit GEMMs: hgemm_, cblas_hgemm, gemm_f16f16f32_, cblas_gemm_f16f16f32,
// gemm_bf16bf16f32_, cblas_gemm_bf16bf16f32, sbgemm_, cblas_sbgemm through libtileblas.so, against
// a float64 reference on the fp32-upcast inputs: column and row major, every transpose, padded
// leading dimensions, alpha/beta in {0, 1, 0.7, -2}, NaN-poisoned C when beta == 0, padding of C
// untouched.
//   - integer-valued inputs: exact (C equals the reference rounded once to C's type);
//   - random inputs: |C - ref| <= 2 * 2^-24 * (k + 2) * S + out_eps * |ref| with
//     S = |alpha| sum |a||b| + |beta c| (the inputs are exact in their format, so only fp32
//     accumulation and the final rounding of C err; out_eps = 2^-11 for an fp16 C, 0 for fp32;
//     plus 2^-25 for an fp16 C, half its subnormal spacing).
// Bad arguments: an xerbla_ / cblas_xerbla defined here (interposing libtileblas.so's weak
// defaults) records the routine name and parameter number; C must stay untouched.
// Runs on the CPU in CI; with a GPU the cases also run on device memory (GPU kernels).
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdarg>
#include <cstring>
#include <string>
#include <vector>

#include "half_convert.h"
#include "test_support.h"
#include "tileblas.h"
#include "xerbla_recorder.h"

namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112;

enum class Symbol {
  kHgemmF,
  kHgemmC,
  kF16F32F,
  kF16F32C,
  kBf16F32F,
  kBf16F32C,
  kSbgemmF,
  kSbgemmC
};
const Symbol kAllSymbols[] = {Symbol::kHgemmF,  Symbol::kHgemmC,   Symbol::kF16F32F,
                              Symbol::kF16F32C, Symbol::kBf16F32F, Symbol::kBf16F32C,
                              Symbol::kSbgemmF, Symbol::kSbgemmC};

const char* name_of(Symbol s) {
  switch (s) {
    case Symbol::kHgemmF:
      return "hgemm_";
    case Symbol::kHgemmC:
      return "cblas_hgemm";
    case Symbol::kF16F32F:
      return "gemm_f16f16f32_";
    case Symbol::kF16F32C:
      return "cblas_gemm_f16f16f32";
    case Symbol::kBf16F32F:
      return "gemm_bf16bf16f32_";
    case Symbol::kBf16F32C:
      return "cblas_gemm_bf16bf16f32";
    case Symbol::kSbgemmF:
      return "sbgemm_";
    case Symbol::kSbgemmC:
      return "cblas_sbgemm";
  }
  return "?";
}
bool is_fortran(Symbol s) {
  return s == Symbol::kHgemmF || s == Symbol::kF16F32F || s == Symbol::kBf16F32F ||
         s == Symbol::kSbgemmF;
}
bool ab_is_bf16(Symbol s) {
  return s == Symbol::kBf16F32F || s == Symbol::kBf16F32C || s == Symbol::kSbgemmF ||
         s == Symbol::kSbgemmC;
}
bool c_is_f16(Symbol s) { return s == Symbol::kHgemmF || s == Symbol::kHgemmC; }

uint16_t to_ab(float v, Symbol s) {
  return ab_is_bf16(s) ? tileblas::float_to_bf16(v) : tileblas::float_to_half(v);
}
float from_ab(uint16_t v, Symbol s) {
  return ab_is_bf16(s) ? tileblas::bf16_to_float(v) : tileblas::half_to_float(v);
}

// C as its symbol stores it (fp16 bits for hgemm, fp32 otherwise), with float views.
struct CStore {
  bool f16;
  std::vector<uint16_t> h;
  std::vector<float> f;
  CStore(bool is_f16, size_t n) : f16(is_f16) {
    if (f16)
      h.resize(n);
    else
      f.resize(n);
  }
  size_t size() const { return f16 ? h.size() : f.size(); }
  float get(size_t i) const { return f16 ? tileblas::half_to_float(h[i]) : f[i]; }
  void set(size_t i, float v) {
    if (f16)
      h[i] = tileblas::float_to_half(v);
    else
      f[i] = v;
  }
  void* data() { return f16 ? static_cast<void*>(h.data()) : static_cast<void*>(f.data()); }
  size_t bytes() const { return size() * (f16 ? 2 : 4); }
  bool same_bits(size_t i, const CStore& o) const {
    return f16 ? h[i] == o.h[i] : std::memcmp(&f[i], &o.f[i], 4) == 0;
  }
};

// Calls `s` with CBLAS-style arguments (Fortran symbols: column major only).
void call(Symbol s, int layout, bool ta, bool tb, int m, int n, int k, float alpha,
          const uint16_t* a, int lda, const uint16_t* b, int ldb, float beta, void* c, int ldc) {
  const char cta = ta ? 'T' : 'N', ctb = tb ? 'T' : 'N';
  const int ita = ta ? kTrans : kNoTrans, itb = tb ? kTrans : kNoTrans;
  const uint16_t ha = tileblas::float_to_half(alpha), hb = tileblas::float_to_half(beta);
  float* cf = static_cast<float*>(c);
  uint16_t* ch = static_cast<uint16_t*>(c);
  switch (s) {
    case Symbol::kHgemmF:
      hgemm_(&cta, &ctb, &m, &n, &k, &ha, a, &lda, b, &ldb, &hb, ch, &ldc);
      break;
    case Symbol::kHgemmC:
      cblas_hgemm(layout, ita, itb, m, n, k, ha, a, lda, b, ldb, hb, ch, ldc);
      break;
    case Symbol::kF16F32F:
      gemm_f16f16f32_(&cta, &ctb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, cf, &ldc);
      break;
    case Symbol::kF16F32C:
      cblas_gemm_f16f16f32(layout, ita, itb, m, n, k, alpha, a, lda, b, ldb, beta, cf, ldc);
      break;
    case Symbol::kBf16F32F:
      gemm_bf16bf16f32_(&cta, &ctb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, cf, &ldc);
      break;
    case Symbol::kBf16F32C:
      cblas_gemm_bf16bf16f32(layout, ita, itb, m, n, k, alpha, a, lda, b, ldb, beta, cf, ldc);
      break;
    case Symbol::kSbgemmF:
      sbgemm_(&cta, &ctb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, cf, &ldc);
      break;
    case Symbol::kSbgemmC:
      cblas_sbgemm(layout, ita, itb, m, n, k, alpha, a, lda, b, ldb, beta, cf, ldc);
      break;
  }
}

struct Case {
  Symbol sym;
  int layout;
  bool ta, tb;
  int m, n, k;
  float alpha, beta;
  int pad;
  bool integers;
  bool device;  // A, B, C in device memory
};

std::string describe(const Case& c) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s %s %s%s m=%d n=%d k=%d alpha=%g beta=%g pad=%d %s%s",
                name_of(c.sym), c.layout == kRowMajor ? "row" : "col", c.ta ? "T" : "N",
                c.tb ? "T" : "N", c.m, c.n, c.k, c.alpha, c.beta, c.pad,
                c.integers ? "integers" : "random", c.device ? " device" : "");
  return buf;
}

void run_case(const Case& c) {
  SCOPED_TRACE(describe(c));
  const bool row = c.layout == kRowMajor;
  const int a_rows = c.ta ? c.k : c.m, a_cols = c.ta ? c.m : c.k;
  const int b_rows = c.tb ? c.n : c.k, b_cols = c.tb ? c.k : c.n;
  const int lda = std::max((row ? a_cols : a_rows) + c.pad, 1);
  const int ldb = std::max((row ? b_cols : b_rows) + c.pad, 1);
  const int ldc = std::max((row ? c.n : c.m) + c.pad, 1);
  const size_t a_size = size_t(lda) * std::max(row ? a_rows : a_cols, 1);
  const size_t b_size = size_t(ldb) * std::max(row ? b_rows : b_cols, 1);
  const size_t c_size = size_t(ldc) * std::max(row ? c.m : c.n, 1);
  auto values = [&](size_t n) {
    return c.integers ? tbtest::random_ints(n, -2, 2) : tbtest::random_floats(n);
  };
  std::vector<uint16_t> a(a_size), b(b_size);
  const std::vector<float> av = values(a_size), bv = values(b_size), cv = values(c_size);
  for (size_t i = 0; i < a_size; ++i) a[i] = to_ab(av[i], c.sym);
  for (size_t i = 0; i < b_size; ++i) b[i] = to_ab(bv[i], c.sym);
  CStore cs(c_is_f16(c.sym), c_size);
  for (size_t i = 0; i < c_size; ++i) cs.set(i, c.beta == 0.0f ? tbtest::nan_value() : cv[i]);
  const CStore before = cs;

  auto at = [row](size_t ld, int r, int col) { return row ? r * ld + col : r + col * ld; };
  std::vector<double> ref(size_t(c.m) * c.n), scale(size_t(c.m) * c.n);
  double ref_norm = 0;
  for (int i = 0; i < c.m; ++i) {
    for (int j = 0; j < c.n; ++j) {
      double s = 0, abs_s = 0;
      for (int l = 0; l < c.k; ++l) {
        const double x = from_ab(c.ta ? a[at(lda, l, i)] : a[at(lda, i, l)], c.sym);
        const double y = from_ab(c.tb ? b[at(ldb, j, l)] : b[at(ldb, l, j)], c.sym);
        s += x * y;
        abs_s += std::fabs(x * y);
      }
      double r = double(c.alpha) * s, sc = std::fabs(double(c.alpha)) * abs_s;
      if (c.beta != 0.0f) {
        r += double(c.beta) * before.get(at(ldc, i, j));
        sc += std::fabs(double(c.beta) * before.get(at(ldc, i, j)));
      }
      ref[i + size_t(j) * c.m] = r;
      scale[i + size_t(j) * c.m] = sc;
      ref_norm += r * r;
    }
  }

  const uint16_t* pa = a.data();
  const uint16_t* pb = b.data();
  void* pc = cs.data();
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  if (c.device) {
    ASSERT_EQ(cudaMalloc(&da, a_size * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&db, b_size * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dc, cs.bytes()), cudaSuccess);
    cudaMemcpy(da, a.data(), a_size * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b_size * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, cs.data(), cs.bytes(), cudaMemcpyHostToDevice);
    pa = static_cast<const uint16_t*>(da), pb = static_cast<const uint16_t*>(db), pc = dc;
  }
  tbtest::xerbla_record() = {};
  call(c.sym, c.layout, c.ta, c.tb, c.m, c.n, c.k, c.alpha, pa, lda, pb, ldb, c.beta, pc, ldc);
  EXPECT_EQ(tbtest::xerbla_record().calls, 0)
      << tbtest::xerbla_record().routine << " " << tbtest::xerbla_record().info;
  if (c.device) {
    ASSERT_EQ(cudaMemcpy(cs.data(), dc, cs.bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(da), cudaFree(db), cudaFree(dc);
  }

  const double out_eps = c_is_f16(c.sym) ? std::ldexp(1.0, -11) : 0.0;
  // Below fp16's normal range its spacing is fixed: half of it, 2^-25, bounds the rounding.
  const double out_abs = c_is_f16(c.sym) ? std::ldexp(1.0, -25) : 0.0;
  double norm = 0;
  for (int i = 0; i < c.m; ++i) {
    for (int j = 0; j < c.n; ++j) {
      const double got = cs.get(at(ldc, i, j)), want = ref[i + size_t(j) * c.m];
      norm += got * got;
      if (c.integers) {
        const double exact = c_is_f16(c.sym)
                                 ? tileblas::half_to_float(tileblas::float_to_half(float(want)))
                                 : double(float(want));
        ASSERT_EQ(got, exact) << "C(" << i << "," << j << ")";
      } else {
        const double tol = 2.0 * std::ldexp(1.0, -24) * (c.k + 2) * scale[i + size_t(j) * c.m] +
                           out_eps * std::fabs(want) + out_abs;
        ASSERT_LE(std::fabs(got - want), tol)
            << "C(" << i << "," << j << ") got " << got << " want " << want;
      }
    }
  }
  if (ref_norm > 0) EXPECT_GT(norm, 0.0);
  // Everything outside the m x n result (padding) is bit for bit what it was.
  for (size_t idx = 0; idx < c_size; ++idx) {
    const size_t r = row ? idx / ldc : idx % ldc, col = row ? idx % ldc : idx / ldc;
    const bool inside =
        row ? (r < size_t(c.m) && col < size_t(c.n)) : (r < size_t(c.m) && col < size_t(c.n));
    if (!inside) ASSERT_TRUE(cs.same_bits(idx, before)) << "padding element " << idx << " written";
  }
}

const int kDims[] = {1, 2, 3, 7, 16, 31, 33, 63, 64, 65, 127, 129};
const float kScalars[] = {0.0f, 1.0f, 0.7f, -2.0f};
const float kExactScalars[] = {0.0f, 1.0f, -2.0f};

template <class T, size_t N>
T pick(const T (&v)[N]) {
  return v[std::uniform_int_distribution<size_t>(0, N - 1)(tbtest::rng())];
}

Case random_case(Symbol s, bool integers, bool device) {
  Case c;
  c.sym = s;
  c.layout = is_fortran(s) ? kColMajor
                           : (std::uniform_int_distribution<int>(0, 1)(tbtest::rng()) ? kRowMajor
                                                                                      : kColMajor);
  c.ta = std::uniform_int_distribution<int>(0, 1)(tbtest::rng());
  c.tb = std::uniform_int_distribution<int>(0, 1)(tbtest::rng());
  c.m = pick(kDims), c.n = pick(kDims), c.k = pick(kDims);
  c.alpha = integers ? pick(kExactScalars) : pick(kScalars);
  c.beta = integers ? pick(kExactScalars) : pick(kScalars);
  c.pad = std::uniform_int_distribution<int>(0, 3)(tbtest::rng());
  c.integers = integers;
  c.device = device;
  if (c_is_f16(s)) {  // hgemm's alpha and beta are fp16: compute the reference with those values
    c.alpha = tileblas::half_to_float(tileblas::float_to_half(c.alpha));
    c.beta = tileblas::half_to_float(tileblas::float_to_half(c.beta));
  }
  return c;
}

TEST(Gemm16Api, IntegerExactAllSymbolsLayoutsTransposes) {
  for (Symbol s : kAllSymbols) {
    for (int layout : {kColMajor, kRowMajor}) {
      if (is_fortran(s) && layout == kRowMajor) continue;
      for (int t = 0; t < 4; ++t) {
        Case c = random_case(s, true, false);
        c.layout = layout, c.ta = t & 1, c.tb = t >> 1;
        run_case(c);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(Gemm16Api, RandomWithinBounds) {
  for (Symbol s : kAllSymbols) {
    for (int i = 0; i < 6; ++i) {
      run_case(random_case(s, false, false));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Gemm16Api, ZeroKAndZeroAlphaScaleC) {
  for (Symbol s : kAllSymbols) {
    for (float beta : {0.0f, -2.0f}) {
      Case c = random_case(s, true, false);
      c.k = 0, c.alpha = 1.0f, c.beta = beta;
      run_case(c);
      c.k = 17, c.alpha = 0.0f;
      run_case(c);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Gemm16Api, DeviceMemoryRunsOnGpu) {
  TB_REQUIRE_GPU();
  for (Symbol s : kAllSymbols) {
    for (int i = 0; i < 4; ++i) {
      Case c = random_case(s, i % 2 == 0, true);
      if (i == 3) c.m = 300, c.n = 257, c.k = 1000;  // several tiles, long k
      // beta == 1 with alpha == 0 (or k == 0) is the quick return: no route is taken then.
      if (c.beta == 1.0f) c.beta = -2.0f;
      run_case(c);
      if (HasFatalFailure()) return;
      EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU)
          << name_of(s) << " " << tileblas_last_reason();
    }
  }
}

// A bad argument is reported, with the routine's name and the parameter's number, and C stays.
void expect_error(Symbol s, int layout, char ta, char tb, int m, int n, int k, int lda, int ldb,
                  int ldc, const char* name, int info) {
  std::vector<uint16_t> a(4096, 0x3c00), b(4096, 0x3c00);
  CStore c(c_is_f16(s), 4096);
  for (size_t i = 0; i < c.size(); ++i) c.set(i, float(i % 7));
  const CStore before = c;
  tbtest::xerbla_record() = {};
  const char cta = ta, ctb = tb;
  const int ita = ta == 'N' ? kNoTrans : ta == 'T' ? kTrans : 0;
  const int itb = tb == 'N' ? kNoTrans : tb == 'T' ? kTrans : 0;
  const float one = 1.0f;
  const uint16_t hone = 0x3c00;
  uint16_t* ch = c.h.data();
  float* cf = c.f.data();
  switch (s) {
    case Symbol::kHgemmF:
      hgemm_(&cta, &ctb, &m, &n, &k, &hone, a.data(), &lda, b.data(), &ldb, &hone, ch, &ldc);
      break;
    case Symbol::kSbgemmF:
      sbgemm_(&cta, &ctb, &m, &n, &k, &one, a.data(), &lda, b.data(), &ldb, &one, cf, &ldc);
      break;
    case Symbol::kSbgemmC:
      cblas_sbgemm(layout, ita, itb, m, n, k, one, a.data(), lda, b.data(), ldb, one, cf, ldc);
      break;
    case Symbol::kHgemmC:
      cblas_hgemm(layout, ita, itb, m, n, k, hone, a.data(), lda, b.data(), ldb, hone, ch, ldc);
      break;
    default:
      FAIL() << "no error case for " << name_of(s);
  }
  EXPECT_EQ(tbtest::xerbla_record().calls, 1) << name_of(s);
  EXPECT_EQ(tbtest::xerbla_record().routine, name) << name_of(s);
  EXPECT_EQ(tbtest::xerbla_record().info, info) << name_of(s) << " expected parameter " << info;
  for (size_t i = 0; i < c.size(); ++i) ASSERT_TRUE(c.same_bits(i, before)) << "C written at " << i;
}

TEST(Gemm16Api, FortranErrorsReachXerbla) {
  expect_error(Symbol::kHgemmF, kColMajor, 'X', 'N', 4, 4, 4, 4, 4, 4, "HGEMM", 1);
  expect_error(Symbol::kHgemmF, kColMajor, 'N', 'Q', 4, 4, 4, 4, 4, 4, "HGEMM", 2);
  expect_error(Symbol::kHgemmF, kColMajor, 'N', 'N', -1, 4, 4, 4, 4, 4, "HGEMM", 3);
  expect_error(Symbol::kHgemmF, kColMajor, 'N', 'N', 4, -1, 4, 4, 4, 4, "HGEMM", 4);
  expect_error(Symbol::kHgemmF, kColMajor, 'N', 'N', 4, 4, -1, 4, 4, 4, "HGEMM", 5);
  expect_error(Symbol::kHgemmF, kColMajor, 'N', 'N', 4, 4, 4, 3, 4, 4, "HGEMM", 8);
  expect_error(Symbol::kHgemmF, kColMajor, 'T', 'N', 8, 4, 4, 3, 4, 8, "HGEMM", 8);
  expect_error(Symbol::kHgemmF, kColMajor, 'N', 'N', 4, 4, 5, 4, 4, 4, "HGEMM", 10);
  expect_error(Symbol::kHgemmF, kColMajor, 'N', 'N', 4, 4, 4, 4, 4, 3, "HGEMM", 13);
  expect_error(Symbol::kSbgemmF, kColMajor, 'N', 'T', 4, 6, 4, 4, 5, 4, "SBGEMM", 10);
  expect_error(Symbol::kSbgemmF, kColMajor, 'N', 'N', 4, 4, 4, 0, 4, 4, "SBGEMM", 8);
}

TEST(Gemm16Api, CblasErrorsReachCblasXerbla) {
  // Reference CBLAS numbering: layout 1, transa 2, transb 3, then the Fortran INFO + 1.
  expect_error(Symbol::kSbgemmC, 99, 'N', 'N', 4, 4, 4, 4, 4, 4, "cblas_sbgemm", 1);
  expect_error(Symbol::kSbgemmC, kColMajor, 'X', 'N', 4, 4, 4, 4, 4, 4, "cblas_sbgemm", 2);
  expect_error(Symbol::kSbgemmC, kColMajor, 'N', 'X', 4, 4, 4, 4, 4, 4, "cblas_sbgemm", 3);
  expect_error(Symbol::kSbgemmC, kColMajor, 'N', 'N', -1, 4, 4, 4, 4, 4, "cblas_sbgemm", 4);
  expect_error(Symbol::kSbgemmC, kColMajor, 'N', 'N', 4, 4, 4, 3, 4, 4, "cblas_sbgemm", 9);
  expect_error(Symbol::kSbgemmC, kColMajor, 'N', 'N', 4, 4, 5, 4, 4, 4, "cblas_sbgemm", 11);
  expect_error(Symbol::kSbgemmC, kColMajor, 'N', 'N', 4, 4, 4, 4, 4, 3, "cblas_sbgemm", 14);
  expect_error(Symbol::kHgemmC, kColMajor, 'N', 'N', 4, 4, 4, 4, 4, 3, "cblas_hgemm", 14);
  expect_error(Symbol::kHgemmC, 7, 'N', 'N', 4, 4, 4, 4, 4, 4, "cblas_hgemm", 1);
}

}  // namespace
