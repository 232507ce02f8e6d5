// sgemm_regblock: see sgemm_regblock.h for the contract, tiling and edge handling.
#include "cluster.cuh"
#include "cp_async.cuh"
#include "gemm_device_common.cuh"
#include "sgemm_regblock.h"
#include "splitk.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace tileblas::sgemm_regblock {
namespace {

// How the 32 lanes of a warp are laid out over its LanesM (m) x 32/LanesM (n) grid of lanes.
// Shared memory returns 128 bytes (one register per lane) per cycle, so a float4 read costs 4
// cycles, and 2 when every lane pair (lane, lane^1) or every pair (lane, lane^2) reads one address
// (ncu's shared-memory wavefronts on an H200 follow this count exactly: docs/NOTES-sgemm.md).
enum class LaneOrder {
  kMMajor,  // lane = m_lane + LanesM * n_lane: B reads pair up, A reads do not
  kPaired,  // lane bit 0 -> n_lane bit 0, the next log2(LanesM) bits -> m_lane, the rest -> the
            // higher n_lane bits: lanes (l, l^1) read one A vector, lanes (l, l^2) one B vector
};

// A block tile configuration. Each lane owns 4x4 sub-tiles of C, 4*LanesM rows and
// 4*(32/LanesM) columns apart, so a warp's float4 reads of one k are contiguous.
template <int BlockM, int BlockN, int BlockK, int WarpM, int WarpN, int Stages, int MinBlocksPerSm,
          int LanesM = 8, LaneOrder Order = LaneOrder::kMMajor>
struct Tile {
  static constexpr int kBlockM = BlockM, kBlockN = BlockN, kBlockK = BlockK;
  static constexpr int kWarpM = WarpM, kWarpN = WarpN, kStages = Stages;
  static constexpr int kMinBlocksPerSm = MinBlocksPerSm;
  static constexpr int kWarpsM = BlockM / WarpM, kWarpsN = BlockN / WarpN;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kLanesM = LanesM, kLanesN = 32 / LanesM;
  static constexpr LaneOrder kOrder = Order;
  static constexpr int kSubM = 4 * kLanesM, kSubN = 4 * kLanesN;  // sub-tile spacing in C
  static constexpr int kThreadM = WarpM / kLanesM, kThreadN = WarpN / kLanesN;  // register tile
  // Shared rows padded by 4 floats: rows stay 16-byte aligned for float4 reads, and the lanes
  // that write a k-contiguous operand (8 k x 4 columns) land in 32 distinct banks.
  static constexpr int kStrideA = BlockM + 4, kStrideB = BlockN + 4;
  static constexpr int kStageFloats = BlockK * (kStrideA + kStrideB);
  static constexpr size_t kSmemBytes = size_t(Stages) * kStageFloats * sizeof(float);

  // Lane `lane`'s place in the warp's kLanesM x kLanesN grid (kOrder).
  __device__ __forceinline__ static int m_lane_of(int lane) {
    return kOrder == LaneOrder::kMMajor ? lane % LanesM : (lane >> 1) % LanesM;
  }
  __device__ __forceinline__ static int n_lane_of(int lane) {
    return kOrder == LaneOrder::kMMajor ? lane / LanesM
                                        : (lane & 1) | (((lane >> 1) / LanesM) << 1);
  }

