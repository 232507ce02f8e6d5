#!/usr/bin/env bash
# Installs what building and testing tileblas needs on Debian 12 (the CUDA toolkit with nvcc is
# expected at /usr/local/cuda or on PATH), then configures and builds into ./build. python3-numpy
# and python3-matplotlib serve tests (Debian's BLAS slot, the README's plot script) only.
# Usage: scripts/setup.sh [extra cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# libblas64-test: the netlib testers built with 64-bit integers and Debian's libblas64.so.3, for
# libtileblas64.so (python3-numpy is also Debian's numpy, standard CBLAS names, for the preload test).
# liblapack-test: LAPACK's linear-equation testers over the reference LAPACK (scripts/lapack_check.sh);
# scalapack-mpi-test and openmpi-bin: ScaLAPACK's test programs (scripts/scalapack_check.sh).
packages=(cmake ninja-build make g++ gfortran pkg-config python3 xz-utils libopenblas-dev libblas-dev libblas-test
          libblas64-test liblapack-test scalapack-mpi-test openmpi-bin libgtest-dev googletest
          libbenchmark-dev python3-numpy python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd=sudo
  echo "== installing: ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
command -v nvcc >/dev/null || { echo "nvcc (CUDA toolkit) not found"; exit 1; }

echo "== configuring and building (this compiles CUDA kernels for sm_80 and sm_90)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
ninja -C build
