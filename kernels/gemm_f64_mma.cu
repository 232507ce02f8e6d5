// gemm_f64_mma: FP64 tensor-core GEMM, real and complex. The contract (formula, storage, tiling,
// edges, alignment) is at the top of gemm_f64_mma.h.
#include "gemm_f64_mma.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include "cluster.cuh"
#include "cp_async.cuh"
#include "gemm_device_common.cuh"
#include "splitk.h"
#include "splitk_sum.cuh"
#include "widen.h"

namespace tileblas::gemm_f64_mma {

namespace {

using gemm_device::aligned_to;

struct Args {
  int m, n, k;
  double alpha_re, alpha_im, beta_re, beta_im;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  void* c;
  int64_t ldc;
  // XOR-ed into the high word of the imaginary parts of A's (B's) elements: 0x80000000 where op()
  // conjugates, else 0 (always 0 for real data).
  uint32_t conj_a, conj_b;
  Triangle triangle;  // Problem::c_triangle
  // Problem::a_nonzero, b_nonzero: a block multiplies only the k-tiles its tile needs.
  Triangle a_nonzero, b_nonzero;
  // Slices and batches along blockIdx.y = batch * k_slices + slice. Split-K (kernels/splitk.h):
  // the blocks of slice s multiply k from s * k_slice on (k_slice a whole number of k-tiles).
  // Batches (the 3M rows): the blocks of batch b read A from a + b * a_batch elements and B from
  // b + b * b_batch. Every block writes its tile to c + blockIdx.y * c_slice doubles. Without
  // either: one slice of k_slice = k, one batch, c_slice = 0.
  int k_slice, k_slices;
  int64_t c_slice, a_batch, b_batch;
};

// How an operand tile lies in global (and shared) memory: k-contiguous (A transposed, B not) or
// m/n-contiguous (A not transposed, B transposed).
enum class Layout { kKContiguous, kMNContiguous };

constexpr int kChunkBytes = 16;  // one cp.async, one fragment load

// ---- Element types ------------------------------------------------------------------------------
// The bytes of an operand element, C's real type, and the XOR swizzles (of the 16-byte chunk index,
// by the tile row) that keep the fragment loads of each layout free of bank conflicts. A 16-byte
// load is served a quarter warp (8 lanes: g = 2 q', 2 q' + 1, q = 0..3) at a time; the 8 chunks
// those lanes read must lie in 8 distinct 16-byte bank groups (chunk index mod 8 after the
// swizzle).

struct TypeF64 {
  static constexpr bool kComplex = false;
  static constexpr bool kSingleA = false;  // see WideningType
  static constexpr bool kSingleB = false;
  static constexpr int kBytes = 8;
  static constexpr int kSingleBytes = 4;  // an element in single precision (SingleCopier)
  static constexpr DataType kDataType = DataType::kF64;
  using CReal = double;
  // k-contiguous rows (m or n) of 8 chunks: lanes read chunk q of rows 2g (+1): rows 2g and
  // 2g + 2 of a quarter warp differ in bit 1, which flips chunk bit 2.
  __device__ static uint32_t k_swizzle(int row) { return uint32_t((row >> 1) & 1) << 2; }
  // m/n-contiguous rows (k): lanes read chunk g of k rows 2q (+1): XOR with 2q.
  __device__ static uint32_t mn_swizzle(int row) { return uint32_t(row & 6); }
  // Paired tile rows (stored_paired: 16 or more chunks): A's lanes read chunk 8s + 2q + r of tile
  // rows g (g = 2q', 2q' + 1: bit 0 differs), B's chunk 16 tile + 2g + r of tile rows q (bits 0
  // and 1 differ; chunk bit 1 is g's bit 0): row bit 0 flips chunk bit 0, row bit 1 chunk bit 2.
  __device__ static uint32_t paired_swizzle(int row) {
    return uint32_t(row & 1) | (uint32_t(row & 2) << 1);
  }
};

struct TypeC64 {
  static constexpr bool kComplex = true;
  static constexpr bool kSingleA = false;
  static constexpr bool kSingleB = false;
  static constexpr int kBytes = 16;
  static constexpr int kSingleBytes = 8;
  static constexpr DataType kDataType = DataType::kC64;
  using CReal = double;
  // k-contiguous rows of 8 chunks: lanes read chunk q (+4) of rows g (+8): odd rows flip bit 2.
  __device__ static uint32_t k_swizzle(int row) { return uint32_t(row & 1) << 2; }
  // m/n-contiguous rows: lanes read chunk g (+8) of k rows q (+4): XOR with 2q.
  __device__ static uint32_t mn_swizzle(int row) { return uint32_t(row & 3) << 1; }
};

// An element type of the rows that compute single precision in double: Base's tiles and
// fragments, C's real type CRealT (float: the epilogue rounds into C once; double: split-K's fp64
// partials, which splitk::reduce rounds), and the operand read in single precision as it lies, if
// any (kA: A, m-contiguous, in SingleCopier's tile, read by SingleAReader or SingleComplexAReader;
// kB: B, k-contiguous, read by SingleBReader), each of its fragment elements converted (exactly) as
// it is loaded. The other operand is widened into a workspace first.
template <class Base, class CRealT, bool kA = false, bool kB = false>
struct WideningType : Base {
  using CReal = CRealT;
  static constexpr bool kSingleA = kA, kSingleB = kB;
};
// cgemm_widened: A and B widened to complex fp64, C complex fp32.
using TypeC64IntoC32 = WideningType<TypeC64, float>;
// sgemm_widened: A and B widened to fp64, C fp32.
using TypeF64IntoF32 = WideningType<TypeF64, float>;
// sgemm_widened_b: fp32 A read as it lies, B widened (the tiles of its configurations; the
// launch picks C's type, launch_sgemm_widened_one()).
using TypeF32AF64B = WideningType<TypeF64, double, true>;
// cgemm_widened_b: complex fp32 A read as it lies, B widened (as stored).
using TypeC32AC64BIntoC32 = WideningType<TypeC64, float, true>;
// sgemm_widened_a: fp32 B read as it lies, A widened (as sgemm_widened_b's).
using TypeF64AF32B = WideningType<TypeF64, double, false, true>;

// ---- PTX wrappers -------------------------------------------------------------------------------

using ptx::cp_async_16;
using ptx::cp_async_8;
using ptx::cp_async_commit;
using ptx::cp_async_wait;
using ptx::smem_address;

__device__ __forceinline__ void lds_f64x2(double& x, double& y, uint32_t addr) {
  asm volatile("ld.shared.v2.f64 {%0,%1}, [%2];" : "=d"(x), "=d"(y) : "r"(addr));
}

// d += a * b for one m16n8k8 fp64 tile. Fragments (g = lane / 4, q = lane % 4):
//   a[v0 + 2 v1] = A(g + 8 v0, q + 4 v1),  b[v] = B(q + 4 v, g),  d[v0 + 2 v1] = D(g + 8 v1, 2q +
//   v0).
// sm_80 has only m8n8k4: the same tile as its four (m half, k half) parts.
__device__ __forceinline__ void mma_f64(double (&d)[4], const double (&a)[4],
                                        const double (&b)[2]) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#else
#pragma unroll
  for (int h = 0; h < 2; ++h) {
#pragma unroll
    for (int kh = 0; kh < 2; ++kh) {
      asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                   : "+d"(d[2 * h]), "+d"(d[2 * h + 1])
                   : "d"(a[h + 2 * kh]), "d"(b[kh]));
    }
  }
#endif
}

// x with its sign bit XOR-ed with bit 31 of `mask` (negation where mask = 0x80000000).
__device__ __forceinline__ double flip_sign(double x, uint32_t mask) {
  return __longlong_as_double(__double_as_longlong(x) ^ (static_cast<long long>(mask) << 32));
}

// ---- Configuration ------------------------------------------------------------------------------

template <class T, int kBlockM_, int kBlockN_, int kBlockK_, int kWarpM_, int kWarpN_, int kStages_,
          int kBlocksPerSm_>
struct Config {
  static constexpr int kBlockM = kBlockM_, kBlockN = kBlockN_, kBlockK = kBlockK_;
  static constexpr int kWarpM = kWarpM_, kWarpN = kWarpN_, kStages = kStages_;
  static constexpr int kBlocksPerSm = kBlocksPerSm_;  // launch bounds: registers for this many
  static constexpr int kWarpsM = kBlockM / kWarpM, kWarpsN = kBlockN / kWarpN;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kTilesM = kWarpM / 16, kTilesN = kWarpN / 8;  // MMA tiles of a warp
  static constexpr int kSteps = kBlockK / 8;                         // MMA k-steps of a k-tile
  // A single-precision tile's rows (SingleCopier): `elems` elements padded by 16 bytes (real) or
  // 32 (complex), which spreads a fragment load's four rows over the banks (the readers below).
  static constexpr int single_row_bytes(int elems) {
    return elems * T::kSingleBytes + 4 * T::kSingleBytes;
  }
  // A's tile: fp32 rows of k (T::kSingleA), or as stored.
  static constexpr int kATileBytes =
      T::kSingleA ? kBlockK * single_row_bytes(kBlockM) : kBlockM * kBlockK * T::kBytes;
  // B's tile: fp32 columns of B (T::kSingleB), or as stored.
  static constexpr int kBTileBytes =
      T::kSingleB ? kBlockN * single_row_bytes(kBlockK) : kBlockN * kBlockK * T::kBytes;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kSmemBytes = kStages * kStageBytes;
  static constexpr int kRasterGroup = 8;

  static_assert(kBlockM % kWarpM == 0 && kBlockN % kWarpN == 0, "warps tile the block exactly");
  static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0,
                "whole m16 tiles, and n8 tiles in pairs (dgemm reads two n8 tiles a load)");
  static_assert(kBlockK * T::kBytes == 128,
                "k-contiguous tile rows are 8 chunks: the swizzles permute one group of 8");
  static_assert(!T::kComplex || kSteps == 1, "zgemm fragment addressing assumes one k-step");
  static_assert(kStages >= 3,
                "k-tile kt + kStages - 1 is copied during k-tile kt, into the stage of kt - 1");
};

// ---- Global -> shared copies --------------------------------------------------------------------

enum class Operand { kA, kB };

