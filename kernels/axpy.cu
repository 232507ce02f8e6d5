// fp32 AXPY. The contract is in axpy.h.
//
// Both kernels are grid-stride loops over a grid that the device holds at once. Each thread keeps
// kUnroll independent iterations in flight (loads of all of them before any store), spaced a whole
// grid apart so that every warp access stays coalesced: with 256-thread blocks, 16-byte vectors
// and kUnroll == 4, a resident SM (2048 threads) has 256 KiB of loads outstanding, well above
// what HBM latency times bandwidth per SM asks for (about 40 KiB on an H200).
#include "axpy.h"

#include <atomic>
#include <cstdint>

namespace tileblas::axpy {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;
static_assert(kThreads % 32 == 0, "whole warps");
static_assert(kUnroll >= 1, "at least one iteration per trip");

__device__ __forceinline__ float4 fma4(float alpha, float4 x, float4 y) {
  return make_float4(fmaf(alpha, x.x, y.x), fmaf(alpha, x.y, y.y), fmaf(alpha, x.z, y.z),
                     fmaf(alpha, x.w, y.w));
}

// y[i] += alpha * x[i], i < n, where x + head and y + head are 16-byte aligned (head <= 3, and
// head <= n). The first `head` threads of the grid do the prologue, the first (n - head) % 4 the
// epilogue; every thread takes part in the vector body.
__global__ void __launch_bounds__(kThreads)
    axpy_vec4_kernel(int64_t n, float alpha, const float* x, float* y, int head) {
  const int64_t tid = int64_t(blockIdx.x) * kThreads + threadIdx.x;
  const int64_t stride = int64_t(gridDim.x) * kThreads;
  if (tid < head) y[tid] = fmaf(alpha, x[tid], y[tid]);

  const int64_t vecs = (n - head) / 4;
  const float4* xv = reinterpret_cast<const float4*>(x + head);
  float4* yv = reinterpret_cast<float4*>(y + head);
  int64_t i = tid;
  for (; i + (kUnroll - 1) * stride < vecs; i += kUnroll * stride) {
    float4 xs[kUnroll], ys[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      xs[u] = xv[i + u * stride];
      ys[u] = yv[i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) yv[i + u * stride] = fma4(alpha, xs[u], ys[u]);
  }
  for (; i < vecs; i += stride) yv[i] = fma4(alpha, xv[i], yv[i]);

  const int64_t tail = head + vecs * 4;
  if (tid < n - tail) y[tail + tid] = fmaf(alpha, x[tail + tid], y[tail + tid]);
}

// y[i * incy] += alpha * x[i * incx], i < n, with x and y already moved to element 0 (so a
// negative increment walks down from the last stored element).
__global__ void __launch_bounds__(kThreads)
    axpy_strided_kernel(int64_t n, float alpha, const float* x, int64_t incx, float* y,
                        int64_t incy) {
  const int64_t tid = int64_t(blockIdx.x) * kThreads + threadIdx.x;
  const int64_t stride = int64_t(gridDim.x) * kThreads;
  int64_t i = tid;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    float xs[kUnroll], ys[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      xs[u] = x[(i + u * stride) * incx];
      ys[u] = y[(i + u * stride) * incy];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) y[(i + u * stride) * incy] = fmaf(alpha, xs[u], ys[u]);
  }
  for (; i < n; i += stride) y[i * incy] = fmaf(alpha, x[i * incx], y[i * incy]);
}

constexpr int kMaxDevices = 64;

// Blocks of one kernel (kThreads threads each) that one SM holds at once, per device ordinal:
// asked of the runtime once, 0 until then.
struct ResidentBlocks {
  const void* kernel;
  std::atomic<int> per_sm[kMaxDevices];
};

ResidentBlocks g_vec4_blocks{reinterpret_cast<const void*>(&axpy_vec4_kernel), {}};
ResidentBlocks g_strided_blocks{reinterpret_cast<const void*>(&axpy_strided_kernel), {}};

// The grid for `work` thread-iterations of the kernel: no more blocks than the current device
// holds at once, no more than the work needs, at least one.
cudaError_t grid_for(ResidentBlocks& resident, int64_t work, unsigned* grid) {
  int device = 0, sms = 0;
  if (cudaError_t err = cudaGetDevice(&device)) return err;
  if (cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device))
    return err;
  int per_sm = device < kMaxDevices ? resident.per_sm[device].load(std::memory_order_relaxed) : 0;
  if (per_sm == 0) {
    if (cudaError_t err =
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, resident.kernel, kThreads, 0))
      return err;
    if (device < kMaxDevices) resident.per_sm[device].store(per_sm, std::memory_order_relaxed);
  }
  const int64_t most = int64_t(sms) * (per_sm > 0 ? per_sm : 1);
  const int64_t needed = (work + kThreads - 1) / kThreads;
  *grid = unsigned(needed < 1 ? 1 : (needed < most ? needed : most));
  return cudaSuccess;
}

bool aligned(const void* p, uintptr_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

// Device able to run the sm_80+ code this file is built for, n >= 0, floats 4-byte aligned.
bool well_formed(const AxpyProblem& p, const DeviceCaps& caps) {
  return caps.sm_version >= 80 && p.n >= 0 && aligned(p.x, 4) && aligned(p.y, 4);
}

}  // namespace

bool supports_vec4(const AxpyProblem& p, const DeviceCaps& caps) {
  const uintptr_t x_mod = reinterpret_cast<uintptr_t>(p.x) % 16;
  const uintptr_t y_mod = reinterpret_cast<uintptr_t>(p.y) % 16;
  return well_formed(p, caps) && p.incx == 1 && p.incy == 1 && x_mod == y_mod;
}

cudaError_t launch_vec4(const AxpyProblem& p, cudaStream_t stream) {
  if (p.n == 0 || p.alpha == 0.0f) return cudaSuccess;
  const uintptr_t misalign = reinterpret_cast<uintptr_t>(p.y) % 16;
  const int64_t to_aligned = int64_t((16 - misalign) % 16 / 4);
  const int head = int(to_aligned < p.n ? to_aligned : p.n);
  unsigned grid = 0;
  if (cudaError_t err = grid_for(g_vec4_blocks, (p.n - head) / 4, &grid)) return err;
  axpy_vec4_kernel<<<grid, kThreads, 0, stream>>>(p.n, p.alpha, p.x, p.y, head);
  return cudaGetLastError();
}

bool supports_strided(const AxpyProblem& p, const DeviceCaps& caps) {
  return well_formed(p, caps) && p.incy != 0;
}

cudaError_t launch_strided(const AxpyProblem& p, cudaStream_t stream) {
  if (p.n == 0 || p.alpha == 0.0f) return cudaSuccess;
  const float* x = p.incx < 0 ? p.x + (p.n - 1) * -p.incx : p.x;
  float* y = p.incy < 0 ? p.y + (p.n - 1) * -p.incy : p.y;
  unsigned grid = 0;
  if (cudaError_t err = grid_for(g_strided_blocks, p.n, &grid)) return err;
  axpy_strided_kernel<<<grid, kThreads, 0, stream>>>(p.n, p.alpha, x, p.incx, y, p.incy);
  return cudaGetLastError();
}

}  // namespace tileblas::axpy
