// gemm_host_small's AVX-512 variants (contract: kernels/gemm_host_small.h): per step of k, two zmm
// registers of A and eight broadcasts of B, 16 accumulators: fp32 tiles of 32x8, fp64 of 16x8.
// Compiled with AVX-512F.
#include "gemm_host_small_impl.h"

namespace tileblas::gemm_host_small {

constexpr int kAvx512Vecs = 2, kAvx512Nr = 8;
static_assert(kAvx512Vecs * kAvx512Nr + kAvx512Vecs + 1 <= 32,
              "the accumulators, the A vectors and a broadcast fit the 32 vector registers");
template <class T>
constexpr int kAvx512Lanes = 64 / int(sizeof(T));

int64_t avx512_workspace_elements(const Args<float>& g) {
  return workspace_elements<kAvx512Lanes<float> * kAvx512Vecs>(g);
}
int64_t avx512_workspace_elements(const Args<double>& g) {
  return workspace_elements<kAvx512Lanes<double> * kAvx512Vecs>(g);
}

void gemm_avx512(const Args<float>& g, float* work) {
  gemm<kAvx512Lanes<float>, kAvx512Vecs, kAvx512Nr>(g, work);
}
void gemm_avx512(const Args<double>& g, double* work) {
  gemm<kAvx512Lanes<double>, kAvx512Vecs, kAvx512Nr>(g, work);
}

}  // namespace tileblas::gemm_host_small