  static_assert(BlockM % WarpM == 0 && BlockN % WarpN == 0, "warps tile the block exactly");
  static_assert(LanesM == 2 || LanesM == 4 || LanesM == 8 || LanesM == 16,
                "a power-of-two lane grid with at least 2 lanes along each of m and n (kPaired "
                "takes bit 0 for n and bit 1 for m)");
  static_assert(WarpM % kSubM == 0 && WarpN % kSubN == 0,
                "the lanes' 4x4 sub-tiles cover the warp tile exactly");
  static_assert(BlockK % 8 == 0, "k-contiguous copies move 8 consecutive k per lane group");
  static_assert(BlockM * BlockK % (4 * kThreads) == 0 && BlockN * BlockK % (4 * kThreads) == 0,
                "every thread issues the same number of 16-byte copies per k-step");
  static_assert(Stages >= 2, "a ring of at least two buffers overlaps copy and compute");
};

// Configurations, chosen by sweeps on an H200 (docs/NOTES-sgemm.md). The 128x128 tile has warps of
// 32x64 (no spills at 2 blocks per SM) in two lane layouts: 8x8 per thread on paired 4x8 lanes for
// the _align16 row (0.5-2 % faster there), 4x16 per thread on m-major 8x4 lanes for the _align4
// and packed rows (8x8 lost 10 % with 4-byte copies and stores at 8192x8192x128; in the packed
// row the layouts tie, and this instance is the fastest). 64x32 warps for 128x64 (8x8 per thread,
// 3 blocks per SM), which split-K also runs: on paired lanes in its _align16 row (8 warps of 32x32,
// 4x8 per thread, were bound by shared-memory reads, 3 float4 per 32 FMAs).
using Tile128x128x16T8x8 = Tile<128, 128, 16, 32, 64, 4, 2, 4, LaneOrder::kPaired>;
using Tile128x128x16T4x16 = Tile<128, 128, 16, 32, 64, 4, 2>;
using Tile128x64x16 = Tile<128, 64, 16, 64, 32, 4, 3>;
using Tile64x64x16 = Tile<64, 64, 16, 32, 32, 4, 4>;
using Tile128x64x16Paired = Tile<128, 64, 16, 64, 32, 4, 3, 8, LaneOrder::kPaired>;
constexpr int kRasterGroup = 8;       // block-rows per rasterization group
constexpr int kMinTilesPerSlice = 8;  // split-K: fewer k-steps per slice cannot hide the prologue

struct Args {
  bool trans_a, trans_b;
  int64_t m, n, k;
  float alpha, beta;
  const float* a;
  int64_t lda;  // lda, ldb: leading dimensions; the packed row's: panel strides (PackedPanelCopy)
  const float* b;
  int64_t ldb;
  float* c;
  int64_t ldc;
  int tiles_m, tiles_n;
  int k_tiles_per_slice;  // k-steps per blockIdx.y slice (all of them without split-K)
  int cluster_slices;     // split-K in clusters: the slices of a tile, one cluster; else 0
  float* partial;         // split-K: slices of m_pad x n partial tiles, else nullptr
  int64_t m_pad;          // split-K: m rounded up to 4 (leading dimension of a partial)
  // Peeled: m and n above are the interior's; the strip below it (strip_rows rows, all
  // strip_cols + n columns) and the strip right of it (strip_cols columns, the interior's rows)
  // are computed by the blocks after the interior's tiles, the first strip_blocks_bottom of them
  // on the strip below.
  int strip_rows, strip_cols, strip_blocks_bottom;
  Triangle triangle;  // Problem::c_triangle (not with split-K or packed operands)
  // Problem::a_nonzero, b_nonzero: a block multiplies only the k-steps its tile needs (not in
  // the packed row, whose kernel compiles the test out).
  Triangle a_nonzero, b_nonzero;
};

using ptx::smem_address;

// 4- and 16-byte asynchronous copies; src_bytes < size zero-fills the rest (0: nothing is read).
__device__ __forceinline__ void copy4(float* dst, const float* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_address(dst)), "l"(src),
               "r"(src_bytes));
}
__device__ __forceinline__ void copy16(float* dst, const float* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address(dst)), "l"(src),
               "r"(src_bytes));
}
// 4- and 16-byte copies whose source lies wholly inside the operand (no zero-fill operand), to a
// shared-memory address.
__device__ __forceinline__ void copy4(uint32_t dst, const float* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void copy16(uint32_t dst, const float* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void copy16(float* dst, const float* src) {
  copy16(smem_address(dst), src);
}
__device__ __forceinline__ void copy_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int Pending>
__device__ __forceinline__ void copy_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
}

// Copies k-steps of one operand into shared memory: element (r, l) of the Rows x BlockK panel
// that starts at row `row0` goes to dst[l * Stride + r]. The stored matrix x is contiguous either
// along r (x[r + l*ld]: A not transposed, B transposed) or along l (x[l + r*ld]). Each thread keeps
// one pointer that advances by a k-step per copy, and walks its elements with running pointers
// (address products hoisted across the k-loop would cost registers the accumulators need).
template <int Rows, int BlockK, int Stride, int Threads, bool Align16>
struct PanelCopy {
  // Contiguous along r: one 16-byte (or 4-byte) column run per copy, rows fixed per thread.
  static constexpr int kRowsPerCopy = Align16 ? 4 : 1;
  static constexpr int kRunThreads = Rows / kRowsPerCopy;  // threads covering one k of the panel
  static constexpr int kLStep = Threads / kRunThreads;     // k advance between a thread's copies
  static constexpr int kRCopies = BlockK / kLStep;
  // Contiguous along l: lane groups of 8 consecutive k, Threads/8 rows per pass.
  static constexpr int kRStepK = Threads / 8;
  static constexpr int kKRowPasses = Rows / kRStepK;
  static constexpr int kKLPasses = BlockK / 8;
  static_assert(Threads % kRunThreads == 0 && BlockK % kLStep == 0,
                "the block's threads cover whole k-rows of the panel, the same count each");
  static_assert(Threads % 8 == 0 && Rows % kRStepK == 0,
                "k-contiguous passes cover whole 8-k groups of the panel's rows");

  // ld, x and k_contiguous are kernel parameters (constant bank), so they are passed per call
  // rather than held in registers.
  const float* ptr;  // this thread's first element at the current k-step
  int r0, l0;        // this thread's first element within the panel
  int rows_left;     // rows of the panel inside the matrix (at most Rows)

  __device__ __forceinline__ PanelCopy(const float* x, int64_t ld, bool k_contiguous, int64_t row0,
                                       int64_t rows, int64_t first_k, int tid) {
    rows_left = int(rows - row0 < Rows ? rows - row0 : Rows);
    if (!k_contiguous) {
      r0 = (tid % kRunThreads) * kRowsPerCopy, l0 = tid / kRunThreads;
      ptr = x + (row0 + r0) + (first_k + l0) * ld;
    } else {
      r0 = tid / 8, l0 = tid % 8;
      ptr = x + (first_k + l0) + (row0 + r0) * ld;
    }
  }

  // Copies the k-step whose first k has `k_left` = k - k0 values of k remaining, then advances.
  // Elements outside the matrix are zero-filled from the (valid, unread) address x.
  __device__ __forceinline__ void copy(float* dst, const float* x, int64_t ld, bool k_contiguous,
                                       int k_left) {
    if (!k_contiguous) {
      const bool row_ok = r0 < rows_left;
      const float* src = ptr;
#pragma unroll
      for (int c = 0; c < kRCopies; ++c) {
        const int l = l0 + c * kLStep;
        const bool ok = row_ok && l < k_left;
        if (Align16) {
          const int bytes = ok ? (rows_left - r0 < 4 ? rows_left - r0 : 4) * 4 : 0;
          copy16(dst + l * Stride + r0, ok ? src : x, bytes);
        } else {
          copy4(dst + l * Stride + r0, ok ? src : x, ok ? 4 : 0);
        }
        src += kLStep * ld;
      }
    } else {
      const float* src_row = ptr;
#pragma unroll
      for (int pr = 0; pr < kKRowPasses; ++pr) {
        const int r = r0 + pr * kRStepK;
#pragma unroll
        for (int pl = 0; pl < kKLPasses; ++pl) {
          const int l = l0 + pl * 8;
          const bool ok = r < rows_left && l < k_left;
          copy4(dst + l * Stride + r, ok ? src_row + pl * 8 : x, ok ? 4 : 0);
        }
        src_row += kRStepK * ld;
      }
    }
    ptr += k_contiguous ? BlockK : BlockK * ld;
  }

  // Copies a k-step that lies wholly inside the matrix (all Rows rows of the panel and BlockK
  // values of k), then advances: the same copies as copy() without bounds predicates, zero-fill
  // operands or substitute addresses (the interior tiles' full k-steps). `stage` is the shared
  // address of the stage's tile; each copy's destination is at a constant offset from
  // stage + 4 * (l0 * Stride + r0).
  __device__ __forceinline__ void copy_inside(uint32_t stage, int64_t ld, bool k_contiguous) {
    const uint32_t dst = stage + 4 * uint32_t(l0 * Stride + r0);
    if (!k_contiguous) {
      const float* src = ptr;
#pragma unroll
      for (int c = 0; c < kRCopies; ++c) {
        const uint32_t to = dst + 4 * c * kLStep * Stride;
        if (Align16) {
          copy16(to, src);
        } else {
          copy4(to, src);
        }
        src += kLStep * ld;
      }
    } else {
      const float* src_row = ptr;
#pragma unroll
      for (int pr = 0; pr < kKRowPasses; ++pr) {
#pragma unroll
        for (int pl = 0; pl < kKLPasses; ++pl) {
          copy4(dst + 4 * (pl * 8 * Stride + pr * kRStepK), src_row + pl * 8);
        }
        src_row += kRStepK * ld;
      }
    }
    ptr += k_contiguous ? BlockK : BlockK * ld;
  }
};

// The packed row's copies (the tiles' main loop without edges): the operand x is tile-panelled,
// element (r, l) at x[(r / Rows) * panel + l * Rows + r % Rows], and zero-padded to whole panels
// and whole k-steps, so a k-step of a panel is Rows * BlockK contiguous floats that lie wholly
// inside the workspace. A thread's copies are at fixed offsets from one pointer that advances by
// a constant per k-step, with no bounds predicates. Same shared layout as PanelCopy (r-contiguous,
// 16 bytes a copy); the constructor and copy() take PanelCopy's arguments, reading `ld` as the
// panel stride and ignoring what no edge needs.
template <int Rows, int BlockK, int Stride, int Threads>
struct PackedPanelCopy {
  static constexpr int kCopies = Rows * BlockK / (4 * Threads);
  static constexpr int kLStep = 4 * Threads / Rows;  // k advance between a thread's copies
  static_assert(Rows * BlockK % (4 * Threads) == 0 && 4 * Threads % Rows == 0,
                "the block's threads cover whole k-rows of the panel with 16-byte copies");

  const float* ptr;  // this thread's first float4 at the current k-step
  int dst_offset;    // its position in a stage of the shared tile

  __device__ __forceinline__ PackedPanelCopy(const float* x, int64_t panel, bool, int64_t row0,
                                             int64_t, int64_t first_k, int tid) {
    ptr = x + (row0 / Rows) * panel + first_k * Rows + 4 * tid;
    dst_offset = (4 * tid / Rows) * Stride + 4 * tid % Rows;
  }

  __device__ __forceinline__ void copy(float* dst, const float*, int64_t, bool, int) {
#pragma unroll
    for (int c = 0; c < kCopies; ++c)
      copy16(dst + dst_offset + c * kLStep * Stride, ptr + c * 4 * Threads);
    ptr += Rows * BlockK;
  }
};

// Peeling (the packed row): where m or n is at most kMaxPeel past a multiple of the block tile,
// the last tile row or column would cost a whole tile for a few rows (4097 = 32 * 128 + 1). The
// tiles then cover the interior, and the thin strips go to blocks placed after the tiles in the
// grid, so that they run in the slots the last wave of tiles leaves idle. A strip block computes
// C(u, v) for the strip's u < kMaxPeel thin indices and kStripChunk indices v along its long side,
// over all of k, from the packed operands (tile-panelled, see PackedPanelCopy: a chunk of the long
// side is one panel, the thin strip starts the panel after the interior's, and both are
// zero-padded): per k, one float4 of the long operand per lane and the strip's few values of the
// thin one (the same for the whole warp). The block's warps split k; their partial sums are added
// in warp order through shared memory (deterministic).
constexpr int kMaxPeel = 8;
constexpr int kStripChunk = 128;

template <class T>
__device__ __forceinline__ void sgemm_strip_block(const Args& p, int strip, float* smem) {
  constexpr int kSplit = T::kThreads / 32;
  static_assert(kStripChunk == 32 * 4, "a warp covers the chunk with one float4 per lane");
  static_assert(T::kBlockM == kStripChunk && T::kBlockN == kStripChunk,
                "a chunk of the long side is one panel of the packed operand");
  static_assert(kMaxPeel % 4 == 0, "the thin operand is read a float4 at a time");
  static_assert(size_t(kSplit) * kMaxPeel * kStripChunk * sizeof(float) <= T::kSmemBytes,
                "the warps' partial sums fit in the tile's shared memory");
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bool below = strip < p.strip_blocks_bottom;
  const int chunk = below ? strip : strip - p.strip_blocks_bottom;
  const int thin_count = below ? p.strip_rows : p.strip_cols;
  const int64_t long_count = below ? p.n + p.strip_cols : p.m;
  const int64_t v0 = int64_t(chunk) * kStripChunk + lane * 4;

  float acc[kMaxPeel][4] = {};
  if (v0 < long_count) {
    // Panels hold kStripChunk floats per k (16-byte aligned); a float4 past the end of the long
    // side or the strip reads the zero padding. p.m and p.n (the interior) are whole panels.
    const float* long_ptr =
        (below ? p.b + chunk * p.ldb : p.a + chunk * p.lda) + lane * 4 + warp * kStripChunk;
    const float* thin_ptr =
        (below ? p.a + p.tiles_m * p.lda : p.b + p.tiles_n * p.ldb) + warp * kStripChunk;
#pragma unroll 4
    for (int64_t l = warp; l < p.k; l += kSplit) {
      const float4 x = *reinterpret_cast<const float4*>(long_ptr);
      float t[kMaxPeel];
#pragma unroll
      for (int q = 0; q < kMaxPeel / 4; ++q) {
        const float4 y = 4 * q < thin_count ? *reinterpret_cast<const float4*>(thin_ptr + 4 * q)
                                            : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        t[4 * q] = y.x, t[4 * q + 1] = y.y, t[4 * q + 2] = y.z, t[4 * q + 3] = y.w;
      }
#pragma unroll
      for (int u = 0; u < kMaxPeel; ++u) {
        acc[u][0] = fmaf(t[u], x.x, acc[u][0]), acc[u][1] = fmaf(t[u], x.y, acc[u][1]);
        acc[u][2] = fmaf(t[u], x.z, acc[u][2]), acc[u][3] = fmaf(t[u], x.w, acc[u][3]);
      }
      long_ptr += kSplit * kStripChunk;
      thin_ptr += kSplit * kStripChunk;
    }
  }
  // smem[w][u][v - chunk start]: warp w's partial sums.
#pragma unroll
  for (int u = 0; u < kMaxPeel; ++u) {
    *reinterpret_cast<float4*>(smem + (warp * kMaxPeel + u) * kStripChunk + lane * 4) =
        make_float4(acc[u][0], acc[u][1], acc[u][2], acc[u][3]);
  }
  __syncthreads();
  for (int o = threadIdx.x; o < thin_count * kStripChunk; o += T::kThreads) {
    const int u = o / kStripChunk, v_in_chunk = o % kStripChunk;
    const int64_t v = int64_t(chunk) * kStripChunk + v_in_chunk;
    if (v >= long_count) continue;
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < kSplit; ++w) sum += smem[(w * kMaxPeel + u) * kStripChunk + v_in_chunk];
    float* dst = below ? p.c + (p.m + u) + v * p.ldc : p.c + v + (p.n + u) * p.ldc;
    *dst = p.beta == 0.0f ? p.alpha * sum : p.alpha * sum + p.beta * *dst;
  }
}