// Whether an operand tile is stored paired in shared memory. A 16-byte chunk as the tile lies in
// global memory holds two consecutive elements of one matrix row (m/n for k-contiguous, k for
// m/n-contiguous). A dgemm fragment register pair wants two m/n rows at one k for A, and two k at
// one column for B: as stored, k-contiguous A and m/n-contiguous B tiles give the wrong pairs, and
// the compiler reorders them with register moves. Those tiles are stored paired: chunk c of tile
// row r holds element c of matrix rows 2r and 2r + 1, copied 8 bytes at a time. zgemm's elements
// fill a chunk each: never paired.
template <class T>
constexpr bool stored_paired(Operand operand, Layout layout) {
  return !T::kComplex &&
         layout == (operand == Operand::kA ? Layout::kKContiguous : Layout::kMNContiguous);
}

// One operand's copies, as one thread sees them. Matrix rows (as stored: m or n for k-contiguous
// tiles, k for m/n-contiguous ones) lie in tile rows of kChunksPerRow 16-byte chunks: one matrix
// row a tile row, or (kPaired) two, interleaved element by element. Thread t copies unit
// t % kChunksPerRow of tile rows r0 + i kRowStep (r0 = t / kChunksPerRow < kRowStep): 16 bytes
// of one matrix row (kElems elements from `along`), as one copy (kVector) or two 8-byte ones;
// paired, the two go to the same half of chunks `along` and `along` + 1, and neighbouring units
// alternate between the pair's two rows. k-tiles are copied in order, one pointer advancing. Only
// what changes or depends on the thread is kept in registers (the operand and its leading
// dimension come from the kernel's parameters): the rows' swizzles are XOR-linear and kRowStep is a
// power of two, so row r0 + i kRowStep lies at a compile-time XOR and add from row r0's chunk.
template <class T, class Cfg, Layout kLayout, int kRows, bool kVector, bool kPaired>
struct TileCopier {
  static_assert(!kPaired || !T::kComplex, "only dgemm tiles are stored paired");
  static constexpr bool kK = kLayout == Layout::kKContiguous;
  static constexpr int kElems = kChunkBytes / T::kBytes;  // elements per chunk: 2 (f64), 1 (c64)
  static constexpr int kRowElems = kK ? Cfg::kBlockK : kRows;    // along a matrix row
  static constexpr int kMatrixRows = kK ? kRows : Cfg::kBlockK;  // of the tile
  static constexpr int kPairs = kPaired ? 2 : 1;                 // matrix rows a tile row
  static constexpr int kChunksPerRow = kRowElems * kPairs / kElems;
  static constexpr int kTileRows = kMatrixRows / kPairs;
  static constexpr int kRowBytes = kChunksPerRow * kChunkBytes;
  static constexpr int kRowStep = Cfg::kThreads / kChunksPerRow;
  static constexpr int kMatrixRowStep = kRowStep * kPairs;
  static constexpr int kCopies = kTileRows / kRowStep;
  static_assert(Cfg::kThreads % kChunksPerRow == 0 && kTileRows % kRowStep == 0 && kCopies >= 1,
                "every thread copies the same unit column of the same number of rows");
  static_assert((kRowStep & (kRowStep - 1)) == 0, "rows kRowStep apart swizzle by a constant XOR");
  static_assert(kChunksPerRow % 8 == 0, "the swizzle permutes whole groups of 8 chunks");

  const char* src;  // this thread's first unit in the next k-tile to copy
  uint32_t dst;     // its shared-memory offset in a tile
  int mn_left;      // k-contiguous: matrix rows from this thread's first row on;
                    // m/n-contiguous: elements of the matrix in its unit (0..kElems)
  int k_left;       // k-contiguous: elements of k in its unit (0..kElems, may go negative);
                    // m/n-contiguous: k rows from its first row on (both in the next k-tile)

  __device__ static uint32_t swizzle(int row) {
    if constexpr (kPaired) {
      return T::paired_swizzle(row);
    } else {
      return kK ? T::k_swizzle(row) : T::mn_swizzle(row);
    }
  }

  __device__ TileCopier(const void* operand, int64_t ld, int mn0, int mn_extent, int k_extent) {
    const int row0 = int(threadIdx.x) / kChunksPerRow;
    const int unit = int(threadIdx.x) % kChunksPerRow;
    // The unit's (first) chunk and its 8-byte half in the tile, and its first element: element
    // `along` of matrix row `line`.
    const int half = kPaired ? unit & 1 : 0;
    const int chunk = kPaired ? unit - half : unit;
    const int line = row0 * kPairs + half;
    const int along = kPaired ? chunk : chunk * kElems;
    const char* base = static_cast<const char*>(operand);
    dst =
        uint32_t(row0 * kRowBytes) + ((uint32_t(chunk) ^ swizzle(row0)) << 4) + uint32_t(8 * half);
    if constexpr (kK) {
      src = base + (int64_t(mn0 + line) * ld + along) * T::kBytes;
      mn_left = mn_extent - mn0 - line;
      k_left = k_extent - along;
    } else {
      src = base + (int64_t(line) * ld + mn0 + along) * T::kBytes;
      mn_left = min(max(mn_extent - mn0 - along, 0), kElems);
      k_left = k_extent - line;
    }
  }

  // Copies the next k-tile of `operand` (leading dimension ld) into the tile at shared address
  // `tile`, then advances.
  __device__ void copy_next(uint32_t tile, const void* operand, int64_t ld) {
    const int64_t row_step = ld * T::kBytes * kMatrixRowStep;
    const char* from = src;
#pragma unroll
    for (int i = 0; i < kCopies; ++i) {
      // Elements of this unit inside the matrix (0..kElems).
      int valid;
      if constexpr (kK) {
        valid = mn_left > i * kMatrixRowStep ? min(max(k_left, 0), kElems) : 0;
      } else {
        valid = k_left > i * kMatrixRowStep ? mn_left : 0;
      }
      const uint32_t row_at = uint32_t(i * kRowStep * kRowBytes);
      const uint32_t chunk_at = dst ^ (swizzle(i * kRowStep) << 4);
      if constexpr (kVector && !kPaired) {
        cp_async_16(tile + chunk_at + row_at, valid > 0 ? from : operand, valid * T::kBytes);
      } else {
        // 8 bytes at a time: an f64 element (paired: into chunk `along` + w, whose index differs
        // from `along`'s in bit 0 only), or half (re or im) of a c64 element.
#pragma unroll
        for (int w = 0; w < 2; ++w) {
          const bool ok = (w * 8) / T::kBytes < valid;
          const uint32_t at = kPaired ? (chunk_at ^ uint32_t(w << 4)) : chunk_at + 8 * w;
          cp_async_8(tile + at + row_at, ok ? from + 8 * w : operand, ok ? 8 : 0);
        }
      }
      from += row_step;
    }
    if constexpr (kK) {
      src += Cfg::kBlockK * T::kBytes;
    } else {
      src += Cfg::kBlockK * ld * T::kBytes;
    }
    k_left -= Cfg::kBlockK;
  }
};

// ---- Fragment loads -----------------------------------------------------------------------------

// Shared-memory addresses of one lane's fragments of one operand (A: kRows = kBlockM, warp offset
// in m; B: kBlockN, in n). `lane_offset` holds everything that depends on the lane; the rest are
// compile-time offsets. XOR terms only touch chunk bits (4..6), below the 128-byte multiples added
// to them, so they are applied to the lane's offset first (one register per XOR-ed variant).
template <class T, class Cfg, Layout kLayout, int kRows, bool kPaired>
struct FragmentReader {
  static constexpr bool kK = kLayout == Layout::kKContiguous;
  static constexpr int kRowBytes = (kK ? Cfg::kBlockK : kRows) * T::kBytes * (kPaired ? 2 : 1);
  // dgemm: whether a chunk holds two m/n rows at one k (else one m/n row at two k).
  __device__ static constexpr bool chunk_along_mn() { return kK == kPaired; }
  uint32_t lane_offset;

  // dgemm: lane (g, q) holds rows (m or n) w0 + 16 tile + 2g + {0,1} and k-step rows 8s + 2q +
  // {0,1}. k-contiguous: row 2g + r, chunk 4s + q, swizzle bit 2 = g & 1 (XOR with 4s). m/n-
  // contiguous: k row 2q + r, chunk w0/2 + 8 tile + g, swizzle 2q. Paired k-contiguous (A): tile
  // row w0/2 + 8 tile + g, chunk 8s + 2q + r, swizzle paired_swizzle(g). Paired m/n-contiguous
  // (B): tile row 4s + q, chunk w0 + 16 tile + 2g + r, swizzle paired_swizzle(q).
  // zgemm: lane (g, q) holds rows w0 + 16 tile + g (+8), k 8s + q (+4). k-contiguous: row g + ..,
  // chunk q + 4 v, swizzle bit 2 = g & 1. m/n-contiguous: k row q + 4 v, chunk w0 + g + ..,
  // swizzle 2q.
  __device__ FragmentReader(int w0, int lane) {
    const int g = lane >> 2, q = lane & 3;
    if constexpr (kPaired) {
      if constexpr (kK) {
        lane_offset = uint32_t((w0 / 2 + g) * kRowBytes) +
                      ((uint32_t(2 * q) ^ T::paired_swizzle(w0 / 2 + g)) << 4);
      } else {
        lane_offset =
            uint32_t(q * kRowBytes) + ((uint32_t(w0 + 2 * g) ^ T::paired_swizzle(q)) << 4);
      }
    } else if constexpr (!T::kComplex) {
      if constexpr (kK) {
        lane_offset = uint32_t((w0 + 2 * g) * kRowBytes) + uint32_t((q ^ ((g & 1) << 2)) << 4);
      } else {
        lane_offset = uint32_t(2 * q * kRowBytes) + uint32_t((w0 / 2 + (g ^ (2 * q))) << 4);
      }
    } else {
      if constexpr (kK) {
        lane_offset = uint32_t((w0 + g) * kRowBytes) + uint32_t((q ^ ((g & 1) << 2)) << 4);
      } else {
        lane_offset = uint32_t(q * kRowBytes) + uint32_t((w0 + (g ^ (2 * q))) << 4);
      }
    }
  }

