// Host-pointer GEMM as a program that links a BLAS sees it: sgemm_, dgemm_, cgemm_, zgemm_ (the
// standard Fortran names, NN) on square n x n matrices in ordinary host memory. This binary links
// the CPU BLAS the normal way (-lopenblas) and nothing of tileblas; scripts/host_blas_compare.sh
// runs it under three configurations (OpenBLAS alone, NVBLAS preloaded, tileblas preloaded) and
// scripts/host_compare_table.py joins the three JSON outputs into one table.
//
// One benchmark per (routine, n, beta): "host_gemm/<routine>/<n>/NN" (alpha 1, beta 0) and
// "host_gemm/<routine>/<n>/NN_beta" (alpha and beta != 0, complex for c/z: C is read); with
// --ops=...,trsm,syrk also "host_l3/<s|d>trsm_/<n>/LLNN" (B = A^-1 B, A lower, non-unit, its B
// restored untimed before every call) and "host_l3/<s|d>syrk_/<n>/LN" (C's lower triangle = A A^T,
// k = n, beta 0) at --l3_sizes.
// Method, per benchmark: random data in [-1, 1) (the same in every configuration); one warm-up
// call, untimed (tileblas's first call of a type measures its cost model's rates, NVBLAS's first
// call initialises the GPU, staging buffers grow), and a second where the first took 0.25-2 s; then
// the median of `reps` timed calls, timed in batches where one call takes under 20 us; reps such
// that the timed part lasts about
// --target_seconds, at least 3. Manual time = the median time of one call.
// Counters: gflops (from the median; complex: 8 flops per multiply-add), gflops_best (fastest
// rep), reps, batch, warmup_ms. The check: three elements of C (from the last timed call; with
// beta != 0 from one more call on C reset) against a long double dot product (check_ok, err_ratio =
// largest error / tolerance), their values v<i>_re/v<i>_im and tolerances tol<i>, which the table
// script compares across the three runs. When tileblas is in the process: tileblas_route (1 CPU, 2
// GPU) and, as the label, the kernel of the checked call. Skipped as "not run" (error_message in
// the JSON): n above --skip_above for that routine; calls predicted (from the rate this run
// measured at the routine's previous size) to take longer than
// --max_call_seconds each; benchmarks that would end after --deadline_seconds from the start.
// Context: the library each ?gemm_ symbol resolved to (a preload that did not interpose shows),
// OpenBLAS's configuration and threads, the options.
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
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "tileblas.h"

extern "C" {
// Fortran BLAS, with the hidden lengths of the character arguments (gfortran's ABI).
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,
            const float*, const int*, const float*, const int*, const float*, float*, const int*,
            size_t, size_t);
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*, size_t, size_t);
void cgemm_(const char*, const char*, const int*, const int*, const int*,
            const std::complex<float>*, const std::complex<float>*, const int*,
            const std::complex<float>*, const int*, const std::complex<float>*,
            std::complex<float>*, const int*, size_t, size_t);
void zgemm_(const char*, const char*, const int*, const int*, const int*,
            const std::complex<double>*, const std::complex<double>*, const int*,
            const std::complex<double>*, const int*, const std::complex<double>*,
            std::complex<double>*, const int*, size_t, size_t);
void strsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const float*, const float*, const int*, float*, const int*, size_t, size_t, size_t,
            size_t);
void dtrsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*, size_t, size_t, size_t,
            size_t);
void ssyrk_(const char*, const char*, const int*, const int*, const float*, const float*,
            const int*, const float*, float*, const int*, size_t, size_t);
void dsyrk_(const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, const double*, double*, const int*, size_t, size_t);
}

