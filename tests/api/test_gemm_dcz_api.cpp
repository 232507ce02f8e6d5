// API tier for double and complex GEMM: dgemm_/cgemm_/zgemm_ and cblas_dgemm/cgemm/zgemm through
// libtileblas.so, against a long double reference written from the standard's definition (element
// (r, c) of a stored matrix, op = N, T or C), column and row major, every transpose pair, padded
// leading dimensions, real and complex alpha/beta including 0 and 1, NaN-poisoned C when beta == 0,
// NaN-filled A and B when alpha == 0 (not read), padding of C untouched. Runs on the CPU in CI; on
// the GPU machine the same cases go through the router, and device and managed pointers run in
// place.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "test_support.h"
#include "tileblas.h"
#include "typed_elements.h"

extern "C" {
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*, size_t, size_t);
void cgemm_(const char*, const char*, const int*, const int*, const int*, const void*, const void*,
            const int*, const void*, const int*, const void*, void*, const int*, size_t, size_t);
void zgemm_(const char*, const char*, const int*, const int*, const int*, const void*, const void*,
            const int*, const void*, const int*, const void*, void*, const int*, size_t, size_t);
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int,
                 double, double*, int);
void cblas_cgemm(int, int, int, int, int, int, const void*, const void*, int, const void*, int,
                 const void*, void*, int);
void cblas_zgemm(int, int, int, int, int, int, const void*, const void*, int, const void*, int,
                 const void*, void*, int);
}

