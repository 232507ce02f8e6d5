// Bad arguments to CBLAS routines tileblas forwards to the CPU BLAS (compat/forwarders.txt): each
// is reported once, to cblas_xerbla, with the reference CBLAS's routine name and argument number,
// in column-major and row-major calls. The cases and their numbers are those of the reference
// CBLAS testers (c_d2chke.c, c_d3chke.c, c_z2chke.c); this program's cblas_xerbla maps row-major
// positions back as theirs (c_xerbla.c) does, reading RowMajorStrg. Unlike the testers it has no
// xerbla_ of its own: the Fortran-numbered report of the CPU BLAS reaches tileblas's. ctest runs it
// twice: over OpenBLAS, and over the reference BLAS (TILEBLAS_CPU_BLAS).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <complex>
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

extern "C" {
// The reference CBLAS's global (tileblas sets it while reporting a row-major call), and this
// program's cblas_xerbla, both exported for libtileblas to find (tests/CMakeLists.txt).
__attribute__((visibility("default"))) int RowMajorStrg = 0;

void cblas_dgemv(int layout, int trans, int m, int n, double alpha, const double* a, int lda,
                 const double* x, int incx, double beta, double* y, int incy);
void cblas_zgemv(int layout, int trans, int m, int n, const void* alpha, const void* a, int lda,
                 const void* x, int incx, const void* beta, void* y, int incy);
void cblas_dger(int layout, int m, int n, double alpha, const double* x, int incx, const double* y,
                int incy, double* a, int lda);
void cblas_dtrsm(int layout, int side, int uplo, int trans, int diag, int m, int n, double alpha,
                 const double* a, int lda, double* b, int ldb);
void cblas_dsyrk(int layout, int uplo, int trans, int n, int k, double alpha, const double* a,
                 int lda, double beta, double* c, int ldc);
void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y,
            const int* incy, size_t trans_len);
}

namespace {

struct Report {
  std::string routine;
  int info;  // as the caller numbers its arguments (row-major positions mapped back)
};

std::vector<Report> g_reports;
// While set, reports also go on to libtileblas's own cblas_xerbla (which prints to stderr).
bool g_passthrough = false;

// c_xerbla.c's mapping of row-major positions, for the routines below.
int caller_position(const char* rout, int info) {
  if (!RowMajorStrg) return info;
  auto swap = [&info](int p, int q) { info = info == p ? q : info == q ? p : info; };
  if (std::strstr(rout, "trsm")) swap(6, 7);
  if (std::strstr(rout, "gemv")) swap(3, 4);
  if (std::strstr(rout, "ger")) {
    swap(2, 3);
    swap(6, 8);
  }
  return info;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void cblas_xerbla(int info, const char* rout,
                                                                    const char* form, ...) {
  g_reports.push_back({rout, caller_position(rout, info)});
  if (g_passthrough) {
    using Fn = void (*)(int, const char*, const char*, ...);
    reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "cblas_xerbla"))(info, rout, "%s", form);
  }
}

namespace {

constexpr int kRow = 101, kCol = 102, kNoTrans = 111, kTrans = 112, kUpper = 121, kLeft = 141,
              kRight = 142, kNonUnit = 131, kInvalid = -1;

struct Case {
  int info;  // expected, as the reference CBLAS testers expect it
  std::function<void()> call;
};

double a[4], x[4], y[4];
std::complex<double> za[4], zx[4], zy[4], zalpha, zbeta;

void expect_reports(const char* routine, const std::vector<Case>& cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    g_reports.clear();
    cases[i].call();
    ASSERT_EQ(g_reports.size(), 1u)
        << routine << " case " << i << " (expected " << cases[i].info << ")";
    EXPECT_EQ(g_reports[0].routine, routine) << "case " << i;
    EXPECT_EQ(g_reports[0].info, cases[i].info) << routine << " case " << i;
  }
}

