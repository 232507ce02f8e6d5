// Kernel tier, the GEMM shape sweep (tests/support/gemm_sweep.h, the shapes bench/bench_sweep.cpp
// times): for every sweep type and shape, the routed call on device pointers (tileblas::gemm, as
// sgemm_ / cblas_gemm_f16f16f32 / ... with device pointers), on fresh random inputs of the type,
// with the smallest leading dimensions (as the bench calls it), checked against OpenBLAS:
//   - every element of C is written (C poisoned with NaN when beta == 0, which must not be read)
//     and finite;
//   - C(R, J) against OpenBLAS dgemm_ (zgemm_ for complex types) on op(A)(R, :) and op(B)(:, J)
//     upcast to fp64 (exact), per real part |C - ref| <= 2 u (parts k + 4) S + u_C |ref|, with
//     u the unit roundoff of the kernels' accumulation (2^-24 for fp32 accumulation), S =
//     |alpha| |op(A)||op(B)| + |beta C| (moduli) and u_C that of C's type; doubled for fp64
//     types, whose reference rounds as much. R and J are all rows and columns of dimensions up
//     to 768, and otherwise the first 136, the last 264 (the edge tiles of every tile shape in the
//     kernel table) and 112 others drawn at random. Sampling keeps OpenBLAS's share of the test
//     small at 8192^3 (a whole reference would take seconds per shape on the GPU machine's CPU)
//     while every shape and every edge tile is checked.
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

// The unit roundoff of the routed kernels' accumulation (fp32 for fp32, fp16, bf16 and complex
// fp32 inputs; fp64 for fp64 and complex fp64), and of the rounding to C's type.
double accumulation_u(DataType ab) {
  return ab == DataType::kF64 || ab == DataType::kC64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}
double output_u(DataType c) {
  switch (c) {
    case DataType::kF16:
      return std::ldexp(1.0, -11);
    case DataType::kBF16:
      return std::ldexp(1.0, -8);
    case DataType::kF64:
    case DataType::kC64:
      return std::ldexp(1.0, -53);
    case DataType::kF32:
    case DataType::kC32:
      break;
  }
  return std::ldexp(1.0, -24);
}

// op(X)(i, l) of a column-major X (ld = rows as stored), part by part, as doubles.
void op_element(DataType t, Op op, const std::vector<unsigned char>& x, int64_t ld, int64_t i,
                int64_t l, double* out) {
  const size_t at = size_t(op == Op::kNoTrans ? i + l * ld : l + i * ld) * tbsweep::element_size(t);
  for (int part = 0; part < tbsweep::parts_of(t); ++part) {
    const double v = tbsweep::decode(t, &x[at], part);
    out[part] = op == Op::kConjTrans && part == 1 ? -v : v;
  }
}

