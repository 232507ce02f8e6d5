#!/usr/bin/env python3
"""Backward error of ?trsm on ill-conditioned upper triangular matrices, through
scipy.linalg.blas (so, with tileblas preloaded, through tileblas's trsm):

    trsm_accuracy.py DIR [N ...]        (default: 1024 2048)
    trsm_accuracy.py --compare PLAIN.jsonl PRELOADED.jsonl    (the two runs' output as a table)

For each order N, type (float32, float64, complex64, complex128) and grade g: U is the R factor of
the QR factorization of Q1 diag(s) Q2^T, Q1, Q2 random orthogonal (unitary) and s graded from 1
down to 10^-g, so cond(U) = 10^g; B is N x N of N(0, 1); X solves U X = B (side L, upper, N,
non-unit). Printed per case: ||U X - B||_F / (||U||_F ||X||_F), the residual computed in the next
wider type (complex128 in complex128), and the type's eps; one JSON object per line. U and B are
made by the first run and saved in DIR (made with whatever BLAS that run has), and read back by
later runs: run it plain first, then preloaded, to compare the two BLAS on the same matrices.
"""
import json
import os
import sys

import numpy as np
import scipy.linalg.blas as blas

WIDER = {np.float32: np.float64, np.float64: np.float64, np.complex64: np.complex128,
         np.complex128: np.complex128}
TRSM = {np.float32: blas.strsm, np.float64: blas.dtrsm, np.complex64: blas.ctrsm,
        np.complex128: blas.ztrsm}
GRADES = {np.float32: (1, 3, 5), np.float64: (1, 6, 11), np.complex64: (1, 3, 5),
          np.complex128: (1, 6, 11)}


def matrix(rng, n, complex_):
    x = rng.standard_normal((n, n))
    if complex_:
        x = x + 1j * rng.standard_normal((n, n))
    return x


def operands(directory, n, dtype, grade):
    path = os.path.join(directory, "%d-%s-%d.npz" % (n, np.dtype(dtype).name, grade))
    if os.path.exists(path):
        saved = np.load(path)
        return saved["u"], saved["b"]
    complex_ = np.issubdtype(dtype, np.complexfloating)
    rng = np.random.default_rng(1000 * n + grade)
    q1, _ = np.linalg.qr(matrix(rng, n, complex_))
    q2, _ = np.linalg.qr(matrix(rng, n, complex_))
    a = (q1 * np.logspace(0, -grade, n)) @ q2.conj().T
    u = np.asfortranarray(np.triu(np.linalg.qr(a, mode="r")).astype(dtype))
    b = np.asfortranarray(matrix(rng, n, complex_).astype(dtype))
    np.savez(path, u=u, b=b)
    return u, b


def compare(plain, preloaded):
    print("| n | type | cond(U) | OpenBLAS | tileblas | tileblas / OpenBLAS | tileblas / eps |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    with open(plain) as fa, open(preloaded) as fb:
        for la, lb in zip(fa, fb):
            a, b = json.loads(la), json.loads(lb)
            assert (a["n"], a["type"], a["grade"]) == (b["n"], b["type"], b["grade"])
            print("| %d | %s | 1e%d | %.2e | %.2e | %.2f | %.2f |" % (
                a["n"], a["type"], a["grade"], a["backward_error"], b["backward_error"],
                b["backward_error"] / a["backward_error"], b["backward_error"] / b["eps"]))


def main():
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
        return
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    sizes = [int(a) for a in sys.argv[2:]] or [1024, 2048]
    for n in sizes:
        for dtype in (np.float32, np.float64, np.complex64, np.complex128):
            for grade in GRADES[dtype]:
                u, b = operands(directory, n, dtype, grade)
                x = TRSM[dtype](1.0, u, b, side=0, lower=0, trans_a=0, diag=0)
                w = WIDER[dtype]
                uw, xw, bw = u.astype(w), x.astype(w), b.astype(w)
                residual = np.linalg.norm(uw @ xw - bw) / (np.linalg.norm(uw) * np.linalg.norm(xw))
                print(json.dumps({"n": n, "type": np.dtype(dtype).name, "grade": grade,
                                  "backward_error": float(residual),
                                  "eps": float(np.finfo(dtype).eps)}), flush=True)


if __name__ == "__main__":
    main()
