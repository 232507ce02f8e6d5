#include "host_copies.h"

#include <algorithm>

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

}  // namespace tileblas
