#!/usr/bin/env python3
"""Inductor on bench.py's five CPU workloads: compiled vs kiln's own eager, in the same process.

usage: inductor_workloads.py [--build BUILD_DIR] [--pytorch]
Runs inductor_workloads_model.py under kiln twice with one fresh TORCHINDUCTOR_CACHE_DIR: the
first process compiles every graph (cold), three more find them in the compile cache (their
"cold" call is a cache hit; the median of the three is shown). The compile time is Dynamo's own (compile_times(): the frame's whole
compile, capture to linked kernels); "first call - steady call" also counts what the first run of
the compiled code pays once (fresh output buffers, the kernel thread starting). With
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
    """Per workload: its JSON row, with compile_s (the frame's whole compile, from the compile
    times table printed after the row) added."""
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache_dir)
    out = subprocess.run(command + [MODEL], check=True, capture_output=True, text=True, env=env).stdout
    rows = {}
    row = None
    for line in out.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            rows[row["name"]] = row
        elif line.startswith("_compile.compile_inner") and row is not None:
            row["compile_s"] = float(line.split()[-1].split(",")[-1])
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--pytorch", action="store_true")
    args = parser.parse_args()
    kiln = [os.path.join(args.build, "bin", "kiln")]
    with tempfile.TemporaryDirectory() as cache:
        cold = run(kiln, cache)
        # Three processes hit the cache; per workload, the one with the median compile.
        hits = [run(kiln, cache) for _ in range(3)]
        warm = {name: sorted((h[name] for h in hits), key=lambda row: row["compile_s"])[1] for name in cold}
    print("| workload | eager ms | compiled ms | speedup | compile ms | first call - steady call ms | cache-hit compile ms | "
          "cache-hit first call - steady call ms | rel. error |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, row in cold.items():
        hit = warm[name]
        print(f"| {name} | {row['eager_s'] * 1e3:.2f} | {row['compiled_s'] * 1e3:.2f} | {row['eager_s'] / row['compiled_s']:.2f}x | "
              f"{row['compile_s'] * 1e3:.1f} | {(row['cold_compile_s'] - row['compiled_s']) * 1e3:.1f} | {hit['compile_s'] * 1e3:.1f} | "
              f"{(hit['cold_compile_s'] - hit['compiled_s']) * 1e3:.1f} | {row['rel_err']:.1e} |")
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
