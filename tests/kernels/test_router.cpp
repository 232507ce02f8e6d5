// Router decisions and configuration parsing, without a GPU: synthetic device capabilities and
// rates stand in for the measured ones.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>

#include "calibration.h"
#include "cpu_team.h"
#include "device_support.h"
#include "env.h"
#include "executor.h"
#include "gemm_host_small.h"
#include "gemm_peel.h"
#include "kernel_table.h"
#include "router.h"
#include "test_support.h"

namespace {

using tileblas::Config;
using tileblas::CpuPath;
using tileblas::DataType;
using tileblas::DeviceCaps;
using tileblas::MemKind;
using tileblas::Mode;
using tileblas::Placement;
using tileblas::Problem;
using tileblas::Rates;

// Rates of the order seen on an H100 host: 1 TFLOP/s CPU, 20 / 5 GB/s pinned / pageable copies.
Rates typical_rates() {
  Rates r;
  r.cpu_flops = 1e12;
  r.cpu_overhead_s = 2e-6;
  r.h2d_pinned_bps = r.d2h_pinned_bps = 20e9;
  r.h2d_pageable_bps = r.d2h_pageable_bps = 5e9;
  r.gpu_overhead_s = 20e-6;
  r.gpu_flops = 40e12;
  return r;
}

// Aligned, non-null fake device addresses: the router never dereferences them.
Problem square(int64_t n, DataType ab = DataType::kF32) {
  alignas(256) static float storage[64];
  Problem p;
  p.m = p.n = p.k = n;
  p.lda = p.ldb = p.ldc = n;
  p.a = p.b = p.c = storage;
  p.type = ab;
  p.c_type = DataType::kF32;
  p.alpha = 1.0f;
  p.beta = 0.0f;
  return p;
}

TEST(ConfigTest, ParsesKnownVariables) {
  const char* env[] = {"PATH=/bin",
                       "TILEBLAS_MODE=gpu",
                       "TILEBLAS_VERBOSE=1",
                       "TILEBLAS_ALLOW_TF32=1",
                       "TILEBLAS_FORCE_KERNEL=sgemm_tiled",
                       "TILEBLAS_CPU_BLAS=/x/libblas.so.3",
                       "TILEBLAS_DEVICE=1",
                       "TILEBLAS_CPU_THREADS=4",
                       nullptr};
  const Config c = tileblas::parse_config(env);
  EXPECT_EQ(c.mode, Mode::kGpu);
  EXPECT_TRUE(c.verbose);
  EXPECT_TRUE(c.allow_tf32);
  EXPECT_EQ(c.force_kernel, "sgemm_tiled");
  EXPECT_EQ(c.cpu_blas_path, "/x/libblas.so.3");
  EXPECT_EQ(c.device, 1);
  EXPECT_EQ(c.cpu_threads, 4);
  EXPECT_TRUE(c.problems.empty());
}

TEST(ConfigTest, ReportsUnknownValuesAndNames) {
  const char* env[] = {"TILEBLAS_MODE=fastest",   "TILEBLAS_VERBOSE=maybe", "TILEBLAS_DEVICE=x",
                       "TILEBLAS_CPU_THREADS=-2", "TILEBLAS_MOOD=cpu",      nullptr};
  const Config c = tileblas::parse_config(env);
  EXPECT_EQ(c.mode, Mode::kAuto);
  EXPECT_FALSE(c.verbose);
  EXPECT_EQ(c.device, 0);
  EXPECT_EQ(c.cpu_threads, -1);
  ASSERT_EQ(c.problems.size(), 5u);
  EXPECT_NE(c.problems[3].find("TILEBLAS_CPU_THREADS=-2"), std::string::npos);
  EXPECT_NE(c.problems[4].find("TILEBLAS_MOOD"), std::string::npos);
}

TEST(ConfigTest, ReportsAForcedKernelNoTableHas) {
  const char* env[] = {"TILEBLAS_FORCE_KERNEL=sgemm_no_such_kernel", nullptr};
  const Config c = tileblas::parse_config(env);
  EXPECT_EQ(c.force_kernel, "");
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_NE(c.problems[0].find("sgemm_no_such_kernel names no kernel"), std::string::npos)
      << c.problems[0];
}

TEST(RouterTest, NoDeviceMeansCpu) {
  const auto r =
      tileblas::route_gemm(square(4096), Placement{}, Config{}, nullptr, "no CUDA device", nullptr);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU);
  EXPECT_EQ(r.kernel, nullptr);
  EXPECT_NE(r.reason.str().find("no CUDA device"), std::string::npos);
}

TEST(RouterTest, DeviceDataRunsInPlaceOnTheGpu) {
  const DeviceCaps caps = tbtest::hopper_caps();
  for (MemKind kind : {MemKind::kDevice, MemKind::kManaged}) {
    Placement where{kind, kind, kind};
    for (int64_t n : {1, 7, 64, 4096}) {
      const auto r = tileblas::route_gemm(square(n), where, Config{}, &caps, "", nullptr);
      EXPECT_EQ(r.side, TILEBLAS_ROUTE_GPU) << n;
      ASSERT_NE(r.kernel, nullptr);
      EXPECT_TRUE(r.kernel->supports(square(n), caps));
    }
  }
}

TEST(RouterTest, HostDataFollowsTheCostModel) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Rates rates = typical_rates();
  const Placement host;
  const auto small = tileblas::route_gemm(square(64), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(small.side, TILEBLAS_ROUTE_CPU) << small.reason.str();
  const auto large = tileblas::route_gemm(square(4096), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(large.side, TILEBLAS_ROUTE_GPU) << large.reason.str();
  // With a PCIe link 1000x slower, the same large problem stays on the CPU.
  Rates slow_link = rates;
  slow_link.h2d_pageable_bps = slow_link.d2h_pageable_bps = 5e6;
  const auto slow = tileblas::route_gemm(square(4096), host, Config{}, &caps, "", &slow_link);
  EXPECT_EQ(slow.side, TILEBLAS_ROUTE_CPU) << slow.reason.str();
  // The decision compares the two predictions, the GPU needing a 25% advantage.
  for (int64_t n : {16, 128, 512, 1024, 2048, 8192}) {
    const Problem p = square(n);
    const bool gpu_faster = tileblas::predict_gpu_seconds(p, host, rates) * 1.25 <
                            tileblas::predict_cpu_seconds(p, rates);
    const auto r = tileblas::route_gemm(p, host, Config{}, &caps, "", &rates);
    EXPECT_EQ(r.side == TILEBLAS_ROUTE_GPU, gpu_faster) << n;
  }
}

// Host data is costed before a kernel is picked: the CPU route carries no kernel; the reason
// names both predictions (for a problem the CPU does faster than the GPU's fixed cost, that cost
// alone), and a GPU route adds the kernel row's why.
TEST(RouterTest, HostDataReasonsNameThePredictions) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Rates rates = typical_rates();
  const auto small = tileblas::route_gemm(square(64), Placement{}, Config{}, &caps, "", &rates);
  EXPECT_EQ(small.kernel, nullptr);
  const std::string small_why = small.reason.str();
  EXPECT_EQ(small_why.find("host data, GPU fixed cost: predicted cpu "), 0u) << small_why;
  EXPECT_NE(small_why.find(" ms, gpu 0.02 ms"), std::string::npos) << small_why;
  const auto mid = tileblas::route_gemm(square(512), Placement{}, Config{}, &caps, "", &rates);
  EXPECT_EQ(mid.side, TILEBLAS_ROUTE_CPU) << mid.reason.str();
  EXPECT_EQ(mid.reason.str().find("host data: predicted cpu "), 0u) << mid.reason.str();
  const auto large = tileblas::route_gemm(square(4096), Placement{}, Config{}, &caps, "", &rates);
  ASSERT_NE(large.kernel, nullptr);
  std::string kernel_why;
  tileblas::pick_gemm_kernel(square(4096), caps, "", &kernel_why);
  const std::string large_why = large.reason.str();
  EXPECT_EQ(large_why.find("host data: predicted cpu "), 0u) << large_why;
  EXPECT_NE(large_why.find("; " + kernel_why), std::string::npos) << large_why;
}

// Staging panels: a multiple of 128 columns covering n, at most 8, each at least two waves of
// 128x128 tiles; one panel where that does not split n, or where only A is on the host.
TEST(RouterTest, StagingPanelsFillTheGpu) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Placement host;
  struct Shape {
    int64_t m, n, k;
    bool split;
  } const shapes[] = {{8192, 8192, 8192, true},  {4096, 4096, 4096, true}, {4096, 2400, 32, true},
                      {2048, 2048, 2048, false}, {100, 10000, 100, false}, {2200000, 3, 2, false}};
  for (const Shape& s : shapes) {
    Problem p = square(s.m);
    p.n = s.n;
    p.k = s.k;
    const int64_t cols = tileblas::gemm_panel_cols(p, host, caps);
    const int64_t panels = (s.n + cols - 1) / cols;
    EXPECT_EQ(panels > 1, s.split) << s.m << "x" << s.n << "x" << s.k << ": " << cols;
    EXPECT_LE(cols, s.n);
    EXPECT_LE(panels, 8);
    if (panels > 1) {
      EXPECT_EQ(cols % 128, 0) << cols;
      EXPECT_GE(((s.m + 127) / 128) * (cols / 128), 2 * caps.num_sms) << cols;
    }
  }
  const Placement only_a_on_host{MemKind::kHostPageable, MemKind::kDevice, MemKind::kDevice};
  EXPECT_EQ(tileblas::gemm_panel_cols(square(8192), only_a_on_host, caps), 8192);
}

