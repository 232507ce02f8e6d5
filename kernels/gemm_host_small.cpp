// gemm_host_small: which variant this CPU runs, and the calling thread's workspace
// (contract: kernels/gemm_host_small.h; the variants: kernels/gemm_host_small_<isa>.cpp).
#include "gemm_host_small.h"

#include <vector>

#include "gemm_host_small_impl.h"

namespace tileblas::gemm_host_small {

// Defined in the files compiled for their instruction set.
int64_t avx512_workspace_floats(const Args& g);
void sgemm_avx512(const Args& g, float* work);
int64_t avx2_workspace_floats(const Args& g);
void sgemm_avx2(const Args& g, float* work);

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

Args args_of(const GemmProblem& p) {
  Args g;
  g.trans_a = p.trans_a == Op::kTrans;
  g.trans_b = p.trans_b == Op::kTrans;
  g.m = p.m, g.n = p.n, g.k = p.k;
  g.alpha = float(p.alpha.re), g.beta = float(p.beta.re);
  g.a = static_cast<const float*>(p.a), g.lda = p.lda;
  g.b = static_cast<const float*>(p.b), g.ldb = p.ldb;
  g.c = static_cast<float*>(p.c), g.ldc = p.ldc;
  return g;
}

int64_t workspace_for(const Args& g, Isa isa) {
  return isa == Isa::kAvx512 ? avx512_workspace_floats(g) : avx2_workspace_floats(g);
}

}  // namespace

Isa best_isa() {
  return cpu_has(Isa::kAvx512) ? Isa::kAvx512 : cpu_has(Isa::kAvx2) ? Isa::kAvx2 : Isa::kNone;
}

const char* name_of(Isa isa) {
  switch (isa) {
    case Isa::kAvx512:
      return "gemm_host_small_avx512_32x8";
    case Isa::kAvx2:
      return "gemm_host_small_avx2_16x6";
    case Isa::kNone:
      break;
  }
  return "none";
}

bool supports(const GemmProblem& p, Isa isa) {
  if (!cpu_has(isa) || p.ab_type != DataType::kF32 || p.c_type != DataType::kF32) return false;
  if (p.m < 1 || p.n < 1 || p.k < 1) return false;
  // m and n bound the workspace with k; the bound on each keeps the product from overflowing.
  if (p.m > kMaxElements || p.n > kMaxElements || p.k > kMaxElements) return false;
  return workspace_for(args_of(p), isa) <= kMaxElements;
}

void run(const GemmProblem& p, Isa isa) {
  const Args g = args_of(p);
  if (g.alpha == 0.0f) {  // netlib: A and B are not read
    for (int64_t j = 0; j < g.n; ++j) {
      float* c = g.c + j * g.ldc;
      for (int64_t i = 0; i < g.m; ++i) c[i] = g.beta != 0.0f ? g.beta * c[i] : 0.0f;
    }
    return;
  }
  // 64-byte aligned, grown as needed, kept for the thread's next call.
  constexpr int64_t kAlignFloats = 16;
  thread_local std::vector<float> workspace;
  const size_t need = size_t(workspace_for(g, isa) + kAlignFloats);
  if (workspace.size() < need) workspace.resize(need);
  float* work = workspace.data();
  work += (kAlignFloats - (reinterpret_cast<uintptr_t>(work) / sizeof(float)) % kAlignFloats) %
          kAlignFloats;
  if (isa == Isa::kAvx512) {
    sgemm_avx512(g, work);
  } else {
    sgemm_avx2(g, work);
  }
}

}  // namespace tileblas::gemm_host_small
