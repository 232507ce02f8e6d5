// The CUDA device tileblas runs on: probed lazily and once (thread-safe), fork-aware, and
// disabled for the rest of the process after a CUDA failure (with one warning).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "problem.h"

namespace tileblas {

// Fills caps from cudaGetDeviceProperties(device). Used by the device context, tests and benches.
cudaError_t device_caps_of(int device, DeviceCaps* caps);

// Why CUDA cannot be used after cudaGetDeviceCount() failed with `err`, given
// cudaDriverGetVersion() and cudaRuntimeGetVersion() (driver_version 0: no driver installed).
std::string cuda_failure_reason(cudaError_t err, int driver_version, int runtime_version);

class Device {
 public:
  // The device to use, or nullptr when none can be used (no driver, no device, TILEBLAS_MODE=cpu,
  // a child after fork() of a process that had used CUDA, or disabled after a failure).
  // Makes the device current on the calling thread (cudaSetDevice only when another is current)
  // and leaves it so: for tests and benches, which own their threads. The library's calls hold a
  // CurrentDevice instead.
  static Device* get();

  // The same without making it current: a few atomic loads, for calls that may stay on the CPU.
  // Hold a CurrentDevice while running anything on the device.
  static Device* available();
  // False (after reporting the failure) when the device cannot be made current.
  bool make_current();

  // Why get() returns nullptr ("" when it does not). The string lives as long as the process.
  static const std::string& unavailable_reason();

  // After a CUDA error: out-of-memory only warns; anything else disables the device for the rest
  // of the process. Either way the caller falls back to the CPU. Warns once per kind of failure.
  static void report_failure(const char* what, cudaError_t err);

  const DeviceCaps& caps() const { return caps_; }
  int index() const { return index_; }
  const std::string& name() const { return name_; }
  // A non-blocking stream owned by the calling thread (created on first use).
  cudaStream_t stream();

 private:
  friend class DeviceAccess;
  DeviceCaps caps_;
  int index_ = 0;
  std::string name_;
};

// Makes `device` current on the calling thread for the scope's life, and the thread's previous
// device current again at its end: a program's own CUDA work keeps the device it chose.
class CurrentDevice {
 public:
  explicit CurrentDevice(Device& device);
  ~CurrentDevice();
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;
  // False (the failure reported) when the device could not be made current.
  bool ok() const { return ok_; }

 private:
  int previous_ = -1;  // the device to make current again; -1: none to restore
  bool ok_ = false;
};

}  // namespace tileblas
