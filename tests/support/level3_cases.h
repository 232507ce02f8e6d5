// Level-3 test cases shared by the plan tests (CPU backend, and the device plans on a GPU): one
// call's parameters, its operands made on the host with NaN wherever the routine must not read
// (padding rows, A's other triangle, unit diagonals, hemm's diagonal imaginary parts, herk's C
// diagonal imaginary parts, C when beta == 0, A and B when alpha == 0), OpenBLAS's own routine on
// copies with those NaN cleared, and the check of a result: the elements the routine writes within
// eps-relative tolerance, everything else of the output bit for bit as it was, A and B untouched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "level3_plan.h"
#include "problem.h"

namespace tbtest {

struct Level3Case {
  tileblas::Operation op = tileblas::Operation::kTrsm;
  tileblas::DataType type = tileblas::DataType::kF32;
  tileblas::Side side = tileblas::Side::kLeft;
  tileblas::Uplo uplo = tileblas::Uplo::kLower;
  tileblas::Op trans = tileblas::Op::kNoTrans;
  tileblas::Diag diag = tileblas::Diag::kNonUnit;
  int64_t m = 1, n = 1, k = 1;
  tileblas::Scalar alpha = 1.0, beta = 0.0;
  int64_t pad = 3;  // rows of each operand's leading dimension past its minimum (NaN)
  tileblas::Level3BlockSizes sizes;

  std::string str() const;
};

// A case's operands on the host (column-major bytes of its type) and the problem over them.
struct Level3Operands {
  Level3Case c;
  std::vector<unsigned char> a, b, out;  // out: C, or B for trmm/trsm
  int64_t a_rows = 0, a_cols = 0, lda = 0, b_rows = 0, b_cols = 0, ldb = 0, out_rows = 0,
          out_cols = 0, ldo = 0;

  // The problem over these buffers (or over device copies at the given addresses).
  tileblas::Problem problem() const;
  tileblas::Problem problem(const void* a_at, const void* b_at, void* out_at) const;
};

// Fresh random operands for `c`, with the NaN described at the top.
Level3Operands make_operands(const Level3Case& c);

// OpenBLAS's result for the operands (on copies whose NaN are cleared): the output buffer.
// Fails the calling test (ADD_FAILURE) if OpenBLAS cannot be run.
std::vector<unsigned char> openblas_result(const Level3Operands& ops);

// Checks a result `got` (output buffer after our call) against OpenBLAS's `want`, given the
// operands before the call: "" or what is wrong. a_after/b_after: A and B after our call
// (must be bit for bit as before).
std::string check_level3(const Level3Operands& before, const std::vector<unsigned char>& got,
                         const std::vector<unsigned char>& want,
                         const std::vector<unsigned char>& a_after,
                         const std::vector<unsigned char>& b_after);

// The cases of the plan tests: every routine of every type with every side, uplo, trans, diag,
// at sizes crossing the block sizes (small ones that make deep recursions, the device's, and with
// `host_blocks` the host plans'), alpha and beta random, 0 and 1. `types` restricts the types.
std::vector<Level3Case> level3_plan_cases(const std::vector<tileblas::DataType>& types,
                                          bool small_blocks, bool device_blocks,
                                          bool host_blocks = false);

}  // namespace tbtest
