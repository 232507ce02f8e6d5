// Our host kernel (kernels/gemm_host_small.h), each variant this CPU runs, called directly on host
// data, against the CPU BLAS (OpenBLAS sgemm_) on the same buffers, alternating call by call:
//   host/<variant>/<n>x<n>x<n>/<NN|TN>   medians of both; counters ours, ref (GFLOP/s), ratio.
// Square sizes 8 to 256: where the router weighs it against one CPU BLAS call (OpenBLAS stays on
// one thread up to 64^3 and wakes its pool beyond).
#include <string>
#include <vector>

#include "bench_support.h"
#include "cpu_blas.h"
#include "gemm_host_small.h"

namespace {

namespace small = tileblas::gemm_host_small;

void host_kernel(benchmark::State& state, small::Isa isa, int64_t n, tileblas::Op trans_a) {
  std::vector<float> a = tbbench::random_host(size_t(n) * n, 51);
  std::vector<float> b = tbbench::random_host(size_t(n) * n, 52), c(size_t(n) * n);
  tileblas::Problem p;
  p.trans_a = trans_a;
  p.m = p.n = p.k = p.lda = p.ldb = p.ldc = n;
  p.a = a.data(), p.b = b.data(), p.c = c.data();
  const char ta = trans_a == tileblas::Op::kTrans ? 'T' : 'N';
  const int reps = n <= 64 ? 2001 : 201;
  std::pair<double, double> t;
  for (auto _ : state) {
    t = tbbench::interleaved_medians(
        reps, 20, [&] { small::run(p, isa); },
        [&] {
          tileblas::cpu_blas::sgemm(ta, 'N', int(n), int(n), int(n), 1.0f, a.data(), int(n),
                                    b.data(), int(n), 0.0f, c.data(), int(n));
        });
    state.SetIterationTime(t.first);
  }
  const std::string name =
      std::string("host/") + small::name_of(isa) + " " + std::to_string(n) + "^3 " + ta + "N";
  tbbench::report(state, p.flops() / t.first * 1e-9, p.flops() / t.second * 1e-9, "GFLOP/s",
                  "OpenBLAS sgemm_", name);
}

void register_all() {
  for (small::Isa isa : {small::Isa::kAvx512, small::Isa::kAvx2}) {
    tileblas::Problem probe;
    probe.m = probe.n = probe.k = probe.lda = probe.ldb = probe.ldc = 8;
    if (!small::supports(probe, isa)) continue;  // this CPU lacks the instruction set
    for (int64_t n : {8, 16, 32, 48, 64, 96, 128, 256}) {
      for (tileblas::Op ta : {tileblas::Op::kNoTrans, tileblas::Op::kTrans}) {
        const std::string shape = std::to_string(n) + "x" + std::to_string(n) + "x" +
                                  std::to_string(n) + (ta == tileblas::Op::kTrans ? "/TN" : "/NN");
        benchmark::RegisterBenchmark(
            (std::string("host/") + small::name_of(isa) + "/" + shape).c_str(), host_kernel, isa, n,
            ta)
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

const bool registered = (register_all(), true);

}  // namespace