  // dgemm: the 16 bytes of m16 (A) or n16 (B) tile `tile` and k-step s the lane loads r-th
  // (r = 0 or 1). chunk_along_mn(): both rows 2g, 2g + 1 at k 8s + 2q + r; else both k 8s + 2q,
  // 8s + 2q + 1 at row 16 tile + 2g + r.
  __device__ uint32_t f64(uint32_t tile_base, int tile, int s, int r) const {
    if constexpr (kPaired && kK) {
      return tile_base + (lane_offset ^ uint32_t(r << 4)) + uint32_t(8 * tile * kRowBytes) +
             uint32_t(s * 128);
    } else if constexpr (kPaired) {
      return tile_base + (lane_offset ^ uint32_t(r << 4)) + uint32_t(4 * s * kRowBytes) +
             uint32_t(tile * 256);
    } else if constexpr (kK) {
      return tile_base + (lane_offset ^ uint32_t(s << 6)) + uint32_t((16 * tile + r) * kRowBytes);
    } else {
      return tile_base + lane_offset + uint32_t((8 * s + r) * kRowBytes) + uint32_t(tile * 128);
    }
  }
  // zgemm (a k-tile is one k-step): the element at row 8 row8 + g (row8: an n8 tile of B, or
  // half 2i + v0 of A's m16 tile i), k q + 4v.
  __device__ uint32_t c64(uint32_t tile_base, int row8, int v) const {
    if constexpr (kK) {
      return tile_base + (lane_offset ^ uint32_t(v << 6)) + uint32_t(8 * row8 * kRowBytes);
    } else {
      return tile_base + lane_offset + uint32_t(4 * v * kRowBytes) +
             uint32_t(row8 * 8 * kChunkBytes);
    }
  }
};

// An fp32 operand's tile (TypeF32AF64B's A, TypeF64AF32B's B), as it lies in global memory: each
// matrix row as stored (k for an m/n-contiguous tile of kRows m or n, m or n for a k-contiguous
// one) a tile row of floats padded by 16 bytes (Config::single_row_bytes(): no swizzle; see the
// readers below for the banks), copied 16 bytes (4 elements) a cp.async, zero-filled outside the
// matrix. Thread t copies chunk t % kChunksPerRow of tile rows r0 + i kRowStep (r0 = t /
// kChunksPerRow): a warp writes whole consecutive chunks of its rows. TileCopier's interface.
template <class T, class Cfg, Layout kLayout, int kRows>
struct SingleCopier {
  static constexpr bool kK = kLayout == Layout::kKContiguous;
  static constexpr int kRowElems = kK ? Cfg::kBlockK : kRows;    // along a matrix row
  static constexpr int kMatrixRows = kK ? kRows : Cfg::kBlockK;  // of the tile
  static constexpr int kRowBytes = Cfg::single_row_bytes(kRowElems);
  static constexpr int kBytes = T::kSingleBytes;  // an element
  static constexpr int kPerChunk = 16 / kBytes;   // elements of a 16-byte copy
  static constexpr int kChunksPerRow = kRowElems / kPerChunk;
  static constexpr int kRowStep = Cfg::kThreads / kChunksPerRow;
  static constexpr int kCopies = kMatrixRows / kRowStep;
  static_assert(Cfg::kThreads % kChunksPerRow == 0 && kMatrixRows % kRowStep == 0 && kCopies >= 1,
                "every thread copies the same chunk column of the same number of rows");

  const char* src;  // this thread's chunk in the next k-tile to copy
  int mn_left;      // k-contiguous: matrix rows from this thread's first row on;
                    // m/n-contiguous: elements of the matrix in its chunk (0..kPerChunk)
  int k_left;       // k-contiguous: elements of k in its chunk (0..kPerChunk, may go negative);
                    // m/n-contiguous: k rows from its first row on (both in the next k-tile)

  __device__ static int row0() { return int(threadIdx.x) / kChunksPerRow; }
  __device__ static int chunk() { return int(threadIdx.x) % kChunksPerRow; }

  __device__ SingleCopier(const void* operand, int64_t ld, int mn0, int mn_extent, int k_extent) {
    const char* base = static_cast<const char*>(operand);
    if constexpr (kK) {
      src = base + (int64_t(mn0 + row0()) * ld + kPerChunk * chunk()) * kBytes;
      mn_left = mn_extent - mn0 - row0();
      k_left = k_extent - kPerChunk * chunk();
    } else {
      src = base + (int64_t(row0()) * ld + mn0 + kPerChunk * chunk()) * kBytes;
      mn_left = min(max(mn_extent - mn0 - kPerChunk * chunk(), 0), kPerChunk);
      k_left = k_extent - row0();
    }
  }

  __device__ void copy_next(uint32_t tile, const void* operand, int64_t ld) {
    const uint32_t dst = tile + uint32_t(row0() * kRowBytes + 16 * chunk());
#pragma unroll
    for (int i = 0; i < kCopies; ++i) {
      int valid;  // elements of this chunk inside the matrix (0..kPerChunk)
      if constexpr (kK) {
        valid = mn_left > i * kRowStep ? min(max(k_left, 0), kPerChunk) : 0;
      } else {
        valid = k_left > i * kRowStep ? mn_left : 0;
      }
      cp_async_16(dst + uint32_t(i * kRowStep * kRowBytes),
                  valid > 0 ? src + i * kRowStep * ld * kBytes : operand, kBytes * valid);
    }
    src += (kK ? int64_t(Cfg::kBlockK) : Cfg::kBlockK * ld) * kBytes;
    k_left -= Cfg::kBlockK;
  }
};

// Fragment addresses in an fp32 m-contiguous A tile (rows of kBlockM floats padded by 16 bytes:
// a fragment load's four k rows 2q fall 32 bytes apart in the banks, its lanes' rows 2g 8 bytes
// apart). A lane (g, q) reads rows 2g, 2g + 1 of m16 tile `tile` at k 8s + 2q + r, 8 bytes, which
// load_a_single() converts to the dgemm's register pair. FragmentReader's interface.
template <class Cfg>
struct SingleAReader {
  static constexpr int kRowBytes = Cfg::single_row_bytes(Cfg::kBlockM);
  uint32_t lane_offset;
  __device__ SingleAReader(int w0, int lane)
      : lane_offset(uint32_t(2 * (lane & 3) * kRowBytes + 4 * (w0 + 2 * (lane >> 2)))) {}
  __device__ uint32_t at(uint32_t tile_base, int tile, int s, int r) const {
    return tile_base + lane_offset + uint32_t((8 * s + r) * kRowBytes + 64 * tile);
  }
};

// Fragment addresses in a complex fp32 m-contiguous A tile (rows of kBlockM elements padded by 32
// bytes: a fragment load's four k rows q fall 32 bytes apart in the banks, its lanes' rows g 8
// bytes apart), zgemm's fragment elements: c64(tile_base, row8, v) is the element at row 8 row8 +
// g and k q + 4 v, 8 bytes, which load_a_c64<float>() converts.
template <class Cfg>
struct SingleComplexAReader {
  static constexpr int kRowBytes = Cfg::single_row_bytes(Cfg::kBlockM);
  uint32_t lane_offset;
  __device__ SingleComplexAReader(int w0, int lane)
      : lane_offset(uint32_t((lane & 3) * kRowBytes + 8 * (w0 + (lane >> 2)))) {}
  __device__ uint32_t c64(uint32_t tile_base, int row8, int v) const {
    return tile_base + lane_offset + uint32_t(4 * v * kRowBytes + 64 * row8);
  }
};

// Fragment addresses in an fp32 k-contiguous B tile (each column of B a row of kBlockK floats
// padded by 16 bytes, 80: a fragment load's columns 2g fall 32 bytes apart in the banks, its k
// offsets 8 bytes apart). A lane (g, q) reads k 8s + 2q, 2q + 1 of column 16 jp + 2g + r, 8 bytes,
// which load_b_pair_single() converts.
template <class Cfg>
struct SingleBReader {
  static constexpr int kRowBytes = Cfg::single_row_bytes(Cfg::kBlockK);
  uint32_t lane_offset;
  __device__ SingleBReader(int w0, int lane)
      : lane_offset(uint32_t((w0 + 2 * (lane >> 2)) * kRowBytes + 8 * (lane & 3))) {}
  __device__ uint32_t at(uint32_t tile_base, int jp, int s, int r) const {
    return tile_base + lane_offset + uint32_t((16 * jp + r) * kRowBytes + 32 * s);
  }
};

__device__ __forceinline__ void lds_f32x2(float& x, float& y, uint32_t addr) {
  asm volatile("ld.shared.v2.f32 {%0,%1}, [%2];" : "=f"(x), "=f"(y) : "r"(addr));
}

// dgemm A fragment of m16 tile i from an fp32 tile: the register pairs load_a_f64() fills from an
// m/n-contiguous tile, each element converted (exactly).
template <class Reader>
__device__ __forceinline__ void load_a_single(double (&a)[4], const Reader& rd, uint32_t tile,
                                              int i, int s) {
  float x, y;
  lds_f32x2(x, y, rd.at(tile, i, s, 0));  // k 2q: rows 2g, 2g + 1
  a[0] = x, a[1] = y;
  lds_f32x2(x, y, rd.at(tile, i, s, 1));  // k 2q + 1
  a[2] = x, a[3] = y;
}

// dgemm B fragments of n8 tiles 2 jp and 2 jp + 1 from an fp32 tile: the register pairs
// load_b_pair_f64() fills from a k-contiguous tile, each element converted (exactly).
template <class Reader>
__device__ __forceinline__ void load_b_pair_single(double (&b0)[2], double (&b1)[2],
                                                   const Reader& rd, uint32_t tile, int jp, int s) {
  float x, y;
  lds_f32x2(x, y, rd.at(tile, jp, s, 0));  // col 2g (tile 2 jp): k 2q, 2q + 1
  b0[0] = x, b0[1] = y;
  lds_f32x2(x, y, rd.at(tile, jp, s, 1));  // col 2g + 1 (tile 2 jp + 1)
  b1[0] = x, b1[1] = y;
}