// With staged copies measured faster than plain pageable ones, large host problems are staged
// (and predicted faster for it); without staged rates, or small, they are copied plainly.
TEST(RouterTest, StagingIsChosenWhereItIsPredictedFaster) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Placement host;
  Rates rates = typical_rates();
  const auto plain = tileblas::route_gemm(square(4096), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(plain.side, TILEBLAS_ROUTE_GPU);
  EXPECT_EQ(plain.panel_cols, 0);
  rates.h2d_staged_bps = rates.d2h_staged_bps = 40e9;
  rates.staged_latency_s = 50e-6;
  const auto staged = tileblas::route_gemm(square(4096), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(staged.side, TILEBLAS_ROUTE_GPU);
  EXPECT_EQ(staged.panel_cols, tileblas::gemm_panel_cols(square(4096), host, caps));
  EXPECT_EQ(staged.reason.str().find("host data, staged: predicted cpu "), 0u)
      << staged.reason.str();
  EXPECT_LT(tileblas::predict_gpu_seconds(square(4096), host, rates, staged.panel_cols),
            tileblas::predict_gpu_seconds(square(4096), host, rates));
  const auto small = tileblas::route_gemm(square(16), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(small.panel_cols, 0);
  // TILEBLAS_MODE=gpu (no rates): staged from 4 MiB of host operands.
  Config gpu;
  gpu.mode = Mode::kGpu;
  EXPECT_EQ(tileblas::route_gemm(square(256), host, gpu, &caps, "", nullptr).panel_cols, 0);
  EXPECT_GT(tileblas::route_gemm(square(1024), host, gpu, &caps, "", nullptr).panel_cols, 0);
}

// A threaded CPU BLAS as measured on the H200 host: one thread up to 64^3 (17 GFLOP/s), then all
// of its threads, woken at ~25 us a call.
Rates with_cpu_points(Rates r) {
  const double n[] = {16, 64, 128, 512}, seconds[] = {0.5e-6, 31e-6, 53e-6, 1.2e-3};
  for (int i = 0; i < 4; ++i) {
    r.cpu_point_flops[i] = 2 * n[i] * n[i] * n[i];
    r.cpu_point_s[i] = seconds[i];
  }
  r.cpu_points = 4;
  r.cpu_flops = 250e9;
  return r;
}

// The CPU prediction runs through the measured points, interpolates between them, takes the
// smallest one's time below it and extends the largest at cpu_flops beyond it.
TEST(RouterTest, CpuPredictionFollowsTheMeasuredPoints) {
  const Rates r = with_cpu_points(typical_rates());
  for (int i = 0; i < r.cpu_points; ++i) {
    const int64_t n = int64_t(std::cbrt(r.cpu_point_flops[i] / 2) + 0.5);
    EXPECT_NEAR(tileblas::predict_cpu_seconds(square(n), r), r.cpu_point_s[i], 1e-12) << n;
  }
  EXPECT_DOUBLE_EQ(tileblas::predict_cpu_seconds(square(4), r), r.cpu_point_s[0]);
  Problem between = square(64);
  between.k = 96;
  const double f = between.flops(), f0 = 2.0 * 64 * 64 * 64, f1 = 2.0 * 128 * 128 * 128;
  EXPECT_NEAR(tileblas::predict_cpu_seconds(between, r),
              31e-6 + (53e-6 - 31e-6) * (f - f0) / (f1 - f0), 1e-12);
  const Problem big = square(1024);
  EXPECT_NEAR(tileblas::predict_cpu_seconds(big, r),
              1.2e-3 + (big.flops() - 2.0 * 512 * 512 * 512) / r.cpu_flops, 1e-12);
  Rates line = typical_rates();
  EXPECT_DOUBLE_EQ(tileblas::predict_cpu_seconds(big, line),
                   line.cpu_overhead_s + big.flops() / line.cpu_flops);
}

// A square problem with A, B and C of one type.
Problem square_of(int64_t n, DataType t) {
  Problem p = square(n, t);
  p.c_type = t;
  return p;
}

// Host team panels: one per 2^17 FLOPs of fp32 (an fp64 or complex double FLOP counts twice), at
// most one per thread and per row or column of C, none below two panels or above 64^3
// multiply-adds a panel (where OpenBLAS wakes its own threads); f32, f64, c32 and c64 only.
TEST(RouterTest, CpuTeamPartsFollowTheWork) {
  EXPECT_EQ(tileblas::cpu_team_parts(square(32), 16), 0);  // 65536 FLOPs: one panel
  EXPECT_EQ(tileblas::cpu_team_parts(square(48), 16), 2);
  EXPECT_EQ(tileblas::cpu_team_parts(square(64), 16), 4);
  EXPECT_EQ(tileblas::cpu_team_parts(square(96), 16), 14);
  EXPECT_EQ(tileblas::cpu_team_parts(square(128), 16), 16);
  EXPECT_EQ(tileblas::cpu_team_parts(square(128), 8), 8);  // 2 * 64^3 FLOPs each: still one thread
  // Panels beyond 2 * 64^3 FLOPs: too large for a CPU BLAS to keep on one thread, any size for our
  // host kernel.
  const bool kernel_panels =
      tileblas::gemm_host_small::best_isa() != tileblas::gemm_host_small::Isa::kNone;
  EXPECT_EQ(tileblas::cpu_team_parts(square(129), 8), kernel_panels ? 8 : 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square(192), 16), kernel_panels ? 16 : 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square(64), 1), 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square(64, DataType::kF16), 16), 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(64, DataType::kF16), 16), 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(64, DataType::kBF16), 16), 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square(64, DataType::kF64), 16), 0);  // C of another type
  // fp64: 2^17 FLOPs of fp32's time is 2^16 FLOPs.
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(32, DataType::kF64), 16), 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(48, DataType::kF64), 16), 4);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(64, DataType::kF64), 16), 8);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(128, DataType::kF64), 16), 16);
  // Complex: 8 FLOPs a multiply-add, each as long as an fp32 one; complex double twice that. On
  // our host kernel, row panels of at least 8 rows; as CPU BLAS calls, panels at least 16 rows or
  // columns wide.
  const int64_t complex_min = kernel_panels ? 8 : 16;
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(16, DataType::kC32), 16), 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(32, DataType::kC32), 16), 2);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(64, DataType::kC32), 16), 64 / complex_min);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(16, DataType::kC64), 16), 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(32, DataType::kC64), 16), 32 / complex_min);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(64, DataType::kC64), 16), 64 / complex_min);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(256, DataType::kC64), 16), 16);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(128, DataType::kC64), 16), 128 / complex_min);
  // CPU BLAS panels of at most 64^3 multiply-adds, whatever the type.
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(128, DataType::kC64), 8), 8);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(129, DataType::kC64), 8), kernel_panels ? 8 : 0);
  EXPECT_EQ(tileblas::cpu_team_parts(square_of(129, DataType::kF64), 8), kernel_panels ? 8 : 0);
  Problem thin = square(64);
  thin.n = 1;
  thin.m = 4096;  // 2^19 FLOPs over rows
  EXPECT_EQ(tileblas::cpu_team_parts(thin, 16), 4);
  thin.m = 3;
  thin.k = 1 << 16;  // 3 rows, 1 column: at most 3 panels
  EXPECT_EQ(tileblas::cpu_team_parts(thin, 16), 3);
}

// A bounce buffer that runs a 64^3 host GEMM in about 5 us (4 us fixed).
Rates with_fast_bounce(Rates r) {
  r.bounce_overhead_s = 4e-6;
  r.bounce_bps = 100e9;
  r.bounce_flops = 10e12;
  return r;
}

Rates with_team_points(Rates r) {
  r = with_cpu_points(r);  // 16, 64, 128, 512
  r.cpu_team_threads = 16;
  r.cpu_team_point_s[1] = 12e-6;  // 64^3
  r.cpu_team_point_s[2] = 40e-6;  // 128^3
  return r;
}

// The team's prediction interpolates between two measured team points and is unknown (0)
// elsewhere; the router takes the team where it is predicted 10% faster than one CPU BLAS call,
// and still prefers the GPU where that is predicted faster than either.
TEST(RouterTest, HostTeamWhenPredictedFaster) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Placement host;
  Rates rates = with_team_points(typical_rates());
  EXPECT_DOUBLE_EQ(tileblas::predict_cpu_team_seconds(square(64), rates), 12e-6);
  Problem between = square(64);
  between.k = 96;
  const double f = between.flops(), f0 = 2.0 * 64 * 64 * 64, f1 = 2.0 * 128 * 128 * 128;
  EXPECT_NEAR(tileblas::predict_cpu_team_seconds(between, rates),
              12e-6 + (40e-6 - 12e-6) * (f - f0) / (f1 - f0), 1e-12);
  EXPECT_EQ(tileblas::predict_cpu_team_seconds(square(48), rates), 0.0);   // no point at 16^3
  EXPECT_EQ(tileblas::predict_cpu_team_seconds(square(256), rates), 0.0);  // none at 512^3

  const auto team = tileblas::route_gemm(square(64), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(team.side, TILEBLAS_ROUTE_CPU) << team.reason.str();
  EXPECT_EQ(team.cpu_parts, 4) << team.reason.str();
  EXPECT_NE(team.reason.str().find("host team"), std::string::npos) << team.reason.str();

  Rates slow_team = rates;  // not 10% faster than the 31 us of one call
  slow_team.cpu_team_point_s[1] = 29e-6;
  EXPECT_EQ(tileblas::route_gemm(square(64), host, Config{}, &caps, "", &slow_team).cpu_parts, 0);

  const Rates fast_gpu = with_fast_bounce(rates);  // 64^3 in 5 us: faster than the team's 12 us
  const auto gpu = tileblas::route_gemm(square(64), host, Config{}, &caps, "", &fast_gpu);
  EXPECT_EQ(gpu.side, TILEBLAS_ROUTE_GPU) << gpu.reason.str();
  EXPECT_EQ(gpu.cpu_parts, 0);

  Config cpu_mode;  // no rates in forced modes: one CPU BLAS call
  cpu_mode.mode = Mode::kCpu;
  EXPECT_EQ(tileblas::route_gemm(square(64), host, cpu_mode, nullptr, "TILEBLAS_MODE=cpu", nullptr)
                .cpu_parts,
            0);
}

// The team serves every type the host kernel does: a c64 problem whose type's rates (its points in
// c64 FLOPs) measured the team faster gets the team and its parts, as an fp32 one does, with a GPU
// and without.
// An operand on a GPU tileblas does not use, the rest on the host: the call runs on the CPU BLAS
// through host copies, never on our host kernel or the host team (they would read GPU memory),
// whatever the CPU rates say.
TEST(RouterTest, OperandOnAnotherGpuNeverRunsOnTheHostKernel) {
  Rates rates = typical_rates();
  rates.small_calls.points = 1;
  rates.small_calls.point_flops[0] = 1e12;
  rates.small_calls.path[0] = CpuPath::kHostKernel;
  for (int i = 0; i < rates.cpu_points; ++i) {
    rates.host_kernel_point_s[i] = rates.cpu_point_s[i] / 10;
    rates.cpu_team_point_s[i] = rates.cpu_point_s[i] / 10;
  }
  rates.gpu_overhead_s = std::numeric_limits<double>::infinity();
  const Placement where{tileblas::MemKind::kHostPageable, tileblas::MemKind::kHostPageable,
                        tileblas::MemKind::kOtherDevice};
  EXPECT_FALSE(where.all_host());
  EXPECT_FALSE(tileblas::gemm_needs_rates(where, Config{}));
  const auto r = tileblas::route_gemm(square(64), where, Config{}, nullptr,
                                      "an operand on another GPU", &rates);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU);
  EXPECT_EQ(r.cpu_path, CpuPath::kCpuBlas) << r.reason.str();
}

