#!/usr/bin/env bash
# Host-pointer sgemm_/dgemm_/cgemm_/zgemm_ (with --level3: strsm_/dtrsm_/ssyrk_/dsyrk_, or the
# Level-3 routines of --l3_routines) under three BLAS configurations, one after the other on the
# same machine, with the same bench binary (bench/host_compare, linked against OpenBLAS):
#   1. OpenBLAS alone (OPENBLAS_NUM_THREADS: the machine's cores unless set),
#   2. NVBLAS preloaded (a generated nvblas.conf: this OpenBLAS as NVBLAS_CPU_BLAS_LIB, all GPUs,
#      autopinned memory, a log file),
#   3. tileblas preloaded (the same OpenBLAS underneath, reached through RTLD_NEXT);
# then scripts/host_compare_table.py joins the three JSON outputs into one table: printed, and
# written to OUTDIR as host-compare.md (for scripts/update_readme.py --marker host-compare) and
# host-compare.json (the table, the checks and the three raw outputs), with every log in
# host-compare-logs.txt. Exit status 1 if a result check failed or a configuration did not run.
#
# Without a GPU (CI) it runs 1 and 3 only (tileblas on its CPU path) at sizes <= 128, and says so.
# Time budget on the GPU machine (16 cores, H200): under 4 minutes for all three (90 s OpenBLAS,
# 50 s NVBLAS, 70 s tileblas at most; what would end later is skipped). OpenBLAS does not run
# dgemm_/cgemm_/zgemm_ above 4096 (8192 zgemm_ is ~40 s a call there); any configuration skips a
# call predicted, from its rate at the previous size, to take over 8 s. All shown as "not run".
# --level3: 90 s OpenBLAS, 70 s NVBLAS, 70 s tileblas at most, OpenBLAS's d, c and z routines not
# above 4096; a --l3_routines list too long for that ends in "not run" rows. Estimated from the
# real routines' and ?gemm_'s rates on the H100/H200 machines: ztrsm,ctrsm,zsyrk,csyrk,zherk,cherk
# at 1024, 4096, 8192 take 2-3 minutes (OpenBLAS ~50 s, NVBLAS ~30-45 s, tileblas ~25 s, much of
# it making the 8192 data), ztrmm,ctrmm,zhemm,chemm about 2 more: run those as a second call, and
# zsymm,csymm,zsyr2k,csyr2k,zher2k,cher2k as a third (not yet timed there: symm has hemm's flops,
# syr2k and her2k twice syrk's and herk's, so expect more than the second call's time).
#
# Usage: host_blas_compare.sh [--quick] [--level3] [--l3_routines LIST] [--l3_sizes LIST] [--repeat N]
#                             [--bin PATH] [--tileblas PATH] [--nvblas PATH] [OUTDIR]
#   --quick      sizes <= 128 and short timings (a few seconds): the ctest host_blas_compare_quick
#                (?gemm_ at 8-128, and every Level-3 routine of the bench at 64 and 128)
#   --level3     Level-3 routines (default strsm, dtrsm, ssyrk, dsyrk) at 1024, 4096, 8192 instead
#                of ?gemm_ (OpenBLAS's double and complex routines not above 4096)
#   --l3_routines  the Level-3 routines to run, in this order (comma-separated names: ?trsm, ?trmm,
#                ?syrk, ?syr2k, ?symm in s, d, c, z; ?herk, ?her2k, ?hemm in c, z; e.g.
#                ztrsm,ctrsm,zherk,cherk)
#   --l3_sizes   with --level3: these sizes instead (comma-separated, e.g. 64,128,256,512)
#   --repeat N   run the configurations N times in turn (OpenBLAS, NVBLAS, tileblas, OpenBLAS, ...;
#                N times the time): each row takes each configuration's run of median rate
#   --bin        the bench binary (default: bin/ beside this script in the GPU bundle, else
#                build/bench/host_compare/ of the repository)
#   --tileblas   libtileblas.so to preload (default: lib/ of the bundle, else build/compat/)
#   --nvblas     libnvblas.so to preload (default: found under /usr/local/cuda*, then by find)
#   OUTDIR       where the three files go (default: ./host-compare)
# On the GPU machine, from the bundle of scripts/gpu_bundle.sh: bash /tmp/tb/host_blas_compare.sh $OUT/host
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
quick=0 level3=0 l3_routines="" l3_sizes=1024,4096,8192 repeat=1 rep="" bin="" tileblas="" nvblas="" out=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --level3) level3=1 ;;
    --l3_routines) l3_routines=$2; shift ;;
    --l3_sizes) l3_sizes=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    --bin) bin=$2; shift ;;
    --tileblas) tileblas=$2; shift ;;
    --nvblas) nvblas=$2; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done