TEST(ForwardedCblasErrors, Dgemv) {
  auto gemv = [](int layout, int trans, int m, int n, int lda, int incx, int incy) {
    return [=] { cblas_dgemv(layout, trans, m, n, 0.0, a, lda, x, incx, 0.0, y, incy); };
  };
  expect_reports("cblas_dgemv", {{1, gemv(kInvalid, kNoTrans, 0, 0, 1, 1, 1)},
                                 {2, gemv(kCol, kInvalid, 0, 0, 1, 1, 1)},
                                 {3, gemv(kCol, kNoTrans, kInvalid, 0, 1, 1, 1)},
                                 {4, gemv(kCol, kNoTrans, 0, kInvalid, 1, 1, 1)},
                                 {7, gemv(kCol, kNoTrans, 2, 0, 1, 1, 1)},
                                 {9, gemv(kCol, kNoTrans, 0, 0, 1, 0, 1)},
                                 {12, gemv(kCol, kNoTrans, 0, 0, 1, 1, 0)},
                                 {2, gemv(kRow, kInvalid, 0, 0, 1, 1, 1)},
                                 {3, gemv(kRow, kNoTrans, kInvalid, 0, 1, 1, 1)},
                                 {4, gemv(kRow, kNoTrans, 0, kInvalid, 1, 1, 1)},
                                 {7, gemv(kRow, kNoTrans, 0, 2, 1, 1, 1)},
                                 {9, gemv(kRow, kNoTrans, 0, 0, 1, 0, 1)},
                                 {12, gemv(kRow, kNoTrans, 0, 0, 1, 1, 0)}});
}

TEST(ForwardedCblasErrors, Zgemv) {
  auto gemv = [](int layout, int m, int n, int lda) {
    return [=] { cblas_zgemv(layout, kTrans, m, n, &zalpha, za, lda, zx, 1, &zbeta, zy, 1); };
  };
  expect_reports("cblas_zgemv", {{3, gemv(kCol, kInvalid, 0, 1)},
                                 {7, gemv(kCol, 2, 0, 1)},
                                 {3, gemv(kRow, kInvalid, 0, 1)},
                                 {4, gemv(kRow, 0, kInvalid, 1)},
                                 {7, gemv(kRow, 0, 2, 1)}});
}

TEST(ForwardedCblasErrors, Dger) {
  auto ger = [](int layout, int m, int n, int incx, int incy, int lda) {
    return [=] { cblas_dger(layout, m, n, 0.0, x, incx, y, incy, a, lda); };
  };
  expect_reports("cblas_dger", {{2, ger(kCol, kInvalid, 0, 1, 1, 1)},
                                {3, ger(kCol, 0, kInvalid, 1, 1, 1)},
                                {6, ger(kCol, 0, 0, 0, 1, 1)},
                                {8, ger(kCol, 0, 0, 1, 0, 1)},
                                {10, ger(kCol, 2, 0, 1, 1, 1)},
                                {2, ger(kRow, kInvalid, 0, 1, 1, 1)},
                                {3, ger(kRow, 0, kInvalid, 1, 1, 1)},
                                {6, ger(kRow, 0, 0, 0, 1, 1)},
                                {8, ger(kRow, 0, 0, 1, 0, 1)},
                                {10, ger(kRow, 0, 2, 1, 1, 1)}});
}

