// Shared bench helpers. Every benchmark times ours and the yardstick (cuBLAS) on the same device
// buffers in the same run with CUDA events: warm-up first, then the median of `reps` timed calls,
// on random data (never zeros), rotating through several buffer sets when one set fits in L2.
//
// Conventions (scripts/bench_table.py relies on them):
//   name     "<op>/<kernel>/<shape>[/<transposes>]", e.g.
//   "sgemm/sgemm_regblock_128x128x16/4096x4096x4096/NN" time     manual time = ours (register with
//   ->UseManualTime()->Iterations(1)) counters ours (rate), ref (yardstick rate), ratio (ours /
//   ref) label    "UNIT|YARDSTICK", e.g. "TFLOP/s|cublasSgemm", "TB/s|cublasSgeam"
// A typical benchmark body:
//   tbbench::compare(state, reps, sets, [&](int set) { ours on buffers[set] },
//                    [&](int set) { cuBLAS on buffers[set] }, flops, 1e12, "TFLOP/s",
//                    "cublasSgemm", name);
// main() lives in bench/bench_main.cpp (do not add BENCHMARK_MAIN elsewhere).
#pragma once

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tbbench {

// A failed CUDA or cuBLAS call ends the bench run: a timing of a failed call would be a lie.
inline void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "[bench] %s failed: %s\n", what, cudaGetErrorString(err));
    std::exit(1);
  }
}
inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "[bench] %s failed: cuBLAS status %d\n", what, int(status));
    std::exit(1);
  }
}

// splitmix64: a fast deterministic host generator, so filling a few hundred MiB takes
// milliseconds rather than seconds.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// `count` elements of T (float, __half, __nv_bfloat16) on the device, filled with uniform random
// values in [lo, hi) drawn on the host (never all zero: lo < hi is required).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(size_t count, uint64_t seed, float lo = -1.0f, float hi = 1.0f) : count_(count) {
    check(cudaMalloc(reinterpret_cast<void**>(&ptr_), std::max<size_t>(count, 1) * sizeof(T)),
          "cudaMalloc");
    fill_random(seed, lo, hi);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }

  void fill_random(uint64_t seed, float lo, float hi) {
    std::vector<T> host(count_);
    uint64_t state = seed;
    const double scale = (double(hi) - double(lo)) / 18446744073709551616.0;
    for (T& x : host) x = T(float(lo + scale * double(splitmix64(state))));
    check(cudaMemcpy(ptr_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice), "fill");
  }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    check(cudaMemcpy(host.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost), "copy back");
    return host;
  }

  T* get() const { return ptr_; }
  size_t count() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// Properties of device 0 (queried once).
inline const cudaDeviceProp& device_prop() {
  static const cudaDeviceProp prop = [] {
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    return p;
  }();
  return prop;
}

// How many buffer sets of `bytes_per_set` to rotate through so consecutive timed calls do not
// find their inputs in L2: enough to cover 3x the L2 size, at most `max_sets`.
inline int sets_to_defeat_l2(size_t bytes_per_set, int max_sets = 32) {
  const size_t l2 = size_t(device_prop().l2CacheSize);
  const size_t need = (3 * l2 + bytes_per_set - 1) / std::max<size_t>(bytes_per_set, 1);
  return int(std::clamp<size_t>(need, 1, size_t(max_sets)));
}

// The yardstick's handle, one per math mode, on the legacy default stream. kPedantic is what fp32
// comparisons use (CUBLAS_PEDANTIC_MATH: TF32 tensor cores cannot leak in); kDefault is for
// fp16/bf16 GEMMs whose yardstick is allowed tensor cores.
enum class CublasMath { kPedantic, kDefault };
inline cublasHandle_t cublas(CublasMath math = CublasMath::kPedantic) {
  static cublasHandle_t handles[2] = {nullptr, nullptr};
  cublasHandle_t& h = handles[int(math)];
  if (!h) {
    check(cublasCreate(&h), "cublasCreate");
    check(cublasSetMathMode(
              h, math == CublasMath::kPedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH),
          "cublasSetMathMode");
  }
  return h;
}

