// gemm_host_small (kernels/gemm_host_small.h), each variant this CPU has, called directly,
// against OpenBLAS on fresh random data: every transpose pair, m, n, k across the tile edges (1 to
// 129, below, at and past multiples of 6, 8, 16 and 32), padded leading dimensions whose padding
// holds NaN in A and B and a sentinel in C that must stay, operands 1-3 floats off 16-byte
// alignment, beta == 0 on a NaN C, alpha == 0 on NaN A and B; exact results on integer data.
// A variant the CPU lacks skips visibly; supports() refuses what the kernel does not compute.
#include <algorithm>
#include <cfloat>
#include <string>
#include <utility>
#include <vector>

#include "gemm_host_small.h"
#include "test_support.h"

namespace {

using tileblas::DataType;
using tileblas::GemmProblem;
using tileblas::Op;
namespace small = tileblas::gemm_host_small;
using small::Isa;

constexpr float kPaddingSentinel = -8888.5f;

// A problem small enough for every variant, to ask supports() whether the CPU has one.
bool cpu_runs(Isa isa) {
  GemmProblem p;
  p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 8;
  return small::supports(p, isa);
}

struct Case {
  Op ta = Op::kNoTrans, tb = Op::kNoTrans;
  int64_t m = 1, n = 1, k = 1;
  float alpha = 1, beta = 0;
  bool integers = false;

  std::string str(Isa isa) const {
    return std::string(small::name_of(isa)) + " " + tileblas::name_of(ta) + tileblas::name_of(tb) +
           " m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
           " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta) +
           (integers ? " integers" : "");
  }
};

void fill_padding(std::vector<float>& v, size_t offset, int64_t rows, int64_t ld, float value) {
  for (size_t j = 0; j < (v.size() - offset) / size_t(ld); ++j) {
    for (int64_t i = rows; i < ld; ++i) v[offset + i + j * ld] = value;
  }
}

// Runs one case on `isa` and checks it; returns "" or what went wrong.
std::string run_case(const Case& tc, Isa isa) {
  GemmProblem p;
  p.trans_a = tc.ta, p.trans_b = tc.tb;
  p.m = tc.m, p.n = tc.n, p.k = tc.k;
  p.alpha = tc.alpha, p.beta = tc.beta;
  const std::vector<int64_t> pads = {0, 1, 3, 5};
  p.lda = p.a_rows() + tbtest::pick(pads);
  p.ldb = p.b_rows() + tbtest::pick(pads);
  p.ldc = p.m + tbtest::pick(pads);
  // Each operand starts 0-3 floats past its vector's 16-byte aligned start.
  const std::vector<size_t> offsets = {0, 1, 2, 3};
  const size_t a_off = tbtest::pick(offsets), b_off = tbtest::pick(offsets),
               c_off = tbtest::pick(offsets);
  const size_t a_size = size_t(p.lda * p.a_cols()), b_size = size_t(p.ldb * p.b_cols()),
               c_size = size_t(p.ldc * p.n);
  auto data = [&](size_t n) {
    return tc.integers ? tbtest::random_ints(n) : tbtest::random_floats(n);
  };
  std::vector<float> a = data(a_off + a_size), b = data(b_off + b_size);
  std::vector<float> c_before = data(c_off + c_size);
  fill_padding(a, a_off, p.a_rows(), p.lda, tbtest::nan_value());
  fill_padding(b, b_off, p.b_rows(), p.ldb, tbtest::nan_value());
  if (tc.beta == 0.0f) tbtest::poison(c_before);  // must not leak
  fill_padding(c_before, c_off, p.m, p.ldc, kPaddingSentinel);

  const std::vector<float> a_ref(a.begin() + a_off, a.end()), b_ref(b.begin() + b_off, b.end());
  const std::vector<float> c_ref(c_before.begin() + c_off, c_before.end());
  std::vector<double> ref, scale;
  tbtest::openblas_gemm_reference(p, a_ref, b_ref, c_ref, ref, scale);
  if (tc.alpha == 0.0f) tbtest::poison(a), tbtest::poison(b);  // the kernel must not read them

  std::vector<float> c = c_before;
  p.a = a.data() + a_off, p.b = b.data() + b_off, p.c = c.data() + c_off;
  if (!small::supports(p, isa)) return "supports() refused it";
  small::run(p, isa);
  for (size_t i = 0; i < c_off; ++i) {
    if (c[i] != c_before[i] && !(c[i] != c[i] && c_before[i] != c_before[i])) {
      return "written before C";
    }
  }
  std::string msg = tbtest::check_padding(p, c.data() + c_off, c_before.data() + c_off);
  if (!msg.empty()) return msg;
  if (tc.integers) {
    for (int64_t j = 0; j < p.n; ++j) {
      for (int64_t i = 0; i < p.m; ++i) {
        const float got = c[c_off + i + j * p.ldc];
        if (!(double(got) == ref[i + j * p.m])) {
          return "C(" + std::to_string(i) + "," + std::to_string(j) + ") = " + std::to_string(got) +
                 ", want exactly " + std::to_string(ref[i + j * p.m]);
        }
      }
    }
    return "";
  }
  // fp32 accumulation: error <= ~k eps |A||B|; OpenBLAS's own fp32 error doubles the budget.
  return tbtest::check_gemm(p, c.data() + c_off, ref, scale, FLT_EPSILON, 2.0);
}

const Isa kIsas[] = {Isa::kAvx2, Isa::kAvx512};
// Across every variant's tile edges: 6 and 8 (AVX2 16x6, AVX-512 32x8), 16 and 32.
const std::vector<int64_t> kEdgeSizes = {1, 2, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 65};
const std::vector<std::pair<float, float>> kScalars = {{1.0f, 0.0f},  {-0.7f, 0.0f}, {0.5f, 1.5f},
                                                       {1.0f, -1.0f}, {0.0f, 0.7f},  {0.0f, 0.0f}};

class HostSmallSgemm : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!cpu_runs(GetParam())) {
      GTEST_SKIP() << "this CPU cannot run " << small::name_of(GetParam());
    }
  }
};

