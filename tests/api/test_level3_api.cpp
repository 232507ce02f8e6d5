// API tier for the Level-3 routines other than GEMM: ?symm, ?syrk, ?syr2k, ?trmm, ?trsm (s, d, c,
// z) and ?hemm, ?herk, ?her2k (c, z), through libtileblas.so's exported Fortran and CBLAS symbols,
// against a long double reference written from the standard's definitions. Every side, uplo,
// trans and diag, column and row major (CBLAS), both entry points, padded leading dimensions, real
// and complex scalars including 0 and 1. What must not be read holds NaN: the unreferenced triangle
// of A, its diagonal when diag is unit, the imaginary parts of hemm's diagonal, A and B when alpha
// == 0 (trmm/trsm: B too), C when beta == 0. What must not be written is compared bit for bit: the
// other triangle of C for syrk .. her2k (NaN there), the padding of C and of B. herk and her2k
// leave zero imaginary parts on C's diagonal. Error reports follow netlib's numbering and the
// reference CBLAS 3.11's. In CI every call runs on the CPU BLAS; on the GPU machine the same cases
// go through the router, and device and managed pointers run in place.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "test_support.h"
#include "tileblas.h"
#include "typed_elements.h"
#include "xerbla_recorder.h"

namespace {

using tbtest::kComplex;
using tbtest::nan_element;
using tbtest::random_element;
using tbtest::Real;
using tbtest::Wide;
using tbtest::widen;

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kCblasTrans[] = {111, 112, 113};  // N, T, C
constexpr int kCblasUplo[] = {121, 122};        // U, L
constexpr int kCblasDiag[] = {131, 132};        // N, U
constexpr int kCblasSide[] = {141, 142};        // L, R
constexpr char kTransChar[] = {'N', 'T', 'C'};
constexpr char kUploChar[] = {'U', 'L'};
constexpr char kDiagChar[] = {'N', 'U'};
constexpr char kSideChar[] = {'L', 'R'};

enum Routine { kSymm, kHemm, kSyrk, kHerk, kSyr2k, kHer2k, kTrmm, kTrsm };
constexpr const char* kRoutineName[] = {"symm",  "hemm",  "syrk", "herk",
                                        "syr2k", "her2k", "trmm", "trsm"};
bool is_rank_k(Routine r) { return r == kSyrk || r == kHerk || r == kSyr2k || r == kHer2k; }
bool is_triangular(Routine r) { return r == kTrmm || r == kTrsm; }
bool is_hermitian(Routine r) { return r == kHemm || r == kHerk || r == kHer2k; }
bool has_b(Routine r) { return r == kSymm || r == kHemm || r == kSyr2k || r == kHer2k; }

template <class T>
constexpr char kLetter = std::is_same_v<T, float>                 ? 's'
                         : std::is_same_v<T, double>              ? 'd'
                         : std::is_same_v<T, std::complex<float>> ? 'c'
                                                                  : 'z';

// The routines of a type: hemm, herk and her2k exist for complex types only.
template <class T>
std::vector<Routine> routines() {
  if constexpr (kComplex<T>) {
    return {kSymm, kHemm, kSyrk, kHerk, kSyr2k, kHer2k, kTrmm, kTrsm};
  } else {
    return {kSymm, kSyrk, kSyr2k, kTrmm, kTrsm};
  }
}

// The trans values (0 N, 1 T, 2 C) a routine takes: syrk/syr2k N, T (real: also C, meaning T);
// herk/her2k N, C; trmm/trsm all three.
template <class T>
std::vector<int> transes(Routine r) {
  if (is_triangular(r)) return {0, 1, 2};
  if (is_hermitian(r)) return {0, 2};
  if (kComplex<T>) return {0, 1};
  return {0, 1, 2};
}

// ---- The exported symbols, looked up by name (they must be libtileblas's) ----------------------

void* exported(const std::string& name) {
  void* fn = dlsym(RTLD_DEFAULT, name.c_str());
  Dl_info info{};
  if (!fn || !dladdr(fn, &info) || !info.dli_fname ||
      std::strstr(info.dli_fname, "libtileblas") == nullptr) {
    ADD_FAILURE() << name << " is not exported by libtileblas";
    return nullptr;
  }
  return fn;
}

// Fortran: everything by address.
using SymmF = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                       const int*, const void*, const int*, const void*, void*, const int*, size_t,
                       size_t);
using SyrkF = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                       const int*, const void*, void*, const int*, size_t, size_t);
using Syr2kF = void (*)(const char*, const char*, const int*, const int*, const void*, const void*,
                        const int*, const void*, const int*, const void*, void*, const int*, size_t,
                        size_t);
using TrF = void (*)(const char*, const char*, const char*, const char*, const int*, const int*,
                     const void*, const void*, const int*, void*, const int*, size_t, size_t,
                     size_t, size_t);

// CBLAS: real scalars by value, complex ones by address; herk's alpha and beta and her2k's beta
// are real.
template <class T>
using Scal = std::conditional_t<kComplex<T>, const void*, T>;
template <class A, class B>
using SymmC = void (*)(int, int, int, int, int, A, const void*, int, const void*, int, B, void*,
                       int);
template <class A, class B>
using SyrkC = void (*)(int, int, int, int, int, A, const void*, int, B, void*, int);
template <class A, class B>
using Syr2kC = void (*)(int, int, int, int, int, A, const void*, int, const void*, int, B, void*,
                        int);
template <class A>
using TrC = void (*)(int, int, int, int, int, int, int, A, const void*, int, void*, int);

// A scalar as a CBLAS argument of type S (by value, or the address of the value).
template <class S, class T>
S cblas_arg(const T& v, const Real<T>& re) {
  if constexpr (std::is_pointer_v<S>) {
    return &v;
  } else {
    (void)v;
    return re;
  }
}

// ---- One case ----------------------------------------------------------------------------------

