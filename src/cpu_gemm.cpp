#include "cpu_gemm.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu_blas.h"
#include "cpu_team.h"
#include "gemm_host_small.h"
#include "half_convert.h"

namespace tileblas {

namespace {

char op_char(Op op) { return op == Op::kNoTrans ? 'N' : op == Op::kTrans ? 'T' : 'C'; }

float load_as_float(const void* base, size_t index, DataType t) {
  switch (t) {
    case DataType::kF16:
      return half_to_float(static_cast<const uint16_t*>(base)[index]);
    case DataType::kBF16:
      return bf16_to_float(static_cast<const uint16_t*>(base)[index]);
    default:
      break;
  }
  return static_cast<const float*>(base)[index];
}

// A rows x cols column-major fp32 copy (ld = rows) of a matrix of any element type.
std::vector<float> widen(const void* base, int64_t ld, int64_t rows, int64_t cols, DataType t) {
  std::vector<float> out(size_t(rows) * size_t(cols));
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i) out[i + j * rows] = load_as_float(base, i + j * ld, t);
  }
  return out;
}

}  // namespace

void gemm_on_cpu(const Problem& p) {
  if (p.type == p.c_type && size_of(p.type) >= 4) {  // fp32, fp64, complex: the CPU ?gemm_
    cpu_blas::run(p);
    return;
  }
  // 16-bit A and B.
  const char ta = op_char(p.trans_a), tb = op_char(p.trans_b);
  const float alpha = float(p.alpha.re), beta = float(p.beta.re);
  std::vector<float> a, b;
  if (p.multiplies()) {
    a = widen(p.a, p.lda, p.a_rows(), p.a_cols(), p.type);
    b = widen(p.b, p.ldb, p.b_rows(), p.b_cols(), p.type);
  }
  const int64_t lda = std::max<int64_t>(p.a_rows(), 1), ldb = std::max<int64_t>(p.b_rows(), 1);
  const int64_t k = alpha != 0.0f ? p.k : 0;
  if (a.empty()) a.assign(1, 0.0f), b.assign(1, 0.0f);
  // The sgemm_ of the call's name set: the library the caller would otherwise have reached.
  if (p.c_type == DataType::kF32) {
    cpu_blas::gemm(p.name_set, DataType::kF32, ta, tb, p.m, p.n, k, &alpha, a.data(), lda, b.data(),
                   ldb, &beta, p.c, p.ldc);
    return;
  }
  // fp16 C: compute in fp32 (C not read when beta == 0), round once at the end.
  std::vector<float> c(size_t(p.m) * size_t(p.n), 0.0f);
  if (beta != 0.0f) c = widen(p.c, p.ldc, p.m, p.n, p.c_type);
  cpu_blas::gemm(p.name_set, DataType::kF32, ta, tb, p.m, p.n, k, &alpha, a.data(), lda, b.data(),
                 ldb, &beta, c.data(), p.m);
  uint16_t* out = static_cast<uint16_t*>(p.c);
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) out[i + j * p.ldc] = float_to_half(c[i + j * p.m]);
  }
}

bool cpu_team_serves(const Problem& p) { return p.type == p.c_type && size_of(p.type) >= 4; }

