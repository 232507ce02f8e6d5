// byte_shift: a 16-byte window at any byte offset of two consecutive aligned 16-byte blocks, for
// kernels that read misaligned data as the aligned blocks that cover it. Device code only.
#pragma once

#include <cstdint>

namespace tileblas::ptx {

// Bytes [shift, shift + 16) of the 32 bytes lo followed by hi (little-endian), shift in 0..15.
// Branch-free (whole words selected, then a funnel shift), so lanes with different shifts do not
// diverge and the words stay in registers.
__device__ __forceinline__ uint4 bytes_at(uint4 lo, uint4 hi, int shift) {
  const uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  uint32_t x[6], y[5];
#pragma unroll
  for (int i = 0; i < 6; ++i) x[i] = (shift & 8) ? w[i + 2] : w[i];
#pragma unroll
  for (int i = 0; i < 5; ++i) y[i] = (shift & 4) ? x[i + 1] : x[i];
  const int bits = 8 * (shift & 3);
  return make_uint4(__funnelshift_r(y[0], y[1], bits), __funnelshift_r(y[1], y[2], bits),
                    __funnelshift_r(y[2], y[3], bits), __funnelshift_r(y[3], y[4], bits));
}

}  // namespace tileblas::ptx
