// cgemm_simt: complex fp32 GEMM on the SIMT cores. The contract (formula, storage, tiling, edges,
// alignment) is at the top of cgemm_simt.h.
#include "cgemm_simt.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <climits>
#include <cstdint>
#include "cp_async.cuh"
#include "gemm_device_common.cuh"
#include "splitk.h"

namespace tileblas::cgemm_simt {

namespace {

using gemm_device::aligned_to;

constexpr int kBlockM = 64, kBlockN = 128, kBlockK = 16;
constexpr int kWarpM = 16, kWarpN = 64;
constexpr int kWarpsM = kBlockM / kWarpM;
constexpr int kThreads = 32 * kWarpsM * (kBlockN / kWarpN);
constexpr int kStages = 3;
constexpr int kRasterGroup = 8;
// Shared rows (one k each) padded by 2 complex: 16-byte aligned rows for the fragment reads, and
// a pitch of 2 (mod 16) complex puts the 8-byte writes of a k-contiguous operand (8 consecutive k
// of two rows a half warp) on 16 distinct 8-byte bank pairs.
constexpr int kPad = 2;
constexpr int kPitchA = kBlockM + kPad, kPitchB = kBlockN + kPad;  // complex elements
constexpr int kStageElems = kBlockK * (kPitchA + kPitchB);
constexpr int kSmemBytes = kStages * kStageElems * 8;

static_assert(kThreads == 256, "the copy layouts below assume 256 threads");
static_assert(kWarpM == 16 && kWarpN == 64,
              "4 x 8 lanes, each 2 x 2 complex vectors of 2: 16 x 64 warp tiles");
static_assert(kPitchA % 16 == 2 && kPitchB % 16 == 2, "conflict-free transposing writes");
static_assert(kBlockK == 16, "k-contiguous copies: 8 consecutive k per lane group, two groups");
static_assert(kStages >= 2, "k-tile kt + kStages is copied during k-tile kt's last k-step");

struct Args {
  int m, n, k;
  float alpha_re, alpha_im, beta_re, beta_im;
  const float2* a;
  int64_t lda;
  const float2* b;
  int64_t ldb;
  float2* c;
  int64_t ldc;
  Triangle triangle;  // Problem::c_triangle
  // Peeled (the packed row): m and n above are the interior's; the strip below it (strip_rows
  // rows, all strip_cols + n columns) and the strip right of it (strip_cols columns, the
  // interior's rows) are computed by the blocks after the interior's tiles, the first
  // strip_blocks_bottom of them on the strip below.
  int strip_rows = 0, strip_cols = 0, strip_blocks_bottom = 0;
  // Split-K (the kernel's kSlices instantiations): slice blockIdx.y multiplies k
  // [y k_per_slice, min(k, (y + 1) k_per_slice)) into c + y c_slice_stride.
  int k_per_slice = 0;
  int64_t c_slice_stride = 0;
};

// How an operand lies in global memory: contiguous along k (A transposed, B not) or along m/n.
enum class Layout { kKContiguous, kMNContiguous };

using ptx::cp_async_16;
using ptx::cp_async_4;
using ptx::cp_async_8;
using ptx::cp_async_commit;
using ptx::cp_async_wait;
using ptx::smem_address;

// One complex element: 8 bytes at once, or (4-byte alignment only) re and im apart.
template <int kCopyBytes>
__device__ __forceinline__ void copy_element(uint32_t dst, const float2* src, bool ok) {
  if constexpr (kCopyBytes >= 8) {
    cp_async_8(dst, src, ok ? 8 : 0);
  } else {
    const float* f = reinterpret_cast<const float*>(src);
    cp_async_4(dst, f, ok ? 4 : 0);
    cp_async_4(dst + 4, ok ? f + 1 : f, ok ? 4 : 0);
  }
}

// Copies the k-step starting at k0 of one operand x (kRows rows of m or n from mn0) into shared
// memory at `dst` (k-major, `kPitch` complex per k): element (k0 + kk, mn0 + r) -> dst[kk][r].
template <Layout kLayout, int kRows, int kPitch, int kCopyBytes>
__device__ __forceinline__ void copy_tile(uint32_t dst, const float2* x, int64_t ld, int mn0,
                                          int mn_extent, int k0, int k_extent) {
  const int tid = int(threadIdx.x);
  if constexpr (kLayout == Layout::kMNContiguous) {
    constexpr int kElems = kCopyBytes == 16 ? 2 : 1;  // complex per copy
    constexpr int kPerRow = kRows / kElems;
    constexpr int kRowStep = kThreads / kPerRow;
    static_assert(kThreads % kPerRow == 0 && kBlockK % kRowStep == 0, "whole k rows per pass");
    const int e = tid % kPerRow, r0 = tid / kPerRow;
    const int mn = mn0 + e * kElems;
    const int elems = min(max(mn_extent - mn, 0), kElems);
#pragma unroll
    for (int i = 0; i < kBlockK / kRowStep; ++i) {
      const int row = r0 + i * kRowStep;
      const bool ok = elems > 0 && k0 + row < k_extent;
      const float2* src = ok ? x + (int64_t(k0 + row) * ld + mn) : x;
      const uint32_t at = dst + uint32_t((row * kPitch + e * kElems) * 8);
      if constexpr (kCopyBytes == 16) {
        cp_async_16(at, src, ok ? elems * 8 : 0);
      } else {
        copy_element<kCopyBytes>(at, src, ok);
      }
    }
  } else {
    // Lane groups of 8 consecutive k (64 contiguous bytes of a row), 32 rows per pass.
    const int kk = tid % 8, r0 = tid / 8;
#pragma unroll
    for (int h = 0; h < kBlockK / 8; ++h) {
      const bool k_ok = k0 + kk + 8 * h < k_extent;
#pragma unroll
      for (int rr = 0; rr < kRows / 32; ++rr) {
        const int row = r0 + 32 * rr;
        const bool ok = k_ok && mn0 + row < mn_extent;
        const float2* src = ok ? x + (int64_t(mn0 + row) * ld + k0 + kk + 8 * h) : x;
        copy_element<kCopyBytes>(dst + uint32_t(((kk + 8 * h) * kPitch + row) * 8), src, ok);
      }
    }
  }
}

// Peeling (the packed row): where m or n is at most kMaxPeel past a multiple of the block tile, a
// last tile row or column would cost a whole tile for a few rows (4097^3: 65 x 33 tiles, 9 waves
// of 264 blocks on an H100, where the interior's 64 x 32 take 8). The tiles then cover the
// interior, and blocks placed after them in the grid compute the thin strips, in the slots the
// tiles' last wave leaves idle. A strip block computes C(u, v) for the strip's thin indices u and
// kStripChunk indices v along its long side, over all of k, from m/n-contiguous operands with
// 16-byte aligned, even-strided columns (the vector kernel's): per k, two complex of the long
// operand per lane (one 16-byte load) and the strip's few values of the thin one (the same for
// the whole warp). The warps split k; their partial sums are added in warp order through shared
// memory (deterministic).
constexpr int kMaxPeel = 8;
constexpr int kStripChunk = 64;  // complex elements of the long side: two a lane

template <bool kConjA, bool kConjB>
__device__ __forceinline__ void strip_block(const Args& args, int strip, float2* smem) {
  constexpr int kSplit = kThreads / 32;
  static_assert(kStripChunk == 32 * 2, "a warp covers the chunk with two complex a lane");
  static_assert(size_t(kSplit) * kMaxPeel * kStripChunk * sizeof(float2) <= size_t(kSmemBytes),
                "the warps' partial sums fit in the tile's shared memory");
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const bool below = strip < args.strip_blocks_bottom;
  const int chunk = below ? strip : strip - args.strip_blocks_bottom;
  const int thin_count = below ? args.strip_rows : args.strip_cols;
  const int thin0 = below ? args.m : args.n;  // the interior's m and n
  const int long_count = below ? args.n + args.strip_cols : args.m;
  const float2* const long_x = below ? args.b : args.a;
  const float2* const thin_x = below ? args.a : args.b;
  const int64_t long_ld = below ? args.ldb : args.lda, thin_ld = below ? args.lda : args.ldb;
  const float long_sign = (below ? kConjB : kConjA) ? -1.0f : 1.0f;
  const float thin_sign = (below ? kConjA : kConjB) ? -1.0f : 1.0f;
  const int v0 = chunk * kStripChunk + 2 * lane;
  const int pair = min(max(long_count - v0, 0), 2);  // long-side elements of this lane

  float acc[kMaxPeel][2][2] = {};  // acc[u][e]: (re, im) of C(u, v0 + e)
  if (pair > 0) {
#pragma unroll 4
    for (int64_t l = warp; l < args.k; l += kSplit) {
      const float2* x = long_x + (v0 + l * long_ld);
      float4 xv;
      if (pair == 2) {
        xv = *reinterpret_cast<const float4*>(x);
      } else {
        const float2 e = *x;
        xv = make_float4(e.x, e.y, 0.0f, 0.0f);
      }
      const float xr[2] = {xv.x, xv.z}, xi[2] = {long_sign * xv.y, long_sign * xv.w};
      const float2* t = thin_x + (thin0 + l * thin_ld);
#pragma unroll
      for (int u = 0; u < kMaxPeel; ++u) {
        if (u >= thin_count) break;
        const float2 tu = t[u];
        const float ti = thin_sign * tu.y;
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          acc[u][e][0] = fmaf(tu.x, xr[e], fmaf(-ti, xi[e], acc[u][e][0]));
          acc[u][e][1] = fmaf(tu.x, xi[e], fmaf(ti, xr[e], acc[u][e][1]));
        }
      }
    }
  }
  // smem[w][u][v - chunk start]: warp w's partial sums.
#pragma unroll
  for (int u = 0; u < kMaxPeel; ++u) {
    *reinterpret_cast<float4*>(smem + (warp * kMaxPeel + u) * kStripChunk + 2 * lane) =
        make_float4(acc[u][0][0], acc[u][0][1], acc[u][1][0], acc[u][1][1]);
  }
  __syncthreads();
  const bool beta_zero = args.beta_re == 0.0f && args.beta_im == 0.0f;
  for (int o = int(threadIdx.x); o < thin_count * kStripChunk; o += kThreads) {
    const int u = o / kStripChunk, v = chunk * kStripChunk + o % kStripChunk;
    if (v >= long_count) continue;
    const int64_t row = below ? thin0 + u : v, col = below ? v : thin0 + u;
    if (!gemm_device::in_triangle(args.triangle, row, col)) continue;
    float2 sum = make_float2(0.0f, 0.0f);
#pragma unroll
    for (int w = 0; w < kSplit; ++w) {
      const float2 part = smem[(w * kMaxPeel + u) * kStripChunk + o % kStripChunk];
      sum.x += part.x, sum.y += part.y;
    }
    float* f = reinterpret_cast<float*>(args.c + (row + col * args.ldc));
    float re = fmaf(args.alpha_re, sum.x, -args.alpha_im * sum.y);
    float im = fmaf(args.alpha_re, sum.y, args.alpha_im * sum.x);
    if (!beta_zero) {
      const float cr = f[0], ci = f[1];
      re += fmaf(args.beta_re, cr, -args.beta_im * ci);
      im += fmaf(args.beta_re, ci, args.beta_im * cr);
    }
    f[0] = re, f[1] = im;
  }
}

// kCopyBytes: 16 (two complex of an m/n-contiguous operand a copy), 8 (one complex) or 4 (re or
// im). kSlices: one slice of k per blockIdx.y (split-K, Args::k_per_slice).
template <Layout kALayout, Layout kBLayout, bool kConjA, bool kConjB, int kCopyBytes,
          bool kSlices = false>
__global__ void __launch_bounds__(kThreads, 2) cgemm_simt_kernel(Args args) {
  extern __shared__ __align__(16) float2 smem[];
  const float2* a_ptr = args.a;
  const float2* b_ptr = args.b;
  float2* c_ptr = args.c;
  int k = args.k;
  if constexpr (kSlices) {
    const int k0 = int(blockIdx.y) * args.k_per_slice;
    a_ptr += kALayout == Layout::kMNContiguous ? int64_t(k0) * args.lda : k0;
    b_ptr += kBLayout == Layout::kMNContiguous ? int64_t(k0) * args.ldb : k0;
    c_ptr += int64_t(blockIdx.y) * args.c_slice_stride;
    k = min(args.k_per_slice, args.k - k0);
  }
  if constexpr (kALayout == Layout::kMNContiguous && kBLayout == Layout::kMNContiguous &&
                kCopyBytes == 16) {
    const int tiles = (args.m + kBlockM - 1) / kBlockM * ((args.n + kBlockN - 1) / kBlockN);
    if (int(blockIdx.x) >= tiles) {
      strip_block<kConjA, kConjB>(args, int(blockIdx.x) - tiles, smem);
      return;
    }
  }
  const int2 origin =
      gemm_device::grouped_tile_origin(args.m, args.n, kBlockM, kBlockN, kRasterGroup);
  const int m0 = origin.x, n0 = origin.y;
  if (gemm_device::tile_outside_triangle(args.triangle, m0, n0, kBlockM, kBlockN)) return;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int m_lane = (lane >> 1) & 3;
  const int n_lane = (lane & 1) | ((lane >> 3) << 1);
  const int wm0 = (warp % kWarpsM) * kWarpM, wn0 = (warp / kWarpsM) * kWarpN;
  const bool alpha_zero = args.alpha_re == 0.0f && args.alpha_im == 0.0f;
  const int k_tiles = alpha_zero ? 0 : (k + kBlockK - 1) / kBlockK;
  const uint32_t smem0 = smem_address(smem);

  auto load_stage = [&](int stage, int kt) {
    const uint32_t sa = smem0 + uint32_t(stage * kStageElems * 8);
    copy_tile<kALayout, kBlockM, kPitchA, kCopyBytes>(sa, a_ptr, args.lda, m0, args.m, kt * kBlockK,
                                                      k);
    copy_tile<kBLayout, kBlockN, kPitchB, kCopyBytes>(sa + uint32_t(kBlockK * kPitchA * 8), b_ptr,
                                                      args.ldb, n0, args.n, kt * kBlockK, k);
  };

  // Prologue: k-tiles 0 .. kStages - 1 in flight, one commit group each.
#pragma unroll
  for (int s = 0; s < kStages; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit();
  }

  // acc[r][c] = (re, im) of C(rows 8 (r / 2) + 2 m_lane + r % 2, cols 16 (c / 2) + 2 n_lane + c %
  // 2) of the warp tile.
  float acc[4][8][2];
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int c = 0; c < 8; ++c) acc[r][c][0] = acc[r][c][1] = 0.0f;

