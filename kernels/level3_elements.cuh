// Element arithmetic shared by the Level-3 block kernels (tri_update, tri_fill, tri_block,
// tri_invert): one template per kernel over the element types float, double, Complex<float>,
// Complex<double> (interleaved re, im as Fortran's COMPLEX and COMPLEX*16 lie in memory, aligned as
// their parts: a complex element needs no more alignment than its real part).
#pragma once

#include <cuda_runtime.h>

#include "problem.h"

namespace tileblas::level3_elements {

template <class R>
struct Complex {
  R re, im;
};

template <class T>
struct Traits {
  using Real = T;
  static constexpr bool kComplex = false;
};
template <class R>
struct Traits<Complex<R>> {
  using Real = R;
  static constexpr bool kComplex = true;
};

// The value (re, im) (im ignored for real types).
template <class T>
__host__ __device__ __forceinline__ T make(double re, double im) {
  if constexpr (Traits<T>::kComplex) {
    using R = typename Traits<T>::Real;
    return T{R(re), R(im)};
  } else {
    return T(re);
  }
}
template <class T>
__device__ __forceinline__ T zero() {
  return make<T>(0.0, 0.0);
}
template <class T>
__device__ __forceinline__ T one() {
  return make<T>(1.0, 0.0);
}

__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ double add(double a, double b) { return a + b; }
template <class R>
__device__ __forceinline__ Complex<R> add(Complex<R> a, Complex<R> b) {
  return {a.re + b.re, a.im + b.im};
}
__device__ __forceinline__ float mul(float a, float b) { return a * b; }
__device__ __forceinline__ double mul(double a, double b) { return a * b; }
template <class R>
__device__ __forceinline__ Complex<R> mul(Complex<R> a, Complex<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
// acc + a*b and acc - a*b (fused where the hardware fuses).
__device__ __forceinline__ float mul_add(float a, float b, float acc) { return fmaf(a, b, acc); }
__device__ __forceinline__ double mul_add(double a, double b, double acc) { return fma(a, b, acc); }
template <class R>
__device__ __forceinline__ Complex<R> mul_add(Complex<R> a, Complex<R> b, Complex<R> acc) {
  acc.re = fma(a.re, b.re, acc.re);
  acc.re = fma(-a.im, b.im, acc.re);
  acc.im = fma(a.re, b.im, acc.im);
  acc.im = fma(a.im, b.re, acc.im);
  return acc;
}
__device__ __forceinline__ float mul_sub(float a, float b, float acc) { return fmaf(-a, b, acc); }
__device__ __forceinline__ double mul_sub(double a, double b, double acc) {
  return fma(-a, b, acc);
}
template <class R>
__device__ __forceinline__ Complex<R> mul_sub(Complex<R> a, Complex<R> b, Complex<R> acc) {
  acc.re = fma(-a.re, b.re, acc.re);
  acc.re = fma(a.im, b.im, acc.re);
  acc.im = fma(-a.re, b.im, acc.im);
  acc.im = fma(-a.im, b.re, acc.im);
  return acc;
}
__device__ __forceinline__ float conj(float a) { return a; }
__device__ __forceinline__ double conj(double a) { return a; }
template <class R>
__device__ __forceinline__ Complex<R> conj(Complex<R> a) {
  return {a.re, -a.im};
}
// 1 / a (complex: conj(a) / |a|^2, scaled so that neither overflows nor underflows early).
__device__ __forceinline__ float reciprocal(float a) { return 1.0f / a; }
__device__ __forceinline__ double reciprocal(double a) { return 1.0 / a; }
template <class R>
__device__ __forceinline__ Complex<R> reciprocal(Complex<R> a) {
  // Smith's algorithm: divide by the larger part first.
  if (fabs(a.re) >= fabs(a.im)) {
    const R r = a.im / a.re, d = a.re + a.im * r;
    return {R(1) / d, -r / d};
  }
  const R r = a.re / a.im, d = a.im + a.re * r;
  return {r / d, R(-1) / d};
}
// a with its imaginary part set to 0.
__device__ __forceinline__ float real_only(float a) { return a; }
__device__ __forceinline__ double real_only(double a) { return a; }
template <class R>
__device__ __forceinline__ Complex<R> real_only(Complex<R> a) {
  return {a.re, R(0)};
}
__device__ __forceinline__ float real_of(float a) { return a; }
__device__ __forceinline__ double real_of(double a) { return a; }
template <class R>
__device__ __forceinline__ R real_of(Complex<R> a) {
  return a.re;
}

// fn(T{}) for the element type T of `type` (float, double, Complex<float>, Complex<double>): its
// result, or cudaErrorNotSupported for the other types. A family's launch() instantiates its kernel
// for each type through it.
template <class Fn>
cudaError_t with_element(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kF32:
      return fn(float{});
    case DataType::kF64:
      return fn(double{});
    case DataType::kC32:
      return fn(Complex<float>{});
    case DataType::kC64:
      return fn(Complex<double>{});
    default:
      return cudaErrorNotSupported;
  }
}

}  // namespace tileblas::level3_elements