// dgemm fragments. Physical placement inside the warp tile (undone by the epilogue):
//   MMA row g + 8 v0 of m16 tile i     -> warp row 16 i + 2g + v0
//   MMA col g of n8 tile j             -> warp col 16 (j / 2) + 2g + j % 2
//   MMA k q + 4 v of k-step s          -> k 8 s + 2q + v
// Each load fills one register pair of the fragment (a[0], a[1] / a[2], a[3]; b[0], b[1]) where
// the tile's chunks pair the elements that way, else halves of two pairs.
template <class Reader>
__device__ __forceinline__ void load_a_f64(double (&a)[4], const Reader& rd, uint32_t tile, int i,
                                           int s) {
  if constexpr (Reader::chunk_along_mn()) {
    lds_f64x2(a[0], a[1], rd.f64(tile, i, s, 0));  // k 2q: rows 2g, 2g + 1
    lds_f64x2(a[2], a[3], rd.f64(tile, i, s, 1));  // k 2q + 1
  } else {
    lds_f64x2(a[0], a[2], rd.f64(tile, i, s, 0));  // row 2g: k 2q, 2q + 1
    lds_f64x2(a[1], a[3], rd.f64(tile, i, s, 1));  // row 2g + 1
  }
}
// B fragments of n8 tiles 2 jp and 2 jp + 1.
template <class Reader>
__device__ __forceinline__ void load_b_pair_f64(double (&b0)[2], double (&b1)[2], const Reader& rd,
                                                uint32_t tile, int jp, int s) {
  if constexpr (Reader::chunk_along_mn()) {
    lds_f64x2(b0[0], b1[0], rd.f64(tile, jp, s, 0));  // k 2q: cols 2g, 2g + 1
    lds_f64x2(b0[1], b1[1], rd.f64(tile, jp, s, 1));  // k 2q + 1
  } else {
    lds_f64x2(b0[0], b0[1], rd.f64(tile, jp, s, 0));  // col 2g (tile 2 jp): k 2q, 2q + 1
    lds_f64x2(b1[0], b1[1], rd.f64(tile, jp, s, 1));  // col 2g + 1 (tile 2 jp + 1)
  }
}

// zgemm fragments (no permutation): A of m16 tile i (re and im planes, conjugated as asked), from
// a tile of complex fp64, or (Part float: TypeC32AC64BIntoC32's A) of complex fp32, each part
// converted (exactly).
template <class Part, class Reader>
__device__ __forceinline__ void load_a_c64(double (&re)[4], double (&im)[4], const Reader& rd,
                                           uint32_t tile, int i, uint32_t conj) {
#pragma unroll
  for (int v0 = 0; v0 < 2; ++v0) {
#pragma unroll
    for (int v1 = 0; v1 < 2; ++v1) {
      Part x, y;
      if constexpr (std::is_same_v<Part, float>) {
        lds_f32x2(x, y, rd.c64(tile, 2 * i + v0, v1));
      } else {
        lds_f64x2(x, y, rd.c64(tile, 2 * i + v0, v1));
      }
      re[v0 + 2 * v1] = x;
      im[v0 + 2 * v1] = flip_sign(double(y), conj);
    }
  }
}
// B of n8 tile j: re and im (conjugated as asked).
template <class Reader>
__device__ __forceinline__ void load_b_c64(double (&re)[2], double (&im)[2], const Reader& rd,
                                           uint32_t tile, int j, uint32_t conj) {
#pragma unroll
  for (int v = 0; v < 2; ++v) {
    double x, y;
    lds_f64x2(x, y, rd.c64(tile, j, v));
    re[v] = x;
    im[v] = flip_sign(y, conj);
  }
}

// ---- The kernel ---------------------------------------------------------------------------------

// Epilogue of complex split-K summed in the cluster (S = args.k_slices blocks along the grid's y,
// one per slice, all of C): each block stages its tile of fp64 (re, im) pairs in the ring, in
// columns of kBlockM + 1 pairs (a warp's stores of its rows and column pairs then fall in distinct
// banks); after a cluster barrier the block of rank r takes elements r * kThreads + t,
// (r + S) * kThreads + t, ... of the tile, sums each one's S slices in slice order through
// distributed shared memory (ptx::ClusterTiles) and writes C as splitk::reduce() does
// (splitk::store_complex(): fp64, rounded once to C's type; beta == 0: C not read). A second
// barrier keeps every tile in place until all have read it.
template <class T, class Cfg, int kTM, int kTN>
__device__ void store_cluster_sum(const Args& args, const double (&acc)[2][kTM][kTN][4],
                                  unsigned char* smem, int m0, int n0, int warp_m0, int warp_n0,
                                  int g, int q) {
  static_assert(T::kComplex, "complex tiles: (re, im) pairs");
  constexpr int kStride = Cfg::kBlockM + 1;
  static_assert(Cfg::kBlockN * kStride * int(sizeof(double2)) <= Cfg::kSmemBytes,
                "the block's tile of C fits in the ring");
  double2* const tile = reinterpret_cast<double2*>(smem);
  cp_async_wait<0>();
  __syncthreads();  // every warp is done with the ring
  // acc[p][i][j][v0 + 2 v1] is C(row 16 i + g + 8 v1, col 8 j + 2q + v0) of the warp tile.
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j)
#pragma unroll
      for (int v = 0; v < 4; ++v) {
        const int r = warp_m0 + 16 * i + g + 8 * (v / 2), c = warp_n0 + 8 * j + 2 * q + v % 2;
        tile[c * kStride + r] = make_double2(acc[0][i][j][v], acc[1][i][j][v]);
      }
  ptx::cluster_sync();
  const int slices = args.k_slices;
  const ptx::ClusterTiles<splitk::kMaxClusterSlices> tiles(smem_address(smem), slices);
  const bool beta_zero = args.beta_re == 0.0 && args.beta_im == 0.0;
  using CReal = typename T::CReal;
  for (int e = int(ptx::cluster_rank()) * Cfg::kThreads + int(threadIdx.x);
       e < Cfg::kBlockM * Cfg::kBlockN; e += slices * Cfg::kThreads) {
    const int r = e % Cfg::kBlockM, c = e / Cfg::kBlockM;
    if (m0 + r >= args.m || n0 + c >= args.n) continue;
    const double2 x = tiles.sum<double2>(uint32_t(c * kStride + r) * uint32_t(sizeof(double2)));
    splitk::store_complex(static_cast<CReal*>(args.c) + 2 * (m0 + r + int64_t(n0 + c) * args.ldc),
                          x.x, x.y, args.alpha_re, args.alpha_im, args.beta_re, args.beta_im,
                          beta_zero);
  }
  ptx::cluster_sync();
}

// Main loop: the barrier of k-tile kt sits at the start of its last k-step (every warp has then
// loaded that step's fragments, so kt's stage can be refilled, and k-tile kt + 1 has landed); the
// fragments of the next k-step are loaded into the registers of the current one as each is dead.
// kClusterSum: the grid's slices of a tile are one cluster, which sums them
// (store_cluster_sum()); else each block writes its tile (a slice's partials, or C).
template <class T, class Cfg, Layout kALayout, Layout kBLayout, bool kVector, bool kClusterSum>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kBlocksPerSm) gemm_f64_mma_kernel(Args args) {
  extern __shared__ __align__(128) unsigned char smem[];
  constexpr int kStages = Cfg::kStages;
  constexpr int kTM = Cfg::kTilesM, kTN = Cfg::kTilesN;

  const int2 origin = gemm_device::grouped_tile_origin(args.m, args.n, Cfg::kBlockM, Cfg::kBlockN,
                                                       Cfg::kRasterGroup);
  const int m0 = origin.x, n0 = origin.y;
  if (gemm_device::tile_outside_triangle(args.triangle, m0, n0, Cfg::kBlockM, Cfg::kBlockN)) return;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int warp_m0 = (warp % Cfg::kWarpsM) * Cfg::kWarpM;
  const int warp_n0 = (warp / Cfg::kWarpsM) * Cfg::kWarpN;
  const int g = lane >> 2, q = lane & 3;

  // This block's slice of k, from a whole k-tile on (the k permutation of a dgemm k-step stays
  // within one), narrowed to the k its tile needs where op(A) or op(B) is zero outside a triangle
  // (from m0 or n0: whole k-tiles too), and where it starts in A and B (k-contiguous: k elements
  // in; m/n-contiguous: k rows in). The copies' zero-fill address stays args.a (args.b).
  static_assert(Cfg::kBlockM % Cfg::kBlockK == 0 && Cfg::kBlockN % Cfg::kBlockK == 0);
  const int slice0 = int(blockIdx.y) % args.k_slices * args.k_slice;
  const int64_t batch = int(blockIdx.y) / args.k_slices;
  const int k0 = max(slice0, gemm_device::tile_k_begin(args.a_nonzero, args.b_nonzero, m0, n0));
  const int k_end = min(slice0 + min(args.k - slice0, args.k_slice),
                        gemm_device::tile_k_end(args.a_nonzero, args.b_nonzero, m0, n0,
                                                int(Cfg::kBlockM), int(Cfg::kBlockN), args.k));
  const int k_extent = max(k_end - k0, 0);
  static_assert(!T::kSingleA || kALayout == Layout::kMNContiguous, "an fp32 A is m-contiguous");
  constexpr int kABytes = T::kSingleA ? T::kSingleBytes : T::kBytes;
  const char* a_slice =
      static_cast<const char*>(args.a) +
      (batch * args.a_batch + (kALayout == Layout::kKContiguous ? int64_t(k0) : k0 * args.lda)) *
          kABytes;
  static_assert(!T::kSingleB || kBLayout == Layout::kKContiguous, "an fp32 B is k-contiguous");
  constexpr int kBBytes = T::kSingleB ? int(sizeof(float)) : T::kBytes;
  const char* b_slice =
      static_cast<const char*>(args.b) +
      (batch * args.b_batch + (kBLayout == Layout::kKContiguous ? int64_t(k0) : k0 * args.ldb)) *
          kBBytes;
  constexpr bool kAPaired = stored_paired<T>(Operand::kA, kALayout);
  constexpr bool kBPaired = stored_paired<T>(Operand::kB, kBLayout);
  using ACopier = std::conditional_t<T::kSingleA, SingleCopier<T, Cfg, kALayout, Cfg::kBlockM>,
                                     TileCopier<T, Cfg, kALayout, Cfg::kBlockM, kVector, kAPaired>>;
  using AReader = std::conditional_t<
      T::kSingleA, std::conditional_t<T::kComplex, SingleComplexAReader<Cfg>, SingleAReader<Cfg>>,
      FragmentReader<T, Cfg, kALayout, Cfg::kBlockM, kAPaired>>;
  using BCopier = std::conditional_t<T::kSingleB, SingleCopier<T, Cfg, kBLayout, Cfg::kBlockN>,
                                     TileCopier<T, Cfg, kBLayout, Cfg::kBlockN, kVector, kBPaired>>;
  using BReader = std::conditional_t<T::kSingleB, SingleBReader<Cfg>,
                                     FragmentReader<T, Cfg, kBLayout, Cfg::kBlockN, kBPaired>>;
  ACopier a_copier(a_slice, args.lda, m0, args.m, k_extent);
  BCopier b_copier(b_slice, args.ldb, n0, args.n, k_extent);
  const AReader a_reader(warp_m0, lane);
  const BReader b_reader(warp_n0, lane);
  const uint32_t smem0 = smem_address(smem);
  const bool alpha_zero = args.alpha_re == 0.0 && args.alpha_im == 0.0;
  const int k_tiles = alpha_zero ? 0 : (k_extent + Cfg::kBlockK - 1) / Cfg::kBlockK;

  auto stage_address = [&](int stage) { return smem0 + uint32_t(stage * Cfg::kStageBytes); };
  auto load_stage = [&](int stage) {
    const uint32_t sa = stage_address(stage);
    a_copier.copy_next(sa, args.a, args.lda);
    b_copier.copy_next(sa + Cfg::kATileBytes, args.b, args.ldb);
  };

#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_stage(s);
    cp_async_commit();
  }
  // The last stage is filled in the first k-tile's last step, after its barrier.
  cp_async_wait<kStages - 2>();
  __syncthreads();

  // Accumulators: dgemm acc[i][j][4]; zgemm re and im of each tile.
  constexpr int kPlanes = T::kComplex ? 2 : 1;
  double acc[kPlanes][kTM][kTN][4];
