// tri_block_host (contract and layout: kernels/tri_block_host.h).
#include "tri_block_host.h"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace tileblas::tri_block_host {

namespace {

// kBytes of reals, one register of the variant that runs them (16, 32 or 64 bytes). Aligned to
// their size in every variant (the baseline caps a vector type's own alignment at 16), and read
// and written through the reals as well.
template <class R, int kBytes>
struct LanesOf {
  typedef R type __attribute__((vector_size(kBytes), aligned(kBytes), may_alias));
};

// One call: R the real type, kCx complex, kBytes the variant's register, kDirect whether M(r, c)
// is A(r, c) (M is op(A) untransposed for side L, N, or op(A)^T for side R, T or C), else A(c, r):
// so the step between M's rows (or columns) is the constant one. Every member is inlined into the
// variant's function below, so the lanes' arithmetic is compiled for its instruction set.
template <class R, bool kCx, int kBytes, bool kDirect>
class Block {
 public:
  using V = typename LanesOf<R, kBytes>::type;
  // __builtin_shuffle's lane indices: integers of the reals' width, as many.
  using MaskElement = std::conditional_t<sizeof(R) == 4, int32_t, int64_t>;
  typedef MaskElement Mask __attribute__((vector_size(kBytes)));
  static constexpr int kLanes = kBytes / int(sizeof(R));
  static constexpr int kParts = kCx ? 2 : 1;  // reals per element, planes per buffer row
  // Rows of M that share each loaded buffer row: eight accumulator registers either way, so the
  // fused multiply-adds of one step of j are independent enough to cover their latency.
  static constexpr int kRows = kCx ? 4 : 8;

  [[gnu::always_inline]] explicit Block(const TriBlockProblem& p)
      : p_(p), a_(static_cast<const R*>(p.a)), b_(static_cast<R*>(p.b)), n_(p.order) {
    left_ = p.side == Side::kLeft;
    m_lower_ = kDirect == (p.uplo == Uplo::kLower);
    lda_reals_ = kParts * p.lda;
    conj_ = kCx && p.trans == Op::kConjTrans;  // M conjugated
    solve_ = p.op == TriBlockOp::kSolve;
    unit_ = p.diag == Diag::kUnit;
  }

  [[gnu::always_inline]] void run() {
    // The chunk (row i's planes at kParts * i), then M(i, i) or its reciprocal for solves (kParts
    // reals each): the calling thread's, kept between calls.
    thread_local std::vector<unsigned char> bytes;
    const size_t rows_bytes = size_t(n_ * kParts) * sizeof(V);
    bytes.resize(rows_bytes + size_t(n_ * kParts) * sizeof(R) + alignof(V));
    const uintptr_t at = reinterpret_cast<uintptr_t>(bytes.data());
    x_ = reinterpret_cast<V*>((at + alignof(V) - 1) / alignof(V) * alignof(V));
    d_ = reinterpret_cast<R*>(reinterpret_cast<unsigned char*>(x_) + rows_bytes);
    if (!unit_) {
      for (int64_t i = 0; i < n_; ++i) {
        const R* e = a_ + i * (r_step() + j_step());
        if constexpr (kCx) {
          std::complex<R> d(e[0], conj_ ? -e[1] : e[1]);
          if (solve_) d = R(1) / d;
          d_[kParts * i] = d.real(), d_[kParts * i + 1] = d.imag();
        } else {
          d_[i] = solve_ ? R(1) / e[0] : e[0];
        }
      }
    }
    for (int64_t v0 = 0; v0 < p_.count; v0 += kLanes) {
      const int lanes = int(std::min<int64_t>(kLanes, p_.count - v0));
      gather(v0, lanes);
      // Solves go from the end M's triangle starts at, products from the other.
      if (m_lower_ == solve_) {
        int64_t i0 = 0;
        for (; i0 + kRows <= n_; i0 += kRows) rows_at<kRows>(i0);
        for (; i0 < n_; ++i0) rows_at<1>(i0);
      } else {
        int64_t i0 = n_ - kRows;
        for (; i0 >= 0; i0 -= kRows) rows_at<kRows>(i0);
        for (int64_t i = i0 + kRows - 1; i >= 0; --i) rows_at<1>(i);
      }
      scatter(v0, lanes);
    }
  }

