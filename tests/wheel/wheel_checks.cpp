// The checks of the wheel and ILP64 name sets, through the stand-in wheel library
// (standin_openblas.cpp): built into a program linked to it (wheel_linked) and into a module that
// depends on it (wheel_module), which wheel_python_like opens RTLD_LOCAL as Python opens numpy's
// extension modules. For each set (scipy-openblas64, scipy-openblas32, OpenBLAS ILP64):
//   - GEMM in every type, Fortran and CBLAS (both layouts), sbgemm (OpenBLAS ILP64 only: the
//     wheels have none), saxpy, somatcopy, simatcopy, ssyrk and dsyrk (numpy's a @ a.T):
//     results exact (integer-valued data) against a reference here, C poisoned (NaN) when beta
//     is 0;
//   - whose function ran: with tileblas preloaded (TILEBLAS_MODE=cpu, as with no GPU), every call
//     must reach the stand-in's Fortran routine of the caller's own set and none its CBLAS one
//     (tileblas took the CBLAS call and ran its CPU side there); without tileblas, the function
//     called;
//   - errors (tileblas only): reported once to this program's (or module's) own
//     <prefix>xerbla_<suffix>, as numpy defines scipy_xerbla_64_ in its module, with OpenBLAS's
//     numbers, C untouched;
//   - 64-bit sets: leading dimensions beyond 2^32 (in address space reserved, not allocated: only
//     the touched pages exist) computed right, and sizes beyond 2^31 passed on unchanged (the
//     stand-in records them without computing).
// Prints "expect-verbose: <name>" for each name called with tileblas present, for the runner to
// find in TILEBLAS_VERBOSE's lines. wheel_checks_run() returns the number of failed checks.
#include <dlfcn.h>
#include <sys/mman.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#define CHECKS_EXPORT extern "C" __attribute__((visibility("default")))

extern "C" {
// The stand-in's test interface.
long standin_calls(const char* name);
void standin_record_only(int on);
void standin_last_gemm(int64_t out[6]);

// The wheel names, declared without parameters: each is cast to its signature where called.
void scipy_ssyrk_64_(), scipy_dsyrk_64_(), scipy_cblas_ssyrk64_(), scipy_cblas_dsyrk64_();
void scipy_ssyrk_(), scipy_dsyrk_(), scipy_cblas_ssyrk(), scipy_cblas_dsyrk();
void ssyrk_64_(), dsyrk_64_(), cblas_ssyrk64_(), cblas_dsyrk64_();
void scipy_sgemm_64_(), scipy_dgemm_64_(), scipy_cgemm_64_(), scipy_zgemm_64_();
void scipy_cblas_sgemm64_(), scipy_cblas_dgemm64_(), scipy_cblas_cgemm64_(), scipy_cblas_zgemm64_();
void scipy_saxpy_64_(), scipy_cblas_saxpy64_(), scipy_somatcopy_64_();
void scipy_cblas_somatcopy64_(), scipy_simatcopy_64_(), scipy_cblas_simatcopy64_();
void scipy_sgemm_(), scipy_dgemm_(), scipy_cgemm_(), scipy_zgemm_();
void scipy_cblas_sgemm(), scipy_cblas_dgemm(), scipy_cblas_cgemm(), scipy_cblas_zgemm();
void scipy_saxpy_(), scipy_cblas_saxpy(), scipy_somatcopy_();
void scipy_cblas_somatcopy(), scipy_simatcopy_(), scipy_cblas_simatcopy();
void sgemm_64_(), dgemm_64_(), cgemm_64_(), zgemm_64_(), sbgemm_64_();
void cblas_sgemm64_(), cblas_dgemm64_(), cblas_cgemm64_(), cblas_zgemm64_();
void cblas_sbgemm64_(), saxpy_64_(), cblas_saxpy64_(), somatcopy_64_();
void cblas_somatcopy64_(), simatcopy_64_(), cblas_simatcopy64_();
}

namespace {

// What the caller's own error handlers saw.
struct XerblaSeen {
  int calls = 0;
  std::string name;
  int64_t info = 0;
};
XerblaSeen g_xerbla;

template <typename I>
void record_xerbla(const char* srname, const I* info, size_t len) {
  ++g_xerbla.calls;
  g_xerbla.name.assign(srname, len);
  g_xerbla.info = *info;
}

}  // namespace

// The caller's own handlers (numpy's python_xerbla.c defines scipy_xerbla_64_ so).
CHECKS_EXPORT void scipy_xerbla_64_(const char* s, const int64_t* i, size_t n) {
  record_xerbla(s, i, n);
}
CHECKS_EXPORT void scipy_xerbla_(const char* s, const int32_t* i, size_t n) {
  record_xerbla(s, i, n);
}
CHECKS_EXPORT void xerbla_64_(const char* s, const int64_t* i, size_t n) { record_xerbla(s, i, n); }

