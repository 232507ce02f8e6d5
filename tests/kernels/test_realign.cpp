// Kernel tier, realign (kernels/realign.h): matrices of 2- and 4-byte elements copied from any
// element alignment and leading dimension into 16-byte aligned columns, one or two per launch.
// Random bits in, compared bit for bit; every byte of the destination buffer outside the copied
// elements (padding rows, the guards before and after) must keep its poison, and the source must
// be unchanged. RealignKernel.Arguments needs no GPU.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "device_support.h"
#include "realign.h"
#include "test_support.h"

namespace {

using tileblas::realign::Matrix;

struct Shape {
  int64_t rows, cols;
  int64_t pad;  // ld_src - rows
  int offset;   // source offset in elements from a 256-byte boundary
};

constexpr unsigned char kPoison = 0xA5;
constexpr size_t kGuard = 256;

std::string describe(int elem, const Shape& s) {
  std::ostringstream o;
  o << elem << "-byte " << s.rows << "x" << s.cols << " pad " << s.pad << " offset " << s.offset;
  return o.str();
}

// Copies the shapes (one launch) and checks them; "" when every byte is as it must be.
std::string run(int elem, const std::vector<Shape>& shapes, std::mt19937& rng) {
  struct Buffers {
    std::vector<unsigned char> src, dst;
    int64_t ld_dst;
    size_t src_at, dst_at;
  };
  std::vector<Buffers> host(shapes.size());
  std::vector<std::unique_ptr<tbtest::DeviceFloats>> src_dev, dst_dev;
  std::vector<Matrix> matrices;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    Buffers& b = host[i];
    const int64_t ld_src = s.rows + s.pad;
    b.ld_dst = (std::max<int64_t>(s.rows, 1) * elem + 15) / 16 * 16 / elem;
    b.src_at = kGuard + size_t(s.offset) * elem;
    b.dst_at = kGuard;
    b.src.resize(b.src_at + size_t(ld_src * s.cols) * elem + kGuard);
    b.dst.assign(b.dst_at + size_t(b.ld_dst * s.cols) * elem + kGuard, kPoison);
    for (unsigned char& x : b.src) x = static_cast<unsigned char>(rng());
    src_dev.push_back(std::make_unique<tbtest::DeviceFloats>(b.src.size() / 4 + 1));
    dst_dev.push_back(std::make_unique<tbtest::DeviceFloats>(b.dst.size() / 4 + 1));
    unsigned char* src = reinterpret_cast<unsigned char*>(src_dev.back()->base);
    unsigned char* dst = reinterpret_cast<unsigned char*>(dst_dev.back()->base);
    if (cudaMemcpy(src, b.src.data(), b.src.size(), cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(dst, b.dst.data(), b.dst.size(), cudaMemcpyHostToDevice) != cudaSuccess)
      return "upload failed";
    matrices.push_back({src + b.src_at, ld_src, dst + b.dst_at, b.ld_dst, s.rows, s.cols});
  }
  if (cudaError_t err =
          tileblas::realign::copy(matrices.data(), int(matrices.size()), elem, nullptr);
      err != cudaSuccess)
    return std::string("copy: ") + cudaGetErrorString(err);
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return std::string("kernel: ") + cudaGetErrorString(err);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const Buffers& b = host[i];
    std::vector<unsigned char> src(b.src.size()), dst(b.dst.size());
    if (cudaMemcpy(src.data(), reinterpret_cast<unsigned char*>(src_dev[i]->base), src.size(),
                   cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(dst.data(), reinterpret_cast<unsigned char*>(dst_dev[i]->base), dst.size(),
                   cudaMemcpyDeviceToHost) != cudaSuccess)
      return "download failed";
    if (src != b.src) return describe(elem, s) + ": the source changed";
    std::vector<unsigned char> want = b.dst;
    const int64_t ld_src = s.rows + s.pad;
    for (int64_t c = 0; c < s.cols; ++c)
      std::memcpy(&want[b.dst_at + size_t(c * b.ld_dst) * elem],
                  &b.src[b.src_at + size_t(c * ld_src) * elem], size_t(s.rows) * elem);
    for (size_t j = 0; j < want.size(); ++j) {
      if (dst[j] != want[j]) {
        std::ostringstream o;
        o << describe(elem, s) << ": destination byte " << j << " (element byte "
          << int64_t(j) - int64_t(b.dst_at) << ") is " << int(dst[j]) << ", want " << int(want[j]);
        return o.str();
      }
    }
  }
  return "";
}

TEST(RealignKernel, CopiesEveryShiftAndEdge) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(20261126);
  for (int elem : {2, 4}) {
    for (int64_t rows : {1, 2, 7, 8, 9, 63, 64, 65, 127, 257, 1031, 4097}) {
      for (int offset = 0; offset < 16 / elem; ++offset) {
        const Shape s{rows, 1 + (rows + offset) % 5, offset % 3 == 0 ? 0 : 2 * offset + 1, offset};
        EXPECT_EQ(run(elem, {s}, rng), "") << describe(elem, s);
      }
    }
  }
}

TEST(RealignKernel, TwoMatricesInOneLaunch) {
  TB_REQUIRE_GPU();
  std::mt19937 rng(7);
  for (int elem : {2, 4}) {
    EXPECT_EQ(run(elem, {{8193, 33, 0, 1}, {35, 70, 3, 0}}, rng), "") << elem;
    EXPECT_EQ(run(elem, {{5, 3, 1, 3}, {0, 4, 1, 0}}, rng), "") << elem << " one empty";
    EXPECT_EQ(run(elem, {{3001, 9, 2, 2}, {1531, 41, 1, 1}}, rng), "") << elem;
  }
}

TEST(RealignKernel, Arguments) {
  alignas(16) static unsigned char buffer[256];
  const Matrix ok{buffer + 2, 5, buffer + 16, 8, 5, 1};
  EXPECT_EQ(tileblas::realign::copy(&ok, 0, 2, nullptr), cudaErrorInvalidValue) << "no matrix";
  EXPECT_EQ(tileblas::realign::copy(&ok, 1, 8, nullptr), cudaErrorInvalidValue) << "8-byte";
  Matrix m = ok;
  m.ld_dst = 7;
  EXPECT_EQ(tileblas::realign::copy(&m, 1, 2, nullptr), cudaErrorInvalidValue) << "ld_dst";
  m = ok, m.dst = buffer + 8;
  EXPECT_EQ(tileblas::realign::copy(&m, 1, 2, nullptr), cudaErrorInvalidValue) << "dst align";
  m = ok, m.src = buffer + 1;
  EXPECT_EQ(tileblas::realign::copy(&m, 1, 2, nullptr), cudaErrorInvalidValue) << "src align";
  m = ok, m.ld_src = 4;
  EXPECT_EQ(tileblas::realign::copy(&m, 1, 2, nullptr), cudaErrorInvalidValue) << "ld_src";
  m = ok, m.rows = 0;
  EXPECT_EQ(tileblas::realign::copy(&m, 1, 2, nullptr), cudaSuccess) << "empty: nothing to do";
}

}  // namespace
