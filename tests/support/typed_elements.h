// Element helpers for tests typed over float, double, std::complex<float> and
// std::complex<double>: the real part type, widening to a long double complex reference, fresh
// random elements in [-1, 1) (each part), arrays of them or of small integers (exact products),
// and NaN elements for what must not be read.
#pragma once

#include <complex>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "test_support.h"

namespace tbtest {

template <class T>
constexpr bool kComplex = !std::is_floating_point_v<T>;

template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
using Real = typename RealOf<T>::type;

using Wide = std::complex<long double>;

template <class T>
Wide widen(const T& v) {
  if constexpr (kComplex<T>) {
    return Wide(v.real(), v.imag());
  } else {
    return Wide(v, 0);
  }
}

template <class T>
T random_element() {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (kComplex<T>) {
    return T(d(rng()), d(rng()));
  } else {
    return T(d(rng()));
  }
}

// n fresh elements: random (random_element()), or with `integers` each part an integer in [-4, 4],
// so that products and short sums are exact in every type.
template <class T>
std::vector<T> test_elements(size_t n, bool integers) {
  std::vector<T> v(n);
  const std::vector<int> ints = {-4, -3, -2, -1, 0, 1, 2, 3, 4};
  for (T& x : v) {
    if (!integers) {
      x = random_element<T>();
    } else if constexpr (kComplex<T>) {
      x = T(pick(ints), pick(ints));
    } else {
      x = T(pick(ints));
    }
  }
  return v;
}

template <class T>
T nan_element() {
  const auto nan = std::numeric_limits<Real<T>>::quiet_NaN();
  if constexpr (kComplex<T>) {
    return T(nan, nan);
  } else {
    return nan;
  }
}

}  // namespace tbtest
