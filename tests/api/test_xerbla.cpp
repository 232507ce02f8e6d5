// Bad arguments to sgemm_ and cblas_sgemm: each case is reported once, to the program's own
// xerbla_ / cblas_xerbla (interposed below), with netlib's routine name and parameter number, and
// C is left untouched. The cases follow netlib's testers (sblat3.f SCHKE, CBLAS c_s3chke.c); the
// default handlers' messages are checked too.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "test_support.h"

// The reference CBLAS's global: its testers set it and its cblas_xerbla reads it. tileblas sets
// it (when a process has one) while reporting a row-major call. This executable exports it, and
// its own xerbla_ and cblas_xerbla below, which take the place of libtileblas's weak defaults
// (tests/CMakeLists.txt: ENABLE_EXPORTS).
extern "C" {
__attribute__((visibility("default"))) int RowMajorStrg = 0;
}

namespace {

struct XerblaCall {
  bool cblas;           // cblas_xerbla (true) or xerbla_ (false)
  std::string routine;  // as passed, Fortran blank padding removed: "SGEMM", "cblas_sgemm"
  int info;             // the parameter number a user reads (row-major positions mapped back)
  bool row_major;       // RowMajorStrg while the handler ran
};

std::vector<XerblaCall> g_calls;
// While set, reports also go on to libtileblas's own handlers (which print to stderr).
bool g_passthrough = false;

// The reference CBLAS's (and its tester's) row-major mapping for GEMM: the column-major call a
// row-major one maps to swaps M/N and A/B, so positions 4/5 and 9/11 are swapped back.
int gemm_user_position(const char* rout, int info) {
  if (!RowMajorStrg || std::strstr(rout, "gemm") == nullptr) return info;
  switch (info) {
    case 4:
      return 5;
    case 5:
      return 4;
    case 9:
      return 11;
    case 11:
      return 9;
    default:
      return info;
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void xerbla_(const char* srname, const int* info,
                                                               size_t srname_len) {
  std::string name(srname, srname_len);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  g_calls.push_back({false, name, *info, RowMajorStrg != 0});
  if (g_passthrough) {
    using Fn = void (*)(const char*, const int*, size_t);
    reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "xerbla_"))(srname, info, srname_len);
  }
}

extern "C" __attribute__((visibility("default"))) void cblas_xerbla(int info, const char* rout,
                                                                    const char* form, ...) {
  g_calls.push_back({true, rout, gemm_user_position(rout, info), RowMajorStrg != 0});
  if (g_passthrough) {
    using Fn = void (*)(int, const char*, const char*, ...);
    reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "cblas_xerbla"))(info, rout, "%s", form);
  }
}

extern "C" {
void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, size_t, size_t);
void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
}

namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112, kConjTrans = 113;
constexpr int kBadEnum = 0;

// Buffers large enough for any case below, filled with random data; C's bits are compared after.
struct Buffers {
  std::vector<float> a = tbtest::random_floats(64), b = tbtest::random_floats(64),
                     c = tbtest::random_floats(64);
  std::vector<float> c_before = c;
  bool c_untouched() const {
    return std::memcmp(c.data(), c_before.data(), c.size() * sizeof(float)) == 0;
  }
};

struct FortranCase {
  char transa, transb;
  int m, n, k, lda, ldb, ldc;
  int info;  // expected; 0: valid, nothing reported
};

std::string describe(const FortranCase& f) {
  return "sgemm_('" + std::string(1, f.transa) + "','" + std::string(1, f.transb) +
         "', m=" + std::to_string(f.m) + " n=" + std::to_string(f.n) + " k=" + std::to_string(f.k) +
         " lda=" + std::to_string(f.lda) + " ldb=" + std::to_string(f.ldb) +
         " ldc=" + std::to_string(f.ldc) + ")";
}

