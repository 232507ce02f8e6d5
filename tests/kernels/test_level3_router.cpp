// Level 3 other than GEMM, without a GPU: the problem's operation counts and operands (what the
// executor uploads and copies back), and the router's decisions (route_level3()) on synthetic
// device capabilities and rates.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "calibration.h"
#include "cpu_blas.h"
#include "device_support.h"
#include "env.h"
#include "level3_cases.h"
#include "log.h"
#include "operands.h"
#include "ops.h"
#include "router.h"
#include "test_support.h"

namespace {

using tileblas::Config;
using tileblas::DataType;
using tileblas::DeviceCaps;
using tileblas::MemKind;
using tileblas::Mode;
using tileblas::Op;
using tileblas::Operation;
using tileblas::Placement;
using tileblas::Problem;
using tileblas::Rates;
using tileblas::Side;

// Rates of the order seen on an H100 host (as tests/kernels/test_router.cpp's).
Rates typical_rates() {
  Rates r;
  r.cpu_flops = 1e12;
  r.cpu_overhead_s = 2e-6;
  r.h2d_pinned_bps = r.d2h_pinned_bps = 20e9;
  r.h2d_pageable_bps = r.d2h_pageable_bps = 5e9;
  r.gpu_overhead_s = 20e-6;
  r.transfer_latency_s = 10e-6;
  r.gpu_flops = 40e12;
  return r;
}

// Non-null fake addresses: nothing here dereferences them.
Problem problem(Operation op, int64_t m, int64_t n, int64_t k = 0, DataType type = DataType::kF64) {
  alignas(256) static double storage[8];
  Problem p;
  p.op = op;
  p.type = type;
  p.m = m, p.n = n, p.k = k;
  p.alpha = 1.0;
  p.beta = 0.5;
  p.a = p.b = p.c = storage;
  p.lda = p.ldb = p.ldc = std::max<int64_t>({m, n, k, 1});
  return p;
}

// The points' sizes, as src/calibration.cpp measures them.
constexpr int kPointSizes[] = {8, 16, 32, 64, 128, 256, 512};
static_assert(std::size(kPointSizes) == tileblas::Level3Points::kCount, "one size per point");

// The index of the point of size n.
int at(int n) {
  return int(std::find(std::begin(kPointSizes), std::end(kPointSizes), n) -
             std::begin(kPointSizes));
}

// trsm's points (n^3 FLOPs), the CPU BLAS at n^3 / 64^3 x 5 us (5, 40, 320 and 2560 us at 64, 128,
// 256 and 512); the other paths' times left for each test.
tileblas::Level3Points trsm_points() {
  tileblas::Level3Points pts;
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) {
    const double n = kPointSizes[i];
    pts.flops[i] = n * n * n;
    pts.cpu_s[i] = 5e-6 * std::pow(n / 64, 3);
  }
  return pts;
}

// The GPU at 75 us per 64 of size from 64 on (75, 150, 300, 600 us at 64 .. 512), 75 us below:
// its fixed costs.
void set_gpu_75us_per_64(tileblas::Level3Points* pts) {
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) {
    pts->gpu_s[i] = 75e-6 * std::max(1, kPointSizes[i] / 64);
  }
}

// The CPU path and side route_level3() gives host data of trsm n x n, with a GPU (its plan
// supporting the call) or without one.
tileblas::Level3Route route_trsm(int64_t n, const tileblas::Level3Points& pts, bool with_gpu) {
  static const DeviceCaps caps = tbtest::hopper_caps();
  static const Rates rates = typical_rates();
  return tileblas::route_level3(problem(Operation::kTrsm, n, n), Placement{}, Config{},
                                with_gpu ? &caps : nullptr, "no device here", true, &rates, &pts);
}

// Every call within the small calls takes the CPU path route_level3() gives it, with a GPU or
// without one, at every size up to the largest point; past the small calls, none.
void expect_small_call_paths_are_the_routes(const tileblas::Level3Points& pts) {
  for (int64_t n = 1; n <= 600; ++n) {
    const auto path =
        tileblas::level3_small_call_path(pts, problem(Operation::kTrsm, n, n).flops());
    for (const bool with_gpu : {true, false}) {
      const tileblas::Level3Route r = route_trsm(n, pts, with_gpu);
      if (path) {
        EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU) << n;
        EXPECT_EQ(*path, r.cpu_path) << n << ": " << r.reason.str();
      }
    }
    const int points = pts.small_calls.points;
    EXPECT_EQ(path.has_value(), points > 0 && n <= kPointSizes[points - 1]) << n;
  }
}

