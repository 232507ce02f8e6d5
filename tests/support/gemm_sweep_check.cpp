// See gemm_sweep_check.h.
#include "gemm_sweep_check.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "device_support.h"
#include "log.h"
#include "ops.h"
#include "test_support.h"
#include "tileblas.h"

namespace tbtest {

using tbsweep::SweepShape;
using tbsweep::SweepType;
using tileblas::DataType;
using tileblas::Op;
using tileblas::Problem;

namespace {

// The indices of one dimension that are checked (see the header's comment).
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
  while (interior.size() < 112) interior.insert(pick(rng()));
  idx.insert(idx.end(), interior.begin(), interior.end());
  return idx;
}

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

}  // namespace

std::string run_sweep_shape(const SweepType& t, const SweepShape& s, tileblas::Scalar alpha,
                            tileblas::Scalar beta, const SweepRun& how) {
  const size_t ab = tbsweep::element_size(t.ab), ce = tbsweep::element_size(t.c);
  const int parts = tbsweep::parts_of(t.c);
  const size_t a_count = size_t(s.a_rows() * s.a_cols()), b_count = size_t(s.b_rows() * s.b_cols());
  const int64_t ldc = s.m + how.ldc_pad;
  const size_t c_count = size_t(ldc * s.n);
  std::vector<unsigned char> a(a_count * ab), b(b_count * ab), c(c_count * ce);
  tbsweep::RandomElements(t.ab).fill(rng()(), a_count, a.data());
  tbsweep::RandomElements(t.ab).fill(rng()(), b_count, b.data());
  const double nan = nan_value();
  if (beta.is_zero()) {
    for (size_t i = 0; i < c_count; ++i) tbsweep::encode(t.c, nan, nan, &c[i * ce]);
  } else {
    tbsweep::RandomElements(t.c).fill(rng()(), c_count, c.data());
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t i = s.m; i < ldc; ++i)
        tbsweep::encode(t.c, nan, nan, &c[size_t(i + j * ldc) * ce]);
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
  const bool null_operands = how.null_when_zero && alpha.is_zero();
  p.a = null_operands ? nullptr : da.ptr, p.lda = std::max<int64_t>(1, s.a_rows());
  p.b = null_operands ? nullptr : db.ptr, p.ldb = std::max<int64_t>(1, s.b_rows());
  p.c = dc.ptr, p.ldc = ldc;
  std::string kernel;
  if (how.forced) {
    kernel = how.forced->name;
    if (!how.forced->supports(p, device_caps())) return kernel + " does not support it";
    const cudaError_t err = how.forced->launch(p, nullptr);
    const cudaError_t sync = cudaDeviceSynchronize();
    if (err != cudaSuccess || sync != cudaSuccess)
      return kernel + ": " + cudaGetErrorString(err != cudaSuccess ? err : sync);
  } else {
    tileblas::gemm(p, t.routine);
    const tileblas::CallRecord& call = tileblas::last_call();
    if (call.route != TILEBLAS_ROUTE_GPU) return "not run on the GPU: " + call.reason;
    kernel = call.kernel;
  }
  std::vector<unsigned char> got(c.size());
  if (cudaMemcpy(got.data(), dc.ptr, got.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
    return "download failed (" + kernel + ")";
  auto where = [&](int64_t i, int64_t j) {
    return "C(" + std::to_string(i) + "," + std::to_string(j) + ")";
  };
  for (int64_t j = 0; j < s.n; ++j) {
    for (int64_t i = 0; i < ldc; ++i) {
      const size_t at = size_t(i + j * ldc) * ce;
      if (i >= s.m) {
        if (std::memcmp(&got[at], &c[at], ce) != 0)
          return where(i, j) + " below row m written (" + kernel + ")";
        continue;
      }
      for (int part = 0; part < parts; ++part) {
        if (!std::isfinite(tbsweep::decode(t.c, &got[at], part)))
          return where(i, j) + " not written or not finite (" + kernel + ")";
      }
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
      const size_t from = size_t(rows[size_t(i)] + cols[size_t(j)] * ldc) * ce;
      for (int part = 0; part < parts; ++part) {
        cc[at * parts + part] = beta.is_zero() ? 0.0 : tbsweep::decode(t.c, &c[from], part);
        got_rc[at * parts + part] = tbsweep::decode(t.c, &got[from], part);
      }
      cc_abs[at] = modulus(&cc[at * parts]);
    }
  }
  const OpenBlas& blas = OpenBlas::get();
  if (!blas.error.empty()) return blas.error;
  const double alpha_v[2] = {alpha.re, alpha.im}, beta_v[2] = {beta.re, beta.im};
  const double alpha_abs = std::hypot(alpha.re, alpha.im), beta_abs = std::hypot(beta.re, beta.im);
  std::vector<double> ref = cc, scale = cc_abs;
  const int ldk = std::max(1, k);
  (parts == 2 ? blas.zgemm : blas.dgemm)("N", "N", &nr, &nc, &k, alpha_v, ar.data(), &nr, bc.data(),
                                         &ldk, beta_v, ref.data(), &nr, 1, 1);
  blas.dgemm("N", "N", &nr, &nc, &k, &alpha_abs, ar_abs.data(), &nr, bc_abs.data(), &ldk, &beta_abs,
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
  // A reference of zeros checks only that C was zeroed: where the call multiplies or scales a
  // random C, it means the inputs were not what the test meant.
  const bool zero_expected = (s.k == 0 || alpha.is_zero()) && beta.is_zero();
  if (!(ref_norm > 0.0) && !zero_expected) return "reference is all zero";
  return "";
}

}  // namespace tbtest