namespace {

using tbtest::kComplex;
using tbtest::nan_element;
using tbtest::random_element;
using tbtest::Real;
using tbtest::Wide;
using tbtest::widen;

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kCblasTrans[] = {111, 112, 113};  // N, T, C
constexpr char kFortranTrans[] = {'N', 'T', 'C'};

template <class T>
struct Traits;
template <>
struct Traits<double> {
  static constexpr const char* kName = "dgemm";
  static void fortran(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                      const double* alpha, const double* a, const int* lda, const double* b,
                      const int* ldb, const double* beta, double* c, const int* ldc) {
    dgemm_(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, 1, 1);
  }
  static void cblas(int layout, int ta, int tb, int m, int n, int k, const double* alpha,
                    const double* a, int lda, const double* b, int ldb, const double* beta,
                    double* c, int ldc) {
    cblas_dgemm(layout, ta, tb, m, n, k, *alpha, a, lda, b, ldb, *beta, c, ldc);
  }
};
template <>
struct Traits<std::complex<float>> {
  static constexpr const char* kName = "cgemm";
  static void fortran(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                      const void* alpha, const void* a, const int* lda, const void* b,
                      const int* ldb, const void* beta, void* c, const int* ldc) {
    cgemm_(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, 1, 1);
  }
  static void cblas(int layout, int ta, int tb, int m, int n, int k, const void* alpha,
                    const void* a, int lda, const void* b, int ldb, const void* beta, void* c,
                    int ldc) {
    cblas_cgemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
};
template <>
struct Traits<std::complex<double>> {
  static constexpr const char* kName = "zgemm";
  static void fortran(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                      const void* alpha, const void* a, const int* lda, const void* b,
                      const int* ldb, const void* beta, void* c, const int* ldc) {
    zgemm_(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, 1, 1);
  }
  static void cblas(int layout, int ta, int tb, int m, int n, int k, const void* alpha,
                    const void* a, int lda, const void* b, int ldb, const void* beta, void* c,
                    int ldc) {
    cblas_zgemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
};

template <class T>
std::vector<T> random_matrix(size_t count) {
  std::vector<T> v(count);
  for (T& x : v) x = random_element<T>();
  return v;
}

// The scalars every case draws alpha and beta from: 0 and 1 (netlib's special cases) and two
// general values, complex for complex data.
template <class T>
std::vector<T> scalars() {
  if constexpr (kComplex<T>) {
    return {T(0, 0), T(1, 0), T(0.7f, -0.3f), T(-2, 1.5f)};
  } else {
    return {0.0, 1.0, 0.7, -2.0};
  }
}

template <class T>
struct Case {
  int layout;  // kColMajor or kRowMajor
  int ta, tb;  // 0 N, 1 T, 2 C
  int m, n, k;
  T alpha, beta;
  int pad;       // added to every leading dimension
  bool fortran;  // the Fortran entry point (column major only)
};

template <class T>
std::string describe(const Case<T>& c) {
  char buf[200];
  const Wide al = widen(c.alpha), be = widen(c.beta);
  std::snprintf(buf, sizeof buf, "%s%s %c%c m=%d n=%d k=%d alpha=(%g,%g) beta=(%g,%g) pad=%d",
                c.fortran ? "" : "cblas_", Traits<T>::kName, kFortranTrans[c.ta],
                kFortranTrans[c.tb], c.m, c.n, c.k, double(al.real()), double(al.imag()),
                double(be.real()), double(be.imag()), c.pad);
  return std::string(buf) + (c.layout == kRowMajor ? " row-major" : "");
}

// Runs one case with operands in `mem` (nullptr: host vectors; else three device or managed
// buffers large enough) and checks every element of C and its padding.
template <class T>
void run_case(const Case<T>& c, T* const* mem = nullptr) {
  SCOPED_TRACE(describe(c));
  const bool row = c.layout == kRowMajor;
  const int a_rows = c.ta ? c.k : c.m, a_cols = c.ta ? c.m : c.k;
  const int b_rows = c.tb ? c.n : c.k, b_cols = c.tb ? c.k : c.n;
  const int lda = std::max(1, row ? a_cols : a_rows) + c.pad;
  const int ldb = std::max(1, row ? b_cols : b_rows) + c.pad;
  const int ldc = std::max(1, row ? c.n : c.m) + c.pad;
  const int a_lines = std::max(1, row ? a_rows : a_cols);
  const int b_lines = std::max(1, row ? b_rows : b_cols);
  const int c_lines = std::max(1, row ? c.m : c.n);
  const bool ab_read = !(c.alpha == T(0)) && c.k > 0;
  // alpha == 0: A and B must not be read, so they hold NaN.
  std::vector<T> a = random_matrix<T>(size_t(lda) * a_lines);
  std::vector<T> b = random_matrix<T>(size_t(ldb) * b_lines);
  if (!ab_read) std::fill(a.begin(), a.end(), nan_element<T>());
  if (!ab_read) std::fill(b.begin(), b.end(), nan_element<T>());
  std::vector<T> cv = random_matrix<T>(size_t(ldc) * c_lines);
  if (c.beta == T(0)) std::fill(cv.begin(), cv.end(), nan_element<T>());
  const std::vector<T> c_before = cv;

  auto at = [row](const std::vector<T>& v, int ld, int r, int col) {
    return widen(row ? v[size_t(r) * ld + col] : v[r + size_t(col) * ld]);
  };
  // op(X)(i, l) for X stored with `ld`: N X(i, l), T X(l, i), C conj(X(l, i)).
  auto op_at = [&](const std::vector<T>& v, int ld, int trans, int i, int l) {
    if (trans == 0) return at(v, ld, i, l);
    const Wide x = at(v, ld, l, i);
    return trans == 2 ? std::conj(x) : x;
  };
  const Wide alpha = widen(c.alpha), beta = widen(c.beta);
  std::vector<Wide> ref(size_t(c.m) * c.n);
  std::vector<long double> scale(size_t(c.m) * c.n);
  for (int i = 0; i < c.m; ++i) {
    for (int j = 0; j < c.n; ++j) {
      Wide s = 0;
      long double abs_s = 0;
      if (ab_read) {
        for (int l = 0; l < c.k; ++l) {
          const Wide p = op_at(a, lda, c.ta, i, l) * op_at(b, ldb, c.tb, l, j);
          s += p;
          abs_s += std::abs(p);
        }
      }
      Wide r = alpha * s;
      long double sc = std::abs(alpha) * abs_s;
      if (!(c.beta == T(0))) {
        r += beta * at(c_before, ldc, i, j);
        sc += std::abs(beta * at(c_before, ldc, i, j));
      }
      ref[i + size_t(j) * c.m] = r;
      scale[i + size_t(j) * c.m] = sc;
    }
  }

  T* pa = a.data();
  T* pb = b.data();
  T* pc = cv.data();
  if (mem) {
    ASSERT_EQ(cudaSuccess, cudaMemcpy(mem[0], a.data(), a.size() * sizeof(T), cudaMemcpyDefault));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(mem[1], b.data(), b.size() * sizeof(T), cudaMemcpyDefault));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(mem[2], cv.data(), cv.size() * sizeof(T), cudaMemcpyDefault));
    pa = mem[0], pb = mem[1], pc = mem[2];
  }
  if (c.fortran) {
    Traits<T>::fortran(&kFortranTrans[c.ta], &kFortranTrans[c.tb], &c.m, &c.n, &c.k, &c.alpha, pa,
                       &lda, pb, &ldb, &c.beta, pc, &ldc);
  } else {
    Traits<T>::cblas(c.layout, kCblasTrans[c.ta], kCblasTrans[c.tb], c.m, c.n, c.k, &c.alpha, pa,
                     lda, pb, ldb, &c.beta, pc, ldc);
  }
  if (mem) {
    ASSERT_EQ(cudaSuccess, cudaMemcpy(cv.data(), mem[2], cv.size() * sizeof(T), cudaMemcpyDefault));
  }

