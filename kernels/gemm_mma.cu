// gemm_mma: mma.sync tensor-core GEMM. The contract (formula, storage, tiling, edges, alignment)
// is at the top of gemm_mma.h.
#include "byte_shift.cuh"
#include "cp_async.cuh"
#include "gemm_device_common.cuh"
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

using gemm_device::aligned_to;
using gemm_device::Args;
using gemm_device::load_c;
using gemm_device::problem_fits;
using gemm_device::store_c;

// ---- Element types ------------------------------------------------------------------------------
// Each says how many bytes an element takes, the k-extent of one MMA, whether ldmatrix.trans can
// turn its m/n-contiguous tiles into fragments, and issues its MMA.

struct TypeF16 {
  using Storage = uint16_t;
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
  static constexpr int kMmaK = 8;
  // ldmatrix.trans would transpose 16-bit halves of an fp32: m/n-contiguous fp32 tiles are read
  // into fragments with 16-byte shared loads instead (see load_a_half).
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

// How operand tiles reach shared memory. kVector: cp.async of 16-byte chunks straight into the
// tile (the operand and its leading dimension 16-byte aligned). kShifted: any element alignment;
// each row of a tile (a stretch of one column) is copied as the aligned 16-byte blocks that cover
// it into a raw stage (cp.async, one block more per row than the tile's chunks), and the row is
// shifted from there into the tile (byte_shift.cuh) once it has landed.
enum class Loads { kVector, kShifted };

constexpr int kChunkBytes = 16;  // one cp.async / one ldmatrix row

// An m/n-contiguous fp32 operand is read 16 bytes (4 consecutive m or n) per lane, so its warp
// tile rows (columns) are permuted: the MMA's row r of m16 tile i is warp row 8 (r % 8) + 2 i +
// r / 8 (columns: MMA column c of n8 tile j is warp column 8 c + j). See load_a_half.
template <class T, Layout kLayout>
constexpr bool kPermuted = !T::kTransposingLdmatrix && kLayout == Layout::kMNContiguous;

// ---- PTX wrappers -------------------------------------------------------------------------------

using ptx::cp_async_16;
using ptx::cp_async_commit;
using ptx::cp_async_wait;
using ptx::smem_address;

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
__device__ void lds128(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ void sts128(uint32_t addr, const uint4& v) {
  asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}

__device__ uint32_t lds_u8(uint32_t addr) {
  uint32_t r;
  asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r) : "r"(addr));
  return r;
}
__device__ void sts_u8(uint32_t addr, uint32_t v) {
  asm volatile("st.shared.u8 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

// ---- Shared-memory tile layouts -----------------------------------------------------------------

// A k-contiguous tile: rows (m or n) of 64 bytes (4 chunks). ldmatrix reads one chunk column of 8
// consecutive rows; XOR-ing the chunk with (row / 2) % 4 spreads those 8 x 16 bytes over all 32
// banks.
constexpr int kKRowBytes = 64;
__device__ uint32_t k_contiguous_offset(int row, int chunk) {
  return uint32_t(row * kKRowBytes + ((chunk ^ ((row >> 1) & 3)) << 4));
}

// An m/n-contiguous tile: kBlockK rows (k) of kRowBytes, swizzled in 16-byte chunks by k row.
// ldmatrix.trans (16-bit) reads one chunk of 8 consecutive k rows: XOR with k % 8 puts them on
// distinct banks. The fp32 loads of a quarter warp read chunks c and c + 2 (c = 0 or 1) of k rows
// k0..k0+3 (or k0+4..k0+7): XOR with (k & 1) | (k & 2) << 1 | (k & 4) >> 1 maps those 8 chunks
// to distinct bank groups.
template <class T>
__device__ uint32_t mn_swizzle(int krow) {
  if constexpr (T::kTransposingLdmatrix) {
    return uint32_t(krow & 7);
  } else {
    return uint32_t((krow & 1) | ((krow & 2) << 1) | ((krow & 4) >> 1));
  }
}
template <class T, int kRowBytes>
__device__ uint32_t mn_contiguous_offset(int krow, int chunk) {
  return uint32_t(krow * kRowBytes) + ((uint32_t(chunk) ^ mn_swizzle<T>(krow)) << 4);
}

// ---- The kernel ---------------------------------------------------------------------------------

template <class T, int kBlockM_, int kBlockN_, int kBlockK_, int kWarpM_, int kWarpN_, int kStages_,
          int kBlocksPerSm_, int kWarpsK_ = 1>
struct Config {
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kBlockK = kBlockK_;
  static constexpr int kWarpM = kWarpM_;
  static constexpr int kWarpN = kWarpN_;
  static constexpr int kStages = kStages_;
  static constexpr int kBlocksPerSm = kBlocksPerSm_;  // launch bounds: registers for this many
  static constexpr int kBytes = int(sizeof(typename T::Storage));
  static constexpr int kChunkElems = kChunkBytes / kBytes;
  static constexpr int kSteps = kBlockK / T::kMmaK;  // MMA k-steps per block k-tile
  static constexpr int kWarpsM = kBlockM / kWarpM;
  static constexpr int kWarpsN = kBlockN / kWarpN;
  // Warps that share a warp tile, each taking every kWarpsK-th MMA k-step of a k-tile; their sums
  // are added in the epilogue.
  static constexpr int kWarpsK = kWarpsK_;
  static constexpr int kWarpsMN = kWarpsM * kWarpsN;
  static constexpr int kThreads = 32 * kWarpsMN * kWarpsK;
  static constexpr int kMmaTilesM = kWarpM / 16;
  static constexpr int kMmaTilesN = kWarpN / 8;
  static constexpr int kATileBytes = kBlockM * kBlockK * kBytes;
  static constexpr int kBTileBytes = kBlockN * kBlockK * kBytes;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kRasterGroup = 8;  // tile rows per rasterization group (L2 reuse of B)

  static_assert(kBlockK * kBytes == kKRowBytes,
                "k-contiguous tiles are 64-byte rows: the swizzle and fragment addressing assume 4 "
                "chunks (128-byte rows, a 16-bit k-tile of 64, measured no faster)");
  static_assert(kBlockK % T::kMmaK == 0, "a k-tile is a whole number of MMA k-steps");
  static_assert(kSteps % kWarpsK == 0, "the warps of a warp tile take as many k-steps each");
  static_assert(T::kMmaK * kBytes == 2 * kChunkBytes,
                "an MMA k-step spans two chunks (two 8x8 ldmatrix tiles, k and k + 4 for fp32)");
  static_assert(kBlockM % kWarpM == 0 && kBlockN % kWarpN == 0, "warps tile the block exactly");
  static_assert(kMmaTilesM % 2 == 0, "A fragments are reloaded in two halves of m16 tiles");
  static_assert(kMmaTilesN % 4 == 0,
                "B fragments are reloaded in two halves, each whole ldmatrix.x4 (two n8 tiles)");
  static_assert(kBlockM * kBytes >= 128 && kBlockN * kBytes >= 128,
                "m/n-contiguous rows must span the 8 chunks the swizzle permutes");
  static_assert((kATileBytes / kChunkBytes) % kThreads == 0 &&
                    (kBTileBytes / kChunkBytes) % kThreads == 0,
                "every thread copies the same number of chunks");
  static_assert(kStages >= 2, "the pipeline needs a stage to fill while one is computed");
};

// One operand's global -> shared copies, as one thread sees them. Thread t copies chunks t,
// t + kThreads, ... of a tile: the same chunk column in rows kRowStep apart (rows are m or n for a
// k-contiguous tile, k for an m/n-contiguous one). What depends on the thread is computed once,
// and k-tiles are copied in order: each copy walks one pointer through its rows and leaves it at
// the next k-tile (a pointer carried from k-tile to k-tile, so no per-row addresses stay live in
// registers). The swizzles are XOR-linear in the row, and a thread's first row is below kRowStep
// (a power of two), so row r0 + i kRowStep swizzles as r0's XOR i kRowStep's: its destinations
// differ by compile-time XORs and adds.
// kShifted: the thread copies the aligned block that holds its chunk's first element (and the
// row's last chunk also the block after it) into the raw stage, and later shifts its chunk from
// the raw stage into the tile. A block is read only as far as the row's elements inside the matrix
// reach (the rest zero-filled): a row's first block may start up to 15 bytes before the row, in
// the same 16-byte block as its first element.
template <class T, class Cfg, Layout kLayout, int kRows, Loads kLoads>
struct TileCopier {
  using S = typename T::Storage;
  static constexpr bool kK = kLayout == Layout::kKContiguous;
  static constexpr bool kShifted = kLoads == Loads::kShifted;
  static constexpr int kChunksPerRow =
      kK ? Cfg::kBlockK / Cfg::kChunkElems : kRows / Cfg::kChunkElems;
  static constexpr int kRowBytes = kK ? kKRowBytes : kRows * Cfg::kBytes;
  static constexpr int kRowStep = Cfg::kThreads / kChunksPerRow;
  static constexpr int kCopies = kRows * Cfg::kBlockK / Cfg::kChunkElems / Cfg::kThreads;
  static_assert(Cfg::kThreads % kChunksPerRow == 0, "a thread keeps one chunk column");
  static_assert((kRowStep & (kRowStep - 1)) == 0, "rows kRowStep apart swizzle by a constant XOR");
  // kShifted's raw stage: each tile row as the kChunksPerRow + 1 aligned blocks that cover it, then
  // one byte a row, where the row starts in its first block.
  static constexpr int kTileRows = kK ? kRows : Cfg::kBlockK;
  static constexpr int kRawRowBytes = (kChunksPerRow + 1) * kChunkBytes;
  static constexpr int kRawShiftsOffset = kTileRows * kRawRowBytes;
  static constexpr int kRawBytes =
      (kRawShiftsOffset + kTileRows + kChunkBytes - 1) / kChunkBytes * kChunkBytes;

  const S* base;  // the operand's first element (kVector: the source of zero-byte copies)
  const S* src;   // this thread's first chunk of the next k-tile to copy
  int64_t step;   // elements between its rows
  uint32_t dst;   // shared-memory offset of its first chunk in a tile
  uint32_t raw;   // kShifted: shared-memory offset of its first block in a raw stage
  int row;        // its first row and its chunk column
  int chunk;
  uintptr_t end;  // kShifted: the byte after the matrix's last element (as stored)
  int mn_left;    // k-contiguous: rows of the matrix from its first row on;
                  // m/n-contiguous: elements of the matrix from its chunk on, clamped to
                  // 0..kChunkElems (kVector) or -kChunkElems..2 kChunkElems (kShifted: its block
                  // and the next)
  int k_left;     // k-contiguous: elements of k from its chunk on; m/n-contiguous: k rows from its
                  // first row on (both in the next k-tile to copy)

  __device__ static uint32_t offset(int row, int chunk) {
    if constexpr (kK) {
      return k_contiguous_offset(row, chunk);
    } else {
      return mn_contiguous_offset<T, kRowBytes>(row, chunk);
    }
  }

  __device__ TileCopier(const S* base_, int64_t ld, int mn0, int mn_extent, int k_extent)
      : base(base_),
        step(ld * kRowStep),
        row(int(threadIdx.x) / kChunksPerRow),
        chunk(int(threadIdx.x) % kChunksPerRow) {
    dst = offset(row, chunk);
    raw = uint32_t(row * kRawRowBytes + chunk * kChunkBytes);
    if constexpr (kShifted) {
      end = reinterpret_cast<uintptr_t>(base + (kK ? int64_t(mn_extent - 1) * ld + k_extent
                                                   : int64_t(k_extent - 1) * ld + mn_extent));
    }
    if constexpr (kK) {
      src = base + (int64_t(mn0 + row) * ld + chunk * Cfg::kChunkElems);
      mn_left = mn_extent - mn0 - row;
      k_left = k_extent - chunk * Cfg::kChunkElems;
    } else {
      const int mn = mn0 + chunk * Cfg::kChunkElems;
      src = base + (int64_t(row) * ld + mn);
      mn_left = kShifted ? min(max(mn_extent - mn, -Cfg::kChunkElems), 2 * Cfg::kChunkElems)
                         : min(max(mn_extent - mn, 0), Cfg::kChunkElems);
      k_left = k_extent - row;
    }
  }

  // Where its chunk of row i kRowStep lies in the tile at `tile`.
  __device__ uint32_t tile_chunk(uint32_t tile, int i) const {
    const uint32_t row_offset = uint32_t(i * kRowStep * kRowBytes);
    return ((tile + dst) ^ (offset(i * kRowStep, 0) - row_offset)) + row_offset;
  }

  // Whether the 16-byte block at `block` reaches past the matrix's last element.
  __device__ bool reaches_past_end(const unsigned char* block) const {
    return reinterpret_cast<uintptr_t>(block) + kChunkBytes > end;
  }

  // kShifted: the 16-byte block at `block` into the raw stage at `to`, its first `bytes` read (none
  // where bytes <= 0), the rest zero-filled. A block that reaches past the matrix's last element
  // is read element by element instead (that copy waits for its loads; only blocks within 16
  // bytes of the matrix's end): an asynchronous copy's whole 16 bytes are checked against the
  // allocation (compute-sanitizer), and the matrix may end it.
  __device__ void copy_block(uint32_t to, const unsigned char* block, int bytes) const {
    if (bytes <= 0) {
      sts128(to, make_uint4(0, 0, 0, 0));
    } else if (bytes < kChunkBytes && reaches_past_end(block)) {
      uint16_t e[kChunkBytes / 2];
#pragma unroll
      for (int j = 0; j < kChunkBytes / 2; ++j)
        e[j] = 2 * j < bytes ? reinterpret_cast<const uint16_t*>(block)[j] : uint16_t(0);
      uint4 v;
      memcpy(&v, e, sizeof v);
      sts128(to, v);
    } else {
      cp_async_16(to, block, min(bytes, kChunkBytes));
    }
  }

  // Copies the next k-tile into the tile (kVector) or the raw stage (kShifted) at `stage`; rows and
  // k past the matrix are zero-filled.
  __device__ void copy_next(uint32_t stage) {
    const S* p = src;
#pragma unroll
    for (int i = 0; i < kCopies; ++i) {
      const bool row_inside = i * kRowStep < (kK ? mn_left : k_left);
      if constexpr (!kShifted) {
        const int valid = row_inside ? (kK ? min(max(k_left, 0), Cfg::kChunkElems) : mn_left) : 0;
        cp_async_16(tile_chunk(stage, i), valid > 0 ? p : base, valid * Cfg::kBytes);
      } else {
        // Elements of the row inside the matrix from the chunk on, as far as its two blocks go.
        const int left = !row_inside ? -Cfg::kChunkElems
                         : kK        ? min(max(k_left, -Cfg::kChunkElems), 2 * Cfg::kChunkElems)
                                     : mn_left;
        const int shift = int(reinterpret_cast<uintptr_t>(p) % kChunkBytes);
        const unsigned char* const block = reinterpret_cast<const unsigned char*>(p) - shift;
        const int bytes = left * Cfg::kBytes + shift;  // of its block and the next
        const uint32_t to = stage + raw + uint32_t(i * kRowStep * kRawRowBytes);
        copy_block(to, block, bytes);
        if (chunk == kChunksPerRow - 1)
          copy_block(to + kChunkBytes, block + kChunkBytes, bytes - kChunkBytes);
        if (chunk == 0) sts_u8(stage + kRawShiftsOffset + uint32_t(row + i * kRowStep), shift);
      }
      p += step;
    }
    // k-contiguous: the next k-tile starts kBlockK further along the rows; m/n-contiguous: the
    // walk has just passed this tile's kBlockK rows.
    src = kK ? src + Cfg::kBlockK : p;
    k_left -= Cfg::kBlockK;
  }

  // kShifted: its chunks of the k-tile in the raw stage at `raw_stage`, shifted into place in the
  // tile at `tile`. The raw stage must have landed (every thread's copies) and be visible.
  __device__ void shift_into(uint32_t raw_stage, uint32_t tile) const {
    static_assert(kShifted, "only shifted loads pass through a raw stage");
#pragma unroll
    for (int i = 0; i < kCopies; ++i) {
      const uint32_t from = raw_stage + raw + uint32_t(i * kRowStep * kRawRowBytes);
      uint32_t lo[4], hi[4];
      lds128(lo, from);
      lds128(hi, from + kChunkBytes);
      const int shift = int(lds_u8(raw_stage + kRawShiftsOffset + uint32_t(row + i * kRowStep)));
      sts128(tile_chunk(tile, i), ptx::bytes_at(make_uint4(lo[0], lo[1], lo[2], lo[3]),
                                                make_uint4(hi[0], hi[1], hi[2], hi[3]), shift));
    }
  }
};

// One operand's MMA fragments from its shared-memory tiles, as one lane reads them. `lane` holds
// what depends on the lane (computed once); each fragment address is then the tile plus
// lane XOR a constant plus a constant. kMnHalfBit / kKHalfBit: which bit of the lane's quad
// (lane / 8) selects the upper 8 rows (m or n) / the upper 8 k of an ldmatrix.x4 (A: matrices
// a0..a3 = (mn 0-7, k 0-7), (mn 8-15, k 0-7), (mn 0-7, k 8-15), (mn 8-15, k 8-15); B: b0, b1 of
// n-tile j, then of n-tile j + 1).
template <class T, class Cfg, Layout kLayout, int kRows, int kMnHalfBit, int kKHalfBit>
struct FragmentReader {
  static constexpr int kRowBytes =
      kLayout == Layout::kKContiguous ? kKRowBytes : kRows * Cfg::kBytes;
  uint32_t lane;

  __device__ FragmentReader(int warp_mn0, int lane_id) {
    const int quad = lane_id >> 3, r = lane_id & 7;
    const int mn_half = (quad >> kMnHalfBit) & 1, k_half = (quad >> kKHalfBit) & 1;
    if constexpr (kPermuted<T, kLayout>) {
      const int g = lane_id >> 2, q = lane_id & 3;
      lane = mn_contiguous_offset<T, kRowBytes>(q, (warp_mn0 + 8 * g) / Cfg::kChunkElems);
    } else if constexpr (kLayout == Layout::kKContiguous) {
      lane = k_contiguous_offset(warp_mn0 + mn_half * 8 + r, k_half);
    } else {
      lane =
          mn_contiguous_offset<T, kRowBytes>(k_half * 8 + r, warp_mn0 / Cfg::kChunkElems + mn_half);
    }
  }

  // ldmatrix(.trans).x4 of the 16 x 16-byte block of m16 tile (or n8 tile pair) `t` at k-step kk.
  __device__ void ldmatrix(uint32_t (&r)[4], uint32_t tile, int t, int kk) const {
    static_assert(!kPermuted<T, kLayout>, "permuted fp32 tiles are read with 16-byte loads");
    if constexpr (kLayout == Layout::kKContiguous) {
      // k-step kk is chunks 2 kk, 2 kk + 1 of each row: chunk ^ 2 kk (the swizzle is an XOR).
      ldmatrix_x4(r, ((tile + lane) ^ uint32_t(kk << 5)) + uint32_t(t * 16 * kRowBytes));
    } else {
      // tile t is chunks 2 t, 2 t + 1 of each k row.
      ldmatrix_x4_trans(r,
                        ((tile + lane) ^ uint32_t(t << 5)) + uint32_t(kk * T::kMmaK * kRowBytes));
    }
  }

  // Permuted fp32 tiles: the 16 bytes at rows (mn) 8 g + 4 half .. + 3 of k row q + 4 h, k-step kk.
  __device__ void lds(uint32_t (&r)[4], uint32_t tile, int half, int h, int kk) const {
    static_assert(kPermuted<T, kLayout>, "only permuted fp32 tiles are read this way");
    // Row q + 4 h swizzles as row q XOR (chunk ^ 2 h); half is the chunk's low bit.
    lds128(r, ((tile + lane) ^ uint32_t((half ^ (2 * h)) << 4)) +
                  uint32_t((kk * T::kMmaK + 4 * h) * kRowBytes));
  }
};

// A fragments of MMA k-step `kk` for half `kHalf` (0 or 1) of the warp's m16 tiles.
template <class T, class Cfg, Layout kLayout, int kHalf, class Reader>
__device__ void load_a_half(uint32_t (&a)[Cfg::kMmaTilesM][4], const Reader& reader, uint32_t tile,
                            int kk) {
  constexpr int kTiles = Cfg::kMmaTilesM / 2;
  if constexpr (kPermuted<T, kLayout>) {
    // Lane (g, q) = (lane / 4, lane % 4) reads warp rows 8 g + 4 kHalf .. + 3 at k rows q and
    // q + 4: a0, a1 (k = q) and a2, a3 (k = q + 4) of MMA rows g and g + 8 of m16 tiles 2 kHalf
    // and 2 kHalf + 1.
    static_assert(Cfg::kMmaTilesM == 4, "8 warp rows per lane group: two 16-byte loads");
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      uint32_t r[4];
      reader.lds(r, tile, kHalf, h, kk);
      a[2 * kHalf][2 * h] = r[0];
      a[2 * kHalf][2 * h + 1] = r[1];
      a[2 * kHalf + 1][2 * h] = r[2];
      a[2 * kHalf + 1][2 * h + 1] = r[3];
    }
  } else {
#pragma unroll
    for (int i = kHalf * kTiles; i < (kHalf + 1) * kTiles; ++i) reader.ldmatrix(a[i], tile, i, kk);
  }
#pragma unroll
  for (int i = kHalf * kTiles; i < (kHalf + 1) * kTiles; ++i) {
#pragma unroll
    for (int r = 0; r < 4; ++r) a[i][r] = T::to_operand(a[i][r]);
  }
}

// B fragments of MMA k-step `kk` for half `kHalf` (0 or 1) of the warp's n8 tiles.
template <class T, class Cfg, Layout kLayout, int kHalf, class Reader>
__device__ void load_b_half(uint32_t (&b)[Cfg::kMmaTilesN][2], const Reader& reader, uint32_t tile,
                            int kk) {
  constexpr int kTiles = Cfg::kMmaTilesN / 2;
  if constexpr (kPermuted<T, kLayout>) {
    // Lane (g, q) reads warp columns 8 g + 4 kHalf .. + 3 at k rows q (b0) and q + 4 (b1): MMA
    // column g of n8 tiles 4 kHalf .. 4 kHalf + 3.
    static_assert(Cfg::kMmaTilesN == 8, "8 warp columns per lane group: two 16-byte loads");
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      uint32_t r[4];
      reader.lds(r, tile, kHalf, h, kk);
#pragma unroll
      for (int e = 0; e < 4; ++e) b[4 * kHalf + e][h] = r[e];
    }
  } else {
#pragma unroll
    for (int j = kHalf * kTiles; j < (kHalf + 1) * kTiles; j += 2) {
      uint32_t r[4];
      reader.ldmatrix(r, tile, j / 2, kk);
      b[j][0] = r[0];
      b[j][1] = r[1];
      b[j + 1][0] = r[2];
      b[j + 1][1] = r[3];
    }
  }
#pragma unroll
  for (int j = kHalf * kTiles; j < (kHalf + 1) * kTiles; ++j) {
    b[j][0] = T::to_operand(b[j][0]);
    b[j][1] = T::to_operand(b[j][1]);
  }
}

