#include "compat.h"

#include <dlfcn.h>

#include <cstring>

namespace tileblas::compat {

namespace {
thread_local bool t_reporting_row_major = false;
}  // namespace

void report_xerbla(NameSet s, const char* srname, int64_t info) {
  if (openblas_conventions(s)) {
    if (!cpu_blas::xerbla(s, srname, std::strlen(srname), info)) {
      print_xerbla_message(srname, std::strlen(srname), info);
    }
    return;
  }
  const LibraryInt i = LibraryInt(info);
  xerbla_(srname, &i, std::strlen(srname));
}

void report_cblas_xerbla(int info, const char* rout, bool row_major) {
  // The reference CBLAS keeps the layout of the call being checked in this global; its testers
  // and its cblas_xerbla read it to map row-major argument positions.
  static int* const reference_row_major = static_cast<int*>(dlsym(RTLD_DEFAULT, "RowMajorStrg"));
  if (reference_row_major) *reference_row_major = row_major ? 1 : 0;
  t_reporting_row_major = row_major;
  cblas_xerbla(info, rout, "");
  t_reporting_row_major = false;
  if (reference_row_major) *reference_row_major = 0;
}

bool reporting_row_major() { return t_reporting_row_major; }

std::string entry_label(NameSet s, const char* routine, bool cblas) {
  if (!openblas_conventions(s)) return cblas ? std::string("cblas_") + routine : routine;
  return cblas ? cpu_blas::cblas_name(s, routine) : cpu_blas::fortran_name(s, routine);
}

int check_gemm_args(bool openblas, char transa, char transb, int64_t m, int64_t n, int64_t k,
                    int64_t lda, int64_t ldb, int64_t ldc) {
  // Only whether A and B are transposed matters here: 'C' is 'T', OpenBLAS's 'R' is 'N'.
  auto transposed = [openblas](char c, bool* t) {
    *t = lsame(c, 'T') || lsame(c, 'C');
    return *t || lsame(c, 'N') || (openblas && lsame(c, 'R'));
  };
  bool ta = false, tb = false;
  if (!transposed(transa, &ta)) return 1;
  if (!transposed(transb, &tb)) return 2;
  const int64_t a_rows = ta ? k : m;
  const int64_t b_rows = tb ? n : k;
  const int64_t floor = openblas ? 0 : 1;
  auto at_least = [floor](int64_t x) { return x > floor ? x : floor; };
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < at_least(a_rows)) return 8;
  if (ldb < at_least(b_rows)) return 10;
  if (ldc < at_least(m)) return 13;
  return 0;
}

bool gemm_quick_return(int64_t m, int64_t n, int64_t k, Scalar alpha, Scalar beta) {
  return m == 0 || n == 0 || ((alpha.is_zero() || k == 0) && beta.is_one());
}

bool refuse_wide(NameSet s, const char* srname, int64_t limit,
                 std::initializer_list<NumberedArg> args) {
  for (const NumberedArg& a : args) {
    if (a.value > limit) {
      report_xerbla(s, srname, a.info);
      return true;
    }
  }
  return false;
}

}  // namespace tileblas::compat
