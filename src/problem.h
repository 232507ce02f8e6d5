// The problems tileblas computes, as the library describes them internally: column-major, no
// CBLAS order, transposes already normalised ('C' is 'T' for real data), pointers as the caller
// gave them (host, device or managed). Plain C++ with no CUDA types, so compat/, src/, kernels/
// and tests all share them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tileblas {

enum class Op : uint8_t { kNoTrans, kTrans };

enum class DataType : uint8_t { kF32, kF16, kBF16 };

inline size_t size_of(DataType t) { return t == DataType::kF32 ? 4 : 2; }
const char* name_of(DataType t);
inline const char* name_of(Op op) { return op == Op::kNoTrans ? "N" : "T"; }

// C = alpha * op(A) * op(B) + beta * C, column-major. op(A) is m x k, op(B) is k x n, C is m x n.
// A is lda-strided with lda >= rows of A as stored (m if kNoTrans, k if kTrans); likewise B, C.
// beta == 0 means C is not read (NaN in C does not leak). Accumulation is always fp32.
struct GemmProblem {
  Op trans_a = Op::kNoTrans;
  Op trans_b = Op::kNoTrans;
  int64_t m = 0, n = 0, k = 0;
  float alpha = 1.0f;
  float beta = 0.0f;
  DataType ab_type = DataType::kF32;  // element type of A and B
  DataType c_type = DataType::kF32;   // element type of C (kF16 only for hgemm)
  const void* a = nullptr;
  int64_t lda = 0;
  const void* b = nullptr;
  int64_t ldb = 0;
  void* c = nullptr;
  int64_t ldc = 0;
  bool allow_tf32 = false;  // fp32 only: the user opted into TF32 tensor cores

  int64_t a_rows() const { return trans_a == Op::kNoTrans ? m : k; }
  int64_t a_cols() const { return trans_a == Op::kNoTrans ? k : m; }
  int64_t b_rows() const { return trans_b == Op::kNoTrans ? k : n; }
  int64_t b_cols() const { return trans_b == Op::kNoTrans ? n : k; }
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
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