TEST(Problem, FlopsAreNetlibs) {
  Problem p = problem(Operation::kTrsm, 100, 30);
  EXPECT_EQ(p.flops(), 100.0 * 100 * 30);
  p.side = Side::kRight;
  EXPECT_EQ(p.flops(), 100.0 * 30 * 30);
  p.op = Operation::kSymm;
  EXPECT_EQ(p.flops(), 2.0 * 100 * 30 * 30);
  p.side = Side::kLeft;
  EXPECT_EQ(p.flops(), 2.0 * 100 * 100 * 30);
  p = problem(Operation::kSyrk, 50, 50, 20);
  EXPECT_EQ(p.flops(), 20.0 * 50 * 51);
  p.op = Operation::kSyr2k;
  EXPECT_EQ(p.flops(), 2.0 * 20 * 50 * 50);
  p.op = Operation::kHerk;
  p.type = DataType::kC64;
  EXPECT_EQ(p.flops(), 4 * 20.0 * 50 * 51);
  // The GEMM standing for it in the cost model does as many.
  const tileblas::Problem g = tileblas::gemm_like(p);
  EXPECT_EQ(g.type, DataType::kC64);
  EXPECT_NEAR(g.flops() / p.flops(), 1.0, 0.05);
}

// What moves: C of syrk .. her2k in only when beta != 0 (out its triangle, so whole copies back
// need it in whatever beta); C of symm/hemm only when beta != 0; B of trmm/trsm (in C) unless
// alpha == 0; A and B unless alpha == 0.
TEST(Problem, OperandsSayWhatMoves) {
  Problem p = problem(Operation::kSyrk, 40, 40, 7);
  p.trans_a = Op::kTrans;
  auto o = tileblas::operands_of(p);
  EXPECT_EQ(o.a.rows, 7);
  EXPECT_EQ(o.a.cols, 40);
  EXPECT_TRUE(o.a.in);
  EXPECT_EQ(o.b.ptr, nullptr);
  EXPECT_EQ(o.c.rows, 40);
  EXPECT_TRUE(o.c.in && o.c.out);
  EXPECT_TRUE(o.c.triangle);
  EXPECT_EQ(o.c.uplo, p.uplo);
  p.beta = 0.0;
  o = tileblas::operands_of(p);
  EXPECT_FALSE(o.c.in);
  EXPECT_TRUE(o.c.in_when_copied_back_whole());
  p.alpha = 0.0;
  EXPECT_FALSE(tileblas::operands_of(p).a.in);
  EXPECT_FALSE(p.multiplies());

  p = problem(Operation::kHemm, 30, 20, 0, DataType::kC32);
  p.side = Side::kRight;
  o = tileblas::operands_of(p);
  EXPECT_EQ(o.a.rows, 20);
  EXPECT_EQ(o.b.rows, 30);
  EXPECT_EQ(o.b.cols, 20);
  EXPECT_TRUE(o.c.in && o.c.out);
  EXPECT_FALSE(o.c.triangle);
  p.beta = 0.0;
  EXPECT_FALSE(tileblas::operands_of(p).c.in_when_copied_back_whole());

  p = problem(Operation::kTrsm, 30, 20);
  o = tileblas::operands_of(p);
  EXPECT_EQ(o.a.rows, 30);
  EXPECT_EQ(o.b.ptr, nullptr);
  EXPECT_TRUE(o.c.in && o.c.out);
  p.alpha = 0.0;
  o = tileblas::operands_of(p);
  EXPECT_FALSE(o.a.in || o.c.in);
  EXPECT_TRUE(o.c.out);
}

// GEMM's operands in the same description: A and B read unless nothing is multiplied, C read
// unless beta == 0 and written whole; element sizes per operand (16-bit A and B, fp32 C).
TEST(Problem, GemmOperandsInTheSameDescription) {
  alignas(16) static float storage[64];
  tileblas::Problem g;
  g.type = DataType::kF16, g.c_type = DataType::kF32;
  g.trans_a = Op::kTrans;
  g.m = 5, g.n = 6, g.k = 7;
  g.a = g.b = g.c = storage;
  g.lda = 7, g.ldb = 7, g.ldc = 5;
  g.alpha = 1.0, g.beta = 0.5;
  auto o = tileblas::operands_of(g);
  EXPECT_EQ(o.a.rows, 7);
  EXPECT_EQ(o.a.cols, 5);
  EXPECT_EQ(o.b.rows, 7);
  EXPECT_EQ(o.b.cols, 6);
  EXPECT_EQ(o.a.elem, 2u);
  EXPECT_EQ(o.c.elem, 4u);
  EXPECT_TRUE(o.a.in && o.b.in && o.c.in && o.c.out);
  EXPECT_FALSE(o.c.triangle);
  g.beta = 0.0;
  EXPECT_FALSE(tileblas::operands_of(g).c.in);
  g.alpha = 0.0;
  o = tileblas::operands_of(g);
  EXPECT_FALSE(o.a.in || o.b.in);
  g.alpha = 1.0, g.k = 0;
  EXPECT_FALSE(tileblas::operands_of(g).a.in);

  // Where they lie: host memory without a device; a routine's missing B takes A's place.
  std::vector<double> heap(16);
  Problem p = problem(Operation::kTrsm, 4, 4);
  p.a = p.c = heap.data();
  p.b = nullptr;
  const tileblas::Placement where = tileblas::placement_of(tileblas::operands_of(p), -1);
  EXPECT_EQ(where.a, MemKind::kHostPageable);
  EXPECT_EQ(where.b, where.a);
  EXPECT_EQ(where.c, MemKind::kHostPageable);
  EXPECT_FALSE(where.any_other_device());
}

