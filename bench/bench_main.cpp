// The bench binary's main(): Google Benchmark's, plus the GPU's name in the JSON context (read by
// scripts/bench_table.py), so every table names the GPU its numbers came from.
#include <benchmark/benchmark.h>

#include "bench_support.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  cudaDeviceProp prop{};
  benchmark::AddCustomContext(
      "gpu", cudaGetDeviceProperties(&prop, 0) == cudaSuccess ? prop.name : "no CUDA device");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