// The block's tile of C (tile row, tile column), in grouped rasterization: consecutive blocks
// walk kRasterGroup block-rows, then the next column.
__device__ __forceinline__ int2 block_tile(const Args& p) {
  const int tile = blockIdx.x;
  const int group_span = kRasterGroup * p.tiles_n;
  const int first_m = (tile / group_span) * kRasterGroup;
  const int group_m = min(p.tiles_m - first_m, kRasterGroup);
  return make_int2(first_m + (tile % group_span) % group_m, (tile % group_span) / group_m);
}

// C (or a split-K slice's partial tile) stored straight from the registers, 16 bytes at a time
// where a run of 4 rows lies wholly inside C and its triangle: columns j, rows in runs of 4 (the
// kLanesM lanes of a column write 16 * kLanesM contiguous bytes). C 16-byte aligned, ldc a
// multiple of 4. `warp_m0`, `warp_n0`: this lane's first row and column in the block tile.
template <class T>
__device__ __forceinline__ void store_c_from_registers(const Args& p,
                                                       const float (&acc)[T::kThreadM][T::kThreadN],
                                                       int64_t row0, int64_t col0, int warp_m0,
                                                       int warp_n0) {
#pragma unroll
  for (int j = 0; j < T::kThreadN; ++j) {
    const int64_t col = col0 + warp_n0 + (j / 4) * T::kSubN + j % 4;
    if (col >= p.n) continue;
#pragma unroll
    for (int i4 = 0; i4 < T::kThreadM / 4; ++i4) {
      const int64_t row = row0 + warp_m0 + i4 * T::kSubM;
      if (row >= p.m) continue;
      const float r0 = acc[4 * i4][j], r1 = acc[4 * i4 + 1][j], r2 = acc[4 * i4 + 2][j],
                  r3 = acc[4 * i4 + 3][j];
      if (p.partial) {
        // Rows up to m_pad exist in the workspace, so a run that starts below m is stored whole.
        float* dst = p.partial + int64_t(blockIdx.y) * p.m_pad * p.n + row + col * p.m_pad;
        *reinterpret_cast<float4*>(dst) = make_float4(r0, r1, r2, r3);
        continue;
      }
      float* dst = p.c + row + col * p.ldc;
      using gemm_device::in_triangle;
      const bool whole_run =
          in_triangle(p.triangle, row, col) && in_triangle(p.triangle, row + 3, col);
      if (row + 3 < p.m && whole_run) {
        float4 out = make_float4(p.alpha * r0, p.alpha * r1, p.alpha * r2, p.alpha * r3);
        if (p.beta != 0.0f) {
          const float4 old = *reinterpret_cast<const float4*>(dst);
          out.x += p.beta * old.x, out.y += p.beta * old.y, out.z += p.beta * old.z,
              out.w += p.beta * old.w;
        }
        *reinterpret_cast<float4*>(dst) = out;
      } else {
        const float r[4] = {r0, r1, r2, r3};
#pragma unroll
        for (int ii = 0; ii < 4; ++ii) {
          if (row + ii < p.m && in_triangle(p.triangle, row + ii, col)) {
            dst[ii] = p.beta == 0.0f ? p.alpha * r[ii] : p.alpha * r[ii] + p.beta * dst[ii];
          }
        }
      }
    }
  }
}

