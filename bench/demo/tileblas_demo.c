/* tileblas demo: an ordinary BLAS program (C = A * B with sgemm_ at growing sizes) linked with
 * -ltileblas instead of -lblas. For each size it prints where tileblas ran the call (GPU kernel or
 * CPU BLAS, and why), its speed, and the speed of OpenBLAS on the same data, and checks that both
 * give the same answer. Usage: tileblas_demo [max_n]   (default 4096 with a GPU, 1024 without) */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tileblas.h"

typedef void (*sgemm_fn)(const char*, const char*, const int*, const int*, const int*, const float*,
                         const float*, const int*, const float*, const int*, const float*, float*,
                         const int*, size_t, size_t);
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,
            const float*, const int*, const float*, const int*, const float*, float*, const int*,
            size_t, size_t);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Seconds per call: the median of enough calls to fill about 0.3 s (at least 3). */
static double time_sgemm(sgemm_fn f, int n, const float* a, const float* b, float* c) {
  const float one = 1.0f, zero = 0.0f;
  double t[64];
  int reps = 0;
  double start = now();
  while (reps < 64 && (reps < 3 || now() - start < 0.3)) {
    double t0 = now();
    f("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
    t[reps++] = now() - t0;
  }
  for (int i = 1; i < reps; ++i) {
    for (int j = i; j > 0 && t[j] < t[j - 1]; --j) {
      double x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  }
  return t[reps / 2];
}

int main(int argc, char** argv) {
  tileblas_config cfg;
  tileblas_get_config(&cfg);
  printf("tileblas %s  mode=%s  CPU BLAS: %s\n", tileblas_version(), cfg.mode, cfg.cpu_blas);
  if (cfg.device_found) {
    printf("GPU: %s (sm_%d)\n", cfg.device_name, cfg.sm_version);
  } else {
    printf("No GPU (%s): every call runs on the CPU BLAS; tileblas adds only its routing.\n",
           cfg.no_device_why);
  }
  void* openblas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  sgemm_fn reference = openblas ? (sgemm_fn)dlsym(openblas, "sgemm_") : NULL;
  if (!reference) {
    fprintf(stderr, "cannot load OpenBLAS (libopenblas.so.0) to compare with\n");
    return 1;
  }
  const int max_n = argc > 1 ? atoi(argv[1]) : (cfg.device_found ? 4096 : 1024);

  printf("\n%6s  %-4s  %-28s  %10s  %10s  %7s  %9s\n", "n", "ran", "kernel", "tileblas", "OpenBLAS",
         "speedup", "max rel");
  printf("%6s  %-4s  %-28s  %10s  %10s  %7s  %9s\n", "", "on", "", "GFLOP/s", "GFLOP/s", "",
         "diff");
  srand(12345);
  for (int n = 64; n <= max_n; n *= 2) {
    size_t len = (size_t)n * n;
    float* a = malloc(len * sizeof(float));
    float* b = malloc(len * sizeof(float));
    float* c = malloc(len * sizeof(float));
    float* c_ref = malloc(len * sizeof(float));
    for (size_t i = 0; i < len; ++i) {
      a[i] = (float)rand() / RAND_MAX - 0.5f;
      b[i] = (float)rand() / RAND_MAX - 0.5f;
    }
    double t_ours = time_sgemm(sgemm_, n, a, b, c);
    const int route = tileblas_last_route();
    char kernel[29];
    snprintf(kernel, sizeof kernel, "%s", tileblas_last_kernel());
    const char* reason = tileblas_last_reason();
    double t_ref = time_sgemm(reference, n, a, b, c_ref);
    double max_diff = 0, max_ref = 0;
    for (size_t i = 0; i < len; ++i) {
      max_diff = fmax(max_diff, fabs((double)c[i] - c_ref[i]));
      max_ref = fmax(max_ref, fabs((double)c_ref[i]));
    }
    const double flops = 2.0 * n * (double)n * n;
    printf("%6d  %-4s  %-28s  %10.1f  %10.1f  %6.2fx  %9.2e\n", n,
           route == TILEBLAS_ROUTE_GPU ? "GPU" : "CPU", kernel, flops / t_ours * 1e-9,
           flops / t_ref * 1e-9, t_ref / t_ours, max_diff / max_ref);
    printf("%6s  why: %s\n", "", reason);
    free(a);
    free(b);
    free(c);
    free(c_ref);
  }
  return 0;
}
