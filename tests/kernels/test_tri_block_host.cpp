// tri_block_host (kernels/tri_block_host.h), each variant this CPU runs (the baseline always), in
// f32, f64, c32, c64, called directly on trsm and trmm problems whose whole triangle is one block,
// against OpenBLAS's own ?trsm / ?trmm (tests/support/level3_cases.h: fresh random operands, NaN in
// A's other triangle, a unit diagonal and the padding rows, which must not be read, B's padding
// compared bit for bit): every side, uplo, trans and diag, orders below, at and past the kernel's
// row blocks of 4, vector counts below, at and past its chunks of 8 and 16 lanes. A variant the CPU
// lacks skips visibly.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "level3_cases.h"
#include "test_support.h"
#include "tri_block_host.h"

namespace {

using tbtest::Level3Case;
using tileblas::DataType;
using tileblas::Op;
using tileblas::Operation;
using tileblas::Side;
using tileblas::gemm_host_small::Isa;

// The block problem of a trsm / trmm case over its buffers (B is the case's output).
tileblas::TriBlockProblem block_of(const tileblas::Problem& p) {
  tileblas::TriBlockProblem t;
  t.type = p.type;
  t.op = p.op == Operation::kTrsm ? tileblas::TriBlockOp::kSolve : tileblas::TriBlockOp::kMultiply;
  t.side = p.side, t.uplo = p.uplo, t.trans = p.trans_a, t.diag = p.diag;
  t.order = p.side == Side::kLeft ? p.m : p.n;
  t.count = p.side == Side::kLeft ? p.n : p.m;
  t.alpha = p.alpha;
  t.a = p.a, t.lda = p.lda;
  t.b = p.c, t.ldb = p.ldc;
  return t;
}

double uniform() { return std::uniform_real_distribution<double>(-1.5, 1.5)(tbtest::rng()); }

void check_variant(Isa isa) {
  const std::vector<int64_t> orders = {1, 3, 4, 5, 8, 17, 64, 131};
  const std::vector<int64_t> counts = {1, 7, 8, 16, 17, 40};
  int which = 0, failures = 0, checked = 0;
  for (DataType type : {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64}) {
    std::vector<Op> transes = {Op::kNoTrans, Op::kTrans};
    if (tileblas::is_complex(type)) transes.push_back(Op::kConjTrans);
    for (Operation op : {Operation::kTrsm, Operation::kTrmm}) {
      for (Side side : {Side::kLeft, Side::kRight}) {
        for (tileblas::Uplo uplo : {tileblas::Uplo::kLower, tileblas::Uplo::kUpper}) {
          for (Op trans : transes) {
            for (tileblas::Diag diag : {tileblas::Diag::kNonUnit, tileblas::Diag::kUnit}) {
              for (int round = 0; round < 2; ++round, ++which) {
                Level3Case c;
                c.op = op, c.type = type, c.side = side, c.uplo = uplo, c.trans = trans;
                c.diag = diag;
                const int64_t order = orders[size_t(which) % orders.size()];
                const int64_t count = counts[size_t(which / 3) % counts.size()];
                c.m = side == Side::kLeft ? order : count;
                c.n = side == Side::kLeft ? count : order;
                if (round == 1) {
                  c.alpha = tileblas::is_complex(type) ? tileblas::Scalar(uniform(), uniform())
                                                       : tileblas::Scalar(uniform());
                }
                const tbtest::Level3Operands ops = tbtest::make_operands(c);
                const std::vector<unsigned char> want = tbtest::openblas_result(ops);
                std::vector<unsigned char> a = ops.a, b = ops.b, out = ops.out;
                tileblas::tri_block_host::run(block_of(ops.problem(a.data(), nullptr, out.data())),
                                              isa);
                ++checked;
                const std::string why = tbtest::check_level3(ops, out, want, a, b);
                if (!why.empty() && ++failures <= 20) ADD_FAILURE() << c.str() << ": " << why;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0) << "of " << checked << " cases";
}

TEST(TriBlockHost, BaselineMatchesOpenBlas) { check_variant(Isa::kNone); }

TEST(TriBlockHost, Avx2MatchesOpenBlas) {
  if (tileblas::gemm_host_small::best_isa() == Isa::kNone) GTEST_SKIP() << "no AVX2 on this CPU";
  check_variant(Isa::kAvx2);
}

TEST(TriBlockHost, Avx512MatchesOpenBlas) {
  if (tileblas::gemm_host_small::best_isa() != Isa::kAvx512) {
    GTEST_SKIP() << "no AVX-512 on this CPU";
  }
  check_variant(Isa::kAvx512);
}

}  // namespace
