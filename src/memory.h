// Where a pointer's memory lives, and device buffers for staging host data.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tileblas {

enum class MemKind { kHostPageable, kHostPinned, kDevice, kManaged };

const char* name_of(MemKind kind);

// True when some CUDA context exists in this process (ours or the program's): only then can a
// pointer be device or managed memory. Does not create a context.
bool cuda_context_exists();

// Classifies a pointer. Only call with a usable device; without any CUDA context every pointer is
// host pageable and no context is created.
MemKind classify(const void* p);

// True for memory a kernel can read in place.
inline bool device_accessible(MemKind k) { return k == MemKind::kDevice || k == MemKind::kManaged; }

// A stream-ordered device allocation (cudaMallocAsync from the device's default pool), freed on
// the same stream when it goes out of scope.
class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, cudaStream_t stream);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }
  cudaError_t status() const { return status_; }

 private:
  void* ptr_ = nullptr;
  cudaStream_t stream_;
  cudaError_t status_;
};

}  // namespace tileblas