template <class T>
struct Case {
  Routine routine;
  bool fortran;  // the Fortran entry point (column major); else CBLAS
  bool row;      // CBLAS row major
  int side = 0, uplo = 0, trans = 0, diag = 0;
  int m = 0, n = 0, k = 0;  // symm/trmm/trsm: m, n; syrk .. her2k: n, k
  T alpha{}, beta{};        // herk: real parts; her2k: beta's real part
  int pad = 0;              // added to every leading dimension
  bool lower_case = false;  // Fortran option letters in lower case
};

template <class T>
std::string describe(const Case<T>& c) {
  char buf[256];
  const Wide al = widen(c.alpha), be = widen(c.beta);
  std::snprintf(buf, sizeof buf,
                "%s%c%s side=%c uplo=%c trans=%c diag=%c m=%d n=%d k=%d alpha=(%g,%g) "
                "beta=(%g,%g) pad=%d%s",
                c.fortran ? "" : "cblas_", kLetter<T>, kRoutineName[c.routine], kSideChar[c.side],
                kUploChar[c.uplo], kTransChar[c.trans], kDiagChar[c.diag], c.m, c.n, c.k,
                double(al.real()), double(al.imag()), double(be.real()), double(be.imag()), c.pad,
                c.row ? " row-major" : "");
  return buf;
}

