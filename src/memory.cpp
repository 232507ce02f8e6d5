#include "memory.h"

#include <cuda.h>

#include <atomic>

namespace tileblas {

const char* name_of(MemKind kind) {
  switch (kind) {
    case MemKind::kHostPinned:
      return "host-pinned";
    case MemKind::kDevice:
      return "device";
    case MemKind::kManaged:
      return "managed";
    case MemKind::kHostPageable:
      break;
  }
  return "host";
}

namespace {

using CtxGetCurrentFn = CUresult (*)(CUcontext*);
using PrimaryCtxGetStateFn = CUresult (*)(CUdevice, unsigned*, int*);

struct DriverEntryPoints {
  CtxGetCurrentFn ctx_get_current = nullptr;
  PrimaryCtxGetStateFn primary_ctx_get_state = nullptr;
  int device_count = 0;
};

const DriverEntryPoints& driver() {
  static const DriverEntryPoints d = [] {
    DriverEntryPoints e;
    cudaDriverEntryPointQueryResult q;
    void* fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q) ==
            cudaSuccess &&
        q == cudaDriverEntryPointSuccess) {
      e.ctx_get_current = reinterpret_cast<CtxGetCurrentFn>(fn);
    }
    if (cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &fn, 12000,
                                         cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess) {
      e.primary_ctx_get_state = reinterpret_cast<PrimaryCtxGetStateFn>(fn);
    }
    cudaGetDeviceCount(&e.device_count);
    cudaGetLastError();
    return e;
  }();
  return d;
}

bool context_exists_now() {
  const DriverEntryPoints& d = driver();
  if (!d.ctx_get_current || !d.primary_ctx_get_state) return true;  // cannot tell: assume so
  CUcontext current = nullptr;
  if (d.ctx_get_current(&current) == CUDA_SUCCESS && current) return true;
  for (int dev = 0; dev < d.device_count; ++dev) {
    unsigned flags = 0;
    int active = 0;
    // CUdevice handles are the device ordinals.
    if (d.primary_ctx_get_state(dev, &flags, &active) == CUDA_SUCCESS && active) return true;
  }
  return false;
}

}  // namespace

bool cuda_context_exists() {
  // Once a context has been seen, the answer no longer needs the driver: a context that is
  // destroyed later leaves pointer classification correct (host memory stays "unregistered").
  static std::atomic<bool> seen{false};
  if (seen.load(std::memory_order_relaxed)) return true;
  const bool exists = context_exists_now();
  if (exists) seen.store(true, std::memory_order_relaxed);
  return exists;
}

MemKind classify(const void* p) {
  if (!p || !cuda_context_exists()) return MemKind::kHostPageable;
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return MemKind::kHostPageable;
  }
  switch (attr.type) {
    case cudaMemoryTypeDevice:
      return MemKind::kDevice;
    case cudaMemoryTypeManaged:
      return MemKind::kManaged;
    case cudaMemoryTypeHost:
      return MemKind::kHostPinned;
    default:
      return MemKind::kHostPageable;
  }
}

DeviceBuffer::DeviceBuffer(size_t bytes, cudaStream_t stream) : stream_(stream) {
  status_ = cudaMallocAsync(&ptr_, bytes > 0 ? bytes : 1, stream);
  if (status_ != cudaSuccess) ptr_ = nullptr;
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFreeAsync(ptr_, stream_);
}

}  // namespace tileblas
