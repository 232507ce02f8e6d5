// Shared pieces of the ABI shims: the export attribute, error reporting per name set, argument
// parsing, and the netlib/CBLAS/OpenBLAS checks and quick returns of the GEMM-like routines. The
// exported symbols themselves come from compat/entry_points.txt: the build turns each row into thin
// entry points, one per name set, that jump to the templates in compat/gemm.h, axpy.h, omatcopy.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "cpu_blas.h"
#include "half_convert.h"
#include "library_abi.h"  // generated per library: kLibraryNameSet
#include "problem.h"

#define TILEBLAS_EXPORT extern "C" __attribute__((visibility("default")))

namespace tileblas::compat {

using cpu_blas::Int;
// The integer type of this library's standard names (int32_t in libtileblas, int64_t in
// libtileblas64): xerbla_'s INFO and cblas_xerbla's first argument.
using LibraryInt = Int<kLibraryNameSet>;

}  // namespace tileblas::compat

// The interposable error handlers of the standard names (default definitions, weak, in
// compat/xerbla.cpp). Called through the dynamic symbol table, so a program's own
// xerbla_/cblas_xerbla wins.
extern "C" void xerbla_(const char* srname, const tileblas::compat::LibraryInt* info,
                        size_t srname_len);
extern "C" void cblas_xerbla(tileblas::compat::LibraryInt info, const char* rout, const char* form,
                             ...);

