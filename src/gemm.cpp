// tileblas::gemm through the dispatch (src/dispatch.h): GEMM's rates and routes, its CPU paths of
// its own (our host kernel, the host team), the GPU run and the columns a failed one leaves.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>

#include "calibration.h"
#include "cpu_blas.h"
#include "cpu_gemm.h"
#include "device.h"
#include "dispatch.h"
#include "env.h"
#include "executor.h"
#include "gemm_host_small.h"
#include "log.h"
#include "memory.h"
#include "operands.h"
#include "ops.h"
#include "router.h"

namespace tileblas {

namespace {

// Columns j0.. of p's C (and of op(B)): the part of p a failed GPU run left to compute.
Problem columns_from(const Problem& p, int64_t j0) {
  Problem q = p;
  const size_t ab = size_of(p.type), ce = size_of(p.c_type);
  q.n = p.n - j0;
  q.b = static_cast<const char*>(p.b) +
        (p.trans_b == Op::kNoTrans ? size_t(j0) * size_t(p.ldb) : size_t(j0)) * ab;
  q.c = static_cast<char*>(p.c) + size_t(j0) * size_t(p.ldc) * ce;
  return q;
}

// Why a small host call took `path` (src/router.h small_call_rule()); `no_device_why` (kept for the
// process) where there is no GPU.
Reason small_call_reason(CpuPath path, const std::string* no_device_why) {
  const bool kernel = path == CpuPath::kHostKernel;
  if (no_device_why) {
    return Reason::with_kept_detail(kernel ? "host kernel, below the measured crossover; no GPU: "
                                           : "CPU BLAS, below the measured crossover; no GPU: ",
                                    *no_device_why);
  }
  return kernel ? "host data, host kernel: below the measured crossover"
                : "host data, CPU BLAS: below the measured crossover";
}

// GEMM's part of the dispatch (src/dispatch.h). Its CPU path has two options of its own beside the
// CPU BLAS: our host kernel and the host team.
struct GemmDispatch {
  explicit GemmDispatch(const Problem& call) : problem(call) {
    problem.allow_tf32 = gemm_allows_tf32(call.type);
  }

  Problem problem;
  const Rates* rates = nullptr;
  LeftInC left;  // what a failed GPU run left in the caller's C

  // A host call within the measured rates' small_call_rule(): run on its CPU path, its operands
  // classified by address alone (heap and stack are host memory) and no cost computed. This comes
  // before every other step of the dispatch, as most host calls are small, and reads the caller's
  // Problem: the policy's copy is made only past it. Returns what ran and sets *why; nullptr
  // (nothing run) where the call does not qualify.
  static const char* run_small_host_call(const Problem& p, Reason* why) {
    if (config().mode != Mode::kAuto || !p.multiplies()) return nullptr;
    const Rates* measured = any_rates_if_measured(p.type, gemm_allows_tf32(p.type));
    const double flops = p.flops();
    if (!measured || !(flops <= measured->small_calls.flops())) return nullptr;
    if (!all_in_host_only_range({p.a, p.b, p.c})) return nullptr;
    const std::optional<CpuPath> path = small_call_path(p, *measured, flops);
    if (!path) return nullptr;
    // Rates measured without a GPU say so; a device lost since (a fork, a CUDA error) changes no
    // small call's route.
    *why = small_call_reason(
        *path, std::isinf(measured->gpu_overhead_s) ? &Device::unavailable_reason() : nullptr);
    if (*path == CpuPath::kHostKernel) return run_host_kernel(p);
    on_cpu_blas(p, flops);
    return cpu_blas_label(p);
  }

  // The CPU path of p within the rates' small_call_rule() (the one route_gemm() would pick,
  // without costing the GPU; between points of different paths, the CPU side's prediction), or
  // none where p is outside it or the host kernel, picked, does not support it.
  static std::optional<CpuPath> small_call_path(const Problem& p, const Rates& r, double flops) {
    const SmallCallRule& rule = r.small_calls;
    if (!(flops <= rule.flops())) return std::nullopt;
    std::optional<CpuPath> path = rule.path_of(flops);
    if (!path) path = route_gemm_on_cpu(p, r).cpu_path;
    if (*path == CpuPath::kHostTeam || (*path == CpuPath::kHostKernel && !host_kernel_takes(p))) {
      return std::nullopt;
    }
    return path;
  }

  // Whether our host kernel, in the widest variant this CPU runs, computes p.
  static bool host_kernel_takes(const Problem& p) {
    return gemm_host_small::supports(p, gemm_host_small::best_isa());
  }

