// Kernel tier, the Level-3 plans (src/level3_plan.h): symm, hemm, syrk, herk, syr2k, her2k, trmm,
// trsm in f32, f64, c32, c64, every side, uplo, trans and diag, at sizes crossing the block sizes,
// against OpenBLAS's own routines (tests/support/level3_cases.h: NaN wherever a routine must not
// read, the output compared within eps-relative tolerance, everything it must not write bit for
// bit).
// Suites: Level3Plan.* (the plans on the CPU backend: OpenBLAS GEMM and plain-loop block
// operations; no GPU), Level3PlanSupports.* (level3_on_device_supports() on a nominal Hopper, no
// GPU), Level3PlanDevice.* (run_level3_on_device() on device copies, for the types the device has
// GEMM kernels for), Level3PlanDeviceSmall.* (a quick subset, for compute-sanitizer).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "calibration.h"
#include "device_support.h"
#include "host_plans.h"
#include "level3_cases.h"
#include "level3_cpu_backend.h"
#include "level3_plan.h"
#include "plans.h"
#include "router.h"
#include "test_support.h"

namespace {

using tbtest::Level3Case;
using tbtest::Level3Operands;
using tileblas::DataType;
using tileblas::Op;
using tileblas::Operation;
using tileblas::Scalar;

const std::vector<DataType> kTypes = {DataType::kF32, DataType::kF64, DataType::kC32,
                                      DataType::kC64};

// Runs `cases` through `run` (which computes the output in place on copies of the operands and
// returns "" or why it failed), checks each against OpenBLAS, and reports the first failures.
template <class Run>
void check_cases(const std::vector<Level3Case>& cases, Run&& run) {
  int failures = 0, checked = 0;
  for (const Level3Case& c : cases) {
    const Level3Operands ops = tbtest::make_operands(c);
    const std::vector<unsigned char> want = tbtest::openblas_result(ops);
    std::vector<unsigned char> a = ops.a, b = ops.b, out = ops.out;
    std::string why = run(ops, a, b, out);
    if (why == "skip") continue;
    ++checked;
    if (why.empty()) why = tbtest::check_level3(ops, out, want, a, b);
    if (!why.empty() && ++failures <= 20) ADD_FAILURE() << c.str() << ": " << why;
  }
  EXPECT_EQ(failures, 0) << "of " << checked << " cases";
  EXPECT_GT(checked, 0);
}

// ---- the plans on the CPU backend -----------------------------------------------------------

// With GEMMs that compute a triangle of C (syrk .. her2k take the other decomposition without).
TEST(Level3Plan, CpuBackendMatchesOpenBlas) {
  const std::vector<Level3Case> cases = tbtest::level3_plan_cases(kTypes, true, true);
  for (bool triangles : {true, false}) {
    SCOPED_TRACE(triangles ? "GEMMs on triangles" : "GEMMs on whole blocks");
    check_cases(cases, [triangles](const Level3Operands& ops, std::vector<unsigned char>& a,
                                   std::vector<unsigned char>& b, std::vector<unsigned char>& out) {
      tbtest::CpuLevel3Backend backend(triangles);
      const tileblas::Problem p = ops.problem(a.data(), b.empty() ? nullptr : b.data(), out.data());
      const cudaError_t err = tileblas::run_level3_plan(p, backend, ops.c.sizes);
      if (err != cudaSuccess) return "plan failed: " + backend.error();
      return std::string();
    });
  }
}

// The plans on the host (src/host_plans.h): GEMMs on GEMM's CPU paths as the measured CPU rates
// route them (host kernel, host team, CPU BLAS), block operations as loops; at the host plans'
// block sizes and at small ones.
TEST(Level3Plan, HostPlanMatchesOpenBlas) {
  std::vector<Level3Case> cases = tbtest::level3_plan_cases(kTypes, true, false, true);
  check_cases(cases, [](const Level3Operands& ops, std::vector<unsigned char>& a,
                        std::vector<unsigned char>& b, std::vector<unsigned char>& out) {
    tileblas::Problem like;
    like.type = like.c_type = ops.c.type;
    const tileblas::Rates* rates = tileblas::measured_cpu_rates(like);
    if (!rates) return std::string("no CPU rates");
    const tileblas::Problem p = ops.problem(a.data(), b.empty() ? nullptr : b.data(), out.data());
    tileblas::run_level3_on_host_with(p, *rates, ops.c.sizes);
    return std::string();
  });
}

// tri_update's host loop writes exactly the elements its fill and blocks name, for every shape the
// device kernel takes (C wider than tall for kFull, stacked blocks past its last row): everything
// else of C, padding rows and the columns past n included, stays bit for bit. fp64, beta 0 and
// 0.5, T given or not.
TEST(Level3Plan, HostTriUpdateWritesOnlyWhatItsFillNames) {
  using tileblas::Fill;
  const double kPoison = -7.25;
  int checked = 0;
  for (int round = 0; round < 400; ++round) {
    auto pick = [](int lo, int hi) {
      return int(std::uniform_int_distribution<int>(lo, hi)(tbtest::rng()));
    };
    tileblas::TriUpdateProblem p;
    p.type = DataType::kF64;
    p.fill = Fill(pick(0, 3));
    p.m = pick(1, 40);
    p.n = p.fill == Fill::kFull ? pick(1, 48) : p.m;
    p.block = pick(0, 1) ? pick(1, 9) : 0;
    p.beta = pick(0, 1) ? 0.0 : 0.5;
    const bool with_t = pick(0, 3) > 0;
    p.ldc = p.m + pick(0, 2), p.ldt = p.m + pick(0, 2);
    const int64_t t_cols = p.block > 0 ? p.block : p.n;
    std::vector<double> c(size_t(p.ldc) * size_t(p.n + 2), kPoison), t(size_t(p.ldt * t_cols));
    for (double& x : t) x = std::uniform_real_distribution<double>(-1, 1)(tbtest::rng());
    for (int64_t j = 0; j < p.n; ++j) {
      for (int64_t i = 0; i < p.m; ++i) c[size_t(i + j * p.ldc)] = double(i - j);
    }
    const std::vector<double> before = c;
    p.t = with_t ? t.data() : nullptr;
    p.c = c.data();
    tileblas::host_tri_update(p);
    const bool stacked = with_t && p.block > 0;
    for (int64_t j = 0; j < p.n + 2; ++j) {
      for (int64_t i = 0; i < p.ldc; ++i) {
        const size_t at = size_t(i + j * p.ldc);
        bool named = i < p.m && j < p.n;
        if (p.fill == Fill::kLower) named = named && i >= j;
        if (p.fill == Fill::kUpper) named = named && i <= j;
        if (p.fill == Fill::kDiagonal) named = named && i == j;
        if (stacked) named = named && i / p.block == j / p.block;
        if (!named) {
          ASSERT_EQ(c[at], before[at])
              << "element (" << i << ", " << j << ") written, round " << round;
          continue;
        }
        const double tv = with_t ? t[size_t(i + (stacked ? j % p.block : j) * p.ldt)] : 0.0;
        ASSERT_DOUBLE_EQ(c[at], tv + p.beta.re * before[at]) << i << ", " << j;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

// The decompositions recurse as documented: whole leaf blocks, one operation per block.
TEST(Level3Plan, RecursesIntoWholeBlocks) {
  tileblas::Level3BlockSizes sizes;
  sizes.tri_leaf = 4, sizes.rank_leaf = 5;
  struct Expect {
    Operation op;
    int64_t m, n, k;
    tbtest::PlanCounts counts;
    int lanes;
    int64_t gemm_leaf = 0;   // trmm_leaf and trsm_leaf
    bool triangles = false;  // the backend's GEMM computes triangles
    int64_t triangle_leaf = 0;
    int64_t panels = 1;  // tri_panels (tri_panel_min 4)
  };
  // trsm 17 = 4 blocks of 4 + 1: 5 leaves, 4 couplings; syrk 22 = 4 blocks of 5 + 2: 5 diagonal
  // GEMMs, 4 off-diagonal ones, one tri_update; syr2k twice the GEMMs; symm: one fill, one GEMM.
  // syrk's and syr2k's 9 blocks each in a lane of its own (the CPU backend runs them in reverse).
  // With GEMMs on triangles: one GEMM on all of C (syr2k: two), no scratch; with diagonal blocks
  // of 5, the same 9 blocks straight into C; herk makes C's diagonal real before and after.
  const Expect expects[] = {
      {Operation::kTrsm, 17, 3, 0, {4, 0, 0, 5, 0}, 0},
      {Operation::kTrmm, 17, 3, 0, {4, 0, 0, 5, 0}, 0},
      {Operation::kSyrk, 0, 22, 3, {9, 1, 0, 0, 1}, 9},
      {Operation::kSyr2k, 0, 22, 3, {18, 1, 0, 0, 1}, 9},
      {Operation::kSyrk, 0, 22, 3, {1, 0, 0, 0, 0}, 0, 0, true},
      {Operation::kSyr2k, 0, 22, 3, {2, 0, 0, 0, 0}, 0, 0, true},
      {Operation::kSyrk, 0, 22, 3, {9, 0, 0, 0, 0}, 9, 0, true, 5},
      {Operation::kHerk, 0, 22, 3, {9, 2, 0, 0, 0}, 9, 0, true, 5},
      {Operation::kSymm, 6, 5, 0, {1, 0, 1, 0, 1}, 0},
      // trmm with GEMM leaves of 8: 17 = 16 + 1, 16 = 8 + 8: two couplings, two GEMM leaves (a
      // copy and a GEMM each, their blocks filled first) on one scratch, one tri_block.
      {Operation::kTrmm, 17, 3, 0, {4, 2, 2, 1, 1}, 0, 8},
      // trsm likewise, every block inverted first by one tri_invert.
      {Operation::kTrsm, 17, 3, 0, {4, 2, 0, 1, 1, 1}, 0, 8},
      // The same on 12 columns in 3 panels of 4, each a lane: the full blocks once, the
      // couplings, leaf copies, leaf GEMMs and last tri_block per panel.
      {Operation::kTrsm, 17, 12, 0, {12, 6, 0, 3, 1, 1}, 3, 8, false, 0, 3},
      {Operation::kTrmm, 17, 12, 0, {12, 6, 2, 3, 1}, 3, 8, false, 0, 3},
  };
  for (const Expect& e : expects) {
    Level3Case c;
    c.op = e.op, c.m = e.m, c.n = e.n, c.k = e.k;
    if (e.op == Operation::kHerk) c.type = DataType::kC32;
    c.alpha = 0.5, c.beta = 0.25;
    c.sizes = sizes;
    c.sizes.trmm_leaf = c.sizes.trsm_leaf = e.gemm_leaf;
    c.sizes.rank_triangle_leaf = e.triangle_leaf;
    c.sizes.tri_panels = e.panels, c.sizes.tri_panel_min = 4;
    Level3Operands ops = tbtest::make_operands(c);
    tbtest::CpuLevel3Backend backend(e.triangles);
    ASSERT_EQ(tileblas::run_level3_plan(ops.problem(), backend, c.sizes), cudaSuccess) << c.str();
    const tbtest::PlanCounts& got = backend.counts();
    EXPECT_EQ(got.gemm, e.counts.gemm) << c.str();
    EXPECT_EQ(got.tri_update, e.counts.tri_update) << c.str();
    EXPECT_EQ(got.tri_fill, e.counts.tri_fill) << c.str();
    EXPECT_EQ(got.tri_block, e.counts.tri_block) << c.str();
    EXPECT_EQ(got.scratch, e.counts.scratch) << c.str();
    EXPECT_EQ(got.tri_invert, e.counts.tri_invert) << c.str();
    EXPECT_EQ(backend.lanes(), e.lanes) << c.str();
  }
}

TEST(Level3Plan, RejectsWhatNoRoutineIs) {
  tileblas::Problem p;
  p.n = p.k = 4;
  p.op = Operation::kHerk;
  p.type = DataType::kF32;
  EXPECT_FALSE(tileblas::level3_plan_handles(p));  // herk of real data
  p.type = DataType::kC32;
  EXPECT_TRUE(tileblas::level3_plan_handles(p));
  p.trans_a = Op::kTrans;
  EXPECT_FALSE(tileblas::level3_plan_handles(p));  // herk takes N or C
  p.op = Operation::kSyrk;
  EXPECT_TRUE(tileblas::level3_plan_handles(p));
  p.trans_a = Op::kConjTrans;
  EXPECT_FALSE(tileblas::level3_plan_handles(p));  // complex syrk takes N or T
  p.op = Operation::kTrsm;
  p.type = DataType::kF16;
  EXPECT_FALSE(tileblas::level3_plan_handles(p));
}

// ---- level3_on_device_supports() ------------------------------------------------------------

// supports() holds exactly for the types that have a GEMM kernel on the device (the plans' bulk).
TEST(Level3PlanSupports, FollowsTheGemmKernels) {
  const tileblas::DeviceCaps caps = tbtest::hopper_caps();
  for (DataType t : kTypes) {
    tileblas::Problem g;
    g.type = g.c_type = t;
    g.m = g.n = g.k = 256;
    g.lda = g.ldb = g.ldc = 256;
    g.a = g.b = g.c = reinterpret_cast<void*>(uintptr_t(1) << 20);
    std::string why;
    const bool has_gemm = tileblas::pick_gemm_kernel(g, caps, "", &why) != nullptr;
    for (Operation op : {Operation::kTrsm, Operation::kTrmm, Operation::kSyrk, Operation::kSyr2k,
                         Operation::kSymm}) {
      tileblas::Problem p;
      p.op = op, p.type = t;
      p.m = p.n = p.k = 300;
      p.alpha = 1.0, p.beta = 0.5;
      p.a = p.b = g.a, p.c = g.c;
      p.lda = p.ldb = p.ldc = 300;
      EXPECT_EQ(tileblas::level3_on_device_supports(p, caps), has_gemm)
          << tileblas::name_of(t) << " op " << int(op);
    }
  }
  // No kernel takes fp16 triangles.
  tileblas::Problem p;
  p.type = DataType::kF16;
  p.m = p.n = 8;
  EXPECT_FALSE(tileblas::level3_on_device_supports(p, caps));
}

// ---- the device plans -----------------------------------------------------------------------

struct DeviceBytes {
  void* p = nullptr;
  explicit DeviceBytes(const std::vector<unsigned char>& host) {
    EXPECT_EQ(cudaMalloc(&p, std::max<size_t>(host.size(), 1)), cudaSuccess);
    if (!host.empty()) {
      EXPECT_EQ(cudaMemcpy(p, host.data(), host.size(), cudaMemcpyHostToDevice), cudaSuccess);
    }
  }
  ~DeviceBytes() { cudaFree(p); }
  void copy_to(std::vector<unsigned char>& host) const {
    if (!host.empty()) {
      EXPECT_EQ(cudaMemcpy(host.data(), p, host.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    }
  }
};

std::string run_on_device(const Level3Operands& ops, std::vector<unsigned char>& a,
                          std::vector<unsigned char>& b, std::vector<unsigned char>& out) {
  DeviceBytes da(a), db(b), dout(out);
  const tileblas::Problem p = ops.problem(da.p, b.empty() ? nullptr : db.p, dout.p);
  if (!tileblas::level3_on_device_supports_with(p, tbtest::device_caps(), ops.c.sizes))
    return "skip";
  const cudaError_t err =
      tileblas::run_level3_on_device_with(p, tbtest::device_caps(), nullptr, ops.c.sizes);
  if (err != cudaSuccess) return std::string("run failed: ") + cudaGetErrorString(err);
  da.copy_to(a), db.copy_to(b), dout.copy_to(out);
  return "";
}

TEST(Level3PlanDevice, MatchesOpenBlas) {
  TB_REQUIRE_GPU();
  check_cases(tbtest::level3_plan_cases(kTypes, true, true), run_on_device);
}

// Larger calls through run_level3_on_device() itself (the device's block sizes, several levels
// of recursion, GEMMs large enough for the router's larger tiles).
TEST(Level3PlanDevice, LargerCalls) {
  TB_REQUIRE_GPU();
  std::vector<Level3Case> cases;
  for (DataType t : kTypes) {
    Level3Case c;
    c.type = t, c.alpha = 0.75, c.beta = 0.5, c.pad = 5;
    c.sizes = tileblas::level3_block_sizes(t);
    for (Operation op : {Operation::kTrsm, Operation::kTrmm}) {
      c.op = op, c.m = 611, c.n = 300, c.side = tileblas::Side::kLeft;
      c.uplo = tileblas::Uplo::kUpper, c.trans = Op::kTrans;
      cases.push_back(c);
      c.m = 300, c.n = 555, c.side = tileblas::Side::kRight;
      c.uplo = tileblas::Uplo::kLower, c.trans = Op::kNoTrans, c.diag = tileblas::Diag::kUnit;
      cases.push_back(c);
      c.diag = tileblas::Diag::kNonUnit;
    }
    c.op = Operation::kSyrk, c.n = 1100, c.k = 200, c.uplo = tileblas::Uplo::kLower;
    cases.push_back(c);
    c.op = Operation::kSyr2k, c.trans = Op::kTrans, c.uplo = tileblas::Uplo::kUpper;
    cases.push_back(c);
    c.op = Operation::kSymm, c.m = 500, c.n = 300, c.side = tileblas::Side::kRight;
    cases.push_back(c);
  }
  check_cases(cases, run_on_device);
}

// Complex fp32 calls whose GEMMs are large enough for the router to run them on the FP64 tensor
// cores on sm_80 / sm_90 (the cgemm_widened rows: k >= 256, m and n >= 1000, or m >= 256 with n
// large where A is read in place; src/router.cpp), triangles of C
// (herk, syr2k) among them; complex scalars, NaN where nothing may be read or written.
TEST(Level3PlanDevice, ComplexSingleOnWidenedGemms) {
  TB_REQUIRE_GPU();
  std::vector<Level3Case> cases;
  Level3Case c;
  c.type = DataType::kC32, c.alpha = Scalar(0.75, -0.5), c.beta = Scalar(0.5, 0.25), c.pad = 5;
  c.sizes = tileblas::level3_block_sizes(c.type);
  c.op = Operation::kTrsm, c.m = 2200, c.n = 1100, c.side = tileblas::Side::kLeft;
  c.uplo = tileblas::Uplo::kLower, c.trans = Op::kConjTrans;
  cases.push_back(c);
  c.op = Operation::kTrmm, c.m = 1100, c.n = 2200, c.side = tileblas::Side::kRight;
  c.uplo = tileblas::Uplo::kUpper, c.trans = Op::kNoTrans, c.diag = tileblas::Diag::kUnit;
  cases.push_back(c);
  c.op = Operation::kHerk, c.n = 2200, c.k = 1100, c.uplo = tileblas::Uplo::kLower;
  c.alpha = 0.75, c.beta = 0.5;
  cases.push_back(c);
  c.op = Operation::kSyr2k, c.trans = Op::kTrans, c.uplo = tileblas::Uplo::kUpper;
  c.alpha = Scalar(0.75, -0.5), c.beta = Scalar(0.5, 0.25);
  cases.push_back(c);
  // Side L with B's 4096 columns: the GEMM leaves (256 or 512 rows of B by 4096, k = the rows) and
  // the couplings below them widen too (m >= 256 with n >= 1000, A read in place or transposed).
  c.op = Operation::kTrsm, c.m = 1024, c.n = 4096, c.side = tileblas::Side::kLeft;
  c.uplo = tileblas::Uplo::kLower, c.trans = Op::kNoTrans, c.diag = tileblas::Diag::kNonUnit;
  cases.push_back(c);
  c.op = Operation::kTrmm, c.uplo = tileblas::Uplo::kUpper, c.trans = Op::kTrans;
  cases.push_back(c);
  check_cases(cases, run_on_device);
}

// Calls whose GEMMs the router sends to the peeled rows (src/gemm_peel.h: m or n a few past whole
// tiles, the interior two rounds of the SMs or more, all parts on the stream it is given) from
// within a plan, whose lanes give a GEMM a side stream: fp64 trsm's 1537 x 2049 x 2560 coupling,
// complex fp64 trmm's 1537 x 1024 x 2560 and 1024 x 1025 x 1536, fp32 symm's 2049 x 4097 x 2049.
TEST(Level3PlanDevice, PeeledGemms) {
  TB_REQUIRE_GPU();
  std::vector<Level3Case> cases;
  Level3Case c;
  c.type = DataType::kF64, c.alpha = 0.75, c.beta = 0.5, c.pad = 3;
  c.sizes = tileblas::level3_block_sizes(c.type);
  c.op = Operation::kTrsm, c.m = 4097, c.n = 2049, c.side = tileblas::Side::kLeft;
  c.uplo = tileblas::Uplo::kLower, c.trans = Op::kNoTrans;
  cases.push_back(c);
  c.type = DataType::kC64, c.alpha = Scalar(0.75, -0.5), c.beta = Scalar(0.5, 0.25);
  c.sizes = tileblas::level3_block_sizes(c.type);
  c.op = Operation::kTrmm, c.uplo = tileblas::Uplo::kUpper, c.trans = Op::kConjTrans;
  c.diag = tileblas::Diag::kUnit;
  cases.push_back(c);
  c.type = DataType::kF32, c.alpha = 0.75, c.beta = 0.5, c.diag = tileblas::Diag::kNonUnit;
  c.sizes = tileblas::level3_block_sizes(c.type);
  c.op = Operation::kSymm, c.m = 2049, c.n = 4097, c.uplo = tileblas::Uplo::kLower;
  cases.push_back(c);
  check_cases(cases, run_on_device);
}

TEST(Level3PlanDeviceSmall, MatchesOpenBlas) {
  TB_REQUIRE_GPU();
  std::vector<Level3Case> cases = tbtest::level3_plan_cases(kTypes, true, false);
  std::vector<Level3Case> some;
  for (size_t i = 0; i < cases.size(); i += 7) some.push_back(cases[i]);
  check_cases(some, run_on_device);
}

}  // namespace
