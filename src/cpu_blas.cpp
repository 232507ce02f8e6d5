#include "cpu_blas.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "env.h"

namespace tileblas::cpu_blas {

namespace {

// The BLAS the process runs on: a dlopen handle, RTLD_NEXT, or none.
struct Loaded {
  void* handle = nullptr;
  std::string description;
  std::string tried;  // what was tried, for the error message when nothing was found
};

// The object (shared library, or executable when the core is linked statically) this code is in.
const void* own_object() {
  static const void* const base = [] {
    Dl_info info{};
    return dladdr(reinterpret_cast<const void*>(&own_object), &info) ? info.dli_fbase : nullptr;
  }();
  return base;
}

// True when `address` lies in tileblas itself: calling it would come straight back here.
bool in_tileblas(const void* address) {
  Dl_info info{};
  return dladdr(address, &info) && info.dli_fbase == own_object();
}

std::string object_name(const void* address) {
  Dl_info info{};
  return dladdr(address, &info) && info.dli_fname ? info.dli_fname : "?";
}

std::string dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown dlerror";
}

// sgemm_ marks a BLAS: every BLAS has it, and nothing else in a process is likely to.
Loaded load() {
  Loaded loaded;
  std::string& tried = loaded.tried;
  // Preloaded (or linked before the program's BLAS): use the BLAS the program would have used.
  if (void* next = dlsym(RTLD_NEXT, "sgemm_"); next && !in_tileblas(next)) {
    loaded.handle = RTLD_NEXT;
    loaded.description = "RTLD_NEXT (" + object_name(next) + ")";
    return loaded;
  }
  tried = "a BLAS later in the process (RTLD_NEXT: no sgemm_)";

  const std::string& configured = config().cpu_blas_path;
  // An explicit TILEBLAS_CPU_BLAS is the only candidate: silently running on another BLAS than
  // the one asked for would hide the mistake.
  const std::vector<std::string> candidates =
      configured.empty() ? std::vector<std::string>{"libopenblas.so.0", "libblas.so.3"}
                         : std::vector<std::string>{configured};
  for (const std::string& path : candidates) {
    tried += "; " + path;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      tried += " (" + dl_error() + ")";
      continue;
    }
    void* sgemm = dlsym(handle, "sgemm_");
    if (sgemm && !in_tileblas(sgemm)) {
      loaded.handle = handle;
      loaded.description = path;
      return loaded;
    }
    tried += sgemm ? " (is tileblas itself)" : " (has no sgemm_)";
    dlclose(handle);
  }
  loaded.description = "none (tried " + tried + ")";
  return loaded;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

}  // namespace

void* symbol(const char* name) {
  const Loaded& l = loaded();
  if (!l.handle) return nullptr;
  // dlsym(RTLD_NEXT) searches after the object that calls dlsym: this one, libtileblas.
  void* address = dlsym(l.handle, name);
  return address && !in_tileblas(address) ? address : nullptr;
}

void* require(const char* name) {
  if (void* address = symbol(name)) return address;
  const Loaded& l = loaded();
  if (!l.handle) {
    std::fprintf(stderr,
                 "tileblas: error: no CPU BLAS to run %s on; tried %s. Install OpenBLAS "
                 "(libopenblas0) or set TILEBLAS_CPU_BLAS to the path of a BLAS library.\n",
                 name, l.tried.c_str());
  } else {
    std::fprintf(stderr, "tileblas: error: the CPU BLAS %s has no %s.\n", l.description.c_str(),
                 name);
  }
  std::exit(1);
}

const char* description() { return loaded().description.c_str(); }

namespace {

// Every ?gemm_ has this shape: Fortran passes all arguments by address.
using GemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const void*,
                        const void*, const int*, const void*, const int*, const void*, void*,
                        const int*, size_t, size_t);
using SymmFn = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                        const int*, const void*, const int*, const void*, void*, const int*, size_t,
                        size_t);
using SyrkFn = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                        const int*, const void*, void*, const int*, size_t, size_t);
using Syr2kFn = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                         const int*, const void*, const int*, const void*, void*, const int*,
                         size_t, size_t);
using TrmmFn = void (*)(const char*, const char*, const char*, const char*, const int*, const int*,
                        const void*, const void*, const int*, void*, const int*, size_t, size_t,
                        size_t, size_t);
using SaxpyFn = void (*)(const int*, const float*, const float*, const int*, float*, const int*);

// OpenBLAS's omatcopy/imatcopy are C functions: no hidden string lengths.
using SomatcopyFn = void (*)(const char*, const char*, const int*, const int*, const float*,
                             const float*, const int*, float*, const int*);
using SimatcopyFn = void (*)(const char*, const char*, const int*, const int*, const float*, float*,
                             const int*, const int*);

