#!/usr/bin/env python3
"""Inductor on bench.py's five CPU workloads: compiled vs kiln's own eager, in the same process.

usage: inductor_workloads.py [--build BUILD_DIR] [--pytorch]
Runs inductor_workloads_model.py under kiln twice with one fresh TORCHINDUCTOR_CACHE_DIR: the
first process compiles every graph (cold), the second finds them in the compile cache (its
"cold" call is a cache hit). Compile cost = first compiled call - one steady-state call. With
--pytorch the same model also runs under .reference/bin/python (PyTorch 2.11's inductor on this
machine; its first compile takes a minute or more).
"""
import argparse
import json
import os
import subprocess
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inductor_workloads_model.py")


def run(command, cache_dir):
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache_dir)
    out = subprocess.run(command + [MODEL], check=True, capture_output=True, text=True, env=env).stdout
    return {row["name"]: row for row in (json.loads(line) for line in out.splitlines() if line.startswith("{"))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--pytorch", action="store_true")
    args = parser.parse_args()
    kiln = [os.path.join(args.build, "bin", "kiln")]
    with tempfile.TemporaryDirectory() as cache:
        cold = run(kiln, cache)
        warm = run(kiln, cache)
    print("| workload | eager ms | compiled ms | speedup | compile cost ms | cache-hit compile ms | rel. error |")
    print("|---|---|---|---|---|---|---|")
    for name, row in cold.items():
        hit = warm[name]
        print(f"| {name} | {row['eager_s'] * 1e3:.2f} | {row['compiled_s'] * 1e3:.2f} | {row['eager_s'] / row['compiled_s']:.2f}x | "
              f"{(row['cold_compile_s'] - row['compiled_s']) * 1e3:.1f} | {(hit['cold_compile_s'] - hit['compiled_s']) * 1e3:.1f} | "
              f"{row['rel_err']:.1e} |")
    peer = os.path.join(REPO, ".reference", "bin", "python")
    if args.pytorch:
        if not os.path.exists(peer):
            print("PyTorch skipped: .reference/bin/python is absent (scripts/setup --reference)")
            return 0
        with tempfile.TemporaryDirectory() as cache:
            torch = run([peer], cache)
        for name, row in torch.items():
            print(f"PyTorch 2.11 {name}: eager {row['eager_s'] * 1e3:.2f} ms, compiled {row['compiled_s'] * 1e3:.2f} ms "
                  f"({row['eager_s'] / row['compiled_s']:.2f}x), first call {row['cold_compile_s']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
