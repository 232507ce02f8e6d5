#include "cpu_blas.h"

#include <dlfcn.h>
#include <link.h>
#include <time.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "env.h"

namespace tileblas::cpu_blas {

namespace {

std::atomic<NameSet> g_library_set{NameSet::kStandard};
std::atomic<int64_t> g_last_call_ns{std::numeric_limits<int64_t>::min() / 2};

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// kStandard read as this library's standard set.
NameSet effective(NameSet s) { return s == NameSet::kStandard ? library_name_set() : s; }

bool is_standard(NameSet s) { return s == NameSet::kStandard || s == NameSet::kStandardIlp64; }

std::string dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown dlerror";
}

// The object (shared library, or executable when the core is linked statically) this code is in.
const void* own_object() {
  static const void* const base = [] {
    Dl_info info{};
    return dladdr(reinterpret_cast<const void*>(&own_object), &info) ? info.dli_fbase : nullptr;
  }();
  return base;
}

// Whether the object at `fbase` (file `fname`, empty for the program) defines `name` itself.
bool object_defines(const void* fbase, const char* fname, const char* name) {
  void* handle =
      fname && fname[0] ? dlopen(fname, RTLD_LAZY | RTLD_NOLOAD) : dlopen(nullptr, RTLD_LAZY);
  if (!handle) return false;
  Dl_info dl{};
  const void* address = dlsym(handle, name);
  const bool defines = address && dladdr(address, &dl) && dl.dli_fbase == fbase;
  dlclose(handle);
  return defines;
}

// True when the object at `fbase` (file `fname`) is a tileblas library: this one, or another
// (libtileblas.so and libtileblas64.so in one process) that defines tileblas_version itself.
bool is_tileblas_object(const void* fbase, const char* fname) {
  if (fbase == own_object()) return true;
  static std::mutex mutex;
  static std::map<const void*, bool> known;
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(fbase);
  if (it != known.end()) return it->second;
  return known[fbase] = object_defines(fbase, fname, "tileblas_version");
}

// A library whose file name says it is a BLAS with 64-bit integers and standard names.
bool named_ilp64(const char* path) {
  const char* base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  return std::strstr(base, "blas64") != nullptr || std::strstr(base, "lapack64") != nullptr;
}

// A symbol found for set s: not in tileblas, and for standard names in an object of the set's
// integer width.
struct Found {
  void* address = nullptr;
  std::string object;  // the file it is in
};

// `unless_with`: not from an object that defines that symbol too.
bool acceptable(NameSet s, void* address, Found* found, const char* unless_with = nullptr) {
  if (!address) return false;
  Dl_info dl{};
  if (!dladdr(address, &dl)) return false;
  if (is_tileblas_object(dl.dli_fbase, dl.dli_fname)) return false;
  const char* object = dl.dli_fname && dl.dli_fname[0] ? dl.dli_fname : "the program";
  if (is_standard(s) && named_ilp64(object) != info(s).int64) return false;
  if (unless_with && object_defines(dl.dli_fbase, dl.dli_fname, unless_with)) return false;
  found->address = address;
  found->object = object;
  return true;
}

// The loaded objects with a file name, in load order (the program itself has none); with
// `after_this_one`, only those loaded after this library.
std::vector<std::string> loaded_objects(bool after_this_one) {
  struct Walk {
    std::vector<std::string> paths;
    bool collecting;
  } walk{{}, !after_this_one};
  // Collected first: dlopen is not to be called from inside the iteration.
  dl_iterate_phdr(
      [](dl_phdr_info* object, size_t, void* data) {
        Walk& w = *static_cast<Walk*>(data);
        if (reinterpret_cast<const void*>(object->dlpi_addr) == own_object()) {
          w.collecting = true;
        } else if (w.collecting && object->dlpi_name && object->dlpi_name[0]) {
          w.paths.push_back(object->dlpi_name);
        }
        return 0;
      },
      &walk);
  return walk.paths;
}

// Steps 1 and 2 of the header: the global scope, then every loaded object. `chained`: looking for
// what comes after tileblas's own definition of `name`, which the caller reached (its default
// xerbla_): the global scope before it, where a definition that chains on to ours may sit, is left
// out, and so are the objects loaded before this one. `unless_with`: see acceptable().
bool find_loaded(NameSet s, const char* name, Found* found, bool chained = false,
                 const char* unless_with = nullptr) {
  if (!chained && acceptable(s, dlsym(RTLD_DEFAULT, name), found, unless_with)) return true;
  // dlsym(RTLD_NEXT) searches the objects after the one that calls it: this one, libtileblas.
  if (acceptable(s, dlsym(RTLD_NEXT, name), found, unless_with)) return true;
  for (const std::string& path : loaded_objects(chained)) {
    void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) continue;
    // Kept open when found: the library must stay while we hold its address.
    if (acceptable(s, dlsym(handle, name), found, unless_with)) return true;
    dlclose(handle);
  }
  return false;
}

