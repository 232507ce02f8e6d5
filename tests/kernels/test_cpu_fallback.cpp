// The CPU fallbacks. A GPU run that fails part way must leave a right output: the CPU fallback
// computes only what the GPU did not finish. A staged GEMM on host data (beta != 0, so computing a
// finished column twice would apply beta twice) is made to fail after some of its column panels
// were copied back, or inside one (fail_staged_copy_back_for_testing), through tileblas::gemm, and
// C is checked against OpenBLAS everywhere; so are Level-3 calls (trsm, trmm, syrk, her2k: their
// outputs read, some written as a triangle) made to fail after some pieces of their output were
// copied back, through tileblas::level3. A GEMM whose C goes back in one copy, made to fail in it,
// must not compute a C it reads again (nothing says what landed), and computes one it does not
// read; nor must a GEMM on device memory whose peeled row fails after its interior wrote its part
// of C, nor axpy (y is read) or imatcopy (in place), whose outputs go back in one copy.
// Without a GPU, the part of a Level-3 call such a failure leaves (level3_columns_left()) is
// computed by OpenBLAS after the other columns were set as a copy back would, and must finish the
// call. And GPU memory on a route that runs on the CPU (a GPU tileblas does not use, here:
// TILEBLAS_MODE=cpu, where every GPU is one it does not use) is computed through copies, never read
// by the CPU directly nor by a kernel on the wrong device. A failure disables the GPU for the
// process and the mode is read once, so each case runs in a process of its own (a gtest death test,
// re-executed rather than forked: CUDA does not survive fork()).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "device_support.h"
#include "executor.h"
#include "gemm_peel.h"
#include "kernel_table.h"
#include "level3_cases.h"
#include "level3_cpu_backend.h"
#include "log.h"
#include "operands.h"
#include "ops.h"
#include "test_support.h"

namespace {

// Exits 0 when the calling thread's last call failed on the GPU and its record says `outcome` (it
// fell back to the CPU, by default), and `bad` (what a check found wrong with its output) is empty;
// else prints why and exits 1.
[[noreturn]] void exit_checking_fallback(const std::string& bad,
                                         const char* outcome = "CPU fallback") {
  const tileblas::CallRecord& record = tileblas::last_call();
  if (record.reason.find(outcome) == std::string::npos) {
    std::fprintf(stderr, "the call did not fail on the GPU and fall back as injected: %s / %s\n",
                 record.kernel.c_str(), record.reason.c_str());
    std::exit(1);
  }
  if (!bad.empty()) {
    std::fprintf(stderr, "wrong output after the fallback: %s\n", bad.c_str());
    std::exit(1);
  }
  std::exit(0);
}

constexpr int64_t kStagedM = 8192, kStagedN = 4096, kStagedK = 512;

// The pieces each column panel of the staged sgemm below goes back in with pageable C: the panel
// width the router gives this device, in whole columns filling one pinned slot (8 MiB).
int staged_pieces_per_panel() {
  tileblas::Problem p;
  p.m = kStagedM, p.n = kStagedN, p.k = kStagedK;
  const int64_t panel_cols =
      tileblas::gemm_panel_cols(p, tileblas::Placement{}, tbtest::device_caps());
  const int64_t piece_cols = (int64_t(8) << 20) / (kStagedM * int64_t(sizeof(float)));
  return int((panel_cols + piece_cols - 1) / piece_cols);
}

// Runs the staged sgemm (C pinned or pageable, beta != 0) made to fail once `after` pieces of C
// were copied back, and exits 0 when C is right everywhere, else prints why and exits 1.
void failing_staged_call_then_check(bool pinned_c, int after) {
  setenv("TILEBLAS_MODE", "gpu", 1);  // host data on the GPU, staged: read at this first call
  const int64_t m = kStagedM, n = kStagedN, k = kStagedK;
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
  tileblas::Problem p;
  p.m = m, p.n = n, p.k = k;
  p.alpha = 0.75, p.beta = 0.5;
  p.a = a.data(), p.lda = m;
  p.b = b.data(), p.ldb = k;
  p.c = c, p.ldc = m;
  tileblas::fail_staged_copy_back_for_testing(after);
  tileblas::gemm(p, "sgemm");
  tileblas::Problem ref_p = p;
  std::vector<double> ref, scale;
  tbtest::openblas_gemm_reference(ref_p, a, b, c0, ref, scale);
  exit_checking_fallback(tbtest::check_gemm(p, c, ref, scale, 5.96e-8, 2.0));
}

// Fails after two whole panels.
TEST(CpuFallbackDeathTest, StagedFailureMidwayFinishesOnlyWhatWasNotDone) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_staged_call_then_check(false, 2 * staged_pieces_per_panel()),
              ::testing::ExitedWithCode(0), "");
}

