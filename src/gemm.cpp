// tileblas::gemm: route, run on the GPU or the CPU BLAS, fall back to the CPU on any GPU failure.
#include <cstdio>
#include <string>
#include <vector>

#include "calibration.h"
#include "cpu_blas.h"
#include "device.h"
#include "env.h"
#include "executor.h"
#include "half_convert.h"
#include "log.h"
#include "ops.h"
#include "router.h"

namespace tileblas {

const char* name_of(DataType t) {
  switch (t) {
    case DataType::kF16:
      return "f16";
    case DataType::kBF16:
      return "bf16";
    case DataType::kF32:
      break;
  }
  return "f32";
}

namespace {

float load_as_float(const void* base, size_t index, DataType t) {
  switch (t) {
    case DataType::kF16:
      return half_to_float(static_cast<const uint16_t*>(base)[index]);
    case DataType::kBF16:
      return bf16_to_float(static_cast<const uint16_t*>(base)[index]);
    case DataType::kF32:
      break;
  }
  return static_cast<const float*>(base)[index];
}

// A rows x cols column-major fp32 copy (ld = rows) of a matrix of any element type.
std::vector<float> widen(const void* base, int64_t ld, int64_t rows, int64_t cols, DataType t) {
  std::vector<float> out(size_t(rows) * size_t(cols));
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i) out[i + j * rows] = load_as_float(base, i + j * ld, t);
  }
  return out;
}

// The CPU path on host pointers: fp32 straight to the CPU BLAS; 16-bit types widened to fp32,
// multiplied by the CPU sgemm (fp32 accumulation, as on the GPU) and, for an fp16 C, rounded back.
void gemm_on_cpu(const GemmProblem& p) {
  const char ta = p.trans_a == Op::kNoTrans ? 'N' : 'T';
  const char tb = p.trans_b == Op::kNoTrans ? 'N' : 'T';
  if (p.ab_type == DataType::kF32 && p.c_type == DataType::kF32) {
    cpu_blas::sgemm(ta, tb, int(p.m), int(p.n), int(p.k), p.alpha, static_cast<const float*>(p.a),
                    int(p.lda), static_cast<const float*>(p.b), int(p.ldb), p.beta,
                    static_cast<float*>(p.c), int(p.ldc));
    return;
  }
  std::vector<float> a, b;
  if (p.k > 0 && p.alpha != 0.0f) {
    a = widen(p.a, p.lda, p.a_rows(), p.a_cols(), p.ab_type);
    b = widen(p.b, p.ldb, p.b_rows(), p.b_cols(), p.ab_type);
  }
  const int lda = int(std::max<int64_t>(p.a_rows(), 1)),
            ldb = int(std::max<int64_t>(p.b_rows(), 1));
  if (a.empty()) a.assign(1, 0.0f), b.assign(1, 0.0f);
  if (p.c_type == DataType::kF32) {
    cpu_blas::sgemm(ta, tb, int(p.m), int(p.n), p.alpha != 0.0f ? int(p.k) : 0, p.alpha, a.data(),
                    lda, b.data(), ldb, p.beta, static_cast<float*>(p.c), int(p.ldc));
    return;
  }
  // fp16 C: compute in fp32 (C not read when beta == 0), round once at the end.
  std::vector<float> c(size_t(p.m) * size_t(p.n), 0.0f);
  if (p.beta != 0.0f) c = widen(p.c, p.ldc, p.m, p.n, p.c_type);
  cpu_blas::sgemm(ta, tb, int(p.m), int(p.n), p.alpha != 0.0f ? int(p.k) : 0, p.alpha, a.data(),
                  lda, b.data(), ldb, p.beta, c.data(), int(p.m));
  uint16_t* out = static_cast<uint16_t*>(p.c);
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) out[i + j * p.ldc] = float_to_half(c[i + j * p.m]);
  }
}

