// The resolver behind the generated forwarder trampolines (compat/forwarders.txt, turned into
// assembly by compat/forwarders.cmake): the first call of a forwarded symbol lands here, once.
// And the record those trampolines keep of the forwarded CBLAS call running on each thread.
#include <cstddef>

#include "compat.h"
#include "cpu_blas.h"

extern "C" {

// Written by the trampolines (compat/forwarders.cmake), at these offsets: a CBLAS symbol's stores
// its forwarder index, its first argument and the stack pointer at its entry (the address of the
// caller's return address); a Fortran symbol's sets sp to null. Initial-exec, so that the
// trampolines reach it without a call.
struct TileblasCblasCall {
  int index;
  int layout;
  const void* sp;
};
static_assert(offsetof(TileblasCblasCall, layout) == 4 && offsetof(TileblasCblasCall, sp) == 8,
              "compat/forwarders.cmake writes these offsets");
__attribute__((visibility("hidden"),
               tls_model("initial-exec"))) __thread TileblasCblasCall tileblas_cblas_call;

// Defined in the generated assembly; hidden, like this resolver.
extern void* tileblas_forward_slots[];
extern const char* const tileblas_forward_names[];

void* tileblas_forward_resolve(int index);
}

// Returns the CPU BLAS's address of forwarded symbol `index` (or exits with require()'s message)
// and stores it in the symbol's slot. Two threads may race on a first call; both store the same
// address, and the trampoline's 8-byte aligned load sees either the stub or the final address.
void* tileblas_forward_resolve(int index) {
  void* target = tileblas::cpu_blas::require(tileblas_forward_names[index]);
  __atomic_store_n(&tileblas_forward_slots[index], target, __ATOMIC_RELEASE);
  return target;
}

namespace tileblas::compat {

const char* forwarded_cblas_call(const void* frame, bool* row_major) {
  const TileblasCblasCall& call = tileblas_cblas_call;
  // A record whose call has returned may remain; a frame above its stack pointer is not inside it.
  if (call.sp == nullptr || frame >= call.sp) return nullptr;
  *row_major = call.layout == kCblasRowMajor;
  return tileblas_forward_names[call.index];
}

}  // namespace tileblas::compat
