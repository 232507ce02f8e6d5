#!/usr/bin/env python3
"""Joins the three runs of bench/host_compare (tileblas_host_blas_compare) made by
scripts/host_blas_compare.sh into one table: host-pointer ?gemm_ under OpenBLAS alone, NVBLAS
preloaded and tileblas preloaded, on the same machine in the same run (and the Level-3 routines
?trsm_, ?trmm_, ?syrk_, ?herk_, ?syr2k_, ?her2k_, ?symm_, ?hemm_ where the runs have them).

Row per (routine, n, beta): tileblas GFLOP/s, OpenBLAS, NVBLAS, tileblas/OpenBLAS, tileblas/NVBLAS,
tileblas/OpenBLAS in one process (where the tileblas run timed OpenBLAS's own routine too,
alternating with the call through tileblas: gflops_openblas_here), where tileblas ran the call,
GPU model, date. A configuration that was not run (no GPU, skipped by
the time budget, failed) shows "not run"; the reasons follow the table.

Checks (a failure prints a FAIL line and makes the exit status 1):
- each routine a run timed resolved to its library (a preload that did not interpose would
  otherwise pass as the library it replaced);
- each run's own check (three elements of C against a long double dot product; herk's and
  her2k's diagonal real; syrk's, herk's, syr2k's and her2k's other triangle left as it was);
- the same three elements of the NVBLAS and tileblas runs agree with the OpenBLAS run's values
  within the sum of the two runs' tolerances.

Writes OUT/host-compare.md (the table, then the notes; scripts/update_readme.py --marker
host-compare puts it in the README) and OUT/host-compare.json (rows, failures, notes and the three
raw Google Benchmark outputs; with repeated runs the first of each under "runs", the others under
"more_runs"), and prints the markdown.

Usage: host_compare_table.py --openblas A.json [--nvblas B.json] --tileblas C.json
                             [--note TEXT]... [--out DIR]
Each of --openblas, --nvblas, --tileblas may be given once per repeated run (host_blas_compare.sh
--repeat): each row then takes, per configuration, the repetition of median rate.
"""
import argparse
import json
import math
import pathlib
import re
import sys

CONFIGS = ("openblas", "nvblas", "tileblas")
LIBRARY_OF = {"openblas": "openblas", "nvblas": "nvblas", "tileblas": "tileblas"}
# Row order: by operation, then type; herk, her2k and hemm exist in the complex types only.
ROUTINES = tuple(t + op
                 for op in ("gemm_", "trsm_", "trmm_", "syrk_", "herk_", "syr2k_", "her2k_", "symm_", "hemm_")
                 for t in ("cz" if op in ("herk_", "her2k_", "hemm_") else "sdcz"))
# Each operation as bench/host_compare calls it, and its flops a call as LAPACK's timers count them
# (LAWN 41) in s, d and in c, z (None: no such routine), for the footnotes.
OPERATIONS = {
    "gemm_": ("C = alpha A B + beta C (N, N)", "2n^3", "8n^3"),
    "trsm_": ("B = A^-1 B (side L, lower, N, non-unit, B n x n restored untimed before every call), "
              "checked as A X against B", "n^3", "4n^3 + 2n^2"),
    "trmm_": ("B = A B (side L, lower, N, non-unit, B restored untimed before every call)", "n^3", "4n^3 + 2n^2"),
    "syrk_": ("C = A A^T (lower, N, k = n, beta 0), an element above the diagonal left as it was",
              "n^2(n+1)", "4n^2(n+1)"),
    "herk_": ("C = A A^H (lower, N, k = n, beta 0), its diagonal real and an element above it left as it was",
              None, "4n^2(n+1)"),
    "syr2k_": ("C = A B^T + B A^T (lower, N, k = n, beta 0), an element above the diagonal left as it was",
               "2n^3 + n", "8n^3 + 2n"),
    "her2k_": ("C = A B^H + B A^H (lower, N, k = n, beta 0), its diagonal real and an element above "
               "it left as it was", None, "8n^3 + 2n"),
    "symm_": ("C = A B (side L, lower, beta 0), A symmetric from its lower triangle: its upper triangle random "
              "and not to be read", "2n^3", "8n^3"),
    "hemm_": ("C = A B (side L, lower, beta 0), A hermitian from its lower triangle: its upper triangle and "
              "the imaginary parts of its diagonal random and not to be read", None, "8n^3"),
}
BETA_OF = {"NN": "0", "NN_beta": "!=0", "LN": "0", "LL": "0", "LLNN": "-"}
_RUN_SUFFIX = re.compile(r"(/(manual_time|real_time|process_time|iterations:\d+|repeats:\d+|threads:\d+))+$")
_NAME = re.compile(r"^host_(?:gemm|l3)/([sdcz](?:gemm|trsm|trmm|syrk|herk|syr2k|her2k|symm|hemm)_)/(\d+)/(NN|NN_beta|LLNN|LN|LL)$")