template <class T>
bool same_bits(const T& x, const T& y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// A stored matrix: `rows` x `cols` logical elements in `lines` lines of `ld` (column major: lines
// are columns; row major: rows).
template <class T>
struct Stored {
  std::vector<T> v;
  int rows = 0, cols = 0, ld = 1, lines = 1;
  bool row = false;
  size_t index(int r, int c) const { return row ? size_t(r) * ld + c : r + size_t(c) * ld; }
  T& at(int r, int c) { return v[index(r, c)]; }
  const T& at(int r, int c) const { return v[index(r, c)]; }
  // Memory of the vector that is no element of the matrix.
  bool is_padding(size_t idx) const {
    return int(idx / size_t(ld)) >= (row ? rows : cols) ||
           int(idx % size_t(ld)) >= (row ? cols : rows);
  }
};

template <class T>
Stored<T> make_stored(int rows, int cols, bool row, int pad, bool nan) {
  Stored<T> s;
  s.rows = rows, s.cols = cols, s.row = row;
  s.ld = std::max(1, row ? cols : rows) + pad;
  s.lines = std::max(1, row ? rows : cols);
  s.v.resize(size_t(s.ld) * s.lines);
  for (T& x : s.v) x = nan ? nan_element<T>() : random_element<T>();
  return s;
}

// Whether (i, j) is in the `uplo` triangle (0 upper, 1 lower), diagonal included.
bool in_triangle(int uplo, int i, int j) { return uplo == 0 ? i <= j : i >= j; }

// Logical dense matrices in long double (error scales are held as real parts).
struct Dense {
  int rows = 0, cols = 0;
  std::vector<Wide> v;
  Dense(int r, int c) : rows(r), cols(c), v(size_t(r) * c) {}
  Wide& operator()(int i, int j) { return v[i + size_t(j) * rows]; }
  const Wide& operator()(int i, int j) const { return v[i + size_t(j) * rows]; }
};

template <class T>
Dense dense(const Stored<T>& s) {
  Dense d(s.rows, s.cols);
  for (int i = 0; i < s.rows; ++i) {
    for (int j = 0; j < s.cols; ++j) d(i, j) = widen(s.at(i, j));
  }
  return d;
}

// op(X) as a dense matrix: 0 X, 1 X^T, 2 X^H.
Dense op_of(const Dense& x, int trans) {
  if (trans == 0) return x;
  Dense t(x.cols, x.rows);
  for (int i = 0; i < x.rows; ++i) {
    for (int j = 0; j < x.cols; ++j) t(j, i) = trans == 2 ? std::conj(x(i, j)) : x(i, j);
  }
  return t;
}

// x * y, and |x| * |y| (the scale an error bound needs).
void multiply(const Dense& x, const Dense& y, Dense* out, Dense* abs_out) {
  for (int i = 0; i < x.rows; ++i) {
    for (int j = 0; j < y.cols; ++j) {
      Wide s = 0;
      long double a = 0;
      for (int l = 0; l < x.cols; ++l) {
        s += x(i, l) * y(l, j);
        a += std::abs(x(i, l)) * std::abs(y(l, j));
      }
      (*out)(i, j) = s;
      (*abs_out)(i, j) = a;
    }
  }
}

// What a case computes: the reference value and error scale of each element of the output, and
// which elements it writes.
struct Expected {
  Dense value, scale;
  std::vector<char> written;  // per element (i + j * rows)
  long double inner = 0;      // the length of the sums (for the bound)
  bool quick = false;         // netlib's quick return: nothing written at all
  Expected(int r, int c) : value(r, c), scale(r, c), written(size_t(r) * c, 0) {}
};

// The operands of a case, as stored and filled: NaN where nothing may be read.
template <class T>
struct Operands {
  Stored<T> a, b, c;  // trmm/trsm: B is in c (the output), b unused
};

template <class T>
Operands<T> make_operands(const Case<T>& cs) {
  const Routine r = cs.routine;
  const bool products = !(cs.alpha == T(0)) && (!is_rank_k(r) || cs.k > 0);
  Operands<T> o;
  if (is_rank_k(r)) {
    const int a_rows = cs.trans == 0 ? cs.n : cs.k, a_cols = cs.trans == 0 ? cs.k : cs.n;
    o.a = make_stored<T>(a_rows, a_cols, cs.row, cs.pad, !products);
    o.b = make_stored<T>(a_rows, a_cols, cs.row, cs.pad, !products);
    o.c = make_stored<T>(cs.n, cs.n, cs.row, cs.pad, false);
    // The referenced triangle holds NaN when beta == 0 (not read); the other one always (neither
    // read nor written).
    for (int i = 0; i < cs.n; ++i) {
      for (int j = 0; j < cs.n; ++j) {
        if (!in_triangle(cs.uplo, i, j) || cs.beta == T(0)) o.c.at(i, j) = nan_element<T>();
      }
    }
  } else {
    const int order = cs.side == 0 ? cs.m : cs.n;
    o.a = make_stored<T>(order, order, cs.row, cs.pad, !products);
    for (int i = 0; i < order; ++i) {
      for (int j = 0; j < order; ++j) {
        T& x = o.a.at(i, j);
        if (!in_triangle(cs.uplo, i, j)) {
          x = nan_element<T>();
        } else if (is_triangular(r) && products) {
          // Well conditioned: a diagonal of magnitude 1 to 2, off-diagonal entries below
          // 1 / order, so that trsm's forward error stays near eps.
          if (i == j) {
            const Real<T> mag = Real<T>(1 + std::abs(std::real(widen(random_element<T>()))));
            x = T(random_element<Real<T>>() < 0 ? -mag : mag);
            if constexpr (kComplex<T>) x += T(0, 0.5 * std::real(widen(random_element<T>())));
          } else {
            x = T(x / Real<T>(std::max(order, 1)));
          }
        }
      }
    }
    if (is_triangular(r) && cs.diag == 1) {
      for (int i = 0; i < order; ++i) o.a.at(i, i) = nan_element<T>();
    }
    if constexpr (kComplex<T>) {
      // hemm takes its diagonal's imaginary parts as zero.
      if (r == kHemm && products) {
        for (int i = 0; i < order; ++i) {
          o.a.at(i, i) = T(o.a.at(i, i).real(), std::numeric_limits<Real<T>>::quiet_NaN());
        }
      }
    }
    if (has_b(r)) o.b = make_stored<T>(cs.m, cs.n, cs.row, cs.pad, !products);
    // C (trmm/trsm: B, read unless alpha == 0; symm/hemm: C, read unless beta == 0).
    const bool c_read = is_triangular(r) ? products : !(cs.beta == T(0));
    o.c = make_stored<T>(cs.m, cs.n, cs.row, cs.pad, !c_read);
  }
  // Padding of the output: random values that must survive bit for bit.
  for (size_t idx = 0; idx < o.c.v.size(); ++idx) {
    if (o.c.is_padding(idx)) o.c.v[idx] = random_element<T>();
  }
  return o;
}

// The definitions, on the logical (as the caller sees them) matrices.
template <class T>
Expected expected(const Case<T>& cs, const Operands<T>& o) {
  const Routine r = cs.routine;
  const Wide alpha = widen(cs.alpha);
  const Wide beta = widen(cs.beta);
  const int rows = o.c.rows, cols = o.c.cols;
  Expected e(rows, cols);
  const Dense c0 = dense(o.c);
  const bool products = !(cs.alpha == T(0)) && (!is_rank_k(r) || cs.k > 0);
  if (is_rank_k(r)) {
    e.quick = rows == 0 || (!products && cs.beta == T(1));
    const bool herm = is_hermitian(r);
    // herk: alpha, beta real; her2k: beta real.
    const Wide al = r == kHerk ? Wide(alpha.real(), 0) : alpha;
    const Wide be = herm ? Wide(beta.real(), 0) : beta;
    const int t = cs.trans == 0 ? 0 : (herm ? 2 : 1);  // op(A) = A^T, or A^H for herk/her2k
    Dense p(rows, cols), pa(rows, cols), q(rows, cols), qa(rows, cols);
    e.inner = cs.k;
    if (products) {
      const Dense a = dense(o.a), b = dense(r == kSyr2k || r == kHer2k ? o.b : o.a);
      // op(X) is n x k: X itself for trans N, else X^T (X^H).
      const Dense opa = cs.trans == 0 ? a : op_of(a, t), opb = cs.trans == 0 ? b : op_of(b, t);
      // syrk: A A^T; herk: A A^H; syr2k: A B^T + B A^T; her2k: A B^H + conj(alpha)/alpha B A^H.
      multiply(opa, op_of(opb, herm ? 2 : 1), &p, &pa);
      if (r == kSyr2k || r == kHer2k) multiply(opb, op_of(opa, herm ? 2 : 1), &q, &qa);
    }
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        if (!in_triangle(cs.uplo, i, j) || e.quick) continue;
        e.written[i + size_t(j) * rows] = 1;
        Wide v = al * p(i, j);
        long double s = std::abs(al) * pa(i, j).real();
        if (r == kSyr2k || r == kHer2k) {
          v += (r == kHer2k ? std::conj(al) : al) * q(i, j);
          s += std::abs(al) * qa(i, j).real();
        }
        if (!(cs.beta == T(0))) {
          const Wide cij = herm && i == j ? Wide(c0(i, j).real(), 0) : c0(i, j);
          v += be * cij;
          s += std::abs(be * cij);
        }
        if (herm && i == j) v = Wide(v.real(), 0);
        e.value(i, j) = v;
        e.scale(i, j) = s;
      }
    }
    return e;
  }
  e.quick = rows == 0 || cols == 0 || (r != kTrmm && r != kTrsm && !products && cs.beta == T(1));
  const int order = cs.side == 0 ? cs.m : cs.n;
  e.inner = order;
  // The effective A: symmetric, Hermitian or triangular from the referenced triangle.
  Dense a(order, order);
  if (products) {
    for (int i = 0; i < order; ++i) {
      for (int j = 0; j < order; ++j) {
        const bool mine = in_triangle(cs.uplo, i, j);
        const Wide x = widen(mine ? o.a.at(i, j) : o.a.at(j, i));
        if (is_triangular(r)) {
          a(i, j) = !mine ? Wide(0) : (i == j && cs.diag == 1) ? Wide(1) : x;
        } else if (r == kHemm) {
          a(i, j) = i == j ? Wide(x.real(), 0) : mine ? x : std::conj(x);
        } else {
          a(i, j) = x;
        }
      }
    }
  }
  Dense p(rows, cols), pa(rows, cols);
  if (!e.quick) std::fill(e.written.begin(), e.written.end(), 1);
  if (r == kTrsm) {
    // op(A) X = alpha B (left) or X op(A) = alpha B (right), by substitution in long double.
    const Dense opa = op_of(a, cs.trans);
    Dense x(rows, cols);
    if (products) {
      for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) x(i, j) = alpha * c0(i, j);
      }
      const bool lower_op = (cs.uplo == 1) == (cs.trans == 0);  // op(A) lower triangular
      if (cs.side == 0) {
        for (int j = 0; j < cols; ++j) {
          for (int step = 0; step < rows; ++step) {
            const int i = lower_op ? step : rows - 1 - step;
            Wide s = x(i, j);
            for (int l = 0; l < rows; ++l) {
              if (l != i && (lower_op ? l < i : l > i)) s -= opa(i, l) * x(l, j);
            }
            x(i, j) = s / opa(i, i);
          }
        }
      } else {
        for (int i = 0; i < rows; ++i) {
          for (int step = 0; step < cols; ++step) {
            // X op(A) = alpha B: column j of X from the columns l != j with op(A)(l, j) != 0.
            const int j = lower_op ? cols - 1 - step : step;
            Wide s = x(i, j);
            for (int l = 0; l < cols; ++l) {
              if (l != j && (lower_op ? l > j : l < j)) s -= x(i, l) * opa(l, j);
            }
            x(i, j) = s / opa(j, j);
          }
        }
      }
    }
    long double biggest = 0;
    for (const Wide& v : x.v) biggest = std::max(biggest, std::abs(v));
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        e.value(i, j) = x(i, j);
        e.scale(i, j) = 4 * biggest;  // well-conditioned A: |A^-1| |A| |X| within a few |X|
      }
    }
    return e;
  }
  if (products) {
    if (r == kTrmm) {
      const Dense opa = op_of(a, cs.trans);
      if (cs.side == 0) {
        multiply(opa, c0, &p, &pa);
      } else {
        multiply(c0, opa, &p, &pa);
      }
    } else {
      const Dense b = dense(o.b);
      if (cs.side == 0) {
        multiply(a, b, &p, &pa);
      } else {
        multiply(b, a, &p, &pa);
      }
    }
  }
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      Wide v = alpha * p(i, j);
      long double s = std::abs(alpha) * pa(i, j).real();
      if (!is_triangular(r) && !(cs.beta == T(0))) {
        v += beta * c0(i, j);
        s += std::abs(beta * c0(i, j));
      }
      e.value(i, j) = v;
      e.scale(i, j) = s;
    }
  }
  return e;
}

