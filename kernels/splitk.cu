// splitk: see splitk.h for the contract of the reduction and the slice rule.
#include "splitk.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gemm_device_common.cuh"
#include "splitk_sum.cuh"

namespace tileblas::splitk {
namespace {

constexpr int kReduceThreads = 256;
// Grid: at most this many blocks per SM (a grid-stride loop does the rest).
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
  int run;              // slices per run: run r sums slices [r * run, (r + 1) * run)
  const Real* partial;  // slices of m_pad x n elements (2 Reals each if complex)
  int64_t m_pad;
  Real alpha_re, alpha_im, beta_re, beta_im;
  bool beta_zero;
  Out* c;
  int64_t ldc;
};

// An element's partials: a Real, or a (re, im) pair.
template <class Real, bool kComplex>
using Value = std::conditional_t<kComplex, typename Pair<Real>::type, Real>;

// Block (blockDim.x elements, blockDim.y runs): thread (x, r) sums run r of the slices of element x
// of the block's current elements (grid-stride, kernels/splitk_sum.cuh); thread (x, 0) then adds
// the runs' sums in run order and applies alpha and beta.
template <class Real, class Out, bool kComplex>
__global__ void __launch_bounds__(kReduceThreads)
    splitk_reduce_kernel(const ReduceArgs<Real, Out> a) {
  using V = Value<Real, kComplex>;
  __shared__ V run_sums[kReduceThreads];
  const int64_t total = a.m * a.n;
  const int64_t slice_stride = a.m_pad * a.n;
  const int r = threadIdx.y;
  const int s_begin = r * a.run, s_end = min(a.slices, s_begin + a.run);
  // The loop's trip count is the block's, so every thread reaches its barriers.
  for (int64_t base = blockIdx.x * int64_t(blockDim.x); base < total;
       base += int64_t(gridDim.x) * blockDim.x) {
    const int64_t e = base + threadIdx.x;
    const bool valid = e < total;
    const int64_t row = valid ? e % a.m : 0, col = valid ? e / a.m : 0;
    const V* src = reinterpret_cast<const V*>(a.partial) + row + col * a.m_pad;
    V sum = valid ? sum_run(src, slice_stride, s_begin, s_end) : V{};
    if (blockDim.y > 1) {
      run_sums[r * blockDim.x + threadIdx.x] = sum;
      __syncthreads();
      if (r == 0) {
        for (int i = 1; i < int(blockDim.y); ++i) add(sum, run_sums[i * blockDim.x + threadIdx.x]);
      }
      __syncthreads();
    }
    if (r != 0 || !valid) continue;
    if constexpr (!kComplex) {
      Out* dst = a.c + row + col * a.ldc;
      Real v = a.alpha_re * sum;
      if (!a.beta_zero) v = fma(a.beta_re, static_cast<Real>(*dst), v);
      *dst = static_cast<Out>(v);
    } else {
      store_complex(a.c + 2 * (row + col * a.ldc), sum.x, sum.y, a.alpha_re, a.alpha_im, a.beta_re,
                    a.beta_im, a.beta_zero);
    }
  }
}

template <class Real, class Out, bool kComplex>
cudaError_t launch_reduce(int64_t m, int64_t n, int64_t slices, const void* partial, int64_t m_pad,
                          Scalar alpha, Scalar beta, void* c, int64_t ldc, cudaStream_t stream) {
  int sms = 0;
  if (cudaError_t err = gemm_device::current_sm_count(&sms); err != cudaSuccess) return err;
  const int runs = runs_of(slices);
  ReduceArgs<Real, Out> a;
  a.m = m, a.n = n, a.slices = int(slices);
  a.run = run_length(slices);
  a.partial = static_cast<const Real*>(partial);
  a.m_pad = m_pad;
  a.alpha_re = Real(alpha.re), a.alpha_im = Real(kComplex ? alpha.im : 0.0);
  a.beta_re = Real(beta.re), a.beta_im = Real(kComplex ? beta.im : 0.0);
  a.beta_zero = a.beta_re == Real(0) && a.beta_im == Real(0);
  a.c = static_cast<Out*>(c);
  a.ldc = ldc;
  const dim3 block(kReduceThreads / runs, runs);
  const int64_t blocks =
      std::min<int64_t>((m * n + block.x - 1) / block.x, int64_t(sms) * kReduceBlocksPerSm);
  splitk_reduce_kernel<Real, Out, kComplex><<<unsigned(blocks), block, 0, stream>>>(a);
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
  // fp32 and complex fp32 computed in fp64 (the FP64 tensor cores' rows).
  if (type == DataType::kF32 && partial_type == DataType::kF64) {
    return launch_reduce<double, float, false>(m, n, slices, partial, m_pad, alpha, beta, c, ldc,
                                               stream);
  }
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
