// Measures the rates the cost model needs (src/router.h Rates), once per process and per data
// type, the first time a host-data GEMM has to be routed: a CPU BLAS sgemm at nine sizes (and our
// host kernel, and the host team, at the same sizes), pinned
// and pageable copies each way, pageable copies through the executor's staging pipeline at two
// sizes, a tiny GEMM on host data with plain and with bounced copies (the fixed cost of a host-data
// call each way), two more bounced GEMMs (the bounce buffer's packing rate, and the kernel's rate
// reading across the bus), and the kernel the router would pick at 1024^3.
#pragma once

#include "problem.h"
#include "router.h"

namespace tileblas {

class Device;

// Rates for routing `p` (its data type picks the GPU kernel rate). Thread-safe; the first call for
// a data type takes a few milliseconds. `device` must be current.
const Rates& measured_rates(const GemmProblem& p, Device& device);
// The same once measured (one atomic load, nothing made current), else nullptr.
const Rates* rates_if_measured(const GemmProblem& p);

}  // namespace tileblas
