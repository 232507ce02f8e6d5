// widen: complex fp32 matrices copied into complex fp64 ones. The contract is in widen.h.
#include "widen.h"

#include <algorithm>
#include <cstdint>

#include "gemm_device_common.cuh"

namespace tileblas::widen {
namespace {

using gemm_device::aligned_to;

constexpr int kLanes = 32, kColsPerBlock = 8;
constexpr int kRowsPerLane = 4;
constexpr int kRowsPerBlock = kLanes * kRowsPerLane;
constexpr int64_t kMaxBlocks = 1 << 20;  // a grid-stride loop over the tiles does the rest

// Each matrix is cut into tiles of kRowsPerBlock rows and kColsPerBlock columns, numbered down the
// tile columns; tiles [0, first.tiles) are the first matrix's, the rest the second's. (Two named
// members, not an array: indexing a kernel parameter by a run-time value copies it to local
// memory.)
struct Part {
  Matrix m;
  int64_t tile_rows;  // tiles down a tile column
  int64_t tiles;
};
struct Args {
  Part first, second;
};

template <bool kPairs>
__global__ void __launch_bounds__(kLanes* kColsPerBlock) widen_kernel(const Args args) {
  const int64_t total = args.first.tiles + args.second.tiles;
  for (int64_t t = blockIdx.x; t < total; t += gridDim.x) {
    const bool in_first = t < args.first.tiles;
    const Part part = in_first ? args.first : args.second;
    const int64_t tile = in_first ? t : t - args.first.tiles;
    const Matrix& mat = part.m;
    const int64_t row0 = tile % part.tile_rows * kRowsPerBlock + threadIdx.x;
    const int64_t col = tile / part.tile_rows * kColsPerBlock + threadIdx.y;
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

}  // namespace

cudaError_t complex_to_double(const Matrix* matrices, int count, cudaStream_t stream) {
  if (count < 1 || count > 2) return cudaErrorInvalidValue;
  Part parts[2] = {};
  bool pairs = true;
  for (int i = 0; i < count; ++i) {
    const Matrix& m = matrices[i];
    if (m.rows < 0 || m.cols < 0 || m.ld_src < std::max<int64_t>(1, m.rows) ||
        m.ld_dst < std::max<int64_t>(1, m.rows) || !aligned_to(m.src, 4) || !aligned_to(m.dst, 16))
      return cudaErrorInvalidValue;
    pairs = pairs && aligned_to(m.src, 8);
    parts[i].m = m;
    parts[i].tile_rows = std::max<int64_t>(1, (m.rows + kRowsPerBlock - 1) / kRowsPerBlock);
    parts[i].tiles =
        m.rows == 0 ? 0 : parts[i].tile_rows * ((m.cols + kColsPerBlock - 1) / kColsPerBlock);
  }
  const Args args{parts[0], parts[1]};
  const int64_t tiles = parts[0].tiles + parts[1].tiles;
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
