// gemm_host_small's AVX-512 variant (contract: kernels/gemm_host_small.h): 32x8 tiles, two zmm
// registers of A and eight broadcasts of B per step of k, 16 accumulators. Compiled with AVX-512F.
#include "gemm_host_small_impl.h"

namespace tileblas::gemm_host_small {

constexpr int kAvx512Lanes = 16, kAvx512Vecs = 2, kAvx512Nr = 8;
static_assert(kAvx512Vecs * kAvx512Nr + kAvx512Vecs + 1 <= 32,
              "the accumulators, the A vectors and a broadcast fit the 32 vector registers");

int64_t avx512_workspace_floats(const Args& g) {
  return workspace_floats<kAvx512Lanes * kAvx512Vecs, kAvx512Nr>(g);
}

void sgemm_avx512(const Args& g, float* work) {
  sgemm<kAvx512Lanes, kAvx512Vecs, kAvx512Nr>(g, work);
}

}  // namespace tileblas::gemm_host_small
