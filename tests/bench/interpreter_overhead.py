#!/usr/bin/env python3
"""Cost of one small eager op from a script: kiln against CPython + PyTorch, same script, same run.

usage: interpreter_overhead.py [--build BUILD_DIR] [--iterations N]
Runs a loop of `y = x + x` on a 4-element tensor N times under each tool; the script times the
loop itself with time.perf_counter (so start-up and import time stay out), best of 3 runs. The
peer is .reference/bin/python (scripts/setup --reference); without it only kiln is measured.
"""
import argparse
import os
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = """import sys
import time
import torch
x = torch.ones(4)
n = int(sys.argv[1])
start = time.perf_counter()
for _ in range(n):
    y = x + x
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
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT)
        script = f.name
    try:
        kiln = per_iteration_us([os.path.join(args.build, "bin", "kiln")], script, args.iterations)
        print(f"kiln: {kiln:.2f} us per `y = x + x`")
        peer = os.path.join(REPO, ".reference", "bin", "python")
        if not os.path.exists(peer):
            print("peer skipped: .reference/bin/python is absent (scripts/setup --reference)")
            return 0
        python = per_iteration_us([peer], script, args.iterations)
        print(f"CPython + PyTorch 2.11: {python:.2f} us per `y = x + x`")
        print(f"ratio kiln/peer: {kiln / python:.2f}")
    finally:
        os.unlink(script)
    return 0


if __name__ == "__main__":
    sys.exit(main())
