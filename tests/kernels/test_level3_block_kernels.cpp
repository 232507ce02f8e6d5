// Kernel tier, the Level-3 plans' diagonal-block kernels (kernels/tri_update, tri_fill, tri_block,
// tri_invert) in f32, f64, c32, c64, called through their launch() on device buffers, against the
// host plans' loops (src/host_plans.h; the plan tests check those against OpenBLAS) on fresh random
// data. NaN fills whatever a kernel must not read (the other triangle, unit diagonals, padding
// rows, C when beta == 0) and whatever it must not write is compared bit for bit with what was
// there. tri_fill moves values and is compared bit for bit; tri_update (one multiply-add) within 8
// eps of O(1) terms; tri_block (substitution, reciprocals where the loops divide) within 16 eps *
// order. Suites: Level3BlockKernel.* (the full grid; supports() rules need no GPU),
// Level3BlockKernelSmall.* (a quick subset, for compute-sanitizer).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "device_support.h"
#include "host_plans.h"
#include "level3_cpu_backend.h"
#include "test_support.h"
#include "tri_block.h"
#include "tri_fill.h"
#include "tri_invert.h"
#include "tri_update.h"
#include "typed_elements.h"

namespace {

using tileblas::DataType;
using tileblas::Diag;
using tileblas::Fill;
using tileblas::Op;
using tileblas::Scalar;
using tileblas::Side;
using tileblas::Uplo;

const DataType kTypes[] = {DataType::kF32, DataType::kF64, DataType::kC32, DataType::kC64};

using tbtest::kComplex;
using tbtest::Real;

template <class T>
T random_value() {
  using R = Real<T>;
  std::uniform_real_distribution<double> d(-1, 1);
  if constexpr (kComplex<T>) {
    return T(R(d(tbtest::rng())), R(d(tbtest::rng())));
  } else {
    return T(d(tbtest::rng()));
  }
}
template <class T>
T nan_of() {
  using R = Real<T>;
  return T(std::numeric_limits<R>::quiet_NaN());
}
template <class T>
std::vector<T> random_values(size_t n) {
  std::vector<T> v(n);
  for (T& x : v) x = random_value<T>();
  return v;
}
template <class T>
Scalar random_scalar() {
  const std::complex<double> v(random_value<std::complex<double>>());
  return kComplex<T> ? Scalar(v.real(), v.imag()) : Scalar(v.real());
}
template <class T>
double eps_of() {
  return double(std::numeric_limits<Real<T>>::epsilon());
}
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
struct Device {
  T* p = nullptr;
  explicit Device(const std::vector<T>& host) {
    EXPECT_EQ(
        cudaMalloc(reinterpret_cast<void**>(&p), std::max<size_t>(host.size(), 1) * sizeof(T)),
        cudaSuccess);
    EXPECT_EQ(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  ~Device() { cudaFree(p); }
  std::vector<T> host(size_t n) const {
    std::vector<T> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
};

// Runs every case of a family for one type; returns the number of failures (the first few
// reported with the case).
class Failures {
 public:
  void add(const std::string& what) {
    if (++count_ <= 10) ADD_FAILURE() << what;
  }
  ~Failures() { EXPECT_EQ(count_, 0); }

 private:
  int count_ = 0;
};

// A triangular matrix for the substitution kernels: n x n in an lda-strided array, the `uplo`
// triangle of each diagonal block of order `block` well conditioned (diagonal in [1, 2], the rest
// scaled by 1 / block), NaN wherever a kernel must not read: outside those triangles, padding rows,
// a unit diagonal.
template <class T>
std::vector<T> conditioned_triangle(int64_t n, int64_t lda, int64_t block, Uplo uplo, Diag diag) {
  std::vector<T> a = random_values<T>(size_t(lda * n));
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < lda; ++i) {
      T& x = a[size_t(i + j * lda)];
      const bool in_tri =
          i < n && i / block == j / block && (uplo == Uplo::kLower ? i >= j : i <= j);
      if (!in_tri || (i == j && diag == Diag::kUnit)) {
        x = nan_of<T>();
      } else if (i == j) {
        x = T(std::uniform_real_distribution<double>(1, 2)(tbtest::rng())) + x * T(0.5);
      } else {
        x = x * T(1.0 / double(block));
      }
    }
  }
  return a;
}

// The largest magnitude among v's elements that are not NaN (a tolerance's scale).
template <class T>
double finite_scale(const std::vector<T>& v) {
  double scale = 0;
  for (const T& x : v) {
    if (!std::isnan(std::abs(x))) scale = std::max(scale, std::abs(std::complex<double>(x)));
  }
  return scale;
}

// ---- tri_update -------------------------------------------------------------------------------

template <class T>
void tri_update_cases(DataType type, bool small) {
  Failures failures;
  const std::vector<int64_t> sizes =
      small ? std::vector<int64_t>{1, 33} : std::vector<int64_t>{1, 31, 33, 70, 200};
  for (int64_t n : sizes) {
    for (Fill fill : {Fill::kLower, Fill::kUpper, Fill::kFull, Fill::kDiagonal}) {
      auto fills = [fill](int64_t i, int64_t j) {
        return fill == Fill::kFull || (fill == Fill::kLower   ? i >= j
                                       : fill == Fill::kUpper ? i <= j
                                                              : i == j);
      };
      for (int t_kind = 0; t_kind < 3; ++t_kind) {  // no T, T like C, stacked blocks of 32
        for (int beta_kind = 0; beta_kind < 2; ++beta_kind) {
          for (bool real_diag : {false, true}) {
            if (real_diag && !kComplex<T>) continue;
            tileblas::TriUpdateProblem p;
            p.type = type, p.fill = fill, p.real_diagonal = real_diag;
            p.m = n, p.n = fill == Fill::kFull ? n + 5 : n;
            p.block = t_kind == 2 ? 32 : 0;
            p.beta = beta_kind == 0 ? Scalar(0.0) : random_scalar<T>();
            if (real_diag) p.beta.im = 0;
            p.ldc = p.m + 2, p.ldt = p.m + 3;
            const int64_t t_cols = t_kind == 2 ? 32 : p.n;
            std::vector<T> c = random_values<T>(size_t(p.ldc * p.n));
            std::vector<T> t = random_values<T>(size_t(p.ldt * t_cols));
            for (int64_t j = 0; j < p.n; ++j) {
              for (int64_t i = 0; i < p.ldc; ++i) {
                const bool in_fill = i < p.m && fills(i, j);
                if (!in_fill || p.beta.is_zero()) c[size_t(i + j * p.ldc)] = nan_of<T>();
              }
            }
            // T: NaN where it is not read (outside the fill, padding, other blocks' columns).
            for (int64_t j = 0; j < t_cols; ++j) {
              for (int64_t i = 0; i < p.ldt; ++i) {
                const int64_t cj = t_kind == 2 ? i / 32 * 32 + j : j;  // C's column it updates
                const bool read = i < p.m && cj < p.n && fills(i, cj);
                if (!read) t[size_t(i + j * p.ldt)] = nan_of<T>();
              }
            }
            Device<T> dc(c), dt(t);
            std::vector<T> want = c;
            p.t = t_kind == 0 ? nullptr : t.data();
            p.c = want.data();
            tileblas::host_tri_update(p);
            p.t = t_kind == 0 ? nullptr : dt.p;
            p.c = dc.p;
            std::ostringstream what;
            what << tileblas::name_of(type) << " tri_update n=" << n << " fill=" << int(fill)
                 << " t=" << t_kind << " beta=(" << p.beta.re << "," << p.beta.im
                 << ") real_diag=" << real_diag;
            if (!tileblas::tri_update::supports(p, tbtest::device_caps())) {
              failures.add(what.str() + ": not supported");
              continue;
            }
            EXPECT_EQ(tileblas::tri_update::launch(p, nullptr), cudaSuccess);
            EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
            const std::vector<T> got = dc.host(c.size());
            for (size_t at = 0; at < got.size(); ++at) {
              const bool both_nan = std::isnan(std::abs(got[at])) && same_bits(got[at], want[at]);
              const double err =
                  std::abs(std::complex<double>(got[at]) - std::complex<double>(want[at]));
              // |T|, |C| <= sqrt(2): a few roundings of terms that size.
              const double tol =
                  8 * eps_of<T>() * (1 + std::abs(std::complex<double>(p.beta.re, p.beta.im)));
              if (both_nan || err <= tol) continue;
              what << ": element " << at << " is " << got[at] << ", want " << want[at];
              failures.add(what.str());
              break;
            }
          }
        }
      }
    }
  }
}

// ---- tri_fill ---------------------------------------------------------------------------------

template <class T>
void tri_fill_cases(DataType type, bool small) {
  Failures failures;
  const std::vector<int64_t> sizes =
      small ? std::vector<int64_t>{1, 33} : std::vector<int64_t>{1, 31, 32, 33, 100};
  using tileblas::TriFillMode;
  for (int64_t n : sizes) {
    for (Uplo uplo : {Uplo::kLower, Uplo::kUpper}) {
      for (TriFillMode mode :
           {TriFillMode::kSymmetric, TriFillMode::kHermitian, TriFillMode::kTriangular}) {
        for (Diag diag : {Diag::kNonUnit, Diag::kUnit}) {
          if (diag == Diag::kUnit && mode != TriFillMode::kTriangular) continue;
          tileblas::TriFillProblem p;
          p.type = type, p.uplo = uplo, p.mode = mode, p.diag = diag, p.n = n;
          p.lda = n + 3, p.ldb = n + 2;
          std::vector<T> a = random_values<T>(size_t(p.lda * n));
          for (int64_t j = 0; j < n; ++j) {
            for (int64_t i = 0; i < p.lda; ++i) {
              const bool read = i < n && (uplo == Uplo::kLower ? i >= j : i <= j) &&
                                !(i == j && diag == Diag::kUnit);
              if (!read) a[size_t(i + j * p.lda)] = nan_of<T>();
              // kHermitian takes the diagonal's imaginary parts as zero: NaN there must not show.
              if constexpr (kComplex<T>) {
                if (read && i == j && mode == TriFillMode::kHermitian) {
                  using R = Real<T>;
                  T& x = a[size_t(i + j * p.lda)];
                  x = T(x.real(), std::numeric_limits<R>::quiet_NaN());
                }
              }
            }
          }
          std::vector<T> b(size_t(p.ldb * n), nan_of<T>());
          Device<T> da(a), db(b);
          std::vector<T> want = b;
          p.a = a.data(), p.b = want.data();
          tileblas::host_tri_fill(p);
          p.a = da.p, p.b = db.p;
          std::ostringstream what;
          what << tileblas::name_of(type) << " tri_fill n=" << n << " uplo=" << int(uplo)
               << " mode=" << int(mode) << " diag=" << int(diag);
          if (!tileblas::tri_fill::supports(p, tbtest::device_caps())) {
            failures.add(what.str() + ": not supported");
            continue;
          }
          EXPECT_EQ(tileblas::tri_fill::launch(p, nullptr), cudaSuccess);
          EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
          const std::vector<T> got = db.host(b.size());
          for (size_t at = 0; at < got.size(); ++at) {
            if (same_bits(got[at], want[at])) continue;
            what << ": element " << at << " is " << got[at] << ", want " << want[at];
            failures.add(what.str());
            break;
          }
        }
      }
    }
  }
}

// ---- tri_block --------------------------------------------------------------------------------

template <class T>
void tri_block_cases(DataType type, bool small) {
  Failures failures;
  const int64_t nb = tileblas::tri_block::max_order(type);
  const std::vector<int64_t> orders =
      small ? std::vector<int64_t>{nb} : std::vector<int64_t>{1, nb / 2 + 3, nb};
  const std::vector<int64_t> counts =
      small ? std::vector<int64_t>{3} : std::vector<int64_t>{1, 65, 130};
  std::vector<Op> transes = {Op::kNoTrans, Op::kTrans};
  if (kComplex<T>) transes.push_back(Op::kConjTrans);
  int which = 0;
  for (int64_t order : orders) {
    for (tileblas::TriBlockOp op :
         {tileblas::TriBlockOp::kSolve, tileblas::TriBlockOp::kMultiply}) {
      for (Side side : {Side::kLeft, Side::kRight}) {
        for (Uplo uplo : {Uplo::kLower, Uplo::kUpper}) {
          for (Op trans : transes) {
            for (Diag diag : {Diag::kNonUnit, Diag::kUnit}) {
              tileblas::TriBlockProblem p;
              p.type = type, p.op = op, p.side = side, p.uplo = uplo, p.trans = trans;
              p.diag = diag, p.order = order;
              p.count = counts[size_t(which++) % counts.size()];
              p.alpha = random_scalar<T>();
              p.lda = order + 2, p.ldb = p.b_rows() + 3;
              const std::vector<T> a = conditioned_triangle<T>(order, p.lda, order, uplo, diag);
              std::vector<T> b = random_values<T>(size_t(p.ldb * p.b_cols()));
              for (int64_t j = 0; j < p.b_cols(); ++j) {
                for (int64_t i = p.b_rows(); i < p.ldb; ++i) b[size_t(i + j * p.ldb)] = nan_of<T>();
              }
              Device<T> da(a), db(b);
              std::vector<T> want = b;
              p.a = a.data(), p.b = want.data();
              tileblas::host_tri_block(p);
              p.a = da.p, p.b = db.p;
              std::ostringstream what;
              what << tileblas::name_of(type) << " tri_block op=" << int(op)
                   << " side=" << int(side) << " uplo=" << int(uplo)
                   << " trans=" << tileblas::name_of(trans) << " diag=" << int(diag)
                   << " order=" << order << " count=" << p.count;
              if (!tileblas::tri_block::supports(p, tbtest::device_caps())) {
                failures.add(what.str() + ": not supported");
                continue;
              }
              EXPECT_EQ(tileblas::tri_block::launch(p, nullptr), cudaSuccess);
              EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
              const std::vector<T> got = db.host(b.size());
              const double tol = 16 * eps_of<T>() * double(order + 2) * finite_scale(want);
              for (size_t at = 0; at < got.size(); ++at) {
                const int64_t i = int64_t(at) % p.ldb;
                if (i >= p.b_rows()) {
                  if (same_bits(got[at], want[at])) continue;
                } else if (std::abs(std::complex<double>(got[at]) -
                                    std::complex<double>(want[at])) <= tol) {
                  continue;
                }
                what << ": element " << at << " is " << got[at] << ", want " << want[at];
                failures.add(what.str());
                break;
              }
            }
          }
        }
      }
    }
  }
}

// ---- tri_invert -------------------------------------------------------------------------------

template <class T>
void tri_invert_cases(DataType type, bool small) {
  Failures failures;
  const int64_t most = tileblas::tri_invert::max_order(type);
  struct Shape {
    int64_t n, block;
  };
  // One block, blocks with a shorter last one, orders past one row per thread (257..512).
  const std::vector<Shape> shapes =
      small ? std::vector<Shape>{{40, 16}}
            : std::vector<Shape>{{1, 1}, {37, 64}, {70, 32}, {600, 256}, {300, 300}, {1030, most}};
  for (const Shape& shape : shapes) {
    for (Uplo uplo : {Uplo::kLower, Uplo::kUpper}) {
      for (Diag diag : {Diag::kNonUnit, Diag::kUnit}) {
        tileblas::TriInvertProblem p;
        p.type = type, p.uplo = uplo, p.diag = diag, p.n = shape.n, p.block = shape.block;
        p.lda = p.n + 3;
        const std::vector<T> a = conditioned_triangle<T>(p.n, p.lda, p.block, uplo, diag);
        // The stack poisoned, with guard blocks after it.
        const size_t stack = size_t(p.blocks() * p.block * p.block);
        std::vector<T> inv(stack + size_t(p.block * p.block), nan_of<T>());
        Device<T> da(a), dinv(inv);
        std::vector<T> want = inv;
        p.a = a.data(), p.inv = want.data();
        tileblas::host_tri_invert(p);
        p.a = da.p, p.inv = dinv.p;
        std::ostringstream what;
        what << tileblas::name_of(type) << " tri_invert uplo=" << int(uplo) << " diag=" << int(diag)
             << " n=" << p.n << " block=" << p.block;
        if (!tileblas::tri_invert::supports(p, tbtest::device_caps())) {
          failures.add(what.str() + ": not supported");
          continue;
        }
        EXPECT_EQ(tileblas::tri_invert::launch(p, nullptr), cudaSuccess);
        EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        const std::vector<T> got = dinv.host(inv.size());
        const double tol = 16 * eps_of<T>() * double(p.block + 2) * finite_scale(want);
        for (size_t at = 0; at < got.size(); ++at) {
          const int64_t b = int64_t(at) / (p.block * p.block);
          const int64_t len = std::max<int64_t>(0, std::min(p.block, p.n - b * p.block));
          const int64_t i = int64_t(at) % p.block, j = int64_t(at) / p.block % p.block;
          const bool written = i < len && j < len;
          const bool zero = written && (uplo == Uplo::kLower ? i < j : i > j);
          if (!written || zero) {  // untouched, or an exact zero
            if (same_bits(got[at], want[at])) continue;
          } else if (std::abs(std::complex<double>(got[at]) - std::complex<double>(want[at])) <=
                     tol) {
            continue;
          }
          what << ": element " << i << ", " << j << " of block " << b << " is " << got[at]
               << ", want " << want[at];
          failures.add(what.str());
          break;
        }
      }
    }
  }
}

template <template <class> class Cases>
void for_each_type(bool small) {
  for (DataType t : kTypes) {
    switch (t) {
      case DataType::kF32:
        Cases<float>::run(t, small);
        break;
      case DataType::kF64:
        Cases<double>::run(t, small);
        break;
      case DataType::kC32:
        Cases<std::complex<float>>::run(t, small);
        break;
      case DataType::kC64:
        Cases<std::complex<double>>::run(t, small);
        break;
      default:
        break;
    }
  }
}
template <class T>
struct TriUpdateCases {
  static void run(DataType t, bool small) { tri_update_cases<T>(t, small); }
};
template <class T>
struct TriFillCases {
  static void run(DataType t, bool small) { tri_fill_cases<T>(t, small); }
};
template <class T>
struct TriBlockCases {
  static void run(DataType t, bool small) { tri_block_cases<T>(t, small); }
};

template <class T>
struct TriInvertCases {
  static void run(DataType t, bool small) { tri_invert_cases<T>(t, small); }
};

TEST(Level3BlockKernel, TriUpdateMatchesLoops) {
  TB_REQUIRE_GPU();
  for_each_type<TriUpdateCases>(false);
}
TEST(Level3BlockKernel, TriFillMatchesLoops) {
  TB_REQUIRE_GPU();
  for_each_type<TriFillCases>(false);
}
TEST(Level3BlockKernel, TriBlockMatchesLoops) {
  TB_REQUIRE_GPU();
  for_each_type<TriBlockCases>(false);
}
TEST(Level3BlockKernel, TriInvertMatchesLoops) {
  TB_REQUIRE_GPU();
  for_each_type<TriInvertCases>(false);
}
TEST(Level3BlockKernelSmall, AllFamilies) {
  TB_REQUIRE_GPU();
  for_each_type<TriUpdateCases>(true);
  for_each_type<TriFillCases>(true);
  for_each_type<TriBlockCases>(true);
  for_each_type<TriInvertCases>(true);
}

// supports() without a GPU: the orders tri_block and tri_invert take, the shapes the others refuse.
TEST(Level3BlockKernel, SupportsRules) {
  const tileblas::DeviceCaps caps = tbtest::hopper_caps();
  void* some = reinterpret_cast<void*>(uintptr_t(1) << 20);
  for (DataType t : kTypes) {
    tileblas::TriBlockProblem b;
    b.type = t, b.count = 10, b.a = some, b.b = some;
    b.order = tileblas::tri_block::max_order(t), b.lda = b.ldb = b.order;
    EXPECT_GE(b.order, 16);
    EXPECT_TRUE(tileblas::tri_block::supports(b, caps));
    b.order += 1, b.lda = b.ldb = b.order;
    EXPECT_FALSE(tileblas::tri_block::supports(b, caps));  // past the registers' order
    b.order = 4, b.lda = 4, b.ldb = 4, b.trans = Op::kConjTrans;
    EXPECT_EQ(tileblas::tri_block::supports(b, caps), tileblas::is_complex(t));
    tileblas::TriInvertProblem v;
    v.type = t, v.a = v.inv = some;
    v.block = tileblas::tri_invert::max_order(t), v.n = 3 * v.block + 1, v.lda = v.n;
    EXPECT_GE(v.block, 256);  // the plans' trsm leaves
    EXPECT_TRUE(tileblas::tri_invert::supports(v, caps));
    v.lda = v.n - 1;
    EXPECT_FALSE(tileblas::tri_invert::supports(v, caps));
    v.lda = v.n, v.block += 1;
    EXPECT_FALSE(tileblas::tri_invert::supports(v, caps));  // past the threads' rows
  }
  tileblas::TriInvertProblem v;
  v.type = DataType::kF16, v.n = v.block = v.lda = 4, v.a = v.inv = some;
  EXPECT_FALSE(tileblas::tri_invert::supports(v, caps));
  tileblas::TriUpdateProblem u;
  u.m = 5, u.n = 6, u.c = some, u.ldc = 5;
  EXPECT_FALSE(tileblas::tri_update::supports(u, caps));  // a triangle of a non-square C
  u.fill = Fill::kFull;
  EXPECT_TRUE(tileblas::tri_update::supports(u, caps));
  u.ldc = 4;
  EXPECT_FALSE(tileblas::tri_update::supports(u, caps));
  u.ldc = 5, u.type = DataType::kF16;
  EXPECT_FALSE(tileblas::tri_update::supports(u, caps));
  tileblas::TriFillProblem f;
  f.n = 8, f.a = f.b = some, f.lda = 8, f.ldb = 7;
  EXPECT_FALSE(tileblas::tri_fill::supports(f, caps));
  f.ldb = 8;
  EXPECT_TRUE(tileblas::tri_fill::supports(f, caps));
}

}  // namespace
