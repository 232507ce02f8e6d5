// API tier, transpose / scaled copy and axpy: somatcopy_, cblas_somatcopy, simatcopy_,
// cblas_simatcopy, saxpy_ and cblas_saxpy through libtileblas.so's exported symbols, against
// OpenBLAS (dlopen'd) on fresh random data. Host data runs on the CPU (that is checked too);
// device data, where a GPU is present, on tileblas's kernels. Transposes are compared bit for bit
// (one multiply per element) over the whole output buffer, so padding must be untouched; axpy
// within 2 eps (|alpha x| + |y|) (one fma against a possible mul+add).
// Suites: OmatcopyApi.*, AxpyApi.*.
#include <cuda_runtime_api.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"
#include "tileblas.h"
#include "xerbla_recorder.h"

extern "C" {
void saxpy_(const int* n, const float* alpha, const float* x, const int* incx, float* y,
            const int* incy);
void cblas_saxpy(int n, float alpha, const float* x, int incx, float* y, int incy);
}

namespace {

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113, kConjNoTrans = 114;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// How zeros may differ from OpenBLAS's. With alpha == 0 OpenBLAS writes +0 or 0 * a (-0 for
// negative a) depending on its CPU kernel; tileblas's GPU kernels always write +0.
enum class Zeros { kExact, kAnySign, kPositive };

// "" or the first element whose bits differ.
std::string compare_bits(const std::vector<float>& got, const std::vector<float>& expected,
                         Zeros zeros = Zeros::kExact) {
  for (size_t k = 0; k < got.size(); ++k) {
    const bool zero = got[k] == 0.0f && expected[k] == 0.0f;
    const bool zero_ok = (zeros == Zeros::kAnySign && zero) ||
                         (zeros == Zeros::kPositive && zero && same_bits(got[k], 0.0f));
    if (!same_bits(got[k], expected[k]) && !zero_ok) {
      std::ostringstream s;
      s << "element " << k << ": got " << got[k] << ", OpenBLAS " << expected[k];
      return s.str();
    }
  }
  return "";
}

bool forced_gpu() {
  const char* mode = std::getenv("TILEBLAS_MODE");
  return mode && std::strcmp(mode, "gpu") == 0;
}

// ---- omatcopy / imatcopy ---------------------------------------------------------------------

enum class Form { kFortran, kCblas };

struct MatCase {
  Form form = Form::kFortran;
  char order = 'C';  // 'C' or 'R'
  char trans = 'T';  // 'N', 'T', 'R', 'C' (either case for Fortran)
  int rows = 1, cols = 1;
  float alpha = 1.0f;
  int pad_a = 0, pad_b = 0;  // leading dimension beyond the minimum
  int off_a = 0, off_b = 0;  // pointer offsets in floats

