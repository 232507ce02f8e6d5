#!/usr/bin/env python3
"""Times numpy's `a @ b` and `a @ a.T` on n x n matrices in this process, as it is: run it plain
and with libtileblas preloaded (scripts/numpy_check.sh does both in one run) and compare.

    numpy_bench.py OUT.json [--label NAME] [--sizes 4096 8192] [--types float32 ...]

For each size, type and product: the first call timed on its own (with tileblas preloaded it pays
for the cost model's measurements once, at the first call of the process), then calls repeated
until 1 s has passed or 3 were timed, and their median. Each result is checked against the same
rows computed in the next wider precision (float64, complex128): the largest difference over the
largest value, on 8 rows. numpy's own `a @ a.T` is a symmetric rank-k update (cblas_?syrk).
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

WIDER = {"float32": "float64", "float64": "float64", "complex64": "complex128",
         "complex128": "complex128"}


def matrix(rng, n, dtype):
    real = np.float32 if dtype in ("float32", "complex64") else np.float64
    x = rng.standard_normal((n, n), dtype=real)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal((n, n), dtype=real)
    return np.ascontiguousarray(x.astype(dtype))


def timed(f):
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--label", default="plain")
    ap.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    ap.add_argument("--types", nargs="+", default=["float32", "float64", "complex64", "complex128"])
    args = ap.parse_args()
    rng = np.random.default_rng(14)
    rows = []
    for n in args.sizes:
        for dtype in args.types:
            a, b = matrix(rng, n, dtype), matrix(rng, n, dtype)
            for op, f, ref in (
                ("a @ b", lambda: a @ b, lambda w: a[:8].astype(w) @ b.astype(w)),
                ("a @ a.T", lambda: a @ a.T, lambda w: a[:8].astype(w) @ a.T.astype(w)),
            ):
                first, c = timed(f)
                times = []
                while len(times) < 3:
                    t, c = timed(f)
                    times.append(t)
                    if sum(times) >= 1.0:
                        break
                median = statistics.median(times)
                exact = ref(WIDER[dtype])
                err = float(np.max(np.abs(c[:8] - exact)) / max(np.max(np.abs(exact)), 1e-30))
                row = {"n": n, "dtype": dtype, "op": op, "label": args.label,
                       "first_s": first, "median_s": median, "reps": len(times),
                       "rel_err": err}
                rows.append(row)
                print(f"{args.label:9s} n={n:5d} {dtype:10s} {op:8s} first {first * 1e3:9.1f} ms"
                      f"  median {median * 1e3:9.1f} ms ({len(times)} timed)  rel err {err:.1e}",
                      flush=True)
                del c
            del a, b
    with open(args.out, "w") as f:
        json.dump({"label": args.label, "numpy": np.__version__,
                   "preload": os.environ.get("LD_PRELOAD", ""), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