// Calls the case's entry point on the operands (at `mem`'s copies when given: device or managed
// buffers as large as the host vectors).
template <class T>
void call(const Case<T>& cs, Operands<T>& o, T* const* mem) {
  const std::string name = std::string(1, kLetter<T>) + kRoutineName[cs.routine];
  const void* a = mem ? mem[0] : o.a.v.data();
  const void* b = mem ? mem[1] : o.b.v.data();
  void* c = mem ? mem[2] : o.c.v.data();
  const int lda = o.a.ld, ldb = o.b.ld, ldc = o.c.ld;
  const Real<T> alpha_re = std::real(widen(cs.alpha)), beta_re = std::real(widen(cs.beta));
  const Routine r = cs.routine;
  // herk's alpha and beta, her2k's beta: the real parts.
  const void* alpha = r == kHerk ? static_cast<const void*>(&alpha_re) : &cs.alpha;
  const void* beta = is_hermitian(r) && r != kHemm ? static_cast<const void*>(&beta_re) : &cs.beta;
  auto letter = [&](char ch) { return cs.lower_case ? char(ch - 'A' + 'a') : ch; };
  const char side = letter(kSideChar[cs.side]), uplo = letter(kUploChar[cs.uplo]);
  const char trans = letter(kTransChar[cs.trans]), diag = letter(kDiagChar[cs.diag]);
  if (cs.fortran) {
    void* fn = exported(name + "_");
    if (!fn) return;
    if (r == kSymm || r == kHemm) {
      reinterpret_cast<SymmF>(fn)(&side, &uplo, &cs.m, &cs.n, alpha, a, &lda, b, &ldb, beta, c,
                                  &ldc, 1, 1);
    } else if (r == kSyrk || r == kHerk) {
      reinterpret_cast<SyrkF>(fn)(&uplo, &trans, &cs.n, &cs.k, alpha, a, &lda, beta, c, &ldc, 1, 1);
    } else if (r == kSyr2k || r == kHer2k) {
      reinterpret_cast<Syr2kF>(fn)(&uplo, &trans, &cs.n, &cs.k, alpha, a, &lda, b, &ldb, beta, c,
                                   &ldc, 1, 1);
    } else {
      reinterpret_cast<TrF>(fn)(&side, &uplo, &trans, &diag, &cs.m, &cs.n, alpha, a, &lda, c, &ldc,
                                1, 1, 1, 1);
    }
    return;
  }
  void* fn = exported("cblas_" + name);
  if (!fn) return;
  const int layout = cs.row ? kRowMajor : kColMajor;
  using S = Scal<T>;
  using R = Real<T>;
  const int sd = kCblasSide[cs.side], ul = kCblasUplo[cs.uplo], tr = kCblasTrans[cs.trans],
            dg = kCblasDiag[cs.diag];
  switch (r) {
    case kSymm:
    case kHemm:
      reinterpret_cast<SymmC<S, S>>(fn)(layout, sd, ul, cs.m, cs.n,
                                        cblas_arg<S>(cs.alpha, alpha_re), a, lda, b, ldb,
                                        cblas_arg<S>(cs.beta, beta_re), c, ldc);
      break;
    case kSyrk:
      reinterpret_cast<SyrkC<S, S>>(fn)(layout, ul, tr, cs.n, cs.k,
                                        cblas_arg<S>(cs.alpha, alpha_re), a, lda,
                                        cblas_arg<S>(cs.beta, beta_re), c, ldc);
      break;
    case kHerk:
      reinterpret_cast<SyrkC<R, R>>(fn)(layout, ul, tr, cs.n, cs.k, alpha_re, a, lda, beta_re, c,
                                        ldc);
      break;
    case kSyr2k:
      reinterpret_cast<Syr2kC<S, S>>(fn)(layout, ul, tr, cs.n, cs.k,
                                         cblas_arg<S>(cs.alpha, alpha_re), a, lda, b, ldb,
                                         cblas_arg<S>(cs.beta, beta_re), c, ldc);
      break;
    case kHer2k:
      reinterpret_cast<Syr2kC<S, R>>(fn)(layout, ul, tr, cs.n, cs.k,
                                         cblas_arg<S>(cs.alpha, alpha_re), a, lda, b, ldb, beta_re,
                                         c, ldc);
      break;
    case kTrmm:
    case kTrsm:
      reinterpret_cast<TrC<S>>(fn)(layout, sd, ul, tr, dg, cs.m, cs.n,
                                   cblas_arg<S>(cs.alpha, alpha_re), a, lda, c, ldc);
      break;
  }
}

