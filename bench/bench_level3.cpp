// The Level-3 plans on device data (run_level3_on_device: the plan's GEMMs and block kernels, and
// the wait) against cuBLAS's routine (default math mode) + stream synchronize, on the same buffers
// in the same run: "<t><routine>/<plan>/<n>x<n>/<side uplo trans diag>", e.g.
// "strsm/plan/4096x4096/LLNN". Rows for every type whose plans the device supports (the types with
// a GEMM kernel), at 1024, 4096, 8192: trsm, trmm (side L, lower, N, non-unit), syrk, syr2k,
// herk, her2k (lower, N, k = n), symm, hemm (side L, lower); "plan_tri<r>" rows run syrk and
// syr2k with diagonal blocks of order r on their triangles (Level3BlockSizes::rank_triangle_leaf;
// the plans' own: all of C as one), and "plan_gemmleaf<l>" rows trmm and trsm with GEMM leaves of
// order l other than their own (Level3BlockSizes::trmm_leaf, trsm_leaf: 256 to 8192, up to the
// order, as far as the device has a plan: trsm's to tri_invert's largest order; for s and d also 0:
// tri_block leaves only);
// "plan_panels<p>" rows trmm and trsm with B in p panels (Level3BlockSizes::tri_panels). Each timed
// call starts from the same operands: B of trsm/trmm is restored (untimed, before the call's first
// event) since they work in place; syrk..hemm use beta = 0.5 on their own C. Triangles are well
// conditioned (|diagonal| in [1, 2], off-diagonal entries / n). Counter rel_diff: ||ours - cuBLAS||
// / ||cuBLAS|| over the output after one call of each. Flops (real; complex counts 4x): trsm, trmm
// m^2 n; syrk, herk n^2 k; syr2k, her2k 2 n^2 k; symm, hemm 2 m^2 n.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cctype>
#include <cmath>
#include <complex>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.h"
#include "device.h"
#include "level3_plan.h"
#include "plans.h"
#include "problem.h"

namespace {

using tileblas::DataType;
using tileblas::Operation;
using tileblas::Problem;

char type_letter(DataType t) {
  switch (t) {
    case DataType::kF32:
      return 's';
    case DataType::kF64:
      return 'd';
    case DataType::kC32:
      return 'c';
    default:
      return 'z';
  }
}

bool is_rank(Operation op) {
  return op == Operation::kSyrk || op == Operation::kHerk || op == Operation::kSyr2k ||
         op == Operation::kHer2k;
}
bool is_tri(Operation op) { return op == Operation::kTrmm || op == Operation::kTrsm; }

double flops_of(Operation op, DataType t, double n) {
  const double f = tileblas::is_complex(t) ? 4.0 : 1.0;
  switch (op) {
    case Operation::kTrsm:
    case Operation::kTrmm:
    case Operation::kSyrk:
    case Operation::kHerk:
      return f * n * n * n;
    default:
      return 2 * f * n * n * n;
  }
}

// n x n device matrix of `type`, random parts in [-1, 1).
struct Matrix {
  void* p = nullptr;
  size_t bytes = 0;
  Matrix(DataType type, int64_t n, uint64_t seed) : bytes(size_t(n) * n * tileblas::size_of(type)) {
    tbbench::check(cudaMalloc(&p, bytes), "cudaMalloc");
    const bool f32 = type == DataType::kF32 || type == DataType::kC32;
    const size_t parts = bytes / (f32 ? 4 : 8);
    std::vector<unsigned char> host(bytes);
    uint64_t state = seed;
    for (size_t i = 0; i < parts; ++i) {
      const double v = double(tbbench::splitmix64(state) >> 11) * 0x1.0p-52 - 1.0;
      if (f32) {
        const float x = float(v);
        std::memcpy(host.data() + 4 * i, &x, 4);
      } else {
        std::memcpy(host.data() + 8 * i, &v, 8);
      }
    }
    tbbench::check(cudaMemcpy(p, host.data(), bytes, cudaMemcpyHostToDevice), "fill");
  }
  ~Matrix() { cudaFree(p); }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
};

// A well-conditioned lower triangle in A: diagonal 1 + |a_jj|, the rest of the triangle a_ij / n
// (the upper triangle stays random: the routines must not read it).
void condition_lower(DataType type, Matrix& a, int64_t n) {
  const size_t elem = tileblas::size_of(type);
  const bool f32 = type == DataType::kF32 || type == DataType::kC32;
  std::vector<unsigned char> host(a.bytes);
  tbbench::check(cudaMemcpy(host.data(), a.p, a.bytes, cudaMemcpyDeviceToHost), "read A");
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = j; i < n; ++i) {
      unsigned char* e = host.data() + size_t(i + j * n) * elem;
      auto scale = [&](int part, bool diagonal) {
        double v;
        if (f32) {
          float x;
          std::memcpy(&x, e + 4 * part, 4);
          v = x;
        } else {
          std::memcpy(&v, e + 8 * part, 8);
        }
        v = diagonal ? (part == 0 ? 1.0 + std::fabs(v) : 0.0) : v / double(n);
        if (f32) {
          const float x = float(v);
          std::memcpy(e + 4 * part, &x, 4);
        } else {
          std::memcpy(e + 8 * part, &v, 8);
        }
      };
      for (int part = 0; part < (tileblas::is_complex(type) ? 2 : 1); ++part) scale(part, i == j);
    }
  }
  tbbench::check(cudaMemcpy(a.p, host.data(), a.bytes, cudaMemcpyHostToDevice), "write A");
}

