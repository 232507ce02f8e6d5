// tri_update (contract in tri_update.h).
#include "tri_update.h"

#include <algorithm>
#include <cstdint>

#include "level3_elements.cuh"

namespace tileblas::tri_update {
namespace {

using namespace level3_elements;

constexpr int kTile = 32;
constexpr int kRowsOfThreads = 8;  // threads along the columns of a tile
static_assert(kTile % kRowsOfThreads == 0, "each thread updates kTile / kRowsOfThreads columns");
constexpr int kColumnsPerThread = kTile / kRowsOfThreads;
constexpr int kThreads = kTile * kRowsOfThreads;
constexpr int64_t kMaxGridZ = 65535;
constexpr int kMaxGridY = 65535;

struct Args {
  Fill fill;
  bool real_diagonal;
  bool beta_zero;
  int64_t m, n;
  int64_t block;  // > 0: stacked diagonal blocks of T (grid z: one per block)
  double beta_re, beta_im;
  const void* t;
  int64_t ldt;
  void* c;
  int64_t ldc;
};

__device__ __forceinline__ bool in_fill(Fill fill, int64_t i, int64_t j) {
  switch (fill) {
    case Fill::kFull:
      return true;
    case Fill::kLower:
      return i >= j;
    case Fill::kUpper:
      return i <= j;
    case Fill::kDiagonal:
      break;
  }
  return i == j;
}

template <class T>
__global__ void __launch_bounds__(kThreads) tri_update_kernel(Args a) {
  const int64_t origin = a.block > 0 ? int64_t(blockIdx.z) * a.block : 0;
  const int64_t row_end = a.block > 0 ? min(origin + a.block, a.m) : a.m;
  const int64_t col_end = a.block > 0 ? min(origin + a.block, a.n) : a.n;
  const int64_t i0 = origin + int64_t(blockIdx.x) * kTile;
  const int64_t i = i0 + threadIdx.x;
  const T* t = static_cast<const T*>(a.t);
  T* c = static_cast<T*>(a.c);
  const T beta = make<T>(a.beta_re, a.beta_im);
  for (int64_t tile_j = blockIdx.y; origin + tile_j * kTile < col_end; tile_j += gridDim.y) {
    const int64_t j0 = origin + tile_j * kTile;
    if (a.fill == Fill::kLower && i0 + kTile - 1 < j0) continue;  // tile above the diagonal
    if (a.fill == Fill::kUpper && i0 > j0 + kTile - 1) continue;  // tile below it
    if (a.fill == Fill::kDiagonal && i0 != j0) continue;          // tile off the diagonal
#pragma unroll
    for (int s = 0; s < kColumnsPerThread; ++s) {
      const int64_t j = j0 + threadIdx.y + s * kRowsOfThreads;
      if (i >= row_end || j >= col_end || !in_fill(a.fill, i, j)) continue;
      const T tv = t ? t[i + (j - origin) * a.ldt] : zero<T>();
      const T cv = a.beta_zero ? zero<T>() : c[i + j * a.ldc];
      T v = a.beta_zero ? tv : mul_add(beta, cv, tv);
      if constexpr (Traits<T>::kComplex) {
        using R = typename Traits<T>::Real;
        if (a.real_diagonal && i == j) v = {R(a.beta_re) * cv.re + tv.re, R(0)};
      }
      c[i + j * a.ldc] = v;
    }
  }
}

bool float_type(DataType t) {
  return t == DataType::kF32 || t == DataType::kF64 || t == DataType::kC32 || t == DataType::kC64;
}

}  // namespace

bool supports(const TriUpdateProblem& p, const DeviceCaps&) {
  if (!float_type(p.type) || p.m < 0 || p.n < 0 || p.block < 0) return false;
  if (p.fill != Fill::kFull && p.m != p.n) return false;
  if (p.m == 0 || p.n == 0) return true;
  if (!p.c || p.ldc < std::max<int64_t>(1, p.m)) return false;
  if (p.t && p.ldt < std::max<int64_t>(1, p.m)) return false;
  const bool stacked = p.t && p.block > 0 && p.block < std::max(p.m, p.n);
  const int64_t rows = stacked ? p.block : p.m;
  if ((rows + kTile - 1) / kTile > INT32_MAX) return false;
  return !stacked || (p.n + p.block - 1) / p.block <= kMaxGridZ;
}

cudaError_t launch(const TriUpdateProblem& p, cudaStream_t stream) {
  if (p.m == 0 || p.n == 0) return cudaSuccess;
  const bool stacked = p.t && p.block > 0 && p.block < std::max(p.m, p.n);
  Args a{p.fill,
         p.real_diagonal,
         p.beta.is_zero(),
         p.m,
         p.n,
         stacked ? p.block : 0,
         p.beta.re,
         p.beta.im,
         p.t,
         p.ldt,
         p.c,
         p.ldc};
  const int64_t rows = stacked ? p.block : p.m, cols = stacked ? p.block : p.n;
  // The diagonal: one block per tile of rows, which finds its diagonal tile among the columns'.
  const int64_t col_tiles = p.fill == Fill::kDiagonal ? 1 : (cols + kTile - 1) / kTile;
  const dim3 grid(unsigned((rows + kTile - 1) / kTile),
                  unsigned(std::min<int64_t>(col_tiles, kMaxGridY)),
                  unsigned(stacked ? (p.n + p.block - 1) / p.block : 1));
  const dim3 threads(kTile, kRowsOfThreads);
  return with_element(p.type, [&](auto element) {
    tri_update_kernel<decltype(element)><<<grid, threads, 0, stream>>>(a);
    return cudaGetLastError();
  });
}

}  // namespace tileblas::tri_update
