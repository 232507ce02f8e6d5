// The router: for each call, which side runs it (CPU BLAS or GPU) and which kernel, and why.
// Decisions are pure functions of the problem, where its operands live, the configuration, the
// device's capabilities and the measured rates, so tests can exercise them without a GPU.
#pragma once

#include <limits>
#include <optional>
#include <string>

#include "env.h"
#include "kernel_table.h"
#include "log.h"
#include "memory.h"
#include "problem.h"
#include "tileblas.h"

namespace tileblas {

struct Operands;

// How a CPU route computes host data.
enum class CpuPath {
  kCpuBlas,     // one CPU BLAS call
  kHostTeam,    // panels of C on our host kernel (or as CPU BLAS calls), run by the host team
                // (src/cpu_team.h)
  kHostKernel,  // our own kernel on the calling thread (kernels/gemm_host_small.h)
};

// Host problems of at most `flops` FLOPs that route_gemm() keeps on the CPU, on our host kernel or
// one CPU BLAS call: at each of the first `points` measured CPU points (the smallest first) one of
// the two is predicted fastest, path[i]. A problem up to a point whose path the point below shares
// (or up to the first point) takes that path whatever its shape (kHostKernel: those the kernel
// supports); between points of different paths, the CPU side's prediction decides. flops() 0: none.
struct SmallCallRule {
  static constexpr int kMaxPoints = 9;
  int points = 0;
  double point_flops[kMaxPoints] = {};
  CpuPath path[kMaxPoints] = {};
  // The largest problem it covers: its last point's FLOPs.
  double flops() const { return points > 0 ? point_flops[points - 1] : 0.0; }

