// Kernel tier, fp32 GEMM: every fp32 row of gemm_kernels(), forced through its launch() on device
// buffers, against a float64 host reference (or OpenBLAS for large shapes), on fresh random data
// with poisoned outputs, leading dimensions above the minimum, misaligned pointers where the row
// allows them, all transposes and alpha/beta including 0; padding rows of C must stay untouched.
// Suites: SgemmKernelRows.* (supports() consistency, no GPU needed), SgemmKernel.* (the full
// grid), SgemmKernelSmall.* (a quick subset, for compute-sanitizer).
#include <cuda_runtime_api.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "device.h"
#include "device_support.h"
#include "kernel_table.h"
#include "sgemm_regblock.h"
#include "splitk.h"
#include "test_support.h"

namespace {

using tileblas::DataType;
using tileblas::DeviceCaps;
using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;

std::vector<std::string> fp32_row_names() {
  std::vector<std::string> names;
  for (const GemmKernel& k : tileblas::gemm_kernels()) {
    if (std::strncmp(k.name, "sgemm_", 6) == 0) names.push_back(k.name);
  }
  return names;
}

bool requires_align16(const std::string& name) {
  return name.find("_align16") != std::string::npos;
}

const std::vector<int64_t> kDims = {1,   2,   3,   7,   16,  31,   33,   63,   64,  65,
                                    127, 128, 129, 255, 257, 1000, 1024, 2047, 4097};

struct Case {
  Op ta = Op::kNoTrans, tb = Op::kNoTrans;
  int64_t m = 1, n = 1, k = 1;
  float alpha = 1.0f, beta = 0.0f;
  int64_t pad_a = 0, pad_b = 0, pad_c = 0;  // leading dimension beyond the minimum
  int off_a = 0, off_b = 0, off_c = 0;      // pointer offsets in floats
  bool null_ab = false;                     // alpha == 0: pass A = B = nullptr (must not be read)

