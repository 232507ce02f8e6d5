#include "host_plans.h"

#include <algorithm>
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "cpu_gemm.h"
#include "cpu_team.h"
#include "tri_block_host.h"

namespace tileblas {

namespace {

template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
constexpr bool kComplex = !std::is_same_v<T, typename RealOf<T>::type>;

template <class T>
T conj_of(T v) {
  if constexpr (kComplex<T>) {
    return std::conj(v);
  } else {
    return v;
  }
}

template <class T>
T scalar_of(const Scalar& s) {
  if constexpr (kComplex<T>) {
    using R = typename RealOf<T>::type;
    return T(R(s.re), R(s.im));
  } else {
    return T(s.re);
  }
}

// fn(T{}) for the host element type T of `type` (f32, f64, c32, c64; nothing for the others).
template <class Fn>
void with_type(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kF32:
      fn(float{});
      break;
    case DataType::kF64:
      fn(double{});
      break;
    case DataType::kC32:
      fn(std::complex<float>{});
      break;
    case DataType::kC64:
      fn(std::complex<double>{});
      break;
    default:
      break;
  }
}

// y[0, n) = x[0, n) for the short columns of a small call's blocks: in 16-byte pieces inline, where
// std::copy is a call of memmove per column (a third of an 8^2 syrk's tri_update).
template <class T>
void copy_short(const T* x, int64_t n, T* y) {
  constexpr int64_t kPer16 = sizeof(T) >= 16 ? 1 : int64_t(16 / sizeof(T));
  if (n > 4 * kPer16) {
    std::copy(x, x + n, y);
    return;
  }
  int64_t i = 0;
  for (; i + kPer16 <= n; i += kPer16) __builtin_memcpy(y + i, x + i, kPer16 * sizeof(T));
  for (; i < n; ++i) y[i] = x[i];
}

// Columns [j0, j1) of p.
template <class T>
void tri_update_typed(const TriUpdateProblem& p, int64_t j0, int64_t j1) {
  const T* t = static_cast<const T*>(p.t);
  T* c = static_cast<T*>(p.c);
  const T beta = scalar_of<T>(p.beta);
  const bool beta_zero = p.beta.is_zero();
  const bool stacked = t && p.block > 0;
  // Where T holds blocks: the first row of column j's diagonal block (kept as j advances, so no
  // division per column).
  int64_t block0 = stacked ? j0 / p.block * p.block : 0;
  for (int64_t j = j0; j < j1; ++j) {
    if (stacked && j == block0 + p.block) block0 = j;
    // Rows of column j that `fill` names, within j's diagonal block where T holds blocks.
    int64_t i0 = 0, i1 = p.m;
    if (p.fill == Fill::kLower) i0 = j;
    if (p.fill == Fill::kUpper) i1 = std::min(j + 1, p.m);
    if (p.fill == Fill::kDiagonal) i0 = j, i1 = std::min(j + 1, p.m);
    if (stacked) {
      i0 = std::max(i0, block0);
      i1 = std::min(i1, block0 + p.block);
    }
    if (i0 >= i1) continue;  // no row of column j (past a triangle's or a block's rows)
    const T* tj = t ? t + (stacked ? j - block0 : j) * p.ldt : nullptr;
    T* cj = c + j * p.ldc;
    const bool real_diagonal = p.real_diagonal && j >= i0 && j < i1;
    const T cjj = real_diagonal && !beta_zero ? cj[j] : T(0);
    if (tj && beta_zero) {
      copy_short(tj + i0, i1 - i0, cj + i0);
    } else if (tj) {
      for (int64_t i = i0; i < i1; ++i) cj[i] = tj[i] + beta * cj[i];
    } else if (beta_zero) {
      std::fill(cj + i0, cj + i1, T(0));
    } else {
      for (int64_t i = i0; i < i1; ++i) cj[i] = beta * cj[i];
    }
    if constexpr (kComplex<T>) {
      if (real_diagonal) {  // Re(T_jj) + Re(beta) Re(C_jj): no imaginary part of C reaches it
        using R = typename RealOf<T>::type;
        const R re = tj ? std::real(tj[j]) : R(0);
        cj[j] = T(re + R(p.beta.re) * std::real(cjj), R(0));
      }
    }
  }
}

// Columns [j0, j1) of B.
template <class T>
void tri_fill_typed(const TriFillProblem& p, int64_t j0, int64_t j1) {
  const T* a = static_cast<const T*>(p.a);
  T* b = static_cast<T*>(p.b);
  const bool lower = p.uplo == Uplo::kLower;
  for (int64_t j = j0; j < j1; ++j) {
    T* bj = b + j * p.ldb;
    // Rows [0, j) and (j, n) of column j: one from A's triangle, the other mirrored or zero.
    const int64_t in0 = lower ? j + 1 : 0, in1 = lower ? p.n : j;
    const int64_t out0 = lower ? 0 : j + 1, out1 = lower ? j : p.n;
    for (int64_t i = in0; i < in1; ++i) bj[i] = a[i + j * p.lda];
    for (int64_t i = out0; i < out1; ++i) {
      if (p.mode == TriFillMode::kTriangular) {
        bj[i] = T(0);
      } else if (p.mode == TriFillMode::kHermitian) {
        bj[i] = conj_of(a[j + i * p.lda]);
      } else {
        bj[i] = a[j + i * p.lda];
      }
    }
    if (p.mode == TriFillMode::kTriangular && p.diag == Diag::kUnit) {
      bj[j] = T(1);
    } else if (p.mode == TriFillMode::kHermitian) {
      bj[j] = T(std::real(a[j + j * p.lda]));
    } else {
      bj[j] = a[j + j * p.lda];
    }
  }
}

// A block operation's columns (tri_block's vectors) in `parts` contiguous ranges of whole granules
// (the last one short where extent is not a multiple): with u = ceil(extent / granule) granules,
// range `part` begins at granule * (u * part / parts).
template <class Call>
struct ColumnRanges {
  const Call* p;
  int64_t extent;
  int64_t granule;
  int parts;
  int64_t granules() const { return (extent + granule - 1) / granule; }
  int64_t begin(int part) const { return std::min(extent, granule * (granules() * part / parts)); }
};

void tri_update_part(const void* ctx, int part) {
  const auto& r = *static_cast<const ColumnRanges<TriUpdateProblem>*>(ctx);
  with_type(r.p->type, [&](auto zero) {
    tri_update_typed<decltype(zero)>(*r.p, r.begin(part), r.begin(part + 1));
  });
}
void tri_fill_part(const void* ctx, int part) {
  const auto& r = *static_cast<const ColumnRanges<TriFillProblem>*>(ctx);
  with_type(r.p->type, [&](auto zero) {
    tri_fill_typed<decltype(zero)>(*r.p, r.begin(part), r.begin(part + 1));
  });
}
void tri_block_part(const void* ctx, int part) {
  const auto& r = *static_cast<const ColumnRanges<TriBlockProblem>*>(ctx);
  TriBlockProblem q = *r.p;
  const int64_t v0 = r.begin(part);
  q.count = r.begin(part + 1) - v0;
  if (q.count == 0) return;
  const int64_t step = q.side == Side::kLeft ? q.ldb : 1;  // from one vector to the next
  q.b = static_cast<char*>(q.b) + size_t(v0 * step) * size_of(q.type);
  host_tri_block(q);
}

// Block operations of at least this many elements per part run on the host team, whose cores
// then hold the pieces the plan's next GEMM (on the team too) reads or the last one wrote: on the
// calling thread alone, a copy of a 128^2 fp32 block into scratch and a fill of another before
// the GEMM that reads them made a trmm leaf 45-50 us on the H100 host, against 4.6 + 6.5 us for
// the copies and the GEMM each in a loop of its own (the caller's core moving every line the 16
// cores share).
constexpr int64_t kTeamPartElements = 1024;
// tri_block's parts: at least this many real multiply-adds each (about a microsecond of vector
// work; its vectors' copies in and out are a small part of it). From kTeamWakeMultiplyAdds on
// (about 100 us on one thread, where a GEMM's team call wakes too: src/router.cpp) it wakes
// sleeping workers: a call that long finds them asleep whenever calls come further apart than their
// spin, and would then run on the calling thread alone however often it came (ztrsm 128: 227 us
// against 23 us on the team).
constexpr int64_t kTeamPartMultiplyAdds = 8192;
constexpr int64_t kTeamWakeMultiplyAdds = int64_t(1) << 19;

// Runs `job` over the `extent` columns of p in at most `wanted` ranges of whole granules on the
// host team (waking sleeping workers if `wake`), or in one range on the calling thread where the
// team cannot take them now. Where fewer than two are wanted, `whole` runs all of p on the calling
// thread at once, without looking up the team and dividing the ranges (a small call's plan).
template <class Call>
void on_team(const Call& p, void (*whole)(const Call&), int64_t extent, int64_t wanted,
             CpuTeam::Job job, int64_t granule = 1, bool wake = false) {
  if (wanted < 2) {
    whole(p);
    return;
  }
  CpuTeam* team = CpuTeam::get();
  ColumnRanges<Call> ranges{&p, extent, granule, 1};
  wanted = std::min(ranges.granules(), wanted);
  ranges.parts = int(std::min<int64_t>(wanted, team ? team->threads() : 1));
  if (ranges.parts >= 2 && team->run(ranges.parts, job, &ranges, wake)) return;
  ranges.parts = 1;
  job(&ranges, 0);
}

// The plans' backend on the host. Everything runs in order on the calling thread (the default
// lanes), the GEMMs on GEMM's CPU paths and the block operations on the host team where large
// enough.
class HostBackend final : public Level3Backend {
 public:
  explicit HostBackend(const Rates& rates) : rates_(rates) {}

