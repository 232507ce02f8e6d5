// gemm_host_small's AVX2 variants (contract: kernels/gemm_host_small.h): per step of k, two ymm
// registers of A and six broadcasts of B, 12 accumulators: fp32 tiles of 16x6, fp64 of 8x6.
// Compiled with AVX2 and FMA.
#include "gemm_host_small_impl.h"

namespace tileblas::gemm_host_small {

constexpr int kAvx2Vecs = 2, kAvx2Nr = 6;
static_assert(kAvx2Vecs * kAvx2Nr + kAvx2Vecs + 1 <= 16,
              "the accumulators, the A vectors and a broadcast fit the 16 vector registers");
template <class T>
constexpr int kAvx2Lanes = 32 / int(sizeof(T));

int64_t avx2_workspace_elements(const Args<float>& g) {
  return workspace_elements<kAvx2Lanes<float> * kAvx2Vecs>(g);
}
int64_t avx2_workspace_elements(const Args<double>& g) {
  return workspace_elements<kAvx2Lanes<double> * kAvx2Vecs>(g);
}

void gemm_avx2(const Args<float>& g, float* work) {
  gemm<kAvx2Lanes<float>, kAvx2Vecs, kAvx2Nr>(g, work);
}
void gemm_avx2(const Args<double>& g, double* work) {
  gemm<kAvx2Lanes<double>, kAvx2Vecs, kAvx2Nr>(g, work);
}

}  // namespace tileblas::gemm_host_small