TEST(Level3Router, WithoutADeviceOrAPlanTheCpu) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Rates rates = typical_rates();
  const Problem p = problem(Operation::kTrsm, 4096, 4096);
  auto r =
      tileblas::route_level3(p, Placement{}, Config{}, nullptr, "no CUDA device", true, &rates);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU);
  EXPECT_NE(r.reason.str().find("no CUDA device"), std::string::npos);
  const Placement device{MemKind::kDevice, MemKind::kDevice, MemKind::kDevice};
  r = tileblas::route_level3(p, device, Config{}, &caps, "", false, nullptr);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU);
  EXPECT_NE(r.reason.str().find("no GPU plan"), std::string::npos);
}

TEST(Level3Router, DeviceDataAndModeGpuRunOnTheGpu) {
  const DeviceCaps caps = tbtest::hopper_caps();
  for (MemKind kind : {MemKind::kDevice, MemKind::kManaged}) {
    for (int64_t n : {1, 33, 4096}) {
      const Placement some_on_device{MemKind::kHostPageable, kind, kind};
      const auto r = tileblas::route_level3(problem(Operation::kSymm, n, n), some_on_device,
                                            Config{}, &caps, "", true, nullptr);
      EXPECT_EQ(r.side, TILEBLAS_ROUTE_GPU) << n;
    }
  }
  Config gpu;
  gpu.mode = Mode::kGpu;
  const auto r = tileblas::route_level3(problem(Operation::kTrmm, 3, 3), Placement{}, gpu, &caps,
                                        "", true, nullptr);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_GPU);
  EXPECT_EQ(r.reason.str(), "TILEBLAS_MODE=gpu");
}

TEST(Level3Router, HostDataFollowsTheCostModel) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Rates rates = typical_rates();
  const Placement host;
  Config cfg;
  for (Operation op : {Operation::kSymm, Operation::kHemm, Operation::kSyrk, Operation::kHerk,
                       Operation::kSyr2k, Operation::kHer2k, Operation::kTrmm, Operation::kTrsm}) {
    const DataType type =
        op == Operation::kHemm || op == Operation::kHerk || op == Operation::kHer2k
            ? DataType::kC64
            : DataType::kF64;
    EXPECT_TRUE(tileblas::level3_needs_rates(problem(op, 8, 8, 8, type), host, cfg));
    const auto small =
        tileblas::route_level3(problem(op, 32, 32, 32, type), host, cfg, &caps, "", true, &rates);
    EXPECT_EQ(small.side, TILEBLAS_ROUTE_CPU) << small.reason.str();
    // At 4096 these rates (a 1 TFLOP/s CPU, 5 GB/s copies) still favour the CPU for trsm.
    const auto large = tileblas::route_level3(problem(op, 8192, 8192, 8192, type), host, cfg, &caps,
                                              "", true, &rates);
    EXPECT_EQ(large.side, TILEBLAS_ROUTE_GPU) << large.reason.str();
    EXPECT_NE(large.reason.str().find("predicted cpu"), std::string::npos);
    // The decision is the predictions' with the GEMM margin.
    for (int64_t n : {64, 256, 1024, 2048, 4096, 8192}) {
      const Problem p = problem(op, n, n, n, type);
      const bool gpu_faster = tileblas::predict_level3_gpu_seconds(p, host, rates) * 1.25 <
                              tileblas::predict_level3_cpu_seconds(p, rates);
      const auto r = tileblas::route_level3(p, host, cfg, &caps, "", true, &rates);
      EXPECT_EQ(r.side == TILEBLAS_ROUTE_GPU, gpu_faster) << n;
    }
  }
  // A slow link keeps even a large call on the CPU.
  Rates slow_link = rates;
  slow_link.h2d_pageable_bps = slow_link.d2h_pageable_bps = 5e6;
  const auto slow = tileblas::route_level3(problem(Operation::kTrsm, 4096, 4096), host, cfg, &caps,
                                           "", true, &slow_link);
  EXPECT_EQ(slow.side, TILEBLAS_ROUTE_CPU);
}

