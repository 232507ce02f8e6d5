// Memory-bound kernels against their yardsticks, on the same device buffers in the same run:
//   transpose/<row>/<n>x<n>          op T rows of transpose_kernels() vs cublasSgeam (op T)
//   transpose/<row>/<n>x<n>/memcpy   the same vs a device-to-device cudaMemcpy of the matrix
//   omatcopy_N/<row>/<n>x<n>         op N rows (scaled copy) vs cudaMemcpy D2D
//   imatcopy_T/<row>/<n>x<n>         the in-place square transpose vs cudaMemcpy D2D
//   axpy/<row>/<n>                   axpy rows (unit strides) vs cublasSaxpy
// Rates are bytes read + written per second (TB/s): 8 bytes per matrix element, 12 per axpy
// element. Every row is named from the kernel tables; the check counter is
// ||ours - yardstick|| / ||yardstick|| on the last outputs (0 for the copies and transposes).
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.h"
#include "device.h"
#include "kernel_table.h"

namespace {

using tileblas::AxpyKernel;
using tileblas::AxpyProblem;
using tileblas::DeviceCaps;
using tileblas::Op;
using tileblas::TransposeKernel;
using tileblas::TransposeProblem;

const DeviceCaps& caps() {
  static const DeviceCaps c = [] {
    DeviceCaps d;
    tbbench::check(tileblas::device_caps_of(0, &d), "device_caps_of");
    return d;
  }();
  return c;
}

int reps_for(double bytes) { return bytes >= 1e9 ? 15 : (bytes >= 1e8 ? 30 : 100); }

enum class Yardstick { kSgeam, kMemcpy };

void bench_transpose(benchmark::State& state, const TransposeKernel* row, Op trans, bool in_place,
                     int64_t n, Yardstick yardstick, const std::string& name) {
  const size_t count = size_t(n) * size_t(n);
  const double bytes = 2.0 * double(count) * sizeof(float);
  const int sets = tbbench::sets_to_defeat_l2(size_t(bytes), 4);
  std::vector<tbbench::DeviceBuffer<float>> a, b;
  for (int s = 0; s < sets; ++s) {
    a.emplace_back(count, 11 + s);
    b.emplace_back(count, 101 + s);
  }
  TransposeProblem p;
  p.trans = trans, p.rows = n, p.cols = n, p.alpha = 1.0f, p.lda = n, p.ldb = n;
  p.a = a[0].get();
  p.b = in_place ? a[0].get() : b[0].get();
  if (!row->supports(p, caps())) {
    state.SkipWithError((std::string(row->name) + " does not support this problem").c_str());
    return;
  }
  auto ours = [&](int s) {
    p.a = a[s].get();
    p.b = in_place ? a[s].get() : b[s].get();
    tbbench::check(row->launch(p, nullptr), row->name);
  };
  const float one = 1.0f, zero = 0.0f;
  auto sgeam = [&](int s) {
    // C = 1 * A^T + 0 * C, in cuBLAS's in-place form (B == C, ldb == ldc, op(B) = N).
    tbbench::check(cublasSgeam(tbbench::cublas(), CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(n), &one,
                               a[s].get(), int(n), &zero, b[s].get(), int(n), b[s].get(), int(n)),
                   "cublasSgeam");
  };
  auto memcpy_d2d = [&](int s) {
    tbbench::check(cudaMemcpyAsync(b[s].get(), a[s].get(), count * sizeof(float),
                                   cudaMemcpyDeviceToDevice, nullptr),
                   "cudaMemcpyAsync");
  };
  const bool geam = yardstick == Yardstick::kSgeam;
  tbbench::compare(state, reps_for(bytes), sets, ours,
                   geam ? std::function<void(int)>(sgeam) : std::function<void(int)>(memcpy_d2d),
                   bytes, 1e12, "TB/s", geam ? "cublasSgeam" : "cudaMemcpy D2D", name);
  if (geam) {  // ours and sgeam on the same input, compared
    tbbench::DeviceBuffer<float> ref_out(count, 7);
    a[0].fill_random(12345, -1.0f, 1.0f);
    ours(0);
    tbbench::check(
        cublasSgeam(tbbench::cublas(), CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(n), &one, a[0].get(),
                    int(n), &zero, ref_out.get(), int(n), ref_out.get(), int(n)),
        "cublasSgeam");
    tbbench::check(cudaDeviceSynchronize(), "check");
    state.counters["check"] = tbbench::relative_difference(b[0], ref_out);
  }
}

void bench_axpy(benchmark::State& state, const AxpyKernel* row, int64_t n,
                const std::string& name) {
  const double bytes = 12.0 * double(n);
  const int sets = tbbench::sets_to_defeat_l2(size_t(bytes), 16);
  std::vector<tbbench::DeviceBuffer<float>> x, y;
  for (int s = 0; s < sets; ++s) {
    x.emplace_back(size_t(n), 21 + s);
    y.emplace_back(size_t(n), 201 + s);
  }
  AxpyProblem p;
  p.n = n, p.alpha = 0.5f, p.incx = 1, p.incy = 1, p.x = x[0].get(), p.y = y[0].get();
  if (!row->supports(p, caps())) {
    state.SkipWithError((std::string(row->name) + " does not support this problem").c_str());
    return;
  }
  auto ours = [&](int s) {
    p.x = x[s].get(), p.y = y[s].get();
    tbbench::check(row->launch(p, nullptr), row->name);
  };
  auto saxpy = [&](int s) {
    tbbench::check(cublasSaxpy(tbbench::cublas(), int(n), &p.alpha, x[s].get(), 1, y[s].get(), 1),
                   "cublasSaxpy");
  };
  tbbench::compare(state, reps_for(bytes), sets, ours, saxpy, bytes, 1e12, "TB/s", "cublasSaxpy",
                   name);
  // ours and cuBLAS from the same y, compared
  tbbench::DeviceBuffer<float> y_ref(size_t(n), 77);
  y[0].fill_random(77, -1.0f, 1.0f);
  ours(0);
  tbbench::check(cublasSaxpy(tbbench::cublas(), int(n), &p.alpha, x[0].get(), 1, y_ref.get(), 1),
                 "cublasSaxpy");
  tbbench::check(cudaDeviceSynchronize(), "check");
  state.counters["check"] = tbbench::relative_difference(y[0], y_ref);
}

void register_all() {
  // 4097 and 8191: leading dimensions not a multiple of 4 (the vec4 row skips them, unsupported).
  const int64_t sizes[] = {4096, 4097, 8191, 8192, 16384};
  for (const TransposeKernel& row : tileblas::transpose_kernels()) {
    const std::string kernel = row.name;
    const bool in_place = kernel.find("inplace") != std::string::npos;
    const bool copy = kernel.rfind("scale_copy", 0) == 0;
    for (int64_t n : sizes) {
      const std::string shape = std::to_string(n) + "x" + std::to_string(n);
      if (copy) {
        const std::string name = "omatcopy_N/" + kernel + "/" + shape;
        benchmark::RegisterBenchmark(name.c_str(), bench_transpose, &row, Op::kNoTrans, false, n,
                                     Yardstick::kMemcpy, name)
            ->UseManualTime()
            ->Iterations(1);
      } else if (in_place) {
        const std::string name = "imatcopy_T/" + kernel + "/" + shape;
        benchmark::RegisterBenchmark(name.c_str(), bench_transpose, &row, Op::kTrans, true, n,
                                     Yardstick::kMemcpy, name)
            ->UseManualTime()
            ->Iterations(1);
      } else {
        for (Yardstick y : {Yardstick::kSgeam, Yardstick::kMemcpy}) {
          const std::string name =
              "transpose/" + kernel + "/" + shape + (y == Yardstick::kMemcpy ? "/memcpy" : "");
          benchmark::RegisterBenchmark(name.c_str(), bench_transpose, &row, Op::kTrans, false, n, y,
                                       name)
              ->UseManualTime()
              ->Iterations(1);
        }
      }
    }
  }
  for (const AxpyKernel& row : tileblas::axpy_kernels()) {
    for (int log2n : {20, 24, 26}) {
      const std::string name = "axpy/" + std::string(row.name) + "/2^" + std::to_string(log2n);
      benchmark::RegisterBenchmark(name.c_str(), bench_axpy, &row, int64_t(1) << log2n, name)
          ->UseManualTime()
          ->Iterations(1);
    }
  }
}

const bool registered = (register_all(), true);

}  // namespace
