// splitk: see splitk.h for the contract of the reduction and the slice rule.
#include "splitk.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm_device_common.cuh"

namespace tileblas::splitk {
namespace {

constexpr int kReduceThreads = 256;
// Partial loads a thread issues at once: the slices are read in groups of this many, every load
// of a group issued before the first add (the last group's loads past the slices are predicated
// off and add zero). Few output elements over many slices (sgemm 128x128x65536: 16,384 threads,
// ~200 slices) or few slices (gemm_skinny 16x4096x4096: 16) make the reduce latency-bound; a
// loop unrolled by 32 ran a count of slices below 32 one load at a time (16 slices of 16 x 4096:
// 9.5 us, 5.0 us in groups; H100, docs/bench/h100-2026-11-27-splitk-reduce-ncu.txt).
constexpr int kReduceGroup = 16;
// Grid: one thread per element of C, at most this many blocks per SM (a grid-stride loop does the
// rest).
constexpr int kReduceBlocksPerSm = 16;

template <class Real>
struct Pair;
template <>
struct Pair<float> {
  using type = float2;
};
template <>
struct Pair<double> {
  using type = double2;
};

// Real: the partials' (and the arithmetic's) type; Out: C's element or real part (Real, a
// 16-bit type whose partials are fp32, or fp32 whose complex partials are fp64).
template <class Real, class Out>
struct ReduceArgs {
  int64_t m, n;
  int slices;
  const Real* partial;  // slices of m_pad x n elements (2 Reals each if complex)
  int64_t m_pad;
  Real alpha_re, alpha_im, beta_re, beta_im;
  bool beta_zero;
  Out* c;
  int64_t ldc;
};

// One thread per element of C (grid-stride): the slices' partials of the element summed in slice
// order, then alpha and beta.
template <class Real, class Out, bool kComplex>
__global__ void __launch_bounds__(kReduceThreads)
    splitk_reduce_kernel(const ReduceArgs<Real, Out> a) {
  const int64_t total = a.m * a.n;
  const int64_t slice_stride = a.m_pad * a.n;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < total;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t row = e % a.m, col = e / a.m;
    const int64_t at = row + col * a.m_pad;
    if constexpr (!kComplex) {
      const Real* src = a.partial + at;
      Real sum = 0;
      for (int s0 = 0; s0 < a.slices; s0 += kReduceGroup) {
        Real x[kReduceGroup];
#pragma unroll
        for (int j = 0; j < kReduceGroup; ++j)
          x[j] = s0 + j < a.slices ? src[int64_t(s0 + j) * slice_stride] : Real(0);
#pragma unroll
        for (int j = 0; j < kReduceGroup; ++j) sum += x[j];
      }
      Out* dst = a.c + row + col * a.ldc;
      Real v = a.alpha_re * sum;
      if (!a.beta_zero) v = fma(a.beta_re, static_cast<Real>(*dst), v);
      *dst = static_cast<Out>(v);
    } else {
      using Vec = typename Pair<Real>::type;
      const Vec* src = reinterpret_cast<const Vec*>(a.partial) + at;
      Real xr = 0, xi = 0;
      for (int s0 = 0; s0 < a.slices; s0 += kReduceGroup) {
        Vec x[kReduceGroup];
#pragma unroll
        for (int j = 0; j < kReduceGroup; ++j)
          x[j] = s0 + j < a.slices ? src[int64_t(s0 + j) * slice_stride] : Vec{0, 0};
#pragma unroll
        for (int j = 0; j < kReduceGroup; ++j) {
          xr += x[j].x;
          xi += x[j].y;
        }
      }
      Out* dst = a.c + 2 * (row + col * a.ldc);
      Real re = fma(a.alpha_re, xr, -a.alpha_im * xi);
      Real im = fma(a.alpha_re, xi, a.alpha_im * xr);
      if (!a.beta_zero) {
        const Real cr = dst[0], ci = dst[1];
        re += fma(a.beta_re, cr, -a.beta_im * ci);
        im += fma(a.beta_re, ci, a.beta_im * cr);
      }
      dst[0] = static_cast<Out>(re);
      dst[1] = static_cast<Out>(im);
    }
  }
}

template <class Real, class Out, bool kComplex>
cudaError_t launch_reduce(int64_t m, int64_t n, int64_t slices, const void* partial, int64_t m_pad,
                          Scalar alpha, Scalar beta, void* c, int64_t ldc, cudaStream_t stream) {
  int sms = 0;
  if (cudaError_t err = gemm_device::current_sm_count(&sms); err != cudaSuccess) return err;
  ReduceArgs<Real, Out> a;
  a.m = m, a.n = n, a.slices = int(slices);
  a.partial = static_cast<const Real*>(partial);
  a.m_pad = m_pad;
  a.alpha_re = Real(alpha.re), a.alpha_im = Real(kComplex ? alpha.im : 0.0);
  a.beta_re = Real(beta.re), a.beta_im = Real(kComplex ? beta.im : 0.0);
  a.beta_zero = a.beta_re == Real(0) && a.beta_im == Real(0);
  a.c = static_cast<Out*>(c);
  a.ldc = ldc;
  const int64_t blocks = std::min<int64_t>((m * n + kReduceThreads - 1) / kReduceThreads,
                                           int64_t(sms) * kReduceBlocksPerSm);
  splitk_reduce_kernel<Real, Out, kComplex><<<unsigned(blocks), kReduceThreads, 0, stream>>>(a);
  return cudaGetLastError();
}

}  // namespace

