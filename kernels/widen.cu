// widen: complex fp32 matrices copied into fp64 ones (interleaved or as 3M planes), and 3M
// products combined back into complex fp32. The contract is in widen.h.
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
template <class M>
struct Part {
  M m;
  int64_t rows, cols;
  int64_t tile_rows;  // tiles down a tile column
  int64_t tiles;
};
template <class M>
struct Parts {
  Part<M> first, second;
};

template <class M>
Part<M> part_of(const M& m, int64_t rows, int64_t cols) {
  Part<M> p{m, rows, cols, std::max<int64_t>(1, (rows + kRowsPerBlock - 1) / kRowsPerBlock), 0};
  p.tiles = rows == 0 ? 0 : p.tile_rows * ((cols + kColsPerBlock - 1) / kColsPerBlock);
  return p;
}

// Tile t of the parts: its part, and its first row and column.
template <class M>
__device__ Part<M> tile_at(const Parts<M>& parts, int64_t t, int64_t* row0, int64_t* col0) {
  const bool in_first = t < parts.first.tiles;
  const Part<M>& part = in_first ? parts.first : parts.second;
  const int64_t tile = in_first ? t : t - parts.first.tiles;
  *row0 = tile % part.tile_rows * kRowsPerBlock;
  *col0 = tile / part.tile_rows * kColsPerBlock;
  return part;
}

// Calls f(matrix, row, col) for the calling thread's elements of column `col` of a tile: rows
// lane_row0 (the tile's first row plus the lane), lane_row0 + kLanes, ... within the tile.
template <class M, class F>
__device__ void for_lane_elements(const Part<M>& part, int64_t lane_row0, int64_t col, F f) {
  if (col >= part.cols) return;
#pragma unroll
  for (int i = 0; i < kRowsPerLane; ++i) {
    const int64_t row = lane_row0 + i * kLanes;
    if (row >= part.rows) break;
    f(part.m, row, col);
  }
}

// Calls f(matrix, row, col) for every element of both parts, each block a tile at a time.
template <class M, class F>
__device__ void for_each_element(const Parts<M>& parts, F f) {
  const int64_t total = parts.first.tiles + parts.second.tiles;
  for (int64_t t = blockIdx.x; t < total; t += gridDim.x) {
    int64_t row0, col0;
    const Part<M> part = tile_at(parts, t, &row0, &col0);
    for_lane_elements(part, row0 + threadIdx.x, col0 + threadIdx.y, f);
  }
}

// Element (row, col) of a complex fp32 matrix: one 8-byte load (kPairs) or two 4-byte ones.
template <bool kPairs>
__device__ float2 load_complex(const void* base, int64_t ld, int64_t row, int64_t col) {
  const float* s = static_cast<const float*>(base) + 2 * (row + col * ld);
  if constexpr (kPairs) {
    return *reinterpret_cast<const float2*>(s);
  } else {
    return make_float2(s[0], s[1]);
  }
}

template <bool kPairs>
__global__ void __launch_bounds__(kLanes* kColsPerBlock) widen_kernel(const Parts<Matrix> parts) {
  for_each_element(parts, [](const Matrix& mat, int64_t row, int64_t col) {
    const float2 v = load_complex<kPairs>(mat.src, mat.ld_src, row, col);
    static_cast<double2*>(mat.dst)[row + col * mat.ld_dst] = make_double2(double(v.x), double(v.y));
  });
}

