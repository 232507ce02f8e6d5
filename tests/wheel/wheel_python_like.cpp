// Opens the checks' module as Python opens numpy's extension modules: dlopen(RTLD_NOW |
// RTLD_LOCAL), so the stand-in wheel library it depends on comes in with it, outside the global
// scope (a preloaded tileblas cannot find it with dlsym(RTLD_NEXT)). Then runs its checks.
//   wheel_python_like MODULE
#include <dlfcn.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODULE\n", argv[0]);
    return 2;
  }
  void* module = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!module) {
    std::fprintf(stderr, "FAIL: dlopen(%s): %s\n", argv[1], dlerror());
    return 1;
  }
  if (dlsym(RTLD_DEFAULT, "scipy_sgemm_64_") && !dlsym(RTLD_DEFAULT, "tileblas_version")) {
    std::fprintf(stderr, "FAIL: the module's wheel library is in the global scope\n");
    return 1;
  }
  using Run = int (*)(const char*);
  auto run = reinterpret_cast<Run>(dlsym(module, "wheel_checks_run"));
  if (!run) {
    std::fprintf(stderr, "FAIL: the module has no wheel_checks_run\n");
    return 1;
  }
  return run("module opened RTLD_LOCAL, as Python opens numpy") == 0 ? 0 : 1;
}
