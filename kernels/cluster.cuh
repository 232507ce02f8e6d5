// PTX wrappers for thread-block clusters (sm_90): the cluster barrier, a block's rank in its
// cluster, and reads of another block's shared memory (distributed shared memory). Device code
// only. Targets before sm_90 have no clusters: there these trap, and the host launches no cluster
// on such a device.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

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

__device__ __forceinline__ double2 load_cluster_f64x2(uint32_t address) {
  double2 v{0.0, 0.0};
#if __CUDA_ARCH__ >= 900
  asm volatile("ld.shared::cluster.v2.f64 {%0, %1}, [%2];"
               : "=d"(v.x), "=d"(v.y)
               : "r"(address)
               : "memory");
#else
  __trap();
#endif
  return v;
}
// An element of another block's shared memory: an fp32, or a 16-byte (re, im) fp64 pair.
template <class V>
__device__ __forceinline__ V load_cluster(uint32_t address) {
  if constexpr (std::is_same_v<V, double2>) {
    return load_cluster_f64x2(address);
  } else {
    static_assert(std::is_same_v<V, float>, "fp32 or an fp64 pair");
    return load_cluster_f32(address);
  }
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
  // The element `byte_offset` bytes into the tiles (an fp32, or an fp64 pair summed part by
  // part), summed in slice order from zero; the loads are all issued before the adds.
  template <class V = float>
  __device__ __forceinline__ V sum(uint32_t byte_offset) const {
    V part[kMax];
#pragma unroll
    for (int s = 0; s < kMax; ++s)
      part[s] = s < blocks ? load_cluster<V>(at[s] + byte_offset) : V{};
    V x{};
#pragma unroll
    for (int s = 0; s < kMax; ++s) {
      if constexpr (std::is_same_v<V, double2>) {
        x.x += part[s].x;
        x.y += part[s].y;
      } else {
        x += part[s];
      }
    }
    return x;
  }
};

}  // namespace tileblas::ptx
