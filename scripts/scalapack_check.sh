#!/usr/bin/env bash
# ScaLAPACK's own test programs (Debian's scalapack-mpi-test, Open MPI build) on 4 processes, each
# run twice: on the system's BLAS alone, then with tileblas preloaded into every process (mpirun -x
# LD_PRELOAD; TILEBLAS_MODE as set). By default the factorizations and solvers that stand on
# Level 3: LU, QR, inverse and least squares in s, d, c, z (not Cholesky: Debian 12's xsllt and
# xdllt do not end on 4 processes, plain as preloaded, after their last grid's tests pass).
#   scalapack_check.sh LIBTILEBLAS OUT_DIR [TESTER...]     (TESTER: e.g. xdlu xzllt)
# Each tester reads its .dat input (/usr/share/scalapack) from its working folder and ends with
# "Finished N tests, with the following results:" and a count of tests that "completed and failed
# residual checks". A tester fails when the preloaded run finishes fewer tests, fails more of
# them, or does not finish. Writes each run's output to OUT_DIR and prints one line per tester.
set -uo pipefail
if [ $# -lt 2 ] || [ ! -f "$1" ]; then
  echo "usage: $0 LIBTILEBLAS OUT_DIR [TESTER...]" >&2
  exit 2
fi
lib=$(readlink -f "$1")
out=$2
shift 2
testers=("$@")
if [ ${#testers[@]} -eq 0 ]; then
  for p in s d c z; do testers+=(x${p}lu x${p}qr x${p}inv x${p}ls); done
fi
dir=${SCALAPACK_TEST_DIR:-/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests}
data=${SCALAPACK_DATA_DIR:-/usr/share/scalapack}
if [ ! -x "$dir/xdlu" ] || ! command -v mpirun >/dev/null; then
  echo "scalapack_check: no testers in $dir or no mpirun (install scalapack-mpi-test, openmpi-bin)" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$data"/*.dat "$work/"
# Root may run Open MPI here (CI containers), on more processes than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe -n 4)

finished() { grep -oE 'Finished +[0-9]+ tests' "$1" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}'; }
failed() {
  grep -oE '[0-9]+ tests completed and failed' "$1" | grep -oE '^[0-9]+' | awk '{s += $1} END {print s + 0}'
}

status=0
for t in "${testers[@]}"; do
  plain=$out/$t-plain.txt tb=$out/$t-tileblas.txt
  (cd "$work" && timeout 600 "${mpi[@]}" "$dir/$t" >"$plain" 2>&1)
  (cd "$work" && timeout 600 "${mpi[@]}" -x LD_PRELOAD="$lib" -x TILEBLAS_MODE "$dir/$t" \
     >"$tb" 2>&1)
  verdict=PASSED
  if [ "$(finished "$tb")" -eq 0 ] || [ "$(finished "$tb")" -lt "$(finished "$plain")" ] ||
     [ "$(failed "$tb")" -gt "$(failed "$plain")" ]; then
    verdict=FAILED
    status=1
  fi
  echo "scalapack $t: $verdict (plain: $(finished "$plain") tests, $(failed "$plain") failed;" \
       "tileblas: $(finished "$tb") tests, $(failed "$tb") failed)"
done
exit $status