 private:
  // M(r, c) at a_ + r * r_step() + c * j_step().
  [[gnu::always_inline]] int64_t r_step() const { return kDirect ? kParts : lda_reals_; }
  [[gnu::always_inline]] int64_t j_step() const { return kDirect ? lda_reals_ : kParts; }

  // B's element i of vector v, as reals.
  [[gnu::always_inline]] R* b_at(int64_t i, int64_t v) const {
    return b_ + kParts * (left_ ? i + v * p_.ldb : v + i * p_.ldb);
  }
  // Plane q's lane t of buffer row i.
  [[gnu::always_inline]] R& lane(int64_t i, int q, int t) const {
    return reinterpret_cast<R*>(x_ + kParts * i + q)[t];
  }

  // fn(i, t) for elements i >= i0 of the chunk's vectors t < lanes, in B's order: down its columns
  // for side L, along its rows for side R.
  template <class Fn>
  [[gnu::always_inline]] void each_element(int64_t i0, int lanes, Fn&& fn) const {
    if (left_) {
      for (int t = 0; t < lanes; ++t) {
        for (int64_t i = i0; i < n_; ++i) fn(i, t);
      }
    } else {
      for (int64_t i = i0; i < n_; ++i) {
        for (int t = 0; t < lanes; ++t) fn(i, t);
      }
    }
  }

  // Real side L: rows [0, n - n % kLanes) as kLanes x kLanes tiles, each column's part loaded
  // whole and the tile transposed in registers; the rows past them element by element. (Complex
  // columns split into planes the same way measured no faster: AVX2, complex double at 64 and 128.)
  [[gnu::always_inline]] int64_t tiled_rows() const { return !kCx && left_ ? n_ - n_ % kLanes : 0; }

  // Vectors [v0, v0 + lanes) into the buffer, scaled by alpha; zeros in the lanes past them.
  [[gnu::always_inline]] void gather(int64_t v0, int lanes) {
    const R ar = R(p_.alpha.re), ai = R(p_.alpha.im);
    if (lanes < kLanes) std::fill(x_, x_ + n_ * kParts, V{});
    for (int64_t i0 = 0; i0 < tiled_rows(); i0 += kLanes) {
      V tile[kLanes];
      for (int t = 0; t < kLanes; ++t) {
        tile[t] = V{};
        if (t < lanes) std::memcpy(&tile[t], b_at(i0, v0 + t), sizeof(V));
      }
      transpose(tile);
      for (int k = 0; k < kLanes; ++k) x_[i0 + k] = ar * tile[k];
    }
    each_element(tiled_rows(), lanes, [&](int64_t i, int t) {
      const R* e = b_at(i, v0 + t);
      if constexpr (kCx) {
        lane(i, 0, t) = ar * e[0] - ai * e[1];
        lane(i, 1, t) = ar * e[1] + ai * e[0];
      } else {
        lane(i, 0, t) = ar * e[0];
      }
    });
  }

  [[gnu::always_inline]] void scatter(int64_t v0, int lanes) {
    for (int64_t i0 = 0; i0 < tiled_rows(); i0 += kLanes) {
      V tile[kLanes];
      for (int k = 0; k < kLanes; ++k) tile[k] = x_[i0 + k];
      transpose(tile);
      for (int t = 0; t < lanes; ++t) std::memcpy(b_at(i0, v0 + t), &tile[t], sizeof(V));
    }
    each_element(tiled_rows(), lanes, [&](int64_t i, int t) {
      R* e = b_at(i, v0 + t);
      e[0] = lane(i, 0, t);
      if constexpr (kCx) e[1] = lane(i, 1, t);
    });
  }

  // A kLanes x kLanes tile of reals transposed in registers: for h = kLanes / 2 down to 1, rows i
  // and i + h (i without bit h) trade the lanes with bit h set in i's row for those without it in
  // the other's, as 2 x 2 blocks of h-wide parts are transposed.
  template <int kH = kLanes / 2>
  [[gnu::always_inline]] static void transpose(V* tile) {
    swap_round<kH>(tile, std::make_integer_sequence<int, kLanes>());
    if constexpr (kH > 1) transpose<kH / 2>(tile);
  }
  template <int kH, int... kI>
  [[gnu::always_inline]] static void swap_round(V* tile, std::integer_sequence<int, kI...>) {
    for (int i = 0; i < kLanes; ++i) {
      if (i & kH) continue;
      const V a = tile[i], b = tile[i + kH];
      tile[i] = __builtin_shuffle(a, b, Mask{((kI & kH) ? kI - kH + kLanes : kI)...});
      tile[i + kH] = __builtin_shuffle(a, b, Mask{((kI & kH) ? kI + kLanes : kI + kH)...});
    }
  }