  bool row_major() const { return order == 'R' || order == 'r'; }
  bool transposed() const { return trans == 'T' || trans == 't' || trans == 'C' || trans == 'c'; }
  int lda() const { return (row_major() ? cols : rows) + pad_a; }
  // B's extent along its leading dimension, and the number of such lines.
  int b_lead() const { return transposed() != row_major() ? cols : rows; }
  int b_lines() const { return transposed() != row_major() ? rows : cols; }
  int a_lines() const { return row_major() ? rows : cols; }
  int ldb() const { return b_lead() + pad_b; }
  std::string str() const {
    std::ostringstream s;
    s << (form == Form::kFortran ? "Fortran" : "CBLAS") << " order=" << order << " trans=" << trans
      << " " << rows << "x" << cols << " alpha=" << alpha << " pads=" << pad_a << "," << pad_b
      << " offsets=" << off_a << "," << off_b;
    return s.str();
  }
};

int cblas_order(char order) { return order == 'R' || order == 'r' ? kRowMajor : kColMajor; }
int cblas_trans(char trans) {
  switch (trans) {
    case 'N':
    case 'n':
      return kNoTrans;
    case 'T':
    case 't':
      return kTrans;
    case 'C':
    case 'c':
      return kConjTrans;
    default:
      return kConjNoTrans;  // 'R': conjugate, no transpose = N for real data
  }
}

void call_somatcopy(const MatCase& c, const float* a, float* b) {
  const int rows = c.rows, cols = c.cols, lda = c.lda(), ldb = c.ldb();
  if (c.form == Form::kFortran) {
    somatcopy_(&c.order, &c.trans, &rows, &cols, &c.alpha, a, &lda, b, &ldb);
  } else {
    cblas_somatcopy(cblas_order(c.order), cblas_trans(c.trans), rows, cols, c.alpha, a, lda, b,
                    ldb);
  }
}

void call_simatcopy(const MatCase& c, float* a, int lda, int ldb) {
  const int rows = c.rows, cols = c.cols;
  if (c.form == Form::kFortran) {
    simatcopy_(&c.order, &c.trans, &rows, &cols, &c.alpha, a, &lda, &ldb);
  } else {
    cblas_simatcopy(cblas_order(c.order), cblas_trans(c.trans), rows, cols, c.alpha, a, lda, ldb);
  }
}

// Host buffers for one out-of-place case: A random (NaN before the offset), B poisoned.
struct MatBuffers {
  std::vector<float> a, b;
  explicit MatBuffers(const MatCase& c)
      : a(tbtest::random_floats(size_t(c.off_a) + size_t(c.lda()) * c.a_lines(), -4.0f, 4.0f)),
        b(size_t(c.off_b) + size_t(c.ldb()) * c.b_lines()) {
    for (int i = 0; i < c.off_a; ++i) a[i] = tbtest::nan_value();
    tbtest::poison(b);
  }
};

// OpenBLAS's B for the case (the oracle always gets the Fortran form with upper-case letters).
std::vector<float> somatcopy_oracle(const MatCase& c, const std::vector<float>& a,
                                    const std::vector<float>& b_before) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  EXPECT_EQ(blas.error, "");
  std::vector<float> b = b_before;
  if (!blas.somatcopy) return b;
  const char order = c.row_major() ? 'R' : 'C', trans = c.transposed() ? 'T' : 'N';
  const int rows = c.rows, cols = c.cols, lda = c.lda(), ldb = c.ldb();
  blas.somatcopy(&order, &trans, &rows, &cols, &c.alpha, a.data() + c.off_a, &lda,
                 b.data() + c.off_b, &ldb);
  return b;
}

double norm_ignoring_nan(const std::vector<float>& v) {
  double s = 0.0;
  for (float x : v) s += std::isnan(x) ? 0.0 : double(x) * x;
  return std::sqrt(s);
}

std::vector<MatCase> omatcopy_cases() {
  struct Shape {
    int rows, cols;
  };
  const Shape shapes[] = {{1, 1}, {1, 4099}, {4099, 1}, {33, 4097}, {4097, 33}, {70, 65}};
  const char orders[] = {'C', 'R', 'c', 'r'};
  const char transes[] = {'N', 'T', 'R', 'C', 'n', 't'};
  std::vector<MatCase> cases;
  int k = 0;
  for (const Shape& s : shapes) {
    for (Form form : {Form::kFortran, Form::kCblas}) {
      for (float alpha : {0.0f, 1.0f, -2.5f}) {
        for (int layout = 0; layout < 2; ++layout, ++k) {
          MatCase c;
          c.form = form, c.rows = s.rows, c.cols = s.cols, c.alpha = alpha;
          c.order = orders[k % 4];
          c.trans = transes[k % 6];
          if (layout == 1) c.pad_a = 3, c.pad_b = 5, c.off_a = 1 + k % 3, c.off_b = k % 4;
          cases.push_back(c);
        }
      }
    }
  }
  MatCase big;
  big.rows = big.cols = 4096, big.alpha = -2.5f, big.pad_b = 4;
  cases.push_back(big);
  return cases;
}

