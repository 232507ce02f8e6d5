// widen: fp32 and complex fp32 matrices copied into fp64 ones, and fp64 results narrowed back, so
// that the FP64 tensor-core rows can compute fp32 and complex fp32 GEMM (kernels/gemm_f64_mma.h,
// the sgemm_widened and cgemm_widened rows).
//
// real_to_double (the sgemm_widened rows): dst(r, c) = double(src(r, c)) for r < rows, c < cols,
// or, for a matrix marked `transposed`, dst(c, r) = double(src(r, c)) (dst then holds cols x
// rows), for each of up to two matrices in one launch. Exact.
//
// complex_to_double (cgemm_widened_64x64x8 and its split-K row): interleaved complex fp64,
//   dst(r, c) = (double(src(r, c).re), double(src(r, c).im))   for r < rows, c < cols,
// for each of up to two matrices in one launch.
//
// complex_to_planes (the cgemm_widened_3m rows): three real fp64 planes, one after another,
//   plane 0: double(src(r, c).re)
//   plane 1: s double(src(r, c).im)                  s = -1 where `conjugate`, else 1
//   plane 2: double(src(r, c).re) + s double(src(r, c).im)
// at (r, c) of each plane, or at (c, r) for a matrix marked `transposed`, for each of up to two
// matrices in one launch. Planes 0 and 1 are exact (every float is a
// double); plane 2 is the fp64 sum, exact unless the parts' exponents differ by more than 29.
//
// combine_3m: C from the three real products of the 3M scheme, P0 = Ar Br, P1 = Ai Bi and
// P2 = (Ar + Ai)(Br + Bi) (planes of products, fp64):
//   x = (P0 - P1) + i (P2 - P0 - P1),   C = alpha x + beta C   in fp64, rounded once to complex
//   fp32,
// for the elements of C in `triangle` (the others are neither read nor written); C is read only
// where beta != 0; products == nullptr: x = 0 (alpha == 0 or k == 0: C = beta C, no product read).
//
// Contract for all: src and C 4-byte aligned (their parts), any leading dimension >= rows
// (elements); fp64 destinations (real_to_double: 8-byte aligned) and products 16-byte aligned,
// leading dimension >= their rows (a transposed matrix's destination: >= cols), planes
// `plane` doubles apart (plane >= ld * the destination's columns). Only the rows x cols elements
// (of each plane) are read and written: padding rows are not touched. Sources and destinations must
// not overlap. Asynchronous on `stream`; cudaErrorInvalidValue where the arguments break the
// contract (checked: counts, sizes, leading dimensions, plane strides, alignment).
//
// How: each matrix is cut into tiles of 128 rows and 8 columns, and a block of 32 x 8 threads
// takes one tile at a time (a grid sized to the tiles of both matrices, so a short wide matrix
// beside a tall narrow one launches no idle blocks); a thread handles 4 rows 32 apart of one
// column, consecutive lanes on consecutive rows (whole 32-byte sectors every way). Complex fp32
// elements are read as one 8-byte load where the matrix is 8-byte aligned (else as two 4-byte
// loads); complex fp64 ones written as one 16-byte store, real ones as one 4-byte load and one
// 8-byte store. A transposed tile passes through shared memory: read as above, then written a
// destination column's 8 consecutive elements (64 bytes a plane) by 8 consecutive lanes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "problem.h"

namespace tileblas::widen {

struct Matrix {
  const void* src;  // fp32 (complex: interleaved re, im)
  int64_t ld_src;   // elements
  void* dst;        // fp64 (complex: interleaved re, im)
  int64_t ld_dst;   // elements
  int64_t rows, cols;
  bool transposed = false;  // real_to_double only
};

// Widens count (1 or 2) fp32 matrices.
cudaError_t real_to_double(const Matrix* matrices, int count, cudaStream_t stream);
// Widens count (1 or 2) complex fp32 matrices.
cudaError_t complex_to_double(const Matrix* matrices, int count, cudaStream_t stream);

struct Planes {
  const void* src;  // complex fp32 (interleaved re, im)
  int64_t ld_src;   // elements
  double* dst;      // plane 0; plane i at dst + i * plane
  int64_t ld_dst;   // elements
  int64_t plane;    // doubles
  int64_t rows, cols;
  bool conjugate;
  bool transposed = false;  // plane i (c, r) from src(r, c): the planes hold cols x rows
};

// Splits count (1 or 2) matrices into their 3M planes.
cudaError_t complex_to_planes(const Planes* matrices, int count, cudaStream_t stream);

struct Products {
  const double* p;  // P0; P1 at p + plane, P2 at p + 2 plane; nullptr: none (x = 0)
  int64_t ld;       // elements
  int64_t plane;    // doubles
};

// C (m x n complex fp32, ldc) = alpha x + beta C in `triangle`, x from the 3M products.
cudaError_t combine_3m(const Products& products, int64_t m, int64_t n, Scalar alpha, Scalar beta,
                       void* c, int64_t ldc, Triangle triangle, cudaStream_t stream);

}  // namespace tileblas::widen
