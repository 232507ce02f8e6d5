#!/usr/bin/env bash
# Debian's BLAS slot from outside: registers libtileblas as the libblas.so.3 alternative with
# scripts/debian-alternative.sh (selected), runs Debian's numpy without LD_PRELOAD, and checks that
# its float32 matmul reached tileblas (TILEBLAS_VERBOSE=1 line), gave the right answer, and that
# tileblas's own CPU BLAS is not itself. Then removes the alternative and restores the link
# group's previous state (automatic, or the administrator's choice), also when a check fails.
#   check_blas_alternative.sh LIBTILEBLAS DEBIAN_ALTERNATIVE_SH
# Exits 77 (skipped, reason on the last line) without root, update-alternatives, Debian's
# libblas.so.3 link group or python3-numpy.
set -uo pipefail
lib=$(readlink -f "$1")
script=$2
multiarch=$(gcc -print-multiarch)
group=libblas.so.3-$multiarch
link=/usr/lib/$multiarch/libblas.so.3
python=/usr/bin/python3  # Debian's, with Debian's numpy (not one a version manager put first on PATH)
skip() { echo "SKIP: $1"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "not root: cannot change Debian's alternatives"
command -v update-alternatives >/dev/null || skip "no update-alternatives"
state=$(update-alternatives --query "$group" 2>/dev/null) || skip "no $group link group (libblas3)"
"$python" -c 'import numpy' 2>/dev/null || skip "python3-numpy is not installed"

status=$(sed -n 's/^Status: //p' <<<"$state")
previous=$(sed -n 's/^Value: //p' <<<"$state")
restore() {
  "$script" remove "$lib" >/dev/null 2>&1
  if [ "$status" = manual ]; then
    update-alternatives --set "$group" "$previous" >/dev/null
  else
    update-alternatives --auto "$group" >/dev/null
  fi
  echo "restored $group: $status, $link -> $(readlink -f "$link")"
}
trap restore EXIT

"$script" install "$lib" 1000 || exit 1
update-alternatives --set "$group" "$lib" >/dev/null  # also when the group was set by hand
[ "$(readlink -f "$link")" = "$lib" ] || { echo "FAIL: $link does not lead to $lib"; exit 1; }

err=$(mktemp)
out=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH TILEBLAS_VERBOSE=1 "$python" -c '
import ctypes, numpy as np
a = (np.arange(200 * 200, dtype=np.float32).reshape(200, 200) % 7) - 3
b = a @ a  # integer values: exact in float32
assert np.array_equal(b.astype(np.float64), a.astype(np.float64) @ a.astype(np.float64))

class Config(ctypes.Structure):
    _fields_ = [("mode", ctypes.c_char_p), ("device_found", ctypes.c_int),
                ("device_index", ctypes.c_int), ("device_name", ctypes.c_char_p),
                ("sm_version", ctypes.c_int), ("no_device_why", ctypes.c_char_p),
                ("cpu_blas", ctypes.c_char_p)]
blas = ctypes.CDLL("libblas.so.3")
config = Config()
blas.tileblas_get_config(ctypes.byref(config))
print("cpu_blas:", config.cpu_blas.decode())
' 2>"$err")
status_py=$?
cat "$err"
echo "$out"
lines=$(grep -c '^tileblas: .*sgemm m=200 n=200 k=200' "$err")
rm -f "$err"
[ $status_py -eq 0 ] || { echo "FAIL: numpy failed (status $status_py)"; exit 1; }
[ "$lines" -ge 1 ] || { echo "FAIL: numpy's matmul did not reach tileblas"; exit 1; }
cpu_blas=$(sed -n 's/^cpu_blas: //p' <<<"$out")
case $cpu_blas in
  none*|*tileblas*) echo "FAIL: tileblas's CPU BLAS is '$cpu_blas'"; exit 1 ;;
esac
echo "numpy reached tileblas through $link; tileblas's CPU BLAS: $cpu_blas"
