/* Uses an installed tileblas: its header, its own API and a standard BLAS symbol. */
#include <stdio.h>
#include <string.h>
#include <tileblas.h>

void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);

int main(void) {
  char want[32];
  snprintf(want, sizeof want, "%d.%d.%d", TILEBLAS_VERSION_MAJOR, TILEBLAS_VERSION_MINOR,
           TILEBLAS_VERSION_PATCH);
  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  float c[4] = {0, 0, 0, 0};
  cblas_sgemm(101, 111, 111, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2); /* row-major A*B */
  const int ok =
      strcmp(tileblas_version(), want) == 0 && c[0] == 19 && c[1] == 22 && c[2] == 43 && c[3] == 50;
  printf("consumer: tileblas %s, C = [%g %g; %g %g]: %s\n", tileblas_version(), c[0], c[1], c[2],
         c[3], ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