TEST(OmatcopyApi, HostDataMatchesOpenBlas) {
  for (const MatCase& c : omatcopy_cases()) {
    MatBuffers buf(c);
    const std::vector<float> expected = somatcopy_oracle(c, buf.a, buf.b);
    ASSERT_GT(norm_ignoring_nan(expected) + (c.alpha == 0.0f ? 1.0 : 0.0), 0.0) << c.str();
    call_somatcopy(c, buf.a.data() + c.off_a, buf.b.data() + c.off_b);
    EXPECT_EQ(compare_bits(buf.b, expected, c.alpha == 0.0f ? Zeros::kAnySign : Zeros::kExact), "")
        << c.str();
  }
}

TEST(OmatcopyApi, HostDataRunsOnTheCpu) {
  MatCase c;
  c.rows = 300, c.cols = 200, c.alpha = -2.5f;
  MatBuffers buf(c);
  call_somatcopy(c, buf.a.data(), buf.b.data());
  if (forced_gpu() && tbtest::has_cuda_device()) {
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
  } else {
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_CPU) << tileblas_last_reason();
  }
  std::vector<float> a(size_t(c.rows) * c.cols);
  a = tbtest::random_floats(a.size());
  const int rows = c.rows, cols = c.cols;
  simatcopy_("C", "T", &rows, &cols, &c.alpha, a.data(), &rows, &cols);
  if (!(forced_gpu() && tbtest::has_cuda_device())) {
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_CPU) << tileblas_last_reason();
  }
}

// In place: square and not, lda == ldb and not, both orders, N and T. OpenBLAS's answer is
// somatcopy_ from a copy of A into a buffer that starts as A (its simatcopy_ overruns a scratch
// buffer for some non-square shapes in 0.3.21); only B's footprint is compared, plus a NaN guard
// after the buffer.
TEST(OmatcopyApi, ImatcopyInPlaceMatchesOpenBlas) {
  struct Shape {
    int rows, cols;
  };
  const Shape shapes[] = {{1, 1}, {33, 33}, {64, 64}, {33, 70}, {70, 33}, {1, 37}, {37, 1}};
  int k = 0;
  for (const Shape& s : shapes) {
    for (Form form : {Form::kFortran, Form::kCblas}) {
      for (char order : {'C', 'R'}) {
        for (char trans : {'N', 'T'}) {
          for (int pads = 0; pads < 3; ++pads, ++k) {
            MatCase c;
            c.form = form, c.order = order, c.trans = trans, c.rows = s.rows, c.cols = s.cols;
            c.alpha = k % 3 == 0 ? 1.0f : (k % 3 == 1 ? -2.5f : 0.0f);
            c.pad_a = pads == 1 ? 3 : (pads == 2 ? 1 : 0);
            c.pad_b = pads == 2 ? 4 : c.pad_a;  // pads == 2: lda != ldb
            const int lda = c.lda(), ldb = c.ldb();
            const size_t a_extent = size_t(lda) * c.a_lines();
            const size_t b_extent = size_t(ldb) * c.b_lines();
            const size_t extent = a_extent > b_extent ? a_extent : b_extent;
            constexpr size_t kGuard = 8;
            std::vector<float> buf = tbtest::random_floats(extent + kGuard, -4.0f, 4.0f);
            for (size_t i = extent; i < buf.size(); ++i) buf[i] = tbtest::nan_value();
            const std::vector<float> a = buf;
            std::vector<float> expected_b(b_extent);
            tbtest::poison(expected_b);
            expected_b = somatcopy_oracle(c, a, expected_b);

            call_simatcopy(c, buf.data(), lda, ldb);
            std::string msg;
            for (int line = 0; line < c.b_lines() && msg.empty(); ++line) {
              for (int i = 0; i < c.b_lead(); ++i) {
                const size_t at = size_t(line) * ldb + i;
                const bool zeros = c.alpha == 0.0f && buf[at] == 0.0f && expected_b[at] == 0.0f;
                if (!same_bits(buf[at], expected_b[at]) && !zeros) {
                  msg = "B line " + std::to_string(line) + " element " + std::to_string(i) +
                        ": got " + std::to_string(buf[at]) + ", OpenBLAS " +
                        std::to_string(expected_b[at]);
                  break;
                }
              }
            }
            for (size_t i = extent; i < buf.size() && msg.empty(); ++i) {
              if (!std::isnan(buf[i])) msg = "guard after the buffer written";
            }
            EXPECT_EQ(msg, "") << c.str();
          }
        }
      }
    }
  }
}

