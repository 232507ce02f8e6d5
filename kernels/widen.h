// widen: copies column-major complex fp32 matrices into complex fp64 ones, so that the FP64
// tensor-core rows can compute complex fp32 GEMM (kernels/gemm_f64_mma.h, the cgemm_widened rows).
//
//   dst(r, c) = (double(src(r, c).re), double(src(r, c).im))   for r < rows, c < cols,
//
// for each of up to two matrices in one launch. Exact: every float is a double. src: 4-byte
// aligned (its parts), any leading dimension ld_src >= rows (elements). dst: 16-byte aligned,
// ld_dst >= rows. Only the rows x cols elements are read and written (dst's padding rows are not
// written). Source and destination must not overlap. Asynchronous on `stream`.
//
// How: both matrices are cut into tiles of 128 rows and 8 columns, and a block of 32 x 8 threads
// takes one tile at a time (a grid sized to the tiles of both, so a short wide matrix beside a
// tall narrow one launches no idle blocks); a thread reads an element as one 8-byte load where
// src is 8-byte aligned (else as two 4-byte loads) and writes it as one 16-byte store, consecutive
// lanes on consecutive rows (whole 32-byte sectors both ways).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tileblas::widen {

struct Matrix {
  const void* src;  // complex fp32 (interleaved re, im)
  int64_t ld_src;   // elements
  void* dst;        // complex fp64
  int64_t ld_dst;   // elements
  int64_t rows, cols;
};

// Widens count (1 or 2) matrices. cudaErrorInvalidValue where the arguments break the contract
// above (checked: count, sizes, leading dimensions, alignment).
cudaError_t complex_to_double(const Matrix* matrices, int count, cudaStream_t stream);

}  // namespace tileblas::widen