  // Signs of the products ai bi (re), ar bi and ai br (im) under conjugation.
  constexpr float kSignAiBi = kConjA == kConjB ? -1.0f : 1.0f;
  constexpr float kSignBi = kConjB ? -1.0f : 1.0f;
  constexpr float kSignAi = kConjA ? -1.0f : 1.0f;

  const float2* const as0 = smem + wm0 + 2 * m_lane;
  const float2* const bs0 = smem + kBlockK * kPitchA + wn0 + 2 * n_lane;
  cp_async_wait<kStages - 1>();  // k-tile 0 has landed (this thread's copies) ...
  __syncthreads();               // ... everyone's
  int stage = 0;
  for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
    for (int kk = 0; kk < kBlockK; ++kk) {
      float4 a[2], b[4];
      const float2* as = as0 + stage * kStageElems + kk * kPitchA;
      const float2* bs = bs0 + stage * kStageElems + kk * kPitchB;
#pragma unroll
      for (int x = 0; x < 2; ++x) a[x] = *reinterpret_cast<const float4*>(as + 8 * x);
#pragma unroll
      for (int y = 0; y < 4; ++y) b[y] = *reinterpret_cast<const float4*>(bs + 16 * y);
      if (kk + 1 == kBlockK) {
        // The barrier sits before the last k-step's products, not before the first k-step's
        // reads: every warp leaves it with 128 FMAs to issue while the next reads are in flight
        // (at the top of the k-tile, all warps left it waiting on shared memory: 0.79 against
        // 0.89 of cuBLAS at 4096^3 NT on an H100). After it, every thread holds all of k-tile kt in
        // registers, so its stage takes k-tile kt + kStages; k-tile kt + 1 has landed.
        cp_async_wait<kStages - 2>();
        __syncthreads();
        if (kt + kStages < k_tiles) load_stage(stage, kt + kStages);
        cp_async_commit();
      }
      auto ar = [&](int r) { return r % 2 ? a[r / 2].z : a[r / 2].x; };
      auto ai = [&](int r) { return r % 2 ? a[r / 2].w : a[r / 2].y; };
      auto br = [&](int c) { return c % 2 ? b[c / 2].z : b[c / 2].x; };
      auto bi = [&](int c) { return c % 2 ? b[c / 2].w : b[c / 2].y; };
      // One complex FMA at a time (two passes over the tile, ar terms then ai terms, measured
      // 1-10 % slower; columns outer 10 % slower).
#pragma unroll
      for (int r = 0; r < 4; ++r) {
#pragma unroll
        for (int c = 0; c < 8; ++c) {
          acc[r][c][0] = fmaf(ar(r), br(c), acc[r][c][0]);
          acc[r][c][0] = fmaf(kSignAiBi * ai(r), bi(c), acc[r][c][0]);
          acc[r][c][1] = fmaf(ar(r), kSignBi * bi(c), acc[r][c][1]);
          acc[r][c][1] = fmaf(kSignAi * ai(r), br(c), acc[r][c][1]);
        }
      }
    }
    stage = stage + 1 == kStages ? 0 : stage + 1;
  }

  // Epilogue: C = alpha acc + beta C; rows 2 m_lane and 2 m_lane + 1 of a column side by side (one
  // 16-byte access where C allows it).
  const bool beta_zero = args.beta_re == 0.0f && args.beta_im == 0.0f;
  const bool c_pairs = reinterpret_cast<uintptr_t>(c_ptr) % 16 == 0 && args.ldc % 2 == 0;
  const float ar = args.alpha_re, ai = args.alpha_im, br = args.beta_re, bi = args.beta_im;
