// gemm_skinny: see gemm_skinny.h for the contract.
#include "gemm_skinny.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "gemm_device_common.cuh"
#include "splitk.h"

namespace tileblas::gemm_skinny {
namespace {

constexpr int kThreads = 256;    // one column of C each
constexpr int kChunkWords = 16;  // registers of Y's next chunk a thread holds: its loads in flight
// The fewest k a slice multiplies: two chunks of fp32. A block streams its chunks one after
// another, so a product with few columns (the peeled rows' remainders, 1 x 1025 x 1025) needs many
// short slices to have enough loads in flight; with many columns the SMs fill before this binds.
constexpr int kMinSliceK = 32;

// Storage type E of A and B: the arithmetic's real type, and 1 or 2 parts (complex).
template <class R, int N>
struct Parts {
  using Real = R;
  static constexpr int kParts = N;
};
template <class E>
struct Traits;
template <>
struct Traits<float> : Parts<float, 1> {};
template <>
struct Traits<double> : Parts<double, 1> {};
template <>
struct Traits<float2> : Parts<float, 2> {};
template <>
struct Traits<double2> : Parts<double, 2> {};

// The 16-byte vector of reals X's broadcast reads take at once, and its parts.
template <class Real>
struct Vec16;
template <>
struct Vec16<float> {
  using type = float4;
};
template <>
struct Vec16<double> {
  using type = double2;
};
__device__ __forceinline__ void split16(float4 v, float* o) {
  o[0] = v.x, o[1] = v.y, o[2] = v.z, o[3] = v.w;
}
__device__ __forceinline__ void split16(double2 v, double* o) { o[0] = v.x, o[1] = v.y; }

// One operand as the kernel reads it: element (r, c) at data[r * row_stride + c * col_stride],
// conjugated where `conj`.
struct View {
  const void* data;
  int64_t row_stride, col_stride;
  bool conj;
};

template <class Real>
struct Args {
  View x;  // rows x k: element (i, l)
  View y;  // k x cols: element (l, j)
  int rows, cols;
  int64_t k, k_slice;
  Real* partial;  // slice s, element (i, j) at s * slice_stride + i * out_row + j * out_col
  int64_t out_row, out_col, slice_stride;
};

// An element's parts into shared memory, the imaginary part negated where `conj`.
__device__ __forceinline__ void store_parts(float* to, float v, bool) { to[0] = v; }
__device__ __forceinline__ void store_parts(double* to, double v, bool) { to[0] = v; }
__device__ __forceinline__ void store_parts(float* to, float2 v, bool conj) {
  to[0] = v.x, to[1] = conj ? -v.y : v.y;
}
__device__ __forceinline__ void store_parts(double* to, double2 v, bool conj) {
  to[0] = v.x, to[1] = conj ? -v.y : v.y;
}

template <class E, int kRows>
struct Config {
  using Real = typename Traits<E>::Real;
  static constexpr int kParts = Traits<E>::kParts;
  static constexpr int kRowReals = kRows * kParts;                 // one k of X's chunk
  static constexpr int kChunk = kChunkWords * 4 / int(sizeof(E));  // k per chunk
  static constexpr int kXPerThread = (kRows * kChunk + kThreads - 1) / kThreads;
  static constexpr int kVecReals = 16 / int(sizeof(Real));
  static constexpr int kYStride = (kChunk + 1) * kParts;  // padded: conflict-free column reads
  static constexpr int kRowWords = kRowReals * int(sizeof(Real)) / 4;  // accumulator registers
  // k-steps of a chunk unrolled: all of them (the next step's shared reads issued under this one's
  // products), but two for complex fp64 with 32 rows, where unrolling all spilled.
  static constexpr int kUnroll = kRowWords <= 64 ? kChunk : 2;
  // Blocks per SM the registers leave room for: two (128 registers a thread), but one for 32 rows
  // of 8 bytes or more, whose unrolled k-steps need more (complex fp32 32x8192x2048: 0.61-0.64 of
  // cuBLAS against 0.54 with two blocks and two k-steps unrolled; H100,
  // docs/bench/h100-2026-11-27-sweep-skinny-forced-oneblock.md).
  static constexpr int kMinBlocks = kRows == 32 && kRowWords >= 64 ? 1 : 2;
  static_assert(kRowReals % kVecReals == 0, "X's rows are read 16 bytes at a time");
  static_assert(kThreads % kChunk == 0 && kThreads % kRows == 0, "whole rows per pass");
};

template <class E, int kRows>
__global__ void __launch_bounds__(kThreads, Config<E, kRows>::kMinBlocks)
    gemm_skinny_kernel(const Args<typename Config<E, kRows>::Real> a) {
  using Cf = Config<E, kRows>;
  using Real = typename Cf::Real;
  constexpr int kC = Cf::kChunk, kP = Cf::kParts;
  __shared__ __align__(16) Real xs[kC][Cf::kRowReals];
  __shared__ __align__(16) Real ys[kThreads][Cf::kYStride];

  const int t = int(threadIdx.x);
  const int64_t col0 = int64_t(blockIdx.x) * kThreads;
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_slice;
  const int64_t k_end = min(a.k, k_begin + a.k_slice);
  // This thread's share of a chunk, walked along the operand's contiguous dimension (coalesced):
  // Y's element r at (k0 + y_kk(r), col0 + y_col(r)), X's at (x_row(r), k0 + x_kk(r)).
  const bool y_k_contiguous = a.y.row_stride == 1, x_rows_contiguous = a.x.row_stride == 1;
  auto y_kk = [&](int r) { return y_k_contiguous ? t % kC : r; };
  auto y_col = [&](int r) { return y_k_contiguous ? t / kC + r * (kThreads / kC) : t; };
  auto x_kk = [&](int r) {
    return x_rows_contiguous ? t / kRows + r * (kThreads / kRows) : t % kC;
  };
  auto x_row = [&](int r) { return x_rows_contiguous ? t % kRows : t / kC + r * (kThreads / kC); };
  auto x_mine = [&](int r) { return x_rows_contiguous ? x_kk(r) < kC : x_row(r) < kRows; };
  const E* const y = static_cast<const E*>(a.y.data) + col0 * a.y.col_stride;
  const E* const x = static_cast<const E*>(a.x.data);

  // The next chunk, in registers while the block multiplies the current one.
  E y_next[kC], x_next[Cf::kXPerThread];
  // Element r + 1 of Y's share lies y_step elements past element r.
  const int64_t y_step = y_k_contiguous ? int64_t(kThreads / kC) * a.y.col_stride : a.y.row_stride;
  const bool all_columns = col0 + kThreads <= a.cols;
  auto load_chunk = [&](int64_t k0) {
    const E* yk = y + k0 * a.y.row_stride;
    if (all_columns && k0 + kC <= k_end) {  // the whole chunk inside: no bounds per element
      const E* first = yk + y_kk(0) * a.y.row_stride + y_col(0) * a.y.col_stride;
#pragma unroll
      for (int r = 0; r < kC; ++r) y_next[r] = first[r * y_step];
    } else {
#pragma unroll
      for (int r = 0; r < kC; ++r) {
        y_next[r] = E{};
        if (k0 + y_kk(r) < k_end && col0 + y_col(r) < a.cols)
          y_next[r] = yk[y_kk(r) * a.y.row_stride + y_col(r) * a.y.col_stride];
      }
    }
    const E* xk = x + k0 * a.x.col_stride;
#pragma unroll
    for (int r = 0; r < Cf::kXPerThread; ++r) {
      x_next[r] = E{};
      if (x_mine(r) && x_row(r) < a.rows && k0 + x_kk(r) < k_end)
        x_next[r] = xk[x_row(r) * a.x.row_stride + x_kk(r) * a.x.col_stride];
    }
  };
  // Into shared memory, conjugated where op() says.
  auto store_chunk = [&]() {
#pragma unroll
    for (int r = 0; r < kC; ++r) store_parts(&ys[y_col(r)][y_kk(r) * kP], y_next[r], a.y.conj);
#pragma unroll
    for (int r = 0; r < Cf::kXPerThread; ++r) {
      if (x_mine(r)) store_parts(&xs[x_kk(r)][x_row(r) * kP], x_next[r], a.x.conj);
    }
  };

  // acc[i]: this thread's column, row i (re, im interleaved for complex data).
  Real acc[Cf::kRowReals];
#pragma unroll
  for (int i = 0; i < Cf::kRowReals; ++i) acc[i] = Real(0);

  if (k_begin < k_end) load_chunk(k_begin);
  for (int64_t k0 = k_begin; k0 < k_end; k0 += kC) {
    store_chunk();
    __syncthreads();
    if (k0 + kC < k_end) load_chunk(k0 + kC);  // in flight while this chunk is multiplied
#pragma unroll(Cf::kUnroll)
    for (int kk = 0; kk < kC; ++kk) {
      Real yv[kP];
#pragma unroll
      for (int p = 0; p < kP; ++p) yv[p] = ys[t][kk * kP + p];
#pragma unroll
      for (int v = 0; v < Cf::kRowReals; v += Cf::kVecReals) {
        Real xv[Cf::kVecReals];
        split16(*reinterpret_cast<const typename Vec16<Real>::type*>(&xs[kk][v]), xv);
#pragma unroll
        for (int q = 0; q < Cf::kVecReals; q += kP) {
          Real* s = &acc[v + q];
          if constexpr (kP == 1) {
            s[0] = fma(xv[q], yv[0], s[0]);
          } else {
            s[0] = fma(xv[q], yv[0], s[0]);
            s[0] = fma(-xv[q + 1], yv[1], s[0]);
            s[1] = fma(xv[q], yv[1], s[1]);
            s[1] = fma(xv[q + 1], yv[0], s[1]);
          }
        }
      }
    }
    __syncthreads();
  }

  if (col0 + t >= a.cols) return;
  Real* out = a.partial + (int64_t(blockIdx.y) * a.slice_stride + (col0 + t) * a.out_col) * kP;
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    if (i >= a.rows) break;
#pragma unroll
    for (int p = 0; p < kP; ++p) out[i * a.out_row * kP + p] = acc[i * kP + p];
  }
}

bool types_supported(const Problem& p) {
  switch (p.type) {
    case DataType::kF32:
    case DataType::kF64:
    case DataType::kC32:
    case DataType::kC64:
      return p.c_type == p.type;
    case DataType::kF16:
    case DataType::kBF16:
      break;
  }
  return false;
}

bool supports_rows(const Problem& p, const DeviceCaps& caps, int64_t rows) {
  if (caps.sm_version < 80 || !types_supported(p) || p.c_triangle != Triangle::kAll) return false;
  constexpr int64_t kMaxExtent = INT32_MAX - 1024;
  if (p.m < 1 || p.n < 1 || p.k < 0 || p.m > kMaxExtent || p.n > kMaxExtent) return false;
  if (std::min(p.m, p.n) > rows) return false;
  if (p.lda < std::max<int64_t>(1, p.a_rows()) || p.ldb < std::max<int64_t>(1, p.b_rows()) ||
      p.ldc < p.m)
    return false;
  const size_t element = size_of(p.type);
  return gemm_device::aligned_to(p.a, element) && gemm_device::aligned_to(p.b, element) &&
         gemm_device::aligned_to(p.c, real_size_of(p.c_type));
}

// op(A) element (i, l) and op(B) element (l, j) as views (row, column strides).
View op_a(const Problem& p) {
  if (p.trans_a == Op::kNoTrans) return {p.a, 1, p.lda, false};
  return {p.a, p.lda, 1, p.trans_a == Op::kConjTrans};
}
View op_b(const Problem& p) {
  if (p.trans_b == Op::kNoTrans) return {p.b, 1, p.ldb, false};
  return {p.b, p.ldb, 1, p.trans_b == Op::kConjTrans};
}
View transposed(View v) { return {v.data, v.col_stride, v.row_stride, v.conj}; }

template <class E, int kRows>
cudaError_t launch_typed(const Problem& p, cudaStream_t stream) {
  using Cf = Config<E, kRows>;
  using Real = typename Cf::Real;
  // C = X Y with X = op(A) where m is the small side, else C^T = op(B)^T op(A)^T.
  const bool direct = p.m <= kRows && (p.n >= p.m || p.n > kRows);
  Args<Real> a{};
  a.x = direct ? op_a(p) : transposed(op_b(p));
  a.y = direct ? op_b(p) : transposed(op_a(p));
  a.rows = int(direct ? p.m : p.n);
  a.cols = int(direct ? p.n : p.m);
  a.k = p.k;
  a.out_row = direct ? 1 : p.m;
  a.out_col = direct ? p.m : 1;
  a.slice_stride = p.m * p.n;

  splitk::Slices slices;
  if (!p.alpha.is_zero()) {
    int sms = 0;
    if (cudaError_t err = gemm_device::current_sm_count(&sms); err != cudaSuccess) return err;
    const splitk::Geometry g{kRows, kThreads, Cf::kChunk, Cf::kMinBlocks,
                             std::max(1, kMinSliceK / Cf::kChunk)};
    slices = splitk::slices_for(g, a.rows, a.cols, p.k, sms);
  }
  return splitk::run(
      p, p.c_type, slices, p.m,
      [&](void* partial) {
        a.partial = static_cast<Real*>(partial);
        a.k_slice = slices.k_steps * Cf::kChunk;
        const dim3 grid(unsigned((a.cols + kThreads - 1) / kThreads), unsigned(slices.count));
        gemm_skinny_kernel<E, kRows><<<grid, kThreads, 0, stream>>>(a);
        return cudaGetLastError();
      },
      stream);
}

template <int kRows>
cudaError_t launch_rows(const Problem& p, cudaStream_t stream) {
  switch (p.type) {
    case DataType::kF32:
      return launch_typed<float, kRows>(p, stream);
    case DataType::kF16:
    case DataType::kBF16:
      break;
    case DataType::kF64:
      return launch_typed<double, kRows>(p, stream);
    case DataType::kC32:
      return launch_typed<float2, kRows>(p, stream);
    case DataType::kC64:
      return launch_typed<double2, kRows>(p, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace

bool supports_8(const Problem& p, const DeviceCaps& caps) { return supports_rows(p, caps, 8); }
cudaError_t launch_8(const Problem& p, cudaStream_t stream) { return launch_rows<8>(p, stream); }
bool supports_16(const Problem& p, const DeviceCaps& caps) { return supports_rows(p, caps, 16); }
cudaError_t launch_16(const Problem& p, cudaStream_t stream) { return launch_rows<16>(p, stream); }
bool supports_32(const Problem& p, const DeviceCaps& caps) { return supports_rows(p, caps, 32); }
cudaError_t launch_32(const Problem& p, cudaStream_t stream) { return launch_rows<32>(p, stream); }

}  // namespace tileblas::gemm_skinny
