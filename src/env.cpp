#include "env.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernel_table.h"

extern char** environ;

namespace tileblas {

namespace {

bool parse_bool(const std::string& name, const std::string& v, bool* out, Config& c) {
  if (v == "1" || v == "on" || v == "true" || v == "yes") {
    *out = true;
    return true;
  }
  if (v == "0" || v == "off" || v == "false" || v == "no" || v.empty()) {
    *out = false;
    return true;
  }
  c.problems.push_back(name + "=" + v + " is not 0 or 1; using 0");
  return false;
}

// A whole number in [0, 1024] into *out; otherwise a problem naming `what` it should be and the
// default kept.
void parse_count(const std::string& name, const std::string& v, const char* what,
                 const char* default_text, int* out, Config& c) {
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < 0 || n > 1024) {
    c.problems.push_back(name + "=" + v + " is not " + what + "; using " + default_text);
    return;
  }
  *out = int(n);
}

}  // namespace

Config parse_config(const char* const* env) {
  Config c;
  for (; env && *env; ++env) {
    const char* entry = *env;
    if (std::strncmp(entry, "TILEBLAS_", 9) != 0) continue;
    const char* eq = std::strchr(entry, '=');
    if (!eq) continue;
    const std::string name(entry, eq);
    const std::string value(eq + 1);
    if (name == "TILEBLAS_MODE") {
      if (value == "auto" || value.empty()) {
        c.mode = Mode::kAuto;
      } else if (value == "gpu") {
        c.mode = Mode::kGpu;
      } else if (value == "cpu") {
        c.mode = Mode::kCpu;
      } else {
        c.problems.push_back("TILEBLAS_MODE=" + value + " is not auto, gpu or cpu; using auto");
      }
    } else if (name == "TILEBLAS_VERBOSE") {
      parse_bool(name, value, &c.verbose, c);
    } else if (name == "TILEBLAS_ALLOW_TF32") {
      parse_bool(name, value, &c.allow_tf32, c);
    } else if (name == "TILEBLAS_FORCE_KERNEL") {
      // Checked here, against the kernel tables (host data), so a wrong name is reported whether
      // or not a GPU is there to run it.
      if (value.empty() || is_kernel_name(value.c_str())) {
        c.force_kernel = value;
      } else {
        c.problems.push_back("TILEBLAS_FORCE_KERNEL=" + value +
                             " names no kernel (see src/kernel_table.cpp); ignored");
      }
    } else if (name == "TILEBLAS_CPU_BLAS") {
      c.cpu_blas_path = value;
    } else if (name == "TILEBLAS_DEVICE") {
      parse_count(name, value, "a device number", "0", &c.device, c);
    } else if (name == "TILEBLAS_CPU_THREADS") {
      parse_count(name, value, "a number of threads", "one per CPU", &c.cpu_threads, c);
    } else if (name == "TILEBLAS_TEST_SEED") {
      // read by the test suite, not the library
    } else {
      c.problems.push_back(name + " is not a tileblas variable (ignored)");
    }
  }
  return c;
}

Config read_config() {
  Config parsed = parse_config(environ);
  for (const std::string& p : parsed.problems) std::fprintf(stderr, "tileblas: %s\n", p.c_str());
  return parsed;
}

const char* name_of(Mode mode) {
  switch (mode) {
    case Mode::kGpu:
      return "gpu";
    case Mode::kCpu:
      return "cpu";
    case Mode::kAuto:
      break;
  }
  return "auto";
}

}  // namespace tileblas
