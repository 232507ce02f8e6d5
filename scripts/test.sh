#!/usr/bin/env bash
# Sets up, builds and runs every test (ctest): unit and API tests, the netlib BLAS testers under
# LD_PRELOAD, and programs linked with -ltileblas alone. GPU tests skip visibly without a device:
# the last lines count the test cases that passed, failed and were skipped, and say why they were
# skipped (scripts/test_summary.py). Exits non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
rm -rf test-results
mkdir -p test-results
status=0
ctest --output-on-failure --timeout 1800 -j2 --output-junit test-results/ctest.xml || status=$?
python3 ../scripts/test_summary.py test-results/ctest.xml test-results || status=1
exit $status
