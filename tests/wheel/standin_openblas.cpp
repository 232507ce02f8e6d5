// A stand-in for the OpenBLAS that numpy's and scipy's wheels bring (libscipy_openblas64_*.so,
// libscipy_openblas*.so) and for an OpenBLAS built for ILP64 with suffixed names: it exports the
// routines tileblas accelerates under three name sets, each with its own integer width
//   scipy-openblas64: scipy_sgemm_64_, scipy_cblas_sgemm64_, ...   (int64_t)
//   scipy-openblas32: scipy_sgemm_, scipy_cblas_sgemm, ...         (int32_t)
//   OpenBLAS ILP64:   sgemm_64_, cblas_sgemm64_, ...               (int64_t)
// (GEMM in every type, saxpy, somatcopy, simatcopy, and ssyrk/dsyrk: numpy's a @ a.T)
// (sbgemm only under the ILP64 names: the wheels' OpenBLAS is built without bfloat16)
// with a plain reference implementation, and counts the calls of each exported name, so a test
// sees which of its functions ran: with tileblas preloaded, a call routed to the CPU must land on
// the Fortran routine of the caller's own set here. In record-only mode (standin_record_only) a
// GEMM only records its sizes, for sizes too large to allocate. It shares no code with tileblas.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#define STANDIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

std::mutex g_mutex;
std::map<std::string, long> g_calls;
bool g_record_only = false;
int64_t g_last_gemm[6] = {};  // m, n, k, lda, ldb, ldc of the last GEMM
std::string g_last_xerbla_name;
int64_t g_last_xerbla_info = 0;

void count(const char* name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_calls[name];
}

bool upper_is(char c, char u) { return c == u || c == u + ('a' - 'A'); }

// op(X)(i, l) of a column-major X with leading dimension ld: 'N' X, 'T' X^T, 'C' X^H, 'R' conj(X).
template <typename T>
T op_at(const T* x, int64_t ld, char trans, int64_t i, int64_t l) {
  const bool transposed = upper_is(trans, 'T') || upper_is(trans, 'C');
  const T v = transposed ? x[l + i * ld] : x[i + l * ld];
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    if (upper_is(trans, 'C') || upper_is(trans, 'R')) return std::conj(v);
  }
  return v;
}

// C = alpha op(A) op(B) + beta C, column-major; beta == 0: C is not read.
template <typename T, typename Acc>
void reference_gemm(char ta, char tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                    int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      Acc sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        sum += Acc(op_at(a, lda, ta, i, l)) * Acc(op_at(b, ldb, tb, l, j));
      }
      const T prior = beta == T(0) ? T(0) : beta * c[i + j * ldc];
      c[i + j * ldc] = T(Acc(alpha) * sum) + prior;
    }
  }
}

