// Shared test helpers: the OpenBLAS oracle (dlopen'd with RTLD_LOCAL so its symbols never clash
// with tileblas's), fresh random data, poison, float64 references and eps*k tolerances, and the
// visible skip for machines without a CUDA device.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "problem.h"

namespace tbtest {

// Fortran BLAS signatures of the oracle's routines (hidden string lengths last).
using SgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const float*,
                         const float*, const int*, const float*, const int*, const float*, float*,
                         const int*, size_t, size_t);
// dgemm_; zgemm_ has the same form, its scalars and arrays interleaved (re, im) double pairs, and
// cgemm_ sgemm_'s, with interleaved float pairs.
using DgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*,
                         const double*, const double*, const int*, const double*, const int*,
                         const double*, double*, const int*, size_t, size_t);
using CgemmFn = SgemmFn;
using SaxpyFn = void (*)(const int*, const float*, const float*, const int*, float*, const int*);
using SomatcopyFn = void (*)(const char*, const char*, const int*, const int*, const float*,
                             const float*, const int*, float*, const int*);
using SimatcopyFn = void (*)(const char*, const char*, const int*, const int*, const float*, float*,
                             const int*, const int*);

// OpenBLAS, loaded once. Fails the test (ASSERT in the caller) if it cannot be loaded.
struct OpenBlas {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  CgemmFn cgemm = nullptr;
  DgemmFn zgemm = nullptr;
  SaxpyFn saxpy = nullptr;
  SomatcopyFn somatcopy = nullptr;
  SimatcopyFn simatcopy = nullptr;
  std::string error;  // why loading failed, or ""
  static const OpenBlas& get();
};

// True when a CUDA device can be used (probes once).
bool has_cuda_device();

// A generator seeded freshly per process (the seed is printed once so a failure can be replayed
// with TILEBLAS_TEST_SEED=<seed>).
std::mt19937_64& rng();

std::vector<float> random_floats(size_t n, float lo = -1.0f, float hi = 1.0f);
// Integer values in [lo, hi], never all zero: exact in fp32/fp16/bf16 arithmetic while sums stay
// below 2^24.
std::vector<float> random_ints(size_t n, int lo = -4, int hi = 4);
// Pick one element of `values` at random.
template <class T>
T pick(const std::vector<T>& values) {
  return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng())];
}

float nan_value();
// Fills with NaN (the poison every output is filled with before a call).
void poison(std::vector<float>& v);

// C = alpha*op(A)*op(B) + beta*C in float64 on host fp32 data (the problem's a/b/c point to host
// floats; C is read only when beta != 0). Returns the m x n result (column-major, ld = m) and, in
// `scale`, per element |alpha|*sum|a||b| + |beta||c| for the error bound.
void gemm_reference(const tileblas::Problem& p, std::vector<double>& out,
                    std::vector<double>& scale);

// The same by OpenBLAS, in fp32 (the bound's own rounding is far below the tolerance it feeds), on
// the host copies a, b, c of the problem's operands (laid out as p's leading dimensions say; the
// problem's pointers are not read). Fails the calling test if OpenBLAS cannot be loaded.
void openblas_gemm_reference(const tileblas::Problem& p, const std::vector<float>& a,
                             const std::vector<float>& b, const std::vector<float>& c,
                             std::vector<double>& out, std::vector<double>& scale);

// Checks C (host, column-major, ldc) against the reference: |c - ref| <= tol_factor * eps *
// (k + 2) * scale elementwise (NaN never passes). Returns "" or a message naming the element.
std::string check_gemm(const tileblas::Problem& p, const float* c, const std::vector<double>& ref,
                       const std::vector<double>& scale, double eps, double tol_factor);

// Checks that rows m..ldc-1 of the first n columns of C equal `before` bit for bit (the padding
// rows a GEMM must not write). Returns "" or a message.
std::string check_padding(const tileblas::Problem& p, const float* c, const float* before);

// Euclidean norm (asserting a nonzero norm guards against tests that compare zeros).
double norm2(const std::vector<float>& v);

}  // namespace tbtest

#define TB_REQUIRE_GPU()                                              \
  do {                                                                \
    if (!tbtest::has_cuda_device()) GTEST_SKIP() << "no CUDA device"; \
  } while (0)