TEST(RouterTest, HostTeamServesComplexDouble) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Placement host;
  Rates rates = typical_rates();
  const int64_t n[] = {16, 64, 128, 512};
  const double cpu_s[] = {4e-6, 65e-6, 260e-6, 8e-3}, team_s[] = {0, 14e-6, 45e-6, 0};
  for (int i = 0; i < 4; ++i) {
    rates.cpu_point_flops[i] = square_of(n[i], DataType::kC64).flops();
    rates.cpu_point_s[i] = cpu_s[i];
    rates.cpu_team_point_s[i] = team_s[i];
  }
  rates.cpu_points = 4;
  rates.cpu_team_threads = 16;
  const Problem p = square_of(64, DataType::kC64);
  const auto r = tileblas::route_gemm(p, host, Config{}, &caps, "", &rates);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU) << r.reason.str();
  EXPECT_EQ(r.cpu_path, CpuPath::kHostTeam) << r.reason.str();
  EXPECT_EQ(r.cpu_parts, tileblas::cpu_team_parts(p, 16)) << r.reason.str();
  EXPECT_GE(r.cpu_parts, 4);
  EXPECT_NE(r.reason.str().find("host team"), std::string::npos) << r.reason.str();

  Problem beta = square_of(100, DataType::kC64);  // between the points, beta != 0
  beta.beta = tileblas::Scalar(0.5, -1.0);
  const auto between = tileblas::route_gemm(beta, host, Config{}, &caps, "", &rates);
  EXPECT_EQ(between.cpu_path, CpuPath::kHostTeam) << between.reason.str();
  EXPECT_EQ(between.cpu_parts, tileblas::cpu_team_parts(beta, 16));
  EXPECT_GE(between.cpu_parts, 2);

  Rates no_gpu = rates;  // as measured_cpu_rates()
  no_gpu.gpu_overhead_s = std::numeric_limits<double>::infinity();
  const auto cpu_only = tileblas::route_gemm(p, host, Config{}, nullptr, "no CUDA device", &no_gpu);
  EXPECT_EQ(cpu_only.cpu_path, CpuPath::kHostTeam) << cpu_only.reason.str();
  EXPECT_EQ(cpu_only.cpu_parts, r.cpu_parts);
  EXPECT_EQ(cpu_only.reason.str(), "host team; no GPU: no CUDA device");

  Rates slow_team = rates;  // not 10% faster than one zgemm_ call
  slow_team.cpu_team_point_s[1] = 60e-6;
  EXPECT_EQ(tileblas::route_gemm(p, host, Config{}, &caps, "", &slow_team).cpu_path,
            CpuPath::kCpuBlas);
  // A Level-3 host plan's GEMM stays on the team all the same (route_plan_gemm_on_cpu()), and
  // goes to the CPU BLAS only where neither the team nor the host kernel takes it.
  EXPECT_EQ(tileblas::route_gemm_on_cpu(p, slow_team).cpu_path, CpuPath::kCpuBlas);
  const auto in_plan = tileblas::route_plan_gemm_on_cpu(p, slow_team);
  EXPECT_EQ(in_plan.cpu_path, CpuPath::kHostTeam);
  EXPECT_EQ(in_plan.cpu_parts, r.cpu_parts);
  Rates no_team = rates;
  for (double& t : no_team.cpu_team_point_s) t = 0;
  const bool kernel =
      tileblas::gemm_host_small::best_isa() != tileblas::gemm_host_small::Isa::kNone;
  EXPECT_EQ(
      tileblas::route_plan_gemm_on_cpu(p, no_team).cpu_path,
      kernel && no_team.host_kernel_point_s[1] > 0 ? CpuPath::kHostKernel : CpuPath::kCpuBlas);
}

// Without a GPU, fp32 host problems still take the fastest CPU path the CPU side's rates predict:
// our host kernel, the host team or one CPU BLAS call; without rates, one CPU BLAS call.
TEST(RouterTest, NoDeviceTakesTheHostKernelWhereMeasuredFaster) {
  namespace small = tileblas::gemm_host_small;
  if (small::best_isa() == small::Isa::kNone) GTEST_SKIP() << "no host kernel for this CPU";
  const Placement host;
  Rates rates = with_team_points(typical_rates());  // CPU BLAS 16: 0.5, 64: 31, 128: 53 us
  rates.gpu_overhead_s = std::numeric_limits<double>::infinity();  // as measured_cpu_rates()
  rates.bounce_overhead_s = rates.bounce_bps = rates.bounce_flops = 0;
  rates.host_kernel_point_s[0] = 0.3e-6;  // 16^3
  rates.host_kernel_point_s[1] = 6e-6;    // 64^3
  rates.host_kernel_point_s[2] = 60e-6;   // 128^3: slower than the CPU BLAS and the team
  const std::string why = "no CUDA driver found (libcuda.so.1 cannot be loaded)";
  for (int64_t n : {8, 16, 64}) {
    const auto r = tileblas::route_gemm(square(n), host, Config{}, nullptr, why, &rates);
    EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU);
    EXPECT_EQ(r.cpu_path, CpuPath::kHostKernel) << n << ": " << r.reason.str();
    EXPECT_EQ(r.reason.str(), "host kernel; no GPU: " + why);
  }
  const auto at_128 = tileblas::route_gemm(square(128), host, Config{}, nullptr, why, &rates);
  EXPECT_EQ(at_128.cpu_path, CpuPath::kHostTeam) << at_128.reason.str();
  EXPECT_GE(at_128.cpu_parts, 2);
  // Above the measured points the kernel's time is unknown: one CPU BLAS call.
  EXPECT_EQ(tileblas::route_gemm(square(512), host, Config{}, nullptr, why, &rates).cpu_path,
            CpuPath::kCpuBlas);
  // A kernel not 10% faster than the CPU BLAS is not taken.
  Rates close = rates;
  close.host_kernel_point_s[0] = 0.48e-6;
  EXPECT_EQ(tileblas::route_gemm(square(16), host, Config{}, nullptr, why, &close).cpu_path,
            CpuPath::kCpuBlas);
  // No rates: one CPU BLAS call.
  const auto no_rates = tileblas::route_gemm(square(16), host, Config{}, nullptr, why, nullptr);
  EXPECT_EQ(no_rates.cpu_path, CpuPath::kCpuBlas);
  EXPECT_EQ(no_rates.reason.str(), "no GPU: " + why);
  // The shortcut below the crossover holds without a GPU: no fixed GPU cost bounds it.
  const tileblas::SmallCallRule rule = tileblas::small_call_rule(rates);
  EXPECT_EQ(rule.path_of(rule.flops()), CpuPath::kHostKernel);
  EXPECT_DOUBLE_EQ(rule.flops(), square(64).flops());
}

// A process without a GPU measures the CPU side alone, once per data type: the CPU BLAS at every
// point, and our host kernel where this CPU has a variant.
TEST(CalibrationTest, CpuSideIsMeasuredWithoutADevice) {
  namespace small = tileblas::gemm_host_small;
  const Rates* measured = tileblas::measured_cpu_rates(square(64));
  ASSERT_NE(measured, nullptr);  // no other thread is measuring
  const Rates& r = *measured;
  ASSERT_EQ(r.cpu_points, Rates::kMaxCpuPoints);
  for (int i = 0; i < r.cpu_points; ++i) {
    EXPECT_GT(r.cpu_point_s[i], 0.0) << i;
    if (small::best_isa() != small::Isa::kNone) EXPECT_GT(r.host_kernel_point_s[i], 0.0) << i;
  }
  EXPECT_TRUE(std::isinf(r.gpu_overhead_s));
  const tileblas::SmallCallRule rule = tileblas::small_call_rule(r);
  ASSERT_EQ(r.small_calls.points, rule.points);
  for (int i = 0; i < rule.points; ++i) EXPECT_EQ(r.small_calls.path[i], rule.path[i]) << i;
  EXPECT_DOUBLE_EQ(r.small_calls.flops(), rule.flops());
  EXPECT_EQ(&r, tileblas::measured_cpu_rates(square(8)));
}

// On a type's first call the host team is measured at each CPU point cpu_team_parts() splits, for
// every type it serves, after the CPU BLAS and the host kernel (measure_cpu()).
TEST(CalibrationTest, TeamIsMeasuredForEveryTypeItServes) {
  const tileblas::CpuTeam* team = tileblas::CpuTeam::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  for (DataType t : {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64}) {
    const Rates* measured = tileblas::measured_cpu_rates(square_of(64, t));
    ASSERT_NE(measured, nullptr) << tileblas::name_of(t);  // no other thread is measuring
    const Rates& r = *measured;
    EXPECT_EQ(r.cpu_team_threads, team->threads());
    int split = 0;
    for (int i = 0; i < r.cpu_points; ++i) {
      const double per_product = tileblas::is_complex(t) ? 8.0 : 2.0;
      const int64_t n = std::llround(std::cbrt(r.cpu_point_flops[i] / per_product));
      const bool parts = tileblas::cpu_team_parts(square_of(n, t), r.cpu_team_threads) >= 2;
      EXPECT_EQ(r.cpu_team_point_s[i] > 0, parts) << tileblas::name_of(t) << " " << n;
      split += parts;
    }
    EXPECT_GT(split, 0) << tileblas::name_of(t);
  }
}

// A call that finds another thread measuring the rates does not wait for it: it gets none (and is
// routed without them), or the one set of rates once they are measured.
TEST(CalibrationTest, ConcurrentFirstCallsDoNotWaitForEachOther) {
  Problem p = square(64, DataType::kF64);
  p.c_type = DataType::kF64;
  const Rates* seen[4] = {};
  std::vector<std::thread> threads;
  for (const Rates*& s : seen) {
    threads.emplace_back([&s, &p] { s = tileblas::measured_cpu_rates(p); });
  }
  for (std::thread& t : threads) t.join();
  const Rates* rates = tileblas::measured_cpu_rates(p);
  ASSERT_NE(rates, nullptr);
  int measuring_or_measured = 0;
  for (const Rates* s : seen) {
    EXPECT_TRUE(s == nullptr || s == rates);
    measuring_or_measured += s != nullptr;
  }
  EXPECT_GE(measuring_or_measured, 1);  // the thread that measured them got them
}

