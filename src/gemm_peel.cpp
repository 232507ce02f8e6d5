// The peeled GEMM rows (see gemm_peel.h).
#include "gemm_peel.h"

#include <atomic>

#include "gemm_skinny.h"

namespace tileblas::gemm_peel {

namespace {

// gemm_skinny's tile: the widest remainder peeled.
constexpr int kMaxRemainder = 16;

std::atomic<bool> g_fail_remainders{false};  // fail_remainders_for_testing()

// Rows [r0, r0 + rows) of op(A) and columns [c0, c0 + cols) of op(B) into C(r0.., c0..).
Problem block_of(const Problem& p, int64_t r0, int64_t rows, int64_t c0, int64_t cols) {
  const size_t elem = size_of(p.type);
  Problem q = p;
  q.m = rows, q.n = cols;
  // alpha == 0: A and B may be null (they are not read); they stay so.
  if (p.a != nullptr) {
    q.a = p.trans_a == Op::kNoTrans ? element_at(p.a, r0, 0, p.lda, elem)
                                    : element_at(p.a, 0, r0, p.lda, elem);
  }
  if (p.b != nullptr) {
    q.b = p.trans_b == Op::kNoTrans ? element_at(p.b, 0, c0, p.ldb, elem)
                                    : element_at(p.b, c0, 0, p.ldb, elem);
  }
  q.c = element_at(p.c, r0, c0, p.ldc, size_of(p.c_type));
  return q;
}

}  // namespace

Split split_of(const Problem& p, int64_t bm, int64_t bn) {
  return {p.m - thin_remainder(p.m, int(bm), kMaxRemainder),
          p.n - thin_remainder(p.n, int(bn), kMaxRemainder)};
}

Parts parts_of(const Problem& p, const Split& s) {
  Parts out;
  out.part[out.count++] = block_of(p, 0, s.m_in, 0, s.n_in);
  if (s.m_in < p.m) out.part[out.count++] = block_of(p, s.m_in, p.m - s.m_in, 0, p.n);
  if (s.n_in < p.n) out.part[out.count++] = block_of(p, 0, s.m_in, s.n_in, p.n - s.n_in);
  return out;
}

bool supports(const Problem& p, const DeviceCaps& caps, int64_t bm, int64_t bn, Supports interior) {
  if (p.op != Operation::kGemm || p.c_triangle != Triangle::kAll || p.a_nonzero != Triangle::kAll ||
      p.b_nonzero != Triangle::kAll)
    return false;
  const Parts parts = parts_of(p, split_of(p, bm, bn));
  if (!interior(parts.part[0], caps)) return false;
  for (int i = 1; i < parts.count; ++i) {
    if (!gemm_skinny::supports_16(parts.part[i], caps)) return false;
  }
  return true;
}

cudaError_t launch(const Problem& p, cudaStream_t stream, int64_t bm, int64_t bn, Launch interior) {
  const Parts parts = parts_of(p, split_of(p, bm, bn));
  // The interior, then the remainders, all on the call's stream (gemm_peel.h says why not beside).
  if (cudaError_t err = interior(parts.part[0], stream); err != cudaSuccess) return err;
  if (parts.count > 1 && g_fail_remainders.load()) return cudaErrorLaunchFailure;
  for (int i = 1; i < parts.count; ++i) {
    if (cudaError_t err = gemm_skinny::launch_16(parts.part[i], stream); err != cudaSuccess) {
      return err;
    }
  }
  return cudaSuccess;
}

void fail_remainders_for_testing(bool fail) { g_fail_remainders.store(fail); }

}  // namespace tileblas::gemm_peel
