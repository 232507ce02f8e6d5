/* Linked with libtileblas alone, calling OpenBLAS's ILP64 names (sgemm_64_, cblas_sgemm64_,
 * dgemm_64_: 64-bit integers) in a process where no library has them. tileblas must say so once
 * (the runner checks stderr), run them on its standard CPU BLAS with 32-bit integers, and refuse
 * through this program's own xerbla_64_ (as OpenBLAS numbers them) the arguments that do not fit
 * 32 bits, computing nothing. Small integers: results exact. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void sgemm_64_(const char* transa, const char* transb, const int64_t* m, const int64_t* n,
               const int64_t* k, const float* alpha, const float* a, const int64_t* lda,
               const float* b, const int64_t* ldb, const float* beta, float* c, const int64_t* ldc,
               size_t, size_t);
void dgemm_64_(const char* transa, const char* transb, const int64_t* m, const int64_t* n,
               const int64_t* k, const double* alpha, const double* a, const int64_t* lda,
               const double* b, const int64_t* ldb, const double* beta, double* c,
               const int64_t* ldc, size_t, size_t);
void cblas_sgemm64_(int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                    float alpha, const float* a, int64_t lda, const float* b, int64_t ldb,
                    float beta, float* c, int64_t ldc);

enum { kRowMajor = 101, kColMajor = 102, kNoTrans = 111 };

static int failures = 0;
static void check(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

/* The program's own error handler of the ILP64 names (exported: ENABLE_EXPORTS). */
static int xerbla_calls = 0;
static char xerbla_name[32];
static int64_t xerbla_info = -1;
void xerbla_64_(const char* srname, const int64_t* info, size_t len) {
  ++xerbla_calls;
  snprintf(xerbla_name, sizeof xerbla_name, "%.*s", (int)len, srname);
  xerbla_info = *info;
}

int main(void) {
  /* C = A * B with A 3 x 2, B 2 x 2, column-major. */
  const float a[6] = {1, 2, 3, -1, 0, 2}, b[4] = {2, 1, -1, 3};
  const float expected[6] = {1, 4, 8, -4, -2, 3};
  const double ad[6] = {1, 2, 3, -1, 0, 2}, bd[4] = {2, 1, -1, 3};
  const int64_t m = 3, n = 2, k = 2;
  const float one = 1, zero = 0;
  const double oned = 1, zerod = 0;
  float c[6];
  double cd[6];
  memset(c, 0xff, sizeof c); /* NaN: beta == 0 must not read C */
  sgemm_64_("N", "N", &m, &n, &k, &one, a, &m, b, &k, &zero, c, &m, 1, 1);
  check(memcmp(c, expected, sizeof c) == 0, "sgemm_64_: wrong C");
  memset(c, 0xff, sizeof c);
  cblas_sgemm64_(kColMajor, kNoTrans, kNoTrans, m, n, k, 1.0f, a, m, b, k, 0.0f, c, m);
  check(memcmp(c, expected, sizeof c) == 0, "cblas_sgemm64_: wrong C");
  dgemm_64_("N", "N", &m, &n, &k, &oned, ad, &m, bd, &k, &zerod, cd, &m, 1, 1);
  for (int i = 0; i < 6; ++i) check(cd[i] == expected[i], "dgemm_64_: wrong C");
  check(xerbla_calls == 0, "a valid call was reported");

  /* lda beyond 2^31: the 32-bit CPU BLAS cannot take it; refused as OpenBLAS numbers lda. */
  const int64_t wide = ((int64_t)1 << 31) + 10;
  memcpy(c, expected, sizeof c);
  sgemm_64_("N", "N", &m, &n, &k, &one, a, &wide, b, &k, &zero, c, &m, 1, 1);
  check(xerbla_calls == 1 && strcmp(xerbla_name, "SGEMM ") == 0 && xerbla_info == 8,
        "sgemm_64_ lda = 2^31 + 10: not reported to xerbla_64_ as (SGEMM , 8)");
  check(memcmp(c, expected, sizeof c) == 0, "sgemm_64_ lda = 2^31 + 10: C written");
  /* Row-major n beyond 2^31 is the column-major call's m: number 3. */
  xerbla_calls = 0;
  cblas_sgemm64_(kRowMajor, kNoTrans, kNoTrans, 1, wide, 1, 1.0f, a, 1, b, wide, 0.0f, c, wide);
  check(xerbla_calls == 1 && strcmp(xerbla_name, "SGEMM ") == 0 && xerbla_info == 3,
        "cblas_sgemm64_ row-major n = 2^31 + 10: not reported to xerbla_64_ as (SGEMM , 3)");
  check(memcmp(c, expected, sizeof c) == 0, "cblas_sgemm64_ n = 2^31 + 10: C written");

  printf("%s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