#pragma unroll
  for (int p = 0; p < kPlanes; ++p)
#pragma unroll
    for (int i = 0; i < kTM; ++i)
#pragma unroll
      for (int j = 0; j < kTN; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r) acc[p][i][j][r] = 0.0;

  // Fragments of the current k-step. dgemm: af[0][i], bf[0][j]. zgemm: re and im planes of A and
  // B (B's im plane holds -Bi during the Ai terms).
  double af[kPlanes][kTM][4];
  double bf[kPlanes][kTN][2];

  auto load_a = [&](int i, uint32_t tile, int s) {
    if constexpr (T::kComplex) {
      using Part = std::conditional_t<T::kSingleA, float, double>;
      load_a_c64<Part>(af[0][i], af[1][i], a_reader, tile, i, args.conj_a);
    } else if constexpr (T::kSingleA) {
      load_a_single(af[0][i], a_reader, tile, i, s);
    } else {
      load_a_f64(af[0][i], a_reader, tile, i, s);
    }
  };
  auto load_b = [&](int j, uint32_t tile, int s) {  // dgemm: the pair of tiles j, j + 1 (j even)
    if constexpr (T::kComplex) {
      load_b_c64(bf[0][j], bf[1][j], b_reader, tile, j, args.conj_b);
    } else if constexpr (T::kSingleB) {
      load_b_pair_single(bf[0][j], bf[0][j + 1], b_reader, tile, j / 2, s);
    } else {
      load_b_pair_f64(bf[0][j], bf[0][j + 1], b_reader, tile, j / 2, s);
    }
  };

  {
    const uint32_t a0 = stage_address(0), b0 = a0 + Cfg::kATileBytes;
#pragma unroll
    for (int i = 0; i < kTM; ++i) load_a(i, a0, 0);
#pragma unroll
    for (int j = 0; j < kTN; j += T::kComplex ? 1 : 2) load_b(j, b0, 0);
  }

  int stage = 0;
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int next_stage = stage + 1 == kStages ? 0 : stage + 1;
#pragma unroll
    for (int s = 0; s < Cfg::kSteps; ++s) {
      uint32_t next_a = stage_address(stage);
      int next_s = s + 1;
      if (s == Cfg::kSteps - 1) {
        cp_async_wait<kStages - 3>();  // k-tile kt + 1 has landed (this thread's copies) ...
        __syncthreads();  // ... everyone's; every warp has loaded its fragments of k-tile kt
        // k-tile kt + kStages - 1 goes into the stage k-tile kt - 1 used (free since the last
        // barrier): stage - 1.
        if (kt + kStages - 1 < k_tiles) load_stage(stage == 0 ? kStages - 1 : stage - 1);
        cp_async_commit();
        next_a = stage_address(next_stage);
        next_s = 0;
      }
      const uint32_t next_b = next_a + Cfg::kATileBytes;
      if constexpr (!T::kComplex) {
#pragma unroll
        for (int i = 0; i < kTM; ++i) {
          if (i < kTM - 1) {
#pragma unroll
            for (int j = 0; j < kTN; ++j) mma_f64(acc[0][i][j], af[0][i], bf[0][j]);
          } else {
#pragma unroll
            for (int j = 0; j < kTN; j += 2) {
              mma_f64(acc[0][i][j], af[0][i], bf[0][j]);
              mma_f64(acc[0][i][j + 1], af[0][i], bf[0][j + 1]);
              load_b(j, next_b, next_s);
            }
          }
          load_a(i, next_a, next_s);
        }
      } else {
#pragma unroll
        // Ar terms of every tile, then Ai terms: the two products into one accumulator are
        // 2 kTM kTN MMAs apart, and Bi's registers turn into -Bi's in between.
#pragma unroll
        for (int i = 0; i < kTM; ++i) {
#pragma unroll
          for (int j = 0; j < kTN; ++j) {
            mma_f64(acc[0][i][j], af[0][i], bf[0][j]);  // re += Ar Br
            mma_f64(acc[1][i][j], af[0][i], bf[1][j]);  // im += Ar Bi
          }
        }
#pragma unroll
        for (int j = 0; j < kTN; ++j) {
          bf[1][j][0] = flip_sign(bf[1][j][0], 0x80000000u);
          bf[1][j][1] = flip_sign(bf[1][j][1], 0x80000000u);
        }
#pragma unroll
        for (int i = 0; i < kTM; ++i) {
#pragma unroll
          for (int j = 0; j < kTN; ++j) {
            mma_f64(acc[0][i][j], af[1][i], bf[1][j]);  // re += Ai (-Bi)
            mma_f64(acc[1][i][j], af[1][i], bf[0][j]);  // im += Ai Br
            if (i == kTM - 1) load_b(j, next_b, next_s);
          }
          load_a(i, next_a, next_s);
        }
      }
    }
    stage = next_stage;
  }

  if constexpr (kClusterSum) {
    store_cluster_sum<T, Cfg>(args, acc, smem, m0, n0, warp_m0, warp_n0, g, q);
    return;
  }
  // Epilogue: C = alpha * acc + beta * C (C read only where beta != 0), in the triangle if one.
  using gemm_device::in_triangle;
  const bool beta_zero = args.beta_re == 0.0 && args.beta_im == 0.0;
  if constexpr (!T::kComplex) {
    using CReal = typename T::CReal;
    using CPair = std::conditional_t<std::is_same_v<CReal, float>, float2, double2>;
    CReal* c = static_cast<CReal*>(args.c) + int64_t(blockIdx.y) * args.c_slice;
    // acc[i][j][v0 + 2 v1] is C(row 16 i + 2g + v1, col 16 (j / 2) + 4q + 2 v0 + j % 2) of the
    // warp tile: rows 2g and 2g + 1 of a column side by side (one access where C allows).
    const bool c_pairs = reinterpret_cast<uintptr_t>(c) % sizeof(CPair) == 0 && args.ldc % 2 == 0;
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
      const int row = m0 + warp_m0 + 16 * i + 2 * g;
      if (row >= args.m) continue;
#pragma unroll
      for (int j = 0; j < kTN; ++j) {
#pragma unroll
        for (int v0 = 0; v0 < 2; ++v0) {
          const int col = n0 + warp_n0 + 16 * (j / 2) + 4 * q + 2 * v0 + j % 2;
          if (col >= args.n) continue;
          CReal* at = c + (row + int64_t(col) * args.ldc);
          double v[2] = {args.alpha_re * acc[0][i][j][v0], args.alpha_re * acc[0][i][j][v0 + 2]};
          const bool both =
              in_triangle(args.triangle, row, col) && in_triangle(args.triangle, row + 1, col);
          if (c_pairs && row + 1 < args.m && both) {
            if (!beta_zero) {
              const CPair old = *reinterpret_cast<const CPair*>(at);
              v[0] = fma(args.beta_re, double(old.x), v[0]);
              v[1] = fma(args.beta_re, double(old.y), v[1]);
            }
            *reinterpret_cast<CPair*>(at) = CPair{CReal(v[0]), CReal(v[1])};
          } else {
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              if (row + e >= args.m) break;
              if (!in_triangle(args.triangle, row + e, col)) continue;
              if (!beta_zero) v[e] = fma(args.beta_re, double(at[e]), v[e]);
              at[e] = CReal(v[e]);
            }
          }
        }
      }
    }
  } else {
    // re/im[i][j][v0 + 2 v1] is C(row 16 i + g + 8 v1, col 8 j + 2q + v0) of the warp tile.
    using CReal = typename T::CReal;
    using CPair = std::conditional_t<std::is_same_v<CReal, float>, float2, double2>;
    CReal* c = static_cast<CReal*>(args.c) + int64_t(blockIdx.y) * args.c_slice;
    const bool c_vectors = reinterpret_cast<uintptr_t>(c) % sizeof(CPair) == 0;
    const double ar = args.alpha_re, ai = args.alpha_im, br = args.beta_re, bi = args.beta_im;
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
#pragma unroll
      for (int v1 = 0; v1 < 2; ++v1) {
        const int row = m0 + warp_m0 + 16 * i + g + 8 * v1;
        if (row >= args.m) continue;
#pragma unroll
        for (int j = 0; j < kTN; ++j) {
#pragma unroll
          for (int v0 = 0; v0 < 2; ++v0) {
            const int col = n0 + warp_n0 + 8 * j + 2 * q + v0;
            if (col >= args.n || !in_triangle(args.triangle, row, col)) continue;
            CReal* at = c + 2 * (row + int64_t(col) * args.ldc);
            const double xr = acc[0][i][j][v0 + 2 * v1], xi = acc[1][i][j][v0 + 2 * v1];
            double re = fma(ar, xr, -ai * xi), im = fma(ar, xi, ai * xr);
            if (!beta_zero) {
              double cr, ci;
              if (c_vectors) {
                const CPair old = *reinterpret_cast<const CPair*>(at);
                cr = old.x, ci = old.y;
              } else {
                cr = at[0], ci = at[1];
              }
              re += fma(br, cr, -bi * ci);
              im += fma(br, ci, bi * cr);
            }
            if (c_vectors) {
              *reinterpret_cast<CPair*>(at) = CPair{CReal(re), CReal(im)};
            } else {
              at[0] = CReal(re);
              at[1] = CReal(im);
            }
          }
        }
      }
    }
  }
}