// Where n8 tile j's column c (0..7) lies in the warp tile. (Rows: MMA tile i's row r is warp row
// 16 i + r, or 8 (r % 8) + 2 i + r / 8 when permuted; the epilogue writes each case itself.)
template <class T, Layout kBLayout>
__device__ int warp_col(int j, int c) {
  if constexpr (kPermuted<T, kBLayout>) return 8 * c + j;
  return 8 * j + c;
}

template <class T, class Cfg, Layout kLayout, int kRows, Loads kLoads>
constexpr int raw_bytes() {
  return TileCopier<T, Cfg, kLayout, kRows, kLoads>::kRawBytes;
}
// Shared memory: kStages tiles (kVector), or two tiles and kStages raw stages (kShifted).
template <class T, class Cfg, Layout kALayout, Layout kBLayout, Loads kLoads>
constexpr int smem_bytes() {
  if constexpr (kLoads == Loads::kVector) {
    return Cfg::kStages * Cfg::kStageBytes;
  } else {
    return 2 * Cfg::kStageBytes +
           Cfg::kStages * (raw_bytes<T, Cfg, kALayout, Cfg::kBlockM, kLoads>() +
                           raw_bytes<T, Cfg, kBLayout, Cfg::kBlockN, kLoads>());
  }
}
template <class T, class Cfg, Loads kLoads>
constexpr int max_smem_bytes() {
  constexpr Layout kK = Layout::kKContiguous, kMN = Layout::kMNContiguous;
  return std::max({smem_bytes<T, Cfg, kK, kK, kLoads>(), smem_bytes<T, Cfg, kK, kMN, kLoads>(),
                   smem_bytes<T, Cfg, kMN, kK, kLoads>(), smem_bytes<T, Cfg, kMN, kMN, kLoads>()});
}

