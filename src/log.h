// Diagnostics on stderr: one-time warnings (a fallback is announced once, not per call), the
// TILEBLAS_VERBOSE per-call line, and the thread's record of its last accelerated call.
#pragma once

#include <string>

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

// Records the call and, with TILEBLAS_VERBOSE=1, prints
// "tileblas: <routine> <shape> -> <gpu|cpu> <kernel> (<reason>)".
void record_call(const char* routine, const std::string& shape, tileblas_route route,
                 const std::string& kernel, const std::string& reason);

}  // namespace tileblas