// C (or a split-K slice's partial tile) stored 4 bytes at a time (C of any alignment), coalesced:
// each warp puts its kWarpM x kWarpN accumulators into shared memory (column-major, in the ring's
// buffers, free once every warp is past the k-loop) as float4 runs of 4 rows, then writes C column
// by column, 32 consecutive rows per store (one 128-byte line, or two where C is misaligned).
// Stored straight from the registers, a lane's 4 rows lie 4 floats apart from its neighbours', so
// each 4-byte store would touch four times the sectors it fills. The tile's origin and the lane
// layout are recomputed here rather than kept live across the k-loop (which then spilled in the
// 128x128 _align4 row).
template <class T>
__device__ __forceinline__ void store_c_through_shared(const Args& p,
                                                       const float (&acc)[T::kThreadM][T::kThreadN],
                                                       float* smem) {
  const int2 block = block_tile(p);  // recomputed: fewer registers live across the k-loop
  const int64_t row0 = int64_t(block.x) * T::kBlockM, col0 = int64_t(block.y) * T::kBlockN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int m_lane = T::m_lane_of(lane), n_lane = T::n_lane_of(lane);
  static_assert(T::kBlockM * T::kBlockN <= T::kStages * T::kStageFloats,
                "the block's tile of C fits in the ring's shared memory");
  static_assert(T::kWarpM % 32 == 0, "a warp stores whole 32-row runs of a column");
  const int tile_m0 = (warp % T::kWarpsM) * T::kWarpM, tile_n0 = (warp / T::kWarpsM) * T::kWarpN;
  float* const tile = smem + warp * T::kWarpM * T::kWarpN;  // tile[c * kWarpM + r]
  float* const mine = tile + 4 * n_lane * T::kWarpM + 4 * m_lane;
  __syncthreads();  // every warp is done reading the ring
#pragma unroll
  for (int j = 0; j < T::kThreadN; ++j) {
#pragma unroll
    for (int i4 = 0; i4 < T::kThreadM / 4; ++i4) {
      *reinterpret_cast<float4*>(mine + ((j / 4) * T::kSubN + j % 4) * T::kWarpM + i4 * T::kSubM) =
          make_float4(acc[4 * i4][j], acc[4 * i4 + 1][j], acc[4 * i4 + 2][j], acc[4 * i4 + 3][j]);
    }
  }
  __syncwarp();
  // Lane `lane` stores rows row0 + tile_m0 + lane + 32 q of the warp's columns; `diag`: its first
  // row's offset from the diagonal at the warp's first column (clamped: only its sign against
  // c - 32 q, |c - 32 q| < kWarpN + kWarpM, matters), for the triangle test in 32-bit arithmetic.
  const int64_t row = row0 + tile_m0 + lane, col = col0 + tile_n0;
  const int rows_left = int(std::min<int64_t>(p.m - row, T::kWarpM));  // may be <= 0
  const int cols = int(std::min<int64_t>(p.n - col, T::kWarpN));
  const int diag = int(std::max<int64_t>(std::min<int64_t>(row - col, 1 << 20), -(1 << 20)));
  // Split-K: the slice's partial tile, unscaled (no triangle there).
  const int64_t ld = p.partial ? p.m_pad : p.ldc;
  float* dst = (p.partial ? p.partial + int64_t(blockIdx.y) * p.m_pad * p.n : p.c) + row + col * ld;
  const float* src = tile + lane;
  for (int c = 0; c < cols; ++c) {
#pragma unroll
    for (int q = 0; q < T::kWarpM / 32; ++q) {
      const int d = diag + 32 * q - c;  // row - column of this element
      const bool in =
          p.triangle == Triangle::kAll || (p.triangle == Triangle::kLower ? d >= 0 : d <= 0);
      if (32 * q < rows_left && in) {
        const float v = src[32 * q];
        if (p.partial) {
          dst[32 * q] = v;
        } else {
          dst[32 * q] = p.beta == 0.0f ? p.alpha * v : p.alpha * v + p.beta * dst[32 * q];
        }
      }
    }
    dst += ld;
    src += T::kWarpM;
  }
}

