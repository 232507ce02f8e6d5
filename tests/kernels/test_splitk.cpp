// Kernel tier, the split-K machinery the GEMM families share (kernels/splitk.h):
//   - SplitKSlices.* (no GPU needed): the slice rule fills the SMs, keeps every slice at least its
//     minimum length and non-empty, and covers k exactly;
//   - SplitKReduce.* (GPU): splitk::reduce in all four types (f32, f64, c32, c64) on
//     integer-valued partials and scalars (every sum and product exact, so C must equal the host's
//     result bit for bit), 0, 1 and several slices, alpha and beta including 0 and complex values,
//     NaN in C where beta == 0 (C must not be read), C's padding rows unchanged, C one real part
//     off its element's alignment for complex types, slice counts that the reduce sums in runs.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "device_support.h"
#include "splitk.h"
#include "test_support.h"

namespace {

using tileblas::DataType;
using tileblas::Scalar;
using tileblas::splitk::Geometry;
using tileblas::splitk::Slices;
using tileblas::splitk::slices_for;

// ---- No GPU needed ------------------------------------------------------------------------------

TEST(SplitKSlices, FillTheSmsWithSlicesOfAtLeastTheMinimumLength) {
  const Geometry g{128, 64, 16, 2, 8};
  const int sms = 132;
  // 128x128x65536: 2 tiles, 4096 k-steps: 132 slices would fill the SMs; as slices of 32 k-steps,
  // 128 of them.
  Slices s = slices_for(g, 128, 128, 65536, sms);
  EXPECT_EQ(s.count, 128);
  EXPECT_EQ(s.k_steps, 32);
  // 16x4096x4096: 64 tiles: 4 slices of 64 k-steps.
  s = slices_for(g, 16, 4096, 4096, sms);
  EXPECT_EQ(s.count, 4);
  EXPECT_EQ(s.k_steps, 64);
  // Short k: no slice shorter than the minimum (257^3: 17 k-steps, at most 2 slices).
  s = slices_for(g, 257, 257, 257, sms);
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.k_steps, 9);
  // Tiles that fill the SMs already: one slice.
  s = slices_for(g, 4096, 4096, 4096, sms);
  EXPECT_EQ(s.count, 1);
  EXPECT_EQ(s.k_steps, 256);
  // k == 0: nothing to multiply.
  s = slices_for(g, 16, 16, 0, sms);
  EXPECT_EQ(s.count, 0);
}

TEST(SplitKSlices, CoverKExactlyWithNoEmptySlice) {
  const int sms = 132;
  for (const Geometry& g :
       {Geometry{128, 64, 16, 2, 8}, Geometry{64, 64, 8, 2, 16}, Geometry{128, 64, 16, 3, 8}}) {
    for (int64_t m : {1, 16, 129, 1000}) {
      for (int64_t k : {1, 15, 16, 17, 127, 129, 1000, 4097, 65536, 1 << 26}) {
        const Slices s = slices_for(g, m, 77, k, sms);
        const int64_t k_steps = (k + g.block_k - 1) / g.block_k;
        ASSERT_GE(s.count, 1) << m << " " << k;
        EXPECT_LE(s.count, tileblas::splitk::kMaxSlices);
        EXPECT_GE(s.count * s.k_steps, k_steps) << m << " " << k;
        EXPECT_LT((s.count - 1) * s.k_steps, k_steps) << m << " " << k << ": an empty slice";
        if (s.count > 1) EXPECT_GE(s.k_steps, g.min_steps_per_slice) << m << " " << k;
      }
    }
  }
}

// ---- GPU ----------------------------------------------------------------------------------------

struct ReduceCase {
  DataType type;
  int64_t m, n, slices;
  Scalar alpha, beta;
  bool misaligned;  // C one real part past its element's alignment (complex types)
  DataType partial_type = tileblas::splitk::partial_type(type);

  std::string str() const {
    std::ostringstream s;
    s << tileblas::name_of(type) << " (partials " << tileblas::name_of(partial_type) << ") m=" << m
      << " n=" << n << " slices=" << slices << " alpha=(" << alpha.re << "," << alpha.im
      << ") beta=(" << beta.re << "," << beta.im << ")" << (misaligned ? " misaligned C" : "");
    return s.str();
  }
};

