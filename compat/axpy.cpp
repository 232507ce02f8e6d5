#include "axpy.h"

#include "ops.h"

namespace tileblas::compat {

void saxpy(NameSet s, int64_t n, float alpha, const float* x, int64_t incx, float* y, int64_t incy,
           const char* routine) {
  if (n <= 0 || alpha == 0.0f) return;
  if (cpu_blas::info(s).int64) {
    const int64_t limit = cpu_blas::max_int(s, cpu_blas::Routine::kSaxpy);
    // A negative increment fits down to -limit - 1.
    auto magnitude = [](int64_t v) { return v < 0 ? -(v + 1) : v; };
    if (refuse_wide(s, "SAXPY ", limit, {{n, 1}, {magnitude(incx), 4}, {magnitude(incy), 6}})) {
      return;
    }
  }
  AxpyProblem p;
  p.n = n;
  p.alpha = alpha;
  p.x = x;
  p.incx = incx;
  p.y = y;
  p.incy = incy;
  p.name_set = s;
  tileblas::axpy(p, routine);
}

}  // namespace tileblas::compat
