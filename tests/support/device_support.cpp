#include "device_support.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "device.h"

namespace tbtest {

const tileblas::DeviceCaps& device_caps() {
  static const tileblas::DeviceCaps caps = [] {
    tileblas::DeviceCaps c;
    EXPECT_EQ(tileblas::device_caps_of(0, &c), cudaSuccess);
    return c;
  }();
  return caps;
}

tileblas::DeviceCaps hopper_caps() {
  tileblas::DeviceCaps c;
  c.sm_version = 90;
  c.num_sms = 132;
  c.smem_per_block_optin = 227 * 1024;
  c.l2_bytes = 50u << 20;
  return c;
}

DeviceFloats::DeviceFloats(size_t count) {
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&base), std::max<size_t>(count, 1) * sizeof(float)),
            cudaSuccess);
}

DeviceFloats::~DeviceFloats() { cudaFree(base); }

DeviceBytes::DeviceBytes(size_t bytes) {
  EXPECT_EQ(cudaMalloc(&ptr, std::max<size_t>(bytes, 16)), cudaSuccess);
}

DeviceBytes::~DeviceBytes() { cudaFree(ptr); }

}  // namespace tbtest
