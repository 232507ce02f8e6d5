// The default error handlers, weak and exported so that a program's own xerbla_ / cblas_xerbla
// (the netlib testers define both) takes their place. Unlike netlib's, which STOP / exit(-1), they
// print and return, as OpenBLAS's and MKL's do: the call with the bad argument does nothing, and a
// library has no business ending the program over it.
//
// CBLAS routines tileblas forwards (compat/forwarders.txt) run the CPU BLAS's CBLAS code, which
// checks the arguments of the column-major call a row-major one maps to and reports the first bad
// one as the Fortran routine would: xerbla_("DGEMV ", info). The reference CBLAS's own xerbla_
// turns such a report into cblas_xerbla(info + 1, "cblas_dgemv", "") (the layout is argument 1),
// with its RowMajorStrg set for a row-major call; its cblas_xerbla then maps the positions the
// row-major mapping exchanged back to the caller's. Our xerbla_ does the same for a report made by
// the CPU BLAS's CBLAS routine from inside a forwarded call of it (the trampolines record the call
// and its layout: compat/forwarders.cmake), and when the CPU BLAS is the reference CBLAS in the
// middle of a call (its CBLAS_CallFromC is set: its Fortran routine's report reached our xerbla_,
// not its own).
#include <dlfcn.h>

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "compat.h"
#include "cpu_blas.h"

namespace {

// The reference CBLAS's cblas_xerbla: a row-major call's error is numbered by the column-major
// call it maps to; these are the positions that mapping exchanges, swapped back.
int row_major_position(const char* rout, int info) {
  auto swap = [&info](int p, int q) { info = info == p ? q : info == q ? p : info; };
  if (std::strstr(rout, "gemm")) {
    swap(4, 5);
    swap(9, 11);
  } else if (std::strstr(rout, "symm") || std::strstr(rout, "hemm")) {
    swap(4, 5);
  } else if (std::strstr(rout, "trmm") || std::strstr(rout, "trsm")) {
    swap(6, 7);
  } else if (std::strstr(rout, "gemv")) {
    swap(3, 4);
  } else if (std::strstr(rout, "gbmv")) {
    swap(3, 4);
    swap(5, 6);
  } else if (std::strstr(rout, "ger")) {
    swap(2, 3);
    swap(6, 8);
  } else if ((std::strstr(rout, "her2") || std::strstr(rout, "hpr2")) &&
             !std::strstr(rout, "her2k")) {
    swap(6, 8);
  }
  return info;
}

// The routine name of a Fortran report, without its blank (or NUL) padding.
std::string trimmed(const char* srname, size_t srname_len) {
  size_t len = strnlen(srname, srname_len);
  while (len > 0 && srname[len - 1] == ' ') --len;  // Fortran blank padding (LEN_TRIM)
  return std::string(srname, len);
}

// "cblas_dgemv" -> "DGEMV".
std::string fortran_name_of(const char* cblas_name) {
  std::string name(cblas_name + std::strlen("cblas_"));
  for (char& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// A global of the reference CBLAS as its code binds it: a definition in the process's global scope
// (a program's own, as the CBLAS testers have) before the CPU BLAS's.
int* reference_cblas_global(const char* name) {
  if (void* global = dlsym(RTLD_DEFAULT, name)) return static_cast<int*>(global);
  return static_cast<int*>(tileblas::cpu_blas::symbol(name));
}

// When the Fortran report `name` comes from a CBLAS call, that call's routine and layout. `caller`
// is the address the report returns to.
bool cblas_call_reporting(const std::string& name, const void* caller, std::string* rout,
                          bool* row_major) {
  // A forwarded call: the CPU BLAS's CBLAS routine itself reports (OpenBLAS's cblas_dgemv calls
  // xerbla_("DGEMV ", ...)), within the call this thread's record describes. A Fortran routine's
  // report (dgemv_ calling xerbla_) after such a call is not taken for it.
  const char* forwarded =
      tileblas::compat::forwarded_cblas_call(__builtin_frame_address(0), row_major);
  Dl_info reporter{};
  if (forwarded && fortran_name_of(forwarded) == name && dladdr(caller, &reporter) &&
      reporter.dli_sname && std::strcmp(reporter.dli_sname, forwarded) == 0) {
    *rout = forwarded;
    return true;
  }
  // The reference CBLAS checks nothing itself: its Fortran routine reports, while its
  // CBLAS_CallFromC says a CBLAS call is running and RowMajorStrg in what layout.
  static int* const reference_in_call = reference_cblas_global("CBLAS_CallFromC");
  static int* const reference_row_major = reference_cblas_global("RowMajorStrg");
  if (reference_in_call && *reference_in_call) {
    *rout = "cblas_" + name;
    for (char& c : *rout) c = char(std::tolower(static_cast<unsigned char>(c)));
    *row_major = reference_row_major && *reference_row_major;
    return true;
  }
  return false;
}

}  // namespace

void tileblas::compat::print_xerbla_message(const char* srname, size_t srname_len, int64_t info) {
  std::fprintf(stderr, " ** On entry to %-6s parameter number %2d had an illegal value\n",
               trimmed(srname, srname_len).c_str(), static_cast<int>(info));
}

// netlib's message, routine name in at least six columns as the classic CHARACTER*6 SRNAME
// printed it: " ** On entry to SGEMM  parameter number  8 had an illegal value". A report from
// inside a CBLAS call goes to cblas_xerbla instead, as described at the top of this file. Any other
// goes to the handler the process has besides ours, if any: preloaded, this definition comes before
// any library's, also for LAPACK and the BLAS underneath, and the handler the process has besides
// it is the one they would have reached (numpy's extension modules define xerbla_ to raise a
// Python ValueError, and numpy's tests check that it does). INFO is an integer of the library's
// standard names (64-bit in libtileblas64).
TILEBLAS_EXPORT __attribute__((weak)) void xerbla_(const char* srname,
                                                   const tileblas::compat::LibraryInt* info,
                                                   size_t srname_len) {
  const std::string name = trimmed(srname, srname_len);
  std::string rout;
  bool row_major = false;
  if (cblas_call_reporting(name, __builtin_return_address(0), &rout, &row_major)) {
    tileblas::compat::report_cblas_xerbla(int(*info) + 1, rout.c_str(), row_major);
    return;
  }
  if (tileblas::cpu_blas::xerbla(tileblas::compat::kLibraryNameSet, srname, srname_len, *info)) {
    return;
  }
  tileblas::compat::print_xerbla_message(srname, srname_len, *info);
}

// The reference CBLAS's message: "Parameter 9 to routine cblas_sgemm was incorrect", then `form`.
TILEBLAS_EXPORT __attribute__((weak)) void cblas_xerbla(tileblas::compat::LibraryInt p,
                                                        const char* rout, const char* form, ...) {
  int info = static_cast<int>(p);
  if (tileblas::compat::reporting_row_major()) info = row_major_position(rout, info);
  if (info) std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  va_list args;
  va_start(args, form);
  std::vfprintf(stderr, form, args);
  va_end(args);
}