namespace {

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

void gemm(const int& n, const float& alpha, const float* a, const float* b, const float& beta,
          float* c) {
  sgemm_("N", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
}
void gemm(const int& n, const double& alpha, const double* a, const double* b, const double& beta,
          double* c) {
  dgemm_("N", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
}
void gemm(const int& n, const std::complex<float>& alpha, const std::complex<float>* a,
          const std::complex<float>* b, const std::complex<float>& beta, std::complex<float>* c) {
  cgemm_("N", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
}
void gemm(const int& n, const std::complex<double>& alpha, const std::complex<double>* a,
          const std::complex<double>* b, const std::complex<double>& beta,
          std::complex<double>* c) {
  zgemm_("N", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
}
// B = alpha A^-1 B, A lower triangular, non-unit (side L, uplo L, trans N), n x n.
void trsm(const int& n, const float& alpha, const float* a, float* b) {
  strsm_("L", "L", "N", "N", &n, &n, &alpha, a, &n, b, &n, 1, 1, 1, 1);
}
void trsm(const int& n, const double& alpha, const double* a, double* b) {
  dtrsm_("L", "L", "N", "N", &n, &n, &alpha, a, &n, b, &n, 1, 1, 1, 1);
}
// C's lower triangle = alpha A A^T + beta C (uplo L, trans N, k = n).
void syrk(const int& n, const float& alpha, const float* a, const float& beta, float* c) {
  ssyrk_("L", "N", &n, &n, &alpha, a, &n, &beta, c, &n, 1, 1);
}
void syrk(const int& n, const double& alpha, const double* a, const double& beta, double* c) {
  dsyrk_("L", "N", &n, &n, &alpha, a, &n, &beta, c, &n, 1, 1);
}

// Options (parsed from the command line before Google Benchmark's own flags).
struct Options {
  std::vector<int> sizes{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
  std::vector<int> beta_sizes{128, 2048};
  // Order of the runs: double and complex double first, where a --deadline_seconds matters most.
  std::string routines = "dzcs";
  // Which operations: gemm (every letter of `routines`), trsm and syrk (its s and d letters, at
  // l3_sizes).
  std::vector<std::string> ops{"gemm"};
  std::vector<int> l3_sizes{1024, 4096, 8192};
  std::map<char, int> skip_above;  // routine letter -> largest n run
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
template <class Call, class Restore>
double median_call_seconds(int reps, int batch, Call&& call, Restore&& restore, double* best) {
  std::vector<double> t(reps);
  for (double& x : t) {
    restore();  // untimed
    const auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) call();
    x = seconds_since(t0) / batch;
  }
  *best = *std::min_element(t.begin(), t.end());
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2];
}

// The routines this binary times: ?gemm_ in every type; ?trsm_ and ?syrk_ in s and d.
enum class Op { kGemm, kTrsm, kSyrk };

const char* op_name(Op op) {
  return op == Op::kTrsm ? "trsm_" : op == Op::kSyrk ? "syrk_" : "gemm_";
}

template <class T>
void host_call(benchmark::State& state, Op op, char letter, int n, bool with_beta) {
  using R = typename Real<T>::type;
  using Wide = std::complex<long double>;
  const std::string routine = std::string(1, letter) + op_name(op);
  // Real flops (complex: 8 a multiply-add): gemm 2n^3, trsm and syrk n^3.
  const double flops =
      (kComplex<T> ? 4.0 : 1.0) * (op == Op::kGemm ? 2.0 : 1.0) * double(n) * n * n;
  const auto skip = g_options.skip_above.find(letter);
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

  // The same data in every configuration: seeds from the routine, n and the operand. trsm's A is
  // lower triangular with entries of size 1/n off the diagonal and a diagonal in [1, 2): well
  // conditioned, so the solve is a fair test of accuracy.
  const uint64_t seed = (uint64_t(letter) << 40) ^ (uint64_t(int(op)) << 32) ^ (uint64_t(n) << 8);
  const size_t count = size_t(n) * size_t(n);
  std::vector<T> a = random_matrix<T>(count, seed + 1);
  const std::vector<T> b = random_matrix<T>(count, seed + 2);
  const std::vector<T> c0 = random_matrix<T>(count, seed + 3);
  if (op == Op::kTrsm) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        T& x = a[size_t(j) * n + i];
        x = i < j ? T(0) : i == j ? T(R(1.5) + R(0.5) * std::real(x)) : T(x / R(n));
      }
    }
  }
  std::vector<T> c = op == Op::kTrsm ? b : c0;  // trsm: B, solved in place
  const T alpha = with_beta ? make_scalar<T>(0.75, 0.25) : make_scalar<T>(1.0, 0.0);
  const T beta = with_beta ? make_scalar<T>(-0.5, 0.5) : make_scalar<T>(0.0, 0.0);
  auto call = [&] {
    switch (op) {
      case Op::kGemm:
        return gemm(n, alpha, a.data(), b.data(), beta, c.data());
      case Op::kTrsm:
        if constexpr (!kComplex<T>) trsm(n, alpha, a.data(), c.data());
        return;
      case Op::kSyrk:
        if constexpr (!kComplex<T>) syrk(n, alpha, a.data(), beta, c.data());
        return;
    }
  };
  // trsm works in place: its B is restored, untimed, before every call (solving again and again
  // would shrink it toward underflow); the others run back to back.
  const bool reset = op == Op::kTrsm;
  auto restore = [&] {
    if (reset) std::copy(b.begin(), b.end(), c.begin());
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
  const int batch = reset ? 1 : std::max(1, int(20e-6 / std::max(estimate, 1e-9)));
  const int reps = int(std::clamp(g_options.target_seconds / (estimate * batch), 3.0, 1001.0));

  double median_s = 0, best_s = 0;
  for (auto _ : state) {
    median_s = median_call_seconds(reps, batch, call, restore, &best_s);
    state.SetIterationTime(median_s);
  }

  // The check, on the output as the last timed call left it (beta == 0: C was not read; trsm:
  // from the restored B), or, with beta != 0, after one more call on C reset: three elements of
  // the lower triangle against a long double sum (trsm: op(A) X against alpha B). Tolerance per
  // element: 16 sqrt(terms) eps ||terms||_2 (rounding errors of a sum grow as a random walk; 16
  // leaves a wide margin, and TF32-like precision still fails it by far on mixed-sign sums) plus a
  // few eps of |beta c| and sqrt(terms) eps of the result. syrk: an element above the diagonal
  // must be as it was.
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
  const long double eps = std::numeric_limits<R>::epsilon();
  const int where[3][2] = {{0, 0}, {n - 1, n - 1}, {n / 2, (n - 1) / 3}};
  double worst = 0;
  for (int e = 0; e < 3; ++e) {
    const int i = where[e][0], j = where[e][1];
    Wide sum = 0, ref = 0;
    long double sq = 0;
    const Wide cij0 = wide(c0[size_t(j) * n + i]);
    if (op == Op::kTrsm) {  // (A X)(i, j), X = the computed solution; against alpha B(i, j)
      for (int p = 0; p <= i; ++p) {
        const Wide x = wide(a[size_t(p) * n + i]), y = wide(c[size_t(j) * n + p]);
        sum += x * y;
        sq += std::norm(x) * std::norm(y);
      }
      ref = wide(alpha) * wide(b[size_t(j) * n + i]);
    } else {
      for (int p = 0; p < n; ++p) {
        const Wide x = wide(a[size_t(p) * n + i]);
        const Wide y = op == Op::kSyrk ? wide(a[size_t(p) * n + j]) : wide(b[size_t(j) * n + p]);
        sum += x * y;
        sq += std::norm(x) * std::norm(y);
      }
      ref = wide(alpha) * sum + wide(beta) * cij0;
    }
    const Wide got = op == Op::kTrsm ? sum : wide(c[size_t(j) * n + i]);
    const long double terms = kComplex<T> ? 2.0L * n : n;
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
    state.counters["v" + k + "_re"] = double(wide(c[size_t(j) * n + i]).real());
    state.counters["v" + k + "_im"] = double(wide(c[size_t(j) * n + i]).imag());
    state.counters["tol" + k] = double(tol);
    if (!(ratio <= 1.0)) {
      std::fprintf(stderr,
                   "[host-compare] FAIL %s n=%d%s: element (%d,%d) = (%.9Lg, %.9Lg), expected "
                   "(%.9Lg, %.9Lg): error %.3g x the tolerance\n",
                   routine.c_str(), n, with_beta ? " beta!=0" : "", i, j, got.real(), got.imag(),
                   ref.real(), ref.imag(), ratio);
    }
  }
  if (op == Op::kSyrk && n > 1 && !(c[size_t(n - 1) * n] == c0[size_t(n - 1) * n])) {
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
    } else if (const char* v = value("--routines")) {
      g_options.routines = v;
      for (char r : g_options.routines) {
        if (!std::strchr("sdcz", r)) {
          std::fprintf(stderr, "--routines takes letters of sdcz, not %s\n", v);
          std::exit(2);
        }
      }
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
    } else if (const char* v = value("--ops")) {  // e.g. gemm,trsm,syrk
      g_options.ops.clear();
      for (const char* q = v; *q;) {
        const char* end = std::strchr(q, ',');
        const std::string op = end ? std::string(q, end) : std::string(q);
        if (op != "gemm" && op != "trsm" && op != "syrk") {
          std::fprintf(stderr, "--ops takes gemm, trsm, syrk, not %s\n", op.c_str());
          std::exit(2);
        }
        g_options.ops.push_back(op);
        q = end ? end + 1 : q + op.size();
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

bool wanted(const char* op) {
  return std::find(g_options.ops.begin(), g_options.ops.end(), op) != g_options.ops.end();
}

template <class T>
void register_benchmark(const std::string& name, Op op, char letter, int n, bool with_beta) {
  benchmark::RegisterBenchmark(name.c_str(), host_call<T>, op, letter, n, with_beta)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
}

template <class T>
void register_routine(char letter) {
  if (wanted("gemm")) {
    for (int n : g_options.sizes) {
      for (bool with_beta : {false, true}) {
        if (with_beta && std::find(g_options.beta_sizes.begin(), g_options.beta_sizes.end(), n) ==
                             g_options.beta_sizes.end()) {
          continue;
        }
        register_benchmark<T>(std::string("host_gemm/") + letter + "gemm_/" + std::to_string(n) +
                                  (with_beta ? "/NN_beta" : "/NN"),
                              Op::kGemm, letter, n, with_beta);
      }
    }
  }
  if constexpr (!kComplex<T>) {
    for (Op op : {Op::kTrsm, Op::kSyrk}) {
      if (!wanted(op == Op::kTrsm ? "trsm" : "syrk")) continue;
      for (int n : g_options.l3_sizes) {
        register_benchmark<T>(std::string("host_l3/") + letter + op_name(op) + "/" +
                                  std::to_string(n) + (op == Op::kTrsm ? "/LLNN" : "/LN"),
                              op, letter, n, false);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  g_start = Clock::now();
  parse_options(&argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  for (const char* symbol : {"sgemm_", "dgemm_", "cgemm_", "zgemm_", "strsm_", "dsyrk_"}) {
    benchmark::AddCustomContext(std::string(symbol) + "from", resolved_from(symbol));
  }
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

  for (char r : g_options.routines) {
    switch (r) {
      case 's':
        register_routine<float>('s');
        break;
      case 'd':
        register_routine<double>('d');
        break;
      case 'c':
        register_routine<std::complex<float>>('c');
        break;
      case 'z':
        register_routine<std::complex<double>>('z');
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
