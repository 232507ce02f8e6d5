// The Level-3 plans on the device: src/level3_plan.cpp's decompositions on a backend that launches
// our GEMM kernels (the router's choice for each GEMM) and the block kernels of kernels/ on one
// stream, with scratch from the stream-ordered pool. supports() runs the same plan on a backend
// that only asks each operation's kernel whether it supports it, so it says yes exactly when every
// launch of the run would find a kernel (a plan must not stop halfway: trmm and trsm work in
// place).
#include "plans.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "device_lanes.h"
#include "env.h"
#include "level3_plan.h"
#include "memory.h"
#include "router.h"
#include "tri_block.h"
#include "tri_fill.h"
#include "tri_invert.h"
#include "tri_update.h"

namespace tileblas {

namespace {

class DeviceBackend final : public Level3Backend {
 public:
  // dry_run: check every operation's kernel, launch nothing, allocate nothing.
  DeviceBackend(const DeviceCaps& caps, cudaStream_t stream, bool dry_run)
      : caps_(caps), stream_(stream), dry_run_(dry_run), cfg_(config()) {}

  ~DeviceBackend() override {
    join();
    if (device_lanes_) device_lanes_->give_back(events_);
  }

  cudaError_t gemm(const Problem& p) override {
    const Problem q = with_config(p);
    const GemmKernel* k = pick_gemm_kernel(q, caps_, cfg_.force_kernel, &why_);
    if (!k) return cudaErrorNotSupported;
    return run([&](cudaStream_t s) { return k->launch(q, s); });
  }
  bool gemm_supports(const Problem& p) override {
    return pick_gemm_kernel(with_config(p), caps_, cfg_.force_kernel, &why_) != nullptr;
  }
  cudaError_t tri_update(const TriUpdateProblem& p) override {
    if (!tri_update::supports(p, caps_)) return cudaErrorNotSupported;
    return run([&](cudaStream_t s) { return tri_update::launch(p, s); });
  }
  cudaError_t tri_fill(const TriFillProblem& p) override {
    if (!tri_fill::supports(p, caps_)) return cudaErrorNotSupported;
    return run([&](cudaStream_t s) { return tri_fill::launch(p, s); });
  }
  cudaError_t tri_block(const TriBlockProblem& p) override {
    if (!tri_block::supports(p, caps_)) return cudaErrorNotSupported;
    return run([&](cudaStream_t s) { return tri_block::launch(p, s); });
  }
  cudaError_t tri_invert(const TriInvertProblem& p) override {
    if (!tri_invert::supports(p, caps_)) return cudaErrorNotSupported;
    return run([&](cudaStream_t s) { return tri_invert::launch(p, s); });
  }

  // Lanes go to the side streams in turn; a side stream first waits for the call's stream as it
  // was at fork(), and join() makes the call's stream wait for every side stream used.
  cudaError_t fork() override {
    if (dry_run_) return cudaSuccess;
    if (cudaError_t err = DeviceLanes::of_current_device(&device_lanes_); err != cudaSuccess) {
      return err;
    }
    side_ = device_lanes_->streams();
    while (events_.size() < size_t(kLanes + 1)) {
      cudaEvent_t e = nullptr;
      if (cudaError_t err = device_lanes_->borrow(&e); err != cudaSuccess) return err;
      events_.push_back(e);
    }
    if (cudaError_t err = cudaEventRecord(events_[kLanes], stream_); err != cudaSuccess) return err;
    forked_ = true;
    lane_ = -1;
    waited_.fill(false);
    return cudaSuccess;
  }
  void next_lane() override {
    if (forked_) lane_ = (lane_ + 1) % kLanes;
  }
  cudaError_t join() override {
    if (!forked_) return cudaSuccess;
    forked_ = false;
    cudaError_t first = cudaSuccess;
    for (int i = 0; i < kLanes; ++i) {
      if (!waited_[i]) continue;
      cudaError_t err = cudaEventRecord(events_[i], side_[i]);
      if (err == cudaSuccess) err = cudaStreamWaitEvent(stream_, events_[i], 0);
      if (err != cudaSuccess) {
        // The call's stream cannot be ordered after this lane: wait for it here instead, so that
        // nothing after the plan (the scratch's release, the caller's next work) overtakes it.
        cudaStreamSynchronize(side_[i]);
        if (first == cudaSuccess) first = err;
      }
    }
    return first;
  }
  cudaError_t scratch(size_t bytes, void** p) override {
    if (dry_run_) {
      // An address aligned as a pool allocation is, for the kernels' alignment checks.
      *p = reinterpret_cast<void*>(uintptr_t(1) << 20);
      return cudaSuccess;
    }
    auto buffer = std::make_unique<DeviceBuffer>(bytes, stream_);
    if (buffer->status() != cudaSuccess) return buffer->status();
    *p = buffer->get();
    buffers_.push_back(std::move(buffer));
    return cudaSuccess;
  }

  // Frees the scratch (stream-ordered, after the plan's work, every lane's included).
  void release() {
    join();
    buffers_.clear();
  }

 private:
  // p as the user's configuration has it (TF32 for fp32 where allowed).
  Problem with_config(const Problem& p) const {
    Problem q = p;
    q.allow_tf32 = cfg_.allow_tf32 && q.type == DataType::kF32;
    return q;
  }

  // Launches on the current lane's stream (the call's own stream outside fork() ... join()).
  template <class Launch>
  cudaError_t run(Launch&& launch) {
    if (dry_run_) return cudaSuccess;
    if (!forked_ || lane_ < 0) return launch(stream_);
    if (!waited_[lane_]) {
      if (cudaError_t err = cudaStreamWaitEvent(side_[lane_], events_[kLanes], 0);
          err != cudaSuccess)
        return err;
      waited_[lane_] = true;
    }
    return launch(side_[lane_]);
  }

  const DeviceCaps& caps_;
  cudaStream_t stream_;
  bool dry_run_;
  const Config& cfg_;
  std::string why_;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
  DeviceLanes* device_lanes_ = nullptr;  // the device's, from the first fork() on
  SideStreams side_{};
  std::vector<cudaEvent_t> events_;    // one per lane, and the fork's (last); borrowed
  std::array<bool, kLanes> waited_{};  // lane i's stream waits for the fork's event
  bool forked_ = false;
  int lane_ = -1;  // the current lane's side stream
};

}  // namespace

bool level3_on_device_supports_with(const Problem& p, const DeviceCaps& caps,
                                    const Level3BlockSizes& sizes) {
  if (!level3_plan_handles(p)) return false;
  DeviceBackend probe(caps, nullptr, true);
  return run_level3_plan(p, probe, sizes) == cudaSuccess;
}

bool level3_on_device_supports(const Problem& p, const DeviceCaps& caps) {
  return level3_on_device_supports_with(p, caps, level3_block_sizes(p.type));
}

cudaError_t run_level3_on_device_with(const Problem& p, const DeviceCaps& caps, cudaStream_t stream,
                                      const Level3BlockSizes& sizes) {
  DeviceBackend backend(caps, stream, false);
  const cudaError_t err = run_level3_plan(p, backend, sizes);
  backend.release();
  const cudaError_t sync = cudaStreamSynchronize(stream);
  return err != cudaSuccess ? err : sync;
}

cudaError_t run_level3_on_device(const Problem& p, const DeviceCaps& caps, cudaStream_t stream) {
  return run_level3_on_device_with(p, caps, stream, level3_block_sizes(p.type));
}

}  // namespace tileblas
