#include "memory.h"

#include <cuda.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tileblas {

const char* name_of(MemKind kind) {
  switch (kind) {
    case MemKind::kHostPinned:
      return "host-pinned";
    case MemKind::kDevice:
      return "device";
    case MemKind::kManaged:
      return "managed";
    case MemKind::kOtherDevice:
      return "another GPU's";
    case MemKind::kHostPageable:
      break;
  }
  return "host";
}

namespace {

using CtxGetCurrentFn = CUresult (*)(CUcontext*);
using PrimaryCtxGetStateFn = CUresult (*)(CUdevice, unsigned*, int*);
using PointerGetAttributesFn = CUresult (*)(unsigned, CUpointer_attribute*, void**, CUdeviceptr);

struct DriverEntryPoints {
  CtxGetCurrentFn ctx_get_current = nullptr;
  PrimaryCtxGetStateFn primary_ctx_get_state = nullptr;
  PointerGetAttributesFn pointer_get_attributes = nullptr;
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
    if (cudaGetDriverEntryPointByVersion("cuPointerGetAttributes", &fn, 12000, cudaEnableDefault,
                                         &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess) {
      e.pointer_get_attributes = reinterpret_cast<PointerGetAttributesFn>(fn);
    }
    cudaGetDeviceCount(&e.device_count);
    cudaGetLastError();
    return e;
  }();
  return d;
}

bool context_exists_now() {
  const DriverEntryPoints& d = driver();
  if (d.device_count == 0) return false;  // no driver or no device: no GPU memory can exist
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

namespace {

// The runtime's cudaPointerGetAttributes asks the driver for every attribute it reports; the
// kind needs two, and classify() runs three times on every GEMM call.
MemKind classify_with_driver(PointerGetAttributesFn get, const void* p, int device) {
  // Zeroed 8-byte slots: the driver writes a CUmemorytype, a boolean and an int, narrower than
  // these.
  unsigned long long memory_type = 0, is_managed = 0, ordinal = 0;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                      CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  void* data[] = {&memory_type, &is_managed, &ordinal};
  // Memory CUDA does not know (pageable host memory) gets null attributes and CUDA_SUCCESS.
  if (get(3, attributes, data, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS) {
    return MemKind::kHostPageable;
  }
  // Managed memory may report either physical location as its memory type.
  if (is_managed) return MemKind::kManaged;
  switch (memory_type) {
    case CU_MEMORYTYPE_DEVICE:
      return int(ordinal) == device ? MemKind::kDevice : MemKind::kOtherDevice;
    case CU_MEMORYTYPE_HOST:
      return MemKind::kHostPinned;
    default:
      return MemKind::kHostPageable;
  }
}

MemKind classify_with_runtime(const void* p, int device) {
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return MemKind::kHostPageable;
  }
  switch (attr.type) {
    case cudaMemoryTypeDevice:
      return attr.device == device ? MemKind::kDevice : MemKind::kOtherDevice;
    case cudaMemoryTypeManaged:
      return MemKind::kManaged;
    case cudaMemoryTypeHost:
      return MemKind::kHostPinned;
    default:
      return MemKind::kHostPageable;
  }
}

struct AddressRange {
  uintptr_t lo = 0, hi = 0;
};

// The calling thread's stack, if its size is plausible (a main thread with an unlimited stack
// limit reports one that is not: no range then).
const AddressRange& this_thread_stack() {
  constexpr size_t kMaxStackBytes = size_t(256) << 20;
  thread_local const AddressRange range = [] {
    AddressRange r;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return r;
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && size <= kMaxStackBytes) {
      r.lo = reinterpret_cast<uintptr_t>(addr);
      r.hi = r.lo + size;
    }
    pthread_attr_destroy(&attr);
    return r;
  }();
  return range;
}

}  // namespace

uintptr_t memory_detail::read_heap_start() {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (!f) return 0;
  char buf[4096];
  const size_t len = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[len] = '\0';
  // Field 2 (the command name, in parentheses) may hold spaces: count fields after its ')'.
  const char* at = std::strrchr(buf, ')');
  for (int field = 2; at && field < 47; ++field) at = std::strchr(at + 1, ' ');
  return at ? uintptr_t(std::strtoull(at + 1, nullptr, 10)) : 0;
}

bool memory_detail::on_this_thread_stack(uintptr_t a) {
  const AddressRange& stack = this_thread_stack();
  return a >= stack.lo && a < stack.hi;
}

bool in_host_only_range(const void* p) { return p && all_in_host_only_range({p}); }

MemKind classify(const void* p, int device) {
  if (!p || in_host_only_range(p) || !cuda_context_exists()) return MemKind::kHostPageable;
  if (PointerGetAttributesFn get = driver().pointer_get_attributes) {
    return classify_with_driver(get, p, device);
  }
  return classify_with_runtime(p, device);
}

void copy_lines(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                size_t height) {
  if (dst_pitch == width && src_pitch == width) {
    std::memcpy(dst, src, width * height);
    return;
  }
  for (size_t i = 0; i < height; ++i) {
    std::memcpy(static_cast<char*>(dst) + i * dst_pitch,
                static_cast<const char*>(src) + i * src_pitch, width);
  }
}

PinnedBuffer::PinnedBuffer(size_t bytes) {
  status_ = cudaMallocHost(&ptr_, bytes > 0 ? bytes : 1);
  if (status_ != cudaSuccess) ptr_ = nullptr;
}

PinnedBuffer::~PinnedBuffer() {
  if (ptr_) cudaFreeHost(ptr_);
}

HostCopyTeam::HostCopyTeam(int helpers) {
  for (int i = 0; i < helpers; ++i) helpers_.emplace_back([this] { helper_loop(); });
}

void HostCopyTeam::helper_loop() {
  using Clock = std::chrono::steady_clock;
  constexpr auto kSpin = std::chrono::microseconds(500);
  uint64_t seen = 0;
  for (;;) {
    auto posted = [&] { return ticket_.load(std::memory_order_acquire) >> 32 != seen; };
    const auto spin_until = Clock::now() + kSpin;
    while (!posted() && Clock::now() < spin_until) std::this_thread::yield();
    if (!posted()) {
      std::unique_lock<std::mutex> lock(mu_);
      job_posted_.wait(lock, posted);
    }
    seen = ticket_.load(std::memory_order_acquire) >> 32;
    work_on(seen);
  }
}

// Claims and copies parts of copy `generation` until none is left or a later copy has replaced
// it. A copy is replaced only after its last part is done, so job_ holds this copy's job from a
// successful claim until that part is done.
void HostCopyTeam::work_on(uint64_t generation) {
  uint64_t ticket = ticket_.load(std::memory_order_acquire);
  for (;;) {
    const uint64_t parts = (ticket >> 16) & 0xffff, next = ticket & 0xffff;
    if (ticket >> 32 != generation || next >= parts) return;
    if (!ticket_.compare_exchange_weak(ticket, ticket + 1, std::memory_order_acquire)) continue;
    const Job& job = job_;
    const size_t lp = next / job.width_parts, wp = next % job.width_parts;
    const size_t line0 = job.height * lp / job.line_parts,
                 line1 = job.height * (lp + 1) / job.line_parts;
    const size_t byte0 = job.width * wp / job.width_parts,
                 byte1 = job.width * (wp + 1) / job.width_parts;
    copy_lines(job.dst + line0 * job.dst_pitch + byte0, job.dst_pitch,
               job.src + line0 * job.src_pitch + byte0, job.src_pitch, byte1 - byte0,
               line1 - line0);
    parts_left_.fetch_sub(1, std::memory_order_acq_rel);
    ticket = ticket_.load(std::memory_order_acquire);
  }
}

// Columns go in groups: the rows every column of a group keeps, as one block by the team; the
// group's own diagonal block, column by column by the calling thread.
void HostCopyTeam::copy_triangle(char* dst, int64_t ld_dst, const char* src, int64_t row0,
                                 int64_t col0, int64_t rows, int64_t cols, size_t elem,
                                 bool lower) {
  constexpr int64_t kGroup = 64;
  const int64_t row_end = row0 + rows;
  auto to = [&](int64_t r, int64_t c) {
    return dst + (size_t(r) + size_t(c) * size_t(ld_dst)) * elem;
  };
  auto from = [&](int64_t r, int64_t c) {
    return src + (size_t(r - row0) + size_t(c - col0) * size_t(rows)) * elem;
  };
  for (int64_t g0 = col0; g0 < col0 + cols; g0 += kGroup) {
    const int64_t g1 = std::min(g0 + kGroup, col0 + cols);
    // Lower: column j keeps rows >= j, all of the group rows >= g1; upper: rows <= j, all of the
    // group rows < g0.
    const int64_t r0 = lower ? std::max(row0, g1) : row0;
    const int64_t r1 = lower ? row_end : std::min(row_end, g0);
    if (r0 < r1) {
      copy_2d(to(r0, g0), size_t(ld_dst) * elem, from(r0, g0), size_t(rows) * elem,
              size_t(r1 - r0) * elem, size_t(g1 - g0));
    }
    for (int64_t j = g0; j < g1; ++j) {
      const int64_t d0 = lower ? std::max(row0, j) : std::max(row0, g0);
      const int64_t d1 = lower ? std::min(row_end, g1) : std::min(row_end, j + 1);
      if (d0 < d1) std::memcpy(to(d0, j), from(d0, j), size_t(d1 - d0) * elem);
    }
  }
}

void HostCopyTeam::copy_2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                           size_t width, size_t height) {
  // Parts of at least 256 KiB (smaller ones cost more to hand out than to copy), a few per thread
  // so that a slow thread does not hold the rest up; long lines are cut across their width.
  constexpr size_t kMinPartBytes = size_t(256) << 10;
  const size_t bytes = width * height;
  const size_t parts = std::max<size_t>(
      1, std::min<size_t>({size_t(4) * size_t(size()), bytes / kMinPartBytes, 0xffff}));
  if (parts == 1 || helpers_.empty()) {
    copy_lines(dst, dst_pitch, src, src_pitch, width, height);
    return;
  }
  std::lock_guard<std::mutex> one_copy(one_copy_);
  Job& job = job_;
  job.dst = static_cast<char*>(dst);
  job.src = static_cast<const char*>(src);
  job.dst_pitch = dst_pitch;
  job.src_pitch = src_pitch;
  job.width = width;
  job.height = height;
  job.line_parts = std::min(parts, std::max<size_t>(height, 1));
  job.width_parts = std::max<size_t>(1, parts / job.line_parts);
  const uint64_t total = job.line_parts * job.width_parts;  // <= parts: fits the ticket
  parts_left_.store(total, std::memory_order_relaxed);
  const uint64_t generation = ((ticket_.load(std::memory_order_relaxed) >> 32) + 1) & 0xffffffff;
  {
    std::lock_guard<std::mutex> lock(mu_);  // a helper about to sleep sees the ticket or the notify
    ticket_.store(ticket_of(generation, total, 0), std::memory_order_release);
  }
  job_posted_.notify_all();
  work_on(generation);
  while (parts_left_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}

namespace {

// The most the current device's pool keeps (memory.h), looked up once per device.
uint64_t pool_keep_max(int device) {
  constexpr int kDevices = 64;
  static std::atomic<uint64_t> known[kDevices] = {};
  if (device < 0 || device >= kDevices) return kPoolKeepMaxBytes;
  uint64_t max = known[device].load(std::memory_order_relaxed);
  if (max == 0) {
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
      cudaGetLastError();
      return kPoolKeepMaxBytes;
    }
    max = std::max<uint64_t>(kPoolKeepMaxBytes, total_bytes / kPoolKeepMemoryShare);
    known[device].store(max, std::memory_order_relaxed);
  }
  return max;
}

}  // namespace

cudaError_t keep_in_pool(uint64_t bytes) {
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  cudaMemPool_t pool;
  if (err == cudaSuccess) err = cudaDeviceGetDefaultMemPool(&pool, device);
  uint64_t keep = 0;
  if (err == cudaSuccess)
    err = cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  const uint64_t wanted = std::clamp(bytes, kPoolKeepBytes, pool_keep_max(device));
  if (err == cudaSuccess && keep < wanted) {
    keep = wanted;
    err = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  }
  return err;
}

DeviceBuffer::DeviceBuffer(size_t bytes, cudaStream_t stream) : stream_(stream) {
  // Not keeping the memory only costs time (it is mapped again next call): clear that error so
  // that later launches' checks do not report it.
  if (keep_in_pool(bytes) != cudaSuccess) cudaGetLastError();
  status_ = cudaMallocAsync(&ptr_, bytes > 0 ? bytes : 1, stream);
  if (status_ != cudaSuccess) ptr_ = nullptr;
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFreeAsync(ptr_, stream_);
}

}  // namespace tileblas