def load(path):
    """The run's JSON, or None with the reason."""
    if path is None:
        return None, "not run"
    try:
        with open(path) as f:
            return json.load(f), ""
    except (OSError, ValueError) as e:
        return None, f"no output ({e.__class__.__name__}: the run failed; see host-compare-logs.txt)"


def results_of(data):
    """{(routine, n, variant): benchmark entry} of one run."""
    out = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        m = _NAME.match(_RUN_SUFFIX.sub("", b.get("run_name", b["name"])))
        if m:
            out[(m.group(1), int(m.group(2)), m.group(3))] = b
    return out


def median_results(per_run):
    """One {key: entry} from a run's, or from repeated runs': per key the entry of median rate (the
    lower of the two middle ones; one whose result check failed, if any), or the first run's where
    none has a rate."""
    merged = {}
    for key in set().union(*per_run) if per_run else ():
        entries = [r[key] for r in per_run if key in r]
        timed = sorted((e for e in entries if rate(e) is not None), key=rate)
        failed = [e for e in timed if e.get("check_ok", 1) != 1]  # a failed check is never hidden
        merged[key] = failed[0] if failed else timed[(len(timed) - 1) // 2] if timed else entries[0]
    return merged


def fmt(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def rate(entry):
    """GFLOP/s of a benchmark entry that ran, else None."""
    if entry is None or entry.get("error_occurred") or "gflops" not in entry:
        return None
    return entry["gflops"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for c in CONFIGS:
        ap.add_argument("--" + c, action="append",
                        help=f"JSON of the {c} run (given again for each repeated run: a row takes the "
                             "repetition of median rate)")
    ap.add_argument("--note", action="append", default=[], help="a line for the notes under the table")
    ap.add_argument("--out", help="folder for host-compare.md and host-compare.json")
    args = ap.parse_args()

    runs, more_runs, results, why_absent, repeats = {}, {}, {}, {}, 1
    for c in CONFIGS:
        loaded = [load(path) for path in (getattr(args, c) or [None])]
        datas = [data for data, _ in loaded if data]
        runs[c] = datas[0] if datas else None
        more_runs[c] = datas[1:]
        results[c] = median_results([results_of(data) for data in datas])
        repeats = max(repeats, len(datas))
        if not datas:
            why_absent[c] = loaded[0][1]
    if not results["tileblas"] and not results["openblas"]:
        print("host_compare_table: neither the OpenBLAS nor the tileblas run has results", file=sys.stderr)
        return 1

    failures, notes = [], list(args.note)
    contexts = {c: (runs[c] or {}).get("context", {}) for c in CONFIGS}
    gpu = next((contexts[c]["gpu"] for c in CONFIGS if contexts[c].get("gpu")), "no GPU")
    date = next((contexts[c]["date"][:10] for c in ("tileblas", "openblas", "nvblas") if contexts[c].get("date")), "")

    # Which library each routine a run timed reached (bench/host_compare records <routine>from).
    for c in CONFIGS:
        for r in sorted({key[0] for key in results[c]}, key=ROUTINES.index):
            where = contexts[c].get(r + "from", "")
            if LIBRARY_OF[c] not in pathlib.Path(where).name.lower():
                failures.append(f"FAIL {c} run: {r} resolved to {where or 'nothing'}, not to {LIBRARY_OF[c]}")
    for c in CONFIGS:
        if runs[c] is None and getattr(args, c) is not None:
            notes.append(f"{c}: {why_absent[c]}.")
    if contexts["openblas"].get("openblas_config"):
        notes.append(f"OpenBLAS: {contexts['openblas']['openblas_config']}, "
                     f"{contexts['openblas'].get('openblas_threads', '?')} threads; "
                     f"CPU: {contexts['openblas'].get('cpu', '?')}.")
    if contexts["tileblas"].get("tileblas_device") is not None:
        notes.append(f"tileblas: mode {contexts['tileblas'].get('tileblas_mode', '?')}, device "
                     f"\"{contexts['tileblas']['tileblas_device']}\", CPU BLAS "
                     f"{contexts['tileblas'].get('tileblas_cpu_blas', '?')}.")

    keys = set()
    for c in CONFIGS:
        keys |= set(results[c])
    order = {r: i for i, r in enumerate(ROUTINES)}
    keys = sorted(keys, key=lambda k: (order[k[0]], k[1], k[2]))

    rows, skip_reasons, wrong = [], {}, set()
    for key in keys:
        routine, n, variant = key
        entry = {c: results[c].get(key) for c in CONFIGS}
        row = {"routine": routine, "n": n, "beta": BETA_OF[variant], "gpu": gpu, "date": date}
        for c in CONFIGS:
            e = entry[c]
            row[c] = rate(e)
            if e is not None and e.get("error_occurred"):
                skip_reasons.setdefault(f"{c}: {e.get('error_message', 'not run')}", []).append(f"{routine} {n}")
            if e is not None and rate(e) is not None and e.get("check_ok", 1) != 1:
                wrong.add((key, c))
                failures.append(f"FAIL {c} run: {routine} n={n} beta {row['beta']}: its own result check "
                                f"failed (error {e.get('err_ratio', float('nan')):.3g} x the tolerance)")
        # The same elements against the OpenBLAS run's values.
        ref = entry["openblas"]
        for c in ("nvblas", "tileblas"):
            e = entry[c]
            if rate(e) is None or rate(ref) is None:
                continue
            for i in range(3):
                k = str(i)
                if "v" + k + "_re" not in e or "v" + k + "_re" not in ref:
                    continue
                diff = math.hypot(e["v" + k + "_re"] - ref["v" + k + "_re"], e["v" + k + "_im"] - ref["v" + k + "_im"])
                tol = e["tol" + k] + ref["tol" + k]
                if not diff <= tol:
                    wrong.add((key, c))
                    failures.append(f"FAIL {c} run: {routine} n={n} beta {row['beta']}: element {i} is "
                                    f"({e['v' + k + '_re']:.9g}, {e['v' + k + '_im']:.9g}), OpenBLAS's "
                                    f"({ref['v' + k + '_re']:.9g}, {ref['v' + k + '_im']:.9g}): "
                                    f"difference {diff:.3g} > tolerance {tol:.3g}")
        tb = entry["tileblas"]
        if tb is not None and "tileblas_route" in tb:
            side = {1: "CPU", 2: "GPU"}.get(int(tb["tileblas_route"]), "?")
            row["tileblas_ran_on"] = f"{side}: {tb.get('label', '')}".rstrip(": ")
        else:
            row["tileblas_ran_on"] = ""
        row["tileblas_over_openblas"] = row["tileblas"] / row["openblas"] if row["tileblas"] and row["openblas"] else None
        row["tileblas_over_nvblas"] = row["tileblas"] / row["nvblas"] if row["tileblas"] and row["nvblas"] else None
        here = tb.get("gflops_openblas_here") if tb is not None and rate(tb) is not None else None
        row["tileblas_over_openblas_here"] = row["tileblas"] / here if here else None
        row["wrong"] = sorted(c for c in CONFIGS if (key, c) in wrong)
        rows.append(row)
    for reason, where in skip_reasons.items():
        notes.append(f"{reason}: {', '.join(where)}.")

    def cell(r, c):
        if r[c] is None:
            return "not run"
        return fmt(r[c]) + (" **WRONG**" if c in r["wrong"] else "")

    ratio = lambda x: f"{x:.2f}" if x is not None else "-"
    lines = ["| routine | n | beta | tileblas GFLOP/s | OpenBLAS GFLOP/s | NVBLAS GFLOP/s | tileblas/OpenBLAS | "
             "tileblas/NVBLAS | tileblas/OpenBLAS, one process | tileblas ran on | GPU | date |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['routine']} | {r['n']} | {r['beta']} | {cell(r, 'tileblas')} | {cell(r, 'openblas')} | "
                     f"{cell(r, 'nvblas')} | {ratio(r['tileblas_over_openblas'])} | {ratio(r['tileblas_over_nvblas'])} | "
                     f"{ratio(r['tileblas_over_openblas_here'])} | {r['tileblas_ran_on']} | {r['gpu']} | {r['date']} |")
    lines.append("")
    present = [op for op in OPERATIONS if any(r["routine"][1:] == op for r in rows)]

    def count(op):
        _, real, cplx = OPERATIONS[op]
        return f"?{op} {real} (s, d), {cplx} (c, z)" if real else f"?{op} {cplx}"

    lines.append("Host pointers, square n x n operands; beta !=0: alpha and beta nonzero (complex for c/z), C read. "
                 "GFLOP/s from the median call after a warm-up call. "
                 + ("Same binary, same data, one machine, one run: OpenBLAS alone, NVBLAS preloaded, tileblas preloaded."
                    if repeats == 1 else
                    f"Same binary, same data, one machine: OpenBLAS alone, NVBLAS preloaded and tileblas preloaded, "
                    f"each run {repeats} times in turn; each cell is the median of its configuration's runs."))
    if any(r["tileblas_over_openblas_here"] for r in rows):
        lines.append("")
        lines.append("tileblas/OpenBLAS, one process: in the tileblas run, OpenBLAS's own routine (its definition, "
                     "called past the preload) timed in the same process, a batch of it before each batch through "
                     "tileblas, on the same data: the two under the same conditions (the threads' state, the caches), "
                     "free of the spread between processes that the other columns carry.")
    lines.append("")
    lines.append("Flops as LAPACK's timers count them (LAWN 41): M multiplications and A additions are M + A flops "
                 "in s, d and 6M + 2A in c, z (8 a complex multiply-add); a call: "
                 + "; ".join(count(op) for op in present) + ".")
    lines.append("")
    lines.append("Calls: " + "; ".join(f"?{op} {OPERATIONS[op][0]}" for op in present) + ".")
    lines.append("")
    lines += [f"- {n}" for n in notes]
    lines += [f"- **{f}**" for f in failures]
    if not failures:
        lines.append("- Result checks: every run's three sampled elements of C match a long double reference, "
                     "and the NVBLAS and tileblas runs match the OpenBLAS run's values.")
    markdown = "\n".join(lines) + "\n"
    print(markdown)
    for f in failures:
        print(f, file=sys.stderr)

    if args.out:
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "host-compare.md").write_text(markdown)
        (out / "host-compare.json").write_text(json.dumps(
            {"gpu": gpu, "date": date, "rows": rows, "failures": failures, "notes": notes,
             "runs": {c: runs[c] for c in CONFIGS if runs[c] is not None}, "repeats": repeats,
             "more_runs": {c: more_runs[c] for c in CONFIGS if more_runs[c]}}, indent=1) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
