// tileblas::level3: symm, hemm, syrk, herk, syr2k, her2k, trmm and trsm through the dispatch that
// gemm() uses (src/dispatch.h): routed by route_level3() (src/router.cpp), run as the GPU plan
// (src/plans.h) through the executor, as the plan on the host (src/host_plans.h) or as the CPU
// BLAS's routine of the same name and type.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "calibration.h"
#include "cpu_blas.h"
#include "device.h"
#include "dispatch.h"
#include "env.h"
#include "executor.h"
#include "host_plans.h"
#include "level3_small_call.h"
#include "log.h"
#include "memory.h"
#include "operands.h"
#include "ops.h"
#include "plans.h"
#include "router.h"

namespace tileblas {

// Made as the library loads: no guard on the calls.
const std::vector<std::string> level3_detail::cpu_blas_labels = [] {
  std::vector<std::string> l;
  for (int r = 0; r < cpu_blas::kRoutineCount; ++r) {
    l.push_back(std::string("cpu_blas ") + cpu_blas::stem_of(cpu_blas::Routine(r)) + "_");
  }
  return l;
}();

bool level3_copy_back_last_first(const Problem& p) {
  if (is_rank_k(p.op)) return p.uplo == Uplo::kUpper;
  // trmm, trsm side R: with op(A) upper, column j of the result reads B's (trsm: X's) columns up
  // to j; with op(A) lower, from j on.
  return is_triangular(p.op) && p.side == Side::kRight &&
         (p.uplo == Uplo::kUpper) == (p.trans_a == Op::kNoTrans);
}

std::optional<Problem> level3_columns_left(const Problem& p, int64_t final_cols) {
  if (final_cols == 0) return p;
  const bool rank_k = is_rank_k(p.op), right = !rank_k && p.side == Side::kRight;
  if (right && !is_triangular(p.op)) return std::nullopt;
  Problem q = p;
  q.n = p.n - final_cols;
  // Last column first: the columns left lead, over the leading block of A (side R) or of C and
  // op(A) (upper syrk .. her2k), where p's pointers already point.
  if (level3_copy_back_last_first(p)) return q;
  // First column first: the columns from j on, over the trailing block of A (side R) or of C and
  // op(A)'s rows from j (lower syrk .. her2k).
  const int64_t j = final_cols;
  const size_t e = size_of(p.type);
  auto at = [e](const void* x, int64_t ld, int64_t row, int64_t col) -> void* {
    if (!x) return nullptr;
    return static_cast<char*>(const_cast<void*>(x)) + (size_t(row) + size_t(col) * size_t(ld)) * e;
  };
  if (rank_k) {
    const int64_t row = p.trans_a == Op::kNoTrans ? j : 0, col = p.trans_a == Op::kNoTrans ? 0 : j;
    q.a = at(p.a, p.lda, row, col);
    q.b = at(p.b, p.ldb, row, col);
    q.c = at(p.c, p.ldc, j, j);
    return q;
  }
  if (right) q.a = at(p.a, p.lda, j, j);
  if (p.op == Operation::kSymm || p.op == Operation::kHemm) q.b = at(p.b, p.ldb, 0, j);
  q.c = at(p.c, p.ldc, 0, j);
  return q;
}

namespace {

// The plans' names for the verbose line ("trsm plan", "trsm plan on the host"): made once, kept for
// the process (record_call() keeps the pointer).
const char* plan_label(Operation op, bool on_host) {
  static const std::vector<std::string> labels = [] {
    std::vector<std::string> l;
    for (int i = 0; i < kOperationCount; ++i) {
      l.push_back(std::string(name_of(Operation(i))) + " plan");
      l.push_back(std::string(name_of(Operation(i))) + " plan on the host");
    }
    return l;
  }();
  return labels[size_t(op) * 2 + (on_host ? 1 : 0)].c_str();
}

// Level 3's part of the dispatch (src/dispatch.h). Its CPU path has one option of its own beside
// the CPU BLAS: the routine's plan on the host (src/host_plans.h).
struct Level3Dispatch {
  const Problem& problem;
  const Level3Points* points = nullptr;  // the routine's, where route() found or measured them
  LeftInC left{};                        // what a failed GPU run left in a host output

