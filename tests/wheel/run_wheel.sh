#!/usr/bin/env bash
# Runs one of the wheel-name-set test programs twice: without tileblas (the stand-in wheel library
# answers every call itself: the checks' own sanity), then with LIBTILEBLAS preloaded,
# TILEBLAS_MODE=cpu (every call takes the CPU route, as on a machine without GPU) and
# TILEBLAS_VERBOSE=1. The second run must also print a verbose line for every name the program
# says it called ("expect-verbose: NAME"), and no warning.
#   run_wheel.sh LIBTILEBLAS PROGRAM [ARGS...]
set -uo pipefail
lib=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

echo "== without tileblas"
env -u LD_PRELOAD "$@" >"$work/plain.out" 2>"$work/plain.err"
status=$?
cat "$work/plain.out" "$work/plain.err"
[ $status -eq 0 ] || { echo "FAIL: exit status $status without tileblas"; failed=1; }

echo "== LD_PRELOAD=$lib TILEBLAS_MODE=cpu TILEBLAS_VERBOSE=1"
LD_PRELOAD=$lib TILEBLAS_MODE=cpu TILEBLAS_VERBOSE=1 "$@" >"$work/tb.out" 2>"$work/tb.err"
status=$?
cat "$work/tb.out"
grep -v '^tileblas: [a-z_0-9]* ' "$work/tb.err"
[ $status -eq 0 ] || { echo "FAIL: exit status $status with tileblas"; failed=1; }
expected=$(sed -n 's/^expect-verbose: //p' "$work/tb.out")
[ -n "$expected" ] || { echo "FAIL: the program called nothing through tileblas"; failed=1; }
for name in $expected; do
  if ! grep -q "^tileblas: $name " "$work/tb.err"; then
    echo "FAIL: no verbose line for $name"
    failed=1
  fi
done
echo "$(grep -c '^tileblas: [a-z_0-9]* ' "$work/tb.err") calls routed by tileblas," \
     "$(wc -w <<<"$expected") names"
if grep -E '^tileblas: (warning|error|note)' "$work/tb.err"; then
  echo "FAIL: tileblas warned"
  failed=1
fi
exit $failed