// Fails after two panels (a panel of pinned C goes back in one copy).
TEST(CpuFallbackDeathTest, StagedFailureMidwayPinnedC) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_staged_call_then_check(true, 2), ::testing::ExitedWithCode(0), "");
}

// Fails inside the first panel and inside the second, after their first piece: the panel's
// copy-back event is never recorded, and its columns that did not come back must still be
// computed.
TEST(CpuFallbackDeathTest, StagedFailureInsideAPanelFinishesItsColumnsNotCopiedBack) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int pieces = staged_pieces_per_panel();
  ASSERT_GE(pieces, 2) << "a panel in one piece: no failure can strike inside it";
  EXPECT_EXIT(failing_staged_call_then_check(false, 1), ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(failing_staged_call_then_check(false, pieces + 1), ::testing::ExitedWithCode(0), "");
}

// An sgemm on pageable host data that takes plain copies (TILEBLAS_MODE=gpu: too large to be
// bounced, too small to be staged; C padded), made to fail in its one copy of C back, once that
// has landed: nothing then says how much of C landed. Where C is read (beta != 0), computing it
// again would apply beta twice to what landed: the call must compute nothing again and say so
// (here C holds the GPU's result, all of it landed); with beta == 0 (C poisoned) the CPU computes
// all of it. Exits 0 when C is right, its padding untouched and the record says which happened.
void failing_plain_copy_back_then_check(bool c_read) {
  setenv("TILEBLAS_MODE", "gpu", 1);
  const int64_t m = 512, n = 384, k = 256, ldc = m + 3;
  std::vector<float> a = tbtest::random_floats(size_t(m) * k);
  std::vector<float> b = tbtest::random_floats(size_t(k) * n);
  std::vector<float> c0 = tbtest::random_floats(size_t(ldc) * n);
  if (!c_read) tbtest::poison(c0);
  std::vector<float> c = c0;
  tileblas::Problem p;
  p.m = m, p.n = n, p.k = k;
  p.alpha = 0.75, p.beta = c_read ? 0.5 : 0.0;
  p.a = a.data(), p.lda = m;
  p.b = b.data(), p.ldb = k;
  p.c = c.data(), p.ldc = ldc;
  tileblas::fail_staged_copy_back_for_testing(0);
  tileblas::gemm(p, "sgemm");
  std::vector<double> ref, scale;
  tbtest::openblas_gemm_reference(p, a, b, c0, ref, scale);
  std::string bad = tbtest::check_gemm(p, c.data(), ref, scale, 5.96e-8, 2.0);
  if (bad.empty()) bad = tbtest::check_padding(p, c.data(), c0.data());
  exit_checking_fallback(bad, c_read ? "GPU failed while writing the output" : "CPU fallback");
}

TEST(CpuFallbackDeathTest, PlainCopyBackFailureComputesNoColumnOfAReadCAgain) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_plain_copy_back_then_check(true), ::testing::ExitedWithCode(0),
              "columns 1 to 384 of C may hold a partial result");
  EXPECT_EXIT(failing_plain_copy_back_then_check(false), ::testing::ExitedWithCode(0), "");
}

