// gemm_mma: mma.sync tensor-core GEMM. The contract (formula, storage, tiling, edges, alignment)
// is at the top of gemm_mma.h.
#include "gemm_mma.h"

#include <cuda_runtime.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace tileblas::gemm_mma {

namespace {

// ---- Element types ------------------------------------------------------------------------------
// Each says how many bytes an element takes, the k-extent of one MMA and of one block k-tile, how
// m/n-contiguous tiles are swizzled, and issues its MMA.

struct TypeF16 {
  using Storage = uint16_t;
  static constexpr int kBlockK = 32;
  static constexpr int kMmaK = 16;
  static constexpr bool kTransposingLdmatrix = true;  // ldmatrix.trans moves 16-bit elements
  static constexpr DataType kDataType = DataType::kF16;
  __device__ static uint32_t to_operand(uint32_t bits) { return bits; }
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
};

struct TypeBF16 {
  using Storage = uint16_t;
  static constexpr int kBlockK = 32;
  static constexpr int kMmaK = 16;
  static constexpr bool kTransposingLdmatrix = true;
  static constexpr DataType kDataType = DataType::kBF16;
  __device__ static uint32_t to_operand(uint32_t bits) { return bits; }
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
};

struct TypeTF32 {
  using Storage = uint32_t;
  static constexpr int kBlockK = 16;
  static constexpr int kMmaK = 8;
  // ldmatrix.trans would transpose 16-bit halves of an fp32: m/n-contiguous fp32 tiles are read
  // into fragments with 32-bit shared loads instead.
  static constexpr bool kTransposingLdmatrix = false;
  static constexpr DataType kDataType = DataType::kF32;
  // Round to nearest (ties away) to TF32: truncation would double the input rounding error.
  __device__ static uint32_t to_operand(uint32_t bits) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(__uint_as_float(bits)));
    return r;
  }
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
};

// How an operand tile lies in global (and shared) memory: k-contiguous (A transposed, B not) or
// m/n-contiguous (A not transposed, B transposed).
enum class Layout { kKContiguous, kMNContiguous };

constexpr int kChunkBytes = 16;  // one cp.async / one ldmatrix row

// ---- PTX wrappers -------------------------------------------------------------------------------

__device__ uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared; bytes past `src_bytes` (0..16) are zero-filled and not read.
__device__ void cp_async_16(uint32_t dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(src_bytes)
               : "memory");
}
__device__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int kPending>
__device__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(kPending) : "memory");
}

__device__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ uint32_t lds32(uint32_t addr) {
  uint32_t r;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r) : "r"(addr));
  return r;
}
__device__ void sts128(uint32_t addr, const uint4& v) {
  asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}

// ---- Shared-memory tile layouts -----------------------------------------------------------------

// A k-contiguous tile: kRows rows (m or n) of 64 bytes (4 chunks). ldmatrix reads one chunk
// column of 8 consecutive rows; XOR-ing the chunk with (row / 2) % 4 spreads those 8 x 16 bytes
// over all 32 banks.
__device__ uint32_t k_contiguous_offset(int row, int chunk) {
  return uint32_t(row * 64 + ((chunk ^ ((row >> 1) & 3)) << 4));
}

// An m/n-contiguous tile: kBlockK rows (k) of kRowBytes. ldmatrix.trans reads one chunk of 8
// consecutive k rows: XOR with k % 8 puts them on distinct banks. The TF32 fragment loads read 2
// neighbouring chunks of 4 k rows (k0..k0+3 or k0+4..k0+7): XOR with 2 * (k % 4) + (k / 4) % 2
// spreads those 8 chunks over distinct banks.
template <class T>
__device__ uint32_t mn_swizzle(int krow) {
  if constexpr (T::kTransposingLdmatrix) {
    return uint32_t(krow & 7);
  } else {
    return uint32_t(((krow & 3) << 1) | ((krow >> 2) & 1));
  }
}
template <class T, int kRowBytes>
__device__ uint32_t mn_contiguous_offset(int krow, int chunk) {
  return uint32_t(krow * kRowBytes) + ((uint32_t(chunk) ^ mn_swizzle<T>(krow)) << 4);
}

// ---- The kernel ---------------------------------------------------------------------------------

