// The problems tileblas computes, as the library describes them internally: column-major, no
// CBLAS order, transposes already normalised ('C' is 'T' for real data), pointers as the caller
// gave them (host, device or managed). Plain C++ with no CUDA types, so compat/, src/, kernels/
// and tests all share them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tileblas {

// kConjTrans only for complex data: compat/ maps a real call's 'C' to kTrans.
enum class Op : uint8_t { kNoTrans, kTrans, kConjTrans };

// Element types. kC32 and kC64 are complex (interleaved re, im pairs of fp32 or fp64), as Fortran's
// COMPLEX and COMPLEX*16 and C's float/double _Complex lie in memory.
enum class DataType : uint8_t { kF32, kF16, kBF16, kF64, kC32, kC64 };
constexpr int kDataTypeCount = 6;

constexpr size_t size_of(DataType t) {
  switch (t) {
    case DataType::kF16:
    case DataType::kBF16:
      return 2;
    case DataType::kF32:
      return 4;
    case DataType::kF64:
    case DataType::kC32:
      return 8;
    case DataType::kC64:
      return 16;
  }
  return 0;
}
constexpr bool is_complex(DataType t) { return t == DataType::kC32 || t == DataType::kC64; }
// Bytes of one real number of type t (of the re or im part for complex types).
constexpr size_t real_size_of(DataType t) { return is_complex(t) ? size_of(t) / 2 : size_of(t); }
const char* name_of(DataType t);
inline const char* name_of(Op op) {
  return op == Op::kNoTrans ? "N" : op == Op::kTrans ? "T" : "C";
}

// The name set of the entry point a call came through (compat/entry_points.txt), which says which
// library the caller would otherwise have reached: the CPU path runs that library's same-named
// routine with that set's integer width (src/cpu_blas.h). kStandard: the standard names of the
// library the call is in (libtileblas: 32-bit integers, libtileblas64: 64-bit), also for calls
// tileblas makes itself.
enum class NameSet : uint8_t {
  kStandard,       // sgemm_, cblas_sgemm
  kStandardIlp64,  // the same names with 64-bit integers (libtileblas64.so, Debian's libblas64)
  kOpenblasIlp64,  // sgemm_64_, cblas_sgemm64_ (OpenBLAS built INTERFACE64=1 SYMBOLSUFFIX=64_)
  kScipy32,        // scipy_sgemm_, scipy_cblas_sgemm (scipy's wheels: scipy-openblas32)
  kScipy64,        // scipy_sgemm_64_, scipy_cblas_sgemm64_ (numpy >= 2 wheels: scipy-openblas64)
};
constexpr int kNameSetCount = 5;

// A call's alpha or beta, widened to double (exact for every element type's scalar); im is 0 for
// real data.
struct Scalar {
  double re = 0, im = 0;
  constexpr Scalar() = default;
  constexpr Scalar(double real, double imag = 0) : re(real), im(imag) {}
  constexpr bool is_zero() const { return re == 0 && im == 0; }
  constexpr bool is_one() const { return re == 1 && im == 0; }
  constexpr bool operator==(const Scalar& o) const { return re == o.re && im == o.im; }
  constexpr bool operator!=(const Scalar& o) const { return !(*this == o); }
};

// Which of C's elements a GEMM computes: all, or one triangle with its diagonal (upper: row <=
// column; lower: row >= column). The rest of C is neither read nor written.
enum class Triangle : uint8_t { kAll, kUpper, kLower };

// The operations a Problem describes: GEMM and the other Level-3 routines. The values index
// per-(operation, type) tables (src/cpu_blas.h's routines, the Level-3 points).
enum class Operation : uint8_t { kGemm, kSymm, kHemm, kSyrk, kHerk, kSyr2k, kHer2k, kTrmm, kTrsm };
constexpr int kOperationCount = 9;
enum class Side : uint8_t { kLeft, kRight };
enum class Uplo : uint8_t { kUpper, kLower };
enum class Diag : uint8_t { kNonUnit, kUnit };

const char* name_of(Operation op);  // "gemm", "symm", ...
// syrk, herk, syr2k, her2k: C's triangle from op(A) (and op(B)).
constexpr bool is_rank_k(Operation op) {
  return op == Operation::kSyrk || op == Operation::kHerk || op == Operation::kSyr2k ||
         op == Operation::kHer2k;
}
// trmm, trsm: B (held in C) in place, A triangular.
constexpr bool is_triangular(Operation op) {
  return op == Operation::kTrmm || op == Operation::kTrsm;
}

