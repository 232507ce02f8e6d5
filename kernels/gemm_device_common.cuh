// Shared by the GEMM families: for the 16-bit and TF32 tensor-core ones (gemm_mma, gemm_wgmma) the
// kernel arguments, the epilogue's access to C in its storage type (fp32, fp16 or bf16; fp32
// arithmetic, rounded once) and the checks of supports() that do not depend on the family; for
// all, the grouped tile order, the triangle tests of Problem::c_triangle, the k ranges of its
// a_nonzero and b_nonzero, the current device's SM count and clusters, launches with a cluster
// shape or other launch attribute, and the memory pool that holds the workspaces (packed or
// transposed operands, split-K partials).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>

#include "memory.h"
#include "problem.h"

namespace tileblas::gemm_device {

struct Args {
  int m, n, k;
  float alpha, beta;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  void* c;
  int64_t ldc;
  DataType c_type;
};

__device__ inline float load_c(const void* c, int64_t at, DataType type) {
  if (type == DataType::kF32) return static_cast<const float*>(c)[at];
  if (type == DataType::kF16) return __half2float(static_cast<const __half*>(c)[at]);
  return __bfloat162float(static_cast<const __nv_bfloat16*>(c)[at]);
}
__device__ inline void store_c(void* c, int64_t at, DataType type, float v) {
  if (type == DataType::kF32) {
    static_cast<float*>(c)[at] = v;
  } else if (type == DataType::kF16) {
    static_cast<__half*>(c)[at] = __float2half_rn(v);
  } else {
    static_cast<__nv_bfloat16*>(c)[at] = __float2bfloat16_rn(v);
  }
}

// Grouped rasterization: consecutive tiles walk `group` tile rows before moving to the next tile
// column, so the A and B tiles that blocks running together share stay in L2. Returns the origin
// (m0, n0) of tile number `tile` (by default the block's own, blockIdx.x).
__device__ inline int2 grouped_tile_origin(int m, int n, int block_m, int block_n, int group,
                                           int tile) {
  const int tiles_m = (m + block_m - 1) / block_m;
  const int tiles_n = (n + block_n - 1) / block_n;
  const int per_group = group * tiles_n;
  const int first_tile_m = tile / per_group * group;
  const int group_rows = min(tiles_m - first_tile_m, group);
  const int in_group = tile % per_group;
  return make_int2((first_tile_m + in_group % group_rows) * block_m,
                   (in_group / group_rows) * block_n);
}
__device__ inline int2 grouped_tile_origin(int m, int n, int block_m, int block_n, int group) {
  return grouped_tile_origin(m, n, block_m, block_n, group, int(blockIdx.x));
}

// Problem::c_triangle in the kernels that accept one (every SIMT and FP64 tensor-core row but
// split-K and packed ones): whether C(row, col) is computed, and whether a tile of rows [m0, m0 +
// block_m) and columns [n0, n0 + block_n) holds none of it (its block exits at once).
__host__ __device__ inline bool in_triangle(Triangle t, int64_t row, int64_t col) {
  return t == Triangle::kAll || (t == Triangle::kLower ? row >= col : row <= col);
}
__host__ __device__ inline bool tile_outside_triangle(Triangle t, int64_t m0, int64_t n0,
                                                      int64_t block_m, int64_t block_n) {
  if (t == Triangle::kLower) return m0 + block_m - 1 < n0;
  if (t == Triangle::kUpper) return m0 > n0 + block_n - 1;
  return false;
}
// Problem::a_nonzero and b_nonzero in the kernels that take them: the k range [begin, end) a
// tile of rows [m0, m0 + block_m) and columns [n0, n0 + block_n) needs, op(A) (op(B)) being zero
// outside its triangle. Lower op(A): its rows r need k <= r; upper: k >= r. Lower op(B): its
// columns c need k >= c; upper: k <= c.
template <class Int>
__host__ __device__ inline Int tile_k_begin(Triangle a_nonzero, Triangle b_nonzero, Int m0,
                                            Int n0) {
  Int begin = a_nonzero == Triangle::kUpper ? m0 : Int(0);
  if (b_nonzero == Triangle::kLower && n0 > begin) begin = n0;
  return begin;
}
template <class Int>
__host__ __device__ inline Int tile_k_end(Triangle a_nonzero, Triangle b_nonzero, Int m0, Int n0,
                                          Int block_m, Int block_n, Int k) {
  Int end = k;
  if (a_nonzero == Triangle::kLower && m0 + block_m < end) end = m0 + block_m;
  if (b_nonzero == Triangle::kUpper && n0 + block_n < end) end = n0 + block_n;
  return end;
}

// Whether a triangle is one a kernel can compute: square C, or all of it.
inline bool triangle_fits(const Problem& p) { return p.c_triangle == Triangle::kAll || p.m == p.n; }

// The current device's SM count (split-K's slice rule, the persistent rows' grid).
inline cudaError_t current_sm_count(int* sms) {
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
  return err;
}

// Whether the current device runs this build's kernels in thread-block clusters: an sm_90 or newer
// device, and kernels built for an sm_90 or newer target (TILEBLAS_CLUSTER_KERNELS, which CMake
// defines from TILEBLAS_CUDA_ARCHS). Built for older targets alone, such a device runs the
// kernels' PTX of an older target, whose cluster instructions are traps (kernels/cluster.cuh).
inline cudaError_t current_has_clusters(bool* clusters) {
#ifdef TILEBLAS_CLUSTER_KERNELS
  int device = 0, major = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  *clusters = err == cudaSuccess && major >= 9;
  return err;
#else
  *clusters = false;
  return cudaSuccess;
#endif
}

// Launches kernel(args...) over `grid` blocks of `threads` threads with `smem` bytes of dynamic
// shared memory and one launch attribute (a cluster shape, a cooperative launch).
template <class... Params, class... Actual>
cudaError_t launch_with(cudaLaunchAttribute attribute, void (*kernel)(Params...), dim3 grid,
                        unsigned threads, size_t smem, cudaStream_t stream, Actual&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Actual>(args)...);
}
// Clusters of `blocks` blocks along the grid's y (a tile's k slices).
inline cudaLaunchAttribute clusters_along_y(unsigned blocks) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = 1;
  attribute.val.clusterDim.y = blocks;
  attribute.val.clusterDim.z = 1;
  return attribute;
}

