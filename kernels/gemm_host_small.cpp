// gemm_host_small: which variant this CPU runs, and the calling thread's workspace
// (contract: kernels/gemm_host_small.h; the variants: kernels/gemm_host_small_<isa>.cpp).
#include "gemm_host_small.h"

#include <complex>
#include <cstring>
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
Args<T> args_of(const Problem& p) {
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

// The calling thread's workspace, 64-byte aligned, grown as needed and kept for its next call.
template <class T>
T* workspace(size_t elements) {
  constexpr size_t kAlign = 64;
  thread_local std::vector<unsigned char> bytes;
  const size_t need = elements * sizeof(T) + kAlign;
  if (bytes.size() < need) bytes.resize(need);
  const uintptr_t at = reinterpret_cast<uintptr_t>(bytes.data());
  return reinterpret_cast<T*>((at + kAlign - 1) / kAlign * kAlign);
}

template <class T>
void run_kernel(const Args<T>& g, Isa isa, T* work) {
  if (isa == Isa::kAvx512) {
    gemm_avx512(g, work);
  } else {
    gemm_avx2(g, work);
  }
}

template <class T>
void run_real(const Problem& p, Isa isa) {
  const Args<T> g = args_of<T>(p);
  if (g.alpha == T(0)) {  // netlib: A and B are not read
    for (int64_t j = 0; j < g.n; ++j) {
      T* c = g.c + j * g.ldc;
      for (int64_t i = 0; i < g.m; ++i) c[i] = g.beta != T(0) ? g.beta * c[i] : T(0);
    }
    return;
  }
  run_kernel(g, isa, workspace<T>(size_t(workspace_for(g, isa))));
}

// Complex data as one real problem (the "1m" method): with op(A) = Ar + i Ai (m x k) and op(B) =
// Br + i Bi (k x n), the real 2m x 2k matrix A' whose column 2l holds op(A)(:, l) as interleaved
// (re, im) pairs and column 2l + 1 the pairs (-im, re), i times it, times the real 2k x n matrix
// B' whose rows 2l and 2l + 1 are Br(l, :) and Bi(l, :), is op(A) op(B) with its real and
// imaginary parts interleaved down each column: C's own storage seen as a real 2m x n matrix with
// leading dimension 2 ldc. The kernel forms A''s odd columns in registers from its even ones
// (Args::pairs), which are A's own storage (leading dimension 2 lda) when A is not transposed, and
// B' is B's own storage (leading dimension 2 ldb) when B is not: only a transposed operand is
// packed, conjugated where asked. The kernel applies alpha to the product and beta to C.
struct Packed1m {
  int64_t a_elems, b_elems;  // op(A)'s pairs and B', in reals; 0 where read in place
};
Packed1m packed_1m(const Problem& p) {
  return {p.trans_a == Op::kNoTrans ? 0 : 2 * p.m * p.k,
          p.trans_b == Op::kNoTrans ? 0 : 2 * p.k * p.n};
}

// a, b: op(A)'s pairs (leading dimension 2m) and B' (leading dimension 2k) packed, or nullptr
// where read in place.
template <class R>
Args<R> real_problem_1m(const Problem& p, const R* a, const R* b) {
  Args<R> g;
  g.pairs = true;
  g.m = 2 * p.m, g.n = p.n, g.k = 2 * p.k;
  g.alpha = R(p.alpha.re), g.alpha_im = R(p.alpha.im);
  g.beta = R(p.beta.re), g.beta_im = R(p.beta.im);
  if (a) {
    g.a = a, g.lda = 2 * p.m;
  } else {
    g.a = static_cast<const R*>(p.a), g.lda = 2 * p.lda;
  }
  if (b) {
    g.b = b, g.ldb = 2 * p.k;
  } else {
    g.b = static_cast<const R*>(p.b), g.ldb = 2 * p.ldb;
  }
  g.c = static_cast<R*>(p.c), g.ldc = 2 * p.ldc;
  return g;
}

template <class R>
int64_t workspace_1m(const Problem& p, Isa isa) {
  const Packed1m s = packed_1m(p);
  return s.a_elems + s.b_elems + workspace_for(real_problem_1m<R>(p, nullptr, nullptr), isa);
}

// op(X) = X^T or X^H (op) of X stored as rows x cols, as (re, im) pairs: out's column l (leading
// dimension 2 cols) is X's row l, conjugated for kConjTrans. out's columns are written in order,
// and kTrans moves each element whole (one load and one store of its pair). On the CI host an 8^3
// GEMM with op(B) = B^T takes 64 ns in complex fp32 (87 in complex double), with B^H 68 (95),
// against 78 (91) and 78 (102) with each pair written as two reals down out's rows, the imaginary
// part times a sign, and 45 (72) with B in place; at 256^3 (B^T, complex fp32) 0.79 against 1.06
// ms.
template <class R>
void pack_transposed_pairs(const std::complex<R>* x, int64_t ldx, int64_t rows, int64_t cols, Op op,
                           R* out) {
  for (int64_t l = 0; l < rows; ++l) {
    R* column = out + l * 2 * cols;
    if (op == Op::kConjTrans) {
      for (int64_t i = 0; i < cols; ++i) {
        const std::complex<R> v = x[l + i * ldx];
        column[2 * i] = v.real(), column[2 * i + 1] = -v.imag();
      }
    } else {
      for (int64_t i = 0; i < cols; ++i) {
        std::memcpy(column + 2 * i, x + l + i * ldx, sizeof(std::complex<R>));
      }
    }
  }
}

template <class R>
void run_complex(const Problem& p, Isa isa) {
  using C = std::complex<R>;
  if (p.alpha.is_zero()) {  // C = beta C (netlib: A and B are not read)
    const C beta(R(p.beta.re), R(p.beta.im));
    C* c = static_cast<C*>(p.c);
    const bool beta_zero = p.beta.is_zero();
    for (int64_t j = 0; j < p.n; ++j) {
      for (int64_t i = 0; i < p.m; ++i) {
        C& x = c[i + j * p.ldc];
        x = beta_zero ? C(0) : beta * x;
      }
    }
    return;
  }
  const Packed1m s = packed_1m(p);
  R* work = workspace<R>(size_t(workspace_1m<R>(p, isa)));
  R* a_pairs = s.a_elems > 0 ? work : nullptr;
  R* b1m = s.b_elems > 0 ? work + s.a_elems : nullptr;
  // op(A) = A^T or A^H: its m rows are A's columns (k x m as stored).
  if (a_pairs)
    pack_transposed_pairs(static_cast<const C*>(p.a), p.lda, p.k, p.m, p.trans_a, a_pairs);
  // op(B) = B^T or B^H: B' (2k x n) column j is B's row j (n x k as stored).
  if (b1m) pack_transposed_pairs(static_cast<const C*>(p.b), p.ldb, p.n, p.k, p.trans_b, b1m);
  run_kernel(real_problem_1m<R>(p, a_pairs, b1m), isa, work + s.a_elems + s.b_elems);
}

bool is_host_type(const Problem& p) {
  return p.c_type == p.type && size_of(p.type) >= 4;  // f32, f64, c32, c64
}

// Elements of workspace p needs (of its real type).
int64_t workspace_of(const Problem& p, Isa isa) {
  switch (p.type) {
    case DataType::kF64:
      return workspace_for(args_of<double>(p), isa);
    case DataType::kC32:
      return workspace_1m<float>(p, isa);
    case DataType::kC64:
      return workspace_1m<double>(p, isa);
    default:
      return workspace_for(args_of<float>(p), isa);
  }
}

}  // namespace

