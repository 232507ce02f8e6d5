// gemm_host_small's AVX2 variant (contract: kernels/gemm_host_small.h): 16x6 tiles, two ymm
// registers of A and six broadcasts of B per step of k, 12 accumulators. Compiled with AVX2 and
// FMA.
#include "gemm_host_small_impl.h"

namespace tileblas::gemm_host_small {

constexpr int kAvx2Lanes = 8, kAvx2Vecs = 2, kAvx2Nr = 6;
static_assert(kAvx2Vecs * kAvx2Nr + kAvx2Vecs + 1 <= 16,
              "the accumulators, the A vectors and a broadcast fit the 16 vector registers");

int64_t avx2_workspace_floats(const Args& g) {
  return workspace_floats<kAvx2Lanes * kAvx2Vecs, kAvx2Nr>(g);
}

void sgemm_avx2(const Args& g, float* work) { sgemm<kAvx2Lanes, kAvx2Vecs, kAvx2Nr>(g, work); }

}  // namespace tileblas::gemm_host_small