// Main loop: the fragments of the next MMA k-step are loaded into the registers of the current
// one as soon as these are dead (A's first half after the first half of the MMA rows, B and A's
// second half during the last MMA row), so shared-memory latency hides behind MMAs without a
// second set of fragment registers. The barrier of k-tile kt sits in its last k-step, before the
// loads of k-tile kt + 1's first fragments. After it:
// - kVector: k-tile kt's stage is refilled (k-tile kt + kStages);
// - kShifted: k-tile kt + 2, landed in its raw stage, is shifted into k-tile kt's tile (the two
//   tiles alternate), and k-tile kt's raw stage, shifted two k-tiles ago, is refilled (k-tile
//   kt + kStages). The barrier of k-tile kt + 1 orders the shifted tile before its fragments are
//   read, so one barrier a k-tile serves both.
template <class T, class Cfg, Layout kALayout, Layout kBLayout, Loads kLoads>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kBlocksPerSm) gemm_mma_kernel(Args args) {
  extern __shared__ __align__(128) unsigned char smem[];
  using S = typename T::Storage;
  constexpr int kBlockM = Cfg::kBlockM, kBlockN = Cfg::kBlockN, kBlockK = Cfg::kBlockK;
  constexpr int kStages = Cfg::kStages;
  constexpr int kTilesM = Cfg::kMmaTilesM, kTilesN = Cfg::kMmaTilesN;
  constexpr bool kShifted = kLoads == Loads::kShifted;
  static_assert(!kShifted || kStages >= 3, "k-tile kt + 2 lands while kt is computed");

  const int2 origin =
      gemm_device::grouped_tile_origin(args.m, args.n, kBlockM, kBlockN, Cfg::kRasterGroup);
  const int m0 = origin.x, n0 = origin.y;

  const int lane = int(threadIdx.x) % 32;
  const int warp = int(threadIdx.x) / 32;
  const int warp_mn = Cfg::kWarpsK == 1 ? warp : warp % Cfg::kWarpsMN;  // its warp tile
  const int warp_k = Cfg::kWarpsK == 1 ? 0 : warp / Cfg::kWarpsMN;      // its first k-step
  const int warp_m0 = (warp_mn % Cfg::kWarpsM) * Cfg::kWarpM;
  const int warp_n0 = (warp_mn / Cfg::kWarpsM) * Cfg::kWarpN;

  using ACopier = TileCopier<T, Cfg, kALayout, kBlockM, kLoads>;
  using BCopier = TileCopier<T, Cfg, kBLayout, kBlockN, kLoads>;
  ACopier a_copier(static_cast<const S*>(args.a), args.lda, m0, args.m, args.k);
  BCopier b_copier(static_cast<const S*>(args.b), args.ldb, n0, args.n, args.k);
  const FragmentReader<T, Cfg, kALayout, kBlockM, 0, 1> a_reader(warp_m0, lane);
  const FragmentReader<T, Cfg, kBLayout, kBlockN, 1, 0> b_reader(warp_n0, lane);
  const uint32_t smem0 = smem_address(smem);
  // alpha == 0 (or k == 0): no k-tiles, A and B are never read.
  const int k_tiles = args.alpha == 0.0f ? 0 : (args.k + kBlockK - 1) / kBlockK;

  // Tiles (A then B): kStages (kVector) or two (kShifted); then kShifted's raw stages.
  auto tile_address = [&](int slot) { return smem0 + uint32_t(slot * Cfg::kStageBytes); };
  constexpr int kRawStageBytes = ACopier::kRawBytes + BCopier::kRawBytes;
  auto raw_address = [&](int slot) {
    return smem0 + uint32_t(2 * Cfg::kStageBytes + slot * kRawStageBytes);
  };
  // Copies the next k-tile (k-tiles are copied in order) into stage `slot`.
  auto load_stage = [&](int slot) {
    if constexpr (kShifted) {
      a_copier.copy_next(raw_address(slot));
      b_copier.copy_next(raw_address(slot) + ACopier::kRawBytes);
    } else {
      a_copier.copy_next(tile_address(slot));
      b_copier.copy_next(tile_address(slot) + Cfg::kATileBytes);
    }
  };
  // kShifted: raw stage `slot` into tile `tile`.
  auto shift_stage = [&](int slot, int tile) {
    if constexpr (kShifted) {
      a_copier.shift_into(raw_address(slot), tile_address(tile));
      b_copier.shift_into(raw_address(slot) + ACopier::kRawBytes,
                          tile_address(tile) + Cfg::kATileBytes);
    }
  };

  float acc[kTilesM][kTilesN][4] = {};
  uint32_t af[kTilesM][4];
  uint32_t bf[kTilesN][2];

  // Fill every stage, wait for k-tile 0 (kShifted: shift k-tiles 0 and 1 into the tiles), load
  // its first k-step's fragments. (With no k-tiles the fragments are loaded from unwritten shared
  // memory and never used.)
#pragma unroll
  for (int s = 0; s < kStages; ++s) {
    if (s < k_tiles) load_stage(s);
    cp_async_commit();
  }
  if constexpr (kShifted) {
    cp_async_wait<kStages - 2>();
    __syncthreads();
    for (int s = 0; s < 2 && s < k_tiles; ++s) shift_stage(s, s);
  } else {
    cp_async_wait<kStages - 1>();
  }
  __syncthreads();
  load_a_half<T, Cfg, kALayout, 0>(af, a_reader, smem0, warp_k);
  load_a_half<T, Cfg, kALayout, 1>(af, a_reader, smem0, warp_k);
  load_b_half<T, Cfg, kBLayout, 0>(bf, b_reader, smem0 + Cfg::kATileBytes, warp_k);
  load_b_half<T, Cfg, kBLayout, 1>(bf, b_reader, smem0 + Cfg::kATileBytes, warp_k);

  int stage = 0;  // k-tile kt's stage (kShifted: its raw stage; its tile is kt % 2)
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int next_stage = stage + 1 == kStages ? 0 : stage + 1;
    // The warp's k-steps of this k-tile: warp_k, warp_k + kWarpsK, ...
    constexpr int kWarpSteps = Cfg::kSteps / Cfg::kWarpsK;
#pragma unroll
    for (int step = 0; step < kWarpSteps; ++step) {
      // Where the next k-step's fragments come from: this tile, or k-tile kt + 1's (after the
      // last k-step of the last k-tile: a tile that is read and never used).
      uint32_t next_a = tile_address(kShifted ? kt & 1 : stage);
      int next_kk = warp_k + (step + 1) * Cfg::kWarpsK;
      if (step == kWarpSteps - 1) {
        if constexpr (kShifted) {
          cp_async_wait<kStages - 3>();  // k-tile kt + 2 has landed (this thread's copies) ...
          __syncthreads();  // ... everyone's; every warp has read its last fragments of k-tile kt
          if (kt + 2 < k_tiles) shift_stage((kt + 2) % kStages, kt & 1);
          next_a = tile_address((kt + 1) & 1);
        } else {
          cp_async_wait<kStages - 2>();  // k-tile kt + 1 has landed (this thread's copies) ...
          __syncthreads();  // ... everyone's; every warp has read its last fragments of k-tile kt
          next_a = tile_address(next_stage);
        }
        if (kt + kStages < k_tiles) load_stage(stage);  // k-tile kt + kStages
        cp_async_commit();
        next_kk = warp_k;
      }
      const uint32_t next_b = next_a + Cfg::kATileBytes;
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        if (i < kTilesM - 1) {
#pragma unroll
          for (int j = 0; j < kTilesN; ++j) T::mma(acc[i][j], af[i], bf[j]);
          if (i == kTilesM / 2 - 1) load_a_half<T, Cfg, kALayout, 0>(af, a_reader, next_a, next_kk);
        } else {
#pragma unroll
          for (int j = 0; j < kTilesN / 2; ++j) T::mma(acc[i][j], af[i], bf[j]);
          load_b_half<T, Cfg, kBLayout, 0>(bf, b_reader, next_b, next_kk);
#pragma unroll
          for (int j = kTilesN / 2; j < kTilesN; ++j) T::mma(acc[i][j], af[i], bf[j]);
          load_b_half<T, Cfg, kBLayout, 1>(bf, b_reader, next_b, next_kk);
          load_a_half<T, Cfg, kALayout, 1>(af, a_reader, next_a, next_kk);
        }
      }
    }
    stage = next_stage;
  }

  // The warps of a warp tile add their sums: each warp past the first of its tile leaves its
  // accumulators in shared memory (the tiles' and raw stages' space, free once every copy has
  // landed and every warp has read its last fragments), the first adds them in order and stores.
  if constexpr (Cfg::kWarpsK > 1) {
    constexpr int kAcc = kTilesM * kTilesN * 4;
    constexpr int kTileThreads = Cfg::kWarpsMN * 32;
    static_assert((Cfg::kWarpsK - 1) * kAcc * kTileThreads * 4 <=
                      smem_bytes<T, Cfg, kALayout, kBLayout, kLoads>(),
                  "the sums fit the pipeline's shared memory");
    float* const sums = reinterpret_cast<float*>(smem);
    const int slot = warp_mn * 32 + lane;
    // Calls f(e, accumulator e) for e = (i kTilesN + j) 4 + r over this thread's accumulators.
    auto each = [&](auto&& f) {
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
#pragma unroll
          for (int r = 0; r < 4; ++r) f((i * kTilesN + j) * 4 + r, acc[i][j][r]);
    };
    cp_async_wait<0>();
    __syncthreads();
    if (warp_k > 0) {
      each([&](int e, float& v) { sums[((warp_k - 1) * kAcc + e) * kTileThreads + slot] = v; });
    }
    __syncthreads();
    if (warp_k > 0) return;
#pragma unroll
    for (int g = 0; g < Cfg::kWarpsK - 1; ++g) {
      each([&](int e, float& v) { v += sums[(g * kAcc + e) * kTileThreads + slot]; });
    }
  }

  // Epilogue: accumulator r of MMA tile (i, j) holds C(row, col) below (mma.sync's C layout).
  const int g = lane >> 2, q = lane & 3;
  if constexpr (kPermuted<T, kALayout>) {
    // Permuted rows: a lane holds warp rows 8 g .. 8 g + 7 of each of its columns (MMA tile i,
    // accumulator r: row 8 g + 2 i + r / 2). Stored as two groups of 4 consecutive rows, with one
    // 16-byte access where C allows it: a lane per 8 rows would otherwise leave 8 partial
    // 32-byte sectors per column and store.
    static_assert(T::kDataType == DataType::kF32 && kTilesM == 4, "fp32 C, 8 rows a lane");
    const bool c_vectors =
        reinterpret_cast<uintptr_t>(args.c) % 16 == 0 && args.ldc % 4 == 0 && args.m % 4 == 0;
    float* c = static_cast<float*>(args.c);
#pragma unroll
    for (int j = 0; j < kTilesN; ++j) {
#pragma unroll
      for (int cc = 0; cc < 2; ++cc) {
        const int col = n0 + warp_n0 + warp_col<T, kBLayout>(j, q * 2 + cc);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int row = m0 + warp_m0 + 8 * g + 4 * h;
          if (col >= args.n || row >= args.m) continue;
          const float v[4] = {acc[2 * h][j][cc], acc[2 * h][j][cc + 2], acc[2 * h + 1][j][cc],
                              acc[2 * h + 1][j][cc + 2]};
          float* at = c + (row + int64_t(col) * args.ldc);
          if (c_vectors) {  // m % 4 == 0: all 4 rows inside
            float4 out = make_float4(args.alpha * v[0], args.alpha * v[1], args.alpha * v[2],
                                     args.alpha * v[3]);
            if (args.beta != 0.0f) {
              const float4 old = *reinterpret_cast<const float4*>(at);
              out = make_float4(fmaf(args.beta, old.x, out.x), fmaf(args.beta, old.y, out.y),
                                fmaf(args.beta, old.z, out.z), fmaf(args.beta, old.w, out.w));
            }
            *reinterpret_cast<float4*>(at) = out;
          } else {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              if (row + e >= args.m) break;
              float out = args.alpha * v[e];
              if (args.beta != 0.0f) out = fmaf(args.beta, at[e], out);
              at[e] = out;
            }
          }
        }
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
      for (int j = 0; j < kTilesN; ++j) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const int row = m0 + warp_m0 + 16 * i + g + (r >> 1) * 8;
          const int col = n0 + warp_n0 + warp_col<T, kBLayout>(j, q * 2 + (r & 1));
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
}