// Every transpose pair, m, n, k drawn from the edge sizes, each (alpha, beta).
TEST_P(HostSmallSgemm, MatchesOpenBlasAcrossTileEdges) {
  int cases = 0;
  for (Op ta : {Op::kNoTrans, Op::kTrans}) {
    for (Op tb : {Op::kNoTrans, Op::kTrans}) {
      for (int64_t m : kEdgeSizes) {
        for (int64_t n : kEdgeSizes) {
          for (const auto& [alpha, beta] : kScalars) {
            Case tc;
            tc.ta = ta, tc.tb = tb, tc.m = m, tc.n = n, tc.k = tbtest::pick(kEdgeSizes);
            tc.alpha = alpha, tc.beta = beta;
            ASSERT_EQ(run_case(tc, GetParam()), "") << tc.str(GetParam());
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 4 * 14 * 14 * 6);
}

// Sizes the router gives it (up to 128^3), square and not.
TEST_P(HostSmallSgemm, MatchesOpenBlasAtRoutedSizes) {
  const std::vector<int64_t> sizes = {48, 63, 64, 96, 127, 128, 129};
  for (Op ta : {Op::kNoTrans, Op::kTrans}) {
    for (Op tb : {Op::kNoTrans, Op::kTrans}) {
      for (int64_t size : sizes) {
        Case tc;
        tc.ta = ta, tc.tb = tb;
        tc.m = size, tc.n = tbtest::pick(sizes), tc.k = tbtest::pick(sizes);
        tc.alpha = 0.75f, tc.beta = tbtest::pick(std::vector<float>{0.0f, 1.0f, -0.5f});
        ASSERT_EQ(run_case(tc, GetParam()), "") << tc.str(GetParam());
      }
    }
  }
}

TEST_P(HostSmallSgemm, ExactOnIntegerData) {
  for (Op ta : {Op::kNoTrans, Op::kTrans}) {
    for (Op tb : {Op::kNoTrans, Op::kTrans}) {
      for (const auto& [alpha, beta] :
           std::vector<std::pair<float, float>>{{1.0f, 0.0f}, {2.0f, -1.0f}, {-1.0f, 3.0f}}) {
        Case tc;
        tc.ta = ta, tc.tb = tb;
        tc.m = tbtest::pick(kEdgeSizes), tc.n = tbtest::pick(kEdgeSizes), tc.k = 64;
        tc.alpha = alpha, tc.beta = beta, tc.integers = true;
        ASSERT_EQ(run_case(tc, GetParam()), "") << tc.str(GetParam());
      }
    }
  }
}

// What the kernel does not compute: other data types, empty dimensions, more workspace than its
// bound.
TEST_P(HostSmallSgemm, RefusesWhatItDoesNotCompute) {
  GemmProblem p;
  p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 8;
  ASSERT_TRUE(small::supports(p, GetParam()));
  const std::pair<DataType, DataType> types[] = {{DataType::kF16, DataType::kF32},
                                                 {DataType::kBF16, DataType::kF32},
                                                 {DataType::kF16, DataType::kF16},
                                                 {DataType::kF32, DataType::kF16}};
  for (const auto& [ab, c] : types) {
    GemmProblem q = p;
    q.ab_type = ab, q.c_type = c;
    EXPECT_FALSE(small::supports(q, GetParam())) << tileblas::name_of(ab);
  }
  for (int64_t GemmProblem::*dim : {&GemmProblem::m, &GemmProblem::n, &GemmProblem::k}) {
    GemmProblem q = p;
    q.*dim = 0;
    EXPECT_FALSE(small::supports(q, GetParam()));
  }
  GemmProblem large = p;
  large.m = large.k = int64_t(1) << 12;  // op(A) alone is 2^24 floats
  large.lda = large.m;
  EXPECT_FALSE(small::supports(large, GetParam()));
  large.m = large.k = int64_t(1) << 40;  // bounded before multiplying
  EXPECT_FALSE(small::supports(large, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Variants, HostSmallSgemm, ::testing::ValuesIn(kIsas),
                         [](const ::testing::TestParamInfo<Isa>& info) {
                           return std::string(info.param == Isa::kAvx512 ? "Avx512" : "Avx2");
                         });

TEST(HostSmallSgemmIsa, BestIsTheWidestThisCpuRuns) {
  const Isa best = small::best_isa();
  if (best == Isa::kNone) {
    EXPECT_FALSE(cpu_runs(Isa::kAvx2));
    EXPECT_FALSE(cpu_runs(Isa::kAvx512));
    return;
  }
  EXPECT_TRUE(cpu_runs(best));
  if (best == Isa::kAvx2) EXPECT_FALSE(cpu_runs(Isa::kAvx512));
}

}  // namespace
