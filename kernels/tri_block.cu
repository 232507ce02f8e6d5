// tri_block (contract in tri_block.h).
#include "tri_block.h"

#include <algorithm>
#include <climits>

#include "level3_elements.cuh"

namespace tileblas::tri_block {
namespace {

using namespace level3_elements;

constexpr int kThreads = 64;

// The compile-time order per element type: NB elements of x per thread in registers (64 fp32,
// 32 of the 8-byte and 16-byte types: 64 to 128 registers of x).
template <class T>
constexpr int kOrder = sizeof(T) <= 4 ? 64 : 32;

// 16 bytes of consecutive elements (16-byte aligned), read from shared memory as one vector
// access: written as PTX, since NVVM splits a vector load whose parts are used separately into
// scalar loads (4x the shared-memory instructions of the sweep).
__device__ __forceinline__ float4 load_shared_f4(const void* p) {
  float4 q;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w)
               : "r"(unsigned(__cvta_generic_to_shared(p))));
  return q;
}
__device__ __forceinline__ double2 load_shared_d2(const void* p) {
  double2 q;
  asm volatile("ld.shared.v2.f64 {%0, %1}, [%2];"
               : "=d"(q.x), "=d"(q.y)
               : "r"(unsigned(__cvta_generic_to_shared(p))));
  return q;
}
template <class T>
struct Chunk;
template <>
struct Chunk<float> {
  static constexpr int kCount = 4;
  float v[4];
  __device__ __forceinline__ explicit Chunk(const float* p) {
    const float4 q = load_shared_f4(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  }
};
template <>
struct Chunk<double> {
  static constexpr int kCount = 2;
  double v[2];
  __device__ __forceinline__ explicit Chunk(const double* p) {
    const double2 q = load_shared_d2(p);
    v[0] = q.x, v[1] = q.y;
  }
};
template <>
struct Chunk<Complex<float>> {
  static constexpr int kCount = 2;
  Complex<float> v[2];
  __device__ __forceinline__ explicit Chunk(const Complex<float>* p) {
    const float4 q = load_shared_f4(p);
    v[0] = {q.x, q.y}, v[1] = {q.z, q.w};
  }
};
template <>
struct Chunk<Complex<double>> {
  static constexpr int kCount = 1;
  Complex<double> v[1];
  __device__ __forceinline__ explicit Chunk(const Complex<double>* p) {
    const double2 q = load_shared_d2(p);
    v[0] = {q.x, q.y};
  }
};

struct Args {
  bool solve;
  bool left;
  bool m_trans, m_conj;  // M = op(A) (side L) or op(A)^T (side R) as A (transposed) (conjugated)
  bool reversed;         // M upper: held index-reversed as a lower triangle
  bool unit;
  int order;
  int64_t count;
  double alpha_re, alpha_im;
  const void* a;
  int64_t lda;
  void* b;
  int64_t ldb;
};

template <class T, int NB, bool kSolve>
__global__ void __launch_bounds__(kThreads) tri_block_kernel(Args a) {
  static_assert(NB * sizeof(T) % 16 == 0, "columns of m start 16-byte aligned");
  __shared__ __align__(16) T m[NB][NB];  // m[j][i] = M'(i, j), lower; diagonal as in the header
  const T* src = static_cast<const T*>(a.a);
  // Each thread moves kLoads elements of M'. All its global loads are issued before the first
  // shared store (a loop of load, store, load, ... waits a memory latency per element: ~25 us a
  // launch at NB = 64, measured on the H200).
  static_assert(NB * NB % kThreads == 0, "every thread moves the same number of elements of M'");
  constexpr int kLoads = NB * NB / kThreads;
  T v[kLoads];
#pragma unroll
  for (int s = 0; s < kLoads; ++s) {
    const int idx = int(threadIdx.x) + s * kThreads;
    const int j = idx / NB, i = idx % NB;
    v[s] = i == j ? one<T>() : zero<T>();
    if (i >= j && i < a.order) {
      const int64_t ri = a.reversed ? a.order - 1 - i : i;
      const int64_t rj = a.reversed ? a.order - 1 - j : j;
      if (i != j) {
        v[s] = a.m_trans ? src[rj + ri * a.lda] : src[ri + rj * a.lda];
      } else if (!a.unit) {
        v[s] = src[ri + ri * a.lda];
      }
    }
  }
#pragma unroll
  for (int s = 0; s < kLoads; ++s) {
    const int idx = int(threadIdx.x) + s * kThreads;
    const int j = idx / NB, i = idx % NB;
    const bool loaded = i >= j && i < a.order && !(i == j && a.unit);  // as in the loop above
    T x = v[s];
    if (loaded && a.m_conj) x = conj(x);
    if constexpr (kSolve) {
      if (loaded && i == j) x = reciprocal(x);
    }
    m[j][i] = x;
  }
  __syncthreads();
  const int64_t vec = int64_t(blockIdx.x) * kThreads + threadIdx.x;
  if (vec >= a.count) return;
  T* b = static_cast<T*>(a.b);
  // Element r of this thread's vector.
  auto element = [&](int64_t r) -> T& { return a.left ? b[r + vec * a.ldb] : b[vec + r * a.ldb]; };
  const T alpha = make<T>(a.alpha_re, a.alpha_im);
  T x[NB];
#pragma unroll
  for (int i = 0; i < NB; ++i) {
    x[i] = zero<T>();
    if (i < a.order) x[i] = mul(alpha, element(a.reversed ? a.order - 1 - i : i));
  }
  // Column j of M' below the diagonal, read in 16-byte chunks (kChunk elements; chunks and elements
  // at or above the diagonal are skipped at compile time: constant trip counts, so that every loop
  // unrolls fully and x stays in registers).
  constexpr int kChunk = Chunk<T>::kCount;
  if constexpr (kSolve) {
#pragma unroll
    for (int j = 0; j < NB; ++j) {
      x[j] = mul(x[j], m[j][j]);
#pragma unroll
      for (int g = 0; g < NB; g += kChunk) {
        if (g + kChunk - 1 <= j) continue;
        const Chunk<T> c(&m[j][g]);
#pragma unroll
        for (int w = 0; w < kChunk; ++w) {
          if (g + w > j) x[g + w] = mul_sub(c.v[w], x[j], x[g + w]);
        }
      }
    }
  } else {
#pragma unroll
    for (int jj = 0; jj < NB; ++jj) {
      const int j = NB - 1 - jj;
#pragma unroll
      for (int g = 0; g < NB; g += kChunk) {
        if (g + kChunk - 1 <= j) continue;
        const Chunk<T> c(&m[j][g]);
#pragma unroll
        for (int w = 0; w < kChunk; ++w) {
          if (g + w > j) x[g + w] = mul_add(c.v[w], x[j], x[g + w]);
        }
      }
      x[j] = mul(x[j], m[j][j]);
    }
  }
#pragma unroll
  for (int i = 0; i < NB; ++i) {
    if (i < a.order) element(a.reversed ? a.order - 1 - i : i) = x[i];
  }
}

template <class T>
cudaError_t launch_typed(const Args& a, cudaStream_t stream) {
  constexpr int nb = kOrder<T>;
  const dim3 grid(unsigned((a.count + kThreads - 1) / kThreads));
  if (a.solve) {
    tri_block_kernel<T, nb, true><<<grid, kThreads, 0, stream>>>(a);
  } else {
    tri_block_kernel<T, nb, false><<<grid, kThreads, 0, stream>>>(a);
  }
  return cudaGetLastError();
}

}  // namespace

