#!/usr/bin/env python3
"""Counts what a ctest run did, test case by test case, and says why cases were skipped.

ctest reports a gtest binary as one passed test even when most of its cases skipped (every GPU
case on a machine without one). This reads ctest's JUnit file (ctest --output-junit) and the
XML report each gtest binary wrote (GTEST_OUTPUT, set by tests/CMakeLists.txt): a gtest binary
counts as its cases, any other test as one case. Prints one line per test, the skip reasons with
their counts, the failed cases, and last a line "N passed, N failed, N skipped".

  test_summary.py CTEST_JUNIT_XML GTEST_RESULTS_DIR

Exits 1 when any case failed or ctest ran no test, else 0.
"""
import collections
import os
import sys
import xml.etree.ElementTree as ET


def first_line(text):
    """The first line of a gtest message after its "file:line" prefix line."""
    lines = [l.strip() for l in (text or "").splitlines() if l.strip()]
    if len(lines) > 1 and ":" in lines[0] and lines[0].rsplit(":", 1)[1].isdigit():
        lines = lines[1:]
    return lines[0] if lines else "(no message)"


def gtest_cases(path):
    """(passed, failed, skipped) case names with messages, from a gtest XML report."""
    passed, failed, skipped = [], [], []
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f'{case.get("classname")}.{case.get("name")}'
        failure = case.find("failure")
        if failure is not None:
            failed.append((name, first_line(failure.get("message"))))
        elif case.get("result") == "skipped" or case.find("skipped") is not None:
            skip = case.find("skipped")
            skipped.append((name, first_line(skip.get("message") if skip is not None else "")))
        elif case.get("status") == "run":
            passed.append((name, ""))
    return passed, failed, skipped


def last_output_line(case):
    out = case.find("system-out")
    lines = [l.strip() for l in (out.text or "").splitlines() if l.strip()] if out is not None else []
    return lines[-1] if lines else "(no output)"


def main():
    junit, results_dir = sys.argv[1], sys.argv[2]
    tests = ET.parse(junit).getroot().findall("testcase")
    totals = collections.Counter()
    skip_reasons = collections.Counter()
    failures = []
    width = max([len(t.get("name")) for t in tests] + [10])
    print("== test cases (a gtest binary counts as its cases, any other test as one)")
    for test in tests:
        name = test.get("name")
        ctest_failed = test.find("failure") is not None or test.get("status") == "fail"
        ctest_skipped = test.get("status") in ("notrun", "disabled") or test.find("skipped") is not None
        report = os.path.join(results_dir, name + ".xml")
        if os.path.exists(report) and not ctest_skipped:
            passed, failed, skipped = gtest_cases(report)
            if ctest_failed and not failed:  # crashed, or failed outside any case
                failed = [(name, "the test binary failed: " + last_output_line(test))]
        elif ctest_skipped:
            passed, failed, skipped = [], [], [(name, last_output_line(test))]
        elif ctest_failed:
            passed, failed, skipped = [], [(name, last_output_line(test))], []
        else:
            passed, failed, skipped = [(name, "")], [], []
        totals.update(passed=len(passed), failed=len(failed), skipped=len(skipped))
        skip_reasons.update(why for _, why in skipped)
        failures += [(name, case, why) for case, why in failed]
        cases = len(passed) + len(failed) + len(skipped)
        print(f"  {name:<{width}}  {cases:4d} case{'s' if cases != 1 else ' '}: {len(passed)} passed, "
              f"{len(failed)} failed, {len(skipped)} skipped")
    if skip_reasons:
        print("== skipped, by reason")
        for why, n in skip_reasons.most_common():
            print(f"  {n:5d}  {why}")
    if failures:
        print("== failed")
        for test, case, why in failures:
            print(f"  {test}: {why}" if case == test else f"  {test}: {case}: {why}")
    print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
    return 1 if totals["failed"] or not tests else 0


if __name__ == "__main__":
    sys.exit(main())
