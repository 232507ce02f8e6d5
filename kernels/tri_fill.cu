// tri_fill (contract in tri_fill.h).
#include "tri_fill.h"

#include <algorithm>
#include <cstdint>

#include "level3_elements.cuh"

namespace tileblas::tri_fill {
namespace {

using namespace level3_elements;

constexpr int kTile = 32;
constexpr int kRowsOfThreads = 8;
static_assert(kTile % kRowsOfThreads == 0, "each thread writes kTile / kRowsOfThreads columns");
constexpr int kColumnsPerThread = kTile / kRowsOfThreads;
constexpr int kThreads = kTile * kRowsOfThreads;
constexpr int kMaxGridY = 65535;

struct Args {
  bool lower;
  TriFillMode mode;
  bool unit;
  int64_t n;
  const void* a;
  int64_t lda;
  void* b;
  int64_t ldb;
};

template <class T>
__device__ __forceinline__ T direct(const Args& a, T v, bool diagonal) {
  if (!diagonal) return v;
  if (a.mode == TriFillMode::kHermitian) return real_only(v);
  if (a.mode == TriFillMode::kTriangular && a.unit) return one<T>();
  return v;
}
template <class T>
__device__ __forceinline__ T mirrored(const Args& a, T v) {
  if (a.mode == TriFillMode::kHermitian) return conj(v);
  if (a.mode == TriFillMode::kTriangular) return zero<T>();
  return v;
}

template <class T>
__global__ void __launch_bounds__(kThreads) tri_fill_kernel(Args a) {
  __shared__ T tile[kTile][kTile + 1];  // tile[column][row]
  const T* src = static_cast<const T*>(a.a);
  T* dst = static_cast<T*>(a.b);
  const int64_t i0 = int64_t(blockIdx.x) * kTile;
  const int tx = threadIdx.x, ty = threadIdx.y;
  auto in_tri = [&](int64_t i, int64_t j) { return a.lower ? i >= j : i <= j; };
  // Whether A's element (i, j) (in the triangle) may be read: not a unit diagonal.
  auto readable = [&](int64_t i, int64_t j) {
    return !(i == j && a.unit && a.mode == TriFillMode::kTriangular);
  };
  for (int64_t tile_j = blockIdx.y; tile_j * kTile < a.n; tile_j += gridDim.y) {
    const int64_t j0 = tile_j * kTile;
    const bool inside = a.lower ? i0 >= j0 + kTile - 1 : i0 + kTile - 1 <= j0;
    const bool outside = a.lower ? i0 + kTile - 1 < j0 : i0 > j0 + kTile - 1;
    const int64_t i = i0 + tx;
    if (inside) {
#pragma unroll
      for (int s = 0; s < kColumnsPerThread; ++s) {
        const int64_t j = j0 + ty + s * kRowsOfThreads;
        if (i >= a.n || j >= a.n) continue;
        const T v = readable(i, j) ? src[i + j * a.lda] : zero<T>();
        dst[i + j * a.ldb] = direct(a, v, i == j);
      }
      continue;
    }
    // The tile of A to read through shared memory: the mirrored one (rows j0.., columns i0..), or
    // on the diagonal the tile itself (then i0 == j0 and the same indices serve both).
    if (!(outside && a.mode == TriFillMode::kTriangular)) {
#pragma unroll
      for (int s = 0; s < kColumnsPerThread; ++s) {
        const int q = ty + s * kRowsOfThreads;
        const int64_t r = j0 + tx, c = i0 + q;  // A's element read into tile[q][tx]
        const bool ok = r < a.n && c < a.n && in_tri(r, c) && readable(r, c);
        tile[q][tx] = ok ? src[r + c * a.lda] : zero<T>();
      }
    }
    __syncthreads();
#pragma unroll
    for (int s = 0; s < kColumnsPerThread; ++s) {
      const int q = ty + s * kRowsOfThreads;
      const int64_t j = j0 + q;
      if (i >= a.n || j >= a.n) continue;
      T v;
      if (outside) {
        v = mirrored(a, tile[tx][q]);  // A(j, i) = tile[i - i0][j - j0]
      } else if (in_tri(i, j)) {
        v = direct(a, tile[q][tx], i == j);  // diagonal tile: tile[c][r] = A(i0 + r, j0 + c)
      } else {
        v = mirrored(a, tile[tx][q]);
      }
      dst[i + j * a.ldb] = v;
    }
    __syncthreads();
  }
}

bool float_type(DataType t) {
  return t == DataType::kF32 || t == DataType::kF64 || t == DataType::kC32 || t == DataType::kC64;
}

}  // namespace

bool supports(const TriFillProblem& p, const DeviceCaps&) {
  if (!float_type(p.type) || p.n < 0) return false;
  if (p.n == 0) return true;
  if (!p.a || !p.b || p.lda < p.n || p.ldb < p.n) return false;
  return (p.n + kTile - 1) / kTile <= INT32_MAX;
}

cudaError_t launch(const TriFillProblem& p, cudaStream_t stream) {
  if (p.n == 0) return cudaSuccess;
  const Args a{p.uplo == Uplo::kLower, p.mode, p.diag == Diag::kUnit, p.n, p.a, p.lda, p.b, p.ldb};
  const int64_t tiles = (p.n + kTile - 1) / kTile;
  const dim3 grid(unsigned(tiles), unsigned(std::min<int64_t>(tiles, kMaxGridY)));
  const dim3 threads(kTile, kRowsOfThreads);
  return with_element(p.type, [&](auto element) {
    tri_fill_kernel<decltype(element)><<<grid, threads, 0, stream>>>(a);
    return cudaGetLastError();
  });
}

}  // namespace tileblas::tri_fill