// alpha == 0, or k == 0, multiplies nothing: host data stays on the CPU, without rates.
TEST(Level3Router, HostCallsWithoutProductsStayOnTheCpu) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Rates rates = typical_rates();
  Problem p = problem(Operation::kTrsm, 8192, 8192);
  p.alpha = 0.0;
  EXPECT_FALSE(tileblas::level3_needs_rates(p, Placement{}, Config{}));
  EXPECT_EQ(tileblas::route_level3(p, Placement{}, Config{}, &caps, "", true, &rates).side,
            TILEBLAS_ROUTE_CPU);
  p = problem(Operation::kSyrk, 8192, 8192, 0);
  EXPECT_EQ(tileblas::route_level3(p, Placement{}, Config{}, &caps, "", true, &rates).side,
            TILEBLAS_ROUTE_CPU);
}

// The GPU prediction counts the bytes each operand moves, and only host operands.
TEST(Level3Router, GpuPredictionCountsTheCopies) {
  const Rates rates = typical_rates();
  const Placement host;
  Problem symm = problem(Operation::kSymm, 2000, 2000);
  const double with_c = tileblas::predict_level3_gpu_seconds(symm, host, rates);
  symm.beta = 0.0;  // C is not uploaded
  const double without_c = tileblas::predict_level3_gpu_seconds(symm, host, rates);
  EXPECT_NEAR(with_c - without_c,
              2000.0 * 2000 * 8 / rates.h2d_pageable_bps + rates.transfer_latency_s, 1e-9);
  Problem syrk = problem(Operation::kSyrk, 2000, 2000, 100);
  const double syrk_beta = tileblas::predict_level3_gpu_seconds(syrk, host, rates);
  syrk.beta = 0.0;  // C is uploaded all the same
  EXPECT_EQ(tileblas::predict_level3_gpu_seconds(syrk, host, rates), syrk_beta);
  const Placement c_on_device{MemKind::kHostPageable, MemKind::kHostPageable, MemKind::kDevice};
  EXPECT_LT(tileblas::predict_level3_gpu_seconds(syrk, c_on_device, rates), syrk_beta);
  Placement pinned{MemKind::kHostPinned, MemKind::kHostPinned, MemKind::kHostPinned};
  EXPECT_LT(tileblas::predict_level3_gpu_seconds(syrk, pinned, rates), syrk_beta);

  // Through the staging pipeline: pageable data at its rates and latency, and syrk's C copied in
  // only where beta != 0 (its triangle is what comes back).
  Rates staged = rates;
  staged.h2d_staged_bps = 16e9;
  staged.d2h_staged_bps = 18e9;
  staged.staged_latency_s = 50e-6;
  syrk.beta = 0.5;
  const double staged_beta = tileblas::predict_level3_gpu_seconds(syrk, host, staged);
  syrk.beta = 0.0;
  EXPECT_NEAR(staged_beta - tileblas::predict_level3_gpu_seconds(syrk, host, staged),
              2000.0 * 2000 * 8 / staged.h2d_staged_bps + staged.staged_latency_s, 1e-9);
  Problem trsm = problem(Operation::kTrsm, 3000, 1000);
  EXPECT_NEAR(tileblas::predict_level3_gpu_seconds(trsm, host, staged),
              staged.gpu_overhead_s + trsm.flops() / (staged.gpu_flops * 0.5) +
                  3 * staged.staged_latency_s + 3000.0 * 3000 * 8 / staged.h2d_staged_bps +
                  3000.0 * 1000 * 8 * (1 / staged.h2d_staged_bps + 1 / staged.d2h_staged_bps),
              1e-9);
}

// The routine's own points (measured as it runs on each side) decide at or below their largest
// size, whatever the GEMM-based predictions say; above it those decide.
TEST(Level3Router, MeasuredPointsDecideSmallCalls) {
  const DeviceCaps caps = tbtest::hopper_caps();
  Rates rates = typical_rates();
  rates.cpu_flops = 1e9;  // a CPU so slow that the GEMM-based model sends everything to the GPU
  tileblas::Level3Points pts = trsm_points();
  set_gpu_75us_per_64(&pts);
  // Exact at the points, linear between, and below the first every side held at its time there.
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) {
    EXPECT_DOUBLE_EQ(tileblas::level3_point_seconds(pts, pts.cpu_s, pts.flops[i]), pts.cpu_s[i]);
    EXPECT_DOUBLE_EQ(tileblas::level3_point_seconds(pts, pts.gpu_s, pts.flops[i]), pts.gpu_s[i]);
  }
  const double mid = (pts.flops[at(64)] + pts.flops[at(128)]) / 2;
  EXPECT_DOUBLE_EQ(tileblas::level3_point_seconds(pts, pts.cpu_s, mid),
                   (pts.cpu_s[at(64)] + pts.cpu_s[at(128)]) / 2);
  EXPECT_DOUBLE_EQ(tileblas::level3_point_seconds(pts, pts.cpu_s, pts.flops[0] / 4), pts.cpu_s[0]);
  EXPECT_DOUBLE_EQ(tileblas::level3_point_seconds(pts, pts.gpu_s, pts.flops[0] / 4), pts.gpu_s[0]);

  const Placement host;
  Config cfg;
  // 128: the CPU's 40 us against the GPU's 150 us; the model alone says GPU.
  Problem p = problem(Operation::kTrsm, 128, 128);
  EXPECT_EQ(tileblas::route_level3(p, host, cfg, &caps, "", true, &rates).side, TILEBLAS_ROUTE_GPU);
  auto r = tileblas::route_level3(p, host, cfg, &caps, "", true, &rates, &pts);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU);
  EXPECT_NE(r.reason.str().find("measured for this routine"), std::string::npos);
  // 512: the CPU's 2.56 ms against the GPU's 0.6 ms.
  p = problem(Operation::kTrsm, 512, 512);
  EXPECT_EQ(tileblas::route_level3(p, host, cfg, &caps, "", true, &rates, &pts).side,
            TILEBLAS_ROUTE_GPU);
  // Above the largest point the GEMM-based model decides: here the CPU, for a fast CPU.
  rates = typical_rates();
  rates.cpu_flops = 1e15;
  p = problem(Operation::kTrsm, 1024, 1024);
  r = tileblas::route_level3(p, host, cfg, &caps, "", true, &rates, &pts);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU);
  EXPECT_EQ(r.reason.str().find("measured for this routine"), std::string::npos);
}