// Device operands while the GPU cannot run the call: copy them to the host, compute on the CPU,
// copy C back. If even the copies fail, say so: never return a wrong C silently.
void gemm_on_cpu_via_host_copies(const GemmProblem& p, const Placement& where,
                                 const char* routine) {
  const size_t ab = size_of(p.ab_type), ce = size_of(p.c_type);
  std::vector<char> a, b, c;
  GemmProblem h = p;
  cudaError_t err = cudaSuccess;
  auto fetch = [&](const void* src, int64_t ld, int64_t rows, int64_t cols, size_t elem,
                   bool on_device, std::vector<char>& buf, const void** dst, int64_t* dst_ld) {
    if (!on_device || err != cudaSuccess) return;
    buf.resize(size_t(rows) * size_t(cols) * elem);
    err = cudaMemcpy2D(buf.data(), size_t(rows) * elem, src, size_t(ld) * elem, size_t(rows) * elem,
                       size_t(cols), cudaMemcpyDefault);
    *dst = buf.data();
    *dst_ld = rows;
  };
  fetch(p.a, p.lda, p.a_rows(), p.a_cols(), ab, where.a == MemKind::kDevice, a, &h.a, &h.lda);
  fetch(p.b, p.ldb, p.b_rows(), p.b_cols(), ab, where.b == MemKind::kDevice, b, &h.b, &h.ldb);
  const void* c_host = p.c;
  fetch(p.c, p.ldc, p.m, p.n, ce, where.c == MemKind::kDevice, c, &c_host, &h.ldc);
  h.c = const_cast<void*>(c_host);
  if (err == cudaSuccess) {
    gemm_on_cpu(h);
    if (where.c == MemKind::kDevice) {
      err = cudaMemcpy2D(p.c, size_t(p.ldc) * ce, c.data(), size_t(p.m) * ce, size_t(p.m) * ce,
                         size_t(p.n), cudaMemcpyDefault);
    }
  }
  if (err != cudaSuccess) {
    std::fprintf(stderr,
                 "tileblas: error: %s on device memory could not run on the GPU nor be copied to "
                 "the CPU (%s); C was not computed\n",
                 routine, cudaGetErrorString(err));
  }
}

}  // namespace

void gemm(const GemmProblem& call, const char* routine) {
  GemmProblem p = call;
  p.allow_tf32 = p.ab_type == DataType::kF32 && config().allow_tf32;
  Device* device = Device::get();
  Placement where;
  if (device) {
    // Every call: a buffer freed and reallocated as another kind must never be misclassified.
    where.a = classify(p.a);
    where.b = classify(p.b);
    where.c = classify(p.c);
  }
  const Rates* rates = nullptr;
  if (device && gemm_needs_rates(where, config()) && p.k > 0 && p.alpha != 0.0f) {
    rates = &measured_rates(p, *device);
  }
  GemmRoute route = route_gemm(p, where, config(), device ? &device->caps() : nullptr,
                               Device::unavailable_reason(), rates);
  if (route.side == TILEBLAS_ROUTE_GPU) {
    const cudaError_t err = run_gemm(p, where, *route.kernel, route.copies, route.panel_cols,
                                     device->caps(), device->stream());
    if (err == cudaSuccess) {
      record_call(routine, p, TILEBLAS_ROUTE_GPU, route.kernel->name, std::move(route.reason));
      return;
    }
    Device::report_failure(routine, err);
    route.reason = std::string("GPU failed (") + cudaGetErrorString(err) + "), CPU fallback";
  }
  if (where.a == MemKind::kDevice || where.b == MemKind::kDevice || where.c == MemKind::kDevice) {
    gemm_on_cpu_via_host_copies(p, where, routine);
  } else {
    gemm_on_cpu(p);
  }
  record_call(routine, p, TILEBLAS_ROUTE_CPU, "cpu_blas sgemm_", std::move(route.reason));
}

}  // namespace tileblas