TEST(XerblaApi, SgemmFortranReportsInNetlibInfoOrder) {
  const FortranCase cases[] = {
      // sblat3.f SCHKE, SGEMM.
      {'/', 'N', 0, 0, 0, 1, 1, 1, 1},
      {'/', 'T', 0, 0, 0, 1, 1, 1, 1},
      {'N', '/', 0, 0, 0, 1, 1, 1, 2},
      {'T', '/', 0, 0, 0, 1, 1, 1, 2},
      {'N', 'N', -1, 0, 0, 1, 1, 1, 3},
      {'N', 'T', -1, 0, 0, 1, 1, 1, 3},
      {'T', 'N', -1, 0, 0, 1, 1, 1, 3},
      {'T', 'T', -1, 0, 0, 1, 1, 1, 3},
      {'N', 'N', 0, -1, 0, 1, 1, 1, 4},
      {'T', 'T', 0, -1, 0, 1, 1, 1, 4},
      {'N', 'N', 0, 0, -1, 1, 1, 1, 5},
      {'T', 'T', 0, 0, -1, 1, 1, 1, 5},
      {'N', 'N', 2, 0, 0, 1, 1, 2, 8},
      {'N', 'T', 2, 0, 0, 1, 1, 2, 8},
      {'T', 'N', 0, 0, 2, 1, 2, 1, 8},
      {'T', 'T', 0, 0, 2, 1, 1, 1, 8},
      {'N', 'N', 0, 0, 2, 1, 1, 1, 10},
      {'T', 'N', 0, 0, 2, 2, 1, 1, 10},
      {'N', 'T', 0, 2, 0, 1, 1, 1, 10},
      {'T', 'T', 0, 2, 0, 1, 1, 1, 10},
      {'N', 'N', 2, 0, 0, 2, 1, 1, 13},
      {'T', 'T', 2, 0, 0, 1, 1, 1, 13},
      // Several bad arguments: the first in INFO order is the one reported.
      {'/', '/', -1, -1, -1, 0, 0, 0, 1},
      {'N', '/', -1, 0, 0, 1, 1, 1, 2},
      {'N', 'N', -1, -1, 0, 1, 1, 1, 3},
      {'N', 'N', 3, 3, 3, 2, 2, 2, 8},
      {'N', 'N', 3, 3, 3, 3, 2, 2, 10},
      // Leading dimensions count even when there is nothing to compute (checks come before the
      // quick return): at least 1, whatever the sizes.
      {'N', 'N', 0, 0, 0, 0, 1, 1, 8},
      {'N', 'N', 0, 0, 0, 1, 1, 0, 13},
      {'N', 'N', 0, 5, 5, 1, 0, 1, 10},
      // 'R' is not a transpose for sgemm.
      {'R', 'N', 1, 1, 1, 1, 1, 1, 1},
      // Valid: lowercase, 'C' as 'T', zero sizes with minimal leading dimensions.
      {'n', 't', 2, 2, 2, 2, 2, 2, 0},
      {'c', 'C', 2, 3, 4, 4, 3, 2, 0},
      {'N', 'N', 0, 0, 0, 1, 1, 1, 0},
  };
  for (const FortranCase& f : cases) {
    SCOPED_TRACE(describe(f));
    Buffers buf;
    const float alpha = 1.5f, beta = 0.0f;  // beta 0: a bad call must not even zero C
    g_calls.clear();
    sgemm_(&f.transa, &f.transb, &f.m, &f.n, &f.k, &alpha, buf.a.data(), &f.lda, buf.b.data(),
           &f.ldb, &beta, buf.c.data(), &f.ldc, 1, 1);
    const auto& calls = g_calls;
    if (f.info == 0) {
      EXPECT_TRUE(calls.empty()) << "a valid call was reported";
      continue;
    }
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_FALSE(calls[0].cblas) << "reported through cblas_xerbla";
    EXPECT_EQ(calls[0].routine, "SGEMM");
    EXPECT_EQ(calls[0].info, f.info);
    EXPECT_TRUE(buf.c_untouched()) << "C written by a call with a bad argument";
  }
}

struct CblasCase {
  int layout, transa, transb;
  int m, n, k, lda, ldb, ldc;
  int info;  // expected parameter number of cblas_sgemm; 0: valid
};

std::string describe(const CblasCase& c) {
  return "cblas_sgemm(layout " + std::to_string(c.layout) + ", " + std::to_string(c.transa) + ", " +
         std::to_string(c.transb) + ", m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) +
         " k=" + std::to_string(c.k) + " lda=" + std::to_string(c.lda) +
         " ldb=" + std::to_string(c.ldb) + " ldc=" + std::to_string(c.ldc) + ")";
}