// One call, column-major, with netlib's meaning of each field (only the fields its operation has
// are set; the others keep their defaults):
//   gemm         C = alpha*op(A)*op(B) + beta*C; op(A) m x k (trans_a), op(B) k x n (trans_b),
//                C m x n. A is lda-strided with lda >= rows of A as stored (m if kNoTrans, k
//                otherwise); likewise B, C. kConjTrans (complex data) is op(X) = X^H.
//                Accumulation is fp32 for fp32, fp16 and bf16 data, fp64 for fp64 and complex fp64.
//   symm/hemm    C = alpha*A*B + beta*C (side L) or alpha*B*A + beta*C (side R); C, B m x n;
//                A is m x m (L) or n x n (R), symmetric (hemm: Hermitian) and only its `uplo`
//                triangle is read (hemm: its diagonal's imaginary parts are taken as zero).
//   syrk/herk    C = alpha*op(A)*op(A)^T + beta*C (herk: ^H; alpha, beta real); C n x n, only its
//                `uplo` triangle is read and written (herk: the diagonal's imaginary parts are set
//                to zero); op(A) n x k (trans_a): kNoTrans, A is n x k; else A is k x n.
//   syr2k/her2k  C = alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C (her2k: ^H, conj(alpha)
//                on the second term, beta real); shapes as syrk, B like A (trans_a for both).
//   trmm         B = alpha*op(A)*B (side L) or alpha*B*op(A) (side R); B m x n, read and written
//                (held in `c`/`ldc`); A triangular (`uplo`, `diag`: kUnit means the diagonal is
//                taken as ones and never read), m x m (L) or n x n (R); op(A) by trans_a.
//   trsm         op(A)*X = alpha*B (L) or X*op(A) = alpha*B (R); X overwrites B (held in `c`).
// beta == 0: C is not read (NaN there does not leak); alpha == 0: A and B are not read.
struct Problem {
  Operation op = Operation::kGemm;
  DataType type = DataType::kF32;  // element type of A and B; of C too but for gemm (c_type)
  // gemm only: element type of C (`type`, but fp32 for the f16/bf16 GEMMs that accumulate into
  // fp32).
  DataType c_type = DataType::kF32;
  Op trans_a = Op::kNoTrans;
  Op trans_b = Op::kNoTrans;   // gemm only
  Side side = Side::kLeft;     // symm, hemm, trmm, trsm
  Uplo uplo = Uplo::kUpper;    // all but gemm
  Diag diag = Diag::kNonUnit;  // trmm, trsm
  int64_t m = 0, n = 0, k = 0;
  Scalar alpha = 1.0;
  Scalar beta = 0.0;
  const void* a = nullptr;
  int64_t lda = 0;
  const void* b = nullptr;  // gemm, symm/hemm, syr2k/her2k
  int64_t ldb = 0;
  void* c = nullptr;  // C; for trmm/trsm, B
  int64_t ldc = 0;
  // gemm only: this part of C (m == n for a triangle); the rows whose supports() accepts a
  // triangle skip the tiles outside it (syrk .. her2k on the GPU, src/level3_plan.cpp).
  Triangle c_triangle = Triangle::kAll;
  // gemm only: where the caller knows op(A) (op(B)) to be square and zero outside one triangle
  // with its diagonal (trmm's and trsm's GEMM leaves: a diagonal block made full, or its inverse):
  // kLower, op(X)(r, c) == 0 wherever c > r; kUpper, wherever c < r. The rows that take it
  // (supports() need not) skip the k-steps of a tile that meet only those zeros; the others
  // multiply them.
  Triangle a_nonzero = Triangle::kAll;
  Triangle b_nonzero = Triangle::kAll;
  bool allow_tf32 = false;                // fp32 only: the user opted into TF32 tensor cores
  NameSet name_set = NameSet::kStandard;  // whose CPU BLAS runs the call on the CPU