// Step 3 of the header: the library the standard set loads itself when the process has none.
struct DefaultBlas {
  void* handle = nullptr;
  std::string path;
  std::string tried;  // what was tried, for the error message when nothing was found
};

const DefaultBlas& default_blas() {
  static const DefaultBlas loaded = [] {
    DefaultBlas d;
    const std::string& configured = config().cpu_blas_path;
    // An explicit TILEBLAS_CPU_BLAS is the only candidate (and its width is taken on trust):
    // silently running on another BLAS than the one asked for would hide the mistake.
    const std::vector<std::string> candidates =
        !configured.empty() ? std::vector<std::string>{configured}
        : info(library_name_set()).int64
            ? std::vector<std::string>{"libopenblas64.so.0", "libblas64.so.3"}
            : std::vector<std::string>{"libopenblas.so.0", "libblas.so.3"};
    for (const std::string& path : candidates) {
      d.tried += "; " + path;
      void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        d.tried += " (" + dl_error() + ")";
        continue;
      }
      void* sgemm = dlsym(handle, "sgemm_");
      Dl_info dl{};
      if (sgemm && dladdr(sgemm, &dl) && !is_tileblas_object(dl.dli_fbase, dl.dli_fname)) {
        d.handle = handle;
        d.path = path;
        return d;
      }
      d.tried += sgemm ? " (is tileblas itself)" : " (has no sgemm_)";
      dlclose(handle);
    }
    return d;
  }();
  return loaded;
}

// A resolved routine: its address, the integer width it takes, and where it was found.
struct Target {
  void* address = nullptr;
  bool int64 = false;
  std::string where;
};

// The standard set's routine `name`, with the library's width: steps 1 and 2 of the header
// (`loaded_only`), or 1 to 3.
Target resolve_standard(const char* name, bool loaded_only = false) {
  const NameSet s = library_name_set();
  Target t;
  t.int64 = info(s).int64;
  Found found;
  if (find_loaded(s, name, &found)) {
    t.address = found.address;
    t.where = found.object;
    return t;
  }
  if (loaded_only) return t;
  const DefaultBlas& d = default_blas();
  if (d.handle) {
    t.address = dlsym(d.handle, name);
    t.where = d.path;
  }
  return t;
}

// Says once per set that its calls run on another library: on stderr, or only when verbose.
void say_once(NameSet s, bool always, const std::string& message) {
  static std::array<std::atomic<bool>, kNameSetCount> said{};
  if (said[int(s)].exchange(true)) return;
  if (always || config().verbose) std::fprintf(stderr, "tileblas: %s\n", message.c_str());
}

inline const Target& target(NameSet s, Routine r);

// Routine r of set s (already effective()): the set's own name first, then the fallbacks of the
// header.
Target resolve(NameSet s, Routine r) {
  const std::string name = fortran_name(s, stem_of(r));
  Target t;
  if (s == library_name_set()) {
    // A standard BLAS in the process; else, unless TILEBLAS_CPU_BLAS names one, a wheel's or an
    // ILP64 OpenBLAS that is loaded, with its own names, before loading another BLAS: one
    // OpenBLAS in a process that has numpy's wheel, not two thread pools on the same cores (the
    // cost model's measurements are calls of standard names), and the one the wheel's calls run on.
    const bool configured = !config().cpu_blas_path.empty();
    t = resolve_standard(name.c_str(), !configured);
    if (t.address) return t;
    for (const NameSet other : {NameSet::kScipy64, NameSet::kScipy32, NameSet::kOpenblasIlp64}) {
      const std::string other_name = fortran_name(other, stem_of(r));
      Found found;
      if (!find_loaded(other, other_name.c_str(), &found)) continue;
      t.address = found.address;
      t.int64 = info(other).int64;
      t.where = other_name + " of " + found.object;
      say_once(s, false,
               "note: no standard BLAS in this process; calls of standard names that run on the "
               "CPU use " +
                   t.where + " (" + info(other).what + ")");
      return t;
    }
    return configured ? t : resolve_standard(name.c_str());
  }
  Found found;
  if (find_loaded(s, name.c_str(), &found)) {
    t.address = found.address;
    t.int64 = info(s).int64;
    t.where = found.object;
    return t;
  }
  t = target(library_name_set(), r);
  say_once(s, true,
           "warning: no library in this process has " + name + " (" + info(s).what +
               "); calls of those names that run on the CPU use " +
               (t.address ? t.where : std::string("no CPU BLAS")) +
               (info(s).int64 && t.address && !t.int64
                    ? ", with 32-bit integers (larger arguments are refused)"
                    : ""));
  return t;
}

