// The problems tileblas computes, as the library describes them internally: column-major, no
// CBLAS order, transposes already normalised ('C' is 'T' for real data), pointers as the caller
// gave them (host, device or managed). Plain C++ with no CUDA types, so compat/, src/, kernels/
// and tests all share them.
#pragma once

#include <cstddef>
#include <cstdint>

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

// C = alpha * op(A) * op(B) + beta * C, column-major. op(A) is m x k, op(B) is k x n, C is m x n.
// A is lda-strided with lda >= rows of A as stored (m if kNoTrans, k if kTrans); likewise B, C.
// beta == 0 means C is not read (NaN in C does not leak). Accumulation is fp32 for fp32, fp16 and
// bf16 data, fp64 for fp64 and complex fp64. kConjTrans (complex data) is op(X) = X^H.
struct GemmProblem {
  Op trans_a = Op::kNoTrans;
  Op trans_b = Op::kNoTrans;
  int64_t m = 0, n = 0, k = 0;
  Scalar alpha = 1.0;
  Scalar beta = 0.0;
  DataType ab_type = DataType::kF32;  // element type of A and B
  DataType c_type = DataType::kF32;   // element type of C (differs only for 16-bit A and B)
  const void* a = nullptr;
  int64_t lda = 0;
  const void* b = nullptr;
  int64_t ldb = 0;
  void* c = nullptr;
  int64_t ldc = 0;
  // Only this part of C (m == n for a triangle); the rows whose supports() accepts a triangle
  // skip the tiles outside it (syrk .. her2k on the GPU, src/level3_plan.cpp).
  Triangle c_triangle = Triangle::kAll;
  // Where the caller knows op(A) (op(B)) to be square and zero outside one triangle with its
  // diagonal (trmm's and trsm's GEMM leaves: a diagonal block made full, or its inverse): kLower,
  // op(X)(r, c) == 0 wherever c > r; kUpper, wherever c < r. The rows that take it (supports()
  // need not) skip the k-steps of a tile that meet only those zeros; the others multiply them.
  Triangle a_nonzero = Triangle::kAll;
  Triangle b_nonzero = Triangle::kAll;
  bool allow_tf32 = false;                // fp32 only: the user opted into TF32 tensor cores
  NameSet name_set = NameSet::kStandard;  // whose CPU BLAS runs the call on the CPU

  int64_t a_rows() const { return trans_a == Op::kNoTrans ? m : k; }
  int64_t a_cols() const { return trans_a == Op::kNoTrans ? k : m; }
  int64_t b_rows() const { return trans_b == Op::kNoTrans ? k : n; }
  int64_t b_cols() const { return trans_b == Op::kNoTrans ? n : k; }
  // Whether A and B are read: alpha != 0 and k > 0 (netlib: else C = beta C only).
  bool multiplies() const { return alpha != 0.0 && k > 0; }
  // Real floating-point operations: a complex multiply-add is 8 of them.
  double flops() const {
    return (is_complex(ab_type) ? 8.0 : 2.0) * double(m) * double(n) * double(k);
  }
};

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