// Calls write(matrix, r, c, v) with v = read(matrix, row, col) for every element (row, col) of
// both parts, tile by tile as for_each_element(); (r, c) is the element's place in the
// destination: (row, col), or (col, row) for a matrix marked `transposed`. A transposed matrix's
// tile (of V, the source's element type) is read into shared memory, then written a destination
// column's kColsPerBlock elements by as many consecutive lanes. The tile's rows are padded by 4
// elements: the lanes writing one destination column read rows 4 banks apart.
template <class V, class M, class Read, class Write>
__device__ void for_each_element_oriented(const Parts<M>& parts, Read read, Write write) {
  __shared__ V tile[kColsPerBlock][kRowsPerBlock + 4];
  const int lane = int(threadIdx.x), y = int(threadIdx.y);
  const int64_t total = parts.first.tiles + parts.second.tiles;
  for (int64_t t = blockIdx.x; t < total; t += gridDim.x) {
    int64_t row0, col0;
    const Part<M> part = tile_at(parts, t, &row0, &col0);
    const int64_t col = col0 + y;
    if (!part.m.transposed) {
      for_lane_elements(part, row0 + lane, col, [=](const M& m, int64_t row, int64_t c) {
        write(m, row, c, read(m, row, c));
      });
      continue;
    }
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) {
      const int64_t row = row0 + lane + i * kLanes;
      if (col < part.cols && row < part.rows) tile[y][lane + i * kLanes] = read(part.m, row, col);
    }
    __syncthreads();
    // The block's threads cover the tile's kColsPerBlock columns and kLanes of its rows at a time.
    const int l = y * kLanes + lane;
    const int64_t c = col0 + l % kColsPerBlock;  // destination row
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) {
      const int r = l / kColsPerBlock + i * kLanes;
      if (c < part.cols && row0 + r < part.rows)
        write(part.m, c, row0 + r, tile[l % kColsPerBlock][r]);
    }
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kLanes* kColsPerBlock)
    widen_real_kernel(const Parts<Matrix> parts) {
  for_each_element_oriented<float>(
      parts,
      [](const Matrix& mat, int64_t row, int64_t col) {
        return static_cast<const float*>(mat.src)[row + col * mat.ld_src];
      },
      [](const Matrix& mat, int64_t r, int64_t c, float v) {
        static_cast<double*>(mat.dst)[r + c * mat.ld_dst] = double(v);
      });
}

template <bool kPairs>
__global__ void __launch_bounds__(kLanes* kColsPerBlock) planes_kernel(const Parts<Planes> parts) {
  for_each_element_oriented<float2>(
      parts,
      [](const Planes& mat, int64_t row, int64_t col) {
        return load_complex<kPairs>(mat.src, mat.ld_src, row, col);
      },
      [](const Planes& mat, int64_t r, int64_t c, float2 v) {
        const double re = double(v.x), im = mat.conjugate ? -double(v.y) : double(v.y);
        double* d = mat.dst + r + c * mat.ld_dst;
        d[0] = re;
        d[mat.plane] = im;
        d[2 * mat.plane] = re + im;
      });
}

struct Combine {
  Products products;
  double alpha_re, alpha_im, beta_re, beta_im;
  void* c;
  int64_t ldc;
  Triangle triangle;
};

template <bool kPairs>
__global__ void __launch_bounds__(kLanes* kColsPerBlock)
    combine_kernel(const Parts<Combine> parts) {
  for_each_element(parts, [](const Combine& j, int64_t row, int64_t col) {
    if (!gemm_device::in_triangle(j.triangle, row, col)) return;
    double xr = 0.0, xi = 0.0;
    if (j.products.p) {
      const double* p = j.products.p + row + col * j.products.ld;
      const double p0 = p[0], p1 = p[j.products.plane], p2 = p[2 * j.products.plane];
      xr = p0 - p1;
      xi = p2 - p0 - p1;
    }
    double re = fma(j.alpha_re, xr, -j.alpha_im * xi), im = fma(j.alpha_re, xi, j.alpha_im * xr);
    if (j.beta_re != 0.0 || j.beta_im != 0.0) {
      const float2 old = load_complex<kPairs>(j.c, j.ldc, row, col);
      re += fma(j.beta_re, double(old.x), -j.beta_im * double(old.y));
      im += fma(j.beta_re, double(old.y), j.beta_im * double(old.x));
    }
    float* at = static_cast<float*>(j.c) + 2 * (row + col * j.ldc);
    if constexpr (kPairs) {
      *reinterpret_cast<float2*>(at) = make_float2(float(re), float(im));
    } else {
      at[0] = float(re);
      at[1] = float(im);
    }
  });
}

