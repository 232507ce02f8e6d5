// tri_invert (contract in tri_invert.h).
#include "tri_invert.h"

#include <algorithm>
#include <climits>

#include "level3_elements.cuh"

namespace tileblas::tri_invert {
namespace {

using namespace level3_elements;

constexpr int kThreads = 256;
constexpr int kMaxRows = 2;  // rows per thread: blocks up to kMaxRows * kThreads

// Columns of the inverse per group: 8 (4 of complex double: its x and L values take twice the
// registers).
template <class T>
constexpr int kColumns = sizeof(T) <= 8 ? 8 : 4;
// Steps of L's columns loaded ahead (per row a thread owns): 2 to 8, about 32 registers of them.
template <class T, int R>
constexpr int kAhead = std::max<int>(2, std::min<int>(8, 128 / (R * int(sizeof(T)))));

struct Args {
  bool reversed;  // A's blocks are upper: held index-reversed as lower ones
  bool unit;
  int64_t n, block;
  const void* a;
  int64_t lda;
  void* inv;
};

template <class T, int R>
__global__ void __launch_bounds__(kThreads) tri_invert_kernel(Args a) {
  constexpr int C = kColumns<T>;
  constexpr int P = kAhead<T, R>;
  const int64_t first = int64_t(blockIdx.x) * a.block;
  const int len = int(min(a.block, a.n - first));
  const int j0 = int(blockIdx.y) * C;
  if (j0 >= len) return;
  const T* src = static_cast<const T*>(a.a) + first + first * a.lda;
  T* dst = static_cast<T*>(a.inv) + first * a.block;
  // Row or column i of L as A's (or the output's) index within the block.
  auto at = [&](int i) { return a.reversed ? len - 1 - i : i; };
  auto l = [&](int i, int k) { return src[at(i) + int64_t(at(k)) * a.lda]; };

  int row[R];
  T x[R][C];
  T diag_inv[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    row[r] = int(threadIdx.x) + r * kThreads;
#pragma unroll
    for (int c = 0; c < C; ++c) x[r][c] = row[r] == j0 + c ? one<T>() : zero<T>();
    diag_inv[r] = one<T>();
    if (!a.unit && row[r] < len) diag_inv[r] = reciprocal(l(row[r], row[r]));
  }
  // L(i, k) for the steps [k0, k0 + P) of this thread's rows (zero where i <= k: not used), the
  // next group loaded while one runs.
  auto load = [&](int k0, T(&into)[P][R]) {
#pragma unroll
    for (int s = 0; s < P; ++s) {
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int k = k0 + s;
        into[s][r] = row[r] > k && row[r] < len ? l(row[r], k) : zero<T>();
      }
    }
  };
  __shared__ T solved[2][C];  // x_k of the step, double-buffered: one barrier a step
  T now[P][R], next[P][R];
  load(j0, now);
  for (int k0 = j0; k0 < len; k0 += P) {
    load(k0 + P, next);  // past len: zeros, nothing read
#pragma unroll
    for (int s = 0; s < P; ++s) {
      const int k = k0 + s;
      if (k >= len) break;  // the same for every thread
      T* xk = solved[k & 1];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        if (row[r] == k) {
#pragma unroll
          for (int c = 0; c < C; ++c) {
            if (k >= j0 + c) x[r][c] = mul(x[r][c], diag_inv[r]);
            xk[c] = x[r][c];
          }
        }
      }
      __syncthreads();
      T v[C];
#pragma unroll
      for (int c = 0; c < C; ++c) v[c] = xk[c];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        if (row[r] > k && row[r] < len) {
#pragma unroll
          for (int c = 0; c < C; ++c) {
            if (k >= j0 + c) x[r][c] = mul_sub(now[s][r], v[c], x[r][c]);
          }
        }
      }
    }
#pragma unroll
    for (int s = 0; s < P; ++s) {
#pragma unroll
      for (int r = 0; r < R; ++r) now[s][r] = next[s][r];
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (row[r] >= len) continue;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      if (j0 + c < len) dst[at(row[r]) + int64_t(at(j0 + c)) * a.block] = x[r][c];
    }
  }
}

template <class T>
cudaError_t launch_typed(const Args& a, cudaStream_t stream) {
  const dim3 grid(unsigned((a.n + a.block - 1) / a.block),
                  unsigned((std::min(a.n, a.block) + kColumns<T> - 1) / kColumns<T>));
  if (a.block <= kThreads) {
    tri_invert_kernel<T, 1><<<grid, kThreads, 0, stream>>>(a);
  } else {
    tri_invert_kernel<T, kMaxRows><<<grid, kThreads, 0, stream>>>(a);
  }
  return cudaGetLastError();
}

}  // namespace

int64_t max_order(DataType type) {
  switch (type) {
    case DataType::kF32:
    case DataType::kF64:
    case DataType::kC32:
    case DataType::kC64:
      return kMaxRows * kThreads;
    default:
      return 0;
  }
}

bool supports(const TriInvertProblem& p, const DeviceCaps&) {
  if (max_order(p.type) == 0 || p.n < 0 || p.block < 1 || p.block > max_order(p.type)) {
    return false;
  }
  if (p.n == 0) return true;
  return p.a && p.inv && p.lda >= p.n && p.blocks() <= INT32_MAX;
}

cudaError_t launch(const TriInvertProblem& p, cudaStream_t stream) {
  if (p.n == 0) return cudaSuccess;
  Args a;
  a.reversed = p.uplo == Uplo::kUpper;
  a.unit = p.diag == Diag::kUnit;
  a.n = p.n, a.block = p.block;
  a.a = p.a, a.lda = p.lda;
  a.inv = p.inv;
  return with_element(p.type,
                      [&](auto element) { return launch_typed<decltype(element)>(a, stream); });
}

}  // namespace tileblas::tri_invert