  // gemm: A and B as stored.
  int64_t a_rows() const { return trans_a == Op::kNoTrans ? m : k; }
  int64_t a_cols() const { return trans_a == Op::kNoTrans ? k : m; }
  int64_t b_rows() const { return trans_b == Op::kNoTrans ? k : n; }
  int64_t b_cols() const { return trans_b == Op::kNoTrans ? n : k; }
  // The order of the triangular or symmetric A: m for side L, n for side R (syrk..her2k: n).
  int64_t a_order() const { return side == Side::kLeft ? m : n; }
  // Whether A and B are read: alpha != 0 and, for gemm and syrk .. her2k, k > 0 (netlib: else C =
  // beta C only, O(n^2) work).
  bool multiplies() const {
    return !alpha.is_zero() && (k > 0 || !(op == Operation::kGemm || is_rank_k(op)));
  }
  // Real floating-point operations, as netlib's testers and LAPACK's timers count them (a complex
  // multiply-add is 8 of them).
  double flops() const;
};

// netlib's operation counts (the testers' and LAPACK's timing conventions), real flops; a complex
// multiply-add is 4 real ones more than a real one, so complex counts are 4x. Inline: the dispatch
// of every call, a few tens of nanoseconds at the smallest, asks for it.
inline double Problem::flops() const {
  const double dm = double(m), dn = double(n), dk = double(k);
  double f = 0;
  switch (op) {
    case Operation::kGemm:
      f = 2 * dm * dn * dk;
      break;
    case Operation::kSymm:
    case Operation::kHemm:
      f = side == Side::kLeft ? 2 * dm * dm * dn : 2 * dm * dn * dn;
      break;
    case Operation::kSyrk:
    case Operation::kHerk:
      f = dk * dn * (dn + 1);
      break;
    case Operation::kSyr2k:
    case Operation::kHer2k:
      f = 2 * dk * dn * dn;
      break;
    case Operation::kTrmm:
    case Operation::kTrsm:
      f = side == Side::kLeft ? dm * dm * dn : dm * dn * dn;
      break;
  }
  return is_complex(type) ? 4 * f : f;
}

// Element (i, j) of the column-major matrix at `base` (void or const void) with leading dimension
// ld and elements of `elem` bytes: a block of a matrix as a matrix of its own.
template <class V>
V* element_at(V* base, int64_t i, int64_t j, int64_t ld, size_t elem) {
  using Byte = std::conditional_t<std::is_const_v<V>, const char, char>;
  return static_cast<Byte*>(base) + (i + j * ld) * int64_t(elem);
}

// The last rows or columns of an extent past whole tiles that a row computes apart from its tiles
// (peels): the remainder where it is at most max_peel and the extent is longer than one tile, else
// 0.
constexpr int thin_remainder(int64_t extent, int tile, int max_peel) {
  const int r = int(extent % tile);
  return extent > tile && r <= max_peel ? r : 0;
}

// y = alpha * x + y over n elements with strides incx, incy (netlib: a negative increment walks
// the vector backwards from its last element; the pointers address the first stored element).
struct AxpyProblem {
  int64_t n = 0;
  float alpha = 0.0f;
  const float* x = nullptr;
  int64_t incx = 1;
  float* y = nullptr;
  int64_t incy = 1;
  NameSet name_set = NameSet::kStandard;  // whose CPU BLAS runs the call on the CPU
};

// B = alpha * op(A), column-major. A is rows x cols with lda >= rows. B is rows x cols (kNoTrans)
// or cols x rows (kTrans) with ldb >= its row count. In place (imatcopy): a == b, A is read with
// lda and the result is written with ldb; the caller provides scratch when that needs it.
struct TransposeProblem {
  Op trans = Op::kNoTrans;
  int64_t rows = 0, cols = 0;
  float alpha = 1.0f;
  const float* a = nullptr;
  int64_t lda = 0;
  float* b = nullptr;
  int64_t ldb = 0;
  NameSet name_set = NameSet::kStandard;  // whose CPU BLAS runs the call on the CPU

  int64_t b_rows() const { return trans == Op::kNoTrans ? rows : cols; }
  int64_t b_cols() const { return trans == Op::kNoTrans ? cols : rows; }
};

// What a kernel may ask of the device it runs on (filled from cudaGetDeviceProperties).
struct DeviceCaps {
  int sm_version = 0;  // 80, 90, ...
  int num_sms = 0;
  size_t smem_per_block_optin = 0;  // bytes a block may use after cudaFuncSetAttribute
  size_t l2_bytes = 0;
};

}  // namespace tileblas