int64_t max_order(DataType type) {
  switch (type) {
    case DataType::kF32:
      return kOrder<float>;
    case DataType::kF64:
      return kOrder<double>;
    case DataType::kC32:
      return kOrder<Complex<float>>;
    case DataType::kC64:
      return kOrder<Complex<double>>;
    default:
      return 0;
  }
}

bool supports(const TriBlockProblem& p, const DeviceCaps&) {
  const int64_t nb = max_order(p.type);
  if (nb == 0 || p.order < 0 || p.order > nb || p.count < 0) return false;
  if (p.trans == Op::kConjTrans && !is_complex(p.type)) return false;
  if (p.order == 0 || p.count == 0) return true;
  if (!p.a || !p.b || p.lda < p.order || p.ldb < std::max<int64_t>(1, p.b_rows())) return false;
  return (p.count + kThreads - 1) / kThreads <= INT32_MAX;
}

cudaError_t launch(const TriBlockProblem& p, cudaStream_t stream) {
  if (p.order == 0 || p.count == 0) return cudaSuccess;
  Args a;
  a.solve = p.op == TriBlockOp::kSolve;
  a.left = p.side == Side::kLeft;
  // M = op(A) (L) or op(A)^T (R): as stored A transposed when exactly one transpose applies.
  a.m_trans = (p.trans != Op::kNoTrans) == a.left;
  a.m_conj = p.trans == Op::kConjTrans;
  const bool m_lower = (p.uplo == Uplo::kLower) != a.m_trans;
  a.reversed = !m_lower;
  a.unit = p.diag == Diag::kUnit;
  a.order = int(p.order);
  a.count = p.count;
  a.alpha_re = p.alpha.re, a.alpha_im = p.alpha.im;
  a.a = p.a, a.lda = p.lda;
  a.b = p.b, a.ldb = p.ldb;
  return with_element(p.type,
                      [&](auto element) { return launch_typed<decltype(element)>(a, stream); });
}

}  // namespace tileblas::tri_block