namespace {

using Fn = void (*)();
struct Entry {
  const char* fortran_name;
  Fn fortran;
  const char* cblas_name;
  Fn cblas;
};
struct WheelSet {
  const char* what;
  bool int64;
  Entry sgemm, dgemm, cgemm, zgemm, sbgemm, saxpy, somatcopy, simatcopy, ssyrk, dsyrk;
};

const WheelSet kSets[] = {
    {"scipy-openblas64 (numpy >= 2 wheels)",
     true,
     {"scipy_sgemm_64_", scipy_sgemm_64_, "scipy_cblas_sgemm64_", scipy_cblas_sgemm64_},
     {"scipy_dgemm_64_", scipy_dgemm_64_, "scipy_cblas_dgemm64_", scipy_cblas_dgemm64_},
     {"scipy_cgemm_64_", scipy_cgemm_64_, "scipy_cblas_cgemm64_", scipy_cblas_cgemm64_},
     {"scipy_zgemm_64_", scipy_zgemm_64_, "scipy_cblas_zgemm64_", scipy_cblas_zgemm64_},
     {},  // no sbgemm in the wheels' OpenBLAS (nor among tileblas's names for them)
     {"scipy_saxpy_64_", scipy_saxpy_64_, "scipy_cblas_saxpy64_", scipy_cblas_saxpy64_},
     {"scipy_somatcopy_64_", scipy_somatcopy_64_, "scipy_cblas_somatcopy64_",
      scipy_cblas_somatcopy64_},
     {"scipy_simatcopy_64_", scipy_simatcopy_64_, "scipy_cblas_simatcopy64_",
      scipy_cblas_simatcopy64_},
     {"scipy_ssyrk_64_", scipy_ssyrk_64_, "scipy_cblas_ssyrk64_", scipy_cblas_ssyrk64_},
     {"scipy_dsyrk_64_", scipy_dsyrk_64_, "scipy_cblas_dsyrk64_", scipy_cblas_dsyrk64_}},
    {"scipy-openblas32 (scipy wheels)",
     false,
     {"scipy_sgemm_", scipy_sgemm_, "scipy_cblas_sgemm", scipy_cblas_sgemm},
     {"scipy_dgemm_", scipy_dgemm_, "scipy_cblas_dgemm", scipy_cblas_dgemm},
     {"scipy_cgemm_", scipy_cgemm_, "scipy_cblas_cgemm", scipy_cblas_cgemm},
     {"scipy_zgemm_", scipy_zgemm_, "scipy_cblas_zgemm", scipy_cblas_zgemm},
     {},
     {"scipy_saxpy_", scipy_saxpy_, "scipy_cblas_saxpy", scipy_cblas_saxpy},
     {"scipy_somatcopy_", scipy_somatcopy_, "scipy_cblas_somatcopy", scipy_cblas_somatcopy},
     {"scipy_simatcopy_", scipy_simatcopy_, "scipy_cblas_simatcopy", scipy_cblas_simatcopy},
     {"scipy_ssyrk_", scipy_ssyrk_, "scipy_cblas_ssyrk", scipy_cblas_ssyrk},
     {"scipy_dsyrk_", scipy_dsyrk_, "scipy_cblas_dsyrk", scipy_cblas_dsyrk}},
    {"OpenBLAS ILP64 (SYMBOLSUFFIX=64_)",
     true,
     {"sgemm_64_", sgemm_64_, "cblas_sgemm64_", cblas_sgemm64_},
     {"dgemm_64_", dgemm_64_, "cblas_dgemm64_", cblas_dgemm64_},
     {"cgemm_64_", cgemm_64_, "cblas_cgemm64_", cblas_cgemm64_},
     {"zgemm_64_", zgemm_64_, "cblas_zgemm64_", cblas_zgemm64_},
     {"sbgemm_64_", sbgemm_64_, "cblas_sbgemm64_", cblas_sbgemm64_},
     {"saxpy_64_", saxpy_64_, "cblas_saxpy64_", cblas_saxpy64_},
     {"somatcopy_64_", somatcopy_64_, "cblas_somatcopy64_", cblas_somatcopy64_},
     {"simatcopy_64_", simatcopy_64_, "cblas_simatcopy64_", cblas_simatcopy64_},
     {"ssyrk_64_", ssyrk_64_, "cblas_ssyrk64_", cblas_ssyrk64_},
     {"dsyrk_64_", dsyrk_64_, "cblas_dsyrk64_", cblas_dsyrk64_}},
};

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113;

struct Checks {
  const char* where;
  bool tileblas;  // tileblas is in the process (preloaded)
  int failures = 0;
  std::set<std::string> verbose;  // names called with tileblas present

