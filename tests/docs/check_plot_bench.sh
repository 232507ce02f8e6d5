#!/usr/bin/env bash
# scripts/plot_bench.py still draws the README's plot from the bench files docs/bench/README.md
# names (into a temporary file; the committed PNG is left alone). Exits 77 (skipped) without
# Debian's python3-matplotlib.
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
