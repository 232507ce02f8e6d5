// Kernel tier, tensor-core GEMM: every "gemm_mma_" and "gemm_wgmma_" row of gemm_kernels(), forced
// through its launch() on device buffers, against a float64 host reference on the upcast inputs.
//   - integer-valued inputs: results are exact (fp16/bf16/tf32 hold small integers exactly and
//     fp32 accumulation is exact while sums stay below 2^24), so C must equal the reference
//     rounded once to C's type, bit for bit;
//   - random inputs in [-1, 1): |C - ref| <= in_eps * S + 2^-24 * (k + 2) * S + out_eps * |ref|,
//     S = |alpha| sum |a||b| + |beta c|, in_eps = 2^-10 for TF32 (both operands rounded to TF32 by
//     the kernel, 2^-11 each) and 0 for fp16/bf16 (the inputs already are in the format), out_eps
//     = half an ulp of C's type (2^-11 fp16, 2^-8 bf16, 0 fp32: covered by the 2^-24 term), plus
//     2^-25 for an fp16 C (half the subnormal spacing: tiny results round absolutely).
// Every case: C poisoned with NaN where beta == 0 (NaN must not leak), padding rows of C unchanged,
// leading dimensions above the minimum, all transposes, alpha/beta in {0, 1, 0.7, -2}; alpha == 0
// runs with A = B = nullptr (must not be read). Shifted rows run on pointers offset by one
// element and odd leading dimensions; wgmma rows (which stage such operands into an aligned
// workspace) on those in every other case. Split-K rows also run on cases their slice rule cuts
// into several slices. Suites: GemmTensorCoreRows.* (no GPU needed), GemmTensorCore.* (grid
// subset), GemmTensorCoreSmall.* (quick subset for compute-sanitizer).
#include <cuda_runtime_api.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "device.h"
#include "device_support.h"
#include "gemm_wgmma.h"
#include "half_convert.h"
#include "kernel_table.h"
#include "test_support.h"