// ---- Host side ----------------------------------------------------------------------------------

template <class T, class Cfg, Layout kALayout, Layout kBLayout, bool kVector, bool kClusterSum>
cudaError_t launch_layouts(const Args& args, unsigned slices, cudaStream_t stream) {
  auto kernel = gemm_f64_mma_kernel<T, Cfg, kALayout, kBLayout, kVector, kClusterSum>;
  cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes);
  if (err != cudaSuccess) return err;
  const int64_t tiles = ((args.m + Cfg::kBlockM - 1) / Cfg::kBlockM) *
                        int64_t((args.n + Cfg::kBlockN - 1) / Cfg::kBlockN);
  const dim3 grid(unsigned(tiles), slices);
  if constexpr (kClusterSum) {
    return gemm_device::launch_with(gemm_device::clusters_along_y(slices), kernel, grid,
                                    Cfg::kThreads, Cfg::kSmemBytes, stream, args);
  }
  kernel<<<grid, Cfg::kThreads, Cfg::kSmemBytes, stream>>>(args);
  return cudaGetLastError();
}

// The kernel's arguments for p, computed in one slice.
template <class T>
Args args_of(const Problem& p) {
  Args args{int(p.m),    int(p.n),    int(p.k),  p.alpha.re,
            p.alpha.im,  p.beta.re,   p.beta.im, p.a,
            p.lda,       p.b,         p.ldb,     p.c,
            p.ldc,       0u,          0u,        p.c_triangle,
            p.a_nonzero, p.b_nonzero, int(p.k),  1,
            0,           0,           0};
  if constexpr (T::kComplex) {
    args.conj_a = p.trans_a == Op::kConjTrans ? 0x80000000u : 0u;
    args.conj_b = p.trans_b == Op::kConjTrans ? 0x80000000u : 0u;
  } else {
    args.alpha_im = args.beta_im = 0.0;
  }
  return args;
}

template <class T, class Cfg, bool kVector, bool kClusterSum = false>
cudaError_t launch_args(const Problem& p, const Args& args, unsigned slices, cudaStream_t stream) {
  constexpr Layout kK = Layout::kKContiguous, kMN = Layout::kMNContiguous;
  constexpr bool kCS = kClusterSum;
  // A as stored is m-contiguous unless (conjugate-)transposed; B is k-contiguous unless so.
  if constexpr (T::kComplex && T::kSingleA) {  // A m-contiguous; B widened as stored
    return p.trans_b == Op::kNoTrans
               ? launch_layouts<T, Cfg, kMN, kK, kVector, kCS>(args, slices, stream)
               : launch_layouts<T, Cfg, kMN, kMN, kVector, kCS>(args, slices, stream);
  } else if constexpr (T::kSingleA || T::kSingleB) {  // A m-contiguous, B k-contiguous
    return launch_layouts<T, Cfg, kMN, kK, kVector, kCS>(args, slices, stream);
  } else {
    const bool a_k = p.trans_a != Op::kNoTrans;
    const bool b_k = p.trans_b == Op::kNoTrans;
    if (a_k && b_k) return launch_layouts<T, Cfg, kK, kK, kVector, kCS>(args, slices, stream);
    if (a_k) return launch_layouts<T, Cfg, kK, kMN, kVector, kCS>(args, slices, stream);
    if (b_k) return launch_layouts<T, Cfg, kMN, kK, kVector, kCS>(args, slices, stream);
    return launch_layouts<T, Cfg, kMN, kMN, kVector, kCS>(args, slices, stream);
  }
}

template <class T, class Cfg, bool kVector>
cudaError_t launch_problem(const Problem& p, cudaStream_t stream) {
  return launch_args<T, Cfg, kVector>(p, args_of<T>(p), 1, stream);
}

// Complex split-K summed in the cluster: the slices of the cluster rule, each block's tile summed
// by the cluster into C (store_cluster_sum()) with p's scalars; T2: the kernel's type for C's
// (TypeC64IntoC32 rounds into a complex fp32 C).
template <class T2, class Cfg, bool kVector>
cudaError_t launch_cluster_sum(const Problem& p, const splitk::Slices& slices,
                               cudaStream_t stream) {
  Args args = args_of<T2>(p);
  args.k_slice = int(slices.k_steps * Cfg::kBlockK);
  args.k_slices = int(slices.count);
  return launch_args<T2, Cfg, kVector, true>(p, args, unsigned(slices.count), stream);
}

// Split-K: the slices' unscaled partial tiles (alpha 1, beta 0, all of C) go to a workspace of
// rows padded to an even count (whole 16-byte pairs of fp64 rows), in fp64 whatever C's type,
// then splitk::reduce applies alpha and beta. The complex 64x64 tile on a device with clusters
// sums the slices of the cluster rule (kZgemmClusterSplitK) in their cluster instead (no
// workspace, no second kernel) where that rule cuts k into more slices than kGeometry's, at most
// splitk::kMaxClusterSlices.
template <class T, class Cfg, bool kVector, const splitk::Geometry& kGeometry>
cudaError_t launch_splitk(const Problem& p, cudaStream_t stream) {
  static_assert(splitk::describes<Cfg>(kGeometry),
                "the geometry the router and the slice rule read is the kernel's");
  splitk::Slices slices;
  if (cudaError_t err = splitk::slices_of(kGeometry, p, &slices); err != cudaSuccess) return err;
  if constexpr (std::is_same_v<T, TypeC64> && splitk::describes<Cfg>(kZgemmClusterSplitK)) {
    bool clusters = false;
    splitk::Slices in_cluster;
    cudaError_t err = cudaSuccess;
    if (slices.count > 0 && p.c_triangle == Triangle::kAll)
      err = gemm_device::current_has_clusters(&clusters);
    if (err == cudaSuccess && clusters)
      err = splitk::slices_of(kZgemmClusterSplitK, p, &in_cluster);
    if (err != cudaSuccess) return err;
    if (in_cluster.count > slices.count && in_cluster.count <= splitk::kMaxClusterSlices) {
      return p.c_type == DataType::kC32
                 ? launch_cluster_sum<TypeC64IntoC32, Cfg, kVector>(p, in_cluster, stream)
                 : launch_cluster_sum<TypeC64, Cfg, kVector>(p, in_cluster, stream);
    }
  }
  const int64_t m_pad = (p.m + 1) / 2 * 2;
  return splitk::run(
      p, T::kDataType, slices, m_pad,
      [&](void* partial) {
        Args args = args_of<T>(p);
        args.alpha_re = 1.0, args.alpha_im = 0.0, args.beta_re = 0.0, args.beta_im = 0.0;
        args.c = partial, args.ldc = m_pad;
        args.triangle = Triangle::kAll;
        args.k_slice = int(slices.k_steps * Cfg::kBlockK);
        args.k_slices = int(slices.count);
        args.c_slice = m_pad * p.n * (T::kComplex ? 2 : 1);
        return launch_args<T, Cfg, kVector>(p, args, unsigned(slices.count), stream);
      },
      stream);
}

// What every row needs of p but its types and alignment: extents and tile counts that fit the
// kernel's int indices, leading dimensions, the device, and a triangle only of a square C.
template <class Cfg>
bool fits(const Problem& p, const DeviceCaps& caps) {
  constexpr int64_t kMaxExtent = INT32_MAX - 1024;
  if (p.m < 1 || p.n < 1 || p.k < 0 || p.m > kMaxExtent || p.n > kMaxExtent || p.k > kMaxExtent)
    return false;
  if ((p.m + Cfg::kBlockM - 1) / Cfg::kBlockM * ((p.n + Cfg::kBlockN - 1) / Cfg::kBlockN) >
      INT32_MAX)
    return false;
  if (p.lda < std::max<int64_t>(1, p.a_rows()) || p.ldb < std::max<int64_t>(1, p.b_rows()) ||
      p.ldc < std::max<int64_t>(1, p.m))
    return false;
  if (caps.sm_version < 80 || caps.smem_per_block_optin < size_t(Cfg::kSmemBytes)) return false;
  return gemm_device::triangle_fits(p);
}

template <class T, class Cfg, bool kVector>
bool supports_problem(const Problem& p, const DeviceCaps& caps) {
  if (p.type != T::kDataType || p.c_type != T::kDataType) return false;
  if (!fits<Cfg>(p, caps)) return false;
  if (!aligned_to(p.a, 8) || !aligned_to(p.b, 8) || !aligned_to(p.c, 8)) return false;
  if constexpr (kVector) {
    if (!aligned_to(p.a, kChunkBytes) || !aligned_to(p.b, kChunkBytes)) return false;
    if (!T::kComplex && (p.lda % 2 != 0 || p.ldb % 2 != 0)) return false;
  }
  return true;
}

// The rows that widen A and B (cgemm_widened, cgemm_widened_3m, sgemm_widened): A, B and C of
// `type` (kC32 or kF32), A and B of any alignment of their parts and any leading dimension (they
// are read only by the widening copy), C aligned to its parts; Cfg is the tile of the kernel that
// multiplies the widened operands.
template <class Cfg>
bool supports_widened(const Problem& p, const DeviceCaps& caps, DataType type) {
  return p.type == type && p.c_type == type && fits<Cfg>(p, caps) && aligned_to(p.a, 4) &&
         aligned_to(p.b, 4) && aligned_to(p.c, 4);
}

// The kernel's error, else the workspace's release's.
cudaError_t free_after(void* workspace, cudaError_t err, cudaStream_t stream) {
  if (workspace == nullptr) return err;
  const cudaError_t free_err = cudaFreeAsync(workspace, stream);
  return err != cudaSuccess ? err : free_err;
}