// Runs one case (operands in `mem` when given) and checks every element of the output, what must
// stay as it was, and herk/her2k's real diagonal.
template <class T>
void run_case(const Case<T>& cs, T* const* mem = nullptr) {
  SCOPED_TRACE(describe(cs));
  Operands<T> o = make_operands(cs);
  const Expected e = expected(cs, o);
  const std::vector<T> before = o.c.v;
  if (mem) {
    const std::vector<T>* host[3] = {&o.a.v, &o.b.v, &o.c.v};
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(cudaSuccess, cudaMemcpy(mem[i], host[i]->data(), host[i]->size() * sizeof(T),
                                        cudaMemcpyDefault));
    }
  }
  tbtest::xerbla_record() = {};
  call(cs, o, mem);
  ASSERT_EQ(tbtest::xerbla_record().calls, 0)
      << "xerbla: " << tbtest::xerbla_record().routine << " " << tbtest::xerbla_record().info;
  if (mem) {
    ASSERT_EQ(cudaSuccess,
              cudaMemcpy(o.c.v.data(), mem[2], o.c.v.size() * sizeof(T), cudaMemcpyDefault));
  }
  const long double eps = std::numeric_limits<Real<T>>::epsilon() / 2;
  const long double factor = kComplex<T> ? 8 : 4;
  const int rows = o.c.rows, cols = o.c.cols;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const T& got_t = o.c.at(i, j);
      if (!e.written[i + size_t(j) * rows]) {
        ASSERT_TRUE(same_bits(got_t, before[o.c.index(i, j)]))
            << "(" << i << "," << j << ") written; it must stay as it was";
        continue;
      }
      const Wide got = widen(got_t), want = e.value(i, j);
      const long double tol = factor * eps * (e.inner + 2) * e.scale(i, j).real() + 1e-300L;
      ASSERT_LE(std::abs(got - want), tol)
          << "(" << i << "," << j << ") got (" << double(got.real()) << "," << double(got.imag())
          << ") want (" << double(want.real()) << "," << double(want.imag()) << ")";
      if constexpr (kComplex<T>) {
        if ((cs.routine == kHerk || cs.routine == kHer2k) && i == j) {
          ASSERT_EQ(got_t.imag(), Real<T>(0)) << "imaginary part left on the diagonal at " << i;
        }
      }
    }
  }
  for (size_t idx = 0; idx < o.c.v.size(); ++idx) {
    if (o.c.is_padding(idx)) {
      ASSERT_TRUE(same_bits(o.c.v[idx], before[idx])) << "padding written at " << idx;
    }
  }
}

template <class T>
std::vector<T> scalars() {
  if constexpr (kComplex<T>) {
    return {T(0, 0), T(1, 0), T(0.7f, -0.3f), T(-2, 1.5f)};
  } else {
    return {0.0, 1.0, 0.7, -2.0};
  }
}

// Every option combination of a routine: (side, uplo, trans, diag).
template <class T>
std::vector<std::array<int, 4>> options(Routine r) {
  std::vector<std::array<int, 4>> out;
  const bool sided = !is_rank_k(r);
  for (int side = 0; side < (sided ? 2 : 1); ++side) {
    for (int uplo = 0; uplo < 2; ++uplo) {
      for (int trans : (r == kSymm || r == kHemm) ? std::vector<int>{0} : transes<T>(r)) {
        for (int diag = 0; diag < (is_triangular(r) ? 2 : 1); ++diag) {
          out.push_back({side, uplo, trans, diag});
        }
      }
    }
  }
  return out;
}

// The three ways in: Fortran (column major), CBLAS column major, CBLAS row major.
struct Entry {
  bool fortran, row;
};
constexpr Entry kEntries[] = {{true, false}, {false, false}, {false, true}};

template <class T>
Case<T> make_case(Routine r, const Entry& entry, const std::array<int, 4>& opt, int d1, int d2,
                  T alpha, T beta, int pad) {
  Case<T> c;
  c.routine = r;
  c.fortran = entry.fortran;
  c.row = entry.row;
  c.side = opt[0], c.uplo = opt[1], c.trans = opt[2], c.diag = opt[3];
  if (is_rank_k(r)) {
    c.n = d1, c.k = d2;
  } else {
    c.m = d1, c.n = d2;
  }
  c.alpha = alpha, c.beta = beta, c.pad = pad;
  c.lower_case = entry.fortran && tbtest::rng()() % 2 == 0;
  return c;
}

template <class T>
class Level3Api : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Level3Api, ElementTypes);