namespace {

using tileblas::DataType;
using tileblas::DeviceCaps;
using tileblas::GemmKernel;
using tileblas::Op;
using tileblas::Problem;

std::vector<const GemmKernel*> tensor_core_rows() {
  std::vector<const GemmKernel*> rows;
  for (const GemmKernel& k : tileblas::gemm_kernels()) {
    if (std::strncmp(k.name, "gemm_mma_", 9) == 0 || std::strncmp(k.name, "gemm_wgmma_", 11) == 0)
      rows.push_back(&k);
  }
  return rows;
}

bool is_shifted(const GemmKernel& k) { return std::strstr(k.name, "_shifted_") != nullptr; }
bool is_wgmma(const GemmKernel& k) { return std::strncmp(k.name, "gemm_wgmma_", 11) == 0; }
bool is_split_k(const GemmKernel& k) { return std::strstr(k.name, "_splitk_") != nullptr; }
// Persistent rows store an fp32 C whose columns start on 32-byte boundaries only.
bool is_persistent(const GemmKernel& k) { return std::strstr(k.name, "_persistent_") != nullptr; }

// wgmma rows run on sm_90 alone, and only from a build for sm_90a; on other devices they are
// skipped, visibly.
bool runs_here(const GemmKernel& k, const DeviceCaps& caps) {
  if (!is_wgmma(k) || (caps.sm_version == 90 && tileblas::gemm_wgmma::built_for_sm90a()))
    return true;
  std::printf("[ SKIPPED  ] %s: needs an sm_90 device and an sm_90a build\n", k.name);
  return false;
}

// The input type a row computes on, from its name (gemm_mma_<type>_..., gemm_wgmma_<type>_...).
DataType ab_type_of(const GemmKernel& k) {
  if (std::strstr(k.name, "_f16_") != nullptr) return DataType::kF16;
  if (std::strstr(k.name, "_bf16_") != nullptr) return DataType::kBF16;
  return DataType::kF32;
}

// The C types a row is tested with: fp32 always, and the 16-bit input type itself (hgemm's fp16 C)
// but on the persistent rows.
std::vector<DataType> c_types_of(const GemmKernel& row) {
  const DataType ab = ab_type_of(row);
  if (ab == DataType::kF32 || is_persistent(row)) return {DataType::kF32};
  return {DataType::kF32, ab};
}

// Storage of one element of `type` holding v (rounded to nearest even for 16-bit types).
uint32_t bits_of(float v, DataType type) {
  if (type == DataType::kF16) return tileblas::float_to_half(v);
  if (type == DataType::kBF16) return tileblas::float_to_bf16(v);
  return tileblas::float_bits(v);
}
float value_of(uint32_t bits, DataType type) {
  if (type == DataType::kF16) return tileblas::half_to_float(uint16_t(bits));
  if (type == DataType::kBF16) return tileblas::bf16_to_float(uint16_t(bits));
  return tileblas::bits_float(bits);
}
float round_to(float v, DataType type) { return value_of(bits_of(v, type), type); }

// A host array of `type` elements (as raw bytes) and its device copy.
struct Matrix {
  DataType type;
  std::vector<unsigned char> host;
  void* device = nullptr;
  Matrix(DataType t, size_t count) : type(t), host(std::max<size_t>(count, 1) * size_of(t)) {
    EXPECT_EQ(cudaMalloc(&device, host.size()), cudaSuccess);
  }
  ~Matrix() { cudaFree(device); }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  size_t count() const { return host.size() / size_of(type); }
  void set(size_t i, float v) {
    const uint32_t b = bits_of(v, type);
    std::memcpy(&host[i * size_of(type)], &b, size_of(type));
  }
  float get(size_t i) const {
    uint32_t b = 0;
    std::memcpy(&b, &host[i * size_of(type)], size_of(type));
    return value_of(b, type);
  }
  void upload() {
    ASSERT_EQ(cudaMemcpy(device, host.data(), host.size(), cudaMemcpyHostToDevice), cudaSuccess);
  }
  std::vector<unsigned char> download() const {
    std::vector<unsigned char> out(host.size());
    EXPECT_EQ(cudaMemcpy(out.data(), device, out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
};

struct Case {
  Op ta = Op::kNoTrans, tb = Op::kNoTrans;
  int64_t m = 1, n = 1, k = 1;
  float alpha = 1.0f, beta = 0.0f;
  DataType c_type = DataType::kF32;
  bool integers = true;     // integer-valued inputs: exact comparison
  bool misaligned = false;  // A, B and (unless sector_c) C one element off 16-byte alignment
  bool sector_c = false;    // C's columns on 32-byte boundaries (ldc a multiple of 8)
  int64_t pad_a = 0, pad_b = 0, pad_c = 0;

  std::string str() const {
    std::ostringstream s;
    s << tileblas::name_of(ta) << tileblas::name_of(tb) << " m=" << m << " n=" << n << " k=" << k
      << " alpha=" << alpha << " beta=" << beta << " C=" << tileblas::name_of(c_type)
      << (integers ? " integers" : " random") << (misaligned ? " misaligned" : "")
      << (sector_c ? " sector-aligned C" : "") << " pads=" << pad_a << "," << pad_b << "," << pad_c;
    return s.str();
  }
};

// Runs one case on `row` and checks it; returns "" or what went wrong.
std::string run_case(const GemmKernel& row, const DeviceCaps& caps, const Case& c) {
  const DataType ab = ab_type_of(row);
  const size_t ab_bytes = size_of(ab);
  Problem p;
  p.trans_a = c.ta, p.trans_b = c.tb;
  p.m = c.m, p.n = c.n, p.k = c.k;
  p.alpha = c.alpha, p.beta = c.beta;
  p.type = ab, p.c_type = c.c_type;
  p.allow_tf32 = ab == DataType::kF32;
  // 16-byte rows need leading dimensions in whole 16-byte chunks; shifted rows get odd ones.
  const int64_t chunk = int64_t(16 / ab_bytes);
  auto ld_of = [&](int64_t rows, int64_t pad) {
    const int64_t ld = std::max<int64_t>(1, rows) + pad;
    return c.misaligned ? (ld % 2 ? ld : ld + 1) : (ld + chunk - 1) / chunk * chunk;
  };
  p.lda = ld_of(p.a_rows(), c.pad_a);
  p.ldb = ld_of(p.b_rows(), c.pad_b);
  p.ldc = c.sector_c ? (p.m + c.pad_c + 7) / 8 * 8 : p.m + c.pad_c;
  const int64_t off = c.misaligned ? 1 : 0;
  const int64_t off_c = c.sector_c ? 0 : off;

  Matrix a(ab, size_t(off + p.lda * p.a_cols()));
  Matrix b(ab, size_t(off + p.ldb * p.b_cols()));
  Matrix cm(c.c_type, size_t(off_c + p.ldc * p.n));
  auto fill = [&](Matrix& mat) {
    const std::vector<float> v =
        c.integers ? tbtest::random_ints(mat.count(), -2, 2) : tbtest::random_floats(mat.count());
    for (size_t i = 0; i < v.size(); ++i) mat.set(i, v[i]);
  };
  fill(a);
  fill(b);
  fill(cm);
  if (c.beta == 0.0f) {  // NaN everywhere in C, padding too: C must not be read
    for (size_t i = 0; i < cm.count(); ++i) cm.set(i, tbtest::nan_value());
  }
  a.upload();
  b.upload();
  cm.upload();
  if (::testing::Test::HasFatalFailure()) return "upload failed";

  // The reference on the upcast (exactly representable) inputs.
  std::vector<float> af(size_t(p.lda * p.a_cols())), bf(size_t(p.ldb * p.b_cols())),
      cf(size_t(p.ldc * p.n));
  for (size_t i = 0; i < af.size(); ++i) af[i] = a.get(off + i);
  for (size_t i = 0; i < bf.size(); ++i) bf[i] = b.get(off + i);
  for (size_t i = 0; i < cf.size(); ++i) cf[i] = cm.get(off_c + i);
  Problem host = p;
  host.a = af.data(), host.b = bf.data(), host.c = cf.data();
  std::vector<double> ref, scale;
  tbtest::gemm_reference(host, ref, scale);

  const bool null_ab = c.alpha == 0.0f;  // A and B must not be read
  p.a = null_ab ? nullptr : static_cast<unsigned char*>(a.device) + off * ab_bytes;
  p.b = null_ab ? nullptr : static_cast<unsigned char*>(b.device) + off * ab_bytes;
  p.c = static_cast<unsigned char*>(cm.device) + off_c * size_of(c.c_type);
  if (!row.supports(p, caps)) return "supports() rejects the case";
  if (cudaError_t err = row.launch(p, nullptr); err != cudaSuccess)
    return std::string("launch: ") + cudaGetErrorString(err);
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return std::string("kernel: ") + cudaGetErrorString(err);
  const std::vector<unsigned char> got_bytes = cm.download();

  const double in_eps = ab == DataType::kF32 ? std::ldexp(1.0, -10) : 0.0;
  const double out_eps = c.c_type == DataType::kF16    ? std::ldexp(1.0, -11)
                         : c.c_type == DataType::kBF16 ? std::ldexp(1.0, -8)
                                                       : 0.0;
  const double acc_eps = std::ldexp(1.0, -24);
  // Below fp16's normal range (2^-14) its spacing is fixed: half of it, 2^-25, bounds rounding.
  const double out_abs = c.c_type == DataType::kF16 ? std::ldexp(1.0, -25) : 0.0;
  double norm = 0.0;
  const size_t cb = size_of(c.c_type);
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.ldc; ++i) {
      const size_t at = size_t(off_c + i + j * p.ldc);
      if (i >= p.m) {  // padding row: untouched, bit for bit
        if (std::memcmp(&got_bytes[at * cb], &cm.host[at * cb], cb) != 0)
          return "padding row " + std::to_string(i) + " of column " + std::to_string(j) +
                 " written";
        continue;
      }
      uint32_t gb = 0;
      std::memcpy(&gb, &got_bytes[at * cb], cb);
      const double got = value_of(gb, c.c_type);
      const double want = ref[size_t(i + j * p.m)];
      norm += got * got;
      bool ok;
      if (c.integers) {
        ok = got == double(round_to(float(want), c.c_type));
      } else {
        const double s = scale[size_t(i + j * p.m)];
        const double tol =
            in_eps * s + acc_eps * double(p.k + 2) * s + out_eps * std::fabs(want) + out_abs;
        ok = std::fabs(got - want) <= tol;
      }
      if (!ok) {
        std::ostringstream msg;
        msg << "C(" << i << "," << j << ") = " << got << ", want " << want;
        return msg.str();
      }
    }
  }
  // Guards against comparing zeros with zeros (the reference norm is nonzero for these inputs
  // unless alpha == beta == 0).
  double ref_norm = 0.0;
  for (double r : ref) ref_norm += r * r;
  if (ref_norm > 0.0 && norm == 0.0) return "result is all zeros";
  return "";
}

const std::vector<int64_t> kDims = {1,  2,   3,   7,   16,  31,  33,   63,   64,
                                    65, 127, 128, 129, 255, 257, 1000, 1024, 2047};
const std::vector<int64_t> kSmallDims = {1,  2,  3,   7,   16,  31,  33, 63,
                                         64, 65, 127, 128, 129, 255, 257};
const std::vector<float> kScalars = {0.0f, 1.0f, 0.7f, -2.0f};
const std::vector<float> kExactScalars = {0.0f, 1.0f, -2.0f};  // 0.7 would round

Case random_case(const GemmKernel& row, const std::vector<int64_t>& dims, int64_t max_volume,
                 bool integers, bool misaligned) {
  Case c;
  do {
    c.m = tbtest::pick(dims), c.n = tbtest::pick(dims), c.k = tbtest::pick(dims);
  } while (c.m * c.n * c.k > max_volume);
  c.ta = tbtest::pick(std::vector<Op>{Op::kNoTrans, Op::kTrans});
  c.tb = tbtest::pick(std::vector<Op>{Op::kNoTrans, Op::kTrans});
  c.alpha = tbtest::pick(integers ? kExactScalars : kScalars);
  c.beta = tbtest::pick(integers ? kExactScalars : kScalars);
  c.c_type = tbtest::pick(c_types_of(row));
  c.sector_c = is_persistent(row);
  c.integers = integers;
  // Integer results must stay exact in an fp16/bf16 C: fp16 holds integers up to 2048, bf16 up to
  // 256; |result| <= |alpha| * 4k + |beta| * 2.
  if (integers && c.c_type != DataType::kF32) {
    const double limit = c.c_type == DataType::kF16 ? 2048 : 256;
    if (std::fabs(c.alpha) * 4.0 * double(c.k) + 4.0 > limit) c.integers = false;
  }
  c.misaligned = is_shifted(row) || (is_wgmma(row) && misaligned);
  c.pad_a = tbtest::pick(std::vector<int64_t>{0, 1, 5, 16});
  c.pad_b = tbtest::pick(std::vector<int64_t>{0, 1, 5, 16});
  c.pad_c = tbtest::pick(std::vector<int64_t>{0, 1, 3});
  return c;
}

void run_cases(const std::vector<int64_t>& dims, int64_t max_volume, int cases_per_row) {
  const DeviceCaps caps = tbtest::device_caps();
  if (caps.sm_version < 80)
    GTEST_SKIP() << "mma.sync needs sm_80; device is sm_" << caps.sm_version;
  for (const GemmKernel* row : tensor_core_rows()) {
    if (!runs_here(*row, caps)) continue;
    for (int i = 0; i < cases_per_row; ++i) {
      const Case c = random_case(*row, dims, max_volume, i % 2 == 0, i % 4 >= 2);
      const std::string err = run_case(*row, caps, c);
      EXPECT_EQ(err, "") << row->name << " " << c.str();
      if (!err.empty()) break;  // one failure per row is enough to read
    }
  }
}

// ---- No GPU needed ------------------------------------------------------------------------------

TEST(GemmTensorCoreRows, ExistForEveryTypeAndLoadPath) {
  std::vector<std::string> names;
  for (const GemmKernel* row : tensor_core_rows()) names.push_back(row->name);
  for (const char* type : {"f16", "bf16", "tf32"}) {
    int vector = 0, shifted = 0;
    for (const std::string& n : names) {
      if (n.rfind(std::string("gemm_mma_") + type + "_", 0) != 0) continue;
      (n.find("_shifted_") != std::string::npos ? shifted : vector)++;
    }
    EXPECT_GE(vector, 1) << type;
    EXPECT_GE(shifted, 1) << type;
  }
}

TEST(GemmTensorCoreRows, SupportsOnlyWhatTheyCompute) {
  DeviceCaps caps;
  caps.sm_version = 90, caps.num_sms = 132, caps.smem_per_block_optin = 227 * 1024;
  alignas(32) static uint16_t buffer[64];
  for (const GemmKernel* row : tensor_core_rows()) {
    Problem p;
    p.m = p.n = p.k = 8;
    p.lda = p.ldb = p.ldc = 8;
    p.a = p.b = p.c = buffer;
    p.type = ab_type_of(*row);
    p.allow_tf32 = true;
    const bool built = !is_wgmma(*row) || tileblas::gemm_wgmma::built_for_sm90a();
    EXPECT_EQ(row->supports(p, caps), built) << row->name;
    if (!built) continue;
    Problem no_tf32 = p;
    no_tf32.allow_tf32 = false;
    EXPECT_EQ(row->supports(no_tf32, caps), p.type != DataType::kF32) << row->name;
    Problem sm75 = p;
    DeviceCaps old = caps;
    old.sm_version = 75;
    EXPECT_FALSE(row->supports(sm75, old)) << row->name;
    Problem odd = p;
    odd.a = reinterpret_cast<const unsigned char*>(buffer) + size_of(p.type);
    odd.lda = 9;
    EXPECT_EQ(row->supports(odd, caps), is_shifted(*row) || is_wgmma(*row)) << row->name;
    Problem other_type = p;
    other_type.type = p.type == DataType::kF16 ? DataType::kBF16 : DataType::kF16;
    EXPECT_FALSE(row->supports(other_type, caps)) << row->name;
    // The persistent rows: an fp32 C with columns on 32-byte boundaries only.
    Problem c16 = p;
    c16.c_type = p.type;
    EXPECT_EQ(row->supports(c16, caps), !is_persistent(*row) || p.type == DataType::kF32)
        << row->name;
    Problem odd_ldc = p;
    odd_ldc.ldc = 12;
    EXPECT_EQ(row->supports(odd_ldc, caps), !is_persistent(*row)) << row->name;
    Problem c_off = p;
    c_off.c = reinterpret_cast<unsigned char*>(buffer) + 16;
    EXPECT_EQ(row->supports(c_off, caps), !is_persistent(*row)) << row->name;
  }
}

// ---- GPU ----------------------------------------------------------------------------------------

TEST(GemmTensorCore, GridSubsetAllTransposes) {
  TB_REQUIRE_GPU();
  run_cases(kDims, int64_t(3e7), 24);
}

TEST(GemmTensorCore, LargeSquare) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  for (const GemmKernel* row : tensor_core_rows()) {
    if (!runs_here(*row, caps)) continue;
    Case c = random_case(*row, {1024}, int64_t(2e9), false, false);
    c.m = 1000, c.n = 257, c.k = 1023;
    c.ta = Op::kNoTrans, c.tb = Op::kTrans;
    c.alpha = 0.7f, c.beta = -2.0f;
    EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
  }
}

TEST(GemmTensorCore, ZeroKScalesC) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  for (const GemmKernel* row : tensor_core_rows()) {
    if (!runs_here(*row, caps)) continue;
    for (float beta : {0.0f, -2.0f}) {
      Case c = random_case(*row, {33}, int64_t(1e6), true, false);
      c.k = 0, c.alpha = 1.0f, c.beta = beta;
      EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
    }
  }
}

