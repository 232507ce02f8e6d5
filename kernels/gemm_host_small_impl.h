// The gemm_host_small variants' body (contract: kernels/gemm_host_small.h), included by one file
// per instruction set, each compiled with that set enabled. Everything here has internal linkage
// and calls no library function templates (index_sequence is a type): no function compiled for one
// instruction set can be merged with, and then run in place of, another file's copy on a CPU
// without that set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace tileblas::gemm_host_small {

// A problem as the variants take it: host pointers to T (float or double), transposes as flags.
template <class T>
struct Args {
  bool trans_a = false, trans_b = false;
  int64_t m = 0, n = 0, k = 0;
  T alpha = 1, beta = 0;
  const T* a = nullptr;
  int64_t lda = 0;
  const T* b = nullptr;
  int64_t ldb = 0;
  T* c = nullptr;
  int64_t ldc = 0;
};

namespace {

// Elements of workspace a variant with kMr x kNr tiles needs for `g`: op(A)'s full blocks of kMr
// rows (used when A is transposed), its last partial block, one kNr-column panel of op(B).
template <int kMr, int kNr, class T>
int64_t workspace_elements(const Args<T>& g) {
  return (g.m / kMr + 1) * kMr * g.k + kNr * g.k;
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

// Rows [i0, i0 + kMr) of op(A) as k columns of kMr elements, zero past row m.
template <int kMr, class T>
void pack_a(const Args<T>& g, int64_t i0, T* out) {
  const int64_t rows = lesser(kMr, g.m - i0);
  if (rows < kMr) {
    for (int64_t x = 0; x < kMr * g.k; ++x) out[x] = T(0);
  }
  if (!g.trans_a) {
    for (int64_t p = 0; p < g.k; ++p) {
      for (int64_t i = 0; i < rows; ++i) out[p * kMr + i] = g.a[i0 + i + p * g.lda];
    }
    return;
  }
  // op(A) = A^T: row i of op(A) is column i of A, contiguous in k.
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t p = 0; p < g.k; ++p) out[p * kMr + i] = g.a[(i0 + i) * g.lda + p];
  }
}

