// The CPU fallbacks. A GPU run that fails part way must leave a right C: the CPU fallback computes
// only what the GPU did not finish. A staged GEMM on host data (beta != 0, so computing a finished
// column twice would apply beta twice) is made to fail after some of its column panels were copied
// back (fail_staged_gemm_after_panels_for_testing), through tileblas::gemm, and C is checked
// against OpenBLAS everywhere. And GPU memory on a route that runs on the CPU (a GPU tileblas does
// not use, here: TILEBLAS_MODE=cpu, where every GPU is one it does not use) is computed through
// copies, never read by the CPU directly nor by a kernel on the wrong device. A failure disables
// the GPU for the process and the mode is read once, so each case runs in a process of its own (a
// gtest death test, re-executed rather than forked: CUDA does not survive fork()).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

TEST(CpuFallbackDeathTest, StagedFailureMidwayFinishesOnlyWhatWasNotDone) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_staged_call_then_check(false), ::testing::ExitedWithCode(0), "");
}

TEST(CpuFallbackDeathTest, StagedFailureMidwayPinnedC) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_staged_call_then_check(true), ::testing::ExitedWithCode(0), "");
}

// GEMM, axpy, omatcopy and in-place imatcopy on device memory with TILEBLAS_MODE=cpu; exits 0 when
// every result is right.
void gpu_memory_on_the_cpu_path() {
  setenv("TILEBLAS_MODE", "cpu", 1);
  auto fail = [](const char* what) {
    std::fprintf(stderr, "%s\n", what);
    std::exit(1);
  };
  auto to_device = [&](const std::vector<float>& h) {
    float* d = nullptr;
    if (cudaMalloc(reinterpret_cast<void**>(&d), h.size() * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyDefault) != cudaSuccess) {
      fail("cudaMalloc/cudaMemcpy failed");
    }
    return d;
  };
  auto to_host = [&](const float* d, size_t n) {
    std::vector<float> h(n);
    if (cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDefault) != cudaSuccess) {
      fail("cudaMemcpy back failed");
    }
    return h;
  };
  // GEMM with a padded C: the padding must come back unchanged.
  const int64_t m = 37, n = 29, k = 41, ldc = m + 3;
  const std::vector<float> a = tbtest::random_floats(size_t(m) * k);
  const std::vector<float> b = tbtest::random_floats(size_t(k) * n);
  const std::vector<float> c0 = tbtest::random_floats(size_t(ldc) * n);
  tileblas::GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.alpha = 0.75, p.beta = 0.5;
  p.a = to_device(a), p.lda = m;
  p.b = to_device(b), p.ldb = k;
  p.c = to_device(c0), p.ldc = ldc;
  tileblas::gemm(p, "sgemm");
  const std::vector<float> c = to_host(static_cast<const float*>(p.c), c0.size());
  std::vector<double> ref, scale;
  tbtest::openblas_gemm_reference(p, a, b, c0, ref, scale);
  if (!tbtest::check_gemm(p, c.data(), ref, scale, 5.96e-8, 2.0).empty()) fail("gemm wrong");
  if (!tbtest::check_padding(p, c.data(), c0.data()).empty()) fail("gemm wrote C's padding");
  // axpy, strided y.
  const std::vector<float> x = tbtest::random_floats(100), y0 = tbtest::random_floats(200);
  tileblas::AxpyProblem ax;
  ax.n = 100, ax.alpha = -1.5f, ax.x = to_device(x), ax.incx = 1, ax.incy = 2;
  ax.y = to_device(y0);
  tileblas::axpy(ax, "saxpy");
  const std::vector<float> y = to_host(ax.y, y0.size());
  for (int i = 0; i < 200; ++i) {
    const float want = i % 2 == 0 ? y0[i] + -1.5f * x[i / 2] : y0[i];
    if (!(std::fabs(y[i] - want) <= 1e-5f * (1 + std::fabs(want)))) fail("axpy wrong");
  }
  // omatcopy (transposed, padded B) and imatcopy in place.
  const int64_t rows = 13, cols = 7, ldb = cols + 2;
  const std::vector<float> src = tbtest::random_floats(size_t(rows) * cols);
  const std::vector<float> dst0 = tbtest::random_floats(size_t(ldb) * rows);
  tileblas::TransposeProblem t;
  t.trans = tileblas::Op::kTrans, t.rows = rows, t.cols = cols, t.alpha = 2.0f;
  t.a = to_device(src), t.lda = rows, t.b = to_device(dst0), t.ldb = ldb;
  tileblas::omatcopy(t, "somatcopy");
  const std::vector<float> dst = to_host(t.b, dst0.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < ldb; ++j) {
      const float want = j < cols ? 2.0f * src[i + j * rows] : dst0[j + i * ldb];
      if (dst[j + i * ldb] != want) fail("omatcopy wrong");
    }
  }
  tileblas::TransposeProblem in_place = t;
  in_place.b = const_cast<float*>(in_place.a);
  in_place.ldb = cols;
  tileblas::imatcopy(in_place, "simatcopy");
  const std::vector<float> moved = to_host(in_place.b, src.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      if (moved[j + i * cols] != 2.0f * src[i + j * rows]) fail("imatcopy wrong");
    }
  }
  std::exit(0);
}

TEST(CpuFallbackDeathTest, GpuMemoryOnTheCpuPathGoesThroughCopies) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(gpu_memory_on_the_cpu_path(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
