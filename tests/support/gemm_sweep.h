// The GEMM shape sweep: one list of shapes and element types, read by the bench
// (bench/bench_sweep.cpp: the routed call against cuBLAS on the same device buffers) and by the
// kernel-tier tests (tests/kernels/test_gemm_sweep.cpp: the routed result against OpenBLAS), so
// that what is timed is what is checked.
//
// Adding an element type: one row in sweep_types(). Every DataType already has its elements here,
// its cuBLAS yardstick in bench/bench_sweep.cpp and its OpenBLAS reference (dgemm_ or zgemm_) in
// the test. Shapes are type-independent: every type runs every shape.
//
// Plain C++ (no CUDA, no GoogleTest), header-only.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "half_convert.h"
#include "problem.h"

namespace tbsweep {

using tileblas::DataType;
using tileblas::Op;

// One element type of the sweep: A and B of type `ab`, C of type `c`, called as `routine` (the
// name a program's call has; it only labels tileblas's verbose line).
struct SweepType {
  const char* name;  // in bench and test names: sweep/<name>/...
  DataType ab, c;
  const char* routine;
};

inline const std::vector<SweepType>& sweep_types() {
  static const std::vector<SweepType> types = {
      {"f32", DataType::kF32, DataType::kF32, "sgemm"},
      {"f16f32", DataType::kF16, DataType::kF32, "gemm_f16f16f32"},
      {"bf16f32", DataType::kBF16, DataType::kF32, "gemm_bf16bf16f32"},
      {"f64", DataType::kF64, DataType::kF64, "dgemm"},
      {"c32", DataType::kC32, DataType::kC32, "cgemm"},
      {"c64", DataType::kC64, DataType::kC64, "zgemm"},
  };
  return types;
}

// One shape: C (m x n) = op(A) (m x k) * op(B) (k x n), column-major with the smallest leading
// dimensions (lda = rows of A as stored, ...), as a program passing whole arrays calls it: odd
// sizes therefore give leading dimensions that are not a multiple of 16 bytes.
struct SweepShape {
  const char* cls;  // the shape class, in bench names: sweep/<type>/<cls>/<m>x<n>x<k>/<ops>
  int64_t m, n, k;
  Op ta, tb;

  int64_t a_rows() const { return ta == Op::kNoTrans ? m : k; }
  int64_t a_cols() const { return ta == Op::kNoTrans ? k : m; }
  int64_t b_rows() const { return tb == Op::kNoTrans ? k : n; }
  int64_t b_cols() const { return tb == Op::kNoTrans ? n : k; }
  int64_t largest() const { return m > n ? (m > k ? m : k) : (n > k ? n : k); }
  std::string name() const {
    return std::string(cls) + "/" + std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k) + "/" + tileblas::name_of(ta) + tileblas::name_of(tb);
  }
};

// The classes (each a few shapes, so that one run of the whole sweep stays within minutes):
//   square  powers of two 256..8192, NN
//   odd     2^k - 1 and 2^k + 1 from 255 to 8191, and primes (251, 1009; 3001x2999x1531, where
//           the issue saw fp32 TT at 0.80), NN: leading dimensions not a multiple of 16 bytes
//   trans   TN, NT, TT on a subset of the square and odd sizes (their NN is in the lists above)
//   panel   LAPACK's trailing updates: m = n large, k = 32..256 (getrf: NN; potrf, syrk-like: NT)
//   tall    m large, n small (a blocked factorisation's panel times the rest, a few right-hand
//           sides): n = 8..256
//   skinny  small m and n with long k, or small m with large n
inline const std::vector<SweepShape>& sweep_shapes() {
  static const std::vector<SweepShape> shapes = [] {
    constexpr Op N = Op::kNoTrans, T = Op::kTrans;
    std::vector<SweepShape> s;
    for (int64_t n : {256, 512, 1024, 2048, 4096, 8192}) s.push_back({"square", n, n, n, N, N});
    for (int64_t n : {255, 257, 511, 513, 1023, 1025, 2047, 2049, 4095, 4097, 8191})
      s.push_back({"odd", n, n, n, N, N});
    s.push_back({"odd", 251, 251, 251, N, N});
    s.push_back({"odd", 1009, 1009, 1009, N, N});
    s.push_back({"odd", 3001, 2999, 1531, N, N});
    const int64_t trans_sizes[][3] = {{257, 257, 257},
                                      {1024, 1024, 1024},
                                      {4096, 4096, 4096},
                                      {4097, 4097, 4097},
                                      {3001, 2999, 1531}};
    for (const auto& d : trans_sizes) {
      s.push_back({"trans", d[0], d[1], d[2], T, N});
      s.push_back({"trans", d[0], d[1], d[2], N, T});
      s.push_back({"trans", d[0], d[1], d[2], T, T});
    }
    for (int64_t n : {4096, 8192})
      for (int64_t k : {32, 64, 128, 256}) s.push_back({"panel", n, n, k, N, N});
    s.push_back({"panel", 4097, 4097, 64, N, N});
    s.push_back({"panel", 8192, 8192, 128, N, T});
    s.push_back({"panel", 4096, 4096, 256, N, T});
    const int64_t tall[][3] = {{16384, 64, 4096}, {8192, 128, 8192}, {8192, 256, 2048},
                               {8193, 32, 1024},  {32768, 128, 256}, {4096, 16, 4096},
                               {16384, 8, 1024}};
    for (const auto& d : tall) s.push_back({"tall", d[0], d[1], d[2], N, N});
    const int64_t skinny[][3] = {{128, 128, 65536},
                                 {64, 8192, 8192},
                                 {256, 16384, 1024},
                                 {16, 4096, 4096},
                                 {32, 8192, 2048}};
    for (const auto& d : skinny) s.push_back({"skinny", d[0], d[1], d[2], N, N});
    return s;
  }();
  return shapes;
}

