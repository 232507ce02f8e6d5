// GEMM on host pointers on the CPU: as one CPU BLAS call, or, for fp32, fp64, complex and complex
// double problems, split into independent panels of C run side by side by the host team
// (src/cpu_team.h), each panel on our host kernel (kernels/gemm_host_small.h) or as one CPU BLAS
// call of the problem's type.
#pragma once

#include "problem.h"

namespace tileblas {

struct Rates;

// C = alpha * op(A) * op(B) + beta * C on host pointers. fp32, fp64 and complex go straight to the
// CPU BLAS's ?gemm_ of their type; 16-bit types are widened to fp32, multiplied by the CPU sgemm
// (fp32 accumulation, as on the GPU) and, for an fp16 C, rounded back.
void gemm_on_cpu(const Problem& p);

// p on host pointers on the CPU path route_plan_gemm_on_cpu() (src/router.h) picks for it with
// `rates` (of p's type): our host kernel or the host team, one CPU BLAS call only where neither
// takes p. Defined beside GEMM's dispatch (src/gemm.cpp), which runs those paths; the host plans'
// GEMMs (src/host_plans.h).
void gemm_on_cpu_path(const Problem& p, const Rates& rates);

// Whether the host team serves p's element types: A, B and C of one type, f32, f64, c32 or c64
// (the types of our host kernel and of the CPU ?gemm_; 16-bit data is widened in one call).
bool cpu_team_serves(const Problem& p);

// How the host team cuts p for `parts` panels: row panels (of C and op(A)) or column panels (of C
// and op(B)), and how many panels of at least the smallest width that side takes (`room`). Complex
// panels on the host kernel are at least kComplexColumnsMin columns (on the H100 host, when each
// column panel packed all of op(A) in the 1m form, cgemm_ 64^3 in 16 column panels of 4 ran at
// 0.63 of one OpenBLAS call) or kComplexRowsMin rows; complex CPU BLAS panels at least
// kComplexColumnsMin either way; real ones at least one. The side whose room holds `parts` (else
// the larger room); where both do, the side whose panels pack less of A and B (on the host kernel:
// rows where only op(A) is packed, columns where only op(B) is), else rows when m > n.
struct TeamSplit {
  bool by_rows;
  int64_t room;
};
TeamSplit team_split(const Problem& p, int64_t parts, bool on_host_kernel);
constexpr int64_t kComplexColumnsMin = 16;
constexpr int64_t kComplexRowsMin = 8;

// The same as gemm_on_cpu() for a problem the team serves, in `parts` >= 2 panels of C (row or
// column panels as team_split() chooses, at most one per row or column) run side by side by the
// host team: each panel on our host kernel (kernels/gemm_host_small.h) when `on_host_kernel`,
// else as one CPU BLAS call of p's type (sgemm_, dgemm_, cgemm_ or zgemm_); sleeping workers are
// woken for it when `wake_if_asleep` (CpuTeam::run()). Returns false, having computed nothing,
// when the team cannot take the call now (none, busy, or asleep and not to be woken) or does not
// serve p: the caller then routes it another way.
bool gemm_on_cpu_team(const Problem& p, int parts, bool on_host_kernel,
                      bool wake_if_asleep = false);

// What computed p on the CPU, as its call is recorded (a static string): "cpu_blas <s|d|c|z>gemm_"
// (gemm_on_cpu(); 16-bit data widened to fp32 is sgemm_), the same "on the host team"
// (gemm_on_cpu_team() with CPU BLAS panels), or "gemm_host_small on the host team".
enum class CpuGemmPath { kCpuBlas, kCpuBlasOnTeam, kHostKernelOnTeam };
const char* cpu_gemm_label(const Problem& p, CpuGemmPath path);

// Whether the host team runs p's panels on our host kernel: this CPU has a variant that computes
// p (and so every panel of it). The router and the calibration ask the same question.
bool team_panels_on_host_kernel(const Problem& p);

}  // namespace tileblas