// Our host kernel's prediction interpolates between its measured points, takes the smallest
// one's time below it and is unknown (0) above the largest or where the kernel does not support the
// problem. The router takes it where it is predicted 10% faster than one CPU BLAS call and faster
// than the team, and still prefers the GPU where that is predicted faster.
TEST(RouterTest, HostKernelWhenPredictedFaster) {
  namespace small = tileblas::gemm_host_small;
  if (small::best_isa() == small::Isa::kNone) GTEST_SKIP() << "no host kernel for this CPU";
  const DeviceCaps caps = tbtest::hopper_caps();
  const Placement host;
  Rates rates = with_team_points(typical_rates());  // CPU BLAS 16: 0.5, 64: 31, 128: 53 us
  rates.host_kernel_point_s[0] = 0.3e-6;            // 16^3
  rates.host_kernel_point_s[1] = 6e-6;              // 64^3
  rates.host_kernel_point_s[2] = 60e-6;             // 128^3: slower than the CPU BLAS
  EXPECT_DOUBLE_EQ(tileblas::predict_host_kernel_seconds(square(8), rates), 0.3e-6);
  EXPECT_DOUBLE_EQ(tileblas::predict_host_kernel_seconds(square(64), rates), 6e-6);
  EXPECT_EQ(tileblas::predict_host_kernel_seconds(square(256), rates), 0.0);  // none at 512^3
  Problem half = square(16);
  half.type = DataType::kF16;
  EXPECT_EQ(tileblas::predict_host_kernel_seconds(half, rates), 0.0);

  for (int64_t n : {8, 16, 64}) {
    const auto r = tileblas::route_gemm(square(n), host, Config{}, &caps, "", &rates);
    EXPECT_EQ(r.side, TILEBLAS_ROUTE_CPU) << n << ": " << r.reason.str();
    EXPECT_EQ(r.cpu_path, CpuPath::kHostKernel) << n << ": " << r.reason.str();
    EXPECT_EQ(r.cpu_parts, 0);
    EXPECT_NE(r.reason.str().find("host kernel"), std::string::npos) << r.reason.str();
  }
  // 128^3: the kernel is slower than the CPU BLAS; the team (40 us) is 10% faster. One thread
  // would take 53 us: too little to wake sleeping workers for.
  const auto at_128 = tileblas::route_gemm(square(128), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(at_128.cpu_path, CpuPath::kHostTeam) << at_128.reason.str();
  EXPECT_FALSE(at_128.wake_team);
  // 128^3 in 150 us on one thread, 40 us on the team: worth waking it.
  Rates slow_cpu = rates;
  slow_cpu.cpu_point_s[2] = 150e-6;
  slow_cpu.host_kernel_point_s[2] = 0;
  const auto woken = tileblas::route_gemm(square(128), host, Config{}, &caps, "", &slow_cpu);
  EXPECT_EQ(woken.cpu_path, CpuPath::kHostTeam) << woken.reason.str();
  EXPECT_TRUE(woken.wake_team);

  Rates close = rates;  // within 10% of the CPU BLAS: one CPU BLAS call
  close.host_kernel_point_s[0] = 0.48e-6;
  EXPECT_EQ(tileblas::route_gemm(square(16), host, Config{}, &caps, "", &close).cpu_path,
            CpuPath::kCpuBlas);

  const Rates fast_gpu = with_fast_bounce(rates);  // 64^3 in 5 us: faster than the kernel's 6 us
  const auto gpu = tileblas::route_gemm(square(64), host, Config{}, &caps, "", &fast_gpu);
  EXPECT_EQ(gpu.side, TILEBLAS_ROUTE_GPU) << gpu.reason.str();
  EXPECT_EQ(gpu.cpu_path, CpuPath::kCpuBlas);

  // The shortcut's bound: 64^3 (at 128^3 the CPU BLAS is faster); below it every shape the kernel
  // supports routes to the kernel; a GPU fixed cost under the kernel's time lowers it.
  const tileblas::SmallCallRule rule = tileblas::small_call_rule(rates);
  EXPECT_EQ(rule.points, 2);
  EXPECT_EQ(rule.path_of(1.0), CpuPath::kHostKernel);
  EXPECT_EQ(rule.path_of(rule.flops()), CpuPath::kHostKernel);
  EXPECT_DOUBLE_EQ(rule.flops(), 2.0 * 64 * 64 * 64);
  EXPECT_FALSE(rule.path_of(2.1 * 64 * 64 * 64));
  EXPECT_DOUBLE_EQ(tileblas::small_call_rule(fast_gpu).flops(), 2.0 * 16 * 16 * 16);
  // Within 10% of the CPU BLAS at 16^3, 5x faster at 64^3: the CPU BLAS at the smallest point, the
  // kernel at the next; between them the CPU side's prediction decides.
  const tileblas::SmallCallRule mixed = tileblas::small_call_rule(close);
  EXPECT_EQ(mixed.points, 2);
  EXPECT_DOUBLE_EQ(mixed.flops(), 2.0 * 64 * 64 * 64);
  EXPECT_EQ(mixed.path_of(2.0 * 16 * 16 * 16), CpuPath::kCpuBlas);
  EXPECT_FALSE(mixed.path_of(2.0 * 32 * 32 * 32));
  // Every shape within a rule routes to the path the rule gives it, where it gives one.
  for (const Rates* r : {&rates, &close}) {
    const tileblas::SmallCallRule small = tileblas::small_call_rule(*r);
    const uint64_t mn_max = r == &rates ? 300 : 40, k_max = r == &rates ? 64 : 16;
    int checked = 0;
    for (int i = 0; i < 400; ++i) {
      Problem q = square(1);
      q.m = 1 + int64_t(tbtest::rng()() % mn_max), q.n = 1 + int64_t(tbtest::rng()() % mn_max);
      q.k = 1 + int64_t(tbtest::rng()() % k_max);
      q.trans_a = tbtest::rng()() % 2 ? tileblas::Op::kTrans : tileblas::Op::kNoTrans;
      q.lda = q.a_rows(), q.ldb = q.b_rows(), q.ldc = q.m;
      const std::optional<CpuPath> path = small.path_of(q.flops());
      if (q.flops() > small.flops() || !path) continue;
      ++checked;
      const auto routed = tileblas::route_gemm(q, host, Config{}, &caps, "", r);
      EXPECT_EQ(routed.side, TILEBLAS_ROUTE_CPU);
      EXPECT_EQ(routed.cpu_path, *path)
          << q.m << "x" << q.n << "x" << q.k << ": " << routed.reason.str();
    }
    EXPECT_GT(checked, 10);
  }
}

// With the bounce buffer measured (a fixed cost below plain copies'), small host problems
// are bounced where that beats the CPU BLAS; problems whose host operands do not fit the buffer
// are not; the tiniest stay on the CPU. Without rates (TILEBLAS_MODE=gpu, or data on the device)
// host operands that fit are bounced.
TEST(RouterTest, SmallHostProblemsAreBounced) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const Placement host;
  Rates rates = with_cpu_points(typical_rates());
  EXPECT_EQ(tileblas::route_gemm(square(128), host, Config{}, &caps, "", &rates).side,
            TILEBLAS_ROUTE_CPU);  // not measured: plain copies cost more than the CPU
  rates.bounce_overhead_s = 14e-6;
  rates.bounce_bps = 20e9;
  rates.bounce_flops = 1e12;
  const auto mid = tileblas::route_gemm(square(128), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(mid.side, TILEBLAS_ROUTE_GPU) << mid.reason.str();
  EXPECT_EQ(mid.copies, tileblas::HostCopies::kBounced);
  EXPECT_EQ(mid.reason.str().find("host data, bounced: predicted cpu "), 0u) << mid.reason.str();
  EXPECT_LT(tileblas::predict_bounced_seconds(square(128), host, rates),
            tileblas::predict_gpu_seconds(square(128), host, rates));
  const auto tiny = tileblas::route_gemm(square(8), host, Config{}, &caps, "", &rates);
  EXPECT_EQ(tiny.side, TILEBLAS_ROUTE_CPU) << tiny.reason.str();
  EXPECT_EQ(tiny.copies, tileblas::HostCopies::kPlain);
  // 3 x 1 MiB of host operands: too large for the 1 MiB buffer; 3 x 256 KiB fit.
  EXPECT_FALSE(tileblas::bounce_fits(square(512), host));
  EXPECT_TRUE(tileblas::bounce_fits(square(256), host));
  const auto large = tileblas::route_gemm(square(512), host, Config{}, &caps, "", &rates);
  EXPECT_NE(large.copies, tileblas::HostCopies::kBounced);
  // The buffer holds host operands only: 3 x 352 KiB do not fit, two of them do.
  const Placement a_on_device{MemKind::kDevice, MemKind::kHostPageable, MemKind::kHostPageable};
  EXPECT_FALSE(tileblas::bounce_fits(square(300), host));
  EXPECT_TRUE(tileblas::bounce_fits(square(300), a_on_device));
  EXPECT_EQ(tileblas::route_gemm(square(300), a_on_device, Config{}, &caps, "", nullptr).copies,
            tileblas::HostCopies::kBounced);
  const Placement on_device{MemKind::kDevice, MemKind::kDevice, MemKind::kDevice};
  EXPECT_EQ(tileblas::route_gemm(square(64), on_device, Config{}, &caps, "", nullptr).copies,
            tileblas::HostCopies::kPlain);  // nothing to move
  Config gpu;
  gpu.mode = Mode::kGpu;
  EXPECT_EQ(tileblas::route_gemm(square(256), host, gpu, &caps, "", nullptr).copies,
            tileblas::HostCopies::kBounced);
  EXPECT_EQ(tileblas::route_gemm(square(1024), host, gpu, &caps, "", nullptr).copies,
            tileblas::HostCopies::kStaged);
}

// One panel is the plain sequence (copies, then compute); more panels overlap them, down to the
// larger of the two plus the first panel's share.
TEST(RouterTest, StagedPredictionOverlapsCopiesWithCompute) {
  Rates rates = typical_rates();
  rates.h2d_staged_bps = rates.d2h_staged_bps = 40e9;
  const Placement host;
  const Problem p = square(8192);
  const double one = tileblas::predict_gpu_seconds(p, host, rates, p.n);
  const double eight = tileblas::predict_gpu_seconds(p, host, rates, p.n / 8);
  const double bytes = 3.0 * 8192 * 8192 * 4;
  const double compute = p.flops() / rates.gpu_flops;
  EXPECT_NEAR(one, rates.gpu_overhead_s + bytes / 40e9 + compute, 1e-9);
  EXPECT_LT(eight, one);
  EXPECT_GT(eight, rates.gpu_overhead_s + std::max(2.0 / 3.0 * bytes / 40e9, compute));
}

TEST(RouterTest, PinnedHostDataCrossesOverEarlier) {
  const Rates rates = typical_rates();
  const Problem p = square(1024);
  Placement pinned{MemKind::kHostPinned, MemKind::kHostPinned, MemKind::kHostPinned};
  EXPECT_LT(tileblas::predict_gpu_seconds(p, pinned, rates),
            tileblas::predict_gpu_seconds(p, Placement{}, rates));
  // beta == 0: C is not uploaded.
  Problem with_beta = p;
  with_beta.beta = 1.0f;
  EXPECT_LT(tileblas::predict_gpu_seconds(p, Placement{}, rates),
            tileblas::predict_gpu_seconds(with_beta, Placement{}, rates));
}

TEST(RouterTest, ModeGpuForcesTheGpu) {
  const DeviceCaps caps = tbtest::hopper_caps();
  Config cfg;
  cfg.mode = Mode::kGpu;
  const auto r = tileblas::route_gemm(square(2), Placement{}, cfg, &caps, "", nullptr);
  EXPECT_EQ(r.side, TILEBLAS_ROUTE_GPU);
  EXPECT_NE(r.reason.str().find("TILEBLAS_MODE=gpu"), std::string::npos);
}

TEST(RouterTest, EveryGemmRowCanBeForcedWhereItSupportsTheProblem) {
  const DeviceCaps caps = tbtest::hopper_caps();
  for (const tileblas::GemmKernel& k : tileblas::gemm_kernels()) {
    for (DataType t : {DataType::kF32, DataType::kF16, DataType::kBF16}) {
      Problem p = square(1024, t);
      p.allow_tf32 = true;
      if (!k.supports(p, caps)) continue;
      std::string why;
      EXPECT_EQ(tileblas::pick_gemm_kernel(p, caps, k.name, &why), &k) << k.name;
      EXPECT_EQ(why, "TILEBLAS_FORCE_KERNEL");
    }
  }
}

TEST(RouterTest, EveryGemmProblemHasAKernel) {
  const DeviceCaps caps = tbtest::hopper_caps();
  for (DataType t : {DataType::kF32, DataType::kF16, DataType::kBF16}) {
    for (int64_t n : {1, 3, 33, 1000, 4097}) {
      std::string why;
      const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(square(n, t), caps, "", &why);
      ASSERT_NE(k, nullptr) << tileblas::name_of(t) << " n=" << n;
      EXPECT_TRUE(k->supports(square(n, t), caps)) << k->name;
    }
  }
  // fp32 never runs on TF32 tensor cores unless the user opted in.
  for (int64_t n : {64, 1024, 4096}) {
    std::string why;
    Problem p = square(n);
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, caps, "", &why);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(std::string(k->name).find("tf32"), std::string::npos) << k->name;
  }
}

