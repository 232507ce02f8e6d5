// Side streams of the current device and the events that order work on them: operations that
// do not depend on each other run on them beside the call's own stream (the Level-3 plans' lanes,
// src/plans.cpp). Each user records its own dependencies with events it borrows, so the streams
// are shared by every thread. The peeled GEMM rows' remainders do not run here: after them, later
// split-K and staged calls of the process ran slower (src/gemm_peel.h). After the ssyrk and dsyrk
// plans at 4096 the split-K call measured there did not
// (docs/bench/h100-2026-11-28-peel-streams.md).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <mutex>
#include <vector>

namespace tileblas {

// Lanes of independent operations: four concurrent GEMMs of 32-64 tiles fill the SMs of a Hopper
// GPU where one leaves most of them idle (syrk's diagonal and deepest off-diagonal blocks).
constexpr int kLanes = 4;
using SideStreams = std::array<cudaStream_t, kLanes>;

// The current device's side streams and the events its users borrow, created at the first need
// and kept for the process (as the device's own stream is): never destroyed, since BLAS calls from
// atexit handlers may still use them and a destructor run at exit may find the CUDA runtime gone.
// Every thread's plans share the streams: that can only order their work more than needed, since
// each expresses its dependencies with events of its own, borrowed for its length rather than
// created (one for each lane and the fork).
class DeviceLanes {
 public:
  // The current device's; its streams are made on the first call.
  static cudaError_t of_current_device(DeviceLanes** out);

  const SideStreams& streams() const { return streams_; }

  // An event of this device (the current one) that no user holds, created where none is idle.
  cudaError_t borrow(cudaEvent_t* e);

  // Events borrowed from this device, for the next users. Work still recorded in them does not
  // matter: the next user records each before it waits for it.
  void give_back(const std::vector<cudaEvent_t>& events);

 private:
  explicit DeviceLanes(const SideStreams& streams) : streams_(streams) {}

  SideStreams streams_;
  std::mutex mu_;
  std::vector<cudaEvent_t> idle_;
};

}  // namespace tileblas
