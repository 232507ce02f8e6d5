// sgemm_tiled: see sgemm_tiled.h for the contract.
//
// Layout: a block of kThreads threads computes a kTile x kTile tile of C, each thread
// kTile*kTile/kThreads elements of one column strip. Per k-step of kTileK, the block stages
// op(A)[tile rows, kTileK] and op(B)[kTileK, tile cols] in shared memory; each operand is read
// with consecutive threads along its contiguous dimension (rows of A when not transposed, k when
// transposed), so global loads coalesce for every transpose combination. Out-of-range elements
// are staged as zeros; stores are predicated on m and n.
#include "sgemm_tiled.h"

#include <algorithm>

namespace tileblas::sgemm_tiled {
namespace {

constexpr int kTile = 32;   // C tile is kTile x kTile
constexpr int kTileK = 16;  // k-step staged in shared memory
constexpr int kThreads = 256;
constexpr int kRowsPerThread = kTile * kTile / kThreads;
static_assert(kTile * kTile % kThreads == 0, "each thread computes the same number of C elements");
static_assert(kThreads % kTile == 0, "a block's threads cover whole columns of the tile");
static_assert(kTile * kTileK % kThreads == 0, "each thread stages the same number of elements");

// Element (row, col) of the stored matrix `x` (column-major, leading dimension ld).
__device__ __forceinline__ float at(const float* x, int64_t ld, int64_t row, int64_t col) {
  return x[row + col * ld];
}

__global__ void __launch_bounds__(kThreads)
    sgemm_tiled_kernel(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                       const float* __restrict__ a, int64_t lda, const float* __restrict__ b,
                       int64_t ldb, float beta, float* __restrict__ c, int64_t ldc) {
  // +1 column: threads that write a k-row of a_tile in the transposed case hit distinct banks.
  __shared__ float a_tile[kTileK][kTile + 1];  // a_tile[l][i] = op(A)(row0 + i, k0 + l)
  __shared__ float b_tile[kTileK][kTile + 1];  // b_tile[l][j] = op(B)(k0 + l, col0 + j)
  const int64_t row0 = int64_t(blockIdx.x) * kTile;
  const int64_t col0 = int64_t(blockIdx.y) * kTile;
  const int tid = threadIdx.x;
  const int my_row = tid % kTile;                      // this thread's row in the tile
  const int my_col0 = (tid / kTile) * kRowsPerThread;  // and its first column

  float acc[kRowsPerThread] = {};
  const bool read_ab = alpha != 0.0f;
  for (int64_t k0 = 0; read_ab && k0 < k; k0 += kTileK) {
    for (int e = tid; e < kTile * kTileK; e += kThreads) {
      // A: op(A)(i, l). Not transposed: A(i, l), contiguous in i. Transposed: A(l, i), in l.
      int i, l;
      if (!trans_a) {
        i = e % kTile, l = e / kTile;
      } else {
        l = e % kTileK, i = e / kTileK;
      }
      const int64_t gi = row0 + i, gl = k0 + l;
      float va = 0.0f;
      if (gi < m && gl < k) va = trans_a ? at(a, lda, gl, gi) : at(a, lda, gi, gl);
      a_tile[l][i] = va;
      // B: op(B)(l, j). Not transposed: B(l, j), contiguous in l. Transposed: B(j, l), in j.
      int j;
      if (!trans_b) {
        l = e % kTileK, j = e / kTileK;
      } else {
        j = e % kTile, l = e / kTile;
      }
      const int64_t gj = col0 + j, gl2 = k0 + l;
      float vb = 0.0f;
      if (gj < n && gl2 < k) vb = trans_b ? at(b, ldb, gj, gl2) : at(b, ldb, gl2, gj);
      b_tile[l][j] = vb;
    }
    __syncthreads();
#pragma unroll
    for (int l = 0; l < kTileK; ++l) {
      const float va = a_tile[l][my_row];
#pragma unroll
      for (int r = 0; r < kRowsPerThread; ++r) acc[r] += va * b_tile[l][my_col0 + r];
    }
    __syncthreads();
  }

  const int64_t gi = row0 + my_row;
  if (gi >= m) return;
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) {
    const int64_t gj = col0 + my_col0 + r;
    if (gj >= n) break;
    float* cij = c + gi + gj * ldc;
    *cij = beta == 0.0f ? alpha * acc[r] : alpha * acc[r] + beta * *cij;
  }
}

}  // namespace

bool supports(const Problem& p, const DeviceCaps&) {
  return p.type == DataType::kF32 && p.c_type == DataType::kF32 && p.c_triangle == Triangle::kAll &&
         p.m >= 1 && p.n >= 1 && p.k >= 0 && p.lda >= std::max<int64_t>(1, p.a_rows()) &&
         p.ldb >= std::max<int64_t>(1, p.b_rows()) && p.ldc >= p.m &&
         (p.m + kTile - 1) / kTile <= 0x7fffffff && (p.n + kTile - 1) / kTile <= 65535;
}

cudaError_t launch(const Problem& p, cudaStream_t stream) {
  const dim3 grid(unsigned((p.m + kTile - 1) / kTile), unsigned((p.n + kTile - 1) / kTile));
  sgemm_tiled_kernel<<<grid, kThreads, 0, stream>>>(
      p.trans_a == Op::kTrans, p.trans_b == Op::kTrans, p.m, p.n, p.k, float(p.alpha.re),
      static_cast<const float*>(p.a), p.lda, static_cast<const float*>(p.b), p.ldb,
      float(p.beta.re), static_cast<float*>(p.c), p.ldc);
  return cudaGetLastError();
}

}  // namespace tileblas::sgemm_tiled
