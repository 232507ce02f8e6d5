// Routines tileblas forwards to the CPU BLAS (compat/forwarders.txt), called through libtileblas's
// exported trampolines: each result must equal, bit for bit, the same routine of OpenBLAS called
// directly through the oracle's dlopen handle (the CPU BLAS here is that same OpenBLAS), and agree
// with a long double loop, so a trampoline that jumps to the wrong routine or loses an argument or
// return register fails. Each symbol's first call goes through the lazy stub that resolves it, so
// the scalar arguments in xmm registers (cblas_dgemv's alpha/beta, cblas_srot's c/s,
// cblas_sdsdot's alpha) check that the stub preserves them.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "test_support.h"
#include "tileblas.h"

namespace {

// Complex results of Fortran functions (gfortran ABI: in xmm0, or xmm0:xmm1 for double).
struct ComplexF {
  float re, im;
};
struct ComplexD {
  double re, im;
};

}  // namespace

extern "C" {
void dgemv_(const char*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*, size_t);
void cblas_dgemv(int, int, int, int, double, const double*, int, const double*, int, double,
                 double*, int);
double ddot_(const int*, const double*, const int*, const double*, const int*);
double cblas_ddot(int, const double*, int, const double*, int);
ComplexF cdotc_(const int*, const void*, const int*, const void*, const int*);
ComplexD zdotu_(const int*, const void*, const int*, const void*, const int*);
void cblas_cdotc_sub(int, const void*, int, const void*, int, void*);
void cblas_zdotc_sub(int, const void*, int, const void*, int, void*);
int isamax_(const int*, const float*, const int*);
size_t cblas_idamax(int, const double*, int);
void cblas_srot(int, float*, int, float*, int, float, float);
float cblas_sdsdot(int, float, const float*, int, const float*, int);
void srotg_(float*, float*, float*, float*);
}

namespace {

using DgemvFn = decltype(&dgemv_);
using CblasDgemvFn = decltype(&cblas_dgemv);
using DdotFn = decltype(&ddot_);
using CblasDdotFn = decltype(&cblas_ddot);
using CdotcFn = decltype(&cdotc_);
using ZdotuFn = decltype(&zdotu_);
using CdotSubFn = decltype(&cblas_cdotc_sub);
using IsamaxFn = decltype(&isamax_);
using CblasIdamaxFn = decltype(&cblas_idamax);
using CblasSrotFn = decltype(&cblas_srot);
using CblasSdsdotFn = decltype(&cblas_sdsdot);
using SrotgFn = decltype(&srotg_);

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112;

// OpenBLAS's own `name`, from the oracle's handle (RTLD_NOLOAD: the library test_support loaded).
template <class Fn>
Fn oracle(const char* name) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  EXPECT_EQ(blas.error, "");
  void* handle = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  EXPECT_NE(handle, nullptr) << "the oracle is not loaded";
  void* fn = handle ? dlsym(handle, name) : nullptr;
  EXPECT_NE(fn, nullptr) << "OpenBLAS has no " << name;
  return reinterpret_cast<Fn>(fn);
}

std::vector<double> random_doubles(size_t n) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = dist(tbtest::rng());
  return v;
}

bool same_bits(const void* a, const void* b, size_t bytes) { return std::memcmp(a, b, bytes) == 0; }

// Element (i, j) of op(A), A stored with leading dimension lda, column- or row-major.
double element(const std::vector<double>& a, int lda, bool trans, bool row_major, int i, int j) {
  const size_t r = trans ? j : i, c = trans ? i : j;
  return row_major ? a[r * lda + c] : a[r + c * lda];
}

// y = alpha*op(A)*x + beta*y0 (A m x n as stored, unit increments) in long double against y;
// returns "" or a message naming the first bad element.
std::string check_dgemv(bool row_major, bool trans, int m, int n, double alpha,
                        const std::vector<double>& a, int lda, const std::vector<double>& x,
                        double beta, const std::vector<double>& y0, const std::vector<double>& y) {
  const double eps = std::numeric_limits<double>::epsilon();
  const int rows = trans ? n : m, inner = trans ? m : n;
  for (int i = 0; i < rows; ++i) {
    long double sum = 0, abs_sum = 0;
    for (int l = 0; l < inner; ++l) {
      const long double p = (long double)element(a, lda, trans, row_major, i, l) * x[l];
      sum += p;
      abs_sum += std::fabs(p);
    }
    const long double want = alpha * sum + (beta == 0.0 ? 0.0L : beta * (long double)y0[i]);
    const long double scale = std::fabs(alpha) * abs_sum + std::fabs(beta * y0[i]);
    if (!(std::fabs(y[i] - want) <= 4 * eps * (inner + 2) * scale)) {
      return "y(" + std::to_string(i) + ") = " + std::to_string(y[i]) + ", expected " +
             std::to_string((double)want);
    }
  }
  return "";
}

