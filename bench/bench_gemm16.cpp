// Tensor-core GEMM rows (gemm_wgmma_*, gemm_mma_*) against cuBLAS, same device buffers, same run:
//   f16 row, fp32 C  -> cublasGemmEx 16F x 16F -> 32F (CUBLAS_COMPUTE_32F)    "gemm_f16f32"
//   f16 row, fp16 C  -> cublasHgemm                                            "hgemm"
//   bf16 row, fp32 C -> cublasGemmEx 16BF x 16BF -> 32F (CUBLAS_COMPUTE_32F)   "gemm_bf16f32"
//   tf32 row         -> cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH             "sgemm_tf32"
// Square sizes 1024..8192, NN, plus TN/NT/TT at 4096 (the ldmatrix.trans paths); alpha = 1,
// beta = 0. Each benchmark also reports rel_diff = ||C_ours - C_cublas|| / ||C_cublas||.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.h"
#include "device.h"
#include "kernel_table.h"
#include "problem.h"

namespace {

using tileblas::DataType;
using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;

cublasHandle_t tf32_handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t handle;
    tbbench::check(cublasCreate(&handle), "cublasCreate");
    tbbench::check(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH), "cublasSetMathMode");
    return handle;
  }();
  return h;
}

enum class Yardstick { kGemmExF16, kHgemm, kGemmExBF16, kSgemmTf32 };

struct Variant {
  const char* op;
  Yardstick yardstick;
  const char* yardstick_name;
  DataType ab, c;
};

