// Transpose and scaled copy of fp32 matrices. The contract is in transpose.h.
//
// Tiled transpose (out of place and in place): a block moves one kTileRows x kTileCols tile of A
// through shared memory, stored there as tile[c][r] = A(row0 + r, col0 + c) with one padding
// column. Both phases move 32-element column segments:
//   load   a warp reads kVec columns of A at once, 32 / kVec lanes per 32-row segment, each lane
//          kVec consecutive rows (one 16-byte load when kVec == 4);
//   store  a warp writes kVec columns of B at once (rows of A), 32 / kVec lanes per segment, each
//          lane kVec consecutive rows of B read from kVec different tile rows.
// With the padded stride kTileRows + 1 == 1 (mod 32), element (c, r) sits in bank (c + r) mod 32:
// in the load phase the lanes of a warp cover c + r = base + (column in group) + (row in
// segment), in the store phase base + (row of B in segment) + (column of B in group); both are 32
// distinct values, so neither phase has a bank conflict.
//
// With 4-byte accesses a column's first element may lie anywhere in a 32-byte sector. The lanes
// then start at the sector boundary instead (see LanePlace::row): a 64-element column segment
// pair touches 9 sectors instead of 10. The lanes still cover 32 consecutive rows mod 32 in every
// segment, so the banks stay distinct.
#include "transpose.h"

#include <cstdint>

namespace tileblas::transpose {
namespace {

struct Args {
  int64_t rows, cols;  // of A
  float alpha;
  const float* a;
  int64_t lda;
  float* b;
  int64_t ldb;
};

Args args_of(const TransposeProblem& p) {
  return Args{p.rows, p.cols, p.alpha, p.a, p.lda, p.b, p.ldb};
}

// alpha * v, except that alpha == 0 gives +0 whatever v is (OpenBLAS's omatcopy writes zeros).
__device__ __forceinline__ float scaled(float alpha, float v) {
  return alpha == 0.0f ? 0.0f : alpha * v;
}

// v = elements row .. row + kVec - 1 of column `col` of the ld-strided rows x cols matrix m;
// elements outside the matrix read as 0 and are not accessed. With kVec == 4 the caller
// guarantees 16-byte alignment of m + col * ld + row.
template <int kVec>
__device__ __forceinline__ void load_run(const float* m, int64_t ld, int64_t rows, int64_t cols,
                                         int64_t row, int64_t col, float (&v)[kVec]) {
  static_assert(kVec == 1 || kVec == 4, "4-byte or 16-byte accesses");
  const float* p = m + col * ld + row;
  if (col < cols && row + kVec <= rows) {
    if constexpr (kVec == 4) {
      const float4 q = *reinterpret_cast<const float4*>(p);
      v[0] = q.x;
      v[1] = q.y;
      v[2] = q.z;
      v[3] = q.w;
    } else {
      v[0] = *p;
    }
  } else {
#pragma unroll
    for (int k = 0; k < kVec; ++k) v[k] = (col < cols && row + k < rows) ? p[k] : 0.0f;
  }
}

// One 16-byte store of v[0..3] at p (16-byte aligned). Written through __stwb (a plain
// write-back store): nvcc 13.0 splits `*(float4*)p = make_float4(...)` into four 4-byte stores
// in the PTX (two 8-byte ones when the values are the alpha == 0 zeros).
__device__ __forceinline__ void store16(float* p, const float (&v)[4]) {
  __stwb(reinterpret_cast<float4*>(p), make_float4(v[0], v[1], v[2], v[3]));
}

// Writes v to elements row .. row + kVec - 1 of column `col` (those inside the matrix only).
template <int kVec>
__device__ __forceinline__ void store_run(float* m, int64_t ld, int64_t rows, int64_t cols,
                                          int64_t row, int64_t col, const float (&v)[kVec]) {
  static_assert(kVec == 1 || kVec == 4, "4-byte or 16-byte accesses");
  float* p = m + col * ld + row;
  if (col < cols && row + kVec <= rows) {
    if constexpr (kVec == 4) {
      store16(p, v);
    } else {
      *p = v[0];
    }
  } else {
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      if (col < cols && row + k < rows) p[k] = v[k];
    }
  }
}

// The shape of one tile's moves; see the comment at the top of the file.
template <int TileRows, int TileCols, int Vec, int Threads>
struct TileShape {
  static constexpr int kTileRows = TileRows;
  static constexpr int kTileCols = TileCols;
  static constexpr int kVec = Vec;
  static constexpr int kThreads = Threads;
  static_assert(kVec == 1 || kVec == 4, "4-byte or 16-byte accesses");
  static_assert(kTileRows % 32 == 0 && kTileCols % 32 == 0,
                "warps move 32-element segments, and the padded stride must be 1 mod 32 banks");
  static_assert(kThreads % 32 == 0, "whole warps");
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kLanesPerSegment = 32 / kVec;
  static constexpr int kLoadGroups = kTileCols / kVec;   // groups of kVec columns of A
  static constexpr int kStoreGroups = kTileRows / kVec;  // groups of kVec columns of B
  static_assert(kLoadGroups % kWarps == 0 && kStoreGroups % kWarps == 0,
                "every warp moves the same number of segments (no idle warps, no bounds check)");
  // Warp w moves groups w, w + kWarps, ... (kLoadSteps of them) in every 32-row segment of the
  // tile, then likewise in the store phase: a thread's columns lie kStride columns apart.
  static constexpr int kLoadSteps = kLoadGroups / kWarps;
  static constexpr int kStoreSteps = kStoreGroups / kWarps;
  static constexpr int kStride = kWarps * kVec;
  static_assert(kVec == 4 || kStride % 8 == 0,
                "4-byte rows: a thread's columns (of A, then of B) lie a multiple of 8 apart, so "
                "they share their offset within a 32-byte sector (LanePlace::row)");
  using Tile = float[kTileCols][kTileRows + 1];
};

// The lane's place in a warp's move: the first of its kVec elements within a 32-element segment,
// and its column within the warp's group of kVec columns.
template <class Shape>
struct LanePlace {
  int run, group_col;
  __device__ __forceinline__ LanePlace()
      : run((threadIdx.x % 32 % Shape::kLanesPerSegment) * Shape::kVec),
        group_col(threadIdx.x % 32 / Shape::kLanesPerSegment) {}

