#include "level3_cpu_backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "host_plans.h"

namespace tbtest {

namespace {

using tileblas::DataType;
using tileblas::Diag;
using tileblas::Fill;
using tileblas::Op;
using tileblas::Operation;
using tileblas::Side;
using tileblas::Uplo;

// ---- OpenBLAS ---------------------------------------------------------------------------------

// Fortran signatures; every scalar and array by address, so one pointer type serves all four
// element types (the real alpha/beta of herk, her2k's beta, are real scalars of the element's
// precision).
using GemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const void*,
                        const void*, const int*, const void*, const int*, const void*, void*,
                        const int*, size_t, size_t);
using TrFn = void (*)(const char*, const char*, const char*, const char*, const int*, const int*,
                      const void*, const void*, const int*, void*, const int*, size_t, size_t,
                      size_t, size_t);
using RkFn = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                      const int*, const void*, void*, const int*, size_t, size_t);
using R2kFn = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                       const int*, const void*, const int*, const void*, void*, const int*, size_t,
                       size_t);
using SymmFn = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                        const int*, const void*, const int*, const void*, void*, const int*, size_t,
                        size_t);

struct Level3Blas {
  // Indexed by type: 0 f32 (s), 1 f64 (d), 2 c32 (c), 3 c64 (z).
  GemmFn gemm[4] = {};
  TrFn trsm[4] = {}, trmm[4] = {};
  RkFn syrk[4] = {}, herk[4] = {};
  R2kFn syr2k[4] = {}, her2k[4] = {};
  SymmFn symm[4] = {}, hemm[4] = {};
  std::string error;

  static const Level3Blas& get() {
    static const Level3Blas blas = [] {
      Level3Blas b;
      void* h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
      if (!h) h = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        b.error = std::string("cannot dlopen libopenblas.so.0: ") + dlerror();
        return b;
      }
      const char letters[4] = {'s', 'd', 'c', 'z'};
      auto sym = [&](char letter, const char* name) {
        const std::string full = std::string(1, letter) + name;
        void* f = dlsym(h, full.c_str());
        if (!f) b.error = "OpenBLAS lacks " + full;
        return f;
      };
      for (int t = 0; t < 4; ++t) {
        const char l = letters[t];
        b.gemm[t] = reinterpret_cast<GemmFn>(sym(l, "gemm_"));
        b.trsm[t] = reinterpret_cast<TrFn>(sym(l, "trsm_"));
        b.trmm[t] = reinterpret_cast<TrFn>(sym(l, "trmm_"));
        b.syrk[t] = reinterpret_cast<RkFn>(sym(l, "syrk_"));
        b.syr2k[t] = reinterpret_cast<R2kFn>(sym(l, "syr2k_"));
        b.symm[t] = reinterpret_cast<SymmFn>(sym(l, "symm_"));
        if (t >= 2) {
          b.herk[t] = reinterpret_cast<RkFn>(sym(l, "herk_"));
          b.her2k[t] = reinterpret_cast<R2kFn>(sym(l, "her2k_"));
          b.hemm[t] = reinterpret_cast<SymmFn>(sym(l, "hemm_"));
        }
      }
      return b;
    }();
    return blas;
  }
};

int type_index(DataType t) {
  switch (t) {
    case DataType::kF32:
      return 0;
    case DataType::kF64:
      return 1;
    case DataType::kC32:
      return 2;
    case DataType::kC64:
      return 3;
    default:
      return -1;
  }
}

// A scalar as the routine takes it: the element type, or (real_only) its real part in the
// element's precision.
struct ScalarBytes {
  unsigned char bytes[16] = {};
  ScalarBytes(DataType t, const tileblas::Scalar& s, bool real_only = false) {
    const bool f32 = t == DataType::kF32 || t == DataType::kC32;
    const bool complex = tileblas::is_complex(t) && !real_only;
    if (f32) {
      const float v[2] = {float(s.re), float(s.im)};
      std::memcpy(bytes, v, complex ? 8 : 4);
    } else {
      const double v[2] = {s.re, s.im};
      std::memcpy(bytes, v, complex ? 16 : 8);
    }
  }
};

char op_char(Op op) { return op == Op::kNoTrans ? 'N' : op == Op::kTrans ? 'T' : 'C'; }

}  // namespace

