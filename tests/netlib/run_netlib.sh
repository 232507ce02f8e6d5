#!/usr/bin/env bash
# Runs netlib's BLAS testers (Debian's libblas-test) with tileblas preloaded over the reference
# libblas.so.3 that sits beside them (the CBLAS testers need its RowMajorStrg); libblas64-test's
# over libblas64.so.3 for libtileblas64 (NETLIB_DIR, NETLIB_REFERENCE below):
#   run_netlib.sh LIBTILEBLAS [TESTER...]      (default: every tester, Levels 1-3, s/d/c/z, Fortran
#                                               and CBLAS, then the Level-3 ones on larger sizes)
# A tester named TESTER:big reads this folder's larger input instead of Debian's (xblat3d:big reads
# dblat3_big.in, xdcblat3:big din3_big: sizes 1 to 65, around 16, 32 and 64, where tiles and
# blocks end; 65 is the largest the testers take, their NMAX).
# The testers and libblas.so.3 are taken from this script's folder when they are there (the GPU
# bundle), else from /usr/lib/x86_64-linux-gnu/blas. The testers exit 0 even when a check fails,
# so their output (stdout and the summary files they write) is read instead: a tester fails on
# FAIL, FATAL, NOT DETECTED or INSTEAD OF, on no PASS line, on a nonzero exit, and when tileblas
# reported no call (TILEBLAS_VERBOSE=1) in a tester of a routine it computes itself (GEMM, saxpy),
# i.e. it was not in the process at all; the other testers check the forwarders.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 LIBTILEBLAS [TESTER...]" >&2
  exit 2
fi
lib=$(readlink -f "$1")
shift
testers=("$@")
if [ ${#testers[@]} -eq 0 ]; then
  for p in s d c z; do testers+=(xblat1$p xblat2$p xblat3$p x${p}cblat1 x${p}cblat2 x${p}cblat3); done
  for p in s d c z; do testers+=(xblat3$p:big x${p}cblat3:big); done
fi

here=$(cd "$(dirname "$0")" && pwd)
dir=/usr/lib/x86_64-linux-gnu/blas
[ -x "$here/xblat1s" ] && dir=$here
# The 64-bit integer testers (libblas64-test) for libtileblas64: NETLIB_DIR=.../blas64
# NETLIB_REFERENCE=libblas64.so.3.
dir=${NETLIB_DIR:-$dir}
reference=${NETLIB_REFERENCE:-libblas.so.3}
if [ ! -f "$dir/$reference" ]; then
  echo "run_netlib: no reference $reference in $dir (install libblas-test or libblas64-test)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for name in "${testers[@]}"; do
  t=${name%:big}
  case $name in
    xblat3?:big) input=$here/${t:6:1}blat3_big.in ;;
    x?cblat3:big) input=$here/${t:1:1}in3_big ;;
    xblat[23]?) input=$dir/${t:6:1}blat${t:5:1}.in ;;  # xblat3d reads dblat3.in
    x?cblat[23]) input=$dir/${t:1:1}in${t:7:1} ;;      # xdcblat3 reads din3
    *) input=/dev/null ;;
  esac
  # Testers of routines tileblas computes itself must reach it.
  case $t in
    xblat1s|xscblat1|xblat3?|x?cblat3) expect_calls=1 ;;
    *) expect_calls=0 ;;
  esac
  if [ ! -x "$dir/$t" ] || [ ! -e "$input" ]; then
    echo "netlib $name: FAILED (missing $dir/$t or its input $input)"
    failed=1
    continue
  fi
  run=$work/${name/:/_}
  mkdir "$run"
  (cd "$run" && TILEBLAS_VERBOSE=1 LD_PRELOAD=$lib \
     LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
     timeout 600 "$dir/$t" <"$input" >stdout.txt 2>stderr.txt)
  rc=$?
  # Everything the tester wrote: stdout and its summary/snapshot files; tileblas's per-call lines
  # on stderr are counted, and whatever else is on stderr is shown.
  output=$(cat "$run"/stdout.txt; find "$run" -type f ! -name stdout.txt ! -name stderr.txt -exec cat {} +)
  calls=$(grep -c '^tileblas: ' "$run/stderr.txt")
  passes=$(grep -c 'PASS' <<<"$output")
  bad=$(grep -E 'FAIL|FATAL|NOT DETECTED|INSTEAD OF' <<<"$output")
  why=""
  [ $rc -ne 0 ] && why+=" exit status $rc;"
  [ -n "$bad" ] && why+=" failures reported;"
  [ "$passes" -eq 0 ] && why+=" no PASS line;"
  [ "$calls" -eq 0 ] && [ $expect_calls -eq 1 ] && why+=" no call reached tileblas (not preloaded?);"
  # Level 3: every routine the tester covers reached tileblas.
  case $t in
    xblat3?|x?cblat3)
      p=${t:6:1}
      [ "${t:0:5}" = xblat ] || p=${t:1:1}
      routines="gemm symm syrk syr2k trmm trsm"
      case $p in c|z) routines+=" hemm herk her2k" ;; esac
      for r in $routines; do
        grep -qE "^tileblas: (cblas_)?$p$r " "$run/stderr.txt" || why+=" no $p$r call reached tileblas;"
      done ;;
  esac
  if [ -n "$why" ]; then
    failed=1
    echo "netlib $name: FAILED:$why"
    echo "----- $name output -----"
    tail -n 60 <<<"$output"
    echo "----- $name stderr (without tileblas's per-call lines) -----"
    grep -v '^tileblas: ' "$run/stderr.txt" | tail -n 30
  else
    echo "netlib $name: PASSED ($passes PASS lines, $calls calls through tileblas)"
  fi
  grep -v '^tileblas: ' "$run/stderr.txt" | head -n 5
done
exit $failed
