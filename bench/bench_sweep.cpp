// The GEMM shape sweep: for every type and shape of tests/support/gemm_sweep.h, the
// routed call on device pointers (tileblas::gemm, what a program calling sgemm_ / cblas_sgemm /
// cblas_gemm_f16f16f32 ... with device pointers gets: route, launch, wait) against cublasGemmEx
// on the same buffers in the same run, followed by a device synchronisation:
//   fp32:        CUDA_R_32F with CUBLAS_COMPUTE_32F_PEDANTIC on a CUBLAS_PEDANTIC_MATH handle
//                (no TF32 can leak in);
//   fp16, bf16:  16F / 16BF inputs, fp32 C, CUBLAS_COMPUTE_32F (tensor cores) on a default handle;
//   (yardstick_of() also has fp64 and complex, for when they join tests/support/gemm_sweep.h).
// Names: "sweep/<type>/<class>/<m>x<n>x<k>/<ops>"; label "TFLOP/s|<yardstick>|<kernel routed to>".
// Both sides are timed with the host clock around whole synchronous calls, alternating which
// goes first rep by rep (tbbench::interleaved_medians); medians. alpha = 1, beta = 0.
//
// Inputs: per type, one pool of random A elements and one of B (sized for the largest shape) and
// one C region each for ours and cuBLAS, filled once; a shape's operands are slices of them at
// 256-byte offsets. Shapes whose data fits in L2 rotate through several slices, ours and cuBLAS
// half a rotation apart, so neither finds the other's inputs in L2.
// rel_diff: ||C_ours - C_cublas|| / ||C_cublas|| over up to 64 columns spread across C (a kernel
// that computes garbage quickly cannot pass as fast; fp32 accumulation on both sides: ~1e-6).
// scripts/bench_table.py --sweep-summary gives, per type, the geometric mean and the minimum of
// ours / cuBLAS.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.h"
#include "gemm_sweep.h"
#include "log.h"
#include "ops.h"
#include "tileblas.h"

