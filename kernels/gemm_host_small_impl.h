// The gemm_host_small variants' body (contract: kernels/gemm_host_small.h), included by one file
// per instruction set, each compiled with that set enabled. Everything here has internal linkage
// and calls no library function templates (index_sequence is a type): no function compiled for one
// instruction set can be merged with, and then run in place of, another file's copy on a CPU
// without that set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tileblas::gemm_host_small {

// A problem as the variants take it: host pointers to T (float or double), transposes as flags.
// With `pairs`, a complex problem seen as a real one (the "1m" method, kernels/gemm_host_small.h):
// m and k count reals (twice the complex rows of op(A) and of op(B)); A, not transposed, holds
// k / 2 columns of (re, im) pairs, the 1m matrix's even columns, its odd ones i times them, formed
// in registers; B is real (its rows 2l and 2l + 1 the real and imaginary parts of op(B)'s row l);
// alpha + i alpha_im scales the product and beta + i beta_im C.
template <class T>
struct Args {
  bool trans_a = false, trans_b = false;
  bool pairs = false;
  int64_t m = 0, n = 0, k = 0;
  T alpha = 1, beta = 0;
  T alpha_im = 0, beta_im = 0;  // pairs only
  const T* a = nullptr;
  int64_t lda = 0;
  const T* b = nullptr;
  int64_t ldb = 0;
  T* c = nullptr;
  int64_t ldc = 0;
};

namespace {

// A's columns: k, or k / 2 with pairs.
template <class T>
int64_t a_columns(const Args<T>& g) {
  return g.pairs ? g.k / 2 : g.k;
}

// Elements of workspace a variant with kMr-row tiles needs for `g`: op(A)'s full blocks of kMr
// rows (used when A is transposed), its last partial block.
template <int kMr, class T>
int64_t workspace_elements(const Args<T>& g) {
  return (g.m / kMr + 1) * kMr * a_columns(g);
}

// kLanes elements of T in one vector register (GCC drops vector_size on an alias template, so the
// type is a member typedef).
template <class T, int kLanes>
struct VecOf {
  typedef T type __attribute__((vector_size(sizeof(T) * kLanes)));
  static_assert(sizeof(type) == sizeof(T) * kLanes, "a vector of kLanes elements");
};
template <class T, int kLanes>
using Vec = typename VecOf<T, kLanes>::type;

template <int kLanes, class T>
inline Vec<T, kLanes> load(const T* p) {
  Vec<T, kLanes> v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

template <int kLanes, class T>
inline void store(T* p, Vec<T, kLanes> v) {
  __builtin_memcpy(p, &v, sizeof v);
}

inline int64_t lesser(int64_t x, int64_t y) { return x < y ? x : y; }

// Rows [i0, i0 + kMr) of op(A) as a_columns(g) columns of kMr elements, zero past row m.
template <int kMr, class T>
void pack_a(const Args<T>& g, int64_t i0, T* out) {
  const int64_t rows = lesser(kMr, g.m - i0), cols = a_columns(g);
  if (rows < kMr) {
    for (int64_t x = 0; x < kMr * cols; ++x) out[x] = T(0);
  }
  if (!g.trans_a) {
    for (int64_t p = 0; p < cols; ++p) {
      for (int64_t i = 0; i < rows; ++i) out[p * kMr + i] = g.a[i0 + i + p * g.lda];
    }
    return;
  }
  // op(A) = A^T: row i of op(A) is column i of A, contiguous in k.
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t p = 0; p < g.k; ++p) out[p * kMr + i] = g.a[(i0 + i) * g.lda + p];
  }
}

// {x, x, ..., x}: one broadcast instruction (a loop of lane stores compiles to one masked
// broadcast per lane, and x + {} to an add first).
template <int kLanes, class T, size_t... kLane>
inline Vec<T, kLanes> broadcast(T x, std::index_sequence<kLane...>) {
  return Vec<T, kLanes>{(static_cast<void>(kLane), x)...};
}
template <int kLanes, class T>
inline Vec<T, kLanes> broadcast(T x) {
  return broadcast<kLanes, T>(x, std::make_index_sequence<kLanes>{});
}

// i v for a vector of (re, im) pairs: each pair (x, y) becomes (-y, x). One in-lane permute and a
// multiply by {-1, 1, ...}.
template <int kLanes, class T, size_t... kLane>
inline Vec<T, kLanes> times_i(Vec<T, kLanes> v, std::index_sequence<kLane...>) {
  using Index = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  const Vec<T, kLanes> swapped = __builtin_shuffle(v, Vec<Index, kLanes>{Index(kLane ^ 1)...});
  return swapped * Vec<T, kLanes>{(kLane % 2 == 0 ? T(-1) : T(1))...};
}
template <int kLanes, class T>
inline Vec<T, kLanes> times_i(Vec<T, kLanes> v) {
  return times_i<kLanes, T>(v, std::make_index_sequence<kLanes>{});
}