struct GemvShape {
  int m, n;
};

TEST(ForwarderApi, DgemvMatchesOpenBlasAndLoop) {
  const auto openblas_dgemv = oracle<DgemvFn>("dgemv_");
  ASSERT_NE(openblas_dgemv, nullptr);
  const GemvShape shapes[] = {{1, 1}, {2, 7}, {31, 63}, {63, 2}, {97, 130}};
  for (const GemvShape& s : shapes) {
    for (bool trans : {false, true}) {
      const char tc = trans ? 'T' : 'N';
      const int lda = s.m + 3, one = 1;
      const double alpha = tbtest::pick(std::vector<double>{1.0, 0.7, -2.0});
      const double beta = tbtest::pick(std::vector<double>{0.0, 1.0, 0.7, -2.0});
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + " " + tc + " alpha " +
                   std::to_string(alpha) + " beta " + std::to_string(beta));
      const auto a = random_doubles(size_t(lda) * s.n);
      const auto x = random_doubles(size_t(trans ? s.m : s.n));
      const auto y0 = random_doubles(size_t(trans ? s.n : s.m));
      auto y = y0, y_oracle = y0;
      dgemv_(&tc, &s.m, &s.n, &alpha, a.data(), &lda, x.data(), &one, &beta, y.data(), &one, 1);
      openblas_dgemv(&tc, &s.m, &s.n, &alpha, a.data(), &lda, x.data(), &one, &beta,
                     y_oracle.data(), &one, 1);
      EXPECT_TRUE(same_bits(y.data(), y_oracle.data(), y.size() * sizeof(double)));
      EXPECT_EQ(check_dgemv(false, trans, s.m, s.n, alpha, a, lda, x, beta, y0, y), "");
    }
  }
}

TEST(ForwarderApi, CblasDgemvRowAndColumnMajor) {
  const auto openblas_dgemv = oracle<CblasDgemvFn>("cblas_dgemv");
  ASSERT_NE(openblas_dgemv, nullptr);
  for (bool row_major : {false, true}) {
    for (bool trans : {false, true}) {
      const int m = 29, n = 17;
      // The leading dimension counts columns in row-major storage.
      const int lda = (row_major ? n : m) + 2;
      const auto a = random_doubles(size_t(lda) * (row_major ? m : n));
      const auto x = random_doubles(size_t(trans ? m : n));
      const auto y0 = random_doubles(size_t(trans ? n : m));
      auto y = y0, y_oracle = y0;
      const int layout = row_major ? kRowMajor : kColMajor;
      const int t = trans ? kTrans : kNoTrans;
      SCOPED_TRACE(std::string(row_major ? "row" : "column") + "-major trans " +
                   (trans ? 'T' : 'N'));
      cblas_dgemv(layout, t, m, n, -0.7, a.data(), lda, x.data(), 1, 1.5, y.data(), 1);
      openblas_dgemv(layout, t, m, n, -0.7, a.data(), lda, x.data(), 1, 1.5, y_oracle.data(), 1);
      EXPECT_TRUE(same_bits(y.data(), y_oracle.data(), y.size() * sizeof(double)));
      EXPECT_EQ(check_dgemv(row_major, trans, m, n, -0.7, a, lda, x, 1.5, y0, y), "");
    }
  }
}

// Index of element i of a strided vector: netlib walks a negative increment from the far end.
size_t strided(int i, int n, int inc) {
  return inc >= 0 ? size_t(i) * inc : size_t(n - 1 - i) * -inc;
}

