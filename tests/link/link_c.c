/* Linked with libtileblas alone (no BLAS library): sgemm on sub-matrices (leading dimensions
 * larger than the rows, pointers into the middle of the arrays) through sgemm_ and cblas_sgemm,
 * and routines tileblas forwards to the CPU BLAS (dgemm_, cblas_dgemm, ddot_, cblas_ddot, cdotc_,
 * zdotu_, idamax_, cblas_drot), each checked against a loop here. The data are small integers,
 * so every result is exact and compared with ==.
 * Usage: link_c [SUBSTRING]: also checks that the CPU BLAS tileblas reports contains SUBSTRING. */
#include <complex.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tileblas.h"

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, size_t, size_t);
void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc, size_t, size_t);
void cblas_dgemm(int layout, int transa, int transb, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c,
                 int ldc);
double ddot_(const int* n, const double* x, const int* incx, const double* y, const int* incy);
double cblas_ddot(int n, const double* x, int incx, const double* y, int incy);
float complex cdotc_(const int* n, const float complex* x, const int* incx, const float complex* y,
                     const int* incy);
double complex zdotu_(const int* n, const double complex* x, const int* incx,
                      const double complex* y, const int* incy);
int idamax_(const int* n, const double* x, const int* incx);
void cblas_drot(int n, double* x, int incx, double* y, int incy, double c, double s);

enum { kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112 };

static int failures = 0;