// Bad arguments: reported once to xerbla_ with OpenBLAS's routine name and parameter number
// (for the Fortran and the CBLAS form alike, as OpenBLAS does), and nothing is written; valid
// empty in-place calls are silent no-ops.
TEST(OmatcopyApi, BadArgumentsReportAndWriteNothing) {
  std::vector<float> a = tbtest::random_floats(64), b = tbtest::random_floats(64);
  const std::vector<float> a0 = a, b0 = b;
  const float alpha = 2.0f;
  struct Bad {
    char order, trans;
    int rows, cols, lda, ldb;
    int info;  // expected; 0: valid, nothing reported
  };
  auto order_enum = [](char o) { return o == 'R' ? kRowMajor : (o == 'C' ? kColMajor : 0); };
  auto trans_enum = [](char t) { return t == 'N' ? kNoTrans : (t == 'T' ? kTrans : 0); };
  const Bad omat[] = {
      {'X', 'N', 2, 2, 2, 2, 1}, {'C', 'X', 2, 2, 2, 2, 2},  {'X', 'X', -1, -1, 0, 0, 1},
      {'C', 'N', 0, 2, 2, 2, 3}, {'C', 'N', 2, -1, 2, 2, 4}, {'C', 'N', 2, 0, 0, 0, 4},
      {'C', 'N', 3, 2, 2, 3, 7}, {'C', 'N', 3, 2, 2, 0, 7},  {'C', 'T', 2, 3, 2, 2, 9},
      {'C', 'N', 3, 2, 3, 2, 9}, {'R', 'N', 2, 3, 2, 3, 7},  {'R', 'T', 3, 2, 2, 2, 9}};
  for (const Bad& c : omat) {
    tbtest::xerbla_record() = {};
    somatcopy_(&c.order, &c.trans, &c.rows, &c.cols, &alpha, a.data(), &c.lda, b.data(), &c.ldb);
    EXPECT_EQ(tbtest::xerbla_record().calls, 1) << "somatcopy_ expected " << c.info;
    EXPECT_EQ(tbtest::xerbla_record().routine, "SOMATCOPY");
    EXPECT_EQ(tbtest::xerbla_record().info, c.info)
        << c.order << c.trans << " " << c.rows << "x" << c.cols << " lda=" << c.lda
        << " ldb=" << c.ldb;
    tbtest::xerbla_record() = {};
    cblas_somatcopy(order_enum(c.order), trans_enum(c.trans), c.rows, c.cols, alpha, a.data(),
                    c.lda, b.data(), c.ldb);
    EXPECT_EQ(tbtest::xerbla_record().calls, 1) << "cblas_somatcopy expected " << c.info;
    EXPECT_EQ(tbtest::xerbla_record().routine, "SOMATCOPY");
    EXPECT_EQ(tbtest::xerbla_record().info, c.info)
        << "cblas " << c.order << c.trans << " " << c.rows << "x" << c.cols << " lda=" << c.lda
        << " ldb=" << c.ldb;
  }
  EXPECT_EQ(compare_bits(b, b0), "") << "somatcopy wrote B on a bad argument";
  const Bad imat[] = {
      {'X', 'N', 2, 2, 2, 2, 1},  {'C', 'X', 2, 2, 2, 2, 2}, {'C', 'N', -1, 2, 2, 2, 3},
      {'C', 'N', 2, -1, 2, 2, 4}, {'C', 'N', 3, 2, 2, 3, 7}, {'C', 'T', 2, 3, 2, 2, 8},
      {'C', 'N', 0, 0, 0, 1, 7},  {'C', 'N', 0, 0, 1, 0, 8}, {'R', 'N', 2, 3, 2, 3, 7},
      {'R', 'T', 3, 2, 2, 2, 8},  {'C', 'N', 0, 5, 1, 1, 0}, {'R', 'T', 5, 0, 1, 5, 0}};
  for (const Bad& c : imat) {
    tbtest::xerbla_record() = {};
    simatcopy_(&c.order, &c.trans, &c.rows, &c.cols, &alpha, a.data(), &c.lda, &c.ldb);
    EXPECT_EQ(tbtest::xerbla_record().calls, c.info ? 1 : 0) << "simatcopy_ expected " << c.info;
    if (c.info) {
      EXPECT_EQ(tbtest::xerbla_record().routine, "SIMATCOPY");
      EXPECT_EQ(tbtest::xerbla_record().info, c.info)
          << c.order << c.trans << " " << c.rows << "x" << c.cols << " lda=" << c.lda
          << " ldb=" << c.ldb;
    }
    tbtest::xerbla_record() = {};
    cblas_simatcopy(order_enum(c.order), trans_enum(c.trans), c.rows, c.cols, alpha, a.data(),
                    c.lda, c.ldb);
    EXPECT_EQ(tbtest::xerbla_record().calls, c.info ? 1 : 0)
        << "cblas_simatcopy expected " << c.info;
    if (c.info) EXPECT_EQ(tbtest::xerbla_record().info, c.info);
  }
  EXPECT_EQ(compare_bits(a, a0), "") << "simatcopy wrote A on a bad or empty call";
}