  // The first of the lane's rows in segment `segment` of a Len-element tile column whose first
  // element lies `shift` floats past a 32-byte sector boundary: rotated by `shift`, so that
  // every segment but the first covers whole sectors, and the first the partial sectors at both
  // ends of the column (its first rows, and its last `shift` rows on the lanes that wrap).
  template <int Len>
  __device__ __forceinline__ int row(int segment, int shift) const {
    static_assert((Len & (Len - 1)) == 0, "the rotation wraps with a mask");
    return (run - shift + 32 * segment) & (Len - 1);
  }
};

// How many floats element `index` of m lies past a 32-byte sector boundary (m 4-byte aligned).
__device__ __forceinline__ int sector_shift(const float* m, int64_t index) {
  return int((reinterpret_cast<uintptr_t>(m) / sizeof(float) + uint64_t(index)) % 8);
}

// tile[c][r] = A(row0 + r, col0 + c) for the tile at (row0, col0) of the rows x cols matrix a
// (0 outside it). All of a thread's global loads are issued before its first shared-memory store;
// in edge tiles 4-byte loads are predicated, while 16-byte ones check every access and move one
// segment at a time, which keeps their register needs below the interior's.
template <class Shape>
__device__ __forceinline__ void load_tile(const float* a, int64_t lda, int64_t rows, int64_t cols,
                                          int64_t row0, int64_t col0, typename Shape::Tile& tile) {
  constexpr int kVec = Shape::kVec;
  constexpr int kSegments = Shape::kTileRows / 32;
  constexpr int kSteps = Shape::kLoadSteps;
  const LanePlace<Shape> lane;
  const int first_col = threadIdx.x / 32 * kVec + lane.group_col;
  auto column = [&](int m) { return first_col + m * Shape::kStride; };
  const int shift = kVec == 1 ? sector_shift(a, (col0 + first_col) * lda + row0) : 0;
  auto row = [&](int k) { return lane.template row<Shape::kTileRows>(k, shift); };
  // exists(k, m) says whether the elements of segment k, step m lie inside A.
  auto move_all = [&](auto exists) {
    const float* first = a + (col0 + first_col) * lda + row0;
    const int64_t stride = Shape::kStride * lda;
    float v[kSegments][kSteps][kVec];
#pragma unroll
    for (int k = 0; k < kSegments; ++k) {
      const float* p = first + row(k);
#pragma unroll
      for (int m = 0; m < kSteps; ++m, p += stride) {
        if constexpr (kVec == 4) {
          const float4 q = *reinterpret_cast<const float4*>(p);
          v[k][m][0] = q.x;
          v[k][m][1] = q.y;
          v[k][m][2] = q.z;
          v[k][m][3] = q.w;
        } else {
          v[k][m][0] = exists(k, m) ? *p : 0.0f;
        }
      }
    }
#pragma unroll
    for (int k = 0; k < kSegments; ++k) {
#pragma unroll
      for (int m = 0; m < kSteps; ++m) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) tile[column(m)][row(k) + e] = v[k][m][e];
      }
    }
  };
  if (row0 + Shape::kTileRows <= rows && col0 + Shape::kTileCols <= cols) {
    move_all([](int, int) { return true; });
  } else if constexpr (kVec == 1) {
    const int rows_left = int(min(rows - row0, int64_t(Shape::kTileRows)));
    const int cols_left = int(min(cols - col0, int64_t(Shape::kTileCols)));
    move_all([&](int k, int m) { return row(k) < rows_left && column(m) < cols_left; });
  } else {
#pragma unroll 1
    for (int s = 0; s < kSegments * kSteps; ++s) {
      const int r = row(s / kSteps), c = column(s % kSteps);
      float v[kVec];
      load_run<kVec>(a, lda, rows, cols, row0 + r, col0 + c, v);
#pragma unroll
      for (int e = 0; e < kVec; ++e) tile[c][r + e] = v[e];
    }
  }
}

