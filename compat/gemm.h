// GEMM entry points, one template per form over the routine (element types) and the name set
// (integer width): every exported ?gemm name (compat/entry_points.txt) is one instantiation.
//   sgemm, dgemm, cgemm, zgemm        A, B, C, alpha, beta of one type (complex as re, im pairs)
//   hgemm (MKL)                       fp16 A, B, C, alpha, beta; fp32 accumulation, C rounded once
//   gemm_f16f16f32 (MKL)              fp16 A and B; fp32 C, alpha, beta
//   gemm_bf16bf16f32 (MKL), sbgemm (OpenBLAS)   bf16 A and B; fp32 C, alpha, beta
// Fortran form: every argument by address (the hidden string lengths that follow are not read).
// CBLAS form: alpha and beta by value for real types, by address for complex ones (as cblas.h).
// The templates only turn the typed arguments into GemmArgs; checks, xerbla numbering, row-major
// mapping and quick returns are compat/gemm.cpp's, the computation tileblas::gemm's.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "compat.h"

namespace tileblas::compat {

enum class GemmRoutine : uint8_t {
  kSgemm,
  kDgemm,
  kCgemm,
  kZgemm,
  kHgemm,
  kGemmF16F16F32,
  kGemmBf16Bf16F32,
  kSbgemm,
};

struct GemmRoutineInfo {
  const char* name;    // the Fortran name without its "_", the CBLAS name without "cblas_"
  const char* srname;  // xerbla's name for it, blank-padded as its library passes it
  DataType ab;         // A and B
  DataType c;          // C, alpha and beta
};

constexpr GemmRoutineInfo info(GemmRoutine r) {
  constexpr GemmRoutineInfo kRoutines[] = {
      {"sgemm", "SGEMM ", DataType::kF32, DataType::kF32},
      {"dgemm", "DGEMM ", DataType::kF64, DataType::kF64},
      {"cgemm", "CGEMM ", DataType::kC32, DataType::kC32},
      {"zgemm", "ZGEMM ", DataType::kC64, DataType::kC64},
      {"hgemm", "HGEMM ", DataType::kF16, DataType::kF16},
      {"gemm_f16f16f32", "GEMM_F16F16F32 ", DataType::kF16, DataType::kF32},
      {"gemm_bf16bf16f32", "GEMM_BF16BF16F32 ", DataType::kBF16, DataType::kF32},
      {"sbgemm", "SBGEMM ", DataType::kBF16, DataType::kF32},
  };
  return kRoutines[int(r)];
}

// The C type of one element: fp16 and bf16 as their 16 bits (tileblas_half, tileblas_bfloat16),
// complex as void (re, im pairs, as the existing prototypes take them).
template <DataType T>
using Element =
    std::conditional_t<T == DataType::kF32, float,
                       std::conditional_t<T == DataType::kF64, double,
                                          std::conditional_t<is_complex(T), void, uint16_t>>>;

// CBLAS passes real alpha and beta by value, complex ones by address.
template <DataType T>
using CblasScalar = std::conditional_t<is_complex(T), const void*, Element<T>>;

template <GemmRoutine R>
using ElementAB = Element<info(R).ab>;
template <GemmRoutine R>
using ElementC = Element<info(R).c>;

template <GemmRoutine R>
GemmArgs gemm_args(int64_t m, int64_t n, int64_t k, const void* alpha, const void* a, int64_t lda,
                   const void* b, int64_t ldb, const void* beta, void* c, int64_t ldc) {
  constexpr GemmRoutineInfo kR = info(R);
  GemmArgs g{};
  g.m = m, g.n = n, g.k = k;
  g.alpha = scalar_at(alpha, kR.c), g.beta = scalar_at(beta, kR.c);
  g.a = a, g.lda = lda, g.b = b, g.ldb = ldb, g.c = c, g.ldc = ldc;
  g.type = kR.ab, g.c_type = kR.c;
  g.alpha_at = alpha, g.beta_at = beta;
  return g;
}

template <GemmRoutine R, NameSet S>
void gemm_fortran(const char* transa, const char* transb, const Int<S>* m, const Int<S>* n,
                  const Int<S>* k, const ElementC<R>* alpha, const ElementAB<R>* a,
                  const Int<S>* lda, const ElementAB<R>* b, const Int<S>* ldb,
                  const ElementC<R>* beta, ElementC<R>* c, const Int<S>* ldc) noexcept {
  static const std::string routine = entry_label(S, info(R).name, false);
  fortran_gemm({S, info(R).srname, nullptr}, *transa, *transb,
               gemm_args<R>(*m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc), routine.c_str());
}

template <GemmRoutine R, NameSet S>
void gemm_cblas(int layout, int transa, int transb, Int<S> m, Int<S> n, Int<S> k,
                CblasScalar<info(R).c> alpha, const ElementAB<R>* a, Int<S> lda,
                const ElementAB<R>* b, Int<S> ldb, CblasScalar<info(R).c> beta, ElementC<R>* c,
                Int<S> ldc) noexcept {
  static const std::string routine = entry_label(S, info(R).name, true);
  static const std::string reference_name = std::string("cblas_") + info(R).name;
  const void* alpha_at;
  const void* beta_at;
  if constexpr (std::is_pointer_v<decltype(alpha)>) {
    alpha_at = alpha, beta_at = beta;
  } else {
    alpha_at = &alpha, beta_at = &beta;
  }
  cblas_gemm({S, info(R).srname, reference_name.c_str()}, layout, transa, transb,
             gemm_args<R>(m, n, k, alpha_at, a, lda, b, ldb, beta_at, c, ldc), routine.c_str());
}

}  // namespace tileblas::compat
