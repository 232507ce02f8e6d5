// Host-pointer BLAS as a program that links a BLAS sees it: ?gemm_ (s, d, c, z), the Level-3
// routines ?trsm_, ?trmm_, ?syrk_, ?syr2k_, ?symm_ (s, d, c, z) and ?herk_, ?her2k_, ?hemm_ (c, z),
// by their standard Fortran names, on square n x n matrices in ordinary host memory. This binary
// links the CPU BLAS the normal way (-lopenblas) and nothing of tileblas;
// scripts/host_blas_compare.sh runs it under three configurations (OpenBLAS alone, NVBLAS
// preloaded, tileblas preloaded) and scripts/host_compare_table.py joins the three JSON outputs
// into one table.
//
// --routines=LIST names the routines, run in that order (default dgemm_,zgemm_,cgemm_,sgemm_; the
// trailing underscore may be left out). One benchmark per (routine, n, beta):
// "host_gemm/<routine>/<n>/NN" (alpha 1, beta 0) and "host_gemm/<routine>/<n>/NN_beta" (alpha and
// beta != 0, complex for c/z: C is read) at --sizes (NN_beta at --beta_sizes); the Level-3
// routines at --l3_sizes, alpha 1 and beta 0: "host_l3/?trsm_/<n>/LLNN" (B = A^-1 B, A lower,
// non-unit) and "host_l3/?trmm_/<n>/LLNN" (B = A B), both in place with B restored untimed before
// every call; "host_l3/?syrk_/<n>/LN" and "host_l3/?herk_/<n>/LN" (C's lower triangle = A A^T,
// A A^H; k = n); "host_l3/?syr2k_/<n>/LN" and "host_l3/?her2k_/<n>/LN" (C's lower triangle =
// A B^T + B A^T, A B^H + B A^H; k = n); "host_l3/?symm_/<n>/LL" and "host_l3/?hemm_/<n>/LL"
// (C = A B, A symmetric, hermitian, given by its lower triangle).
// Method, per benchmark: random data in [-1, 1) (the same in every configuration); one warm-up
// call, untimed (tileblas's first call of a type measures its cost model's rates, NVBLAS's first
// call initialises the GPU, staging buffers grow), and a second where the first took 0.25-2 s; 0.5
// s of sleep where the first call took at least 20 ms and 10 times a warm one (the threads a
// one-time cost woke settle); then
// the median of `reps` timed calls, timed in batches where one call takes under 20 us; reps such
// that the timed part lasts about
// --target_seconds, at least 3. Manual time = the median time of one call.
// Counters: gflops (from the median; flops as LAPACK's timers count them, see flop_count()),
// gflops_best (fastest rep), reps, batch, warmup_ms. The check: three elements of the lower
// triangle of C (from the last timed call; with beta != 0 from one more call on C reset) against a
// long double sum (check_ok, err_ratio = largest error / tolerance), their values v<i>_re/v<i>_im
// and tolerances tol<i>, which the table script compares across the three runs; herk's and her2k's
// diagonal elements must be real, and syrk's, herk's, syr2k's and her2k's C(0, n-1), above the
// diagonal, as it was. When tileblas is in the process: tileblas_route (1 CPU, 2 GPU) and, as the
// label, the kernel of the checked call; and gflops_openblas_here, OpenBLAS's own definition of the
// routine (found past the preload, on OpenBLAS's handle) timed in the same process, a batch of it
// before each timed batch through tileblas (the same reps, batch and data): the two compared under
// one process's conditions, its threads and caches, without the spread between processes. Skipped
// as "not run" (error_message in the JSON): n above
// --skip_above for that routine's type letter; calls predicted (from the rate this run measured at
// the routine's previous size) to take longer than --max_call_seconds each; benchmarks that would
// end after --deadline_seconds from the start.
// Context: the library each timed routine's symbol resolved to (<routine>from: a preload that did
// not interpose shows), OpenBLAS's configuration and threads, the options.
#include <dlfcn.h>

#include <benchmark/benchmark.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "tileblas.h"

// The Fortran BLAS, one function type per routine family, with the hidden lengths of the character
// arguments last (gfortran's ABI).
template <class T>
using GemmFn = void(const char* transa, const char* transb, const int* m, const int* n,
                    const int* k, const T* alpha, const T* a, const int* lda, const T* b,
                    const int* ldb, const T* beta, T* c, const int* ldc, size_t, size_t);
// ?trsm_ and ?trmm_.
template <class T>
using TrmmFn = void(const char* side, const char* uplo, const char* transa, const char* diag,
                    const int* m, const int* n, const T* alpha, const T* a, const int* lda, T* b,
                    const int* ldb, size_t, size_t, size_t, size_t);
