#include "calibration.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cpu_blas.h"
#include "cpu_gemm.h"
#include "cpu_team.h"
#include "device.h"
#include "env.h"
#include "executor.h"
#include "gemm_host_small.h"
#include "host_plans.h"
#include "memory.h"

namespace tileblas {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Median of `reps` timings of fn() (after one warm-up call).
template <class Fn>
double median_seconds(int reps, Fn fn) {
  fn();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    fn();
    t.push_back(seconds_since(t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Calls shorter than kMinTimedSeconds are timed in batches that last about that long (each sample
// is a batch's time per call): one reading of the clock costs 20-30 ns, a fifth of an 8^3 GEMM's
// time, and its jitter decided which CPU path won at the smallest sizes from one process to the
// next.
constexpr double kMinTimedSeconds = 2e-6;

// Median of repeated calls filling at least `window_s` (and 5 calls), after one: the CPU BLAS as a
// program calling it in a loop sees it, its threads awake. The median, as for the GPU's costs:
// a threaded BLAS's fastest call is well below its typical one where it wakes its threads (128^3
// on the H200 host: 40 against 52-57 us), and the fastest sent such calls to the CPU when a
// bounced GPU call was faster. A few cold calls at the start cannot move the median.
template <class Fn>
double warm_median_seconds(double window_s, Fn fn) {
  fn();
  const auto w0 = Clock::now();
  fn();
  const double one = seconds_since(w0);
  const int batch = one < kMinTimedSeconds ? int(kMinTimedSeconds / std::max(one, 1e-9)) + 1 : 1;
  std::vector<double> t;
  const auto start = Clock::now();
  while (t.size() < 5 || seconds_since(start) < window_s) {
    const auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) fn();
    t.push_back(seconds_since(t0) / batch);
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

// Bytes for `count` elements of `type`, each 0.5 (re 0.5, im 0.25 for complex): a calibration
// operand that stays finite and nonzero through every product.
std::vector<char> filled(DataType type, size_t count) {
  std::vector<char> bytes(count * size_of(type));
  for (size_t i = 0; i < count; ++i) {
    char* at = bytes.data() + i * size_of(type);
    switch (type) {
      case DataType::kF16: {
        const uint16_t half = 0x3800;  // 0.5
        std::memcpy(at, &half, 2);
        break;
      }
      case DataType::kBF16: {
        const uint16_t bf16 = 0x3f00;  // 0.5
        std::memcpy(at, &bf16, 2);
        break;
      }
      case DataType::kF64:
      case DataType::kC64: {
        const double v[2] = {0.5, 0.25};
        std::memcpy(at, v, size_of(type));
        break;
      }
      default: {
        const float v[2] = {0.5f, 0.25f};
        std::memcpy(at, v, size_of(type));
        break;
      }
    }
  }
  return bytes;
}

// The CPU side of `like`'s data type at square sizes from 8 to 512: the points the CPU prediction
// interpolates; the rate beyond them from the two largest, and the overhead of the line through 64
// at that rate. Our host kernel's time at each size, where this CPU has a variant, and where
// cpu_team_parts() splits a size (f32, f64, c32, c64), the host team's time too, measured last: a
// threaded CPU BLAS's threads spin a while after its larger calls (here 256^3 and 512^3) and share
// the cores with the team's, so the team is chosen only where it wins even then (measured first,
// it won fp32 64^3 by 1.8x in calibration, then lost by 0.83x in a program's first calls,
// docs/NOTES-host.md).
void measure_cpu(const Problem& like, Rates& r) {
  constexpr int kSizes[] = {8, 16, 32, 48, 64, 96, 128, 256, 512};
  constexpr int kAt64 = 4;
  static_assert(std::size(kSizes) <= Rates::kMaxCpuPoints && kSizes[kAt64] == 64,
                "one point per size");
  std::vector<char> a, b, c;
  auto square = [&](int n) {
    const size_t count = size_t(n) * n;
    a = filled(like.type, count), b = filled(like.type, count), c = filled(like.c_type, count);
    Problem p;
    p.type = like.type, p.c_type = like.c_type;
    p.m = p.n = p.k = p.lda = p.ldb = p.ldc = n;
    p.a = a.data(), p.b = b.data(), p.c = c.data();
    return p;
  };
  r.cpu_points = 0;
  for (const int n : kSizes) {
    const Problem p = square(n);
    r.cpu_point_flops[r.cpu_points] = p.flops();
    r.cpu_point_s[r.cpu_points] =
        warm_median_seconds(n <= 128 ? 0.01 : 0.02, [&] { gemm_on_cpu(p); });
    ++r.cpu_points;
  }
  const gemm_host_small::Isa isa = gemm_host_small::best_isa();
  for (int i = 0; i < int(std::size(kSizes)); ++i) {
    const Problem p = square(kSizes[i]);
    if (!gemm_host_small::supports(p, isa)) continue;
    r.host_kernel_point_s[i] =
        warm_median_seconds(kSizes[i] <= 128 ? 0.01 : 0.02, [&] { gemm_host_small::run(p, isa); });
  }
  const CpuTeam* team = CpuTeam::get();
  r.cpu_team_threads = team ? team->threads() : 0;
  for (int i = 0; i < int(std::size(kSizes)) && team; ++i) {
    const Problem p = square(kSizes[i]);
    const int parts = cpu_team_parts(p, r.cpu_team_threads);
    if (parts < 2) continue;
    // As a routed call runs it: waking sleeping workers where it would, else one CPU BLAS call
    // when the team cannot take it. (Calls of more than the workers' spin that do not wake them
    // find them asleep, one after the other.)
    const bool wake = team_call_wakes(r.cpu_point_s[i], r.host_kernel_point_s[i]);
    r.cpu_team_point_s[i] = warm_median_seconds(0.01, [&] {
      if (!gemm_on_cpu_team(p, parts, team_panels_on_host_kernel(p), wake)) gemm_on_cpu(p);
    });
  }
  const int last = r.cpu_points - 1;
  const double* f = r.cpu_point_flops;
  const double* t = r.cpu_point_s;
  r.cpu_flops = std::max((f[last] - f[last - 1]) / std::max(t[last] - t[last - 1], 1e-9), 1e8);
  r.cpu_overhead_s = std::max(t[kAt64] - f[kAt64] / r.cpu_flops, 0.0);
  if (config().verbose) {
    auto us = [](double seconds) {  // "-" where not measured
      char text[16] = "-";
      if (seconds > 0) std::snprintf(text, sizeof text, "%.1f", seconds * 1e6);
      return std::string(text);
    };
    std::string points;
    for (int i = 0; i < r.cpu_points; ++i) {
      points += " " + std::to_string(kSizes[i]) + ": " + us(r.cpu_point_s[i]) + "/" +
                us(r.host_kernel_point_s[i]) + "/" + us(r.cpu_team_point_s[i]);
    }
    std::fprintf(stderr, "tileblas: CPU points (%s), n: CPU BLAS/host kernel/host team us:%s\n",
                 name_of(like.type), points.c_str());
  }
}

// Pageable data through the staging pipeline, as a matrix of 1 MiB columns, at 1 MiB and at
// 32 MiB (several slots in flight, as for the operands staging is chosen for): solve
// t = latency + bytes / rate each way (the latency taken as the larger of the two).
void measure_staged_transfers(Rates& r, cudaStream_t stream) {
  const int64_t rows = int64_t(1) << 18, cols_large = 32;
  const size_t bytes = size_t(rows) * size_t(cols_large) * sizeof(float);
  DeviceBuffer dev_buffer(bytes, stream);
  std::vector<char> host_buffer(bytes, 1);
  if (dev_buffer.status() != cudaSuccess || cudaStreamSynchronize(stream) != cudaSuccess) {
    cudaGetLastError();
    return;  // rates stay 0: the router does not stage
  }
  void* dev = dev_buffer.get();
  void* host = host_buffer.data();
  cudaError_t err = cudaSuccess;
  auto time_copy = [&](bool to_device, int64_t cols) {
    return median_seconds(3, [&] {
      if (err != cudaSuccess) return;
      err = to_device
                ? staged_copy_to_device(dev, rows, host, rows, rows, cols, sizeof(float), false)
                : staged_copy_to_host(host, rows, dev, rows, rows, cols, sizeof(float), false);
    });
  };
  const double small_bytes = double(rows) * sizeof(float), large_bytes = small_bytes * cols_large;
  const double up_small = time_copy(true, 1), up_large = time_copy(true, cols_large);
  const double down_small = time_copy(false, 1), down_large = time_copy(false, cols_large);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  r.h2d_staged_bps = (large_bytes - small_bytes) / std::max(up_large - up_small, 1e-9);
  r.d2h_staged_bps = (large_bytes - small_bytes) / std::max(down_large - down_small, 1e-9);
  r.staged_latency_s = std::max({up_small - small_bytes / r.h2d_staged_bps,
                                 down_small - small_bytes / r.d2h_staged_bps, 0.0});
}

void measure_transfers(Rates& r, cudaStream_t stream) {
  const size_t bytes = size_t(16) << 20;
  DeviceBuffer dev(bytes, stream);
  void* pinned = nullptr;
  std::vector<char> pageable(bytes, 1);
  if (dev.status() != cudaSuccess || cudaMallocHost(&pinned, bytes) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  std::memset(pinned, 1, bytes);
  auto copy_rate = [&](void* dst, const void* src) {
    return double(bytes) / median_seconds(3, [&] {
             cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream);
             cudaStreamSynchronize(stream);
           });
  };
  r.h2d_pinned_bps = copy_rate(dev.get(), pinned);
  r.d2h_pinned_bps = copy_rate(pinned, dev.get());
  r.h2d_pageable_bps = copy_rate(dev.get(), pageable.data());
  r.d2h_pageable_bps = copy_rate(pageable.data(), dev.get());
  r.transfer_latency_s = median_seconds(10, [&] {
    cudaMemcpyAsync(dev.get(), pageable.data(), 4, cudaMemcpyDefault, stream);
    cudaStreamSynchronize(stream);
  });
  cudaFreeHost(pinned);
}

// C = A * B, all n x n, with like's data types and options.
Problem square_nn(const Problem& like, int64_t n, const void* a, const void* b, void* c) {
  Problem p = like;
  p.trans_a = p.trans_b = Op::kNoTrans;
  p.m = p.n = p.k = n;
  p.alpha = 1.0f;
  p.beta = 0.0f;
  p.a = a;
  p.b = b;
  p.c = c;
  p.lda = p.ldb = p.ldc = n;
  return p;
}

const GemmKernel* routed_kernel(const Problem& p, Device& device) {
  std::string why;
  return pick_gemm_kernel(p, device.caps(), config().force_kernel, &why);
}

// Median seconds of an m x n x k GEMM on host data, its operands moved as `copies` says, run
// through the executor exactly as a routed call would be; 0 if it fails.
double time_host_gemm(const Problem& like, Device& device, HostCopies copies, int64_t m, int64_t n,
                      int64_t k, float beta) {
  std::vector<float> a(size_t(m) * k, 0.5f), b(size_t(k) * n, 0.25f), c(size_t(m) * n, 1.0f);
  Problem p = like;
  p.type = p.c_type = DataType::kF32;
  p.trans_a = p.trans_b = Op::kNoTrans;
  p.m = m, p.n = n, p.k = k;
  p.alpha = 1.0f, p.beta = beta;
  p.a = a.data(), p.b = b.data(), p.c = c.data();
  p.lda = m, p.ldb = k, p.ldc = m;
  const GemmKernel* kernel = routed_kernel(p, device);
  if (!kernel) return 0;
  cudaError_t err = cudaSuccess;
  const double t = median_seconds(10, [&] {
    if (err == cudaSuccess) {
      err = run_gemm(p, Placement{}, *kernel, copies, 0, device.caps(), device.stream());
    }
  });
  if (err != cudaSuccess) cudaGetLastError();
  return err == cudaSuccess ? t : 0;
}

// The fixed costs of a GEMM on host data (an 8x8x8 problem, plain and bounced); the bounce
// buffer's packing rate from a 256x256x8 problem with beta = 1 (C, 256 KiB, packed and unpacked;
// little to compute), and the kernel's rate reading across the bus from a 128^3 problem.
void measure_host_gemm(const Problem& like, Device& device, Rates& r) {
  r.gpu_overhead_s = time_host_gemm(like, device, HostCopies::kPlain, 8, 8, 8, 0.0f);
  const double t0 = time_host_gemm(like, device, HostCopies::kBounced, 8, 8, 8, 0.0f);
  const double t_bytes = time_host_gemm(like, device, HostCopies::kBounced, 256, 256, 8, 1.0f);
  const double t_flops = time_host_gemm(like, device, HostCopies::kBounced, 128, 128, 128, 0.0f);
  const double bytes = double(sizeof(float)) * (2 * 256 * 8 + 2 * 256 * 256);
  const double bytes_128 = double(sizeof(float)) * 3 * 128 * 128, flops_128 = 2.0 * 128 * 128 * 128;
  if (t0 <= 0 || t_bytes <= t0 || t_flops <= t0) return;  // not measured: no bounced routes
  r.bounce_overhead_s = t0;
  r.bounce_bps = bytes / (t_bytes - t0);
  // At least the copies' share of the 128^3 call is compute (never a negative or infinite rate).
  r.bounce_flops =
      flops_128 / std::max(t_flops - t0 - bytes_128 / r.bounce_bps, 0.25 * (t_flops - t0));
}

// The kernel the router would pick for an n^3 problem of p's data type, on device scratch filled
// with a nonzero pattern.
double measure_kernel_rate(const Problem& like, Device& device) {
  const int64_t n = 1024;
  cudaStream_t stream = device.stream();
  DeviceBuffer a(size_t(n) * n * size_of(like.type), stream);
  DeviceBuffer b(size_t(n) * n * size_of(like.type), stream);
  DeviceBuffer c(size_t(n) * n * size_of(like.c_type), stream);
  if (a.status() || b.status() || c.status()) return 0;
  cudaMemsetAsync(a.get(), 0x3c, size_t(n) * n * size_of(like.type), stream);
  cudaMemsetAsync(b.get(), 0x3c, size_t(n) * n * size_of(like.type), stream);
  const Problem p = square_nn(like, n, a.get(), b.get(), c.get());
  const GemmKernel* k = routed_kernel(p, device);
  if (!k) return 0;
  const double t = median_seconds(3, [&] {
    k->launch(p, stream);
    cudaStreamSynchronize(stream);
  });
  return cudaGetLastError() == cudaSuccess ? p.flops() / t : 0;
}

}  // namespace

namespace {

// One slot per data type and TF32 choice, filled once under the mutex; every later call (each
// host-data GEMM asks) reads its slot with one atomic load.
std::atomic<const Rates*> rate_slots[kDataTypeCount * 2];

std::atomic<const Rates*>& slot_of(DataType type, bool allow_tf32) {
  return rate_slots[int(type) * 2 + (allow_tf32 ? 1 : 0)];
}
std::atomic<const Rates*>& slot_of(const Problem& p) { return slot_of(p.type, p.allow_tf32); }

// measured_cpu_rates()' slots, one per data type.
std::atomic<const Rates*> cpu_rate_slots[kDataTypeCount];

}  // namespace

const Rates* rates_if_measured(const Problem& p) {
  return slot_of(p).load(std::memory_order_acquire);
}

const Rates* any_rates_if_measured(DataType type, bool allow_tf32) {
  if (const Rates* r = slot_of(type, allow_tf32).load(std::memory_order_acquire)) return r;
  return cpu_rate_slots[int(type)].load(std::memory_order_acquire);
}

const Rates* measured_rates(const Problem& p, Device& device) {
  if (const Rates* r = rates_if_measured(p)) return r;
  static std::mutex mu;
  static Rates base;
  static bool base_measured = false;
  std::unique_lock<std::mutex> lock(mu, std::try_to_lock);
  if (!lock.owns_lock()) return nullptr;  // another call is measuring: this one goes without
  if (const Rates* r = slot_of(p).load(std::memory_order_relaxed)) return r;
  if (!base_measured) {
    // What every data type shares: the links, and the fixed costs of a GEMM on host data (timed
    // in plain fp32, whichever call comes first).
    Problem fp32;
    measure_transfers(base, device.stream());
    measure_staged_transfers(base, device.stream());
    measure_host_gemm(fp32, device, base);
    base_measured = true;
  }
  Rates r = base;
  // The CPU BLAS last: its threads spin a while after a call, and the staged copies' host threads
  // would share the cores with them.
  measure_cpu(p, r);
  r.gpu_flops = measure_kernel_rate(p, device);
  if (r.gpu_flops <= 0 || r.h2d_pinned_bps <= 0 || r.gpu_overhead_s <= 0) {
    r.gpu_flops = 1.0;  // a failed measurement routes everything to the CPU
    r.h2d_pinned_bps = r.h2d_pageable_bps = r.d2h_pinned_bps = r.d2h_pageable_bps = 1.0;
    r.h2d_staged_bps = r.d2h_staged_bps = r.bounce_bps = r.bounce_flops = 0.0;
  }
  r.small_calls = small_call_rule(r);
  if (config().verbose) {
    std::fprintf(
        stderr,
        "tileblas: measured rates (%s): cpu %.1f GFLOP/s + %.1f us, gpu %.1f GFLOP/s + "
        "%.1f us, h2d %.1f/%.1f/%.1f GB/s, d2h %.1f/%.1f/%.1f GB/s "
        "(pinned/pageable/staged, staged + %.1f us), bounced %.1f GB/s, %.1f GFLOP/s + %.1f us\n",
        name_of(p.type), r.cpu_flops * 1e-9, r.cpu_overhead_s * 1e6, r.gpu_flops * 1e-9,
        r.gpu_overhead_s * 1e6, r.h2d_pinned_bps * 1e-9, r.h2d_pageable_bps * 1e-9,
        r.h2d_staged_bps * 1e-9, r.d2h_pinned_bps * 1e-9, r.d2h_pageable_bps * 1e-9,
        r.d2h_staged_bps * 1e-9, r.staged_latency_s * 1e6, r.bounce_bps * 1e-9,
        r.bounce_flops * 1e-9, r.bounce_overhead_s * 1e6);
  }
  const Rates* stored = new Rates(r);  // never freed: calls read it until the process exits
  slot_of(p).store(stored, std::memory_order_release);
  return stored;
}

std::atomic<const Level3Points*> calibration_detail::level3_slots[kOperationCount * kDataTypeCount];

namespace {

constexpr int kLevel3Sizes[Level3Points::kCount] = {8, 16, 32, 64, 128, 256, 512};

// Each point's timing window. Below 64 a call takes a few microseconds at most (fixed costs, on
// either path), and a millisecond holds hundreds of them.
double level3_window_seconds(const Problem& p) { return p.n < 64 ? 0.001 : 0.005; }

std::atomic<const Level3Points*>& level3_slot_of(const Problem& p) {
  return calibration_detail::level3_slots[int(p.op) * kDataTypeCount + int(p.type)];
}

// One unit element of `type` at `at`.
void set_one(char* at, DataType type) {
  if (type == DataType::kF64 || type == DataType::kC64) {
    const double one = 1.0;
    std::memcpy(at, &one, sizeof one);
  } else {
    const float one = 1.0f;
    std::memcpy(at, &one, sizeof one);
  }
}

// p's routine and type at n x n (k = n), side L, lower, N, non-unit.
Problem level3_square(const Problem& like, int n) {
  Problem p;
  p.op = like.op, p.type = like.type, p.name_set = like.name_set;
  p.side = Side::kLeft, p.uplo = Uplo::kLower, p.trans_a = Op::kNoTrans, p.diag = Diag::kNonUnit;
  p.m = p.n = p.k = n;
  p.alpha = 1.0, p.beta = 0.5;
  p.lda = p.ldb = p.ldc = n;
  return p;
}

// level3_square(like, n) on host buffers of its own: trmm/trsm's A the identity (B keeps its values
// however often it runs), the others' operands calibration values (filled()), beta 0.5: every
// call computes on finite numbers.
struct Level3Point {
  Problem p;
  std::vector<char> a, b, c;

  Level3Point(const Problem& like, int n) : p(level3_square(like, n)) {
    const size_t count = size_t(n) * size_t(n);
    a = filled(p.type, count), b = filled(p.type, count), c = filled(p.type, count);
    if (p.op == Operation::kTrmm || p.op == Operation::kTrsm) {
      std::fill(a.begin(), a.end(), 0);
      for (int i = 0; i < n; ++i) {
        set_one(a.data() + (size_t(i) * (n + 1)) * size_of(p.type), p.type);
      }
    }
    p.a = a.data(), p.b = b.data(), p.c = c.data();
  }
};

// The points' times: every size on the CPU BLAS, then through the GPU plan (with a device; else
// infinite), then, once the CPU BLAS's workers have stopped spinning (cpu_blas::kWorkersSpinSeconds
// after its last point), as the host plan (its GEMMs routed by `rates`; where it handles the
// routine). So neither the host plan's points nor the caller's calls after them share the cores
// with the CPU BLAS's spinning workers: on the H100 host a host-plan point measured after another
// routine's CPU BLAS points took 251 us where 23 us is right (ztrmm 128), and calls made right
// after a calibration ran 2-6x slower than those made later (dtrsm 64, ztrsm 128). false where a
// GPU run failed.
bool measure_level3_points(const Problem& like, Device* device, const Rates& rates,
                           Level3Points* pts) {
  std::vector<Level3Point> points;
  for (int i = 0; i < Level3Points::kCount; ++i) points.emplace_back(like, kLevel3Sizes[i]);
  for (int i = 0; i < Level3Points::kCount; ++i) {
    const Problem& p = points[size_t(i)].p;
    pts->flops[i] = p.flops();
    pts->cpu_s[i] = warm_median_seconds(level3_window_seconds(p), [&] { cpu_blas::run(p); });
  }
  const auto cpu_blas_done = std::chrono::steady_clock::now();
  const Placement host;  // every operand pageable host memory
  cudaError_t err = cudaSuccess;
  for (int i = 0; i < Level3Points::kCount; ++i) {
    const Problem& p = points[size_t(i)].p;
    pts->gpu_s[i] = std::numeric_limits<double>::infinity();
    if (!device) continue;
    pts->gpu_s[i] = warm_median_seconds(level3_window_seconds(p), [&] {
      if (err == cudaSuccess) err = run_level3(p, host, device->caps(), device->stream());
    });
  }
  if (level3_plan_handles(points[0].p)) {
    std::this_thread::sleep_until(
        cpu_blas_done + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(cpu_blas::kWorkersSpinSeconds)));
    // The team's workers slept through that: woken, they time the plan as calls coming one after
    // another find them (each keeps them awake for the next).
    if (CpuTeam* team = CpuTeam::get()) team->wake();
  }
  for (int i = 0; i < Level3Points::kCount; ++i) {
    const Problem& p = points[size_t(i)].p;
    pts->host_s[i] = 0;
    if (level3_plan_handles(p)) {
      pts->host_s[i] =
          warm_median_seconds(level3_window_seconds(p), [&] { run_level3_on_host(p, rates); });
    }
  }
  return err == cudaSuccess;
}

}  // namespace

bool level3_points_cover(const Problem& p) {
  return p.flops() <= level3_square(p, kLevel3Sizes[Level3Points::kCount - 1]).flops();
}

const Level3Points* measured_level3_points(const Problem& p, Device* device, const Rates& rates) {
  if (const Level3Points* pts = level3_points_if_measured(p)) return pts;
  static std::mutex mu;
  std::unique_lock<std::mutex> lock(mu, std::try_to_lock);
  if (!lock.owns_lock()) return nullptr;  // another call is measuring: this one goes without
  std::atomic<const Level3Points*>& slot = level3_slot_of(p);
  if (const Level3Points* pts = slot.load(std::memory_order_relaxed)) return pts;
  Level3Points pts;
  pts.rates = &rates;
  if (!measure_level3_points(p, device, rates, &pts)) {
    cudaGetLastError();
    return nullptr;  // the GEMM-based predictions decide; measured again on the next call
  }
  if (config().verbose) {
    // "tileblas: measured trsm (c32) at 8/16/32/64/128/256/512: cpu
    // 0.49/1.48/11.25/35.22/165.04/1051.09/11996.26 us, host plan
    // 0.24/0.59/2.49/11.11/64.00/476.70/7424.59 us, gpu inf/inf/inf/inf/inf/inf/inf us" (no GPU)
    std::string line =
        std::string("tileblas: measured ") + name_of(p.op) + " (" + name_of(p.type) + ") at";
    for (int i = 0; i < Level3Points::kCount; ++i) {
      line += (i ? "/" : " ") + std::to_string(kLevel3Sizes[i]);
    }
    auto add_us = [&line](const char* label, const double* seconds) {
      line += label;
      for (int i = 0; i < Level3Points::kCount; ++i) {
        char t[32];
        std::snprintf(t, sizeof t, "%s%.2f", i ? "/" : " ", seconds[i] * 1e6);
        line += t;
      }
      line += " us";
    };
    add_us(": cpu", pts.cpu_s);
    add_us(", host plan", pts.host_s);
    add_us(", gpu", pts.gpu_s);
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  pts.small_calls = level3_small_calls(pts);
  const Level3Points* stored = new Level3Points(pts);  // never freed, as the rates
  slot.store(stored, std::memory_order_release);
  return stored;
}

const Rates* measured_cpu_rates(const Problem& p) {
  std::atomic<const Rates*>& slot = cpu_rate_slots[int(p.type)];
  if (const Rates* r = slot.load(std::memory_order_acquire)) return r;
  static std::mutex mu;
  std::unique_lock<std::mutex> lock(mu, std::try_to_lock);
  if (!lock.owns_lock()) return nullptr;  // another call is measuring: this one goes without
  if (const Rates* r = slot.load(std::memory_order_relaxed)) return r;
  Rates r;
  r.gpu_overhead_s = std::numeric_limits<double>::infinity();  // no GPU: never the faster side
  measure_cpu(p, r);
  r.small_calls = small_call_rule(r);
  if (config().verbose) {
    std::fprintf(stderr, "tileblas: measured rates (%s, no GPU): cpu %.1f GFLOP/s + %.1f us\n",
                 name_of(p.type), r.cpu_flops * 1e-9, r.cpu_overhead_s * 1e6);
  }
  const Rates* stored = new Rates(r);  // never freed, as measured_rates()' rates
  slot.store(stored, std::memory_order_release);
  return stored;
}

}  // namespace tileblas