// Device memory: computed in place on the GPU by tileblas's kernels, same bits as OpenBLAS.
TEST(OmatcopyApi, DeviceDataRunsOnTheGpu) {
  TB_REQUIRE_GPU();
  for (const MatCase& c : omatcopy_cases()) {
    MatBuffers buf(c);
    const std::vector<float> expected = somatcopy_oracle(c, buf.a, buf.b);
    float *da = nullptr, *db = nullptr;
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&da), buf.a.size() * 4), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&db), buf.b.size() * 4), cudaSuccess);
    cudaMemcpy(da, buf.a.data(), buf.a.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, buf.b.data(), buf.b.size() * 4, cudaMemcpyHostToDevice);
    call_somatcopy(c, da + c.off_a, db + c.off_b);
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU)
        << c.str() << ": " << tileblas_last_reason();
    std::vector<float> got(buf.b.size());
    cudaMemcpy(got.data(), db, got.size() * 4, cudaMemcpyDeviceToHost);
    EXPECT_EQ(compare_bits(got, expected, c.alpha == 0.0f ? Zeros::kPositive : Zeros::kExact), "")
        << c.str() << " kernel " << tileblas_last_kernel();
    cudaFree(da);
    cudaFree(db);
  }
  // In place on the device: square (tile-pair swaps) and non-square (through scratch).
  for (int rows : {300, 4096}) {
    for (int cols : {rows, rows / 3 + 1}) {
      const float alpha = -2.5f;
      std::vector<float> a = tbtest::random_floats(size_t(rows) * cols);
      std::vector<float> expected(a.size());
      tbtest::poison(expected);
      const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
      blas.somatcopy("C", "T", &rows, &cols, &alpha, a.data(), &rows, expected.data(), &cols);
      float* da = nullptr;
      ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&da), a.size() * 4), cudaSuccess);
      cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
      cblas_simatcopy(kColMajor, kTrans, rows, cols, alpha, da, rows, cols);
      EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
      if (rows == cols) {
        EXPECT_STREQ(tileblas_last_kernel(), "transpose_inplace_square_32x32");
      }
      std::vector<float> got(a.size());
      cudaMemcpy(got.data(), da, got.size() * 4, cudaMemcpyDeviceToHost);
      EXPECT_EQ(compare_bits(got, expected), "") << rows << "x" << cols << " in place";
      cudaFree(da);
    }
  }
}