// ?syrk_, and ?herk_ with S real (its alpha and beta).
template <class T, class S = T>
using SyrkFn = void(const char* uplo, const char* trans, const int* n, const int* k, const S* alpha,
                    const T* a, const int* lda, const S* beta, T* c, const int* ldc, size_t,
                    size_t);
// ?syr2k_, and ?her2k_ with S real (its beta).
template <class T, class S = T>
using Syr2kFn = void(const char* uplo, const char* trans, const int* n, const int* k,
                     const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,
                     const S* beta, T* c, const int* ldc, size_t, size_t);
// ?symm_ and ?hemm_.
template <class T>
using HemmFn = void(const char* side, const char* uplo, const int* m, const int* n, const T* alpha,
                    const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c,
                    const int* ldc, size_t, size_t);
using C32 = std::complex<float>;
using C64 = std::complex<double>;

extern "C" {
GemmFn<float> sgemm_;
GemmFn<double> dgemm_;
GemmFn<C32> cgemm_;
GemmFn<C64> zgemm_;
TrmmFn<float> strsm_, strmm_;
TrmmFn<double> dtrsm_, dtrmm_;
TrmmFn<C32> ctrsm_, ctrmm_;
TrmmFn<C64> ztrsm_, ztrmm_;
SyrkFn<float> ssyrk_;
SyrkFn<double> dsyrk_;
SyrkFn<C32> csyrk_;
SyrkFn<C64> zsyrk_;
SyrkFn<C32, float> cherk_;
SyrkFn<C64, double> zherk_;
Syr2kFn<float> ssyr2k_;
Syr2kFn<double> dsyr2k_;
Syr2kFn<C32> csyr2k_;
Syr2kFn<C64> zsyr2k_;
Syr2kFn<C32, float> cher2k_;
Syr2kFn<C64, double> zher2k_;
HemmFn<float> ssymm_;
HemmFn<double> dsymm_;
HemmFn<C32> csymm_, chemm_;
HemmFn<C64> zsymm_, zhemm_;
}

