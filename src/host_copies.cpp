#include "host_copies.h"

#include <algorithm>
#include <cstdio>

#include "operands.h"
#include "router.h"

namespace tileblas {

cudaError_t on_cpu_via_host_copies(std::vector<CpuOperand>& operands,
                                   const std::function<void()>& compute) {
  std::vector<std::vector<char>> buffers(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    CpuOperand& x = operands[i];
    if (!x.in_gpu_memory) {
      x.host = const_cast<void*>(x.ptr);
      x.host_ld = x.ld;
      continue;
    }
    const int64_t rows = std::max<int64_t>(x.rows, 0), cols = std::max<int64_t>(x.cols, 0);
    buffers[i].resize(std::max<size_t>(size_t(rows) * size_t(cols) * x.elem, 1));
    x.host = buffers[i].data();
    x.host_ld = std::max<int64_t>(rows, 1);
    if (x.read && rows > 0 && cols > 0) {
      const cudaError_t err =
          cudaMemcpy2D(x.host, size_t(x.host_ld) * x.elem, x.ptr, size_t(x.ld) * x.elem,
                       size_t(rows) * x.elem, size_t(cols), cudaMemcpyDefault);
      if (err != cudaSuccess) return err;
    }
  }
  compute();
  for (const CpuOperand& x : operands) {
    if (!x.in_gpu_memory || !x.written || x.rows <= 0 || x.cols <= 0) continue;
    const cudaError_t err = cudaMemcpy2D(const_cast<void*>(x.ptr), size_t(x.ld) * x.elem, x.host,
                                         size_t(x.host_ld) * x.elem, size_t(x.rows) * x.elem,
                                         size_t(x.cols), cudaMemcpyDefault);
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

void on_cpu_via_host_copies(const Operands& ops, const Placement& where, const char* routine,
                            const std::function<void(const Operands& host)>& compute) {
  const Operand* const y[3] = {&ops.a, &ops.b, &ops.c};
  const MemKind kinds[3] = {where.a, where.b, where.c};
  std::vector<CpuOperand> x(3);
  for (int i = 0; i < 3; ++i) {
    x[i] = {y[i]->ptr,  y[i]->ld,   y[i]->rows,
            y[i]->cols, y[i]->elem, y[i]->ptr && in_gpu_memory(kinds[i])};
    x[i].read = y[i]->in_when_copied_back_whole();
    x[i].written = y[i]->out;
  }
  const cudaError_t err = on_cpu_via_host_copies(x, [&] {
    Operands host = ops;
    Operand* const h[3] = {&host.a, &host.b, &host.c};
    for (int i = 0; i < 3; ++i) {
      if (y[i]->ptr) h[i]->ptr = x[i].host, h[i]->ld = x[i].host_ld;
    }
    compute(host);
  });
  if (err != cudaSuccess) say_not_computed(routine, err);
}

void say_not_computed(const char* routine, cudaError_t err) {
  std::fprintf(
      stderr,
      "tileblas: error: %s on GPU memory could not run on the GPU nor be copied to the CPU "
      "(%s); the output was not computed\n",
      routine, cudaGetErrorString(err));
}

void say_partial_result(const char* routine, cudaError_t err) {
  std::fprintf(stderr,
               "tileblas: error: %s: the GPU failed while copying the result back (%s); the output "
               "may hold a partial result\n",
               routine, cudaGetErrorString(err));
}

}  // namespace tileblas
