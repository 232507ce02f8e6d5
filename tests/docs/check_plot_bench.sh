#!/usr/bin/env bash
# scripts/plot_bench.py, scripts/plot_level3.py and scripts/plot_sweep.py still draw the README's plots from the bench
# files docs/bench/README.md names (into a temporary file; the committed PNGs are left alone).
# Exits 77 (skipped) without Debian's python3-matplotlib.
#   check_plot_bench.sh SOURCE_DIR
set -uo pipefail
src=$1
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || { echo "SKIP: python3-matplotlib is not installed"; exit 77; }
out=$(mktemp --suffix=.png)
trap 'rm -f "$out"' EXIT
bench=$src/docs/bench
/usr/bin/python3 "$src/scripts/plot_bench.py" "$bench/h200-2026-11-22-routed.json" \
  "$bench/h200-2026-11-22-kernels.json" "$bench/h200-2026-11-23-host-compare.json" "$out" ||
  { echo "FAIL: plot_bench.py failed"; exit 1; }
head -c 8 "$out" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || { echo "FAIL: not a PNG"; exit 1; }
echo "plot drawn: $(stat -c %s "$out") bytes"
# The Level-3 plot (scripts/plot_level3.py), from the files its committed PNG was drawn from.
/usr/bin/python3 "$src/scripts/plot_level3.py" "$out" \
  "$bench/h100-2026-11-26-level3-final.json@^[sdcz](trsm|trmm|syrk|syr2k|herk|her2k|symm|hemm)/plan/" ||
  { echo "FAIL: plot_level3.py failed"; exit 1; }
head -c 8 "$out" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || { echo "FAIL: not a PNG"; exit 1; }
echo "Level-3 plot drawn: $(stat -c %s "$out") bytes"
# The shape-sweep plot (scripts/plot_sweep.py), from the sweep file the README's tables come from.
/usr/bin/python3 "$src/scripts/plot_sweep.py" "$out" "$bench/h100-2026-11-28-sweep-all-peel-call-stream.json" ||
  { echo "FAIL: plot_sweep.py failed"; exit 1; }
head -c 8 "$out" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || { echo "FAIL: not a PNG"; exit 1; }
echo "sweep plot drawn: $(stat -c %s "$out") bytes"
