// Level-3 routines on the GPU as plans: blocked or recursive decompositions whose bulk is our GEMM
// kernels (the router's kernel choice), plus small kernels for diagonal blocks. The decomposition
// lives here; the math lives in kernels/.
#pragma once

#include <cuda_runtime_api.h>

#include "problem.h"

namespace tileblas {

// Whether run_level3_on_device() computes p (its type, shape and operands) on a device with `caps`.
bool level3_on_device_supports(const Problem& p, const DeviceCaps& caps);

// Runs p, whose pointers are all device-accessible on the current device, on `stream`, and waits
// for it. Writes nothing outside what the routine may write.
cudaError_t run_level3_on_device(const Problem& p, const DeviceCaps& caps, cudaStream_t stream);

}  // namespace tileblas