TEST(ForwarderApi, DdotWithIncrements) {
  const auto openblas_ddot = oracle<DdotFn>("ddot_");
  const auto openblas_cblas_ddot = oracle<CblasDdotFn>("cblas_ddot");
  ASSERT_TRUE(openblas_ddot && openblas_cblas_ddot);
  for (int n : {1, 7, 100, 1001}) {
    for (int incx : {1, 2, -3}) {
      for (int incy : {1, -1, 4}) {
        SCOPED_TRACE("n " + std::to_string(n) + " incx " + std::to_string(incx) + " incy " +
                     std::to_string(incy));
        const auto x = random_doubles(size_t(n) * std::abs(incx));
        const auto y = random_doubles(size_t(n) * std::abs(incy));
        long double want = 0, scale = 0;
        for (int i = 0; i < n; ++i) {
          const long double p = (long double)x[strided(i, n, incx)] * y[strided(i, n, incy)];
          want += p;
          scale += std::fabs(p);
        }
        ASSERT_GT(scale, 0);
        const double fortran = ddot_(&n, x.data(), &incx, y.data(), &incy);
        const double cblas = cblas_ddot(n, x.data(), incx, y.data(), incy);
        EXPECT_EQ(fortran, openblas_ddot(&n, x.data(), &incx, y.data(), &incy));
        EXPECT_EQ(cblas, openblas_cblas_ddot(n, x.data(), incx, y.data(), incy));
        const double tol = 4 * std::numeric_limits<double>::epsilon() * (n + 2) * (double)scale;
        EXPECT_NEAR(fortran, (double)want, tol);
        EXPECT_NEAR(cblas, (double)want, tol);
      }
    }
  }
}

TEST(ForwarderApi, ComplexDotsReturnInRegisters) {
  const auto openblas_cdotc = oracle<CdotcFn>("cdotc_");
  const auto openblas_zdotu = oracle<ZdotuFn>("zdotu_");
  ASSERT_TRUE(openblas_cdotc && openblas_zdotu);
  const int n = 53, inc = 1;
  const auto xf = tbtest::random_floats(2 * n), yf = tbtest::random_floats(2 * n);
  const auto xd = random_doubles(2 * n), yd = random_doubles(2 * n);
  std::complex<long double> want_c = 0, want_z = 0;
  long double scale_c = 0, scale_z = 0;
  for (int i = 0; i < n; ++i) {
    const std::complex<long double> x1(xf[2 * i], xf[2 * i + 1]), y1(yf[2 * i], yf[2 * i + 1]);
    const std::complex<long double> x2(xd[2 * i], xd[2 * i + 1]), y2(yd[2 * i], yd[2 * i + 1]);
    want_c += std::conj(x1) * y1;
    want_z += x2 * y2;
    scale_c += std::abs(x1) * std::abs(y1);
    scale_z += std::abs(x2) * std::abs(y2);
  }

  const ComplexF c = cdotc_(&n, xf.data(), &inc, yf.data(), &inc);
  const ComplexF c_oracle = openblas_cdotc(&n, xf.data(), &inc, yf.data(), &inc);
  EXPECT_TRUE(same_bits(&c, &c_oracle, sizeof c))
      << c.re << "," << c.im << " vs oracle " << c_oracle.re << "," << c_oracle.im;
  const double tol_c = 8 * std::numeric_limits<float>::epsilon() * (n + 2) * (double)scale_c;
  EXPECT_NEAR(c.re, (double)want_c.real(), tol_c);
  EXPECT_NEAR(c.im, (double)want_c.imag(), tol_c);

  const ComplexD z = zdotu_(&n, xd.data(), &inc, yd.data(), &inc);
  const ComplexD z_oracle = openblas_zdotu(&n, xd.data(), &inc, yd.data(), &inc);
  EXPECT_TRUE(same_bits(&z, &z_oracle, sizeof z));
  const double tol_z = 8 * std::numeric_limits<double>::epsilon() * (n + 2) * (double)scale_z;
  EXPECT_NEAR(z.re, (double)want_z.real(), tol_z);
  EXPECT_NEAR(z.im, (double)want_z.imag(), tol_z);
  EXPECT_NE(z.im, 0.0);

  // The CBLAS forms return through a pointer; they must agree with the Fortran ones.
  ComplexF c_sub{};
  cblas_cdotc_sub(n, xf.data(), inc, yf.data(), inc, &c_sub);
  EXPECT_TRUE(same_bits(&c_sub, &c_oracle, sizeof c_sub));
  ComplexD zc_sub{}, zc_oracle{};
  cblas_zdotc_sub(n, xd.data(), inc, yd.data(), inc, &zc_sub);
  oracle<CdotSubFn>("cblas_zdotc_sub")(n, xd.data(), inc, yd.data(), inc, &zc_oracle);
  EXPECT_TRUE(same_bits(&zc_sub, &zc_oracle, sizeof zc_sub));
  EXPECT_NE(zc_sub.im, z.im) << "zdotc must conjugate x: it cannot equal zdotu here";
}

