#!/usr/bin/env bash
# Sets up, builds and runs every test (ctest): unit and API tests, the netlib BLAS testers under
# LD_PRELOAD, and programs linked with -ltileblas alone. GPU tests skip visibly without a device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure --timeout 1800 -j2
