// The default error handlers, weak and exported so that a program's own xerbla_ / cblas_xerbla
// (the netlib testers define both) takes their place. Unlike netlib's, which STOP / exit(-1), they
// print and return, as OpenBLAS's and MKL's do: the call with the bad argument does nothing, and a
// library has no business ending the program over it.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "compat.h"

namespace {

// The reference CBLAS numbers a row-major call's error by the column-major call it maps to, then
// its cblas_xerbla swaps the positions back. Only GEMM-like routines report through ours, and
// their mapping exchanges M (4) with N (5) and A's leading dimension (9) with B's (11).
int row_major_position(const char* rout, int info) {
  if (std::strstr(rout, "gemm") == nullptr) return info;
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

// netlib's message, routine name in at least six columns as the classic CHARACTER*6 SRNAME
// printed it: " ** On entry to SGEMM  parameter number  8 had an illegal value".
TILEBLAS_EXPORT __attribute__((weak)) void xerbla_(const char* srname, const int* info,
                                                   size_t srname_len) {
  size_t len = srname_len;
  while (len > 0 && srname[len - 1] == ' ') --len;  // Fortran blank padding (LEN_TRIM)
  std::fprintf(stderr, " ** On entry to %-6.*s parameter number %2d had an illegal value\n",
               static_cast<int>(len), srname, *info);
}

// The reference CBLAS's message: "Parameter 9 to routine cblas_sgemm was incorrect", then `form`.
TILEBLAS_EXPORT __attribute__((weak)) void cblas_xerbla(int info, const char* rout,
                                                        const char* form, ...) {
  if (tileblas::compat::reporting_row_major()) info = row_major_position(rout, info);
  if (info) std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  va_list args;
  va_start(args, form);
  std::vfprintf(stderr, form, args);
  va_end(args);
}
