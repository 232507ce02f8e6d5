// widen: complex fp32 matrices copied into complex fp64 ones. The contract is in widen.h.
#include "widen.h"

#include <algorithm>
#include <cstdint>

namespace tileblas::widen {
namespace {

constexpr int kLanes = 32, kColsPerBlock = 8;
constexpr int kRowsPerLane = 4;
constexpr int kRowsPerBlock = kLanes * kRowsPerLane;
constexpr int64_t kMaxGridY = 65535;

struct Args {
  Matrix m[2];
};

template <bool kPairs>
__global__ void __launch_bounds__(kLanes* kColsPerBlock) widen_kernel(Args args) {
  const Matrix mat = blockIdx.z == 0 ? args.m[0] : args.m[1];
  const int64_t row0 = int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x;
  if (row0 >= mat.rows) return;
  const float* src = static_cast<const float*>(mat.src);
  double2* dst = static_cast<double2*>(mat.dst);
  for (int64_t col = int64_t(blockIdx.y) * kColsPerBlock + threadIdx.y; col < mat.cols;
       col += int64_t(gridDim.y) * kColsPerBlock) {
    const float* s = src + 2 * col * mat.ld_src;
    double2* d = dst + col * mat.ld_dst;
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
  int64_t rows = 0, cols = 0;
  bool pairs = true;
  for (int i = 0; i < count; ++i) {
    const Matrix& m = matrices[i];
    if (m.rows < 0 || m.cols < 0 || m.ld_src < std::max<int64_t>(1, m.rows) ||
        m.ld_dst < std::max<int64_t>(1, m.rows) || !aligned_to(m.src, 4) || !aligned_to(m.dst, 16))
      return cudaErrorInvalidValue;
    pairs = pairs && aligned_to(m.src, 8);
    rows = std::max(rows, m.rows), cols = std::max(cols, m.cols);
    args.m[i] = m;
  }
  if (rows == 0 || cols == 0) return cudaSuccess;
  if (count == 1) args.m[1] = args.m[0];
  const dim3 grid(
      unsigned((rows + kRowsPerBlock - 1) / kRowsPerBlock),
      unsigned(std::min<int64_t>((cols + kColsPerBlock - 1) / kColsPerBlock, kMaxGridY)),
      unsigned(count));
  const dim3 block(kLanes, kColsPerBlock);
  if (pairs) {
    widen_kernel<true><<<grid, block, 0, stream>>>(args);
  } else {
    widen_kernel<false><<<grid, block, 0, stream>>>(args);
  }
  return cudaGetLastError();
}

}  // namespace tileblas::widen