  void expect(bool ok, const std::string& what) {
    if (ok) return;
    ++failures;
    std::printf("FAIL [%s]: %s\n", where, what.c_str());
  }
  void called(const char* name) {
    if (tileblas) verbose.insert(name);
  }
};

// Which stand-in functions must have run for one call through `called`: with tileblas, its CPU
// side is the Fortran routine `fortran` of the same set; without, the function called itself.
struct Counts {
  const char* called;
  const char* fortran;
  long called_before, fortran_before;
  Counts(const char* c, const char* f)
      : called(c), fortran(f), called_before(standin_calls(c)), fortran_before(standin_calls(f)) {}
  bool ok(bool tileblas) const {
    const long dc = standin_calls(called) - called_before;
    const long df = standin_calls(fortran) - fortran_before;
    if (std::strcmp(called, fortran) == 0) return dc == 1;
    return tileblas ? (df == 1 && dc == 0) : (dc == 1 && df == 0);
  }
  std::string str(bool tileblas) const {
    return std::string(" (stand-in calls: ") + called + " +" +
           std::to_string(standin_calls(called) - called_before) + ", " + fortran + " +" +
           std::to_string(standin_calls(fortran) - fortran_before) + "; expected " +
           (tileblas ? fortran : called) + " +1 alone)";
  }
};

template <typename T>
constexpr bool kComplex =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
template <typename T>
using Wide = std::conditional_t<kComplex<T>, std::complex<double>, double>;

uint32_t g_seed = 12345;
int small_int() {
  g_seed = g_seed * 1664525u + 1013904223u;
  return int(g_seed >> 28) % 5 - 2;  // -2..2
}

template <typename T>
T value() {
  if constexpr (kComplex<T>) {
    return T(small_int(), small_int());
  } else {
    return T(small_int());
  }
}

template <typename T>
std::vector<T> values(size_t n) {
  std::vector<T> v(n);
  for (T& x : v) x = value<T>();
  return v;
}

template <typename T>
Wide<T> op_at(const T* x, int64_t ld, char t, int64_t i, int64_t l) {
  const bool transposed = t == 'T' || t == 'C';
  Wide<T> v = Wide<T>(transposed ? x[l + i * ld] : x[i + l * ld]);
  if constexpr (kComplex<T>) {
    if (t == 'C' || t == 'R') v = std::conj(v);
  }
  return v;
}

// Column-major reference; beta == 0: C not read.
template <typename T>
std::vector<T> reference(char ta, char tb, int64_t m, int64_t n, int64_t k, T alpha,
                         const std::vector<T>& a, int64_t lda, const std::vector<T>& b, int64_t ldb,
                         T beta, const std::vector<T>& c, int64_t ldc) {
  std::vector<T> out = c;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      Wide<T> sum = 0;
      for (int64_t l = 0; l < k; ++l)
        sum += op_at(a.data(), lda, ta, i, l) * op_at(b.data(), ldb, tb, l, j);
      const Wide<T> prior = beta == T(0) ? Wide<T>(0) : Wide<T>(beta) * Wide<T>(c[i + j * ldc]);
      out[i + j * ldc] = T(Wide<T>(alpha) * sum + prior);
    }
  }
  return out;
}

template <typename T>
bool same(const std::vector<T>& x, const std::vector<T>& y) {
  return std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

template <typename T>
T poison() {
  return T(std::nan(""));
}

template <typename T, typename I>
using FortranGemm = void (*)(const char*, const char*, const I*, const I*, const I*, const T*,
                             const T*, const I*, const T*, const I*, const T*, T*, const I*, size_t,
                             size_t);
// CBLAS: real alpha and beta by value, complex ones by address.
template <typename T>
using CblasScalar = std::conditional_t<kComplex<T>, const T*, T>;
template <typename T, typename I>
using CblasGemm = void (*)(int, int, int, I, I, I, CblasScalar<T>, const T*, I, const T*, I,
                           CblasScalar<T>, T*, I);

template <typename T>
CblasScalar<T> by_cblas(const T& v) {
  if constexpr (kComplex<T>) {
    return &v;
  } else {
    return v;
  }
}

template <typename T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "s";
  if constexpr (std::is_same_v<T, double>) return "d";
  if constexpr (std::is_same_v<T, std::complex<float>>) return "c";
  return "z";
}

char trans_of(int t) { return t == kTrans ? 'T' : t == kConjTrans ? 'C' : 'N'; }

