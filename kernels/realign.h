// realign: copies column-major matrices of 2- or 4-byte elements as they lie into columns that
// start on 16-byte boundaries, so that the copy engine (TMA), which needs 16-byte aligned bases
// and strides, can read them. Used by the wgmma rows to stage operands they cannot read in place.
//
//   dst(r, c) = src(r, c)   for r < rows, c < cols, for each of up to two matrices in one launch
//
// src: element-aligned (2 or 4 bytes), any leading dimension ld_src >= rows. dst: 16-byte
// aligned, ld_dst >= rows a multiple of 16 bytes. Only the rows x cols elements are read and
// written (dst's padding rows rows..ld_dst-1 are not written). Source and destination must not
// overlap. Asynchronous on `stream`.
//
// How: a warp copies one column at a time in 16-byte chunks of dst (one aligned 16-byte store a
// lane). A chunk whose source lies inside the column is read as the two aligned 16-byte blocks
// that cover it and shifted into place (funnel shifts by the column's offset within 16 bytes);
// the chunks at the column's ends, which would read past it, are read element by element. So the
// copy runs at the rate of aligned 16-byte accesses whatever src's alignment (cudaMemcpy2DAsync
// ran an 8193 x 1024 fp16 copy with an odd leading dimension at half the rate of a contiguous copy
// of the same bytes on an H200).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tileblas::realign {

struct Matrix {
  const void* src;
  int64_t ld_src;  // elements
  void* dst;
  int64_t ld_dst;  // elements
  int64_t rows, cols;
};

// Copies count (1 or 2) matrices of elem_bytes (2 or 4) elements. cudaErrorInvalidValue where
// the arguments break the contract above (checked: sizes, leading dimensions, dst alignment).
cudaError_t copy(const Matrix* matrices, int count, int elem_bytes, cudaStream_t stream);

}  // namespace tileblas::realign
