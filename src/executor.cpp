#include "executor.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "memory.h"

namespace tileblas {

namespace {

#define TB_TRY(expr)                            \
  do {                                          \
    cudaError_t tb_err_ = (expr);               \
    if (tb_err_ != cudaSuccess) return tb_err_; \
  } while (0)

// A host operand's device copy (packed, ld = rows), or the operand itself when device-accessible.
struct Staged {
  std::unique_ptr<DeviceBuffer> buffer;
  const void* ptr = nullptr;
  int64_t ld = 0;
};

cudaError_t stage_in(const void* host, int64_t ld, int64_t rows, int64_t cols, size_t elem,
                     bool on_device, bool copy, cudaStream_t stream, Staged* out) {
  if (on_device) {
    out->ptr = host;
    out->ld = ld;
    return cudaSuccess;
  }
  // The kernel was chosen on the caller's leading dimensions: keep the copy's columns 16-byte
  // aligned so a row that needs 16-byte-aligned columns stays valid on it.
  const int64_t per_16_bytes = elem < 16 ? int64_t(16 / elem) : 1;
  const int64_t ld_dev =
      (std::max<int64_t>(rows, 1) + per_16_bytes - 1) / per_16_bytes * per_16_bytes;
  out->buffer = std::make_unique<DeviceBuffer>(size_t(ld_dev) * size_t(cols) * elem, stream);
  TB_TRY(out->buffer->status());
  out->ptr = out->buffer->get();
  out->ld = ld_dev;
  if (copy) TB_TRY(copy_matrix(out->buffer->get(), ld_dev, host, ld, rows, cols, elem, stream));
  return cudaSuccess;
}

}  // namespace

cudaError_t copy_matrix(void* dst, int64_t ld_dst, const void* src, int64_t ld_src, int64_t rows,
                        int64_t cols, size_t elem, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  return cudaMemcpy2DAsync(dst, size_t(ld_dst) * elem, src, size_t(ld_src) * elem,
                           size_t(rows) * elem, size_t(cols), cudaMemcpyDefault, stream);
}

cudaError_t run_gemm(const GemmProblem& p, const Placement& where, const GemmKernel& kernel,
                     cudaStream_t stream) {
  const size_t ab = size_of(p.ab_type), ce = size_of(p.c_type);
  Staged a, b, c;
  TB_TRY(stage_in(p.a, p.lda, p.a_rows(), p.a_cols(), ab, device_accessible(where.a), true, stream,
                  &a));
  TB_TRY(stage_in(p.b, p.ldb, p.b_rows(), p.b_cols(), ab, device_accessible(where.b), true, stream,
                  &b));
  TB_TRY(
      stage_in(p.c, p.ldc, p.m, p.n, ce, device_accessible(where.c), p.beta != 0.0f, stream, &c));
  GemmProblem d = p;
  d.a = a.ptr;
  d.lda = a.ld;
  d.b = b.ptr;
  d.ldb = b.ld;
  d.c = const_cast<void*>(c.ptr);
  d.ldc = c.ld;
  TB_TRY(kernel.launch(d, stream));
  if (c.buffer) TB_TRY(copy_matrix(p.c, p.ldc, c.ptr, c.ld, p.m, p.n, ce, stream));
  return cudaStreamSynchronize(stream);
}

cudaError_t run_axpy(const AxpyProblem& p, bool x_on_device, bool y_on_device,
                     const AxpyKernel& kernel, cudaStream_t stream) {
  // A strided vector spans (n - 1) * |inc| + 1 elements from its first stored element.
  auto span = [&](int64_t inc) { return (p.n - 1) * std::llabs(inc) + 1; };
  Staged x, y;
  TB_TRY(
      stage_in(p.x, span(p.incx), span(p.incx), 1, sizeof(float), x_on_device, true, stream, &x));
  TB_TRY(
      stage_in(p.y, span(p.incy), span(p.incy), 1, sizeof(float), y_on_device, true, stream, &y));
  AxpyProblem d = p;
  d.x = static_cast<const float*>(x.ptr);
  d.y = static_cast<float*>(const_cast<void*>(y.ptr));
  TB_TRY(kernel.launch(d, stream));
  if (y.buffer) {
    TB_TRY(cudaMemcpyAsync(p.y, y.ptr, size_t(span(p.incy)) * sizeof(float), cudaMemcpyDefault,
                           stream));
  }
  return cudaStreamSynchronize(stream);
}

cudaError_t run_transpose(const TransposeProblem& p, bool a_on_device, bool b_on_device,
                          const TransposeKernel& kernel, bool copy_a_first, cudaStream_t stream) {
  const int64_t b_rows = p.b_rows(), b_cols = p.b_cols();
  Staged a, b;
  TB_TRY(stage_in(p.a, p.lda, p.rows, p.cols, sizeof(float), a_on_device && !copy_a_first, true,
                  stream, &a));
  TB_TRY(stage_in(p.b, p.ldb, b_rows, b_cols, sizeof(float), b_on_device, false, stream, &b));
  TransposeProblem d = p;
  d.a = static_cast<const float*>(a.ptr);
  d.lda = a.ld;
  d.b = static_cast<float*>(const_cast<void*>(b.ptr));
  d.ldb = b.ld;
  TB_TRY(kernel.launch(d, stream));
  if (b.buffer) TB_TRY(copy_matrix(p.b, p.ldb, b.ptr, b.ld, b_rows, b_cols, sizeof(float), stream));
  return cudaStreamSynchronize(stream);
}

}  // namespace tileblas
