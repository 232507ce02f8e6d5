// widen: complex fp32 matrices copied into complex fp64 ones. The contract is in widen.h.
#include "widen.h"

#include <algorithm>
#include <cstdint>

namespace tileblas::widen {
namespace {

constexpr int kLanes = 32, kColsPerBlock = 8;
constexpr int kRowsPerLane = 4;
constexpr int kRowsPerBlock = kLanes * kRowsPerLane;
constexpr int64_t kMaxBlocks = 1 << 20;  // a grid-stride loop over the tiles does the rest

// Each matrix is cut into tiles of kRowsPerBlock rows and kColsPerBlock columns, numbered down the
// tile columns; tiles [0, tiles[0]) are the first matrix's, the rest the second's.
struct Args {
  Matrix m[2];
  int64_t tile_rows[2];  // tiles down a tile column
  int64_t tiles[2];
};

template <bool kPairs>
__global__ void __launch_bounds__(kLanes* kColsPerBlock) widen_kernel(Args args) {
  for (int64_t t = blockIdx.x; t < args.tiles[0] + args.tiles[1]; t += gridDim.x) {
    const int which = t < args.tiles[0] ? 0 : 1;
    const Matrix& mat = args.m[which];
    const int64_t tile = which == 0 ? t : t - args.tiles[0];
    const int64_t row0 = tile % args.tile_rows[which] * kRowsPerBlock + threadIdx.x;
    const int64_t col = tile / args.tile_rows[which] * kColsPerBlock + threadIdx.y;
    if (col >= mat.cols) continue;
    const float* s = static_cast<const float*>(mat.src) + 2 * col * mat.ld_src;
    double2* d = static_cast<double2*>(mat.dst) + col * mat.ld_dst;
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) {
      const int64_t row = row0 + i * kLanes;
      if (row >= mat.rows) break;
      float re, im;
      if constexpr (kPairs) {
        const float2 v = reinterpret_cast<const float2*>(s)[row];
        re = v.x, im = v.y;
      } else {
        re = s[2 * row], im = s[2 * row + 1];
      }
      d[row] = make_double2(double(re), double(im));
    }
  }
}

bool aligned_to(const void* p, uintptr_t bytes) {
  return reinterpret_cast<uintptr_t>(p) % bytes == 0;
}

}  // namespace

cudaError_t complex_to_double(const Matrix* matrices, int count, cudaStream_t stream) {
  if (count < 1 || count > 2) return cudaErrorInvalidValue;
  Args args{};
  bool pairs = true;
  for (int i = 0; i < count; ++i) {
    const Matrix& m = matrices[i];
    if (m.rows < 0 || m.cols < 0 || m.ld_src < std::max<int64_t>(1, m.rows) ||
        m.ld_dst < std::max<int64_t>(1, m.rows) || !aligned_to(m.src, 4) || !aligned_to(m.dst, 16))
      return cudaErrorInvalidValue;
    pairs = pairs && aligned_to(m.src, 8);
    args.m[i] = m;
    args.tile_rows[i] = std::max<int64_t>(1, (m.rows + kRowsPerBlock - 1) / kRowsPerBlock);
    args.tiles[i] =
        m.rows == 0 ? 0 : args.tile_rows[i] * ((m.cols + kColsPerBlock - 1) / kColsPerBlock);
  }
  const int64_t tiles = args.tiles[0] + args.tiles[1];
  if (tiles == 0) return cudaSuccess;
  const unsigned grid = unsigned(std::min(tiles, kMaxBlocks));
  const dim3 block(kLanes, kColsPerBlock);
  if (pairs) {
    widen_kernel<true><<<grid, block, 0, stream>>>(args);
  } else {
    widen_kernel<false><<<grid, block, 0, stream>>>(args);
  }
  return cudaGetLastError();
}

}  // namespace tileblas::widen