template <typename T, typename I>
void check_gemm(Checks& ck, const WheelSet& set, const Entry& e) {
  const int64_t m = 5, n = 4, k = 3;
  const T alpha = kComplex<T> ? value<T>() + T(1) : T(2);
  // Fortran: transposes, beta 0 (C poisoned) and not.
  struct Case {
    char ta, tb;
    bool beta_zero;
  };
  for (const Case cs : {Case{'N', 'N', true}, Case{'T', 'N', false}, Case{'N', 'C', true},
                        Case{'C', 'T', false}, Case{'R', 'N', false}}) {
    if (cs.ta == 'R' && !ck.tileblas) continue;  // OpenBLAS's 'R': tileblas's mapping is checked
    const int64_t lda = (cs.ta == 'N' || cs.ta == 'R' ? m : k) + 2,
                  ldb = (cs.tb == 'N' ? k : n) + 1, ldc = m + 3;
    const auto a = values<T>(size_t(lda) * (cs.ta == 'N' || cs.ta == 'R' ? k : m));
    const auto b = values<T>(size_t(ldb) * (cs.tb == 'N' ? n : k));
    std::vector<T> c =
        cs.beta_zero ? std::vector<T>(size_t(ldc) * n, poison<T>()) : values<T>(size_t(ldc) * n);
    const T beta = cs.beta_zero ? T(0) : T(-1);
    const auto expected = reference<T>(cs.ta, cs.tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    const I im = I(m), in = I(n), ik = I(k), ilda = I(lda), ildb = I(ldb), ildc = I(ldc);
    const Counts counts(e.fortran_name, e.fortran_name);
    reinterpret_cast<FortranGemm<T, I>>(e.fortran)(&cs.ta, &cs.tb, &im, &in, &ik, &alpha, a.data(),
                                                   &ilda, b.data(), &ildb, &beta, c.data(), &ildc,
                                                   1, 1);
    ck.called(e.fortran_name);
    const std::string what =
        std::string(e.fortran_name) + " " + cs.ta + cs.tb + (cs.beta_zero ? " beta=0" : " beta=-1");
    ck.expect(same(c, expected), what + ": wrong C");
    ck.expect(counts.ok(ck.tileblas), what + counts.str(ck.tileblas));
  }
  // CBLAS: both layouts.
  for (const int layout : {kRowMajor, kColMajor}) {
    for (const auto [ta, tb] : {std::pair{kNoTrans, kNoTrans}, std::pair{kTrans, kConjTrans}}) {
      const bool row = layout == kRowMajor;
      const bool a_t = ta != kNoTrans, b_t = tb != kNoTrans;
      // Stored shapes (rows x cols in the caller's layout) and leading dimensions.
      const int64_t a_rows = a_t ? k : m, a_cols = a_t ? m : k;
      const int64_t b_rows = b_t ? n : k, b_cols = b_t ? k : n;
      const int64_t lda = (row ? a_cols : a_rows) + 1, ldb = (row ? b_cols : b_rows) + 2,
                    ldc = (row ? n : m) + 1;
      const auto a = values<T>(size_t(lda) * size_t(row ? a_rows : a_cols));
      const auto b = values<T>(size_t(ldb) * size_t(row ? b_rows : b_cols));
      std::vector<T> c(size_t(ldc) * size_t(row ? m : n), poison<T>());
      const T beta = T(0);
      // Row-major: the column-major C^T = op(B)^T op(A)^T.
      const auto expected = row ? reference<T>(trans_of(tb), trans_of(ta), n, m, k, alpha, b, ldb,
                                               a, lda, beta, c, ldc)
                                : reference<T>(trans_of(ta), trans_of(tb), m, n, k, alpha, a, lda,
                                               b, ldb, beta, c, ldc);
      const Counts counts(e.cblas_name, e.fortran_name);
      reinterpret_cast<CblasGemm<T, I>>(e.cblas)(layout, ta, tb, I(m), I(n), I(k), by_cblas(alpha),
                                                 a.data(), I(lda), b.data(), I(ldb), by_cblas(beta),
                                                 c.data(), I(ldc));
      ck.called(e.cblas_name);
      const std::string what = std::string(e.cblas_name) + (row ? " row-major " : " col-major ") +
                               trans_of(ta) + trans_of(tb);
      ck.expect(same(c, expected), what + ": wrong C");
      ck.expect(counts.ok(ck.tileblas), what + counts.str(ck.tileblas));
    }
  }
  (void)set;
}

uint16_t bf16_of(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return uint16_t(bits >> 16);  // exact for the small integers used here
}

template <typename I>
void check_sbgemm(Checks& ck, const WheelSet& set) {
  const int64_t m = 4, n = 3, k = 5;
  const auto af = values<float>(size_t(m * k)), bf = values<float>(size_t(k * n));
  std::vector<uint16_t> a(af.size()), b(bf.size());
  for (size_t i = 0; i < af.size(); ++i) a[i] = bf16_of(af[i]);
  for (size_t i = 0; i < bf.size(); ++i) b[i] = bf16_of(bf[i]);
  const float alpha = 3, beta = 0;
  const auto expected = reference<float>('N', 'N', m, n, k, alpha, af, m, bf, k, beta,
                                         std::vector<float>(size_t(m * n)), m);
  // With tileblas, the CPU side widens A and B and runs the set's sgemm.
  const char* cpu = ck.tileblas ? set.sgemm.fortran_name : set.sbgemm.fortran_name;
  {
    std::vector<float> c(size_t(m * n), poison<float>());
    const I im = I(m), in = I(n), ik = I(k);
    using Fn = void (*)(const char*, const char*, const I*, const I*, const I*, const float*,
                        const uint16_t*, const I*, const uint16_t*, const I*, const float*, float*,
                        const I*);
    const Counts counts(set.sbgemm.fortran_name, cpu);
    reinterpret_cast<Fn>(set.sbgemm.fortran)("N", "N", &im, &in, &ik, &alpha, a.data(), &im,
                                             b.data(), &ik, &beta, c.data(), &im);
    ck.called(set.sbgemm.fortran_name);
    ck.expect(same(c, expected), std::string(set.sbgemm.fortran_name) + ": wrong C");
    ck.expect(counts.ok(ck.tileblas), set.sbgemm.fortran_name + counts.str(ck.tileblas));
  }
  {
    std::vector<float> c(size_t(m * n), poison<float>());
    using Fn = void (*)(int, int, int, I, I, I, float, const uint16_t*, I, const uint16_t*, I,
                        float, float*, I);
    const Counts counts(set.sbgemm.cblas_name, cpu);
    reinterpret_cast<Fn>(set.sbgemm.cblas)(kColMajor, kNoTrans, kNoTrans, I(m), I(n), I(k), alpha,
                                           a.data(), I(m), b.data(), I(k), beta, c.data(), I(m));
    ck.called(set.sbgemm.cblas_name);
    ck.expect(same(c, expected), std::string(set.sbgemm.cblas_name) + ": wrong C");
    ck.expect(counts.ok(ck.tileblas), set.sbgemm.cblas_name + counts.str(ck.tileblas));
  }
}

template <typename I>
void check_saxpy(Checks& ck, const WheelSet& set) {
  const int64_t n = 7;
  for (const int64_t inc : {1, -2}) {
    const int64_t len = 1 + (n - 1) * (inc < 0 ? -inc : inc);
    const auto x = values<float>(size_t(len));
    const auto y0 = values<float>(size_t(len));
    std::vector<float> expected = y0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = inc < 0 ? (n - 1 - i) * -inc : i * inc;
      expected[size_t(at)] += 2.0f * x[size_t(at)];
    }
    {
      std::vector<float> y = y0;
      const I in = I(n), iinc = I(inc);
      const float alpha = 2;
      using Fn = void (*)(const I*, const float*, const float*, const I*, float*, const I*);
      const Counts counts(set.saxpy.fortran_name, set.saxpy.fortran_name);
      reinterpret_cast<Fn>(set.saxpy.fortran)(&in, &alpha, x.data(), &iinc, y.data(), &iinc);
      ck.called(set.saxpy.fortran_name);
      ck.expect(same(y, expected), std::string(set.saxpy.fortran_name) + ": wrong y");
      ck.expect(counts.ok(ck.tileblas), set.saxpy.fortran_name + counts.str(ck.tileblas));
    }
    {
      std::vector<float> y = y0;
      using Fn = void (*)(I, float, const float*, I, float*, I);
      const Counts counts(set.saxpy.cblas_name, set.saxpy.fortran_name);
      reinterpret_cast<Fn>(set.saxpy.cblas)(I(n), 2.0f, x.data(), I(inc), y.data(), I(inc));
      ck.called(set.saxpy.cblas_name);
      ck.expect(same(y, expected), std::string(set.saxpy.cblas_name) + ": wrong y");
      ck.expect(counts.ok(ck.tileblas), set.saxpy.cblas_name + counts.str(ck.tileblas));
    }
  }
}

