#!/usr/bin/env python3
"""Checks the "cpython" cases of bad_snippets.txt against the running CPython (3.11 expected).

This is how those expectations were made; the Kiln tests read bad_snippets.txt and need no
Python. Usage: python3 check_bad_snippets.py [bad_snippets.txt]
"""
import os
import re
import sys

HEADER = re.compile(r"^#### (\w+) (\w+) (\d+):(\d+) (.*)$")


def read_cases(path):
    cases, current = [], None
    with open(path, encoding="utf-8", newline="") as f:
        for line in f:
            match = HEADER.match(line.rstrip("\n"))
            if match:
                current = {"origin": match[1], "kind": match[2], "line": int(match[3]),
                           "column": int(match[4]), "message": match[5], "source": ""}
                cases.append(current)
            elif current is not None:
                current["source"] += line
    return cases


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "bad_snippets.txt")
    failures = 0
    for case in read_cases(path):
        if case["origin"] != "cpython":
            continue
        try:
            compile(case["source"], "x.py", "exec")
            got = "compiles"
        except SyntaxError as error:
            got = f"{type(error).__name__} {error.lineno}:{error.offset} {error.msg}"
        want = f"{case['kind']} {case['line']}:{case['column']} {case['message']}"
        if got != want:
            failures += 1
            print(f"MISMATCH {case['source']!r}\n  want {want}\n  got  {got}")
    print("all cases agree with CPython" if not failures else f"{failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
