// API tier for fp32 GEMM: sgemm_ and cblas_sgemm through libtileblas.so, against a float64
// reference (and OpenBLAS), column and row major, every transpose, padded leading dimensions,
// alpha/beta in {0, 1, 0.7, -2}, NaN-poisoned C when beta == 0, padding of C untouched.
// Runs on the CPU in CI; on the GPU machine the same cases go through the router to the GPU.
#include <cuda_runtime_api.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"
#include "tileblas.h"

extern "C" {
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,
            const float*, const int*, const float*, const int*, const float*, float*, const int*,
            size_t, size_t);
void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                 float*, int);
}

namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112, kConjTrans = 113;
constexpr double kEps = 5.96e-8;  // fp32 unit roundoff (2^-24)

struct Case {
  int layout;  // kColMajor or kRowMajor
  bool ta, tb;
  int m, n, k;
  float alpha, beta;
  int pad;       // added to every leading dimension
  bool fortran;  // call sgemm_ (column major only) instead of cblas_sgemm
};

std::string describe(const Case& c) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %s%s m=%d n=%d k=%d alpha=%g beta=%g pad=%d",
                c.fortran ? "sgemm_" : (c.layout == kRowMajor ? "cblas row" : "cblas col"),
                c.ta ? "T" : "N", c.tb ? "T" : "N", c.m, c.n, c.k, c.alpha, c.beta, c.pad);
  return buf;
}

// Runs one case with pointer allocator `alloc` (host vectors by default) and checks it.
// Element (r, c) of a stored matrix with leading dimension ld: column major r + c*ld, row major
// r*ld + c. The reference below is written in those terms, independently of the library's
// row-major to column-major mapping.
void run_case(const Case& c, float* a_mem = nullptr, float* b_mem = nullptr,
              float* c_mem = nullptr) {
  SCOPED_TRACE(describe(c));
  const bool row = c.layout == kRowMajor;
  const int a_rows = c.ta ? c.k : c.m, a_cols = c.ta ? c.m : c.k;
  const int b_rows = c.tb ? c.n : c.k, b_cols = c.tb ? c.k : c.n;
  // Leading dimension: the stored extent of the contiguous direction, plus padding.
  const int lda = std::max(1, row ? a_cols : a_rows) + c.pad;
  const int ldb = std::max(1, row ? b_cols : b_rows) + c.pad;
  const int ldc = std::max(1, row ? c.n : c.m) + c.pad;
  const int a_lines = row ? a_rows : a_cols, b_lines = row ? b_rows : b_cols;
  const int c_lines = row ? c.m : c.n;
  std::vector<float> a = tbtest::random_floats(size_t(std::max(lda, 1)) * std::max(a_lines, 1));
  std::vector<float> b = tbtest::random_floats(size_t(std::max(ldb, 1)) * std::max(b_lines, 1));
  std::vector<float> cv = tbtest::random_floats(size_t(std::max(ldc, 1)) * std::max(c_lines, 1));
  if (c.beta == 0.0f) tbtest::poison(cv);
  const std::vector<float> c_before = cv;

  auto at = [row](const std::vector<float>& v, int ld, int r, int col) {
    return double(row ? v[size_t(r) * ld + col] : v[r + size_t(col) * ld]);
  };
  std::vector<double> ref(size_t(c.m) * c.n), scale(size_t(c.m) * c.n);
  for (int i = 0; i < c.m; ++i) {
    for (int j = 0; j < c.n; ++j) {
      double s = 0, abs_s = 0;
      for (int l = 0; l < c.k; ++l) {
        const double av = c.ta ? at(a, lda, l, i) : at(a, lda, i, l);
        const double bv = c.tb ? at(b, ldb, j, l) : at(b, ldb, l, j);
        s += av * bv;
        abs_s += std::fabs(av * bv);
      }
      double r = double(c.alpha) * s, sc = std::fabs(double(c.alpha)) * abs_s;
      if (c.beta != 0.0f) {
        r += double(c.beta) * at(c_before, ldc, i, j);
        sc += std::fabs(double(c.beta) * at(c_before, ldc, i, j));
      }
      ref[i + size_t(j) * c.m] = r;
      scale[i + size_t(j) * c.m] = sc;
    }
  }

  float* pa = a.data();
  float* pb = b.data();
  float* pc = cv.data();
  if (a_mem) {  // caller-provided (device or managed) memory
    cudaMemcpy(a_mem, a.data(), a.size() * 4, cudaMemcpyDefault);
    cudaMemcpy(b_mem, b.data(), b.size() * 4, cudaMemcpyDefault);
    cudaMemcpy(c_mem, cv.data(), cv.size() * 4, cudaMemcpyDefault);
    pa = a_mem, pb = b_mem, pc = c_mem;
  }
  if (c.fortran) {
    const char ta = c.ta ? 'T' : 'N', tb = c.tb ? 'T' : 'N';
    sgemm_(&ta, &tb, &c.m, &c.n, &c.k, &c.alpha, pa, &lda, pb, &ldb, &c.beta, pc, &ldc, 1, 1);
  } else {
    cblas_sgemm(c.layout, c.ta ? kTrans : kNoTrans, c.tb ? kTrans : kNoTrans, c.m, c.n, c.k,
                c.alpha, pa, lda, pb, ldb, c.beta, pc, ldc);
  }
  if (a_mem) cudaMemcpy(cv.data(), c_mem, cv.size() * 4, cudaMemcpyDefault);

  const double tol_factor = 2.0;
  for (int i = 0; i < c.m; ++i) {
    for (int j = 0; j < c.n; ++j) {
      const double got = at(cv, ldc, i, j), want = ref[i + size_t(j) * c.m];
      const double tol = tol_factor * kEps * (c.k + 2) * scale[i + size_t(j) * c.m] + 1e-30;
      ASSERT_LE(std::fabs(got - want), tol)
          << "C(" << i << "," << j << ") got " << got << " want " << want;
    }
  }
  // Everything outside the m x n result (padding) is bit-for-bit what it was.
  for (int line = 0; line < c_lines; ++line) {
    for (int e = (row ? c.n : c.m); e < ldc; ++e) {  // ldc >= 1 even when the extent is 0
      const size_t idx = size_t(line) * ldc + e;
      ASSERT_EQ(0, std::memcmp(&cv[idx], &c_before[idx], 4)) << "padding written at " << idx;
    }
  }
}