// sgemm on device memory through a peeled row (TILEBLAS_FORCE_KERNEL), made to fail after the
// interior ran and before its remainders (gemm_peel::fail_remainders_for_testing): the caller's C
// then holds the interior's part. With C read (beta != 0) the call must compute nothing again and
// say so, the interior right and the remainders' rows and columns as they were; with beta == 0
// the CPU computes C again, right everywhere. Padding rows untouched either way. Exits 0 when so.
constexpr const char* kPeeledRow = "sgemm_peeled_widened_128x64x16";
constexpr int64_t kPeeledM = 257, kPeeledN = 200, kPeeledK = 100, kPeeledLdc = kPeeledM + 3;

tileblas::Problem peeled_problem(bool c_read) {
  tileblas::Problem p;
  p.m = kPeeledM, p.n = kPeeledN, p.k = kPeeledK;
  p.alpha = 0.75, p.beta = c_read ? 0.5 : 0.0;
  p.lda = kPeeledM, p.ldb = kPeeledK, p.ldc = kPeeledLdc;
  return p;
}

void failing_peeled_remainders_then_check(bool c_read) {
  setenv("TILEBLAS_MODE", "gpu", 1);
  setenv("TILEBLAS_FORCE_KERNEL", kPeeledRow, 1);
  const std::vector<float> a = tbtest::random_floats(size_t(kPeeledM * kPeeledK));
  const std::vector<float> b = tbtest::random_floats(size_t(kPeeledK * kPeeledN));
  std::vector<float> c0 = tbtest::random_floats(size_t(kPeeledLdc * kPeeledN));
  if (!c_read) tbtest::poison(c0);
  tbtest::DeviceBytes da(a.size() * sizeof(float)), db(b.size() * sizeof(float)),
      dc(c0.size() * sizeof(float));
  if (cudaMemcpy(da.ptr, a.data(), a.size() * sizeof(float), cudaMemcpyDefault) != cudaSuccess ||
      cudaMemcpy(db.ptr, b.data(), b.size() * sizeof(float), cudaMemcpyDefault) != cudaSuccess ||
      cudaMemcpy(dc.ptr, c0.data(), c0.size() * sizeof(float), cudaMemcpyDefault) != cudaSuccess) {
    std::fprintf(stderr, "cudaMemcpy failed\n");
    std::exit(1);
  }
  tileblas::Problem p = peeled_problem(c_read);
  p.a = da.ptr, p.b = db.ptr, p.c = dc.ptr;
  tileblas::gemm_peel::fail_remainders_for_testing(true);
  tileblas::gemm(p, "sgemm");
  std::vector<float> c(c0.size());
  if (cudaMemcpy(c.data(), dc.ptr, c.size() * sizeof(float), cudaMemcpyDefault) != cudaSuccess) {
    std::fprintf(stderr, "cudaMemcpy back failed\n");
    std::exit(1);
  }
  std::vector<double> ref, scale;
  tbtest::openblas_gemm_reference(p, a, b, c0, ref, scale);
  std::string bad = tbtest::check_padding(p, c.data(), c0.data());
  if (bad.empty() && !c_read) bad = tbtest::check_gemm(p, c.data(), ref, scale, 5.96e-8, 2.0);
  if (bad.empty() && c_read) {
    // The interior's part against the reference, the rest bit for bit as it was.
    const tileblas::gemm_peel::Split s = tileblas::gemm_peel::split_of(p, 128, 64);
    tileblas::Problem interior = p;
    interior.m = s.m_in, interior.n = s.n_in;
    std::vector<double> ref_in, scale_in;
    for (int64_t j = 0; j < s.n_in; ++j) {
      for (int64_t i = 0; i < s.m_in; ++i) {
        ref_in.push_back(ref[size_t(i + j * p.m)]);
        scale_in.push_back(scale[size_t(i + j * p.m)]);
      }
    }
    interior.ldc = p.ldc;
    bad = tbtest::check_gemm(interior, c.data(), ref_in, scale_in, 5.96e-8, 2.0);
    for (int64_t j = 0; j < p.n && bad.empty(); ++j) {
      for (int64_t i = 0; i < p.m && bad.empty(); ++i) {
        const size_t at = size_t(i + j * p.ldc);
        if ((i >= s.m_in || j >= s.n_in) && std::memcmp(&c[at], &c0[at], sizeof(float)) != 0) {
          bad = "C(" + std::to_string(i) + "," + std::to_string(j) + ") of a remainder written";
        }
      }
    }
  }
  exit_checking_fallback(bad, c_read ? "GPU failed while writing the output" : "CPU fallback");
}

