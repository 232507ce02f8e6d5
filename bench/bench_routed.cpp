// The routed call, end to end (tileblas::gemm: classify pointers, route, launch or stage, wait),
// as a program calling sgemm_ sees it:
//   routed/sgemm_device/<shape>  device pointers, against cublasSgemm (pedantic) + synchronise;
//   routed/sgemm_host/<n>        host pointers, against the CPU BLAS (OpenBLAS) on all its threads.
// Both sides are timed with the host clock around synchronous calls (median of reps).
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_support.h"
#include "cpu_blas.h"
#include "log.h"
#include "ops.h"
#include "tileblas.h"

namespace {

using Clock = std::chrono::steady_clock;

template <class Fn>
double median_seconds(int reps, Fn fn) {
  fn();  // warm-up (the first routed host call also measures the cost model's rates)
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2];
}

tileblas::GemmProblem problem(int64_t m, int64_t n, int64_t k, const float* a, const float* b,
                              float* c) {
  tileblas::GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = 1.0f;
  p.beta = 0.0f;
  p.a = a;
  p.lda = m;
  p.b = b;
  p.ldb = k;
  p.c = c;
  p.ldc = m;
  return p;
}

void sgemm_device(benchmark::State& state, int64_t m, int64_t n, int64_t k) {
  using tbbench::DeviceBuffer;
  DeviceBuffer<float> a(size_t(m) * k, 1), b(size_t(k) * n, 2), c(size_t(m) * n, 3);
  const tileblas::GemmProblem p = problem(m, n, k, a.get(), b.get(), c.get());
  const int reps = p.flops() > 2e11 ? 5 : 20;
  double ours = 0, ref = 0;
  for (auto _ : state) {
    ours = median_seconds(reps, [&] { tileblas::gemm(p, "sgemm"); });
    ref = median_seconds(reps, [&] {
      const float one = 1.0f, zero = 0.0f;
      cublasSgemm(tbbench::cublas(), CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(n), int(k), &one,
                  a.get(), int(m), b.get(), int(k), &zero, c.get(), int(m));
      cudaDeviceSynchronize();
    });
    state.SetIterationTime(ours);
  }
  state.counters["on_gpu"] = tileblas::last_call().route == TILEBLAS_ROUTE_GPU ? 1 : 0;
  tbbench::report(state, p.flops() / ours * 1e-12, p.flops() / ref * 1e-12, "TFLOP/s",
                  "cublasSgemm+sync",
                  "routed/sgemm_device " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                      std::to_string(k));
}

void sgemm_host(benchmark::State& state, int64_t n) {
  std::vector<float> a(size_t(n) * n), b(size_t(n) * n), c(size_t(n) * n);
  uint64_t seed = 7;
  for (float& x : a) x = float(tbbench::splitmix64(seed) % 2001) / 1000.0f - 1.0f;
  for (float& x : b) x = float(tbbench::splitmix64(seed) % 2001) / 1000.0f - 1.0f;
  const tileblas::GemmProblem p = problem(n, n, n, a.data(), b.data(), c.data());
  const int reps = n >= 4096 ? 3 : (n >= 1024 ? 5 : 21);
  double ours = 0, ref = 0;
  for (auto _ : state) {
    ours = median_seconds(reps, [&] { tileblas::gemm(p, "sgemm"); });
    ref = median_seconds(reps, [&] {
      tileblas::cpu_blas::sgemm('N', 'N', int(n), int(n), int(n), 1.0f, a.data(), int(n), b.data(),
                                int(n), 0.0f, c.data(), int(n));
    });
    state.SetIterationTime(ours);
  }
  tileblas::gemm(p, "sgemm");
  const bool on_gpu = tileblas::last_call().route == TILEBLAS_ROUTE_GPU;
  state.counters["on_gpu"] = on_gpu ? 1 : 0;
  tbbench::report(state, p.flops() / ours * 1e-9, p.flops() / ref * 1e-9, "GFLOP/s",
                  "OpenBLAS sgemm_",
                  "routed/sgemm_host " + std::to_string(n) + (on_gpu ? " (gpu)" : " (cpu)"));
}

void register_all() {
  const int64_t device_shapes[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
                                      {4097, 4097, 4097}, {8192, 8192, 8192}, {8192, 8192, 128},
                                      {128, 128, 65536},  {16384, 64, 16384}};
  for (const auto& s : device_shapes) {
    const std::string name = "routed/sgemm_device/" + std::to_string(s[0]) + "x" +
                             std::to_string(s[1]) + "x" + std::to_string(s[2]) + "/NN";
    benchmark::RegisterBenchmark(name.c_str(), sgemm_device, s[0], s[1], s[2])
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  for (int64_t n = 64; n <= 8192; n *= 2) {
    const std::string name = "routed/sgemm_host/" + std::to_string(n) + "x" + std::to_string(n) +
                             "x" + std::to_string(n) + "/NN";
    benchmark::RegisterBenchmark(name.c_str(), sgemm_host, n)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

const bool registered = (register_all(), true);

}  // namespace