template <class T, int kBlockM_, int kBlockN_, int kWarpM_, int kWarpN_, int kStages_,
          int kBlocksPerSm_>
struct Config {
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kWarpM = kWarpM_;
  static constexpr int kWarpN = kWarpN_;
  static constexpr int kStages = kStages_;
  static constexpr int kBlocksPerSm = kBlocksPerSm_;  // launch bounds: registers for this many
  static constexpr int kBytes = int(sizeof(typename T::Storage));
  static constexpr int kBlockK = T::kBlockK;
  static constexpr int kChunkElems = kChunkBytes / kBytes;
  static constexpr int kWarpsM = kBlockM / kWarpM;
  static constexpr int kWarpsN = kBlockN / kWarpN;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kMmaTilesM = kWarpM / 16;
  static constexpr int kMmaTilesN = kWarpN / 8;
  static constexpr int kATileBytes = kBlockM * kBlockK * kBytes;
  static constexpr int kBTileBytes = kBlockN * kBlockK * kBytes;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kSmemBytes = kStages * kStageBytes;
  static constexpr int kRasterGroup = 8;  // tile rows per rasterization group (L2 reuse of B)

  static_assert(
      kBlockK * kBytes == 64,
      "k-contiguous tiles are 64-byte rows: the swizzle and fragment addressing assume 4 chunks");
  static_assert(kBlockK % T::kMmaK == 0, "a k-tile is a whole number of MMA k-steps");
  static_assert(kBlockM % kWarpM == 0 && kBlockN % kWarpN == 0, "warps tile the block exactly");
  static_assert(kWarpM % 16 == 0, "a warp tile is whole m16 MMA tiles");
  static_assert(kWarpN % 16 == 0, "ldmatrix.x4 loads B for two n8 MMA tiles at a time");
  static_assert(kBlockM * kBytes >= 128 && kBlockN * kBytes >= 128,
                "m/n-contiguous rows must span the 8 chunks the swizzle permutes");
  static_assert((kATileBytes / kChunkBytes) % kThreads == 0 &&
                    (kBTileBytes / kChunkBytes) % kThreads == 0,
                "every thread copies the same number of chunks");
  static_assert(kStages >= 2, "the pipeline needs a stage to fill while one is computed");
};

// Copies one operand tile (kRows m or n rows by kBlockK k) of k-tile `k0` into shared memory at
// `tile`. `base` points at the operand's element (mn0, 0) as op() sees it; `ld` is its stride.
template <class T, class Cfg, Layout kLayout, int kRows, bool kVectorLoads>
__device__ void load_tile(uint32_t tile, const typename T::Storage* base, int64_t ld, int mn0,
                          int mn_extent, int k0, int k_extent) {
  constexpr int kChunks = kRows * Cfg::kBlockK / Cfg::kChunkElems;
  constexpr int kChunksPerRow =
      kLayout == Layout::kKContiguous ? Cfg::kBlockK / Cfg::kChunkElems : kRows / Cfg::kChunkElems;
#pragma unroll
  for (int it = 0; it < kChunks / Cfg::kThreads; ++it) {
    const int c = int(threadIdx.x) + it * Cfg::kThreads;
    const int row = c / kChunksPerRow;
    const int chunk = c % kChunksPerRow;
    int64_t offset;
    int valid;  // elements of this chunk inside the matrix
    uint32_t dst;
    if constexpr (kLayout == Layout::kKContiguous) {
      const int k = k0 + chunk * Cfg::kChunkElems;
      offset = int64_t(mn0 + row) * ld + k;
      valid = mn0 + row < mn_extent ? min(max(k_extent - k, 0), Cfg::kChunkElems) : 0;
      dst = tile + k_contiguous_offset(row, chunk);
    } else {
      const int mn = mn0 + chunk * Cfg::kChunkElems;
      offset = int64_t(k0 + row) * ld + mn;
      valid = k0 + row < k_extent ? min(max(mn_extent - mn, 0), Cfg::kChunkElems) : 0;
      dst = tile + mn_contiguous_offset<T, kRows * Cfg::kBytes>(row, chunk);
    }
    const typename T::Storage* src = valid > 0 ? base + offset : base;
    if constexpr (kVectorLoads) {
      cp_async_16(dst, src, valid * Cfg::kBytes);
    } else {
      typename T::Storage elems[Cfg::kChunkElems];
#pragma unroll
      for (int e = 0; e < Cfg::kChunkElems; ++e) elems[e] = e < valid ? src[e] : 0;
      uint4 v;
      static_assert(sizeof(elems) == sizeof(v), "a chunk is 16 bytes");
      memcpy(&v, elems, sizeof v);
      sts128(dst, v);
    }
  }
}