namespace {

// Each type's routines (herk, her2k and hemm: complex types only).
template <class T>
struct Blas;
template <>
struct Blas<float> {
  static constexpr auto gemm = sgemm_, trsm = strsm_, trmm = strmm_, syrk = ssyrk_;
  static constexpr auto syr2k = ssyr2k_, symm = ssymm_;
};
template <>
struct Blas<double> {
  static constexpr auto gemm = dgemm_, trsm = dtrsm_, trmm = dtrmm_, syrk = dsyrk_;
  static constexpr auto syr2k = dsyr2k_, symm = dsymm_;
};
template <>
struct Blas<C32> {
  static constexpr auto gemm = cgemm_, trsm = ctrsm_, trmm = ctrmm_, syrk = csyrk_;
  static constexpr auto syr2k = csyr2k_, symm = csymm_;
  static constexpr auto herk = cherk_, her2k = cher2k_, hemm = chemm_;
};
template <>
struct Blas<C64> {
  static constexpr auto gemm = zgemm_, trsm = ztrsm_, trmm = ztrmm_, syrk = zsyrk_;
  static constexpr auto syr2k = zsyr2k_, symm = zsymm_;
  static constexpr auto herk = zherk_, her2k = zher2k_, hemm = zhemm_;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

template <class T>
struct Real {
  using type = T;
};
template <class T>
struct Real<std::complex<T>> {
  using type = T;
};
template <class T>
constexpr bool kComplex = !std::is_same_v<T, typename Real<T>::type>;

// The operations this binary times (the values seed the data: new ones go last).
enum class Op { kGemm, kTrsm, kSyrk, kTrmm, kHerk, kHemm, kSymm, kSyr2k, kHer2k };

struct OpInfo {
  Op op;
  const char* name;  // the routine's name after its type letter
  const char*
      variant;  // the benchmark name's last part: side, uplo, trans, diag as the op has them
  bool complex_only;
};
constexpr OpInfo kOps[] = {{Op::kGemm, "gemm_", "NN", false},   {Op::kTrsm, "trsm_", "LLNN", false},
                           {Op::kTrmm, "trmm_", "LLNN", false}, {Op::kSyrk, "syrk_", "LN", false},
                           {Op::kHerk, "herk_", "LN", true},    {Op::kHemm, "hemm_", "LL", true},
                           {Op::kSymm, "symm_", "LL", false},   {Op::kSyr2k, "syr2k_", "LN", false},
                           {Op::kHer2k, "her2k_", "LN", true}};

// A routine to time: its type letter and operation.
struct Routine {
  char letter;
  const OpInfo* info;
  std::string name() const { return letter + std::string(info->name); }
};

// Flops of one call on n x n operands as LAPACK's timers count them (LAWN 41): M multiplications
// and A additions, M + A real flops in the real types and 6M + 2A in the complex ones.
// gemm, symm, hemm: M = A = n^3; trsm, trmm (side L, n right-hand sides): M = n^2(n+1)/2,
// A = n^2(n-1)/2; syrk, herk (k = n): M = A = n^2(n+1)/2; syr2k, her2k (k = n): M = k n^2 = n^3,
// A = k n^2 + n = n^3 + n.
double flop_count(Op op, bool complex, double n) {
  double mults = n * n * n, adds = mults;
  if (op == Op::kTrsm || op == Op::kTrmm) {
    mults = n * n * (n + 1) / 2;
    adds = n * n * (n - 1) / 2;
  } else if (op == Op::kSyrk || op == Op::kHerk) {
    mults = adds = n * n * (n + 1) / 2;
  } else if (op == Op::kSyr2k || op == Op::kHer2k) {
    adds = mults + n;
  }
  return complex ? 6 * mults + 2 * adds : mults + adds;
}

// Options (parsed from the command line before Google Benchmark's own flags).
struct Options {
  std::vector<int> sizes{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
  std::vector<int> beta_sizes{128, 2048};
  // The routines, in the order they run: double and complex double first, where a
  // --deadline_seconds matters most. ?gemm_ (kOps[0]) at `sizes`, the others at `l3_sizes`.
  std::vector<Routine> routines{{'d', &kOps[0]}, {'z', &kOps[0]}, {'c', &kOps[0]}, {'s', &kOps[0]}};
  std::vector<int> l3_sizes{1024, 4096, 8192};
  std::map<char, int> skip_above;  // type letter -> largest n run
  double max_call_seconds = 8.0;
  double target_seconds = 0.1;
  double deadline_seconds = 0;  // 0: none
};
Options g_options;
Clock::time_point g_start;

// Rate (GFLOP/s) this run measured at the routine's last size ("dgemm_", ...), for the budget
// guard.
std::map<std::string, double> g_last_rate;
int g_failures = 0;

// tileblas's own queries, when tileblas is in the process (found at run time: this binary does
// not link it).
using LastRouteFn = tileblas_route (*)();
using LastKernelFn = const char* (*)();
LastRouteFn g_tileblas_last_route = nullptr;
LastKernelFn g_tileblas_last_kernel = nullptr;
// When tileblas is in the process: the CPU BLAS this binary links (OpenBLAS), opened again so that
// its own definitions of the routines can be called beside the ones the preload interposes.
void* g_openblas_here = nullptr;

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in [-1, 1), never all zero; real and imaginary parts drawn independently.
template <class T>
std::vector<T> random_matrix(size_t count, uint64_t seed) {
  using R = typename Real<T>::type;
  std::vector<T> v(count);
  auto draw = [&] { return R(double(splitmix64(seed) >> 11) * 0x1.0p-52 - 1.0); };
  for (T& x : v) {
    if constexpr (kComplex<T>) {
      const R re = draw();
      x = T(re, draw());
    } else {
      x = draw();
    }
  }
  return v;
}

template <class T>
T make_scalar(double re, double im) {
  if constexpr (kComplex<T>) {
    return T(typename Real<T>::type(re), typename Real<T>::type(im));
  } else {
    return T(re);
  }
}

template <class T>
std::complex<long double> wide(const T& x) {
  if constexpr (kComplex<T>) {
    return {static_cast<long double>(x.real()), static_cast<long double>(x.imag())};
  } else {
    return {static_cast<long double>(x), 0.0L};
  }
}

// Median of per-call seconds over `reps` batches of `batch` calls, restore() before each batch.
// With `other` (not null), a batch of other() before each batch of call(), timed apart, its median
// in *other_median: the two in the same process, alternating, under the same conditions (the CPU
// BLAS's threads, the caches, the clock), the last call made being call().
template <class Call, class Restore>
double median_call_seconds(int reps, int batch, Call&& call, Restore&& restore, double* best,
                           const std::function<void()>& other = nullptr,
                           double* other_median = nullptr) {
  std::vector<double> t(reps), u(other ? reps : 0);
  const auto timed_batch = [&](auto&& fn) {
    restore();  // untimed
    const auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) fn();
    return seconds_since(t0) / batch;
  };
  for (int r = 0; r < reps; ++r) {
    if (other) u[r] = timed_batch(other);
    t[r] = timed_batch(call);
  }
  if (other) {
    std::nth_element(u.begin(), u.begin() + reps / 2, u.end());
    *other_median = u[reps / 2];
  }
  *best = *std::min_element(t.begin(), t.end());
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2];
}

// One type's routines as pointers: those the program links (Blas<T>), or those one library defines.
template <class T>
struct Routines {
  using R = typename Real<T>::type;
  GemmFn<T>* gemm = nullptr;
  TrmmFn<T>* trsm = nullptr;
  TrmmFn<T>* trmm = nullptr;
  SyrkFn<T>* syrk = nullptr;
  Syr2kFn<T>* syr2k = nullptr;
  HemmFn<T>* symm = nullptr;
  SyrkFn<T, R>* herk = nullptr;  // complex types only
  Syr2kFn<T, R>* her2k = nullptr;
  HemmFn<T>* hemm = nullptr;