// Tensor-core rows: wgmma (sm_90a build, Hopper) wherever it supports the problem, measured 0.9x of
// cuBLAS against mma.sync's 0.5x (docs/NOTES-tensorcore.md); mma.sync on other devices; TF32 only
// with the opt-in.
TEST(RouterTest, PicksWgmmaOnHopperAndMmaElsewhere) {
  const DeviceCaps hopper = tbtest::hopper_caps();
  DeviceCaps ampere = hopper;
  ampere.sm_version = 80;
  const char* types[] = {"f16", "bf16", "tf32"};
  for (const char* type : types) {
    const std::string name(type);
    Problem p = square(4096, name == "f16"    ? DataType::kF16
                             : name == "bf16" ? DataType::kBF16
                                              : DataType::kF32);
    p.allow_tf32 = true;
    const tileblas::GemmKernel* wgmma = nullptr;
    for (const tileblas::GemmKernel& k : tileblas::gemm_kernels()) {
      if (std::string(k.name).rfind("gemm_wgmma_" + name + "_", 0) == 0) wgmma = &k;
    }
    ASSERT_NE(wgmma, nullptr) << name;
    std::string why;
    const tileblas::GemmKernel* on_hopper = tileblas::pick_gemm_kernel(p, hopper, "", &why);
    ASSERT_NE(on_hopper, nullptr);
    const std::string expect_hopper = wgmma->supports(p, hopper) ? "gemm_wgmma_" : "gemm_mma_";
    EXPECT_EQ(std::string(on_hopper->name).rfind(expect_hopper + name + "_", 0), 0u)
        << on_hopper->name;
    const tileblas::GemmKernel* on_ampere = tileblas::pick_gemm_kernel(p, ampere, "", &why);
    ASSERT_NE(on_ampere, nullptr);
    EXPECT_EQ(std::string(on_ampere->name).rfind("gemm_mma_" + name + "_", 0), 0u)
        << on_ampere->name;
  }
}

// The preference table's choices for the shapes measured in docs/NOTES-sgemm.md: on Hopper the
// widened rows where m, n >= 1000 and k >= 256 (docs/NOTES-f64-complex.md), and their 64x64 tile
// from m, n >= 500 where its tiles take at most one round of the SMs, the 64x64 split-K rows summed
// in clusters where those tiles take at most half a round and k cuts into 2 to 8 slices, the SIMT
// rows elsewhere.
TEST(RouterTest, PicksTheMeasuredFastestSgemmKernel) {
  const DeviceCaps caps = tbtest::hopper_caps();
  struct Expect {
    int64_t m, n, k;
    const char* kernel;
  } const cases[] = {
      {256, 256, 256, "sgemm_splitk_64x64x16_align16"},  // 16 tiles, 4 slices in a cluster
      {257, 257, 257, "sgemm_splitk_64x64x16_align4"},   // 25 tiles, 4 slices
      {499, 499, 499, "sgemm_splitk_64x64x16_align4"},   // 64 tiles, 8 slices
      {512, 512, 512, "sgemm_splitk_64x64x16_align16"},  // 64 tiles, 8 slices
      {257, 257, 64, "sgemm_regblock_64x64x16_align4"},  // one slice
      {513, 513, 513, "sgemm_widened_64x64x16"},  // 81 tiles: at most one round, past half a round
      {520, 520, 520, "sgemm_widened_64x64x16"},
      {999, 999, 999, "sgemm_widened_64x64x16"},
      {1024, 1024, 1024, "sgemm_widened_64x64x16"},
      {1025, 1025, 1025, "sgemm_widened_64x64x16"},   // 289 tiles on 396 slots
      {1025, 1025, 2051, "sgemm_widened_128x64x16"},  // k past twice the larger side
      {1300, 1300, 1300, "sgemm_widened_128x64x16"},  // 441 tiles: more than one round
      {2049, 2049, 1024, "sgemm_peeled_widened_128x64x16"},
      {2064, 2064, 1024, "sgemm_peeled_widened_128x64x16"},
      {2065, 2065, 1024, "sgemm_widened_128x64x16"},
      {2049, 2049, 500, "sgemm_widened_128x64x16"},
      {2048, 2048, 2048, "sgemm_widened_128x64x16"},
      {2049, 2049, 2049, "sgemm_peeled_widened_128x64x16"},
      {4096, 4096, 4096, "sgemm_widened_128x128x16"},
      {4097, 4097, 4097, "sgemm_peeled_widened_128x128x16"},
      {8192, 8192, 8192, "sgemm_widened_128x128x16"},
      {8192, 8192, 256, "sgemm_widened_128x64x16"},
      {8192, 8192, 128, "sgemm_regblock_128x128x16_align16"},
      {128, 128, 65536, "sgemm_splitk_128x64x16_align16"},
      {16384, 64, 16384, "sgemm_widened_b_splitk_128x64x16"},  // A much larger than B
      {8192, 256, 2048, "sgemm_widened_b_128x128x16"},
      {8192, 256, 1024, "sgemm_regblock_128x64x16_align16"},
      {8192, 128, 8192, "sgemm_widened_b_splitk_128x64x16"},
      {1024, 128, 8192, "sgemm_splitk_128x64x16_align16"},  // m < 16 n
      {8192, 32, 8192, "sgemm_splitk_128x64x16_align16"},   // n < 64
      {8, 4096, 4096, "gemm_skinny_8"},
      {16, 4096, 4096, "gemm_skinny_16"},
      {36, 4096, 4096, "sgemm_widened_a_splitk_64x64x16"},
      {64, 512, 8192, "sgemm_splitk_64x64x16_align16"},  // n < 16 m
      {32, 8192, 2048, "sgemm_widened_a_splitk_64x64x16"},
      {64, 8192, 8192, "sgemm_widened_a_splitk_64x64x16"},  // B much larger than A
      {24, 8192, 2048, "sgemm_splitk_64x64x16_align16"},    // fewer than 32 rows
      {72, 8192, 8192, "sgemm_splitk_128x64x16_align16"},
  };
  for (const Expect& e : cases) {
    Problem p = square(e.m);
    p.n = e.n;
    p.k = e.k;
    p.lda = e.m;
    p.ldb = e.k;
    p.ldc = e.m;
    std::string why;
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, caps, "", &why);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->name, e.kernel) << e.m << "x" << e.n << "x" << e.k << ": " << why;
  }
}