// ---- Host side ----------------------------------------------------------------------------------

template <class T, class Cfg, Layout kALayout, Layout kBLayout, Loads kLoads>
cudaError_t launch_layouts(const Args& args, cudaStream_t stream) {
  auto kernel = gemm_mma_kernel<T, Cfg, kALayout, kBLayout, kLoads>;
  constexpr int kSmem = smem_bytes<T, Cfg, kALayout, kBLayout, kLoads>();
  cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
  // All of L1 as shared memory, so kBlocksPerSm blocks fit (A and B bypass L1: cp.async.cg).
  if (err == cudaSuccess)
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
  if (err != cudaSuccess) return err;
  const int64_t tiles = ((args.m + Cfg::kBlockM - 1) / Cfg::kBlockM) *
                        int64_t((args.n + Cfg::kBlockN - 1) / Cfg::kBlockN);
  kernel<<<unsigned(tiles), Cfg::kThreads, kSmem, stream>>>(args);
  return cudaGetLastError();
}

template <class T, class Cfg, Loads kLoads>
cudaError_t launch_problem(const Problem& p, cudaStream_t stream) {
  const Args args{
      int(p.m), int(p.n), int(p.k), float(p.alpha.re), float(p.beta.re), p.a, p.lda, p.b,
      p.ldb,    p.c,      p.ldc,    p.c_type};
  constexpr Layout kK = Layout::kKContiguous, kMN = Layout::kMNContiguous;
  // A as stored is m-contiguous unless transposed; B is k-contiguous unless transposed.
  const bool a_k = p.trans_a == Op::kTrans;
  const bool b_k = p.trans_b == Op::kNoTrans;
  if (a_k && b_k) return launch_layouts<T, Cfg, kK, kK, kLoads>(args, stream);
  if (a_k) return launch_layouts<T, Cfg, kK, kMN, kLoads>(args, stream);
  if (b_k) return launch_layouts<T, Cfg, kMN, kK, kLoads>(args, stream);
  return launch_layouts<T, Cfg, kMN, kMN, kLoads>(args, stream);
}