// B(col0 + j, row0 + i) = alpha * tile[j][i] for the B = A^T tile whose A tile sits at
// (row0, col0); b is cols x rows. Elements outside B are not written.
template <class Shape>
__device__ __forceinline__ void store_tile_transposed(float* b, int64_t ldb, int64_t rows,
                                                      int64_t cols, int64_t row0, int64_t col0,
                                                      const typename Shape::Tile& tile,
                                                      float alpha) {
  constexpr int kVec = Shape::kVec;
  const LanePlace<Shape> lane;
  const bool inside = row0 + Shape::kTileRows <= rows && col0 + Shape::kTileCols <= cols;
  const int first_col = threadIdx.x / 32 * kVec + lane.group_col;  // of B (row of A)
  const int shift = kVec == 1 ? sector_shift(b, (row0 + first_col) * ldb + col0) : 0;
  float* base = b + row0 * ldb + col0;
#pragma unroll
  for (int k = 0; k < Shape::kTileCols / 32; ++k) {
    const int j = lane.template row<Shape::kTileCols>(k, shift);  // row of B (column of A)
#pragma unroll
    for (int m = 0; m < Shape::kStoreSteps; ++m) {
      const int i = first_col + m * Shape::kStride;  // column of B (row of A)
      float w[kVec];
#pragma unroll
      for (int e = 0; e < kVec; ++e) w[e] = scaled(alpha, tile[j + e][i]);
      if (inside) {
        float* p = base + i * ldb + j;
        if constexpr (kVec == 4) {
          store16(p, w);
        } else {
          *p = w[0];
        }
      } else {
        store_run<kVec>(b, ldb, cols, rows, col0 + j, row0 + i, w);
      }
    }
  }
}

// Resident threads per SM the tiled kernels are compiled for (1536: registers capped at 40 per
// thread, without spills): more threads keep more loads in flight, which a bandwidth-bound kernel
// needs. 256-thread blocks: 6 per SM; 512-thread blocks: 3.
constexpr int kResidentThreadsPerSm = 1536;

// The tile (row_tile, col_tile) block `t` moves, tiles taken in groups of GroupTiles tile rows:
// within a group, down the tile rows first, then across the tile columns. Blocks running at the
// same time then cover a patch of A about GroupTiles tiles tall, so their reads (down columns of
// A) run that many tiles' rows long and their writes (down columns of B) run across the patch's
// width: the group height trades the one against the other.
template <int64_t GroupTiles>
__device__ __forceinline__ void grouped_tile(int64_t t, int64_t row_tiles, int64_t col_tiles,
                                             int64_t& row_tile, int64_t& col_tile) {
  const int64_t per_group = GroupTiles * col_tiles;
  const int64_t first_row_tile = t / per_group * GroupTiles;
  const int64_t height = min(row_tiles - first_row_tile, GroupTiles);
  const int64_t in_group = t % per_group;
  row_tile = first_row_tile + in_group % height;
  col_tile = in_group / height;
}