std::string openblas_gemm(const tileblas::Problem& p) {
  const Level3Blas& blas = Level3Blas::get();
  if (!blas.error.empty()) return blas.error;
  const int t = type_index(p.type);
  if (t < 0 || p.c_type != p.type) return "no OpenBLAS gemm for this type";
  const size_t elem = tileblas::size_of(p.c_type);
  if (p.beta.is_zero()) {  // OpenBLAS may read C when beta == 0: C is not read, so clear it
    for (int64_t j = 0; j < p.n; ++j)
      std::memset(static_cast<char*>(p.c) + j * p.ldc * elem, 0, size_t(p.m) * elem);
  }
  const int m = int(p.m), n = int(p.n), k = int(p.k), lda = int(p.lda), ldb = int(p.ldb),
            ldc = int(p.ldc);
  const char ta = op_char(p.trans_a), tb = op_char(p.trans_b);
  const ScalarBytes alpha(p.type, p.alpha), beta(p.type, p.beta);
  blas.gemm[t](&ta, &tb, &m, &n, &k, alpha.bytes, p.a, &lda, p.b, &ldb, beta.bytes, p.c, &ldc, 1,
               1);
  return "";
}

std::string openblas_level3(const tileblas::Problem& p) {
  const Level3Blas& blas = Level3Blas::get();
  if (!blas.error.empty()) return blas.error;
  const int t = type_index(p.type);
  if (t < 0) return "no OpenBLAS routine for this type";
  const char side = p.side == Side::kLeft ? 'L' : 'R', uplo = p.uplo == Uplo::kLower ? 'L' : 'U';
  const char trans = op_char(p.trans_a), diag = p.diag == Diag::kUnit ? 'U' : 'N';
  const int m = int(p.m), n = int(p.n), k = int(p.k), lda = int(p.lda), ldb = int(p.ldb),
            ldc = int(p.ldc);
  const bool herm = p.op == Operation::kHerk || p.op == Operation::kHer2k;
  const ScalarBytes alpha(p.type, p.alpha, p.op == Operation::kHerk);
  const ScalarBytes beta(p.type, p.beta, herm);
  switch (p.op) {
    case Operation::kTrsm:
    case Operation::kTrmm: {
      TrFn f = p.op == Operation::kTrsm ? blas.trsm[t] : blas.trmm[t];
      f(&side, &uplo, &trans, &diag, &m, &n, alpha.bytes, p.a, &lda, p.c, &ldc, 1, 1, 1, 1);
      return "";
    }
    case Operation::kSyrk:
    case Operation::kHerk: {
      RkFn f = p.op == Operation::kSyrk ? blas.syrk[t] : blas.herk[t];
      if (!f) return "no herk for a real type";
      f(&uplo, &trans, &n, &k, alpha.bytes, p.a, &lda, beta.bytes, p.c, &ldc, 1, 1);
      return "";
    }
    case Operation::kSyr2k:
    case Operation::kHer2k: {
      R2kFn f = p.op == Operation::kSyr2k ? blas.syr2k[t] : blas.her2k[t];
      if (!f) return "no her2k for a real type";
      f(&uplo, &trans, &n, &k, alpha.bytes, p.a, &lda, p.b, &ldb, beta.bytes, p.c, &ldc, 1, 1);
      return "";
    }
    case Operation::kSymm:
    case Operation::kHemm: {
      SymmFn f = p.op == Operation::kSymm ? blas.symm[t] : blas.hemm[t];
      if (!f) return "no hemm for a real type";
      f(&side, &uplo, &m, &n, alpha.bytes, p.a, &lda, p.b, &ldb, beta.bytes, p.c, &ldc, 1, 1);
      return "";
    }
  }
  return "unknown operation";
}

cudaError_t CpuLevel3Backend::run(std::function<cudaError_t()> op) {
  if (!forked_) return op();
  if (lanes_.empty()) lanes_.emplace_back();  // operations before the first next_lane()
  lanes_.back().push_back(std::move(op));
  return cudaSuccess;
}
cudaError_t CpuLevel3Backend::fork() {
  forked_ = true;
  lanes_.clear();
  return cudaSuccess;
}
void CpuLevel3Backend::next_lane() {
  if (forked_) lanes_.emplace_back();
}
cudaError_t CpuLevel3Backend::join() {
  cudaError_t first = cudaSuccess;
  for (size_t i = lanes_.size(); i-- > 0;) {
    lanes_run_ += lanes_[i].empty() ? 0 : 1;
    for (auto& op : lanes_[i]) {
      const cudaError_t err = op();
      if (first == cudaSuccess) first = err;
    }
  }
  forked_ = false;
  lanes_.clear();
  return first;
}