  cudaError_t gemm(const Problem& p) override {
    gemm_on_cpu_path(p, rates_);
    return cudaSuccess;
  }
  bool gemm_supports(const Problem& p) override { return p.c_triangle == Triangle::kAll; }
  bool computes_triangles() override { return false; }
  cudaError_t tri_update(const TriUpdateProblem& p) override {
    on_team(p, host_tri_update, p.n, p.m * p.n / kTeamPartElements, tri_update_part);
    return cudaSuccess;
  }
  cudaError_t tri_fill(const TriFillProblem& p) override {
    on_team(p, host_tri_fill, p.n, p.n * p.n / kTeamPartElements, tri_fill_part);
    return cudaSuccess;
  }
  cudaError_t tri_block(const TriBlockProblem& p) override {
    const int64_t multiply_adds = p.order * p.order / 2 * p.count * (is_complex(p.type) ? 4 : 1);
    on_team(p, host_tri_block, p.count, multiply_adds / kTeamPartMultiplyAdds, tri_block_part,
            tri_block_host::lanes(p.type), multiply_adds >= kTeamWakeMultiplyAdds);
    return cudaSuccess;
  }
  cudaError_t tri_invert(const TriInvertProblem& p) override {  // the host plans have no use for it
    host_tri_invert(p);
    return cudaSuccess;
  }
  // The plan's first buffer where it fits kSmallScratchBytes: the backend's own (a small call's
  // diagonal block, syrk's of order 16 in complex double). Otherwise the calling thread's buffers,
  // one per scratch() of a plan, grown as needed and kept: a plan asks for at most three, and a
  // host plan's are at most a few MiB (512^2 complex doubles).
  cudaError_t scratch(size_t bytes, void** p) override {
    if (!small_used_ && bytes <= sizeof(small_)) {
      small_used_ = true;
      *p = small_;
      return cudaSuccess;
    }
    thread_local std::vector<std::vector<unsigned char>> buffers;
    if (used_ == buffers.size()) buffers.emplace_back();
    std::vector<unsigned char>& buffer = buffers[used_++];
    if (buffer.size() < bytes) buffer.resize(bytes);
    *p = buffer.data();
    return cudaSuccess;
  }