// A fragments of MMA k-step `kk` for the warp's m16 tiles, from the A tile at `tile`.
template <class T, class Cfg, Layout kLayout>
__device__ void load_a_fragments(uint32_t (&a)[Cfg::kMmaTilesM][4], uint32_t tile, int warp_m0,
                                 int kk, int lane) {
  constexpr int kChunksPerStep = T::kMmaK / Cfg::kChunkElems;
  static_assert(kChunksPerStep == 2, "an MMA k-step spans two chunks (two 8x8 ldmatrix tiles)");
  constexpr int kRowBytes = Cfg::kBlockM * Cfg::kBytes;
#pragma unroll
  for (int i = 0; i < Cfg::kMmaTilesM; ++i) {
    const int m = warp_m0 + i * 16;
    if constexpr (kLayout == Layout::kKContiguous) {
      // Lanes 0-15 address rows m..m+15 at the step's first chunk, lanes 16-31 its second:
      // matrices (rows 0-7, k 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15) = a0..a3.
      ldmatrix_x4(a[i],
                  tile + k_contiguous_offset(m + (lane & 15), kk * kChunksPerStep + (lane >> 4)));
    } else if constexpr (T::kTransposingLdmatrix) {
      const int quad = lane >> 3;
      const int krow = kk * T::kMmaK + (quad >> 1) * 8 + (lane & 7);
      const int chunk = (m + (quad & 1) * 8) / Cfg::kChunkElems;
      ldmatrix_x4_trans(a[i], tile + mn_contiguous_offset<T, kRowBytes>(krow, chunk));
    } else {
      const int g = lane >> 2, q = lane & 3;
      auto at = [&](int krow, int mm) {
        return tile + mn_contiguous_offset<T, kRowBytes>(krow, mm / Cfg::kChunkElems) +
               uint32_t((mm % Cfg::kChunkElems) * Cfg::kBytes);
      };
      const int k = kk * T::kMmaK + q;
      a[i][0] = lds32(at(k, m + g));
      a[i][1] = lds32(at(k, m + g + 8));
      a[i][2] = lds32(at(k + 4, m + g));
      a[i][3] = lds32(at(k + 4, m + g + 8));
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) a[i][r] = T::to_operand(a[i][r]);
  }
}

// B fragments of MMA k-step `kk` for the warp's n8 tiles, from the B tile at `tile`.
template <class T, class Cfg, Layout kLayout>
__device__ void load_b_fragments(uint32_t (&b)[Cfg::kMmaTilesN][2], uint32_t tile, int warp_n0,
                                 int kk, int lane) {
  constexpr int kChunksPerStep = T::kMmaK / Cfg::kChunkElems;
  constexpr int kRowBytes = Cfg::kBlockN * Cfg::kBytes;
  const int quad = lane >> 3;
#pragma unroll
  for (int j = 0; j < Cfg::kMmaTilesN; j += 2) {
    const int n = warp_n0 + j * 8;
    uint32_t r[4];
    if constexpr (kLayout == Layout::kKContiguous) {
      // Matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15):
      // b0, b1 of n-tile j, then of n-tile j + 1.
      ldmatrix_x4(r, tile + k_contiguous_offset(n + (quad >> 1) * 8 + (lane & 7),
                                                kk * kChunksPerStep + (quad & 1)));
    } else if constexpr (T::kTransposingLdmatrix) {
      const int krow = kk * T::kMmaK + (quad & 1) * 8 + (lane & 7);
      const int chunk = (n + (quad >> 1) * 8) / Cfg::kChunkElems;
      ldmatrix_x4_trans(r, tile + mn_contiguous_offset<T, kRowBytes>(krow, chunk));
    } else {
      const int g = lane >> 2, q = lane & 3;
      auto at = [&](int krow, int nn) {
        return tile + mn_contiguous_offset<T, kRowBytes>(krow, nn / Cfg::kChunkElems) +
               uint32_t((nn % Cfg::kChunkElems) * Cfg::kBytes);
      };
      const int k = kk * T::kMmaK + q;
      r[0] = lds32(at(k, n + g));
      r[1] = lds32(at(k + 4, n + g));
      r[2] = lds32(at(k, n + 8 + g));
      r[3] = lds32(at(k + 4, n + 8 + g));
    }
    b[j][0] = T::to_operand(r[0]);
    b[j][1] = T::to_operand(r[1]);
    b[j + 1][0] = T::to_operand(r[2]);
    b[j + 1][1] = T::to_operand(r[3]);
  }
}

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

