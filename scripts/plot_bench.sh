#!/usr/bin/env bash
# Draws the README's plot (scripts/plot_bench.py) from bench JSON kept in docs/bench/, with Debian's
# python3 and matplotlib (installed if missing):
#   scripts/plot_bench.sh ROUTED.json KERNELS.json HOST_COMPARE.json [OUT.png]
# OUT.png defaults to ROUTED.json's name without "-routed.json": docs/bench/h200-2026-11-22.png.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: $0 ROUTED.json KERNELS.json HOST_COMPARE.json [OUT.png]" >&2; exit 2; }
out=${4:-${1%-routed.json}.png}
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd=sudo
  echo "== installing python3-matplotlib"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-matplotlib >/dev/null
fi
/usr/bin/python3 scripts/plot_bench.py "$1" "$2" "$3" "$out"
echo "wrote $out"