namespace {

using tbsweep::SweepShape;
using tbsweep::SweepType;
using tileblas::DataType;
using tileblas::Op;
using tileblas::Problem;

// Each side's timed calls take about this long, in at least kMinReps and at most kMaxReps calls
// (the whole sweep then runs in about a minute on an H200).
constexpr double kSecondsPerSide = 0.2;
constexpr int kMinReps = 9, kMaxReps = 500;
constexpr size_t kSliceAlign = 256;  // bytes: slices start as cudaMalloc'd memory does

cudaDataType cuda_type(DataType t) {
  switch (t) {
    case DataType::kF32:
      return CUDA_R_32F;
    case DataType::kF16:
      return CUDA_R_16F;
    case DataType::kBF16:
      return CUDA_R_16BF;
    case DataType::kF64:
      return CUDA_R_64F;
    case DataType::kC32:
      return CUDA_C_32F;
    case DataType::kC64:
      return CUDA_C_64F;
  }
  return CUDA_R_32F;
}

cublasOperation_t cublas_op(Op op) {
  return op == Op::kNoTrans ? CUBLAS_OP_N : op == Op::kTrans ? CUBLAS_OP_T : CUBLAS_OP_C;
}

// cuBLAS as the yardstick for one sweep type, computing what our kernels compute: fp32 and
// complex fp32 without tensor cores (pedantic: no TF32); 16-bit inputs on tensor cores with fp32
// accumulation; fp64 and complex fp64 in the default math mode (FP64 tensor cores, never the
// emulated modes). alpha and beta are fp32 for fp32 accumulation, fp64 for fp64.
struct Yardstick {
  cublasComputeType_t compute;
  tbbench::CublasMath math;
  std::string name;
  bool fp64_scalars;
};

Yardstick yardstick_of(const SweepType& t) {
  const std::string name =
      std::string("cublasGemmEx ") + tileblas::name_of(t.ab) + "->" + tileblas::name_of(t.c);
  switch (t.ab) {
    case DataType::kF32:
    case DataType::kC32:
      return {CUBLAS_COMPUTE_32F_PEDANTIC, tbbench::CublasMath::kPedantic, name + " pedantic+sync",
              false};
    case DataType::kF16:
    case DataType::kBF16:
      return {CUBLAS_COMPUTE_32F, tbbench::CublasMath::kDefault, name + "+sync", false};
    case DataType::kF64:
    case DataType::kC64:
      return {CUBLAS_COMPUTE_64F, tbbench::CublasMath::kDefault, name + "+sync", true};
  }
  return {CUBLAS_COMPUTE_32F_PEDANTIC, tbbench::CublasMath::kPedantic, name, false};
}

size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

struct DeviceBytes {
  unsigned char* ptr = nullptr;
  explicit DeviceBytes(size_t bytes) {
    tbbench::check(cudaMalloc(reinterpret_cast<void**>(&ptr), std::max<size_t>(bytes, 1)),
                   "cudaMalloc");
  }
  ~DeviceBytes() { cudaFree(ptr); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
};

// One type's pools (see the file comment), kept while consecutive benchmarks use the type (they
// are registered type by type).
struct TypePools {
  const SweepType* type = nullptr;
  size_t a_bytes = 0, b_bytes = 0, c_bytes = 0;
  std::unique_ptr<DeviceBytes> a, b, c_ours, c_ref;
};

TypePools& pools_for(const SweepType& t) {
  static std::unique_ptr<TypePools> cached;
  if (cached && cached->type == &t) return *cached;
  cached.reset();  // free the previous type's pools first
  auto pools = std::make_unique<TypePools>();
  pools->type = &t;
  const size_t ab = tbsweep::element_size(t.ab), ce = tbsweep::element_size(t.c);
  for (const SweepShape& s : tbsweep::sweep_shapes()) {
    pools->a_bytes = std::max(pools->a_bytes, round_up(size_t(s.m * s.k) * ab, kSliceAlign));
    pools->b_bytes = std::max(pools->b_bytes, round_up(size_t(s.k * s.n) * ab, kSliceAlign));
    pools->c_bytes = std::max(pools->c_bytes, round_up(size_t(s.m * s.n) * ce, kSliceAlign));
  }
  pools->a = std::make_unique<DeviceBytes>(pools->a_bytes);
  pools->b = std::make_unique<DeviceBytes>(pools->b_bytes);
  pools->c_ours = std::make_unique<DeviceBytes>(pools->c_bytes);
  pools->c_ref = std::make_unique<DeviceBytes>(pools->c_bytes);
  const tbsweep::RandomElements random(t.ab);
  std::vector<unsigned char> host(std::max(pools->a_bytes, pools->b_bytes));
  random.fill(1, pools->a_bytes / ab, host.data());
  tbbench::check(cudaMemcpy(pools->a->ptr, host.data(), pools->a_bytes, cudaMemcpyHostToDevice),
                 "fill A");
  random.fill(2, pools->b_bytes / ab, host.data());
  tbbench::check(cudaMemcpy(pools->b->ptr, host.data(), pools->b_bytes, cudaMemcpyHostToDevice),
                 "fill B");
  cached = std::move(pools);
  return *cached;
}

// ||x - y|| / ||y|| over up to 64 columns of two m x n C arrays (ld = m) spread across n.
double sampled_rel_diff(const SweepType& t, const SweepShape& s, const unsigned char* c_ours,
                        const unsigned char* c_ref) {
  const size_t ce = tbsweep::element_size(t.c);
  const int64_t step = std::max<int64_t>(1, s.n / 64), cols = (s.n + step - 1) / step;
  std::vector<unsigned char> x(size_t(s.m * cols) * ce), y(x.size());
  for (auto [dst, src] : {std::pair{&x, c_ours}, std::pair{&y, c_ref}}) {
    tbbench::check(cudaMemcpy2D(dst->data(), size_t(s.m) * ce, src, size_t(s.m * step) * ce,
                                size_t(s.m) * ce, size_t(cols), cudaMemcpyDeviceToHost),
                   "copy C back");
  }
  double num = 0, den = 0;
  for (size_t i = 0; i < x.size() / ce; ++i) {
    for (int part = 0; part < tbsweep::parts_of(t.c); ++part) {
      const double a = tbsweep::decode(t.c, &x[i * ce], part);
      const double b = tbsweep::decode(t.c, &y[i * ce], part);
      num += (a - b) * (a - b);
      den += b * b;
    }
  }
  return den > 0 ? std::sqrt(num / den) : INFINITY;
}

void sweep_row(benchmark::State& state, const SweepType* t, const SweepShape* s,
               const std::string& name) {
  TypePools& pools = pools_for(*t);
  const Yardstick yard = yardstick_of(*t);
  const size_t ab = tbsweep::element_size(t->ab), ce = tbsweep::element_size(t->c);
  const size_t a_stride = round_up(size_t(s->m * s->k) * ab, kSliceAlign);
  const size_t b_stride = round_up(size_t(s->k * s->n) * ab, kSliceAlign);
  const size_t c_stride = round_up(size_t(s->m * s->n) * ce, kSliceAlign);
  const int sets =
      int(std::min({size_t(tbbench::sets_to_defeat_l2(a_stride + b_stride + c_stride)),
                    pools.a_bytes / a_stride, pools.b_bytes / b_stride, pools.c_bytes / c_stride}));
  Problem base;
  base.trans_a = s->ta, base.trans_b = s->tb;
  base.m = s->m, base.n = s->n, base.k = s->k;
  base.alpha = 1.0, base.beta = 0.0;
  base.type = t->ab, base.c_type = t->c;
  base.lda = s->a_rows(), base.ldb = s->b_rows(), base.ldc = s->m;
  auto problem = [&](int set, unsigned char* c_pool) {
    Problem p = base;
    p.a = pools.a->ptr + size_t(set) * a_stride;
    p.b = pools.b->ptr + size_t(set) * b_stride;
    p.c = c_pool + size_t(set) * c_stride;
    return p;
  };
  // alpha = 1, beta = 0 as cuBLAS reads them for the compute type (complex: re, im).
  const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
  const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
  const void* one = yard.fp64_scalars ? static_cast<const void*>(one_d) : one_f;
  const void* zero = yard.fp64_scalars ? static_cast<const void*>(zero_d) : zero_f;
  auto ours_on = [&](int set) { tileblas::gemm(problem(set, pools.c_ours->ptr), t->routine); };
  auto ref_on = [&](int set) {
    const Problem p = problem(set, pools.c_ref->ptr);
    tbbench::check(cublasGemmEx(tbbench::cublas(yard.math), cublas_op(s->ta), cublas_op(s->tb),
                                int(p.m), int(p.n), int(p.k), one, p.a, cuda_type(t->ab),
                                int(p.lda), p.b, cuda_type(t->ab), int(p.ldb), zero, p.c,
                                cuda_type(t->c), int(p.ldc), yard.compute, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx");
    tbbench::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  };
  // Ours starts at slice 0, cuBLAS half a rotation on.
  int ours_set = 0, ref_set = sets / 2;
  auto ours = [&] {
    ours_on(ours_set);
    ours_set = (ours_set + 1) % sets;
  };
  auto ref = [&] {
    ref_on(ref_set);
    ref_set = (ref_set + 1) % sets;
  };
  std::pair<double, double> t_med;
  for (auto _ : state) {
    const auto probe = tbbench::interleaved_medians(3, 1, ours, ref);
    const int reps =
        std::clamp(int(kSecondsPerSide / std::max(probe.first, probe.second)), kMinReps, kMaxReps);
    t_med = tbbench::interleaved_medians(reps, 0, ours, ref);
    state.SetIterationTime(t_med.first);
  }
  ours_on(0);
  const bool on_gpu = tileblas::last_call().route == TILEBLAS_ROUTE_GPU;
  const std::string kernel = (on_gpu ? "" : "cpu: ") + tileblas::last_call().kernel;
  ref_on(0);
  state.counters["on_gpu"] = on_gpu ? 1 : 0;
  state.counters["sets"] = sets;
  state.counters["rel_diff"] = sampled_rel_diff(*t, *s, pools.c_ours->ptr, pools.c_ref->ptr);
  const double flops = base.flops();
  tbbench::report(state, flops / t_med.first * 1e-12, flops / t_med.second * 1e-12, "TFLOP/s",
                  yard.name.c_str(), name + " [" + kernel + "]");
  state.SetLabel("TFLOP/s|" + yard.name + "|" + kernel);
}

const bool registered = [] {
  for (const SweepType& t : tbsweep::sweep_types()) {
    for (const SweepShape& s : tbsweep::sweep_shapes()) {
      const std::string name = std::string("sweep/") + t.name + "/" + s.name();
      benchmark::RegisterBenchmark(name.c_str(), sweep_row, &t, &s, name)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

}  // namespace