  // A host call within the routine's measured points' small calls (level3_small_call_path()), with
  // its operands in the brk heap or on the stack: its path at once, as route() would route it,
  // without classifying the operands.
  static const char* run_small_host_call(const Problem& problem, Reason* why) {
    const double flops = problem.flops();
    const Level3Points* pts = nullptr;
    const std::optional<Level3CpuPath> path =
        level3_small_host_call_path(config(), problem, flops, &pts);
    if (!path) return nullptr;
    if (*path == Level3CpuPath::kHostPlan) {
      // While the CPU BLAS's workers may still spin, route() decides (route_level3()).
      if (cpu_blas::workers_may_spin()) return nullptr;
      run_level3_on_host(problem, *pts->rates);
      *why = "host data, measured for this routine: the host plan at this size";
      return plan_label(problem.op, true);
    }
    on_cpu_blas(problem, flops);
    *why = kLevel3SmallCallOnCpuBlas;
    return cpu_blas_label(problem);
  }

  Level3Route route(const CallSite& site) {
    const Problem& p = problem;
    Device* device = site.device;
    const bool plan_supports = device && level3_on_device_supports(p, device->caps());
    // Rates and points only where they can change the route: host data in auto mode.
    const Rates* rates = nullptr;
    if (level3_needs_rates(p, site.where, config()) && (plan_supports || !device)) {
      // The GEMM rates of p's type (and TF32 choice, as gemm() keys them), and the routine's own
      // points where they cover p.
      Problem like = gemm_like(p);
      like.allow_tf32 = gemm_allows_tf32(p.type);
      const bool small = level3_points_cover(p);
      if (small) points = level3_points_if_measured(p);
      if (device) {
        rates = rates_if_measured(like);
        if (!rates || (small && !points)) {
          const CurrentDevice current(*device);
          if (current.ok()) {
            if (!rates) rates = measured_rates(like, *device);
            if (small && !points && rates) points = measured_level3_points(p, device, *rates);
          }
        }
      } else if (small && !points) {
        // No GPU: the points choose between the CPU BLAS and the host plan.
        if (const Rates* cpu_rates = measured_cpu_rates(like)) {
          points = measured_level3_points(p, nullptr, *cpu_rates);
        }
      }
    }
    return route_level3(p, site.where, config(), site.caps(), site.no_device_why, plan_supports,
                        rates, points, cpu_blas::workers_may_spin());
  }

  const char* run_own_cpu_path(const Level3Route& route, const CallSite&) const {
    if (route.side != TILEBLAS_ROUTE_CPU || !points) return nullptr;
    if (route.cpu_blas_while_workers_spin) {
      cpu_blas::run(problem);  // not noted: see Level3Route
      return cpu_blas_label(problem);
    }
    if (route.cpu_path != Level3CpuPath::kHostPlan) return nullptr;
    run_level3_on_host(problem, *points->rates);
    return plan_label(problem.op, true);
  }

  cudaError_t run_on_gpu(const Level3Route&, const CallSite& site) {
    return run_level3(problem, site.where, site.device->caps(), site.device->stream(), &left);
  }
  const char* gpu_label(const Level3Route&) const { return plan_label(problem.op, false); }

  // A copy back that failed part way has written some of the output's columns: the CPU computes
  // the others (where they form a problem of the routine's own), or all of the call again where
  // the routine does not read its output (beta == 0; alpha == 0 for trmm, trsm). Where it reads it
  // (beta != 0, or B of trmm/trsm), computing a column again would be wrong.
  bool left_for_cpu(cudaError_t err, const char* routine, Problem* rest) const {
    std::optional<Problem> others;
    if (!left.maybe_partial) others = level3_columns_left(problem, left.final_cols);
    if (others) {
      *rest = *others;
      return true;
    }
    if (!operands_of(problem).c.in) return true;
    say_partial_result(routine, err);
    return false;
  }

  static void on_cpu_blas(const Problem& p, double flops) {
    cpu_blas::run(p);
    cpu_blas::note_call(flops);
  }
  static void on_cpu_blas(const Problem& p) { on_cpu_blas(p, p.flops()); }
  // The CPU BLAS routine of the call's name and type, for the verbose line ("cpu_blas ztrsm_").
  static const char* cpu_blas_label(const Problem& p) { return level3_cpu_blas_label(p); }
};

}  // namespace

void level3(const Problem& p, const char* routine) { dispatch<Level3Dispatch>(p, routine); }

}  // namespace tileblas
