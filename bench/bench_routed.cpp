// The routed call, end to end (tileblas::gemm: classify pointers, route, launch or stage, wait),
// as a program calling sgemm_ sees it:
//   routed/sgemm_device/<shape>  device pointers, against cublasSgemm (pedantic) + synchronise;
//   routed/sgemm_host/<n>        host pointers, against the CPU BLAS (OpenBLAS) on all its threads;
//   routed/overhead/<n>          tiny host problems (the CPU's): what routing adds per call, in
//                                microseconds (counter overhead_us), against the CPU BLAS direct;
//   routed/overhead_parts        the per-call steps on their own (counters, in microseconds) and
//                                the cost model's measured rates.
// Both sides are timed with the host clock around synchronous calls, alternating ours and the
// yardstick rep by rep (so thread wake-up, turbo and cache state hit both alike); medians.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_support.h"
#include "calibration.h"
#include "cpu_blas.h"
#include "device.h"
#include "env.h"
#include "executor.h"
#include "log.h"
#include "memory.h"
#include "ops.h"
#include "router.h"
#include "tileblas.h"

namespace {

using tbbench::interleaved_medians;
using tbbench::median;
using tbbench::random_host;
using tbbench::seconds_of;

// Median seconds of fn() over `reps` calls after one warm-up call.
template <class Fn>
double median_seconds(int reps, Fn&& fn) {
  fn();
  std::vector<double> t(reps);
  for (double& x : t) x = seconds_of(fn);
  return median(std::move(t));
}

tileblas::Problem problem(int64_t m, int64_t n, int64_t k, const float* a, const float* b,
                          float* c) {
  tileblas::Problem p;
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

std::string shape_name(int64_t m, int64_t n, int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

void sgemm_device(benchmark::State& state, int64_t m, int64_t n, int64_t k) {
  using tbbench::DeviceBuffer;
  DeviceBuffer<float> a(size_t(m) * k, 1), b(size_t(k) * n, 2), c(size_t(m) * n, 3);
  const tileblas::Problem p = problem(m, n, k, a.get(), b.get(), c.get());
  const int reps = p.flops() > 2e11 ? 5 : 20;
  std::pair<double, double> t;
  for (auto _ : state) {
    t = interleaved_medians(
        reps, 1, [&] { tileblas::gemm(p, "sgemm"); },
        [&] {
          const float one = 1.0f, zero = 0.0f;
          cublasSgemm(tbbench::cublas(), CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(n), int(k), &one,
                      a.get(), int(m), b.get(), int(k), &zero, c.get(), int(m));
          cudaDeviceSynchronize();
        });
    state.SetIterationTime(t.first);
  }
  state.counters["on_gpu"] = tileblas::last_call().route == TILEBLAS_ROUTE_GPU ? 1 : 0;
  tbbench::report(state, p.flops() / t.first * 1e-12, p.flops() / t.second * 1e-12, "TFLOP/s",
                  "cublasSgemm+sync", "routed/sgemm_device " + shape_name(m, n, k));
}

// Host problems: ours (tileblas::gemm, routed) against the CPU BLAS called directly, alternating.
// Returns the two medians and sets the common counters.
std::pair<double, double> time_host(benchmark::State& state, const tileblas::Problem& p, int reps,
                                    int warmup) {
  const int m = int(p.m), n = int(p.n), k = int(p.k);
  const float* a = static_cast<const float*>(p.a);
  const float* b = static_cast<const float*>(p.b);
  float* c = static_cast<float*>(p.c);
  std::pair<double, double> t;
  for (auto _ : state) {
    t = interleaved_medians(
        reps, warmup, [&] { tileblas::gemm(p, "sgemm"); },
        [&] {
          tileblas::cpu_blas::sgemm('N', 'N', m, n, k, float(p.alpha.re), a, int(p.lda), b,
                                    int(p.ldb), float(p.beta.re), c, int(p.ldc));
        });
    state.SetIterationTime(t.first);
  }
  tileblas::gemm(p, "sgemm");
  state.counters["on_gpu"] = tileblas::last_call().route == TILEBLAS_ROUTE_GPU ? 1 : 0;
  state.counters["overhead_us"] = (t.first - t.second) * 1e6;
  return t;
}

void sgemm_host(benchmark::State& state, int64_t n) {
  std::vector<float> a = random_host(size_t(n) * n, 7), b = random_host(size_t(n) * n, 8);
  std::vector<float> c(size_t(n) * n);
  const tileblas::Problem p = problem(n, n, n, a.data(), b.data(), c.data());
  // Small calls vary most (thread wake-up) and cost least: many more reps there.
  const int reps = n <= 128 ? 200 : n <= 512 ? 50 : n <= 2048 ? 11 : 3;
  const auto t = time_host(state, p, reps, n <= 512 ? 5 : 1);
  const bool on_gpu = state.counters["on_gpu"] != 0;
  const std::string& kernel = tileblas::last_call().kernel;
  const char* where = on_gpu                                          ? " (gpu)"
                      : kernel.find("host team") != std::string::npos ? " (host team)"
                      : kernel.find("gemm_host_small") == 0           ? " (host kernel)"
                                                                      : " (cpu)";
  tbbench::report(state, p.flops() / t.first * 1e-9, p.flops() / t.second * 1e-9, "GFLOP/s",
                  "OpenBLAS sgemm_", "routed/sgemm_host " + std::to_string(n) + where);
  std::fprintf(stderr, "[bench]   ours %.3f ms, OpenBLAS %.3f ms; route: %s (%s)\n", t.first * 1e3,
               t.second * 1e3, tileblas::last_call().kernel.c_str(),
               tileblas::last_call().reason.c_str());
}

void overhead(benchmark::State& state, int64_t n) {
  std::vector<float> a = random_host(size_t(n) * n, 9), b = random_host(size_t(n) * n, 10);
  std::vector<float> c(size_t(n) * n);
  const tileblas::Problem p = problem(n, n, n, a.data(), b.data(), c.data());
  const auto t = time_host(state, p, 4001, 50);
  tbbench::report(state, p.flops() / t.first * 1e-9, p.flops() / t.second * 1e-9, "GFLOP/s",
                  "OpenBLAS sgemm_", "routed/overhead " + shape_name(n, n, n));
  std::fprintf(stderr, "[bench] routed/overhead %-9s ours %.3f us, OpenBLAS %.3f us: +%.3f us\n",
               shape_name(n, n, n).c_str(), t.first * 1e6, t.second * 1e6,
               (t.first - t.second) * 1e6);
}

// Calls far apart, as in a program doing other work between them: each timed call follows a 1 ms
// sleep, interleaved with the CPU BLAS likewise (the host team's workers, and OpenBLAS's, are
// asleep by then: this is the cold cost, which back-to-back rows do not show).
void sgemm_host_gaps(benchmark::State& state, int64_t n) {
  std::vector<float> a = random_host(size_t(n) * n, 41), b = random_host(size_t(n) * n, 42);
  std::vector<float> c(size_t(n) * n);
  const tileblas::Problem p = problem(n, n, n, a.data(), b.data(), c.data());
  auto ours = [&] { tileblas::gemm(p, "sgemm"); };
  auto ref = [&] {
    tileblas::cpu_blas::sgemm('N', 'N', int(n), int(n), int(n), 1.0f, a.data(), int(n), b.data(),
                              int(n), 0.0f, c.data(), int(n));
  };
  std::pair<double, double> t;
  for (auto _ : state) {
    // The sleeps are outside the timings: each call is timed alone, after its gap.
    std::vector<double> t_ours, t_ref;
    ours(), ref();
    for (int i = 0; i < 101; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      t_ours.push_back(seconds_of(ours));
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      t_ref.push_back(seconds_of(ref));
    }
    t = {median(std::move(t_ours)), median(std::move(t_ref))};
    state.SetIterationTime(t.first);
  }
  tbbench::report(state, p.flops() / t.first * 1e-9, p.flops() / t.second * 1e-9, "GFLOP/s",
                  "OpenBLAS sgemm_", "routed/sgemm_host_gaps " + shape_name(n, n, n));
  std::fprintf(stderr, "[bench]   after 1 ms gaps: ours %.2f us, OpenBLAS %.2f us; route: %s\n",
               t.first * 1e6, t.second * 1e6, tileblas::last_call().kernel.c_str());
}

// The device after one routed call of p's kind (which probes it and measures the cost model's
// rates), or nullptr with the benchmark skipped.
tileblas::Device* probed_device(benchmark::State& state, const tileblas::Problem& p) {
  tileblas::gemm(p, "sgemm");
  tileblas::Device* device = tileblas::Device::get();
  if (!device) state.SkipWithError("no CUDA device");
  return device;
}

// Which step of a routed call that stays on the CPU costs what, at sizes where the CPU BLAS runs
// tens of microseconds: each variant is "the step(s), then the CPU BLAS", timed interleaved with
// the CPU BLAS alone, as routed/sgemm_host times the whole call (counters: microseconds added,
// medians). "none" is the CPU BLAS against itself: the method's own bias.
void host_steps(benchmark::State& state, int64_t n) {
  std::vector<float> a = random_host(size_t(n) * n, 31), b = random_host(size_t(n) * n, 32);
  std::vector<float> c(size_t(n) * n);
  const tileblas::Problem p = problem(n, n, n, a.data(), b.data(), c.data());
  tileblas::Device* device = probed_device(state, p);
  if (!device) return;
  const tileblas::Rates& rates = *tileblas::measured_rates(p, *device);  // this thread alone
  auto cpu = [&] {
    tileblas::cpu_blas::sgemm('N', 'N', int(n), int(n), int(n), 1.0f, a.data(), int(n), b.data(),
                              int(n), 0.0f, c.data(), int(n));
  };
  const tileblas::Placement host;
  std::vector<std::pair<const char*, std::function<void()>>> steps = {
      {"none_us", [] {}},
      {"device_available_us", [] { benchmark::DoNotOptimize(tileblas::Device::available()); }},
      {"classify3_us",
       [&] {
         benchmark::DoNotOptimize(tileblas::classify(p.a, 0));
         benchmark::DoNotOptimize(tileblas::classify(p.b, 0));
         benchmark::DoNotOptimize(tileblas::classify(p.c, 0));
       }},
      {"route_us",
       [&] {
         auto r = tileblas::route_gemm(p, host, tileblas::config(), &device->caps(), "", &rates);
         benchmark::DoNotOptimize(r);
       }},
  };
  std::string line = "[bench] routed/host_steps " + shape_name(n, n, n) + ":";
  for (auto _ : state) {
    for (auto& [name, step] : steps) {
      const auto t = interleaved_medians(
          401, 20,
          [&] {
            step();
            cpu();
          },
          cpu);
      state.counters[name] = (t.first - t.second) * 1e6;
      char buf[64];
      std::snprintf(buf, sizeof buf, " %s %+.3f", name, (t.first - t.second) * 1e6);
      line += buf;
    }
    const auto whole = interleaved_medians(
        401, 20, [&] { tileblas::gemm(p, "sgemm"); }, cpu);
    state.counters["whole_call_us"] = (whole.first - whole.second) * 1e6;
    char buf[64];
    std::snprintf(buf, sizeof buf, " whole_call_us %+.3f (cpu %.2f)",
                  (whole.first - whole.second) * 1e6, whole.second * 1e6);
    line += buf;
    state.SetIterationTime(whole.first);
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

// The steps of a routed host call on their own, and the rates the cost model measured.
void overhead_parts(benchmark::State& state) {
  const int64_t n = 16;
  std::vector<float> a = random_host(size_t(n) * n, 11), b = a, c(size_t(n) * n);
  const tileblas::Problem p = problem(n, n, n, a.data(), b.data(), c.data());
  tileblas::Device* device = probed_device(state, p);
  if (!device) return;
  const tileblas::Rates& rates = *tileblas::measured_rates(p, *device);  // this thread alone
  const tileblas::Placement host;
  const int reps = 20001;
  std::vector<std::pair<const char*, double>> parts;
  for (auto _ : state) {
    parts = {
        {"device_get_us",
         median_seconds(reps, [] { benchmark::DoNotOptimize(tileblas::Device::get()); })},
        {"classify_us",
         median_seconds(reps, [&] { benchmark::DoNotOptimize(tileblas::classify(p.a, 0)); })},
        {"cuda_pointer_attributes_us", median_seconds(reps,
                                                      [&] {
                                                        cudaPointerAttributes attr;
                                                        benchmark::DoNotOptimize(
                                                            cudaPointerGetAttributes(&attr, p.a));
                                                      })},
        {"rates_lookup_us",
         median_seconds(reps,
                        [&] { benchmark::DoNotOptimize(tileblas::measured_rates(p, *device)); })},
        {"route_us", median_seconds(reps,
                                    [&] {
                                      auto r = tileblas::route_gemm(
                                          p, host, tileblas::config(), &device->caps(),
                                          tileblas::Device::unavailable_reason(), &rates);
                                      benchmark::DoNotOptimize(r);
                                    })},
        {"gemm_us", median_seconds(reps, [&] { tileblas::gemm(p, "sgemm"); })},
        {"cpu_blas_us", median_seconds(reps,
                                       [&] {
                                         tileblas::cpu_blas::sgemm('N', 'N', int(n), int(n), int(n),
                                                                   1.0f, a.data(), int(n), b.data(),
                                                                   int(n), 0.0f, c.data(), int(n));
                                       })},
    };
    state.SetIterationTime(parts.back().second);
  }
  std::string line = "[bench] routed/overhead_parts 16x16x16:";
  for (auto& [name, seconds] : parts) {
    state.counters[name] = seconds * 1e6;
    char buf[80];
    std::snprintf(buf, sizeof buf, " %s %.3f", name, seconds * 1e6);
    line += buf;
  }
  state.counters["cpu_gflops"] = rates.cpu_flops * 1e-9;
  state.counters["cpu_overhead_us"] = rates.cpu_overhead_s * 1e6;
  state.counters["gpu_gflops"] = rates.gpu_flops * 1e-9;
  state.counters["gpu_overhead_us"] = rates.gpu_overhead_s * 1e6;
  state.counters["h2d_pinned_gbps"] = rates.h2d_pinned_bps * 1e-9;
  state.counters["h2d_pageable_gbps"] = rates.h2d_pageable_bps * 1e-9;
  state.counters["d2h_pinned_gbps"] = rates.d2h_pinned_bps * 1e-9;
  state.counters["d2h_pageable_gbps"] = rates.d2h_pageable_bps * 1e-9;
  state.counters["h2d_staged_gbps"] = rates.h2d_staged_bps * 1e-9;
  state.counters["d2h_staged_gbps"] = rates.d2h_staged_bps * 1e-9;
  state.counters["staged_latency_us"] = rates.staged_latency_s * 1e6;
  std::string points = "[bench] cpu BLAS measured (n: us):";
  for (int i = 0; i < rates.cpu_points; ++i) {
    const int n = int(std::cbrt(rates.cpu_point_flops[i] / 2) + 0.5);
    points += " " + std::to_string(n) + ": " + std::to_string(rates.cpu_point_s[i] * 1e6);
    state.counters["cpu_us_" + std::to_string(n)] = rates.cpu_point_s[i] * 1e6;
  }
  points += "; host team of " + std::to_string(rates.cpu_team_threads) + " (n: us):";
  for (int i = 0; i < rates.cpu_points; ++i) {
    if (rates.cpu_team_point_s[i] <= 0) continue;
    const int n = int(std::cbrt(rates.cpu_point_flops[i] / 2) + 0.5);
    points += " " + std::to_string(n) + ": " + std::to_string(rates.cpu_team_point_s[i] * 1e6);
    state.counters["team_us_" + std::to_string(n)] = rates.cpu_team_point_s[i] * 1e6;
  }
  points += "; host kernel (n: us):";
  for (int i = 0; i < rates.cpu_points; ++i) {
    if (rates.host_kernel_point_s[i] <= 0) continue;
    const int n = int(std::cbrt(rates.cpu_point_flops[i] / 2) + 0.5);
    points += " " + std::to_string(n) + ": " + std::to_string(rates.host_kernel_point_s[i] * 1e6);
    state.counters["host_kernel_us_" + std::to_string(n)] = rates.host_kernel_point_s[i] * 1e6;
  }
  std::fprintf(stderr, "%s\n", points.c_str());
  state.counters["bounce_gbps"] = rates.bounce_bps * 1e-9;
  state.counters["bounce_gflops"] = rates.bounce_flops * 1e-9;
  state.counters["bounce_overhead_us"] = rates.bounce_overhead_s * 1e6;
  std::fprintf(
      stderr,
      "%s\n[bench] rates: cpu %.1f GFLOP/s + %.2f us, gpu %.1f GFLOP/s + %.1f us, h2d "
      "%.1f/%.1f/%.1f GB/s, d2h %.1f/%.1f/%.1f GB/s (pinned/pageable/staged), latency "
      "%.1f us, staged latency %.1f us, bounced %.1f GB/s, %.1f GFLOP/s + %.1f us\n",
      line.c_str(), rates.cpu_flops * 1e-9, rates.cpu_overhead_s * 1e6, rates.gpu_flops * 1e-9,
      rates.gpu_overhead_s * 1e6, rates.h2d_pinned_bps * 1e-9, rates.h2d_pageable_bps * 1e-9,
      rates.h2d_staged_bps * 1e-9, rates.d2h_pinned_bps * 1e-9, rates.d2h_pageable_bps * 1e-9,
      rates.d2h_staged_bps * 1e-9, rates.transfer_latency_s * 1e6, rates.staged_latency_s * 1e6,
      rates.bounce_bps * 1e-9, rates.bounce_flops * 1e-9, rates.bounce_overhead_s * 1e6);
}

// Where the time of a small GEMM on host data goes: the same n^3 problem (the kernel the router
// picks) on device data, kernel + wait; on pinned host memory read and written by the kernel
// across the bus, kernel + wait; one 4-byte pinned copy + wait (what each copy-engine transfer
// would add); and the whole bounced call on pageable data (pack, kernel on the pinned copy,
// unpack). Counters in microseconds, medians.
void small_host_paths(benchmark::State& state, int64_t n) {
  tileblas::Device* device = tileblas::Device::get();
  if (!device) {
    state.SkipWithError("no CUDA device");
    return;
  }
  cudaStream_t stream = device->stream();
  const size_t count = size_t(n) * n;
  std::vector<float> a = random_host(count, 21), b = random_host(count, 22), c(count);
  float* pinned = nullptr;
  tbbench::check(cudaMallocHost(reinterpret_cast<void**>(&pinned), 3 * count * sizeof(float)),
                 "cudaMallocHost");
  std::copy(a.begin(), a.end(), pinned);
  std::copy(b.begin(), b.end(), pinned + count);
  tbbench::DeviceBuffer<float> da(count, 23), db(count, 24), dc(count, 25);
  const tileblas::Problem on_device = problem(n, n, n, da.get(), db.get(), dc.get());
  const tileblas::Problem zero_copy = problem(n, n, n, pinned, pinned + count, pinned + 2 * count);
  const tileblas::Problem host = problem(n, n, n, a.data(), b.data(), c.data());
  std::string why;
  const tileblas::GemmKernel* k = tileblas::pick_gemm_kernel(on_device, device->caps(), "", &why);
  const int reps = 2001;
  std::vector<std::pair<const char*, double>> parts;
  for (auto _ : state) {
    parts = {
        {"device_kernel_us", median_seconds(reps,
                                            [&] {
                                              k->launch(on_device, stream);
                                              cudaStreamSynchronize(stream);
                                            })},
        {"zero_copy_kernel_us", median_seconds(reps,
                                               [&] {
                                                 k->launch(zero_copy, stream);
                                                 cudaStreamSynchronize(stream);
                                               })},
        {"copy_4_bytes_us", median_seconds(reps,
                                           [&] {
                                             cudaMemcpyAsync(da.get(), pinned, 4,
                                                             cudaMemcpyHostToDevice, stream);
                                             cudaStreamSynchronize(stream);
                                           })},
        {"bounced_call_us", median_seconds(reps,
                                           [&] {
                                             tileblas::run_gemm(host, tileblas::Placement{}, *k,
                                                                tileblas::HostCopies::kBounced, 0,
                                                                device->caps(), stream);
                                           })},
    };
    state.SetIterationTime(parts.back().second);
  }
  std::string line =
      "[bench] routed/small_host_paths " + shape_name(n, n, n) + " (" + k->name + "):";
  for (auto& [name, seconds] : parts) {
    state.counters[name] = seconds * 1e6;
    char buf[80];
    std::snprintf(buf, sizeof buf, " %s %.2f", name, seconds * 1e6);
    line += buf;
  }
  std::fprintf(stderr, "%s\n", line.c_str());
  cudaFreeHost(pinned);
}

// Each routed bench times its own repetitions inside one manually timed iteration.
template <class... Args>
void one_shot(const std::string& name, benchmark::TimeUnit unit, Args&&... args) {
  benchmark::RegisterBenchmark(name.c_str(), std::forward<Args>(args)...)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(unit);
}

void register_all() {
  const int64_t device_shapes[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
                                      {4097, 4097, 4097}, {8192, 8192, 8192}, {8192, 8192, 128},
                                      {128, 128, 65536},  {16384, 64, 16384}};
  for (const auto& s : device_shapes) {
    one_shot("routed/sgemm_device/" + shape_name(s[0], s[1], s[2]) + "/NN", benchmark::kMillisecond,
             sgemm_device, s[0], s[1], s[2]);
  }
  // Powers of two from 64 (the range), 8 to 48 below it (where the host kernel and the
  // host team compete with the CPU BLAS), and 96 beyond the step where a threaded CPU BLAS starts
  // waking its threads.
  for (int64_t n : {8, 16, 32, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096, 8192}) {
    one_shot("routed/sgemm_host/" + shape_name(n, n, n) + "/NN", benchmark::kMillisecond,
             sgemm_host, n);
  }
  for (int64_t n : {32, 64, 128}) {
    one_shot("routed/sgemm_host_gaps/" + shape_name(n, n, n) + "/NN", benchmark::kMicrosecond,
             sgemm_host_gaps, n);
  }
  for (int64_t n : {8, 16, 32}) {
    one_shot("routed/overhead/" + shape_name(n, n, n) + "/NN", benchmark::kMicrosecond, overhead,
             n);
  }
  for (int64_t n : {48, 64, 128}) {
    one_shot("routed/host_steps/" + shape_name(n, n, n), benchmark::kMicrosecond, host_steps, n);
  }
  for (int64_t n : {8, 64, 128}) {
    one_shot("routed/small_host_paths/" + shape_name(n, n, n), benchmark::kMicrosecond,
             small_host_paths, n);
  }
  one_shot("routed/overhead_parts", benchmark::kMicrosecond, overhead_parts);
}

const bool registered = (register_all(), true);

}  // namespace