TEST(XerblaApi, CblasSgemmReportsAsReferenceCblas) {
  const int kN = kNoTrans, kT = kTrans, kC = kColMajor, kR = kRowMajor;
  const CblasCase cases[] = {
      // CBLAS c_s3chke.c, cblas_sgemm: layout, then each layout's checks.
      {kBadEnum, kN, kN, 0, 0, 0, 1, 1, 1, 1},
      {kBadEnum, kT, kT, 0, 0, 0, 1, 1, 1, 1},
      {kC, kBadEnum, kN, 0, 0, 0, 1, 1, 1, 2},
      {kC, kN, kBadEnum, 0, 0, 0, 1, 1, 1, 3},
      {kC, kN, kN, -1, 0, 0, 1, 1, 1, 4},
      {kC, kT, kT, 0, -1, 0, 1, 1, 1, 5},
      {kC, kN, kT, 0, 0, -1, 1, 1, 1, 6},
      {kC, kN, kN, 2, 0, 0, 1, 1, 2, 9},
      {kC, kT, kN, 0, 0, 2, 1, 2, 1, 9},
      {kC, kN, kN, 0, 0, 2, 1, 1, 1, 11},
      {kC, kN, kT, 0, 2, 0, 1, 1, 1, 11},
      {kC, kN, kN, 2, 0, 0, 2, 1, 1, 14},
      {kR, kBadEnum, kN, 0, 0, 0, 1, 1, 1, 2},
      {kR, kN, kBadEnum, 0, 0, 0, 1, 1, 1, 3},
      {kR, kN, kN, -1, 0, 0, 1, 1, 1, 4},
      {kR, kT, kT, 0, -1, 0, 1, 1, 1, 5},
      {kR, kN, kT, 0, 0, -1, 1, 1, 1, 6},
      {kR, kN, kN, 0, 0, 2, 1, 2, 1, 9},
      {kR, kT, kN, 2, 0, 0, 1, 1, 2, 9},
      {kR, kN, kN, 0, 2, 0, 1, 1, 2, 11},
      {kR, kN, kT, 0, 0, 2, 2, 1, 1, 11},
      {kR, kN, kN, 0, 2, 0, 1, 2, 1, 14},
      // Several bad arguments: the reference reports the first check of the column-major call
      // a row-major call maps to, so N (5) before M (4) in row-major.
      {kC, kN, kN, -1, -1, 0, 1, 1, 1, 4},
      {kR, kN, kN, -1, -1, 0, 1, 1, 1, 5},
      {kR, kN, kN, 2, 2, 2, 1, 1, 2, 11},
      // Valid: ConjTrans as Trans, zero sizes, row-major leading dimensions by columns.
      {kC, kConjTrans, kN, 2, 2, 2, 2, 2, 2, 0},
      {kR, kN, kN, 2, 3, 4, 4, 3, 3, 0},
      {kR, kN, kN, 0, 0, 0, 1, 1, 1, 0},
  };
  for (const CblasCase& c : cases) {
    SCOPED_TRACE(describe(c));
    Buffers buf;
    g_calls.clear();
    cblas_sgemm(c.layout, c.transa, c.transb, c.m, c.n, c.k, 1.5f, buf.a.data(), c.lda,
                buf.b.data(), c.ldb, 0.0f, buf.c.data(), c.ldc);
    EXPECT_EQ(RowMajorStrg, 0) << "RowMajorStrg left set after the call";
    const auto& calls = g_calls;
    if (c.info == 0) {
      EXPECT_TRUE(calls.empty()) << "a valid call was reported";
      continue;
    }
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_TRUE(calls[0].cblas) << "reported through xerbla_, not cblas_xerbla";
    EXPECT_EQ(calls[0].routine, "cblas_sgemm");
    EXPECT_EQ(calls[0].info, c.info);
    // The layout error is reported before the layout is known; every other row-major report
    // comes with RowMajorStrg set, as the reference CBLAS's testers need.
    EXPECT_EQ(calls[0].row_major, c.layout == kRowMajor);
    EXPECT_TRUE(buf.c_untouched()) << "C written by a call with a bad argument";
  }
}

// Captures what libtileblas's own handlers print for one bad call.
template <class Call>
std::string default_handler_output(Call call) {
  g_passthrough = true;
  testing::internal::CaptureStderr();
  call();
  std::string out = testing::internal::GetCapturedStderr();
  g_passthrough = false;
  return out;
}

TEST(XerblaApi, DefaultHandlersAreLibtileblasWeakOnes) {
  for (const char* name : {"xerbla_", "cblas_xerbla"}) {
    void* next = dlsym(RTLD_NEXT, name);
    ASSERT_NE(next, nullptr) << name;
    Dl_info info{};
    ASSERT_NE(dladdr(next, &info), 0);
    EXPECT_NE(std::strstr(info.dli_fname, "libtileblas"), nullptr)
        << name << " after the program's own comes from " << info.dli_fname;
  }
}

TEST(XerblaApi, DefaultHandlersPrintLikeNetlib) {
  Buffers buf;
  const float alpha = 1.0f, beta = 0.0f;
  const int two = 2, one = 1;
  EXPECT_EQ(default_handler_output([&] {
              sgemm_("N", "N", &two, &two, &two, &alpha, buf.a.data(), &one, buf.b.data(), &two,
                     &beta, buf.c.data(), &two, 1, 1);
            }),
            " ** On entry to SGEMM  parameter number  8 had an illegal value\n");
  // Row-major: the reference CBLAS's numbering, A's leading dimension is parameter 9.
  EXPECT_EQ(default_handler_output([&] {
              cblas_sgemm(kRowMajor, kNoTrans, kNoTrans, 2, 2, 2, 1.0f, buf.a.data(), 1,
                          buf.b.data(), 2, 0.0f, buf.c.data(), 2);
            }),
            "Parameter 9 to routine cblas_sgemm was incorrect\n");
  EXPECT_EQ(default_handler_output([&] {
              cblas_sgemm(kRowMajor, kNoTrans, kNoTrans, 2, -1, 2, 1.0f, buf.a.data(), 2,
                          buf.b.data(), 2, 0.0f, buf.c.data(), 2);
            }),
            "Parameter 5 to routine cblas_sgemm was incorrect\n");
  EXPECT_EQ(default_handler_output([&] {
              cblas_sgemm(kColMajor, kNoTrans, kNoTrans, -1, 2, 2, 1.0f, buf.a.data(), 2,
                          buf.b.data(), 2, 0.0f, buf.c.data(), 2);
            }),
            "Parameter 4 to routine cblas_sgemm was incorrect\n");
  EXPECT_TRUE(buf.c_untouched());
}

}  // namespace