namespace {

struct Panels {
  const Problem* p;
  int parts;
  bool by_rows;              // row panels of C (and of op(A)); else column panels (and of op(B))
  gemm_host_small::Isa isa;  // kNone: CPU BLAS calls
};

// Panel `part` of C: its rows or columns [extent * part / parts, extent * (part + 1) / parts).
void gemm_panel(const void* ctx, int part) {
  const Panels& job = *static_cast<const Panels*>(ctx);
  const Problem& p = *job.p;
  const int64_t extent = job.by_rows ? p.m : p.n;
  const int64_t lo = extent * part / job.parts, hi = extent * (part + 1) / job.parts;
  if (hi == lo) return;
  const size_t size = size_of(p.type);  // also C's: the team serves one type
  Problem q = p;
  if (job.by_rows) {  // rows lo..hi of op(A): rows of A, or columns of A^T
    q.a =
        static_cast<const char*>(p.a) + size * size_t(p.trans_a == Op::kNoTrans ? lo : lo * p.lda);
    q.c = static_cast<char*>(p.c) + size * size_t(lo);
    q.m = hi - lo;
  } else {  // columns lo..hi of op(B): columns of B, or rows of B^T
    q.b =
        static_cast<const char*>(p.b) + size * size_t(p.trans_b == Op::kNoTrans ? lo * p.ldb : lo);
    q.c = static_cast<char*>(p.c) + size * size_t(lo * p.ldc);
    q.n = hi - lo;
  }
  if (job.isa != gemm_host_small::Isa::kNone) {
    gemm_host_small::run(q, job.isa);
  } else {
    gemm_on_cpu(q);  // the CPU ?gemm_ of q's type
  }
}

}  // namespace

bool team_panels_on_host_kernel(const Problem& p) {
  return gemm_host_small::supports(p, gemm_host_small::best_isa());
}

TeamSplit team_split(const Problem& p, int64_t parts, bool on_host_kernel) {
  const bool complex = is_complex(p.type);
  const int64_t rows_min = !complex ? 1 : on_host_kernel ? kComplexRowsMin : kComplexColumnsMin;
  const int64_t cols_min = complex ? kComplexColumnsMin : 1;
  const int64_t row_room = p.m / rows_min, col_room = p.n / cols_min;
  const bool rows_fit = row_room >= parts, cols_fit = col_room >= parts;
  bool by_rows = p.m > p.n;
  if (rows_fit != cols_fit) {
    by_rows = rows_fit;
  } else if (!rows_fit) {
    by_rows = row_room > col_room;
  } else if (on_host_kernel) {
    // What a panel packs: the host kernel packs op(A) when A is transposed (complex: 2mk reals)
    // and op(B) when B is complex and transposed (2kn reals); a row panel packs its share of op(A)
    // and all of op(B), a column panel all of op(A) and its share of op(B). Where both are packed
    // (2mk / parts + 2kn against 2mk + 2kn / parts) that is rows when m > n, as where neither is.
    const bool packs_a = p.trans_a != Op::kNoTrans;
    const bool packs_b = complex && p.trans_b != Op::kNoTrans;
    if (packs_a != packs_b) by_rows = packs_a;
  }
  return {by_rows, by_rows ? row_room : col_room};
}

bool gemm_on_cpu_team(const Problem& p, int parts, bool on_host_kernel, bool wake_if_asleep) {
  CpuTeam* team = CpuTeam::get();
  if (!team || !cpu_team_serves(p)) return false;
  if (on_host_kernel && !team_panels_on_host_kernel(p)) return false;
  const bool by_rows = team_split(p, parts, on_host_kernel).by_rows;
  const Panels job{&p, int(std::min<int64_t>(parts, by_rows ? p.m : p.n)), by_rows,
                   on_host_kernel ? gemm_host_small::best_isa() : gemm_host_small::Isa::kNone};
  return team->run(job.parts, gemm_panel, &job, wake_if_asleep);
}

const char* cpu_gemm_label(const Problem& p, CpuGemmPath path) {
  if (path == CpuGemmPath::kHostKernelOnTeam) return "gemm_host_small on the host team";
  static const char* const kLabels[][2] = {{"cpu_blas sgemm_", "cpu_blas sgemm_ on the host team"},
                                           {"cpu_blas dgemm_", "cpu_blas dgemm_ on the host team"},
                                           {"cpu_blas cgemm_", "cpu_blas cgemm_ on the host team"},
                                           {"cpu_blas zgemm_", "cpu_blas zgemm_ on the host team"}};
  return kLabels[cpu_blas::letter_index(p.type)][path == CpuGemmPath::kCpuBlasOnTeam ? 1 : 0];
}

}  // namespace tileblas
