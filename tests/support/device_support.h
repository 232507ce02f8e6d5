// Kernel-tier helpers (tests that link the core and call kernels directly): device capabilities,
// a synthetic Hopper for GPU-free checks, and device buffers.
#pragma once

#include <cstddef>

#include "problem.h"

namespace tbtest {

// Device 0's capabilities (queried once; a failure fails the calling test).
const tileblas::DeviceCaps& device_caps();

// The capabilities of an sm_90 H100/H200, for supports() and router checks that need no GPU.
tileblas::DeviceCaps hopper_caps();

// `count` floats of device memory (at least one), freed when it goes out of scope.
struct DeviceFloats {
  float* base = nullptr;
  explicit DeviceFloats(size_t count);
  ~DeviceFloats();
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
};

// `bytes` of device memory (at least 16), freed when it goes out of scope.
struct DeviceBytes {
  void* ptr = nullptr;
  explicit DeviceBytes(size_t bytes);
  ~DeviceBytes();
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
};

}  // namespace tbtest