TEST(CpuFallbackDeathTest, PeeledRowFailingAfterItsInteriorComputesNoReadCAgain) {
  TB_REQUIRE_GPU();
  const tileblas::GemmKernel* row = tileblas::find_gemm_kernel(kPeeledRow);
  ASSERT_NE(row, nullptr);
  ASSERT_TRUE(row->c_in_parts);
  tileblas::Problem p = peeled_problem(true);
  p.a = p.b = p.c = reinterpret_cast<void*>(uintptr_t(1) << 20);
  if (!row->supports(p, tbtest::device_caps())) GTEST_SKIP() << kPeeledRow << " needs sm_80";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_peeled_remainders_then_check(true), ::testing::ExitedWithCode(0),
              "sgemm: the GPU failed while writing C .*columns 1 to 200 of C may hold a partial "
              "result");
  EXPECT_EXIT(failing_peeled_remainders_then_check(false), ::testing::ExitedWithCode(0), "");
}

// saxpy on pageable host data (TILEBLAS_MODE=gpu: x and y copied in, y copied back whole; y
// strided), made to fail in its copy of y back once that has landed: y is read, so computing it
// again would add alpha * x twice. The call must compute nothing again and say so; y holds the
// GPU's result. Exits 0 when y is right and the record says so.
void failing_axpy_copy_back_then_check() {
  setenv("TILEBLAS_MODE", "gpu", 1);
  const int64_t n = 1000;
  const std::vector<float> x = tbtest::random_floats(size_t(n));
  const std::vector<float> y0 = tbtest::random_floats(2 * size_t(n));
  std::vector<float> y = y0;
  tileblas::AxpyProblem p;
  p.n = n, p.alpha = -1.5f, p.x = x.data(), p.incx = 1, p.y = y.data(), p.incy = 2;
  tileblas::fail_staged_copy_back_for_testing(0);
  tileblas::axpy(p, "saxpy");
  std::string bad;
  for (size_t i = 0; i < y.size() && bad.empty(); ++i) {
    const float want = i % 2 == 0 ? y0[i] + -1.5f * x[i / 2] : y0[i];
    if (!(std::fabs(y[i] - want) <= 1e-5f * (1 + std::fabs(want)))) {
      bad = "y[" + std::to_string(i) + "] is " + std::to_string(y[i]) + ", want " +
            std::to_string(want);
    }
  }
  exit_checking_fallback(bad, "GPU failed while copying back");
}

TEST(CpuFallbackDeathTest, AxpyCopyBackFailureComputesNothingAgain) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_axpy_copy_back_then_check(), ::testing::ExitedWithCode(0),
              "saxpy: the GPU failed while copying the result back .*the output may hold a "
              "partial result");
}

