// Double and complex GEMM rows (dgemm_*, zgemm_*, cgemm_*) against cublasDgemm / cublasZgemm /
// cublasCgemm in the default math mode (which runs fp64 on the FP64 tensor cores; complex fp32
// stays fp32), same device buffers, same run. One benchmark per row and shape:
// "<d|z|c>gemm/<row>/<m>x<n>x<k>/<transposes>" at squares 1024..8192, 4097^3, TN/NT at 4096, CC
// for complex, and two skinny shapes (register_benches says which rows run where); complex fp32
// also at the narrow shapes of the trsm/trmm plans' GEMMs (kNarrowC32Shapes).
// Inputs random in [-1, 1); alpha = 1, beta = 0; FLOPs counted as Problem::flops() (8 per
// complex multiply-add). rel_diff = ||C_ours - C_cublas|| / ||C_cublas||.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.h"
#include "kernel_table.h"

namespace {

using tileblas::DataType;
using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;

struct Shape {
  int64_t m, n, k;
  Op ta, tb;
};

const Shape kShapes[] = {
    {1024, 1024, 1024, Op::kNoTrans, Op::kNoTrans},
    {2048, 2048, 2048, Op::kNoTrans, Op::kNoTrans},
    {4096, 4096, 4096, Op::kNoTrans, Op::kNoTrans},
    {4096, 4096, 4096, Op::kTrans, Op::kNoTrans},
    {4096, 4096, 4096, Op::kNoTrans, Op::kTrans},
    {4096, 4096, 4096, Op::kConjTrans, Op::kConjTrans},
    {4097, 4097, 4097, Op::kNoTrans, Op::kNoTrans},
    {8192, 8192, 8192, Op::kNoTrans, Op::kNoTrans},
    {8192, 8192, 256, Op::kNoTrans, Op::kNoTrans},
    {8192, 128, 8192, Op::kNoTrans, Op::kNoTrans},
};

// Complex fp32 only: the GEMMs of ctrsm / ctrmm's plans at 4096 and 8192 below the widened rows'
// m, n >= 1000 (side L: m = 256 or 512 rows of B by all n columns, k = m; docs/NOTES-level3.md),
// their side-R mirrors (n narrow), the same with A or B transposed, and one coupling GEMM already
// widened (1024 rows).
const Shape kNarrowC32Shapes[] = {
    {256, 4096, 256, Op::kNoTrans, Op::kNoTrans},   {512, 4096, 512, Op::kNoTrans, Op::kNoTrans},
    {256, 8192, 256, Op::kNoTrans, Op::kNoTrans},   {512, 8192, 512, Op::kNoTrans, Op::kNoTrans},
    {1024, 4096, 1024, Op::kNoTrans, Op::kNoTrans}, {4096, 256, 256, Op::kNoTrans, Op::kNoTrans},
    {4096, 512, 512, Op::kNoTrans, Op::kNoTrans},   {8192, 256, 256, Op::kNoTrans, Op::kNoTrans},
    {8192, 512, 512, Op::kNoTrans, Op::kNoTrans},   {256, 4096, 256, Op::kTrans, Op::kNoTrans},
    {256, 4096, 256, Op::kNoTrans, Op::kTrans},     {4096, 256, 256, Op::kNoTrans, Op::kTrans},
    {4096, 256, 256, Op::kTrans, Op::kNoTrans},     {512, 4096, 512, Op::kNoTrans, Op::kTrans},
};

const char* op_name(DataType t) {
  return t == DataType::kF64 ? "dgemm" : t == DataType::kC64 ? "zgemm" : "cgemm";
}
DataType type_of(const GemmKernel& k) {
  if (std::strncmp(k.name, "dgemm_", 6) == 0) return DataType::kF64;
  if (std::strncmp(k.name, "zgemm_", 6) == 0) return DataType::kC64;
  return DataType::kC32;
}

Problem problem_of(DataType t, const Shape& s) {
  Problem p;
  p.trans_a = s.ta, p.trans_b = s.tb;
  p.m = s.m, p.n = s.n, p.k = s.k;
  p.alpha = 1.0, p.beta = 0.0;
  p.type = p.c_type = t;
  p.lda = p.a_rows(), p.ldb = p.b_rows(), p.ldc = p.m;
  return p;
}

std::string shape_name(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + "/" +
         tileblas::name_of(s.ta) + tileblas::name_of(s.tb);
}

cublasOperation_t cublas_op(Op op) {
  return op == Op::kNoTrans ? CUBLAS_OP_N : op == Op::kTrans ? CUBLAS_OP_T : CUBLAS_OP_C;
}

// Buffers of one type and shape (real elements: complex data is interleaved), kept while
// consecutive benchmarks use them (they are registered type by type, shape by shape).
template <class Real>
struct Buffers {
  DataType type;
  Shape shape;
  int sets = 1;
  std::vector<tbbench::DeviceBuffer<Real>> a, b, c_ours, c_ref;
};

template <class Real>
Buffers<Real>& buffers_for(DataType t, const Shape& s) {
  static std::unique_ptr<Buffers<Real>> cached;
  if (cached && cached->type == t && std::memcmp(&cached->shape, &s, sizeof s) == 0) return *cached;
  cached.reset();  // free the previous shape's buffers first
  auto bufs = std::make_unique<Buffers<Real>>();
  bufs->type = t, bufs->shape = s;
  const size_t comps = tileblas::is_complex(t) ? 2 : 1;
  const Problem p = problem_of(t, s);
  const size_t na = size_t(p.lda * p.a_cols()) * comps, nb = size_t(p.ldb * p.b_cols()) * comps,
               nc = size_t(p.ldc * p.n) * comps;
  bufs->sets = tbbench::sets_to_defeat_l2((na + nb + nc) * sizeof(Real), 8);
  for (int i = 0; i < bufs->sets; ++i) {
    bufs->a.emplace_back(na, 1000 + i);
    bufs->b.emplace_back(nb, 2000 + i);
    bufs->c_ours.emplace_back(nc, 3000 + i);
    bufs->c_ref.emplace_back(nc, 4000 + i);
  }
  cached = std::move(bufs);
  return *cached;
}

template <class Real>
void bench_typed(benchmark::State& state, const GemmKernel& row, const Shape& s,
                 const std::string& name) {
  const DataType t = type_of(row);
  Buffers<Real>& bufs = buffers_for<Real>(t, s);
  const Problem p = problem_of(t, s);
  tileblas::DeviceCaps caps;
  {
    const cudaDeviceProp& prop = tbbench::device_prop();
    caps.sm_version = prop.major * 10 + prop.minor;
    caps.num_sms = prop.multiProcessorCount;
    caps.smem_per_block_optin = prop.sharedMemPerBlockOptin;
    caps.l2_bytes = size_t(prop.l2CacheSize);
  }
  Problem probe = p;
  probe.a = bufs.a[0].get(), probe.b = bufs.b[0].get(), probe.c = bufs.c_ours[0].get();
  if (!row.supports(probe, caps)) {
    state.SkipWithError("row does not support this problem on this device");
    return;
  }
  auto ours = [&](int set) {
    Problem q = p;
    q.a = bufs.a[set].get(), q.b = bufs.b[set].get(), q.c = bufs.c_ours[set].get();
    tbbench::check(row.launch(q, nullptr), row.name);
  };
  cublasHandle_t h = tbbench::cublas(tbbench::CublasMath::kDefault);
  const int m = int(p.m), n = int(p.n), k = int(p.k);
  const int lda = int(p.lda), ldb = int(p.ldb), ldc = int(p.ldc);
  const cublasOperation_t ta = cublas_op(s.ta), tb = cublas_op(s.tb);
  auto ref = [&](int set) {
    const Real* a = bufs.a[set].get();
    const Real* b = bufs.b[set].get();
    Real* c = bufs.c_ref[set].get();
    if constexpr (sizeof(Real) == 8) {
      if (t == DataType::kF64) {
        const double one = 1.0, zero = 0.0;
        tbbench::check(cublasDgemm(h, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc),
                       "cublasDgemm");
      } else {
        const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0};
        tbbench::check(
            cublasZgemm(h, ta, tb, m, n, k, &one, reinterpret_cast<const cuDoubleComplex*>(a), lda,
                        reinterpret_cast<const cuDoubleComplex*>(b), ldb, &zero,
                        reinterpret_cast<cuDoubleComplex*>(c), ldc),
            "cublasZgemm");
      }
    } else {
      const cuComplex one = {1.0f, 0.0f}, zero = {0.0f, 0.0f};
      tbbench::check(cublasCgemm(h, ta, tb, m, n, k, &one, reinterpret_cast<const cuComplex*>(a),
                                 lda, reinterpret_cast<const cuComplex*>(b), ldb, &zero,
                                 reinterpret_cast<cuComplex*>(c), ldc),
                     "cublasCgemm");
    }
  };
  const double flops = p.flops();
  const int reps = flops > 4e12 ? 8 : flops > 5e11 ? 15 : 40;
  const char* yardstick = t == DataType::kF64   ? "cublasDgemm"
                          : t == DataType::kC64 ? "cublasZgemm"
                                                : "cublasCgemm";
  tbbench::compare(state, reps, bufs.sets, ours, ref, flops, 1e12, "TFLOP/s", yardstick, name);
  state.counters["rel_diff"] = tbbench::relative_difference(bufs.c_ours[0], bufs.c_ref[0]);
}

