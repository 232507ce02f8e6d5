#include "log.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <type_traits>

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

Reason Reason::predicted(const char* text, double cpu_s, double gpu_s) {
  Reason r(text);
  r.has_prediction_ = true;
  r.cpu_s_ = cpu_s;
  r.gpu_s_ = gpu_s;
  return r;
}

std::string Reason::str() const {
  std::string s = text_ ? text_ : owned_ ? owned_->text : std::string();
  if (has_prediction_) {
    char buf[80];
    std::snprintf(buf, sizeof buf, ": predicted cpu %.3g ms, gpu %.3g ms", cpu_s_ * 1e3,
                  gpu_s_ * 1e3);
    s += buf;
  }
  s += detail_separator_;
  if (kept_detail_) return s + *kept_detail_;
  return owned_ ? s + owned_->detail : s;
}

namespace {
static_assert(std::is_trivially_destructible_v<log_detail::PendingCall>);
thread_local log_detail::PendingCall t_pending_call;  // constant-initialized: no guard
}  // namespace

log_detail::PendingCall& log_detail::pending_call() { return t_pending_call; }

log_detail::PendingDetails& log_detail::pending_details() {
  thread_local PendingDetails details;
  return details;
}

CallRecord& last_call() {
  log_detail::PendingCall& call = log_detail::pending_call();
  log_detail::PendingDetails& details = log_detail::pending_details();
  if (!call.formatted) {
    details.record.route = call.route;
    details.record.kernel = call.kernel;
    details.record.reason = call.reason_text ? call.reason_text : details.reason.str();
    call.formatted = true;
  }
  return details.record;
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

std::string describe(const Problem& p) {
  const char* side = p.side == Side::kLeft ? "L" : "R";
  const char* uplo = p.uplo == Uplo::kUpper ? "U" : "L";
  char buf[128];
  switch (p.op) {
    case Operation::kGemm:
      std::snprintf(buf, sizeof buf, "m=%lld n=%lld k=%lld %s%s %s->%s", (long long)p.m,
                    (long long)p.n, (long long)p.k, name_of(p.trans_a), name_of(p.trans_b),
                    name_of(p.type), name_of(p.c_type));
      break;
    case Operation::kTrmm:
    case Operation::kTrsm:
      std::snprintf(buf, sizeof buf, "side=%s uplo=%s trans=%s diag=%s m=%lld n=%lld %s", side,
                    uplo, name_of(p.trans_a), p.diag == Diag::kUnit ? "U" : "N", (long long)p.m,
                    (long long)p.n, name_of(p.type));
      break;
    case Operation::kSymm:
    case Operation::kHemm:
      std::snprintf(buf, sizeof buf, "side=%s uplo=%s m=%lld n=%lld %s", side, uplo, (long long)p.m,
                    (long long)p.n, name_of(p.type));
      break;
    default:
      std::snprintf(buf, sizeof buf, "uplo=%s trans=%s n=%lld k=%lld %s", uplo, name_of(p.trans_a),
                    (long long)p.n, (long long)p.k, name_of(p.type));
      break;
  }
  return buf;
}

}  // namespace tileblas