// The small calls level3() routes at once: those up to the largest point the CPU wins at, and at
// every point before it; route_level3() sends each of them to the CPU too.
TEST(Level3Router, SmallCallsEndWhereTheGpuFirstWins) {
  tileblas::Level3Points pts = trsm_points();  // the CPU BLAS at 5, 40, 320, 2560 us from 64
  set_gpu_75us_per_64(&pts);                   // 75, 150, 300, 600 us
  // 256: 320 us on the CPU against 300 on the GPU, within the margin: still the CPU.
  EXPECT_EQ(tileblas::level3_small_calls(pts).points, at(256) + 1);
  pts.small_calls = tileblas::level3_small_calls(pts);
  for (const int64_t n : {1, 8, 64, 100, 128, 200, 256}) {
    EXPECT_EQ(route_trsm(n, pts, true).side, TILEBLAS_ROUTE_CPU) << n;
    EXPECT_EQ(tileblas::level3_small_call_path(pts, problem(Operation::kTrsm, n, n).flops()),
              tileblas::Level3CpuPath::kCpuBlas)
        << n;
  }
  EXPECT_EQ(tileblas::level3_small_call_path(pts, problem(Operation::kTrsm, 300, 300).flops()),
            std::nullopt);
  pts.gpu_s[at(256)] = 200e-6;  // the GPU wins at 256: the CPU only up to 128
  EXPECT_EQ(tileblas::level3_small_calls(pts).points, at(128) + 1);
  pts.gpu_s[at(64)] = 2e-6;  // and at 64 (before the CPU's wins at 128 and 256): up to 32
  pts.gpu_s[at(256)] = 300e-6;
  EXPECT_EQ(tileblas::level3_small_calls(pts).points, at(32) + 1);
  pts.gpu_s[0] = 1e-9;  // and at the first point: none
  EXPECT_EQ(tileblas::level3_small_calls(pts).points, 0);
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) pts.gpu_s[i] = 1.0;
  EXPECT_EQ(tileblas::level3_small_calls(pts).points, tileblas::Level3Points::kCount);
}

