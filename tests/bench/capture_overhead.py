#!/usr/bin/env python3
"""Cost of graph capture: kiln against PyTorch 2.11's Dynamo on the same 10-op function.

usage: capture_overhead.py [--build BUILD_DIR]
Cold capture: the first call of a freshly reset compiled function minus a cached call (backend
"eager", so no code generation counts), median over repeats. Guard check: kiln times its guard
set on a cache hit directly (build/bench/capture_overhead); PyTorch reports its own guard
evaluation latency in its guards log ("Guard eval latency = ... us"). The peer is
.reference/bin/python (scripts/setup --reference); without it only kiln is measured.
"""
import argparse
import os
import re
import subprocess
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "capture_overhead_model.py")
# The peer times the model's compiled function itself (the model file is shared with kiln's side).
PEER_TIMING = """
import time
cold = []
for _ in range(20):
    torch._dynamo.reset()
    start = time.perf_counter()
    compiled(*args)
    first = time.perf_counter() - start
    start = time.perf_counter()
    compiled(*args)
    cold.append((first - (time.perf_counter() - start)) * 1e6)
cold.sort()
print("cold_capture_us", cold[len(cold) // 2])
"""


def kiln_numbers(build):
    out = subprocess.run([os.path.join(build, "bench", "capture_overhead")], check=True, capture_output=True, text=True).stdout
    return {key: float(value) for key, value in (line.split() for line in out.splitlines())}


def peer_numbers(python):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(open(MODEL).read() + PEER_TIMING)
        script = f.name
    try:
        env = dict(os.environ, TORCH_LOGS="guards")
        result = subprocess.run([python, script], check=True, capture_output=True, text=True, env=env)
    finally:
        os.unlink(script)
    cold = float(re.search(r"cold_capture_us (\S+)", result.stdout).group(1))
    latencies = [float(v) for v in re.findall(r"Guard eval latency = ([0-9.]+) us", result.stderr)]
    latencies.sort()
    return {"cold_capture_us": cold, "guard_check_us": latencies[len(latencies) // 2]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    args = parser.parse_args()
    kiln = kiln_numbers(args.build)
    print(f"kiln: cold capture {kiln['cold_capture_us']:.1f} us, guard check {kiln['guard_check_us']:.3f} us "
          f"({int(kiln['guards'])} guards)")
    peer = os.path.join(REPO, ".reference", "bin", "python")
    if not os.path.exists(peer):
        print("peer skipped: .reference/bin/python is absent (scripts/setup --reference)")
        return 0
    torch = peer_numbers(peer)
    print(f"PyTorch 2.11: cold capture {torch['cold_capture_us']:.1f} us, guard check {torch['guard_check_us']:.3f} us")
    print(f"ratio (PyTorch / kiln): cold capture {torch['cold_capture_us'] / kiln['cold_capture_us']:.0f}x, "
          f"guard check {torch['guard_check_us'] / kiln['guard_check_us']:.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