// The sgemm_widened_b rows only where they read A as it lies (not transposed, aligned, lda a
// multiple of 4), the sgemm_widened_a row only where it reads B so (not transposed, aligned, ldb a
// multiple of 4); else the SIMT split-K rows, as without them.
TEST(RouterTest, WidenedRowsOnlyWhereTheyReadTheirFp32OperandInPlace) {
  const DeviceCaps caps = tbtest::hopper_caps();
  alignas(16) static float storage[8];
  struct Case {
    bool tall;  // 8192x128x8192 (A read as it lies), else 64x8192x8192 (B)
    tileblas::Op op;
    int64_t ld, offset;
    const char* kernel;
  } const cases[] = {
      {true, tileblas::Op::kNoTrans, 8192, 0, "sgemm_widened_b_splitk_128x64x16"},
      {true, tileblas::Op::kNoTrans, 8196, 0, "sgemm_widened_b_splitk_128x64x16"},
      {true, tileblas::Op::kTrans, 8192, 0, "sgemm_splitk_128x64x16_align16"},
      {true, tileblas::Op::kNoTrans, 8194, 0, "sgemm_splitk_128x64x16_align4"},
      {true, tileblas::Op::kNoTrans, 8192, 1, "sgemm_splitk_128x64x16_align4"},
      {false, tileblas::Op::kNoTrans, 8192, 0, "sgemm_widened_a_splitk_64x64x16"},
      {false, tileblas::Op::kNoTrans, 8196, 0, "sgemm_widened_a_splitk_64x64x16"},
      {false, tileblas::Op::kTrans, 8192, 0, "sgemm_splitk_64x64x16_align16"},
      {false, tileblas::Op::kNoTrans, 8194, 0, "sgemm_splitk_64x64x16_align4"},
      {false, tileblas::Op::kNoTrans, 8192, 1, "sgemm_splitk_64x64x16_align4"},
  };
  for (const Case& c : cases) {
    Problem p = square(8192);
    p.m = c.tall ? 8192 : 64;
    p.n = c.tall ? 128 : 8192;
    p.lda = p.ldc = p.m;
    p.ldb = 8192;
    (c.tall ? p.trans_a : p.trans_b) = c.op;
    (c.tall ? p.lda : p.ldb) = c.ld;
    (c.tall ? p.a : p.b) = storage + c.offset;
    std::string why;
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, caps, "", &why);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->name, c.kernel) << (c.tall ? "A " : "B ") << tileblas::name_of(c.op) << " ld "
                                    << c.ld << " +" << c.offset << ": " << why;
  }
}

// A triangular operand (trmm's and trsm's GEMM leaves) keeps the large GEMMs on rows that skip its
// zeros' k-steps (here the widened rows, whose dgemm kernel skips them): the packed row would
// multiply them.
TEST(RouterTest, TriangularOperandsStayOffThePackedRow) {
  const DeviceCaps caps = tbtest::hopper_caps();
  for (int64_t n : {4096, 8192}) {
    for (int which = 0; which < 2; ++which) {
      Problem p = square(n);
      (which == 0 ? p.a_nonzero : p.b_nonzero) = tileblas::Triangle::kLower;
      std::string why;
      const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, caps, "", &why);
      ASSERT_NE(k, nullptr);
      EXPECT_STREQ(k->name, "sgemm_widened_128x128x16") << n << ", " << which << ": " << why;
    }
  }
}

// fp64: the 128x128 tensor-core tile once its tiles fill the SMs four times over, else 128x64; odd
// leading dimensions on the scalar-load row. Complex double: the 16-byte row. Each with m and n a
// few past whole tiles peeled where that takes a tenth of the rounds of the SMs off.
TEST(RouterTest, PicksTheFp64AndComplexRows) {
  const DeviceCaps caps = tbtest::hopper_caps();
  struct Expect {
    DataType type;
    int64_t n, ld;
    const char* kernel;
  } const cases[] = {
      {DataType::kF64, 8192, 8192, "dgemm_mma_f64_128x128x16"},
      {DataType::kF64, 4096, 4096, "dgemm_mma_f64_128x128x16"},
      {DataType::kF64, 2048, 2048, "dgemm_mma_f64_128x64x16"},
      {DataType::kF64, 1024, 1024, "dgemm_mma_f64_64x64x16"},  // one round of 64x64 tiles
      {DataType::kF64, 4097, 4097, "dgemm_peeled_scalarload_128x128x16"},
      {DataType::kF64, 4097, 4098, "dgemm_peeled_128x128x16"},
      {DataType::kF64, 2049, 2050, "dgemm_peeled_128x64x16"},
      {DataType::kF64, 1025, 1025, "dgemm_mma_f64_scalarload_64x64x16"},  // 289 tiles, 396 slots
      {DataType::kC64, 4096, 4096, "zgemm_mma_f64_64x64x8"},
      // 16-byte elements stay aligned; 65^2 tiles of 64x64 take 33 rounds of the SMs, 64^2 32.
      {DataType::kC64, 4097, 4097, "zgemm_mma_f64_64x64x8"},
      {DataType::kC64, 1025, 1025, "zgemm_peeled_64x64x8"},
  };
  for (const Expect& e : cases) {
    Problem p = square(e.n, e.type);
    p.c_type = e.type;
    p.lda = p.ldb = p.ldc = e.ld;
    std::string why;
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, caps, "", &why);
    ASSERT_NE(k, nullptr) << tileblas::name_of(e.type) << " " << e.n;
    EXPECT_STREQ(k->name, e.kernel) << tileblas::name_of(e.type) << " " << e.n << ": " << why;
  }
}

// The peeled rows (src/gemm_peel.h) split C into the interior of whole tiles and the remainders of
// 1 to 16 rows and columns past it, each part a block of A, B and C as stored.
TEST(RouterTest, PeelingSplitsOffThinRemainders) {
  namespace peel = tileblas::gemm_peel;
  using tileblas::Op;
  Problem p = square(1025, DataType::kC64);
  p.c_type = DataType::kC64;
  p.lda = p.ldb = p.ldc = 1030;
  const auto split = peel::split_of(p, 128, 64);
  EXPECT_EQ(split.m_in, 1024);
  EXPECT_EQ(split.n_in, 1024);
  for (const auto& [m, n, m_in, n_in] : std::vector<std::array<int64_t, 4>>{
           {1040, 1041, 1024, 1041}, {128, 80, 128, 64}, {100, 65, 100, 64}, {1, 1, 1, 1}}) {
    Problem q = p;
    q.m = m, q.n = n;
    const auto s = peel::split_of(q, 128, 64);
    EXPECT_EQ(s.m_in, m_in) << m << "x" << n;
    EXPECT_EQ(s.n_in, n_in) << m << "x" << n;
  }
  const auto* base = static_cast<const char*>(p.a);
  for (Op ta : {Op::kNoTrans, Op::kConjTrans}) {
    for (Op tb : {Op::kNoTrans, Op::kTrans}) {
      Problem q = p;
      q.trans_a = ta, q.trans_b = tb;
      q.a = base;
      q.b = base + (int64_t(1) << 30);
      q.c = const_cast<char*>(base) + (int64_t(1) << 31);
      const peel::Parts parts = peel::parts_of(q, split);
      ASSERT_EQ(parts.count, 3);
      const Problem &in = parts.part[0], &below = parts.part[1], &beside = parts.part[2];
      const int64_t e = 16, ld = 1030;
      EXPECT_EQ(in.m, 1024);
      EXPECT_EQ(in.n, 1024);
      EXPECT_EQ(in.k, 1025);
      EXPECT_EQ(in.a, q.a);
      EXPECT_EQ(in.b, q.b);
      EXPECT_EQ(in.c, q.c);
      EXPECT_EQ(below.m, 1);
      EXPECT_EQ(below.n, 1025);
      EXPECT_EQ(static_cast<const char*>(below.a) - base,
                (ta == Op::kNoTrans ? 1024 : 1024 * ld) * e);
      EXPECT_EQ(below.b, q.b);
      EXPECT_EQ(static_cast<char*>(below.c) - static_cast<char*>(q.c), 1024 * e);
      EXPECT_EQ(beside.m, 1024);
      EXPECT_EQ(beside.n, 1);
      EXPECT_EQ(beside.a, q.a);
      EXPECT_EQ(static_cast<const char*>(beside.b) - static_cast<const char*>(q.b),
                (tb == Op::kNoTrans ? 1024 * ld : 1024) * e);
      EXPECT_EQ(static_cast<char*>(beside.c) - static_cast<char*>(q.c), 1024 * ld * e);
    }
  }
  // alpha == 0: A and B stay null in every part.
  Problem z = p;
  z.a = z.b = nullptr, z.alpha = 0.0;
  const peel::Parts parts = peel::parts_of(z, split);
  for (int i = 0; i < parts.count; ++i) {
    EXPECT_EQ(parts.part[i].a, nullptr);
    EXPECT_EQ(parts.part[i].b, nullptr);
  }
  // A triangle of C, or a triangular operand, is not split.
  const DeviceCaps caps = tbtest::hopper_caps();
  const tileblas::GemmKernel* row = tileblas::find_gemm_kernel("zgemm_peeled_64x64x8");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE(row->supports(p, caps));
  Problem tri = p;
  tri.c_triangle = tileblas::Triangle::kLower;
  EXPECT_FALSE(row->supports(tri, caps));
  tri = p;
  tri.a_nonzero = tileblas::Triangle::kUpper;
  EXPECT_FALSE(row->supports(tri, caps));
}