if [ -x "$here/bin/tileblas_host_blas_compare" ]; then  # the GPU bundle: bin/, lib/, scripts beside
  bin=${bin:-$here/bin/tileblas_host_blas_compare}
  tileblas=${tileblas:-$here/lib/libtileblas.so.0}
  table_py=$here/host_compare_table.py
  export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else                                                   # the repository: scripts/, build/
  bin=${bin:-$here/../build/bench/host_compare/tileblas_host_blas_compare}
  tileblas=${tileblas:-$here/../build/compat/libtileblas.so.0}
  table_py=$here/host_compare_table.py
fi
out=${out:-host-compare}
for f in "$bin" "$tileblas" "$table_py"; do
  [ -e "$f" ] || { echo "host_blas_compare: missing $f" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
tileblas=$(readlink -f "$tileblas")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

threads=${OPENBLAS_NUM_THREADS:-$(nproc)}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ',')
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | tr -d ',')
notes=()
if [ -z "$gpu" ]; then
  quick=1
  notes+=("No GPU on this machine: NVBLAS not run; tileblas ran on its CPU path; sizes <= 128 only.")
fi
# Each configuration's share of the time budget (--deadline_seconds: what would end later is
# skipped as "not run", so the run ends in time and every JSON is complete).
gemm=dgemm,zgemm,cgemm,sgemm
if [ "$quick" = 1 ]; then
  sizes=8,16,32,64,128 beta_sizes=64 target=0.01 ob_skip=""
  deadline_openblas=60 deadline_nvblas=60 deadline_tileblas=60
  all_l3=strsm,dtrsm,ctrsm,ztrsm,strmm,dtrmm,ctrmm,ztrmm,ssyrk,dsyrk,csyrk,zsyrk,cherk,zherk,chemm,zhemm
  all_l3+=,ssymm,dsymm,csymm,zsymm,ssyr2k,dsyr2k,csyr2k,zsyr2k,cher2k,zher2k
  l3_routines=${l3_routines:-$all_l3}
  routine_args=(--routines=$gemm,$l3_routines --l3_sizes=64,128)
elif [ "$level3" = 1 ]; then
  sizes=8 beta_sizes="" target=0.05 ob_skip=d:4096,c:4096,z:4096
  deadline_openblas=90 deadline_nvblas=70 deadline_tileblas=70
  l3_routines=${l3_routines:-strsm,dtrsm,ssyrk,dsyrk}
  routine_args=(--routines=$l3_routines --l3_sizes=$l3_sizes)
  skipped=$(tr , '\n' <<<"$l3_routines" | sed -n 's/_$//; /^[dcz]/s/$/_/p' | paste -sd, | sed 's/,/, /g')
  if [ -n "$skipped" ] && [ "$(tr , '\n' <<<"$l3_sizes" | sort -n | tail -n 1)" -gt 4096 ]; then
    notes+=("OpenBLAS not run above 4096 for $skipped (time budget).")
  fi
else
  sizes=8,16,32,64,128,256,512,1024,2048,4096,8192 beta_sizes=64,128,256,2048 target=0.05
  deadline_openblas=90 deadline_nvblas=50 deadline_tileblas=70
  ob_skip=d:4096,c:4096,z:4096
  routine_args=(--routines=$gemm)
  notes+=("OpenBLAS not run above 4096 for dgemm_, cgemm_, zgemm_ (time budget: 8192 zgemm_ takes ~40 s a call on 16 cores).")
fi

