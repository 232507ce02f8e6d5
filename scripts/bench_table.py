#!/usr/bin/env python3
"""Turns Google Benchmark JSON from tileblas_bench into markdown tables.

Works for every operation: a benchmark named "<op>/<kernel>/<shape>[/<transposes>]" with counters
`ours`, `ref`, `ratio` and the label "UNIT|YARDSTICK[|KERNEL]" (bench/bench_support.h) becomes one
row. The GPU comes from --gpu, else from the JSON context ("gpu", set by bench/bench_main.cpp); the
date from the JSON context. Several JSON files make one table, each row keeping its own file's GPU
and date (the sweep of one type measured on another machine or day than the others'); a benchmark
named again in a later file replaces the earlier file's row (a newer run of some of the types).

The GEMM shape sweep (bench/bench_sweep.cpp, rows "sweep/<type>/<class>/<m>x<n>x<k>/<ops>", the
label's KERNEL the kernel the call was routed to) has its own tables:
  --sweep-summary   per type: the geometric mean and the minimum of ours / cuBLAS over all shapes
                    and over the shapes whose largest dimension is at least 1024, how many shapes
                    fall below 0.9, the largest rel_diff; then the geometric mean per shape class
  --sweep-rows      every sweep row (with --worst N: the N lowest ratios of each type)

Usage: bench_table.py BENCH.json [BENCH.json ...] [--gpu NAME] [--filter REGEX] [--sweep-summary | --sweep-rows [--worst N]]
"""
import argparse
import json
import math
import re
import sys

# Suffixes Google Benchmark appends to a registered name.
_RUN_SUFFIX = re.compile(r"(/(manual_time|real_time|process_time|iterations:\d+|repeats:\d+|threads:\d+))+$")


def rows_of(data, name_filter):
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or "ours" not in b:
            continue
        name = _RUN_SUFFIX.sub("", b.get("run_name", b["name"]))
        if name_filter and not re.search(name_filter, name):
            continue
        parts = name.split("/")
        op = parts[0]
        kernel = parts[1] if len(parts) > 1 else ""
        shape = "/".join(parts[2:]) if len(parts) > 2 else ""
        unit, yardstick, routed_to = (b.get("label", "").split("|") + ["", ""])[:3]
        yield {
            "name": name,
            "op": op,
            "kernel": kernel,
            "shape": shape,
            "ours": b["ours"],
            "ref": b.get("ref", 0.0),
            "ratio": b.get("ratio", 0.0),
            "unit": unit,
            "yardstick": yardstick,
            "routed_to": routed_to,
            "rel_diff": b.get("rel_diff"),
            "on_gpu": b.get("on_gpu", 1),
        }