// Split-K summed in the tile's cluster (p.cluster_slices blocks, blockIdx.y = the slice = the
// block's rank): each block puts its unscaled tile into its shared memory (the ring's,
// column-major, kBlockM floats a column), the cluster waits at a barrier, and block r writes
// elements r * kThreads + t, (r + S) * kThreads + t, ... of the tile (thread t; S slices), each the
// S tiles' elements summed in slice order from zero (read through distributed shared memory, the S
// loads issued before the adds), then C = fma(beta, C, alpha * sum) (beta == 0: C not read): the
// sums and the rounding of splitk::reduce(). A second barrier keeps every tile in place until all
// have read it.
template <class T>
__device__ __forceinline__ void store_c_cluster(const Args& p,
                                                const float (&acc)[T::kThreadM][T::kThreadN],
                                                float* smem) {
  static_assert(T::kBlockM * T::kBlockN <= T::kStages * T::kStageFloats,
                "the block's tile of C fits in the ring's shared memory");
  const int2 block = block_tile(p);
  const int64_t row0 = int64_t(block.x) * T::kBlockM, col0 = int64_t(block.y) * T::kBlockN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m0 = (warp % T::kWarpsM) * T::kWarpM + T::m_lane_of(lane) * 4;
  const int warp_n0 = (warp / T::kWarpsM) * T::kWarpN + T::n_lane_of(lane) * 4;
  __syncthreads();  // every warp is done reading the ring
#pragma unroll
  for (int j = 0; j < T::kThreadN; ++j) {
#pragma unroll
    for (int i4 = 0; i4 < T::kThreadM / 4; ++i4) {
      const int r = warp_m0 + i4 * T::kSubM, c = warp_n0 + (j / 4) * T::kSubN + j % 4;
      *reinterpret_cast<float4*>(smem + c * T::kBlockM + r) =
          make_float4(acc[4 * i4][j], acc[4 * i4 + 1][j], acc[4 * i4 + 2][j], acc[4 * i4 + 3][j]);
    }
  }
  ptx::cluster_sync();
  const int slices = p.cluster_slices;
  const uint32_t rank = ptx::cluster_rank();
  const ptx::ClusterTiles<kMaxClusterSlices> tiles(smem_address(smem), slices);
  for (int e = int(rank) * T::kThreads + int(threadIdx.x); e < T::kBlockM * T::kBlockN;
       e += slices * T::kThreads) {
    const int64_t row = row0 + e % T::kBlockM, col = col0 + e / T::kBlockM;
    if (row >= p.m || col >= p.n) continue;
    float* const dst = p.c + row + col * p.ldc;
    const float v = p.alpha * tiles.sum(uint32_t(e) * 4);
    *dst = p.beta == 0.0f ? v : fmaf(p.beta, *dst, v);
  }
  ptx::cluster_sync();
}