// One block per tile, tiles taken in groups of GroupRows rows of A (see grouped_tile).
template <class Shape, int GroupRows>
__global__ void __launch_bounds__(Shape::kThreads, kResidentThreadsPerSm / Shape::kThreads)
    transpose_tiled_kernel(Args p, int64_t row_tiles, int64_t col_tiles) {
  static_assert(kResidentThreadsPerSm % Shape::kThreads == 0, "whole blocks per SM");
  static_assert(GroupRows % Shape::kTileRows == 0, "groups of whole tile rows");
  __shared__ typename Shape::Tile tile;
  int64_t row_tile, col_tile;
  grouped_tile<GroupRows / Shape::kTileRows>(blockIdx.x, row_tiles, col_tiles, row_tile, col_tile);
  const int64_t row0 = row_tile * Shape::kTileRows;
  const int64_t col0 = col_tile * Shape::kTileCols;
  load_tile<Shape>(p.a, p.lda, p.rows, p.cols, row0, col0, tile);
  __syncthreads();
  store_tile_transposed<Shape>(p.b, p.ldb, p.rows, p.cols, row0, col0, tile, p.alpha);
}

// Sheared tiles (transpose_sheared_64x64). Cut at fixed rows, a column of B that starts in the
// middle of a 32-byte sector gets pieces that start and end in the middle of one, so two blocks
// write each boundary sector in part. Here each column of B is cut at its own sector boundaries:
// for column r of B (row r of A) whose first element lies s(r) floats past a boundary, tile
// column tc holds its rows [64 tc - s(r), 64 tc + 64 - s(r)), clipped to B; there are
// ceil((cols + 7) / 64) tile columns. A warp's 32-element store then covers 4 whole sectors, and
// no sector is written by two blocks except where a column of B starts or ends.
// The block reads the elements it writes: rows row0 .. row0 + 63 of A, row r in columns
// col0 - s(r) .. col0 + 63 - s(r). Shared memory holds kShearSlack more columns of A to the left
// of the tile: tile[c][i] = A(row0 + i, col0 - kShearSlack + c). Warp w loads tile columns
// w + 8 m, m = 0 .. 8; of the two edge ones a lane's row needs exactly one (w when
// w + s(r) >= 8, w + 64 otherwise), so a thread loads 16 elements, as in the unsheared tiles.
// A thread's two rows of A lie 32 apart and its columns of B 8 apart: one s for each phase.
using Sheared = TileShape<64, 64, 1, 256>;
constexpr int kShearSlack = 8;
static_assert(Sheared::kStride == kShearSlack,
              "the slack is one step of a thread's loads: a row needs one of its two edge columns");
using ShearedTile = float[kShearSlack + Sheared::kTileCols][Sheared::kTileRows + 1];

// The elements of A the sheared tile at (row0, col0) writes, into `tile` (see above); those
// outside A are not read. All loads are issued before the shared-memory stores.
__device__ __forceinline__ void load_sheared_tile(const Args& p, int64_t row0, int64_t col0,
                                                  bool inside, ShearedTile& tile) {
  constexpr int kSegments = Sheared::kTileRows / 32;
  constexpr int kSteps = Sheared::kLoadSteps;
  const LanePlace<Sheared> lane;
  const int warp = threadIdx.x / 32;
  const int64_t left = col0 - kShearSlack;  // the column of A in tile column 0
  const int shift_a = sector_shift(p.a, (left + warp) * p.lda + row0);
  auto row = [&](int k) { return lane.row<Sheared::kTileRows>(k, shift_a); };
  const int shift_b = sector_shift(p.b, (row0 + row(0)) * p.ldb);
  const int edge = warp + shift_b >= kShearSlack ? warp : warp + Sheared::kTileCols;
  auto column = [&](int m) { return m == 0 ? edge : warp + m * Sheared::kStride; };
  const float* first = p.a + (left + warp) * p.lda + row0;
  // exists(k, m) says whether the element of segment k, step m lies inside A.
  auto move_all = [&](auto exists) {
    float v[kSegments][kSteps];
#pragma unroll
    for (int k = 0; k < kSegments; ++k) {
#pragma unroll
      for (int m = 0; m < kSteps; ++m) {
        v[k][m] = exists(k, m) ? first[(column(m) - warp) * p.lda + row(k)] : 0.0f;
      }
    }
#pragma unroll
    for (int k = 0; k < kSegments; ++k) {
#pragma unroll
      for (int m = 0; m < kSteps; ++m) tile[column(m)][row(k)] = v[k][m];
    }
  };
  if (inside) {
    move_all([](int, int) { return true; });
  } else {
    const int rows_left = int(min(p.rows - row0, int64_t(Sheared::kTileRows)));
    move_all([&](int k, int m) {
      const int64_t col = left + column(m);
      return row(k) < rows_left && col >= 0 && col < p.cols;
    });
  }
}

