// fp32 GEMM kernels against cublasSgemm (CUBLAS_PEDANTIC_MATH: no TF32), same buffers, same run.
// One benchmark per fp32 row of gemm_kernels() and shape: "sgemm/<row>/<m>x<n>x<k>/<transposes>".
// Inputs are random in [-1, 1); alpha = 1, beta = 0; buffer sets rotate when a set fits in L2.
#include <cuda_runtime_api.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.h"
#include "device.h"
#include "kernel_table.h"

namespace {

using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;

struct Shape {
  int64_t m, n, k;
  Op ta, tb;
};

const Shape kShapes[] = {
    {256, 256, 256, Op::kNoTrans, Op::kNoTrans},    {512, 512, 512, Op::kNoTrans, Op::kNoTrans},
    {1024, 1024, 1024, Op::kNoTrans, Op::kNoTrans}, {2048, 2048, 2048, Op::kNoTrans, Op::kNoTrans},
    {4096, 4096, 4096, Op::kNoTrans, Op::kNoTrans}, {4096, 4096, 4096, Op::kTrans, Op::kNoTrans},
    {4096, 4096, 4096, Op::kNoTrans, Op::kTrans},   {4097, 4097, 4097, Op::kNoTrans, Op::kNoTrans},
    {8192, 8192, 8192, Op::kNoTrans, Op::kNoTrans}, {8192, 8192, 128, Op::kNoTrans, Op::kNoTrans},
    {128, 128, 65536, Op::kNoTrans, Op::kNoTrans},  {16384, 64, 16384, Op::kNoTrans, Op::kNoTrans},
};

Problem problem_of(const Shape& s) {
  Problem p;
  p.trans_a = s.ta, p.trans_b = s.tb;
  p.m = s.m, p.n = s.n, p.k = s.k;
  p.alpha = 1.0f, p.beta = 0.0f;
  p.lda = p.a_rows(), p.ldb = p.b_rows(), p.ldc = p.m;
  return p;
}

std::string shape_name(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + "/" +
         tileblas::name_of(s.ta) + tileblas::name_of(s.tb);
}

// The buffers of one shape: `sets` copies of A and B, and C for ours and for cuBLAS. Kept while
// consecutive benchmarks use the same shape (they are registered shape by shape).
struct ShapeBuffers {
  Shape shape;
  int sets = 1;
  std::vector<tbbench::DeviceBuffer<float>> a, b, c_ours, c_ref;
};

ShapeBuffers& buffers_for(const Shape& s) {
  static std::unique_ptr<ShapeBuffers> cached;
  if (cached && std::memcmp(&cached->shape, &s, sizeof s) == 0) return *cached;
  cached.reset();  // free the previous shape's buffers first
  auto bufs = std::make_unique<ShapeBuffers>();
  bufs->shape = s;
  const size_t a_count = size_t(s.m) * s.k, b_count = size_t(s.k) * s.n,
               c_count = size_t(s.m) * s.n;
  bufs->sets = tbbench::sets_to_defeat_l2((a_count + b_count + 2 * c_count) * sizeof(float));
  uint64_t seed = 1;
  for (int i = 0; i < bufs->sets; ++i) {
    bufs->a.emplace_back(a_count, seed++);
    bufs->b.emplace_back(b_count, seed++);
    bufs->c_ours.emplace_back(c_count, seed++);
    bufs->c_ref.emplace_back(c_count, seed++);
  }
  cached = std::move(bufs);
  return *cached;
}

// Reps so each side's timed loop takes about 0.25 s, from one timed call.
int reps_for(double ms_per_call) {
  const int reps = int(250.0 / std::max(ms_per_call, 1e-3));
  return std::max(3, std::min(reps, 200));
}

void bench_row(benchmark::State& state, const GemmKernel* row, Shape s, const std::string& name) {
  tileblas::DeviceCaps caps;
  tbbench::check(tileblas::device_caps_of(0, &caps), "device_caps_of");
  ShapeBuffers& bufs = buffers_for(s);
  const Problem base = problem_of(s);
  auto problem = [&](int set, bool ref) {
    Problem p = base;
    p.a = bufs.a[set].get(), p.b = bufs.b[set].get();
    p.c = ref ? bufs.c_ref[set].get() : bufs.c_ours[set].get();
    return p;
  };
  if (!row->supports(problem(0, false), caps)) {
    state.SkipWithError("the row does not support this problem on this device");
    return;
  }
  auto ours = [&](int set) {
    tbbench::check(row->launch(problem(set, false), nullptr), row->name);
  };
  auto ref = [&](int set) {
    const Problem p = problem(set, true);
    const float alpha = float(p.alpha.re), beta = float(p.beta.re);
    tbbench::check(cublasSgemm(tbbench::cublas(tbbench::CublasMath::kPedantic),
                               s.ta == Op::kNoTrans ? CUBLAS_OP_N : CUBLAS_OP_T,
                               s.tb == Op::kNoTrans ? CUBLAS_OP_N : CUBLAS_OP_T, int(p.m), int(p.n),
                               int(p.k), &alpha, static_cast<const float*>(p.a), int(p.lda),
                               static_cast<const float*>(p.b), int(p.ldb), &beta,
                               static_cast<float*>(p.c), int(p.ldc)),
                   "cublasSgemm");
  };
  const double probe_ms =
      std::max(tbbench::median_ms(ours, 1, bufs.sets), tbbench::median_ms(ref, 1, bufs.sets));
  tbbench::compare(state, reps_for(probe_ms), bufs.sets, ours, ref, base.flops(), 1e12, "TFLOP/s",
                   "cublasSgemm", name);
  state.counters["rel_diff"] = tbbench::relative_difference(bufs.c_ours[0], bufs.c_ref[0]);
}

bool register_sgemm_benches() {
  // Registration-time filter on a nominal Hopper with aligned pointers (no CUDA call at static
  // initialisation); the body checks supports() again on the real device and buffers.
  tileblas::DeviceCaps hopper;
  hopper.sm_version = 90, hopper.num_sms = 132, hopper.smem_per_block_optin = 227 * 1024;
  for (const Shape& s : kShapes) {
    for (const GemmKernel& row : tileblas::gemm_kernels()) {
      if (std::strncmp(row.name, "sgemm_", 6) != 0) continue;
      Problem p = problem_of(s);
      p.a = p.b = p.c = reinterpret_cast<float*>(uintptr_t(256));
      if (!row.supports(p, hopper)) continue;
      const std::string name = std::string("sgemm/") + row.name + "/" + shape_name(s);
      benchmark::RegisterBenchmark(name.c_str(), bench_row, &row, s, name)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = register_sgemm_benches();

}  // namespace
