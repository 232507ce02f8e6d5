// The kernel tables (see kernel_table.h). Each family adds its rows here, in priority order.
#include "kernel_table.h"

#include <cstring>

#include "axpy.h"
#include "cgemm_simt.h"
#include "gemm_f64_mma.h"
#include "gemm_mma.h"
#include "gemm_peel.h"
#include "gemm_skinny.h"
#include "gemm_wgmma.h"
#include "sgemm_regblock.h"
#include "sgemm_tiled.h"
#include "transpose.h"

namespace tileblas {

namespace {
// GemmKernel::c_in_parts: C is written by more than one launch.
constexpr bool kCInParts = true;
}  // namespace

const std::vector<GemmKernel>& gemm_kernels() {
  static const std::vector<GemmKernel> table = {
      // tensor cores, wgmma fed by TMA (kernels/gemm_wgmma.cu): sm_90 only, operands the copy
      // engine cannot read in place staged first; fp16/bf16, and fp32 only with allow_tf32.
      {"gemm_wgmma_f16_128x256x64", gemm_wgmma::supports_f16_128x256x64,
       gemm_wgmma::launch_f16_128x256x64},
      {"gemm_wgmma_bf16_128x256x64", gemm_wgmma::supports_bf16_128x256x64,
       gemm_wgmma::launch_bf16_128x256x64},
      {"gemm_wgmma_tf32_128x256x32", gemm_wgmma::supports_tf32_128x256x32,
       gemm_wgmma::launch_tf32_128x256x32},
      {"gemm_wgmma_f16_128x128x64", gemm_wgmma::supports_f16_128x128x64,
       gemm_wgmma::launch_f16_128x128x64},
      {"gemm_wgmma_bf16_128x128x64", gemm_wgmma::supports_bf16_128x128x64,
       gemm_wgmma::launch_bf16_128x128x64},
      {"gemm_wgmma_f16_128x64x64", gemm_wgmma::supports_f16_128x64x64,
       gemm_wgmma::launch_f16_128x64x64},
      {"gemm_wgmma_bf16_128x64x64", gemm_wgmma::supports_bf16_128x64x64,
       gemm_wgmma::launch_bf16_128x64x64},
      {"gemm_wgmma_f16_persistent_128x256x64", gemm_wgmma::supports_f16_persistent_128x256x64,
       gemm_wgmma::launch_f16_persistent_128x256x64},
      {"gemm_wgmma_bf16_persistent_128x256x64", gemm_wgmma::supports_bf16_persistent_128x256x64,
       gemm_wgmma::launch_bf16_persistent_128x256x64},
      {"gemm_wgmma_f16_persistent_128x128x64", gemm_wgmma::supports_f16_persistent_128x128x64,
       gemm_wgmma::launch_f16_persistent_128x128x64},
      {"gemm_wgmma_bf16_persistent_128x128x64", gemm_wgmma::supports_bf16_persistent_128x128x64,
       gemm_wgmma::launch_bf16_persistent_128x128x64},
      {"gemm_wgmma_f16_persistent_256x128x64", gemm_wgmma::supports_f16_persistent_256x128x64,
       gemm_wgmma::launch_f16_persistent_256x128x64},
      {"gemm_wgmma_bf16_persistent_256x128x64", gemm_wgmma::supports_bf16_persistent_256x128x64,
       gemm_wgmma::launch_bf16_persistent_256x128x64},

      {"gemm_wgmma_f16_splitk_128x128x64", gemm_wgmma::supports_f16_splitk_128x128x64,
       gemm_wgmma::launch_f16_splitk_128x128x64},
      {"gemm_wgmma_bf16_splitk_128x128x64", gemm_wgmma::supports_bf16_splitk_128x128x64,
       gemm_wgmma::launch_bf16_splitk_128x128x64},
      {"gemm_wgmma_f16_narrow_splitk_64x64x64", gemm_wgmma::supports_f16_narrow_splitk_64x64x64,
       gemm_wgmma::launch_f16_narrow_splitk_64x64x64},
      {"gemm_wgmma_bf16_narrow_splitk_64x64x64", gemm_wgmma::supports_bf16_narrow_splitk_64x64x64,
       gemm_wgmma::launch_bf16_narrow_splitk_64x64x64},
      // tensor cores, mma.sync (kernels/gemm_mma.cu): fp16/bf16, and fp32 only with allow_tf32.
      // 16-byte-load rows before the scalar-load ones.
      {"gemm_mma_f16_128x128x32", gemm_mma::supports_f16_128x128x32,
       gemm_mma::launch_f16_128x128x32},
      {"gemm_mma_bf16_128x128x32", gemm_mma::supports_bf16_128x128x32,
       gemm_mma::launch_bf16_128x128x32},
      {"gemm_mma_tf32_128x128x16", gemm_mma::supports_tf32_128x128x16,
       gemm_mma::launch_tf32_128x128x16},
      {"gemm_mma_f16_shifted_128x128x32", gemm_mma::supports_f16_shifted_128x128x32,
       gemm_mma::launch_f16_shifted_128x128x32},
      {"gemm_mma_bf16_shifted_128x128x32", gemm_mma::supports_bf16_shifted_128x128x32,
       gemm_mma::launch_bf16_shifted_128x128x32},
      {"gemm_mma_tf32_shifted_128x128x16", gemm_mma::supports_tf32_shifted_128x128x16,
       gemm_mma::launch_tf32_shifted_128x128x16},
      {"gemm_mma_f16_shifted_64x64x32", gemm_mma::supports_f16_shifted_64x64x32,
       gemm_mma::launch_f16_shifted_64x64x32},
      {"gemm_mma_bf16_shifted_64x64x32", gemm_mma::supports_bf16_shifted_64x64x32,
       gemm_mma::launch_bf16_shifted_64x64x32},
      // fp32 SIMT (kernels/sgemm_regblock.cu, kernels/sgemm_tiled.cu)
      {"sgemm_regblock_128x128x16_align16", sgemm_regblock::supports_128x128x16_align16,
       sgemm_regblock::launch_128x128x16_align16},
      {"sgemm_regblock_128x128x16_align4", sgemm_regblock::supports_128x128x16_align4,
       sgemm_regblock::launch_128x128x16_align4},
      {"sgemm_packed_128x128x16", sgemm_regblock::supports_packed_128x128x16,
       sgemm_regblock::launch_packed_128x128x16},
      {"sgemm_regblock_128x64x16_align16", sgemm_regblock::supports_128x64x16_align16,
       sgemm_regblock::launch_128x64x16_align16},
      {"sgemm_regblock_128x64x16_align4", sgemm_regblock::supports_128x64x16_align4,
       sgemm_regblock::launch_128x64x16_align4},
      {"sgemm_regblock_64x64x16_align16", sgemm_regblock::supports_64x64x16_align16,
       sgemm_regblock::launch_64x64x16_align16},
      {"sgemm_regblock_64x64x16_align4", sgemm_regblock::supports_64x64x16_align4,
       sgemm_regblock::launch_64x64x16_align4},
      {"sgemm_splitk_128x64x16_align16", sgemm_regblock::supports_splitk_128x64x16_align16,
       sgemm_regblock::launch_splitk_128x64x16_align16},
      {"sgemm_splitk_128x64x16_align4", sgemm_regblock::supports_splitk_128x64x16_align4,
       sgemm_regblock::launch_splitk_128x64x16_align4},
      {"sgemm_splitk_64x64x16_align16", sgemm_regblock::supports_splitk_64x64x16_align16,
       sgemm_regblock::launch_splitk_64x64x16_align16},
      {"sgemm_splitk_64x64x16_align4", sgemm_regblock::supports_splitk_64x64x16_align4,
       sgemm_regblock::launch_splitk_64x64x16_align4},
      {"sgemm_tiled", sgemm_tiled::supports, sgemm_tiled::launch},
      // fp32 on the FP64 tensor cores, operands widened (kernels/gemm_f64_mma.cu): after the SIMT
      // rows, which run on every device; the router prefers these where FP64 is fast.
      {"sgemm_widened_128x128x16", gemm_f64_mma::supports_sgemm_widened_128x128x16,
       gemm_f64_mma::launch_sgemm_widened_128x128x16},
      {"sgemm_widened_128x64x16", gemm_f64_mma::supports_sgemm_widened_128x64x16,
       gemm_f64_mma::launch_sgemm_widened_128x64x16},
      {"sgemm_widened_64x64x16", gemm_f64_mma::supports_sgemm_widened_64x64x16,
       gemm_f64_mma::launch_sgemm_widened_64x64x16},
      {"sgemm_widened_b_128x128x16", gemm_f64_mma::supports_sgemm_widened_b_128x128x16,
       gemm_f64_mma::launch_sgemm_widened_b_128x128x16},
      {"sgemm_widened_b_splitk_128x64x16", gemm_f64_mma::supports_sgemm_widened_b_splitk_128x64x16,
       gemm_f64_mma::launch_sgemm_widened_b_splitk_128x64x16},
      {"sgemm_widened_a_splitk_64x64x16", gemm_f64_mma::supports_sgemm_widened_a_splitk_64x64x16,
       gemm_f64_mma::launch_sgemm_widened_a_splitk_64x64x16},
      // fp64 and complex fp64 on the FP64 tensor cores, mma.sync (kernels/gemm_f64_mma.cu):
      // 16-byte-load rows before the scalar-load ones.
      {"dgemm_mma_f64_128x128x16", gemm_f64_mma::supports_dgemm_128x128x16,
       gemm_f64_mma::launch_dgemm_128x128x16},
      {"dgemm_mma_f64_128x64x16", gemm_f64_mma::supports_dgemm_128x64x16,
       gemm_f64_mma::launch_dgemm_128x64x16},
      {"dgemm_mma_f64_64x64x16", gemm_f64_mma::supports_dgemm_64x64x16,
       gemm_f64_mma::launch_dgemm_64x64x16},
      {"dgemm_mma_f64_scalarload_128x128x16", gemm_f64_mma::supports_dgemm_scalarload_128x128x16,
       gemm_f64_mma::launch_dgemm_scalarload_128x128x16},
      {"dgemm_mma_f64_scalarload_64x64x16", gemm_f64_mma::supports_dgemm_scalarload_64x64x16,
       gemm_f64_mma::launch_dgemm_scalarload_64x64x16},
      {"zgemm_mma_f64_64x64x8", gemm_f64_mma::supports_zgemm_64x64x8,
       gemm_f64_mma::launch_zgemm_64x64x8},
      {"zgemm_mma_f64_scalarload_128x64x8", gemm_f64_mma::supports_zgemm_scalarload_128x64x8,
       gemm_f64_mma::launch_zgemm_scalarload_128x64x8},
      // Split-K over the fp64 rows' kernels (slices of k, then kernels/splitk.h's reduce): for
      // few output tiles and long k; never a triangle of C.
      {"dgemm_splitk_128x64x16", gemm_f64_mma::supports_dgemm_splitk_128x64x16,
       gemm_f64_mma::launch_dgemm_splitk_128x64x16},
      {"dgemm_splitk_scalarload_128x64x16",
       gemm_f64_mma::supports_dgemm_splitk_scalarload_128x64x16,
       gemm_f64_mma::launch_dgemm_splitk_scalarload_128x64x16},
      {"zgemm_splitk_64x64x8", gemm_f64_mma::supports_zgemm_splitk_64x64x8,
       gemm_f64_mma::launch_zgemm_splitk_64x64x8},
      // complex fp32 SIMT (kernels/cgemm_simt.cu)
      {"cgemm_simt_64x128x16", cgemm_simt::supports_64x128x16, cgemm_simt::launch_64x128x16},
      {"cgemm_simt_scalarload_64x128x16", cgemm_simt::supports_scalarload_64x128x16,
       cgemm_simt::launch_scalarload_64x128x16},
      {"cgemm_splitk_64x128x16", cgemm_simt::supports_splitk_64x128x16,
       cgemm_simt::launch_splitk_64x128x16},
      {"cgemm_simt_packed_64x128x16", cgemm_simt::supports_packed_64x128x16,
       cgemm_simt::launch_packed_64x128x16},
      // complex fp32 on the FP64 tensor cores, operands widened (kernels/gemm_f64_mma.cu): after
      // the SIMT rows, which run on every device; the router prefers these where FP64 is fast.
      {"cgemm_widened_64x64x8", gemm_f64_mma::supports_cgemm_widened_64x64x8,
       gemm_f64_mma::launch_cgemm_widened_64x64x8},
      {"cgemm_widened_splitk_64x64x8", gemm_f64_mma::supports_cgemm_widened_splitk_64x64x8,
       gemm_f64_mma::launch_cgemm_widened_splitk_64x64x8},
      {"cgemm_widened_b_64x64x8", gemm_f64_mma::supports_cgemm_widened_b_64x64x8,
       gemm_f64_mma::launch_cgemm_widened_b_64x64x8},
      {"cgemm_widened_3m_128x128x16", gemm_f64_mma::supports_cgemm_widened_3m_128x128x16,
       gemm_f64_mma::launch_cgemm_widened_3m_128x128x16},
      {"cgemm_widened_3m_128x64x16", gemm_f64_mma::supports_cgemm_widened_3m_128x64x16,
       gemm_f64_mma::launch_cgemm_widened_3m_128x64x16},
      // one small side of C (m or n at most 8, 16 or 32), every type, SIMT
      // (kernels/gemm_skinny.cu): last, as the router prefers them only where their rule holds.
      {"gemm_skinny_8", gemm_skinny::supports_8, gemm_skinny::launch_8},
      {"gemm_skinny_16", gemm_skinny::supports_16, gemm_skinny::launch_16},
      {"gemm_skinny_32", gemm_skinny::supports_32, gemm_skinny::launch_32},
      // A row's interior with the thin remainders of m and n on gemm_skinny (src/gemm_peel.h):
      // after every kernel row, as the router prefers them only where their rule holds.
      {"sgemm_peeled_widened_128x128x16",
       gemm_peel::supports_row<gemm_f64_mma::supports_sgemm_widened_128x128x16, 128, 128>,
       gemm_peel::launch_row<gemm_f64_mma::launch_sgemm_widened_128x128x16, 128, 128>, kCInParts},
      {"sgemm_peeled_widened_128x64x16",
       gemm_peel::supports_row<gemm_f64_mma::supports_sgemm_widened_128x64x16, 128, 64>,
       gemm_peel::launch_row<gemm_f64_mma::launch_sgemm_widened_128x64x16, 128, 64>, kCInParts},
      {"dgemm_peeled_128x128x16",
       gemm_peel::supports_row<gemm_f64_mma::supports_dgemm_128x128x16, 128, 128>,
       gemm_peel::launch_row<gemm_f64_mma::launch_dgemm_128x128x16, 128, 128>, kCInParts},
      {"dgemm_peeled_128x64x16",
       gemm_peel::supports_row<gemm_f64_mma::supports_dgemm_128x64x16, 128, 64>,
       gemm_peel::launch_row<gemm_f64_mma::launch_dgemm_128x64x16, 128, 64>, kCInParts},
      {"dgemm_peeled_scalarload_128x128x16",
       gemm_peel::supports_row<gemm_f64_mma::supports_dgemm_scalarload_128x128x16, 128, 128>,
       gemm_peel::launch_row<gemm_f64_mma::launch_dgemm_scalarload_128x128x16, 128, 128>,
       kCInParts},
      {"zgemm_peeled_64x64x8",
       gemm_peel::supports_row<gemm_f64_mma::supports_zgemm_64x64x8, 64, 64>,
       gemm_peel::launch_row<gemm_f64_mma::launch_zgemm_64x64x8, 64, 64>, kCInParts},
  };
  return table;
}

const std::vector<AxpyKernel>& axpy_kernels() {
  static const std::vector<AxpyKernel> table = {
      // kernels/axpy.cu: 16-byte vectors when x and y share their alignment, else strided.
      {"axpy_vec4", axpy::supports_vec4, axpy::launch_vec4},
      {"axpy_strided", axpy::supports_strided, axpy::launch_strided},
  };
  return table;
}

const std::vector<TransposeKernel>& transpose_kernels() {
  static const std::vector<TransposeKernel> table = {
      // kernels/transpose.cu: in place first (it needs a == b), 16-byte rows before their
      // any-alignment twins.
      {"transpose_inplace_square_32x32", transpose::supports_inplace_square,
       transpose::launch_inplace_square},
      {"transpose_tiled_64x64_vec4", transpose::supports_tiled_vec4, transpose::launch_tiled_vec4},
      {"transpose_sheared_64x64", transpose::supports_sheared_64x64,
       transpose::launch_sheared_64x64},
      {"scale_copy", transpose::supports_scale_copy, transpose::launch_scale_copy},
  };
  return table;
}

namespace {
template <class Kernel>
const Kernel* find_in(const std::vector<Kernel>& table, const char* name) {
  for (const Kernel& k : table) {
    if (std::strcmp(k.name, name) == 0) return &k;
  }
  return nullptr;
}
}  // namespace

const GemmKernel* find_gemm_kernel(const char* name) { return find_in(gemm_kernels(), name); }
const AxpyKernel* find_axpy_kernel(const char* name) { return find_in(axpy_kernels(), name); }
const TransposeKernel* find_transpose_kernel(const char* name) {
  return find_in(transpose_kernels(), name);
}
bool is_kernel_name(const char* name) {
  return find_gemm_kernel(name) || find_axpy_kernel(name) || find_transpose_kernel(name);
}

}  // namespace tileblas
