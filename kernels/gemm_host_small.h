// gemm_host_small: fp32, fp64, complex and complex double GEMM on host memory, on the calling CPU
// thread, for problems small enough that a CPU BLAS call's fixed costs (argument checks, buffer
// allocation, threading decisions) are a large part of its time. The router takes it where the
// calibration measured it faster than the CPU BLAS (src/router.cpp); it is never used for device or
// managed data.
//   C = alpha * op(A) * op(B) + beta * C   (column-major, any m, n, k >= 1, any leading dimensions
//   >= the minimum, any alignment; alpha == 0: A and B are not read; beta == 0: C is not read, so
//   NaN in C does not leak)
// Only C's m x n elements are written (rows m..ldc-1 stay untouched).
//
// Layout: op(A) in blocks of kMr rows: read in place when A is not transposed, else packed (k
// columns of kMr elements); a last partial block of more than one vector of rows is packed,
// zero-padded past m; one of at most a vector's rows runs with one-vector tiles of the narrowest
// vector that holds it (down to 16 bytes), read in place where it fills that vector exactly and A
// is not transposed, else packed, zero-padded. op(B) in panels of kNr columns, read in place; the
// last n % kNr columns in panels of 4, 2 and 1 columns, read in place too (tiles that narrow).
// Each block of op(A) is multiplied by every panel of op(B), so op(A) is read once. The
// microkernel holds a kMr x kNr tile of C in vector registers and, per step of k, loads kMr/lanes
// vectors of A and broadcasts kNr elements of B (an outer product of fused multiply-adds). Full
// tiles update C with vector loads and stores, edge rows element by element.
//
// Complex data runs as one real problem of twice the rows and twice the k (the "1m" method): op(A)
// as a real 2m x 2k matrix whose columns 2l and 2l + 1 hold column l's (re, im) and (-im, re)
// pairs, op(B) as a real 2k x n matrix of real and imaginary rows; their real product is op(A)
// op(B) in C's own interleaved storage. The odd columns are formed in registers from the even
// ones (a permute and a sign per vector), so op(A) is read in place when A is not transposed, and
// op(B) when B is not; a transposed operand is packed as (re, im) pairs, conjugated where asked.
// alpha and beta are applied as C is stored: a complex scalar s to x as re(s) x + im(s) (i x),
// with the same permute.
//
// Variants, one per instruction set, each compiled in a file of its own with that set enabled
// (kernels/gemm_host_small_<isa>.cpp), each for fp32 and fp64 from one body: AVX-512 32x8 (fp32) /
// 16x8 (fp64), 16 of 32 zmm registers accumulating; AVX2+FMA 16x6 / 8x6, 12 of 16 ymm. A CPU with
// neither has no variant: supports() is false everywhere.
#pragma once

#include <cstdint>

#include "problem.h"

namespace tileblas::gemm_host_small {

enum class Isa : uint8_t { kNone, kAvx2, kAvx512 };

// The widest variant this CPU runs (checked once), or kNone.
Isa best_isa();
// "gemm_host_small_avx512_f32_32x8", "gemm_host_small_avx2_c64_1m_8x6", ...; "none" for kNone.
const char* name_of(Isa isa, DataType type = DataType::kF32);

// Host f32, f64, c32 or c64 problems (A, B and C of one type; transposes N, T, C) with m, n, k >= 1
// and at most kMaxElements reals of packed operands, on a CPU that has `isa`.
bool supports(const Problem& p, Isa isa);
// Computes p with `isa`'s variant; supports(p, isa) must hold.
void run(const Problem& p, Isa isa);

// The packed operands' bound (16 MiB of fp32, 32 MiB of fp64 workspace per calling thread at most).
constexpr int64_t kMaxElements = int64_t(1) << 22;

}  // namespace tileblas::gemm_host_small
