// tileblas::axpy, omatcopy, imatcopy: O(n) operations. Host data stays on the CPU BLAS (unless
// TILEBLAS_MODE=gpu); device or managed data runs on our kernels in place.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpu_blas.h"
#include "device.h"
#include "env.h"
#include "executor.h"
#include "host_copies.h"
#include "log.h"
#include "ops.h"
#include "router.h"

namespace tileblas {

namespace {

// B = alpha * op(A) with tileblas's own loop, for a CPU BLAS without OpenBLAS's omatcopy.
void omatcopy_loop(const TransposeProblem& p) {
  for (int64_t j = 0; j < p.cols; ++j) {
    for (int64_t i = 0; i < p.rows; ++i) {
      // alpha == 0 writes +0 whatever A holds, as OpenBLAS and the GPU kernels do.
      const float v = p.alpha == 0.0f ? 0.0f : p.alpha * p.a[i + j * p.lda];
      if (p.trans == Op::kNoTrans) {
        p.b[i + j * p.ldb] = v;
      } else {
        p.b[j + i * p.ldb] = v;
      }
    }
  }
}

void omatcopy_on_cpu(const TransposeProblem& p) {
  const char trans = p.trans == Op::kNoTrans ? 'N' : 'T';
  if (!cpu_blas::somatcopy(p.name_set, 'C', trans, p.rows, p.cols, p.alpha, p.a, p.lda, p.b,
                           p.ldb)) {
    omatcopy_loop(p);
  }
}

void imatcopy_on_cpu(const TransposeProblem& p) {
  const char trans = p.trans == Op::kNoTrans ? 'N' : 'T';
  // Only the square lda == ldb case goes to the CPU BLAS: OpenBLAS 0.3.21's simatcopy_ (Debian
  // 12) sizes its scratch buffer ldb * max(lda, ldb) and overruns it when cols > max(lda, ldb).
  const bool square_in_place = p.rows == p.cols && p.lda == p.ldb;
  if (square_in_place &&
      cpu_blas::simatcopy(p.name_set, 'C', trans, p.rows, p.cols, p.alpha, p.b, p.lda, p.ldb)) {
    return;
  }
  std::vector<float> copy(size_t(p.rows) * size_t(p.cols));
  for (int64_t j = 0; j < p.cols; ++j) {
    for (int64_t i = 0; i < p.rows; ++i) copy[i + j * p.rows] = p.a[i + j * p.lda];
  }
  TransposeProblem from_copy = p;
  from_copy.a = copy.data();
  from_copy.lda = p.rows;
  omatcopy_loop(from_copy);
}

// After a copy back of a read output that failed part way: says so, computes nothing again, and
// records the call as the dispatch of GEMM and Level 3 does (src/dispatch.h).
template <class Call>
void gave_up_copying_back(const char* routine, const Call& p, const char* kernel, cudaError_t err) {
  say_partial_result(routine, err);
  record_call(routine, p, TILEBLAS_ROUTE_GPU, kernel,
              std::string("GPU failed while copying back (") + cudaGetErrorString(err) + ")");
}

// The operands' kinds for the device tileblas uses (-1: none; then any GPU memory is another's).
MemKind kind_of(const void* p, const Device* device) {
  return classify(p, device ? device->index() : -1);
}

// y = alpha * x + y on the CPU BLAS; x and y in GPU memory are copied to the host (y back).
void axpy_on_cpu(const AxpyProblem& p, MemKind kx, MemKind ky, const char* routine) {
  const size_t span = size_t((p.n - 1) * std::llabs(p.incx) + 1) * sizeof(float);
  const size_t y_span = size_t((p.n - 1) * std::llabs(p.incy) + 1) * sizeof(float);
  std::vector<float> x_host, y_host;
  const float* x = p.x;
  float* y = p.y;
  cudaError_t err = cudaSuccess;
  if (in_gpu_memory(kx)) {
    x_host.resize(span / sizeof(float));
    err = cudaMemcpy(x_host.data(), p.x, span, cudaMemcpyDefault);
    x = x_host.data();
  }
  if (in_gpu_memory(ky) && err == cudaSuccess) {
    y_host.resize(y_span / sizeof(float));
    err = cudaMemcpy(y_host.data(), p.y, y_span, cudaMemcpyDefault);
    y = y_host.data();
  }
  if (err == cudaSuccess) {
    cpu_blas::saxpy(p.name_set, p.n, p.alpha, x, p.incx, y, p.incy);
    if (in_gpu_memory(ky)) err = cudaMemcpy(p.y, y_host.data(), y_span, cudaMemcpyDefault);
  }
  if (err != cudaSuccess) say_not_computed(routine, err);
}

// B = alpha * op(A) on the CPU; operands in GPU memory are copied to the host (B's result back).
void transpose_on_cpu(const TransposeProblem& p, bool in_place, MemKind ka, MemKind kb,
                      const char* routine) {
  if (!in_gpu_memory(ka) && !in_gpu_memory(kb)) {
    in_place ? imatcopy_on_cpu(p) : omatcopy_on_cpu(p);
    return;
  }
  TransposeProblem h = p;
  std::vector<float> a_host, b_host;
  cudaError_t err = cudaSuccess;
  if (in_place) {  // one buffer, read with lda and written with ldb: copy what either covers
    const int64_t extent =
        std::max((p.cols - 1) * p.lda + p.rows, (p.b_cols() - 1) * p.ldb + p.b_rows());
    a_host.resize(size_t(extent));
    err = cudaMemcpy(a_host.data(), p.a, a_host.size() * sizeof(float), cudaMemcpyDefault);
    h.a = h.b = a_host.data();
  } else {
    if (in_gpu_memory(ka)) {
      a_host.resize(size_t(p.rows) * size_t(p.cols));
      err = cudaMemcpy2D(a_host.data(), size_t(p.rows) * sizeof(float), p.a,
                         size_t(p.lda) * sizeof(float), size_t(p.rows) * sizeof(float),
                         size_t(p.cols), cudaMemcpyDefault);
      h.a = a_host.data(), h.lda = p.rows;
    }
    if (in_gpu_memory(kb)) {
      b_host.resize(size_t(p.b_rows()) * size_t(p.b_cols()));
      h.b = b_host.data(), h.ldb = p.b_rows();
    }
  }
  if (err == cudaSuccess) {
    in_place ? imatcopy_on_cpu(h) : omatcopy_on_cpu(h);
    if (in_place || in_gpu_memory(kb)) {
      err = cudaMemcpy2D(p.b, size_t(p.ldb) * sizeof(float), h.b, size_t(h.ldb) * sizeof(float),
                         size_t(p.b_rows()) * sizeof(float), size_t(p.b_cols()), cudaMemcpyDefault);
    }
  }
  if (err != cudaSuccess) say_not_computed(routine, err);
}

// Shared by omatcopy and imatcopy: route, run on the GPU, else the CPU.
void transpose_op(const TransposeProblem& p, bool in_place, const char* routine) {
  // Not made current yet: most host calls stay on the CPU.
  Device* device = Device::available();
  const MemKind ka = kind_of(p.a, device), kb = kind_of(p.b, device);
  const bool a_dev = device_accessible(ka), b_dev = device_accessible(kb);
  const bool elsewhere = ka == MemKind::kOtherDevice || kb == MemKind::kOtherDevice;
  const DeviceCaps* caps = device && !elsewhere ? &device->caps() : nullptr;
  const std::string no_dev = !device     ? Device::unavailable_reason()
                             : elsewhere ? std::string("an operand on another GPU")
                                         : std::string();
  // Kernels that support a == b work in place; host data is staged into two device buffers,
  // so it is routed as an out-of-place problem.
  TransposeProblem out_of_place = p;
  out_of_place.b = nullptr;
  const bool aliased_on_device = in_place && a_dev;
  Route<TransposeKernel> route = route_transpose(aliased_on_device || !in_place ? p : out_of_place,
                                                 a_dev, b_dev, config(), caps, no_dev);
  bool copy_a_first = false;
  if (aliased_on_device && route.side == TILEBLAS_ROUTE_CPU && caps) {
    // No kernel works in place on this problem: an out-of-place kernel reads a copy of A.
    route = route_transpose(out_of_place, a_dev, b_dev, config(), caps, no_dev);
    copy_a_first = true;
  }
  std::string reason = route.reason;
  if (route.side == TILEBLAS_ROUTE_GPU) {
    const CurrentDevice current(*device);
    LeftInC left;
    const cudaError_t err = current.ok() ? run_transpose(p, a_dev, b_dev, *route.kernel,
                                                         copy_a_first, device->stream(), &left)
                                         : cudaErrorInvalidDevice;
    if (err == cudaSuccess) {
      record_call(routine, p, TILEBLAS_ROUTE_GPU, route.kernel->name, reason);
      return;
    }
    Device::report_failure(routine, err);
    // In place, B is A: once its copy back has begun, A is no longer there to compute B from.
    if (left.maybe_partial && in_place) {
      gave_up_copying_back(routine, p, route.kernel->name, err);
      return;
    }
    reason = std::string("GPU failed (") + cudaGetErrorString(err) + "), CPU fallback";
  }
  transpose_on_cpu(p, in_place, ka, kb, routine);
  record_call(routine, p, TILEBLAS_ROUTE_CPU,
              in_place ? "cpu_blas simatcopy_" : "cpu_blas somatcopy_", reason);
}

}  // namespace

void axpy(const AxpyProblem& p, const char* routine) {
  Device* device = Device::available();
  const MemKind kx = kind_of(p.x, device), ky = kind_of(p.y, device);
  const bool elsewhere = kx == MemKind::kOtherDevice || ky == MemKind::kOtherDevice;
  const Route<AxpyKernel> route =
      route_axpy(p, device_accessible(kx), device_accessible(ky), config(),
                 device && !elsewhere ? &device->caps() : nullptr,
                 !device     ? Device::unavailable_reason()
                 : elsewhere ? std::string("an operand on another GPU")
                             : std::string());
  std::string reason = route.reason;
  if (route.side == TILEBLAS_ROUTE_GPU) {
    const CurrentDevice current(*device);
    LeftInC left;
    const cudaError_t err = current.ok() ? run_axpy(p, device_accessible(kx), device_accessible(ky),
                                                    *route.kernel, device->stream(), &left)
                                         : cudaErrorInvalidDevice;
    if (err == cudaSuccess) {
      record_call(routine, p, TILEBLAS_ROUTE_GPU, route.kernel->name, reason);
      return;
    }
    Device::report_failure(routine, err);
    // y is read: once its copy back has begun, computing it again may add alpha * x twice.
    if (left.maybe_partial) {
      gave_up_copying_back(routine, p, route.kernel->name, err);
      return;
    }
    reason = std::string("GPU failed (") + cudaGetErrorString(err) + "), CPU fallback";
  }
  axpy_on_cpu(p, kx, ky, routine);
  record_call(routine, p, TILEBLAS_ROUTE_CPU, "cpu_blas saxpy_", reason);
}

void omatcopy(const TransposeProblem& p, const char* routine) { transpose_op(p, false, routine); }

void imatcopy(const TransposeProblem& p, const char* routine) { transpose_op(p, true, routine); }

}  // namespace tileblas