template <typename I>
void check_matcopy(Checks& ck, const WheelSet& set) {
  // Out of place: a 3 x 5 column-major A, transposed into 5 x 3.
  const int64_t rows = 3, cols = 5, lda = 4, ldb = 6;
  const auto a = values<float>(size_t(lda * cols));
  std::vector<float> expected(size_t(ldb * rows), -7.0f);
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i)
      expected[size_t(j + i * ldb)] = 2.0f * a[size_t(i + j * lda)];
  }
  {
    std::vector<float> b(expected.size(), -7.0f);
    const I ir = I(rows), ic = I(cols), ilda = I(lda), ildb = I(ldb);
    const float alpha = 2;
    using Fn = void (*)(const char*, const char*, const I*, const I*, const float*, const float*,
                        const I*, float*, const I*);
    const Counts counts(set.somatcopy.fortran_name, set.somatcopy.fortran_name);
    reinterpret_cast<Fn>(set.somatcopy.fortran)("C", "T", &ir, &ic, &alpha, a.data(), &ilda,
                                                b.data(), &ildb);
    ck.called(set.somatcopy.fortran_name);
    ck.expect(same(b, expected), std::string(set.somatcopy.fortran_name) + ": wrong B");
    ck.expect(counts.ok(ck.tileblas), set.somatcopy.fortran_name + counts.str(ck.tileblas));
  }
  {
    // Row order: the 5 x 3 row-major matrix with lda 4 is the column-major 3 x 5 one above.
    std::vector<float> b(expected.size(), -7.0f);
    using Fn = void (*)(int, int, I, I, float, const float*, I, float*, I);
    const Counts counts(set.somatcopy.cblas_name, set.somatcopy.fortran_name);
    reinterpret_cast<Fn>(set.somatcopy.cblas)(kRowMajor, kTrans, I(cols), I(rows), 2.0f, a.data(),
                                              I(lda), b.data(), I(ldb));
    ck.called(set.somatcopy.cblas_name);
    ck.expect(same(b, expected), std::string(set.somatcopy.cblas_name) + ": wrong B");
    ck.expect(counts.ok(ck.tileblas), set.somatcopy.cblas_name + counts.str(ck.tileblas));
  }
  // In place, square with lda == ldb (what tileblas hands to the CPU BLAS's simatcopy).
  const int64_t sq = 4, ld = 5;
  const auto a0 = values<float>(size_t(ld * sq));
  std::vector<float> in_place = a0;
  for (int64_t j = 0; j < sq; ++j) {
    for (int64_t i = 0; i < sq; ++i) in_place[size_t(j + i * ld)] = -1.0f * a0[size_t(i + j * ld)];
  }
  {
    std::vector<float> x = a0;
    const I isq = I(sq), ild = I(ld);
    const float alpha = -1;
    using Fn = void (*)(const char*, const char*, const I*, const I*, const float*, float*,
                        const I*, const I*);
    const Counts counts(set.simatcopy.fortran_name, set.simatcopy.fortran_name);
    reinterpret_cast<Fn>(set.simatcopy.fortran)("C", "T", &isq, &isq, &alpha, x.data(), &ild, &ild);
    ck.called(set.simatcopy.fortran_name);
    ck.expect(same(x, in_place), std::string(set.simatcopy.fortran_name) + ": wrong A");
    ck.expect(counts.ok(ck.tileblas), set.simatcopy.fortran_name + counts.str(ck.tileblas));
  }
  {
    std::vector<float> x = a0;
    using Fn = void (*)(int, int, I, I, float, float*, I, I);
    const Counts counts(set.simatcopy.cblas_name, set.simatcopy.fortran_name);
    reinterpret_cast<Fn>(set.simatcopy.cblas)(kColMajor, kTrans, I(sq), I(sq), -1.0f, x.data(),
                                              I(ld), I(ld));
    ck.called(set.simatcopy.cblas_name);
    ck.expect(same(x, in_place), std::string(set.simatcopy.cblas_name) + ": wrong A");
    ck.expect(counts.ok(ck.tileblas), set.simatcopy.cblas_name + counts.str(ck.tileblas));
  }
}

