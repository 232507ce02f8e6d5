// splitk: the split-K machinery the GEMM families share (the split-K rows of sgemm_regblock,
// gemm_f64_mma, cgemm_simt and gemm_wgmma): how many slices k is cut into, the partials' workspace,
// and the reduction.
//
// A split-K row computes  C = alpha * op(A) * op(B) + beta * C  in two kernels on the call's
// stream (gemm_wgmma's rows, sgemm_regblock's 64x64 rows and gemm_f64_mma's complex 64x64 rows sum
// up to 8 slices of a tile in a thread-block cluster instead, in the same order:
// kernels/gemm_wgmma.h, kernels/sgemm_regblock.h, kernels/gemm_f64_mma.h):
//   1. the row's GEMM kernel, one grid index per slice: slice s multiplies k-steps
//      [s * k_steps, (s + 1) * k_steps) (the last slice may hold fewer) and writes its unscaled
//      partial product (alpha 1, beta 0, every element of its tiles, no triangle), in the
//      partial type of C (partial_type()), to partial + s * m_pad * n, column-major with leading
//      dimension m_pad >= m;
//   2. reduce(): C = alpha * (the slices' partials summed) + beta * C. Up to 16 slices are summed
//      in slice order; more are cut into 2, 4 or 8 runs of consecutive slices (as few as hold 16
//      slices each), each summed in slice order, and the runs' sums added in run order.
// Deterministic: no atomics, each element's sum is taken in an order that depends only on the
// slice count, whatever the schedule.
//
// reduce() contract. Types of C: f32, f64, c32, c64 (complex interleaved re, im), the partials of
// the same type (partial_type()); f16 and bf16, the partials fp32; f32 and c32 also with f64 and
// c64 partials (the rows that compute them in fp64), rounded once to C's type, to nearest. m, n >=
// 1; slices >= 0 (0: C = beta * C, the partials are not read); partial 16-byte aligned (workspace
// memory), m_pad >= m; C aligned to its real part (4 or 8 bytes: complex C is read and written a
// part at a time), ldc >= m. beta == 0: C is not read (NaN in C does not leak). Only C's m x n
// elements are written (rows m..ldc-1 stay untouched). Complex arithmetic as the FP64 tensor-core
// epilogue's:
//   re = fma(ar, xr, -ai xi) + fma(br, cr, -bi ci),  im = fma(ar, xi, ai xr) + fma(br, ci, bi cr);
// real: fma(beta, c, alpha * x), in fp32 for a 16-bit C. With one slice the result equals that of
// the row's own epilogue.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "problem.h"

namespace tileblas::splitk {

// What the slice rule needs of a split-K row: its output tile, its k-step, how many of its blocks
// an SM runs together, and the fewest k-steps a slice gets (every slice pays the fill of the row's
// copy pipeline once).
struct Geometry {
  int block_m, block_n, block_k;
  int blocks_per_sm;
  int min_steps_per_slice;