// The host plan takes host calls where its times, read off its points, beat the CPU BLAS's by the
// margin, the GPU still taking those it wins; without a GPU the points choose between
// the two CPU paths alone. Small calls follow one path up to where the winner first changes.
TEST(Level3Router, HostPlanWhereItsPointsWin) {
  using tileblas::Level3CpuPath;
  const DeviceCaps caps = tbtest::hopper_caps();
  const Rates rates = typical_rates();
  tileblas::Level3Points pts = trsm_points();  // the CPU BLAS at 5, 40, 320, 2560 us from 64
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) {
    pts.host_s[i] = pts.cpu_s[i] / 2;  // 2.5, 20, 160, 1280 us from 64
    pts.gpu_s[i] = 1.0;
  }
  pts.host_s[at(512)] = 2500e-6;  // within the margin at 512: the CPU BLAS there
  EXPECT_EQ(tileblas::level3_cpu_path_at(pts, at(256)), Level3CpuPath::kHostPlan);
  EXPECT_EQ(tileblas::level3_cpu_path_at(pts, at(512)), Level3CpuPath::kCpuBlas);
  const tileblas::Level3SmallCalls small = tileblas::level3_small_calls(pts);
  EXPECT_EQ(small.points, tileblas::Level3Points::kCount);
  for (int i = 0; i <= at(256); ++i) EXPECT_EQ(small.path[i], Level3CpuPath::kHostPlan) << i;
  EXPECT_EQ(small.path[at(512)], Level3CpuPath::kCpuBlas);

  const Placement host;
  const std::string none = "no device here";
  for (const DeviceCaps* c : {&caps, static_cast<const DeviceCaps*>(nullptr)}) {
    for (const int64_t n : {1, 64, 128, 200, 256}) {
      const auto r = tileblas::route_level3(problem(Operation::kTrsm, n, n), host, Config{}, c,
                                            none, true, &rates, &pts);
      EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU) << n;
      EXPECT_EQ(r.cpu_path, Level3CpuPath::kHostPlan) << n << ": " << r.reason.str();
      EXPECT_NE(r.reason.str().find("host plan"), std::string::npos) << r.reason.str();
    }
    // Between 256 and 512, where the plan wins at one point only, the times between the points
    // decide: the plan near 256 (517 us against 366 at 300), the CPU BLAS near 512 (2381 against
    // 2313 at 500, within the margin).
    auto r = tileblas::route_level3(problem(Operation::kTrsm, 300, 300), host, Config{}, c, none,
                                    true, &rates, &pts);
    EXPECT_EQ(r.cpu_path, Level3CpuPath::kHostPlan) << r.reason.str();
    r = tileblas::route_level3(problem(Operation::kTrsm, 500, 500), host, Config{}, c, none, true,
                               &rates, &pts);
    EXPECT_EQ(r.cpu_path, Level3CpuPath::kCpuBlas) << r.reason.str();
    // Not in the forced modes, nor for data on the device.
    Config forced;
    forced.mode = Mode::kCpu;
    r = tileblas::route_level3(problem(Operation::kTrsm, 64, 64), host, forced, c, none, true,
                               &rates, &pts);
    EXPECT_EQ(r.cpu_path, Level3CpuPath::kCpuBlas) << r.reason.str();
  }
  Placement on_device;
  on_device.a = on_device.b = on_device.c = MemKind::kDevice;
  auto r = tileblas::route_level3(problem(Operation::kTrsm, 64, 64), on_device, Config{}, &caps, "",
                                  true, &rates, &pts);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_GPU);
  EXPECT_EQ(r.cpu_path, Level3CpuPath::kCpuBlas);
  // A GPU faster than both at 256: the GPU there, and small calls only up to 128.
  pts.gpu_s[at(256)] = 100e-6;
  r = tileblas::route_level3(problem(Operation::kTrsm, 256, 256), host, Config{}, &caps, "", true,
                             &rates, &pts);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_GPU) << r.reason.str();
  EXPECT_EQ(r.cpu_path, Level3CpuPath::kCpuBlas);
  EXPECT_EQ(tileblas::level3_small_calls(pts).points, at(128) + 1);
  // Where the CPU BLAS wins at 64 and 128 and the plan below and at 256, small calls keep each
  // point's path: at a point its own, between two of one path that path, between 128 and 256 the
  // times at the call's size (the CPU BLAS just past 128, the plan from about 134).
  pts.gpu_s[at(256)] = 1.0;
  pts.host_s[at(64)] = 4.9e-6;
  pts.host_s[at(128)] = 39e-6;
  pts.small_calls = tileblas::level3_small_calls(pts);
  EXPECT_EQ(pts.small_calls.path[at(32)], Level3CpuPath::kHostPlan);
  EXPECT_EQ(pts.small_calls.path[at(64)], Level3CpuPath::kCpuBlas);
  EXPECT_EQ(pts.small_calls.path[at(128)], Level3CpuPath::kCpuBlas);
  EXPECT_EQ(pts.small_calls.path[at(256)], Level3CpuPath::kHostPlan);
  for (const int64_t n : {1, 32, 64, 100, 128, 130, 200, 256, 300, 500}) {
    const auto path =
        tileblas::level3_small_call_path(pts, problem(Operation::kTrsm, n, n).flops());
    const auto r = route_trsm(n, pts, true);
    EXPECT_EQ(path, r.cpu_path) << n << ": " << r.reason.str();
    EXPECT_EQ(r.cpu_path, n <= 32 || (n >= 200 && n <= 300) ? Level3CpuPath::kHostPlan
                                                            : Level3CpuPath::kCpuBlas)
        << n;
  }
  expect_small_call_paths_are_the_routes(pts);
  // The point at 64 decides the calls at 64: the plan there; from there to 128 the times between
  // the points (the plan up to about 100, the CPU BLAS within the margin from there). A call at 128
  // follows the 128 point alone, and one at 256 the 256 point.
  pts.host_s[at(64)] = 2.5e-6;
  for (const int64_t n : {1, 40, 64, 80}) {
    EXPECT_EQ(tileblas::route_level3(problem(Operation::kTrsm, n, n), host, Config{}, &caps, "",
                                     true, &rates, &pts)
                  .cpu_path,
              Level3CpuPath::kHostPlan)
        << n;
  }
  for (const int64_t n : {120, 128}) {
    EXPECT_EQ(tileblas::route_level3(problem(Operation::kTrsm, n, n), host, Config{}, &caps, "",
                                     true, &rates, &pts)
                  .cpu_path,
              Level3CpuPath::kCpuBlas)
        << n;
  }
  EXPECT_EQ(tileblas::route_level3(problem(Operation::kTrsm, 256, 256), host, Config{}, &caps, "",
                                   true, &rates, &pts)
                .cpu_path,
            Level3CpuPath::kHostPlan);
}

