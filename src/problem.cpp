// What a Problem is: the names of its types and operations, its flop count, and what it reads and
// writes (src/operands.h), for every operation.
#include "problem.h"

#include "operands.h"

namespace tileblas {

const char* name_of(DataType t) {
  switch (t) {
    case DataType::kF16:
      return "f16";
    case DataType::kBF16:
      return "bf16";
    case DataType::kF64:
      return "f64";
    case DataType::kC32:
      return "c32";
    case DataType::kC64:
      return "c64";
    case DataType::kF32:
      break;
  }
  return "f32";
}

const char* name_of(Operation op) {
  switch (op) {
    case Operation::kGemm:
      return "gemm";
    case Operation::kSymm:
      return "symm";
    case Operation::kHemm:
      return "hemm";
    case Operation::kSyrk:
      return "syrk";
    case Operation::kHerk:
      return "herk";
    case Operation::kSyr2k:
      return "syr2k";
    case Operation::kHer2k:
      return "her2k";
    case Operation::kTrmm:
      return "trmm";
    case Operation::kTrsm:
      break;
  }
  return "trsm";
}

Operands operands_of(const Problem& p) {
  Operands o;
  const bool products = p.multiplies();
  const size_t e = size_of(p.type);
  if (p.op == Operation::kGemm) {
    o.a = {p.a, p.lda, p.a_rows(), p.a_cols(), e, products, false};
    o.b = {p.b, p.ldb, p.b_rows(), p.b_cols(), e, products, false};
    o.c = {p.c, p.ldc, p.m, p.n, size_of(p.c_type), !p.beta.is_zero(), true};
  } else if (is_rank_k(p.op)) {
    const bool not_trans = p.trans_a == Op::kNoTrans;
    o.a = {p.a, p.lda, not_trans ? p.n : p.k, not_trans ? p.k : p.n, e, products, false};
    if (p.op == Operation::kSyr2k || p.op == Operation::kHer2k) {
      o.b = {p.b, p.ldb, o.a.rows, o.a.cols, e, products, false};
    }
    o.c = {p.c, p.ldc, p.n, p.n, e, !p.beta.is_zero(), true, true, p.uplo};
  } else if (is_triangular(p.op)) {
    const int64_t order = p.a_order();
    o.a = {p.a, p.lda, order, order, e, products, false};
    o.c = {p.c, p.ldc, p.m, p.n, e, products, true};
  } else {  // symm, hemm
    const int64_t order = p.a_order();
    o.a = {p.a, p.lda, order, order, e, products, false};
    o.b = {p.b, p.ldb, p.m, p.n, e, products, false};
    o.c = {p.c, p.ldc, p.m, p.n, e, !p.beta.is_zero(), true};
  }
  return o;
}

}  // namespace tileblas