#pragma unroll
  for (int x = 0; x < 2; ++x) {
    const int row = m0 + wm0 + 8 * x + 2 * m_lane;
    if (row >= args.m) continue;
#pragma unroll
    for (int c = 0; c < 8; ++c) {
      const int col = n0 + wn0 + 16 * (c / 2) + 2 * n_lane + c % 2;
      if (col >= args.n) continue;
      float2* at = c_ptr + (row + int64_t(col) * args.ldc);
      using gemm_device::in_triangle;
      const bool keep[2] = {in_triangle(args.triangle, row, col),
                            in_triangle(args.triangle, row + 1, col)};
      float2 v[2];
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const float xr = acc[2 * x + e][c][0], xi = acc[2 * x + e][c][1];
        v[e] = make_float2(fmaf(ar, xr, -ai * xi), fmaf(ar, xi, ai * xr));
      }
      const bool both = row + 1 < args.m;
      if (c_pairs && both && keep[0] && keep[1]) {
        if (!beta_zero) {
          const float4 old = *reinterpret_cast<const float4*>(at);
          v[0].x += fmaf(br, old.x, -bi * old.y);
          v[0].y += fmaf(br, old.y, bi * old.x);
          v[1].x += fmaf(br, old.z, -bi * old.w);
          v[1].y += fmaf(br, old.w, bi * old.z);
        }
        *reinterpret_cast<float4*>(at) = make_float4(v[0].x, v[0].y, v[1].x, v[1].y);
      } else {  // float by float: C may be only 4-byte aligned
        float* f = reinterpret_cast<float*>(at);
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          if (e == 1 && !both) break;
          if (!keep[e]) continue;
          if (!beta_zero) {
            const float cr = f[2 * e], ci = f[2 * e + 1];
            v[e].x += fmaf(br, cr, -bi * ci);
            v[e].y += fmaf(br, ci, bi * cr);
          }
          f[2 * e] = v[e].x;
          f[2 * e + 1] = v[e].y;
        }
      }
    }
  }
}