__device__ float load_c(const void* c, int64_t at, DataType type) {
  if (type == DataType::kF32) return static_cast<const float*>(c)[at];
  if (type == DataType::kF16) return __half2float(static_cast<const __half*>(c)[at]);
  return __bfloat162float(static_cast<const __nv_bfloat16*>(c)[at]);
}
__device__ void store_c(void* c, int64_t at, DataType type, float v) {
  if (type == DataType::kF32) {
    static_cast<float*>(c)[at] = v;
  } else if (type == DataType::kF16) {
    static_cast<__half*>(c)[at] = __float2half_rn(v);
  } else {
    static_cast<__nv_bfloat16*>(c)[at] = __float2bfloat16_rn(v);
  }
}

template <class T, class Cfg, Layout kALayout, Layout kBLayout, bool kVectorLoads>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kBlocksPerSm) gemm_mma_kernel(Args args) {
  extern __shared__ __align__(128) unsigned char smem[];
  using S = typename T::Storage;
  constexpr int kBlockM = Cfg::kBlockM, kBlockN = Cfg::kBlockN, kBlockK = Cfg::kBlockK;
  constexpr int kStages = Cfg::kStages;

  // Grouped rasterization: consecutive blocks walk kRasterGroup tile rows before moving to the
  // next tile column, so the A and B tiles they share stay in L2.
  const int tiles_m = (args.m + kBlockM - 1) / kBlockM;
  const int tiles_n = (args.n + kBlockN - 1) / kBlockN;
  const int per_group = Cfg::kRasterGroup * tiles_n;
  const int first_tile_m = int(blockIdx.x) / per_group * Cfg::kRasterGroup;
  const int group_rows = min(tiles_m - first_tile_m, Cfg::kRasterGroup);
  const int in_group = int(blockIdx.x) % per_group;
  const int m0 = (first_tile_m + in_group % group_rows) * kBlockM;
  const int n0 = (in_group / group_rows) * kBlockN;

  const int lane = int(threadIdx.x) % 32;
  const int warp = int(threadIdx.x) / 32;
  const int warp_m0 = (warp % Cfg::kWarpsM) * Cfg::kWarpM;
  const int warp_n0 = (warp / Cfg::kWarpsM) * Cfg::kWarpN;

  const S* a = static_cast<const S*>(args.a);
  const S* b = static_cast<const S*>(args.b);
  const uint32_t smem0 = smem_address(smem);
  // alpha == 0 (or k == 0): no k-tiles, A and B are never read.
  const int k_tiles = args.alpha == 0.0f ? 0 : (args.k + kBlockK - 1) / kBlockK;

  auto load_stage = [&](int stage, int kt) {
    const uint32_t sa = smem0 + uint32_t(stage * Cfg::kStageBytes);
    load_tile<T, Cfg, kALayout, kBlockM, kVectorLoads>(sa, a, args.lda, m0, args.m, kt * kBlockK,
                                                       args.k);
    load_tile<T, Cfg, kBLayout, kBlockN, kVectorLoads>(sa + Cfg::kATileBytes, b, args.ldb, n0,
                                                       args.n, kt * kBlockK, args.k);
  };

  float acc[Cfg::kMmaTilesM][Cfg::kMmaTilesN][4] = {};

#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<kStages - 2>();  // k-tile kt has landed (this thread's copies) ...
    __syncthreads();               // ... everyone's, and everyone is done with k-tile kt - 1
    const int next = kt + kStages - 1;
    if (next < k_tiles) load_stage(next % kStages, next);  // refills k-tile kt - 1's stage
    cp_async_commit();

    const uint32_t sa = smem0 + uint32_t((kt % kStages) * Cfg::kStageBytes);
    const uint32_t sb = sa + Cfg::kATileBytes;
#pragma unroll
    for (int kk = 0; kk < kBlockK / T::kMmaK; ++kk) {
      uint32_t af[Cfg::kMmaTilesM][4];
      uint32_t bf[Cfg::kMmaTilesN][2];
      load_a_fragments<T, Cfg, kALayout>(af, sa, warp_m0, kk, lane);
      load_b_fragments<T, Cfg, kBLayout>(bf, sb, warp_n0, kk, lane);
#pragma unroll
      for (int i = 0; i < Cfg::kMmaTilesM; ++i) {
#pragma unroll
        for (int j = 0; j < Cfg::kMmaTilesN; ++j) T::mma(acc[i][j], af[i], bf[j]);
      }
    }
  }
  cp_async_wait<0>();

  // Epilogue: accumulator r of MMA tile (i, j) holds C(row, col) below (mma.sync's C layout).
  const int g = lane >> 2, q = lane & 3;