std::array<std::array<Target, kRoutineCount>, kNameSetCount> g_targets;
// Set once the target is resolved. Every CPU BLAS call comes here: std::call_once alone costs
// thread-local writes and a pthread_once call each time.
std::array<std::array<std::atomic<bool>, kRoutineCount>, kNameSetCount> g_resolved;

// target()'s first call for routine r of set e (already effective()).
[[gnu::noinline]] const Target& resolve_once(NameSet e, Routine r) {
  static std::array<std::array<std::once_flag, kRoutineCount>, kNameSetCount> once;
  std::call_once(once[int(e)][int(r)], [&] { g_targets[int(e)][int(r)] = resolve(e, r); });
  g_resolved[int(e)][int(r)].store(true, std::memory_order_release);
  return g_targets[int(e)][int(r)];
}

// Routine r of set s, resolved once. Inline: every CPU BLAS call asks.
[[gnu::always_inline]] inline const Target& target(NameSet s, Routine r) {
  const NameSet e = effective(s);
  if (g_resolved[int(e)][int(r)].load(std::memory_order_acquire)) return g_targets[int(e)][int(r)];
  return resolve_once(e, r);
}

[[noreturn, gnu::cold]] void no_cpu_blas(const std::string& name) {
  const DefaultBlas& d = default_blas();
  const bool ilp64 = info(library_name_set()).int64;
  std::fprintf(stderr,
               "tileblas: error: no CPU BLAS to run %s on; tried the process's loaded objects (no "
               "%s)%s. Install OpenBLAS (%s) or set TILEBLAS_CPU_BLAS to the path of a BLAS "
               "library.\n",
               name.c_str(), name.c_str(), d.tried.c_str(),
               ilp64 ? "libopenblas64-0" : "libopenblas0");
  std::exit(1);
}

[[noreturn, gnu::cold, gnu::noinline]] void no_cpu_blas(NameSet s, Routine r) {
  no_cpu_blas(fortran_name(effective(s), stem_of(r)));
}

// target(), or require()'s message and exit where no library has the routine. Inline, as target().
[[gnu::always_inline]] inline const Target& require_target(NameSet s, Routine r) {
  const Target& t = target(s, r);
  if (!t.address) no_cpu_blas(s, r);
  return t;
}

void print_narrowing_refused(const Target& t, const char* routine) {
  std::fprintf(stderr,
               "tileblas: error: %s: an integer argument does not fit the 32-bit integers of %s; "
               "nothing was computed\n",
               routine, t.where.c_str());
}
// Whether an argument does not fit t's 32-bit integers, said on stderr: compat/ refuses arguments
// wider than max_int() before a call gets here; this is the last guard against truncating one.
bool narrowing_refused(const Target& t, const char* routine,
                       std::initializer_list<int64_t> values) {
  if (t.int64 || call_detail::fits_int32(values)) return false;
  print_narrowing_refused(t, routine);
  return true;
}

}  // namespace

call_detail::Callee call_detail::g_callees[kNameSetCount][kRoutineCount];

const call_detail::Callee& call_detail::resolve_callee(NameSet s, Routine r) {
  const Target& t = require_target(s, r);
  Callee& c = g_callees[int(s)][int(r)];
  c.int64.store(t.int64, std::memory_order_relaxed);
  c.address.store(t.address, std::memory_order_release);
  return c;
}

void call_detail::say_narrowing_refused(NameSet s, Routine r, const char* routine) {
  print_narrowing_refused(target(s, r), routine);
}

