// gemm_host_small (kernels/gemm_host_small.h), each variant this CPU has, in fp32 and fp64, called
// directly, against a long double reference on fresh random data: every transpose pair, m, n, k
// across the tile edges (1 to 129, below, at and past multiples of 2, 4, 6, 8, 16 and 32), padded
// leading dimensions whose padding holds NaN in A and B and a sentinel in C that must stay,
// operands 1-3 elements off 16-byte alignment, beta == 0 on a NaN C, alpha == 0 on NaN A and B;
// exact results on integer data. A variant the CPU lacks skips visibly; supports() refuses what the
// kernel does not compute.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gemm_host_small.h"
#include "test_support.h"
#include "typed_elements.h"

namespace {

using tileblas::DataType;
using tileblas::Op;
using tileblas::Problem;
namespace small = tileblas::gemm_host_small;
using small::Isa;

constexpr double kPaddingSentinel = -8888.5;

// A problem small enough for every variant, to ask supports() whether the CPU has one.
bool cpu_runs(Isa isa) {
  Problem p;
  p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 8;
  return small::supports(p, isa);
}

struct Case {
  DataType type = DataType::kF32;
  Op ta = Op::kNoTrans, tb = Op::kNoTrans;
  int64_t m = 1, n = 1, k = 1;
  double alpha = 1, beta = 0;
  double alpha_im = 0, beta_im = 0;  // complex types
  bool integers = false;

  std::string str(Isa isa) const {
    return std::string(small::name_of(isa, type)) + " " + tileblas::name_of(ta) +
           tileblas::name_of(tb) + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
           " k=" + std::to_string(k) + " alpha=" + std::to_string(alpha) + "," +
           std::to_string(alpha_im) + " beta=" + std::to_string(beta) + "," +
           std::to_string(beta_im) + (integers ? " integers" : "");
  }
};

template <class T>
void fill_padding(std::vector<T>& v, size_t offset, int64_t rows, int64_t ld, T value) {
  for (size_t j = 0; j < (v.size() - offset) / size_t(ld); ++j) {
    for (int64_t i = rows; i < ld; ++i) v[offset + i + j * ld] = value;
  }
}

template <class T>
bool same_bits_or_both_nan(T x, T y) {
  if constexpr (tbtest::kComplex<T>) {
    return same_bits_or_both_nan(x.real(), y.real()) && same_bits_or_both_nan(x.imag(), y.imag());
  } else {
    return x == y || (std::isnan(x) && std::isnan(y));
  }
}

// Runs one case of element type T on `isa` and checks it; returns "" or what went wrong.
template <class T>
std::string run_case(const Case& tc, Isa isa) {
  using tbtest::Wide;
  Problem p;
  p.type = p.c_type = tc.type;
  p.trans_a = tc.ta, p.trans_b = tc.tb;
  p.m = tc.m, p.n = tc.n, p.k = tc.k;
  p.alpha = tileblas::Scalar(tc.alpha, tc.alpha_im), p.beta = tileblas::Scalar(tc.beta, tc.beta_im);
  const std::vector<int64_t> pads = {0, 1, 3, 5};
  p.lda = p.a_rows() + tbtest::pick(pads);
  p.ldb = p.b_rows() + tbtest::pick(pads);
  p.ldc = p.m + tbtest::pick(pads);
  // Each operand starts 0-3 elements past its vector's aligned start.
  const std::vector<size_t> offsets = {0, 1, 2, 3};
  const size_t a_off = tbtest::pick(offsets), b_off = tbtest::pick(offsets),
               c_off = tbtest::pick(offsets);
  const size_t a_size = size_t(p.lda * p.a_cols()), b_size = size_t(p.ldb * p.b_cols()),
               c_size = size_t(p.ldc * p.n);
  auto data = [&](size_t n) { return tbtest::test_elements<T>(n, tc.integers); };
  const T nan = tbtest::nan_element<T>();
  std::vector<T> a = data(a_off + a_size), b = data(b_off + b_size);
  std::vector<T> c_before = data(c_off + c_size);
  fill_padding(a, a_off, p.a_rows(), p.lda, nan);
  fill_padding(b, b_off, p.b_rows(), p.ldb, nan);
  const bool beta_zero = p.beta.is_zero();
  if (beta_zero) std::fill(c_before.begin(), c_before.end(), nan);  // must not leak
  fill_padding(c_before, c_off, p.m, p.ldc, T(kPaddingSentinel));

  // The reference in long double, and the scale of each element's rounding: |alpha| sum |a||b|
  // + |beta c| (moduli bounded by |re| + |im|).
  auto op = [](Op o, const T& x) {
    const Wide w = tbtest::widen(x);
    return o == Op::kConjTrans ? std::conj(w) : w;
  };
  auto op_a = [&](int64_t i, int64_t l) {
    return op(p.trans_a, a[a_off + (p.trans_a == Op::kNoTrans ? i + l * p.lda : l + i * p.lda)]);
  };
  auto op_b = [&](int64_t l, int64_t j) {
    return op(p.trans_b, b[b_off + (p.trans_b == Op::kNoTrans ? l + j * p.ldb : j + l * p.ldb)]);
  };
  const Wide alpha(tc.alpha, tc.alpha_im), beta(tc.beta, tc.beta_im);
  // op(A) and op(B) widened once, with |re| + |im| of each element (an upper bound of its modulus
  // that needs no square root).
  std::vector<Wide> wa(size_t(p.m * p.k)), wb(size_t(p.k * p.n));
  std::vector<long double> ma(wa.size()), mb(wb.size());
  auto norm1 = [](const Wide& w) { return std::fabs(w.real()) + std::fabs(w.imag()); };
  for (int64_t l = 0; l < p.k; ++l) {
    for (int64_t i = 0; i < p.m; ++i)
      wa[i + l * p.m] = op_a(i, l), ma[i + l * p.m] = norm1(wa[i + l * p.m]);
    for (int64_t j = 0; j < p.n; ++j)
      wb[l + j * p.k] = op_b(l, j), mb[l + j * p.k] = norm1(wb[l + j * p.k]);
  }
  std::vector<Wide> ref(size_t(p.m * p.n));
  std::vector<long double> scale(size_t(p.m * p.n));
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) {
      Wide sum = 0;
      long double mag = 0;
      for (int64_t l = 0; l < p.k; ++l) {
        sum += wa[i + l * p.m] * wb[l + j * p.k];
        mag += ma[i + l * p.m] * mb[l + j * p.k];
      }
      const Wide c0 = beta_zero ? Wide(0) : tbtest::widen(c_before[c_off + i + j * p.ldc]);
      ref[i + j * p.m] = alpha * sum + beta * c0;
      scale[i + j * p.m] = norm1(alpha) * mag + norm1(beta * c0);
    }
  }
  if (p.alpha.is_zero()) {  // the kernel must not read A or B
    std::fill(a.begin(), a.end(), nan), std::fill(b.begin(), b.end(), nan);
  }

  std::vector<T> c = c_before;
  p.a = a.data() + a_off, p.b = b.data() + b_off, p.c = c.data() + c_off;
  if (!small::supports(p, isa)) return "supports() refused it";
  small::run(p, isa);
  for (size_t i = 0; i < c.size(); ++i) {
    const int64_t at = int64_t(i) - int64_t(c_off);
    const bool inside = at >= 0 && at % p.ldc < p.m && at / p.ldc < p.n;
    if (!inside && !same_bits_or_both_nan(c[i], c_before[i])) {
      return "wrote element " + std::to_string(at) + " outside C's m x n";
    }
  }
  // The kernel's error is at most ~k eps scale (complex: a few times that); a factor of 4 and
  // k + 2 leave room for alpha and beta's roundings.
  const long double eps = std::numeric_limits<tbtest::Real<T>>::epsilon();
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) {
      const Wide got = tbtest::widen(c[c_off + i + j * p.ldc]), want = ref[i + j * p.m];
      const long double tol = tc.integers ? 0 : 4 * (p.k + 2) * eps * scale[i + j * p.m];
      if (!(std::abs(got - want) <= tol)) {
        return "C(" + std::to_string(i) + "," + std::to_string(j) + ") off by " +
               std::to_string(double(std::abs(got - want))) + ", allowed " +
               std::to_string(double(tol));
      }
    }
  }
  return "";
}