template <class AB, class C>
void run(benchmark::State& state, const GemmKernel& row, const Variant& v, int64_t n, Op ta, Op tb,
         const std::string& name) {
  Problem p;
  p.trans_a = ta, p.trans_b = tb;
  p.m = p.n = p.k = n;
  p.lda = p.ldb = p.ldc = n;
  p.alpha = 1.0f, p.beta = 0.0f;
  p.type = v.ab, p.c_type = v.c;
  p.allow_tf32 = v.ab == DataType::kF32;
  // A row that does not take this C (the persistent rows: fp32 only) is skipped, visibly; the
  // buffers come from cudaMalloc (256-byte aligned).
  tileblas::DeviceCaps caps;
  tbbench::check(tileblas::device_caps_of(0, &caps), "device_caps_of");
  Problem probe = p;
  probe.a = probe.b = probe.c = reinterpret_cast<void*>(uintptr_t(256));
  if (!row.supports(probe, caps)) {
    state.SkipWithError("row does not support this problem on this device");
    return;
  }
  const size_t elems = size_t(n) * size_t(n);
  const int sets = tbbench::sets_to_defeat_l2(elems * (2 * sizeof(AB) + sizeof(C)), 8);
  std::vector<tbbench::DeviceBuffer<AB>> a, b;
  std::vector<tbbench::DeviceBuffer<C>> c_ours, c_ref;
  for (int s = 0; s < sets; ++s) {
    a.emplace_back(elems, 1000 + s);
    b.emplace_back(elems, 2000 + s);
    c_ours.emplace_back(elems, 3000 + s);
    c_ref.emplace_back(elems, 4000 + s);
  }
  const cublasOperation_t cta = ta == Op::kTrans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t ctb = tb == Op::kTrans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int ni = int(n);
  auto ours = [&](int s) {
    Problem q = p;
    q.a = a[s].get(), q.b = b[s].get(), q.c = c_ours[s].get();
    tbbench::check(row.launch(q, nullptr), row.name);
  };
  const float one = 1.0f, zero = 0.0f;
  const __half hone = __float2half(1.0f), hzero = __float2half(0.0f);
  auto ref = [&](int s) {
    switch (v.yardstick) {
      case Yardstick::kGemmExF16:
      case Yardstick::kGemmExBF16: {
        const cudaDataType_t t = v.yardstick == Yardstick::kGemmExF16 ? CUDA_R_16F : CUDA_R_16BF;
        tbbench::check(
            cublasGemmEx(tbbench::cublas(tbbench::CublasMath::kDefault), cta, ctb, ni, ni, ni, &one,
                         a[s].get(), t, ni, b[s].get(), t, ni, &zero, c_ref[s].get(), CUDA_R_32F,
                         ni, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx");
        break;
      }
      case Yardstick::kHgemm:
        tbbench::check(cublasHgemm(tbbench::cublas(tbbench::CublasMath::kDefault), cta, ctb, ni, ni,
                                   ni, &hone, reinterpret_cast<const __half*>(a[s].get()), ni,
                                   reinterpret_cast<const __half*>(b[s].get()), ni, &hzero,
                                   reinterpret_cast<__half*>(c_ref[s].get()), ni),
                       "cublasHgemm");
        break;
      case Yardstick::kSgemmTf32:
        tbbench::check(cublasSgemm(tf32_handle(), cta, ctb, ni, ni, ni, &one,
                                   reinterpret_cast<const float*>(a[s].get()), ni,
                                   reinterpret_cast<const float*>(b[s].get()), ni, &zero,
                                   reinterpret_cast<float*>(c_ref[s].get()), ni),
                       "cublasSgemm");
        break;
    }
  };
  const int reps = n >= 8192 ? 10 : n >= 4096 ? 20 : 50;
  tbbench::compare(state, reps, sets, ours, ref, 2.0 * double(n) * n * n, 1e12, "TFLOP/s",
                   v.yardstick_name, name);
  state.counters["rel_diff"] = tbbench::relative_difference(c_ours[0], c_ref[0]);
}

const Variant kVariants[] = {
    {"gemm_f16f32", Yardstick::kGemmExF16, "cublasGemmEx 16F->32F", DataType::kF16, DataType::kF32},
    {"hgemm", Yardstick::kHgemm, "cublasHgemm", DataType::kF16, DataType::kF16},
    {"gemm_bf16f32", Yardstick::kGemmExBF16, "cublasGemmEx 16BF->32F", DataType::kBF16,
     DataType::kF32},
    {"sgemm_tf32", Yardstick::kSgemmTf32, "cublasSgemm TF32", DataType::kF32, DataType::kF32},
};

// The rows of gemm_kernels() a variant benches: the 16-byte-load gemm_wgmma_ and gemm_mma_ rows
// of its type, in table order (wgmma first).
std::vector<const GemmKernel*> rows_for(const Variant& v) {
  const char* type = v.ab == DataType::kF16 ? "f16_" : v.ab == DataType::kBF16 ? "bf16_" : "tf32_";
  std::vector<const GemmKernel*> rows;
  for (const GemmKernel& k : tileblas::gemm_kernels()) {
    for (const char* family : {"gemm_wgmma_", "gemm_mma_"}) {
      const std::string prefix = std::string(family) + type;
      if (std::strncmp(k.name, prefix.c_str(), prefix.size()) == 0 &&
          std::strstr(k.name, "scalarload") == nullptr)
        rows.push_back(&k);
    }
  }
  return rows;
}

void register_one(const Variant& v, const GemmKernel& row, int64_t n, Op ta, Op tb) {
  const std::string shape = std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n);
  const std::string name = std::string(v.op) + "/" + row.name + "/" + shape + "/" +
                           tileblas::name_of(ta) + tileblas::name_of(tb);
  const Variant* vp = &v;
  const GemmKernel* rp = &row;
  benchmark::RegisterBenchmark(name.c_str(),
                               [vp, rp, n, ta, tb, name](benchmark::State& state) {
                                 if (vp->ab == DataType::kF32) {
                                   run<float, float>(state, *rp, *vp, n, ta, tb, name);
                                 } else if (vp->c == DataType::kF16) {
                                   run<__half, __half>(state, *rp, *vp, n, ta, tb, name);
                                 } else if (vp->ab == DataType::kF16) {
                                   run<__half, float>(state, *rp, *vp, n, ta, tb, name);
                                 } else {
                                   run<__nv_bfloat16, float>(state, *rp, *vp, n, ta, tb, name);
                                 }
                               })
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
}

// Every row at every size NN; the other transposes at 4096 for the first (large-tile) row only.
const bool registered = [] {
  for (const Variant& v : kVariants) {
    const std::vector<const GemmKernel*> rows = rows_for(v);
    for (const GemmKernel* row : rows) {
      for (int64_t n : {1024, 2048, 4096, 8192}) {
        register_one(v, *row, n, Op::kNoTrans, Op::kNoTrans);
      }
    }
    if (rows.empty()) continue;
    register_one(v, *rows[0], 4096, Op::kTrans, Op::kNoTrans);
    register_one(v, *rows[0], 4096, Op::kNoTrans, Op::kTrans);
    register_one(v, *rows[0], 4096, Op::kTrans, Op::kTrans);
  }
  return true;
}();

}  // namespace
