// splitk_sum: how the split-K reduction sums one element's slices (kernels/splitk.h), shared by
// splitk::reduce's kernel and the wgmma rows' sum inside their own grid (kernels/gemm_wgmma.cu), so
// that both take the same sums in the same order; and how it applies a complex alpha and beta
// (store_complex(), shared with the complex rows' sum in their cluster, kernels/gemm_f64_mma.cu).
//
// An element's S slices are cut into runs (run_length()): run r holds slices [r * run, min(S, (r +
// 1) * run)), summed in slice order from zero (sum_run()), and the element's sum is run 0 plus run
// 1 plus ... in run order. The order depends only on S, never on the schedule.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace tileblas::splitk {

// Partial loads a thread issues at once: a run's slices are read in groups of this many, every
// load of a group issued before the first add (the last group's loads past the run are predicated
// off and add zero). A loop unrolled by 32 ran a count of slices below 32 one load at a time (16
// slices of 16 x 4096: 9.5 us, 5.0 us in groups; H100,
// docs/bench/h100-2026-11-27-splitk-reduce-ncu.txt).
constexpr int kSumGroup = 16;
// Runs, at most: with more than kSumGroup slices, each of up to this many threads sums a run, so
// that no thread's loads are several round trips to memory one after another (fp16 128x128x65536,
// 128 slices of 16,384 elements: 12.1 us with one thread an element, 6.7 us in 8 runs; H100,
// docs/bench/h100-2026-11-27-splitk-reduce-runs-ncu.csv).
constexpr int kMaxRuns = 8;

// The runs of `slices` slices: one per kSumGroup slices, a power of two up to kMaxRuns.
inline __host__ __device__ int runs_of(int64_t slices) {
  int runs = 1;
  while (runs < kMaxRuns && int64_t(runs) * kSumGroup < slices) runs *= 2;
  return runs;
}
// The slices of each run (the last run may hold fewer).
inline __host__ __device__ int run_length(int64_t slices) {
  const int runs = runs_of(slices);
  return int((slices + runs - 1) / runs);
}

// sum += x, for a real or a float2 / double2 (re, im) pair.
template <class Value>
__device__ void add(Value& sum, const Value& x) {
  if constexpr (std::is_arithmetic_v<Value>) {
    sum += x;
  } else {
    sum.x += x.x;
    sum.y += x.y;
  }
}

// Slices [s_begin, s_end) of one element, `src` its slice 0 and `stride` elements between slices,
// summed in slice order from zero. Value: a real, or a float2 / double2 (re, im) pair.
template <class Value>
__device__ Value sum_run(const Value* src, int64_t stride, int s_begin, int s_end) {
  const Value zero{};
  Value sum = zero;
  for (int s0 = s_begin; s0 < s_end; s0 += kSumGroup) {
    Value x[kSumGroup];
#pragma unroll
    for (int j = 0; j < kSumGroup; ++j)
      x[j] = s0 + j < s_end ? src[int64_t(s0 + j) * stride] : zero;
#pragma unroll
    for (int j = 0; j < kSumGroup; ++j) add(sum, x[j]);
  }
  return sum;
}

// C = alpha * x + beta * C for complex x and C (c: C's re, im, of real type Out), in Real, rounded
// once to Out:  re = fma(ar, xr, -ai xi) + fma(br, cr, -bi ci),  im = fma(ar, xi, ai xr) +
// fma(br, ci, bi cr). beta_zero: C is not read.
template <class Real, class Out>
__device__ __forceinline__ void store_complex(Out* c, Real xr, Real xi, Real ar, Real ai, Real br,
                                              Real bi, bool beta_zero) {
  Real re = fma(ar, xr, -ai * xi);
  Real im = fma(ar, xi, ai * xr);
  if (!beta_zero) {
    const Real cr = c[0], ci = c[1];
    re += fma(br, cr, -bi * ci);
    im += fma(br, ci, bi * cr);
  }
  c[0] = static_cast<Out>(re);
  c[1] = static_cast<Out>(im);
}

}  // namespace tileblas::splitk