// ---- Host side ----------------------------------------------------------------------------------

template <Layout kALayout, Layout kBLayout, bool kConjA, bool kConjB, int kCopyBytes,
          bool kSlices = false>
cudaError_t launch_kernel(const Args& args, cudaStream_t stream, int64_t slices = 1) {
  auto kernel = cgemm_simt_kernel<kALayout, kBLayout, kConjA, kConjB, kCopyBytes, kSlices>;
  cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (err == cudaSuccess)
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
  if (err != cudaSuccess) return err;
  const int64_t tiles =
      ((args.m + kBlockM - 1) / kBlockM) * int64_t((args.n + kBlockN - 1) / kBlockN);
  const int64_t strip_blocks =
      args.strip_blocks_bottom + (args.strip_cols ? (args.m + kStripChunk - 1) / kStripChunk : 0);
  kernel<<<dim3(unsigned(tiles + strip_blocks), unsigned(slices)), kThreads, kSmemBytes, stream>>>(
      args);
  return cudaGetLastError();
}

// Dispatches B's transpose for a fixed A.
template <Layout kALayout, bool kConjA, int kCopyBytes>
cudaError_t launch_b(const Problem& p, const Args& args, cudaStream_t stream) {
  constexpr Layout kK = Layout::kKContiguous, kMN = Layout::kMNContiguous;
  switch (p.trans_b) {
    case Op::kNoTrans:
      return launch_kernel<kALayout, kK, kConjA, false, kCopyBytes>(args, stream);
    case Op::kTrans:
      return launch_kernel<kALayout, kMN, kConjA, false, kCopyBytes>(args, stream);
    case Op::kConjTrans:
      return launch_kernel<kALayout, kMN, kConjA, true, kCopyBytes>(args, stream);
  }
  return cudaErrorInvalidValue;
}