// acc = (kMr x k block of op(A), column p at a + p * a_step) * (k x kNr panel of op(B), element
// (p, j) at b[p * row_stride + j * col_stride]); kMr = kVecs * kLanes. kPairs: column p of the
// block is column p / 2 of A's (re, im) pairs times i^(p % 2) (Args::pairs), so A advances by
// a_step every two steps of k.
template <int kLanes, int kVecs, int kNr, bool kPairs, class T>
[[gnu::always_inline]] inline void microkernel(int64_t k, const T* a, int64_t a_step, const T* b,
                                               int64_t row_stride, int64_t col_stride,
                                               Vec<T, kLanes> (&acc)[kNr][kVecs]) {
  for (int j = 0; j < kNr; ++j) {
    for (int v = 0; v < kVecs; ++v) acc[j][v] = Vec<T, kLanes>{};
  }
  int64_t col[kNr];
  for (int j = 0; j < kNr; ++j) col[j] = j * col_stride;
  constexpr int kSteps = kPairs ? 2 : 1;  // steps of k per column of A
  for (int64_t p = 0; p < k; p += kSteps, a += a_step) {
    Vec<T, kLanes> av[kVecs];
    for (int v = 0; v < kVecs; ++v) av[v] = load<kLanes>(a + v * kLanes);
    for (int step = 0; step < kSteps; ++step, b += row_stride) {
      // With pairs, the second step's column is i times the first, made in place: no more
      // registers than one step.
      if (step == 1) {
        for (int v = 0; v < kVecs; ++v) av[v] = times_i<kLanes, T>(av[v]);
      }
      for (int j = 0; j < kNr; ++j) {
        const Vec<T, kLanes> bj = broadcast<kLanes>(b[col[j]]);
        for (int v = 0; v < kVecs; ++v) acc[j][v] += av[v] * bj;  // contracted to FMA
      }
    }
  }
}

// C tile at (i0, j0) = alpha * acc + beta * C (C not read when beta == 0), rows < m, columns < n;
// kPairs: alpha and beta complex (Args::pairs).
template <int kLanes, int kVecs, int kNr, bool kPairs, class T>
[[gnu::always_inline]] inline void update_c(const Args<T>& g, int64_t i0, int64_t j0,
                                            const Vec<T, kLanes> (&acc)[kNr][kVecs]) {
  constexpr int kMr = kVecs * kLanes;
  const int64_t rows = lesser(kMr, g.m - i0), cols = lesser(kNr, g.n - j0);
  // Pairs with a complex alpha (beta): alpha acc = alpha acc + alpha_im (i acc), and likewise beta
  // C. The imaginary parts are applied only where nonzero, so that real scalars round (and
  // propagate infinities) as for real data.
  const bool complex_alpha = kPairs && g.alpha_im != T(0);
  const bool complex_beta = kPairs && g.beta_im != T(0);
  const bool read_c = g.beta != T(0) || complex_beta;
  for (int64_t j = 0; j < cols; ++j) {
    T* c = g.c + i0 + (j0 + j) * g.ldc;
    for (int v = 0; v < kVecs && v * kLanes < rows; ++v, c += kLanes) {
      Vec<T, kLanes> x = acc[j][v] * g.alpha;
      if (complex_alpha) x += times_i<kLanes, T>(acc[j][v]) * g.alpha_im;
      if (rows - v * kLanes >= kLanes) {
        if (read_c) {
          const Vec<T, kLanes> old = load<kLanes>(c);
          x += old * g.beta;
          if (complex_beta) x += times_i<kLanes, T>(old) * g.beta_im;
        }
        store<kLanes>(c, x);
        continue;
      }
      const int64_t lanes = rows - v * kLanes;  // even with pairs
      if (complex_beta) {
        for (int64_t i = 0; i < lanes; i += 2) {
          const T re = c[i], im = c[i + 1];
          c[i] = x[i] + (g.beta * re - g.beta_im * im);
          c[i + 1] = x[i + 1] + (g.beta * im + g.beta_im * re);
        }
      } else if (read_c) {
        for (int64_t i = 0; i < lanes; ++i) c[i] = x[i] + g.beta * c[i];
      } else {
        for (int64_t i = 0; i < lanes; ++i) c[i] = x[i];
      }
    }
  }
}

// One kMr x kNr tile of C at (i0, j0): op(A)'s block and op(B)'s panel as microkernel() takes them.
template <int kLanes, int kVecs, int kNr, bool kPairs, class T>
void tile(const Args<T>& g, int64_t i0, int64_t j0, const T* a, int64_t a_step, const T* b,
          int64_t row_stride, int64_t col_stride) {
  Vec<T, kLanes> acc[kNr][kVecs];
  microkernel<kLanes, kVecs, kNr, kPairs>(g.k, a, a_step, b, row_stride, col_stride, acc);
  update_c<kLanes, kVecs, kNr, kPairs>(g, i0, j0, acc);
}