  // eps of the type (unit roundoff), a complex multiply-add counted as a few roundings.
  const long double eps = std::numeric_limits<Real<T>>::epsilon() / 2;
  const long double tol_factor = kComplex<T> ? 4.0L : 2.0L;
  for (int i = 0; i < c.m; ++i) {
    for (int j = 0; j < c.n; ++j) {
      const Wide got = at(cv, ldc, i, j), want = ref[i + size_t(j) * c.m];
      const long double tol = tol_factor * eps * (c.k + 2) * scale[i + size_t(j) * c.m] + 1e-300L;
      ASSERT_LE(std::abs(got - want), tol)
          << "C(" << i << "," << j << ") got (" << double(got.real()) << "," << double(got.imag())
          << ") want (" << double(want.real()) << "," << double(want.imag()) << ")";
    }
  }
  for (int line = 0; line < c_lines; ++line) {
    for (int e = (row ? c.n : c.m); e < ldc; ++e) {
      const size_t idx = size_t(line) * ldc + e;
      ASSERT_EQ(0, std::memcmp(&cv[idx], &c_before[idx], sizeof(T)))
          << "padding written at " << idx;
    }
  }
}

template <class T>
class GemmDczApi : public ::testing::Test {};
using ElementTypes = ::testing::Types<double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(GemmDczApi, ElementTypes);

// The netlib size grid, all nine transpose pairs, both layouts, random alpha/beta.
TYPED_TEST(GemmDczApi, NetlibGrid) {
  using T = TypeParam;
  const int sizes[] = {0, 1, 2, 7, 31};
  int cases = 0;
  for (int layout : {kColMajor, kRowMajor}) {
    for (int t = 0; t < 9; ++t) {
      for (int m : sizes) {
        for (int n : sizes) {
          for (int k : sizes) {
            run_case<T>({layout, t % 3, t / 3, m, n, k, tbtest::pick(scalars<T>()),
                         tbtest::pick(scalars<T>()), int(tbtest::rng()() % 3), false});
            if (this->HasFatalFailure()) return;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 2 * 9 * 5 * 5 * 5);
}

// Every alpha/beta pair through the Fortran entry point, all transpose pairs.
TYPED_TEST(GemmDczApi, FortranEntryEveryScalarPair) {
  using T = TypeParam;
  for (int t = 0; t < 9; ++t) {
    for (T alpha : scalars<T>()) {
      for (T beta : scalars<T>()) {
        run_case<T>({kColMajor, t % 3, t / 3, 37, 29, 41, alpha, beta, 3, true});
        if (this->HasFatalFailure()) return;
      }
    }
  }
}

TYPED_TEST(GemmDczApi, OddShapes) {
  using T = TypeParam;
  const int shapes[][3] = {{300, 3, 7}, {5, 299, 64}, {129, 131, 127}, {65, 257, 33}};
  for (const auto& s : shapes) {
    for (int t : {0, 4, 8, 2, 6}) {  // NN, TT, CC, CN, NC
      run_case<T>({tbtest::pick(std::vector<int>{kColMajor, kRowMajor}), t % 3, t / 3, s[0], s[1],
                   s[2], tbtest::pick(scalars<T>()), tbtest::pick(scalars<T>()), 5, false});
      if (this->HasFatalFailure()) return;
    }
  }
}

// ---- GPU: device and managed pointers are computed in place --------------------------------

template <class T>
void run_in_device_memory(const Case<T>& c, bool managed) {
  const size_t count =
      size_t(std::max({c.m, c.n, c.k}) + c.pad + 1) * (std::max({c.m, c.n, c.k}) + 1);
  T* mem[3] = {};
  for (T*& p : mem) {
    const cudaError_t err = managed
                                ? cudaMallocManaged(reinterpret_cast<void**>(&p), count * sizeof(T))
                                : cudaMalloc(reinterpret_cast<void**>(&p), count * sizeof(T));
    ASSERT_EQ(cudaSuccess, err);
  }
  run_case<T>(c, mem);
  EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
  for (T* p : mem) cudaFree(p);
}

TYPED_TEST(GemmDczApi, DeviceAndManagedPointersInPlace) {
  TB_REQUIRE_GPU();
  using T = TypeParam;
  const int shapes[][3] = {
      {1, 1, 1}, {7, 31, 63}, {129, 65, 257}, {600, 513, 257}, {4097, 33, 129}};
  for (const auto& s : shapes) {
    for (int t : {0, 1, 3, 4, 2, 8}) {
      for (bool managed : {false, true}) {
        Case<T> c{tbtest::pick(std::vector<int>{kColMajor, kRowMajor}),
                  t % 3,
                  t / 3,
                  s[0],
                  s[1],
                  s[2],
                  tbtest::pick(scalars<T>()),
                  tbtest::pick(scalars<T>()),
                  int(tbtest::rng()() % 4),
                  false};
        // beta == 1 with alpha == 0 is the quick return: no route is taken then (the last route
        // would be an earlier call's).
        if (c.alpha == T(0) && c.beta == T(1)) c.beta = T(-2);
        run_in_device_memory<T>(c, managed);
        if (this->HasFatalFailure()) return;
      }
    }
  }
}

}  // namespace