  bool complete(Op op) const {
    switch (op) {
      case Op::kGemm:
        return gemm;
      case Op::kTrsm:
        return trsm;
      case Op::kTrmm:
        return trmm;
      case Op::kSyrk:
        return syrk;
      case Op::kHerk:
        return herk;
      case Op::kSyr2k:
        return syr2k;
      case Op::kHer2k:
        return her2k;
      case Op::kSymm:
        return symm;
      case Op::kHemm:
        return hemm;
    }
    return false;
  }
};

// The routines of type `letter` that the library opened as `handle` defines itself.
template <class T>
Routines<T> routines_in(void* handle, char letter) {
  const auto find = [&](auto* null_of_type, const char* stem) {
    const std::string name = std::string(1, letter) + stem;
    return reinterpret_cast<decltype(null_of_type)>(dlsym(handle, name.c_str()));
  };
  Routines<T> r;
  r.gemm = find(r.gemm, "gemm_"), r.trsm = find(r.trsm, "trsm_"), r.trmm = find(r.trmm, "trmm_");
  r.syrk = find(r.syrk, "syrk_"), r.syr2k = find(r.syr2k, "syr2k_"), r.symm = find(r.symm, "symm_");
  if constexpr (kComplex<T>) {
    r.herk = find(r.herk, "herk_"), r.her2k = find(r.her2k, "her2k_");
    r.hemm = find(r.hemm, "hemm_");
  }
  return r;
}

template <class T>
void host_call(benchmark::State& state, Routine r, int n, bool with_beta) {
  using R = typename Real<T>::type;
  using Wide = std::complex<long double>;
  const Op op = r.info->op;
  const std::string routine = r.name();
  const double flops = flop_count(op, kComplex<T>, n);
  const auto skip = g_options.skip_above.find(r.letter);
  if (skip != g_options.skip_above.end() && n > skip->second) {
    const std::string why = "not run: n above " + std::to_string(skip->second) +
                            " for this routine in this configuration (--skip_above)";
    state.SkipWithError(why.c_str());
    return;
  }
  const auto last = g_last_rate.find(routine);
  const double predicted = last != g_last_rate.end() ? flops / (last->second * 1e9) : 0.0;
  char why[200] = "";
  if (predicted > g_options.max_call_seconds) {
    std::snprintf(why, sizeof why,
                  "not run: predicted %.1f s a call from the rate measured at the previous size "
                  "(--max_call_seconds=%g)",
                  predicted, g_options.max_call_seconds);
  } else if (g_options.deadline_seconds > 0 &&
             seconds_since(g_start) + 4 * predicted > g_options.deadline_seconds) {
    std::snprintf(why, sizeof why,
                  "not run: this configuration's time budget (--deadline_seconds=%g) was spent",
                  g_options.deadline_seconds);
  }
  if (*why) {
    state.SkipWithError(why);
    return;
  }

  // The same data in every configuration: seeds from the routine, n and the operand. trsm's and
  // trmm's A is lower triangular with entries of size 1/n off the diagonal and a diagonal in
  // [1, 2): well conditioned, so the solve is a fair test of accuracy. symm's and hemm's A is
  // random whole: its upper triangle (and hemm: the imaginary parts of its diagonal) must not be
  // read.
  const uint64_t seed = (uint64_t(r.letter) << 40) ^ (uint64_t(int(op)) << 32) ^ (uint64_t(n) << 8);
  const size_t count = size_t(n) * size_t(n);
  std::vector<T> a = random_matrix<T>(count, seed + 1);
  const std::vector<T> b = random_matrix<T>(count, seed + 2);
  const std::vector<T> c0 = random_matrix<T>(count, seed + 3);
  const bool triangular = op == Op::kTrsm || op == Op::kTrmm;
  if (triangular) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        T& x = a[size_t(j) * n + i];
        x = i < j ? T(0) : i == j ? T(R(1.5) + R(0.5) * std::real(x)) : T(x / R(n));
      }
    }
  }
  std::vector<T> c = triangular ? b : c0;  // trsm, trmm: B, in place
  // The Level-3 routines run with alpha 1 and beta 0 only (with_beta is ?gemm_'s), so herk's real
  // scalars and her2k's real beta are these.
  const T alpha = with_beta ? make_scalar<T>(0.75, 0.25) : make_scalar<T>(1.0, 0.0);
  const T beta = with_beta ? make_scalar<T>(-0.5, 0.5) : make_scalar<T>(0.0, 0.0);
  const R alpha_re = std::real(alpha), beta_re = std::real(beta);
  // The routine as the program reaches it (through the preload, if any), and, with tileblas in the
  // process, OpenBLAS's own definition of it.
  using Fn = Blas<T>;
  Routines<T> linked{Fn::gemm, Fn::trsm, Fn::trmm, Fn::syrk, Fn::syr2k, Fn::symm};
  if constexpr (kComplex<T>)
    linked.herk = Fn::herk, linked.her2k = Fn::her2k, linked.hemm = Fn::hemm;
  const Routines<T> here =
      g_openblas_here ? routines_in<T>(g_openblas_here, r.letter) : Routines<T>{};
  auto call_on = [&](const Routines<T>& fn) {
    switch (op) {
      case Op::kGemm:
        return fn.gemm("N", "N", &n, &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(),
                       &n, 1, 1);
      case Op::kTrsm:
        return fn.trsm("L", "L", "N", "N", &n, &n, &alpha, a.data(), &n, c.data(), &n, 1, 1, 1, 1);
      case Op::kTrmm:
        return fn.trmm("L", "L", "N", "N", &n, &n, &alpha, a.data(), &n, c.data(), &n, 1, 1, 1, 1);
      case Op::kSyrk:
        return fn.syrk("L", "N", &n, &n, &alpha, a.data(), &n, &beta, c.data(), &n, 1, 1);
      case Op::kHerk:
        if constexpr (kComplex<T>) {
          fn.herk("L", "N", &n, &n, &alpha_re, a.data(), &n, &beta_re, c.data(), &n, 1, 1);
        }
        return;
      case Op::kHemm:
        if constexpr (kComplex<T>) {
          fn.hemm("L", "L", &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n, 1, 1);
        }
        return;
      case Op::kSymm:
        return fn.symm("L", "L", &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n, 1,
                       1);
      case Op::kSyr2k:
        return fn.syr2k("L", "N", &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n,
                        1, 1);
      case Op::kHer2k:
        if constexpr (kComplex<T>) {
          fn.her2k("L", "N", &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta_re, c.data(), &n, 1,
                   1);
        }
        return;
    }
  };
  auto call = [&] { call_on(linked); };
  const bool compare_here = here.complete(op);
  std::function<void()> call_here;
  if (compare_here) call_here = [&] { call_on(here); };
  // trsm and trmm work in place: their B is restored, untimed, before every call (solving or
  // multiplying again and again would shrink or grow it); the others run back to back.
  auto restore = [&] {
    if (triangular) std::copy(b.begin(), b.end(), c.begin());
  };

  const auto t_warm = Clock::now();
  call();
  const double warmup_s = seconds_since(t_warm);
  // A cold first call overstates a call's time: estimate it again on warm calls (unless one
  // call is long enough for the three reps' minimum to decide). A first call of up to 2 s may have
  // paid a one-time cost (tileblas's cost-model measurements, NVBLAS's GPU start): one more call
  // tells.
  double estimate = warmup_s;
  if (warmup_s >= 0.25 && warmup_s <= 2.0) {
    restore();
    const auto t1 = Clock::now();
    call();
    estimate = seconds_since(t1);
  }
  if (estimate < 0.25) {
    int calls = 0;
    double spent = 0;
    do {
      restore();
      const auto t0 = Clock::now();
      call();
      spent += seconds_since(t0);
      ++calls;
    } while (spent < 2e-3 && calls < 100000);
    estimate = spent / calls;
  }
  // A one-time cost in the first call may leave threads busy after it: the CPU BLAS's pool, woken
  // by large calls measuring rates, spins for a while before it sleeps (OpenBLAS: about 0.1 s), and
  // on shared cores slows what runs next. The timed calls start once it has settled.
  if (warmup_s >= 0.02 && warmup_s > 10 * estimate) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const int batch = triangular ? 1 : std::max(1, int(20e-6 / std::max(estimate, 1e-9)));
  const int reps = int(std::clamp(g_options.target_seconds / (estimate * batch), 3.0, 1001.0));

  double median_s = 0, best_s = 0, here_s = 0;
  if (compare_here) {
    restore();
    call_here();  // its warm-up
  }
  for (auto _ : state) {
    median_s = median_call_seconds(reps, batch, call, restore, &best_s, call_here, &here_s);
    state.SetIterationTime(median_s);
  }

  // The check, on the output as the last timed call left it (beta == 0: C was not read; trsm and
  // trmm: from the restored B), or, with beta != 0, after one more call on C reset: three elements
  // of the lower triangle against a long double sum of left(i, p) right(p, j), op's two factors
  // (trsm: A X, X the computed solution, against alpha B; syr2k, her2k: two products per p, the
  // second with A and B swapped). Tolerance per element:
  // 16 sqrt(terms) eps ||terms||_2 (rounding errors of a sum grow as a random walk; 16 leaves a
  // wide margin, and TF32-like precision still fails it by far on mixed-sign sums) plus a few eps
  // of |beta c| and sqrt(terms) eps of the result. herk, her2k: the diagonal's imaginary parts must
  // be zero. syrk, herk, syr2k, her2k: an element above the diagonal must be as it was.
  if (with_beta) {
    c = c0;
    call();
  }
  tileblas_route route = TILEBLAS_ROUTE_NONE;
  std::string kernel;
  if (g_tileblas_last_route) {
    route = g_tileblas_last_route();
    kernel = g_tileblas_last_kernel ? g_tileblas_last_kernel() : "";
  }
  const auto at = [n](const std::vector<T>& m, int i, int j) { return wide(m[size_t(j) * n + i]); };
  // syr2k's and her2k's second product per p (swapped): B(i, p) A(j, p), B(i, p) conj(A(j, p));
  // her2k scales it by conj(alpha), which is alpha here (the Level-3 routines run with alpha 1).
  const bool rank2k = op == Op::kSyr2k || op == Op::kHer2k;
  const auto left = [&](int i, int p, bool swapped) {
    if (swapped) return at(b, i, p);
    if (p < i || (op != Op::kSymm && op != Op::kHemm)) return at(a, i, p);
    if (op == Op::kSymm) return at(a, p, i);                            // symmetric from below
    return p == i ? Wide(at(a, i, i).real()) : std::conj(at(a, p, i));  // hermitian from below
  };
  const auto right = [&](int p, int j, bool swapped) {
    switch (op) {
      case Op::kSyrk:
        return at(a, j, p);
      case Op::kHerk:
        return std::conj(at(a, j, p));
      case Op::kSyr2k:
        return at(swapped ? a : b, j, p);
      case Op::kHer2k:
        return std::conj(at(swapped ? a : b, j, p));
      case Op::kTrsm:
        return at(c, p, j);
      default:
        return at(b, p, j);
    }
  };
  const long double eps = std::numeric_limits<R>::epsilon();
  const int where[3][2] = {{0, 0}, {n - 1, n - 1}, {n / 2, (n - 1) / 3}};
  double worst = 0;
  for (int e = 0; e < 3; ++e) {
    const int i = where[e][0], j = where[e][1];
    Wide sum = 0;
    long double sq = 0;
    for (int p = 0; p < (triangular ? i + 1 : n); ++p) {
      for (bool swapped : {false, true}) {
        if (swapped && !rank2k) break;
        const Wide x = left(i, p, swapped), y = right(p, j, swapped);
        sum += x * y;
        sq += std::norm(x) * std::norm(y);
      }
    }
    const Wide cij0 = at(c0, i, j);
    const Wide ref =
        op == Op::kTrsm ? wide(alpha) * at(b, i, j) : wide(alpha) * sum + wide(beta) * cij0;
    const Wide got = op == Op::kTrsm ? sum : at(c, i, j);
    const long double terms = (kComplex<T> ? 2.0L * n : n) * (rank2k ? 2 : 1);
    const long double scale = op == Op::kTrsm ? 1.0L : std::abs(wide(alpha));
    // The result's own magnitude enters with sqrt(terms) too: where the terms do not cancel (the
    // diagonal of syrk, all squares) the rounding errors grow with the partial sums, which reach
    // the result itself.
    const long double tol =
        16 * std::sqrt(terms) * eps * scale * std::sqrt(sq) +
        4 * eps * (std::abs(wide(beta) * cij0) + std::sqrt(terms) * std::abs(ref)) +
        std::numeric_limits<R>::min();
    const double ratio = double(std::abs(got - ref) / tol);
    worst = std::max(worst, ratio);
    const std::string k = std::to_string(e);
    state.counters["v" + k + "_re"] = double(at(c, i, j).real());
    state.counters["v" + k + "_im"] = double(at(c, i, j).imag());
    state.counters["tol" + k] = double(tol);
    if (!(ratio <= 1.0)) {
      std::fprintf(stderr,
                   "[host-compare] FAIL %s n=%d%s: element (%d,%d) = (%.9Lg, %.9Lg), expected "
                   "(%.9Lg, %.9Lg): error %.3g x the tolerance\n",
                   routine.c_str(), n, with_beta ? " beta!=0" : "", i, j, got.real(), got.imag(),
                   ref.real(), ref.imag(), ratio);
    }
    if ((op == Op::kHerk || op == Op::kHer2k) && i == j && got.imag() != 0) {
      std::fprintf(stderr,
                   "[host-compare] FAIL %s n=%d: C(%d, %d), on the diagonal, has imaginary part "
                   "%.3Lg, not 0\n",
                   routine.c_str(), n, i, i, got.imag());
      worst = std::max(worst, 2.0);
    }
  }
  if ((op == Op::kSyrk || op == Op::kHerk || rank2k) && n > 1 &&
      !(c[size_t(n - 1) * n] == c0[size_t(n - 1) * n])) {
    std::fprintf(stderr,
                 "[host-compare] FAIL %s n=%d: C(0, n-1), above the diagonal, was written\n",
                 routine.c_str(), n);
    worst = std::max(worst, 2.0);
  }
  const bool ok = worst <= 1.0;
  if (!ok) ++g_failures;

  const double gflops = flops / median_s * 1e-9;
  g_last_rate[routine] = gflops;
  state.counters["gflops"] = gflops;
  state.counters["gflops_best"] = flops / best_s * 1e-9;
  if (compare_here) state.counters["gflops_openblas_here"] = flops / here_s * 1e-9;
  state.counters["reps"] = reps;
  state.counters["batch"] = batch;
  state.counters["warmup_ms"] = warmup_s * 1e3;
  state.counters["check_ok"] = ok ? 1 : 0;
  state.counters["err_ratio"] = worst;
  if (g_tileblas_last_route) {
    state.counters["tileblas_route"] = int(route);
    state.SetLabel(kernel);
  }
  std::fprintf(stderr,
               "[host-compare] %s %5d %-7s %10.2f GFLOP/s  (median of %d x %d, warm-up %.1f "
               "ms, check %s %.2g)%s%s\n",
               routine.c_str(), n, with_beta ? "beta!=0" : "beta=0", gflops, reps, batch,
               warmup_s * 1e3, ok ? "ok" : "FAILED", worst,
               kernel.empty() ? "" : "  tileblas: ", kernel.c_str());
}