  // acc[r] -= (kSub) or += M(i0 + r, j) x_j for j in [j0, j1), r < kN; acc holds kN rows of
  // kParts planes (indexed by constants only, so they stay in registers).
  template <int kN, bool kSub>
  [[gnu::always_inline]] void accumulate(V* acc, int64_t i0, int64_t j0, int64_t j1) const {
    const R* m = a_ + i0 * r_step();
    for (int64_t j = j0; j < j1; ++j) {
      const V xr = x_[kParts * j];
      const V xi = x_[kParts * j + kParts - 1];  // complex only
      // M(i0 + r, j): at constant offsets from one pointer where kDirect.
      const R* mj = m + j * j_step();
      for (int r = 0; r < kN; ++r) {
        const R* mrj = mj + r * r_step();
        V& re = acc[kParts * r];
        const R mr = mrj[0];
        if constexpr (kCx) {
          V& im = acc[kParts * r + 1];
          const R mi = conj_ ? -mrj[1] : mrj[1];
          if constexpr (kSub) {
            re -= mr * xr;
            re += mi * xi;
            im -= mr * xi;
            im -= mi * xr;
          } else {
            re += mr * xr;
            re -= mi * xi;
            im += mr * xi;
            im += mi * xr;
          }
        } else if constexpr (kSub) {
          re -= mr * xr;
        } else {
          re += mr * xr;
        }
      }
    }
  }

  // out = d_'s entry i times in (unit: in as it is); out may be in.
  [[gnu::always_inline]] void scale(int64_t i, const V* in, V* out) const {
    if (unit_) {
      for (int q = 0; q < kParts; ++q) out[q] = in[q];
      return;
    }
    const R dr = d_[kParts * i];
    if constexpr (kCx) {
      const R di = d_[kParts * i + 1];
      const V re = dr * in[0] - di * in[1], im = dr * in[1] + di * in[0];
      out[0] = re, out[1] = im;
    } else {
      out[0] = dr * in[0];
    }
  }

  // Row i0 + kR of a solve: its solved neighbours within the block, then the diagonal, into the
  // buffer.
  template <int kN, int kR>
  [[gnu::always_inline]] void solve_row(V* acc, int64_t i0) {
    if (m_lower_) {
      accumulate<1, true>(acc + kParts * kR, i0 + kR, i0, i0 + kR);
    } else {
      accumulate<1, true>(acc + kParts * kR, i0 + kR, i0 + kR + 1, i0 + kN);
    }
    scale(i0 + kR, acc + kParts * kR, x_ + kParts * (i0 + kR));
  }
  template <int kN, int... kR>
  [[gnu::always_inline]] void solve_rows(V* acc, int64_t i0, std::integer_sequence<int, kR...>) {
    if (m_lower_) {
      (solve_row<kN, kR>(acc, i0), ...);
    } else {
      (solve_row<kN, kN - 1 - kR>(acc, i0), ...);
    }
  }

  // Row i0 + kR of a product: its diagonal and its neighbours within the block (all still
  // holding their inputs).
  template <int kN, int kR>
  [[gnu::always_inline]] void product_row(V* acc, int64_t i0) {
    scale(i0 + kR, x_ + kParts * (i0 + kR), acc + kParts * kR);
    if (m_lower_) {
      accumulate<1, false>(acc + kParts * kR, i0 + kR, i0, i0 + kR);
    } else {
      accumulate<1, false>(acc + kParts * kR, i0 + kR, i0 + kR + 1, i0 + kN);
    }
  }
  template <int kN, int... kR>
  [[gnu::always_inline]] void product_rows(V* acc, int64_t i0, std::integer_sequence<int, kR...>) {
    (product_row<kN, kR>(acc, i0), ...);
  }

