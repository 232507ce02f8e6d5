// One GEMM of any sweep element type (tests/support/gemm_sweep.h) run on device buffers and checked
// against OpenBLAS: fresh random inputs of the type, C poisoned with NaN where beta == 0 (which
// must not be read), C's rows below m (ldc > m) poisoned and checked bit for bit unchanged, then
//   - every element of C is written and finite;
//   - C(R, J) against OpenBLAS dgemm_ (zgemm_ for complex types) on op(A)(R, :) and op(B)(:, J)
//     upcast to fp64 (exact), per real part |C - ref| <= 2 u (parts k + 4) S + u_C |ref|, with
//     u the unit roundoff of the kernels' accumulation (2^-24 for fp32 accumulation), S =
//     |alpha| |op(A)||op(B)| + |beta C| (moduli) and u_C that of C's type; doubled for fp64
//     types, whose reference rounds as much. R and J are all rows and columns of dimensions up
//     to 768, and otherwise the first 136, the last 264 (the edge tiles of every tile shape in the
//     kernel table) and 112 others drawn at random: OpenBLAS's share of a test stays small at
//     8192^3 while every edge tile is checked.
// Used by the shape sweep's test (the routed call) and by the tests of rows that serve every type
// (a row forced through its launch()).
#pragma once

#include <cstdint>
#include <string>

#include "gemm_sweep.h"
#include "kernel_table.h"

namespace tbtest {

struct SweepRun {
  // nullptr: tileblas::gemm() routes the call (it must go to the GPU); else this row's launch().
  const tileblas::GemmKernel* forced = nullptr;
  int64_t ldc_pad = 0;         // C's leading dimension is m + ldc_pad
  bool null_when_zero = true;  // alpha == 0: A and B passed as nullptr (they must not be read)
};

// Runs shape `s` of type `t` and checks it; returns "" or what went wrong (naming the kernel).
std::string run_sweep_shape(const tbsweep::SweepType& t, const tbsweep::SweepShape& s,
                            tileblas::Scalar alpha, tileblas::Scalar beta,
                            const SweepRun& how = {});

}  // namespace tbtest
