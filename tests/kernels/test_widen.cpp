// Kernel tier, widen (kernels/widen.h): complex fp32 matrices of any part alignment and leading
// dimension widened into complex fp64 ones, one or two per launch. Random floats in (NaN, infinity
// and subnormal values among them), each element checked to be exactly its double; every byte of
// the destination outside the written elements (padding rows, the guards before and after) must
// keep its poison, and the source must be unchanged. WidenKernel.Arguments needs no GPU.
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

}  // namespace