Isa best_isa() {
  static const Isa best = cpu_has(Isa::kAvx512) ? Isa::kAvx512
                          : cpu_has(Isa::kAvx2) ? Isa::kAvx2
                                                : Isa::kNone;
  return best;
}

const char* name_of(Isa isa, DataType type) {
  const bool avx512 = isa == Isa::kAvx512;
  if (isa == Isa::kNone) return "none";
  switch (type) {
    case DataType::kF64:
      return avx512 ? "gemm_host_small_avx512_f64_16x8" : "gemm_host_small_avx2_f64_8x6";
    case DataType::kC32:
      return avx512 ? "gemm_host_small_avx512_c32_1m_32x8" : "gemm_host_small_avx2_c32_1m_16x6";
    case DataType::kC64:
      return avx512 ? "gemm_host_small_avx512_c64_1m_16x8" : "gemm_host_small_avx2_c64_1m_8x6";
    default:
      return avx512 ? "gemm_host_small_avx512_f32_32x8" : "gemm_host_small_avx2_f32_16x6";
  }
}

bool supports(const Problem& p, Isa isa) {
  if (!cpu_has(isa) || !is_host_type(p) || p.c_triangle != Triangle::kAll) return false;
  if (p.m < 1 || p.n < 1 || p.k < 1) return false;
  // m and n bound the workspace with k; the bound on each keeps the product from overflowing.
  // Up to 512 in every dimension the workspace fits without computing it: at most 2mk + 2kn reals
  // for complex op(A) and B' and (2m + 32) k + 8 (2k) for the real kernel's packing, 1.6 M of 4 M.
  if (p.m <= 512 && p.n <= 512 && p.k <= 512) return true;
  if (p.m > kMaxElements || p.n > kMaxElements || p.k > kMaxElements) return false;
  return workspace_of(p, isa) <= kMaxElements;
}

void run(const Problem& p, Isa isa) {
  switch (p.type) {
    case DataType::kF64:
      return run_real<double>(p, isa);
    case DataType::kC32:
      return run_complex<float>(p, isa);
    case DataType::kC64:
      return run_complex<double>(p, isa);
    default:
      return run_real<float>(p, isa);
  }
}

}  // namespace tileblas::gemm_host_small