// syrk, as numpy computes a @ a.T: C's `uplo` triangle only (the other keeps its poison).
template <typename T, typename I>
void check_syrk(Checks& ck, const Entry& e) {
  const int64_t n = 6, k = 4;
  for (const bool cblas : {false, true}) {
    for (const bool upper : {true, false}) {
      // Fortran: op = N with A n x k (lda n + 1); CBLAS row-major, NoTrans: A is n x k row-major.
      const int64_t lda = cblas ? k + 1 : n + 1, ldc = n + 2;
      const auto a = values<T>(size_t(lda) * size_t(cblas ? n : k));
      std::vector<T> c(size_t(ldc) * size_t(n), poison<T>());
      std::vector<T> expected = c;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          // In the caller's layout: element (i, j) of the n x n C.
          if (upper ? j < i : j > i) continue;
          double sum = 0;
          for (int64_t l = 0; l < k; ++l) {
            const double ail = cblas ? a[size_t(l + i * lda)] : a[size_t(i + l * lda)];
            const double ajl = cblas ? a[size_t(l + j * lda)] : a[size_t(j + l * lda)];
            sum += ail * ajl;
          }
          expected[size_t(cblas ? j + i * ldc : i + j * ldc)] = T(2 * sum);
        }
      }
      const Counts counts(cblas ? e.cblas_name : e.fortran_name, e.fortran_name);
      if (cblas) {
        using Fn = void (*)(int, int, int, I, I, T, const T*, I, T, T*, I);
        reinterpret_cast<Fn>(e.cblas)(kRowMajor, upper ? 121 : 122, kNoTrans, I(n), I(k), T(2),
                                      a.data(), I(lda), T(0), c.data(), I(ldc));
      } else {
        using Fn = void (*)(const char*, const char*, const I*, const I*, const T*, const T*,
                            const I*, const T*, T*, const I*, size_t, size_t);
        const I in = I(n), ik = I(k), ilda = I(lda), ildc = I(ldc);
        const T alpha = 2, beta = 0;
        reinterpret_cast<Fn>(e.fortran)(upper ? "U" : "L", "N", &in, &ik, &alpha, a.data(), &ilda,
                                        &beta, c.data(), &ildc, 1, 1);
      }
      const char* name = cblas ? e.cblas_name : e.fortran_name;
      ck.called(name);
      const std::string what = std::string(name) + (upper ? " upper" : " lower");
      ck.expect(same(c, expected), what + ": wrong C (or the other triangle written)");
      ck.expect(counts.ok(ck.tileblas), what + counts.str(ck.tileblas));
    }
  }
}