// Below the smallest point (8) each path takes its time there: fixed costs are most of such a
// call, the host plan's above all. Where the plan wins from 16 up but its fixed cost at 8 (1 us)
// is above the CPU BLAS's routine's (0.5 us), calls of 8 and below run that routine; where the CPU
// BLAS's routine has the larger fixed cost, they run the plan.
TEST(Level3Router, BelowTheSmallestPointEachPathTakesItsTime) {
  using tileblas::Level3CpuPath;
  tileblas::Level3Points pts = trsm_points();
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) {
    pts.host_s[i] = pts.cpu_s[i] / 2;
    pts.gpu_s[i] = 1.0;
  }
  pts.cpu_s[at(8)] = 0.5e-6, pts.host_s[at(8)] = 1e-6;
  pts.cpu_s[at(16)] = 2e-6, pts.host_s[at(16)] = 1.1e-6;
  pts.cpu_s[at(32)] = 4e-6, pts.host_s[at(32)] = 2e-6;
  EXPECT_DOUBLE_EQ(tileblas::level3_point_seconds(pts, pts.host_s, 1.0), 1e-6);
  EXPECT_DOUBLE_EQ(tileblas::level3_point_seconds(pts, pts.cpu_s, 1.0), 0.5e-6);
  pts.small_calls = tileblas::level3_small_calls(pts);
  EXPECT_EQ(pts.small_calls.points, tileblas::Level3Points::kCount);
  // Between 8 and 16 the times at the call's size: the CPU BLAS at 12 (1.01 us against the plan's
  // 1.03), the plan at 14 (1.06 us against 1.43).
  for (const int64_t n : {1, 4, 7, 8, 9, 12, 14, 16, 32, 64}) {
    for (const bool with_gpu : {true, false}) {
      const tileblas::Level3Route r = route_trsm(n, pts, with_gpu);
      EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU) << n;
      EXPECT_EQ(r.cpu_path, n <= 12 ? Level3CpuPath::kCpuBlas : Level3CpuPath::kHostPlan)
          << n << ": " << r.reason.str();
    }
  }
  expect_small_call_paths_are_the_routes(pts);

  // The other way round: the CPU BLAS's routine 20 times slower at 8, no faster from 16 up.
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) pts.host_s[i] = pts.cpu_s[i];
  pts.cpu_s[at(8)] = 20e-6, pts.host_s[at(8)] = 1e-6;
  pts.small_calls = tileblas::level3_small_calls(pts);
  for (const int64_t n : {1, 4, 8, 16, 32}) {
    EXPECT_EQ(route_trsm(n, pts, false).cpu_path,
              n <= 8 ? Level3CpuPath::kHostPlan : Level3CpuPath::kCpuBlas)
        << n;
  }
  expect_small_call_paths_are_the_routes(pts);
}

// While the CPU BLAS's workers may still spin after a call, the host plan's team would share their
// cores: it takes a call only where its points say it wins even kHostPlanSlowdownWhileSpinning (4)
// times slower, else the CPU BLAS runs it. Without the flag the same points choose the plan.
TEST(Level3Router, HostPlanYieldsToSpinningCpuBlasWorkers) {
  using tileblas::Level3CpuPath;
  const DeviceCaps caps = tbtest::hopper_caps();
  const Rates rates = typical_rates();
  tileblas::Level3Points pts = trsm_points();  // the CPU BLAS at 5, 40, 320, 2560 us from 64
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) {
    pts.gpu_s[i] = 1.0;
    pts.host_s[i] = pts.cpu_s[i];  // no faster below 64
  }
  pts.host_s[at(64)] = 4e-6;     // 1.25x faster than the CPU BLAS at 64
  pts.host_s[at(128)] = 32e-6;   // 1.25x at 128
  pts.host_s[at(256)] = 64e-6;   // 5x at 256
  pts.host_s[at(512)] = 512e-6;  // 5x at 512
  const Placement host;
  for (const DeviceCaps* c : {&caps, static_cast<const DeviceCaps*>(nullptr)}) {
    for (const int64_t n : {64, 128, 256, 512}) {
      const Problem p = problem(Operation::kTrsm, n, n);
      const auto calm =
          tileblas::route_level3(p, host, Config{}, c, "no device", true, &rates, &pts, false);
      EXPECT_EQ(calm.cpu_path, Level3CpuPath::kHostPlan) << n << ": " << calm.reason.str();
      const auto spinning =
          tileblas::route_level3(p, host, Config{}, c, "no device", true, &rates, &pts, true);
      EXPECT_EQ(spinning.side, TILEBLAS_ROUTE_CPU) << n;
      EXPECT_EQ(spinning.cpu_path, n <= 128 ? Level3CpuPath::kCpuBlas : Level3CpuPath::kHostPlan)
          << n << ": " << spinning.reason.str();
    }
  }
  // The reason says why the CPU BLAS ran a call the plan would otherwise take.
  const auto r = tileblas::route_level3(problem(Operation::kTrsm, 128, 128), host, Config{}, &caps,
                                        "", true, &rates, &pts, true);
  EXPECT_NE(r.reason.str().find("workers spinning"), std::string::npos) << r.reason.str();
}

