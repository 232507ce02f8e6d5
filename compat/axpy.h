// fp32 AXPY entry points, one template per form over the name set (integer width): Fortran
// saxpy_ and CBLAS cblas_saxpy under every set's spelling (compat/entry_points.txt). netlib
// semantics: no argument errors, nothing to do when n <= 0 or alpha == 0 (y is not touched, NaN in
// x does not leak); increments may be negative or zero.
#pragma once

#include <string>

#include "compat.h"

namespace tileblas::compat {

// After the templates: quick return, refusal of an n or increment wider than the set's CPU BLAS
// takes (through the set's xerbla as "SAXPY ", netlib's parameter numbers: n 1, incx 4, incy 6),
// then tileblas::axpy under `routine`, the exported name.
void saxpy(NameSet s, int64_t n, float alpha, const float* x, int64_t incx, float* y, int64_t incy,
           const char* routine);

template <NameSet S>
void saxpy_fortran(const Int<S>* n, const float* alpha, const float* x, const Int<S>* incx,
                   float* y, const Int<S>* incy) noexcept {
  static const std::string routine = entry_label(S, "saxpy", false);
  saxpy(S, *n, *alpha, x, *incx, y, *incy, routine.c_str());
}

template <NameSet S>
void saxpy_cblas(Int<S> n, float alpha, const float* x, Int<S> incx, float* y,
                 Int<S> incy) noexcept {
  static const std::string routine = entry_label(S, "saxpy", true);
  saxpy(S, n, alpha, x, incx, y, incy, routine.c_str());
}

}  // namespace tileblas::compat