template <class T, class Cfg, Loads kLoads>
bool supports_problem(const Problem& p, const DeviceCaps& caps) {
  if (p.type != T::kDataType) return false;
  if (!problem_fits(p, Cfg::kBlockM, Cfg::kBlockN)) return false;
  if (caps.sm_version < 80 || caps.smem_per_block_optin < size_t(max_smem_bytes<T, Cfg, kLoads>()))
    return false;
  const size_t elem = sizeof(typename T::Storage);
  if (!aligned_to(p.a, elem) || !aligned_to(p.b, elem) || !aligned_to(p.c, size_of(p.c_type)))
    return false;
  if constexpr (kLoads == Loads::kVector) {
    if (!aligned_to(p.a, kChunkBytes) || !aligned_to(p.b, kChunkBytes)) return false;
    if (p.lda % Cfg::kChunkElems != 0 || p.ldb % Cfg::kChunkElems != 0) return false;
  }
  return true;
}

// 128 x 128: 4 warps (2 x 2) of 64 x 64, two blocks per SM (up to 255 registers a thread), 4
// stages of 64-byte rows: k-tile 32 (16-bit) or 16 (TF32), 64 KiB of shared memory. A k-tile of 64
// (3 stages, 96 KiB) ran at the same speed (NN) or slower, at 255 registers; TF32 with k-tile 32
// was slower (NN), with spills. Measured on an H200 (docs/NOTES-tensorcore.md).
using ConfigF16 = Config<TypeF16, 128, 128, 32, 64, 64, 4, 2>;
using ConfigBF16 = Config<TypeBF16, 128, 128, 32, 64, 64, 4, 2>;
using ConfigTF32 = Config<TypeTF32, 128, 128, 16, 64, 64, 4, 2>;
// The same tiles with shifted loads: 3 raw stages (up to 93 KiB with the two tiles), so that two
// blocks fit an SM.
using ConfigF16Shifted = Config<TypeF16, 128, 128, 32, 64, 64, 3, 2>;
using ConfigBF16Shifted = Config<TypeBF16, 128, 128, 32, 64, 64, 3, 2>;
using ConfigTF32Shifted = Config<TypeTF32, 128, 128, 16, 64, 64, 3, 2>;
// 64 x 64 with shifted loads, for operands the wgmma rows would first copy into aligned columns
// (kernels/realign.h): 4 warps (2 x 2) of 32 x 32, 8 raw stages (k-tiles kt + 2 .. kt + 7 in
// flight while kt is computed; up to 97 KiB), two blocks per SM. One pass over the operands as
// they lie, where a small or narrow GEMM would spend as long on that copy as on the product.
using ConfigF16Shifted64 = Config<TypeF16, 64, 64, 32, 32, 32, 8, 2, 2>;
using ConfigBF16Shifted64 = Config<TypeBF16, 64, 64, 32, 32, 32, 8, 2, 2>;

}  // namespace

