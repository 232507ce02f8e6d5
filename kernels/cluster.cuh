// PTX wrappers for thread-block clusters (sm_90): the cluster barrier, a block's rank in its
// cluster, and reads of another block's shared memory (distributed shared memory). Device code
// only. Targets before sm_90 have no clusters: there these trap, and the host launches no cluster
// on such a device.
#pragma once

#include <cstdint>

namespace tileblas::ptx {

// Every thread of every block of the cluster arrives, then waits for all of them: the arrival
// releases this block's shared-memory writes, the wait acquires the other blocks'.
__device__ __forceinline__ void cluster_sync() {
#if __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
#else
  __trap();
#endif
}
// This block's rank in its cluster.
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t rank = 0;
#if __CUDA_ARCH__ >= 900
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
#else
  __trap();
#endif
  return rank;
}
// The address in the cluster's shared window of `address` (this block's shared memory) in the
// block of cluster rank `rank`.
__device__ __forceinline__ uint32_t cluster_address(uint32_t address, uint32_t rank) {
  uint32_t out = 0;
#if __CUDA_ARCH__ >= 900
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(address), "r"(rank));
#else
  __trap();
#endif
  return out;
}
__device__ __forceinline__ float load_cluster_f32(uint32_t address) {
  float v = 0.0f;
#if __CUDA_ARCH__ >= 900
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(address) : "memory");
#else
  __trap();
#endif
  return v;
}

// Split-K summed in a cluster: the same shared-memory tile in each of the first `blocks` blocks
// of the cluster (at most kMax), one per k slice, in rank (slice) order.
template <int kMax>
struct ClusterTiles {
  uint32_t at[kMax];
  int blocks;

  __device__ __forceinline__ ClusterTiles(uint32_t tile, int blocks_) : blocks(blocks_) {
#pragma unroll
    for (int s = 0; s < kMax; ++s) at[s] = s < blocks ? cluster_address(tile, uint32_t(s)) : 0;
  }
  // The fp32 element `byte_offset` bytes into the tiles, summed in slice order from zero; the
  // loads are all issued before the adds.
  __device__ __forceinline__ float sum(uint32_t byte_offset) const {
    float part[kMax];
#pragma unroll
    for (int s = 0; s < kMax; ++s)
      part[s] = s < blocks ? load_cluster_f32(at[s] + byte_offset) : 0.0f;
    float x = 0.0f;
#pragma unroll
    for (int s = 0; s < kMax; ++s) x += part[s];
    return x;
  }
};

}  // namespace tileblas::ptx