// B = 2 A^T on pageable host data (TILEBLAS_MODE=gpu: A copied in, B copied back whole), made to
// fail in its copy of B back once that has landed. In place (imatcopy), B is A: A is gone, and
// transposing B again would be wrong, so the call must compute nothing again and say so; B holds
// the GPU's result. omatcopy (B poisoned, not read) computes all of B again on the CPU. Exits 0
// when B is right and the record says which happened.
void failing_transpose_copy_back_then_check(bool in_place) {
  setenv("TILEBLAS_MODE", "gpu", 1);
  const int64_t rows = 300, cols = 200;
  const std::vector<float> src = tbtest::random_floats(size_t(rows) * cols);
  std::vector<float> a = src, out(src.size());
  tbtest::poison(out);
  tileblas::TransposeProblem t;
  t.trans = tileblas::Op::kTrans, t.rows = rows, t.cols = cols, t.alpha = 2.0f;
  t.a = a.data(), t.lda = rows;
  t.b = in_place ? a.data() : out.data(), t.ldb = cols;
  tileblas::fail_staged_copy_back_for_testing(0);
  if (in_place) {
    tileblas::imatcopy(t, "simatcopy");
  } else {
    tileblas::omatcopy(t, "somatcopy");
  }
  std::string bad;
  for (int64_t i = 0; i < rows && bad.empty(); ++i) {
    for (int64_t j = 0; j < cols && bad.empty(); ++j) {
      if (t.b[j + i * cols] != 2.0f * src[i + j * rows]) {
        bad = "B(" + std::to_string(j) + ", " + std::to_string(i) + ") wrong";
      }
    }
  }
  exit_checking_fallback(bad, in_place ? "GPU failed while copying back" : "CPU fallback");
}

TEST(CpuFallbackDeathTest, TransposeCopyBackFailureComputesNothingAgainInPlace) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(failing_transpose_copy_back_then_check(true), ::testing::ExitedWithCode(0),
              "simatcopy: the GPU failed while copying the result back .*the output may hold a "
              "partial result");
  EXPECT_EXIT(failing_transpose_copy_back_then_check(false), ::testing::ExitedWithCode(0), "");
}

using tbtest::Level3Case;
using tbtest::Level3Operands;
using tileblas::DataType;
using tileblas::Operation;
using tileblas::Side;
using tileblas::Uplo;

// `out` with the elements the routine writes in `final_cols` of its columns (the first ones, or the
// last where level3_copy_back_last_first() says) taken from `want`: what a copy back that stopped
// there leaves.
std::vector<unsigned char> copied_back_in_part(const Level3Operands& ops,
                                               const std::vector<unsigned char>& want,
                                               int64_t final_cols) {
  const tileblas::Problem p = ops.problem();
  const bool rank_k = p.op == Operation::kSyrk || p.op == Operation::kHerk ||
                      p.op == Operation::kSyr2k || p.op == Operation::kHer2k;
  const size_t e = tileblas::size_of(p.type);
  const int64_t first = tileblas::level3_copy_back_last_first(p) ? ops.out_cols - final_cols : 0;
  std::vector<unsigned char> out = ops.out;
  for (int64_t j = first; j < first + final_cols; ++j) {
    for (int64_t i = 0; i < ops.out_rows; ++i) {
      if (rank_k && (p.uplo == Uplo::kLower ? i < j : i > j)) continue;
      const size_t at = size_t(i + j * ops.ldo) * e;
      std::copy(want.begin() + at, want.begin() + at + e, out.begin() + at);
    }
  }
  return out;
}

