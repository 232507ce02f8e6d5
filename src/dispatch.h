// One dispatch for every operation: classify the operands, price the candidate paths and route, run
// one path, fall back to the CPU on any GPU failure, record the call. gemm() (src/gemm.cpp) and
// level3() (src/level3.cpp) run it with a policy type that supplies what differs between them:
//
//   static const char* run_small_host_call(const Problem& call, Reason* why)
//                                      runs a small host call whose route needs no classification
//                                      or costing (GEMM: src/router.h small_call_rule()) and
//                                      returns what ran, with *why; nullptr where it does not
//                                      apply. It reads the caller's Problem: the policy (which may
//                                      copy it) is made, from the call, only for the other calls
//   Problem problem                    the call (src/problem.h): what
//                                      operands_of() describes and record_call() records
//   Route route(const CallSite&)       prices the paths and routes (rates are measured on the
//                                      first call that needs them); Route has `side` and `reason`
//   const char* run_own_cpu_path(Route&, const CallSite&)
//                                      runs the route's CPU path where it is the operation's own
//                                      rather than the CPU BLAS (GEMM: our host kernel, the host
//                                      team) and returns what ran; nullptr where the CPU BLAS or
//                                      the GPU runs the call, as `route` then says (a path may
//                                      decline the call and route it again)
//   cudaError_t run_on_gpu(const Route&, const CallSite&)
//                                      runs the route on the device (made current)
//   const char* gpu_label(const Route&)
//                                      what ran on the GPU, for the record
//   bool left_for_cpu(cudaError_t, const char* routine, Problem* rest)
//                                      after a failed GPU run: narrows *rest (all of the call
//                                      until then) to what the CPU must still compute and returns
//                                      true, or returns false where the output cannot be computed
//                                      again, having said so on stderr
//   static void on_cpu_blas(const Problem&), static const char* cpu_blas_label(const Problem&)
//                                      the CPU BLAS routine on host pointers, and its name
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "device.h"
#include "host_copies.h"
#include "log.h"
#include "operands.h"
#include "router.h"

namespace tileblas {

// Where a call's operands lie, and the device that may run it.
struct CallSite {
  Placement where;
  Device* device;                    // nullptr: none usable, or an operand on another GPU
  const std::string& no_device_why;  // why device is nullptr (a string kept for the process)

  const DeviceCaps* caps() const { return device ? &device->caps() : nullptr; }
};

// Classifies a call's operands (placement_of()) for the device available now, without making it
// current (most host calls stay on the CPU). An operand on another GPU leaves the call no device.
CallSite call_site_of(const Operands& o);

// dispatch() after its first step: the operands classified, the paths priced, one path run.
// Out of line: its frame (the GPU path's) would otherwise be set up for every small call too.
template <class Op>
[[gnu::noinline]] void dispatch_classified(Op& op, const char* routine) {
  // Classify the operands.
  const CallSite site = call_site_of(operands_of(op.problem));

  // Price the candidate paths; route.
  auto route = op.route(site);

  // Run one path: the operation's own CPU path, or the GPU.
  tileblas_route side = TILEBLAS_ROUTE_CPU;
  const char* ran = op.run_own_cpu_path(route, site);  // nullptr: the CPU BLAS is still to run
  // What a failed GPU run left for the CPU BLAS (none: all of the call).
  std::optional<std::decay_t<decltype(op.problem)>> left;
  if (!ran && route.side == TILEBLAS_ROUTE_GPU) {
    cudaError_t err = cudaErrorInvalidDevice;  // CurrentDevice reports its own failure
    const CurrentDevice current(*site.device);
    if (current.ok()) {
      err = op.run_on_gpu(route, site);
      if (err == cudaSuccess) {
        side = TILEBLAS_ROUTE_GPU;
        ran = op.gpu_label(route);
      } else {
        Device::report_failure(routine, err);
        left.emplace(op.problem);
        if (!op.left_for_cpu(err, routine, &*left)) {  // nothing can be computed again
          side = TILEBLAS_ROUTE_GPU;
          ran = op.gpu_label(route);
          route.reason =
              std::string("GPU failed while writing the output (") + cudaGetErrorString(err) + ")";
        }
      }
    }
    if (!ran) {
      route.reason = std::string("GPU failed (") + cudaGetErrorString(err) + "), CPU fallback";
    }
  }

  // The CPU BLAS, as routed or as the fallback of a failed GPU run (what it left); operands in GPU
  // memory through host copies.
  if (!ran) {
    const auto& rest = left ? *left : op.problem;
    if (site.where.any_gpu_memory()) {
      on_cpu_via_host_copies(operands_of(rest), site.where, routine,
                             [&](const Operands& h) { Op::on_cpu_blas(on_operands(rest, h)); });
    } else {
      Op::on_cpu_blas(rest);
    }
    ran = Op::cpu_blas_label(op.problem);
  }

  // Record.
  record_call(routine, op.problem, side, ran, std::move(route.reason));
}

template <class Op>
void dispatch(const Problem& call, const char* routine) {
  // A small host call the measured rates settle alone.
  Reason small_why;
  if (const char* ran = Op::run_small_host_call(call, &small_why)) {
    record_call(routine, call, TILEBLAS_ROUTE_CPU, ran, std::move(small_why));
    return;
  }
  Op op{call};
  dispatch_classified(op, routine);
}

}  // namespace tileblas