void bench_row(benchmark::State& state, const GemmKernel* row, Shape s, std::string name) {
  if (type_of(*row) == DataType::kC32) {
    bench_typed<float>(state, *row, s, name);
  } else {
    bench_typed<double>(state, *row, s, name);
  }
}

// Whether `row` supports shape s (nominal Hopper, 256-byte aligned pointers; the body checks
// supports() again on the real device and buffers).
bool row_supports(const GemmKernel& row, DataType t, const Shape& s) {
  tileblas::DeviceCaps hopper;
  hopper.sm_version = 90, hopper.num_sms = 132, hopper.smem_per_block_optin = 227 * 1024;
  Problem p = problem_of(t, s);
  p.a = p.b = p.c = reinterpret_cast<void*>(uintptr_t(256));
  return row.supports(p, hopper);
}

// Per type and shape: the first vector row that supports it and the packed and widened rows at
// every shape;
// the other vector rows at the NN squares and the skinny shapes; the scalar-load rows at 4096^3 NN
// and wherever no vector row supports the shape (4097^3: odd leading dimensions).
bool register_benches() {
  std::vector<Shape> c32_shapes(std::begin(kShapes), std::end(kShapes));
  c32_shapes.insert(c32_shapes.end(), std::begin(kNarrowC32Shapes), std::end(kNarrowC32Shapes));
  for (DataType t : {DataType::kF64, DataType::kC64, DataType::kC32}) {
    const std::vector<Shape> shapes =
        t == DataType::kC32 ? c32_shapes
                            : std::vector<Shape>(std::begin(kShapes), std::end(kShapes));
    for (const Shape& s : shapes) {
      if (!tileblas::is_complex(t) && (s.ta == Op::kConjTrans || s.tb == Op::kConjTrans)) continue;
      const bool nn = s.ta == Op::kNoTrans && s.tb == Op::kNoTrans;
      const bool square = s.m == s.n && s.n == s.k;
      bool vector_seen = false;
      for (const GemmKernel& row : tileblas::gemm_kernels()) {
        if (std::strncmp(row.name, op_name(t), 5) != 0 || row.name[5] != '_') continue;
        if (std::strstr(row.name, "scalarload") != nullptr || !row_supports(row, t, s)) continue;
        const bool first = !vector_seen;
        vector_seen = true;
        const bool every_shape = std::strstr(row.name, "packed") != nullptr ||
                                 std::strstr(row.name, "widened") != nullptr;
        if (!first && !nn && !every_shape) continue;
        const std::string name = std::string(op_name(t)) + "/" + row.name + "/" + shape_name(s);
        benchmark::RegisterBenchmark(name.c_str(), bench_row, &row, s, name)
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
      for (const GemmKernel& row : tileblas::gemm_kernels()) {
        if (std::strncmp(row.name, op_name(t), 5) != 0 || row.name[5] != '_') continue;
        if (std::strstr(row.name, "scalarload") == nullptr || !row_supports(row, t, s)) continue;
        if (vector_seen && !(nn && s.m == 4096 && square)) continue;
        const std::string name = std::string(op_name(t)) + "/" + row.name + "/" + shape_name(s);
        benchmark::RegisterBenchmark(name.c_str(), bench_row, &row, s, name)
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = register_benches();

}  // namespace