  GemmRoute route(const CallSite& site) {
    const Problem& p = problem;
    if (gemm_needs_rates(site.where, config()) && p.multiplies()) {
      if (site.device) {
        rates = rates_if_measured(p);
        if (!rates) {
          const CurrentDevice current(*site.device);
          if (current.ok()) rates = measured_rates(p, *site.device);
        }
      } else if (p.c_type == p.type && size_of(p.type) >= 4) {
        // No GPU: fp32, fp64 and complex still have three CPU paths (the CPU BLAS, the host team,
        // our host kernel).
        rates = measured_cpu_rates(p);
      }
    }
    if (rates) {
      if (const std::optional<CpuPath> path = small_call_path(p, *rates, p.flops())) {
        GemmRoute r;
        r.cpu_path = *path;
        r.reason = small_call_reason(*path, site.device ? nullptr : &site.no_device_why);
        return r;
      }
    }
    return route_gemm(p, site.where, config(), site.caps(), site.no_device_why, rates);
  }

  // Our host kernel on the calling thread; returns its name.
  static const char* run_host_kernel(const Problem& p) {
    const gemm_host_small::Isa isa = gemm_host_small::best_isa();
    gemm_host_small::run(p, isa);
    return gemm_host_small::name_of(isa, p.type);
  }

  const char* run_own_cpu_path(GemmRoute& route, const CallSite& site) {
    if (route.cpu_path == CpuPath::kHostTeam) {
      const bool on_kernel = team_panels_on_host_kernel(problem);
      if (gemm_on_cpu_team(problem, route.cpu_parts, on_kernel, route.wake_team)) {
        return cpu_gemm_label(
            problem, on_kernel ? CpuGemmPath::kHostKernelOnTeam : CpuGemmPath::kCpuBlasOnTeam);
      }
      // The team cannot take it now (its workers asleep after a pause and the call too short to
      // wake them, or another call has it): the best route without the team.
      Rates without_team = *rates;
      std::fill(std::begin(without_team.cpu_team_point_s), std::end(without_team.cpu_team_point_s),
                0.0);
      route =
          route_gemm(problem, site.where, config(), site.caps(), site.no_device_why, &without_team);
    }
    if (route.side == TILEBLAS_ROUTE_CPU && route.cpu_path == CpuPath::kHostKernel) {
      return run_host_kernel(problem);
    }
    return nullptr;
  }

  cudaError_t run_on_gpu(const GemmRoute& route, const CallSite& site) {
    return run_gemm(problem, site.where, *route.kernel, route.copies, route.panel_cols,
                    site.device->caps(), site.device->stream(), &left);
  }
  static const char* gpu_label(const GemmRoute& route) { return route.kernel->name; }

  // Columns already copied back hold the result: computing them again would apply beta twice. So
  // would computing again columns that may hold part of it (a copy back that failed, or a row that
  // writes C in several launches failing on the caller's C), where C is read (beta != 0): then
  // none is.
  bool left_for_cpu(cudaError_t err, const char* routine, Problem* rest) const {
    if (left.maybe_partial && problem.beta != 0.0) {
      std::fprintf(stderr,
                   "tileblas: error: %s: the GPU failed while writing C (%s); columns %lld to "
                   "%lld of C may hold a partial result\n",
                   routine, cudaGetErrorString(err), static_cast<long long>(left.final_cols + 1),
                   static_cast<long long>(problem.n));
      return false;
    }
    *rest = columns_from(problem, left.final_cols);
    return true;
  }

  static void on_cpu_blas(const Problem& p, double flops) {
    gemm_on_cpu(p);
    cpu_blas::note_call(flops);
  }
  static void on_cpu_blas(const Problem& p) { on_cpu_blas(p, p.flops()); }
  static const char* cpu_blas_label(const Problem& p) {
    return cpu_gemm_label(p, CpuGemmPath::kCpuBlas);
  }
};

}  // namespace

void gemm_on_cpu_path(const Problem& call, const Rates& rates) {
  // Where the small-call rule says our host kernel (it beat the CPU BLAS and the team at the
  // points on both sides), route_plan_gemm_on_cpu() would pick it too: run it without the costing
  // (a small call's plan on the host, whose GEMMs take tens of nanoseconds).
  if (rates.small_calls.path_of(call.flops()) == CpuPath::kHostKernel &&
      GemmDispatch::host_kernel_takes(call)) {
    GemmDispatch::run_host_kernel(call);
    return;
  }
  static const std::string kNoDevice = "a step of a plan on the host";
  GemmDispatch op(call);
  op.rates = &rates;
  const CallSite site{Placement{}, nullptr, kNoDevice};
  GemmRoute route = route_plan_gemm_on_cpu(op.problem, rates);
  if (!op.run_own_cpu_path(route, site)) GemmDispatch::on_cpu_blas(op.problem);
}

void gemm(const Problem& call, const char* routine) { dispatch<GemmDispatch>(call, routine); }

}  // namespace tileblas