Args args_of(const Problem& p) {
  return Args{int(p.m),
              int(p.n),
              int(p.k),
              float(p.alpha.re),
              float(p.alpha.im),
              float(p.beta.re),
              float(p.beta.im),
              static_cast<const float2*>(p.a),
              p.lda,
              static_cast<const float2*>(p.b),
              p.ldb,
              static_cast<float2*>(p.c),
              p.ldc,
              p.c_triangle};
}

template <int kCopyBytes>
cudaError_t launch_copies(const Problem& p, cudaStream_t stream) {
  const Args args = args_of(p);
  constexpr Layout kK = Layout::kKContiguous, kMN = Layout::kMNContiguous;
  switch (p.trans_a) {
    case Op::kNoTrans:
      return launch_b<kMN, false, kCopyBytes>(p, args, stream);
    case Op::kTrans:
      return launch_b<kK, false, kCopyBytes>(p, args, stream);
    case Op::kConjTrans:
      return launch_b<kK, true, kCopyBytes>(p, args, stream);
  }
  return cudaErrorInvalidValue;
}

// Packing (the packed row): dst[r + l * ld_dst] = op(X)(r, l) for r < rows, l < k, where X is
// stored r-contiguous (x[r + l * ld]) or l-contiguous (x[l + r * ld]) and op() conjugates when
// asked. 32 x 32 tiles through shared memory, so reads and writes coalesce in both cases. X is
// read float by float (it may be only 4-byte aligned); dst is 8-byte aligned.
constexpr int kPackTile = 32, kPackRowsPerPass = 8;
__global__ void __launch_bounds__(kPackTile* kPackRowsPerPass)
    cgemm_pack_kernel(const float* __restrict__ x, int64_t ld, bool r_contiguous, bool conj,
                      int rows, int k, float2* __restrict__ dst, int64_t ld_dst) {
  __shared__ float2 tile[kPackTile][kPackTile + 1];  // tile[l][r]; +1: conflict-free columns
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int r0 = int(blockIdx.x) * kPackTile;
  const float sign = conj ? -1.0f : 1.0f;
  for (int64_t l0 = int64_t(blockIdx.y) * kPackTile; l0 < k; l0 += int64_t(gridDim.y) * kPackTile) {
    for (int i = ty; i < kPackTile; i += kPackRowsPerPass) {
      const int64_t r = r0 + (r_contiguous ? tx : i), l = l0 + (r_contiguous ? i : tx);
      if (r < rows && l < k) {
        const float* e = x + 2 * (r_contiguous ? r + l * ld : l + r * ld);
        (r_contiguous ? tile[i][tx] : tile[tx][i]) = make_float2(e[0], sign * e[1]);
      }
    }
    __syncthreads();
    for (int i = ty; i < kPackTile; i += kPackRowsPerPass) {
      const int64_t r = r0 + tx, l = l0 + i;
      if (r < rows && l < k) dst[r + l * ld_dst] = tile[i][tx];
    }
    __syncthreads();
  }
}

