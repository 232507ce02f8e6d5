// The small operations on diagonal blocks that the Level-3 plans (src/level3_plan.h) use beside
// GEMM, as problems: the kernel families in kernels/ (tri_update, tri_fill, tri_block, tri_invert)
// compute them on the device, a test backend's loops on the host. Column-major, element types f32,
// f64, c32, c64 (complex as interleaved re, im pairs). Plain C++, no CUDA types.
#pragma once

#include <cstdint>

#include "problem.h"

namespace tileblas {

// Which elements of a matrix an operation touches: a triangle with its diagonal, all of them, or
// the diagonal alone.
enum class Fill : uint8_t { kLower, kUpper, kFull, kDiagonal };

// C = T + beta*C on the elements of C that `fill` names (m == n for a triangle or the diagonal);
// nothing else of C is read or written.
//   t == nullptr: T = 0 (C = beta*C; beta == 0 writes zeros).
//   block > 0 (with t): only elements whose row and column lie in the same diagonal block of order
//     `block` (i / block == j / block) are updated; T holds these blocks stacked, C's element
//     (i, j) taken from T's (i, j mod block), T m x block. block == 0: T is m x n like C.
//   real_diagonal (herk, her2k): diagonal elements become Re(T_jj) + Re(beta)*Re(C_jj) + 0i.
// beta == 0: C is not read (NaN there does not leak).
struct TriUpdateProblem {
  DataType type = DataType::kF32;
  Fill fill = Fill::kLower;
  bool real_diagonal = false;
  int64_t m = 0, n = 0;
  int64_t block = 0;
  Scalar beta = 0.0;
  const void* t = nullptr;
  int64_t ldt = 0;
  void* c = nullptr;
  int64_t ldc = 0;
};

// What tri_fill makes of the triangle outside `uplo`.
enum class TriFillMode : uint8_t {
  kSymmetric,   // B_ij = A_ji
  kHermitian,   // B_ij = conj(A_ji); the diagonal's imaginary parts become 0
  kTriangular,  // B_ij = 0; diag kUnit: the diagonal becomes 1 (A's is not read)
};

// B (n x n, every element written) from the `uplo` triangle of A (n x n; only that triangle is
// read, and not its diagonal for kTriangular with kUnit). A and B do not overlap.
struct TriFillProblem {
  DataType type = DataType::kF32;
  Uplo uplo = Uplo::kLower;
  TriFillMode mode = TriFillMode::kSymmetric;
  Diag diag = Diag::kNonUnit;
  int64_t n = 0;
  const void* a = nullptr;
  int64_t lda = 0;
  void* b = nullptr;
  int64_t ldb = 0;
};

enum class TriBlockOp : uint8_t { kMultiply, kSolve };

// A small triangular block applied to many vectors, in place (trmm's and trsm's diagonal blocks):
//   side kLeft:  B = alpha*op(A)*B      or  B = alpha*op(A)^-1*B;  B order x count
//   side kRight: B = alpha*B*op(A)      or  B = alpha*B*op(A)^-1;  B count x order
// A is order x order, triangular (`uplo`; only that triangle is read; diag kUnit: the diagonal is
// taken as ones and not read); op per `trans` (kConjTrans for complex data). Solves divide by A's
// diagonal (no check for zeros, as netlib).
struct TriBlockProblem {
  DataType type = DataType::kF32;
  TriBlockOp op = TriBlockOp::kSolve;
  Side side = Side::kLeft;
  Uplo uplo = Uplo::kLower;
  Op trans = Op::kNoTrans;
  Diag diag = Diag::kNonUnit;
  int64_t order = 0;
  int64_t count = 0;
  Scalar alpha = 1.0;
  const void* a = nullptr;
  int64_t lda = 0;
  void* b = nullptr;
  int64_t ldb = 0;

  int64_t b_rows() const { return side == Side::kLeft ? order : count; }
  int64_t b_cols() const { return side == Side::kLeft ? count : order; }
};

// The inverses of A's diagonal blocks of order `block` (the last one n - (blocks() - 1) * block if
// that is less), A n x n triangular (`uplo`; only that triangle of each diagonal block is read;
// diag kUnit: the diagonal is taken as ones and not read). Block b (A's rows and columns
// [b*block, b*block + len)) goes to inv + b*block*block elements, leading dimension `block`, every
// element of its len x len written: the inverse in the `uplo` triangle, zeros in the other.
// Divides by A's diagonal (no check for zeros, as netlib).
struct TriInvertProblem {
  DataType type = DataType::kF32;
  Uplo uplo = Uplo::kLower;
  Diag diag = Diag::kNonUnit;
  int64_t n = 0;
  int64_t block = 1;
  const void* a = nullptr;
  int64_t lda = 0;
  void* inv = nullptr;

  int64_t blocks() const { return (n + block - 1) / block; }
};

}  // namespace tileblas