// The CPU BLAS's `<s|d|c|z><op>_` (e.g. "ztrsm_"), resolved on first use and kept.
void* level3_symbol(Level3Op op, DataType type) {
  static std::atomic<void*> resolved[8][kDataTypeCount] = {};
  std::atomic<void*>& slot = resolved[int(op)][int(type)];
  void* fn = slot.load(std::memory_order_acquire);
  if (!fn) {
    const char letter = type == DataType::kF64   ? 'd'
                        : type == DataType::kC32 ? 'c'
                        : type == DataType::kC64 ? 'z'
                                                 : 's';
    const std::string name = letter + std::string(name_of(op)) + "_";
    fn = require(name.c_str());
    slot.store(fn, std::memory_order_release);
  }
  return fn;
}

}  // namespace

Element element_of(Scalar v, DataType type) {
  Element e{};
  if (type == DataType::kF64 || type == DataType::kC64) {
    const double parts[2] = {v.re, v.im};
    std::memcpy(e.bytes, parts, size_of(type));
  } else {
    const float parts[2] = {float(v.re), float(v.im)};
    std::memcpy(e.bytes, parts, size_of(type));
  }
  return e;
}

void sgemm(char transa, char transb, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc) {
  gemm(DataType::kF32, transa, transb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}

void gemm(DataType type, char transa, char transb, int m, int n, int k, const void* alpha,
          const void* a, int lda, const void* b, int ldb, const void* beta, void* c, int ldc) {
  // Each resolved on its first use (a BLAS without complex routines still runs sgemm).
  GemmFn fn = nullptr;
  switch (type) {
    case DataType::kF64: {
      static const auto d = reinterpret_cast<GemmFn>(require("dgemm_"));
      fn = d;
      break;
    }
    case DataType::kC32: {
      static const auto cz = reinterpret_cast<GemmFn>(require("cgemm_"));
      fn = cz;
      break;
    }
    case DataType::kC64: {
      static const auto z = reinterpret_cast<GemmFn>(require("zgemm_"));
      fn = z;
      break;
    }
    default: {
      static const auto s = reinterpret_cast<GemmFn>(require("sgemm_"));
      fn = s;
      break;
    }
  }
  fn(&transa, &transb, &m, &n, &k, alpha, a, &lda, b, &ldb, beta, c, &ldc, 1, 1);
}

void symm_hemm(Level3Op op, DataType type, char side, char uplo, int m, int n, const void* alpha,
               const void* a, int lda, const void* b, int ldb, const void* beta, void* c, int ldc) {
  const auto fn = reinterpret_cast<SymmFn>(level3_symbol(op, type));
  fn(&side, &uplo, &m, &n, alpha, a, &lda, b, &ldb, beta, c, &ldc, 1, 1);
}

void syrk_herk(Level3Op op, DataType type, char uplo, char trans, int n, int k, const void* alpha,
               const void* a, int lda, const void* beta, void* c, int ldc) {
  const auto fn = reinterpret_cast<SyrkFn>(level3_symbol(op, type));
  fn(&uplo, &trans, &n, &k, alpha, a, &lda, beta, c, &ldc, 1, 1);
}

void syr2k_her2k(Level3Op op, DataType type, char uplo, char trans, int n, int k, const void* alpha,
                 const void* a, int lda, const void* b, int ldb, const void* beta, void* c,
                 int ldc) {
  const auto fn = reinterpret_cast<Syr2kFn>(level3_symbol(op, type));
  fn(&uplo, &trans, &n, &k, alpha, a, &lda, b, &ldb, beta, c, &ldc, 1, 1);
}

void trmm_trsm(Level3Op op, DataType type, char side, char uplo, char transa, char diag, int m,
               int n, const void* alpha, const void* a, int lda, void* b, int ldb) {
  const auto fn = reinterpret_cast<TrmmFn>(level3_symbol(op, type));
  fn(&side, &uplo, &transa, &diag, &m, &n, alpha, a, &lda, b, &ldb, 1, 1, 1, 1);
}

void saxpy(int n, float alpha, const float* x, int incx, float* y, int incy) {
  static const auto fn = reinterpret_cast<SaxpyFn>(require("saxpy_"));
  fn(&n, &alpha, x, &incx, y, &incy);
}

bool somatcopy(char order, char trans, int rows, int cols, float alpha, const float* a, int lda,
               float* b, int ldb) {
  static const auto fn = reinterpret_cast<SomatcopyFn>(symbol("somatcopy_"));
  if (!fn) return false;
  fn(&order, &trans, &rows, &cols, &alpha, a, &lda, b, &ldb);
  return true;
}

bool simatcopy(char order, char trans, int rows, int cols, float alpha, float* a, int lda,
               int ldb) {
  static const auto fn = reinterpret_cast<SimatcopyFn>(symbol("simatcopy_"));
  if (!fn) return false;
  fn(&order, &trans, &rows, &cols, &alpha, a, &lda, &ldb);
  return true;
}

}  // namespace tileblas::cpu_blas