cudaError_t pack(const float2* x, int64_t ld, bool r_contiguous, bool conj, int64_t rows, int64_t k,
                 float2* dst, int64_t ld_dst, cudaStream_t stream) {
  const dim3 grid(unsigned((rows + kPackTile - 1) / kPackTile),
                  unsigned(std::min<int64_t>((k + kPackTile - 1) / kPackTile, 65535)));
  cgemm_pack_kernel<<<grid, dim3(kPackTile, kPackRowsPerPass), 0, stream>>>(
      reinterpret_cast<const float*>(x), ld, r_contiguous, conj, int(rows), int(k), dst, ld_dst);
  return cudaGetLastError();
}

// Whether the vector kernel's 16-byte m/n-contiguous copies read x in place.
bool readable(const void* x, int64_t ld) { return aligned_to(x, 16) && ld % 2 == 0; }

// The product of m/n-contiguous operands (the packed row's), with thin remainders of m and n
// peeled into strip blocks (strip_block).
cudaError_t launch_peeled(const Problem& p, Args args, bool conj_b, cudaStream_t stream) {
  args.strip_rows = thin_remainder(p.m, kBlockM, kMaxPeel);
  args.strip_cols = thin_remainder(p.n, kBlockN, kMaxPeel);
  args.m -= args.strip_rows, args.n -= args.strip_cols;
  args.strip_blocks_bottom = args.strip_rows ? int((p.n + kStripChunk - 1) / kStripChunk) : 0;
  constexpr Layout kMN = Layout::kMNContiguous;
  return conj_b ? launch_kernel<kMN, kMN, false, true, 16>(args, stream)
                : launch_kernel<kMN, kMN, false, false, 16>(args, stream);
}

