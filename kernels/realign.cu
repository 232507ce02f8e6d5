// realign: matrices copied into 16-byte aligned columns. The contract is in realign.h.
#include "realign.h"

#include "byte_shift.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace tileblas::realign {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;  // one column a warp
// 16-byte chunks a lane copies of a column piece. One: pieces of 512 bytes a warp, so that a grid
// of a few waves ends evenly (8193x1024 fp16 at 4 chunks a lane made 1,152 blocks, 1.09 waves of
// the H100: 17.6 us; at one, 4,224 blocks: 16.8 us,
// docs/bench/h100-2026-11-27-realign-one-chunk-ncu.csv).
constexpr int kChunksPerLane = 1;
constexpr int kChunksPerPiece = 32 * kChunksPerLane;

struct Args {
  Matrix m[2];
};

template <int kElem>
using Element = std::conditional_t<kElem == 2, uint16_t, uint32_t>;

// A 16-byte chunk, whole or element by element.
template <int kElem>
union Chunk {
  uint4 v;
  Element<kElem> e[16 / kElem];
};

template <int kElem>
__global__ void __launch_bounds__(kThreads) realign_kernel(Args args) {
  const Matrix mat = blockIdx.z == 0 ? args.m[0] : args.m[1];
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const int64_t col = int64_t(blockIdx.x) * kWarps + warp;
  if (col >= mat.cols) return;
  const int64_t bytes = mat.rows * kElem;  // of a column
  const int64_t chunks = (bytes + 15) / 16;
  const unsigned char* const src =
      static_cast<const unsigned char*>(mat.src) + col * mat.ld_src * kElem;
  unsigned char* const dst = static_cast<unsigned char*>(mat.dst) + col * mat.ld_dst * kElem;
  const int shift = int(reinterpret_cast<uintptr_t>(src) % 16);  // the same for every chunk
  for (int64_t piece = blockIdx.y; piece * kChunksPerPiece < chunks; piece += gridDim.y) {
#pragma unroll
    for (int i = 0; i < kChunksPerLane; ++i) {
      const int64_t off = (piece * kChunksPerPiece + i * 32 + lane) * 16;
      if (off >= bytes) break;
      const bool whole = off + 16 <= bytes;
      const unsigned char* const from = src + off;
      const uint4* const block = reinterpret_cast<const uint4*>(from - shift);
      Chunk<kElem> c;
      if (whole && shift == 0) {
        c.v = *block;
      } else if (off >= 16 && off + 32 - shift <= bytes) {  // both covering blocks in the column
        c.v = ptx::bytes_at(block[0], block[1], shift);
      } else {  // the column's ends: element by element, nothing past the column read
        const Element<kElem>* const e = reinterpret_cast<const Element<kElem>*>(from);
#pragma unroll
        for (int j = 0; j < 16 / kElem; ++j) c.e[j] = off + j * kElem < bytes ? e[j] : 0;
      }
      if (whole) {
        *reinterpret_cast<uint4*>(dst + off) = c.v;
      } else {
        Element<kElem>* const e = reinterpret_cast<Element<kElem>*>(dst + off);
        for (int j = 0; off + j * kElem < bytes; ++j) e[j] = c.e[j];
      }
    }
  }
}

bool valid(const Matrix& m, int elem_bytes) {
  if (m.rows < 0 || m.cols < 0 || m.ld_src < std::max<int64_t>(1, m.rows) ||
      m.ld_dst < std::max<int64_t>(1, m.rows) || m.ld_dst * elem_bytes % 16 != 0)
    return false;
  if (m.rows == 0 || m.cols == 0) return true;
  return m.src != nullptr && m.dst != nullptr && reinterpret_cast<uintptr_t>(m.dst) % 16 == 0 &&
         reinterpret_cast<uintptr_t>(m.src) % elem_bytes == 0;
}

}  // namespace

cudaError_t copy(const Matrix* matrices, int count, int elem_bytes, cudaStream_t stream) {
  if (count < 1 || count > 2 || (elem_bytes != 2 && elem_bytes != 4)) return cudaErrorInvalidValue;
  Args args{};
  int64_t col_groups = 0, pieces = 0;
  for (int i = 0; i < count; ++i) {
    if (!valid(matrices[i], elem_bytes)) return cudaErrorInvalidValue;
    args.m[i] = matrices[i];
    if (matrices[i].rows == 0) continue;
    const int64_t chunks = (matrices[i].rows * elem_bytes + 15) / 16;
    col_groups = std::max(col_groups, (matrices[i].cols + kWarps - 1) / kWarps);
    pieces = std::max(pieces, (chunks + kChunksPerPiece - 1) / kChunksPerPiece);
  }
  if (col_groups == 0 || pieces == 0) return cudaSuccess;
  if (col_groups > INT32_MAX) return cudaErrorInvalidValue;
  const dim3 grid(unsigned(col_groups), unsigned(std::min<int64_t>(pieces, 65535)),
                  unsigned(count));
  if (elem_bytes == 2) {
    realign_kernel<2><<<grid, kThreads, 0, stream>>>(args);
  } else {
    realign_kernel<4><<<grid, kThreads, 0, stream>>>(args);
  }
  return cudaGetLastError();
}

}  // namespace tileblas::realign
