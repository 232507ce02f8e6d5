#!/usr/bin/env bash
# Checks libtileblas's (or libtileblas64's) dynamic symbol table against the ABI it promises:
#   check_exports.sh LIBTILEBLAS FORWARDERS_TABLE TILEBLAS_H REFERENCE_BLAS CPU_BLAS ENTRY_POINTS
# 1. every symbol of the reference BLAS (LIBRARY REFERENCE_BLAS, Fortran and CBLAS) is exported,
#    except its private CBLAS helpers (*sub_) and cblas_scabs1/cblas_dcabs1 (left out because
#    OpenBLAS lacks them; see the table's header);
# 2. every function include/tileblas.h declares is exported, every entry point the build generated
#    for this library (ENTRY_POINTS: the list compat/entry_points.cmake writes, with the wheel and
#    ILP64 names) is exported, and nothing else is (no C++, CUDA runtime or internal symbol leaks
#    into the ABI);
# 3. xerbla_ and cblas_xerbla are weak, so a program's own definitions take their place;
# 4. every forwarded symbol exists in the default CPU BLAS (CPU_BLAS), so no forwarder dead-ends.
set -uo pipefail
lib=$1 table=$2 header=$3 reference=$4 cpu_blas=$5 entry_points=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $1"; failed=1; }
list() { sed 's/^/    /' "$1" | head -n 20; }

nm -D --defined-only "$lib" >"$tmp/nm"
awk '{print $3}' "$tmp/nm" | sort -u >"$tmp/exported"
nm -D --defined-only "$reference" | awk '$2 == "T" {print $3}' | grep -v 'sub_$' | sort -u \
  >"$tmp/reference"
grep -v '^#' "$table" | sed '/^\s*$/d' | sort -u >"$tmp/forwarded"
printf '%s\n' cblas_dcabs1 cblas_scabs1 >"$tmp/excluded"
# Function declarations start a line with their return type: "void cblas_hgemm(int layout, ..."
# or "const char* tileblas_version(void);".
sed -nE 's/^[a-z_][a-z0-9_ *]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p' "$header" | sort -u >"$tmp/declared"
sort -u "$entry_points" >"$tmp/entries"

comm -23 "$tmp/reference" "$tmp/exported" | comm -23 - "$tmp/excluded" >"$tmp/missing"
[ -s "$tmp/missing" ] && { fail "reference BLAS symbols not exported:"; list "$tmp/missing"; }

comm -23 "$tmp/declared" "$tmp/exported" >"$tmp/undeclared"
[ -s "$tmp/undeclared" ] && { fail "declared in tileblas.h but not exported:"; list "$tmp/undeclared"; }

comm -23 "$tmp/entries" "$tmp/exported" >"$tmp/unexported_entries"
[ -s "$tmp/unexported_entries" ] && { fail "generated entry points not exported:"; list "$tmp/unexported_entries"; }

sort -u "$tmp/reference" "$tmp/declared" "$tmp/entries" >"$tmp/allowed"
comm -23 "$tmp/exported" "$tmp/allowed" >"$tmp/extra"
[ -s "$tmp/extra" ] && { fail "exported but neither standard BLAS, in tileblas.h nor an entry point:"; list "$tmp/extra"; }

comm -23 "$tmp/forwarded" "$tmp/exported" >"$tmp/unexported"
[ -s "$tmp/unexported" ] && { fail "forwarders not exported:"; list "$tmp/unexported"; }

for sym in xerbla_ cblas_xerbla; do
  grep -qE " W $sym\$" "$tmp/nm" || fail "$sym is not exported as a weak symbol"
done

nm -D --defined-only "$(readlink -f "$cpu_blas")" | awk '{print $3}' | sort -u >"$tmp/cpu"
comm -23 "$tmp/forwarded" "$tmp/cpu" >"$tmp/dead"
[ -s "$tmp/dead" ] && { fail "forwarded but absent from $cpu_blas:"; list "$tmp/dead"; }

echo "$(wc -l <"$tmp/exported") exported symbols, $(wc -l <"$tmp/forwarded") forwarded," \
     "$(wc -l <"$tmp/entries") generated entry points, $(wc -l <"$tmp/reference") in the reference BLAS"
exit $failed