double relative_difference(DataType type, const Matrix& x, const Matrix& y) {
  std::vector<unsigned char> a(x.bytes), b(y.bytes);
  tbbench::check(cudaMemcpy(a.data(), x.p, x.bytes, cudaMemcpyDeviceToHost), "copy back");
  tbbench::check(cudaMemcpy(b.data(), y.p, y.bytes, cudaMemcpyDeviceToHost), "copy back");
  const bool f32 = type == DataType::kF32 || type == DataType::kC32;
  double num = 0, den = 0;
  for (size_t i = 0; i < x.bytes / (f32 ? 4 : 8); ++i) {
    double u, v;
    if (f32) {
      float s, t;
      std::memcpy(&s, a.data() + 4 * i, 4), std::memcpy(&t, b.data() + 4 * i, 4);
      u = s, v = t;
    } else {
      std::memcpy(&u, a.data() + 8 * i, 8), std::memcpy(&v, b.data() + 8 * i, 8);
    }
    num += (u - v) * (u - v);
    den += v * v;
  }
  return den > 0 ? std::sqrt(num / den) : INFINITY;
}

// cuBLAS's routine for p (column-major, on device pointers), per type.
template <class T>
struct Cublas;

// A scalar's (re, im) pair as cuBLAS's complex type.
template <class T, class R>
const T* complex_at(const R (&pair)[2]) {
  static_assert(sizeof(T) == sizeof(pair), "cuComplex is (re, im)");
  return reinterpret_cast<const T*>(pair);
}

cublasSideMode_t side_of(const Problem& p) {
  return p.side == tileblas::Side::kLeft ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
}
cublasFillMode_t fill_of(const Problem& p) {
  return p.uplo == tileblas::Uplo::kLower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}
cublasOperation_t op_of(tileblas::Op op) {
  return op == tileblas::Op::kNoTrans ? CUBLAS_OP_N
         : op == tileblas::Op::kTrans ? CUBLAS_OP_T
                                      : CUBLAS_OP_C;
}
cublasDiagType_t diag_of(const Problem& p) {
  return p.diag == tileblas::Diag::kUnit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
}

// Scalars in the routine's types: element-typed (alpha, beta) and real (herk's, her2k's beta).
struct Scalars {
  float sa[2], sb[2], sra, srb;
  double da[2], db[2], dra, drb;
  explicit Scalars(const Problem& p)
      : sa{float(p.alpha.re), float(p.alpha.im)},
        sb{float(p.beta.re), float(p.beta.im)},
        sra(float(p.alpha.re)),
        srb(float(p.beta.re)),
        da{p.alpha.re, p.alpha.im},
        db{p.beta.re, p.beta.im},
        dra(p.alpha.re),
        drb(p.beta.re) {}
};

