// Kernel tier, transpose / scaled copy and axpy: every row of transpose_kernels() and
// axpy_kernels(), called through its launch() on device buffers, against OpenBLAS on fresh random
// data. Transpose and scaled copy are one multiply per element: compared bit for bit with
// OpenBLAS's somatcopy_/simatcopy_, over the whole buffer, so padding, the floats before a
// misaligned pointer and those after the matrix (NaN poison) must be untouched too. Axpy is one fma
// against OpenBLAS's (possibly) mul+add: a relative tolerance of 2 eps, and the elements between
// strides and around the vector must stay as they were. Suites: TransposeKernel.* / AxpyKernel.*
// (supports() rules without a GPU, the full grid on one), TransposeKernelSmall.* /
// AxpyKernelSmall.* (a quick subset, for compute-sanitizer).
#include <cuda_runtime_api.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "device.h"
#include "device_support.h"
#include "kernel_table.h"
#include "test_support.h"

namespace {

using tileblas::AxpyKernel;
using tileblas::AxpyProblem;
using tileblas::DeviceCaps;
using tileblas::Op;
using tileblas::TransposeKernel;
using tileblas::TransposeProblem;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double norm_ignoring_nan(const std::vector<float>& v) {
  double s = 0.0;
  for (float x : v) s += std::isnan(x) ? 0.0 : double(x) * x;
  return std::sqrt(s);
}

// ---- transpose / scaled copy -----------------------------------------------------------------

struct TransposeCase {
  Op trans = Op::kTrans;
  int64_t rows = 1, cols = 1;
  float alpha = 1.0f;
  int64_t pad_a = 0, pad_b = 0;  // leading dimension beyond the minimum
  int off_a = 0, off_b = 0;      // pointer offsets in floats from a 256-byte aligned allocation
  bool in_place = false;         // a == b (then pad_b, off_b are those of A)

