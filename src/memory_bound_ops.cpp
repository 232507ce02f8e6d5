// tileblas::axpy, omatcopy, imatcopy: O(n) operations. Host data stays on the CPU BLAS (unless
// TILEBLAS_MODE=gpu); device or managed data runs on our kernels in place.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpu_blas.h"
#include "device.h"
#include "env.h"
#include "executor.h"
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
  if (!cpu_blas::somatcopy('C', trans, int(p.rows), int(p.cols), p.alpha, p.a, int(p.lda), p.b,
                           int(p.ldb))) {
    omatcopy_loop(p);
  }
}

void imatcopy_on_cpu(const TransposeProblem& p) {
  const char trans = p.trans == Op::kNoTrans ? 'N' : 'T';
  // Only the square lda == ldb case goes to the CPU BLAS: OpenBLAS 0.3.21's simatcopy_ (Debian
  // 12) sizes its scratch buffer ldb * max(lda, ldb) and overruns it when cols > max(lda, ldb).
  const bool square_in_place = p.rows == p.cols && p.lda == p.ldb;
  if (square_in_place && cpu_blas::simatcopy('C', trans, int(p.rows), int(p.cols), p.alpha, p.b,
                                             int(p.lda), int(p.ldb))) {
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

void device_memory_error(const char* routine) {
  std::fprintf(stderr,
               "tileblas: error: %s on device memory, but the GPU cannot be used (%s); the output "
               "was not computed\n",
               routine, Device::unavailable_reason().c_str());
}

// Shared by omatcopy and imatcopy: route, run on the GPU, else the CPU.
void transpose_op(const TransposeProblem& p, bool in_place, const char* routine) {
  Device* device = Device::get();
  const MemKind ka = device ? classify(p.a) : MemKind::kHostPageable;
  const MemKind kb = device ? classify(p.b) : MemKind::kHostPageable;
  const bool a_dev = device_accessible(ka), b_dev = device_accessible(kb);
  const DeviceCaps* caps = device ? &device->caps() : nullptr;
  const std::string no_dev = device ? "" : Device::unavailable_reason();
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
    const cudaError_t err =
        run_transpose(p, a_dev, b_dev, *route.kernel, copy_a_first, device->stream());
    if (err == cudaSuccess) {
      record_call(routine, p, TILEBLAS_ROUTE_GPU, route.kernel->name, reason);
      return;
    }
    Device::report_failure(routine, err);
    reason = std::string("GPU failed (") + cudaGetErrorString(err) + "), CPU fallback";
  }
  if (ka == MemKind::kDevice || kb == MemKind::kDevice) {
    device_memory_error(routine);
    return;
  }
  if (in_place) {
    imatcopy_on_cpu(p);
  } else {
    omatcopy_on_cpu(p);
  }
  record_call(routine, p, TILEBLAS_ROUTE_CPU,
              in_place ? "cpu_blas simatcopy_" : "cpu_blas somatcopy_", reason);
}

}  // namespace

void axpy(const AxpyProblem& p, const char* routine) {
  Device* device = Device::get();
  const MemKind kx = device ? classify(p.x) : MemKind::kHostPageable;
  const MemKind ky = device ? classify(p.y) : MemKind::kHostPageable;
  const Route<AxpyKernel> route = route_axpy(p, device_accessible(kx), device_accessible(ky),
                                             config(), device ? &device->caps() : nullptr,
                                             device ? std::string() : Device::unavailable_reason());
  std::string reason = route.reason;
  if (route.side == TILEBLAS_ROUTE_GPU) {
    const cudaError_t err =
        run_axpy(p, device_accessible(kx), device_accessible(ky), *route.kernel, device->stream());
    if (err == cudaSuccess) {
      record_call(routine, p, TILEBLAS_ROUTE_GPU, route.kernel->name, reason);
      return;
    }
    Device::report_failure(routine, err);
    reason = std::string("GPU failed (") + cudaGetErrorString(err) + "), CPU fallback";
  }
  if (kx == MemKind::kDevice || ky == MemKind::kDevice) {
    device_memory_error(routine);
    return;
  }
  cpu_blas::saxpy(int(p.n), p.alpha, p.x, int(p.incx), p.y, int(p.incy));
  record_call(routine, p, TILEBLAS_ROUTE_CPU, "cpu_blas saxpy_", reason);
}

void omatcopy(const TransposeProblem& p, const char* routine) { transpose_op(p, false, routine); }

void imatcopy(const TransposeProblem& p, const char* routine) { transpose_op(p, true, routine); }

}  // namespace tileblas
