// GEMM on host pointers on the CPU: as one CPU BLAS call, or, for fp32 problems, split into
// independent panels of C run side by side by the host team (src/cpu_team.h), each panel on our
// host kernel (kernels/gemm_host_small.h) or as one CPU BLAS call.
#pragma once

#include "problem.h"

namespace tileblas {

// C = alpha * op(A) * op(B) + beta * C on host pointers. fp32 goes straight to the CPU BLAS; 16-bit
// types are widened to fp32, multiplied by the CPU sgemm (fp32 accumulation, as on the GPU) and,
// for an fp16 C, rounded back.
void gemm_on_cpu(const GemmProblem& p);

// The same for an fp32 problem, in `parts` >= 2 panels of C (column panels, or row panels when
// m > n) run side by side by the host team: each panel on our host kernel
// (kernels/gemm_host_small.h) when `on_host_kernel`, else as one CPU BLAS call; sleeping workers
// are woken for it when `wake_if_asleep` (CpuTeam::run()). Returns false, having computed nothing,
// when the team cannot take the call now (none, busy, or asleep and not to be woken): the caller
// then routes it another way.
bool sgemm_on_cpu_team(const GemmProblem& p, int parts, bool on_host_kernel,
                       bool wake_if_asleep = false);

// Whether the host team runs p's panels on our host kernel: this CPU has a variant that computes
// p (and so every panel of it). The router and the calibration ask the same question.
bool team_panels_on_host_kernel(const GemmProblem& p);

}  // namespace tileblas
