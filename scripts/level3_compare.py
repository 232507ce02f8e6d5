#!/usr/bin/env python3
"""Ratios to cuBLAS of the Level-3 plans' default rows ("<t><routine>/plan/<n>x<n>/...") of
tileblas_bench JSON files, one column per file, as a markdown table:

    level3_compare.py BEFORE.json AFTER.json [--labels before after]
"""
import argparse
import json
import re

ROUTINES = ["trsm", "trmm", "syrk", "syr2k", "herk", "her2k", "symm", "hemm"]
SIZES = (1024, 4096, 8192)


def ratios(path):
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        m = re.match(r"([sdcz])(\w+)/plan/(\d+)x", b["name"])
        if m and "ratio" in b:
            out[(m.group(1) + m.group(2), int(m.group(3)))] = b["ratio"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--labels", nargs="+")
    args = ap.parse_args()
    labels = args.labels or args.files
    tables = [ratios(f) for f in args.files]
    sizes = " / ".join(str(n) for n in SIZES)
    print("| routine | " + " | ".join(f"{l}: {sizes}" for l in labels) + " |")
    print("|---|" + "---|" * len(tables))
    for r in ROUTINES:
        for t in "sdcz":
            cells = [[tab.get((t + r, n)) for n in SIZES] for tab in tables]
            if all(x is None for c in cells for x in c):
                continue
            text = [" / ".join("-" if x is None else f"{x:.2f}" for x in c) for c in cells]
            print(f"| {t}{r} | " + " | ".join(text) + " |")


if __name__ == "__main__":
    main()
