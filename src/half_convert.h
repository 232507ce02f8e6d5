// Host conversions between fp32 and the 16-bit formats tileblas stores (IEEE binary16 "half",
// bfloat16), bit-exact with the hardware's round-to-nearest-even conversions (cvt.rn): used by
// compat/ (MKL's fp16 alpha/beta), the CPU path (upcast, CPU sgemm, round) and the tests.
// Header-only, no CUDA types, so host code anywhere can include it.
#pragma once

#include <cstdint>
#include <cstring>

namespace tileblas {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Exact: every binary16 value is a float.
inline float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return bits_float(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
  if (exponent != 0) return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  // Zero or subnormal: mantissa * 2^-24, exact in float.
  const float magnitude = float(mantissa) * bits_float(0x33800000u);  // 2^-24
  return sign ? -magnitude : magnitude;
}

// Round to nearest, ties to even; overflow gives inf, NaN stays NaN (quiet).
inline uint16_t float_to_half(float f) {
  const uint32_t u = float_bits(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
  const uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return uint16_t(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));  // NaN
  if (abs >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // >= 65520 rounds to inf
  if (abs >= 0x38800000u) {                                 // normal half (>= 2^-14)
    // Rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits to nearest even;
    // a carry out of the mantissa correctly bumps the exponent.
    const uint32_t rebiased = abs - (112u << 23);
    const uint32_t lsb = (rebiased >> 13) & 1u;
    return uint16_t(sign | ((rebiased + 0xfffu + lsb) >> 13));
  }
  // Subnormal half or zero: value / 2^-24 rounded to an integer (ties to even). Adding 0.5 (2^-1)
  // in float arithmetic does exactly that rounding because the result lands in [0.5, 1).
  const float scaled = bits_float(abs) * bits_float(0x4b800000u);  // * 2^24, exact
  const uint32_t rounded = float_bits(scaled + bits_float(0x4b000000u)) - 0x4b000000u;  // + 2^23
  return uint16_t(sign | rounded);
}

// Exact: bfloat16 is the upper half of a float.
inline float bf16_to_float(uint16_t b) { return bits_float(uint32_t(b) << 16); }

// Round to nearest, ties to even; NaN stays NaN (quiet).
inline uint16_t float_to_bf16(float f) {
  const uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x0040u);
  const uint32_t lsb = (u >> 16) & 1u;
  return uint16_t((u + 0x7fffu + lsb) >> 16);
}

}  // namespace tileblas