# NVBLAS: only with a GPU.
if [ -n "$gpu" ] && [ -z "$nvblas" ]; then
  nvblas=$(ls /usr/local/cuda/lib64/libnvblas.so* /usr/local/cuda/targets/*/lib/libnvblas.so* \
             /usr/local/cuda-*/lib64/libnvblas.so* 2>/dev/null | head -n 1)
  [ -n "$nvblas" ] || nvblas=$(timeout 60 find / -xdev -name 'libnvblas.so*' 2>/dev/null | head -n 1)
fi
[ -n "$gpu" ] && [ -z "$nvblas" ] && notes+=("NVBLAS not found (libnvblas.so*): not run.")
openblas=$(ldd "$bin" | awk '/libopenblas/ { print $3 }')

common=(--sizes=$sizes --beta_sizes=$beta_sizes --target_seconds=$target --max_call_seconds=8
        "${routine_args[@]}" --benchmark_out_format=json)
# run NAME [ENV=VALUE...] [-- EXTRA BINARY ARGS]: one configuration; its JSON in $work/NAME$rep.json.
run() {
  local name=$1; shift
  local deadline_var=deadline_$name
  local envs=() extra=(--deadline_seconds=${!deadline_var})
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  [ $# -gt 0 ] && { shift; extra+=("$@"); }
  echo "== $name$rep: ${envs[*]}" | tee -a "$work/logs.txt"
  local start=$SECONDS
  env OPENBLAS_NUM_THREADS=$threads "${envs[@]}" timeout $((${!deadline_var} + 60)) "$bin" "${common[@]}" "${extra[@]}" \
    --benchmark_out="$work/$name$rep.json" \
    --benchmark_context="config=$name,gpu=${gpu:-no GPU},cpu=$cpu" >"$work/$name$rep.out" 2>&1
  local rc=$?
  grep -E '^\[host-compare\]' "$work/$name$rep.out" | grep -E 'FAIL' || true
  { cat "$work/$name$rep.out"; echo "== $name$rep: exit $rc after $((SECONDS - start)) s"; } >>"$work/logs.txt"
  echo "== $name$rep: exit $rc after $((SECONDS - start)) s"
  return $rc
}

status=0
runs=()
use_nvblas=0
if [ -n "$gpu" ] && [ -n "$nvblas" ]; then
  use_nvblas=1
  cat >"$work/nvblas.conf" <<EOF
NVBLAS_LOGFILE $work/nvblas.log
NVBLAS_CPU_BLAS_LIB $(readlink -f "$openblas")
NVBLAS_GPU_LIST ALL
NVBLAS_AUTOPIN_MEM_ENABLED
EOF
  { echo "== nvblas.conf ($nvblas)"; cat "$work/nvblas.conf"; } >>"$work/logs.txt"
fi
for ((i = 1; i <= repeat; i++)); do
  rep=""
  [ "$repeat" -gt 1 ] && rep=-$i
  run openblas -- ${ob_skip:+--skip_above=$ob_skip} || status=1
  runs+=(--openblas "$work/openblas$rep.json")
  if [ "$use_nvblas" = 1 ]; then
    run nvblas LD_PRELOAD="$nvblas" NVBLAS_CONFIG_FILE="$work/nvblas.conf" \
      LD_LIBRARY_PATH="$(dirname "$nvblas"):${LD_LIBRARY_PATH:-}" || status=1
    { echo "== nvblas.log"; cat "$work/nvblas.log" 2>/dev/null; } >>"$work/logs.txt"
    runs+=(--nvblas "$work/nvblas$rep.json")
  fi
  run tileblas LD_PRELOAD="$tileblas" || status=1
  runs+=(--tileblas "$work/tileblas$rep.json")
done

note_args=()
for n in "${notes[@]}"; do note_args+=(--note "$n"); done
cp "$work/logs.txt" "$out/host-compare-logs.txt"
python3 "$table_py" "${runs[@]}" "${note_args[@]}" --out "$out" || status=1
echo "host_blas_compare: wrote $out/host-compare.md, host-compare.json, host-compare-logs.txt (status $status)"
exit $status
