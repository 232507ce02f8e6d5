// A GPU run that fails part way must leave a right C: the CPU fallback computes only what the GPU
// did not finish. A staged GEMM on host data (beta != 0, so computing a finished column twice would
// apply beta twice) is made to fail after some of its column panels were copied back
// (fail_staged_gemm_after_panels_for_testing), through tileblas::gemm, and C is checked against
// OpenBLAS everywhere. A failure disables the GPU for the process, so each case runs in a process
// of its own (a gtest death test, re-executed rather than forked: CUDA does not survive fork()).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "executor.h"
#include "log.h"
#include "ops.h"
#include "test_support.h"

namespace {

// Runs the failing call and exits 0 when C is right everywhere, else prints why and exits 1.
void failing_staged_call_then_check(bool pinned_c) {
  setenv("TILEBLAS_MODE", "gpu", 1);  // host data on the GPU, staged: read at this first call
  const int64_t m = 8192, n = 4096, k = 512;
  std::vector<float> a = tbtest::random_floats(size_t(m) * k);
  std::vector<float> b = tbtest::random_floats(size_t(k) * n);
  std::vector<float> c0 = tbtest::random_floats(size_t(m) * n);
  float* c = nullptr;
  std::vector<float> c_pageable;
  if (pinned_c) {
    if (cudaMallocHost(reinterpret_cast<void**>(&c), c0.size() * sizeof(float)) != cudaSuccess) {
      std::fprintf(stderr, "cudaMallocHost failed\n");
      std::exit(1);
    }
  } else {
    c_pageable.resize(c0.size());
    c = c_pageable.data();
  }
  std::copy(c0.begin(), c0.end(), c);
  tileblas::GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.alpha = 0.75, p.beta = 0.5;
  p.a = a.data(), p.lda = m;
  p.b = b.data(), p.ldb = k;
  p.c = c, p.ldc = m;
  tileblas::fail_staged_gemm_after_panels_for_testing(2);
  tileblas::gemm(p, "sgemm");
  const tileblas::CallRecord& record = tileblas::last_call();
  if (record.reason.find("GPU failed") == std::string::npos) {
    std::fprintf(stderr, "the call did not fail on the GPU as injected: %s / %s\n",
                 record.kernel.c_str(), record.reason.c_str());
    std::exit(1);
  }
  tileblas::GemmProblem ref_p = p;
  std::vector<double> ref, scale;
  tbtest::openblas_gemm_reference(ref_p, a, b, c0, ref, scale);
  const std::string bad = tbtest::check_gemm(p, c, ref, scale, 5.96e-8, 2.0);
  if (!bad.empty()) {
    std::fprintf(stderr, "wrong C after the fallback: %s\n", bad.c_str());
    std::exit(1);
  }
  std::exit(0);
}

TEST(GemmFallbackDeathTest, StagedFailureMidwayFinishesOnlyWhatWasNotDone) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_staged_call_then_check(false), ::testing::ExitedWithCode(0), "");
}

TEST(GemmFallbackDeathTest, StagedFailureMidwayPinnedC) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_staged_call_then_check(true), ::testing::ExitedWithCode(0), "");
}

}  // namespace
