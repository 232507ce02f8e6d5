// Measures the rates the cost model needs (src/router.h Rates). Once per process, on the first
// host-data GEMM that has to be routed: pinned and pageable copies each way, pageable copies
// through the executor's staging pipeline at two sizes, a tiny fp32 GEMM on host data with plain
// and with bounced copies (the fixed cost of a host-data call each way) and two more bounced GEMMs
// (the bounce buffer's packing rate, and the kernel's rate reading across the bus). Once per data
// type, on the first host-data GEMM of that type: the CPU side at nine sizes in that type (the CPU
// BLAS and, for f32, f64, c32 and c64, our host kernel and the host team), and the kernel the
// router would pick at 1024^3. Once per Level-3 routine and type, on its first host call to be
// routed: that routine at four sizes on each of its paths.
#pragma once

#include <atomic>

#include "env.h"
#include "problem.h"
#include "router.h"

namespace tileblas {

class Device;

// Rates for routing `p` (its data type picks the CPU points and the GPU kernel rate). Thread-safe;
// the first call for a data type takes a few milliseconds (tens for complex double). `device` must
// be current. nullptr while another thread is measuring: rather than wait for it, a call is routed
// without rates (host data stays on the CPU side).
const Rates* measured_rates(const Problem& p, Device& device);
// The same once measured (one atomic load, nothing made current), else nullptr.
const Rates* rates_if_measured(const Problem& p);
// Those of `type` (and TF32 choice, as Problem::allow_tf32), else measured_cpu_rates()' once
// measured, else nullptr (at most two atomic loads).
const Rates* any_rates_if_measured(DataType type, bool allow_tf32);
// GEMM's TF32 choice for a call of `type` (its Problem::allow_tf32, which keys its rates): fp32
// where the user opted in.
inline bool gemm_allows_tf32(DataType type) {
  return type == DataType::kF32 && config().allow_tf32;
}
// The points of p's Level-3 routine and type (src/router.h Level3Points), measured on the first
// host call of that routine and type that needs them: the CPU BLAS routine, the plan on the host
// (src/host_plans.h, its GEMMs routed by `rates`, those of p's type, kept in the points) and, with
// a `device` (current, its plan supporting p's routine and type), the GPU plan on pageable host
// operands (run_level3(), staged copies), at 8, 16, 32, 64, 128, 256 and 512, side L, lower, N,
// non-unit, k = n, each the median of its warm calls (tens of milliseconds in all, and the CPU
// BLAS's workers' spin after its points; without a device the GPU's times are infinite). nullptr
// while another thread is measuring, or where a run failed.
const Level3Points* measured_level3_points(const Problem& p, Device* device, const Rates& rates);
namespace calibration_detail {
// The points of each (operation, type) once measured_level3_points() has stored them.
extern std::atomic<const Level3Points*> level3_slots[kOperationCount * kDataTypeCount];
}  // namespace calibration_detail
// The same once measured, else nullptr. Inline (one load): every small Level-3 call asks.
inline const Level3Points* level3_points_if_measured(const Problem& p) {
  return calibration_detail::level3_slots[int(p.op) * kDataTypeCount + int(p.type)].load(
      std::memory_order_acquire);
}
// Whether p is at most as much work as the largest point (only such calls need the points).
bool level3_points_cover(const Problem& p);

// Rates of the CPU side alone, for a process without a usable GPU (its fixed cost infinite):
// measured once per data type on first need, as measured_rates() measures that side; nullptr while
// another thread is measuring them.
const Rates* measured_cpu_rates(const Problem& p);

}  // namespace tileblas
