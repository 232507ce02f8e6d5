#!/usr/bin/env bash
# Registers libtileblas as an alternative for Debian's libblas.so.3 (the BLAS that numpy, R, Octave
# and every program linked with -lblas load), or removes it. Needs root.
#   scripts/debian-alternative.sh install LIBRARY [PRIORITY]   (default priority 200)
#   scripts/debian-alternative.sh remove LIBRARY
# LIBRARY is the libtileblas.so.0 to register, ideally an installed one (cmake --install build
# --prefix /usr/local: /usr/local/lib/libtileblas.so.0); the alternatives system records its path.
# A priority above OpenBLAS's (100) makes it the choice of a link group in automatic mode; a group
# an administrator set by hand keeps its choice until `update-alternatives --config
# libblas.so.3-x86_64-linux-gnu`. After `remove`, the group falls back to the best remaining one.
#
# tileblas's own CPU BLAS stays OpenBLAS (libopenblas.so.0, loaded privately): a libblas.so.3 that
# resolves back to libtileblas is refused (src/cpu_blas.cpp).
set -euo pipefail
usage() {
  echo "usage: $0 install LIBRARY [PRIORITY] | remove LIBRARY" >&2
  exit 2
}
[ $# -ge 2 ] || usage
action=$1
library=$(readlink -f "$2")
priority=${3:-200}
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
group=libblas.so.3-$multiarch
link=/usr/lib/$multiarch/libblas.so.3

case $action in
  install)
    [ -f "$library" ] || { echo "$0: no such library: $2" >&2; exit 1; }
    nm -D --defined-only "$library" | grep ' tileblas_version$' >/dev/null ||
      { echo "$0: $library is not libtileblas" >&2; exit 1; }
    update-alternatives --install "$link" "$group" "$library" "$priority"
    echo "registered $library for $link (priority $priority); now: $(readlink -f "$link")"
    ;;
  remove)
    update-alternatives --remove "$group" "$library"
    echo "removed $library; $link is now $(readlink -f "$link")"
    ;;
  *)
    usage
    ;;
esac