// The same product split along k (kernels/splitk.h): each slice's tiles write their unscaled
// partial product to a workspace, then splitk::reduce applies alpha and beta.
cudaError_t launch_split(const Problem& p, const Args& args, bool conj_b, cudaStream_t stream) {
  static_assert(kSplitK.is_tile(kBlockM, kBlockN, kBlockK, 2),
                "the slice rule reads this kernel's geometry");
  splitk::Slices slices;
  if (cudaError_t err = splitk::slices_of(kSplitK, p, &slices); err != cudaSuccess) return err;
  const int64_t m_pad = (p.m + 1) / 2 * 2;  // 16-byte aligned partial columns
  auto launch_slices = [&](void* partial) {
    constexpr Layout kMN = Layout::kMNContiguous;
    Args a = args;
    a.alpha_re = 1.0f, a.alpha_im = 0.0f, a.beta_re = 0.0f, a.beta_im = 0.0f;
    a.triangle = Triangle::kAll;
    a.c = static_cast<float2*>(partial), a.ldc = m_pad;
    a.k_per_slice = int(slices.k_steps * kBlockK);
    a.c_slice_stride = m_pad * p.n;
    return conj_b ? launch_kernel<kMN, kMN, false, true, 16, true>(a, stream, slices.count)
                  : launch_kernel<kMN, kMN, false, false, 16, true>(a, stream, slices.count);
  };
  return splitk::run(p, splitk::partial_type(p.c_type), slices, m_pad, launch_slices, stream);
}