  std::string str() const {
    std::ostringstream s;
    s << tileblas::name_of(ta) << tileblas::name_of(tb) << " m=" << m << " n=" << n << " k=" << k
      << " alpha=" << alpha << " beta=" << beta << " pads=" << pad_a << "," << pad_b << "," << pad_c
      << " offsets=" << off_a << "," << off_b << "," << off_c << (null_ab ? " A=B=null" : "");
    return s.str();
  }
};

Problem problem_of(const Case& c) {
  Problem p;
  p.trans_a = c.ta, p.trans_b = c.tb;
  p.m = c.m, p.n = c.n, p.k = c.k;
  p.alpha = c.alpha, p.beta = c.beta;
  p.lda = std::max<int64_t>(1, p.a_rows()) + c.pad_a;
  p.ldb = std::max<int64_t>(1, p.b_rows()) + c.pad_b;
  p.ldc = p.m + c.pad_c;
  return p;
}

// Aligned for the 16-byte rows: offsets 0 and leading dimensions rounded up to multiples of 4.
Case aligned(Case c) {
  const Problem p = problem_of(c);
  c.off_a = c.off_b = c.off_c = 0;
  c.pad_a += (4 - p.lda % 4) % 4, c.pad_b += (4 - p.ldb % 4) % 4, c.pad_c += (4 - p.ldc % 4) % 4;
  return c;
}

constexpr int64_t kAnyVolume = int64_t(1) << 62;

Case random_case(int64_t max_volume, int64_t max_dim) {
  Case c;
  do {
    c.m = tbtest::pick(kDims), c.n = tbtest::pick(kDims), c.k = tbtest::pick(kDims);
  } while (c.m * c.n * c.k > max_volume || c.m > max_dim || c.n > max_dim || c.k > max_dim);
  c.ta = tbtest::pick(std::vector<Op>{Op::kNoTrans, Op::kTrans});
  c.tb = tbtest::pick(std::vector<Op>{Op::kNoTrans, Op::kTrans});
  c.alpha = tbtest::pick(std::vector<float>{1.0f, 0.7f, -2.0f, 1.0f, 0.7f, -2.0f, 0.0f});
  c.beta = tbtest::pick(std::vector<float>{0.0f, 1.0f, 0.7f, -2.0f});
  const std::vector<int64_t> pads = {0, 1, 2, 3, 5};
  c.pad_a = tbtest::pick(pads), c.pad_b = tbtest::pick(pads), c.pad_c = tbtest::pick(pads);
  const std::vector<int> offsets = {0, 1, 2, 3};
  c.off_a = tbtest::pick(offsets), c.off_b = tbtest::pick(offsets), c.off_c = tbtest::pick(offsets);
  return c;
}

enum class Oracle { kFloat64, kOpenBlas };

// Runs one case on `row` and checks it; returns "" or what went wrong.
std::string run_case(const GemmKernel& row, const Case& c, Oracle oracle) {
  Problem p = problem_of(c);
  const size_t a_size = size_t(p.lda) * std::max<int64_t>(1, p.a_cols());
  const size_t b_size = size_t(p.ldb) * std::max<int64_t>(1, p.b_cols());
  const size_t c_size = size_t(p.ldc) * p.n;
  const std::vector<float> a = tbtest::random_floats(a_size), b = tbtest::random_floats(b_size);
  std::vector<float> c_before = tbtest::random_floats(c_size);
  if (c.beta == 0.0f) {
    // NaN in the m x n part (must not leak); padding rows keep random values to compare.
    for (int64_t j = 0; j < p.n; ++j)
      for (int64_t i = 0; i < p.m; ++i) c_before[i + j * p.ldc] = tbtest::nan_value();
  }
  if (!(tbtest::norm2(a) > 0 && tbtest::norm2(b) > 0)) return "zero inputs";

  tbtest::DeviceFloats da(a_size + c.off_a), db(b_size + c.off_b), dc(c_size + c.off_c);
  if (cudaMemcpy(da.base + c.off_a, a.data(), a_size * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(db.base + c.off_b, b.data(), b_size * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(dc.base + c.off_c, c_before.data(), c_size * 4, cudaMemcpyHostToDevice) !=
          cudaSuccess) {
    return "upload failed";
  }
  Problem dp = p;
  dp.a = c.null_ab ? nullptr : da.base + c.off_a;
  dp.b = c.null_ab ? nullptr : db.base + c.off_b;
  dp.c = dc.base + c.off_c;
  if (!row.supports(dp, tbtest::device_caps()))
    return std::string(row.name) + " does not support it";
  cudaError_t err = row.launch(dp, nullptr);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) return std::string("CUDA error: ") + cudaGetErrorString(err);
  std::vector<float> c_after(c_size);
  if (cudaMemcpy(c_after.data(), dc.base + c.off_c, c_size * 4, cudaMemcpyDeviceToHost) !=
      cudaSuccess) {
    return "download failed";
  }

  std::string msg = tbtest::check_padding(p, c_after.data(), c_before.data());
  if (!msg.empty()) return msg;
  std::vector<double> ref, scale;
  Problem hp = p;
  hp.a = a.data(), hp.b = b.data(), hp.c = c_before.data();
  if (oracle == Oracle::kFloat64) {
    tbtest::gemm_reference(hp, ref, scale);
  } else {
    tbtest::openblas_gemm_reference(hp, a, b, c_before, ref, scale);
  }
  // fp32 accumulation: error <= ~k eps |A||B|; OpenBLAS's own fp32 error doubles the budget.
  const double factor = oracle == Oracle::kFloat64 ? 1.0 : 2.0;
  msg = tbtest::check_gemm(p, c_after.data(), ref, scale, FLT_EPSILON, factor);
  if (!msg.empty()) return msg;
  double ref_norm = 0.0;
  for (double x : ref) ref_norm += x * x;
  if (!(ref_norm > 0.0) && !(c.alpha == 0.0f && c.beta == 0.0f)) return "reference is all zero";
  return "";
}

class SgemmKernel : public testing::TestWithParam<std::string> {
 protected:
  const GemmKernel& row() const { return *tileblas::find_gemm_kernel(GetParam().c_str()); }
  // The case as given when the row supports it, else its aligned version (which every fp32 row
  // must support).
  Case supported(const Case& c) const {
    Problem p = problem_of(c);
    p.a = reinterpret_cast<const float*>(uintptr_t(256)) + c.off_a;
    p.b = reinterpret_cast<const float*>(uintptr_t(256)) + c.off_b;
    p.c = reinterpret_cast<float*>(uintptr_t(256)) + c.off_c;
    return row().supports(p, tbtest::device_caps()) ? c : aligned(c);
  }
  void run_cases(const std::vector<Case>& cases, Oracle oracle) {
    int failures = 0;
    for (const Case& given : cases) {
      const Case c = supported(given);
      const std::string msg = run_case(row(), c, oracle);
      EXPECT_EQ(msg, "") << GetParam() << " " << c.str();
      if (!msg.empty() && ++failures >= 5) break;
    }
  }
};
class SgemmKernelSmall : public SgemmKernel {};

TEST_P(SgemmKernel, RandomShapesTransposesScalars) {
  TB_REQUIRE_GPU();
  std::vector<Case> cases;
  for (int i = 0; i < 48; ++i) cases.push_back(random_case(24'000'000, 4097));
  run_cases(cases, Oracle::kFloat64);
}

TEST_P(SgemmKernel, EveryTransposeOnEdgeShapes) {
  TB_REQUIRE_GPU();
  std::vector<Case> cases;
  for (Op ta : {Op::kNoTrans, Op::kTrans}) {
    for (Op tb : {Op::kNoTrans, Op::kTrans}) {
      for (int64_t d : {1, 33, 127, 129, 257}) {
        Case c = random_case(kAnyVolume, 4097);
        c.ta = ta, c.tb = tb, c.m = d, c.n = 257 - d + 7, c.k = 65 + d % 7;
        c.alpha = 0.7f, c.beta = d % 2 ? 0.0f : -2.0f;
        cases.push_back(c);
      }
    }
  }
  run_cases(cases, Oracle::kFloat64);
}

// m or n a few past a multiple of 128 (the packed row computes remainders of 1..8 as strips, 9 is
// a tile row; the peeled rows give remainders of 1..16 to gemm_skinny), alone, together, and next
// to a dimension below one tile; k below the strip blocks' 8-way split and not a multiple of it.
TEST_P(SgemmKernel, ThinRemaindersOfTiles) {
  TB_REQUIRE_GPU();
  const int64_t shapes[][3] = {{129, 136, 65},  {264, 131, 200}, {136, 257, 3},    {137, 129, 33},
                               {129, 64, 100},  {50, 392, 77},   {385, 385, 1000}, {4097, 200, 64},
                               {200, 4097, 19}, {1, 129, 7},     {144, 272, 40},   {145, 80, 40}};
  std::vector<Case> cases;
  int i = 0;
  for (const auto& s : shapes) {
    Case c = random_case(kAnyVolume, 4097);
    c.m = s[0], c.n = s[1], c.k = s[2];
    c.ta = i % 2 ? Op::kTrans : Op::kNoTrans, c.tb = i / 2 % 2 ? Op::kTrans : Op::kNoTrans;
    c.alpha = 0.7f, c.beta = i % 3 ? -2.0f : 0.0f;
    cases.push_back(c);
    ++i;
  }
  run_cases(cases, Oracle::kFloat64);
}

// k one below, at and past a multiple of the 16-wide k-step, with m and n inside one tile, at a
// whole tile and one past it (the packed row pads its workspaces with zeros to whole tiles and
// k-steps, and its main loop reads the padding).
TEST_P(SgemmKernel, KAroundTheKStep) {
  TB_REQUIRE_GPU();
  std::vector<Case> cases;
  int i = 0;
  for (int64_t k : {1, 15, 16, 17, 31, 33}) {
    for (int64_t mn : {5, 128, 129}) {
      Case c = random_case(kAnyVolume, 4097);
      c.m = mn, c.n = 133 - mn % 7, c.k = k;
      c.ta = i % 2 ? Op::kTrans : Op::kNoTrans, c.tb = i / 2 % 2 ? Op::kTrans : Op::kNoTrans;
      c.alpha = -0.5f, c.beta = i % 3 ? 1.5f : 0.0f;
      cases.push_back(c);
      ++i;
    }
  }
  run_cases(cases, Oracle::kFloat64);
}

// Interior tiles (wholly inside m and n, copied without bounds on their full k-steps) next to
// edge tiles, in every layout, with whole k-steps only and with a partial last one; 256x128x1000:
// interior tiles only, k split into several slices by the split-K rows, the last slice ending in
// a partial k-step.
TEST_P(SgemmKernel, InteriorAndEdgeTiles) {
  TB_REQUIRE_GPU();
  const int64_t shapes[][3] = {
      {512, 256, 64}, {513, 257, 47}, {640, 384, 200}, {300, 130, 33}, {256, 128, 1000}};
  std::vector<Case> cases;
  int i = 0;
  for (Op ta : {Op::kNoTrans, Op::kTrans}) {
    for (Op tb : {Op::kNoTrans, Op::kTrans}) {
      for (const auto& s : shapes) {
        Case c = random_case(kAnyVolume, 4097);
        c.ta = ta, c.tb = tb, c.m = s[0], c.n = s[1], c.k = s[2];
        c.alpha = -0.5f, c.beta = i % 2 ? 1.5f : 0.0f;
        cases.push_back(c);
        ++i;
      }
    }
  }
  run_cases(cases, Oracle::kFloat64);
}

// k cut into each of 2 to 8 slices by the 64x64 split-K rows' cluster rule (kClusterSplitK64:
// on a device with clusters, a tile's slices sum in its cluster; checked for those rows), and into
// more (the workspace and the reduce), with edge tiles, every transpose, beta 0 (NaN C) and not.
// Every other row runs the same cases.
TEST_P(SgemmKernel, ClusterSliceCounts) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  const bool cluster_row = GetParam().rfind("sgemm_splitk_64x64x16", 0) == 0;
  std::vector<Case> cases;
  int i = 0;
  // 4 tiles of 64x64 and k of 4 k-steps a slice: the rule's slice count is k's.
  for (int64_t slices = 2; slices <= tileblas::sgemm_regblock::kMaxClusterSlices + 1; ++slices) {
    Case c = random_case(kAnyVolume, 4097);
    c.m = 100 + i % 3, c.n = 70, c.k = 64 * slices - (i % 2 ? 5 : 0);
    c.ta = i % 2 ? Op::kTrans : Op::kNoTrans, c.tb = i / 2 % 2 ? Op::kTrans : Op::kNoTrans;
    c.alpha = 0.7f, c.beta = i % 3 == 0 ? 0.0f : -1.5f;
    const int64_t count = tileblas::splitk::slices_for(tileblas::sgemm_regblock::kClusterSplitK64,
                                                       c.m, c.n, c.k, caps.num_sms)
                              .count;
    if (cluster_row && caps.num_sms >= 16) {
      EXPECT_EQ(count, slices) << c.str();
    }
    cases.push_back(c);
    ++i;
  }
  Case square = random_case(kAnyVolume, 4097);  // 25 tiles, 4 slices on 132 SMs
  square.m = square.n = square.k = 257;
  square.beta = 0.0f;
  cases.push_back(square);
  run_cases(cases, Oracle::kFloat64);
}

TEST_P(SgemmKernel, AlphaZeroReadsNeitherAnorB) {
  TB_REQUIRE_GPU();
  std::vector<Case> cases;
  for (float beta : {0.0f, 1.0f, -2.0f}) {
    Case c = random_case(300'000, 257);
    c.alpha = 0.0f, c.beta = beta, c.null_ab = true;
    cases.push_back(c);
  }
  run_cases(cases, Oracle::kFloat64);
}

TEST_P(SgemmKernel, KZeroScalesC) {
  TB_REQUIRE_GPU();
  Case c = random_case(300'000, 257);
  c.k = 0, c.alpha = 0.7f, c.beta = 0.7f;
  Problem p = problem_of(aligned(c));
  p.a = p.b = p.c = reinterpret_cast<float*>(uintptr_t(256));
  if (!row().supports(p, tbtest::device_caps()))
    GTEST_SKIP() << GetParam() << " does not take k == 0";
  run_cases({c}, Oracle::kFloat64);
}

TEST_P(SgemmKernel, LargeShapesAgainstOpenBlas) {
  TB_REQUIRE_GPU();
  std::vector<Case> cases;
  const int64_t shapes[][3] = {
      {4097, 129, 257}, {255, 4097, 1000}, {129, 65, 20000}, {1000, 1024, 2047}, {64, 63, 16384}};
  for (const auto& s : shapes) {
    Case c = random_case(kAnyVolume, 4097);
    c.m = s[0], c.n = s[1], c.k = s[2];
    cases.push_back(c);
  }
  run_cases(cases, Oracle::kOpenBlas);
}

TEST_P(SgemmKernelSmall, SmallShapes) {
  TB_REQUIRE_GPU();
  std::vector<Case> cases;
  for (int i = 0; i < 8; ++i) cases.push_back(random_case(40'000, 65));
  Case nan_c = random_case(40'000, 65);
  nan_c.beta = 0.0f;
  cases.push_back(nan_c);
  run_cases(cases, Oracle::kFloat64);
}

std::string param_name(const testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(, SgemmKernel, testing::ValuesIn(fp32_row_names()), param_name);
INSTANTIATE_TEST_SUITE_P(, SgemmKernelSmall, testing::ValuesIn(fp32_row_names()), param_name);

// supports() is consistent across the fp32 rows (no GPU needed: pointers are only inspected).

// Leading dimensions: the minimum rounded up to a multiple of 4, plus `pad`.
Problem fake_problem(int64_t m, int64_t n, int64_t k, int offset, int64_t pad) {
  auto round4 = [](int64_t x) { return (x + 3) / 4 * 4; };
  Problem p;
  p.m = m, p.n = n, p.k = k;
  p.lda = round4(m) + pad, p.ldb = round4(k) + pad, p.ldc = round4(m) + pad;
  p.a = reinterpret_cast<const float*>(uintptr_t(1 << 20)) + offset;
  p.b = reinterpret_cast<const float*>(uintptr_t(2 << 20)) + offset;
  p.c = reinterpret_cast<float*>(uintptr_t(3 << 20)) + offset;
  return p;
}

TEST(SgemmKernelRows, ThereAreFp32Rows) {
  EXPECT_GE(fp32_row_names().size(), 2u);
  EXPECT_NE(tileblas::find_gemm_kernel("sgemm_tiled"), nullptr);
}

TEST(SgemmKernelRows, EveryRowTakesAlignedFp32Problems) {
  for (const std::string& name : fp32_row_names()) {
    const GemmKernel& k = *tileblas::find_gemm_kernel(name.c_str());
    for (int64_t d : {1, 7, 128, 4097}) {
      EXPECT_TRUE(k.supports(fake_problem(d, d + 1, d + 2, 0, 0), tbtest::hopper_caps()))
          << name << " d=" << d;
    }
    Problem tf32 = fake_problem(256, 256, 256, 0, 0);
    tf32.allow_tf32 = true;  // allowed, not required: an fp32 kernel still computes it
    EXPECT_TRUE(k.supports(tf32, tbtest::hopper_caps())) << name;
  }
}

TEST(SgemmKernelRows, Align16RowsRefuseMisalignedProblems) {
  for (const std::string& name : fp32_row_names()) {
    const GemmKernel& k = *tileblas::find_gemm_kernel(name.c_str());
    const bool strict = requires_align16(name);
    for (int offset : {1, 2, 3}) {
      EXPECT_EQ(k.supports(fake_problem(256, 256, 256, offset, 0), tbtest::hopper_caps()), !strict)
          << name;
    }
    for (int64_t pad : {1, 2, 3}) {
      EXPECT_EQ(k.supports(fake_problem(256, 256, 256, 0, pad), tbtest::hopper_caps()), !strict)
          << name;
    }
    Problem odd_ld = fake_problem(256, 256, 256, 0, 0);
    odd_ld.ldb = 257;
    EXPECT_EQ(k.supports(odd_ld, tbtest::hopper_caps()), !strict) << name;
  }
}

TEST(SgemmKernelRows, RowsRefuseOtherTypesAndBadShapes) {
  for (const std::string& name : fp32_row_names()) {
    const GemmKernel& k = *tileblas::find_gemm_kernel(name.c_str());
    Problem p = fake_problem(256, 256, 256, 0, 0);
    p.type = DataType::kF16;
    EXPECT_FALSE(k.supports(p, tbtest::hopper_caps())) << name;
    p = fake_problem(256, 256, 256, 0, 0);
    p.c_type = DataType::kF16;
    EXPECT_FALSE(k.supports(p, tbtest::hopper_caps())) << name;
    p = fake_problem(256, 256, 256, 0, 0);
    p.lda = 255;  // below the minimum
    EXPECT_FALSE(k.supports(p, tbtest::hopper_caps())) << name;
    p = fake_problem(0, 256, 256, 0, 0);
    EXPECT_FALSE(k.supports(p, tbtest::hopper_caps())) << name;
  }
}

TEST(SgemmKernelRows, RegblockRowsNeedSm80) {
  DeviceCaps volta = tbtest::hopper_caps();
  volta.sm_version = 70;
  for (const std::string& name : fp32_row_names()) {
    const GemmKernel& k = *tileblas::find_gemm_kernel(name.c_str());
    const bool uses_cp_async = name != "sgemm_tiled";
    EXPECT_EQ(k.supports(fake_problem(256, 256, 256, 0, 0), volta), !uses_cp_async) << name;
  }
}

}  // namespace