namespace {

// Whether op(X) (rows x cols, X stored with leading dimension ld) is square and exactly zero
// outside `nonzero` (kLower: wherever col > row; kUpper: wherever col < row); "" or what is not.
std::string zero_outside(tileblas::Triangle nonzero, const void* x, int64_t ld, Op op, int64_t rows,
                         int64_t cols, DataType type) {
  if (nonzero == tileblas::Triangle::kAll) return "";
  if (rows != cols) return "a zero triangle promised of an operand that is not square";
  const size_t elem = tileblas::size_of(type);
  const bool single = type == DataType::kF32 || type == DataType::kC32;
  const int parts = tileblas::is_complex(type) ? 2 : 1;
  for (int64_t c = 0; c < cols; ++c) {
    for (int64_t r = 0; r < rows; ++r) {
      if (nonzero == tileblas::Triangle::kLower ? c <= r : c >= r) continue;
      const int64_t at = op == Op::kNoTrans ? r + c * ld : c + r * ld;
      const auto* e = static_cast<const unsigned char*>(x) + size_t(at) * elem;
      for (int part = 0; part < parts; ++part) {
        double v = 0;
        if (single) {
          float f;
          std::memcpy(&f, e + part * sizeof(float), sizeof f);
          v = f;
        } else {
          std::memcpy(&v, e + part * sizeof(double), sizeof v);
        }
        if (v != 0) {
          return "op(X)(" + std::to_string(r) + ", " + std::to_string(c) +
                 ") is not zero outside the triangle promised";
        }
      }
    }
  }
  return "";
}

}  // namespace

bool CpuLevel3Backend::gemm_supports(const tileblas::Problem& p) {
  return p.c_triangle == tileblas::Triangle::kAll || (triangles_ && p.m == p.n);
}

cudaError_t CpuLevel3Backend::gemm(const tileblas::Problem& p) {
  ++counts_.gemm;
  if (!gemm_supports(p)) {
    if (error_.empty()) error_ = "a triangle of C asked of a backend without triangles";
    return cudaErrorNotSupported;
  }
  return run([this, p] {
    std::string why = zero_outside(p.a_nonzero, p.a, p.lda, p.trans_a, p.m, p.k, p.type) +
                      zero_outside(p.b_nonzero, p.b, p.ldb, p.trans_b, p.k, p.n, p.type);
    if (why.empty() && p.c_triangle == tileblas::Triangle::kAll) {
      why = openblas_gemm(p);
    } else if (why.empty()) {
      // C copied whole (NaN outside the triangle included: OpenBLAS reads none of it with beta ==
      // 0), computed whole, and only the triangle copied back.
      const size_t elem = tileblas::size_of(p.c_type);
      const size_t col_bytes = size_t(p.m) * elem;
      std::vector<unsigned char> whole(col_bytes * size_t(p.n));
      auto* c = static_cast<unsigned char*>(p.c);
      for (int64_t j = 0; j < p.n; ++j) {
        std::memcpy(whole.data() + size_t(j) * col_bytes, c + size_t(j * p.ldc) * elem, col_bytes);
      }
      tileblas::Problem q = p;
      q.c = whole.data(), q.ldc = p.m;
      q.c_triangle = tileblas::Triangle::kAll;
      why = openblas_gemm(q);
      const bool lower = p.c_triangle == tileblas::Triangle::kLower;
      for (int64_t j = 0; j < p.n && why.empty(); ++j) {
        const int64_t i0 = lower ? j : 0, i1 = lower ? p.m : std::min(j + 1, p.m);
        std::memcpy(c + size_t(i0 + j * p.ldc) * elem,
                    whole.data() + size_t(j) * col_bytes + size_t(i0) * elem,
                    size_t(i1 - i0) * elem);
      }
    }
    if (why.empty()) return cudaSuccess;
    if (error_.empty()) error_ = why;
    return cudaErrorNotSupported;
  });
}
cudaError_t CpuLevel3Backend::tri_update(const tileblas::TriUpdateProblem& p) {
  ++counts_.tri_update;
  return run([p] {
    tileblas::host_tri_update(p);
    return cudaSuccess;
  });
}
cudaError_t CpuLevel3Backend::tri_fill(const tileblas::TriFillProblem& p) {
  ++counts_.tri_fill;
  return run([p] {
    tileblas::host_tri_fill(p);
    return cudaSuccess;
  });
}
cudaError_t CpuLevel3Backend::tri_block(const tileblas::TriBlockProblem& p) {
  ++counts_.tri_block;
  return run([p] {
    tileblas::host_tri_block(p);
    return cudaSuccess;
  });
}
cudaError_t CpuLevel3Backend::tri_invert(const tileblas::TriInvertProblem& p) {
  ++counts_.tri_invert;
  return run([p] {
    tileblas::host_tri_invert(p);
    return cudaSuccess;
  });
}
cudaError_t CpuLevel3Backend::scratch(size_t bytes, void** p) {
  ++counts_.scratch;
  buffers_.push_back(std::make_unique<unsigned char[]>(std::max<size_t>(bytes, 1)));
  std::memset(buffers_.back().get(), 0xff, std::max<size_t>(bytes, 1));
  *p = buffers_.back().get();
  return cudaSuccess;
}

}  // namespace tbtest
