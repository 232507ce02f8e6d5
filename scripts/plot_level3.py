#!/usr/bin/env python3
"""Draws the README's Level-3 plot from tileblas_bench JSON in docs/bench/: the plans against
cuBLAS on device data, ours / cuBLAS per routine at each size, one panel per element type.

  plot_level3.py OUT.png FILE.json[@REGEX] [FILE.json[@REGEX] ...]

Each file's rows "<t><routine>/<plan...>/<n>x<n>/..." that match its REGEX (Python re.search;
default '/plan/', the plans' own block sizes) are taken; a later file's row replaces an earlier
one's for the same routine, type and size (as the README's table takes the complex double trsm and
trmm rows from the run that measured them with B in panels). Nothing is typed in.
"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROUTINES = ["trsm", "trmm", "syrk", "syr2k", "herk", "her2k", "symm", "hemm"]
TYPES = [("s", "fp32"), ("d", "fp64"), ("c", "complex fp32"), ("z", "complex fp64")]
SIZES = [1024, 4096, 8192]
COLORS = {1024: "#aec7e8", 4096: "#1f77b4", 8192: "#08306b"}


def ratios(specs):
    """{(type letter, routine, n): ratio}, and the GPUs and dates the files name."""
    out, gpus, dates = {}, set(), set()
    for spec in specs:
        path, _, pattern = spec.partition("@")
        pattern = pattern or "/plan/"
        data = json.load(open(path))
        context = data.get("context", {})
        taken = 0
        for b in data["benchmarks"]:
            m = re.match(r"([sdcz])(\w+?)/plan\w*/(\d+)x", b["name"])
            if not m or "ratio" not in b or not re.search(pattern, b["name"]):
                continue
            out[(m[1], m[2], int(m[3]))] = b["ratio"]
            taken += 1
        if taken:
            gpus.add(str(context.get("gpu", "GPU not recorded")))
            dates.add(str(context.get("date", ""))[:10])
    return out, sorted(gpus), sorted(d for d in dates if d)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out_png, specs = sys.argv[1], sys.argv[2:]
    table, gpus, dates = ratios(specs)
    if not table:
        print("no Level-3 plan rows in " + " ".join(specs), file=sys.stderr)
        return 1
    fig, axes = plt.subplots(1, len(TYPES), figsize=(16, 4.2), sharey=True)
    top = max(table.values()) * 1.08
    width = 0.8 / len(SIZES)
    for ax, (letter, title) in zip(axes, TYPES):
        routines = [r for r in ROUTINES if any((letter, r, n) in table for n in SIZES)]
        for i, n in enumerate(SIZES):
            xs = [j + (i - (len(SIZES) - 1) / 2) * width for j in range(len(routines))]
            ys = [table.get((letter, r, n), 0.0) for r in routines]
            ax.bar(xs, ys, width, color=COLORS[n], label=f"{n}")
        ax.axhline(1.0, color="#333333", linewidth=0.8)
        ax.axhline(0.9, color="#999999", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(routines)))
        ax.set_xticklabels([letter + r for r in routines], rotation=45, ha="right")
        ax.set_title(title)
        ax.set_ylim(0, top)
    axes[0].set_ylabel("ours / cuBLAS (device data)")
    axes[0].legend(title="n (square, k = n)", fontsize=8, title_fontsize=8)
    fig.suptitle("Level-3 plans against cuBLAS + synchronise, same buffers, same run: "
                 + ", ".join(gpus) + (" (" + ", ".join(dates) + ")" if dates else ""))
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