  std::string str() const {
    std::ostringstream s;
    s << tileblas::name_of(trans) << " " << rows << "x" << cols << " alpha=" << alpha
      << " pads=" << pad_a << "," << pad_b << " offsets=" << off_a << "," << off_b
      << (in_place ? " in place" : "");
    return s.str();
  }
};

TransposeProblem problem_of(const TransposeCase& c) {
  TransposeProblem p;
  p.trans = c.trans;
  p.rows = c.rows, p.cols = c.cols;
  p.alpha = c.alpha;
  p.lda = c.rows + c.pad_a;
  p.ldb = c.in_place ? p.lda : p.b_rows() + c.pad_b;
  return p;
}

constexpr int kTail = 8;  // floats after each matrix, checked untouched (NaN after A)

// Runs `c` on `row` and compares with OpenBLAS bit for bit. Returns "" or what went wrong.
std::string run_transpose(const TransposeKernel& row, const TransposeCase& c) {
  TransposeProblem p = problem_of(c);
  const char trans = c.trans == Op::kNoTrans ? 'N' : 'T';
  const int rows = int(p.rows), cols = int(p.cols), lda = int(p.lda), ldb = int(p.ldb);
  const size_t a_size = c.off_a + size_t(p.lda) * p.cols + kTail;
  const size_t b_size = c.off_b + size_t(p.ldb) * p.b_cols() + kTail;
  std::vector<float> a = tbtest::random_floats(a_size, -4.0f, 4.0f);
  for (int i = 0; i < c.off_a; ++i) a[i] = tbtest::nan_value();
  for (size_t i = a_size - kTail; i < a_size; ++i) a[i] = tbtest::nan_value();
  std::vector<float> b_before(c.in_place ? 0 : b_size);
  tbtest::poison(b_before);
  if (!(norm_ignoring_nan(a) > 0)) return "zero input";

  // The oracle on host copies. In place, the expected buffer starts as A and receives
  // somatcopy_ from A: OpenBLAS 0.3.21's simatcopy_ overruns its scratch buffer for some
  // non-square shapes.
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if (!blas.error.empty()) return blas.error;
  std::vector<float> expected = c.in_place ? a : b_before;
  blas.somatcopy("C", &trans, &rows, &cols, &c.alpha, a.data() + c.off_a, &lda,
                 expected.data() + (c.in_place ? c.off_a : c.off_b), &ldb);

  tbtest::DeviceFloats da(a_size), db(c.in_place ? 0 : b_size);
  if (cudaMemcpy(da.base, a.data(), a_size * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
      (!c.in_place &&
       cudaMemcpy(db.base, b_before.data(), b_size * 4, cudaMemcpyHostToDevice) != cudaSuccess)) {
    return "upload failed";
  }
  p.a = da.base + c.off_a;
  p.b = c.in_place ? da.base + c.off_a : db.base + c.off_b;
  if (!row.supports(p, tbtest::device_caps()))
    return std::string(row.name) + " does not support it";
  cudaError_t err = row.launch(p, nullptr);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) return std::string("CUDA error: ") + cudaGetErrorString(err);
  std::vector<float> got(expected.size());
  if (cudaMemcpy(got.data(), c.in_place ? da.base : db.base, got.size() * 4,
                 cudaMemcpyDeviceToHost) != cudaSuccess) {
    return "download failed";
  }

  if (c.alpha != 0.0f && !(norm_ignoring_nan(expected) > 0)) return "zero reference";
  const int64_t ld = c.in_place ? p.lda : p.ldb;
  const int off = c.in_place ? c.off_a : c.off_b;
  for (size_t k = 0; k < got.size(); ++k) {
    // alpha == 0: our kernels write +0; OpenBLAS writes +0 or 0 * a (-0 for negative a)
    // depending on its CPU kernel.
    const bool zero_ok = c.alpha == 0.0f && expected[k] == 0.0f && same_bits(got[k], 0.0f);
    if (!same_bits(got[k], expected[k]) && !zero_ok) {
      std::ostringstream s;
      s << "element " << k;
      if (int64_t(k) >= off)
        s << " (B row " << (int64_t(k) - off) % ld << ", column " << (int64_t(k) - off) / ld << ")";
      s << ": got " << got[k] << ", OpenBLAS " << expected[k];
      return s.str();
    }
  }
  return "";
}

// Layouts per shape: minimal leading dimensions, padding aligned for the 16-byte rows, odd
// padding with misaligned pointers.
std::vector<TransposeCase> layouts_of(TransposeCase base) {
  std::vector<TransposeCase> out;
  TransposeCase c = base;
  out.push_back(c);
  c.pad_a = 4 + (4 - c.rows % 4) % 4;
  c.pad_b = 8 + (4 - (c.trans == Op::kNoTrans ? c.rows : c.cols) % 4) % 4;
  out.push_back(c);
  c = base;
  c.pad_a = 3, c.pad_b = 1, c.off_a = 1 + int(tbtest::rng()() % 3),
  c.off_b = int(tbtest::rng()() % 4);
  out.push_back(c);
  return out;
}

struct Shape {
  int64_t rows, cols;
};

// Runs every case on every row that supports it; each row must have run at least once.
constexpr int kMaxFailures = 10;  // then stop: one bug fails most cases the same way

void check_transpose_rows(const std::vector<TransposeCase>& cases) {
  int failures = 0;
  std::map<std::string, int> ran;
  for (const TransposeKernel& row : tileblas::transpose_kernels()) ran[row.name] = 0;
  for (const TransposeCase& c : cases) {
    TransposeProblem p = problem_of(c);
    for (const TransposeKernel& row : tileblas::transpose_kernels()) {
      // supports() decides on the pointers; probe it with the pointers the case will have.
      const uintptr_t base = 0x100000;
      p.a = reinterpret_cast<const float*>(base) + c.off_a;
      p.b = c.in_place ? const_cast<float*>(p.a)
                       : reinterpret_cast<float*>(base + (uintptr_t(1) << 36)) + c.off_b;
      if (!row.supports(p, tbtest::device_caps())) continue;
      ++ran[row.name];
      const std::string msg = run_transpose(row, c);
      EXPECT_EQ(msg, "") << row.name << ": " << c.str();
      if (!msg.empty() && ++failures >= kMaxFailures) return;
    }
  }
  for (const auto& [name, count] : ran) EXPECT_GT(count, 0) << name << " never ran";
}

std::vector<TransposeCase> transpose_grid(const std::vector<Shape>& shapes,
                                          const std::vector<float>& alphas) {
  std::vector<TransposeCase> cases;
  for (const Shape& s : shapes) {
    for (Op trans : {Op::kNoTrans, Op::kTrans}) {
      for (float alpha : alphas) {
        TransposeCase c;
        c.trans = trans, c.rows = s.rows, c.cols = s.cols, c.alpha = alpha;
        for (const TransposeCase& l : layouts_of(c)) cases.push_back(l);
        // In place: square transposes, or copies with lda == ldb.
        if (trans == Op::kNoTrans || s.rows == s.cols) {
          c.in_place = true;
          cases.push_back(c);
          c.pad_a = 5, c.off_a = 3;
          cases.push_back(c);
        }
      }
    }
  }
  return cases;
}

TEST(TransposeKernel, SupportsRules) {
  const DeviceCaps caps = tbtest::hopper_caps();
  auto at = [](uintptr_t addr) { return reinterpret_cast<float*>(addr); };
  TransposeProblem p;
  p.trans = Op::kTrans, p.rows = 64, p.cols = 48, p.lda = 64, p.ldb = 48;
  p.a = at(0x10000), p.b = at(0x80000);
  const TransposeKernel* vec4 = tileblas::find_transpose_kernel("transpose_tiled_64x64_vec4");
  const TransposeKernel* sheared = tileblas::find_transpose_kernel("transpose_sheared_64x64");
  const TransposeKernel* inplace =
      tileblas::find_transpose_kernel("transpose_inplace_square_32x32");
  const TransposeKernel* copy = tileblas::find_transpose_kernel("scale_copy");
  ASSERT_TRUE(vec4 && sheared && inplace && copy);
  const TransposeKernel* any_alignment[] = {sheared};
  EXPECT_TRUE(vec4->supports(p, caps));
  EXPECT_FALSE(inplace->supports(p, caps));
  EXPECT_FALSE(copy->supports(p, caps)) << "scaled copy is op N only";
  TransposeProblem q = p;
  q.a = at(0x10004);
  EXPECT_FALSE(vec4->supports(q, caps)) << "A not 16-byte aligned";
  q = p, q.lda = 66;
  EXPECT_FALSE(vec4->supports(q, caps)) << "lda not a multiple of 4";
  q = p, q.b = at(0x10000 + 4 * 100);
  EXPECT_FALSE(vec4->supports(q, caps)) << "B overlaps A";
  DeviceCaps turing = caps;
  turing.sm_version = 75;
  TransposeProblem sq = p;
  sq.cols = 64, sq.ldb = 64, sq.b = const_cast<float*>(sq.a);
  for (const TransposeKernel* row : any_alignment) {
    SCOPED_TRACE(row->name);
    EXPECT_TRUE(row->supports(p, caps));
    q = p, q.a = at(0x10004), q.b = at(0x80008);
    EXPECT_TRUE(row->supports(q, caps)) << "A and B 4-byte aligned only";
    q = p, q.rows = 63, q.lda = 65, q.ldb = 49;
    EXPECT_TRUE(row->supports(q, caps)) << "odd sizes and leading dimensions";
    q = p, q.b = at(0x10000 + 4 * 100);
    EXPECT_FALSE(row->supports(q, caps)) << "B overlaps A";
    q = p, q.ldb = 47;
    EXPECT_FALSE(row->supports(q, caps)) << "ldb below the rows of B";
    q = p, q.rows = 0;
    EXPECT_FALSE(row->supports(q, caps)) << "empty";
    q = p, q.trans = Op::kNoTrans, q.ldb = 64;
    EXPECT_FALSE(row->supports(q, caps)) << "transpose is op T only";
    EXPECT_FALSE(row->supports(p, turing)) << "built for sm_80+";
    EXPECT_FALSE(row->supports(sq, caps)) << "in place";
  }

  EXPECT_TRUE(inplace->supports(sq, caps));
  q = sq, q.ldb = 68;
  EXPECT_FALSE(inplace->supports(q, caps)) << "lda != ldb";
  q = sq, q.cols = 63, q.ldb = 63;
  EXPECT_FALSE(inplace->supports(q, caps)) << "not square";

  TransposeProblem cp = p;
  cp.trans = Op::kNoTrans, cp.ldb = 64;
  EXPECT_TRUE(copy->supports(cp, caps));
  EXPECT_FALSE(vec4->supports(cp, caps)) << "transpose is op T only";
  q = cp, q.b = const_cast<float*>(q.a);
  EXPECT_TRUE(copy->supports(q, caps)) << "in place with lda == ldb";
  q.ldb = 68;
  EXPECT_FALSE(copy->supports(q, caps)) << "in place with lda != ldb";
}

TEST(TransposeKernel, OpenBlasGrid) {
  TB_REQUIRE_GPU();
  const std::vector<Shape> shapes = {{1, 1},       {1, 4099},    {4099, 1},  {33, 4097}, {4097, 33},
                                     {64, 64},     {65, 63},     {127, 129}, {1000, 31}, {191, 577},
                                     {4096, 4096}, {1031, 2053}, {200, 250}};
  check_transpose_rows(transpose_grid(shapes, {0.0f, 1.0f, -2.5f}));
}

TEST(TransposeKernelSmall, AllRows) {
  TB_REQUIRE_GPU();
  const std::vector<Shape> shapes = {{1, 1}, {33, 65}, {65, 33}, {70, 70}, {1, 37}};
  check_transpose_rows(transpose_grid(shapes, {0.0f, -2.5f}));
}

// ---- axpy ------------------------------------------------------------------------------------

struct AxpyCase {
  int64_t n = 1;
  float alpha = 1.0f;
  int64_t incx = 1, incy = 1;
  int off_x = 0, off_y = 0;  // pointer offsets in floats from a 256-byte aligned allocation

