// What a call reads and writes, operand by operand, for the code that moves its data: the
// executor's uploads and copies back, the CPU path's copies of GPU memory, and the router's count
// of the bytes a host-data call moves. One description for GEMM and for the other Level-3
// routines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "problem.h"

namespace tileblas {

// A matrix as stored (column-major, before any op()): rows x cols elements, ld-strided.
struct Operand {
  const void* ptr = nullptr;  // nullptr: the routine has no such operand (B of syrk, trmm, ...)
  int64_t ld = 0, rows = 0, cols = 0;
  size_t elem = 0;  // bytes an element
  // `in`: the routine reads its values (copy it in whole): A and B unless alpha == 0 (GEMM: and
  // k == 0); C of gemm, symm, hemm and (its triangle) of syrk .. her2k unless beta == 0; B of
  // trmm/trsm unless alpha == 0 (then it is set to zero without being read).
  bool in = false;
  // `out`: written (C, and B of trmm/trsm, held in C).
  bool out = false;
  // `triangle`: only the `uplo` triangle (the diagonal included) is written, the rest stays as it
  // was (C of syrk .. her2k). A copy back of whole columns moves the rest too, so whoever copies it
  // back so must copy it in first (in_when_copied_back_whole()).
  bool triangle = false;
  Uplo uplo = Uplo::kUpper;

  // Whether a mover that copies the output back whole (rows x cols) must copy it in first.
  bool in_when_copied_back_whole() const { return in || (out && triangle); }
};

struct Operands {
  Operand a, b, c;
};

Operands operands_of(const Problem& p);

// p on the operands at `at` (their pointers and leading dimensions: host copies, device buffers);
// an operand the routine lacks stays as it was.
inline Problem on_operands(Problem p, const Operands& at) {
  if (at.a.ptr) p.a = at.a.ptr, p.lda = at.a.ld;
  if (at.b.ptr) p.b = at.b.ptr, p.ldb = at.b.ld;
  p.c = const_cast<void*>(at.c.ptr), p.ldc = at.c.ld;
  return p;
}

// Whether a Level-3 output copied back in pieces comes back last column first: where the columns
// a failed copy back leaves behind then form a problem of the routine's own and those it leaves
// first do not (syrk .. her2k upper; trmm, trsm side R with op(A) upper).
bool level3_copy_back_last_first(const Problem& p);

// What of p is left to compute once `final_cols` of its output's columns hold the result, copied
// back in the order level3_copy_back_last_first() says: p on the other columns (all of p where
// final_cols is 0), or nullopt where they form no problem of the routine (symm, hemm side R: each
// column of C reads all of A).
std::optional<Problem> level3_columns_left(const Problem& p, int64_t final_cols);

}  // namespace tileblas
