// gemm_mma: tensor-core GEMM through mma.sync (Ampere/Hopper warp-level MMA), fp32 accumulation.
//
// Computes  C = alpha * op(A) * op(B) + beta * C  (column-major, Problem's conventions) with
//   f16  rows: A, B IEEE fp16;  C fp32 (gemm_f16f16f32), fp16 (hgemm) or bf16; mma m16n8k16.f16
//   bf16 rows: A, B bfloat16;   C fp32 (sbgemm, gemm_bf16bf16f32) or bf16;     mma m16n8k16.bf16
//   tf32 rows: A, B fp32 rounded to TF32 (cvt.rna) in registers; C fp32;       mma m16n8k8.tf32
//              only when the problem opts in (Problem::allow_tf32).
// All products are accumulated in fp32; the epilogue computes alpha * acc + beta * C in fp32 and
// rounds once to C's type.
//
// Tiling: a block computes a 128 x 128 tile of C with 4 warps (2 x 2), each warp a 64 x 64 tile
// (4 x 8 MMAs per k-step); two blocks per SM. Block k-tile: 32 elements (16-bit) or 16 (fp32),
// i.e. 64-byte rows; a 4-stage cp.async pipeline (64 KiB of shared memory). Main loop: the next
// k-step's fragments are loaded into the registers of the current one as soon as those are dead,
// so shared-memory latency hides behind MMAs; one barrier per k-tile, in its last k-step. Shared
// memory stores each operand tile as it lies in global memory (k-contiguous or m/n-contiguous),
// XOR-swizzled in 16-byte chunks so fragment loads are free of bank conflicts: ldmatrix for
// k-contiguous tiles, ldmatrix.trans for m/n-contiguous 16-bit tiles, and 16-byte loads for
// m/n-contiguous fp32 tiles (four consecutive m or n a lane, which permutes the warp tile's rows or
// columns; the epilogue undoes it, with 16-byte stores where C's alignment allows). All four
// transpose combinations run at about the same speed. Blocks are rasterized in groups of 8 tile
// rows (L2 reuse). The 64x64 rows: 8 warps, two sets of 2 x 2 warps of 32 x 32, each set taking
// every other MMA k-step of a k-tile; the second set's sums are added to the first's through
// shared memory at the end. Two blocks per SM.
//
// Loads: the vector rows (names without "shifted") copy 16-byte chunks straight into the tiles.
// The "shifted" rows take any element alignment: each tile row (a stretch of one column of A or
// B as stored) is copied as the aligned 16-byte blocks that cover it into a raw stage (cp.async,
// 3 stages on the 128x128 rows, 8 on the 64x64 rows), then shifted into the tile (funnel shifts
// by the row's offset within 16 bytes) two k-tiles before it is computed; tiles alternate between
// two buffers. So every access to A and B is an aligned 16-byte one, whatever lda and ldb are. A
// row's first block starts up to 15 bytes before the row (in the same 16-byte block as its first
// element, which every CUDA allocation holds whole); a block is read only up to the row's last
// element inside the matrix, and the blocks within 16 bytes of the matrix's end element by element.
//
// Edges: any m, n >= 1 and k >= 0. Out-of-range rows, columns and k are zero-filled in shared
// memory (cp.async with a short source size), stores are predicated per element.
// k == 0 or alpha == 0: A and B are not read, C = beta * C.  beta == 0: C is not read.
//
// Alignment: the vector rows need A and B 16-byte aligned and lda, ldb multiples of 16 bytes (8
// elements of 16 bits, 4 of fp32); the shifted rows need only element alignment. C needs only
// element alignment. Needs sm_80 or newer and the row's dynamic shared memory per block (vector
// 64 KiB; shifted 128x128 up to 93 KiB, 64x64 up to 97 KiB).
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"

namespace tileblas::gemm_mma {

bool supports_f16_128x128x32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_128x128x32(const Problem& p, cudaStream_t stream);
bool supports_bf16_128x128x32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_128x128x32(const Problem& p, cudaStream_t stream);
bool supports_tf32_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_tf32_128x128x16(const Problem& p, cudaStream_t stream);
bool supports_f16_shifted_128x128x32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_shifted_128x128x32(const Problem& p, cudaStream_t stream);
bool supports_bf16_shifted_128x128x32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_shifted_128x128x32(const Problem& p, cudaStream_t stream);
bool supports_tf32_shifted_128x128x16(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_tf32_shifted_128x128x16(const Problem& p, cudaStream_t stream);
bool supports_f16_shifted_64x64x32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_f16_shifted_64x64x32(const Problem& p, cudaStream_t stream);
bool supports_bf16_shifted_64x64x32(const Problem& p, const DeviceCaps& caps);
cudaError_t launch_bf16_shifted_64x64x32(const Problem& p, cudaStream_t stream);
}  // namespace tileblas::gemm_mma