// Few output tiles and a long k: the split-K rows' slice rule cuts k into several slices (checked):
// up to kMaxClusterSlices (2, 5 and 8 with 132 SMs), which a tile's cluster sums, and more (one
// tile, a longer k), whose partials the grid sums itself (a cooperative launch, where the device's
// SMs hold every block at once, as a test's device does); every transpose, both C types, beta 0
// (NaN C) and not, aligned and staged operands; the narrow rows' outputs have a narrow m or a
// narrow n.
TEST(GemmTensorCore, SplitKRowsOverSeveralSlices) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  for (const GemmKernel* row : tensor_core_rows()) {
    if (!is_split_k(*row) || !runs_here(*row, caps)) continue;
    const bool narrow = std::strstr(row->name, "_narrow_") != nullptr;
    const tileblas::splitk::Geometry& geometry =
        narrow ? tileblas::gemm_wgmma::kNarrowSplitK : tileblas::gemm_wgmma::kSplitK;
    int i = 0;
    for (bool many_slices : {false, true}) {
      for (Op ta : {Op::kNoTrans, Op::kTrans}) {
        for (Op tb : {Op::kNoTrans, Op::kTrans}) {
          Case c = random_case(*row, {1}, int64_t(1e9), false, i % 2 == 1);
          c.ta = ta, c.tb = tb;
          // k: 2, 5 and 8 slices of the cluster path (with 132 SMs).
          c.m = 130, c.n = 129 + 64 * (i % 2), c.k = std::array{1024, 3001, 4100}[size_t(i) % 3];
          if (narrow) c.m = i % 2 == 0 ? 24 : 1000, c.n = i % 2 == 0 ? 1000 : 40;
          if (many_slices) c.m = 60 + i % 3, c.n = 50, c.k = 9000;
          c.alpha = 0.7f, c.beta = i % 4 < 2 ? 0.0f : -2.0f;
          c.c_type = c_types_of(*row)[size_t(i) % 2];
          ++i;
          const int64_t slices =
              tileblas::splitk::slices_for(geometry, c.m, c.n, c.k, caps.num_sms).count;
          if (many_slices) {
            ASSERT_GT(slices, tileblas::gemm_wgmma::kMaxClusterSlices)
                << row->name << " " << c.str();
          } else {
            ASSERT_GE(slices, 2) << row->name << " " << c.str();
            ASSERT_LE(slices, tileblas::gemm_wgmma::kMaxClusterSlices)
                << row->name << " " << c.str();
          }
          EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
        }
      }
    }
  }
}