// Columns [j0, j0 + kNr) of op(B) as k rows of kNr elements, zero past column n (for the last
// panel, when n is not a multiple of kNr; full panels are read in place).
template <int kNr, class T>
void pack_b(const Args<T>& g, int64_t j0, T* out) {
  const int64_t cols = g.n - j0;
  for (int64_t p = 0; p < g.k; ++p) {
    for (int64_t j = 0; j < kNr; ++j) {
      out[p * kNr + j] = j >= cols   ? T(0)
                         : g.trans_b ? g.b[j0 + j + p * g.ldb]
                                     : g.b[p + (j0 + j) * g.ldb];
    }
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

// acc = (kMr x k block of op(A), column p at a + p * a_step) * (k x kNr panel of op(B), element
// (p, j) at b[p * row_stride + j * col_stride]); kMr = kVecs * kLanes.
template <int kLanes, int kVecs, int kNr, class T>
[[gnu::always_inline]] inline void microkernel(int64_t k, const T* a, int64_t a_step, const T* b,
                                               int64_t row_stride, int64_t col_stride,
                                               Vec<T, kLanes> (&acc)[kNr][kVecs]) {
  for (int j = 0; j < kNr; ++j) {
    for (int v = 0; v < kVecs; ++v) acc[j][v] = Vec<T, kLanes>{};
  }
  int64_t col[kNr];
  for (int j = 0; j < kNr; ++j) col[j] = j * col_stride;
  for (int64_t p = 0; p < k; ++p, a += a_step, b += row_stride) {
    Vec<T, kLanes> av[kVecs];
    for (int v = 0; v < kVecs; ++v) av[v] = load<kLanes>(a + v * kLanes);
    for (int j = 0; j < kNr; ++j) {
      const Vec<T, kLanes> bj = broadcast<kLanes>(b[col[j]]);
      for (int v = 0; v < kVecs; ++v) acc[j][v] += av[v] * bj;  // contracted to FMA
    }
  }
}

// C tile at (i0, j0) = alpha * acc + beta * C (C not read when beta == 0), rows < m, columns < n.
template <int kLanes, int kVecs, int kNr, class T>
[[gnu::always_inline]] inline void update_c(const Args<T>& g, int64_t i0, int64_t j0,
                                            const Vec<T, kLanes> (&acc)[kNr][kVecs]) {
  constexpr int kMr = kVecs * kLanes;
  const int64_t rows = lesser(kMr, g.m - i0), cols = lesser(kNr, g.n - j0);
  const bool read_c = g.beta != T(0);
  for (int64_t j = 0; j < cols; ++j) {
    T* c = g.c + i0 + (j0 + j) * g.ldc;
    for (int v = 0; v < kVecs && v * kLanes < rows; ++v, c += kLanes) {
      const Vec<T, kLanes> x = acc[j][v] * g.alpha;
      if (rows - v * kLanes >= kLanes) {
        store<kLanes>(c, read_c ? x + load<kLanes>(c) * g.beta : x);
        continue;
      }
      const int64_t lanes = rows - v * kLanes;
      if (read_c) {
        for (int64_t i = 0; i < lanes; ++i) c[i] = x[i] + g.beta * c[i];
      } else {
        for (int64_t i = 0; i < lanes; ++i) c[i] = x[i];
      }
    }
  }
}

// One kMr x kNr tile of C at (i0, j0): op(A)'s block and op(B)'s panel as microkernel() takes them.
template <int kLanes, int kVecs, int kNr, class T>
void tile(const Args<T>& g, int64_t i0, int64_t j0, const T* a, int64_t a_step, const T* b,
          int64_t row_stride, int64_t col_stride) {
  Vec<T, kLanes> acc[kNr][kVecs];
  microkernel<kLanes, kVecs, kNr>(g.k, a, a_step, b, row_stride, col_stride, acc);
  update_c<kLanes, kVecs, kNr>(g, i0, j0, acc);
}

template <int kLanes, int kVecs, int kNr, class T>
void gemm(const Args<T>& g, T* work) {
  constexpr int kMr = kVecs * kLanes;
  const int64_t full = g.m / kMr, tail = g.m % kMr;
  // A last block of at most one vector of rows runs with one-vector tiles (no padded FMAs).
  const bool narrow_tail = tail > 0 && tail <= kLanes;
  // op(A)'s full blocks: A's own columns in place, packed when A is transposed. The partial last
  // block is always packed, zero-padded.
  T* a_full = work;
  T* a_tail = work + full * kMr * g.k;
  T* b_panel = a_tail + kMr * g.k;
  if (g.trans_a) {
    for (int64_t ib = 0; ib < full; ++ib) pack_a<kMr>(g, ib * kMr, a_full + ib * kMr * g.k);
  }
  if (narrow_tail) {
    pack_a<kLanes>(g, full * kMr, a_tail);
  } else if (tail > 0) {
    pack_a<kMr>(g, full * kMr, a_tail);
  }
  // The last, narrower panel of op(B) packed once, with zero columns; full panels read in place.
  const int64_t n_full = g.n / kNr * kNr;
  if (n_full < g.n) pack_b<kNr>(g, n_full, b_panel);
  // Each block of op(A) (in L1) against every panel of op(B) (from L2): op(A) is read once.
  auto each_panel = [&](auto&& tile_at) {
    for (int64_t j0 = 0; j0 < g.n; j0 += kNr) {
      if (j0 == n_full) {
        tile_at(j0, b_panel, int64_t(kNr), int64_t(1));
      } else if (g.trans_b) {
        tile_at(j0, g.b + j0, g.ldb, int64_t(1));
      } else {
        tile_at(j0, g.b + j0 * g.ldb, int64_t(1), g.ldb);
      }
    }
  };
  for (int64_t ib = 0; ib < full; ++ib) {
    const T* a = g.trans_a ? a_full + ib * kMr * g.k : g.a + ib * kMr;
    const int64_t a_step = g.trans_a ? kMr : g.lda;
    each_panel([&](int64_t j0, const T* b, int64_t row_stride, int64_t col_stride) {
      tile<kLanes, kVecs, kNr>(g, ib * kMr, j0, a, a_step, b, row_stride, col_stride);
    });
  }
  if (narrow_tail) {
    each_panel([&](int64_t j0, const T* b, int64_t row_stride, int64_t col_stride) {
      tile<kLanes, 1, kNr>(g, full * kMr, j0, a_tail, kLanes, b, row_stride, col_stride);
    });
  } else if (tail > 0) {
    each_panel([&](int64_t j0, const T* b, int64_t row_stride, int64_t col_stride) {
      tile<kLanes, kVecs, kNr>(g, full * kMr, j0, a_tail, kMr, b, row_stride, col_stride);
    });
  }
}

}  // namespace

}  // namespace tileblas::gemm_host_small