 private:
  static constexpr size_t kSmallScratchBytes = 16 * 16 * sizeof(std::complex<double>);
  const Rates& rates_;
  size_t used_ = 0;
  bool small_used_ = false;
  alignas(64) unsigned char small_[kSmallScratchBytes];
};

}  // namespace

void host_tri_update(const TriUpdateProblem& p) {
  with_type(p.type, [&](auto zero) { tri_update_typed<decltype(zero)>(p, 0, p.n); });
}
void host_tri_fill(const TriFillProblem& p) {
  with_type(p.type, [&](auto zero) { tri_fill_typed<decltype(zero)>(p, 0, p.n); });
}
void host_tri_block(const TriBlockProblem& p) { tri_block_host::run(p); }
void host_tri_invert(const TriInvertProblem& p) {
  const size_t elem = size_of(p.type);
  for (int64_t b = 0; b < p.blocks(); ++b) {
    const int64_t first = b * p.block, len = std::min(p.block, p.n - first);
    TriBlockProblem t;
    t.type = p.type;
    t.op = TriBlockOp::kSolve;
    t.side = Side::kLeft, t.uplo = p.uplo, t.trans = Op::kNoTrans, t.diag = p.diag;
    t.order = t.count = len;
    t.a = static_cast<const char*>(p.a) + size_t(first + first * p.lda) * elem, t.lda = p.lda;
    t.b = static_cast<char*>(p.inv) + size_t(first * p.block) * elem, t.ldb = p.block;
    // The identity, then the solve on it.
    with_type(p.type, [&](auto zero) {
      using T = decltype(zero);
      T* x = static_cast<T*>(t.b);
      for (int64_t j = 0; j < len; ++j) {
        for (int64_t i = 0; i < len; ++i) x[i + j * p.block] = T(i == j ? 1 : 0);
      }
    });
    tri_block_host::run(t);
  }
}

Level3BlockSizes host_level3_block_sizes(DataType) {
  Level3BlockSizes s;
  s.tri_leaf = 128;
  s.rank_leaf = 256;
  return s;
}

void run_level3_on_host_with(const Problem& p, const Rates& rates, const Level3BlockSizes& sizes) {
  HostBackend backend(rates);
  run_level3_plan(p, backend, sizes);  // every operation of the host backend succeeds
}

void run_level3_on_host(const Problem& p, const Rates& rates) {
  run_level3_on_host_with(p, rates, host_level3_block_sizes(p.type));
}

}  // namespace tileblas
