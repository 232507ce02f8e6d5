// The CPU BLAS underneath tileblas, per name set (src/problem.h's NameSet): the library a caller of
// that set's names would otherwise have reached, called through that set's own names and integer
// width. Routine R of set S (its Fortran name, e.g. scipy_sgemm_64_) is looked up once, on first
// use, thread-safe, in this order:
//   1. the process's global scope, as the caller's own binding finds it: dlsym(RTLD_DEFAULT), then
//      dlsym(RTLD_NEXT) when that is tileblas (a BLAS the program links, or one preloaded after
//      us);
//   2. every loaded object, in load order (dl_iterate_phdr, then dlopen(path, RTLD_NOLOAD)): a
//      library loaded RTLD_LOCAL as the dependency of a Python extension module (numpy's and
//      scipy's wheels bring their OpenBLAS so), which the global scope does not see;
//   3. for the library's standard set only (kStandard): dlopen(RTLD_LOCAL) of TILEBLAS_CPU_BLAS,
//   else
//      libopenblas.so.0, else libblas.so.3 (libtileblas64: libopenblas64.so.0, libblas64.so.3).
// Every tileblas library is skipped (its symbols would come straight back here). Standard names
// say nothing of their integer width, so for them an object's file name decides: "blas64" or
// "openblas64" in it (Debian's libblas64.so.3, libopenblas64.so.0) is a 64-bit BLAS, anything else
// a 32-bit one, and only the set's own width is taken.
// A set whose routine no loaded library has runs on the library's standard set instead, with that
// set's integer width, said once on stderr per set; arguments that do not fit that width are then
// refused (max_int(); compat/ reports them through the caller's xerbla). The standard set, when the
// process has no standard BLAS loaded, runs on a wheel's or an ILP64 OpenBLAS that is (said once
// with TILEBLAS_VERBOSE=1) before step 3 loads one, unless TILEBLAS_CPU_BLAS names it: a process
// with numpy's wheel keeps one OpenBLAS, and the calls tileblas makes itself (the cost model's
// measurements) time the library the wheel's calls run on.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>

#include "problem.h"

