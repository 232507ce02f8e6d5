// tileblas's configuration: every TILEBLAS_* environment variable is read here, once, and nowhere
// else. Unknown values and unknown TILEBLAS_* names are reported on stderr (and the default used).
#pragma once

#include <string>
#include <vector>

namespace tileblas {

enum class Mode { kAuto, kGpu, kCpu };

struct Config {
  Mode mode = Mode::kAuto;            // TILEBLAS_MODE=auto|gpu|cpu
  bool verbose = false;               // TILEBLAS_VERBOSE=0|1
  std::string force_kernel;           // TILEBLAS_FORCE_KERNEL=<kernel name>
  bool allow_tf32 = false;            // TILEBLAS_ALLOW_TF32=0|1
  std::string cpu_blas_path;          // TILEBLAS_CPU_BLAS=<path>
  int device = 0;                     // TILEBLAS_DEVICE=<n>
  int cpu_threads = -1;               // TILEBLAS_CPU_THREADS=<n>: host team size; -1: one per CPU
  std::vector<std::string> problems;  // what was wrong with the environment, already reported
};

// Parses an environment (a list of "NAME=value" strings); pure, for tests.
Config parse_config(const char* const* environ_list);

// The environment parsed, its problems printed to stderr: config()'s first use only. Out of line
// and cold: inlined into config(), the one-time parse made every call save and restore six
// registers (config() runs several times on every BLAS call).
[[gnu::cold, gnu::noinline]] Config read_config();

// The process's configuration, parsed from the environment on first use (thread-safe). Problems
// are printed once to stderr. Inline: every BLAS call asks for it, and a call cost more than the
// initialization's check.
inline const Config& config() {
  static const Config c = read_config();
  return c;
}

const char* name_of(Mode mode);

}  // namespace tileblas