// op(A) where `widen_a`, and op(B), as stored, widened to complex fp64 into one workspace (columns
// of as many elements as their rows: 16-byte aligned, so the 16-byte copies read them). *q: p
// with the widened operands in place of the originals; *workspace: what to free after the kernel
// (null where nothing was widened: alpha == 0 or k == 0, where the kernel reads neither).
cudaError_t widen_complex_operands(const Problem& p, bool widen_a, Problem* q, void** workspace,
                                   cudaStream_t stream) {
  *q = p;
  q->type = DataType::kC64;
  *workspace = nullptr;
  if (p.alpha.is_zero() || p.k == 0) return cudaSuccess;
  const int64_t elems_a = widen_a ? p.a_rows() * p.a_cols() : 0;
  const int64_t elems_b = p.b_rows() * p.b_cols();
  cudaError_t err = gemm_device::allocate_workspace(size_t(elems_a + elems_b) * 2 * sizeof(double),
                                                    workspace, stream);
  if (err != cudaSuccess) return err;
  double* const wide_a = static_cast<double*>(*workspace);
  double* const wide_b = wide_a + 2 * elems_a;
  widen::Matrix wide[2];
  int count = 0;
  if (widen_a) wide[count++] = {p.a, p.lda, wide_a, p.a_rows(), p.a_rows(), p.a_cols()};
  wide[count++] = {p.b, p.ldb, wide_b, p.b_rows(), p.b_rows(), p.b_cols()};
  err = widen::complex_to_double(wide, count, stream);
  if (err != cudaSuccess) {
    cudaFreeAsync(*workspace, stream);
    *workspace = nullptr;
    return err;
  }
  if (widen_a) q->a = wide_a, q->lda = p.a_rows();
  q->b = wide_b, q->ldb = p.b_rows();
  return cudaSuccess;
}

// op(A) and op(B) widened (widen_complex_operands()), then the kernel on them: TypeC64IntoC32's
// epilogue rounds into C, or (kSplit) fp64 partials that splitk::reduce rounds into C.
template <class Cfg, bool kSplit, const splitk::Geometry& kGeometry>
cudaError_t launch_widened(const Problem& p, cudaStream_t stream) {
  Problem q;
  void* workspace = nullptr;
  cudaError_t err = widen_complex_operands(p, true, &q, &workspace, stream);
  if (err != cudaSuccess) return err;
  err = kSplit ? launch_splitk<TypeC64, Cfg, true, kGeometry>(q, stream)
               : launch_problem<TypeC64IntoC32, Cfg, true>(q, stream);
  return free_after(workspace, err, stream);
}

// The cgemm_widened_b row: op(B) widened, and A read as it lies where cgemm_widened_b_reads_a()
// (TypeC32AC64BIntoC32 on CfgSingle's tile: one pass less over the larger operand of a product with
// a narrow B), else A widened too, on Cfg's (launch_widened()).
template <class Cfg, class CfgSingle>
cudaError_t launch_cgemm_widened_b(const Problem& p, cudaStream_t stream) {
  const bool single = cgemm_widened_b_reads_a(p);
  Problem q;
  void* workspace = nullptr;
  cudaError_t err = widen_complex_operands(p, !single, &q, &workspace, stream);
  if (err != cudaSuccess) return err;
  err = single ? launch_problem<TypeC32AC64BIntoC32, CfgSingle, true>(q, stream)
               : launch_problem<TypeC64IntoC32, Cfg, true>(q, stream);
  return free_after(workspace, err, stream);
}

// The leading dimension of the widened rows' fp64 operands: `rows` rounded up to 8 doubles, so that
// columns start on 64-byte boundaries (launch_sgemm_widened() says why).
int64_t widened_ld(int64_t rows) { return (rows + 7) / 8 * 8; }

// op(A) (m x k) where `widen_a` and op(B) (k x n) where `widen_b`, widened into one workspace,
// column-major (a
// transposed operand transposed as it is widened), so that the dgemm kernel runs them not
// transposed: its fastest layout (1024^3 on the H100: 42.3 us not transposed, 49.3-49.4 with one
// operand transposed, 56.5 with both). Columns start on 64-byte boundaries (a multiple of 8
// doubles), where the transposed widen writes whole 64-byte runs and the dgemm's copies whole
// sectors: 3001x2999x1531 ran 9-13 % faster than with columns padded to 16 bytes, 1025^3 4-8 %.
// *q: p with the widened operands in place of the originals; *workspace: what to free after the
// kernel (null where nothing was widened: alpha == 0 or k == 0, where the kernel reads neither).
cudaError_t widen_sgemm_operands(const Problem& p, bool widen_a, bool widen_b, Problem* q,
                                 void** workspace, cudaStream_t stream) {
  *q = p;
  q->type = DataType::kF64;
  *workspace = nullptr;
  if (p.alpha.is_zero() || p.k == 0) return cudaSuccess;
  const int64_t lda = widened_ld(p.m), ldb = widened_ld(p.k);
  const int64_t elems_a = widen_a ? lda * p.k : 0, elems_b = widen_b ? ldb * p.n : 0;
  cudaError_t err = gemm_device::allocate_workspace(size_t(elems_a + elems_b) * sizeof(double),
                                                    workspace, stream);
  if (err != cudaSuccess) return err;
  double* const wide_a = static_cast<double*>(*workspace);
  double* const wide_b = wide_a + elems_a;
  widen::Matrix wide[2];
  int count = 0;
  if (widen_a)
    wide[count++] = {p.a, p.lda, wide_a, lda, p.a_rows(), p.a_cols(), p.trans_a != Op::kNoTrans};
  if (widen_b)
    wide[count++] = {p.b, p.ldb, wide_b, ldb, p.b_rows(), p.b_cols(), p.trans_b != Op::kNoTrans};
  err = widen::real_to_double(wide, count, stream);
  if (err != cudaSuccess) {
    cudaFreeAsync(*workspace, stream);
    *workspace = nullptr;
    return err;
  }
  if (widen_a) q->a = wide_a, q->lda = lda, q->trans_a = Op::kNoTrans;
  if (widen_b) q->b = wide_b, q->ldb = ldb, q->trans_b = Op::kNoTrans;
  return cudaSuccess;
}

// The sgemm_widened rows: op(A) and op(B) widened (widen_sgemm_operands()), then the dgemm kernel
// of Cfg's tile on them, whose epilogue rounds alpha acc + beta C into the fp32 C once.
template <class Cfg>
cudaError_t launch_sgemm_widened(const Problem& p, cudaStream_t stream) {
  Problem q;
  void* workspace = nullptr;
  cudaError_t err = widen_sgemm_operands(p, true, true, &q, &workspace, stream);
  if (err != cudaSuccess) return err;
  return free_after(workspace, launch_problem<TypeF64IntoF32, Cfg, true>(q, stream), stream);
}

// The sgemm_widened_b rows (kSingleA) and sgemm_widened_a rows (not kSingleA): the smaller operand
// widened, and the larger one (A, or B) read as it lies where sgemm_widened_b_reads_a()
// (sgemm_widened_a_reads_b()), one pass less over it, on CfgSingle's tile; else both widened, on
// Cfg's (the same tile with fp64 operands). kSplit: split-K of geometry kGeometry, fp64 partials
// that splitk::reduce rounds into C once; else the epilogue rounds into C.
template <bool kSingleA, class Cfg, class CfgSingle, bool kSplit, const splitk::Geometry& kGeometry>
cudaError_t launch_sgemm_widened_one(const Problem& p, cudaStream_t stream) {
  using Partials = WideningType<TypeF64, double, kSingleA, !kSingleA>;
  using IntoC = WideningType<TypeF64, float, kSingleA, !kSingleA>;
  const bool single = kSingleA ? sgemm_widened_b_reads_a(p) : sgemm_widened_a_reads_b(p);
  Problem q;
  void* workspace = nullptr;
  cudaError_t err =
      widen_sgemm_operands(p, !kSingleA || !single, kSingleA || !single, &q, &workspace, stream);
  if (err != cudaSuccess) return err;
  if constexpr (kSplit) {
    err = single ? launch_splitk<Partials, CfgSingle, true, kGeometry>(q, stream)
                 : launch_splitk<TypeF64, Cfg, true, kGeometry>(q, stream);
  } else {
    err = single ? launch_problem<IntoC, CfgSingle, true>(q, stream)
                 : launch_problem<TypeF64IntoF32, Cfg, true>(q, stream);
  }
  return free_after(workspace, err, stream);
}

// op(A) (m x k) and op(B) (k x n) split into their 3M planes (conjugation folded into the
// imaginary planes; a transposed operand transposed as it is split, so that the dgemm runs its
// untransposed layout, as launch_sgemm_widened() says), each plane's columns on 64-byte boundaries;
// one dgemm launch of three batches, P_i = plane_i(op(A)) plane_i(op(B)) into three product planes
// (fp64, in C's triangle); combine_3m rounds alpha x + beta C into C. alpha == 0 or k == 0: no
// plane and no product, C = beta C.
template <class Cfg>
cudaError_t launch_widened_3m(const Problem& p, cudaStream_t stream) {
  if (p.alpha.is_zero() || p.k == 0) {
    return widen::combine_3m({nullptr, 0, 0}, p.m, p.n, p.alpha, p.beta, p.c, p.ldc, p.c_triangle,
                             stream);
  }
  auto even = [](int64_t x) { return (x + 1) / 2 * 2; };
  const int64_t lda = widened_ld(p.m), ldb = widened_ld(p.k), ldp = even(p.m);
  const int64_t plane_a = lda * p.k, plane_b = ldb * p.n, plane_p = ldp * p.n;
  double* workspace = nullptr;
  cudaError_t err = gemm_device::allocate_workspace(
      size_t(3 * (plane_a + plane_b + plane_p)) * sizeof(double), &workspace, stream);
  if (err != cudaSuccess) return err;
  double* const planes_a = workspace;
  double* const planes_b = planes_a + 3 * plane_a;
  double* const products = planes_b + 3 * plane_b;
  const widen::Planes split[2] = {{p.a, p.lda, planes_a, lda, plane_a, p.a_rows(), p.a_cols(),
                                   p.trans_a == Op::kConjTrans, p.trans_a != Op::kNoTrans},
                                  {p.b, p.ldb, planes_b, ldb, plane_b, p.b_rows(), p.b_cols(),
                                   p.trans_b == Op::kConjTrans, p.trans_b != Op::kNoTrans}};
  err = widen::complex_to_planes(split, 2, stream);
  if (err == cudaSuccess) {
    Problem q = p;
    q.type = q.c_type = DataType::kF64;
    q.trans_a = Op::kNoTrans, q.trans_b = Op::kNoTrans;
    q.alpha = 1.0, q.beta = 0.0;
    q.a = planes_a, q.lda = lda;
    q.b = planes_b, q.ldb = ldb;
    q.c = products, q.ldc = ldp;
    Args args = args_of<TypeF64>(q);
    args.c_slice = plane_p, args.a_batch = plane_a, args.b_batch = plane_b;
    err = launch_args<TypeF64, Cfg, true>(q, args, 3, stream);
  }
  if (err == cudaSuccess) {
    err = widen::combine_3m({products, ldp, plane_p}, p.m, p.n, p.alpha, p.beta, p.c, p.ldc,
                            p.c_triangle, stream);
  }
  const cudaError_t free_err = cudaFreeAsync(workspace, stream);
  return err != cudaSuccess ? err : free_err;
}