// Align16: 16-byte copies of the operands contiguous along m or n; StoreC16: 16-byte stores of C;
// Packed: A and B are the packed row's tile-panelled, zero-padded workspaces (PackedPanelCopy:
// no bounds in the copies, only C's stores are predicated; lda and ldb are the panel strides),
// and the blocks after the interior's tiles compute the thin strips (sgemm_strip_block);
// InteriorCopies: tiles wholly inside m and n copy their full k-steps without bounds
// (PanelCopy::copy_inside), only edge tiles and a partial last k-step take the checked copies;
// the path is picked per k-step by one int compare against kt_inside, counted once per block;
// ClusterSum: split-K whose slices sum in their cluster (store_c_cluster()).
template <class T, bool Align16, bool StoreC16 = Align16, bool Packed = false,
          bool InteriorCopies = false, bool ClusterSum = false>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocksPerSm) sgemm_regblock_kernel(Args p) {
  extern __shared__ float4 smem_vec[];
  float* const a_smem = reinterpret_cast<float*>(smem_vec);
  float* const b_smem = a_smem + T::kStages * T::kBlockK * T::kStrideA;
  const int tid = threadIdx.x;
  static_assert(!Packed || Align16, "packed operands are copied 16 bytes at a time");
  static_assert(!(Packed && InteriorCopies), "the packed row's copies have no bounds anyway");
  if constexpr (Packed) {
    if (int(blockIdx.x) >= p.tiles_m * p.tiles_n) {
      sgemm_strip_block<T>(p, int(blockIdx.x) - p.tiles_m * p.tiles_n, a_smem);
      return;
    }
  }

  const int2 tile = block_tile(p);
  const int64_t row0 = int64_t(tile.x) * T::kBlockM, col0 = int64_t(tile.y) * T::kBlockN;
  if (gemm_device::tile_outside_triangle(p.triangle, row0, col0, T::kBlockM, T::kBlockN)) return;

  // This block's slice of k-steps, narrowed to those its tile needs where op(A) or op(B) is zero
  // outside a triangle (not in the packed row: its loop measured 2-6 % slower with the test).
  const int64_t k_tiles = (p.k + T::kBlockK - 1) / T::kBlockK;
  int64_t kt_begin = int64_t(blockIdx.y) * p.k_tiles_per_slice;
  int64_t kt_end = std::min<int64_t>(k_tiles, kt_begin + p.k_tiles_per_slice);
  if (!Packed && (p.a_nonzero != Triangle::kAll || p.b_nonzero != Triangle::kAll)) {
    kt_begin = std::max<int64_t>(
        kt_begin, gemm_device::tile_k_begin(p.a_nonzero, p.b_nonzero, row0, col0) / T::kBlockK);
    const int64_t k_end = gemm_device::tile_k_end(p.a_nonzero, p.b_nonzero, row0, col0,
                                                  int64_t(T::kBlockM), int64_t(T::kBlockN), p.k);
    kt_end = std::min<int64_t>(kt_end, (k_end + T::kBlockK - 1) / T::kBlockK);
  }
  const int kt_count = p.alpha == 0.0f || kt_end <= kt_begin ? 0 : int(kt_end - kt_begin);

  using ACopy =
      std::conditional_t<Packed, PackedPanelCopy<T::kBlockM, T::kBlockK, T::kStrideA, T::kThreads>,
                         PanelCopy<T::kBlockM, T::kBlockK, T::kStrideA, T::kThreads, Align16>>;
  using BCopy =
      std::conditional_t<Packed, PackedPanelCopy<T::kBlockN, T::kBlockK, T::kStrideB, T::kThreads>,
                         PanelCopy<T::kBlockN, T::kBlockK, T::kStrideB, T::kThreads, Align16>>;
  ACopy a_copy(p.a, p.lda, p.trans_a, row0, p.m, kt_begin * T::kBlockK, tid);
  BCopy b_copy(p.b, p.ldb, !p.trans_b, col0, p.n, kt_begin * T::kBlockK, tid);
  // Without InteriorCopies: copies are issued in k order, so one running count of the k values
  // left serves both.
  [[maybe_unused]] int64_t k_left_next = p.k - kt_begin * T::kBlockK;
  // InteriorCopies: the slice's first kt_inside k-steps are whole and, in a tile wholly inside m
  // and n, copied without bounds. (Split-K slices start at whole k-steps, so only the last slice's
  // last k-step can be partial.) One int compare per k-step picks the path, and the checked path
  // derives its k values left from the step: no 64-bit running count and interior flag live in
  // the k-loop (+3 % at 2048^3 and 4096^3 over that form, docs/NOTES-sgemm.md).
  [[maybe_unused]] const bool interior = row0 + T::kBlockM <= p.m && col0 + T::kBlockN <= p.n;
  [[maybe_unused]] const int kt_inside =
      interior ? int(std::min<int64_t>(kt_count, (p.k - kt_begin * T::kBlockK) / T::kBlockK)) : 0;
  // Copies the slice's k-step `step` into ring buffer `stage`.
  auto copy_stage = [&](int stage, int step) {
    if constexpr (InteriorCopies) {
      if (step < kt_inside) {
        a_copy.copy_inside(smem_address(a_smem + stage * T::kBlockK * T::kStrideA), p.lda,
                           p.trans_a);
        b_copy.copy_inside(smem_address(b_smem + stage * T::kBlockK * T::kStrideB), p.ldb,
                           !p.trans_b);
        return;
      }
      const int64_t k_rest = p.k - (kt_begin + step) * T::kBlockK;
      const int k_left = int(k_rest < T::kBlockK ? k_rest : T::kBlockK);
      a_copy.copy(a_smem + stage * T::kBlockK * T::kStrideA, p.a, p.lda, p.trans_a, k_left);
      b_copy.copy(b_smem + stage * T::kBlockK * T::kStrideB, p.b, p.ldb, !p.trans_b, k_left);
      return;
    }
    const int k_left = int(k_left_next < T::kBlockK ? k_left_next : T::kBlockK);
    a_copy.copy(a_smem + stage * T::kBlockK * T::kStrideA, p.a, p.lda, p.trans_a, k_left);
    b_copy.copy(b_smem + stage * T::kBlockK * T::kStrideB, p.b, p.ldb, !p.trans_b, k_left);
    k_left_next -= T::kBlockK;
  };

  const int warp = tid / 32, lane = tid % 32;
  const int m_lane = T::m_lane_of(lane), n_lane = T::n_lane_of(lane);
  const int warp_m0 = (warp % T::kWarpsM) * T::kWarpM + m_lane * 4;
  const int warp_n0 = (warp / T::kWarpsM) * T::kWarpN + n_lane * 4;
  float acc[T::kThreadM][T::kThreadN] = {};

#pragma unroll
  for (int s = 0; s < T::kStages - 1; ++s) {
    if (s < kt_count) copy_stage(s, s);
    copy_commit();
  }
  for (int t = 0; t < kt_count; ++t) {
    copy_wait<T::kStages - 2>();
    __syncthreads();  // stage t is visible to all, and stage t-1 is no longer read by anyone
    const int next = t + T::kStages - 1;
    if (next < kt_count) copy_stage(next % T::kStages, next);
    copy_commit();

    const float* as = a_smem + (t % T::kStages) * T::kBlockK * T::kStrideA + warp_m0;
    const float* bs = b_smem + (t % T::kStages) * T::kBlockK * T::kStrideB + warp_n0;
#pragma unroll
    for (int kk = 0; kk < T::kBlockK; ++kk) {
      float a_frag[T::kThreadM], b_frag[T::kThreadN];
#pragma unroll
      for (int i = 0; i < T::kThreadM / 4; ++i) {
        const float4 v = *reinterpret_cast<const float4*>(as + kk * T::kStrideA + i * T::kSubM);
        a_frag[4 * i] = v.x, a_frag[4 * i + 1] = v.y, a_frag[4 * i + 2] = v.z,
                   a_frag[4 * i + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < T::kThreadN / 4; ++j) {
        const float4 v = *reinterpret_cast<const float4*>(bs + kk * T::kStrideB + j * T::kSubN);
        b_frag[4 * j] = v.x, b_frag[4 * j + 1] = v.y, b_frag[4 * j + 2] = v.z,
                   b_frag[4 * j + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < T::kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < T::kThreadN; ++j) acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
    }
  }
  copy_wait<0>();  // no copy may still target shared memory when the block exits

  if constexpr (ClusterSum) {
    store_c_cluster<T>(p, acc, a_smem);
  } else if constexpr (StoreC16) {
    store_c_from_registers<T>(p, acc, row0, col0, warp_m0, warp_n0);
  } else {
    store_c_through_shared<T>(p, acc, a_smem);
  }
}

// Packing (sgemm_packed_*), tile-panelled: dst[(r / Panel) * Panel * k_pad + l * Panel + r % Panel]
// = op(X)(r, l) for r < rows, l < k, and 0 for the padding up to whole panels (r < rows rounded up
// to Panel) and whole k-steps (l < k_pad), where X is stored r-contiguous (x[r + l*ld]) or
// l-contiguous (x[l + r*ld]). 32x32 tiles through shared memory, so reads and writes coalesce in
// both cases (32 consecutive r stay inside one panel).
constexpr int kPackTile = 32;
constexpr int kPackRowsPerPass = 8;
template <int Panel>
__global__ void __launch_bounds__(kPackTile* kPackRowsPerPass)
    sgemm_pack_kernel(const float* __restrict__ x, int64_t ld, bool r_contiguous, int64_t rows,
                      int64_t k, float* __restrict__ dst, int64_t k_pad) {
  static_assert(Panel % kPackTile == 0, "a pack tile's rows lie in one panel");
  __shared__ float tile[kPackTile][kPackTile + 1];  // tile[l][r]; +1: conflict-free columns
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t r0 = int64_t(blockIdx.x) * kPackTile;
  float* const panel = dst + (r0 / Panel) * Panel * k_pad + r0 % Panel + tx;
  const int64_t l_tiles = (k_pad + kPackTile - 1) / kPackTile;
  for (int64_t lt = blockIdx.y; lt < l_tiles; lt += gridDim.y) {
    const int64_t l0 = lt * kPackTile;
    for (int i = ty; i < kPackTile; i += kPackRowsPerPass) {
      if (r_contiguous) {
        if (r0 + tx < rows && l0 + i < k) tile[i][tx] = x[(r0 + tx) + (l0 + i) * ld];
      } else {
        if (r0 + i < rows && l0 + tx < k) tile[tx][i] = x[(l0 + tx) + (r0 + i) * ld];
      }
    }
    __syncthreads();
    for (int i = ty; i < kPackTile; i += kPackRowsPerPass) {
      if (l0 + i < k_pad) {
        panel[(l0 + i) * Panel] = r0 + tx < rows && l0 + i < k ? tile[i][tx] : 0.0f;
      }
    }
    __syncthreads();
  }
}

// Rows padded to whole panels.
template <int Panel>
int64_t panel_rows(int64_t rows) {
  return (rows + Panel - 1) / Panel * Panel;
}

template <int Panel>
cudaError_t pack(const float* x, int64_t ld, bool r_contiguous, int64_t rows, int64_t k,
                 int64_t k_pad, float* dst, cudaStream_t stream) {
  const int64_t l_tiles = (k_pad + kPackTile - 1) / kPackTile;
  const dim3 grid(unsigned(panel_rows<Panel>(rows) / kPackTile),
                  unsigned(std::min<int64_t>(l_tiles, 65535)));
  sgemm_pack_kernel<Panel><<<grid, dim3(kPackTile, kPackRowsPerPass), 0, stream>>>(
      x, ld, r_contiguous, rows, k, dst, k_pad);
  return cudaGetLastError();
}

bool is_fp32_problem(const Problem& p) {
  return p.type == DataType::kF32 && p.c_type == DataType::kF32 && p.m >= 1 && p.n >= 1 &&
         p.k >= 0 && p.lda >= std::max<int64_t>(1, p.a_rows()) &&
         p.ldb >= std::max<int64_t>(1, p.b_rows()) && p.ldc >= p.m;
}

bool is_aligned16(const Problem& p) {
  auto aligned = [](const void* x) { return reinterpret_cast<uintptr_t>(x) % 16 == 0; };
  return aligned(p.a) && aligned(p.b) && aligned(p.c) && p.lda % 4 == 0 && p.ldb % 4 == 0 &&
         p.ldc % 4 == 0;
}

// `triangles`: the row computes a triangle of C (Problem::c_triangle); split-K and packed rows
// do not.
template <class T>
bool supports_tile(const Problem& p, const DeviceCaps& caps, bool triangles) {
  const int64_t tiles =
      ((p.m + T::kBlockM - 1) / T::kBlockM) * ((p.n + T::kBlockN - 1) / T::kBlockN);
  if (p.c_triangle != Triangle::kAll && !(triangles && gemm_device::triangle_fits(p))) return false;
  // cp.async needs sm_80; the block index must fit the grid's x dimension.
  return is_fp32_problem(p) && caps.sm_version >= 80 && tiles <= 0x7fffffff &&
         T::kSmemBytes <= caps.smem_per_block_optin;
}

Args args_of(const Problem& p, int tiles_m, int tiles_n) {
  Args a{};
  a.trans_a = p.trans_a == Op::kTrans, a.trans_b = p.trans_b == Op::kTrans;
  a.m = p.m, a.n = p.n, a.k = p.k, a.alpha = float(p.alpha.re), a.beta = float(p.beta.re);
  a.a = static_cast<const float*>(p.a), a.lda = p.lda;
  a.b = static_cast<const float*>(p.b), a.ldb = p.ldb;
  a.c = static_cast<float*>(p.c), a.ldc = p.ldc;
  a.tiles_m = tiles_m, a.tiles_n = tiles_n;
  a.triangle = p.c_triangle;
  a.a_nonzero = p.a_nonzero, a.b_nonzero = p.b_nonzero;
  return a;
}

template <class T, bool Align16, bool InteriorCopies = false>
cudaError_t launch_tile(const Problem& p, cudaStream_t stream) {
  const int tiles_m = int((p.m + T::kBlockM - 1) / T::kBlockM);
  const int tiles_n = int((p.n + T::kBlockN - 1) / T::kBlockN);
  Args a = args_of(p, tiles_m, tiles_n);
  a.k_tiles_per_slice = int(std::min<int64_t>((p.k + T::kBlockK - 1) / T::kBlockK, 0x7fffffff));
  auto kernel = sgemm_regblock_kernel<T, Align16, Align16, false, InteriorCopies>;
  cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(T::kSmemBytes));
  if (err != cudaSuccess) return err;
  kernel<<<dim3(unsigned(int64_t(tiles_m) * tiles_n), 1), T::kThreads, T::kSmemBytes, stream>>>(a);
  return cudaGetLastError();
}

// Split-K. ClusterSum (the 64x64 rows): where kClusterSplitK64's slice rule gives 1 to
// kMaxClusterSlices slices on a device with clusters, a tile's slices are one cluster, which sums
// them (store_c_cluster()); else the partials go through the workspace and splitk::reduce().
template <class T, bool Align16, bool InteriorCopies = false, bool ClusterSum = false>
cudaError_t launch_splitk(const Problem& p, cudaStream_t stream) {
  const int tiles_m = int((p.m + T::kBlockM - 1) / T::kBlockM);
  const int tiles_n = int((p.n + T::kBlockN - 1) / T::kBlockN);
  constexpr splitk::Geometry kGeometry{T::kBlockM, T::kBlockN, T::kBlockK, T::kMinBlocksPerSm,
                                       kMinTilesPerSlice};
  static_assert(!ClusterSum || kClusterSplitK64.is_tile(T::kBlockM, T::kBlockN, T::kBlockK,
                                                        T::kMinBlocksPerSm),
                "kClusterSplitK64 describes the cluster rows' tile");
  splitk::Slices slices;
  if constexpr (ClusterSum) {
    bool clusters = false;
    if (cudaError_t err = gemm_device::current_has_clusters(&clusters); err != cudaSuccess)
      return err;
    if (clusters) {
      if (cudaError_t err = splitk::slices_of(kClusterSplitK64, p, &slices); err != cudaSuccess)
        return err;
    }
    if (slices.count >= 1 && slices.count <= kMaxClusterSlices) {
      Args a = args_of(p, tiles_m, tiles_n);
      a.k_tiles_per_slice = int(slices.k_steps);
      a.cluster_slices = int(slices.count);
      auto kernel = sgemm_regblock_kernel<T, Align16, Align16, false, InteriorCopies, true>;
      cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             int(T::kSmemBytes));
      if (err != cudaSuccess) return err;
      return gemm_device::launch_with(
          gemm_device::clusters_along_y(unsigned(slices.count)), kernel,
          dim3(unsigned(int64_t(tiles_m) * tiles_n), unsigned(slices.count)), T::kThreads,
          T::kSmemBytes, stream, a);
    }
  }
  if (cudaError_t err = splitk::slices_of(kGeometry, p, &slices); err != cudaSuccess) return err;
  const int64_t m_pad = (p.m + 3) / 4 * 4;
  return splitk::run(
      p, splitk::partial_type(p.c_type), slices, m_pad,
      [&](void* partial) {
        Args a = args_of(p, tiles_m, tiles_n);
        a.k_tiles_per_slice = int(slices.k_steps);
        a.partial = static_cast<float*>(partial);
        a.m_pad = m_pad;
        auto kernel = sgemm_regblock_kernel<T, Align16, Align16, false, InteriorCopies>;
        cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             int(T::kSmemBytes));
        if (e != cudaSuccess) return e;
        kernel<<<dim3(unsigned(int64_t(tiles_m) * tiles_n), unsigned(slices.count)), T::kThreads,
                 T::kSmemBytes, stream>>>(a);
        return cudaGetLastError();
      },
      stream);
}