cublasStatus_t cublas_call(cublasHandle_t h, const Problem& p) {
  const Scalars s(p);
  const int m = int(p.m), n = int(p.n), k = int(p.k), lda = int(p.lda), ldb = int(p.ldb),
            ldc = int(p.ldc);
  const cublasSideMode_t side = side_of(p);
  const cublasFillMode_t fill = fill_of(p);
  const cublasOperation_t op = op_of(p.trans_a);
  const cublasDiagType_t diag = diag_of(p);
  switch (p.type) {
    case DataType::kF32: {
      using T = float;
      const T* a = static_cast<const T*>(p.a);
      const T* b = static_cast<const T*>(p.b);
      T* c = static_cast<T*>(p.c);
      switch (p.op) {
        case Operation::kTrsm:
          return cublasStrsm(h, side, fill, op, diag, m, n, s.sa, a, lda, c, ldc);
        case Operation::kTrmm:
          return cublasStrmm(h, side, fill, op, diag, m, n, s.sa, a, lda, c, ldc, c, ldc);
        case Operation::kSyrk:
          return cublasSsyrk(h, fill, op, n, k, s.sa, a, lda, s.sb, c, ldc);
        case Operation::kSyr2k:
          return cublasSsyr2k(h, fill, op, n, k, s.sa, a, lda, b, ldb, s.sb, c, ldc);
        case Operation::kSymm:
          return cublasSsymm(h, side, fill, m, n, s.sa, a, lda, b, ldb, s.sb, c, ldc);
        default:
          return CUBLAS_STATUS_NOT_SUPPORTED;
      }
    }
    case DataType::kF64: {
      using T = double;
      const T* a = static_cast<const T*>(p.a);
      const T* b = static_cast<const T*>(p.b);
      T* c = static_cast<T*>(p.c);
      switch (p.op) {
        case Operation::kTrsm:
          return cublasDtrsm(h, side, fill, op, diag, m, n, s.da, a, lda, c, ldc);
        case Operation::kTrmm:
          return cublasDtrmm(h, side, fill, op, diag, m, n, s.da, a, lda, c, ldc, c, ldc);
        case Operation::kSyrk:
          return cublasDsyrk(h, fill, op, n, k, s.da, a, lda, s.db, c, ldc);
        case Operation::kSyr2k:
          return cublasDsyr2k(h, fill, op, n, k, s.da, a, lda, b, ldb, s.db, c, ldc);
        case Operation::kSymm:
          return cublasDsymm(h, side, fill, m, n, s.da, a, lda, b, ldb, s.db, c, ldc);
        default:
          return CUBLAS_STATUS_NOT_SUPPORTED;
      }
    }
    case DataType::kC32: {
      using T = cuComplex;
      const T* a = static_cast<const T*>(p.a);
      const T* b = static_cast<const T*>(p.b);
      T* c = static_cast<T*>(p.c);
      const T* alpha = complex_at<T>(s.sa);
      const T* beta = complex_at<T>(s.sb);
      switch (p.op) {
        case Operation::kTrsm:
          return cublasCtrsm(h, side, fill, op, diag, m, n, alpha, a, lda, c, ldc);
        case Operation::kTrmm:
          return cublasCtrmm(h, side, fill, op, diag, m, n, alpha, a, lda, c, ldc, c, ldc);
        case Operation::kSyrk:
          return cublasCsyrk(h, fill, op, n, k, alpha, a, lda, beta, c, ldc);
        case Operation::kHerk:
          return cublasCherk(h, fill, op, n, k, &s.sra, a, lda, &s.srb, c, ldc);
        case Operation::kSyr2k:
          return cublasCsyr2k(h, fill, op, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        case Operation::kHer2k:
          return cublasCher2k(h, fill, op, n, k, alpha, a, lda, b, ldb, &s.srb, c, ldc);
        case Operation::kSymm:
          return cublasCsymm(h, side, fill, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
        case Operation::kHemm:
          return cublasChemm(h, side, fill, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
      }
      return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    case DataType::kC64: {
      using T = cuDoubleComplex;
      const T* a = static_cast<const T*>(p.a);
      const T* b = static_cast<const T*>(p.b);
      T* c = static_cast<T*>(p.c);
      const T* alpha = complex_at<T>(s.da);
      const T* beta = complex_at<T>(s.db);
      switch (p.op) {
        case Operation::kTrsm:
          return cublasZtrsm(h, side, fill, op, diag, m, n, alpha, a, lda, c, ldc);
        case Operation::kTrmm:
          return cublasZtrmm(h, side, fill, op, diag, m, n, alpha, a, lda, c, ldc, c, ldc);
        case Operation::kSyrk:
          return cublasZsyrk(h, fill, op, n, k, alpha, a, lda, beta, c, ldc);
        case Operation::kHerk:
          return cublasZherk(h, fill, op, n, k, &s.dra, a, lda, &s.drb, c, ldc);
        case Operation::kSyr2k:
          return cublasZsyr2k(h, fill, op, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        case Operation::kHer2k:
          return cublasZher2k(h, fill, op, n, k, alpha, a, lda, b, ldb, &s.drb, c, ldc);
        case Operation::kSymm:
          return cublasZsymm(h, side, fill, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
        case Operation::kHemm:
          return cublasZhemm(h, side, fill, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
      }
      return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    default:
      return CUBLAS_STATUS_NOT_SUPPORTED;
  }
}

// Median milliseconds of `call` over `reps` timed calls after one untimed one; `reset` runs before
// each call, outside its events.
template <class Reset, class Call>
double median_ms(int reps, Reset&& reset, Call&& call) {
  reset();
  call();
  cudaEvent_t start, stop;
  tbbench::check(cudaEventCreate(&start), "cudaEventCreate");
  tbbench::check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    reset();
    tbbench::check(cudaEventRecord(start, nullptr), "cudaEventRecord");
    call();
    tbbench::check(cudaEventRecord(stop, nullptr), "cudaEventRecord");
    tbbench::check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    tbbench::check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return tbbench::median(std::move(ms));
}

struct Row {
  Operation op;
  DataType type;
  int64_t n;
  int64_t triangle_leaf;   // 0: the plans' own block sizes
  int64_t gemm_leaf = -1;  // trmm/trsm_leaf; -1: the plans' own; 0: tri_block leaves only
  int64_t panels = 0;      // tri_panels; 0: the plans' own
};

// The row's block sizes: the plans' own but where the row names others.
tileblas::Level3BlockSizes sizes_of(const Row& r) {
  tileblas::Level3BlockSizes sizes = tileblas::level3_block_sizes(r.type);
  if (r.triangle_leaf > 0) sizes.rank_triangle_leaf = r.triangle_leaf;
  if (r.gemm_leaf >= 0) sizes.trmm_leaf = sizes.trsm_leaf = r.gemm_leaf;
  if (r.panels > 0) sizes.tri_panels = r.panels;
  return sizes;
}

Problem problem_of(const Row& r) {
  Problem p;
  p.op = r.op, p.type = r.type;
  p.side = tileblas::Side::kLeft, p.uplo = tileblas::Uplo::kLower;
  p.trans_a = tileblas::Op::kNoTrans, p.diag = tileblas::Diag::kNonUnit;
  p.m = p.n = p.k = r.n;
  p.alpha = tileblas::is_complex(r.type) && r.op != Operation::kHerk ? tileblas::Scalar(0.8, 0.3)
                                                                     : tileblas::Scalar(0.8);
  p.beta = tileblas::is_complex(r.type) && r.op != Operation::kHerk && r.op != Operation::kHer2k
               ? tileblas::Scalar(0.5, -0.2)
               : tileblas::Scalar(0.5);
  p.lda = p.ldb = p.ldc = r.n;
  return p;
}

void bench_row(benchmark::State& state, Row r, const std::string& name) {
  tileblas::DeviceCaps caps;
  tbbench::check(tileblas::device_caps_of(0, &caps), "device_caps_of");
  Problem p = problem_of(r);
  Matrix a(r.type, r.n, 1), b(r.type, r.n, 2), ours(r.type, r.n, 3), ref(r.type, r.n, 3);
  Matrix pristine(r.type, r.n, 3);  // the starting C (B of trsm/trmm) of every call
  if (is_tri(r.op)) condition_lower(r.type, a, r.n);
  p.a = a.p, p.b = b.p;
  p.c = ours.p;
  const tileblas::Level3BlockSizes sizes = sizes_of(r);
  if (!tileblas::level3_on_device_supports_with(p, caps, sizes)) {
    state.SkipWithError("the device has no plan for this problem");
    return;
  }
  auto reset = [&](Matrix& out) {
    return [&] {
      tbbench::check(
          cudaMemcpyAsync(out.p, pristine.p, out.bytes, cudaMemcpyDeviceToDevice, nullptr),
          "reset");
    };
  };
  auto run_ours = [&] {
    Problem q = p;
    q.c = ours.p;
    tbbench::check(tileblas::run_level3_on_device_with(q, caps, nullptr, sizes), "plan");
  };
  cublasHandle_t h = tbbench::cublas(tbbench::CublasMath::kDefault);
  auto run_ref = [&] {
    Problem q = p;
    q.c = ref.p;
    tbbench::check(cublas_call(h, q), "cuBLAS");
    tbbench::check(cudaStreamSynchronize(nullptr), "cuBLAS");
  };
  // Reps so each side's timed loop takes about 0.2 s, from one call of each.
  const double probe =
      std::max(median_ms(1, reset(ours), run_ours), median_ms(1, reset(ref), run_ref));
  const int reps = std::max(3, std::min(50, int(200.0 / std::max(probe, 1e-3))));
  double ours_ms = 0, ref_ms = 0;
  for (auto _ : state) {
    ours_ms = median_ms(reps, reset(ours), run_ours);
    ref_ms = median_ms(reps, reset(ref), run_ref);
    state.SetIterationTime(ours_ms * 1e-3);
  }
  const double flops = flops_of(r.op, r.type, double(r.n));
  const std::string yardstick = std::string("cublas") + char(std::toupper(type_letter(r.type))) +
                                tileblas::name_of(r.op) + "+sync";
  tbbench::report(state, flops / (ours_ms * 1e-3) / 1e12, flops / (ref_ms * 1e-3) / 1e12, "TFLOP/s",
                  yardstick.c_str(), name);
  reset(ours)(), reset(ref)();
  run_ours(), run_ref();
  state.counters["rel_diff"] = relative_difference(r.type, ours, ref);
}

bool register_level3_benches() {
  // Registration-time filter on a nominal Hopper with aligned pointers (no CUDA call at static
  // initialisation); the body checks supports() again on the real device and buffers.
  tileblas::DeviceCaps hopper;
  hopper.sm_version = 90, hopper.num_sms = 132, hopper.smem_per_block_optin = 227 * 1024;
  const DataType types[] = {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64};
  std::vector<Row> rows;
  for (DataType t : types) {
    std::vector<Operation> ops = {Operation::kTrsm, Operation::kTrmm, Operation::kSyrk,
                                  Operation::kSyr2k, Operation::kSymm};
    if (tileblas::is_complex(t)) {
      ops.push_back(Operation::kHerk), ops.push_back(Operation::kHer2k),
          ops.push_back(Operation::kHemm);
    }
    for (Operation op : ops) {
      for (int64_t n : {1024, 4096, 8192}) rows.push_back({op, t, n, 0});
      if (op == Operation::kSyrk || op == Operation::kSyr2k) {
        for (int64_t n : {4096, 8192}) rows.push_back({op, t, n, 1024});
      }
      if (is_tri(op)) {  // tri_block leaves only (s, d), and the GEMM leaves the plans do not use
        const tileblas::Level3BlockSizes own = tileblas::level3_block_sizes(t);
        const int64_t own_leaf = op == Operation::kTrmm ? own.trmm_leaf : own.trsm_leaf;
        for (int64_t leaf : {0, 256, 512, 1024, 2048, 4096, 8192}) {
          if (leaf == own_leaf || (leaf == 0 && tileblas::is_complex(t))) continue;
          for (int64_t n : {1024, 4096, 8192}) {
            if (leaf <= n) rows.push_back({op, t, n, 0, leaf});  // larger: the order as one leaf
          }
        }
      }
      if (is_tri(op)) {  // the other choice of panels than the type's own
        const int64_t panels = tileblas::level3_block_sizes(t).tri_panels == 1 ? 4 : 1;
        for (int64_t n : {1024, 4096, 8192}) rows.push_back({op, t, n, 0, -1, panels});
      }
    }
  }
  for (const Row& r : rows) {
    Problem p = problem_of(r);
    p.a = p.b = p.c = reinterpret_cast<void*>(uintptr_t(1) << 20);
    if (!tileblas::level3_on_device_supports_with(p, hopper, sizes_of(r))) continue;
    const std::string plan = r.triangle_leaf > 0 ? "plan_tri" + std::to_string(r.triangle_leaf)
                             : r.gemm_leaf >= 0  ? "plan_gemmleaf" + std::to_string(r.gemm_leaf)
                             : r.panels > 0      ? "plan_panels" + std::to_string(r.panels)
                                                 : "plan";
    const std::string params = is_rank(r.op) ? "LN" : is_tri(r.op) ? "LLNN" : "LL";
    const std::string name = std::string(1, type_letter(r.type)) + tileblas::name_of(r.op) + "/" +
                             plan + "/" + std::to_string(r.n) + "x" + std::to_string(r.n) + "/" +
                             params;
    benchmark::RegisterBenchmark(name.c_str(), bench_row, r, name)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = register_level3_benches();

}  // namespace