// The persistent rows with several tiles per block (more tiles than one wave of blocks, the last
// round partial) and few k-tiles, so the ring runs from one tile's k-tiles into the next's:
// every transpose, beta 0 (NaN C) and not, aligned and staged operands.
TEST(GemmTensorCore, PersistentRowsSeveralTilesPerBlock) {
  TB_REQUIRE_GPU();
  const DeviceCaps caps = tbtest::device_caps();
  int i = 0;
  for (const GemmKernel* row : tensor_core_rows()) {
    if (!is_persistent(*row) || !runs_here(*row, caps)) continue;
    for (Op ta : {Op::kNoTrans, Op::kTrans}) {
      for (Op tb : {Op::kNoTrans, Op::kTrans}) {
        Case c = random_case(*row, {1}, int64_t(1e10), i % 2 == 0, i % 4 == 1);
        c.ta = ta, c.tb = tb;
        c.m = 1100 + 7 * (i % 3), c.n = 4400 + 33 * (i % 2), c.k = i % 4 == 3 ? 64 : 300;
        c.alpha = c.integers ? 1.0f : 0.7f;
        c.beta = i % 2 == 0 ? 0.0f : -2.0f;
        ++i;
        EXPECT_EQ(run_case(*row, caps, c), "") << row->name << " " << c.str();
      }
    }
  }
}

TEST(GemmTensorCoreSmall, QuickSubset) {
  TB_REQUIRE_GPU();
  run_cases(kSmallDims, int64_t(3e5), 6);
}

}  // namespace
