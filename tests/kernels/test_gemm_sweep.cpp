// Kernel tier, the GEMM shape sweep (tests/support/gemm_sweep.h, the shapes bench/bench_sweep.cpp
// times): for every sweep type and shape, the routed call on device pointers (tileblas::gemm, as
// sgemm_ / cblas_gemm_f16f16f32 / ... with device pointers), on fresh random inputs of the type,
// with the smallest leading dimensions (as the bench calls it), checked against OpenBLAS by
// tests/support/gemm_sweep_check.h (C written and finite, sampled rows and columns within a bound
// derived from the accumulation's unit roundoff and k).
// Shapes alternate between alpha = 0.7, beta = 0 on a poisoned C and alpha = -0.5, beta = 1.5 on
// a random C (the other way round for the next type). Suites: GemmSweepList.* (no GPU),
// GemmSweep/<type>.* (GPU).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "device_support.h"
#include "gemm_sweep.h"
#include "gemm_sweep_check.h"
#include "kernel_table.h"
#include "log.h"
#include "ops.h"
#include "router.h"
#include "test_support.h"
#include "tileblas.h"

namespace {

using tbsweep::SweepShape;
using tbsweep::SweepType;
using tileblas::DataType;
using tileblas::Op;
using tileblas::Problem;

// ---- No GPU needed ------------------------------------------------------------------------------

// The list covers every shape class the sweep is for.
TEST(GemmSweepList, CoversTheShapeClasses) {
  const std::vector<SweepShape>& shapes = tbsweep::sweep_shapes();
  std::set<std::string> names;
  std::set<int64_t> sizes, panel_ks;
  std::set<std::string> ops;
  bool below_power = false, above_power = false, tall = false, skinny = false;
  for (const SweepShape& s : shapes) {
    EXPECT_TRUE(names.insert(s.name()).second) << "twice: " << s.name();
    sizes.insert(s.m);
    ops.insert(std::string(tileblas::name_of(s.ta)) + tileblas::name_of(s.tb));
    const int64_t p = int64_t(1) << int64_t(std::lround(std::log2(double(s.m))));
    below_power |= s.m == p - 1 && s.m >= 1023;
    above_power |= s.m == p + 1 && s.m >= 1025;
    if (s.m == s.n && s.m >= 4096 && s.k <= 256) panel_ks.insert(s.k);
    tall |= s.m >= 64 * s.n;
    skinny |= std::max(s.m, s.n) <= 256 && s.k >= 8192;
  }
  EXPECT_TRUE(sizes.count(256) && sizes.count(8192));
  EXPECT_TRUE(below_power && above_power);
  EXPECT_EQ(ops, (std::set<std::string>{"NN", "NT", "TN", "TT"}));
  EXPECT_EQ(panel_ks, (std::set<int64_t>{32, 64, 128, 256}));
  EXPECT_TRUE(tall && skinny);
  EXPECT_GE(tbsweep::sweep_types().size(), 3u);
}

// Every sweep shape of every type has a kernel on a Hopper device (the router's table and the
// kernels' supports() together cover the sweep), with the bench's leading dimensions.
TEST(GemmSweepList, EveryShapeRoutesToAKernelOnHopper) {
  alignas(256) static unsigned char storage[256];
  for (const SweepType& t : tbsweep::sweep_types()) {
    for (const SweepShape& s : tbsweep::sweep_shapes()) {
      Problem p;
      p.trans_a = s.ta, p.trans_b = s.tb;
      p.m = s.m, p.n = s.n, p.k = s.k;
      p.type = t.ab, p.c_type = t.c;
      p.lda = s.a_rows(), p.ldb = s.b_rows(), p.ldc = s.m;
      p.a = p.b = p.c = storage;
      std::string why;
      const tileblas::GemmKernel* k =
          tileblas::pick_gemm_kernel(p, tbtest::hopper_caps(), "", &why);
      ASSERT_NE(k, nullptr) << t.name << " " << s.name();
      EXPECT_TRUE(k->supports(p, tbtest::hopper_caps())) << t.name << " " << s.name();
    }
  }
}

// ---- GPU ----------------------------------------------------------------------------------------

class GemmSweep : public testing::TestWithParam<const SweepType*> {};

TEST_P(GemmSweep, RoutedMatchesOpenBlas) {
  TB_REQUIRE_GPU();
  const SweepType& t = *GetParam();
  // Alternating by shape and by type, so each shape runs both ways across the types.
  int failures = 0, i = int(&t - tbsweep::sweep_types().data());
  for (const SweepShape& s : tbsweep::sweep_shapes()) {
    const bool poisoned = i++ % 2 == 0;
    // Complex types also get imaginary parts in alpha and beta.
    const double im = tileblas::is_complex(t.ab) ? 0.25 : 0.0;
    const std::string msg = poisoned ? tbtest::run_sweep_shape(t, s, {0.7, im}, 0.0)
                                     : tbtest::run_sweep_shape(t, s, {-0.5, -im}, {1.5, im});
    EXPECT_EQ(msg, "") << t.name << " " << s.name();
    if (!msg.empty() && ++failures >= 5) break;
  }
}

std::vector<const SweepType*> sweep_type_params() {
  std::vector<const SweepType*> v;
  for (const SweepType& t : tbsweep::sweep_types()) v.push_back(&t);
  return v;
}

INSTANTIATE_TEST_SUITE_P(, GemmSweep, testing::ValuesIn(sweep_type_params()),
                         [](const testing::TestParamInfo<const SweepType*>& info) {
                           return std::string(info.param->name);
                         });

}  // namespace
