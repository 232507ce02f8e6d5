#!/usr/bin/env python3
"""Draws the README's GEMM shape-sweep plot from tileblas_bench JSON in docs/bench/: ours / cuBLAS
for every sweep shape, one panel per type, the shapes grouped by class in the sweep's order.

  plot_sweep.py OUT.png SWEEP.json [SWEEP.json ...]

Rows are parsed as scripts/bench_table.py parses them (a later file's row replaces an earlier
one's for the same benchmark); the title names the GPUs and dates the files record. Nothing is
typed in.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_table import by_type, geomean, rows_of, sweep_rows  # noqa: E402

TYPE_NAMES = {"f32": "fp32", "f16f32": "fp16 (fp32 C)", "bf16f32": "bf16 (fp32 C)", "f64": "fp64",
              "c32": "complex fp32", "c64": "complex fp64"}
CLASS_COLORS = {"square": "#1f77b4", "odd": "#ff7f0e", "trans": "#2ca02c", "panel": "#9467bd",
                "tall": "#8c564b", "skinny": "#e377c2"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, files = sys.argv[1], sys.argv[2:]
    rows, gpus, dates = {}, set(), set()
    for path in files:
        with open(path) as f:
            data = json.load(f)
        context = data.get("context", {})
        gpus.add(context.get("gpu", "?"))
        dates.add(context.get("date", "?")[:10])
        for r in sweep_rows(rows_of(data, "^sweep/")):
            rows[r["name"]] = r
    groups = by_type(list(rows.values()))
    fig, axes = plt.subplots(len(groups), 1, figsize=(12, 2.0 * len(groups) + 1.2), sharey=True)
    for ax, (t, type_rows) in zip(axes, groups.items()):
        ratios = [r["ratio"] for r in type_rows]
        ax.bar(range(len(type_rows)), ratios, width=0.8,
               color=[CLASS_COLORS.get(r["cls"], "#7f7f7f") for r in type_rows])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xlim(-0.6, len(type_rows) - 0.4)
        ax.set_ylim(0.4, 5)
        # Every type runs the same shapes in the same order: the last panel names them.
        ax.set_xticks(range(len(type_rows)))
        ax.set_xticklabels([f"{r['dims']}/{r['ops']}" for r in type_rows] if ax is axes[-1] else [],
                           rotation=90, fontsize=6)
        ax.set_ylabel("ours / cuBLAS")
        ax.set_title(f"{TYPE_NAMES.get(t, t)}: geometric mean {geomean(ratios):.3f}, "
                     f"min {min(ratios):.3f}", fontsize=9, loc="left")
        ax.set_yscale("log")
        ax.set_yticks([0.5, 0.75, 1, 1.5, 2, 3, 4])
        ax.set_yticklabels(["0.5", "0.75", "1", "1.5", "2", "3", "4"])
        ax.tick_params(axis="x", length=0)
        ax.minorticks_off()
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in CLASS_COLORS.values()]
    fig.legend(handles, list(CLASS_COLORS), loc="upper right", ncol=len(CLASS_COLORS), fontsize=8)
    fig.suptitle(f"GEMM shape sweep, ours / cuBLAS per shape (log scale), "
                 f"{', '.join(sorted(gpus))}, {', '.join(sorted(dates))}", fontsize=10, x=0.01,
                 ha="left")
    fig.tight_layout(rect=(0, 0, 1, 0.975))
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