// Runs shape `s` of type `t` through tileblas::gemm and checks it; returns "" or what went wrong.
std::string run_shape(const SweepType& t, const SweepShape& s, tileblas::Scalar alpha,
                      tileblas::Scalar beta) {
  const size_t ab = tbsweep::element_size(t.ab), ce = tbsweep::element_size(t.c);
  const int parts = tbsweep::parts_of(t.c);
  const size_t a_count = size_t(s.a_rows() * s.a_cols()), b_count = size_t(s.b_rows() * s.b_cols());
  const size_t c_count = size_t(s.m * s.n);
  std::vector<unsigned char> a(a_count * ab), b(b_count * ab), c(c_count * ce);
  tbsweep::RandomElements(t.ab).fill(tbtest::rng()(), a_count, a.data());
  tbsweep::RandomElements(t.ab).fill(tbtest::rng()(), b_count, b.data());
  if (beta.is_zero()) {
    const double nan = tbtest::nan_value();
    for (size_t i = 0; i < c_count; ++i) tbsweep::encode(t.c, nan, nan, &c[i * ce]);
  } else {
    tbsweep::RandomElements(t.c).fill(tbtest::rng()(), c_count, c.data());
  }
  DeviceBytes da(a.size()), db(b.size()), dc(c.size());
  if (cudaMemcpy(da.ptr, a.data(), a.size(), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(db.ptr, b.data(), b.size(), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(dc.ptr, c.data(), c.size(), cudaMemcpyHostToDevice) != cudaSuccess)
    return "upload failed";

  Problem p;
  p.trans_a = s.ta, p.trans_b = s.tb;
  p.m = s.m, p.n = s.n, p.k = s.k;
  p.alpha = alpha, p.beta = beta;
  p.type = t.ab, p.c_type = t.c;
  p.a = da.ptr, p.lda = s.a_rows();
  p.b = db.ptr, p.ldb = s.b_rows();
  p.c = dc.ptr, p.ldc = s.m;
  tileblas::gemm(p, t.routine);
  const tileblas::CallRecord& call = tileblas::last_call();
  if (call.route != TILEBLAS_ROUTE_GPU) return "not run on the GPU: " + call.reason;
  const std::string kernel = call.kernel;
  std::vector<unsigned char> got(c.size());
  if (cudaMemcpy(got.data(), dc.ptr, got.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
    return "download failed (" + kernel + ")";
  auto where = [&](int64_t i, int64_t j) {
    return "C(" + std::to_string(i) + "," + std::to_string(j) + ")";
  };
  for (size_t i = 0; i < c_count; ++i) {
    for (int part = 0; part < parts; ++part) {
      if (!std::isfinite(tbsweep::decode(t.c, &got[i * ce], part)))
        return where(int64_t(i % size_t(s.m)), int64_t(i / size_t(s.m))) +
               " not written or not finite (" + kernel + ")";
    }
  }

  // The reference on the sampled rows of op(A) and columns of op(B), in fp64 (exact upcasts), by
  // OpenBLAS dgemm_ / zgemm_, with the moduli for the bound's scale.
  const std::vector<int64_t> rows = sampled(s.m), cols = sampled(s.n);
  const int nr = int(rows.size()), nc = int(cols.size()), k = int(s.k);
  std::vector<double> ar(size_t(nr) * k * parts), bc(size_t(k) * nc * parts);
  std::vector<double> cc(size_t(nr) * nc * parts), got_rc(cc.size());
  std::vector<double> ar_abs(size_t(nr) * k), bc_abs(size_t(k) * nc), cc_abs(size_t(nr) * nc);
  auto modulus = [&](const double* v) {
    return parts == 2 ? std::hypot(v[0], v[1]) : std::fabs(v[0]);
  };
  for (int l = 0; l < k; ++l) {
    for (int i = 0; i < nr; ++i) {
      const size_t at = size_t(i) + size_t(l) * nr;
      op_element(t.ab, s.ta, a, s.a_rows(), rows[size_t(i)], l, &ar[at * parts]);
      ar_abs[at] = modulus(&ar[at * parts]);
    }
  }
  for (int j = 0; j < nc; ++j) {
    for (int l = 0; l < k; ++l) {
      const size_t at = size_t(l) + size_t(j) * k;
      op_element(t.ab, s.tb, b, s.b_rows(), l, cols[size_t(j)], &bc[at * parts]);
      bc_abs[at] = modulus(&bc[at * parts]);
    }
    for (int i = 0; i < nr; ++i) {
      const size_t at = size_t(i) + size_t(j) * nr;
      const size_t from = size_t(rows[size_t(i)] + cols[size_t(j)] * s.m) * ce;
      for (int part = 0; part < parts; ++part) {
        cc[at * parts + part] = beta.is_zero() ? 0.0 : tbsweep::decode(t.c, &c[from], part);
        got_rc[at * parts + part] = tbsweep::decode(t.c, &got[from], part);
      }
      cc_abs[at] = modulus(&cc[at * parts]);
    }
  }
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if (!blas.error.empty()) return blas.error;
  const double alpha_v[2] = {alpha.re, alpha.im}, beta_v[2] = {beta.re, beta.im};
  const double alpha_abs = std::hypot(alpha.re, alpha.im), beta_abs = std::hypot(beta.re, beta.im);
  std::vector<double> ref = cc, scale = cc_abs;
  (parts == 2 ? blas.zgemm : blas.dgemm)("N", "N", &nr, &nc, &k, alpha_v, ar.data(), &nr, bc.data(),
                                         &k, beta_v, ref.data(), &nr, 1, 1);
  blas.dgemm("N", "N", &nr, &nc, &k, &alpha_abs, ar_abs.data(), &nr, bc_abs.data(), &k, &beta_abs,
             scale.data(), &nr, 1, 1);

  // Per real part: accumulation over parts * k products, the scalars' few roundings, and C's own
  // rounding; twice that where the fp64 reference rounds as much as the kernel does.
  const double u = accumulation_u(t.ab), out_u = output_u(t.c);
  const double twice = u == std::ldexp(1.0, -53) ? 2.0 : 1.0;
  double ref_norm = 0.0;
  for (int j = 0; j < nc; ++j) {
    for (int i = 0; i < nr; ++i) {
      const size_t at = size_t(i) + size_t(j) * nr;
      for (int part = 0; part < parts; ++part) {
        const double want = ref[at * parts + part], have = got_rc[at * parts + part];
        const double tol =
            twice * 2.0 * u * double(parts * k + 4) * scale[at] + out_u * std::fabs(want);
        ref_norm += want * want;
        if (!(std::fabs(have - want) <= tol)) {
          char msg[160];
          std::snprintf(msg, sizeof msg, "%s = %.9g, want %.9g (tol %.3g; ",
                        part ? " imaginary part" : "", have, want, tol);
          return where(rows[size_t(i)], cols[size_t(j)]) + msg + kernel + ")";
        }
      }
    }
  }
  if (!(ref_norm > 0.0)) return "reference is all zero";
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
    // Complex types also get imaginary parts in alpha and beta.
    const double im = tileblas::is_complex(t.ab) ? 0.25 : 0.0;
    const std::string msg =
        poisoned ? run_shape(t, s, {0.7, im}, 0.0) : run_shape(t, s, {-0.5, -im}, {1.5, im});
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
