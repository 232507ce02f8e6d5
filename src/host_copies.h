// CPU routes for operands in GPU memory the CPU cannot read (device memory, or any GPU tileblas
// does not use): such operands are copied to host buffers, the CPU BLAS computes on those, and
// what it wrote is copied back. One helper for every operation's CPU path.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace tileblas {

struct Operands;
struct Placement;

// A column-major matrix operand of a CPU computation: rows x cols elements of `elem` bytes,
// `ld`-strided. `read`: the computation reads it (copied in); `written`: it writes it (copied back,
// rows x cols; the padding rows between are never touched).
struct CpuOperand {
  const void* ptr = nullptr;
  int64_t ld = 0;
  int64_t rows = 0, cols = 0;
  size_t elem = 0;
  bool in_gpu_memory = false;
  bool read = true;
  bool written = false;

  // Where the computation finds the operand, set by on_cpu_via_host_copies(): a packed host copy
  // (ld = max(rows, 1)), or ptr itself when it is in host memory.
  void* host = nullptr;
  int64_t host_ld = 0;
};

// Copies the operands in GPU memory to host buffers (those read; the others get uninitialised
// buffers), runs `compute` on the host pointers, and copies the written ones back. Returns the
// first CUDA error: a failed copy in runs nothing; a failed copy back may leave its operand in
// part written.
cudaError_t on_cpu_via_host_copies(std::vector<CpuOperand>& operands,
                                   const std::function<void()>& compute);

// The same for a call's operands (src/operands.h), those in GPU memory as `where` says: each
// copied in where the computation reads it (all of it, since outputs go back whole), `compute`
// run on the operands at their host addresses. If even the copies fail, says so for `routine`
// (say_not_computed()): never a wrong output silently.
void on_cpu_via_host_copies(const Operands& ops, const Placement& where, const char* routine,
                            const std::function<void(const Operands& host)>& compute);

// The error line of a call on GPU memory that could neither run on the GPU nor be copied to the
// CPU.
void say_not_computed(const char* routine, cudaError_t err);

// The error line of a call whose output the GPU failed to copy back where the routine reads that
// output (beta != 0, an output in place): what landed is unknown, so it is not computed again.
void say_partial_result(const char* routine, cudaError_t err);

}  // namespace tileblas