// Column row0 + i of B, rows col0 - s .. col0 + 63 - s (s its shift) = alpha * the tile's
// row i; elements outside B are not written.
__device__ __forceinline__ void store_sheared_tile(const Args& p, int64_t row0, int64_t col0,
                                                   bool inside, const ShearedTile& tile) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int shift = sector_shift(p.b, (row0 + warp) * p.ldb);
  const int64_t first_row = col0 - shift;  // of B, at a sector boundary
#pragma unroll
  for (int k = 0; k < Sheared::kTileCols / 32; ++k) {
    const int j = lane + 32 * k;
#pragma unroll
    for (int m = 0; m < Sheared::kStoreSteps; ++m) {
      const int i = warp + m * Sheared::kStride;
      const float w = scaled(p.alpha, tile[kShearSlack - shift + j][i]);
      const int64_t row = first_row + j;
      if (inside || (row0 + i < p.rows && row >= 0 && row < p.cols)) {
        p.b[(row0 + i) * p.ldb + row] = w;
      }
    }
  }
}

// One block per sheared tile, in groups of GroupRows rows of A (see grouped_tile).
template <int GroupRows>
__global__ void __launch_bounds__(Sheared::kThreads, kResidentThreadsPerSm / Sheared::kThreads)
    transpose_sheared_kernel(Args p, int64_t row_tiles, int64_t col_tiles) {
  static_assert(GroupRows % Sheared::kTileRows == 0, "groups of whole tile rows");
  __shared__ ShearedTile tile;
  int64_t row_tile, col_tile;
  grouped_tile<GroupRows / Sheared::kTileRows>(blockIdx.x, row_tiles, col_tiles, row_tile,
                                               col_tile);
  const int64_t row0 = row_tile * Sheared::kTileRows;
  const int64_t col0 = col_tile * Sheared::kTileCols;
  const bool inside = row0 + Sheared::kTileRows <= p.rows && col0 >= kShearSlack &&
                      col0 + Sheared::kTileCols <= p.cols;
  load_sheared_tile(p, row0, col0, inside, tile);
  __syncthreads();
  store_sheared_tile(p, row0, col0, inside, tile);
}

// In place, square: block k of the upper triangle of tiles (diagonal included) owns the tile
// pair (ti, tj), (tj, ti), ti <= tj: it reads both into shared memory, then writes each one's
// transpose to the other's place. Blocks touch disjoint tiles, so no block reads what another
// writes.
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads)
    transpose_inplace_square_kernel(float* m, int64_t n, int64_t ld, float alpha) {
  static_assert(Shape::kTileRows == Shape::kTileCols, "tile pairs swap places: square tiles");
  __shared__ typename Shape::Tile upper, lower;
  const int64_t k = blockIdx.x;
  int64_t tj = int64_t((sqrt(8.0 * double(k) + 1.0) - 1.0) / 2.0);
  while (tj * (tj + 1) / 2 > k) --tj;  // the double square root can be one off either way
  while ((tj + 1) * (tj + 2) / 2 <= k) ++tj;
  const int64_t ti = k - tj * (tj + 1) / 2;
  const int64_t r_upper = ti * Shape::kTileRows, c_upper = tj * Shape::kTileCols;
  load_tile<Shape>(m, ld, n, n, r_upper, c_upper, upper);
  if (ti != tj) load_tile<Shape>(m, ld, n, n, c_upper, r_upper, lower);
  __syncthreads();
  store_tile_transposed<Shape>(m, ld, n, n, r_upper, c_upper, upper, alpha);
  if (ti != tj) store_tile_transposed<Shape>(m, ld, n, n, c_upper, r_upper, lower, alpha);
}

