// Kernel tier, the GEMM shape sweep (tests/support/gemm_sweep.h, the shapes bench/bench_sweep.cpp
// times): for every sweep type and shape, the routed call on device pointers (tileblas::gemm, as
// sgemm_ / cblas_gemm_f16f16f32 / ... with device pointers), on fresh random inputs of the type,
// the smallest leading dimensions (as the bench calls it), checked against OpenBLAS:
//   - every element of C is written (C poisoned with NaN when beta == 0, which must not be read)
//     and finite;
//   - C(R, J) against OpenBLAS sgemm on op(A)(R, :) and op(B)(:, J) upcast to fp32 (exact for
//     fp16/bf16 inputs), |C - ref| <= 2 * eps_fp32 * (k + 2) * (|alpha| |op(A)||op(B)| + |beta C|)
//     (fp32 accumulation on both sides; the factor 2 is OpenBLAS's own rounding), where R and J
//     are all rows and columns of dimensions up to 768, and otherwise the first 136, the last 264
//     (the edge tiles of every tile shape in the kernel table) and 112 others drawn at random.
//     Sampling keeps OpenBLAS's share of the test small at 8192^3 (a whole reference would cost
//     seconds per shape on the GPU machine's CPU) while every edge tile and every shape is checked.
// Shapes alternate between alpha = 0.7, beta = 0 on a poisoned C and alpha = -0.5, beta = 1.5 on
// a random C (the other way round for the next type). Suites: GemmSweepList.* (no GPU),
// GemmSweep/<type>.* (GPU).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "device_support.h"
#include "gemm_sweep.h"
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
using tileblas::GemmProblem;
using tileblas::Op;

// ---- No GPU needed ------------------------------------------------------------------------------

// The list holds what issue #15 asks the sweep to cover.
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
      GemmProblem p;
      p.trans_a = s.ta, p.trans_b = s.tb;
      p.m = s.m, p.n = s.n, p.k = s.k;
      p.ab_type = t.ab, p.c_type = t.c;
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

// The indices of one dimension that are checked (see the file comment).
std::vector<int64_t> sampled(int64_t d) {
  std::vector<int64_t> idx;
  if (d <= 768) {
    idx.resize(size_t(d));
    std::iota(idx.begin(), idx.end(), int64_t(0));
    return idx;
  }
  for (int64_t i = 0; i < 136; ++i) idx.push_back(i);
  for (int64_t i = d - 264; i < d; ++i) idx.push_back(i);
  std::set<int64_t> interior;
  std::uniform_int_distribution<int64_t> pick(136, d - 265);
  while (interior.size() < 112) interior.insert(pick(tbtest::rng()));
  idx.insert(idx.end(), interior.begin(), interior.end());
  return idx;
}