#pragma unroll
  for (int i = 0; i < Cfg::kMmaTilesM; ++i) {
#pragma unroll
    for (int j = 0; j < Cfg::kMmaTilesN; ++j) {
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int row = m0 + warp_m0 + i * 16 + g + (r >> 1) * 8;
        const int col = n0 + warp_n0 + j * 8 + q * 2 + (r & 1);
        if (row < args.m && col < args.n) {
          const int64_t at = row + int64_t(col) * args.ldc;
          float v = args.alpha * acc[i][j][r];
          if (args.beta != 0.0f) v = fmaf(args.beta, load_c(args.c, at, args.c_type), v);
          store_c(args.c, at, args.c_type, v);
        }
      }
    }
  }
}

// ---- Host side ----------------------------------------------------------------------------------

template <class T, class Cfg, Layout kALayout, Layout kBLayout, bool kVectorLoads>
cudaError_t launch_layouts(const Args& args, cudaStream_t stream) {
  auto kernel = gemm_mma_kernel<T, Cfg, kALayout, kBLayout, kVectorLoads>;
  cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes);
  if (err != cudaSuccess) return err;
  const int64_t tiles = ((args.m + Cfg::kBlockM - 1) / Cfg::kBlockM) *
                        int64_t((args.n + Cfg::kBlockN - 1) / Cfg::kBlockN);
  kernel<<<unsigned(tiles), Cfg::kThreads, Cfg::kSmemBytes, stream>>>(args);
  return cudaGetLastError();
}

template <class T, class Cfg, bool kVectorLoads>
cudaError_t launch_problem(const GemmProblem& p, cudaStream_t stream) {
  const Args args{int(p.m), int(p.n), int(p.k), p.alpha, p.beta, p.a,
                  p.lda,    p.b,      p.ldb,    p.c,     p.ldc,  p.c_type};
  constexpr Layout kK = Layout::kKContiguous, kMN = Layout::kMNContiguous;
  // A as stored is m-contiguous unless transposed; B is k-contiguous unless transposed.
  const bool a_k = p.trans_a == Op::kTrans;
  const bool b_k = p.trans_b == Op::kNoTrans;
  if (a_k && b_k) return launch_layouts<T, Cfg, kK, kK, kVectorLoads>(args, stream);
  if (a_k) return launch_layouts<T, Cfg, kK, kMN, kVectorLoads>(args, stream);
  if (b_k) return launch_layouts<T, Cfg, kMN, kK, kVectorLoads>(args, stream);
  return launch_layouts<T, Cfg, kMN, kMN, kVectorLoads>(args, stream);
}

