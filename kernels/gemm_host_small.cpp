// gemm_host_small: which variant this CPU runs, and the calling thread's workspace
// (contract: kernels/gemm_host_small.h; the variants: kernels/gemm_host_small_<isa>.cpp).
#include "gemm_host_small.h"

#include <vector>

#include "gemm_host_small_impl.h"

namespace tileblas::gemm_host_small {

// Defined in the files compiled for their instruction set.
int64_t avx512_workspace_elements(const Args<float>& g);
int64_t avx512_workspace_elements(const Args<double>& g);
void gemm_avx512(const Args<float>& g, float* work);
void gemm_avx512(const Args<double>& g, double* work);
int64_t avx2_workspace_elements(const Args<float>& g);
int64_t avx2_workspace_elements(const Args<double>& g);
void gemm_avx2(const Args<float>& g, float* work);
void gemm_avx2(const Args<double>& g, double* work);

namespace {

bool cpu_has(Isa isa) {
#if defined(__x86_64__)
  // libgcc's checks include the operating system saving the wider registers (XCR0).
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return isa == Isa::kAvx512 ? avx512 : isa == Isa::kAvx2 && avx2;
#else
  (void)isa;
  return false;
#endif
}

template <class T>
Args<T> args_of(const GemmProblem& p) {
  Args<T> g;
  g.trans_a = p.trans_a != Op::kNoTrans;
  g.trans_b = p.trans_b != Op::kNoTrans;
  g.m = p.m, g.n = p.n, g.k = p.k;
  g.alpha = T(p.alpha.re), g.beta = T(p.beta.re);
  g.a = static_cast<const T*>(p.a), g.lda = p.lda;
  g.b = static_cast<const T*>(p.b), g.ldb = p.ldb;
  g.c = static_cast<T*>(p.c), g.ldc = p.ldc;
  return g;
}

template <class T>
int64_t workspace_for(const Args<T>& g, Isa isa) {
  return isa == Isa::kAvx512 ? avx512_workspace_elements(g) : avx2_workspace_elements(g);
}

template <class T>
void run_typed(const GemmProblem& p, Isa isa) {
  const Args<T> g = args_of<T>(p);
  if (g.alpha == T(0)) {  // netlib: A and B are not read
    for (int64_t j = 0; j < g.n; ++j) {
      T* c = g.c + j * g.ldc;
      for (int64_t i = 0; i < g.m; ++i) c[i] = g.beta != T(0) ? g.beta * c[i] : T(0);
    }
    return;
  }
  // 64-byte aligned, grown as needed, kept for the thread's next call.
  constexpr size_t kAlign = 64;
  thread_local std::vector<unsigned char> workspace;
  const size_t need = size_t(workspace_for(g, isa)) * sizeof(T) + kAlign;
  if (workspace.size() < need) workspace.resize(need);
  const uintptr_t at = reinterpret_cast<uintptr_t>(workspace.data());
  T* work = reinterpret_cast<T*>((at + kAlign - 1) / kAlign * kAlign);
  if (isa == Isa::kAvx512) {
    gemm_avx512(g, work);
  } else {
    gemm_avx2(g, work);
  }
}

bool is_real_host_type(const GemmProblem& p) {
  return (p.ab_type == DataType::kF32 || p.ab_type == DataType::kF64) && p.c_type == p.ab_type;
}

}  // namespace

Isa best_isa() {
  return cpu_has(Isa::kAvx512) ? Isa::kAvx512 : cpu_has(Isa::kAvx2) ? Isa::kAvx2 : Isa::kNone;
}

const char* name_of(Isa isa, DataType type) {
  const bool f64 = type == DataType::kF64;
  switch (isa) {
    case Isa::kAvx512:
      return f64 ? "gemm_host_small_avx512_f64_16x8" : "gemm_host_small_avx512_f32_32x8";
    case Isa::kAvx2:
      return f64 ? "gemm_host_small_avx2_f64_8x6" : "gemm_host_small_avx2_f32_16x6";
    case Isa::kNone:
      break;
  }
  return "none";
}

bool supports(const GemmProblem& p, Isa isa) {
  if (!cpu_has(isa) || !is_real_host_type(p)) return false;
  if (p.m < 1 || p.n < 1 || p.k < 1) return false;
  // m and n bound the workspace with k; the bound on each keeps the product from overflowing.
  if (p.m > kMaxElements || p.n > kMaxElements || p.k > kMaxElements) return false;
  const int64_t need = p.ab_type == DataType::kF64 ? workspace_for(args_of<double>(p), isa)
                                                   : workspace_for(args_of<float>(p), isa);
  return need <= kMaxElements;
}

void run(const GemmProblem& p, Isa isa) {
  if (p.ab_type == DataType::kF64) {
    run_typed<double>(p, isa);
  } else {
    run_typed<float>(p, isa);
  }
}

}  // namespace tileblas::gemm_host_small
