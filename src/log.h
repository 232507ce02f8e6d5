// Diagnostics on stderr: one-time warnings (a fallback is announced once, not per call), the
// TILEBLAS_VERBOSE per-call line, and the thread's record of its last accelerated call.
#pragma once

#include <cstdio>
#include <string>

#include "env.h"
#include "problem.h"
#include "tileblas.h"

namespace tileblas {

// Prints "tileblas: warning: <message>" the first time `key` is seen in this process.
void warn_once(const char* key, const std::string& message);

struct CallRecord {
  tileblas_route route = TILEBLAS_ROUTE_NONE;
  std::string kernel;  // kernel name, or the CPU routine used
  std::string reason;
};

// The calling thread's last accelerated call (tileblas_last_route() and friends read it).
CallRecord& last_call();

// One-line descriptions of problems for the verbose line ("m=... n=... k=... NT f16->f32").
std::string describe(const GemmProblem& p);
std::string describe(const AxpyProblem& p);
std::string describe(const TransposeProblem& p);

// Records the call as the thread's last one.
void set_last_call(tileblas_route route, const char* kernel, const std::string& reason);

// Records the call and, with TILEBLAS_VERBOSE=1, prints
// "tileblas: <routine> <problem> -> <gpu|cpu> <kernel> (<reason>)" (described only then).
template <class Problem>
void record_call(const char* routine, const Problem& p, tileblas_route route, const char* kernel,
                 const std::string& reason) {
  set_last_call(route, kernel, reason);
  if (config().verbose) {
    std::fprintf(stderr, "tileblas: %s %s -> %s %s (%s)\n", routine, describe(p).c_str(),
                 route == TILEBLAS_ROUTE_GPU ? "gpu" : "cpu", kernel, reason.c_str());
  }
}

}  // namespace tileblas
