#!/usr/bin/env python3
"""Puts benchmark tables (markdown printed by scripts/bench_table.py from the bench's JSON) into
README.md between the markers <!-- bench-table:begin --> and <!-- bench-table:end -->, or, with
--marker NAME, between <!-- NAME:begin --> and <!-- NAME:end --> (host-compare: the table
scripts/host_compare_table.py writes as host-compare.md; numpy-pip: the table
scripts/numpy_check.sh writes as numpy_bench.md, caption first; sweep-table: the GEMM shape sweep's
tables, bench_table.py --sweep-summary and --sweep-rows, through scripts/readme_bench.sh).

Usage: update_readme.py TABLE.md [TABLE.md ...] [--readme README.md] [--marker NAME]
Numbers are never typed into the README by hand: they come from the bench's JSON through
bench_table.py, and from there only through this script.
"""
import argparse
import pathlib
import re
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tables", nargs="+")
    ap.add_argument("--readme", default=str(pathlib.Path(__file__).resolve().parent.parent / "README.md"))
    ap.add_argument("--marker", default="bench-table", help="the marker pair's name (default: bench-table)")
    args = ap.parse_args()
    BEGIN, END = f"<!-- {args.marker}:begin -->", f"<!-- {args.marker}:end -->"
    tables = []
    for name in args.tables:
        table = pathlib.Path(name).read_text().strip()
        # A caption line may come first (numpy_check.sh's table says what it measured there).
        if not any(line.startswith("|") for line in table.splitlines()):
            print(f"{name} holds no table", file=sys.stderr)
            return 1
        tables.append(table)
    table = "\n\n".join(tables)
    readme = pathlib.Path(args.readme)
    text = readme.read_text()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        print(f"{args.readme} has no {BEGIN} ... {END} markers", file=sys.stderr)
        return 1
    readme.write_text(pattern.sub(lambda _: f"{BEGIN}\n{table}\n{END}", text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
