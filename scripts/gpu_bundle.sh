#!/usr/bin/env bash
# Packs what the GPU machine needs into .gpu/bundle.tar.xz (ignored by git, carried by the device
# tool): tileblas's test and bench binaries and library, plus the runtime libraries the GPU
# machine lacks (OpenBLAS, libgfortran, Google Benchmark), the netlib testers, LAPACK's
# linear-equation testers, and the host-pointer comparison (its binary and
# scripts/host_blas_compare.sh at the bundle's root).
# Usage: scripts/gpu_bundle.sh [build-dir] [bundle-dir]   (defaults: build, .gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bundle=${2:-.gpu}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,lib,netlib} "$bundle"

for f in "$build"/tests/tileblas_kernel_tests "$build"/tests/tileblas_api_* "$build"/tests/tileblas_make_calls \
         "$build"/bench/tileblas_bench "$build"/bench/demo/tileblas_demo \
         "$build"/bench/host_compare/tileblas_host_blas_compare; do
  [ -x "$f" ] && cp "$f" "$stage/bin/"
done
cp -P "$build"/compat/libtileblas.so* "$stage/lib/" 2>/dev/null || echo "note: no libtileblas.so in $build (kernel tests and benches do not need it)"
[ -d "$build/tests/netlib" ] && cp -r "$build/tests/netlib" "$stage/" || true

multiarch=/usr/lib/x86_64-linux-gnu
cp -L "$multiarch/libopenblas.so.0" "$stage/lib/libopenblas.so.0"
for lib in libgfortran.so.5 libquadmath.so.0 libbenchmark.so.1debian; do
  cp -L "$multiarch/$lib" "$stage/lib/$lib"
done
# The reference BLAS and the testers (Debian's libblas-test / libblas3).
cp -L "$multiarch/blas/libblas.so.3" "$stage/netlib/libblas.so.3" 2>/dev/null || true
# Every tester (run_netlib.sh runs them all by default) and its input.
for t in "$multiarch"/blas/x*blat[123]* "$multiarch"/blas/?blat[23].in "$multiarch"/blas/?in[23]; do
  cp "$t" "$stage/netlib/" 2>/dev/null || true
done
# LAPACK's linear-equation testers (scripts/lapack_check.sh) over the reference LAPACK and
# OpenBLAS's libblas.so.3: Debian's liblapack-test and libtmglib3, fetched with apt-get download
# (skipped, with a note, where that fails), and liblapack3's reference liblapack.so.3.
debs=$(mktemp -d)
if (cd "$debs" && apt-get download liblapack-test libtmglib3 >/dev/null 2>&1); then
  mkdir -p "$stage/lapack"
  for d in "$debs"/*.deb; do dpkg -x "$d" "$debs/root"; done
  cp "$debs"/root/usr/lib/x86_64-linux-gnu/lapack/xlintst[sdcz] \
     "$debs"/root/usr/lib/x86_64-linux-gnu/lapack/[sdcz]test.in "$stage/lapack/"
  cp -L "$debs"/root/usr/lib/x86_64-linux-gnu/libtmglib.so.3 "$multiarch/lapack/liblapack.so.3" \
     "$multiarch/openblas-pthread/libblas.so.3" "$stage/lapack/"
else
  echo "note: no liblapack-test (apt-get download failed): the bundle has no LAPACK testers"
fi
rm -rf "$debs"
# host_blas_compare.sh runs from the bundle's root (bash /tmp/tb/host_blas_compare.sh OUTDIR).
cp scripts/gpu_run.sh scripts/bench_table.py scripts/host_blas_compare.sh \
   scripts/host_compare_table.py scripts/numpy_check.sh scripts/numpy_bench.py \
   scripts/lapack_check.sh "$stage/" \
   2>/dev/null || true

tar -C "$stage" -cJf "$bundle/bundle.tar.xz" .
ls -la "$bundle/bundle.tar.xz"