TEST(ForwardedCblasErrors, Dtrsm) {
  auto trsm = [](int layout, int side, int uplo, int trans, int m, int n, int lda, int ldb) {
    return [=] { cblas_dtrsm(layout, side, uplo, trans, kNonUnit, m, n, 0.0, a, lda, x, ldb); };
  };
  expect_reports("cblas_dtrsm", {{1, trsm(kInvalid, kLeft, kUpper, kNoTrans, 0, 0, 1, 1)},
                                 {2, trsm(kCol, kInvalid, kUpper, kNoTrans, 0, 0, 1, 1)},
                                 {3, trsm(kCol, kLeft, kInvalid, kNoTrans, 0, 0, 1, 1)},
                                 {4, trsm(kCol, kLeft, kUpper, kInvalid, 0, 0, 1, 1)},
                                 {6, trsm(kCol, kLeft, kUpper, kNoTrans, kInvalid, 0, 1, 1)},
                                 {7, trsm(kCol, kRight, kUpper, kTrans, 0, kInvalid, 1, 1)},
                                 {10, trsm(kCol, kLeft, kUpper, kNoTrans, 2, 0, 1, 2)},
                                 {12, trsm(kCol, kLeft, kUpper, kNoTrans, 2, 0, 2, 1)},
                                 {6, trsm(kRow, kLeft, kUpper, kNoTrans, kInvalid, 0, 1, 1)},
                                 {7, trsm(kRow, kRight, kUpper, kTrans, 0, kInvalid, 1, 1)},
                                 {10, trsm(kRow, kLeft, kUpper, kNoTrans, 2, 0, 1, 1)},
                                 {12, trsm(kRow, kLeft, kUpper, kNoTrans, 0, 2, 1, 1)}});
}

TEST(ForwardedCblasErrors, Dsyrk) {
  auto syrk = [](int layout, int uplo, int trans, int n, int k, int lda, int ldc) {
    return [=] { cblas_dsyrk(layout, uplo, trans, n, k, 0.0, a, lda, 0.0, x, ldc); };
  };
  expect_reports("cblas_dsyrk", {{2, syrk(kCol, kInvalid, kNoTrans, 0, 0, 1, 1)},
                                 {3, syrk(kCol, kUpper, kInvalid, 0, 0, 1, 1)},
                                 {4, syrk(kCol, kUpper, kNoTrans, kInvalid, 0, 1, 1)},
                                 {5, syrk(kCol, kUpper, kNoTrans, 0, kInvalid, 1, 1)},
                                 {8, syrk(kCol, kUpper, kNoTrans, 2, 0, 1, 2)},
                                 {11, syrk(kCol, kUpper, kNoTrans, 2, 0, 2, 1)},
                                 {4, syrk(kRow, kUpper, kNoTrans, kInvalid, 0, 1, 1)},
                                 {8, syrk(kRow, kUpper, kNoTrans, 0, 2, 1, 1)},
                                 {11, syrk(kRow, kUpper, kNoTrans, 2, 0, 2, 1)}});
}

// A Fortran call is reported in Fortran terms, also right after a CBLAS call of the same routine
// (whose record the Fortran trampoline clears) and at the same stack depth.
TEST(ForwardedCblasErrors, FortranCallsAfterCblasOnesStayFortran) {
  const int bad_m = -1, n = 0, one = 1;
  const double zero = 0;
  for (int repeat = 0; repeat < 2; ++repeat) {
    g_reports.clear();
    cblas_dgemv(kRow, kNoTrans, 0, 0, 0.0, a, 1, x, 1, 0.0, y, 1);  // valid: nothing to do
    testing::internal::CaptureStderr();
    dgemv_("N", &bad_m, &n, &zero, a, &one, x, &one, &zero, y, &one, 1);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(g_reports.empty());
    EXPECT_NE(err.find("On entry to DGEMV  parameter number  2"), std::string::npos) << err;
  }
}

// libtileblas's own cblas_xerbla prints the caller's position too.
TEST(ForwardedCblasErrors, DefaultHandlerPrintsTheCallersPosition) {
  g_passthrough = true;
  testing::internal::CaptureStderr();
  cblas_dgemv(kRow, kNoTrans, 0, 2, 0.0, a, 1, x, 1, 0.0, y, 1);
  const std::string err = testing::internal::GetCapturedStderr();
  g_passthrough = false;
  EXPECT_NE(err.find("Parameter 7 to routine cblas_dgemv was incorrect"), std::string::npos) << err;
}

}  // namespace
