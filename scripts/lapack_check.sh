#!/usr/bin/env bash
# LAPACK's linear-equation test programs (Debian's liblapack-test: xlintsts, xlintstd, xlintstc,
# xlintstz with their stest.in .. ztest.in) over the reference LAPACK (liblapack3's
# lapack/liblapack.so.3), each run twice: on the CPU BLAS alone, then with tileblas preloaded
# (TILEBLAS_MODE as set: gpu forces every call tileblas computes onto the GPU).
#   lapack_check.sh LIBTILEBLAS OUT_DIR [PRECISION...]   (PRECISION: s d c z; default all)
# The testers, their inputs and the libraries come from LAPACK_DIR: by default the lapack/ folder
# beside this script where there is one (scripts/gpu_bundle.sh stages the testers, their inputs,
# libtmglib.so.3, the reference liblapack.so.3 and OpenBLAS's libblas.so.3 there), else Debian's
# /usr/lib/x86_64-linux-gnu/lapack (its libblas.so.3 then the system's). A precision fails when
# the preloaded run reports a failure line ("failed to pass the threshold", "failed in the tests
# of the error exits") that the plain run does not (reference LAPACK 3.11 on OpenBLAS has one of
# its own in single precision), or ends without "End of tests". Writes each run's output to
# OUT_DIR and prints one line per precision: the tests run and the failure lines, plain and
# preloaded.
set -uo pipefail
if [ $# -lt 2 ] || [ ! -f "$1" ]; then
  echo "usage: $0 LIBTILEBLAS OUT_DIR [PRECISION...]" >&2
  exit 2
fi
lib=$(readlink -f "$1")
out=$2
shift 2
precisions=("$@")
[ ${#precisions[@]} -eq 0 ] && precisions=(s d c z)
here=$(cd "$(dirname "$0")" && pwd)
dir=/usr/lib/x86_64-linux-gnu/lapack
[ -x "$here/lapack/xlintstd" ] && dir=$here/lapack
dir=${LAPACK_DIR:-$dir}
if [ ! -x "$dir/xlintstd" ] || [ ! -f "$dir/liblapack.so.3" ]; then
  echo "lapack_check: no LAPACK testers or reference liblapack.so.3 in $dir (install liblapack-test)" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Tests run (the testers' "... tests run" counts summed), and their failure lines.
tests_run() { grep -o '( *[0-9]* tests run)' "$1" | tr -dc '0-9\n' | awk '{s += $1} END {print s + 0}'; }
failure_lines() {
  grep -iE 'failed to pass the threshold|failed in the tests of the error exits' "$1" | sort
}

status=0
for p in "${precisions[@]}"; do
  for run in plain tileblas; do
    log=$out/xlintst$p-$run.txt
    preload=
    [ $run = tileblas ] && preload=$lib
    (cd "$out" && LD_PRELOAD=$preload LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}" \
       "$dir/xlintst$p" <"$dir/${p}test.in" >"$log" 2>&1)
  done
  plain=$out/xlintst$p-plain.txt tb=$out/xlintst$p-tileblas.txt
  verdict=PASSED
  new_failures=$(comm -13 <(failure_lines "$plain") <(failure_lines "$tb") | wc -l)
  if ! grep -q 'End of tests' "$tb" || [ "$new_failures" -gt 0 ]; then
    verdict=FAILED
    status=1
  fi
  echo "lapack xlintst$p: $verdict (plain: $(tests_run "$plain") tests," \
       "$(failure_lines "$plain" | wc -l) failure lines; tileblas: $(tests_run "$tb") tests," \
       "$(failure_lines "$tb" | wc -l) failure lines, $new_failures not in the plain run's)"
done
exit $status
