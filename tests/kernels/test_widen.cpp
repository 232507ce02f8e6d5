// Kernel tier, widen (kernels/widen.h): fp32 and complex fp32 matrices of any part alignment and
// leading dimension widened into fp64 ones, one or two per launch, or split into their 3M planes;
// and 3M products combined into complex fp32. Random floats in (NaN, infinity and subnormal values
// among them), each element checked to be exactly its double (its planes: the part, the signed
// part, their fp64 sum); every byte of the destination outside the written elements (padding rows,
// the gaps between planes, the guards before and after) must keep its poison, and the source must
// be unchanged. The combine is checked against the formula in fp64 on random products, in each
// triangle, with C poisoned with NaN outside it (and everywhere where beta == 0). The Arguments
// tests need no GPU.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "device_support.h"
#include "test_support.h"
#include "widen.h"

namespace {

using tileblas::widen::Matrix;

struct Shape {
  int64_t rows, cols;
  int64_t pad_src, pad_dst;  // ld - rows
  bool odd;                  // source 4 bytes past an 8-byte boundary
};

constexpr unsigned char kPoison = 0xA5;
constexpr size_t kGuard = 256;

std::string describe(const Shape& s) {
  std::ostringstream o;
  o << s.rows << "x" << s.cols << " pads " << s.pad_src << "," << s.pad_dst
    << (s.odd ? " 4-byte aligned" : "");
  return o.str();
}

float random_float(std::mt19937& rng) {
  switch (rng() % 16) {
    case 0:
      return std::numeric_limits<float>::quiet_NaN();
    case 1:
      return -std::numeric_limits<float>::infinity();
    case 2:
      return std::numeric_limits<float>::denorm_min() * float(rng() % 1000);
    default:
      return std::ldexp(float(int(rng() % 2000001) - 1000000), int(rng() % 60) - 40);
  }
}

// The same bits where both are NaN.
bool same(double got, double want) {
  return std::isnan(want) ? std::isnan(got) : std::memcmp(&got, &want, sizeof got) == 0;
}

std::string run(const std::vector<Shape>& shapes, std::mt19937& rng) {
  struct Buffers {
    std::vector<float> src;  // parts
    std::vector<unsigned char> dst;
    int64_t ld_src, ld_dst;
    size_t src_at;  // parts
  };
  std::vector<Buffers> host(shapes.size());
  std::vector<std::unique_ptr<tbtest::DeviceFloats>> src_dev, dst_dev;
  std::vector<Matrix> matrices;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    Buffers& b = host[i];
    b.ld_src = s.rows + s.pad_src;
    b.ld_dst = std::max<int64_t>(s.rows + s.pad_dst, 1);
    b.src_at = kGuard / 4 + (s.odd ? 1 : 0);
    b.src.resize(b.src_at + size_t(2 * b.ld_src * s.cols) + kGuard / 4);
    for (float& x : b.src) x = random_float(rng);
    b.dst.assign(kGuard + size_t(b.ld_dst * s.cols) * 16 + kGuard, kPoison);
    src_dev.push_back(std::make_unique<tbtest::DeviceFloats>(b.src.size()));
    dst_dev.push_back(std::make_unique<tbtest::DeviceFloats>(b.dst.size() / 4));
    unsigned char* dst = reinterpret_cast<unsigned char*>(dst_dev.back()->base);
    if (cudaMemcpy(src_dev.back()->base, b.src.data(), b.src.size() * 4, cudaMemcpyHostToDevice) !=
            cudaSuccess ||
        cudaMemcpy(dst, b.dst.data(), b.dst.size(), cudaMemcpyHostToDevice) != cudaSuccess)
      return "upload failed";
    matrices.push_back(
        {src_dev.back()->base + b.src_at, b.ld_src, dst + kGuard, b.ld_dst, s.rows, s.cols});
  }
  if (cudaError_t err =
          tileblas::widen::complex_to_double(matrices.data(), int(matrices.size()), nullptr);
      err != cudaSuccess)
    return std::string("widen: ") + cudaGetErrorString(err);
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return std::string("kernel: ") + cudaGetErrorString(err);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const Buffers& b = host[i];
    std::vector<float> src(b.src.size());
    std::vector<unsigned char> dst(b.dst.size());
    if (cudaMemcpy(src.data(), src_dev[i]->base, src.size() * 4, cudaMemcpyDeviceToHost) !=
            cudaSuccess ||
        cudaMemcpy(dst.data(), dst_dev[i]->base, dst.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
      return "download failed";
    if (std::memcmp(src.data(), b.src.data(), src.size() * 4) != 0)
      return describe(s) + ": the source changed";
    std::vector<bool> written(dst.size(), false);
    for (int64_t c = 0; c < s.cols; ++c) {
      for (int64_t r = 0; r < s.rows; ++r) {
        const size_t at = kGuard + size_t(r + c * b.ld_dst) * 16;
        for (int part = 0; part < 2; ++part) {
          double got;
          std::memcpy(&got, &dst[at + 8 * part], 8);
          const double want = double(b.src[b.src_at + size_t(2 * (r + c * b.ld_src) + part)]);
          if (!same(got, want)) {
            std::ostringstream o;
            o << describe(s) << ": element (" << r << "," << c << ") part " << part << " is " << got
              << ", want " << want;
            return o.str();
          }
        }
        std::fill(written.begin() + at, written.begin() + at + 16, true);
      }
    }
    for (size_t j = 0; j < dst.size(); ++j) {
      if (!written[j] && dst[j] != kPoison)
        return describe(s) + ": byte " + std::to_string(j) + " outside the elements written";
    }
  }
  return "";
}

TEST(WidenKernel, EveryEdgeAndAlignment) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(20261126);
  for (int64_t rows : {1, 2, 31, 32, 33, 127, 128, 129, 1031}) {
    for (bool odd : {false, true}) {
      const Shape s{rows, 1 + rows % 11, rows % 3, rows % 2 ? 1 : 0, odd};
      EXPECT_EQ(run({s}, rng), "") << describe(s);
    }
  }
}

