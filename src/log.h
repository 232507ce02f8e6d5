// Diagnostics on stderr: one-time warnings (a fallback is announced once, not per call), the
// TILEBLAS_VERBOSE per-call line, and the thread's record of its last accelerated call.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "env.h"
#include "problem.h"
#include "tileblas.h"

namespace tileblas {

// Prints "tileblas: warning: <message>" the first time `key` is seen in this process.
void warn_once(const char* key, const std::string& message);

// Why a call went where it did, cheap enough to build on every call: a static text, an optional
// detail, and for a cost-model decision the two predicted times. str() formats it; that happens
// only for the verbose line and when tileblas_last_reason() asks, never on the call's path.
class Reason {
 public:
  Reason() = default;
  // `text` must be a string literal (or otherwise outlive every record of the call).
  Reason(const char* text) : text_(text) {}  // NOLINT(runtime/explicit)
  Reason(std::string text)                   // NOLINT(runtime/explicit)
      : owned_(std::make_unique<Owned>(Owned{std::move(text), {}})) {}
  Reason(const char* text, std::string detail)
      : text_(text), owned_(std::make_unique<Owned>(Owned{{}, std::move(detail)})) {}

  // "<text>: predicted cpu <cpu_s> ms, gpu <gpu_s> ms".
  static Reason predicted(const char* text, double cpu_s, double gpu_s);

  // "<text><detail>" without copying `detail`, which must outlive every record of the call too (a
  // string kept for the process, as Device::unavailable_reason()'s).
  static Reason with_kept_detail(const char* text, const std::string& detail) {
    Reason r(text);
    r.kept_detail_ = &detail;
    return r;
  }

  // Appends "; <detail>" (the kernel row's why, say). Replaces an earlier detail.
  Reason& with_detail(std::string detail) {
    if (!owned_) owned_ = std::make_unique<Owned>();
    owned_->detail = std::move(detail);
    kept_detail_ = nullptr;
    detail_separator_ = "; ";
    return *this;
  }

  std::string str() const;

 private:
  // The strings a reason owns: most have none, and moving one (every call records one) is then a
  // few words.
  struct Owned {
    std::string text;  // used where text_ is null
    std::string detail;
  };
  const char* text_ = nullptr;  // static; owned_->text is used when this is null
  std::unique_ptr<Owned> owned_;
  const std::string* kept_detail_ = nullptr;  // stands for the owned detail where set
  const char* detail_separator_ = "";
  bool has_prediction_ = false;
  double cpu_s_ = 0, gpu_s_ = 0;
};

struct CallRecord {
  tileblas_route route = TILEBLAS_ROUTE_NONE;
  std::string kernel;  // kernel name, or the CPU routine used
  std::string reason;
};

// The calling thread's last accelerated call (tileblas_last_route() and friends read it). Formats
// the record on the first read after a call; the strings stay valid until the thread's next call.
CallRecord& last_call();

// One-line descriptions of problems for the verbose line, a routine's own arguments only:
// "m=.. n=.. k=.. NT f16->f32" (gemm), "side=L uplo=U trans=T diag=N m=.. n=.. f64" (trmm, trsm),
// "side=R uplo=L m=.. n=.. c32" (symm, hemm), "uplo=U trans=N n=.. k=.. c64" (syrk .. her2k).
std::string describe(const Problem& p);
std::string describe(const AxpyProblem& p);
std::string describe(const TransposeProblem& p);

namespace log_detail {
// What the thread's last call left behind, unformatted: trivially made and destroyed, so that the
// thread's copy needs no guard and one thread-local lookup (every call records itself).
struct PendingCall {
  tileblas_route route = TILEBLAS_ROUTE_NONE;
  const char* kernel = "";
  const char* reason_text = nullptr;  // the reason where it is a static text alone, else `reason`
  bool formatted = true;
};
// The rest of the thread's record: a reason that is more than a static text, and the record
// last_call() formats once.
struct PendingDetails {
  Reason reason;
  CallRecord record;
};
// The calling thread's. Out of line: inlined, GCC called __tls_get_addr again after each store
// into the record.
PendingCall& pending_call();
PendingDetails& pending_details();
}  // namespace log_detail

// Records the call as the thread's last one, its reason a static text alone (a string literal, or
// null: the thread's pending Reason): a few stores, nothing formatted until last_call() is read.
// `kernel` is a static string (a kernel table name or a literal). Inline: every call records
// itself.
inline void set_last_call(tileblas_route route, const char* kernel, const char* reason_text) {
  log_detail::PendingCall& call = log_detail::pending_call();
  call.route = route;
  call.kernel = kernel;
  call.reason_text = reason_text;
  call.formatted = false;
}
// The same with a Reason, kept as the thread's pending one.
inline void set_last_call(tileblas_route route, const char* kernel, Reason&& reason) {
  log_detail::pending_details().reason = std::move(reason);
  set_last_call(route, kernel, static_cast<const char*>(nullptr));
}

// Records the call and, with TILEBLAS_VERBOSE=1, prints
// "tileblas: <routine> <problem> -> <gpu|cpu> <kernel> (<reason>)" (described only then).
template <class Call>
void record_call(const char* routine, const Call& p, tileblas_route route, const char* kernel,
                 Reason&& reason) {
  if (config().verbose) {
    std::fprintf(stderr, "tileblas: %s %s -> %s %s (%s)\n", routine, describe(p).c_str(),
                 route == TILEBLAS_ROUTE_GPU ? "gpu" : "cpu", kernel, reason.str().c_str());
  }
  set_last_call(route, kernel, std::move(reason));
}

}  // namespace tileblas
