// The device's side streams and their events (see device_lanes.h).
#include "device_lanes.h"

#include <map>

namespace tileblas {

cudaError_t DeviceLanes::of_current_device(DeviceLanes** out) {
  static std::mutex mu;
  static auto* const by_device = new std::map<int, DeviceLanes*>;
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  const std::lock_guard<std::mutex> lock(mu);
  auto it = by_device->find(device);
  if (it == by_device->end()) {
    SideStreams streams{};
    for (int i = 0; i < kLanes; ++i) {
      if (cudaError_t err = cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking);
          err != cudaSuccess) {
        for (int j = 0; j < i; ++j) cudaStreamDestroy(streams[j]);
        return err;
      }
    }
    it = by_device->emplace(device, new DeviceLanes(streams)).first;
  }
  *out = it->second;
  return cudaSuccess;
}

cudaError_t DeviceLanes::borrow(cudaEvent_t* e) {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      *e = idle_.back();
      idle_.pop_back();
      return cudaSuccess;
    }
  }
  return cudaEventCreateWithFlags(e, cudaEventDisableTiming);
}

void DeviceLanes::give_back(const std::vector<cudaEvent_t>& events) {
  const std::lock_guard<std::mutex> lock(mu_);
  idle_.insert(idle_.end(), events.begin(), events.end());
}

}  // namespace tileblas
