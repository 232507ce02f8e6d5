// Shared pieces of the ABI shims: the export attribute, xerbla reporting, argument parsing and the
// netlib/CBLAS checks and quick returns that several exported GEMM-like symbols share. Every
// exported function itself is hand-written, one per symbol, in compat/*.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "problem.h"

#define TILEBLAS_EXPORT extern "C" __attribute__((visibility("default")))

// The interposable error handlers (default definitions, weak, in compat/xerbla.cpp). Called through
// the dynamic symbol table, so a program's own xerbla_/cblas_xerbla wins.
extern "C" void xerbla_(const char* srname, const int* info, size_t srname_len);
extern "C" void cblas_xerbla(int info, const char* rout, const char* form, ...);

namespace tileblas::compat {

// CBLAS enum values (as in cblas.h).
constexpr int kCblasRowMajor = 101;
constexpr int kCblasColMajor = 102;
constexpr int kCblasNoTrans = 111;
constexpr int kCblasTrans = 112;
constexpr int kCblasConjTrans = 113;
constexpr int kCblasUpper = 121;
constexpr int kCblasLower = 122;
constexpr int kCblasNonUnit = 131;
constexpr int kCblasUnit = 132;
constexpr int kCblasLeft = 141;
constexpr int kCblasRight = 142;

// Reports a bad Fortran argument: xerbla_(srname, &info, strlen(srname)).
void report_xerbla(const char* srname, int info);

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
bool lsame(char a, char b);

// 'N'/'n' -> kNoTrans; 'T' -> kTrans; 'C' -> kConjTrans for complex data, kTrans for real data
// (either case). False if none of these.
bool parse_trans(char c, DataType type, Op* op);

// CblasNoTrans -> kNoTrans; CblasTrans -> kTrans; CblasConjTrans -> kConjTrans for complex data,
// kTrans for real data. False otherwise.
bool parse_cblas_trans(int t, DataType type, Op* op);

// netlib xGEMM argument check on column-major arguments, in netlib INFO order:
// 1 transa, 2 transb, 3 m, 4 n, 5 k, 8 lda, 10 ldb, 13 ldc (leading dimensions >= max(1, rows)).
// Returns 0 when all are valid.
int check_gemm_args(char transa, char transb, int64_t m, int64_t n, int64_t k, int64_t lda,
                    int64_t ldb, int64_t ldc);

// netlib's quick return: nothing to do when m == 0, n == 0, or (alpha == 0 or k == 0) and beta
// == 1.
bool gemm_quick_return(int64_t m, int64_t n, int64_t k, Scalar alpha, Scalar beta);

// One element of `type` at `v` (float, double, or a re, im pair of them) as a Scalar.
Scalar scalar_at(const void* v, DataType type);

// The arguments of a GEMM-like call, before checks (CBLAS form; Fortran callers use kColMajor and
// pass their trans characters through fortran_gemm_problem()).
struct GemmArgs {
  int64_t m, n, k;
  Scalar alpha, beta;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  void* c;
  int64_t ldc;
  DataType ab_type;
  DataType c_type;
};

// Fortran form: checks (xerbla_(srname, info) on error), quick return, then fills *p (column-major
// as given). Returns true when *p must be computed.
bool fortran_gemm_problem(const char* srname, char transa, char transb, const GemmArgs& args,
                          GemmProblem* p);

// CBLAS form: checks layout and transposes (cblas_xerbla 1, 2, 3), maps row-major onto column-major
// (C^T = op(B)^T op(A)^T: swap A/B and m/n), checks the rest as the reference CBLAS does (the
// Fortran INFO of the mapped call plus one, reported with RowMajorStrg set for row-major), quick
// return, then fills *p. Returns true when *p must be computed.
bool cblas_gemm_problem(const char* rout, int layout, int transa, int transb, const GemmArgs& args,
                        GemmProblem* p);

}  // namespace tileblas::compat