std::string run_case(const Case& tc, Isa isa) {
  switch (tc.type) {
    case DataType::kF64:
      return run_case<double>(tc, isa);
    case DataType::kC32:
      return run_case<std::complex<float>>(tc, isa);
    case DataType::kC64:
      return run_case<std::complex<double>>(tc, isa);
    default:
      return run_case<float>(tc, isa);
  }
}

const Isa kIsas[] = {Isa::kAvx2, Isa::kAvx512};
// Across every variant's tile edges: 6 and 8 (AVX2 16x6, AVX-512 32x8), 16 and 32; and the
// narrow last blocks' vectors of 2, 4, 8 and 16 elements, filled exactly (read in place) or not.
const std::vector<int64_t> kEdgeSizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 65};
const std::vector<std::pair<double, double>> kScalars = {{1.0, 0.0},  {-0.7, 0.0}, {0.5, 1.5},
                                                         {1.0, -1.0}, {0.0, 0.7},  {0.0, 0.0}};

// A variant and an element type.
struct Variant {
  Isa isa;
  DataType type;
};

class HostSmallGemm : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override {
    if (!cpu_runs(GetParam().isa)) {
      GTEST_SKIP() << "this CPU cannot run " << small::name_of(GetParam().isa, GetParam().type);
    }
  }
  Case make_case() const {
    Case tc;
    tc.type = GetParam().type;
    return tc;
  }
  bool complex() const { return tileblas::is_complex(GetParam().type); }
  // N and T, and C for complex data.
  std::vector<Op> ops() const {
    std::vector<Op> v = {Op::kNoTrans, Op::kTrans};
    if (complex()) v.push_back(Op::kConjTrans);
    return v;
  }
  Isa isa() const { return GetParam().isa; }
};