// Scaled copy: block (x, y) copies rows [x * kRowsPerBlock, (x + 1) * kRowsPerBlock) of column y
// (and of every gridDim.y-th column after it), kRuns elements per thread spaced a block apart
// (coalesced), all loads before all stores. Each element is read and written by one thread, so
// a == b with lda == ldb (in place) is safe. 4-byte accesses reach the device-to-device copy rate
// here (measured on an H200, docs/NOTES-memory-bound.md), so there is no 16-byte variant.
template <int kRuns, int kThreads>
__global__ void __launch_bounds__(kThreads) scale_copy_kernel(Args p) {
  static_assert(kThreads % 32 == 0, "whole warps: a warp covers 32 consecutive rows");
  constexpr int64_t kRowsPerBlock = int64_t(kThreads) * kRuns;
  const int64_t row = int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x;
  for (int64_t col = blockIdx.y; col < p.cols; col += gridDim.y) {
    float v[kRuns][1];
#pragma unroll
    for (int s = 0; s < kRuns; ++s)
      load_run<1>(p.a, p.lda, p.rows, p.cols, row + int64_t(s) * kThreads, col, v[s]);
#pragma unroll
    for (int s = 0; s < kRuns; ++s) {
      v[s][0] = scaled(p.alpha, v[s][0]);
      store_run<1>(p.b, p.ldb, p.rows, p.cols, row + int64_t(s) * kThreads, col, v[s]);
    }
  }
}

constexpr int64_t kMaxGridY = 65535;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

// The elements spanned by an ld-strided rows x cols matrix, as a half-open address range.
bool spans_overlap(const float* a, int64_t lda, int64_t a_rows, int64_t a_cols, const float* b,
                   int64_t ldb, int64_t b_rows, int64_t b_cols) {
  const float* a_end = a + (a_cols - 1) * lda + a_rows;
  const float* b_end = b + (b_cols - 1) * ldb + b_rows;
  return a < b_end && b < a_end;
}

// The arguments every variant needs: sizes >= 1, valid leading dimensions, a device able to run
// the sm_80+ code this file is built for. (The router may ask with b == nullptr, meaning "some
// buffer apart from A".)
bool well_formed(const TransposeProblem& p, const DeviceCaps& caps) {
  return caps.sm_version >= 80 && p.rows >= 1 && p.cols >= 1 && p.lda >= p.rows &&
         p.ldb >= p.b_rows();
}

bool out_of_place(const TransposeProblem& p) {
  return !spans_overlap(p.a, p.lda, p.rows, p.cols, p.b, p.ldb, p.b_rows(), p.b_cols());
}

// Scaled copy may also run in place: each element is read and written by the same thread.
bool copy_in_place_or_disjoint(const TransposeProblem& p) {
  return (p.a == p.b && p.lda == p.ldb) || out_of_place(p);
}

// Tile shapes (rows x columns of A, access width, threads) and group heights (rows of A; see
// grouped_tile), measured on an H200 (docs/NOTES-memory-bound.md): for the 64x64 16-byte
// tiles, 256-row groups beat 512-row groups (by 0-1.5 %), 2048, 8192 and plain row-major order
// (3-5 %), and 64x128 tiles (0-1 %) at 4096^2..16384^2. The sheared 4-byte tiles (their shape is
// above, with their kernel) take the 16-byte tiles' group height: their blocks cover about the
// same patches of A. At odd sizes (4097^2, 8191^2 on the H200) they ran at 1.18 / 1.09 of
// cublasSgeam, where 64x64 tiles cut at fixed rows ran at 0.97 / 0.87 and 32x32 ones at 0.87 /
// 0.76.
using TiledVec4 = TileShape<64, 64, 4, 256>;
using InplaceSquare = TileShape<32, 32, 1, 256>;
constexpr int kGroupRowsVec4 = 256;
constexpr int kGroupRowsSheared = 256;

template <class Shape, int GroupRows>
cudaError_t launch_tiled_with(const TransposeProblem& p, cudaStream_t stream) {
  const int64_t row_tiles = ceil_div(p.rows, Shape::kTileRows);
  const int64_t col_tiles = ceil_div(p.cols, Shape::kTileCols);
  transpose_tiled_kernel<Shape, GroupRows>
      <<<unsigned(row_tiles * col_tiles), Shape::kThreads, 0, stream>>>(args_of(p), row_tiles,
                                                                        col_tiles);
  return cudaGetLastError();
}

