// tileblas::level3()'s small-call step (src/ops.h), inline where compat/ makes a call's Problem: a
// host call within its routine's measured small calls takes the CPU path the points give it,
// without classifying its operands (docs/NOTES-level3.md, small host calls). Where that path is the
// CPU BLAS's routine, most small calls, the call runs there and is recorded without a call into the
// dispatch; the dispatch (src/level3.cpp) takes the same step for the calls that reach it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calibration.h"
#include "cpu_blas.h"
#include "env.h"
#include "log.h"
#include "memory.h"
#include "problem.h"
#include "router.h"

namespace tileblas {

namespace level3_detail {
// "cpu_blas ztrsm_" for each CPU BLAS routine, made as the library loads (src/level3.cpp), kept
// for the process (the record keeps the pointer).
extern const std::vector<std::string> cpu_blas_labels;
}  // namespace level3_detail

// The verbose line's reason for a small call on the CPU BLAS's routine.
inline constexpr const char* kLevel3SmallCallOnCpuBlas =
    "host data, measured for this routine: the CPU BLAS at this size";

// The CPU BLAS routine of p's operation and type, for the record ("cpu_blas ztrsm_").
inline const char* level3_cpu_blas_label(const Problem& p) {
  return level3_detail::cpu_blas_labels[size_t(cpu_blas::routine_of(p.op, p.type))].c_str();
}

// The CPU path of host call p (of `flops` FLOPs, p.flops()) where its routine's points are measured
// and p is within their small calls (level3_small_call_path()), in auto mode (cfg: config()), with
// every operand in the brk heap or on the calling thread's stack; *pts: the points. nullopt for
// every other call.
inline std::optional<Level3CpuPath> level3_small_host_call_path(const Config& cfg, const Problem& p,
                                                                double flops,
                                                                const Level3Points** pts) {
  if (cfg.mode != Mode::kAuto) return std::nullopt;
  *pts = level3_points_if_measured(p);
  if (!*pts) return std::nullopt;
  const std::optional<Level3CpuPath> path = level3_small_call_path(**pts, flops);
  if (!path || !all_in_host_only_range({p.a, p.b, p.c})) return std::nullopt;
  return path;
}

// level3()'s first step for a call handed to the CPU BLAS, inline where the call's Problem is made:
// a small host call whose path is the CPU BLAS's routine runs there, noted
// (cpu_blas::note_call()) and recorded as the dispatch records it, and true is returned; false for
// every other call, and for every call while TILEBLAS_VERBOSE prints them (level3() then routes
// it). p's address is passed on nowhere (the CPU BLAS gets alpha and beta made from its Scalars),
// so that the compiler keeps p in registers.
[[gnu::always_inline]] inline bool level3_small_call_on_cpu_blas(const Problem& p) {
  const Config& cfg = config();
  const double flops = p.flops();
  const Level3Points* pts = nullptr;
  if (cfg.verbose || level3_small_host_call_path(cfg, p, flops, &pts) != Level3CpuPath::kCpuBlas) {
    return false;
  }
  const cpu_blas::Element alpha = cpu_blas::element_of(p.alpha, cpu_blas::alpha_type(p.op, p.type));
  const cpu_blas::Element beta = cpu_blas::element_of(p.beta, cpu_blas::beta_type(p.op, p.type));
  cpu_blas::run(p, alpha.bytes, beta.bytes);
  cpu_blas::note_call(flops);
  set_last_call(TILEBLAS_ROUTE_CPU, level3_cpu_blas_label(p), kLevel3SmallCallOnCpuBlas);
  return true;
}

}  // namespace tileblas