// Bad arguments, as tileblas checks them for a set with OpenBLAS's conventions: reported once to
// the caller's own handler, nothing computed, nothing of the stand-in run.
template <typename I>
void check_errors(Checks& ck, const WheelSet& set) {
  std::vector<float> a(64, 1.0f), b(64, 1.0f), c(64, 5.0f);
  const std::vector<float> c0 = c;
  // `ran`: the stand-in routine that must not have run; `before`: its count before the call.
  auto expect_report = [&](const std::string& what, const char* name, int64_t info, const char* ran,
                           long before) {
    ck.expect(g_xerbla.calls == 1 && g_xerbla.name == name && g_xerbla.info == info,
              what + ": expected one report (" + name + ", " + std::to_string(info) + "), got " +
                  std::to_string(g_xerbla.calls) + " (" + g_xerbla.name + ", " +
                  std::to_string(g_xerbla.info) + ")");
    ck.expect(same(c, c0), what + ": C written");
    ck.expect(standin_calls(ran) == before, what + ": the stand-in ran");
    g_xerbla = {};
  };
  const float one = 1, zero = 0;
  g_xerbla = {};
  {
    const I m = 2, n = 2, k = 2, lda = 1, ldb = 2, ldc = 2;
    const long before = standin_calls(set.sgemm.fortran_name);
    reinterpret_cast<FortranGemm<float, I>>(set.sgemm.fortran)(
        "N", "N", &m, &n, &k, &one, a.data(), &lda, b.data(), &ldb, &zero, c.data(), &ldc, 1, 1);
    expect_report(std::string(set.sgemm.fortran_name) + " lda < m", "SGEMM ", 8,
                  set.sgemm.fortran_name, before);
  }
  {
    // Row-major A (m x k) with lda < k: the column-major call's B, OpenBLAS's number 10.
    const long before = standin_calls(set.sgemm.fortran_name);
    reinterpret_cast<CblasGemm<float, I>>(set.sgemm.cblas)(
        kRowMajor, kNoTrans, kNoTrans, 2, 3, 4, 1.0f, a.data(), 3, b.data(), 3, 0.0f, c.data(), 3);
    expect_report(std::string(set.sgemm.cblas_name) + " row-major lda < k", "SGEMM ", 10,
                  set.sgemm.fortran_name, before);
  }
  {
    const long before = standin_calls(set.sgemm.fortran_name);
    reinterpret_cast<CblasGemm<float, I>>(set.sgemm.cblas)(
        99, kNoTrans, kNoTrans, 2, 2, 2, 1.0f, a.data(), 2, b.data(), 2, 0.0f, c.data(), 2);
    expect_report(std::string(set.sgemm.cblas_name) + " bad layout", "SGEMM ", 0,
                  set.sgemm.fortran_name, before);
  }
  {
    // OpenBLAS's leading-dimension rule (no max(1, .)): m = 0 with lda = ldc = 0 is no error.
    const long before = standin_calls(set.sgemm.fortran_name);
    reinterpret_cast<CblasGemm<float, I>>(set.sgemm.cblas)(
        kColMajor, kNoTrans, kNoTrans, 0, 2, 0, 1.0f, a.data(), 0, b.data(), 1, 0.0f, c.data(), 0);
    ck.expect(g_xerbla.calls == 0, std::string(set.sgemm.cblas_name) + " m = 0, lda = 0: reported");
    ck.expect(standin_calls(set.sgemm.fortran_name) == before,
              std::string(set.sgemm.cblas_name) + " m = 0: the stand-in ran");
    g_xerbla = {};
  }
  {
    const I rows = 3, cols = 2, lda = 3, ldb = 1;
    const float alpha = 1;
    using Fn = void (*)(const char*, const char*, const I*, const I*, const float*, const float*,
                        const I*, float*, const I*);
    const long before = standin_calls(set.somatcopy.fortran_name);
    reinterpret_cast<Fn>(set.somatcopy.fortran)("C", "T", &rows, &cols, &alpha, a.data(), &lda,
                                                c.data(), &ldb);
    expect_report(std::string(set.somatcopy.fortran_name) + " ldb < cols", "SOMATCOPY", 9,
                  set.somatcopy.fortran_name, before);
  }
}

