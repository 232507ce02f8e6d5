// The resolver behind the generated forwarder trampolines (compat/forwarders.txt, turned into
// assembly by compat/forwarders.cmake): the first call of a forwarded symbol lands here, once.
// And the record those trampolines keep of the Level 2 or 3 CBLAS call forwarded on each thread.
#include "compat.h"
#include "cpu_blas.h"

extern "C" {
// Defined in the generated assembly; hidden, like the functions below.
extern void* tileblas_forward_slots[];
extern const char* const tileblas_forward_names[];

void* tileblas_forward_resolve(int index);
void tileblas_cblas_enter(int index, int layout, const void* sp);
}

namespace {

// The last Level 2 or 3 CBLAS call forwarded on this thread: its forwarder index, its layout
// argument, and the stack pointer at its entry (the address of its caller's return address).
struct ForwardedCblasCall {
  int index = 0;
  int layout = 0;
  const void* sp = nullptr;
};

thread_local ForwardedCblasCall t_call;

}  // namespace

// Returns the CPU BLAS's address of forwarded symbol `index` (or exits with require()'s message)
// and stores it in the symbol's slot. Two threads may race on a first call; both store the same
// address, and the trampoline's 8-byte aligned load sees either the stub or the final address.
void* tileblas_forward_resolve(int index) {
  void* target = tileblas::cpu_blas::require(tileblas_forward_names[index]);
  __atomic_store_n(&tileblas_forward_slots[index], target, __ATOMIC_RELEASE);
  return target;
}

void tileblas_cblas_enter(int index, int layout, const void* sp) { t_call = {index, layout, sp}; }

namespace tileblas::compat {

const char* forwarded_cblas_call(const void* frame, bool* row_major) {
  // The record of a call that has returned remains; a frame above its stack pointer is not
  // inside it.
  if (t_call.sp == nullptr || frame >= t_call.sp) return nullptr;
  *row_major = t_call.layout == kCblasRowMajor;
  return tileblas_forward_names[t_call.index];
}

}  // namespace tileblas::compat