TEST(WidenKernel, TwoMatricesInOneLaunch) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(7);
  EXPECT_EQ(run({{8193, 33, 0, 0, false}, {33, 1025, 3, 1, true}}, rng), "");
  EXPECT_EQ(run({{5, 3, 1, 0, true}, {0, 4, 1, 0, false}}, rng), "") << "one empty";
  EXPECT_EQ(run({{1, 8400000, 0, 0, false}, {300, 2, 0, 0, false}}, rng), "")
      << "more tiles than the grid has blocks";
}

TEST(WidenKernel, Arguments) {
  alignas(16) static unsigned char buffer[1024];
  const Matrix ok{buffer + 4, 5, buffer + 256, 5, 5, 1};
  EXPECT_EQ(tileblas::widen::complex_to_double(&ok, 0, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(tileblas::widen::complex_to_double(&ok, 3, nullptr), cudaErrorInvalidValue);
  Matrix m = ok;
  m.ld_dst = 4;
  EXPECT_EQ(tileblas::widen::complex_to_double(&m, 1, nullptr), cudaErrorInvalidValue) << "ld_dst";
  m = ok, m.dst = buffer + 8;
  EXPECT_EQ(tileblas::widen::complex_to_double(&m, 1, nullptr), cudaErrorInvalidValue) << "dst";
  m = ok, m.src = buffer + 2;
  EXPECT_EQ(tileblas::widen::complex_to_double(&m, 1, nullptr), cudaErrorInvalidValue) << "src";
  m = ok, m.ld_src = 4;
  EXPECT_EQ(tileblas::widen::complex_to_double(&m, 1, nullptr), cudaErrorInvalidValue) << "ld_src";
  m = ok, m.rows = 0;
  EXPECT_EQ(tileblas::widen::complex_to_double(&m, 1, nullptr), cudaSuccess) << "empty";
}

// ---- Real matrices
// --------------------------------------------------------------------------------

// One fp32 matrix widened by real_to_double (two in one launch where `second`; matrix i
// transposed where bit i of `transposed` is set), each element exactly its double, every other
// byte of the destinations poisoned as it was.
std::string run_real(const Shape& s, bool second, int transposed, std::mt19937& rng) {
  const int64_t ld_src = s.rows + s.pad_src;
  const int count = second ? 2 : 1;
  const size_t src_at = kGuard / 4 + (s.odd ? 1 : 0);
  const size_t src_len = src_at + size_t(ld_src * s.cols) + kGuard / 4;
  auto is_t = [&](int i) { return (transposed >> i & 1) != 0; };
  // A transposed matrix's destination holds cols x rows.
  auto ld_dst = [&](int i) {
    return std::max<int64_t>((is_t(i) ? s.cols : s.rows) + s.pad_dst, 1);
  };
  auto dst_len = [&](int i) {
    return kGuard + size_t(ld_dst(i) * (is_t(i) ? s.rows : s.cols)) * 8 + kGuard;
  };
  const size_t dst_len_0 = dst_len(0);
  std::vector<float> src(src_len * size_t(count));
  for (float& x : src) x = random_float(rng);
  std::vector<unsigned char> dst(dst_len_0 + (second ? dst_len(1) : 0), kPoison);
  tbtest::DeviceFloats src_dev(src.size()), dst_dev(dst.size() / 4 + 2);
  unsigned char* dst_base = reinterpret_cast<unsigned char*>(dst_dev.base);
  if (cudaMemcpy(src_dev.base, src.data(), src.size() * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(dst_base, dst.data(), dst.size(), cudaMemcpyHostToDevice) != cudaSuccess)
    return "upload failed";
  Matrix m[2];
  for (int i = 0; i < count; ++i) {
    m[i] = {src_dev.base + src_len * size_t(i) + src_at,
            ld_src,
            dst_base + dst_len_0 * size_t(i) + kGuard,
            ld_dst(i),
            s.rows,
            s.cols,
            is_t(i)};
  }
  if (cudaError_t err = tileblas::widen::real_to_double(m, count, nullptr); err != cudaSuccess)
    return std::string("real_to_double: ") + cudaGetErrorString(err);
  std::vector<unsigned char> got(dst.size());
  if (cudaMemcpy(got.data(), dst_base, got.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
    return "download failed";
  std::vector<bool> written(got.size(), false);
  for (int i = 0; i < count; ++i) {
    for (int64_t c = 0; c < s.cols; ++c) {
      for (int64_t r = 0; r < s.rows; ++r) {
        const int64_t element = is_t(i) ? c + r * ld_dst(i) : r + c * ld_dst(i);
        const size_t at = dst_len_0 * size_t(i) + kGuard + size_t(element) * 8;
        double v;
        std::memcpy(&v, &got[at], 8);
        const double want = double(src[src_len * size_t(i) + src_at + size_t(r + c * ld_src)]);
        if (!same(v, want)) {
          std::ostringstream o;
          o << describe(s) << ": matrix " << i << (is_t(i) ? " (transposed)" : "") << " element ("
            << r << "," << c << ") is " << v << ", want " << want;
          return o.str();
        }
        std::fill(written.begin() + at, written.begin() + at + 8, true);
      }
    }
  }
  for (size_t j = 0; j < got.size(); ++j) {
    if (!written[j] && got[j] != kPoison)
      return describe(s) + ": byte " + std::to_string(j) + " outside the elements written";
  }
  return "";
}

TEST(WidenReal, EveryEdgeAndAlignment) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(5);
  for (int64_t rows : {1, 2, 31, 33, 128, 129, 1031}) {
    for (bool odd : {false, true}) {
      const Shape s{rows, 1 + rows % 11, rows % 3, rows % 2 ? 1 : 0, odd};
      EXPECT_EQ(run_real(s, rows % 2 == 1, 0, rng), "") << describe(s);
    }
  }
}

// Transposed as widened (the sgemm_widened rows' transposed operands): tiles cut at every edge
// of both dimensions, one or both matrices of a launch transposed.
TEST(WidenReal, TransposedEveryEdge) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(11);
  for (int64_t rows : {1, 7, 8, 9, 127, 128, 129, 300}) {
    for (int64_t cols : {1, 7, 8, 9, 33, 130}) {
      const bool odd = (rows + cols) % 2 == 1;
      const Shape s{rows, cols, rows % 3, cols % 2 ? 3 : 0, odd};
      const int transposed = 1 + int((rows + cols) % 3);  // 1, 2 or 3: the first, second or both
      EXPECT_EQ(run_real(s, transposed != 1, transposed, rng), "") << describe(s);
    }
  }
}

TEST(WidenReal, Arguments) {
  alignas(16) static unsigned char buffer[1024];
  const Matrix ok{buffer + 4, 5, buffer + 264, 5, 5, 1};  // 8-byte aligned destination
  Matrix m = ok;
  m.rows = 0;
  EXPECT_EQ(tileblas::widen::real_to_double(&m, 1, nullptr), cudaSuccess) << "empty";
  m = ok;
  m.dst = buffer + 260;
  EXPECT_EQ(tileblas::widen::real_to_double(&m, 1, nullptr), cudaErrorInvalidValue) << "dst";
  m = ok, m.src = buffer + 2;
  EXPECT_EQ(tileblas::widen::real_to_double(&m, 1, nullptr), cudaErrorInvalidValue) << "src";
  EXPECT_EQ(tileblas::widen::real_to_double(&ok, 3, nullptr), cudaErrorInvalidValue) << "count";
  m = ok, m.rows = 1, m.ld_src = 1, m.cols = 5, m.ld_dst = 1, m.transposed = true;
  EXPECT_EQ(tileblas::widen::real_to_double(&m, 1, nullptr), cudaErrorInvalidValue)
      << "transposed: ld_dst below cols";
  m.ld_dst = 5, m.dst = buffer + 272;  // 16-byte aligned, as complex fp64 needs
  EXPECT_EQ(tileblas::widen::complex_to_double(&m, 1, nullptr), cudaErrorInvalidValue)
      << "complex_to_double does not transpose";
}

// ---- 3M planes ----------------------------------------------------------------------------------

using tileblas::widen::Planes;

// One complex fp32 matrix split into its 3M planes (transposed where `transposed`: each plane then
// holds cols x rows), each element exactly, every other byte of the destination poisoned as it was.
std::string run_planes(const Shape& s, bool conjugate, bool transposed, std::mt19937& rng) {
  const int64_t dst_rows = transposed ? s.cols : s.rows, dst_cols = transposed ? s.rows : s.cols;
  const int64_t ld_src = s.rows + s.pad_src, ld_dst = std::max<int64_t>(dst_rows + s.pad_dst, 1);
  const int64_t plane = ld_dst * dst_cols + 3;  // a gap between the planes
  const size_t src_at = kGuard / 4 + (s.odd ? 1 : 0);
  std::vector<float> src(src_at + size_t(2 * ld_src * s.cols) + kGuard / 4);
  for (float& x : src) x = random_float(rng);
  std::vector<unsigned char> dst(kGuard + size_t(3 * plane) * 8 + kGuard, kPoison);
  tbtest::DeviceFloats src_dev(src.size()), dst_dev(dst.size() / 4);
  unsigned char* dst_base = reinterpret_cast<unsigned char*>(dst_dev.base);
  if (cudaMemcpy(src_dev.base, src.data(), src.size() * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(dst_base, dst.data(), dst.size(), cudaMemcpyHostToDevice) != cudaSuccess)
    return "upload failed";
  const Planes m{src_dev.base + src_at,
                 ld_src,
                 reinterpret_cast<double*>(dst_base + kGuard),
                 ld_dst,
                 plane,
                 s.rows,
                 s.cols,
                 conjugate,
                 transposed};
  if (cudaError_t err = tileblas::widen::complex_to_planes(&m, 1, nullptr); err != cudaSuccess)
    return std::string("planes: ") + cudaGetErrorString(err);
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return std::string("kernel: ") + cudaGetErrorString(err);
  std::vector<float> src_after(src.size());
  std::vector<unsigned char> got(dst.size());
  if (cudaMemcpy(src_after.data(), src_dev.base, src.size() * 4, cudaMemcpyDeviceToHost) !=
          cudaSuccess ||
      cudaMemcpy(got.data(), dst_base, got.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
    return "download failed";
  if (std::memcmp(src_after.data(), src.data(), src.size() * 4) != 0)
    return describe(s) + ": the source changed";
  std::vector<bool> written(got.size(), false);
  for (int64_t c = 0; c < s.cols; ++c) {
    for (int64_t r = 0; r < s.rows; ++r) {
      const double re = double(src[src_at + size_t(2 * (r + c * ld_src))]);
      const double im = double(src[src_at + size_t(2 * (r + c * ld_src)) + 1]);
      const double want[3] = {re, conjugate ? -im : im, re + (conjugate ? -im : im)};
      for (int i = 0; i < 3; ++i) {
        const int64_t element = transposed ? c + r * ld_dst : r + c * ld_dst;
        const size_t at = kGuard + size_t(element + i * plane) * 8;
        double v;
        std::memcpy(&v, &got[at], 8);
        if (!same(v, want[i])) {
          std::ostringstream o;
          o << describe(s) << (conjugate ? " conjugated" : "") << (transposed ? " transposed" : "")
            << ": element (" << r << "," << c << ") plane " << i << " is " << v << ", want "
            << want[i];
          return o.str();
        }
        std::fill(written.begin() + at, written.begin() + at + 8, true);
      }
    }
  }
  for (size_t j = 0; j < got.size(); ++j) {
    if (!written[j] && got[j] != kPoison)
      return describe(s) + ": byte " + std::to_string(j) + " outside the elements written";
  }
  return "";
}

TEST(WidenPlanes, EveryEdgeAlignmentAndConjugation) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(3);
  for (int64_t rows : {1, 2, 31, 33, 128, 129, 1031}) {
    for (bool odd : {false, true}) {
      for (bool conjugate : {false, true}) {
        const Shape s{rows, 1 + rows % 11, rows % 3, rows % 2 ? 1 : 0, odd};
        EXPECT_EQ(run_planes(s, conjugate, false, rng), "") << describe(s);
      }
    }
  }
}

// Transposed as split (the 3M rows' transposed operands): tiles cut at every edge of both
// dimensions, conjugated and not.
TEST(WidenPlanes, TransposedEveryEdge) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(13);
  for (int64_t rows : {1, 7, 8, 9, 128, 129, 300}) {
    for (int64_t cols : {1, 8, 9, 130}) {
      const Shape s{rows, cols, rows % 3, cols % 2 ? 3 : 0, (rows + cols) % 2 == 1};
      EXPECT_EQ(run_planes(s, (rows + cols) % 3 == 0, true, rng), "") << describe(s);
    }
  }
}

// ---- 3M combine ---------------------------------------------------------------------------------

using tileblas::Scalar;
using tileblas::Triangle;

std::string run_combine(int64_t m, int64_t n, Scalar alpha, Scalar beta, Triangle tri,
                        bool products, bool odd_c, std::mt19937& rng) {
  const int64_t ld = m + 1, ldc = m + 2, plane = ld * n + 1;
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> prod(size_t(3 * plane) + 1);
  for (double& x : prod) x = d(rng) * 64.0;
  const size_t c_at = 4 + (odd_c ? 1 : 0);  // floats
  std::vector<float> c(c_at + size_t(2 * ldc * n) + 4);
  for (float& x : c) x = float(d(rng));
  const bool beta_zero = beta.is_zero();
  auto inside = [&](int64_t r, int64_t col) {
    return tri == Triangle::kAll || (tri == Triangle::kUpper ? r <= col : r >= col);
  };
  // NaN where C must not be read: outside the triangle and the rows, and all of C with beta == 0.
  for (int64_t col = 0; col < n; ++col) {
    for (int64_t r = 0; r < ldc; ++r) {
      if (r >= m || !inside(r, col) || beta_zero) {
        c[c_at + size_t(2 * (r + col * ldc))] = std::numeric_limits<float>::quiet_NaN();
        c[c_at + size_t(2 * (r + col * ldc)) + 1] = std::numeric_limits<float>::quiet_NaN();
      }
    }
  }
  tbtest::DeviceFloats prod_dev(prod.size() * 2), c_dev(c.size());
  if (cudaMemcpy(prod_dev.base, prod.data(), prod.size() * 8, cudaMemcpyHostToDevice) !=
          cudaSuccess ||
      cudaMemcpy(c_dev.base, c.data(), c.size() * 4, cudaMemcpyHostToDevice) != cudaSuccess)
    return "upload failed";
  const tileblas::widen::Products p{
      products ? reinterpret_cast<const double*>(prod_dev.base) : nullptr, ld, plane};
  if (cudaError_t err =
          tileblas::widen::combine_3m(p, m, n, alpha, beta, c_dev.base + c_at, ldc, tri, nullptr);
      err != cudaSuccess)
    return std::string("combine: ") + cudaGetErrorString(err);
  std::vector<float> got(c.size());
  if (cudaMemcpy(got.data(), c_dev.base, got.size() * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
    return "download failed";
  for (int64_t col = 0; col < n; ++col) {
    for (int64_t r = 0; r < ldc; ++r) {
      const size_t at = c_at + size_t(2 * (r + col * ldc));
      if (r >= m || !inside(r, col)) {
        if (std::memcmp(&got[at], &c[at], 8) != 0)
          return "element (" + std::to_string(r) + "," + std::to_string(col) + ") outside written";
        continue;
      }
      double xr = 0, xi = 0;
      if (products) {
        const double p0 = prod[size_t(r + col * ld)], p1 = prod[size_t(r + col * ld + plane)],
                     p2 = prod[size_t(r + col * ld + 2 * plane)];
        xr = p0 - p1, xi = p2 - p0 - p1;
      }
      double re = alpha.re * xr - alpha.im * xi, im = alpha.re * xi + alpha.im * xr;
      if (!beta_zero) {
        const double cr = c[at], ci = c[at + 1];
        re += beta.re * cr - beta.im * ci;
        im += beta.re * ci + beta.im * cr;
      }
      const double scale = 1.0 + std::abs(re) + std::abs(im);
      for (int part = 0; part < 2; ++part) {
        const double want = part == 0 ? re : im, v = got[at + size_t(part)];
        if (!(std::abs(v - want) <= 0x1p-22 * scale)) {
          std::ostringstream o;
          o << m << "x" << n << " triangle " << int(tri) << ": element (" << r << "," << col
            << ") part " << part << " is " << v << ", want " << want;
          return o.str();
        }
      }
    }
  }
  for (size_t j = 0; j < c_at; ++j) {
    if (std::memcmp(&got[j], &c[j], 4) != 0) return "the guard before C changed";
  }
  return "";
}

TEST(Combine3m, EveryTriangleScalarAndAlignment) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(11);
  for (Triangle tri : {Triangle::kAll, Triangle::kUpper, Triangle::kLower}) {
    for (const Scalar beta : {Scalar(0.0), Scalar(0.5, -2.0)}) {
      for (bool odd : {false, true}) {
        const int64_t m = tri == Triangle::kAll ? 131 : 97, n = tri == Triangle::kAll ? 9 : 97;
        EXPECT_EQ(run_combine(m, n, Scalar(1.5, 0.25), beta, tri, true, odd, rng), "");
      }
    }
    // alpha == 0 or k == 0: no products, C = beta C.
    EXPECT_EQ(run_combine(40, 40, Scalar(0.0), Scalar(-1.0, 0.5), tri, false, false, rng), "");
  }
}

TEST(WidenPlanes, Arguments) {
  alignas(16) static unsigned char buffer[1024];
  double* dst = reinterpret_cast<double*>(buffer + 256);
  const Planes ok{buffer + 4, 5, dst, 5, 5, 5, 1, false};
  EXPECT_EQ(tileblas::widen::complex_to_planes(&ok, 0, nullptr), cudaErrorInvalidValue);
  Planes m = ok;
  m.plane = 4;
  EXPECT_EQ(tileblas::widen::complex_to_planes(&m, 1, nullptr), cudaErrorInvalidValue) << "plane";
  m = ok, m.dst = reinterpret_cast<double*>(buffer + 264);
  EXPECT_EQ(tileblas::widen::complex_to_planes(&m, 1, nullptr), cudaErrorInvalidValue) << "dst";
  m = ok, m.ld_dst = 4;
  EXPECT_EQ(tileblas::widen::complex_to_planes(&m, 1, nullptr), cudaErrorInvalidValue) << "ld";
  m = ok, m.rows = 0;
  EXPECT_EQ(tileblas::widen::complex_to_planes(&m, 1, nullptr), cudaSuccess) << "empty";
  const tileblas::widen::Products none{nullptr, 0, 0}, short_plane{dst, 5, 4};
  EXPECT_EQ(
      tileblas::widen::combine_3m(none, 5, 1, 1.0, 0.0, buffer + 2, 5, Triangle::kAll, nullptr),
      cudaErrorInvalidValue)
      << "C";
  EXPECT_EQ(
      tileblas::widen::combine_3m(short_plane, 5, 1, 1.0, 0.0, buffer, 5, Triangle::kAll, nullptr),
      cudaErrorInvalidValue)
      << "plane";
  EXPECT_EQ(tileblas::widen::combine_3m(none, 5, 1, 1.0, 0.0, buffer, 4, Triangle::kAll, nullptr),
            cudaErrorInvalidValue)
      << "ldc";
  EXPECT_EQ(tileblas::widen::combine_3m(none, 0, 3, 1.0, 0.0, buffer, 1, Triangle::kAll, nullptr),
            cudaSuccess)
      << "empty";
}

}  // namespace