inline bool aligned_to(const void* p, size_t bytes) {
  return reinterpret_cast<uintptr_t>(p) % bytes == 0;
}

// C's type matches the inputs' (fp32 C for any input; TF32 only when the problem opts in), the
// extents and the count of block_m x block_n tiles fit the kernels' int indices (offsets are
// int64), and the leading dimensions are at least the minimum.
inline bool problem_fits(const Problem& p, int64_t block_m, int64_t block_n) {
  if (p.type == DataType::kF32) {
    if (!p.allow_tf32 || p.c_type != DataType::kF32) return false;
  } else if (p.c_type != DataType::kF32 && p.c_type != p.type) {
    return false;
  }
  constexpr int64_t kMaxExtent = INT32_MAX - 1024;
  if (p.m < 1 || p.n < 1 || p.k < 0 || p.m > kMaxExtent || p.n > kMaxExtent || p.k > kMaxExtent)
    return false;
  if ((p.m + block_m - 1) / block_m * ((p.n + block_n - 1) / block_n) > INT32_MAX) return false;
  if (p.c_triangle != Triangle::kAll) return false;  // these rows compute all of C
  return p.lda >= std::max<int64_t>(1, p.a_rows()) && p.ldb >= std::max<int64_t>(1, p.b_rows()) &&
         p.ldc >= std::max<int64_t>(1, p.m);
}

// A workspace of `bytes` from the current device's pool (src/memory.h: keep_in_pool() first),
// stream-ordered on `stream` (the caller frees it with cudaFreeAsync on the same stream).
template <class T>
cudaError_t allocate_workspace(size_t bytes, T** workspace, cudaStream_t stream) {
  const cudaError_t err = keep_in_pool(bytes);
  if (err != cudaSuccess) return err;
  return cudaMallocAsync(reinterpret_cast<void**>(workspace), bytes, stream);
}

}  // namespace tileblas::gemm_device