// Every routine, type, side, uplo and trans of the plan tests' cases, the copy back stopped after
// a random number of columns: OpenBLAS's routine on level3_columns_left() must finish the call.
// Only symm and hemm with side R have no such part (each column of C reads all of A).
TEST(Level3CopyBackFailure, ColumnsLeftFinishTheCall) {
  int checked = 0, failures = 0;
  for (const Level3Case& c : tbtest::level3_plan_cases(
           {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64}, true, false)) {
    const bool triangular = c.op == Operation::kTrmm || c.op == Operation::kTrsm;
    if (!triangular && c.alpha.is_zero() && c.beta.is_one()) continue;  // netlib's quick return
    const Level3Operands ops = tbtest::make_operands(c);
    if (ops.out_cols < 2) continue;
    const std::vector<unsigned char> want = tbtest::openblas_result(ops);
    const int64_t final_cols = 1 + int64_t(tbtest::rng()() % uint64_t(ops.out_cols - 1));
    std::vector<unsigned char> a = ops.a, b = ops.b;
    std::vector<unsigned char> out = copied_back_in_part(ops, want, final_cols);
    // Unless the columns not copied back are wrong now, the case tests nothing.
    if (tbtest::check_level3(ops, out, want, a, b).empty()) continue;
    const tileblas::Problem p = ops.problem(a.data(), b.empty() ? nullptr : b.data(), out.data());
    const std::optional<tileblas::Problem> rest = tileblas::level3_columns_left(p, final_cols);
    const bool symm_right =
        (c.op == Operation::kSymm || c.op == Operation::kHemm) && c.side == Side::kRight;
    if (!rest) {
      EXPECT_TRUE(symm_right) << c.str() << ": no part left to compute";
      continue;
    }
    EXPECT_FALSE(symm_right) << c.str() << ": a part left to compute";
    ++checked;
    std::string why = tbtest::openblas_level3(*rest);
    if (why.empty()) why = tbtest::check_level3(ops, out, want, a, b);
    if (!why.empty() && ++failures <= 20) {
      ADD_FAILURE() << c.str() << ", " << final_cols << " columns copied back: " << why;
    }
  }
  EXPECT_EQ(failures, 0) << "of " << checked << " cases";
  EXPECT_GT(checked, 100);
}

// Runs `c` on pageable host data through tileblas::level3 (TILEBLAS_MODE=gpu: staged) made to fail
// once `after` pieces of its output were copied back, and exits 0 when the CPU fallback finished
// it (checked as the plan tests check a result), else prints why and exits 1.
void failing_level3_copy_back_then_check(const Level3Case& c, int after) {
  setenv("TILEBLAS_MODE", "gpu", 1);
  const Level3Operands ops = tbtest::make_operands(c);
  const std::vector<unsigned char> want = tbtest::openblas_result(ops);
  std::vector<unsigned char> a = ops.a, b = ops.b, out = ops.out;
  tileblas::fail_staged_copy_back_for_testing(after);
  tileblas::level3(ops.problem(a.data(), b.empty() ? nullptr : b.data(), out.data()),
                   tileblas::name_of(c.op));
  exit_checking_fallback(tbtest::check_level3(ops, out, want, a, b));
}

// Outputs of several pieces (8 MiB of whole columns each), copied back first column first and last
// column first, whole and as a triangle.
TEST(CpuFallbackDeathTest, Level3CopyBackFailureFinishesOnlyTheColumnsLeft) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  struct Failing {
    Level3Case c;
    int after;
  };
  std::vector<Failing> cases;
  Level3Case c;
  c.op = Operation::kTrsm, c.type = DataType::kF64, c.side = Side::kLeft, c.uplo = Uplo::kLower;
  c.m = 2048, c.n = 2048, c.alpha = 0.75;
  cases.push_back({c, 2});
  c.op = Operation::kTrmm, c.type = DataType::kF32, c.side = Side::kRight, c.uplo = Uplo::kUpper;
  cases.push_back({c, 1});
  c.op = Operation::kTrsm, c.type = DataType::kC64, c.m = 1024, c.n = 1024, c.uplo = Uplo::kLower;
  c.trans = tileblas::Op::kConjTrans, c.alpha = tileblas::Scalar(0.75, -0.25);
  cases.push_back({c, 1});
  Level3Case r;
  r.op = Operation::kSyrk, r.type = DataType::kF64, r.uplo = Uplo::kUpper;
  r.trans = tileblas::Op::kTrans, r.n = 2048, r.k = 64, r.alpha = 0.75, r.beta = 0.5;
  cases.push_back({r, 2});
  r.op = Operation::kHer2k, r.type = DataType::kC32, r.uplo = Uplo::kLower;
  r.trans = tileblas::Op::kNoTrans, r.alpha = tileblas::Scalar(0.75, 0.5);
  cases.push_back({r, 3});
  for (const Failing& f : cases) {
    EXPECT_EXIT(failing_level3_copy_back_then_check(f.c, f.after), ::testing::ExitedWithCode(0), "")
        << f.c.str();
  }
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
  tileblas::Problem p;
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