// Runs one case with partials (and arithmetic) in Real and C's parts in Out, and compares with the
// host's exact result; "" or what went wrong.
template <class Real, class Out>
std::string run_reduce(const ReduceCase& rc) {
  const bool cplx = tileblas::is_complex(rc.type);
  const int parts = cplx ? 2 : 1;
  const int64_t m_pad = rc.m + 3, ldc = rc.m + 2;
  const size_t np = size_t(std::max<int64_t>(rc.slices, 1) * m_pad * rc.n) * parts;
  const size_t nc = size_t(ldc * rc.n) * parts;
  const std::vector<float> pf = tbtest::random_ints(np, -4, 4), cf = tbtest::random_ints(nc, -4, 4);
  const std::vector<Real> partial(pf.begin(), pf.end());
  std::vector<Out> c0(cf.begin(), cf.end());
  const bool beta_zero = rc.beta.is_zero();
  for (int64_t j = 0; j < rc.n; ++j) {
    for (int64_t i = 0; i < ldc; ++i) {
      for (int r = 0; r < parts; ++r) {
        // Padding rows, and all of C where beta == 0, hold NaN: never read, never written.
        if (i >= rc.m || beta_zero)
          c0[size_t(i + j * ldc) * parts + r] = std::numeric_limits<Out>::quiet_NaN();
      }
    }
  }
  const size_t off = rc.misaligned ? 1 : 0;
  void *dp = nullptr, *dc = nullptr;
  if (cudaMalloc(&dp, np * sizeof(Real)) != cudaSuccess ||
      cudaMalloc(&dc, (nc + off) * sizeof(Out)) != cudaSuccess)
    return "cudaMalloc failed";
  Out* c_dev = static_cast<Out*>(dc) + off;
  std::string err;
  if (cudaMemcpy(dp, partial.data(), np * sizeof(Real), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(c_dev, c0.data(), nc * sizeof(Out), cudaMemcpyHostToDevice) != cudaSuccess)
    err = "upload failed";
  std::vector<Out> got(nc);
  if (err.empty()) {
    cudaError_t e = tileblas::splitk::reduce(rc.type, rc.partial_type, rc.m, rc.n, rc.slices, dp,
                                             m_pad, rc.alpha, rc.beta, c_dev, ldc, nullptr);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) err = std::string("reduce: ") + cudaGetErrorString(e);
  }
  if (err.empty() &&
      cudaMemcpy(got.data(), c_dev, nc * sizeof(Out), cudaMemcpyDeviceToHost) != cudaSuccess)
    err = "download failed";
  cudaFree(dp);
  cudaFree(dc);
  if (!err.empty()) return err;

  const Real ar = Real(rc.alpha.re), ai = Real(cplx ? rc.alpha.im : 0.0);
  const Real br = Real(rc.beta.re), bi = Real(cplx ? rc.beta.im : 0.0);
  double norm = 0.0;
  for (int64_t j = 0; j < rc.n; ++j) {
    for (int64_t i = 0; i < ldc; ++i) {
      const size_t at = size_t(i + j * ldc) * parts;
      if (i >= rc.m) {
        if (std::memcmp(&got[at], &c0[at], parts * sizeof(Out)) != 0)
          return "padding row " + std::to_string(i) + " of column " + std::to_string(j) +
                 " written";
        continue;
      }
      Real x[2] = {0, 0};
      for (int64_t s = 0; s < rc.slices; ++s) {
        for (int r = 0; r < parts; ++r)
          x[r] += partial[size_t(i + j * m_pad + s * m_pad * rc.n) * parts + r];
      }
      Real want[2] = {ar * x[0] - ai * x[1], ar * x[1] + ai * x[0]};
      if (!beta_zero) {
        const Real cr = c0[at], ci = cplx ? c0[at + 1] : Real(0);
        want[0] += br * cr - bi * ci;
        want[1] += br * ci + bi * cr;
      }
      for (int r = 0; r < parts; ++r) {
        norm += double(got[at + r]) * double(got[at + r]);
        if (!(got[at + r] == Out(want[r]))) {
          std::ostringstream msg;
          msg << "C(" << i << "," << j << ")" << (cplx ? (r ? ".im" : ".re") : "") << " = "
              << got[at + r] << ", want " << want[r];
          return msg.str();
        }
      }
    }
  }
  if (norm == 0.0 && !rc.alpha.is_zero() && rc.slices > 0) return "result is all zeros";
  return "";
}