def fmt(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


# ---- the GEMM shape sweep ---------------------------------------------------------------------

# Shapes whose largest dimension is at least this are the issue's second summary (the f16/bf16
# minimum target is set over them).
LARGE_DIM = 1024


def sweep_rows(rows):
    """The sweep's rows, each with its type, class, dimensions and transposes parsed from the name."""
    out = []
    for r in rows:
        parts = r["name"].split("/")
        if parts[0] != "sweep" or len(parts) != 5:
            continue
        m, n, k = (int(x) for x in parts[3].split("x"))
        out.append(dict(r, type=parts[1], cls=parts[2], dims=parts[3], ops=parts[4], largest=max(m, n, k)))
    return out


def by_type(rows):
    """{type: [rows]} in the order the types first appear."""
    groups = {}
    for r in rows:
        groups.setdefault(r["type"], []).append(r)
    return groups


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def sweep_summary(rows):
    lines = [
        "| type | shapes | geomean ours/cuBLAS | min | min at | below 0.9 | "
        f"geomean, largest dim >= {LARGE_DIM} | min, largest dim >= {LARGE_DIM} | max rel_diff | GPU | date |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|",
    ]
    groups = by_type(rows)
    for t, rs in groups.items():
        ratios = [r["ratio"] for r in rs if r["ratio"] > 0]
        worst = min(rs, key=lambda r: r["ratio"])
        large = [r["ratio"] for r in rs if r["largest"] >= LARGE_DIM and r["ratio"] > 0]
        rel = [r["rel_diff"] for r in rs if r["rel_diff"] is not None]
        not_on_gpu = sum(1 for r in rs if not r["on_gpu"])
        shapes = f"{len(rs)}" + (f" ({not_on_gpu} not on the GPU)" if not_on_gpu else "")
        lines.append(
            f"| {t} | {shapes} | {geomean(ratios):.3f} | {worst['ratio']:.3f} | {worst['dims']}/{worst['ops']} | "
            f"{sum(1 for x in ratios if x < 0.9)} | {geomean(large):.3f} | {min(large, default=float('nan')):.3f} | "
            f"{max(rel, default=float('nan')):.1e} | {rs[0]['gpu']} | {rs[0]['date']} |")
    classes = []
    for r in rows:
        if r["cls"] not in classes:
            classes.append(r["cls"])
    lines += ["", "| type | " + " | ".join(f"{c}: geomean (min)" for c in classes) + " |",
              "|---|" + "---:|" * len(classes)]
    for t, rs in groups.items():
        cells = []
        for c in classes:
            ratios = [r["ratio"] for r in rs if r["cls"] == c and r["ratio"] > 0]
            cells.append(f"{geomean(ratios):.2f} ({min(ratios):.2f})" if ratios else "")
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def sweep_table(rows, worst):
    lines = ["| type | class | shape | kernel | ours | cuBLAS | ratio | unit |",
             "|---|---|---|---|---:|---:|---:|---|"]
    for t, rs in by_type(rows).items():
        if worst:
            rs = sorted(rs, key=lambda r: r["ratio"])[:worst]
        for r in rs:
            lines.append(f"| {t} | {r['cls']} | {r['dims']}/{r['ops']} | {r['routed_to']} | {fmt(r['ours'])} | "
                         f"{fmt(r['ref'])} | {r['ratio']:.2f} | {r['unit']} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("--gpu", default="", help="GPU name for the table (default: from the JSON context)")
    ap.add_argument("--filter", default="", help="only benchmarks whose name matches this regex")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--sweep-summary", action="store_true", help="the GEMM sweep's summary per type")
    mode.add_argument("--sweep-rows", action="store_true", help="the GEMM sweep's rows")
    ap.add_argument("--worst", type=int, default=0, help="with --sweep-rows: only the N lowest ratios per type")
    args = ap.parse_args()
    by_name = {}  # insertion-ordered: a later file's row takes the earlier row's place
    for name in args.json:
        with open(name) as f:
            data = json.load(f)
        context = data.get("context", {})
        gpu = args.gpu or context.get("gpu", "unknown GPU")
        date = context.get("date", "")[:10]
        for r in rows_of(data, args.filter):
            by_name[r["name"]] = dict(r, gpu=gpu, date=date)
    rows = list(by_name.values())
    if args.sweep_summary or args.sweep_rows:
        rows = sweep_rows(rows)
        if not rows:
            print("(no sweep rows in %s)" % " ".join(args.json))
            return 1
        print(sweep_summary(rows) if args.sweep_summary else sweep_table(rows, args.worst))
        return 0
    if not rows:
        print("(no benchmarks with ours/ref counters in %s)" % " ".join(args.json))
        return 1
    print("| op | kernel | shape | ours | yardstick | yardstick rate | ratio | unit | GPU | date |")
    print("|---|---|---|---:|---|---:|---:|---|---|---|")
    for r in rows:
        print(f"| {r['op']} | {r['kernel']} | {r['shape']} | {fmt(r['ours'])} | {r['yardstick']} | "
              f"{fmt(r['ref'])} | {r['ratio']:.2f} | {r['unit']} | {r['gpu']} | {r['date']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
