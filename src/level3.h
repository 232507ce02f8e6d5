// The Level-3 routines other than GEMM (symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm), as the
// library describes them internally: column-major (compat/ has mapped CBLAS row-major calls), 'C'
// already kTrans for real data, pointers as the caller gave them (host, device or managed).
#pragma once

#include <cstdint>

#include "problem.h"

namespace tileblas {

enum class Level3Op : uint8_t { kSymm, kHemm, kSyrk, kHerk, kSyr2k, kHer2k, kTrmm, kTrsm };
enum class Side : uint8_t { kLeft, kRight };
enum class Uplo : uint8_t { kUpper, kLower };
enum class Diag : uint8_t { kNonUnit, kUnit };

const char* name_of(Level3Op op);

// One call, with netlib's meaning of each field (only the fields its routine has are set):
//   symm/hemm    C = alpha*A*B + beta*C (side L) or alpha*B*A + beta*C (side R); C, B m x n;
//                A is m x m (L) or n x n (R), symmetric (hemm: Hermitian) and only its `uplo`
//                triangle is read (hemm: its diagonal's imaginary parts are taken as zero).
//   syrk/herk    C = alpha*op(A)*op(A)^T + beta*C (herk: ^H; alpha, beta real); C n x n, only its
//                `uplo` triangle is read and written (herk: the diagonal's imaginary parts are set
//                to zero); op(A) n x k: trans kNoTrans, A is n x k; else A is k x n.
//   syr2k/her2k  C = alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C (her2k: ^H, conj(alpha)
//                on the second term, beta real); shapes as syrk, B like A.
//   trmm         B = alpha*op(A)*B (side L) or alpha*B*op(A) (side R); B m x n, read and written
//                (held in `c`/`ldc`); A triangular (`uplo`, `diag`: kUnit means the diagonal is
//                taken as ones and never read), m x m (L) or n x n (R); trans may be kConjTrans for
//                complex data.
//   trsm         op(A)*X = alpha*B (L) or X*op(A) = alpha*B (R); X overwrites B (held in `c`).
// beta == 0: C is not read (NaN there does not leak); alpha == 0: A and B are not read.
struct Level3Problem {
  Level3Op op = Level3Op::kSyrk;
  DataType type = DataType::kF32;
  Side side = Side::kLeft;
  Uplo uplo = Uplo::kUpper;
  Op trans = Op::kNoTrans;
  Diag diag = Diag::kNonUnit;
  int64_t m = 0, n = 0, k = 0;
  Scalar alpha = 1.0;
  Scalar beta = 0.0;
  const void* a = nullptr;
  int64_t lda = 0;
  const void* b = nullptr;  // symm/hemm, syr2k/her2k
  int64_t ldb = 0;
  void* c = nullptr;  // C; for trmm/trsm, B
  int64_t ldc = 0;
  NameSet name_set = NameSet::kStandard;  // whose CPU BLAS runs the call on the CPU

  // The order of the triangular or symmetric A: m for side L, n for side R (syrk..her2k: n).
  int64_t a_order() const { return side == Side::kLeft ? m : n; }
  // Real floating-point operations of the call (complex multiply-adds count 8).
  double flops() const;
};

}  // namespace tileblas
