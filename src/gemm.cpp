// tileblas::gemm: route, run on the GPU or the CPU BLAS, fall back to the CPU on any GPU failure.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "calibration.h"
#include "cpu_gemm.h"
#include "device.h"
#include "env.h"
#include "executor.h"
#include "gemm_host_small.h"
#include "host_copies.h"
#include "log.h"
#include "operands.h"
#include "ops.h"
#include "router.h"

namespace tileblas {

const char* name_of(DataType t) {
  switch (t) {
    case DataType::kF16:
      return "f16";
    case DataType::kBF16:
      return "bf16";
    case DataType::kF64:
      return "f64";
    case DataType::kC32:
      return "c32";
    case DataType::kC64:
      return "c64";
    case DataType::kF32:
      break;
  }
  return "f32";
}

Operands operands_of(const GemmProblem& p) {
  const size_t ab = size_of(p.ab_type), ce = size_of(p.c_type);
  const bool products = p.alpha != 0.0 && p.k > 0;
  Operands o;
  o.a = {p.a, p.lda, p.a_rows(), p.a_cols(), ab, products, false};
  o.b = {p.b, p.ldb, p.b_rows(), p.b_cols(), ab, products, false};
  o.c = {p.c, p.ldc, p.m, p.n, ce, p.beta != 0.0, true};
  return o;
}

namespace {

// Columns j0.. of p's C (and of op(B)): the part of p a failed GPU run left to compute.
GemmProblem columns_from(const GemmProblem& p, int64_t j0) {
  GemmProblem q = p;
  const size_t ab = size_of(p.ab_type), ce = size_of(p.c_type);
  q.n = p.n - j0;
  q.b = static_cast<const char*>(p.b) +
        (p.trans_b == Op::kNoTrans ? size_t(j0) * size_t(p.ldb) : size_t(j0)) * ab;
  q.c = static_cast<char*>(p.c) + size_t(j0) * size_t(p.ldc) * ce;
  return q;
}

// The CPU BLAS routine that computes p on the CPU (16-bit data is widened to fp32, src/cpu_gemm.h).
const char* cpu_blas_label(DataType t) {
  switch (t) {
    case DataType::kF64:
      return "cpu_blas dgemm_";
    case DataType::kC32:
      return "cpu_blas cgemm_";
    case DataType::kC64:
      return "cpu_blas zgemm_";
    default:
      return "cpu_blas sgemm_";
  }
}

// p on our host kernel (its variant for this CPU, which supports p), recorded as the call's route.
void gemm_on_host_kernel(const GemmProblem& p, const char* routine, Reason reason) {
  const gemm_host_small::Isa isa = gemm_host_small::best_isa();
  gemm_host_small::run(p, isa);
  record_call(routine, p, TILEBLAS_ROUTE_CPU, gemm_host_small::name_of(isa, p.ab_type),
              std::move(reason));
}

}  // namespace

void gemm(const GemmProblem& call, const char* routine) {
  GemmProblem p = call;
  p.allow_tf32 = p.ab_type == DataType::kF32 && config().allow_tf32;
  // Not made current yet: most host calls stay on the CPU.
  Device* device = Device::available();
  const Placement where = placement_of(operands_of(p), device ? device->index() : -1);
  const bool elsewhere = where.any_other_device();
  if (elsewhere) device = nullptr;
  const Rates* rates = nullptr;
  if (gemm_needs_rates(where, config()) && p.k > 0 && p.alpha != 0.0) {
    if (device) {
      rates = rates_if_measured(p);
      if (!rates) {
        const CurrentDevice current(*device);
        if (current.ok()) rates = measured_rates(p, *device);
      }
    } else if (p.c_type == p.ab_type && size_of(p.ab_type) >= 4) {
      // No GPU: fp32, fp64 and complex still have three CPU paths (the CPU BLAS, the host team,
      // our host kernel).
      rates = measured_cpu_rates(p);
    }
  }
  // Small host problems below the measured crossover: our host kernel, as route_gemm() would say,
  // without its costing (host_kernel_sure_flops()).
  if (rates && p.flops() <= rates->host_kernel_sure_flops) {
    if (gemm_host_small::supports(p, gemm_host_small::best_isa())) {
      gemm_on_host_kernel(p, routine,
                          device ? Reason("host data, host kernel: below the measured crossover")
                                 : Reason("host kernel, below the measured crossover; no GPU: ",
                                          Device::unavailable_reason()));
      return;
    }
  }
  GemmRoute route = route_gemm(
      p, where, config(), device ? &device->caps() : nullptr,
      elsewhere ? std::string("an operand on another GPU") : Device::unavailable_reason(), rates);
  if (route.cpu_path == CpuPath::kHostTeam) {
    const bool on_kernel = team_panels_on_host_kernel(p);
    if (gemm_on_cpu_team(p, route.cpu_parts, on_kernel, route.wake_team)) {
      record_call(routine, p, TILEBLAS_ROUTE_CPU, cpu_team_kernel_name(p, on_kernel),
                  std::move(route.reason));
      return;
    }
    // The team cannot take it now (its workers asleep after a pause and the call too short to wake
    // them, or another call has it): the best route without the team.
    Rates without_team = *rates;
    std::fill(std::begin(without_team.cpu_team_point_s), std::end(without_team.cpu_team_point_s),
              0.0);
    route = route_gemm(p, where, config(), device ? &device->caps() : nullptr,
                       Device::unavailable_reason(), &without_team);
  }
  GemmProblem rest = p;  // what the CPU computes: all of p, or what a failed GPU run left
  if (route.side == TILEBLAS_ROUTE_GPU) {
    cudaError_t err = cudaErrorInvalidDevice;  // CurrentDevice reports its own failure
    const CurrentDevice current(*device);
    if (current.ok()) {
      LeftInC left;
      err = run_gemm(p, where, *route.kernel, route.copies, route.panel_cols, device->caps(),
                     device->stream(), &left);
      if (err == cudaSuccess) {
        record_call(routine, p, TILEBLAS_ROUTE_GPU, route.kernel->name, std::move(route.reason));
        return;
      }
      Device::report_failure(routine, err);
      // Columns already copied back hold the result: computing them again would apply beta twice.
      rest = columns_from(p, left.final_cols);
      if (left.maybe_partial && p.beta != 0.0) {
        std::fprintf(stderr,
                     "tileblas: error: %s: the GPU failed while copying C back; columns %lld to "
                     "%lld of C may hold a partial result\n",
                     routine, static_cast<long long>(left.final_cols + 1),
                     static_cast<long long>(p.n));
      }
    }
    route.reason = std::string("GPU failed (") + cudaGetErrorString(err) + "), CPU fallback";
  } else if (route.cpu_path == CpuPath::kHostKernel) {
    gemm_on_host_kernel(p, routine, std::move(route.reason));
    return;
  }
  if (where.any_gpu_memory()) {
    on_cpu_via_host_copies(operands_of(rest), where, routine,
                           [&](const Operands& h) { gemm_on_cpu(on_operands(rest, h)); });
  } else {
    gemm_on_cpu(rest);
  }
  record_call(routine, p, TILEBLAS_ROUTE_CPU, cpu_blas_label(p.ab_type), std::move(route.reason));
}

}  // namespace tileblas
