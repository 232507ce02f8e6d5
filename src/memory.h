// Where a pointer's memory lives, and device buffers for staging host data.
#pragma once

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <thread>
#include <vector>

namespace tileblas {

// kDevice is memory of the device tileblas runs on; kOtherDevice, of another GPU (read only through
// copies: a kernel on our GPU must not touch it).
enum class MemKind { kHostPageable, kHostPinned, kDevice, kManaged, kOtherDevice };

const char* name_of(MemKind kind);

// True when some CUDA context exists in this process (ours or the program's): only then can a
// pointer be device or managed memory. Does not create a context.
bool cuda_context_exists();

// Whether p lies where only host memory can be, whatever is allocated or freed meanwhile: in the
// program's brk heap (below the current break) or on the calling thread's stack. The CUDA driver
// maps device, managed and pinned memory elsewhere, so such pointers need no driver query (memory
// there registered with cudaHostRegister is then taken as pageable, which is correct, if slower
// to copy).
bool in_host_only_range(const void* p);

namespace memory_detail {
// The start of the program's brk heap (/proc/self/stat field 47, start_brk), or 0 if unknown.
uintptr_t read_heap_start();
inline uintptr_t heap_start() {
  static const uintptr_t start = read_heap_start();
  return start;
}
// Whether address a lies on the calling thread's stack (a thread-local lookup).
bool on_this_thread_stack(uintptr_t a);
}  // namespace memory_detail

// in_host_only_range() for a call's operands; nullptr (an operand the routine lacks) counts as in
// range. Inline, the heap's bounds read once for all of them: every small host call asks, and its
// operands mostly lie in the heap; the stack is looked up only for one outside it.
inline bool all_in_host_only_range(std::initializer_list<const void*> operands) {
  const uintptr_t heap = memory_detail::heap_start();
  const uintptr_t brk = heap != 0 ? reinterpret_cast<uintptr_t>(sbrk(0)) : 0;  // sbrk(0) is a call
  for (const void* p : operands) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (p && !(a >= heap && a < brk) && !memory_detail::on_this_thread_stack(a)) return false;
  }
  return true;
}

// Classifies a pointer for tileblas's device `device`. Only call with a usable device; without any
// CUDA context every pointer is host pageable and no context is created. Pointers
// in_host_only_range() are host pageable without asking the driver; others are asked every call, so
// a buffer freed and reallocated as another kind is never misclassified.
MemKind classify(const void* p, int device);

// True for memory a kernel can read in place.
inline bool device_accessible(MemKind k) { return k == MemKind::kDevice || k == MemKind::kManaged; }
// True for memory the CPU cannot read directly (a CPU route copies it to host memory and back).
inline bool in_gpu_memory(MemKind k) { return k == MemKind::kDevice || k == MemKind::kOtherDevice; }

// `height` lines of `width` bytes, line i at src + i * src_pitch, to dst + i * dst_pitch, copied by
// the calling thread (one memcpy where both are contiguous). HostCopyTeam splits larger copies.
void copy_lines(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                size_t height);

// Page-locked host memory (cudaMallocHost): the only host memory the copy engines read and write
// asynchronously at full speed.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return ptr_; }
  cudaError_t status() const { return status_; }

 private:
  void* ptr_ = nullptr;
  cudaError_t status_;
};

// Host threads that copy together with the calling thread: one thread's memcpy reaches a fraction
// of the host's memory bandwidth, and copying pageable data into and out of pinned buffers is
// what limits a staged host-data GEMM. A copy is cut into parts that the threads claim from one
// atomic ticket; between copies the helpers spin a while (a staged GEMM posts one every few
// hundred microseconds, and waking a sleeping thread costs tens of them), then sleep. The threads
// live as long as the process.
class HostCopyTeam {
 public:
  explicit HostCopyTeam(int helpers);
  ~HostCopyTeam() = delete;  // owned by a never-destroyed object: threads block until exit

  // `height` lines of `width` bytes, line i at src + i * src_pitch, to dst + i * dst_pitch (a
  // column-major block: lines are columns). Returns when every byte is copied. Thread-safe (one
  // copy runs at a time).
  void copy_2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
               size_t height);

  // One triangle of a block of a column-major matrix: `src` holds rows [row0, row0 + rows) of
  // columns [col0, col0 + cols) packed (`rows` elements of `elem` bytes a column); of those, the
  // elements on or below the diagonal (`lower`: row >= column) or on or above it (row <= column)
  // go to the same rows and columns of `dst` (ld_dst elements a column). Nothing else of dst is
  // written.
  void copy_triangle(char* dst, int64_t ld_dst, const char* src, int64_t row0, int64_t col0,
                     int64_t rows, int64_t cols, size_t elem, bool lower);

  int size() const { return int(helpers_.size()) + 1; }

 private:
  struct Job {
    char* dst = nullptr;
    const char* src = nullptr;
    size_t dst_pitch = 0, src_pitch = 0, width = 0, height = 0;
    size_t line_parts = 1, width_parts = 1;  // the block is cut into line_parts x width_parts
  };
  // The ticket: generation (32 bits: one per copy), part count (16), next part to claim (16).
  static uint64_t ticket_of(uint64_t generation, uint64_t parts, uint64_t next) {
    return generation << 32 | parts << 16 | next;
  }
  void work_on(uint64_t generation);
  void helper_loop();

  std::mutex one_copy_;  // held by the caller of copy_2d while the team works for it
  std::mutex mu_;        // with job_posted_: helpers that sleep between copies
  std::condition_variable job_posted_;
  Job job_;  // written before a generation's ticket is published, read after a part is claimed
  std::atomic<uint64_t> ticket_{0};
  std::atomic<size_t> parts_left_{0};
  std::vector<std::thread> helpers_;
};

// Device memory comes from the current device's default memory pool (cudaMallocAsync on the call's
// stream). After a synchronisation the pool keeps at least kPoolKeepBytes, and as much as the
// largest allocation asked for up to the larger of kPoolKeepMaxBytes and 1/kPoolKeepMemoryShare of
// the device's memory, instead of returning it to the driver, so back-to-back calls do not each
// pay for a new mapping (8192^3 sgemm packed: 512 MiB, ~1.3 ms a call when re-mapped; the complex
// 3M rows' workspace at 8192^3: 4.5 GiB). keep_in_pool() raises that threshold for an allocation
// of `bytes`.
constexpr uint64_t kPoolKeepBytes = uint64_t(256) << 20;
constexpr uint64_t kPoolKeepMaxBytes = uint64_t(2) << 30;
constexpr uint64_t kPoolKeepMemoryShare = 16;
cudaError_t keep_in_pool(uint64_t bytes);

// A stream-ordered device allocation from the device's default pool (keep_in_pool() first), freed
// on the same stream when it goes out of scope.
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
