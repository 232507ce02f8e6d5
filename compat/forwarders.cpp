// The resolver behind the generated forwarder trampolines (compat/forwarders.txt, turned into
// assembly by compat/forwarders.cmake): the first call of a forwarded symbol lands here, once.
#include "cpu_blas.h"

extern "C" {
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
