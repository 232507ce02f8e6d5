#include "test_support.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace tbtest {

const OpenBlas& OpenBlas::get() {
  static const OpenBlas blas = [] {
    OpenBlas b;
    const char* names[] = {"libopenblas.so.0", "libopenblas.so"};
    void* h = nullptr;
    for (const char* name : names) {
      h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (h) break;
    }
    if (!h) {
      b.error = std::string("cannot dlopen libopenblas.so.0: ") + dlerror();
      return b;
    }
    b.sgemm = reinterpret_cast<SgemmFn>(dlsym(h, "sgemm_"));
    b.dgemm = reinterpret_cast<DgemmFn>(dlsym(h, "dgemm_"));
    b.cgemm = reinterpret_cast<CgemmFn>(dlsym(h, "cgemm_"));
    b.zgemm = reinterpret_cast<DgemmFn>(dlsym(h, "zgemm_"));
    b.saxpy = reinterpret_cast<SaxpyFn>(dlsym(h, "saxpy_"));
    b.somatcopy = reinterpret_cast<SomatcopyFn>(dlsym(h, "somatcopy_"));
    b.simatcopy = reinterpret_cast<SimatcopyFn>(dlsym(h, "simatcopy_"));
    if (!b.sgemm || !b.dgemm || !b.cgemm || !b.zgemm || !b.saxpy || !b.somatcopy || !b.simatcopy)
      b.error = "OpenBLAS lacks a symbol";
    return b;
  }();
  return blas;
}

bool has_cuda_device() {
  static const bool has = [] {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  }();
  return has;
}

std::mt19937_64& rng() {
  static std::mt19937_64 gen = [] {
    uint64_t seed;
    if (const char* s = std::getenv("TILEBLAS_TEST_SEED")) {
      seed = std::strtoull(s, nullptr, 10);
    } else {
      seed = std::random_device{}() ^
             uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    }
    std::fprintf(stderr, "[tbtest] random seed %llu (replay: TILEBLAS_TEST_SEED=%llu)\n",
                 static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
    return std::mt19937_64(seed);
  }();
  return gen;
}

std::vector<float> random_floats(size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng());
  return v;
}

std::vector<float> random_ints(size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<float> v(n);
  bool nonzero = false;
  for (float& x : v) {
    x = float(d(rng()));
    nonzero |= x != 0.0f;
  }
  if (!nonzero && n > 0) v[0] = float(hi != 0 ? hi : lo);
  return v;
}

float nan_value() { return std::numeric_limits<float>::quiet_NaN(); }

void poison(std::vector<float>& v) {
  for (float& x : v) x = nan_value();
}

void gemm_reference(const tileblas::Problem& p, std::vector<double>& out,
                    std::vector<double>& scale) {
  const float* a = static_cast<const float*>(p.a);
  const float* b = static_cast<const float*>(p.b);
  const float* c = static_cast<const float*>(p.c);
  out.assign(size_t(p.m) * p.n, 0.0);
  scale.assign(size_t(p.m) * p.n, 0.0);
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) {
      double sum = 0.0, abs_sum = 0.0;
      for (int64_t l = 0; l < p.k; ++l) {
        double av = p.trans_a == tileblas::Op::kNoTrans ? a[i + l * p.lda] : a[l + i * p.lda];
        double bv = p.trans_b == tileblas::Op::kNoTrans ? b[l + j * p.ldb] : b[j + l * p.ldb];
        sum += av * bv;
        abs_sum += std::fabs(av * bv);
      }
      double r = p.alpha.re * sum;
      double s = std::fabs(p.alpha.re) * abs_sum;
      if (p.beta != 0.0) {
        r += p.beta.re * c[i + j * p.ldc];
        s += std::fabs(p.beta.re * c[i + j * p.ldc]);
      }
      out[i + j * p.m] = r;
      scale[i + j * p.m] = s;
    }
  }
}

std::string check_gemm(const tileblas::Problem& p, const float* c, const std::vector<double>& ref,
                       const std::vector<double>& scale, double eps, double tol_factor) {
  char msg[256];
  const double kfactor = double(std::max<int64_t>(p.k, 1)) + 2.0;
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) {
      double got = c[i + j * p.ldc];
      double want = ref[i + j * p.m];
      double tol = tol_factor * eps * kfactor * scale[i + j * p.m] + 1e-30;
      if (!(std::fabs(got - want) <= tol)) {
        std::snprintf(msg, sizeof msg,
                      "C(%lld,%lld) = %.9g, want %.9g (tol %.3g) m=%lld n=%lld k=%lld",
                      (long long)i, (long long)j, got, want, tol, (long long)p.m, (long long)p.n,
                      (long long)p.k);
        return msg;
      }
    }
  }
  return "";
}

std::string check_padding(const tileblas::Problem& p, const float* c, const float* before) {
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = p.m; i < p.ldc; ++i) {
      size_t at = size_t(i + j * p.ldc);
      if (std::memcmp(&c[at], &before[at], sizeof(float)) != 0) {
        return "padding row " + std::to_string(i) + " of column " + std::to_string(j) + " written";
      }
    }
  }
  return "";
}

double norm2(const std::vector<float>& v) {
  double s = 0.0;
  for (float x : v) s += double(x) * x;
  return std::sqrt(s);
}

void openblas_gemm_reference(const tileblas::Problem& p, const std::vector<float>& a,
                             const std::vector<float>& b, const std::vector<float>& c,
                             std::vector<double>& out, std::vector<double>& scale) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  ASSERT_EQ(blas.error, "");
  const int m = int(p.m), n = int(p.n), k = int(p.k), lda = int(p.lda), ldb = int(p.ldb),
            ldc = int(p.ldc);
  const char ta = p.trans_a == tileblas::Op::kNoTrans ? 'N' : 'T',
             tb = p.trans_b == tileblas::Op::kNoTrans ? 'N' : 'T';
  std::vector<float> r = c, s(c.size());
  std::vector<float> abs_a(a.size()), abs_b(b.size());
  for (size_t i = 0; i < a.size(); ++i) abs_a[i] = std::fabs(a[i]);
  for (size_t i = 0; i < b.size(); ++i) abs_b[i] = std::fabs(b[i]);
  for (size_t i = 0; i < c.size(); ++i) s[i] = p.beta == 0.0 ? 0.0f : std::fabs(c[i]);
  const float alpha = float(p.alpha.re), beta = float(p.beta.re);
  const float abs_alpha = std::fabs(alpha), abs_beta = std::fabs(beta);
  if (p.beta == 0.0) std::fill(r.begin(), r.end(), 0.0f);  // OpenBLAS may read C when beta==0
  blas.sgemm(&ta, &tb, &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, r.data(), &ldc, 1,
             1);
  blas.sgemm(&ta, &tb, &m, &n, &k, &abs_alpha, abs_a.data(), &lda, abs_b.data(), &ldb, &abs_beta,
             s.data(), &ldc, 1, 1);
  out.assign(size_t(m) * n, 0.0);
  scale.assign(size_t(m) * n, 0.0);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      out[i + size_t(j) * m] = r[i + size_t(j) * ldc];
      scale[i + size_t(j) * m] = s[i + size_t(j) * ldc];
    }
  }
}

}  // namespace tbtest