// Packs op(A) and op(B) into tile-panelled workspaces (16-byte aligned, zero-padded to whole
// tiles in m and n and whole k-steps in k: see sgemm_pack_kernel), then runs the tiles' main loop
// without edges on them; C is stored with 4-byte stores, so C may have any alignment. Thin
// remainders of m and n (at most kMaxPeel past a multiple of the tile) go to strip blocks instead
// of tiles.
template <class T>
cudaError_t launch_packed(const Problem& p, cudaStream_t stream) {
  if (p.alpha == 0.0f || p.k == 0) return launch_tile<T, false>(p, stream);  // A, B not read
  const int64_t k_pad = (p.k + T::kBlockK - 1) / T::kBlockK * T::kBlockK;
  const int64_t panel_a = T::kBlockM * k_pad, panel_b = T::kBlockN * k_pad;
  const int64_t rows_a = panel_rows<T::kBlockM>(p.m), rows_b = panel_rows<T::kBlockN>(p.n);
  const size_t bytes = size_t(rows_a + rows_b) * size_t(k_pad) * sizeof(float);
  float* workspace = nullptr;
  cudaError_t err = gemm_device::allocate_workspace(bytes, &workspace, stream);
  if (err != cudaSuccess) return err;
  float* const packed_a = workspace;
  float* const packed_b = workspace + rows_a * k_pad;
  err = pack<T::kBlockM>(static_cast<const float*>(p.a), p.lda, p.trans_a == Op::kNoTrans, p.m, p.k,
                         k_pad, packed_a, stream);
  if (err == cudaSuccess) {
    err = pack<T::kBlockN>(static_cast<const float*>(p.b), p.ldb, p.trans_b == Op::kTrans, p.n, p.k,
                           k_pad, packed_b, stream);
  }
  if (err == cudaSuccess) {
    const int strip_rows = thin_remainder(p.m, T::kBlockM, kMaxPeel);
    const int strip_cols = thin_remainder(p.n, T::kBlockN, kMaxPeel);
    const int64_t m_in = p.m - strip_rows, n_in = p.n - strip_cols;
    const int tiles_m = int((m_in + T::kBlockM - 1) / T::kBlockM);
    const int tiles_n = int((n_in + T::kBlockN - 1) / T::kBlockN);
    Args a = args_of(p, tiles_m, tiles_n);
    a.m = m_in, a.n = n_in;
    a.trans_a = false, a.a = packed_a, a.lda = panel_a;
    a.trans_b = true, a.b = packed_b, a.ldb = panel_b;
    a.k_tiles_per_slice = int(std::min<int64_t>((p.k + T::kBlockK - 1) / T::kBlockK, 0x7fffffff));
    a.strip_rows = strip_rows, a.strip_cols = strip_cols;
    a.strip_blocks_bottom = strip_rows ? int((p.n + kStripChunk - 1) / kStripChunk) : 0;
    const int64_t strip_blocks =
        a.strip_blocks_bottom + (strip_cols ? (m_in + kStripChunk - 1) / kStripChunk : 0);
    auto kernel = sgemm_regblock_kernel<T, true, false, true>;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(T::kSmemBytes));
    if (err == cudaSuccess) {
      kernel<<<dim3(unsigned(int64_t(tiles_m) * tiles_n + strip_blocks), 1), T::kThreads,
               T::kSmemBytes, stream>>>(a);
      err = cudaGetLastError();
    }
  }
  const cudaError_t free_err = cudaFreeAsync(workspace, stream);
  return err != cudaSuccess ? err : free_err;
}

}  // namespace