// Every routine, every side/uplo/trans/diag, every entry point and layout, on a grid of small
// sizes (0 included), random scalars among 0, 1 and two general ones.
TYPED_TEST(Level3Api, EveryOptionOnASizeGrid) {
  using T = TypeParam;
  const int sizes[] = {0, 1, 2, 7, 31};
  int cases = 0;
  for (Routine r : routines<T>()) {
    for (const auto& opt : options<T>(r)) {
      for (const Entry& entry : kEntries) {
        for (int d1 : sizes) {
          for (int d2 : sizes) {
            run_case<T>(make_case<T>(r, entry, opt, d1, d2, tbtest::pick(scalars<T>()),
                                     tbtest::pick(scalars<T>()), int(tbtest::rng()() % 3)));
            if (this->HasFatalFailure()) return;
            ++cases;
          }
        }
      }
    }
  }
  // Option combinations: real symm 4, syrk 6, syr2k 6, trmm 24, trsm 24; complex symm, hemm,
  // syrk, herk, syr2k, her2k 4 each, trmm 24, trsm 24.
  EXPECT_EQ(cases, (kComplex<T> ? 72 : 64) * 3 * 25);
}

// Every alpha, beta pair (netlib's special cases 0 and 1 included) for every routine and entry.
TYPED_TEST(Level3Api, EveryScalarPair) {
  using T = TypeParam;
  for (Routine r : routines<T>()) {
    for (const Entry& entry : kEntries) {
      for (T alpha : scalars<T>()) {
        for (T beta : scalars<T>()) {
          run_case<T>(make_case<T>(r, entry, tbtest::pick(options<T>(r)), 37, 29, alpha, beta,
                                   int(tbtest::rng()() % 4)));
          if (this->HasFatalFailure()) return;
        }
      }
    }
  }
}

// Sizes across 64, 128 and 256 (tile and block edges of the GPU plans), options picked at random.
TYPED_TEST(Level3Api, LargerShapes) {
  using T = TypeParam;
  const int shapes[][2] = {{300, 7}, {5, 299}, {129, 131}, {65, 257}, {256, 64}, {127, 1}};
  for (Routine r : routines<T>()) {
    for (const auto& s : shapes) {
      run_case<T>(make_case<T>(
          r, tbtest::pick(std::vector<Entry>(std::begin(kEntries), std::end(kEntries))),
          tbtest::pick(options<T>(r)), s[0], s[1], scalars<T>()[2], tbtest::pick(scalars<T>()), 3));
      if (this->HasFatalFailure()) return;
    }
  }
}

// ---- Error reports: netlib's numbering, and the reference CBLAS 3.11's ----------------------

struct Report {
  int calls;
  std::string routine;
  int info;
};

Report last_report() {
  const tbtest::XerblaRecord& r = tbtest::xerbla_record();
  return {r.calls, r.routine, r.info};
}

TEST(Level3ApiErrors, FortranNumbering) {
  float a[4] = {}, b[4] = {}, c[4] = {};
  const float one = 1;
  const int zero = 0, two = 2, bad = -1, lda1 = 1;
  auto expect = [](const char* name, int info) {
    const Report r = last_report();
    EXPECT_EQ(r.calls, 1) << name;
    EXPECT_EQ(r.routine, name);
    EXPECT_EQ(r.info, info) << name;
    tbtest::xerbla_record() = {};
  };
  tbtest::xerbla_record() = {};
  const auto strsm = reinterpret_cast<TrF>(exported("strsm_"));
  const auto ssyrk = reinterpret_cast<SyrkF>(exported("ssyrk_"));
  const auto ssymm = reinterpret_cast<SymmF>(exported("ssymm_"));
  const auto csyr2k = reinterpret_cast<Syr2kF>(exported("csyr2k_"));
  const auto zherk = reinterpret_cast<SyrkF>(exported("zherk_"));
  ASSERT_TRUE(strsm && ssyrk && ssymm && csyr2k && zherk);
  strsm("X", "U", "N", "N", &two, &two, &one, a, &two, b, &two, 1, 1, 1, 1);
  expect("STRSM", 1);
  strsm("L", "U", "N", "X", &two, &two, &one, a, &two, b, &two, 1, 1, 1, 1);
  expect("STRSM", 4);
  strsm("R", "U", "N", "N", &two, &two, &one, a, &lda1, b, &two, 1, 1, 1, 1);
  expect("STRSM", 9);  // lda < n for side R
  strsm("L", "U", "N", "N", &two, &zero, &one, a, &two, b, &lda1, 1, 1, 1, 1);
  expect("STRSM", 11);
  ssyrk("U", "T", &two, &two, &one, a, &lda1, &one, c, &two, 1, 1);
  expect("SSYRK", 7);  // A is k x n for trans T: lda >= k
  ssyrk("U", "N", &two, &zero, &one, a, &two, &one, c, &lda1, 1, 1);
  expect("SSYRK", 10);
  ssymm("L", "U", &bad, &two, &one, a, &two, b, &two, &one, c, &two, 1, 1);
  expect("SSYMM", 3);
  ssymm("L", "U", &two, &two, &one, a, &two, b, &two, &one, c, &lda1, 1, 1);
  expect("SSYMM", 12);
  csyr2k("U", "C", &two, &two, &one, a, &two, b, &two, &one, c, &two, 1, 1);
  expect("CSYR2K", 2);  // csyr2k takes N and T only
  zherk("L", "T", &two, &two, &one, a, &two, &one, c, &two, 1, 1);
  expect("ZHERK", 2);  // zherk takes N and C only
  // Valid calls with a zero dimension report nothing and touch nothing.
  c[0] = 5;
  ssyrk("U", "N", &zero, &two, &one, a, &lda1, &one, c, &lda1, 1, 1);
  EXPECT_EQ(tbtest::xerbla_record().calls, 0);
  EXPECT_EQ(c[0], 5);
}

