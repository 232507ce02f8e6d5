// The Level-3 plans on the host, for tests without a GPU: a backend whose GEMM is OpenBLAS's
// ?gemm_ and whose diagonal-block operations are the host plans' loops (src/host_plans.h, the
// reference the block kernels are tested against), that runs lanes out of order, and OpenBLAS's
// own Level-3 routines as the oracle the plans are tested against.
// OpenBLAS is dlopen'd with RTLD_LOCAL (its symbols never clash with tileblas's).
#pragma once

#include <complex>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "level3_blocks.h"
#include "level3_plan.h"
#include "problem.h"

namespace tbtest {

// OpenBLAS's ?gemm_ of p's type on host memory. Returns "" or why it could not run.
std::string openblas_gemm(const tileblas::Problem& p);

// OpenBLAS's own routine for p (?trsm_, ?trmm_, ?syrk_, ?herk_, ?syr2k_, ?her2k_, ?symm_, ?hemm_
// of p's type) on host memory. Returns "" or why it could not run.
std::string openblas_level3(const tileblas::Problem& p);

// Counts of what a plan ran, by operation.
struct PlanCounts {
  int gemm = 0, tri_update = 0, tri_fill = 0, tri_block = 0, scratch = 0, tri_invert = 0;
};

class CpuLevel3Backend final : public tileblas::Level3Backend {
 public:
  // `triangles`: the GEMM computes a triangle of C (Problem::c_triangle), as the device's
  // kernels do; else gemm_supports() refuses such problems, as for a type without such kernels.
  explicit CpuLevel3Backend(bool triangles = true) : triangles_(triangles) {}

  // A triangle of C: OpenBLAS on a copy of C, then that triangle copied into C. Where the problem
  // says op(A) or op(B) is zero outside a triangle (Problem::a_nonzero, b_nonzero), it checks
  // that it is, exactly, and fails the GEMM otherwise.
  cudaError_t gemm(const tileblas::Problem& p) override;
  bool gemm_supports(const tileblas::Problem& p) override;
  cudaError_t tri_update(const tileblas::TriUpdateProblem& p) override;
  cudaError_t tri_fill(const tileblas::TriFillProblem& p) override;
  cudaError_t tri_block(const tileblas::TriBlockProblem& p) override;
  cudaError_t tri_invert(const tileblas::TriInvertProblem& p) override;
  // Scratch filled with 0xff bytes (NaN in every element type): a plan that reads scratch it did
  // not write shows NaN in its result.
  cudaError_t scratch(size_t bytes, void** p) override;
  // Lanes run at join(), the last lane first: a plan that puts dependent operations in different
  // lanes, or reads a lane's result before join(), computes a wrong result here.
  cudaError_t fork() override;
  void next_lane() override;
  cudaError_t join() override;

  const PlanCounts& counts() const { return counts_; }
  int lanes() const { return lanes_run_; }             // lanes run by every join() so far
  const std::string& error() const { return error_; }  // the GEMM's failure, if any

 private:
  // Runs `op` now, or in the current lane at join().
  cudaError_t run(std::function<cudaError_t()> op);

  bool triangles_;
  PlanCounts counts_;
  std::string error_;

  bool forked_ = false;
  std::vector<std::vector<std::function<cudaError_t()>>> lanes_;
  int lanes_run_ = 0;
  std::vector<std::unique_ptr<unsigned char[]>> buffers_;
};

}  // namespace tbtest
