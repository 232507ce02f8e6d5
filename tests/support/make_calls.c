/* A fresh process that makes a few accelerated calls of each kind (sgemm three times, saxpy,
 * somatcopy) on host data, for API tests that check what tileblas prints on stderr under a given
 * environment (the configuration is read once per process). Exits 0. */
#include <stddef.h>

#include "tileblas.h"

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, size_t, size_t);
void saxpy_(const int* n, const float* alpha, const float* x, const int* incx, float* y,
            const int* incy);

int main(void) {
  const int n = 4, one_i = 1;
  const float one = 1, zero = 0;
  float a[16], b[16], c[16];
  int i;
  for (i = 0; i < 16; ++i) a[i] = b[i] = (float)(i % 5);
  for (i = 0; i < 3; ++i) sgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
  saxpy_(&n, &one, a, &one_i, c, &one_i);
  somatcopy_("C", "T", &n, &n, &one, a, &n, b, &n);
  return 0;
}
