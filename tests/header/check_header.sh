#!/usr/bin/env bash
# include/tileblas.h beside the CBLAS headers users already include: OpenBLAS's cblas.h (Debian:
# <cblas-openblas.h>), netlib's <cblas-netlib.h>, and an MKL-style header (mkl_style.h here), in
# both include orders, as C and as C++ (several standards), warnings as errors. Each program is
# linked with libtileblas and run (use_extensions.c checks a few results).
#   check_header.sh CC CXX INCLUDE_DIR LIBTILEBLAS_DIR
set -uo pipefail
cc=$1 cxx=$2 include_dir=$3 lib_dir=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
warnings=(-Wall -Wextra -Werror -pedantic)
failed=0 passed=0

for other in '<cblas-openblas.h>' '<cblas-netlib.h>' '"mkl_style.h"'; do
  for order in tileblas_first other_first; do
    order_flag=()
    [ $order = tileblas_first ] && order_flag=(-DTILEBLAS_FIRST)
    for lang in c99 c11 c++98 c++11 c++17; do
      case $lang in
        c*+*) compiler=$cxx language=c++ ;;
        *) compiler=$cc language=c ;;
      esac
      what="tileblas.h with $other, $order, -std=$lang"
      exe="$tmp/prog"
      if ! "$compiler" -x $language -std=$lang "${warnings[@]}" "${order_flag[@]}" \
          "-DOTHER_HEADER=$other" -I"$include_dir" -I"$here" "$here/use_extensions.c" -x none \
          -L"$lib_dir" -ltileblas -Wl,-rpath,"$lib_dir" -o "$exe" 2>"$tmp/log"; then
        echo "FAIL: $what does not compile:"
        sed 's/^/    /' "$tmp/log" | head -n 15
        failed=$((failed + 1))
      elif ! "$exe"; then
        echo "FAIL: $what: the program's checks failed"
        failed=$((failed + 1))
      else
        passed=$((passed + 1))
      fi
    done
  done
done
echo "$passed combinations compiled and ran, $failed failed"
[ $failed -eq 0 ]
