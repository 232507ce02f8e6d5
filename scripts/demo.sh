#!/usr/bin/env bash
# Sets up, builds and runs the demo: a plain C program linked with -ltileblas instead of a BLAS,
# timing its sgemm_ calls at growing sizes against OpenBLAS and printing where each one ran.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/bench/demo/tileblas_demo "$@"