std::vector<int> parse_sizes(const char* text) {
  std::vector<int> v;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    const long x = std::strtol(p, &end, 10);
    if (end == p || x < 1 || x > 65536) {
      std::fprintf(stderr, "bad size list: %s\n", text);
      std::exit(2);
    }
    v.push_back(int(x));
    p = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') {
      std::fprintf(stderr, "bad size list: %s\n", text);
      std::exit(2);
    }
  }
  return v;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  for (size_t from = 0, comma; from < text.size(); from = comma + 1) {
    comma = std::min(text.find(',', from), text.size());
    parts.push_back(text.substr(from, comma - from));
  }
  return parts;
}

// "ctrsm_" or "ctrsm": the type letter and the operation; exits on a routine not timed here.
Routine parse_routine(std::string name) {
  if (name.empty() || name.back() != '_') name += '_';
  for (const OpInfo& info : kOps) {
    const bool typed = std::strchr(info.complex_only ? "cz" : "sdcz", name[0]) != nullptr;
    if (typed && name.substr(1) == info.name) return {name[0], &info};
  }
  std::fprintf(stderr,
               "--routines: %s is not timed here (?gemm_, ?trsm_, ?trmm_, ?syrk_, ?syr2k_, ?symm_ "
               "in s, d, c, z; ?herk_, ?her2k_, ?hemm_ in c, z)\n",
               name.c_str());
  std::exit(2);
}