// Median time in milliseconds of fn(set) over `reps` timed calls (after `warmup` untimed calls),
// each call bracketed by its own pair of events on `stream`; `sets` buffer sets are cycled
// through (fn gets the set index). Checks for launch errors before returning.
inline double median_ms(const std::function<void(int)>& fn, int reps, int sets = 1,
                        cudaStream_t stream = nullptr, int warmup = 2) {
  for (int i = 0; i < warmup; ++i) fn(i % sets);
  check(cudaGetLastError(), "warm-up launch");
  check(cudaStreamSynchronize(stream), "warm-up");
  std::vector<cudaEvent_t> events(2 * size_t(reps));
  for (cudaEvent_t& e : events) check(cudaEventCreate(&e), "cudaEventCreate");
  for (int r = 0; r < reps; ++r) {
    check(cudaEventRecord(events[2 * r], stream), "cudaEventRecord");
    fn(r % sets);
    check(cudaEventRecord(events[2 * r + 1], stream), "cudaEventRecord");
  }
  check(cudaGetLastError(), "timed launch");
  check(cudaStreamSynchronize(stream), "timed calls");
  std::vector<double> ms(reps);
  for (int r = 0; r < reps; ++r) {
    float t = 0;
    check(cudaEventElapsedTime(&t, events[2 * r], events[2 * r + 1]), "cudaEventElapsedTime");
    ms[r] = t;
  }
  for (cudaEvent_t e : events) cudaEventDestroy(e);
  std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
  return ms[reps / 2];
}

// Sets the counters and label of the conventions above and prints a progress line to stderr
// (`name`: the benchmark's name for that line; Google Benchmark 1.7 cannot tell it to us).
inline void report(benchmark::State& state, double ours_rate, double ref_rate, const char* unit,
                   const char* yardstick, const std::string& name = "") {
  state.counters["ours"] = ours_rate;
  state.counters["ref"] = ref_rate;
  state.counters["ratio"] = ref_rate > 0 ? ours_rate / ref_rate : 0.0;
  state.SetLabel(std::string(unit) + "|" + yardstick);
  std::fprintf(stderr, "[bench] %-60s ours %8.3f  %s %8.3f %s  ratio %.3f\n", name.c_str(),
               ours_rate, yardstick, ref_rate, unit, ref_rate > 0 ? ours_rate / ref_rate : 0.0);
}

// The whole body of a comparison benchmark: times ours and the yardstick (median of `reps`,
// cycling through `sets` buffer sets), reports manual time = ours and the rates
// work / time / unit_scale (e.g. flops with 1e12 for TFLOP/s, bytes with 1e12 for TB/s).
inline void compare(benchmark::State& state, int reps, int sets,
                    const std::function<void(int)>& ours, const std::function<void(int)>& ref,
                    double work, double unit_scale, const char* unit, const char* yardstick,
                    const std::string& name = "", cudaStream_t stream = nullptr) {
  double ours_ms = 0, ref_ms = 0;
  for (auto _ : state) {
    ours_ms = median_ms(ours, reps, sets, stream);
    ref_ms = median_ms(ref, reps, sets, stream);
    state.SetIterationTime(ours_ms * 1e-3);
  }
  report(state, work / (ours_ms * 1e-3) / unit_scale, work / (ref_ms * 1e-3) / unit_scale, unit,
         yardstick, name);
}

// ||ours - ref|| / ||ref|| over two device arrays of the same length (a sanity counter, so a
// kernel that computes garbage quickly cannot pass as fast).
template <class T>
double relative_difference(const DeviceBuffer<T>& ours, const DeviceBuffer<T>& ref) {
  const std::vector<T> a = ours.to_host(), b = ref.to_host();
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = double(float(a[i])), y = double(float(b[i]));
    num += (x - y) * (x - y);
    den += y * y;
  }
  return den > 0 ? std::sqrt(num / den) : (num > 0 ? INFINITY : 0.0);
}

// ---- host-side timing: both sides timed with the host clock around synchronous calls ----------

using Clock = std::chrono::steady_clock;

inline double median(std::vector<double> t) {
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

template <class Fn>
double seconds_of(Fn&& fn) {
  const auto t0 = Clock::now();
  fn();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Median seconds of ours and of ref over `reps` rounds, each round one call of each, the one that
// goes first alternating. Warm-up: `warmup` calls of each (the first routed host call also
// measures the cost model's rates).
template <class Ours, class Ref>
std::pair<double, double> interleaved_medians(int reps, int warmup, Ours&& ours, Ref&& ref) {
  for (int i = 0; i < warmup; ++i) ours(), ref();
  std::vector<double> t_ours, t_ref;
  t_ours.reserve(reps);
  t_ref.reserve(reps);
  for (int i = 0; i < reps; ++i) {
    if (i % 2 == 0) {
      t_ours.push_back(seconds_of(ours));
      t_ref.push_back(seconds_of(ref));
    } else {
      t_ref.push_back(seconds_of(ref));
      t_ours.push_back(seconds_of(ours));
    }
  }
  return {median(std::move(t_ours)), median(std::move(t_ref))};
}

// `count` floats uniform in [-1, 1] (multiples of 0.001), from `seed`.
inline std::vector<float> random_host(size_t count, uint64_t seed) {
  std::vector<float> v(count);
  for (float& x : v) x = float(tbbench::splitmix64(seed) % 2001) / 1000.0f - 1.0f;
  return v;
}

}  // namespace tbbench
