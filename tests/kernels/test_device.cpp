// Kernel tier, the device context's report of why CUDA cannot be used (a pure function of the
// CUDA error and the driver and runtime versions, so every case runs without a GPU).
#include <gtest/gtest.h>

#include <string>

#include "device.h"

using tileblas::cuda_failure_reason;

TEST(DeviceTest, NoDriverIsNotCalledTooOld) {
  // The CUDA runtime reports a libcuda.so.1 it cannot load as an insufficient driver.
  const std::string why = cuda_failure_reason(cudaErrorInsufficientDriver, 0, 13000);
  EXPECT_NE(why.find("no CUDA driver found"), std::string::npos) << why;
  EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;
}

TEST(DeviceTest, TooOldADriverNamesBothVersions) {
  const std::string why = cuda_failure_reason(cudaErrorInsufficientDriver, 12020, 13000);
  EXPECT_NE(why.find("supports CUDA 12.2"), std::string::npos) << why;
  EXPECT_NE(why.find("CUDA 13.0 runtime"), std::string::npos) << why;
}

TEST(DeviceTest, OtherFailuresKeepTheRuntimesWords) {
  EXPECT_EQ(cuda_failure_reason(cudaErrorNoDevice, 12040, 12040), "no CUDA device");
  const std::string why = cuda_failure_reason(cudaErrorDevicesUnavailable, 12040, 12040);
  EXPECT_NE(why.find(cudaGetErrorString(cudaErrorDevicesUnavailable)), std::string::npos) << why;
}
