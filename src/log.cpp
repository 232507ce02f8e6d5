#include "log.h"

#include <cstdio>
#include <mutex>
#include <set>

#include "env.h"

namespace tileblas {

void warn_once(const char* key, const std::string& message) {
  static std::mutex mu;
  static std::set<std::string> seen;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!seen.insert(key).second) return;
  }
  std::fprintf(stderr, "tileblas: warning: %s\n", message.c_str());
}

CallRecord& last_call() {
  thread_local CallRecord record;
  return record;
}

void record_call(const char* routine, const std::string& shape, tileblas_route route,
                 const std::string& kernel, const std::string& reason) {
  CallRecord& r = last_call();
  r.route = route;
  r.kernel = kernel;
  r.reason = reason;
  if (config().verbose) {
    std::fprintf(stderr, "tileblas: %s %s -> %s %s (%s)\n", routine, shape.c_str(),
                 route == TILEBLAS_ROUTE_GPU ? "gpu" : "cpu", kernel.c_str(), reason.c_str());
  }
}

}  // namespace tileblas