  // Rows [i0, i0 + kN) of the result, from the buffer's rows as the order of run() leaves them.
  template <int kN>
  [[gnu::always_inline]] void rows_at(int64_t i0) {
    V acc[kN * kParts];
    V* const row0 = x_ + kParts * i0;
    if (solve_) {
      for (int q = 0; q < kN * kParts; ++q) acc[q] = row0[q];
      // The solved rows outside the block first.
      if (m_lower_) {
        accumulate<kN, true>(acc, i0, 0, i0);
      } else {
        accumulate<kN, true>(acc, i0, i0 + kN, n_);
      }
      solve_rows<kN>(acc, i0, std::make_integer_sequence<int, kN>());
      return;
    }
    product_rows<kN>(acc, i0, std::make_integer_sequence<int, kN>());
    if (m_lower_) {
      accumulate<kN, false>(acc, i0, 0, i0);
    } else {
      accumulate<kN, false>(acc, i0, i0 + kN, n_);
    }
    for (int q = 0; q < kN * kParts; ++q) row0[q] = acc[q];
  }

  const TriBlockProblem& p_;
  const R* a_;
  R* b_;
  int64_t n_;
  bool left_, m_lower_, conj_, solve_, unit_;
  int64_t lda_reals_;
  V* x_ = nullptr;
  R* d_ = nullptr;
};

template <class R, bool kCx, int kBytes>
[[gnu::always_inline]] inline void run_typed(const TriBlockProblem& p) {
  if ((p.trans == Op::kNoTrans) == (p.side == Side::kLeft)) {
    Block<R, kCx, kBytes, true>(p).run();
  } else {
    Block<R, kCx, kBytes, false>(p).run();
  }
}

template <int kBytes>
[[gnu::always_inline]] inline void run_any(const TriBlockProblem& p) {
  if (p.order <= 0 || p.count <= 0) return;
  switch (p.type) {
    case DataType::kF32:
      run_typed<float, false, kBytes>(p);
      break;
    case DataType::kF64:
      run_typed<double, false, kBytes>(p);
      break;
    case DataType::kC32:
      run_typed<float, true, kBytes>(p);
      break;
    case DataType::kC64:
      run_typed<double, true, kBytes>(p);
      break;
    default:
      break;
  }
}

void run_baseline(const TriBlockProblem& p) { run_any<16>(p); }
#if defined(__x86_64__)
[[gnu::target("avx2,fma")]] void run_avx2(const TriBlockProblem& p) { run_any<32>(p); }
[[gnu::target("avx512f,avx2,fma")]] void run_avx512(const TriBlockProblem& p) { run_any<64>(p); }
#endif

int64_t register_bytes(gemm_host_small::Isa isa) {
  return isa == gemm_host_small::Isa::kAvx512 ? 64 : isa == gemm_host_small::Isa::kAvx2 ? 32 : 16;
}

// Vectors per chunk of a variant whose register is `bytes` wide.
int64_t lanes_of(DataType type, int64_t bytes) {
  return bytes / (type == DataType::kF64 || type == DataType::kC64 ? 8 : 4);
}

}  // namespace

int64_t lanes(DataType type) { return lanes_of(type, register_bytes(gemm_host_small::best_isa())); }

void run(const TriBlockProblem& p, gemm_host_small::Isa isa) {
#if defined(__x86_64__)
  if (isa == gemm_host_small::Isa::kAvx512) return run_avx512(p);
  if (isa == gemm_host_small::Isa::kAvx2) return run_avx2(p);
#endif
  (void)isa;
  run_baseline(p);
}

void run(const TriBlockProblem& p) {
  static const gemm_host_small::Isa best = gemm_host_small::best_isa();
  // Vectors that fit one AVX2 register of lanes run on it where AVX-512 would leave half of its
  // lanes empty: real side-L blocks then go through the tiled transposes (an 8^2 strsm or strmm
  // copied element by element on AVX-512), and no multiply-add runs on empty lanes.
  if (best == gemm_host_small::Isa::kAvx512 &&
      p.count <= lanes_of(p.type, register_bytes(gemm_host_small::Isa::kAvx2))) {
    return run(p, gemm_host_small::Isa::kAvx2);
  }
  run(p, best);
}

}  // namespace tileblas::tri_block_host
