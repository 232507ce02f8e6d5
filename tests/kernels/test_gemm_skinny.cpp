// Kernel tier, the rows with one small side of C (kernels/gemm_skinny.h: gemm_skinny_8,
// gemm_skinny_16 and gemm_skinny_32), forced through their launch() on device buffers, in every
// element type of the shape sweep they serve (fp32, fp64, complex fp32, complex fp64), checked
// against OpenBLAS by tests/support/gemm_sweep_check.h (fresh random inputs, C poisoned with NaN
// where beta == 0, three guard rows below m in every column that must stay bit for bit, a bound
// derived from the accumulation's unit roundoff and k). Shapes: m or n small (1 to the tile), the
// other side past a block of 256 columns and not a multiple of it, k from 0 to past several slices,
// both sides small; every transpose (N, T, and C for complex types). Scalars alternate between
// alpha = 0.7 (+0.25i), beta = 0 on a poisoned C and alpha = -0.5, beta = 1.5 (+0.25i); alpha == 0
// runs with A = B = nullptr. Suites: GemmSkinnyRows.* (no GPU), GemmSkinny.* (GPU),
// GemmSkinnySmall.* (a subset for compute-sanitizer).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "device_support.h"
#include "gemm_skinny.h"
#include "gemm_sweep.h"
#include "gemm_sweep_check.h"
#include "kernel_table.h"
#include "test_support.h"