// Warps of 64 x 32 (dgemm) or 32 x 32 (zgemm): 64 fp64 accumulators a thread, so at most 8 warps
// per SM. dgemm: 128 x 128 x 16, 4 stages (128 KiB), one block per SM; or 128 x 64 x 16 (4 warps,
// 96 KiB), two blocks per SM, for twice the tiles (1024^3: 0.94 of cuBLAS against 0.56; 8192^3:
// 0.96 against 0.99). zgemm, 16-byte loads: 64 x 64 x 8 (4 warps, 6 stages, 96 KiB), two blocks
// per SM: it measured 0.97 / 1.02 / 1.13 of cuBLAS at 4096^3 / 8192^3 / 4097^3 against 0.93 / 1.00
// / 1.01 for a 128 x 64 block of 8 warps, one per SM (144 KiB). zgemm, 8-byte loads: the 128 x 64
// block (0.87 at 4096^3 against 0.77 for 64 x 64, whose threads issue a third more copies per
// MMA). H200, docs/NOTES-f64-complex.md.
using ConfigF64 = Config<TypeF64, 128, 128, 16, 64, 32, 4, 1>;
using ConfigF64Half = Config<TypeF64, 128, 64, 16, 64, 32, 4, 2>;
using ConfigF64Small = Config<TypeF64, 64, 64, 16, 32, 32, 4, 3>;
using ConfigSingleA = Config<TypeF32AF64B, 128, 128, 16, 64, 32, 4, 1>;
using ConfigSingleAHalf = Config<TypeF32AF64B, 128, 64, 16, 64, 32, 4, 2>;
using ConfigSingleBSmall = Config<TypeF64AF32B, 64, 64, 16, 32, 32, 4, 3>;
using ConfigSingleC = Config<TypeC32AC64BIntoC32, 64, 64, 8, 32, 32, 6, 2>;
using ConfigC64 = Config<TypeC64, 64, 64, 8, 32, 32, 6, 2>;
using ConfigC64Wide = Config<TypeC64, 128, 64, 8, 32, 32, 6, 1>;

}  // namespace

bool supports_dgemm_128x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF64, ConfigF64, true>(p, caps);
}
cudaError_t launch_dgemm_128x128x16(const Problem& p, cudaStream_t stream) {
  return launch_problem<TypeF64, ConfigF64, true>(p, stream);
}
bool supports_dgemm_scalarload_128x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF64, ConfigF64, false>(p, caps);
}
cudaError_t launch_dgemm_scalarload_128x128x16(const Problem& p, cudaStream_t stream) {
  return launch_problem<TypeF64, ConfigF64, false>(p, stream);
}
bool supports_dgemm_128x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF64, ConfigF64Half, true>(p, caps);
}
cudaError_t launch_dgemm_128x64x16(const Problem& p, cudaStream_t stream) {
  return launch_problem<TypeF64, ConfigF64Half, true>(p, stream);
}
bool supports_dgemm_64x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF64, ConfigF64Small, true>(p, caps);
}
cudaError_t launch_dgemm_64x64x16(const Problem& p, cudaStream_t stream) {
  return launch_problem<TypeF64, ConfigF64Small, true>(p, stream);
}
bool supports_dgemm_scalarload_64x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF64, ConfigF64Small, false>(p, caps);
}
cudaError_t launch_dgemm_scalarload_64x64x16(const Problem& p, cudaStream_t stream) {
  return launch_problem<TypeF64, ConfigF64Small, false>(p, stream);
}
bool supports_zgemm_64x64x8(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeC64, ConfigC64, true>(p, caps);
}
cudaError_t launch_zgemm_64x64x8(const Problem& p, cudaStream_t stream) {
  return launch_problem<TypeC64, ConfigC64, true>(p, stream);
}
bool supports_zgemm_scalarload_128x64x8(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeC64, ConfigC64Wide, false>(p, caps);
}
cudaError_t launch_zgemm_scalarload_128x64x8(const Problem& p, cudaStream_t stream) {
  return launch_problem<TypeC64, ConfigC64Wide, false>(p, stream);
}

// Split-K rows: the two-blocks-per-SM tiles, all of C (no triangle: a slice's partial covers its
// whole tiles).
bool supports_dgemm_splitk_128x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF64, ConfigF64Half, true>(p, caps) && p.c_triangle == Triangle::kAll;
}
cudaError_t launch_dgemm_splitk_128x64x16(const Problem& p, cudaStream_t stream) {
  return launch_splitk<TypeF64, ConfigF64Half, true, kDgemmSplitK>(p, stream);
}
bool supports_dgemm_splitk_scalarload_128x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeF64, ConfigF64Half, false>(p, caps) && p.c_triangle == Triangle::kAll;
}
cudaError_t launch_dgemm_splitk_scalarload_128x64x16(const Problem& p, cudaStream_t stream) {
  return launch_splitk<TypeF64, ConfigF64Half, false, kDgemmSplitK>(p, stream);
}
bool supports_zgemm_splitk_64x64x8(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<TypeC64, ConfigC64, true>(p, caps) && p.c_triangle == Triangle::kAll;
}
cudaError_t launch_zgemm_splitk_64x64x8(const Problem& p, cudaStream_t stream) {
  return launch_splitk<TypeC64, ConfigC64, true, kZgemmSplitK>(p, stream);
}

bool supports_cgemm_widened_64x64x8(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigC64>(p, caps, DataType::kC32);
}
cudaError_t launch_cgemm_widened_64x64x8(const Problem& p, cudaStream_t stream) {
  return launch_widened<ConfigC64, false, kZgemmSplitK>(p, stream);
}
bool supports_cgemm_widened_splitk_64x64x8(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigC64>(p, caps, DataType::kC32) && p.c_triangle == Triangle::kAll;
}
cudaError_t launch_cgemm_widened_splitk_64x64x8(const Problem& p, cudaStream_t stream) {
  return launch_widened<ConfigC64, true, kZgemmSplitK>(p, stream);
}

bool supports_cgemm_widened_3m_128x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64>(p, caps, DataType::kC32);
}
cudaError_t launch_cgemm_widened_3m_128x128x16(const Problem& p, cudaStream_t stream) {
  return launch_widened_3m<ConfigF64>(p, stream);
}
bool supports_cgemm_widened_3m_128x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64Half>(p, caps, DataType::kC32);
}
cudaError_t launch_cgemm_widened_3m_128x64x16(const Problem& p, cudaStream_t stream) {
  return launch_widened_3m<ConfigF64Half>(p, stream);
}

bool supports_sgemm_widened_128x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64>(p, caps, DataType::kF32);
}
cudaError_t launch_sgemm_widened_128x128x16(const Problem& p, cudaStream_t stream) {
  return launch_sgemm_widened<ConfigF64>(p, stream);
}
bool supports_sgemm_widened_64x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64Small>(p, caps, DataType::kF32);
}
cudaError_t launch_sgemm_widened_64x64x16(const Problem& p, cudaStream_t stream) {
  return launch_sgemm_widened<ConfigF64Small>(p, stream);
}
bool supports_sgemm_widened_128x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64Half>(p, caps, DataType::kF32);
}
cudaError_t launch_sgemm_widened_128x64x16(const Problem& p, cudaStream_t stream) {
  return launch_sgemm_widened<ConfigF64Half>(p, stream);
}

bool supports_sgemm_widened_b_128x128x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64>(p, caps, DataType::kF32);
}
cudaError_t launch_sgemm_widened_b_128x128x16(const Problem& p, cudaStream_t stream) {
  return launch_sgemm_widened_one<true, ConfigF64, ConfigSingleA, false, kDgemmSplitK>(p, stream);
}
bool supports_sgemm_widened_b_splitk_128x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64Half>(p, caps, DataType::kF32) && p.c_triangle == Triangle::kAll;
}
cudaError_t launch_sgemm_widened_b_splitk_128x64x16(const Problem& p, cudaStream_t stream) {
  return launch_sgemm_widened_one<true, ConfigF64Half, ConfigSingleAHalf, true, kDgemmSplitK>(
      p, stream);
}

bool sgemm_widened_b_reads_a(const Problem& p) {
  return p.trans_a == Op::kNoTrans && aligned_to(p.a, kChunkBytes) && p.lda % 4 == 0;
}

bool sgemm_widened_a_reads_b(const Problem& p) {
  return p.trans_b == Op::kNoTrans && aligned_to(p.b, kChunkBytes) && p.ldb % 4 == 0;
}
bool supports_sgemm_widened_a_splitk_64x64x16(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigF64Small>(p, caps, DataType::kF32) &&
         p.c_triangle == Triangle::kAll;
}
cudaError_t launch_sgemm_widened_a_splitk_64x64x16(const Problem& p, cudaStream_t stream) {
  return launch_sgemm_widened_one<false, ConfigF64Small, ConfigSingleBSmall, true,
                                  kSgemmWidenedASplitK>(p, stream);
}

bool cgemm_widened_b_reads_a(const Problem& p) {
  return p.trans_a == Op::kNoTrans && aligned_to(p.a, kChunkBytes) && p.lda % 2 == 0;
}
bool supports_cgemm_widened_b_64x64x8(const Problem& p, const DeviceCaps& caps) {
  return supports_widened<ConfigC64>(p, caps, DataType::kC32);
}
cudaError_t launch_cgemm_widened_b_64x64x8(const Problem& p, cudaStream_t stream) {
  return launch_cgemm_widened_b<ConfigC64, ConfigSingleC>(p, stream);
}

}  // namespace tileblas::gemm_f64_mma