bool supports_packed_128x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile128x128x16T4x16>(p, caps, false);
}
cudaError_t launch_packed_128x128x16(const Problem& p, cudaStream_t stream) {
  return launch_packed<Tile128x128x16T4x16>(p, stream);
}

bool supports_128x128x16_align16(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile128x128x16T8x8>(p, caps, true) && is_aligned16(p);
}
cudaError_t launch_128x128x16_align16(const Problem& p, cudaStream_t stream) {
  return launch_tile<Tile128x128x16T8x8, true, true>(p, stream);
}
bool supports_128x128x16_align4(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile128x128x16T4x16>(p, caps, true);
}
cudaError_t launch_128x128x16_align4(const Problem& p, cudaStream_t stream) {
  return launch_tile<Tile128x128x16T4x16, false>(p, stream);
}

bool supports_128x64x16_align16(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile128x64x16>(p, caps, true) && is_aligned16(p);
}
cudaError_t launch_128x64x16_align16(const Problem& p, cudaStream_t stream) {
  return launch_tile<Tile128x64x16, true>(p, stream);
}
bool supports_128x64x16_align4(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile128x64x16>(p, caps, true);
}
cudaError_t launch_128x64x16_align4(const Problem& p, cudaStream_t stream) {
  return launch_tile<Tile128x64x16, false>(p, stream);
}

bool supports_64x64x16_align16(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile64x64x16>(p, caps, true) && is_aligned16(p);
}
cudaError_t launch_64x64x16_align16(const Problem& p, cudaStream_t stream) {
  return launch_tile<Tile64x64x16, true>(p, stream);
}
bool supports_64x64x16_align4(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile64x64x16>(p, caps, true);
}
cudaError_t launch_64x64x16_align4(const Problem& p, cudaStream_t stream) {
  return launch_tile<Tile64x64x16, false>(p, stream);
}

bool supports_splitk_128x64x16_align16(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile128x64x16Paired>(p, caps, false) && is_aligned16(p);
}
cudaError_t launch_splitk_128x64x16_align16(const Problem& p, cudaStream_t stream) {
  return launch_splitk<Tile128x64x16Paired, true, true>(p, stream);
}
bool supports_splitk_128x64x16_align4(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile128x64x16>(p, caps, false);
}
cudaError_t launch_splitk_128x64x16_align4(const Problem& p, cudaStream_t stream) {
  return launch_splitk<Tile128x64x16, false>(p, stream);
}
bool supports_splitk_64x64x16_align16(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile64x64x16>(p, caps, false) && is_aligned16(p);
}
cudaError_t launch_splitk_64x64x16_align16(const Problem& p, cudaStream_t stream) {
  return launch_splitk<Tile64x64x16, true, false, true>(p, stream);
}
bool supports_splitk_64x64x16_align4(const Problem& p, const DeviceCaps& caps) {
  return supports_tile<Tile64x64x16>(p, caps, false);
}
cudaError_t launch_splitk_64x64x16_align4(const Problem& p, cudaStream_t stream) {
  return launch_splitk<Tile64x64x16, false, false, true>(p, stream);
}

}  // namespace tileblas::sgemm_regblock
