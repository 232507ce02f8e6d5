#!/usr/bin/env bash
# Installs the build into a fresh prefix and builds and runs a consumer project against it, once
# through find_package(tileblas) and once through pkg-config:
#   check_install.sh BUILD_DIR CONSUMER_SOURCE_DIR
set -euo pipefail
build=$1 consumer=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/install" >/dev/null
echo "installed:"
(cd "$prefix/install" && find . -type f -o -type l | sort | sed 's/^/  /')
PKG_CONFIG_PATH=$(dirname "$(find "$prefix/install" -name tileblas.pc)") \
  cmake -S "$consumer" -B "$prefix/build" -DCMAKE_PREFIX_PATH="$prefix/install" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$prefix/build" >/dev/null
"$prefix/build/consumer_cmake"
"$prefix/build/consumer_pkgconfig"