// ---- axpy ------------------------------------------------------------------------------------

struct AxpyCase {
  Form form = Form::kFortran;
  int n = 1;
  float alpha = 1.0f;
  int incx = 1, incy = 1;
  int off_x = 0, off_y = 0;
  std::string str() const {
    std::ostringstream s;
    s << (form == Form::kFortran ? "saxpy_" : "cblas_saxpy") << " n=" << n << " alpha=" << alpha
      << " incx=" << incx << " incy=" << incy << " offsets=" << off_x << "," << off_y;
    return s.str();
  }
};

constexpr int kGuard = 8;

size_t span_of(int n, int inc) { return n <= 0 ? 0 : size_t(n - 1) * std::abs(inc) + 1; }

void call_saxpy(const AxpyCase& c, const float* x, float* y) {
  if (c.form == Form::kFortran) {
    saxpy_(&c.n, &c.alpha, x, &c.incx, y, &c.incy);
  } else {
    cblas_saxpy(c.n, c.alpha, x, c.incx, y, c.incy);
  }
}

// Checks y against OpenBLAS: updated elements within 2 eps (|alpha x| + |y|), all others the bits
// they had. x and y are the host vectors with guards (y_before as it was before the call).
std::string check_axpy(const AxpyCase& c, const std::vector<float>& x,
                       const std::vector<float>& y_before, const std::vector<float>& got) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if (!blas.error.empty()) return blas.error;
  std::vector<float> expected = y_before;
  const float* hx = x.data() + kGuard + c.off_x;
  blas.saxpy(&c.n, &c.alpha, hx, &c.incx, expected.data() + kGuard + c.off_y, &c.incy);
  std::vector<float> bound(expected.size(), -1.0f);
  const float* y0 = y_before.data() + kGuard + c.off_y;
  for (int i = 0; i < c.n && c.alpha != 0.0f; ++i) {
    const size_t px = c.incx >= 0 ? size_t(i) * c.incx : size_t(c.n - 1 - i) * -c.incx;
    const size_t py = c.incy >= 0 ? size_t(i) * c.incy : size_t(c.n - 1 - i) * -c.incy;
    bound[kGuard + c.off_y + py] =
        2.0f * FLT_EPSILON * (std::fabs(c.alpha * hx[px]) + std::fabs(y0[py]));
  }
  for (size_t k = 0; k < got.size(); ++k) {
    const bool updated = bound[k] >= 0.0f;
    if (updated ? !(std::fabs(got[k] - expected[k]) <= bound[k])
                : !same_bits(got[k], expected[k])) {
      std::ostringstream s;
      s << "y buffer element " << k << (updated ? "" : " (not updated)") << ": got " << got[k]
        << ", OpenBLAS " << expected[k];
      return s.str();
    }
  }
  return "";
}

std::vector<AxpyCase> axpy_cases() {
  const std::pair<int, int> incs[] = {{1, 1},   {2, 1},   {1, -1}, {-3, 2},
                                      {-1, -1}, {-3, -3}, {2, -3}};
  std::vector<AxpyCase> cases;
  int k = 0;
  for (int n : {0, 1, 3, 4, 5, 1000003}) {
    for (float alpha : {0.0f, 1.0f, -2.5f}) {
      for (const auto& [incx, incy] : incs) {
        for (Form form : {Form::kFortran, Form::kCblas}) {
          AxpyCase c;
          c.form = form, c.n = n, c.alpha = alpha, c.incx = incx, c.incy = incy;
          c.off_x = k % 4, c.off_y = (k / 2) % 4;  // same and different misalignments
          ++k;
          cases.push_back(c);
        }
      }
    }
  }
  return cases;
}