template <typename T, typename I>
void fortran_gemm(const char* name, const char* ta, const char* tb, const I* m, const I* n,
                  const I* k, const T* alpha, const T* a, const I* lda, const T* b, const I* ldb,
                  const T* beta, T* c, const I* ldc) {
  count(name);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    const int64_t dims[6] = {*m, *n, *k, *lda, *ldb, *ldc};
    std::memcpy(g_last_gemm, dims, sizeof dims);
    if (g_record_only) return;
  }
  using Acc = std::conditional_t<
      std::is_same_v<T, float>, double,
      std::conditional_t<std::is_same_v<T, std::complex<float>>, std::complex<double>, T>>;
  reference_gemm<T, Acc>(*ta, *tb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

// Row-major CBLAS onto the column-major reference: C^T = op(B)^T op(A)^T.
template <typename T, typename I>
void cblas_gemm(const char* name, int order, int ta, int tb, I m, I n, I k, T alpha, const T* a,
                I lda, const T* b, I ldb, T beta, T* c, I ldc) {
  auto trans = [](int t) { return t == 112 ? 'T' : t == 113 ? 'C' : t == 114 ? 'R' : 'N'; };
  count(name);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    // The column-major call it amounts to.
    const int64_t dims[6] = {order == 101 ? n : m,     order == 101 ? m : n,     k,
                             order == 101 ? ldb : lda, order == 101 ? lda : ldb, ldc};
    std::memcpy(g_last_gemm, dims, sizeof dims);
    if (g_record_only) return;
  }
  using Acc = std::conditional_t<
      std::is_same_v<T, float>, double,
      std::conditional_t<std::is_same_v<T, std::complex<float>>, std::complex<double>, T>>;
  if (order == 101) {
    reference_gemm<T, Acc>(trans(tb), trans(ta), n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
  } else {
    reference_gemm<T, Acc>(trans(ta), trans(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

float bf16_value(uint16_t v) {
  const uint32_t bits = uint32_t(v) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <typename I>
void sbgemm(const char* name, char ta, char tb, I m, I n, I k, float alpha, const uint16_t* a,
            I lda, const uint16_t* b, I ldb, float beta, float* c, I ldc) {
  count(name);
  const int64_t a_cols = upper_is(ta, 'N') ? k : m, b_cols = upper_is(tb, 'N') ? n : k;
  std::vector<float> wa(size_t(lda) * size_t(a_cols)), wb(size_t(ldb) * size_t(b_cols));
  for (size_t i = 0; i < wa.size(); ++i) wa[i] = bf16_value(a[i]);
  for (size_t i = 0; i < wb.size(); ++i) wb[i] = bf16_value(b[i]);
  reference_gemm<float, double>(ta, tb, m, n, k, alpha, wa.data(), lda, wb.data(), ldb, beta, c,
                                ldc);
}

// C = alpha op(A) op(A)^T + beta C on C's `uplo` triangle (the other is not touched).
template <typename T, typename I>
void syrk(const char* name, char uplo, char trans, I n, I k, T alpha, const T* a, I lda, T beta,
          T* c, I ldc) {
  count(name);
  const bool upper = upper_is(uplo, 'U'), nt = upper_is(trans, 'N');
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = upper ? 0 : j; i <= (upper ? j : n - 1); ++i) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        sum += double(nt ? a[i + l * lda] : a[l + i * lda]) *
               double(nt ? a[j + l * lda] : a[l + j * lda]);
      }
      c[i + j * ldc] =
          T(double(alpha) * sum + (beta == T(0) ? 0.0 : double(beta) * c[i + j * ldc]));
    }
  }
}

// Row-major CBLAS onto the column-major reference: the row-major C's upper triangle is the
// column-major C^T's lower one, and op(A) op(A)^T of the row-major A is op'(A') op'(A')^T.
template <typename T, typename I>
void cblas_syrk(const char* name, int order, int uplo, int trans, I n, I k, T alpha, const T* a,
                I lda, T beta, T* c, I ldc) {
  const bool row = order == 101;
  const char u = (uplo == 121) != row ? 'U' : 'L';
  const char t = (trans == 111) != row ? 'N' : 'T';
  syrk(name, u, t, n, k, alpha, a, lda, beta, c, ldc);
}

template <typename I>
void saxpy(const char* name, I n, float alpha, const float* x, I incx, float* y, I incy) {
  count(name);
  if (n <= 0) return;
  int64_t ix = incx < 0 ? (1 - n) * incx : 0, iy = incy < 0 ? (1 - n) * incy : 0;
  for (int64_t i = 0; i < n; ++i, ix += incx, iy += incy) y[iy] += alpha * x[ix];
}

// B = alpha op(A) for column order ('C'); row order is the transpose's column order.
void matcopy(char order, char trans, int64_t rows, int64_t cols, float alpha, const float* a,
             int64_t lda, float* b, int64_t ldb) {
  const bool row = upper_is(order, 'R');
  const int64_t r = row ? cols : rows, cl = row ? rows : cols;
  const bool t = upper_is(trans, 'T') || upper_is(trans, 'C');
  for (int64_t j = 0; j < cl; ++j) {
    for (int64_t i = 0; i < r; ++i) {
      const float v = alpha * a[i + j * lda];
      if (t) {
        b[j + i * ldb] = v;
      } else {
        b[i + j * ldb] = v;
      }
    }
  }
}

template <typename I>
void somatcopy(const char* name, char order, char trans, I rows, I cols, float alpha,
               const float* a, I lda, float* b, I ldb) {
  count(name);
  matcopy(order, trans, rows, cols, alpha, a, lda, b, ldb);
}

template <typename I>
void simatcopy(const char* name, char order, char trans, I rows, I cols, float alpha, float* a,
               I lda, I ldb) {
  count(name);
  const bool row = upper_is(order, 'R');
  const int64_t r = row ? cols : rows, cl = row ? rows : cols;
  std::vector<float> copy(size_t(r) * size_t(cl));
  for (int64_t j = 0; j < cl; ++j) {
    for (int64_t i = 0; i < r; ++i) copy[i + j * r] = a[i + j * lda];
  }
  matcopy('C', trans, r, cl, alpha, copy.data(), r, a, ldb);
}

template <typename I>
void xerbla(const char* name, const char* srname, const I* info, size_t len) {
  count(name);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_last_xerbla_name.assign(srname, len);
  g_last_xerbla_info = *info;
}

char order_char(int order) { return order == 101 ? 'R' : 'C'; }
char trans_char(int t) { return t == 112 || t == 113 ? 'T' : 'N'; }

using c32 = std::complex<float>;
using c64 = std::complex<double>;

}  // namespace

// ---- What the tests ask of the stand-in.
STANDIN_EXPORT long standin_calls(const char* name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const auto it = g_calls.find(name);
  return it == g_calls.end() ? 0 : it->second;
}
STANDIN_EXPORT void standin_record_only(int on) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_record_only = on != 0;
}
STANDIN_EXPORT void standin_last_gemm(int64_t out[6]) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::memcpy(out, g_last_gemm, sizeof g_last_gemm);
}
STANDIN_EXPORT int64_t standin_last_xerbla(char* name, size_t size) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::snprintf(name, size, "%s", g_last_xerbla_name.c_str());
  return g_last_xerbla_info;
}

