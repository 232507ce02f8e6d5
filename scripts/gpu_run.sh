#!/usr/bin/env bash
# Runs on the GPU machine (device tool), from the repository root, with the bundle folder made by
# scripts/gpu_bundle.sh carried (BUNDLE=.gpu by default):
#   scripts/gpu_run.sh STEP...   where STEP is one of
#     kernel_tests[=FILTER]  api_tests[=FILTER]  api_tests_modegpu[=FILTER]  netlib
#     sanitize[=FILTER]  bench[=FILTER]  bench_base[=FILTER]  demo
#     bench_forced=KERNEL@FILTER   the benches matching FILTER with TILEBLAS_FORCE_KERNEL=KERNEL
#                                  (what routing those calls to KERNEL would give; JSON in
#                                  forced_KERNEL.json, logs appended to bench_forced.log)
#     lapack[=PRECISIONS]          LAPACK's linear-equation testers with tileblas preloaded and
#                                  TILEBLAS_MODE=gpu against the same testers plain:
#                                  scripts/lapack_check.sh (PRECISIONS: e.g. s,d; default all), the
#                                  testers' output under lapack/
#     numpy[=STEPS]                pip numpy and scipy with tileblas preloaded: scripts/numpy_check.sh
#                                  STEPS (comma-separated: info, tests, bench; default all),
#                                  log in numpy_check.log
# Logs go to $OUT (or ./gpu-out); a short summary is printed last.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out" /tmp/tb
tar -C /tmp/tb -xJf "$root/${BUNDLE:-.gpu}/bundle.tar.xz"
# cuBLAS (the benches' yardstick) from the machine's CUDA toolkit or its Python wheels.
cublas_dirs=$(ls -d /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
  $(python3 -c 'import nvidia.cublas, os; print(os.path.dirname(nvidia.cublas.__file__) + "/lib")' 2>/dev/null) 2>/dev/null | tr '\n' ':')
export LD_LIBRARY_PATH=/tmp/tb/lib:${cublas_dirs}${LD_LIBRARY_PATH:-}
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-16}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
summary=()
for step in "$@"; do
  name=${step%%=*}
  filter=${step#*=}; [ "$filter" = "$step" ] && filter='*'
  start=$(date +%s)
  case $name in
    kernel_tests)
      /tmp/tb/bin/tileblas_kernel_tests --gtest_filter="$filter" --gtest_brief=1 \
        >"$out/$name.log" 2>&1
      rc=$? ;;
    api_tests|api_tests_modegpu)  # one executable per API test file; _modegpu: TILEBLAS_MODE=gpu
      rc=0
      mode=auto; [ "$name" = api_tests_modegpu ] && mode=gpu
      : >"$out/$name.log"
      for t in /tmp/tb/bin/tileblas_api_*; do
        echo "== $(basename "$t") (TILEBLAS_MODE=$mode)" >>"$out/$name.log"
        TILEBLAS_MODE=$mode "$t" --gtest_filter="$filter" --gtest_brief=1 >>"$out/$name.log" 2>&1 || rc=1
      done ;;
    demo)
      /tmp/tb/bin/tileblas_demo >"$out/$name.log" 2>&1
      rc=$? ;;
    numpy)  # writes numpy_check.log, numpy_tests.txt, numpy_bench.json and numpy_bench.md itself
      numpy_steps=()
      [ "$filter" != '*' ] && IFS=, read -r -a numpy_steps <<<"$filter"
      bash /tmp/tb/numpy_check.sh /tmp/tb/lib/libtileblas.so.0 "$out" "${numpy_steps[@]}" \
        >/dev/null 2>&1
      rc=$?
      name=numpy_check ;;
    lapack)
      lapack_precisions=()
      [ "$filter" != '*' ] && IFS=, read -r -a lapack_precisions <<<"$filter"
      TILEBLAS_MODE=gpu bash /tmp/tb/lapack_check.sh /tmp/tb/lib/libtileblas.so.0 "$out/lapack" \
        "${lapack_precisions[@]}" >"$out/lapack.log" 2>&1
      rc=$? ;;
    sanitize)
      compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/tb/bin/tileblas_kernel_tests \
        --gtest_filter="$filter" --gtest_brief=1 >"$out/sanitize.log" 2>&1
      rc=$? ;;
    netlib)
      (cd /tmp/tb/netlib && TILEBLAS_MODE=gpu bash ./run_netlib.sh /tmp/tb/lib/libtileblas.so.0) \
        >"$out/netlib.log" 2>&1
      rc=$? ;;
    bench|bench_base)  # bench_base: another build's bench binary (BENCH_BASE), for before/after
      bin=/tmp/tb/bin/tileblas_bench
      [ "$name" = bench_base ] && bin=${BENCH_BASE:-/tmp/tb/bin/tileblas_bench_base}
      "$bin" --benchmark_filter="${filter/\*/.}" \
        --benchmark_out="$out/$name.json" --benchmark_out_format=json >"$out/$name.log" 2>&1
      rc=$?
      python3 /tmp/tb/bench_table.py "$out/$name.json" --gpu "$(cut -d, -f1 "$out/gpu.txt")" \
        >"$out/${name}_table.md" 2>&1
      # The GEMM shape sweep's rows, if any: its summary per type and its worst shapes.
      if grep -q '"name": "sweep/' "$out/$name.json" 2>/dev/null; then
        { python3 /tmp/tb/bench_table.py "$out/$name.json" --gpu "$(cut -d, -f1 "$out/gpu.txt")" \
            --sweep-summary; echo
          python3 /tmp/tb/bench_table.py "$out/$name.json" --sweep-rows --worst 8; } \
          >"$out/${name}_sweep.md" 2>&1
      fi ;;
    bench_forced)
      kernel=${filter%%@*}
      echo "== TILEBLAS_FORCE_KERNEL=$kernel --benchmark_filter=${filter#*@}" >>"$out/bench_forced.log"
      TILEBLAS_FORCE_KERNEL=$kernel /tmp/tb/bin/tileblas_bench --benchmark_filter="${filter#*@}" \
        --benchmark_out="$out/forced_$kernel.json" --benchmark_out_format=json \
        >>"$out/bench_forced.log" 2>&1
      rc=$? ;;
    *) echo "unknown step $name"; rc=2 ;;
  esac
  summary+=("$name rc=$rc $(( $(date +%s) - start ))s")
  tail -n 15 "$out/$name.log" 2>/dev/null
done
for t in "$out"/bench_table.md "$out"/bench_base_table.md "$out"/bench_sweep.md \
         "$out"/bench_base_sweep.md; do
  [ -f "$t" ] && cat "$t"
done
printf '%s\n' "${summary[@]}"