// One launch of `kernel` over the parts' tiles.
template <class M>
cudaError_t launch(void (*kernel)(Parts<M>), const Parts<M>& parts, cudaStream_t stream) {
  const int64_t tiles = parts.first.tiles + parts.second.tiles;
  if (tiles == 0) return cudaSuccess;
  const unsigned grid = unsigned(std::min(tiles, kMaxBlocks));
  kernel<<<grid, dim3(kLanes, kColsPerBlock), 0, stream>>>(parts);
  return cudaGetLastError();
}

bool valid_ld(int64_t ld, int64_t rows) { return ld >= std::max<int64_t>(1, rows); }

// The parts of count (1 or 2) source-to-destination matrices (Matrix, Planes), or false where the
// count or a matrix breaks the contract (destinations aligned to dst_align bytes; `fits`: what the
// destination's kind adds); *pairs: every source 8-byte aligned.
bool no_further_checks(const Matrix&) { return true; }
bool not_transposed(const Matrix& m) { return !m.transposed; }
// A destination's rows and columns (a transposed matrix's: cols x rows).
template <class M>
int64_t dst_rows(const M& m) {
  return m.transposed ? m.cols : m.rows;
}
template <class M>
int64_t dst_cols(const M& m) {
  return m.transposed ? m.rows : m.cols;
}

template <class M, class Fits>
bool parts_of(const M* matrices, int count, Fits fits, size_t dst_align, Parts<M>* parts,
              bool* pairs) {
  if (count < 1 || count > 2) return false;
  Part<M>* part[2] = {&parts->first, &parts->second};
  for (int i = 0; i < count; ++i) {
    const M& m = matrices[i];
    if (m.rows < 0 || m.cols < 0 || !valid_ld(m.ld_src, m.rows) ||
        !valid_ld(m.ld_dst, dst_rows(m)) || !aligned_to(m.src, 4) ||
        !aligned_to(m.dst, dst_align) || !fits(m))
      return false;
    *pairs = *pairs && aligned_to(m.src, 8);
    *part[i] = part_of(m, m.rows, m.cols);
  }
  return true;
}

}  // namespace

cudaError_t real_to_double(const Matrix* matrices, int count, cudaStream_t stream) {
  Parts<Matrix> parts{};
  bool pairs = true;
  if (!parts_of(matrices, count, no_further_checks, 8, &parts, &pairs))
    return cudaErrorInvalidValue;
  return launch(widen_real_kernel, parts, stream);
}

cudaError_t complex_to_double(const Matrix* matrices, int count, cudaStream_t stream) {
  Parts<Matrix> parts{};
  bool pairs = true;
  if (!parts_of(matrices, count, not_transposed, 16, &parts, &pairs)) return cudaErrorInvalidValue;
  return launch(pairs ? widen_kernel<true> : widen_kernel<false>, parts, stream);
}

cudaError_t complex_to_planes(const Planes* matrices, int count, cudaStream_t stream) {
  Parts<Planes> parts{};
  bool pairs = true;
  auto planes_fit = [](const Planes& m) { return m.plane >= m.ld_dst * dst_cols(m); };
  if (!parts_of(matrices, count, planes_fit, 16, &parts, &pairs)) return cudaErrorInvalidValue;
  return launch(pairs ? planes_kernel<true> : planes_kernel<false>, parts, stream);
}

cudaError_t combine_3m(const Products& products, int64_t m, int64_t n, Scalar alpha, Scalar beta,
                       void* c, int64_t ldc, Triangle triangle, cudaStream_t stream) {
  if (m < 0 || n < 0 || !valid_ld(ldc, m) || !aligned_to(c, 4)) return cudaErrorInvalidValue;
  if (products.p && (!valid_ld(products.ld, m) || products.plane < products.ld * n ||
                     !aligned_to(products.p, 16)))
    return cudaErrorInvalidValue;
  const Combine job{products, alpha.re, alpha.im, beta.re, beta.im, c, ldc, triangle};
  const Parts<Combine> parts{part_of(job, m, n), {}};
  return launch(aligned_to(c, 8) ? combine_kernel<true> : combine_kernel<false>, parts, stream);
}

}  // namespace tileblas::widen