// The window in which the CPU BLAS's workers may spin opens with each call the dispatch runs on
// it that a threaded BLAS may split (kThreadedCallFlops and up), and closes kWorkersSpinSeconds
// later; smaller calls leave it as it is.
TEST(Level3Router, CpuBlasSpinWindowFollowsTheLastThreadedCall) {
  namespace cpu_blas = tileblas::cpu_blas;
  const double threaded = cpu_blas::kThreadedCallFlops, single = threaded / 2;
  cpu_blas::note_call(threaded);
  EXPECT_TRUE(cpu_blas::workers_may_spin());
  std::this_thread::sleep_for(std::chrono::duration<double>(cpu_blas::kWorkersSpinSeconds * 1.2));
  EXPECT_FALSE(cpu_blas::workers_may_spin());
  cpu_blas::note_call(single);
  EXPECT_FALSE(cpu_blas::workers_may_spin());
  cpu_blas::note_call(threaded);
  EXPECT_TRUE(cpu_blas::workers_may_spin());
}

}  // namespace

// A host call the points give the host plan goes to the CPU BLAS while its workers may spin, and
// is not noted as such a call: the window closes kWorkersSpinSeconds after the last call that
// opened it, and the plan then takes the routine's calls again (a noted call would have kept the
// routine on the CPU BLAS for as long as its calls came that often). Both paths' results are the
// routine's.
TEST(Level3Router, CallsMovedForSpinningWorkersDoNotKeepThemSpinning) {
  namespace cpu_blas = tileblas::cpu_blas;
  tbtest::Level3Case c;
  c.op = Operation::kTrsm, c.type = DataType::kF64, c.side = Side::kLeft;
  c.uplo = tileblas::Uplo::kLower, c.m = c.n = 128, c.alpha = 0.5;
  const tbtest::Level3Operands ops = tbtest::make_operands(c);
  const std::vector<unsigned char> want = tbtest::openblas_result(ops);
  ASSERT_GE(ops.problem(nullptr, nullptr, nullptr).flops(), cpu_blas::kThreadedCallFlops);
  // trsm's points in fp64: the host plan twice as fast as the CPU BLAS everywhere, no GPU.
  static const Rates rates = typical_rates();
  tileblas::Level3Points pts = trsm_points();
  for (int i = 0; i < tileblas::Level3Points::kCount; ++i) {
    pts.host_s[i] = pts.cpu_s[i] / 2;
    pts.gpu_s[i] = std::numeric_limits<double>::infinity();
  }
  pts.rates = &rates;
  pts.small_calls = tileblas::level3_small_calls(pts);
  auto& slot = tileblas::calibration_detail::level3_slots[int(c.op) * tileblas::kDataTypeCount +
                                                          int(c.type)];
  const tileblas::Level3Points* before = slot.exchange(&pts);
  auto run = [&] {
    std::vector<unsigned char> a = ops.a, out = ops.out;
    tileblas::level3(ops.problem(a.data(), nullptr, out.data()), "dtrsm");
    EXPECT_EQ(tbtest::check_level3(ops, out, want, a, ops.b), "");
    return tileblas::last_call().kernel;
  };
  // A first call measures what the routing needs once (with a GPU, its rates: hundreds of
  // milliseconds, longer than the window), whichever path it takes.
  run();
  using Clock = std::chrono::steady_clock;
  const auto opened = Clock::now();
  cpu_blas::note_call(cpu_blas::kThreadedCallFlops);
  auto after_opening = [&](double share) {
    std::this_thread::sleep_until(
        opened + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(cpu_blas::kWorkersSpinSeconds * share)));
  };
  after_opening(0.3);  // noted, this call would keep the window open until 1.3 times its length
  EXPECT_EQ(run(), "cpu_blas dtrsm_");
  after_opening(1.2);
  EXPECT_FALSE(cpu_blas::workers_may_spin());
  EXPECT_EQ(run(), "trsm plan on the host");
  slot.store(before);
}
