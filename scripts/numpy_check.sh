#!/usr/bin/env bash
# numpy and scipy from pip with tileblas preloaded, on a GPU machine (run by the device tool, or as
# the `numpy` step of scripts/gpu_run.sh):
#   numpy_check.sh LIBTILEBLAS OUT_DIR [STEP...]     STEP: info, tests, bench (default: all three)
# info   the python, numpy's and scipy's versions, the OpenBLAS each wheel brings and which of
#        tileblas's wheel names (and their syrk, xerbla) it has, numpy.show_runtime() plain and
#        preloaded, and where one product of each type and scipy.linalg.blas's sgemm/dgemm go
#        (TILEBLAS_VERBOSE=1);
# tests  numpy's linear-algebra tests, its matmul/dot tests in test_multiarray, and scipy's
#        scipy/linalg/tests/test_blas.py, each plain and preloaded with TILEBLAS_MODE=gpu side by
#        side: the counts of both, and every test that passes plain but not preloaded (the step
#        fails if there is one);
# bench  scripts/numpy_bench.py plain, then preloaded (TILEBLAS_MODE as set, default auto, with
#        TILEBLAS_VERBOSE=1 so the log shows each product's route): a @ b and a @ a.T at n = 4096 and
#        8192 (NUMPY_CHECK_SIZES) in float32, float64, complex64 and complex128; the table of both,
#        with the GPU.
# Writes into OUT_DIR: numpy_check.log (everything printed), numpy_tests.txt (per-suite counts and
# regressions), numpy_bench.json and numpy_bench.md. numpy_bench.py is taken from beside this
# script. pytest and hypothesis are the machine's; where it has none, NUMPY_CHECK_PYLIB may name a
# folder of pure-Python ones (Debian's python3-pytest, python3-hypothesis and their dependencies).
set -uo pipefail
if [ $# -lt 2 ] || [ ! -f "$1" ]; then
  echo "usage: $0 LIBTILEBLAS OUT_DIR [info] [tests] [bench]" >&2
  exit 2
fi
lib=$(readlink -f "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(info tests bench)
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exec > >(tee -a "$out/numpy_check.log") 2>&1
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
unset TILEBLAS_VERBOSE
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
echo "== numpy_check: ${steps[*]} on ${gpu:-no GPU}, $(nproc) CPUs; tileblas: $lib"
status=0

info() {
  echo "== info"
  LIB="$lib" "$py" - <<'EOF'
import ctypes, glob, os, sys
import numpy
print("python", sys.version.split()[0], "| numpy", numpy.__version__, os.path.dirname(numpy.__file__))
wheels = {"numpy": glob.glob(os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs", "*openblas*"))}
try:
    import scipy
    print("scipy", scipy.__version__, os.path.dirname(scipy.__file__))
    wheels["scipy"] = glob.glob(os.path.join(os.path.dirname(scipy.__file__), os.pardir, "scipy.libs", "*openblas*"))
except ImportError:
    print("scipy: not installed")
libs = {}
for who, paths in wheels.items():
    for p in paths:
        print(f"{who} wheel's BLAS: {os.path.realpath(p)}")
        libs[who] = ctypes.CDLL(os.path.realpath(p), mode=os.RTLD_LOCAL)
# Which names each wheel's OpenBLAS has: tileblas's (GEMM in every type, sbgemm, saxpy, omatcopy,
# imatcopy), its syrk (numpy's a @ a.T) and its xerbla.
sets = {"numpy": ("scipy_", "64_"), "scipy": ("scipy_", "")}
for who, lib in libs.items():
    pre, suf = sets[who]
    have, missing = [], []
    for r in ("sgemm", "dgemm", "cgemm", "zgemm", "sbgemm", "shgemm", "saxpy", "somatcopy",
              "simatcopy", "ssyrk", "dsyrk", "csyrk", "zsyrk"):
        for name in (f"{pre}{r}_{suf}", f"{pre}cblas_{r}{suf}"):
            (have if hasattr(lib, name) else missing).append(name)
    have += [n for n in (f"{pre}xerbla_{suf}",) if hasattr(lib, n)]
    print(f"{who} wheel exports: {' '.join(have)}")
    print(f"{who} wheel lacks:   {' '.join(missing) or '-'}")
EOF
  echo "-- numpy.show_runtime(), plain"
  "$py" -c "import numpy; numpy.show_runtime()"
  echo "-- numpy.show_runtime(), LD_PRELOAD=libtileblas"
  LD_PRELOAD=$lib "$py" -c "import numpy; numpy.show_runtime()"
  echo "-- where calls go (LD_PRELOAD, TILEBLAS_VERBOSE=1)"
  LD_PRELOAD=$lib TILEBLAS_VERBOSE=1 "$py" - <<'EOF'
import ctypes
import numpy as np
for t in ("float32", "float64", "complex64", "complex128"):
    a = np.ones((2048, 2048), dtype=t)
    b = a @ a
    assert b[0, 0] == 2048, (t, b[0, 0])
    c = a @ a.T
    assert c[0, 0] == 2048, (t, c[0, 0])
try:
    from scipy.linalg import blas
    a = np.ones((1024, 1024), dtype=np.float32, order="F")
    assert blas.sgemm(1.0, a, a)[0, 0] == 1024
    assert blas.dgemm(1.0, a.astype(np.float64), a.astype(np.float64))[0, 0] == 1024
except ImportError:
    print("scipy: not installed")


class Config(ctypes.Structure):
    _fields_ = [("mode", ctypes.c_char_p), ("device_found", ctypes.c_int),
                ("device_index", ctypes.c_int), ("device_name", ctypes.c_char_p),
                ("sm_version", ctypes.c_int), ("no_device_why", ctypes.c_char_p),
                ("cpu_blas", ctypes.c_char_p), ("allow_tf32", ctypes.c_int),
                ("verbose", ctypes.c_int), ("force_kernel", ctypes.c_char_p)]


cfg = Config()
ctypes.CDLL(None).tileblas_get_config(ctypes.byref(cfg))
print(f"tileblas_get_config: mode {cfg.mode.decode()}, device {cfg.device_name.decode()!r}, "
      f"standard names' CPU BLAS {cfg.cpu_blas.decode()}")
EOF
  [ $? -eq 0 ] || { echo "FAIL: info"; status=1; }
}

# start_suite NAME ARGS...: pytest ARGS plain and preloaded (TILEBLAS_MODE=gpu), in the background.
pids=()
start_suite() {
  local name=$1
  shift
  local limit=${NUMPY_CHECK_TEST_TIMEOUT:-150}
  local common=(-m pytest -q -p no:cacheprovider -o addopts= "$@")
  echo "-- $name: $py ${common[*]}"
  echo "$name" >>"$work/suites"
  (cd "$work" && OPENBLAS_NUM_THREADS=4 timeout "$limit" "$py" "${common[@]}" \
     --junitxml="$work/$name.plain.xml" >"$work/$name.plain.log" 2>&1) &
  pids+=($!)
  (cd "$work" && OPENBLAS_NUM_THREADS=4 LD_PRELOAD=$lib TILEBLAS_MODE=gpu timeout "$limit" \
     "$py" "${common[@]}" --junitxml="$work/$name.tileblas.xml" >"$work/$name.tileblas.log" 2>&1) &
  pids+=($!)
}

tests() {
  echo "== tests"
  if ! "$py" -c "import pytest, hypothesis" 2>/dev/null; then
    if [ -n "${NUMPY_CHECK_PYLIB:-}" ]; then
      export PYTHONPATH=$NUMPY_CHECK_PYLIB${PYTHONPATH:+:$PYTHONPATH}
      echo "pytest/hypothesis from $NUMPY_CHECK_PYLIB"
    fi
  fi
  "$py" -c "import pytest, hypothesis; print('pytest', pytest.__version__, '| hypothesis', hypothesis.__version__)" ||
    { echo "FAIL: no pytest/hypothesis"; status=1; return; }
  # All suites side by side: small problems, and the machine has the cores.
  local start=$SECONDS
  start_suite numpy.linalg --pyargs numpy.linalg
  start_suite numpy.matmul_dot --pyargs numpy._core.tests.test_multiarray -k "matmul or dot"
  if "$py" -c "import scipy" 2>/dev/null; then
    start_suite scipy.test_blas --pyargs scipy.linalg.tests.test_blas
  else
    echo "-- scipy: not installed, scipy/linalg/tests/test_blas.py not run"
  fi
  # Not a bare `wait`: that would also wait for the tee of this script's own output.
  wait "${pids[@]}"
  echo "   all suites: $((SECONDS - start)) s"
  while read -r name; do
    echo "-- $name plain:     $(tail -n 1 "$work/$name.plain.log")"
    echo "-- $name preloaded: $(tail -n 1 "$work/$name.tileblas.log")"
    grep -E '^(FAILED|ERROR) ' "$work/$name.tileblas.log" | head -n 20
  done <"$work/suites"
  WORK=$work "$py" - <<'EOF' | tee "$out/numpy_tests.txt"
import glob, os, sys
import xml.etree.ElementTree as ET

def outcomes(path):
    result = {}
    if not os.path.exists(path):
        return None
    for case in ET.parse(path).getroot().iter("testcase"):
        key = case.get("classname", "") + "::" + case.get("name", "")
        kinds = [child.tag for child in case]
        result[key] = ("failed" if "failure" in kinds else "error" if "error" in kinds
                       else "skipped" if "skipped" in kinds else "passed")
    return result

work = os.environ["WORK"]
bad = False
for plain_xml in sorted(glob.glob(os.path.join(work, "*.plain.xml"))):
    suite = os.path.basename(plain_xml)[: -len(".plain.xml")]
    plain, pre = outcomes(plain_xml), outcomes(plain_xml.replace(".plain.xml", ".tileblas.xml"))
    def counts(r):
        if r is None:
            return "no result (timed out or crashed)"
        return ", ".join(f"{sum(v == k for v in r.values())} {k}"
                         for k in ("passed", "failed", "error", "skipped"))
    print(f"{suite}: plain {counts(plain)} | preloaded, TILEBLAS_MODE=gpu: {counts(pre)}")
    if pre is None:
        bad = True
        continue
    worse = sorted(k for k, v in plain.items() if v == "passed" and pre.get(k) != "passed")
    for k in worse:
        print(f"  passes plain, not preloaded ({pre.get(k, 'missing')}): {k}")
    bad |= bool(worse)
print("regressions: " + ("YES" if bad else "none"))
sys.exit(1 if bad else 0)
EOF
  [ $? -eq 0 ] || status=1
}

bench() {
  echo "== bench"
  local sizes=(${NUMPY_CHECK_SIZES:-4096 8192})
  "$py" "$here/numpy_bench.py" "$work/plain.json" --label plain --sizes "${sizes[@]}" || status=1
  LD_PRELOAD=$lib TILEBLAS_VERBOSE=1 "$py" "$here/numpy_bench.py" "$work/tileblas.json" \
    --label preloaded --sizes "${sizes[@]}" || status=1
  GPU="$gpu" MODE="${TILEBLAS_MODE:-auto}" WORK=$work OUT=$out "$py" - <<'EOF'
import json, os
work, out = os.environ["WORK"], os.environ["OUT"]
plain = json.load(open(os.path.join(work, "plain.json")))
pre = json.load(open(os.path.join(work, "tileblas.json")))
json.dump({"gpu": os.environ["GPU"], "tileblas_mode": os.environ["MODE"], "plain": plain,
           "preloaded": pre}, open(os.path.join(out, "numpy_bench.json"), "w"), indent=1)
key = lambda r: (r["n"], r["dtype"], r["op"])
by = {key(r): r for r in pre["rows"]}
lines = [f"numpy {plain['numpy']}, {os.environ['GPU']}, tileblas preloaded with TILEBLAS_MODE="
         f"{os.environ['MODE']}; median of the calls after the first (the first preloaded call "
         f"of the process also measures the cost model's rates).", "",
         "| n | type | product | plain ms | preloaded ms | speedup | first preloaded call ms "
         "| rel. error plain | rel. error preloaded |",
         "|---:|---|---|---:|---:|---:|---:|---:|---:|"]
for r in plain["rows"]:
    p = by[key(r)]
    lines.append(f"| {r['n']} | {r['dtype']} | `{r['op']}` | {r['median_s'] * 1e3:.1f} | "
                 f"{p['median_s'] * 1e3:.1f} | {r['median_s'] / p['median_s']:.2f}x | "
                 f"{p['first_s'] * 1e3:.1f} | {r['rel_err']:.1e} | {p['rel_err']:.1e} |")
open(os.path.join(out, "numpy_bench.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
}

for step in "${steps[@]}"; do
  case $step in
    info | tests | bench) "$step" ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
echo "== numpy_check: $([ $status -eq 0 ] && echo ok || echo FAILED)"
exit $status
