// gemm_peel: a GEMM whose C is a few rows or columns past a whole number of a row's tiles, as its
// interior on that row and the thin remainders on gemm_skinny's 16-row tile (the "_peeled_" rows of
// gemm_kernels()).
//
// A row of bm x bn tiles gives the last few rows of C (m mod bm of them) a whole tile row: at
// 1025^3 on 128x64 tiles that is 153 tiles for 132 SMs, so 21 SMs run two tiles while the rest
// run one, and the call takes about twice the time of 1024^3 for a tenth more work. Peeled, the
// interior (m_in x n_in, whole tiles) runs on the row and the remainders on gemm_skinny, which
// streams the large operand once:
//
//   C(0:m_in, 0:n_in) on the row;  C(m_in:m, 0:n) and C(0:m_in, n_in:n) on gemm_skinny::launch_16,
//
// three disjoint parts of C, each C = alpha op(A) op(B) + beta C with op(A)'s rows and op(B)'s
// columns of that part. All three run on the call's stream, the interior first: where the
// interior row copies its operands into a workspace, that is the call's largest allocation, so the
// likeliest failure comes before any of C is written. A remainder that fails after it leaves part
// of C written, as the peeled rows' table entries say (GemmKernel::c_in_parts). On the device's
// side streams (src/device_lanes.h), beside the interior, the remainders cost less (H100, each row
// forced: complex fp64 1025^3 39.7 TFLOP/s against 35.0, the other peeled shapes 0-4 %), but later
// calls of the process that sum split-K slices or stage an operand through a workspace then ran
// slower, for reasons not known: 128x128x65536 fp16 at 0.80-0.86 of cuBLAS against 0.90-0.94,
// 513^3 fp16 (staged) 0.93 against 1.16 (docs/bench/h100-2026-11-28-peel-streams.md). A side is
// peeled when its remainder is 1 to 16 (gemm_skinny's tile) and the side is longer than one tile;
// otherwise the row computes that side's edge tiles itself, so the peeled row computes every
// problem its interior row and gemm_skinny do. The remainders are computed in the type's own
// precision by gemm_skinny (an fp32 remainder of the sgemm_widened rows in fp32, not fp64): each
// element of C is as accurate as the GEMM's type promises.
//
// Contract as the interior row's (kernel_table.h), and: no triangle of C, no a_nonzero or
// b_nonzero (each part would need its own); types fp32, fp64, complex fp32 and complex fp64 (those
// of gemm_skinny).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "problem.h"

namespace tileblas::gemm_peel {

// Where p splits for a row of bm x bn tiles: the interior's rows and columns (m and n where that
// side is not peeled). Whether peeling pays is the router's rule (src/router.cpp, peeling_pays()).
struct Split {
  int64_t m_in = 0, n_in = 0;
};
Split split_of(const Problem& p, int64_t bm, int64_t bn);

// The parts of p for split s: the interior, then the row strip below it (m - m_in rows, every
// column) and the column strip beside it (m_in rows, n - n_in columns); `count` of them are set.
struct Parts {
  Problem part[3];
  int count = 0;
};
Parts parts_of(const Problem& p, const Split& s);

using Supports = bool (*)(const Problem&, const DeviceCaps&);
using Launch = cudaError_t (*)(const Problem&, cudaStream_t);

bool supports(const Problem& p, const DeviceCaps& caps, int64_t bm, int64_t bn, Supports interior);
cudaError_t launch(const Problem& p, cudaStream_t stream, int64_t bm, int64_t bn, Launch interior);

// For the fallback tests: with `fail`, launch() fails after the interior, its remainders not
// launched (a remainder failing once the interior wrote its part of C).
void fail_remainders_for_testing(bool fail);

// A peeled row of gemm_kernels(): the interior row's supports() and launch() with its tile.
template <Supports kSupports, int kBm, int kBn>
bool supports_row(const Problem& p, const DeviceCaps& caps) {
  return supports(p, caps, kBm, kBn, kSupports);
}
template <Launch kLaunch, int kBm, int kBn>
cudaError_t launch_row(const Problem& p, cudaStream_t stream) {
  return launch(p, stream, kBm, kBn, kLaunch);
}

}  // namespace tileblas::gemm_peel
