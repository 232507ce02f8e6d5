#!/usr/bin/env bash
# Runs a program linked with -ltileblas (or -ltileblas64) alone: first checks that it needs no BLAS
# library besides libtileblas, then runs it with ARGS.
#   run_linked.sh PROGRAM [ARGS...]
# With EXPECT_EXIT=<status> and EXPECT_STDERR=<extended regex> in the environment, the program
# must instead end with that status and print a matching line on stderr (the failure paths).
set -uo pipefail
program=$1
shift
needed=$(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "$program needs: $(echo $needed)"
if grep -qvE '^(libtileblas(64)?\.so\.0|libc\.so\.6|libgfortran\.so\.5|libm\.so\.6|libquadmath\.so\.0|libgcc_s\.so\.1)$' <<<"$needed"; then
  echo "FAIL: $program needs a library besides libtileblas and the C/Fortran runtimes"
  exit 1
fi
grep -qxE 'libtileblas(64)?\.so\.0' <<<"$needed" || { echo "FAIL: $program does not need libtileblas.so.0"; exit 1; }

stderr=$(mktemp)
trap 'rm -f "$stderr"' EXIT
"$program" "$@" 2>"$stderr"
status=$?
cat "$stderr" >&2
if [ -z "${EXPECT_EXIT:-}" ]; then
  exit $status
fi
if [ "$status" -ne "$EXPECT_EXIT" ]; then
  echo "FAIL: exit status $status, expected $EXPECT_EXIT"
  exit 1
fi
if ! grep -qE "$EXPECT_STDERR" "$stderr"; then
  echo "FAIL: stderr has no line matching: $EXPECT_STDERR"
  exit 1
fi
echo "exited $status with the expected message"
