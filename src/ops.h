// The library's internal entry points, one per operation. compat/ calls them after the netlib
// checks and quick returns; they route the call (src/router.*), run it on the CPU BLAS or on a
// kernel (src/executor.*), record the route for tileblas_last_route() and print the verbose line.
// gemm() and level3() do so through one dispatch (src/dispatch.h).
#pragma once

#include "problem.h"

namespace tileblas {

// Any m, n >= 1, k >= 0, any data type combination Problem allows; pointers host, device or
// managed. `routine` names the call in the verbose line ("sgemm", "hgemm", ...).
void gemm(const Problem& p, const char* routine);

// n >= 1, incx/incy nonzero (netlib: inc == 0 is legal but degenerate; handled too).
void axpy(const AxpyProblem& p, const char* routine);

// Out of place (a != b, not overlapping).
void omatcopy(const TransposeProblem& p, const char* routine);

// In place: p.a == p.b, read with lda, written with ldb.
void imatcopy(const TransposeProblem& p, const char* routine);

// symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm: any shapes netlib allows after its checks and
// quick returns; pointers host, device or managed.
void level3(const Problem& p, const char* routine);

}  // namespace tileblas
