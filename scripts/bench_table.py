#!/usr/bin/env python3
"""Turns Google Benchmark JSON from tileblas_bench into a markdown table.

Works for every operation: a benchmark named "<op>/<kernel>/<shape>[/<transposes>]" with counters
`ours`, `ref`, `ratio` and the label "UNIT|YARDSTICK" (bench/bench_support.h) becomes one row.
The GPU comes from --gpu, else from the JSON context ("gpu", set by bench/bench_main.cpp); the date
from the JSON context.

Usage: bench_table.py BENCH.json [--gpu NAME] [--filter REGEX]
"""
import argparse
import json
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
        unit, _, yardstick = b.get("label", "").partition("|")
        yield {
            "op": op,
            "kernel": kernel,
            "shape": shape,
            "ours": b["ours"],
            "ref": b.get("ref", 0.0),
            "ratio": b.get("ratio", 0.0),
            "unit": unit,
            "yardstick": yardstick,
        }


def fmt(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--gpu", default="", help="GPU name for the table (default: from the JSON context)")
    ap.add_argument("--filter", default="", help="only benchmarks whose name matches this regex")
    args = ap.parse_args()
    with open(args.json) as f:
        data = json.load(f)
    context = data.get("context", {})
    gpu = args.gpu or context.get("gpu", "unknown GPU")
    date = context.get("date", "")[:10]
    rows = list(rows_of(data, args.filter))
    if not rows:
        print("(no benchmarks with ours/ref counters in %s)" % args.json)
        return 1
    print("| op | kernel | shape | ours | yardstick | yardstick rate | ratio | unit | GPU | date |")
    print("|---|---|---|---:|---|---:|---:|---|---|---|")
    for r in rows:
        print(f"| {r['op']} | {r['kernel']} | {r['shape']} | {fmt(r['ours'])} | {r['yardstick']} | "
              f"{fmt(r['ref'])} | {r['ratio']:.2f} | {r['unit']} | {gpu} | {date} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
