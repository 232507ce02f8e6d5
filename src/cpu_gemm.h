// GEMM on host pointers through the CPU BLAS: as one call, or, for fp32 problems that the CPU BLAS
// runs on one thread, split into independent panels of C run side by side by the host team
// (src/cpu_team.h).
#pragma once

#include "problem.h"

namespace tileblas {

// C = alpha * op(A) * op(B) + beta * C on host pointers. fp32 goes straight to the CPU BLAS; 16-bit
// types are widened to fp32, multiplied by the CPU sgemm (fp32 accumulation, as on the GPU) and,
// for an fp16 C, rounded back.
void gemm_on_cpu(const GemmProblem& p);

// The same for an fp32 problem, as `parts` >= 2 CPU BLAS calls on panels of C (column panels, or
// row panels when m > n), run by the host team. Returns false, having computed nothing, when the
// team cannot take the call now (none, busy, or asleep): the caller then calls gemm_on_cpu().
bool sgemm_on_cpu_team(const GemmProblem& p, int parts);

}  // namespace tileblas