struct AxpyBuffers {
  std::vector<float> x, y;
  explicit AxpyBuffers(const AxpyCase& c)
      : x(tbtest::random_floats(2 * kGuard + c.off_x + span_of(c.n, c.incx), -2.0f, 2.0f)),
        y(tbtest::random_floats(2 * kGuard + c.off_y + span_of(c.n, c.incy), -2.0f, 2.0f)) {
    for (int i = 0; i < kGuard + c.off_y; ++i) y[i] = tbtest::nan_value();
    for (size_t i = y.size() - kGuard; i < y.size(); ++i) y[i] = tbtest::nan_value();
  }
};

TEST(AxpyApi, HostDataMatchesOpenBlas) {
  for (const AxpyCase& c : axpy_cases()) {
    AxpyBuffers buf(c);
    const std::vector<float> y_before = buf.y;
    call_saxpy(c, buf.x.data() + kGuard + c.off_x, buf.y.data() + kGuard + c.off_y);
    EXPECT_EQ(check_axpy(c, buf.x, y_before, buf.y), "") << c.str();
  }
}

TEST(AxpyApi, QuickReturnsLeaveY) {
  std::vector<float> x(16, tbtest::nan_value()), y = tbtest::random_floats(16);
  const std::vector<float> y0 = y;
  const float zero = 0.0f, two = 2.0f;
  const int n = 16, none = 0, negative = -3, one = 1;
  saxpy_(&n, &zero, x.data(), &one, y.data(), &one);  // alpha == 0: NaN in x must not leak
  cblas_saxpy(n, 0.0f, x.data(), 1, y.data(), 1);
  saxpy_(&none, &two, x.data(), &one, y.data(), &one);
  saxpy_(&negative, &two, x.data(), &one, y.data(), &one);
  cblas_saxpy(-1, 2.0f, x.data(), 1, y.data(), 1);
  EXPECT_EQ(compare_bits(y, y0), "");
}

TEST(AxpyApi, HostDataRunsOnTheCpu) {
  std::vector<float> x = tbtest::random_floats(1000), y = tbtest::random_floats(1000);
  cblas_saxpy(1000, 1.5f, x.data(), 1, y.data(), 1);
  if (forced_gpu() && tbtest::has_cuda_device()) {
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU) << tileblas_last_reason();
  } else {
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_CPU) << tileblas_last_reason();
  }
}

TEST(AxpyApi, DeviceDataRunsOnTheGpu) {
  TB_REQUIRE_GPU();
  for (const AxpyCase& c : axpy_cases()) {
    if (c.n == 0 || c.alpha == 0.0f) continue;  // quick returns: no route recorded
    AxpyBuffers buf(c);
    float *dx = nullptr, *dy = nullptr;
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&dx), buf.x.size() * 4), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&dy), buf.y.size() * 4), cudaSuccess);
    cudaMemcpy(dx, buf.x.data(), buf.x.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, buf.y.data(), buf.y.size() * 4, cudaMemcpyHostToDevice);
    call_saxpy(c, dx + kGuard + c.off_x, dy + kGuard + c.off_y);
    EXPECT_EQ(tileblas_last_route(), TILEBLAS_ROUTE_GPU)
        << c.str() << ": " << tileblas_last_reason();
    std::vector<float> got(buf.y.size());
    cudaMemcpy(got.data(), dy, got.size() * 4, cudaMemcpyDeviceToHost);
    EXPECT_EQ(check_axpy(c, buf.x, buf.y, got), "")
        << c.str() << " kernel " << tileblas_last_kernel();
    cudaFree(dx);
    cudaFree(dy);
  }
}

}  // namespace