const std::vector<float> kScalars = {0.0f, 1.0f, 0.7f, -2.0f};

// The netlib size grid, every transpose and layout, random alpha/beta.
TEST(SgemmApi, NetlibGrid) {
  const int sizes[] = {0, 1, 2, 3, 7, 31, 63};
  int cases = 0;
  for (int layout : {kColMajor, kRowMajor}) {
    for (int t = 0; t < 4; ++t) {
      for (int m : sizes) {
        for (int n : sizes) {
          for (int k : sizes) {
            Case c{layout,
                   bool(t & 1),
                   bool(t & 2),
                   m,
                   n,
                   k,
                   tbtest::pick(kScalars),
                   tbtest::pick(kScalars),
                   int(tbtest::rng()() % 3),
                   false};
            run_case(c);
            if (HasFatalFailure()) return;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 2 * 4 * 7 * 7 * 7);
}

TEST(SgemmApi, FortranEntryAllTransposes) {
  for (int t = 0; t < 4; ++t) {
    for (float alpha : kScalars) {
      for (float beta : kScalars) {
        run_case({kColMajor, bool(t & 1), bool(t & 2), 37, 29, 41, alpha, beta, 3, true});
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(SgemmApi, OddShapesUpTo1000) {
  const int shapes[][3] = {
      {1000, 3, 7}, {5, 999, 64}, {129, 257, 255}, {513, 65, 1000}, {997, 1001, 33}};
  for (const auto& s : shapes) {
    for (int t = 0; t < 4; ++t) {
      run_case({tbtest::pick(std::vector<int>{kColMajor, kRowMajor}), bool(t & 1), bool(t & 2),
                s[0], s[1], s[2], tbtest::pick(kScalars), tbtest::pick(kScalars), 5, false});
      if (HasFatalFailure()) return;
    }
  }
}

TEST(SgemmApi, ConjTransIsTransForRealData) {
  const int m = 9, n = 11, k = 13;
  std::vector<float> a = tbtest::random_floats(k * m), b = tbtest::random_floats(k * n);
  std::vector<float> c1(m * n), c2(m * n);
  cblas_sgemm(kColMajor, kConjTrans, kNoTrans, m, n, k, 1.0f, a.data(), k, b.data(), k, 0.0f,
              c1.data(), m);
  cblas_sgemm(kColMajor, kTrans, kNoTrans, m, n, k, 1.0f, a.data(), k, b.data(), k, 0.0f, c2.data(),
              m);
  ASSERT_GT(tbtest::norm2(c1), 0.0);
  EXPECT_EQ(0, std::memcmp(c1.data(), c2.data(), c1.size() * 4));
}

TEST(SgemmApi, RecordsRouteOfLastCall) {
  const int n = 8;
  std::vector<float> a = tbtest::random_floats(n * n), b = a, c(n * n);
  cblas_sgemm(kColMajor, kNoTrans, kNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
              c.data(), n);
  EXPECT_NE(tileblas_last_route(), TILEBLAS_ROUTE_NONE);
  EXPECT_STRNE(tileblas_last_kernel(), "");
  EXPECT_STRNE(tileblas_last_reason(), "");
  tileblas_config cfg;
  tileblas_get_config(&cfg);
  if (!cfg.device_found) {
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_CPU);
    EXPECT_NE(std::string(tileblas_last_reason()).find("no GPU"), std::string::npos);
  }
}

// A small host call takes one CPU path whether its operands lie in the heap (routed before they
// are classified) or in an mmap'd buffer (classified, then routed): the same kernel, and C equal to
// the last bit.
TEST(SgemmApi, SmallHostCallTakesOnePathWhereverItsOperandsLie) {
  const int n = 8, count = n * n;
  const float alpha = 0.7f, beta = 0.0f;
  std::vector<float> a = tbtest::random_floats(count), b = tbtest::random_floats(count);
  std::vector<float> c_heap(count, std::numeric_limits<float>::quiet_NaN());
  for (int call = 0; call < 2; ++call) {  // the first may measure the rates
    sgemm_("N", "T", &n, &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c_heap.data(), &n, 1,
           1);
  }
  const std::string heap_kernel = tileblas_last_kernel();
  const tileblas_route heap_route = tileblas_last_route();

  void* mapped = mmap(nullptr, size_t(3 * count) * sizeof(float), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  float* a_map = static_cast<float*>(mapped);
  float* b_map = a_map + count;
  float* c_map = b_map + count;
  std::copy(a.begin(), a.end(), a_map);
  std::copy(b.begin(), b.end(), b_map);
  std::fill(c_map, c_map + count, std::numeric_limits<float>::quiet_NaN());
  sgemm_("N", "T", &n, &n, &n, &alpha, a_map, &n, b_map, &n, &beta, c_map, &n, 1, 1);
  EXPECT_EQ(tileblas_last_route(), heap_route) << tileblas_last_reason();
  EXPECT_EQ(tileblas_last_kernel(), heap_kernel) << tileblas_last_reason();
  EXPECT_EQ(0, std::memcmp(c_map, c_heap.data(), size_t(count) * sizeof(float)));
  for (int i = 0; i < count; ++i) ASSERT_FALSE(std::isnan(c_heap[i])) << i;
  munmap(mapped, size_t(3 * count) * sizeof(float));
}

// A child after fork() gets right answers (on the CPU when the parent had used the GPU).
TEST(SgemmApi, ChildAfterForkIsRight) {
  run_case({kColMajor, false, false, 300, 300, 300, 1.0f, 0.0f, 0, true});  // parent may use GPU
  fflush(nullptr);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    run_case({kColMajor, true, false, 300, 200, 100, 0.7f, -2.0f, 1, true});
    _exit(::testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(pid, waitpid(pid, &status, 0));
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(0, WEXITSTATUS(status));
}

// ---- GPU: device and managed pointers are computed in place --------------------------------

struct DeviceMem {
  float* p = nullptr;
  DeviceMem(size_t n, bool managed) {
    if (managed) {
      cudaMallocManaged(reinterpret_cast<void**>(&p), n * 4);
    } else {
      cudaMalloc(reinterpret_cast<void**>(&p), n * 4);
    }
  }
  ~DeviceMem() { cudaFree(p); }
};

void run_on_device_memory(const Case& c, bool managed) {
  const size_t big = size_t(c.m + c.pad + c.k + 8) * size_t(c.n + c.k + c.m + 8);
  DeviceMem a(big, managed), b(big, managed), cm(big, managed);
  ASSERT_TRUE(a.p && b.p && cm.p);
  run_case(c, a.p, b.p, cm.p);
  EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
}

TEST(SgemmApiGpu, DevicePointersInPlace) {
  TB_REQUIRE_GPU();
  const int shapes[][3] = {
      {1, 1, 1}, {7, 31, 63}, {129, 65, 257}, {1000, 1024, 2047}, {4097, 33, 129}};
  for (const auto& s : shapes) {
    for (int t = 0; t < 4; ++t) {
      run_on_device_memory({tbtest::pick(std::vector<int>{kColMajor, kRowMajor}), bool(t & 1),
                            bool(t & 2), s[0], s[1], s[2], tbtest::pick(kScalars),
                            tbtest::pick(kScalars), int(tbtest::rng()() % 3), false},
                           false);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(SgemmApiGpu, ManagedPointersInPlace) {
  TB_REQUIRE_GPU();
  run_on_device_memory({kColMajor, false, true, 300, 200, 100, 0.7f, 0.0f, 2, true}, true);
  run_on_device_memory({kRowMajor, true, false, 64, 65, 66, -2.0f, 1.0f, 1, false}, true);
}

// Host data large enough that the cost model may send it to the GPU (staged copies): right either
// way; the route taken is recorded (routing decisions themselves are unit-tested in RouterTest).
TEST(SgemmApiGpu, LargeHostData) {
  TB_REQUIRE_GPU();
  run_case({kColMajor, false, true, 1024, 1024, 1024, 0.7f, 0.0f, 0, true});
  RecordProperty("route", tileblas_last_route() == TILEBLAS_ROUTE_GPU ? "gpu" : "cpu");
  RecordProperty("reason", tileblas_last_reason());
}

// One case on operands in pinned host memory of `elems` floats each.
void run_on_pinned_memory(const Case& c, size_t elems, bool forced_gpu) {
  float *a = nullptr, *b = nullptr, *cm = nullptr;
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void**>(&a), elems * 4), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void**>(&b), elems * 4), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void**>(&cm), elems * 4), cudaSuccess);
  run_case(c, a, b, cm);
  if (forced_gpu) EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
  cudaFreeHost(a);
  cudaFreeHost(b);
  cudaFreeHost(cm);
}

// Host data through the staging pipeline (with TILEBLAS_MODE=gpu, from 4 MiB of host operands):
// C in column panels (m = 4096 fills the GPU with 1280-column panels: two panels, the last
// narrower), operands larger than one 8 MiB pinned slot (several pieces per panel, in whole
// columns), a column larger than a slot (m = 2.2M: pieces of one column), every transpose, both
// layouts, beta == 0 (C not uploaded) and beta != 0, padded leading dimensions, and pinned host
// memory (copied without slots).
TEST(SgemmApiGpu, StagedHostData) {
  TB_REQUIRE_GPU();
  tileblas_config cfg;
  tileblas_get_config(&cfg);
  const bool forced_gpu = std::string(cfg.mode) == "gpu";
  const Case cases[] = {
      {kColMajor, false, false, 4096, 2400, 32, 1.0f, 0.0f, 3, true},
      {kColMajor, true, true, 4096, 2400, 24, -2.0f, 0.7f, 0, false},
      {kRowMajor, false, true, 2400, 4096, 16, 0.7f, 1.0f, 5, false},
      {kRowMajor, true, false, 4096, 2304, 8, 1.0f, 0.0f, 1, false},
      {kColMajor, false, true, 2200000, 3, 2, 0.7f, -2.0f, 2, true},
  };
  for (const Case& c : cases) {
    run_case(c);
    if (HasFatalFailure()) return;
    if (forced_gpu) EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
  }
  // Pinned host memory: the operands are copied straight from it.
  run_on_pinned_memory(cases[1], size_t(cases[1].m + 8) * size_t(cases[1].n + 8), forced_gpu);
}

// Small host data through the bounce buffer (with TILEBLAS_MODE=gpu, host operands of at most
// 1 MiB; in auto mode where the cost model predicts it faster than the CPU BLAS): every transpose,
// both layouts, beta == 0 and beta != 0, padded leading dimensions, shapes from 1 to the buffer's
// size, pinned host memory, and host operands beside a device one (A on the device: B and C
// bounced).
TEST(SgemmApiGpu, BouncedHostData) {
  TB_REQUIRE_GPU();
  tileblas_config cfg;
  tileblas_get_config(&cfg);
  const bool forced_gpu = std::string(cfg.mode) == "gpu";
  const int shapes[][3] = {{1, 1, 1}, {3, 7, 2}, {64, 64, 64}, {129, 65, 257}, {250, 200, 300}};
  for (const auto& s : shapes) {
    for (int t = 0; t < 4; ++t) {
      Case c{kColMajor, bool(t & 1), bool(t & 2), s[0], s[1], s[2], 1.0f, 0.0f, 0, false};
      c.layout = tbtest::pick(std::vector<int>{kColMajor, kRowMajor});
      c.alpha = tbtest::pick(kScalars);
      c.beta = t % 2 ? 0.0f : 0.7f;
      c.pad = int(tbtest::rng()() % 3);
      run_case(c);
      if (HasFatalFailure()) return;
      if (forced_gpu)
        EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
    }
  }
  const Case c{kColMajor, true, false, 100, 90, 80, 0.7f, 1.0f, 1, true};
  const size_t big = size_t(c.m + c.k + 8) * size_t(c.n + c.k + 8);
  run_on_pinned_memory(c, big, forced_gpu);
  DeviceMem a_dev(big, false);
  ASSERT_TRUE(a_dev.p);
  std::vector<float> b_host(big), c_host(big);
  run_case(c, a_dev.p, b_host.data(), c_host.data());
  EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
}

// Many threads at once, on host and device data of several sizes: every call right (the device
// context, the per-thread streams, the bounce buffer and the staging pipeline are shared).
TEST(SgemmApiGpu, ConcurrentCallers) {
  TB_REQUIRE_GPU();
  constexpr int kThreads = 8, kCallsPerThread = 6;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      std::mt19937_64 rng(1000 + t);
      for (int i = 0; i < kCallsPerThread && failures[t].empty(); ++i) {
        const int m = 1 + int(rng() % 300), n = 1 + int(rng() % 300), k = 1 + int(rng() % 300);
        const bool on_device = (t + i) % 3 == 0;
        std::vector<float> a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n, 0.5f);
        for (float& x : a) x = float(int(rng() % 17) - 8);
        for (float& x : b) x = float(int(rng() % 17) - 8);
        // Integers: every order of summation gives the exact reference.
        std::vector<double> want(size_t(m) * n);
        for (int j = 0; j < n; ++j) {
          for (int r = 0; r < m; ++r) {
            double s = 0;
            for (int l = 0; l < k; ++l) s += double(a[r + size_t(l) * m]) * b[l + size_t(j) * k];
            want[r + size_t(j) * m] = 2.0 * s + 0.5;
          }
        }
        const float alpha = 2.0f, beta = 1.0f;
        float *pa = a.data(), *pb = b.data(), *pc = c.data();
        DeviceMem da(on_device ? a.size() : 0, false), db(on_device ? b.size() : 0, false),
            dc(on_device ? c.size() : 0, false);
        if (on_device) {
          cudaMemcpy(da.p, a.data(), a.size() * 4, cudaMemcpyDefault);
          cudaMemcpy(db.p, b.data(), b.size() * 4, cudaMemcpyDefault);
          cudaMemcpy(dc.p, c.data(), c.size() * 4, cudaMemcpyDefault);
          pa = da.p, pb = db.p, pc = dc.p;
        }
        sgemm_("N", "N", &m, &n, &k, &alpha, pa, &m, pb, &k, &beta, pc, &m, 1, 1);
        if (on_device) cudaMemcpy(c.data(), dc.p, c.size() * 4, cudaMemcpyDefault);
        for (size_t e = 0; e < c.size() && failures[t].empty(); ++e) {
          if (double(c[e]) != want[e]) {
            failures[t] = "thread " + std::to_string(t) + " call " + std::to_string(i) + " (" +
                          std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                          (on_device ? ", device" : ", host") + "): C[" + std::to_string(e) +
                          "] = " + std::to_string(c[e]) + ", want " + std::to_string(want[e]);
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (const std::string& f : failures) EXPECT_TRUE(f.empty()) << f;
}

}  // namespace
