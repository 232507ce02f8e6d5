#!/usr/bin/env python3
"""Draws the README's plot from the bench files in docs/bench/: ours against each yardstick.

  plot_bench.py ROUTED.json KERNELS.json HOST_COMPARE.json OUT.png

Panels: fp32 GEMM on device data against cuBLAS (the routed call, main shapes; ROUTED.json); fp32
GEMM on host data under tileblas, OpenBLAS and NVBLAS (HOST_COMPARE.json, written by
scripts/host_blas_compare.sh); the tensor-core GEMMs against cuBLAS and the memory-bound kernels
against cuBLAS and a device copy (KERNELS.json). tileblas_bench rows are read as
scripts/bench_table.py reads them; nothing is typed in.
"""
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_table import rows_of  # noqa: E402

OURS = "#1f77b4"
YARDSTICK = "#9e9e9e"
OTHER = "#ff7f0e"


def load(path):
    with open(path) as f:
        return json.load(f)


def shape_label(shape):
    """'8192x8192x128/NN' -> '8192x8192x128', '4096x4096x4096' -> '4096^3', '2^24' as a power."""
    power = re.fullmatch(r"(\d+)\^(\d+)", shape)
    if power:
        return f"{power[1]}$^{{{power[2]}}}$"
    dims = shape.split("/")[0].split("x")
    if len(dims) == 3 and len(set(dims)) == 1:
        return f"{dims[0]}$^3$"
    if len(dims) == 2 and dims[0] == dims[1]:
        return f"{dims[0]}$^2$"
    return "x".join(dims)


def bars(ax, labels, ours, yard, yard_name, unit, title):
    x = range(len(labels))
    w = 0.4
    ax.bar([i - w / 2 for i in x], ours, w, color=OURS, label="tileblas")
    ax.bar([i + w / 2 for i in x], yard, w, color=YARDSTICK, label=yard_name)
    for i, (o, y) in enumerate(zip(ours, yard)):
        ax.text(i - w / 2, o, f"{o / y:.2f}x", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylim(0, 1.25 * max(ours + yard))
    ax.set_ylabel(unit)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper center", ncol=2)


def device_sgemm(ax, routed):
    rows = list(rows_of(routed, r"^routed/sgemm_device/"))
    bars(ax, [shape_label(r["shape"]) for r in rows], [r["ours"] for r in rows],
         [r["ref"] for r in rows], rows[0]["yardstick"], rows[0]["unit"],
         "fp32 GEMM, device data: routed sgemm_ against cuBLAS (ratio above)")


def tensor_core(ax, kernels):
    pattern = r"^(gemm_f16f32|hgemm|gemm_bf16f32|sgemm_tf32)/gemm_wgmma_.*/(4096x4096x4096|8192x8192x8192)/NN"
    rows = list(rows_of(kernels, pattern))
    names = {"gemm_f16f32": "fp16\u2192fp32", "hgemm": "hgemm", "gemm_bf16f32": "bf16\u2192fp32",
             "sgemm_tf32": "TF32"}
    labels = [f"{names[r['op']]} {shape_label(r['shape'])}" for r in rows]
    bars(ax, labels, [r["ours"] for r in rows], [r["ref"] for r in rows], "cuBLAS", rows[0]["unit"],
         "Tensor-core GEMM (Hopper wgmma rows), device data, against cuBLAS")


def host_sgemm(ax, compare):
    rows = [r for r in compare["rows"] if r["routine"] == "sgemm_" and r["beta"] == "0"]
    n = [r["n"] for r in rows]
    for key, style, color, label in (("tileblas", "o-", OURS, "tileblas (preloaded)"),
                                      ("openblas", "s-", YARDSTICK, "OpenBLAS alone (all threads)"),
                                      ("nvblas", "d-", OTHER, "NVBLAS (preloaded)")):
        points = [(x, r[key]) for x, r in zip(n, rows) if r.get(key)]
        ax.loglog([x for x, _ in points], [y for _, y in points], style, color=color, label=label)
    ax.set_xlabel("n (n x n x n, NN, beta = 0)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title("fp32 GEMM, host data: sgemm_ under tileblas, OpenBLAS and NVBLAS", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(True, which="major", alpha=0.3)


def memory_bound(ax, kernels):
    rows = list(rows_of(kernels, r"^transpose/transpose_tiled_64x64_vec4/\d+x\d+$"))
    rows += list(rows_of(kernels, r"^omatcopy_N/"))
    rows += list(rows_of(kernels, r"^axpy/axpy_vec4/"))
    names = {"transpose": "transpose", "omatcopy_N": "scaled copy", "axpy": "axpy"}
    bars(ax, [f"{names[r['op']]} {shape_label(r['shape'])}" for r in rows],
         [r["ours"] for r in rows], [r["ref"] for r in rows],
         "cublasSgeam / device copy / cublasSaxpy", rows[0]["unit"],
         "Memory-bound kernels, device data")


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    routed, kernels, compare = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
    gpu = routed.get("context", {}).get("gpu", "unknown GPU")
    fig, axes = plt.subplots(2, 2, figsize=(14, 9.5))
    device_sgemm(axes[0][0], routed)
    host_sgemm(axes[0][1], compare)
    tensor_core(axes[1][0], kernels)
    memory_bound(axes[1][1], kernels)
    fig.suptitle(f"tileblas on {gpu}: each panel's sides measured in the same run on the same data")
    sources = ", ".join(os.path.basename(path) for path in sys.argv[1:4])
    fig.text(0.5, 0.005, f"Generated by scripts/plot_bench.py from {sources}", ha="center",
             fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.02, 1, 0.96))
    fig.savefig(sys.argv[4], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