namespace {

// Every ?gemm_ has this shape: Fortran passes all arguments by address.
template <typename I>
using GemmFn = void (*)(const char*, const char*, const I*, const I*, const I*, const void*,
                        const void*, const I*, const void*, const I*, const void*, void*, const I*,
                        size_t, size_t);
template <typename I>
using SaxpyFn = void (*)(const I*, const float*, const float*, const I*, float*, const I*);
// OpenBLAS's omatcopy/imatcopy are C functions: no hidden string lengths.
template <typename I>
using SomatcopyFn = void (*)(const char*, const char*, const I*, const I*, const float*,
                             const float*, const I*, float*, const I*);
template <typename I>
using SimatcopyFn = void (*)(const char*, const char*, const I*, const I*, const float*, float*,
                             const I*, const I*);
template <typename I>
using XerblaFn = void (*)(const char*, const I*, size_t);

template <typename I>
void call_gemm(void* fn, char transa, char transb, I m, I n, I k, const void* alpha, const void* a,
               I lda, const void* b, I ldb, const void* beta, void* c, I ldc) {
  reinterpret_cast<GemmFn<I>>(fn)(&transa, &transb, &m, &n, &k, alpha, a, &lda, b, &ldb, beta, c,
                                  &ldc, 1, 1);
}

template <typename I>
void call_saxpy(void* fn, I n, float alpha, const float* x, I incx, float* y, I incy) {
  reinterpret_cast<SaxpyFn<I>>(fn)(&n, &alpha, x, &incx, y, &incy);
}

template <typename I>
void call_somatcopy(void* fn, char order, char trans, I rows, I cols, float alpha, const float* a,
                    I lda, float* b, I ldb) {
  reinterpret_cast<SomatcopyFn<I>>(fn)(&order, &trans, &rows, &cols, &alpha, a, &lda, b, &ldb);
}

template <typename I>
void call_simatcopy(void* fn, char order, char trans, I rows, I cols, float alpha, float* a, I lda,
                    I ldb) {
  reinterpret_cast<SimatcopyFn<I>>(fn)(&order, &trans, &rows, &cols, &alpha, a, &lda, &ldb);
}

}  // namespace

const char* stem_of(Routine r) {
  static const std::array<std::string, kRoutineCount> stems = [] {
    std::array<std::string, kRoutineCount> st;
    for (int op = 0; op < kOperationCount; ++op) {
      for (int t = 0; t < 4; ++t)
        st[size_t(op * 4 + t)] = "sdcz"[t] + std::string(name_of(Operation(op)));
    }
    st[size_t(Routine::kSaxpy)] = "saxpy";
    st[size_t(Routine::kSomatcopy)] = "somatcopy";
    st[size_t(Routine::kSimatcopy)] = "simatcopy";
    return st;
  }();
  return stems[size_t(r)].c_str();
}

void set_library_name_set(NameSet s) { g_library_set.store(s); }

NameSet library_name_set() { return g_library_set.load(std::memory_order_relaxed); }

void note_threaded_call() { g_last_call_ns.store(steady_ns(), std::memory_order_relaxed); }

bool workers_may_spin() {
  constexpr int64_t kWindowNs = int64_t(kWorkersSpinSeconds * 1e9);
  const int64_t last = g_last_call_ns.load(std::memory_order_relaxed);
  // CLOCK_MONOTONIC_COARSE is CLOCK_MONOTONIC (steady_clock's) as of the last tick, never ahead of
  // it: a window it sees over is over. It costs a few nanoseconds against steady_clock's 27 on the
  // CI host's kvm-clock, where a small host plan call takes 150; steady_clock decides the rest.
  timespec coarse;
  if (clock_gettime(CLOCK_MONOTONIC_COARSE, &coarse) == 0 &&
      int64_t(coarse.tv_sec) * 1000000000 + coarse.tv_nsec - last >= kWindowNs) {
    return false;
  }
  return steady_ns() - last < kWindowNs;
}

std::string fortran_name(NameSet s, const char* routine) {
  const NameSetInfo& i = info(effective(s));
  return std::string(i.prefix) + routine + "_" + i.suffix;
}

std::string cblas_name(NameSet s, const char* routine) {
  const NameSetInfo& i = info(effective(s));
  return std::string(i.prefix) + "cblas_" + routine + i.suffix;
}

int64_t max_int(NameSet s, Routine r) {
  const Target& t = target(s, r);
  return t.address && !t.int64 ? std::numeric_limits<int32_t>::max()
                               : std::numeric_limits<int64_t>::max();
}

void* symbol(const char* name) { return resolve_standard(name).address; }

void* require(const char* name) {
  if (void* address = symbol(name)) return address;
  const Target sgemm = resolve_standard("sgemm_");
  if (!sgemm.address) no_cpu_blas(name);
  std::fprintf(stderr, "tileblas: error: the CPU BLAS %s has no %s.\n", sgemm.where.c_str(), name);
  std::exit(1);
}

const char* description() {
  static const std::string d = [] {
    const Target& t = target(NameSet::kStandard, routine_of(Operation::kGemm, DataType::kF32));
    if (t.address) return t.where;
    return "none (tried the process's loaded objects" + default_blas().tried + ")";
  }();
  return d.c_str();
}

