// fp32 AXPY: Fortran saxpy_ and CBLAS cblas_saxpy. netlib semantics: no argument errors, nothing
// to do when n <= 0 or alpha == 0 (y is not touched, NaN in x does not leak); increments may be
// negative or zero.
#include "compat.h"
#include "ops.h"

TILEBLAS_EXPORT void saxpy_(const int* n, const float* alpha, const float* x, const int* incx,
                            float* y, const int* incy) {
  if (*n <= 0 || *alpha == 0.0f) return;
  tileblas::AxpyProblem p;
  p.n = *n;
  p.alpha = *alpha;
  p.x = x;
  p.incx = *incx;
  p.y = y;
  p.incy = *incy;
  tileblas::axpy(p, "saxpy");
}

TILEBLAS_EXPORT void cblas_saxpy(int n, float alpha, const float* x, int incx, float* y, int incy) {
  if (n <= 0 || alpha == 0.0f) return;
  tileblas::AxpyProblem p;
  p.n = n;
  p.alpha = alpha;
  p.x = x;
  p.incx = incx;
  p.y = y;
  p.incy = incy;
  tileblas::axpy(p, "cblas_saxpy");
}
