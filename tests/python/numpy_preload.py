#!/usr/bin/env python3
"""Debian's numpy (python3-numpy, built on the standard CBLAS names) with libtileblas preloaded.

float32, float64, complex64 and complex128 matrix products, plain and on transposed views, and
`a @ a.T` (which numpy computes with cblas_?syrk, filling in the other triangle itself) must be
routed by tileblas (TILEBLAS_VERBOSE=1 names cblas_sgemm .. cblas_zgemm and cblas_ssyrk ..
cblas_zsyrk) and equal, element for element, what the same numpy computes without tileblas. The
data are small integers, so every path (CPU BLAS, tileblas's host kernel, the GPU) gives the exact
result; only the sign of an exact zero may differ (OpenBLAS's complex kernels give -0.0 where a sum
is exactly zero, tileblas's host kernel +0.0), which IEEE equality, and every BLAS contract, leave
open. And numpy's own
xerbla_ (its extension modules define one that raises ValueError, loaded RTLD_LOCAL) must still get
LAPACK's errors, although the preloaded tileblas exports a default xerbla_ that LAPACK binds first.

    numpy_preload.py LIBTILEBLAS        (exit 77, skipped, when this python has no numpy)
"""
import os
import re
import subprocess
import sys
import tempfile

TYPES = ["float32", "float64", "complex64", "complex128"]
ROUTED = {"float32": ("cblas_sgemm", "cblas_ssyrk"), "float64": ("cblas_dgemm", "cblas_dsyrk"),
          "complex64": ("cblas_cgemm", "cblas_csyrk"),
          "complex128": ("cblas_zgemm", "cblas_zsyrk")}


def compute(out_dir):
    """The products, saved as OUT_DIR/<type>_<case>.npy."""
    import numpy as np

    rng = np.random.default_rng(14)
    for name in TYPES:
        t = np.dtype(name)

        def ints(*shape):
            x = rng.integers(-3, 4, size=shape).astype(t)
            if t.kind == "c":
                x = x + 1j * rng.integers(-3, 4, size=shape).astype(t)
            return x

        a, b = ints(67, 45), ints(45, 33)
        big_a, big_b = ints(300, 200), ints(200, 260)
        cases = {
            "a_b": a @ b,
            "at_b": ints(45, 67).T @ b,  # a transposed view: another transpose flag
            "a_bt": a @ ints(33, 45).T,
            "big": big_a @ big_b,
            "a_at": big_a @ big_a.T,  # numpy: cblas_?syrk
            "stacked": ints(3, 20, 30) @ ints(3, 30, 10),
        }
        for case, value in cases.items():
            np.save(os.path.join(out_dir, f"{name}_{case}.npy"), value)
    # numpy's test_xerbla_override: a bad argument to LAPACK must reach numpy's handler.
    try:
        from numpy.linalg import lapack_lite
    except ImportError:
        lapack_lite = None
    if lapack_lite is not None and hasattr(lapack_lite, "dorgqr"):
        a = np.array([[1.0]])
        try:
            lapack_lite.dorgqr(1, 1, 1, a, 0, a, a, 0, 0)
            outcome = "no error raised"
        except ValueError as e:
            outcome = str(e)
        with open(os.path.join(out_dir, "xerbla.txt"), "w") as f:
            f.write(outcome)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--compute":
        compute(sys.argv[2])
        return 0
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    lib = os.path.abspath(sys.argv[1])
    try:
        import numpy as np
    except ImportError:
        print(f"SKIP: {sys.executable} has no numpy (install python3-numpy)")
        return 77
    print(f"numpy {np.__version__} from {os.path.dirname(np.__file__)}")
    failed = False
    with tempfile.TemporaryDirectory() as plain, tempfile.TemporaryDirectory() as routed:
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith("TILEBLAS_")}
        subprocess.run([sys.executable, __file__, "--compute", plain], env=env, check=True)
        env_tb = dict(env, LD_PRELOAD=lib, TILEBLAS_VERBOSE="1")
        run = subprocess.run([sys.executable, __file__, "--compute", routed], env=env_tb,
                             stderr=subprocess.PIPE, text=True)
        lines = run.stderr.splitlines()
        calls = [l for l in lines if re.match(r"tileblas: [a-z_0-9]+ ", l)]
        others = [l for l in lines if l not in calls]
        print(f"with tileblas: {len(calls)} calls routed; first ones:")
        print("\n".join("  " + l for l in calls[:4]))
        if others:
            print("other output:\n" + "\n".join("  " + l for l in others))
        if run.returncode != 0:
            print(f"FAIL: exit status {run.returncode} with tileblas")
            return 1
        for name, routines in ROUTED.items():
            for routine in routines:
                if not any(l.startswith(f"tileblas: {routine} ") for l in calls):
                    print(f"FAIL: no {name} product was routed by tileblas ({routine})")
                    failed = True
        if any(re.match(r"tileblas: (warning|error)", l) for l in lines):
            print("FAIL: tileblas warned")
            failed = True
        if os.path.exists(os.path.join(plain, "xerbla.txt")):
            outcomes = [open(os.path.join(d, "xerbla.txt")).read() for d in (plain, routed)]
            print(f"  numpy's xerbla_: plain {outcomes[0]!r}, with tileblas {outcomes[1]!r}")
            if outcomes[1] != outcomes[0] or "parameter number 5" not in outcomes[1]:
                print("FAIL: LAPACK's error did not reach numpy's xerbla_ with tileblas preloaded")
                failed = True
        for f in sorted(os.listdir(plain)):
            if not f.endswith(".npy"):
                continue
            x, y = np.load(os.path.join(plain, f)), np.load(os.path.join(routed, f))
            same = x.dtype == y.dtype and x.shape == y.shape and bool((x == y).all())
            print(f"  {f[:-4]:22s} {x.dtype}{list(x.shape)}: {'equal' if same else 'DIFFERENT'}")
            failed |= not same
    print("FAILED" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