namespace {

using tbsweep::SweepShape;
using tbsweep::SweepType;
using tileblas::DataType;
using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;
using tileblas::Triangle;

struct Row {
  const char* name;
  int64_t tile;
};
const Row kRows[] = {{"gemm_skinny_8", 8}, {"gemm_skinny_16", 16}, {"gemm_skinny_32", 32}};

bool serves(const SweepType& t) {
  return t.ab == t.c && t.ab != DataType::kF16 && t.ab != DataType::kBF16;
}

const GemmKernel& row(const Row& r) {
  const GemmKernel* k = tileblas::find_gemm_kernel(r.name);
  EXPECT_NE(k, nullptr) << r.name;
  return *k;
}

Problem shape_problem(DataType ab, DataType c, int64_t m, int64_t n, int64_t k) {
  alignas(256) static unsigned char storage[256];
  Problem p;
  p.type = ab, p.c_type = c;
  p.m = m, p.n = n, p.k = k;
  p.a = p.b = p.c = storage;
  p.lda = m, p.ldb = std::max<int64_t>(1, k), p.ldc = m;
  return p;
}

// ---- No GPU needed ------------------------------------------------------------------------------

TEST(GemmSkinnyRows, SupportOnlyWhatTheyCompute) {
  const tileblas::DeviceCaps caps = tbtest::hopper_caps();
  for (const Row& r : kRows) {
    const GemmKernel& k = row(r);
    for (const SweepType& t : tbsweep::sweep_types()) {
      if (!serves(t)) {
        EXPECT_FALSE(k.supports(shape_problem(t.ab, t.c, r.tile, 5000, 300), caps)) << r.name;
        continue;
      }
      EXPECT_TRUE(k.supports(shape_problem(t.ab, t.c, r.tile, 5000, 300), caps)) << r.name;
      EXPECT_TRUE(k.supports(shape_problem(t.ab, t.c, 5000, r.tile, 300), caps)) << r.name;
      EXPECT_TRUE(k.supports(shape_problem(t.ab, t.c, 1, 1, 0), caps)) << r.name;
      EXPECT_FALSE(k.supports(shape_problem(t.ab, t.c, r.tile + 1, r.tile + 1, 64), caps))
          << r.name << ": both sides past the tile";
      EXPECT_FALSE(k.supports(shape_problem(t.ab, t.c, r.tile + 1, 5000, 300), caps))
          << r.name << ": the small side one past the tile";
      EXPECT_FALSE(k.supports(shape_problem(t.ab, t.c, 5000, r.tile + 1, 300), caps))
          << r.name << ": the small side one past the tile";
      Problem tri = shape_problem(t.ab, t.c, r.tile, r.tile, 64);
      tri.c_triangle = Triangle::kLower;
      EXPECT_FALSE(k.supports(tri, caps)) << r.name << ": split-K writes whole columns";
      Problem old = shape_problem(t.ab, t.c, 8, 64, 64);
      EXPECT_FALSE(k.supports(old, tileblas::DeviceCaps{75, 40, 64 << 10, 4 << 20})) << r.name;
      Problem short_ld = shape_problem(t.ab, t.c, 8, 64, 64);
      short_ld.ldc = 7;
      EXPECT_FALSE(k.supports(short_ld, caps)) << r.name;
    }
    // One type throughout.
    EXPECT_FALSE(k.supports(shape_problem(DataType::kF16, DataType::kF16, 8, 64, 64), caps));
    EXPECT_FALSE(k.supports(shape_problem(DataType::kF64, DataType::kF32, 8, 64, 64), caps));
    EXPECT_FALSE(k.supports(shape_problem(DataType::kC32, DataType::kC64, 8, 64, 64), caps));
    // Complex elements are read whole: A off its element's alignment is refused.
    Problem c64 = shape_problem(DataType::kC64, DataType::kC64, 8, 64, 64);
    c64.a = static_cast<const unsigned char*>(c64.a) + 8;
    EXPECT_FALSE(k.supports(c64, caps)) << r.name;
    Problem c32 = shape_problem(DataType::kC32, DataType::kC32, 8, 64, 64);
    c32.b = static_cast<const unsigned char*>(c32.b) + 4;
    EXPECT_FALSE(k.supports(c32, caps)) << r.name;
  }
}

// ---- GPU ----------------------------------------------------------------------------------------

std::vector<Op> ops_of(DataType t) {
  if (tileblas::is_complex(t)) return {Op::kNoTrans, Op::kTrans, Op::kConjTrans};
  return {Op::kNoTrans, Op::kTrans};
}

// Runs every shape in every transpose pair for every type through the row; returns the failures.
int run_shapes(const Row& r, const std::vector<std::array<int64_t, 3>>& shapes) {
  int failures = 0, i = 0;
  for (const SweepType& t : tbsweep::sweep_types()) {
    if (!serves(t)) continue;
    for (const auto& d : shapes) {
      for (Op ta : ops_of(t.ab)) {
        for (Op tb : ops_of(t.ab)) {
          const SweepShape s{"skinny", d[0], d[1], d[2], ta, tb};
          const double im = tileblas::is_complex(t.ab) ? 0.25 : 0.0;
          tbtest::SweepRun how;
          how.forced = &row(r);
          how.ldc_pad = 3;
          const int which = i++ % 3;
          const std::string msg = which == 0 ? tbtest::run_sweep_shape(t, s, {0.7, im}, 0.0, how)
                                  : which == 1
                                      ? tbtest::run_sweep_shape(t, s, {-0.5, -im}, {1.5, im}, how)
                                      : tbtest::run_sweep_shape(t, s, 0.0, {1.5, im}, how);
          EXPECT_EQ(msg, "") << t.name << " " << s.name();
          if (!msg.empty() && ++failures >= 5) return failures;
        }
      }
    }
  }
  return failures;
}

TEST(GemmSkinny, EveryTypeShapeAndTranspose) {
  TB_REQUIRE_GPU();
  for (const Row& r : kRows) {
    const int64_t w = r.tile;
    run_shapes(r, {{1, 300, 70},
                   {w, 1000, 513},
                   {w, 257, 4099},
                   {7, 5000, 33},
                   {300, 1, 65},
                   {1000, w, 700},
                   {2049, w - 3, 300},
                   {5, 3, 1000},
                   {w, w, 17},
                   {3, 600, 0}});
  }
}

// Long k in many slices, with the other side spanning several blocks.
TEST(GemmSkinny, ManySlices) {
  TB_REQUIRE_GPU();
  for (const Row& r : kRows) {
    run_shapes(r, {{r.tile - 1, 777, 20000}, {1025, std::min<int64_t>(r.tile, 9), 12345}});
  }
}

TEST(GemmSkinnySmall, QuickSubset) {
  TB_REQUIRE_GPU();
  for (const Row& r : kRows) run_shapes(r, {{5, 300, 40}, {300, r.tile, 129}});
}

}  // namespace