TEST(Level3ApiErrors, CblasNumberingAsTheReferenceCblas) {
  float a[9] = {}, b[9] = {}, c[9] = {};
  std::complex<float> ca[9] = {}, cc[9] = {}, one(1, 0);
  auto expect = [](const char* name, int info) {
    const Report r = last_report();
    EXPECT_EQ(r.calls, 1) << name << " " << info;
    EXPECT_EQ(r.routine, name);
    EXPECT_EQ(r.info, info) << name;
    tbtest::xerbla_record() = {};
  };
  tbtest::xerbla_record() = {};
  const auto ssyrk = reinterpret_cast<SyrkC<float, float>>(exported("cblas_ssyrk"));
  const auto cher2k = reinterpret_cast<Syr2kC<const void*, float>>(exported("cblas_cher2k"));
  const auto csyrk = reinterpret_cast<SyrkC<const void*, const void*>>(exported("cblas_csyrk"));
  const auto cherk = reinterpret_cast<SyrkC<float, float>>(exported("cblas_cherk"));
  const auto strmm = reinterpret_cast<TrC<float>>(exported("cblas_strmm"));
  const auto ssymm = reinterpret_cast<SymmC<float, float>>(exported("cblas_ssymm"));
  ASSERT_TRUE(ssyrk && cher2k && csyrk && cherk && strmm && ssymm);
  ssyrk(99, 121, 111, 2, 2, 1, a, 2, 1, c, 2);
  expect("cblas_ssyrk", 1);
  ssyrk(kColMajor, 99, 111, 2, 2, 1, a, 2, 1, c, 2);
  expect("cblas_ssyrk", 2);
  // The reference numbers a bad uplo of a row-major syrk 3 (and of her2k 2).
  ssyrk(kRowMajor, 99, 111, 2, 2, 1, a, 2, 1, c, 2);
  expect("cblas_ssyrk", 3);
  cher2k(kRowMajor, 99, 111, 2, 2, &one, ca, 2, ca, 2, 1, cc, 2);
  expect("cblas_cher2k", 2);
  ssyrk(kColMajor, 121, 99, 2, 2, 1, a, 2, 1, c, 2);
  expect("cblas_ssyrk", 3);
  // Fortran checks of the mapped call, numbered one more: lda (7 + 1), ldc (10 + 1).
  ssyrk(kColMajor, 121, 111, 3, 2, 1, a, 2, 1, c, 3);
  expect("cblas_ssyrk", 8);
  ssyrk(kRowMajor, 121, 111, 3, 2, 1, a, 2, 1, c, 3);  // row major, N: A is n x k, lda >= k
  EXPECT_EQ(tbtest::xerbla_record().calls, 0);
  ssyrk(kRowMajor, 121, 111, 3, 2, 1, a, 1, 1, c, 3);
  expect("cblas_ssyrk", 8);
  // csyrk: ConjTrans is an error in column major (Fortran 'C', INFO 2 + 1), taken as N on the
  // transposed storage in row major; cherk: Trans likewise.
  csyrk(kColMajor, 121, 113, 2, 2, &one, ca, 2, &one, cc, 2);
  expect("cblas_csyrk", 3);
  csyrk(kRowMajor, 121, 113, 2, 2, &one, ca, 2, &one, cc, 2);
  EXPECT_EQ(tbtest::xerbla_record().calls, 0);
  cherk(kColMajor, 121, 112, 2, 2, 1, ca, 2, 1, cc, 2);
  expect("cblas_cherk", 3);
  cherk(kRowMajor, 121, 112, 2, 2, 1, ca, 2, 1, cc, 2);
  EXPECT_EQ(tbtest::xerbla_record().calls, 0);
  // trmm: side 2, uplo 3, trans 4, diag 5; row major numbers the mapped call's m (5 + 1) and n
  // (6 + 1), swapped: a bad n of a row-major call is reported 6 (the reference's cblas_xerbla
  // swaps it back to 7 for its message).
  strmm(kColMajor, 99, 121, 111, 131, 2, 2, 1, a, 2, b, 2);
  expect("cblas_strmm", 2);
  strmm(kRowMajor, 141, 121, 111, 99, 2, 2, 1, a, 2, b, 2);
  expect("cblas_strmm", 5);
  strmm(kColMajor, 141, 121, 111, 131, -1, 2, 1, a, 2, b, 2);
  expect("cblas_strmm", 6);
  strmm(kRowMajor, 141, 121, 111, 131, 2, -1, 1, a, 2, b, 2);
  expect("cblas_strmm", 6);
  // Row major, side L: the mapped call is side R on n x m: lda >= m (n of the mapped call).
  strmm(kRowMajor, 141, 121, 111, 131, 3, 2, 1, a, 2, b, 3);
  expect("cblas_strmm", 10);
  // symm: side 2, uplo 3; ldc (12 + 1).
  ssymm(kColMajor, 141, 99, 2, 2, 1, a, 2, b, 2, 1, c, 2);
  expect("cblas_ssymm", 3);
  ssymm(kColMajor, 141, 121, 2, 2, 1, a, 2, b, 2, 1, c, 1);
  expect("cblas_ssymm", 13);
}

// The reference CBLAS's row-major quirks compute what they map to: csyrk ConjTrans as Trans, cherk
// Trans as ConjTrans.
TEST(Level3ApiQuirks, RowMajorConjTransOfSyrkAndTransOfHerk) {
  using T = std::complex<double>;
  tbtest::xerbla_record() = {};
  Case<T> c;
  c.routine = kSyrk, c.fortran = false, c.row = true, c.uplo = 1, c.n = 9, c.k = 5;
  c.alpha = T(0.5, 0.25), c.beta = T(1.5, -1), c.pad = 2;
  c.trans = 1;
  Operands<T> o = make_operands(c);
  const Expected e = expected(c, o);
  Case<T> quirk = c;
  quirk.trans = 2;  // ConjTrans: accepted, computed as Trans
  call<T>(quirk, o, nullptr);
  EXPECT_EQ(tbtest::xerbla_record().calls, 0);
  for (int i = 0; i < c.n; ++i) {
    for (int j = 0; j <= i; ++j) {
      EXPECT_LE(std::abs(widen(o.c.at(i, j)) - e.value(i, j)), 1e-13L * (1 + e.scale(i, j).real()));
    }
  }
  Case<T> h = c;
  h.routine = kHerk, h.trans = 2;
  Operands<T> oh = make_operands(h);
  const Expected eh = expected(h, oh);
  Case<T> hquirk = h;
  hquirk.trans = 1;  // Trans: accepted, computed as ConjTrans
  call<T>(hquirk, oh, nullptr);
  EXPECT_EQ(tbtest::xerbla_record().calls, 0);
  for (int i = 0; i < h.n; ++i) {
    for (int j = 0; j <= i; ++j) {
      EXPECT_LE(std::abs(widen(oh.c.at(i, j)) - eh.value(i, j)),
                1e-13L * (1 + eh.scale(i, j).real()));
    }
  }
}