// The packed and split-K rows: each operand the 16-byte m/n-contiguous copies cannot read in
// place (A transposed, B not, or either unaligned) is packed first, op() applied, into a workspace
// with m/n-contiguous columns of even leading dimension; then the vector kernel runs on
// m/n-contiguous operands only (conjugating B where B^H is read in place), peeled or split.
cudaError_t launch_packed(const Problem& p, bool split, cudaStream_t stream) {
  if (p.alpha == 0.0 || p.k == 0) return launch_copies<4>(p, stream);  // A, B not read
  const bool pack_a = !(p.trans_a == Op::kNoTrans && readable(p.a, p.lda));
  const bool pack_b = p.trans_b == Op::kNoTrans || !readable(p.b, p.ldb);
  const int64_t ld_a = (p.m + 1) / 2 * 2, ld_b = (p.n + 1) / 2 * 2;
  const int64_t elems_a = pack_a ? ld_a * p.k : 0, elems_b = pack_b ? ld_b * p.k : 0;
  const size_t bytes = size_t(elems_a + elems_b) * sizeof(float2);
  float2* workspace = nullptr;
  cudaError_t err = cudaSuccess;
  if (bytes > 0) {
    err = gemm_device::allocate_workspace(bytes, &workspace, stream);
    if (err != cudaSuccess) return err;
  }
  Args args = args_of(p);
  if (pack_a) {
    err = pack(args.a, p.lda, p.trans_a == Op::kNoTrans, p.trans_a == Op::kConjTrans, p.m, p.k,
               workspace, ld_a, stream);
    args.a = workspace, args.lda = ld_a;
  }
  if (pack_b && err == cudaSuccess) {
    // op(B)(l, c) is B(c, l) when transposed (c-contiguous), else B(l, c) (l-contiguous).
    err = pack(args.b, p.ldb, p.trans_b != Op::kNoTrans, p.trans_b == Op::kConjTrans, p.n, p.k,
               workspace + elems_a, ld_b, stream);
    args.b = workspace + elems_a, args.ldb = ld_b;
  }
  const bool conj_b = !pack_b && p.trans_b == Op::kConjTrans;
  if (err == cudaSuccess) {
    err = split ? launch_split(p, args, conj_b, stream) : launch_peeled(p, args, conj_b, stream);
  }
  if (workspace == nullptr) return err;
  const cudaError_t free_err = cudaFreeAsync(workspace, stream);
  return err != cudaSuccess ? err : free_err;
}

// The vector rows copy 16 bytes; the scalar-load row copies whole complex elements where A and B
// are 8-byte aligned, else re and im apart.
template <bool kVector>
cudaError_t launch_problem(const Problem& p, cudaStream_t stream) {
  if constexpr (kVector) {
    return launch_copies<16>(p, stream);
  } else {
    if (aligned_to(p.a, 8) && aligned_to(p.b, 8)) return launch_copies<8>(p, stream);
    return launch_copies<4>(p, stream);
  }
}

template <bool kVector>
bool supports_problem(const Problem& p, const DeviceCaps& caps) {
  if (p.type != DataType::kC32 || p.c_type != DataType::kC32) return false;
  constexpr int64_t kMaxExtent = INT32_MAX - 1024;
  if (p.m < 1 || p.n < 1 || p.k < 0 || p.m > kMaxExtent || p.n > kMaxExtent || p.k > kMaxExtent)
    return false;
  if ((p.m + kBlockM - 1) / kBlockM * ((p.n + kBlockN - 1) / kBlockN) > INT32_MAX) return false;
  if (p.lda < std::max<int64_t>(1, p.a_rows()) || p.ldb < std::max<int64_t>(1, p.b_rows()) ||
      p.ldc < std::max<int64_t>(1, p.m))
    return false;
  if (caps.sm_version < 80 || caps.smem_per_block_optin < size_t(kSmemBytes)) return false;
  if (!gemm_device::triangle_fits(p)) return false;
  if (!aligned_to(p.a, 4) || !aligned_to(p.b, 4) || !aligned_to(p.c, 4)) return false;
  if constexpr (kVector) {
    if (!readable(p.a, p.lda) || !readable(p.b, p.ldb)) return false;
  }
  return true;
}

}  // namespace

bool supports_64x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<true>(p, caps);
}
cudaError_t launch_64x128x16(const Problem& p, cudaStream_t stream) {
  return launch_problem<true>(p, stream);
}
bool supports_scalarload_64x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<false>(p, caps);
}
cudaError_t launch_scalarload_64x128x16(const Problem& p, cudaStream_t stream) {
  return launch_problem<false>(p, stream);
}
bool supports_packed_64x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<false>(p, caps);
}
cudaError_t launch_packed_64x128x16(const Problem& p, cudaStream_t stream) {
  return launch_packed(p, false, stream);
}
bool supports_splitk_64x128x16(const Problem& p, const DeviceCaps& caps) {
  return p.c_triangle == Triangle::kAll && supports_problem<false>(p, caps);
}
cudaError_t launch_splitk_64x128x16(const Problem& p, cudaStream_t stream) {
  return launch_packed(p, true, stream);
}

}  // namespace tileblas::cgemm_simt