TEST(ForwarderApi, IntegerResultsAndScalarArguments) {
  // isamax_ (1-based) and cblas_idamax (0-based): integer results in rax.
  const int n = 77, one = 1;
  auto xf = tbtest::random_floats(n);
  xf[41] = -3.0f;
  auto xd = random_doubles(n);
  xd[12] = 5.0;
  EXPECT_EQ(isamax_(&n, xf.data(), &one), 42);
  EXPECT_EQ(cblas_idamax(n, xd.data(), 1), 12u);

  // cblas_srot: c and s arrive in xmm0/xmm1.
  const auto x0 = tbtest::random_floats(n), y0 = tbtest::random_floats(n);
  auto x = x0, y = y0, x_oracle = x0, y_oracle = y0;
  const float cs = 0.6f, sn = -0.8f;
  cblas_srot(n, x.data(), 1, y.data(), 1, cs, sn);
  oracle<CblasSrotFn>("cblas_srot")(n, x_oracle.data(), 1, y_oracle.data(), 1, cs, sn);
  EXPECT_TRUE(same_bits(x.data(), x_oracle.data(), n * sizeof(float)));
  EXPECT_TRUE(same_bits(y.data(), y_oracle.data(), n * sizeof(float)));
  const double eps_f = std::numeric_limits<float>::epsilon();
  for (int i = 0; i < n; ++i) {
    const double scale = std::fabs(cs * x0[i]) + std::fabs(sn * y0[i]);
    ASSERT_NEAR(x[i], double(cs) * x0[i] + double(sn) * y0[i], 4 * eps_f * scale) << i;
    ASSERT_NEAR(y[i], double(cs) * y0[i] - double(sn) * x0[i], 4 * eps_f * scale) << i;
  }

  // cblas_sdsdot: a float argument in xmm0 and a float result in xmm0.
  const float sb = 0.25f;
  const float dot = cblas_sdsdot(n, sb, x0.data(), 1, y0.data(), 1);
  EXPECT_EQ(dot, oracle<CblasSdsdotFn>("cblas_sdsdot")(n, sb, x0.data(), 1, y0.data(), 1));
  // The reference accumulates in double; OpenBLAS's kernels may not, so the bound is fp32's.
  double want = sb, scale = std::fabs(sb);
  for (int i = 0; i < n; ++i) {
    want += double(x0[i]) * y0[i];
    scale += std::fabs(double(x0[i]) * y0[i]);
  }
  EXPECT_NEAR(dot, want, 2 * eps_f * (n + 2) * scale);

  // srotg_: everything through pointers, results written back.
  float a = 3.0f, b = 4.0f, c = 0.0f, s = 0.0f;
  srotg_(&a, &b, &c, &s);
  EXPECT_FLOAT_EQ(a, 5.0f);
  EXPECT_FLOAT_EQ(c, 0.6f);
  EXPECT_FLOAT_EQ(s, 0.8f);
}

TEST(ForwarderApi, ExportedFromTileblasAndResolvedToCpuBlas) {
  for (const char* name : {"dgemv_", "cblas_dgemv", "cdotc_", "cblas_idamax", "lsame_"}) {
    void* sym = dlsym(RTLD_DEFAULT, name);
    ASSERT_NE(sym, nullptr) << name;
    Dl_info info{};
    ASSERT_NE(dladdr(sym, &info), 0);
    EXPECT_NE(std::strstr(info.dli_fname, "libtileblas"), nullptr)
        << name << " resolves to " << info.dli_fname;
  }
  tileblas_config config;
  tileblas_get_config(&config);
  EXPECT_NE(std::strstr(config.cpu_blas, "openblas"), nullptr) << config.cpu_blas;
}

}  // namespace