namespace tileblas::cpu_blas {

// How a name set spells names and passes integers. The Fortran name of routine R is
// <prefix>R_<suffix>, the CBLAS name <prefix>cblas_R<suffix>: OpenBLAS's SYMBOLPREFIX and
// SYMBOLSUFFIX scheme (exports/gensymbol), which the scipy-openblas wheels are built with.
// compat/entry_points.txt spells the exported names the same way (its generated code checks it).
struct NameSetInfo {
  const char* prefix;
  const char* suffix;
  bool int64;        // integer arguments (and xerbla's INFO) are int64_t; else int32_t
  const char* what;  // for messages
};

inline constexpr NameSetInfo kNameSets[kNameSetCount] = {
    {"", "", false, "standard names"},
    {"", "", true, "standard names, 64-bit integers"},
    {"", "64_", true, "OpenBLAS ILP64 names"},
    {"scipy_", "", false, "scipy wheels' OpenBLAS (scipy-openblas32)"},
    {"scipy_", "64_", true, "numpy >= 2 wheels' OpenBLAS (scipy-openblas64)"},
};
constexpr const NameSetInfo& info(NameSet s) { return kNameSets[int(s)]; }

// The integer type of set S's arguments.
template <NameSet S>
using Int = std::conditional_t<info(S).int64, int64_t, int32_t>;

// This library's standard names: kStandard (libtileblas.so, the default) or kStandardIlp64
// (libtileblas64.so registers it when it loads). kStandard in a problem, and the forwarders, mean
// it.
void set_library_name_set(NameSet s);
NameSet library_name_set();

std::string fortran_name(NameSet s, const char* routine);  // "scipy_" "sgemm" "_" "64_"
std::string cblas_name(NameSet s, const char* routine);    // "scipy_" "cblas_" "sgemm" "64_"

// The routines the CPU path calls, by the stem of their Fortran names: `<s|d|c|z><operation>`
// (sgemm, zher2k, ...: routine_of()), then these.
enum class Routine : uint8_t { kSaxpy = kOperationCount * 4, kSomatcopy, kSimatcopy };
constexpr int kRoutineCount = int(Routine::kSimatcopy) + 1;
// The BLAS type letter of `type` as an index: s 0, d 1, c 2, z 3 (16-bit data: s, widened).
constexpr int letter_index(DataType type) {
  return type == DataType::kF64 ? 1 : type == DataType::kC32 ? 2 : type == DataType::kC64 ? 3 : 0;
}
// The routine that computes `op` on `type` (16-bit GEMM data is widened to fp32: sgemm).
constexpr Routine routine_of(Operation op, DataType type) {
  return Routine(int(op) * 4 + letter_index(type));
}
// Its Fortran name's stem ("sgemm", "zher2k", "saxpy").
const char* stem_of(Routine r);

// The largest integer argument set s's routine r takes on the CPU: INT32_MAX when it runs on a BLAS
// with 32-bit integers (a 32-bit set, or a 64-bit set whose library is not in the process), else
// INT64_MAX (also when no CPU BLAS is found at all: the call then fails as require() says).
int64_t max_int(NameSet s, Routine r);

// The address of standard name `name` (e.g. "dgemm_") in the library's standard CPU BLAS, or
// nullptr if it lacks it.
void* symbol(const char* name);

// Like symbol(), but when no CPU BLAS could be loaded or it lacks `name`, prints one clear message
// naming what was tried and exits the program (there is no right answer to give).
void* require(const char* name);

// Where the library's standard sgemm_ comes from: a path, "RTLD_NEXT (<object>)", or
// "none (<what was tried>)".
const char* description();

// A scalar as Fortran passes it: one element of a BLAS type (a re, im pair for complex), by
// address.
struct Element {
  alignas(16) unsigned char bytes[16];
};
// `v` as one element of `type` (kF32, kF64, kC32 or kC64).
inline Element element_of(Scalar v, DataType type) {
  // Both parts, whatever the type: a real routine reads the first only, and a copy of a constant
  // size is two stores where size_of(type) bytes were a memcpy call.
  Element e{};
  if (type == DataType::kF64 || type == DataType::kC64) {
    const double parts[2] = {v.re, v.im};
    std::memcpy(e.bytes, parts, sizeof parts);
  } else {
    const float parts[2] = {float(v.re), float(v.im)};
    std::memcpy(e.bytes, parts, sizeof parts);
  }
  return e;
}

// Typed calls into set s's Fortran entry points (column-major, netlib semantics), each with the
// width of the library that runs it; when no library has the routine, require()'s message and exit.
// ?gemm_ of `type` (kF32, kF64, kC32 or kC64: sgemm_, dgemm_, cgemm_, zgemm_). alpha and beta
// point at one element of `type` (a re, im pair for complex), as Fortran passes them. transa and
// transb are passed as given ('N', 'T', 'C', and 'R' where the set's BLAS takes it).
void gemm(NameSet s, DataType type, char transa, char transb, int64_t m, int64_t n, int64_t k,
          const void* alpha, const void* a, int64_t lda, const void* b, int64_t ldb,
          const void* beta, void* c, int64_t ldc);
// sgemm_ of the standard set.
void sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
// A threaded CPU BLAS's workers spin for a while after a call that used them (OpenBLAS: 2^28 ticks
// of its timer, 0.08-0.15 s on the H100 host), on the cores tileblas's host team (src/cpu_team.h)
// runs on: a team's parts started in that window wait for cores (the H100 host ran csyr2k_ 128 as
// the host plan at 46-71 GFLOP/s right after calls on OpenBLAS's routine, at 148 alone). The
// dispatch notes every call it runs on the CPU BLAS (note_call(), with the call's flops) but the
// Level-3 calls it sends there only because the workers may spin (src/level3.cpp);
// workers_may_spin() says whether the last one that may have used the workers ended less than
// kWorkersSpinSeconds ago. A call below kThreadedCallFlops is not noted: a threaded BLAS runs it on
// the calling thread (OpenBLAS: GEMMs up to 64^3 multiply-adds), and reading the clock would be a
// sizable share of its time (27 ns of 120-180 for an 8^3 zgemm_ on the CI host).
constexpr double kWorkersSpinSeconds = 0.15;
constexpr double kThreadedCallFlops = 2.0 * 64 * 64 * 64;
void note_threaded_call();
// Inline: every call the dispatch runs on the CPU BLAS notes itself, mostly below the threshold.
inline void note_call(double flops) {
  if (flops >= kThreadedCallFlops) note_threaded_call();
}
bool workers_may_spin();

namespace call_detail {
// Routine r of set s as the typed calls below reach it: its address and whether it takes 64-bit
// integers, filled by resolve_callee() on the first call of (s, r) (the routine resolved as the
// header says, for s or the set it runs on; the library's own name set is registered as it loads,
// before any call). Read without a lock after: the address is stored last, with release.
struct Callee {
  std::atomic<void*> address{nullptr};
  std::atomic<bool> int64{false};
};
extern Callee g_callees[kNameSetCount][kRoutineCount];
// The first call of (s, r): resolves it, or prints require()'s message and exits where no library
// has it.
[[gnu::noinline]] const Callee& resolve_callee(NameSet s, Routine r);
// Inline: every call the dispatch hands to a Level-3 routine asks.
inline const Callee& callee_of(NameSet s, Routine r) {
  const Callee& c = g_callees[int(s)][int(r)];
  if (c.address.load(std::memory_order_acquire)) return c;
  return resolve_callee(s, r);
}
constexpr bool fits_int32(std::initializer_list<int64_t> values) {
  for (const int64_t v : values) {
    if (v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min()) {
      return false;
    }
  }
  return true;
}
// Says on stderr that an integer argument of `routine` does not fit the 32-bit integers of the
// library that runs routine r of set s, and that nothing was computed. compat/ refuses arguments
// wider than max_int() before a call gets here; this is the last guard against truncating one.
[[gnu::cold]] void say_narrowing_refused(NameSet s, Routine r, const char* routine);

// Every ?symm_/?hemm_, ?syrk_/?herk_, ?syr2k_/?her2k_, ?trmm_/?trsm_ has one of these shapes:
// Fortran passes all arguments by address, then one hidden length per character argument.
template <typename I>
using SymmFn = void (*)(const char*, const char*, const I*, const I*, const void*, const void*,
                        const I*, const void*, const I*, const void*, void*, const I*, size_t,
                        size_t);
template <typename I>
using SyrkFn = void (*)(const char*, const char*, const I*, const I*, const void*, const void*,
                        const I*, const void*, void*, const I*, size_t, size_t);
template <typename I>
using Syr2kFn = void (*)(const char*, const char*, const I*, const I*, const void*, const void*,
                         const I*, const void*, const I*, const void*, void*, const I*, size_t,
                         size_t);
template <typename I>
using TrmmFn = void (*)(const char*, const char*, const char*, const char*, const I*, const I*,
                        const void*, const void*, const I*, void*, const I*, size_t, size_t, size_t,
                        size_t);
}  // namespace call_detail

// The Level-3 routines other than GEMM of `type` on set s, one per argument shape, as gemm() above:
// symm or hemm; syrk or herk; syr2k or her2k; trmm or trsm (B, m x n, read and written). Inline:
// a call handed to the CPU BLAS at once (src/level3_small_call.h) reaches the routine from its
// entry point's frame.
inline void symm_hemm(NameSet s, Operation op, DataType type, char side, char uplo, int64_t m,
                      int64_t n, const void* alpha, const void* a, int64_t lda, const void* b,
                      int64_t ldb, const void* beta, void* c, int64_t ldc) {
  const Routine r = routine_of(op, type);
  const call_detail::Callee& t = call_detail::callee_of(s, r);
  void* const f = t.address.load(std::memory_order_relaxed);
  if (t.int64.load(std::memory_order_relaxed)) {
    reinterpret_cast<call_detail::SymmFn<int64_t>>(f)(&side, &uplo, &m, &n, alpha, a, &lda, b, &ldb,
                                                      beta, c, &ldc, 1, 1);
  } else if (call_detail::fits_int32({m, n, lda, ldb, ldc})) {
    const int32_t m32 = int32_t(m), n32 = int32_t(n), lda32 = int32_t(lda), ldb32 = int32_t(ldb),
                  ldc32 = int32_t(ldc);
    reinterpret_cast<call_detail::SymmFn<int32_t>>(f)(&side, &uplo, &m32, &n32, alpha, a, &lda32, b,
                                                      &ldb32, beta, c, &ldc32, 1, 1);
  } else {
    call_detail::say_narrowing_refused(s, r, "symm");
  }
}

inline void syrk_herk(NameSet s, Operation op, DataType type, char uplo, char trans, int64_t n,
                      int64_t k, const void* alpha, const void* a, int64_t lda, const void* beta,
                      void* c, int64_t ldc) {
  const Routine r = routine_of(op, type);
  const call_detail::Callee& t = call_detail::callee_of(s, r);
  void* const f = t.address.load(std::memory_order_relaxed);
  if (t.int64.load(std::memory_order_relaxed)) {
    reinterpret_cast<call_detail::SyrkFn<int64_t>>(f)(&uplo, &trans, &n, &k, alpha, a, &lda, beta,
                                                      c, &ldc, 1, 1);
  } else if (call_detail::fits_int32({n, k, lda, ldc})) {
    const int32_t n32 = int32_t(n), k32 = int32_t(k), lda32 = int32_t(lda), ldc32 = int32_t(ldc);
    reinterpret_cast<call_detail::SyrkFn<int32_t>>(f)(&uplo, &trans, &n32, &k32, alpha, a, &lda32,
                                                      beta, c, &ldc32, 1, 1);
  } else {
    call_detail::say_narrowing_refused(s, r, "syrk");
  }
}

inline void syr2k_her2k(NameSet s, Operation op, DataType type, char uplo, char trans, int64_t n,
                        int64_t k, const void* alpha, const void* a, int64_t lda, const void* b,
                        int64_t ldb, const void* beta, void* c, int64_t ldc) {
  const Routine r = routine_of(op, type);
  const call_detail::Callee& t = call_detail::callee_of(s, r);
  void* const f = t.address.load(std::memory_order_relaxed);
  if (t.int64.load(std::memory_order_relaxed)) {
    reinterpret_cast<call_detail::Syr2kFn<int64_t>>(f)(&uplo, &trans, &n, &k, alpha, a, &lda, b,
                                                       &ldb, beta, c, &ldc, 1, 1);
  } else if (call_detail::fits_int32({n, k, lda, ldb, ldc})) {
    const int32_t n32 = int32_t(n), k32 = int32_t(k), lda32 = int32_t(lda), ldb32 = int32_t(ldb),
                  ldc32 = int32_t(ldc);
    reinterpret_cast<call_detail::Syr2kFn<int32_t>>(f)(&uplo, &trans, &n32, &k32, alpha, a, &lda32,
                                                       b, &ldb32, beta, c, &ldc32, 1, 1);
  } else {
    call_detail::say_narrowing_refused(s, r, "syr2k");
  }
}

inline void trmm_trsm(NameSet s, Operation op, DataType type, char side, char uplo, char transa,
                      char diag, int64_t m, int64_t n, const void* alpha, const void* a,
                      int64_t lda, void* b, int64_t ldb) {
  const Routine r = routine_of(op, type);
  const call_detail::Callee& t = call_detail::callee_of(s, r);
  void* const f = t.address.load(std::memory_order_relaxed);
  if (t.int64.load(std::memory_order_relaxed)) {
    reinterpret_cast<call_detail::TrmmFn<int64_t>>(f)(&side, &uplo, &transa, &diag, &m, &n, alpha,
                                                      a, &lda, b, &ldb, 1, 1, 1, 1);
  } else if (call_detail::fits_int32({m, n, lda, ldb})) {
    const int32_t m32 = int32_t(m), n32 = int32_t(n), lda32 = int32_t(lda), ldb32 = int32_t(ldb);
    reinterpret_cast<call_detail::TrmmFn<int32_t>>(f)(&side, &uplo, &transa, &diag, &m32, &n32,
                                                      alpha, a, &lda32, b, &ldb32, 1, 1, 1, 1);
  } else {
    call_detail::say_narrowing_refused(s, r, "trmm");
  }
}

// The real type of t's parts (t itself for real types): herk's alpha and beta, her2k's beta.
constexpr DataType real_of(DataType t) {
  return t == DataType::kC64 ? DataType::kF64 : t == DataType::kC32 ? DataType::kF32 : t;
}

// The types of alpha and beta of operation op on `type` as its routine takes them: `type`, but real
// for herk's alpha and beta and her2k's beta, as netlib declares them.
constexpr DataType alpha_type(Operation op, DataType type) {
  return op == Operation::kHerk ? real_of(type) : type;
}
constexpr DataType beta_type(Operation op, DataType type) {
  return op == Operation::kHerk || op == Operation::kHer2k ? real_of(type) : type;
}

namespace run_detail {
constexpr char op_char(Op op) { return op == Op::kNoTrans ? 'N' : op == Op::kTrans ? 'T' : 'C'; }
// `v` as one element of `type`, by address: for fp64 and complex fp64 the Scalar itself, else
// `made`, filled by element_of().
inline const void* element_address(const Scalar& v, DataType type, Element* made) {
  static_assert(std::is_standard_layout_v<Scalar> && sizeof(Scalar) == 2 * sizeof(double) &&
                offsetof(Scalar, im) == sizeof(double));
  if (type == DataType::kF64 || type == DataType::kC64) return &v;
  *made = element_of(v, type);
  return made->bytes;
}
}  // namespace run_detail

// p (host pointers) on its routine above: the same routine, type and arguments a caller passed,
// reaching set p.name_set's Fortran symbol of p's operation and type (strsm_, scipy_zher2k_64_,
// ...) with the width of the library that runs it; alpha and beta at `alpha` and `beta`, one
// element of the type each (alpha_type(), beta_type()). The four BLAS types only: a GEMM of 16-bit
// data runs on sgemm as gemm_on_cpu() (src/cpu_gemm.h) widens it. Inline: where the caller's
// operation is known, only its shape's call is left.
[[gnu::always_inline]] inline void run(const Problem& p, const void* alpha, const void* beta) {
  const char side = p.side == Side::kLeft ? 'L' : 'R';
  const char uplo = p.uplo == Uplo::kUpper ? 'U' : 'L';
  const char trans = run_detail::op_char(p.trans_a);
  // The routine of the caller's name set, with 64-bit sizes (src/cpu_blas.h).
  const NameSet s = p.name_set;
  // A product that multiplies nothing (alpha == 0) is passed with k = 0, which netlib gives the
  // same meaning (C = beta C, A and B not read): OpenBLAS 0.3.21's dgemm on AVX-512 cores
  // (Cooperlake) reads A and B at alpha == 0, so NaN there reached C.
  const int64_t k = p.multiplies() ? p.k : 0;
  switch (p.op) {
    case Operation::kGemm:
      gemm(s, p.type, trans, run_detail::op_char(p.trans_b), p.m, p.n, k, alpha, p.a, p.lda, p.b,
           p.ldb, beta, p.c, p.ldc);
      break;
    case Operation::kSymm:
    case Operation::kHemm:
      symm_hemm(s, p.op, p.type, side, uplo, p.m, p.n, alpha, p.a, p.lda, p.b, p.ldb, beta, p.c,
                p.ldc);
      break;
    case Operation::kSyrk:
    case Operation::kHerk:
      syrk_herk(s, p.op, p.type, uplo, trans, p.n, k, alpha, p.a, p.lda, beta, p.c, p.ldc);
      break;
    case Operation::kSyr2k:
    case Operation::kHer2k:
      syr2k_her2k(s, p.op, p.type, uplo, trans, p.n, k, alpha, p.a, p.lda, p.b, p.ldb, beta, p.c,
                  p.ldc);
      break;
    case Operation::kTrmm:
    case Operation::kTrsm:
      trmm_trsm(s, p.op, p.type, side, uplo, trans, p.diag == Diag::kUnit ? 'U' : 'N', p.m, p.n,
                alpha, p.a, p.lda, p.c, p.ldc);
      break;
  }
}
// The same with alpha and beta as p holds them: for fp64 and complex fp64 p's own Scalars (their
// re and im are that element), which the call reads where the caller stored them.
inline void run(const Problem& p) {
  Element alpha_made, beta_made;
  run(p, run_detail::element_address(p.alpha, alpha_type(p.op, p.type), &alpha_made),
      run_detail::element_address(p.beta, beta_type(p.op, p.type), &beta_made));
}
void saxpy(NameSet s, int64_t n, float alpha, const float* x, int64_t incx, float* y, int64_t incy);
// OpenBLAS extensions; false when no library has them (the caller then uses its own loop).
bool somatcopy(NameSet s, char order, char trans, int64_t rows, int64_t cols, float alpha,
               const float* a, int64_t lda, float* b, int64_t ldb);
bool simatcopy(NameSet s, char order, char trans, int64_t rows, int64_t cols, float alpha, float* a,
               int64_t lda, int64_t ldb);

// Calls set s's error handler, <prefix>xerbla_<suffix>, with bad argument `info` of routine
// `srname` ("SGEMM ", srname_len characters), with the set's integer width: the caller's own,
// looked for as routines are (numpy defines scipy_xerbla_64_ in its extension module, found by step
// 2; a program's own comes first), but never a BLAS's or LAPACK's default (an object that also has
// <prefix>lsame_<suffix>). For the standard names, whose xerbla_ tileblas exports itself, only what
// comes after tileblas is looked at (its default xerbla_ calls this; a handler that passes the call
// back to it is not called again). False when there is none: the caller prints netlib's message.
bool xerbla(NameSet s, const char* srname, size_t srname_len, int64_t info);

}  // namespace tileblas::cpu_blas