// A small host call takes one path whether its operands lie in the heap (where the routine's
// measured points may send it to the CPU BLAS before classifying them) or in an mmap'd buffer
// (classified, then routed): the same route and routine, and B equal to the last bit.
TEST(Level3ApiRoutes, SmallHostCallTakesOnePathWhereverItsOperandsLie) {
  const int n = 24, count = n * n;
  const double alpha = 0.75;
  const auto dtrsm = reinterpret_cast<TrF>(exported("dtrsm_"));
  ASSERT_TRUE(dtrsm);
  std::vector<double> a(count), b0(count);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      a[i + j * n] = i == j ? 1.5 + random_element<double>() / 4 : random_element<double>() / n;
      b0[i + j * n] = random_element<double>();
    }
  }
  std::vector<double> b_heap;
  for (int call = 0; call < 2; ++call) {  // the first may measure the rates and points
    b_heap = b0;
    dtrsm("L", "L", "N", "N", &n, &n, &alpha, a.data(), &n, b_heap.data(), &n, 1, 1, 1, 1);
  }
  const std::string heap_kernel = tileblas_last_kernel();
  const tileblas_route heap_route = tileblas_last_route();
  std::printf("heap operands: %s (%s)\n", heap_kernel.c_str(), tileblas_last_reason());

  const size_t bytes = size_t(2 * count) * sizeof(double);
  void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  double* a_map = static_cast<double*>(mapped);
  double* b_map = a_map + count;
  std::copy(a.begin(), a.end(), a_map);
  std::copy(b0.begin(), b0.end(), b_map);
  dtrsm("L", "L", "N", "N", &n, &n, &alpha, a_map, &n, b_map, &n, 1, 1, 1, 1);
  EXPECT_EQ(tileblas_last_route(), heap_route) << tileblas_last_reason();
  EXPECT_EQ(tileblas_last_kernel(), heap_kernel) << tileblas_last_reason();
  EXPECT_EQ(0, std::memcmp(b_map, b_heap.data(), size_t(count) * sizeof(double)));
  for (int i = 0; i < count; ++i) ASSERT_FALSE(std::isnan(b_heap[i])) << i;
  munmap(mapped, bytes);
}

// ---- GPU: device and managed pointers ------------------------------------------------------

// Allocates three buffers as large as the case's operands (device or managed) and runs it there.
template <class T>
void run_in_gpu_memory(const Case<T>& cs, bool managed) {
  const Operands<T> sizes = make_operands(cs);
  const size_t counts[3] = {sizes.a.v.size(), std::max<size_t>(sizes.b.v.size(), 1),
                            sizes.c.v.size()};
  T* mem[3] = {};
  for (int i = 0; i < 3; ++i) {
    void* p = nullptr;
    const cudaError_t err = managed ? cudaMallocManaged(&p, counts[i] * sizeof(T))
                                    : cudaMalloc(&p, counts[i] * sizeof(T));
    ASSERT_EQ(cudaSuccess, err);
    mem[i] = static_cast<T*>(p);
  }
  run_case<T>(cs, mem);
  for (T* p : mem) cudaFree(p);
}

// make_operands() draws the same shapes whatever its random values: run_in_gpu_memory() sizes the
// buffers from one draw, run_case() fills them from another.
TYPED_TEST(Level3Api, DeviceAndManagedPointersInPlace) {
  TB_REQUIRE_GPU();
  using T = TypeParam;
  const int shapes[][2] = {{1, 1}, {33, 65}, {300, 129}, {600, 257}};
  for (Routine r : routines<T>()) {
    for (const auto& s : shapes) {
      for (bool managed : {false, true}) {
        const Case<T> cs = make_case<T>(
            r, tbtest::pick(std::vector<Entry>(std::begin(kEntries), std::end(kEntries))),
            tbtest::pick(options<T>(r)), s[0], s[1], scalars<T>()[3], tbtest::pick(scalars<T>()),
            int(tbtest::rng()() % 4));
        run_in_gpu_memory<T>(cs, managed);
        if (this->HasFatalFailure()) return;
        EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU)
            << describe(cs) << ": " << tileblas_last_reason();
      }
    }
  }
}

// Device memory on a route that runs on the CPU (TILEBLAS_MODE=cpu: every GPU is one tileblas
// does not use) goes through copies. The mode is read once per process: a death test, re-executed.
template <class T>
void device_memory_on_the_cpu_path() {
  setenv("TILEBLAS_MODE", "cpu", 1);
  for (Routine r : routines<T>()) {
    for (const auto& opt : options<T>(r)) {
      const Case<T> cs = make_case<T>(r, kEntries[tbtest::rng()() % 3], opt, 19, 23,
                                      scalars<T>()[2], tbtest::pick(scalars<T>()), 2);
      run_in_gpu_memory<T>(cs, false);
      if (::testing::Test::HasFailure()) std::exit(1);
      if (tileblas_last_route() != TILEBLAS_ROUTE_CPU) std::exit(2);
    }
  }
  std::exit(0);
}

TYPED_TEST(Level3Api, DeviceMemoryOnTheCpuPathGoesThroughCopies) {
  TB_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(device_memory_on_the_cpu_path<TypeParam>(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
