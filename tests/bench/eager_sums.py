#!/usr/bin/env python3
"""Eager float32 sums (2048x1024): kiln against CPython + PyTorch, same script, same run.

usage: eager_sums.py [--build BUILD_DIR]
Times a.sum(), a.sum(0) and a.sum(1) inside the script (median of 21 calls after a warm-up), so
start-up stays out. The peer is .reference/bin/python (scripts/setup --reference); without it
only kiln is measured. Both use the machine's default thread count.
"""
import argparse
import os
import subprocess
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = """import time
import torch
a = torch.arange(2048 * 1024, dtype=torch.float32).reshape(2048, 1024) % 7
for name, fn in [("sum()", lambda: a.sum()), ("sum(0)", lambda: a.sum(0)), ("sum(1)", lambda: a.sum(1))]:
    fn()
    times = []
    for _ in range(21):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    print(name, times[10] * 1000)
"""


def measure(command, script):
    out = subprocess.run(command + [script], capture_output=True, text=True, check=True).stdout
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines() if line.strip()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    a = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT)
    kiln = measure([os.path.join(a.build, "bin", "kiln")], f.name)
    reference = os.path.join(REPO, ".reference", "bin", "python")
    torch = measure([reference], f.name) if os.path.exists(reference) else {}
    for name, ms in kiln.items():
        peer = torch.get(name)
        print(f"{name:8} kiln {ms:8.2f} ms" + (f"   PyTorch {peer:8.2f} ms   kiln/PyTorch {ms / peer:5.2f}" if peer else ""))
    os.unlink(f.name)


if __name__ == "__main__":
    main()
