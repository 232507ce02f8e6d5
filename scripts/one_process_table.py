#!/usr/bin/env python3
"""Table of the one-process ratio of bench/host_compare (tileblas_host_blas_compare run with
tileblas preloaded) for several libraries ("before", "after", ...): per row, tileblas / OpenBLAS's
own routine timed in the same process (the bench's gflops_openblas_here), in each of several
processes of each library, and the median of each library's.

Row per (routine, n, C): each library's ratios (the median in bold, then each process's), in the
order the libraries are first named; the last library's GFLOP/s, tileblas's and OpenBLAS's, in its
process of median ratio; where tileblas ran the call (the bench's label; each library's where they
differ).

Checks (a failure prints a FAIL line and makes the exit status 1): every run resolved the routines
it timed to a preloaded tileblas, and every run's own check of C passed.

Writes OUT.md (the table and the notes) and OUT.json ({"what", "command", "rows", "failures",
"runs": {LIBRARY: [...]}}, the raw Google Benchmark outputs), and prints the markdown.

Usage: one_process_table.py --run before=A1.json --run after=B1.json --run before=A2.json ...
                            --out OUT [--title TEXT] [--what TEXT] [--command TEXT] [--note TEXT]...
"""
import argparse
import json
import pathlib
import statistics
import sys

from host_compare_table import BETA_OF, ROUTINES, fmt, rate, results_of


def ratio(entry):
    """tileblas / OpenBLAS in one process, or None."""
    here = entry.get("gflops_openblas_here") if entry is not None else None
    return rate(entry) / here if here and rate(entry) is not None else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", action="append", required=True,
                    help="LIBRARY=FILE: the JSON of one process of that library")
    ap.add_argument("--out", required=True, help="OUT.md and OUT.json are written")
    ap.add_argument("--title", default="One-process ratio", help="the markdown's heading")
    ap.add_argument("--what", default="", help="what the runs are (the JSON's \"what\", the markdown's intro)")
    ap.add_argument("--command", default="", help="the command each process ran (the JSON's \"command\")")
    ap.add_argument("--note", action="append", default=[], help="a line for the notes under the table")
    args = ap.parse_args()

    runs = {}
    for run in args.run:
        side, _, path = run.partition("=")
        runs.setdefault(side, []).append(json.loads(pathlib.Path(path).read_text()))
    libraries = tuple(runs)
    results = {side: [results_of(d) for d in runs[side]] for side in libraries}
    failures = []
    for side in libraries:
        for i, (data, res) in enumerate(zip(runs[side], results[side]), 1):
            context = data.get("context", {})
            for r in sorted({key[0] for key in res}, key=ROUTINES.index):
                where = context.get(r + "from", "")
                if "tileblas" not in pathlib.Path(where).name.lower():
                    failures.append(f"FAIL {side} process {i}: {r} resolved to {where or 'nothing'}, not to tileblas")
            for key, e in res.items():
                if e.get("check_ok", 1) != 1:
                    failures.append(f"FAIL {side} process {i}: {key[0]} n={key[1]} {key[2]}: its result check failed")

    keys = set()
    for side in libraries:
        for res in results[side]:
            keys |= set(res)
    keys = sorted(keys, key=lambda k: (ROUTINES.index(k[0]), k[2], k[1]))

    lines = [f"# {args.title}", ""]
    if args.what:
        lines += [args.what, ""]
    last = libraries[-1]
    lines += ["| routine | n | C | " + " | ".join(f"{side}: ratio (each process)" for side in libraries) +
              f" | {last}: ours / OpenBLAS GFLOP/s | path |",
              "|---|---:|---|" + "---|" * len(libraries) + "---|---|"]
    rows = []
    for key in keys:
        routine, n, variant = key
        row = {"routine": routine, "n": n, "beta": BETA_OF[variant]}
        cells, labels = {}, {}
        for side in libraries:
            entries = [res.get(key) for res in results[side]]
            ratios = [ratio(e) for e in entries]
            timed = [r for r in ratios if r is not None]
            row[side] = ratios
            row[side + "_median"] = statistics.median(timed) if timed else None
            cells[side] = ("not run" if not timed else
                           f"**{row[side + '_median']:.2f}x** (" +
                           ", ".join("-" if r is None else f"{r:.2f}" for r in ratios) + ")")
            labels[side] = sorted({e.get("label", "") for e in entries if e is not None})
            if side == last and timed:
                # The process of median ratio (the lower of the two middle ones).
                middle = sorted((r, i) for i, r in enumerate(ratios) if r is not None)[(len(timed) - 1) // 2][1]
                e = entries[middle]
                row["last_gflops"], row["last_gflops_openblas_here"] = rate(e), e["gflops_openblas_here"]
        gflops = (f"{fmt(row['last_gflops'])} / {fmt(row['last_gflops_openblas_here'])}"
                  if "last_gflops" in row else "-")
        path = ", ".join(labels[last])
        if any(labels[side] != labels[last] for side in libraries):
            path = "; ".join(f"{side}: {', '.join(labels[side])}" for side in libraries)
        row["path"] = path
        rows.append(row)
        lines.append(f"| {routine} | {n} | beta{'=0' if row['beta'] == '0' else row['beta']} | " +
                     " | ".join(cells[side] for side in libraries) + f" | {gflops} | {path} |")
    lines.append("")
    lines.append("Each ratio: tileblas / OpenBLAS in one process (the bench's `gflops_openblas_here`: OpenBLAS's "
                 "own routine, called past the preload, timed in the same process, a batch before each batch "
                 "through tileblas, on the same data); in bold the median of that library's processes.")
    lines.append("")
    lines += [f"- {n}" for n in args.note]
    lines += [f"- **{f}**" for f in failures]
    if not failures:
        lines.append("- Result checks: every run's three sampled elements of C match a long double reference.")
    markdown = "\n".join(lines) + "\n"
    print(markdown)
    for f in failures:
        print(f, file=sys.stderr)
    out = pathlib.Path(args.out)
    out.with_suffix(".md").write_text(markdown)
    out.with_suffix(".json").write_text(json.dumps(
        {"what": args.what, "command": args.command, "rows": rows, "failures": failures,
         "runs": runs}, indent=1) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