// Address space for `count` floats, reserved, not allocated: only the pages written exist.
float* reserve(size_t count) {
  void* p = mmap(nullptr, count * sizeof(float), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<float*>(p);
}

// 64-bit sets: leading dimensions beyond 2^32 computed right; sizes beyond 2^31 passed on whole.
template <typename I>
void check_wide(Checks& ck, const WheelSet& set) {
  const int64_t big = (int64_t(1) << 32) + 3;
  // One of lda, ldb, ldc beyond 2^32 at a time; k = 2 or n = 2 so the second column lies past it.
  for (int which = 0; which < 3; ++which) {
    const int64_t m = 4, n = 2, k = 2;
    const int64_t lda = which == 0 ? big : m, ldb = which == 1 ? big : k,
                  ldc = which == 2 ? big : m;
    float* a = reserve(size_t(lda) + size_t(m));
    float* b = reserve(size_t(ldb) + size_t(k));
    float* c = reserve(size_t(ldc) + size_t(m));
    ck.expect(a && b && c, "could not reserve address space");
    if (!a || !b || !c) return;
    std::vector<float> da(size_t(m * k)), db(size_t(k * n));
    for (int64_t j = 0; j < k; ++j) {
      for (int64_t i = 0; i < m; ++i) da[size_t(i + j * m)] = a[i + j * lda] = float(small_int());
    }
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i < k; ++i) db[size_t(i + j * k)] = b[i + j * ldb] = float(small_int());
    }
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i < m; ++i) c[i + j * ldc] = poison<float>();
    }
    const auto expected = reference<float>('N', 'N', m, n, k, 1.0f, da, m, db, k, 0.0f,
                                           std::vector<float>(size_t(m * n)), m);
    const std::string what = std::string(which == 0   ? "lda"
                                         : which == 1 ? "ldb"
                                                      : "ldc") +
                             " = 2^32 + 3 through ";
    for (const bool cblas : {false, true}) {
      const Counts counts(cblas ? set.sgemm.cblas_name : set.sgemm.fortran_name,
                          set.sgemm.fortran_name);
      if (cblas) {
        reinterpret_cast<CblasGemm<float, I>>(set.sgemm.cblas)(kColMajor, kNoTrans, kNoTrans, I(m),
                                                               I(n), I(k), 1.0f, a, I(lda), b,
                                                               I(ldb), 0.0f, c, I(ldc));
      } else {
        const I im = I(m), in = I(n), ik = I(k), ilda = I(lda), ildb = I(ldb), ildc = I(ldc);
        const float one = 1, zero = 0;
        reinterpret_cast<FortranGemm<float, I>>(set.sgemm.fortran)(
            "N", "N", &im, &in, &ik, &one, a, &ilda, b, &ildb, &zero, c, &ildc, 1, 1);
      }
      bool right = true;
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t i = 0; i < m; ++i)
          right = right && c[i + j * ldc] == expected[size_t(i + j * m)];
      }
      const char* name = cblas ? set.sgemm.cblas_name : set.sgemm.fortran_name;
      ck.expect(right, what + name + ": wrong C");
      ck.expect(counts.ok(ck.tileblas), what + name + counts.str(ck.tileblas));
      int64_t dims[6];
      standin_last_gemm(dims);
      ck.expect(dims[3] == lda && dims[4] == ldb && dims[5] == ldc,
                what + name + ": the stand-in got other leading dimensions");
    }
    munmap(a, (size_t(lda) + size_t(m)) * sizeof(float));
    munmap(b, (size_t(ldb) + size_t(k)) * sizeof(float));
    munmap(c, (size_t(ldc) + size_t(m)) * sizeof(float));
  }
  // m beyond 2^31 (C would be 8 GiB): the stand-in records the call without computing it.
  const int64_t huge = (int64_t(1) << 31) + 5;
  std::vector<float> tiny(16, 0.0f);
  standin_record_only(1);
  {
    const I m = I(huge), n = 1, k = 1, lda = I(huge), ldb = 1, ldc = I(huge);
    const float one = 1, zero = 0;
    reinterpret_cast<FortranGemm<float, I>>(set.sgemm.fortran)("N", "N", &m, &n, &k, &one,
                                                               tiny.data(), &lda, tiny.data(), &ldb,
                                                               &zero, tiny.data(), &ldc, 1, 1);
    int64_t dims[6];
    standin_last_gemm(dims);
    ck.expect(dims[0] == huge && dims[1] == 1 && dims[2] == 1 && dims[3] == huge && dims[5] == huge,
              std::string(set.sgemm.fortran_name) + " m = 2^31 + 5: the stand-in got other sizes");
  }
  {
    // Row-major m x n = (2^31 + 5) x 1: the column-major 1 x (2^31 + 5) call.
    reinterpret_cast<CblasGemm<float, I>>(set.sgemm.cblas)(kRowMajor, kNoTrans, kNoTrans, I(huge),
                                                           1, 1, 1.0f, tiny.data(), 1, tiny.data(),
                                                           1, 0.0f, tiny.data(), 1);
    int64_t dims[6];
    standin_last_gemm(dims);
    ck.expect(dims[0] == 1 && dims[1] == huge && dims[2] == 1 && dims[5] == 1,
              std::string(set.sgemm.cblas_name) + " row-major m = 2^31 + 5: the stand-in got " +
                  std::to_string(dims[0]) + " x " + std::to_string(dims[1]));
  }
  standin_record_only(0);
}

template <typename I>
void check_set(Checks& ck, const WheelSet& set) {
  check_gemm<float, I>(ck, set, set.sgemm);
  check_gemm<double, I>(ck, set, set.dgemm);
  check_gemm<std::complex<float>, I>(ck, set, set.cgemm);
  check_gemm<std::complex<double>, I>(ck, set, set.zgemm);
  if (set.sbgemm.fortran) check_sbgemm<I>(ck, set);
  check_saxpy<I>(ck, set);
  check_matcopy<I>(ck, set);
  check_syrk<float, I>(ck, set.ssyrk);
  check_syrk<double, I>(ck, set.dsyrk);
  if (ck.tileblas) check_errors<I>(ck, set);
  if constexpr (sizeof(I) == 8) check_wide<I>(ck, set);
}

}  // namespace

CHECKS_EXPORT int wheel_checks_run(const char* where) {
  Checks ck{where, dlsym(RTLD_DEFAULT, "tileblas_version") != nullptr};
  std::printf("[%s] tileblas %s\n", where, ck.tileblas ? "preloaded" : "absent");
  for (const WheelSet& set : kSets) {
    const int before = ck.failures;
    if (set.int64) {
      check_set<int64_t>(ck, set);
    } else {
      check_set<int32_t>(ck, set);
    }
    std::printf("[%s] %s: %s\n", where, set.what, ck.failures == before ? "ok" : "FAILED");
  }
  for (const std::string& name : ck.verbose) std::printf("expect-verbose: %s\n", name.c_str());
  std::fflush(stdout);
  return ck.failures;
}
