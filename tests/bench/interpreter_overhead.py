#!/usr/bin/env python3
"""Cost of one small eager op from a script: kiln against CPython + PyTorch, same script, same run.

usage: interpreter_overhead.py [--build BUILD_DIR] [--iterations N] [--statements add,neg,...]
Runs a loop of one statement on a 4-element tensor N times under each tool (`y = x + x`, the
issue's measure, then other small-op shapes: a number operand, a reduction, a torch function, a
method, an in-place method, and the bare loop); the script times the loop itself with
time.perf_counter (so start-up and import time stay out), best of 3 runs. The peer is
.reference/bin/python (scripts/setup --reference); without it only kiln is measured.
"""
import argparse
import os
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STATEMENTS = {
    "add": "y = x + x",
    "mul_number": "y = x * 2",
    "sum": "y = x.sum()",
    "relu": "y = torch.relu(x)",
    "neg_method": "y = x.neg()",
    "add_inplace": "x.add_(1)",
    "bare_loop": "y = x",
}
SCRIPT = """import sys
import time
import torch
x = torch.ones(4)
n = int(sys.argv[1])
start = time.perf_counter()
for _ in range(n):
    {statement}
print((time.perf_counter() - start) / n * 1e6)
"""


def per_iteration_us(runner, script, iterations):
    best = float("inf")
    for _ in range(3):
        result = subprocess.run(runner + [script, str(iterations)], check=True, capture_output=True, text=True)
        best = min(best, float(result.stdout.strip().splitlines()[-1]))
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--iterations", type=int, default=200000)
    parser.add_argument("--statements", default=",".join(STATEMENTS), help="names among " + ", ".join(STATEMENTS))
    args = parser.parse_args()
    peer = os.path.join(REPO, ".reference", "bin", "python")
    if not os.path.exists(peer):
        print("peer skipped: .reference/bin/python is absent (scripts/setup --reference)")
        peer = None
    print(f"{'statement':<20} {'kiln us':>8} {'PyTorch us':>11} {'ratio':>6}")
    for name in args.statements.split(","):
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(SCRIPT.format(statement=STATEMENTS[name]))
            script = f.name
        try:
            kiln = per_iteration_us([os.path.join(args.build, "bin", "kiln")], script, args.iterations)
            python = per_iteration_us([peer], script, args.iterations) if peer else None
        finally:
            os.unlink(script)
        peer_text = f"{python:11.3f} {kiln / python:6.2f}" if python else f"{'-':>11} {'-':>6}"
        print(f"{STATEMENTS[name]:<20} {kiln:8.3f} {peer_text}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