// ---- The exported routines: <prefix>R_<suffix> and <prefix>cblas_R<suffix> of each set.
// scipy-openblas64 (int64_t)
STANDIN_EXPORT void scipy_sgemm_64_(const char* ta, const char* tb, const int64_t* m,
                                    const int64_t* n, const int64_t* k, const float* al,
                                    const float* a, const int64_t* lda, const float* b,
                                    const int64_t* ldb, const float* be, float* c,
                                    const int64_t* ldc) {
  fortran_gemm("scipy_sgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_dgemm_64_(const char* ta, const char* tb, const int64_t* m,
                                    const int64_t* n, const int64_t* k, const double* al,
                                    const double* a, const int64_t* lda, const double* b,
                                    const int64_t* ldb, const double* be, double* c,
                                    const int64_t* ldc) {
  fortran_gemm("scipy_dgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cgemm_64_(const char* ta, const char* tb, const int64_t* m,
                                    const int64_t* n, const int64_t* k, const c32* al, const c32* a,
                                    const int64_t* lda, const c32* b, const int64_t* ldb,
                                    const c32* be, c32* c, const int64_t* ldc) {
  fortran_gemm("scipy_cgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_zgemm_64_(const char* ta, const char* tb, const int64_t* m,
                                    const int64_t* n, const int64_t* k, const c64* al, const c64* a,
                                    const int64_t* lda, const c64* b, const int64_t* ldb,
                                    const c64* be, c64* c, const int64_t* ldc) {
  fortran_gemm("scipy_zgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_sgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                         float al, const float* a, int64_t lda, const float* b,
                                         int64_t ldb, float be, float* c, int64_t ldc) {
  cblas_gemm("scipy_cblas_sgemm64_", o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_dgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                         double al, const double* a, int64_t lda, const double* b,
                                         int64_t ldb, double be, double* c, int64_t ldc) {
  cblas_gemm("scipy_cblas_dgemm64_", o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_cgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                         const c32* al, const c32* a, int64_t lda, const c32* b,
                                         int64_t ldb, const c32* be, c32* c, int64_t ldc) {
  cblas_gemm("scipy_cblas_cgemm64_", o, ta, tb, m, n, k, *al, a, lda, b, ldb, *be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_zgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                         const c64* al, const c64* a, int64_t lda, const c64* b,
                                         int64_t ldb, const c64* be, c64* c, int64_t ldc) {
  cblas_gemm("scipy_cblas_zgemm64_", o, ta, tb, m, n, k, *al, a, lda, b, ldb, *be, c, ldc);
}
STANDIN_EXPORT void scipy_saxpy_64_(const int64_t* n, const float* al, const float* x,
                                    const int64_t* incx, float* y, const int64_t* incy) {
  saxpy("scipy_saxpy_64_", *n, *al, x, *incx, y, *incy);
}
STANDIN_EXPORT void scipy_cblas_saxpy64_(int64_t n, float al, const float* x, int64_t incx,
                                         float* y, int64_t incy) {
  saxpy("scipy_cblas_saxpy64_", n, al, x, incx, y, incy);
}
STANDIN_EXPORT void scipy_somatcopy_64_(const char* o, const char* t, const int64_t* r,
                                        const int64_t* c, const float* al, const float* a,
                                        const int64_t* lda, float* b, const int64_t* ldb) {
  somatcopy("scipy_somatcopy_64_", *o, *t, *r, *c, *al, a, *lda, b, *ldb);
}
STANDIN_EXPORT void scipy_cblas_somatcopy64_(int o, int t, int64_t r, int64_t c, float al,
                                             const float* a, int64_t lda, float* b, int64_t ldb) {
  somatcopy("scipy_cblas_somatcopy64_", order_char(o), trans_char(t), r, c, al, a, lda, b, ldb);
}
STANDIN_EXPORT void scipy_simatcopy_64_(const char* o, const char* t, const int64_t* r,
                                        const int64_t* c, const float* al, float* a,
                                        const int64_t* lda, const int64_t* ldb) {
  simatcopy("scipy_simatcopy_64_", *o, *t, *r, *c, *al, a, *lda, *ldb);
}
STANDIN_EXPORT void scipy_cblas_simatcopy64_(int o, int t, int64_t r, int64_t c, float al, float* a,
                                             int64_t lda, int64_t ldb) {
  simatcopy("scipy_cblas_simatcopy64_", order_char(o), trans_char(t), r, c, al, a, lda, ldb);
}
STANDIN_EXPORT void scipy_xerbla_64_(const char* srname, const int64_t* info, size_t len) {
  xerbla("scipy_xerbla_64_", srname, info, len);
}

// scipy-openblas32 (int32_t)
STANDIN_EXPORT void scipy_sgemm_(const char* ta, const char* tb, const int32_t* m, const int32_t* n,
                                 const int32_t* k, const float* al, const float* a,
                                 const int32_t* lda, const float* b, const int32_t* ldb,
                                 const float* be, float* c, const int32_t* ldc) {
  fortran_gemm("scipy_sgemm_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_dgemm_(const char* ta, const char* tb, const int32_t* m, const int32_t* n,
                                 const int32_t* k, const double* al, const double* a,
                                 const int32_t* lda, const double* b, const int32_t* ldb,
                                 const double* be, double* c, const int32_t* ldc) {
  fortran_gemm("scipy_dgemm_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cgemm_(const char* ta, const char* tb, const int32_t* m, const int32_t* n,
                                 const int32_t* k, const c32* al, const c32* a, const int32_t* lda,
                                 const c32* b, const int32_t* ldb, const c32* be, c32* c,
                                 const int32_t* ldc) {
  fortran_gemm("scipy_cgemm_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_zgemm_(const char* ta, const char* tb, const int32_t* m, const int32_t* n,
                                 const int32_t* k, const c64* al, const c64* a, const int32_t* lda,
                                 const c64* b, const int32_t* ldb, const c64* be, c64* c,
                                 const int32_t* ldc) {
  fortran_gemm("scipy_zgemm_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_sgemm(int o, int ta, int tb, int32_t m, int32_t n, int32_t k,
                                      float al, const float* a, int32_t lda, const float* b,
                                      int32_t ldb, float be, float* c, int32_t ldc) {
  cblas_gemm("scipy_cblas_sgemm", o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_dgemm(int o, int ta, int tb, int32_t m, int32_t n, int32_t k,
                                      double al, const double* a, int32_t lda, const double* b,
                                      int32_t ldb, double be, double* c, int32_t ldc) {
  cblas_gemm("scipy_cblas_dgemm", o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_cgemm(int o, int ta, int tb, int32_t m, int32_t n, int32_t k,
                                      const c32* al, const c32* a, int32_t lda, const c32* b,
                                      int32_t ldb, const c32* be, c32* c, int32_t ldc) {
  cblas_gemm("scipy_cblas_cgemm", o, ta, tb, m, n, k, *al, a, lda, b, ldb, *be, c, ldc);
}
STANDIN_EXPORT void scipy_cblas_zgemm(int o, int ta, int tb, int32_t m, int32_t n, int32_t k,
                                      const c64* al, const c64* a, int32_t lda, const c64* b,
                                      int32_t ldb, const c64* be, c64* c, int32_t ldc) {
  cblas_gemm("scipy_cblas_zgemm", o, ta, tb, m, n, k, *al, a, lda, b, ldb, *be, c, ldc);
}
STANDIN_EXPORT void scipy_saxpy_(const int32_t* n, const float* al, const float* x,
                                 const int32_t* incx, float* y, const int32_t* incy) {
  saxpy("scipy_saxpy_", *n, *al, x, *incx, y, *incy);
}
STANDIN_EXPORT void scipy_cblas_saxpy(int32_t n, float al, const float* x, int32_t incx, float* y,
                                      int32_t incy) {
  saxpy("scipy_cblas_saxpy", n, al, x, incx, y, incy);
}
STANDIN_EXPORT void scipy_somatcopy_(const char* o, const char* t, const int32_t* r,
                                     const int32_t* c, const float* al, const float* a,
                                     const int32_t* lda, float* b, const int32_t* ldb) {
  somatcopy("scipy_somatcopy_", *o, *t, *r, *c, *al, a, *lda, b, *ldb);
}
STANDIN_EXPORT void scipy_cblas_somatcopy(int o, int t, int32_t r, int32_t c, float al,
                                          const float* a, int32_t lda, float* b, int32_t ldb) {
  somatcopy("scipy_cblas_somatcopy", order_char(o), trans_char(t), r, c, al, a, lda, b, ldb);
}
STANDIN_EXPORT void scipy_simatcopy_(const char* o, const char* t, const int32_t* r,
                                     const int32_t* c, const float* al, float* a,
                                     const int32_t* lda, const int32_t* ldb) {
  simatcopy("scipy_simatcopy_", *o, *t, *r, *c, *al, a, *lda, *ldb);
}
STANDIN_EXPORT void scipy_cblas_simatcopy(int o, int t, int32_t r, int32_t c, float al, float* a,
                                          int32_t lda, int32_t ldb) {
  simatcopy("scipy_cblas_simatcopy", order_char(o), trans_char(t), r, c, al, a, lda, ldb);
}
STANDIN_EXPORT void scipy_xerbla_(const char* srname, const int32_t* info, size_t len) {
  xerbla("scipy_xerbla_", srname, info, len);
}

// OpenBLAS ILP64 with SYMBOLSUFFIX=64_ (int64_t)
STANDIN_EXPORT void sgemm_64_(const char* ta, const char* tb, const int64_t* m, const int64_t* n,
                              const int64_t* k, const float* al, const float* a, const int64_t* lda,
                              const float* b, const int64_t* ldb, const float* be, float* c,
                              const int64_t* ldc) {
  fortran_gemm("sgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void dgemm_64_(const char* ta, const char* tb, const int64_t* m, const int64_t* n,
                              const int64_t* k, const double* al, const double* a,
                              const int64_t* lda, const double* b, const int64_t* ldb,
                              const double* be, double* c, const int64_t* ldc) {
  fortran_gemm("dgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void cgemm_64_(const char* ta, const char* tb, const int64_t* m, const int64_t* n,
                              const int64_t* k, const c32* al, const c32* a, const int64_t* lda,
                              const c32* b, const int64_t* ldb, const c32* be, c32* c,
                              const int64_t* ldc) {
  fortran_gemm("cgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void zgemm_64_(const char* ta, const char* tb, const int64_t* m, const int64_t* n,
                              const int64_t* k, const c64* al, const c64* a, const int64_t* lda,
                              const c64* b, const int64_t* ldb, const c64* be, c64* c,
                              const int64_t* ldc) {
  fortran_gemm("zgemm_64_", ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void cblas_sgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k, float al,
                                   const float* a, int64_t lda, const float* b, int64_t ldb,
                                   float be, float* c, int64_t ldc) {
  cblas_gemm("cblas_sgemm64_", o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void cblas_dgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                   double al, const double* a, int64_t lda, const double* b,
                                   int64_t ldb, double be, double* c, int64_t ldc) {
  cblas_gemm("cblas_dgemm64_", o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
STANDIN_EXPORT void cblas_cgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                   const c32* al, const c32* a, int64_t lda, const c32* b,
                                   int64_t ldb, const c32* be, c32* c, int64_t ldc) {
  cblas_gemm("cblas_cgemm64_", o, ta, tb, m, n, k, *al, a, lda, b, ldb, *be, c, ldc);
}
STANDIN_EXPORT void cblas_zgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                   const c64* al, const c64* a, int64_t lda, const c64* b,
                                   int64_t ldb, const c64* be, c64* c, int64_t ldc) {
  cblas_gemm("cblas_zgemm64_", o, ta, tb, m, n, k, *al, a, lda, b, ldb, *be, c, ldc);
}
STANDIN_EXPORT void sbgemm_64_(const char* ta, const char* tb, const int64_t* m, const int64_t* n,
                               const int64_t* k, const float* al, const uint16_t* a,
                               const int64_t* lda, const uint16_t* b, const int64_t* ldb,
                               const float* be, float* c, const int64_t* ldc) {
  sbgemm("sbgemm_64_", *ta, *tb, *m, *n, *k, *al, a, *lda, b, *ldb, *be, c, *ldc);
}
STANDIN_EXPORT void cblas_sbgemm64_(int o, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                    float al, const uint16_t* a, int64_t lda, const uint16_t* b,
                                    int64_t ldb, float be, float* c, int64_t ldc) {
  if (o == 101)
    sbgemm("cblas_sbgemm64_", trans_char(tb), trans_char(ta), n, m, k, al, b, ldb, a, lda, be, c,
           ldc);
  else
    sbgemm("cblas_sbgemm64_", trans_char(ta), trans_char(tb), m, n, k, al, a, lda, b, ldb, be, c,
           ldc);
}
STANDIN_EXPORT void saxpy_64_(const int64_t* n, const float* al, const float* x,
                              const int64_t* incx, float* y, const int64_t* incy) {
  saxpy("saxpy_64_", *n, *al, x, *incx, y, *incy);
}
STANDIN_EXPORT void cblas_saxpy64_(int64_t n, float al, const float* x, int64_t incx, float* y,
                                   int64_t incy) {
  saxpy("cblas_saxpy64_", n, al, x, incx, y, incy);
}
STANDIN_EXPORT void somatcopy_64_(const char* o, const char* t, const int64_t* r, const int64_t* c,
                                  const float* al, const float* a, const int64_t* lda, float* b,
                                  const int64_t* ldb) {
  somatcopy("somatcopy_64_", *o, *t, *r, *c, *al, a, *lda, b, *ldb);
}
STANDIN_EXPORT void cblas_somatcopy64_(int o, int t, int64_t r, int64_t c, float al, const float* a,
                                       int64_t lda, float* b, int64_t ldb) {
  somatcopy("cblas_somatcopy64_", order_char(o), trans_char(t), r, c, al, a, lda, b, ldb);
}
STANDIN_EXPORT void simatcopy_64_(const char* o, const char* t, const int64_t* r, const int64_t* c,
                                  const float* al, float* a, const int64_t* lda,
                                  const int64_t* ldb) {
  simatcopy("simatcopy_64_", *o, *t, *r, *c, *al, a, *lda, *ldb);
}
STANDIN_EXPORT void cblas_simatcopy64_(int o, int t, int64_t r, int64_t c, float al, float* a,
                                       int64_t lda, int64_t ldb) {
  simatcopy("cblas_simatcopy64_", order_char(o), trans_char(t), r, c, al, a, lda, ldb);
}
STANDIN_EXPORT void xerbla_64_(const char* srname, const int64_t* info, size_t len) {
  xerbla("xerbla_64_", srname, info, len);
}

// ssyrk and dsyrk of every set (numpy's a @ a.T).
STANDIN_EXPORT void scipy_ssyrk_64_(const char* u, const char* t, const int64_t* n,
                                    const int64_t* k, const float* al, const float* a,
                                    const int64_t* lda, const float* be, float* c,
                                    const int64_t* ldc) {
  syrk("scipy_ssyrk_64_", *u, *t, *n, *k, *al, a, *lda, *be, c, *ldc);
}
STANDIN_EXPORT void scipy_cblas_ssyrk64_(int o, int u, int t, int64_t n, int64_t k, float al,
                                         const float* a, int64_t lda, float be, float* c,
                                         int64_t ldc) {
  cblas_syrk("scipy_cblas_ssyrk64_", o, u, t, n, k, al, a, lda, be, c, ldc);
}
STANDIN_EXPORT void scipy_dsyrk_64_(const char* u, const char* t, const int64_t* n,
                                    const int64_t* k, const double* al, const double* a,
                                    const int64_t* lda, const double* be, double* c,
                                    const int64_t* ldc) {
  syrk("scipy_dsyrk_64_", *u, *t, *n, *k, *al, a, *lda, *be, c, *ldc);
}
STANDIN_EXPORT void scipy_cblas_dsyrk64_(int o, int u, int t, int64_t n, int64_t k, double al,
                                         const double* a, int64_t lda, double be, double* c,
                                         int64_t ldc) {
  cblas_syrk("scipy_cblas_dsyrk64_", o, u, t, n, k, al, a, lda, be, c, ldc);
}
STANDIN_EXPORT void scipy_ssyrk_(const char* u, const char* t, const int32_t* n, const int32_t* k,
                                 const float* al, const float* a, const int32_t* lda,
                                 const float* be, float* c, const int32_t* ldc) {
  syrk("scipy_ssyrk_", *u, *t, *n, *k, *al, a, *lda, *be, c, *ldc);
}
STANDIN_EXPORT void scipy_cblas_ssyrk(int o, int u, int t, int32_t n, int32_t k, float al,
                                      const float* a, int32_t lda, float be, float* c,
                                      int32_t ldc) {
  cblas_syrk("scipy_cblas_ssyrk", o, u, t, n, k, al, a, lda, be, c, ldc);
}
STANDIN_EXPORT void scipy_dsyrk_(const char* u, const char* t, const int32_t* n, const int32_t* k,
                                 const double* al, const double* a, const int32_t* lda,
                                 const double* be, double* c, const int32_t* ldc) {
  syrk("scipy_dsyrk_", *u, *t, *n, *k, *al, a, *lda, *be, c, *ldc);
}
STANDIN_EXPORT void scipy_cblas_dsyrk(int o, int u, int t, int32_t n, int32_t k, double al,
                                      const double* a, int32_t lda, double be, double* c,
                                      int32_t ldc) {
  cblas_syrk("scipy_cblas_dsyrk", o, u, t, n, k, al, a, lda, be, c, ldc);
}
STANDIN_EXPORT void ssyrk_64_(const char* u, const char* t, const int64_t* n, const int64_t* k,
                              const float* al, const float* a, const int64_t* lda, const float* be,
                              float* c, const int64_t* ldc) {
  syrk("ssyrk_64_", *u, *t, *n, *k, *al, a, *lda, *be, c, *ldc);
}
STANDIN_EXPORT void cblas_ssyrk64_(int o, int u, int t, int64_t n, int64_t k, float al,
                                   const float* a, int64_t lda, float be, float* c, int64_t ldc) {
  cblas_syrk("cblas_ssyrk64_", o, u, t, n, k, al, a, lda, be, c, ldc);
}
STANDIN_EXPORT void dsyrk_64_(const char* u, const char* t, const int64_t* n, const int64_t* k,
                              const double* al, const double* a, const int64_t* lda,
                              const double* be, double* c, const int64_t* ldc) {
  syrk("dsyrk_64_", *u, *t, *n, *k, *al, a, *lda, *be, c, *ldc);
}
STANDIN_EXPORT void cblas_dsyrk64_(int o, int u, int t, int64_t n, int64_t k, double al,
                                   const double* a, int64_t lda, double be, double* c,
                                   int64_t ldc) {
  cblas_syrk("cblas_dsyrk64_", o, u, t, n, k, al, a, lda, be, c, ldc);
}