// Takes this binary's own flags out of argv (Google Benchmark rejects flags it does not know).
void parse_options(int* argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const char* arg = argv[i];
    auto value = [&](const char* name) -> const char* {
      const size_t len = std::strlen(name);
      return std::strncmp(arg, name, len) == 0 && arg[len] == '=' ? arg + len + 1 : nullptr;
    };
    if (const char* v = value("--sizes")) {
      g_options.sizes = parse_sizes(v);
    } else if (const char* v = value("--beta_sizes")) {
      g_options.beta_sizes = *v ? parse_sizes(v) : std::vector<int>{};
    } else if (const char* v = value("--routines")) {  // e.g. dgemm_,ctrsm_,zherk
      g_options.routines.clear();
      for (const std::string& name : split(v)) g_options.routines.push_back(parse_routine(name));
    } else if (const char* v = value("--skip_above")) {  // e.g. d:4096,c:4096,z:4096
      for (const char* p = v; *p;) {
        char r = 0;
        int limit = 0, used = 0;
        if (std::sscanf(p, "%c:%d%n", &r, &limit, &used) != 2 || !std::strchr("sdcz", r)) {
          std::fprintf(stderr, "bad --skip_above: %s\n", v);
          std::exit(2);
        }
        g_options.skip_above[r] = limit;
        p += used;
        if (*p == ',') ++p;
      }
    } else if (const char* v = value("--l3_sizes")) {
      g_options.l3_sizes = parse_sizes(v);
    } else if (const char* v = value("--max_call_seconds")) {
      g_options.max_call_seconds = std::atof(v);
    } else if (const char* v = value("--target_seconds")) {
      g_options.target_seconds = std::atof(v);
    } else if (const char* v = value("--deadline_seconds")) {
      g_options.deadline_seconds = std::atof(v);
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  argv[kept] = nullptr;
}

// The file that holds the definition a call of `symbol` reaches.
std::string resolved_from(const char* symbol) {
  void* address = dlsym(RTLD_DEFAULT, symbol);
  Dl_info info{};
  if (!address || !dladdr(address, &info) || !info.dli_fname) return "unresolved";
  return info.dli_fname;
}

template <class T>
void register_routine(Routine r) {
  const bool gemm = r.info->op == Op::kGemm;
  for (int n : gemm ? g_options.sizes : g_options.l3_sizes) {
    for (bool with_beta : {false, true}) {
      if (with_beta && (!gemm || std::find(g_options.beta_sizes.begin(), g_options.beta_sizes.end(),
                                           n) == g_options.beta_sizes.end())) {
        continue;
      }
      const std::string name = (gemm ? "host_gemm/" : "host_l3/") + r.name() + "/" +
                               std::to_string(n) + "/" + r.info->variant +
                               (with_beta ? "_beta" : "");
      benchmark::RegisterBenchmark(name.c_str(), host_call<T>, r, n, with_beta)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  g_start = Clock::now();
  parse_options(&argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  using ConfigFn = char* (*)();
  using ThreadsFn = int (*)();
  if (auto config = reinterpret_cast<ConfigFn>(dlsym(RTLD_DEFAULT, "openblas_get_config"))) {
    benchmark::AddCustomContext("openblas_config", config());
  }
  if (auto threads = reinterpret_cast<ThreadsFn>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"))) {
    benchmark::AddCustomContext("openblas_threads", std::to_string(threads()));
  }
  g_tileblas_last_route = reinterpret_cast<LastRouteFn>(dlsym(RTLD_DEFAULT, "tileblas_last_route"));
  g_tileblas_last_kernel =
      reinterpret_cast<LastKernelFn>(dlsym(RTLD_DEFAULT, "tileblas_last_kernel"));
  if (g_tileblas_last_route) {
    // OpenBLAS's file (the one that defines openblas_get_config), opened again: dlsym on its
    // handle finds its own definitions, not the preload's.
    const std::string openblas = resolved_from("openblas_get_config");
    g_openblas_here = dlopen(openblas.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    benchmark::AddCustomContext("openblas_here", g_openblas_here ? openblas : "");
  }
  using GetConfigFn = void (*)(tileblas_config*);
  if (auto get = reinterpret_cast<GetConfigFn>(dlsym(RTLD_DEFAULT, "tileblas_get_config"))) {
    tileblas_config config{};
    get(&config);
    benchmark::AddCustomContext("tileblas_mode", config.mode ? config.mode : "");
    benchmark::AddCustomContext("tileblas_device",
                                config.device_found ? config.device_name : config.no_device_why);
    benchmark::AddCustomContext("tileblas_cpu_blas", config.cpu_blas ? config.cpu_blas : "");
  }
  std::string skips;
  for (const auto& [r, limit] : g_options.skip_above) {
    skips += (skips.empty() ? "" : ",") + std::string(1, r) + ":" + std::to_string(limit);
  }
  char number[32];
  benchmark::AddCustomContext("skip_above", skips);
  std::snprintf(number, sizeof number, "%g", g_options.max_call_seconds);
  benchmark::AddCustomContext("max_call_seconds", number);
  std::snprintf(number, sizeof number, "%g", g_options.deadline_seconds);
  benchmark::AddCustomContext("deadline_seconds", number);

  for (const Routine& r : g_options.routines) {
    benchmark::AddCustomContext(r.name() + "from", resolved_from(r.name().c_str()));
    switch (r.letter) {
      case 's':
        register_routine<float>(r);
        break;
      case 'd':
        register_routine<double>(r);
        break;
      case 'c':
        register_routine<C32>(r);
        break;
      case 'z':
        register_routine<C64>(r);
        break;
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_failures > 0) {
    std::fprintf(stderr, "[host-compare] FAIL: %d result check(s) failed in this run\n",
                 g_failures);
    return 1;
  }
  return 0;
}
