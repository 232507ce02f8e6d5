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

void set_last_call(tileblas_route route, const char* kernel, const std::string& reason) {
  CallRecord& r = last_call();
  r.route = route;
  r.kernel = kernel;
  r.reason = reason;
}

std::string describe(const GemmProblem& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "m=%lld n=%lld k=%lld %s%s %s->%s", (long long)p.m, (long long)p.n,
                (long long)p.k, name_of(p.trans_a), name_of(p.trans_b), name_of(p.ab_type),
                name_of(p.c_type));
  return buf;
}

std::string describe(const AxpyProblem& p) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "n=%lld incx=%lld incy=%lld", (long long)p.n, (long long)p.incx,
                (long long)p.incy);
  return buf;
}

std::string describe(const TransposeProblem& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%lldx%lld %s lda=%lld ldb=%lld", (long long)p.rows,
                (long long)p.cols, name_of(p.trans), (long long)p.lda, (long long)p.ldb);
  return buf;
}

}  // namespace tileblas
