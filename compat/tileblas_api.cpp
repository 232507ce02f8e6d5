// The library's own C API (include/tileblas.h): version, route and configuration queries, and the
// stream-aware device-pointer SGEMM.
#include <string>

#include "compat.h"
#include "cpu_blas.h"
#include "device.h"
#include "env.h"
#include "log.h"
#include "router.h"
#include "tileblas.h"

TILEBLAS_EXPORT const char* tileblas_version(void) { return TILEBLAS_VERSION_STRING; }

TILEBLAS_EXPORT tileblas_route tileblas_last_route(void) { return tileblas::last_call().route; }

TILEBLAS_EXPORT const char* tileblas_last_kernel(void) {
  return tileblas::last_call().kernel.c_str();
}

TILEBLAS_EXPORT const char* tileblas_last_reason(void) {
  return tileblas::last_call().reason.c_str();
}

TILEBLAS_EXPORT void tileblas_get_config(tileblas_config* out) {
  using tileblas::Device;
  static const std::string why = Device::unavailable_reason();
  static std::string name;
  static int sm = 0;
  if (Device* d = Device::available()) {
    name = d->name();
    sm = d->caps().sm_version;
  }
  const tileblas::Config& c = tileblas::config();
  out->mode = tileblas::name_of(c.mode);
  out->device_found = why.empty() ? 1 : 0;
  out->device_index = c.device;
  out->device_name = name.c_str();
  out->sm_version = sm;
  out->no_device_why = why.c_str();
  out->cpu_blas = tileblas::cpu_blas::description();
  out->allow_tf32 = c.allow_tf32 ? 1 : 0;
  out->verbose = c.verbose ? 1 : 0;
  out->force_kernel = c.force_kernel.c_str();
}

TILEBLAS_EXPORT int tileblas_sgemm_device(char transa, char transb, int64_t m, int64_t n, int64_t k,
                                          float alpha, const float* a, int64_t lda, const float* b,
                                          int64_t ldb, float beta, float* c, int64_t ldc,
                                          void* stream) {
  using namespace tileblas;
  if (int info = compat::check_gemm_args(transa, transb, m, n, k, lda, ldb, ldc)) return info;
  if (compat::gemm_quick_return(m, n, k, alpha, beta)) return 0;
  Device* device = Device::available();
  if (!device) return -1;
  const CurrentDevice current(*device);
  if (!current.ok()) return -1;
  Problem p;
  compat::parse_trans(transa, DataType::kF32, &p.trans_a);
  compat::parse_trans(transb, DataType::kF32, &p.trans_b);
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.beta = beta;
  p.a = a;
  p.lda = lda;
  p.b = b;
  p.ldb = ldb;
  p.c = c;
  p.ldc = ldc;
  p.allow_tf32 = config().allow_tf32;
  std::string why;
  const GemmKernel* kernel = pick_gemm_kernel(p, device->caps(), config().force_kernel, &why);
  if (!kernel) return -1;
  cudaStream_t s = stream ? static_cast<cudaStream_t>(stream) : device->stream();
  const cudaError_t err = kernel->launch(p, s);
  if (err != cudaSuccess) {
    Device::report_failure("tileblas_sgemm_device", err);
    return -1;
  }
  record_call("tileblas_sgemm_device", p, TILEBLAS_ROUTE_GPU, kernel->name, why);
  return 0;
}