// Every transpose pair, m, n, k drawn from the edge sizes, each (alpha, beta).
TEST_P(HostSmallGemm, MatchesLongDoubleAcrossTileEdges) {
  int cases = 0;
  for (Op ta : ops()) {
    for (Op tb : ops()) {
      for (int64_t m : kEdgeSizes) {
        for (int64_t n : kEdgeSizes) {
          for (const auto& [alpha, beta] : kScalars) {
            Case tc = make_case();
            tc.ta = ta, tc.tb = tb, tc.m = m, tc.n = n, tc.k = tbtest::pick(kEdgeSizes);
            tc.alpha = alpha, tc.beta = beta;
            // Complex: imaginary parts on nonzero scalars (real and complex beta both), and a
            // purely imaginary beta (0.6i) in place of 0 with alpha 1.
            if (complex()) {
              tc.alpha_im = alpha != 0 ? 0.3 : 0.0;
              if ((m + n) % 2 == 0) tc.beta_im = beta != 0 ? -0.4 : alpha == 1.0 ? 0.6 : 0.0;
            }
            ASSERT_EQ(run_case(tc, isa()), "") << tc.str(isa());
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, int(ops().size() * ops().size()) * 16 * 16 * 6);
}

// Sizes the router gives it (up to 128^3), square and not.
TEST_P(HostSmallGemm, MatchesLongDoubleAtRoutedSizes) {
  const std::vector<int64_t> sizes = {48, 63, 64, 96, 127, 128, 129};
  for (Op ta : ops()) {
    for (Op tb : ops()) {
      for (int64_t size : sizes) {
        Case tc = make_case();
        tc.ta = ta, tc.tb = tb;
        tc.m = size, tc.n = tbtest::pick(sizes), tc.k = tbtest::pick(sizes);
        tc.alpha = 0.75, tc.beta = tbtest::pick(std::vector<double>{0.0, 1.0, -0.5});
        ASSERT_EQ(run_case(tc, isa()), "") << tc.str(isa());
      }
    }
  }
}

TEST_P(HostSmallGemm, ExactOnIntegerData) {
  for (Op ta : ops()) {
    for (Op tb : ops()) {
      for (const auto& [alpha, beta] :
           std::vector<std::pair<double, double>>{{1.0, 0.0}, {2.0, -1.0}, {-1.0, 3.0}}) {
        Case tc = make_case();
        tc.ta = ta, tc.tb = tb;
        tc.m = tbtest::pick(kEdgeSizes), tc.n = tbtest::pick(kEdgeSizes), tc.k = 64;
        tc.alpha = alpha, tc.beta = beta, tc.integers = true;
        ASSERT_EQ(run_case(tc, isa()), "") << tc.str(isa());
      }
    }
  }
}

// What the kernel does not compute: other data types, empty dimensions, more workspace than its
// bound.
TEST_P(HostSmallGemm, RefusesWhatItDoesNotCompute) {
  Problem p;
  p.type = p.c_type = GetParam().type;
  p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 8;
  ASSERT_TRUE(small::supports(p, isa()));
  const std::pair<DataType, DataType> types[] = {
      {DataType::kF16, DataType::kF32}, {DataType::kBF16, DataType::kF32},
      {DataType::kF16, DataType::kF16}, {DataType::kF32, DataType::kF16},
      {DataType::kF32, DataType::kF64}, {DataType::kF64, DataType::kF32},
      {DataType::kC32, DataType::kF32}, {DataType::kC64, DataType::kC32}};
  for (const auto& [ab, c] : types) {
    Problem q = p;
    q.type = ab, q.c_type = c;
    EXPECT_FALSE(small::supports(q, isa()))
        << tileblas::name_of(ab) << "->" << tileblas::name_of(c);
  }
  for (int64_t Problem::*dim : {&Problem::m, &Problem::n, &Problem::k}) {
    Problem q = p;
    q.*dim = 0;
    EXPECT_FALSE(small::supports(q, isa()));
  }
  Problem large = p;
  large.m = large.k = int64_t(1) << 12;  // op(A) alone is 2^24 elements
  large.lda = large.m;
  EXPECT_FALSE(small::supports(large, isa()));
  large.m = large.k = int64_t(1) << 40;  // bounded before multiplying
  EXPECT_FALSE(small::supports(large, isa()));
}

std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (Isa isa : kIsas) {
    for (DataType t : {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64}) {
      v.push_back({isa, t});
    }
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Variants, HostSmallGemm, ::testing::ValuesIn(variants()),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           return std::string(info.param.isa == Isa::kAvx512 ? "Avx512" : "Avx2") +
                                  tileblas::name_of(info.param.type);
                         });

TEST(HostSmallGemmIsa, BestIsTheWidestThisCpuRuns) {
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
