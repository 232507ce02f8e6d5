// What a Level-3 call (src/level3.h) reads and writes, operand by operand, for the code that moves
// its data: the executor's uploads and copies back, the CPU path's copies of GPU memory, and the
// router's count of the bytes a host-data call moves.
#pragma once

#include <cstdint>

#include "level3.h"

namespace tileblas {

// A matrix as stored (column-major, before any op()): rows x cols elements, ld-strided.
struct Level3Operand {
  const void* ptr = nullptr;  // nullptr: the routine has no such operand (B of syrk, trmm, ...)
  int64_t ld = 0, rows = 0, cols = 0;
  // `in`: its values are needed where the routine runs, all rows x cols of them: A and B unless
  // alpha == 0; C of symm/hemm unless beta == 0; C of syrk/herk/syr2k/her2k always (only one
  // triangle is written: the rest comes back as it was, and a copy back moves the whole matrix);
  // B of trmm/trsm unless alpha == 0 (then it is set to zero without being read).
  bool in = false;
  // `out`: written (C, and B of trmm/trsm, held in C): copied back whole.
  bool out = false;
};

struct Level3Operands {
  Level3Operand a, b, c;
};

Level3Operands operands_of(const Level3Problem& p);

// Whether the call multiplies anything: alpha != 0 and, for syrk .. her2k, k > 0. Otherwise it only
// scales (or zeroes) C, O(n^2) work.
bool has_products(const Level3Problem& p);

}  // namespace tileblas