// Every panel of op(B), read in place: tile_at(width, j0, b, row_stride, col_stride) for kNr
// columns at a time, then the last n % kNr columns in panels of 4, 2 and 1. (Packed into one panel
// of kNr columns, zero past n, the last took longer to pack than to multiply at 4^3, and its FMAs
// on the zero columns as long as on the others.)
template <int kNr, class T, class TileAt>
[[gnu::always_inline]] inline void each_panel(const Args<T>& g, TileAt&& tile_at) {
  auto at = [&](auto width, int64_t j0) {
    if (g.trans_b) {
      tile_at(width, j0, g.b + j0, g.ldb, int64_t(1));
    } else {
      tile_at(width, j0, g.b + j0 * g.ldb, int64_t(1), g.ldb);
    }
  };
  static_assert(kNr <= 8, "a remainder (below kNr) is at most one tile each of 4, 2 and 1 columns");
  int64_t j0 = 0;
  for (; j0 + kNr <= g.n; j0 += kNr) at(std::integral_constant<int, kNr>{}, j0);
  if (g.n - j0 >= 4) {
    at(std::integral_constant<int, 4>{}, j0);
    j0 += 4;
  }
  if (g.n - j0 >= 2) {
    at(std::integral_constant<int, 2>{}, j0);
    j0 += 2;
  }
  if (g.n - j0 >= 1) at(std::integral_constant<int, 1>{}, j0);
}

// The last block of op(A), rows [i0, m), at most kLanes of them, against every panel: one-vector
// tiles of the narrowest vector (down to 16 bytes) that holds the rows, so that no FMA is wasted
// on more padding than a vector's width; A's own rows where they fill it exactly and A is not
// transposed, else packed into `work`, zero-padded.
template <int kLanes, int kNr, bool kPairs, class T>
void narrow_block(const Args<T>& g, int64_t i0, T* work) {
  if constexpr (kLanes / 2 * sizeof(T) >= 16) {
    if (g.m - i0 <= kLanes / 2) return narrow_block<kLanes / 2, kNr, kPairs>(g, i0, work);
  }
  const bool in_place = g.m - i0 == kLanes && !g.trans_a;
  if (!in_place) pack_a<kLanes>(g, i0, work);
  const T* a = in_place ? g.a + i0 : work;
  const int64_t a_step = in_place ? g.lda : kLanes;
  each_panel<kNr>(g,
                  [&](auto width, int64_t j0, const T* b, int64_t row_stride, int64_t col_stride) {
                    tile<kLanes, 1, decltype(width)::value, kPairs>(g, i0, j0, a, a_step, b,
                                                                    row_stride, col_stride);
                  });
}

template <int kLanes, int kVecs, int kNr, bool kPairs, class T>
void gemm_blocks(const Args<T>& g, T* work) {
  constexpr int kMr = kVecs * kLanes;
  const int64_t full = g.m / kMr, tail = g.m % kMr, cols = a_columns(g);
  // op(A)'s full blocks: A's own columns in place, packed when A is transposed. A partial last
  // block of more than one vector of rows is packed, zero-padded; one of at most a vector's rows
  // runs in narrow_block().
  T* a_full = work;
  T* a_tail = work + full * kMr * cols;
  if (g.trans_a) {
    for (int64_t ib = 0; ib < full; ++ib) pack_a<kMr>(g, ib * kMr, a_full + ib * kMr * cols);
  }
  if (tail > kLanes) pack_a<kMr>(g, full * kMr, a_tail);
  // Each block of op(A) (in L1) against every panel of op(B) (from L2): op(A) is read once.
  for (int64_t ib = 0; ib < full; ++ib) {
    const T* a = g.trans_a ? a_full + ib * kMr * cols : g.a + ib * kMr;
    const int64_t a_step = g.trans_a ? kMr : g.lda;
    each_panel<kNr>(
        g, [&](auto width, int64_t j0, const T* b, int64_t row_stride, int64_t col_stride) {
          tile<kLanes, kVecs, decltype(width)::value, kPairs>(g, ib * kMr, j0, a, a_step, b,
                                                              row_stride, col_stride);
        });
  }
  if (tail > kLanes) {
    each_panel<kNr>(
        g, [&](auto width, int64_t j0, const T* b, int64_t row_stride, int64_t col_stride) {
          tile<kLanes, kVecs, decltype(width)::value, kPairs>(g, full * kMr, j0, a_tail, kMr, b,
                                                              row_stride, col_stride);
        });
  } else if (tail > 0) {
    narrow_block<kLanes, kNr, kPairs>(g, full * kMr, a_tail);
  }
}

// g on kMr x kNr tiles (kMr = kVecs * kLanes); g.pairs requires A not transposed.
template <int kLanes, int kVecs, int kNr, class T>
void gemm(const Args<T>& g, T* work) {
  if (g.pairs) {
    gemm_blocks<kLanes, kVecs, kNr, true>(g, work);
  } else {
    gemm_blocks<kLanes, kVecs, kNr, false>(g, work);
  }
}

}  // namespace

}  // namespace tileblas::gemm_host_small