  // Whether this geometry is a kernel's tile (for the static checks that the geometry the router
  // and the tests read is the kernel's).
  constexpr bool is_tile(int m, int n, int k, int per_sm) const {
    return block_m == m && block_n == n && block_k == k && blocks_per_sm == per_sm;
  }
};
// Whether g is the tile of a kernel configuration Cfg (kBlockM, kBlockN, kBlockK, kBlocksPerSm).
template <class Cfg>
constexpr bool describes(const Geometry& g) {
  return g.is_tile(Cfg::kBlockM, Cfg::kBlockN, Cfg::kBlockK, Cfg::kBlocksPerSm);
}

// `count` slices of `k_steps` k-steps each (the last one may be shorter, none is empty); count 0
// when k is 0.
struct Slices {
  int64_t count = 0;
  int64_t k_steps = 0;
};

// The type a row's partials are written in for C of type c: C's own, fp32 for a 16-bit C (the
// accumulators' type).
constexpr DataType partial_type(DataType c) {
  return c == DataType::kF16 || c == DataType::kBF16 ? DataType::kF32 : c;
}

// Slices are a grid dimension.
constexpr int64_t kMaxSlices = 65535;
// The most slices of a tile a row sums in one thread-block cluster (the portable cluster size).
constexpr int kMaxClusterSlices = 8;

// Enough slices that the tiles times the slices fill every SM with blocks_per_sm blocks, each
// slice at least min_steps_per_slice k-steps (at least one slice), at most kMaxSlices; then as few
// slices as that many k-steps per slice needs, so that none is empty.
inline Slices slices_for(const Geometry& g, int64_t m, int64_t n, int64_t k, int sms) {
  const int64_t tiles = ((m + g.block_m - 1) / g.block_m) * ((n + g.block_n - 1) / g.block_n);
  const int64_t k_steps = (k + g.block_k - 1) / g.block_k;
  if (k_steps <= 0 || tiles <= 0) return {};
  int64_t count = std::clamp<int64_t>(int64_t(g.blocks_per_sm) * sms / tiles, 1,
                                      std::max<int64_t>(1, k_steps / g.min_steps_per_slice));
  count = std::min(count, kMaxSlices);
  Slices s;
  s.k_steps = (k_steps + count - 1) / count;
  s.count = (k_steps + s.k_steps - 1) / s.k_steps;
  return s;
}

// The slices of p for a row of geometry g on the current device's SMs; none where alpha is 0
// (run() then only scales C).
cudaError_t slices_of(const Geometry& g, const Problem& p, Slices* out);

// C = alpha * (sum of the slices' partials, in the order above) + beta * C for C of `type`,
// partials of `partial_type` (see the contract above; other pairs: cudaErrorInvalidValue).
cudaError_t reduce(DataType type, DataType partial_type, int64_t m, int64_t n, int64_t slices,
                   const void* partial, int64_t m_pad, Scalar alpha, Scalar beta, void* c,
                   int64_t ldc, cudaStream_t stream);

// Allocates `bytes` for the partials from the device's workspace pool, stream-ordered
// (gemm_device::allocate_workspace; this header is also read by host code, which cannot include
// gemm_device_common.cuh).
cudaError_t allocate_partials(size_t bytes, void** partial, cudaStream_t stream);

// Runs a split-K GEMM p of `s` slices: allocates the partials (s.count x m_pad x n elements of
// `partials`: partial_type(p.c_type), or kF64 / kC64 for a kF32 / kC32 C computed in fp64), calls
// launch_slices(partial) to enqueue the row's kernel over every slice, then reduce(), and frees
// the partials (stream-ordered). A row whose kernel can sum the slices itself takes
// launch_slices(partial, &summed) and sets summed where it did: reduce() then does not run.
// Without slices only reduce() runs (C = beta * C: alpha == 0 or k == 0).
template <class LaunchSlices>
cudaError_t run(const Problem& p, DataType partials, const Slices& s, int64_t m_pad,
                LaunchSlices&& launch_slices, cudaStream_t stream) {
  void* partial = nullptr;
  cudaError_t err = cudaSuccess;
  bool summed = false;
  if (s.count > 0) {
    const size_t bytes = size_t(s.count) * size_t(m_pad) * size_t(p.n) * size_of(partials);
    err = allocate_partials(bytes, &partial, stream);
    if (err != cudaSuccess) return err;
    if constexpr (std::is_invocable_v<LaunchSlices, void*, bool*>) {
      err = launch_slices(partial, &summed);
    } else {
      err = launch_slices(partial);
    }
  }
  if (err == cudaSuccess && !summed)
    err = reduce(p.c_type, partials, p.m, p.n, s.count, partial, m_pad, p.alpha, p.beta, p.c, p.ldc,
                 stream);
  if (partial) {
    const cudaError_t free_err = cudaFreeAsync(partial, stream);
    if (err == cudaSuccess) err = free_err;
  }
  return err;
}

}  // namespace tileblas::splitk