#define TILEBLAS_GEMM_MMA_ROW(name, T, Cfg, loads)                   \
  bool supports_##name(const Problem& p, const DeviceCaps& caps) {   \
    return supports_problem<T, Cfg, Loads::loads>(p, caps);          \
  }                                                                  \
  cudaError_t launch_##name(const Problem& p, cudaStream_t stream) { \
    return launch_problem<T, Cfg, Loads::loads>(p, stream);          \
  }
TILEBLAS_GEMM_MMA_ROW(f16_128x128x32, TypeF16, ConfigF16, kVector)
TILEBLAS_GEMM_MMA_ROW(bf16_128x128x32, TypeBF16, ConfigBF16, kVector)
TILEBLAS_GEMM_MMA_ROW(tf32_128x128x16, TypeTF32, ConfigTF32, kVector)
TILEBLAS_GEMM_MMA_ROW(f16_shifted_128x128x32, TypeF16, ConfigF16Shifted, kShifted)
TILEBLAS_GEMM_MMA_ROW(bf16_shifted_128x128x32, TypeBF16, ConfigBF16Shifted, kShifted)
TILEBLAS_GEMM_MMA_ROW(tf32_shifted_128x128x16, TypeTF32, ConfigTF32Shifted, kShifted)
TILEBLAS_GEMM_MMA_ROW(f16_shifted_64x64x32, TypeF16, ConfigF16Shifted64, kShifted)
TILEBLAS_GEMM_MMA_ROW(bf16_shifted_64x64x32, TypeBF16, ConfigBF16Shifted64, kShifted)
#undef TILEBLAS_GEMM_MMA_ROW

}  // namespace tileblas::gemm_mma