struct DeviceBytes {
  void* ptr = nullptr;
  explicit DeviceBytes(size_t bytes) {
    EXPECT_EQ(cudaMalloc(&ptr, std::max<size_t>(bytes, 1)), cudaSuccess);
  }
  ~DeviceBytes() { cudaFree(ptr); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
};

// Runs shape `s` of type `t` through tileblas::gemm and checks it; returns "" or what went wrong.
std::string run_shape(const SweepType& t, const SweepShape& s, float alpha, float beta) {
  const size_t ab = tbsweep::element_size(t.ab), ce = tbsweep::element_size(t.c);
  const size_t a_count = size_t(s.a_rows() * s.a_cols()), b_count = size_t(s.b_rows() * s.b_cols());
  const size_t c_count = size_t(s.m * s.n);
  std::vector<unsigned char> a(a_count * ab), b(b_count * ab), c(c_count * ce);
  tbsweep::RandomElements(t.ab).fill(tbtest::rng()(), a_count, a.data());
  tbsweep::RandomElements(t.ab).fill(tbtest::rng()(), b_count, b.data());
  if (beta == 0.0f) {
    for (size_t i = 0; i < c_count; ++i) tbsweep::encode(t.c, tbtest::nan_value(), &c[i * ce]);
  } else {
    tbsweep::RandomElements(t.c).fill(tbtest::rng()(), c_count, c.data());
  }
  DeviceBytes da(a.size()), db(b.size()), dc(c.size());
  if (cudaMemcpy(da.ptr, a.data(), a.size(), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(db.ptr, b.data(), b.size(), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(dc.ptr, c.data(), c.size(), cudaMemcpyHostToDevice) != cudaSuccess)
    return "upload failed";

  GemmProblem p;
  p.trans_a = s.ta, p.trans_b = s.tb;
  p.m = s.m, p.n = s.n, p.k = s.k;
  p.alpha = alpha, p.beta = beta;
  p.ab_type = t.ab, p.c_type = t.c;
  p.a = da.ptr, p.lda = s.a_rows();
  p.b = db.ptr, p.ldb = s.b_rows();
  p.c = dc.ptr, p.ldc = s.m;
  tileblas::gemm(p, t.routine);
  const tileblas::CallRecord& call = tileblas::last_call();
  const std::string kernel = call.kernel;
  if (call.route != TILEBLAS_ROUTE_GPU) return "not run on the GPU: " + call.reason;
  std::vector<unsigned char> got(c.size());
  if (cudaMemcpy(got.data(), dc.ptr, got.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
    return "download failed (" + kernel + ")";
  for (size_t i = 0; i < c_count; ++i) {
    if (!std::isfinite(tbsweep::decode(t.c, &got[i * ce])))
      return "C(" + std::to_string(i % size_t(s.m)) + "," + std::to_string(i / size_t(s.m)) +
             ") not written or not finite (" + kernel + ")";
  }

  // The reference on the sampled rows of op(A) and columns of op(B), as fp32 (exact upcasts).
  const std::vector<int64_t> rows = sampled(s.m), cols = sampled(s.n);
  const int64_t nr = int64_t(rows.size()), nc = int64_t(cols.size());
  std::vector<float> ar(size_t(nr * s.k)), bc(size_t(s.k * nc)), cc(size_t(nr * nc));
  std::vector<float> got_rc(cc.size());
  for (int64_t l = 0; l < s.k; ++l) {
    for (int64_t i = 0; i < nr; ++i) {
      const int64_t r = rows[size_t(i)];
      const size_t at = size_t(s.ta == Op::kNoTrans ? r + l * s.m : l + r * s.k);
      ar[size_t(i + l * nr)] = float(tbsweep::decode(t.ab, &a[at * ab]));
    }
  }
  for (int64_t j = 0; j < nc; ++j) {
    for (int64_t l = 0; l < s.k; ++l) {
      const int64_t col = cols[size_t(j)];
      const size_t at = size_t(s.tb == Op::kNoTrans ? l + col * s.k : col + l * s.n);
      bc[size_t(l + j * s.k)] = float(tbsweep::decode(t.ab, &b[at * ab]));
    }
    for (int64_t i = 0; i < nr; ++i) {
      const size_t at = size_t(rows[size_t(i)] + cols[size_t(j)] * s.m);
      cc[size_t(i + j * nr)] = beta == 0.0f ? 0.0f : float(tbsweep::decode(t.c, &c[at * ce]));
      got_rc[size_t(i + j * nr)] = float(tbsweep::decode(t.c, &got[at * ce]));
    }
  }
  if (!(tbtest::norm2(ar) > 0 && tbtest::norm2(bc) > 0)) return "zero inputs";
  GemmProblem hp;
  hp.m = nr, hp.n = nc, hp.k = s.k;
  hp.alpha = alpha, hp.beta = beta;
  hp.lda = nr, hp.ldb = s.k, hp.ldc = nr;
  std::vector<double> ref, scale;
  tbtest::openblas_gemm_reference(hp, ar, bc, cc, ref, scale);
  if (::testing::Test::HasFatalFailure()) return "no OpenBLAS";
  double ref_norm = 0.0;
  for (double x : ref) ref_norm += x * x;
  if (!(ref_norm > 0.0)) return "reference is all zero";
  const std::string msg =
      tbtest::check_gemm(hp, got_rc.data(), ref, scale, FLT_EPSILON, 2.0, &rows, &cols);
  if (!msg.empty()) return msg + " (" + kernel + ")";
  return "";
}

class GemmSweep : public testing::TestWithParam<const SweepType*> {};

TEST_P(GemmSweep, RoutedMatchesOpenBlas) {
  TB_REQUIRE_GPU();
  const SweepType& t = *GetParam();
  // Alternating by shape and by type, so each shape runs both ways across the types.
  int failures = 0, i = int(&t - tbsweep::sweep_types().data());
  for (const SweepShape& s : tbsweep::sweep_shapes()) {
    const bool poisoned = i++ % 2 == 0;
    const std::string msg = run_shape(t, s, poisoned ? 0.7f : -0.5f, poisoned ? 0.0f : 1.5f);
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
