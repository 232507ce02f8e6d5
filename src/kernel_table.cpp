// The kernel tables (see kernel_table.h). Each family adds its rows here, in priority order.
#include "kernel_table.h"

#include <cstring>

#include "sgemm_regblock.h"
#include "sgemm_tiled.h"

namespace tileblas {

const std::vector<GemmKernel>& gemm_kernels() {
  static const std::vector<GemmKernel> table = {
      // fp32 SIMT (kernels/sgemm_regblock.cu, kernels/sgemm_tiled.cu)
      {"sgemm_regblock_128x128x16_align16", sgemm_regblock::supports_128x128x16_align16,
       sgemm_regblock::launch_128x128x16_align16},
      {"sgemm_regblock_128x128x16_align4", sgemm_regblock::supports_128x128x16_align4,
       sgemm_regblock::launch_128x128x16_align4},
      {"sgemm_regblock_64x64x16_align16", sgemm_regblock::supports_64x64x16_align16,
       sgemm_regblock::launch_64x64x16_align16},
      {"sgemm_regblock_64x64x16_align4", sgemm_regblock::supports_64x64x16_align4,
       sgemm_regblock::launch_64x64x16_align4},
      {"sgemm_splitk_128x128x16_align16", sgemm_regblock::supports_splitk_128x128x16_align16,
       sgemm_regblock::launch_splitk_128x128x16_align16},
      {"sgemm_splitk_128x128x16_align4", sgemm_regblock::supports_splitk_128x128x16_align4,
       sgemm_regblock::launch_splitk_128x128x16_align4},
      {"sgemm_tiled", sgemm_tiled::supports, sgemm_tiled::launch},
  };
  return table;
}

const std::vector<AxpyKernel>& axpy_kernels() {
  static const std::vector<AxpyKernel> table = {};
  return table;
}

const std::vector<TransposeKernel>& transpose_kernels() {
  static const std::vector<TransposeKernel> table = {};
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

}  // namespace tileblas