// Complex fp32 on Hopper: problems with k >= 1000 and m, n >= 256 run as three fp64 GEMMs (3M:
// the 128x128 tile where the three products' tiles fill the SMs four times over, else 128x64).
// Other large problems with k >= 256 whose 64x64 tiles fill their waves run on the FP64 tensor
// cores (widened; with m or n from 256 to 999 only where the SIMT row would read neither A in place
// with n < 512 nor B in place with m < 1000: 256x4096x256 NN widens, 4096x256x256 NN and
// 512x4096x512 NT do not), and so does split-K where m and n exceed 128, and a narrow B under a
// tall C (n <= 64, m >= 4096: 8193x32x1024; where A is read as it lies and n is 64 to 128, m >=
// 16 n, with only B widened: 16384x64x4096, 8192x128x8192); other large problems take the packed
// row (which packs only the operands the 16-byte m/n-contiguous copies cannot read in place, and
// peels thin edges), those with few tiles and k long enough for two slices the split-K row; small
// ones run in place, on the 16-byte row where aligned, else the scalar-load row. A device whose
// FP64 rate is a fraction of its fp32 rate (sm_86, sm_89) never widens.
TEST(RouterTest, PicksTheComplexFp32Rows) {
  const DeviceCaps hopper = tbtest::hopper_caps();
  DeviceCaps ada = hopper;
  ada.sm_version = 89;
  using tileblas::Op;
  const struct {
    int64_t m, n, k;
    Op ta, tb;
    const DeviceCaps& caps;
    const char* kernel;
  } cases[] = {
      {4096, 4096, 4096, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_3m_128x128x16"},
      {4096, 4096, 4096, Op::kTrans, Op::kTrans, hopper, "cgemm_widened_3m_128x128x16"},
      {4096, 4096, 4096, Op::kConjTrans, Op::kConjTrans, hopper, "cgemm_widened_3m_128x128x16"},
      {4097, 4097, 4097, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_3m_128x128x16"},
      {4097, 4097, 4097, Op::kNoTrans, Op::kTrans, hopper, "cgemm_widened_3m_128x128x16"},
      {4096, 4096, 4096, Op::kNoTrans, Op::kConjTrans, hopper, "cgemm_widened_3m_128x128x16"},
      {1024, 1024, 1024, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_3m_128x64x16"},
      {1009, 1009, 1009, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_3m_128x64x16"},
      {999, 999, 999, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {256, 16384, 1024, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_3m_128x128x16"},
      {4096, 4096, 256, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {4096, 4096, 4096, Op::kNoTrans, Op::kNoTrans, ada, "cgemm_simt_packed_64x128x16"},
      {4096, 4096, 128, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_simt_packed_64x128x16"},
      {1025, 1025, 1025, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_3m_128x64x16"},
      {1025, 1025, 1025, Op::kNoTrans, Op::kNoTrans, ada, "cgemm_simt_packed_64x128x16"},
      {32768, 128, 256, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_b_64x64x8"},
      {32768, 128, 256, Op::kTrans, Op::kNoTrans, hopper, "cgemm_simt_packed_64x128x16"},
      {8192, 128, 8192, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_b_64x64x8"},
      {8192, 128, 8192, Op::kNoTrans, Op::kNoTrans, ada, "cgemm_splitk_64x128x16"},
      {8193, 32, 1024, Op::kNoTrans, Op::kNoTrans, hopper, "gemm_skinny_32"},
      {8193, 33, 1024, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {16384, 64, 4096, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_b_64x64x8"},
      {16384, 64, 4096, Op::kConjTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {8193, 32, 1024, Op::kNoTrans, Op::kNoTrans, ada, "gemm_skinny_32"},
      {8193, 33, 1024, Op::kNoTrans, Op::kNoTrans, ada, "cgemm_simt_packed_64x128x16"},
      {8192, 256, 2048, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_3m_128x64x16"},
      {8192, 255, 2048, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_simt_packed_64x128x16"},
      {256, 4096, 256, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {512, 8192, 512, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {256, 16384, 999, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {256, 4096, 256, Op::kTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {4096, 256, 256, Op::kTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {4096, 512, 512, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_64x64x8"},
      {4096, 256, 256, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_simt_packed_64x128x16"},
      {256, 4096, 256, Op::kNoTrans, Op::kTrans, hopper, "cgemm_simt_packed_64x128x16"},
      {512, 4096, 512, Op::kNoTrans, Op::kTrans, hopper, "cgemm_simt_packed_64x128x16"},
      {256, 4096, 128, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_simt_packed_64x128x16"},
      {512, 512, 512, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_splitk_64x64x8"},
      {256, 256, 256, Op::kNoTrans, Op::kTrans, hopper, "cgemm_widened_splitk_64x64x8"},
      {255, 255, 255, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_widened_splitk_64x64x8"},
      {512, 512, 512, Op::kNoTrans, Op::kNoTrans, ada, "cgemm_splitk_64x128x16"},
      {64, 8192, 8192, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_splitk_64x128x16"},
      {128, 128, 65536, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_splitk_64x128x16"},
      {64, 64, 64, Op::kNoTrans, Op::kTrans, hopper, "cgemm_simt_64x128x16"},
      {63, 63, 63, Op::kNoTrans, Op::kNoTrans, hopper, "cgemm_simt_scalarload_64x128x16"},
  };
  for (const auto& e : cases) {
    Problem p = square(e.n, DataType::kC32);
    p.c_type = DataType::kC32;
    p.m = e.m, p.k = e.k;
    p.trans_a = e.ta, p.trans_b = e.tb;
    p.lda = p.a_rows(), p.ldb = p.b_rows(), p.ldc = p.m;
    std::string why;
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, e.caps, "", &why);
    ASSERT_NE(k, nullptr) << e.n;
    EXPECT_STREQ(k->name, e.kernel)
        << e.m << "x" << e.n << "x" << e.k << " sm_" << e.caps.sm_version << " "
        << tileblas::name_of(e.ta) << tileblas::name_of(e.tb) << ": " << why;
  }
}

// A Hopper-sized device whose FP64 rate is a fraction of its fp32 rate (sm_89): the SIMT rows'
// rules decide there, as they do on Hopper where the widened rows do not take a problem.
DeviceCaps slow_fp64_caps() {
  DeviceCaps caps = tbtest::hopper_caps();
  caps.sm_version = 89;
  return caps;
}

// Aligned NT data: the packed row's main loop without edges beats the direct 128x128 row (4096^3:
// 0.90 vs 0.88), so large NT problems are packed like the other layouts.
TEST(RouterTest, PacksLargeAlignedNtSgemm) {
  Problem p = square(4096);
  p.trans_b = tileblas::Op::kTrans;
  std::string why;
  const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, slow_fp64_caps(), "", &why);
  ASSERT_NE(k, nullptr);
  EXPECT_STREQ(k->name, "sgemm_packed_128x128x16") << why;
  k = tileblas::pick_gemm_kernel(p, tbtest::hopper_caps(), "", &why);
  ASSERT_NE(k, nullptr);
  EXPECT_STREQ(k->name, "sgemm_widened_128x128x16") << why;
}

// Unaligned operands (odd leading dimensions): packed once the 128x128 tiles fill the SMs and k
// is at least 64 (the shape sweep: 2049^3 +40 %, 3001x2999x1531 +10-12 %, 4097^2 x 64 +3-7 % over
// the _align4 row), not with shorter k nor with too few tiles (1025^3).
TEST(RouterTest, PacksUnalignedSgemmFromK64) {
  const struct {
    int64_t m, n, k;
    const char* kernel;
  } cases[] = {
      {2049, 2049, 2049, "sgemm_packed_128x128x16"},
      {3001, 2999, 1531, "sgemm_packed_128x128x16"},
      {4097, 4097, 64, "sgemm_packed_128x128x16"},
      {4097, 4097, 32, "sgemm_regblock_128x128x16_align4"},
      {1025, 1025, 1025, "sgemm_regblock_128x64x16_align4"},
      {2048, 2048, 2048, "sgemm_regblock_128x128x16_align16"},  // aligned: direct below 4096
  };
  for (const auto& e : cases) {
    Problem p = square(e.m);
    p.n = e.n, p.k = e.k;
    p.lda = e.m, p.ldb = e.k, p.ldc = e.m;
    std::string why;
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, slow_fp64_caps(), "", &why);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->name, e.kernel) << e.m << "x" << e.n << "x" << e.k << ": " << why;
  }
}

// fp16/bf16 on Hopper: the wgmma row measured fastest for each shape class (the shape sweep, H100,
// docs/NOTES-tensorcore.md): split-K for small outputs with long k, 128x256 tiles for large
// problems (persistent where C's columns start on 32-byte boundaries), else persistent 256x128
// tiles where those fill the SMs and C's columns allow, 128x64 where 128x128 tiles starve the SMs,
// 128x128 elsewhere; odd leading dimensions of A and B (staged) route as aligned ones do.
TEST(RouterTest, PicksTheMeasuredWgmmaRow) {
  const struct {
    int64_t m, n, k;
    const char* row;
  } cases[] = {
      {128, 128, 65536, "narrow_splitk_64x64x64"},
      {16, 4096, 4096, "narrow_splitk_64x64x64"},
      {64, 8192, 8192, "narrow_splitk_64x64x64"},
      {32, 8192, 2048, "narrow_splitk_64x64x64"},
      {4096, 16, 4096, "narrow_splitk_64x64x64"},
      {16384, 8, 1024, "128x64x64"},
      {1024, 256, 8192, "splitk_128x128x64"},
      {8192, 128, 8192, "128x64x64"},
      {1024, 1024, 1024, "128x64x64"},
      {16384, 64, 4096, "128x64x64"},
      {8192, 256, 2048, "128x64x64"},
      {1792, 2048, 2048, "128x128x64"},  // 112 tiles of 256x128: under 7/8 of 132 SMs
      {2048, 2048, 2048, "persistent_256x128x64"},
      {4096, 4096, 32, "persistent_256x128x64"},
      {8192, 8192, 256, "persistent_256x128x64"},
      {32768, 128, 256, "persistent_256x128x64"},
      {256, 16384, 1024, "persistent_256x128x64"},
      {4096, 4096, 4096, "persistent_128x256x64"},
      {8192, 8192, 8192, "persistent_128x256x64"},
      {4097, 4097, 4097, "128x256x64"},  // ldc 4097: not on 32-byte boundaries
  };
  for (DataType t : {DataType::kF16, DataType::kBF16}) {
    const std::string type = t == DataType::kF16 ? "f16_" : "bf16_";
    for (const auto& e : cases) {
      Problem p = square(e.m, t);
      p.n = e.n, p.k = e.k;
      p.lda = e.m, p.ldb = e.k, p.ldc = e.m;
      std::string why;
      const tileblas::GemmKernel* k =
          tileblas::pick_gemm_kernel(p, tbtest::hopper_caps(), "", &why);
      ASSERT_NE(k, nullptr);
      const std::string want = "gemm_wgmma_" + type + e.row;
      const tileblas::GemmKernel* row = tileblas::find_gemm_kernel(want.c_str());
      ASSERT_NE(row, nullptr) << want;
      if (!row->supports(p, tbtest::hopper_caps())) {
        std::printf("[ SKIPPED  ] %s: this build has no sm_90a image\n", want.c_str());
        continue;
      }
      EXPECT_EQ(std::string(k->name), want) << e.m << "x" << e.n << "x" << e.k << ": " << why;
    }
  }
}

// fp16/bf16 with an operand off 16 bytes (base or leading dimension): the mma.sync 64x64 rows that
// shift it in as they load where mn / (m + n) <= 160, those tiles take at most one round of the
// SMs and k <= 1024; the wgmma rows (which copy it into aligned columns first) elsewhere and
// wherever both operands are aligned.
TEST(RouterTest, ShiftsUnalignedOperandsInWhereFewTiles) {
  alignas(256) static uint16_t storage[64];
  const struct {
    int64_t m, n, k, lda, ldb;
    int a_offset;  // elements
    bool shifted;
  } cases[] = {
      {8193, 32, 1024, 8193, 1024, 0, true},  // 129 tiles, A's columns off 16 bytes
      {257, 257, 257, 257, 257, 0, true},     // 25 tiles
      {251, 251, 251, 251, 251, 0, true},
      {511, 511, 511, 511, 511, 0, false},       // mn / (m + n) above 160
      {320, 320, 320, 320, 320, 1, true},        // mn / (m + n) = 160
      {321, 321, 321, 321, 321, 0, false},       // 160.5
      {256, 256, 256, 256, 256, 1, true},        // A's base off 16 bytes
      {256, 256, 256, 256, 256, 0, false},       // both aligned
      {1009, 1009, 1009, 1009, 1009, 0, false},  // 256 tiles
      {8193, 32, 2048, 8193, 2048, 0, false},    // k above 1024
      {4097, 4097, 64, 4097, 64, 0, false},
  };
  for (DataType t : {DataType::kF16, DataType::kBF16}) {
    const std::string type = t == DataType::kF16 ? "f16" : "bf16";
    for (const auto& e : cases) {
      Problem p = square(e.m, t);
      p.n = e.n, p.k = e.k;
      p.lda = e.lda, p.ldb = e.ldb, p.ldc = e.m;
      p.a = storage + e.a_offset, p.b = storage, p.c = storage;
      std::string why;
      const tileblas::GemmKernel* k =
          tileblas::pick_gemm_kernel(p, tbtest::hopper_caps(), "", &why);
      ASSERT_NE(k, nullptr);
      const std::string name = k->name;
      if (e.shifted) {
        EXPECT_EQ(name, "gemm_mma_" + type + "_shifted_64x64x32")
            << e.m << "x" << e.n << "x" << e.k << ": " << why;
      } else {
        EXPECT_EQ(name.find("_shifted_"), std::string::npos)
            << e.m << "x" << e.n << "x" << e.k << ": " << name;
      }
    }
  }
}

// fp64 and complex fp64: split-K where the row's own slice rule cuts k into two or more slices and
// its tiles leave a quarter of the SMs idle or k is at least 4096, on the scalar-load dgemm row
// for odd leading dimensions; never for a triangle of C.
TEST(RouterTest, SplitsKForFewFp64TilesAndLongK) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const struct {
    DataType type;
    int64_t m, n, k;
    bool odd_ld;
    const char* kernel;
  } cases[] = {
      {DataType::kF64, 128, 128, 65536, false, "dgemm_splitk_128x64x16"},
      {DataType::kF64, 16, 4096, 4096, false, "dgemm_splitk_128x64x16"},
      {DataType::kF64, 128, 128, 65535, true, "dgemm_splitk_scalarload_128x64x16"},
      {DataType::kF64, 511, 511, 511, true, "dgemm_mma_f64_scalarload_64x64x16"},  // one round
      {DataType::kF64, 256, 256, 256, false, "dgemm_mma_f64_64x64x16"},
      {DataType::kF64, 250, 250, 250, false, "dgemm_splitk_128x64x16"},  // below the 64x64 rule
      {DataType::kF64, 4096, 4096, 4096, false, "dgemm_mma_f64_128x128x16"},
      {DataType::kF64, 128, 128, 128, false, "dgemm_mma_f64_128x64x16"},     // k too short
      {DataType::kF64, 1024, 1024, 1024, false, "dgemm_mma_f64_64x64x16"},   // 256 64x64 tiles
      {DataType::kF64, 2048, 2048, 2048, false, "dgemm_mma_f64_128x64x16"},  // 1024 of them
      {DataType::kF64, 64, 8192, 8192, false, "dgemm_splitk_128x64x16"},     // 128 tiles, long k
      {DataType::kF64, 8193, 32, 1024, true, "dgemm_splitk_scalarload_128x64x16"},
      {DataType::kC64, 128, 128, 65536, false, "zgemm_splitk_64x64x8"},
      {DataType::kC64, 16, 4096, 4096, false, "zgemm_splitk_64x64x8"},
      {DataType::kC64, 511, 511, 511, true, "zgemm_splitk_64x64x8"},  // 16-byte elements
      {DataType::kC64, 2048, 2048, 2048, false, "zgemm_mma_f64_64x64x8"},
      {DataType::kC64, 64, 64, 128, false, "zgemm_mma_f64_64x64x8"},     // k too short
      {DataType::kC64, 513, 513, 513, true, "zgemm_splitk_64x64x8"},     // 81 tiles
      {DataType::kC64, 8193, 32, 1024, false, "zgemm_splitk_64x64x8"},   // a side of at most 32
      {DataType::kC64, 8193, 33, 1024, false, "zgemm_mma_f64_64x64x8"},  // 129 tiles
      {DataType::kC64, 32, 8192, 2048, false, "zgemm_splitk_64x64x8"},
      {DataType::kC64, 32, 8192, 512, false, "zgemm_mma_f64_64x64x8"},  // k too short
      {DataType::kC64, 64, 8192, 8192, false, "zgemm_splitk_64x64x8"},  // 128 tiles, long k
  };
  for (const auto& e : cases) {
    Problem p = square_of(e.m, e.type);
    p.n = e.n, p.k = e.k;
    p.lda = e.m + (e.odd_ld && e.m % 2 == 0), p.ldb = e.k + (e.odd_ld && e.k % 2 == 0), p.ldc = e.m;
    std::string why;
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, caps, "", &why);
    ASSERT_NE(k, nullptr);
    EXPECT_STREQ(k->name, e.kernel)
        << tileblas::name_of(e.type) << " " << e.m << "x" << e.n << "x" << e.k << ": " << why;
    Problem tri = p;  // syrk-like: a triangle of a square C
    tri.n = tri.m;
    tri.c_triangle = tileblas::Triangle::kLower;
    k = tileblas::pick_gemm_kernel(tri, caps, "", &why);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(std::string(k->name).find("splitk"), std::string::npos)
        << k->name << " took a triangle";
  }
}

// One side of C at most 32 (the long side 4096 or more, k 1024 or more): the skinny rows, the
// smallest tile (8, 16 or 32 rows) that holds the side, in complex fp32, in fp32 only where the
// side is at most 16, complex fp64 only with n at most 16, fp64 never. Smaller problems keep the
// tiled rows.
TEST(RouterTest, PicksTheSkinnyRowsForOneSmallSide) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const struct {
    DataType type;
    int64_t m, n, k;
    const char* kernel;  // nullptr: not a skinny row
  } cases[] = {
      {DataType::kF32, 16, 4096, 4096, "gemm_skinny_16"},
      {DataType::kF32, 4096, 16, 4096, "gemm_skinny_16"},
      {DataType::kF32, 16384, 8, 1024, "gemm_skinny_8"},
      {DataType::kF32, 1, 8192, 8192, "gemm_skinny_8"},
      {DataType::kF32, 8, 4096, 1024, "gemm_skinny_8"},
      {DataType::kF32, 9, 4096, 1024, "gemm_skinny_16"},
      {DataType::kF32, 16384, 9, 1024, "gemm_skinny_16"},
      {DataType::kF32, 8, 4095, 1024, nullptr},   // the long side too short
      {DataType::kF32, 8, 4096, 1023, nullptr},   // k too short
      {DataType::kF32, 32, 8192, 2048, nullptr},  // 64x64 split-K
      {DataType::kF32, 8193, 17, 1024, nullptr},
      {DataType::kF32, 8193, 33, 1024, nullptr},
      {DataType::kF32, 16, 2048, 4096, nullptr},  // the long side too short
      {DataType::kF32, 16, 4096, 1000, nullptr},  // k too short
      {DataType::kC32, 16, 4096, 4096, "gemm_skinny_16"},
      {DataType::kC32, 4096, 16, 4096, "gemm_skinny_16"},
      {DataType::kC32, 32, 8192, 2048, "gemm_skinny_32"},
      {DataType::kC32, 16384, 8, 1024, "gemm_skinny_8"},
      {DataType::kC32, 1, 8192, 8192, "gemm_skinny_8"},
      {DataType::kC32, 9, 4096, 4096, "gemm_skinny_16"},
      {DataType::kC32, 17, 4096, 4096, "gemm_skinny_32"},
      {DataType::kC64, 4096, 16, 4096, "gemm_skinny_16"},
      {DataType::kC64, 4096, 9, 4096, "gemm_skinny_16"},
      {DataType::kC64, 16384, 8, 1024, "gemm_skinny_8"},
      {DataType::kC64, 8, 4096, 4096, nullptr},
      {DataType::kC64, 16, 4096, 4096, nullptr},
      {DataType::kC64, 8193, 32, 1024, nullptr},
      {DataType::kF64, 4096, 16, 4096, nullptr},
      {DataType::kF64, 16, 4096, 4096, nullptr},
      {DataType::kF64, 16384, 8, 1024, nullptr},
  };
  for (const auto& e : cases) {
    Problem p = square_of(e.m, e.type);
    p.n = e.n, p.k = e.k;
    p.lda = e.m, p.ldb = e.k, p.ldc = e.m;
    std::string why;
    const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(p, caps, "", &why);
    ASSERT_NE(k, nullptr);
    const std::string shape = std::string(tileblas::name_of(e.type)) + " " + std::to_string(e.m) +
                              "x" + std::to_string(e.n) + "x" + std::to_string(e.k) + ": " + why;
    if (e.kernel) {
      EXPECT_STREQ(k->name, e.kernel) << shape;
    } else {
      EXPECT_EQ(std::string(k->name).find("skinny"), std::string::npos) << shape;
    }
  }
}

TEST(RouterTest, OrderNOperationsOnHostDataStayOnTheCpu) {
  const DeviceCaps caps = tbtest::hopper_caps();
  tileblas::AxpyProblem axpy;
  axpy.n = 1 << 26;
  const auto host = tileblas::route_axpy(axpy, false, false, Config{}, &caps, "");
  EXPECT_EQ(host.side, TILEBLAS_ROUTE_CPU);
  tileblas::TransposeProblem t;
  t.rows = t.cols = t.lda = t.ldb = 16384;
  t.trans = tileblas::Op::kTrans;
  const auto host_t = tileblas::route_transpose(t, false, false, Config{}, &caps, "");
  EXPECT_EQ(host_t.side, TILEBLAS_ROUTE_CPU);
}

}  // namespace