void gemm(NameSet s, DataType type, char transa, char transb, int64_t m, int64_t n, int64_t k,
          const void* alpha, const void* a, int64_t lda, const void* b, int64_t ldb,
          const void* beta, void* c, int64_t ldc) {
  const Target& t = require_target(s, routine_of(Operation::kGemm, type));
  if (t.int64) {
    call_gemm<int64_t>(t.address, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else if (!narrowing_refused(t, "gemm", {m, n, k, lda, ldb, ldc})) {
    call_gemm<int32_t>(t.address, transa, transb, int32_t(m), int32_t(n), int32_t(k), alpha, a,
                       int32_t(lda), b, int32_t(ldb), beta, c, int32_t(ldc));
  }
}

void sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  gemm(NameSet::kStandard, DataType::kF32, transa, transb, m, n, k, &alpha, a, lda, b, ldb, &beta,
       c, ldc);
}

void saxpy(NameSet s, int64_t n, float alpha, const float* x, int64_t incx, float* y,
           int64_t incy) {
  const Target& t = require_target(s, Routine::kSaxpy);
  if (t.int64) {
    call_saxpy<int64_t>(t.address, n, alpha, x, incx, y, incy);
  } else if (!narrowing_refused(t, "saxpy", {n, incx, incy})) {
    call_saxpy<int32_t>(t.address, int32_t(n), alpha, x, int32_t(incx), y, int32_t(incy));
  }
}

bool somatcopy(NameSet s, char order, char trans, int64_t rows, int64_t cols, float alpha,
               const float* a, int64_t lda, float* b, int64_t ldb) {
  const Target& t = target(s, Routine::kSomatcopy);
  if (!t.address) return false;
  if (t.int64) {
    call_somatcopy<int64_t>(t.address, order, trans, rows, cols, alpha, a, lda, b, ldb);
  } else if (!narrowing_refused(t, "somatcopy", {rows, cols, lda, ldb})) {
    call_somatcopy<int32_t>(t.address, order, trans, int32_t(rows), int32_t(cols), alpha, a,
                            int32_t(lda), b, int32_t(ldb));
  }
  return true;
}

bool simatcopy(NameSet s, char order, char trans, int64_t rows, int64_t cols, float alpha, float* a,
               int64_t lda, int64_t ldb) {
  const Target& t = target(s, Routine::kSimatcopy);
  if (!t.address) return false;
  if (t.int64) {
    call_simatcopy<int64_t>(t.address, order, trans, rows, cols, alpha, a, lda, ldb);
  } else if (!narrowing_refused(t, "simatcopy", {rows, cols, lda, ldb})) {
    call_simatcopy<int32_t>(t.address, order, trans, int32_t(rows), int32_t(cols), alpha, a,
                            int32_t(lda), int32_t(ldb));
  }
  return true;
}

bool xerbla(NameSet s, const char* srname, size_t srname_len, int64_t info) {
  s = effective(s);
  // The standard names' xerbla_ is also tileblas's own, whose default comes here: what is asked
  // for then is the definition after ours (find_loaded's `chained`), and a handler that passes the
  // call back to ours is not called again. A BLAS's or LAPACK's own xerbla (an object that has
  // <prefix>lsame_<suffix> too) is no handler of the caller's: tileblas's message stands in for it
  // (the reference LAPACK's would stop the program).
  const bool chained = is_standard(s);
  const std::string lsame = fortran_name(s, "lsame");
  static thread_local bool forwarding = false;
  if (forwarding) return false;
  // Found once; not found is looked for again at the next error: the handler may come in with a
  // module loaded since (numpy's extension modules define theirs).
  static std::mutex mutex;
  static std::array<void*, kNameSetCount> handlers{};
  void* fn = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    Found found;
    if (!handlers[int(s)] &&
        find_loaded(s, fortran_name(s, "xerbla").c_str(), &found, chained, lsame.c_str())) {
      handlers[int(s)] = found.address;
    }
    fn = handlers[int(s)];
  }
  if (!fn) return false;
  forwarding = true;
  if (cpu_blas::info(s).int64) {
    reinterpret_cast<XerblaFn<int64_t>>(fn)(srname, &info, srname_len);
  } else {
    const int32_t info32 = int32_t(info);
    reinterpret_cast<XerblaFn<int32_t>>(fn)(srname, &info32, srname_len);
  }
  forwarding = false;
  return true;
}

}  // namespace tileblas::cpu_blas