  // The path of a problem of f <= flops() FLOPs where one path holds on both sides of it; nullopt
  // between points of different paths (and above flops()).
  std::optional<CpuPath> path_of(double f) const {
    for (int i = 0; i < points; ++i) {
      if (f <= point_flops[i]) {
        if (i > 0 && path[i] != path[i - 1]) return std::nullopt;
        return path[i];
      }
    }
    return std::nullopt;
  }
};

// Measured rates that feed the cost model (src/calibration.cpp measures them on first need).
struct Rates {
  double cpu_flops = 0;       // CPU BLAS sgemm rate at a mid size, FLOP/s
  double cpu_overhead_s = 0;  // fixed cost of one CPU BLAS call
  // CPU BLAS sgemm seconds measured at a few sizes (FLOPs ascending). Where there are two or more,
  // the CPU prediction interpolates between them (a threaded BLAS runs small problems on one
  // thread and wakes all of its threads from some size on: no single overhead + rate line fits
  // both sides of that step) and extends the largest at cpu_flops; else it is that line.
  static constexpr int kMaxCpuPoints = SmallCallRule::kMaxPoints;
  int cpu_points = 0;
  double cpu_point_flops[kMaxCpuPoints] = {};
  double cpu_point_s[kMaxCpuPoints] = {};
  // The same sizes' calls split by cpu_team_parts() across the host team of cpu_team_threads
  // (src/cpu_team.h), its panels on our host kernel where team_panels_on_host_kernel() (else CPU
  // BLAS calls); 0 where that does not apply or was not measured.
  int cpu_team_threads = 0;
  double cpu_team_point_s[kMaxCpuPoints] = {};
  // The same sizes on our own host kernel (kernels/gemm_host_small.h) on the calling thread; 0
  // where it was not measured (no variant for this CPU).
  double host_kernel_point_s[kMaxCpuPoints] = {};
  // Host problems of this type small enough that route_gemm() sends each to the same CPU path
  // (small_call_rule()): gemm() runs them without classifying their operands or costing them.
  SmallCallRule small_calls;
  double h2d_pinned_bps = 0;  // bytes/s host -> device from pinned memory
  double h2d_pageable_bps = 0;
  double d2h_pinned_bps = 0;
  double d2h_pageable_bps = 0;
  double gpu_overhead_s = 0;  // a tiny GEMM on host data, staged: allocations, copies, launch, wait
  double transfer_latency_s = 0;  // one more small host <-> device copy
  double gpu_flops = 0;           // our kernel's rate for this problem's data type, FLOP/s
  // Pageable data through the executor's staging pipeline (host threads into pinned buffers,
  // copy engines from there): bytes/s each way, and the fixed cost of one staged copy. 0: the
  // pipeline is unavailable.
  double h2d_staged_bps = 0;
  double d2h_staged_bps = 0;
  double staged_latency_s = 0;
  // Small host calls through the executor's bounce buffer (packed by the calling thread into
  // pinned memory that the kernel reads and writes across the bus): the fixed cost of a tiny GEMM
  // so, the bytes/s of host operands packed and unpacked, and the kernel's FLOP/s reading across
  // the bus. 0: not measured.
  double bounce_overhead_s = 0;
  double bounce_bps = 0;
  double bounce_flops = 0;
};

struct Placement {
  MemKind a = MemKind::kHostPageable, b = MemKind::kHostPageable, c = MemKind::kHostPageable;
  bool any_device_accessible() const {
    return device_accessible(a) || device_accessible(b) || device_accessible(c);
  }
  // Every operand in host memory (memory of another GPU is not: the CPU reads it through copies).
  bool all_host() const { return !any_device_accessible() && !any_gpu_memory(); }
  bool any_host() const {
    return !device_accessible(a) || !device_accessible(b) || !device_accessible(c);
  }
  // An operand the CPU cannot read (device memory, ours or another GPU's).
  bool any_gpu_memory() const { return in_gpu_memory(a) || in_gpu_memory(b) || in_gpu_memory(c); }
  // An operand on a GPU tileblas does not use: the CPU computes such a call through copies, never
  // a kernel on our device.
  bool any_other_device() const {
    return a == MemKind::kOtherDevice || b == MemKind::kOtherDevice || c == MemKind::kOtherDevice;
  }
};

// Where a call's operands lie, for the device of index `device` (-1: none usable; then any GPU
// memory is another device's): each classify()d on every call (a buffer freed and reallocated as
// another kind must never be misclassified); an operand the routine lacks (B of syrk, trmm, ...)
// taken as A, so that it decides nothing.
Placement placement_of(const Operands& o, int device);

// `Why` is Reason (src/log.h) where the route is taken on every call of a hot path (GEMM): it
// formats nothing until asked.
template <class Kernel, class Why = std::string>
struct Route {
  tileblas_route side = TILEBLAS_ROUTE_CPU;
  const Kernel* kernel = nullptr;  // set when side is GPU
  Why reason;
};

// The GEMM kernel for a problem on device pointers: TILEBLAS_FORCE_KERNEL if it names a row that
// supports the problem, else the first row of the router's preference table that supports it and
// whose size rule holds, else the first row of gemm_kernels() that supports it; nullptr if none.
const GemmKernel* pick_gemm_kernel(const Problem& p, const DeviceCaps& caps,
                                   const std::string& force, std::string* why);

// How a GPU route moves its host operands (device and managed ones are used in place).
enum class HostCopies {
  kPlain,    // cudaMemcpy2DAsync from and to the caller's memory, operand by operand
  kBounced,  // small calls: packed by the calling thread into one pinned buffer that the kernel
             // reads and writes in place
  kStaged,   // large calls: the staging pipeline, C and op(B) in column panels, copies overlapping
             // compute
};

// A GEMM's route. GPU routes with host operands also say how those are copied, and for kStaged
// the panels' width (panel_cols, >= n: one panel).
// CPU routes say which CPU path runs them and, for the host team, in how many panels (cpu_parts)
// and whether its sleeping workers are worth waking for the call (wake_team).
struct GemmRoute : Route<GemmKernel, Reason> {
  HostCopies copies = HostCopies::kPlain;
  int64_t panel_cols = 0;
  CpuPath cpu_path = CpuPath::kCpuBlas;
  int cpu_parts = 0;
  bool wake_team = false;
};

// Width of the column panels for staging `p`'s host operands on a device with `caps`: panels
// narrow enough to overlap copies with compute, wide enough that each still fills the GPU, a
// multiple of 128 columns; n (one panel) when splitting does not pay.
int64_t gemm_panel_cols(const Problem& p, const Placement& where, const DeviceCaps& caps);

// Panels for running p on a host team of `threads` (src/cpu_gemm.h): one per kCpuTeamPartFlops of
// work (in fp32 FLOPs' time: fp64 and complex double count twice), at most one per thread and as
// many as team_split() has room for; 0 where that would be fewer than two, or the team does not
// serve p's types (cpu_team_serves(): f32, f64, c32, c64), or (panels run as CPU BLAS calls) panels
// beyond what the CPU BLAS runs on one thread.
int cpu_team_parts(const Problem& p, int threads);

// Whether a host-team call wakes sleeping workers (CpuTeam::run()'s wake_if_asleep), given its
// time on one thread as one CPU BLAS call and on our host kernel (0: not supported): where the
// faster of them takes at least kTeamWakeAboveSeconds (src/router.cpp).
bool team_call_wakes(double cpu_blas_seconds, double host_kernel_seconds);

// Predicted seconds for the CPU and for the GPU (transfers included) per the cost model; for the
// GPU, host operands copied plainly (panel_cols == 0) or staged in panels of panel_cols.
double predict_cpu_seconds(const Problem& p, const Rates& r);
// The CPU BLAS call split across the host team: interpolated between two measured team points
// around p's size; 0 (unknown) outside them.
double predict_cpu_team_seconds(const Problem& p, const Rates& r);
// Our host kernel: interpolated between two measured points around p's size, at most the smallest
// point's time below it; 0 (unknown) above the largest, or where the kernel does not support p.
double predict_host_kernel_seconds(const Problem& p, const Rates& r);
double predict_gpu_seconds(const Problem& p, const Placement& where, const Rates& r,
                           int64_t panel_cols = 0);
// The same through the bounce buffer (for calls whose host operands fit it: bounce_fits()).
double predict_bounced_seconds(const Problem& p, const Placement& where, const Rates& r);

// The small host calls of the rates' type that route_gemm() keeps on our host kernel or one CPU
// BLAS call: the measured sizes up to the largest such that at it and at every smaller one either
// is predicted fastest (the host kernel by its margin over the CPU BLAS and faster than the host
// team; the CPU BLAS where neither the kernel nor the team beats it by their margins) and faster
// than the GPU's fixed cost. Every prediction interpolates linearly between the points, so what
// holds at two points holds between them. flops() 0 if even the smallest size has no such path.
SmallCallRule small_call_rule(const Rates& r);

// Side and kernel for a GEMM. `caps` is nullptr when no device is usable (`no_device_why` says
// why); host data then runs on the CPU path `rates` (of the CPU side alone) predicts fastest, or
// on one CPU BLAS call without them. `rates` may be nullptr when they are not needed (device data,
// forced modes); the caller measures them when needs_rates() says so.
bool gemm_needs_rates(const Placement& where, const Config& cfg);
// route_gemm()'s CPU path for host data without a GPU (its reason left empty): the Level-3 host
// plans' GEMMs, whose routes are not recorded.
GemmRoute route_gemm_on_cpu(const Problem& p, const Rates& rates);
// The same for a GEMM inside a Level-3 plan on the host (src/host_plans.h): the faster of our host
// kernel and the host team wherever one of them takes p, the CPU BLAS only where neither does. A
// threaded CPU BLAS's workers spin for a while after its call on the cores the plan's next team
// operation (a copy, a fill, a diagonal block; the next call's first) needs: on the H100 host such
// calls ran 2-4x slower in the processes whose rates sent a hemm's GEMM to the CPU BLAS (chemm_
// 128: 78 and 126 GFLOP/s against 338 in the one that did not).
GemmRoute route_plan_gemm_on_cpu(const Problem& p, const Rates& rates);
GemmRoute route_gemm(const Problem& p, const Placement& where, const Config& cfg,
                     const DeviceCaps* caps, const std::string& no_device_why, const Rates* rates);

// ---- Level 3 other than GEMM (symm .. trsm, src/level3.cpp) ----------------------------------

// A square GEMM of p's element type with p's FLOPs: the problem whose measured rates
// (src/calibration.h, measured per data type) and whose CPU BLAS time stand for p's.
Problem gemm_like(const Problem& p);

// Predicted seconds on the CPU BLAS (its GEMM time at p's FLOPs) and on the GPU (p's plan at a
// fraction of the GEMM kernel's rate, plus the plain copies of p's host operands each way).
double predict_level3_cpu_seconds(const Problem& p, const Rates& r);
double predict_level3_gpu_seconds(const Problem& p, const Placement& where, const Rates& r);

// How a Level-3 CPU route computes host data.
enum class Level3CpuPath : uint8_t {
  kCpuBlas,   // the CPU BLAS's routine of the call's name and type
  kHostPlan,  // the routine's plan on the host (src/host_plans.h), its GEMMs on our CPU paths
};

// The small host calls level3() routes at once, without classifying their operands: at each of
// the first `points` of a routine's measured points (Level3Points, the smallest first) the GPU
// loses by route_level3()'s margin and the CPU path path[i] wins (level3_cpu_path_at());
// level3_small_call_path() reads them, costing a call only between points of different paths.
// points 0: none. Every call of at most `first_path_flops` FLOPs (the largest of the leading
// points that all have path[0]; -infinity where points is 0) takes path[0].
struct Level3SmallCalls {
  static constexpr int kMaxPoints = 7;
  int points = 0;
  Level3CpuPath path[kMaxPoints] = {};
  double first_path_flops = -std::numeric_limits<double>::infinity();
};

// One Level-3 routine in one type as it runs, at square sizes from 8 up to where the GPU plan
// starts to win (src/calibration.h): seconds on the CPU BLAS's own routine, as the plan on the
// host, and through the GPU plan with pageable host operands (staged copies included; infinite
// without a GPU). Below the largest, these decide rather than the GEMM-based predictions, which
// miss a plan's several launches and copies and a CPU BLAS's own speed at its small sizes.
struct Level3Points {
  static constexpr int kCount = Level3SmallCalls::kMaxPoints;
  double flops[kCount] = {};  // ascending
  double cpu_s[kCount] = {};
  double host_s[kCount] = {};  // 0: the host plan was not measured
  double gpu_s[kCount] = {};
  // The GEMM rates of the routine's type that the host plan's GEMMs were routed by (and are, when
  // the plan runs); set where host_s is.
  const Rates* rates = nullptr;
  Level3SmallCalls small_calls;  // level3_small_calls(), set where the points are measured
};

// The faster CPU path at point i: the host plan where measured and faster than the CPU BLAS by
// kHostPlanAdvantage (src/router.cpp), else the CPU BLAS.
Level3CpuPath level3_cpu_path_at(const Level3Points& pts, int i);

// Level3Points::small_calls from the points.
Level3SmallCalls level3_small_calls(const Level3Points& pts);

// Seconds at `flops` from the points: linear between two; below the smallest, the smallest's
// (every path's fixed costs, the host plan's and the GPU's above all, are most of a call there).
// Only for flops <= the largest point.
double level3_point_seconds(const Level3Points& pts, const double* seconds, double flops);

// A Level-3 call's side (the GPU runs it as a plan, src/plans.h), its CPU path, and why.
struct Level3Route {
  tileblas_route side = TILEBLAS_ROUTE_CPU;
  Level3CpuPath cpu_path = Level3CpuPath::kCpuBlas;
  // On the CPU BLAS only because its workers may spin: the host plan's without them. The dispatch
  // does not note such a call (cpu_blas::note_call()): noted, each would open the window again, and
  // a routine whose calls come more often than cpu_blas::kWorkersSpinSeconds apart would stay on
  // the CPU BLAS for good.
  bool cpu_blas_while_workers_spin = false;
  Reason reason;
};

// The CPU path of a host call of `flops` FLOPs (p.flops(); every operand in host memory, auto mode,
// the CPU BLAS's workers not spinning) within pts.small_calls, as route_level3() would route it: at
// or below the first point, at a point, or between two points of one path, that path; between
// points of different paths, the path the points' times at those FLOPs give, where the GPU loses
// there too. nullopt for other calls. Inline up to first_path_flops, the calls of most routines:
// every small Level-3 call asks.
std::optional<Level3CpuPath> level3_small_call_path_above_first(const Level3Points& pts,
                                                                double flops);
inline std::optional<Level3CpuPath> level3_small_call_path(const Level3Points& pts, double flops) {
  if (flops <= pts.small_calls.first_path_flops) return pts.small_calls.path[0];
  return level3_small_call_path_above_first(pts, flops);
}

// Whether route_level3() needs measured rates and points for p: host data in auto mode, with
// products to compute (has_products()).
bool level3_needs_rates(const Problem& p, const Placement& where, const Config& cfg);

// Side for a Level-3 call. `caps` is nullptr when no device is usable (`no_device_why` says why);
// `plan_supports` is level3_on_device_supports() for p on that device. Data on the device (or
// TILEBLAS_MODE=gpu) goes to the GPU where a plan supports it; host data only where the cost model
// predicts the GPU, copies included, faster by the GEMM margin: from `points` (where given) at
// or below their largest size, else from `rates`. Host data on the CPU runs as the host plan where
// `points` cover p and their CPU paths say so (with or without a GPU), else on the CPU BLAS.
// `rates` and `points` may be nullptr where level3_needs_rates() is false. With
// `cpu_blas_workers_spin` (cpu_blas::workers_may_spin()), the host plan, whose team would share the
// cores with them, takes only calls its points say it wins even at a kHostPlanSlowdownWhileSpinning
// (src/router.cpp) share of its measured speed.
Level3Route route_level3(const Problem& p, const Placement& where, const Config& cfg,
                         const DeviceCaps* caps, const std::string& no_device_why,
                         bool plan_supports, const Rates* rates,
                         const Level3Points* points = nullptr, bool cpu_blas_workers_spin = false);

// O(n) operations: host data stays on the CPU (PCIe is slower than host memory) unless
// TILEBLAS_MODE=gpu; device or managed data is computed in place.
Route<AxpyKernel> route_axpy(const AxpyProblem& p, bool x_on_device, bool y_on_device,
                             const Config& cfg, const DeviceCaps* caps,
                             const std::string& no_device_why);
Route<TransposeKernel> route_transpose(const TransposeProblem& p, bool a_on_device,
                                       bool b_on_device, const Config& cfg, const DeviceCaps* caps,
                                       const std::string& no_device_why);

}  // namespace tileblas