namespace tileblas::compat {

// CBLAS enum values (as in cblas.h; CblasConjNoTrans is OpenBLAS's).
constexpr int kCblasRowMajor = 101;
constexpr int kCblasColMajor = 102;
constexpr int kCblasNoTrans = 111;
constexpr int kCblasTrans = 112;
constexpr int kCblasConjTrans = 113;
constexpr int kCblasConjNoTrans = 114;
constexpr int kCblasUpper = 121;
constexpr int kCblasLower = 122;
constexpr int kCblasNonUnit = 131;
constexpr int kCblasUnit = 132;
constexpr int kCblasLeft = 141;
constexpr int kCblasRight = 142;

// Whether set s follows OpenBLAS's conventions rather than netlib's and the reference CBLAS's: the
// wheel and ILP64 sets are OpenBLAS's own names. OpenBLAS takes 'R' (conjugate, no transpose) as a
// transpose, checks leading dimensions without netlib's max(1, ·), and reports a CBLAS call's bad
// argument through its Fortran xerbla, numbered as the column-major call it maps to (0 for a bad
// layout).
constexpr bool openblas_conventions(NameSet s) {
  return s != NameSet::kStandard && s != NameSet::kStandardIlp64;
}

// The name a call is reported under (TILEBLAS_VERBOSE, tileblas_last_*): under the standard names
// "sgemm" (Fortran) or "cblas_sgemm", under the others the exported name ("scipy_sgemm_64_").
std::string entry_label(NameSet s, const char* routine, bool cblas);

// Reports a bad Fortran argument through set s's xerbla: xerbla_(srname, &info, strlen(srname))
// for the standard names, cpu_blas::xerbla() (the set's own <prefix>xerbla_<suffix>) for the
// others, or netlib's message when the process has none of these.
void report_xerbla(NameSet s, const char* srname, int64_t info);
// The library's standard names.
inline void report_xerbla(const char* srname, int64_t info) {
  report_xerbla(kLibraryNameSet, srname, info);
}

// netlib's message, routine name in at least six columns as the classic CHARACTER*6 SRNAME
// printed it: " ** On entry to SGEMM  parameter number  8 had an illegal value".
void print_xerbla_message(const char* srname, size_t srname_len, int64_t info);

// Reports a bad CBLAS argument as the reference CBLAS does: cblas_xerbla(info, rout, ...), with the
// reference CBLAS's RowMajorStrg (when that library is in the process) and our own row-major flag
// set for the duration of the call, so a handler can undo the row-major A/B swap in the numbering.
void report_cblas_xerbla(int info, const char* rout, bool row_major);

// True while report_cblas_xerbla() reports a row-major call (read by our default cblas_xerbla).
bool reporting_row_major();

// The Level 2 or 3 CBLAS routine ("cblas_dgemv") last forwarded on this thread, if `frame` (an
// address on the stack) lies within that call, and in *row_major its layout; else nullptr. The
// record of a call that has returned can still hold for a frame as deep: a caller also checks that
// the report comes from that routine.
const char* forwarded_cblas_call(const void* frame, bool* row_major);

// netlib LSAME: case-insensitive character compare.
inline bool lsame(char a, char b) {  // inline: a Level-3 call's argument checks call it ten times
  auto upper = [](char c) { return (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c; };
  return upper(a) == upper(b);
}

// 'N'/'n' -> kNoTrans; 'T' -> kTrans; 'C' -> kConjTrans for complex data, kTrans for real data
// (either case). False if none of these. Inline: every GEMM call makes two.
inline bool parse_trans(char c, DataType type, Op* op) {
  if (lsame(c, 'N')) {
    *op = Op::kNoTrans;
    return true;
  }
  if (lsame(c, 'T')) {
    *op = Op::kTrans;
    return true;
  }
  if (lsame(c, 'C')) {
    *op = is_complex(type) ? Op::kConjTrans : Op::kTrans;
    return true;
  }
  return false;
}

// Where a GEMM-like call came from: its name set, xerbla's name for it, the reference CBLAS's.
struct GemmSite {
  NameSet set;
  const char* srname;  // blank-padded as netlib passes it: "SGEMM "
  const char* cblas;   // "cblas_sgemm"
};

// xGEMM's argument check on column-major arguments, in netlib INFO order: 1 transa, 2 transb, 3 m,
// 4 n, 5 k, 8 lda, 10 ldb, 13 ldc. Leading dimensions >= max(1, rows); with OpenBLAS's conventions
// >= rows, and 'R' is a transpose. Returns 0 when all are valid.
int check_gemm_args(bool openblas, char transa, char transb, int64_t m, int64_t n, int64_t k,
                    int64_t lda, int64_t ldb, int64_t ldc);
// netlib's.
inline int check_gemm_args(char transa, char transb, int64_t m, int64_t n, int64_t k, int64_t lda,
                           int64_t ldb, int64_t ldc) {
  return check_gemm_args(false, transa, transb, m, n, k, lda, ldb, ldc);
}

// netlib's quick return: nothing to do when m == 0, n == 0, or (alpha == 0 or k == 0) and beta
// == 1.
bool gemm_quick_return(int64_t m, int64_t n, int64_t k, Scalar alpha, Scalar beta);

// One element of `type` at `v` (fp16, float, double, or a re, im pair of them) as a Scalar. Inline:
// every Level-3 call reads two.
inline Scalar scalar_at(const void* v, DataType type) {
  switch (type) {
    case DataType::kF16:
      return half_to_float(*static_cast<const uint16_t*>(v));
    case DataType::kF64:
      return *static_cast<const double*>(v);
    case DataType::kC32: {
      const float* re_im = static_cast<const float*>(v);
      return {re_im[0], re_im[1]};
    }
    case DataType::kC64: {
      const double* re_im = static_cast<const double*>(v);
      return {re_im[0], re_im[1]};
    }
    default:
      return *static_cast<const float*>(v);
  }
}

// The arguments of a GEMM-like call, before checks (CBLAS form; Fortran callers use kColMajor and
// pass their trans characters).
struct GemmArgs {
  int64_t m, n, k;
  Scalar alpha, beta;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  void* c;
  int64_t ldc;
  DataType type;
  DataType c_type;
  const void* alpha_at;  // alpha and beta as the caller passed them, one element of c_type: for
  const void* beta_at;   // a call handed to the set's own BLAS unchanged
};

// A Fortran GEMM-like call: checks (the set's xerbla on error), quick return, refusal of integers
// wider than the CPU BLAS of the set takes (cpu_blas::max_int()), then tileblas::gemm() under
// `routine`, the exported name. OpenBLAS's complex 'R' (conjugate, no transpose), which tileblas
// does not compute, goes to the set's own BLAS as it came.
void fortran_gemm(const GemmSite& site, char transa, char transb, const GemmArgs& args,
                  const char* routine);

// A CBLAS GEMM-like call: checks layout and transposes, maps row-major onto column-major
// (C^T = op(B)^T op(A)^T: swap A/B and m/n), checks the rest, reports errors in the set's CBLAS
// convention (the reference CBLAS's: cblas_xerbla with the mapped Fortran INFO plus one and
// RowMajorStrg set for row-major; OpenBLAS's: see openblas_conventions()), then as fortran_gemm().
void cblas_gemm(const GemmSite& site, int layout, int transa, int transb, const GemmArgs& args,
                const char* routine);

// Reports the first of `values` (INFO numbers alongside) wider than `limit` through set s's xerbla
// under `srname`; true when one was.
struct NumberedArg {
  int64_t value;
  int info;
};
bool refuse_wide(NameSet s, const char* srname, int64_t limit,
                 std::initializer_list<NumberedArg> args);

}  // namespace tileblas::compat