  std::string str() const {
    std::ostringstream s;
    s << "n=" << n << " alpha=" << alpha << " incx=" << incx << " incy=" << incy
      << " offsets=" << off_x << "," << off_y;
    return s.str();
  }
};

constexpr int kGuard = 8;  // NaN floats before and after each vector, checked untouched

int64_t span_of(int64_t n, int64_t inc) { return n == 0 ? 0 : (n - 1) * std::llabs(inc) + 1; }
// Position of element i within the stored span (netlib order).
int64_t position(int64_t i, int64_t n, int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

std::string run_axpy(const AxpyKernel& row, const AxpyCase& c) {
  const size_t x_size = kGuard + c.off_x + span_of(c.n, c.incx) + kGuard;
  const size_t y_size = kGuard + c.off_y + span_of(c.n, c.incy) + kGuard;
  std::vector<float> x = tbtest::random_floats(x_size, -2.0f, 2.0f);
  std::vector<float> y = tbtest::random_floats(y_size, -2.0f, 2.0f);
  for (int i = 0; i < kGuard + c.off_y; ++i) y[i] = tbtest::nan_value();
  for (size_t i = y_size - kGuard; i < y_size; ++i) y[i] = tbtest::nan_value();
  float* hx = x.data() + kGuard + c.off_x;
  std::vector<float> expected = y;
  float* hy_ref = expected.data() + kGuard + c.off_y;

  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if (!blas.error.empty()) return blas.error;
  const int n = int(c.n), incx = int(c.incx), incy = int(c.incy);
  blas.saxpy(&n, &c.alpha, hx, &incx, hy_ref, &incy);

  tbtest::DeviceFloats dx(x_size), dy(y_size);
  if (cudaMemcpy(dx.base, x.data(), x_size * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(dy.base, y.data(), y_size * 4, cudaMemcpyHostToDevice) != cudaSuccess) {
    return "upload failed";
  }
  AxpyProblem p;
  p.n = c.n, p.alpha = c.alpha, p.incx = c.incx, p.incy = c.incy;
  p.x = dx.base + kGuard + c.off_x;
  p.y = dy.base + kGuard + c.off_y;
  if (!row.supports(p, tbtest::device_caps()))
    return std::string(row.name) + " does not support it";
  cudaError_t err = row.launch(p, nullptr);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) return std::string("CUDA error: ") + cudaGetErrorString(err);
  std::vector<float> got(y_size);
  if (cudaMemcpy(got.data(), dy.base, y_size * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
    return "download failed";
  }

  // Updated positions: within 2 eps (|alpha x| + |y|) of OpenBLAS (one fma against a possible
  // mul+add). Everything else: the bits it had.
  std::vector<float> bound(y_size, -1.0f);
  const float* y0 = y.data() + kGuard + c.off_y;
  for (int64_t i = 0; i < c.n && c.alpha != 0.0f; ++i) {
    const int64_t py = position(i, c.n, c.incy), px = position(i, c.n, c.incx);
    bound[kGuard + c.off_y + py] =
        2.0f * FLT_EPSILON * (std::fabs(c.alpha * hx[px]) + std::fabs(y0[py]));
  }
  double touched_norm = 0.0;
  for (size_t k = 0; k < y_size; ++k) {
    const bool updated = bound[k] >= 0.0f;
    if (updated) touched_norm += double(expected[k]) * expected[k];
    const bool ok =
        updated ? std::fabs(got[k] - expected[k]) <= bound[k] : same_bits(got[k], expected[k]);
    if (!ok) {
      std::ostringstream s;
      s << "y stored element " << (int64_t(k) - kGuard - c.off_y)
        << (updated ? "" : " (not updated)") << ": got " << got[k] << ", OpenBLAS " << expected[k];
      return s.str();
    }
  }
  if (c.n > 0 && c.alpha != 0.0f && !(touched_norm > 0)) return "zero reference";
  return "";
}

void check_axpy_rows(const std::vector<AxpyCase>& cases) {
  int failures = 0;
  std::map<std::string, int> ran;
  for (const AxpyKernel& row : tileblas::axpy_kernels()) ran[row.name] = 0;
  for (const AxpyCase& c : cases) {
    for (const AxpyKernel& row : tileblas::axpy_kernels()) {
      AxpyProblem p;
      p.n = c.n, p.alpha = c.alpha, p.incx = c.incx, p.incy = c.incy;
      p.x = reinterpret_cast<const float*>(uintptr_t(0x100000)) + kGuard + c.off_x;
      p.y = reinterpret_cast<float*>(uintptr_t(0x900000)) + kGuard + c.off_y;
      if (!row.supports(p, tbtest::device_caps())) continue;
      ++ran[row.name];
      const std::string msg = run_axpy(row, c);
      EXPECT_EQ(msg, "") << row.name << ": " << c.str();
      if (!msg.empty() && ++failures >= kMaxFailures) return;
    }
  }
  for (const auto& [name, count] : ran) EXPECT_GT(count, 0) << name << " never ran";
}

std::vector<AxpyCase> axpy_grid(const std::vector<int64_t>& sizes,
                                const std::vector<float>& alphas) {
  const std::vector<std::pair<int64_t, int64_t>> incs = {{1, 1},   {2, 1},   {1, -1}, {-3, 2},
                                                         {-1, -1}, {-3, -3}, {2, -3}, {0, 1}};
  std::vector<AxpyCase> cases;
  for (int64_t n : sizes) {
    for (float alpha : alphas) {
      for (const auto& [incx, incy] : incs) {
        AxpyCase c;
        c.n = n, c.alpha = alpha, c.incx = incx, c.incy = incy;
        cases.push_back(c);
        if (incx == 1 && incy == 1) {
          for (int off = 1; off <= 3; ++off) {  // same misalignment, then different ones
            c.off_x = c.off_y = off;
            cases.push_back(c);
            c.off_x = 0;
            cases.push_back(c);
          }
        } else {
          c.off_x = 1 + int(tbtest::rng()() % 3), c.off_y = int(tbtest::rng()() % 4);
          cases.push_back(c);
        }
      }
    }
  }
  return cases;
}

TEST(AxpyKernel, SupportsRules) {
  const DeviceCaps caps = tbtest::hopper_caps();
  const AxpyKernel* vec4 = tileblas::find_axpy_kernel("axpy_vec4");
  const AxpyKernel* strided = tileblas::find_axpy_kernel("axpy_strided");
  ASSERT_TRUE(vec4 && strided);
  AxpyProblem p;
  p.n = 100, p.alpha = 2.0f;
  p.x = reinterpret_cast<const float*>(uintptr_t(0x10000));
  p.y = reinterpret_cast<float*>(uintptr_t(0x20000));
  EXPECT_TRUE(vec4->supports(p, caps));
  EXPECT_TRUE(strided->supports(p, caps));
  AxpyProblem q = p;
  q.x += 1, q.y += 1;
  EXPECT_TRUE(vec4->supports(q, caps)) << "same misalignment: the prologue aligns both";
  q.y += 1;
  EXPECT_FALSE(vec4->supports(q, caps)) << "different misalignment";
  q = p, q.incx = 2;
  EXPECT_FALSE(vec4->supports(q, caps));
  EXPECT_TRUE(strided->supports(q, caps));
  q = p, q.incy = -1;
  EXPECT_TRUE(strided->supports(q, caps));
  q.incy = 0;
  EXPECT_FALSE(strided->supports(q, caps)) << "incy == 0: every element updates one y";
  DeviceCaps turing = caps;
  turing.sm_version = 75;
  EXPECT_FALSE(strided->supports(p, turing)) << "built for sm_80+";
}

TEST(AxpyKernel, OpenBlasGrid) {
  TB_REQUIRE_GPU();
  check_axpy_rows(axpy_grid({0, 1, 3, 4, 5, 7, 8, 1000003}, {0.0f, 1.0f, -2.5f}));
}

TEST(AxpyKernelSmall, AllRows) {
  TB_REQUIRE_GPU();
  check_axpy_rows(axpy_grid({0, 1, 3, 5, 4097}, {-2.5f}));
}

}  // namespace