static void check(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

/* Small integers in [-4, 4] from a fixed linear congruential sequence. */
static double next_int(void) {
  static unsigned state = 12345u;
  state = state * 1103515245u + 12345u;
  return (double)((int)((state >> 16) % 9u) - 4);
}

static void fill(double* x, size_t n) {
  for (size_t i = 0; i < n; ++i) x[i] = next_int();
}

/* Element (i, j) of op(X) for X stored column-major (row_major = 0) or row-major with leading
 * dimension ld. */
static double element(const double* x, int ld, int trans, int row_major, int i, int j) {
  const int r = trans ? j : i, c = trans ? i : j;
  return row_major ? x[(size_t)r * ld + c] : x[r + (size_t)c * ld];
}

/* The sizes of one sub-matrix GEMM: C (M x N) sits at row/column offset 2/3 of a buffer of
 * leading dimension LD (more than the rows needed), A and B likewise at offsets 1/2 and 3/1.
 * Column-major, a buffer is LD rows by COLS columns; row-major, COLS rows by LD columns. */
enum { M = 13, N = 7, K = 11, LD = 21, COLS = 24, kBuffer = LD * COLS };

static size_t offset(int row_major, int row, int col) {
  return row_major ? (size_t)row * LD + col : row + (size_t)col * LD;
}

/* Checks C against alpha*op(A)*op(B) + beta*C0 inside the sub-matrix, and C == C0 outside it. */
static void check_gemm(const char* what, int row_major, int ta, int tb, double alpha,
                       const double* a, const double* b, double beta, const double* c0,
                       const double* c) {
  const double *as = a + offset(row_major, 1, 2), *bs = b + offset(row_major, 3, 1);
  int ok = 1;
  for (size_t at = 0; at < kBuffer && ok; ++at) {
    /* Row i, column j of the whole buffer, and of C's sub-matrix. */
    const int i = (int)(row_major ? at / LD : at % LD), j = (int)(row_major ? at % LD : at / LD);
    const int ci = i - 2, cj = j - 3;
    double want = c0[at];
    if (ci >= 0 && ci < M && cj >= 0 && cj < N) {
      double sum = 0.0;
      for (int l = 0; l < K; ++l) {
        sum += element(as, LD, ta, row_major, ci, l) * element(bs, LD, tb, row_major, l, cj);
      }
      want = alpha * sum + beta * c0[at];
    }
    ok = c[at] == want;
  }
  char msg[160];
  snprintf(msg, sizeof msg, "%s %s trans %c%c", what, row_major ? "row-major" : "column-major",
           ta ? 'T' : 'N', tb ? 'T' : 'N');
  check(ok, msg);
}

static void test_gemm(void) {
  double a[kBuffer], b[kBuffer], c0[kBuffer], c[kBuffer];
  float af[kBuffer], bf[kBuffer], cf[kBuffer];
  for (int t = 0; t < 4; ++t) {
    const int ta = t & 1, tb = t >> 1;
    const int m = M, n = N, k = K, ld = LD;
    fill(a, kBuffer);
    fill(b, kBuffer);
    fill(c0, kBuffer);
    for (size_t i = 0; i < kBuffer; ++i) {
      af[i] = (float)a[i];
      bf[i] = (float)b[i];
    }
    const char tac = ta ? 'T' : 'N', tbc = tb ? 'T' : 'N';
    const size_t ao = offset(0, 1, 2), bo = offset(0, 3, 1), co = offset(0, 2, 3);

    const float alpha_f = 2.0f, beta_f = -1.0f;
    for (size_t i = 0; i < kBuffer; ++i) cf[i] = (float)c0[i];
    sgemm_(&tac, &tbc, &m, &n, &k, &alpha_f, af + ao, &ld, bf + bo, &ld, &beta_f, cf + co, &ld, 1,
           1);
    for (size_t i = 0; i < kBuffer; ++i) c[i] = cf[i];
    check_gemm("sgemm_", 0, ta, tb, 2.0, a, b, -1.0, c0, c);

    const double alpha = -3.0, beta = 2.0;
    memcpy(c, c0, sizeof c);
    dgemm_(&tac, &tbc, &m, &n, &k, &alpha, a + ao, &ld, b + bo, &ld, &beta, c + co, &ld, 1, 1);
    check_gemm("dgemm_", 0, ta, tb, alpha, a, b, beta, c0, c);

    for (int row_major = 0; row_major < 2; ++row_major) {
      const int layout = row_major ? kRowMajor : kColMajor;
      const int tai = ta ? kTrans : kNoTrans, tbi = tb ? kTrans : kNoTrans;
      const size_t ro_a = offset(row_major, 1, 2), ro_b = offset(row_major, 3, 1),
                   ro_c = offset(row_major, 2, 3);
      for (size_t i = 0; i < kBuffer; ++i) cf[i] = (float)c0[i];
      cblas_sgemm(layout, tai, tbi, m, n, k, 0.5f, af + ro_a, ld, bf + ro_b, ld, 3.0f, cf + ro_c,
                  ld);
      for (size_t i = 0; i < kBuffer; ++i) c[i] = cf[i];
      check_gemm("cblas_sgemm", row_major, ta, tb, 0.5, a, b, 3.0, c0, c);

      memcpy(c, c0, sizeof c);
      cblas_dgemm(layout, tai, tbi, m, n, k, 1.5, a + ro_a, ld, b + ro_b, ld, -0.5, c + ro_c, ld);
      check_gemm("cblas_dgemm", row_major, ta, tb, 1.5, a, b, -0.5, c0, c);
    }
  }
}

static void test_level1(void) {
  enum { n = 37 };
  double x[2 * n], y[n];
  fill(x, 2 * n);
  fill(y, n);
  /* Increments 2 and -1: y is walked from its last element (netlib's negative increment). */
  double want = 0.0;
  for (int i = 0; i < n; ++i) want += x[2 * i] * y[n - 1 - i];
  const int nn = n, two = 2, minus_one = -1, one = 1;
  check(ddot_(&nn, x, &two, y, &minus_one) == want, "ddot_ with increments 2, -1");
  check(cblas_ddot(n, x, 2, y, -1) == want, "cblas_ddot with increments 2, -1");

  float complex cx[n], cy[n];
  double complex zx[n], zy[n];
  float complex cwant = 0.0f;
  double complex zwant = 0.0;
  for (int i = 0; i < n; ++i) {
    cx[i] = (float)next_int() + (float)next_int() * I;
    cy[i] = (float)next_int() + (float)next_int() * I;
    zx[i] = next_int() + next_int() * I;
    zy[i] = next_int() + next_int() * I;
    cwant += conjf(cx[i]) * cy[i];
    zwant += zx[i] * zy[i];
  }
  check(cwant != 0.0f && cdotc_(&nn, cx, &one, cy, &one) == cwant, "cdotc_ (complex float result)");
  check(zwant != 0.0 && zdotu_(&nn, zx, &one, zy, &one) == zwant, "zdotu_ (complex double result)");

  double v[n];
  fill(v, n);
  v[23] = -9.0; /* the unique largest |v|: idamax_ answers 24 (1-based) */
  check(idamax_(&nn, v, &one) == 24, "idamax_");

  double rx[n], ry[n];
  fill(rx, n);
  fill(ry, n);
  double wx[n], wy[n];
  for (int i = 0; i < n; ++i) {
    wx[i] = 2.0 * rx[i] - 3.0 * ry[i];
    wy[i] = 2.0 * ry[i] + 3.0 * rx[i];
  }
  cblas_drot(n, rx, 1, ry, 1, 2.0, -3.0);
  check(memcmp(rx, wx, sizeof rx) == 0 && memcmp(ry, wy, sizeof ry) == 0,
        "cblas_drot (c and s in xmm registers)");
}

int main(int argc, char** argv) {
  tileblas_config config;
  tileblas_get_config(&config);
  printf("link_c: tileblas %s, CPU BLAS %s\n", tileblas_version(), config.cpu_blas);
  if (argc > 1) check(strstr(config.cpu_blas, argv[1]) != NULL, "the CPU BLAS asked for");
  test_gemm();
  test_level1();
  if (failures) {
    printf("link_c: %d checks FAILED\n", failures);
    return 1;
  }
  printf("link_c: all checks passed\n");
  return 0;
}