bool aligned_to(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

template <class T, class Cfg, bool kVectorLoads>
bool supports_problem(const GemmProblem& p, const DeviceCaps& caps) {
  if (p.ab_type != T::kDataType) return false;
  if constexpr (T::kDataType == DataType::kF32) {
    if (!p.allow_tf32 || p.c_type != DataType::kF32) return false;
  } else {
    if (p.c_type != DataType::kF32 && p.c_type != p.ab_type) return false;
  }
  if (caps.sm_version < 80 || caps.smem_per_block_optin < size_t(Cfg::kSmemBytes)) return false;
  // Indices inside the kernel are int (offsets int64): keep m, n, k and the tile count in range.
  constexpr int64_t kMaxExtent = INT32_MAX - 1024;
  if (p.m < 1 || p.n < 1 || p.k < 0 || p.m > kMaxExtent || p.n > kMaxExtent || p.k > kMaxExtent)
    return false;
  if ((p.m + Cfg::kBlockM - 1) / Cfg::kBlockM * ((p.n + Cfg::kBlockN - 1) / Cfg::kBlockN) >
      INT32_MAX)
    return false;
  if (p.lda < std::max<int64_t>(1, p.a_rows()) || p.ldb < std::max<int64_t>(1, p.b_rows()) ||
      p.ldc < std::max<int64_t>(1, p.m))
    return false;
  const size_t elem = sizeof(typename T::Storage);
  if (!aligned_to(p.a, elem) || !aligned_to(p.b, elem) || !aligned_to(p.c, size_of(p.c_type)))
    return false;
  if constexpr (kVectorLoads) {
    if (!aligned_to(p.a, kChunkBytes) || !aligned_to(p.b, kChunkBytes)) return false;
    if (p.lda % Cfg::kChunkElems != 0 || p.ldb % Cfg::kChunkElems != 0) return false;
  }
  return true;
}

// 128 x 128: 4 warps (2 x 2), two blocks per SM (64 KiB shared memory each, up to 255 registers
// a thread). Measured on an H200 against 128 x 256 with one block per SM: faster at 2048^3 to
// 8192^3 (docs/NOTES-tensorcore.md).
using ConfigF16 = Config<TypeF16, 128, 128, 64, 64, 4, 2>;
using ConfigBF16 = Config<TypeBF16, 128, 128, 64, 64, 4, 2>;
using ConfigTF32 = Config<TypeTF32, 128, 128, 64, 64, 4, 2>;

}  // namespace

bool supports_f16_128x128x32(const GemmProblem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF16, ConfigF16, true>(p, caps);
}
cudaError_t launch_f16_128x128x32(const GemmProblem& p, cudaStream_t stream) {
  return launch_problem<TypeF16, ConfigF16, true>(p, stream);
}
bool supports_bf16_128x128x32(const GemmProblem& p, const DeviceCaps& caps) {
  return supports_problem<TypeBF16, ConfigBF16, true>(p, caps);
}
cudaError_t launch_bf16_128x128x32(const GemmProblem& p, cudaStream_t stream) {
  return launch_problem<TypeBF16, ConfigBF16, true>(p, stream);
}
bool supports_tf32_128x128x16(const GemmProblem& p, const DeviceCaps& caps) {
  return supports_problem<TypeTF32, ConfigTF32, true>(p, caps);
}
cudaError_t launch_tf32_128x128x16(const GemmProblem& p, cudaStream_t stream) {
  return launch_problem<TypeTF32, ConfigTF32, true>(p, stream);
}
bool supports_f16_scalarload_128x128x32(const GemmProblem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF16, ConfigF16, false>(p, caps);
}
cudaError_t launch_f16_scalarload_128x128x32(const GemmProblem& p, cudaStream_t stream) {
  return launch_problem<TypeF16, ConfigF16, false>(p, stream);
}
bool supports_bf16_scalarload_128x128x32(const GemmProblem& p, const DeviceCaps& caps) {
  return supports_problem<TypeBF16, ConfigBF16, false>(p, caps);
}
cudaError_t launch_bf16_scalarload_128x128x32(const GemmProblem& p, cudaStream_t stream) {
  return launch_problem<TypeBF16, ConfigBF16, false>(p, stream);
}
bool supports_tf32_scalarload_128x128x16(const GemmProblem& p, const DeviceCaps& caps) {
  return supports_problem<TypeTF32, ConfigTF32, false>(p, caps);
}
cudaError_t launch_tf32_scalarload_128x128x16(const GemmProblem& p, cudaStream_t stream) {
  return launch_problem<TypeTF32, ConfigTF32, false>(p, stream);
}

}  // namespace tileblas::gemm_mma