int64_t sheared_col_tiles(int64_t cols) {
  return ceil_div(cols + kShearSlack - 1, Sheared::kTileCols);
}

constexpr int kCopyRuns = 4;
constexpr int kCopyThreads = 256;

cudaError_t launch_scale_copy_kernel(const TransposeProblem& p, cudaStream_t stream) {
  Args args = args_of(p);
  if (p.lda == p.rows && p.ldb == p.rows) {  // contiguous: one long column fills every block
    args.rows = p.rows * p.cols;
    args.cols = 1;
  }
  const int64_t rows_per_block = int64_t(kCopyThreads) * kCopyRuns;
  const dim3 grid(unsigned(ceil_div(args.rows, rows_per_block)),
                  unsigned(args.cols < kMaxGridY ? args.cols : kMaxGridY));
  scale_copy_kernel<kCopyRuns, kCopyThreads><<<grid, kCopyThreads, 0, stream>>>(args);
  return cudaGetLastError();
}

template <class Shape>
bool tiles_fit_grid(const TransposeProblem& p) {
  const int64_t tiles = ceil_div(p.rows, Shape::kTileRows) * ceil_div(p.cols, Shape::kTileCols);
  return tiles <= INT32_MAX;
}

// The 16-byte rows: A and B 16-byte aligned, every column too (lda, ldb multiples of 4).
template <class Shape>
bool supports_vec4_shape(const TransposeProblem& p, const DeviceCaps& caps) {
  return well_formed(p, caps) && p.trans == Op::kTrans && out_of_place(p) && aligned16(p.a) &&
         aligned16(p.b) && p.lda % 4 == 0 && p.ldb % 4 == 0 && tiles_fit_grid<Shape>(p);
}

}  // namespace

bool supports_tiled_vec4(const TransposeProblem& p, const DeviceCaps& caps) {
  return supports_vec4_shape<TiledVec4>(p, caps);
}

cudaError_t launch_tiled_vec4(const TransposeProblem& p, cudaStream_t stream) {
  return launch_tiled_with<TiledVec4, kGroupRowsVec4>(p, stream);
}

bool supports_sheared_64x64(const TransposeProblem& p, const DeviceCaps& caps) {
  return well_formed(p, caps) && p.trans == Op::kTrans && out_of_place(p) &&
         ceil_div(p.rows, Sheared::kTileRows) * sheared_col_tiles(p.cols) <= INT32_MAX;
}

cudaError_t launch_sheared_64x64(const TransposeProblem& p, cudaStream_t stream) {
  const int64_t row_tiles = ceil_div(p.rows, Sheared::kTileRows);
  const int64_t col_tiles = sheared_col_tiles(p.cols);
  transpose_sheared_kernel<kGroupRowsSheared>
      <<<unsigned(row_tiles * col_tiles), Sheared::kThreads, 0, stream>>>(args_of(p), row_tiles,
                                                                          col_tiles);
  return cudaGetLastError();
}

bool supports_inplace_square(const TransposeProblem& p, const DeviceCaps& caps) {
  const int64_t tiles = ceil_div(p.rows, InplaceSquare::kTileRows);
  return well_formed(p, caps) && p.trans == Op::kTrans && p.a == p.b && p.rows == p.cols &&
         p.lda == p.ldb && tiles * (tiles + 1) / 2 <= INT32_MAX;
}

cudaError_t launch_inplace_square(const TransposeProblem& p, cudaStream_t stream) {
  const int64_t tiles = ceil_div(p.rows, InplaceSquare::kTileRows);
  const unsigned pairs = unsigned(tiles * (tiles + 1) / 2);
  transpose_inplace_square_kernel<InplaceSquare>
      <<<pairs, InplaceSquare::kThreads, 0, stream>>>(p.b, p.rows, p.lda, p.alpha);
  return cudaGetLastError();
}

bool supports_scale_copy(const TransposeProblem& p, const DeviceCaps& caps) {
  return well_formed(p, caps) && p.trans == Op::kNoTrans && copy_in_place_or_disjoint(p);
}

cudaError_t launch_scale_copy(const TransposeProblem& p, cudaStream_t stream) {
  return launch_scale_copy_kernel(p, stream);
}

}  // namespace tileblas::transpose
