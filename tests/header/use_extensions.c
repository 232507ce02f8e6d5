/* Includes include/tileblas.h beside another CBLAS header (OTHER_HEADER), in the order the
 * TILEBLAS_FIRST macro says, and calls every extension tileblas.h declares as a user would: with
 * the other header's enumerators, and with plain numbers. Built as C and as C++ by
 * tests/header/check_header.sh; the program checks a few results. */
#ifdef TILEBLAS_FIRST
#include "tileblas.h"
#include OTHER_HEADER
#else
#include OTHER_HEADER
#include "tileblas.h"
#endif

#include <stdio.h>

int main(void) {
  const tileblas_half h_one = 0x3c00, h_zero = 0; /* 1.0 and 0.0 in binary16 */
  const tileblas_half h[4] = {h_one, h_one, h_one, h_one};
  const tileblas_bfloat16 bf[4] = {0x3f80, 0x3f80, 0x3f80, 0x3f80}; /* 1.0 in bfloat16 */
  const float a[4] = {1, 2, 3, 4}, one = 1, zero = 0;
  const int two = 2;
  float b[4], c[4];
  tileblas_half hc[4];
  int failures = 0;
  int i;

  /* B = A^T, then transposed back in place: B == A. */
  cblas_somatcopy(CblasRowMajor, CblasTrans, 2, 2, 1.0f, a, 2, b, 2);
  cblas_simatcopy(CblasRowMajor, CblasTrans, 2, 2, 1.0f, b, 2, 2);
  for (i = 0; i < 4; ++i) failures += b[i] != a[i];
  somatcopy_("C", "T", &two, &two, &one, a, &two, b, &two);
  simatcopy_("C", "T", &two, &two, &one, b, &two, &two);
  for (i = 0; i < 4; ++i) failures += b[i] != a[i];

  /* All-ones 2x2 times all-ones 2x2: every element 2. */
  cblas_sbgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, bf, 2, bf, 2, 0.0f, c, 2);
  for (i = 0; i < 4; ++i) failures += c[i] != 2.0f;
  cblas_gemm_bf16bf16f32(CblasColMajor, CblasNoTrans, CblasTrans, 2, 2, 2, 1.0f, bf, 2, bf, 2, 0.0f,
                         c, 2);
  for (i = 0; i < 4; ++i) failures += c[i] != 2.0f;
  cblas_gemm_f16f16f32(102, 111, 111, 2, 2, 2, 1.0f, h, 2, h, 2, 0.0f, c, 2);
  for (i = 0; i < 4; ++i) failures += c[i] != 2.0f;
  cblas_hgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, h_one, h, 2, h, 2, h_zero, hc, 2);
  for (i = 0; i < 4; ++i) failures += hc[i] != 0x4000; /* 2.0 */
  hgemm_("N", "N", &two, &two, &two, &h_one, h, &two, h, &two, &h_zero, hc, &two);
  for (i = 0; i < 4; ++i) failures += hc[i] != 0x4000;
  gemm_f16f16f32_("N", "N", &two, &two, &two, &one, h, &two, h, &two, &zero, c, &two);
  for (i = 0; i < 4; ++i) failures += c[i] != 2.0f;
  gemm_bf16bf16f32_("N", "N", &two, &two, &two, &one, bf, &two, bf, &two, &zero, c, &two);
  for (i = 0; i < 4; ++i) failures += c[i] != 2.0f;
  sbgemm_("N", "N", &two, &two, &two, &one, bf, &two, bf, &two, &zero, c, &two);
  for (i = 0; i < 4; ++i) failures += c[i] != 2.0f;

  /* A standard routine, declared by the other header alone. */
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, a, 2, 0.0f, c, 2);
  failures += c[0] != 7.0f || c[3] != 22.0f;

  if (failures) printf("%d wrong results\n", failures);
  return failures != 0;
}
