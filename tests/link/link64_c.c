/* Linked with libtileblas64 alone (standard names, 64-bit integers, as Debian's libblas64.so.3):
 * sgemm_, cblas_sgemm, cblas_zgemm and the forwarded ddot_ with 64-bit integers, computed on the
 * 64-bit CPU BLAS that libtileblas64 loads (libopenblas64.so.0 or libblas64.so.3), including a
 * leading dimension beyond 2^32 (in address space reserved, not allocated: only the pages touched
 * exist); bad arguments reported to this program's own xerbla_ and cblas_xerbla, whose INFO is a
 * 64-bit integer here. Small integers: results exact. */
#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

void sgemm_(const char* transa, const char* transb, const int64_t* m, const int64_t* n,
            const int64_t* k, const float* alpha, const float* a, const int64_t* lda,
            const float* b, const int64_t* ldb, const float* beta, float* c, const int64_t* ldc,
            size_t, size_t);
void cblas_sgemm(int layout, int transa, int transb, int64_t m, int64_t n, int64_t k, float alpha,
                 const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                 int64_t ldc);
void cblas_zgemm(int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                 const void* alpha, const void* a, int64_t lda, const void* b, int64_t ldb,
                 const void* beta, void* c, int64_t ldc);
double ddot_(const int64_t* n, const double* x, const int64_t* incx, const double* y,
             const int64_t* incy);

enum { kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kConjTrans = 113 };

static int failures = 0;
static void check(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

/* The program's own handlers (exported: ENABLE_EXPORTS), with 64-bit INFO. */
static int reports = 0;
static char report_name[32];
static int64_t report_info = -1;
void xerbla_(const char* srname, const int64_t* info, size_t len) {
  ++reports;
  snprintf(report_name, sizeof report_name, "%.*s", (int)len, srname);
  report_info = *info;
}
void cblas_xerbla(int64_t info, const char* rout, const char* form, ...) {
  (void)form;
  ++reports;
  snprintf(report_name, sizeof report_name, "%s", rout);
  report_info = info;
}

int main(void) {
  const float a[6] = {1, 2, 3, -1, 0, 2}, b[4] = {2, 1, -1, 3};
  const float expected[6] = {1, 4, 8, -4, -2, 3}; /* column-major 3 x 2 */
  const int64_t m = 3, n = 2, k = 2;
  const float one = 1, zero = 0;
  float c[6];
  memset(c, 0xff, sizeof c);
  sgemm_("N", "N", &m, &n, &k, &one, a, &m, b, &k, &zero, c, &m, 1, 1);
  check(memcmp(c, expected, sizeof c) == 0, "sgemm_: wrong C");
  memset(c, 0xff, sizeof c);
  cblas_sgemm(kColMajor, kNoTrans, kNoTrans, m, n, k, 1.0f, a, m, b, k, 0.0f, c, m);
  check(memcmp(c, expected, sizeof c) == 0, "cblas_sgemm: wrong C");

  /* zgemm: C = A^H B with A = [[1+i], [2]] (2 x 1), B = [[1], [i]] (2 x 1): 1 - i + 2i = 1 + i. */
  const double complex za[2] = {1 + 1 * I, 2}, zb[2] = {1, 1 * I};
  const double complex zone = 1, zzero = 0;
  double complex zc = 7;
  cblas_zgemm(kColMajor, kConjTrans, kNoTrans, 1, 1, 2, &zone, za, 2, zb, 2, &zzero, &zc, 1);
  check(zc == 1 + 1 * I, "cblas_zgemm: wrong C");

  const double x[3] = {1, 2, 3}, y[3] = {4, -5, 6};
  const int64_t three = 3, inc = 1;
  check(ddot_(&three, x, &inc, y, &inc) == 12, "ddot_ (forwarded): wrong result");

  /* lda = 2^32 + 3: A's second column lies 16 GiB past its first. */
  const int64_t big = ((int64_t)1 << 32) + 3;
  const size_t bytes = (size_t)(big + m) * sizeof(float);
  float* wide =
      mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  check(wide != MAP_FAILED, "could not reserve address space");
  if (wide != MAP_FAILED) {
    for (int i = 0; i < 3; ++i) wide[i] = a[i], wide[big + i] = a[3 + i];
    memset(c, 0xff, sizeof c);
    sgemm_("N", "N", &m, &n, &k, &one, wide, &big, b, &k, &zero, c, &m, 1, 1);
    check(memcmp(c, expected, sizeof c) == 0, "sgemm_ lda = 2^32 + 3: wrong C");
    memset(c, 0xff, sizeof c);
    cblas_sgemm(kColMajor, kNoTrans, kNoTrans, m, n, k, 1.0f, wide, big, b, k, 0.0f, c, m);
    check(memcmp(c, expected, sizeof c) == 0, "cblas_sgemm lda = 2^32 + 3: wrong C");
    munmap(wide, bytes);
  }
  check(reports == 0, "a valid call was reported");

  /* Bad arguments: netlib's numbers, the reference CBLAS's plus one for the layout. */
  memcpy(c, expected, sizeof c);
  const int64_t short_lda = 2;
  sgemm_("N", "N", &m, &n, &k, &one, a, &short_lda, b, &k, &zero, c, &m, 1, 1);
  check(reports == 1 && strcmp(report_name, "SGEMM ") == 0 && report_info == 8,
        "sgemm_ lda < m: not reported to xerbla_ as (SGEMM , 8)");
  reports = 0;
  cblas_sgemm(kColMajor, kNoTrans, kNoTrans, m, n, k, 1.0f, a, 2, b, k, 0.0f, c, m);
  check(reports == 1 && strcmp(report_name, "cblas_sgemm") == 0 && report_info == 9,
        "cblas_sgemm lda < m: not reported to cblas_xerbla as (cblas_sgemm, 9)");
  check(memcmp(c, expected, sizeof c) == 0, "bad calls: C written");

  printf("%s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