cudaError_t slices_of(const Geometry& g, const Problem& p, Slices* out) {
  *out = Slices{};
  if (p.alpha.is_zero()) return cudaSuccess;
  int sms = 0;
  if (cudaError_t err = gemm_device::current_sm_count(&sms); err != cudaSuccess) return err;
  *out = slices_for(g, p.m, p.n, p.k, sms);
  return cudaSuccess;
}

cudaError_t reduce(DataType type, DataType partial_type, int64_t m, int64_t n, int64_t slices,
                   const void* partial, int64_t m_pad, Scalar alpha, Scalar beta, void* c,
                   int64_t ldc, cudaStream_t stream) {
  if (m < 1 || n < 1 || slices < 0 || slices > kMaxSlices || m_pad < m || ldc < m)
    return cudaErrorInvalidValue;
  if (type == DataType::kC32 && partial_type == DataType::kC64) {
    return launch_reduce<double, float, true>(m, n, slices, partial, m_pad, alpha, beta, c, ldc,
                                              stream);
  }
  if (partial_type != splitk::partial_type(type)) return cudaErrorInvalidValue;
  switch (type) {
    case DataType::kF32:
      return launch_reduce<float, float, false>(m, n, slices, partial, m_pad, alpha, beta, c, ldc,
                                                stream);
    case DataType::kF16:
      return launch_reduce<float, __half, false>(m, n, slices, partial, m_pad, alpha, beta, c, ldc,
                                                 stream);
    case DataType::kBF16:
      return launch_reduce<float, __nv_bfloat16, false>(m, n, slices, partial, m_pad, alpha, beta,
                                                        c, ldc, stream);
    case DataType::kF64:
      return launch_reduce<double, double, false>(m, n, slices, partial, m_pad, alpha, beta, c, ldc,
                                                  stream);
    case DataType::kC32:
      return launch_reduce<float, float, true>(m, n, slices, partial, m_pad, alpha, beta, c, ldc,
                                               stream);
    case DataType::kC64:
      return launch_reduce<double, double, true>(m, n, slices, partial, m_pad, alpha, beta, c, ldc,
                                                 stream);
  }
  return cudaErrorInvalidValue;
}

cudaError_t allocate_partials(size_t bytes, void** partial, cudaStream_t stream) {
  return gemm_device::allocate_workspace(bytes, partial, stream);
}

}  // namespace tileblas::splitk