std::string run_reduce_case(const ReduceCase& rc) {
  if ((rc.partial_type == DataType::kC64 && rc.type == DataType::kC32) ||
      (rc.partial_type == DataType::kF64 && rc.type == DataType::kF32))
    return run_reduce<double, float>(rc);
  return rc.type == DataType::kF32 || rc.type == DataType::kC32 ? run_reduce<float, float>(rc)
                                                                : run_reduce<double, double>(rc);
}

// A complex fp32 C from fp64 partials (the cgemm_widened split-K row), and an fp32 C from fp64
// partials (the sgemm_widened_b split-K
// row), and a pair reduce() does not take.
TEST(SplitKReduce, SingleFromDoublePartials) {
  TB_REQUIRE_GPU();
  for (int64_t slices : {0, 1, 3, 37}) {
    for (bool misaligned : {false, true}) {
      ReduceCase rc{DataType::kC32, 67, 5, slices, Scalar(2.0, -1.0), Scalar(0.0, 1.0), misaligned};
      rc.partial_type = DataType::kC64;
      EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
      rc.beta = Scalar(0.0);
      EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
    }
    ReduceCase rc{DataType::kF32, 67, 5, slices, Scalar(-2.0), Scalar(0.5), false};
    rc.partial_type = DataType::kF64;
    EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
    rc.beta = Scalar(0.0);
    EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
  }
  EXPECT_EQ(tileblas::splitk::reduce(DataType::kF64, DataType::kF32, 4, 4, 1, nullptr, 4,
                                     Scalar(1.0), Scalar(0.0), nullptr, 4, nullptr),
            cudaErrorInvalidValue);
}

TEST(SplitKReduce, EveryTypeSliceCountAndScalar) {
  TB_REQUIRE_GPU();
  for (DataType t : {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64}) {
    const bool cplx = tileblas::is_complex(t);
    std::vector<Scalar> scalars = {Scalar(0.0), Scalar(1.0), Scalar(-2.0)};
    if (cplx) {
      scalars.push_back(Scalar(0.0, 1.0));
      scalars.push_back(Scalar(2.0, -1.0));
    }
    for (int64_t slices : {0, 1, 3, 37}) {
      for (const Scalar& alpha : scalars) {
        for (const Scalar& beta : scalars) {
          for (bool misaligned : {false, true}) {
            if (misaligned && !cplx) continue;
            const ReduceCase rc{t, 67, 5, slices, alpha, beta, misaligned};
            EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
          }
        }
      }
    }
  }
}

// More slices than one thread sums (runs of them summed by threads side by side, then added in
// order), with few elements and with more elements than a block's columns, in every type.
TEST(SplitKReduce, ManySlicesInRuns) {
  TB_REQUIRE_GPU();
  for (DataType t : {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64}) {
    for (int64_t slices : {17, 33, 129, 200, 1000}) {
      for (int64_t m : {1, 67}) {
        ReduceCase rc{t, m, 5, slices, Scalar(-2.0), Scalar(1.0), false};
        EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
        rc.beta = Scalar(0.0);
        EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
      }
    }
  }
  ReduceCase rc{DataType::kC32, 67, 5, 129, Scalar(2.0, -1.0), Scalar(0.0, 1.0), true};
  rc.partial_type = DataType::kC64;
  EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
}

// More elements than the grid has threads (the grid-stride loop), in every type.
TEST(SplitKReduce, LargerThanOneGrid) {
  TB_REQUIRE_GPU();
  for (DataType t : {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64}) {
    const ReduceCase rc{t, 1000, 700, 2, Scalar(-2.0), Scalar(1.0), false};
    EXPECT_EQ(run_reduce_case(rc), "") << rc.str();
  }
}

}  // namespace