// ---- elements ----------------------------------------------------------------------------------

inline size_t element_size(DataType t) { return tileblas::size_of(t); }
// Real numbers per element: 2 for complex types (re, im interleaved), else 1.
inline int parts_of(DataType t) { return tileblas::is_complex(t) ? 2 : 1; }

// Stores re (+ i im for complex types; im is ignored for real ones) rounded to type t (round to
// nearest even) at out.
inline void encode(DataType t, double re, double im, unsigned char* out) {
  const float f[2] = {float(re), float(im)};
  const double d[2] = {re, im};
  uint16_t h = 0;
  switch (t) {
    case DataType::kF32:
    case DataType::kC32:
      std::memcpy(out, f, element_size(t));
      return;
    case DataType::kF64:
    case DataType::kC64:
      std::memcpy(out, d, element_size(t));
      return;
    case DataType::kF16:
      h = tileblas::float_to_half(f[0]);
      break;
    case DataType::kBF16:
      h = tileblas::float_to_bf16(f[0]);
      break;
  }
  std::memcpy(out, &h, sizeof h);
}

// Part `part` (0: real, 1: imaginary, complex types only) of the element of type t stored at p.
// Exact: every value of these types is a double.
inline double decode(DataType t, const unsigned char* p, int part = 0) {
  float f;
  double d;
  uint16_t h;
  switch (t) {
    case DataType::kF32:
    case DataType::kC32:
      std::memcpy(&f, p + part * sizeof f, sizeof f);
      return f;
    case DataType::kF64:
    case DataType::kC64:
      std::memcpy(&d, p + part * sizeof d, sizeof d);
      return d;
    case DataType::kF16:
      std::memcpy(&h, p, sizeof h);
      return tileblas::half_to_float(h);
    case DataType::kBF16:
      std::memcpy(&h, p, sizeof h);
      return tileblas::bf16_to_float(h);
  }
  return 0.0;
}

// splitmix64: fast and deterministic, so the sweep's gigabytes of inputs fill in a second.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Random elements of one type, uniform in [-1, 1) in steps of 2^-15 (then rounded to the type),
// drawn 16 bits at a time from a table of the 65536 encodings: an element costs a table copy,
// whatever the type, so the sweep's gigabytes of inputs fill in about a second.
class RandomElements {
 public:
  explicit RandomElements(DataType t) : size_(element_size(t)), table_(size_t(65536) * size_) {
    // Complex entries: the imaginary part from the index scrambled by an odd multiplier (a
    // permutation of 0..65535), so re and im are not equal.
    for (size_t i = 0; i < 65536; ++i)
      encode(t, (double(i) - 32768.0) / 32768.0, (double(i * 40503 % 65536) - 32768.0) / 32768.0,
             &table_[i * size_]);
  }
  // Fills `count` elements (element_size(t) bytes each) at out, from `seed`.
  void fill(uint64_t seed, size_t count, unsigned char* out) const {
    uint64_t state = seed, bits = 0;
    for (size_t i = 0; i < count; ++i) {
      if (i % 4 == 0) bits = splitmix64(state);
      std::memcpy(out + i * size_, &table_[size_t(bits & 0xffffu) * size_], size_);
      bits >>= 16;
    }
  }

 private:
  size_t size_;
  std::vector<unsigned char> table_;
};

}  // namespace tbsweep
