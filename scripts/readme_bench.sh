#!/usr/bin/env bash
# Regenerates the README's performance tables from bench JSON kept in docs/bench/:
#   scripts/readme_bench.sh ROUTED.json KERNELS.json[,KERNELS.json...] [SWEEP.json ...]
# ROUTED.json gives the routed calls (what a program calling sgemm_ gets) and the host kernel's
# widest variant (NN); KERNELS.json (several, comma-separated: a benchmark named again in a later
# file replaces the earlier row) the transpose rows the router uses (aligned, and odd sizes), the
# tensor-core GEMMs (the large-tile wgmma rows at 4096^3 and 8192^3: for an fp32 C the persistent
# 256x128 ones the router takes and the persistent 128x256 ones, and the mma.sync rows), axpy and
# the scaled copy; the SWEEP.json files, when given, the GEMM shape sweep's summary and its five
# worst shapes per type, in one table (each type's rows with their own file's GPU and date;
# docs/bench/README.md says which files the README uses).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/bench_table.py "$1" --filter '^routed/|^host/sgemm_host_small_avx512_32x8/.*/NN' \
  >"$tmp/1.md"
IFS=, read -r -a kernels <<<"$2"
python3 scripts/bench_table.py "${kernels[@]}" \
  --filter '^transpose/transpose_tiled_64x64_vec4/|^transpose/transpose_sheared_64x64/(4097|8191)x' >"$tmp/2.md"
python3 scripts/bench_table.py "${kernels[@]}" \
  --filter '^(gemm_f16f32|gemm_bf16f32)/(gemm_wgmma_[a-z0-9]+_persistent_(256x128|128x256)x[0-9]+|gemm_mma_[a-z0-9]+_128x128x[0-9]+)/(4096x4096x4096|8192x8192x8192)/NN|^(hgemm|sgemm_tf32)/(gemm_wgmma_[a-z0-9]+_128x256x[0-9]+|gemm_mma_[a-z0-9]+_128x128x[0-9]+)/(4096x4096x4096|8192x8192x8192)/NN|^(axpy/axpy_vec4|omatcopy_N)/' \
  >"$tmp/3.md"
python3 scripts/update_readme.py "$tmp/1.md" "$tmp/2.md" "$tmp/3.md"
if [ $# -ge 3 ]; then
  python3 scripts/bench_table.py "${@:3}" --sweep-summary >"$tmp/4.md"
  python3 scripts/bench_table.py "${@:3}" --sweep-rows --worst 5 >"$tmp/5.md"
  python3 scripts/update_readme.py --marker sweep-table "$tmp/4.md" "$tmp/5.md"
fi
