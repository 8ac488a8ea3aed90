#!/usr/bin/env python3
"""All-reduce over gloo: kiln's torch.distributed against PyTorch 2.11's, the same script in
the same run, each under its own torchrun (kiln -m torch.distributed.run / python -m ...).

usage: allreduce.py [--build BUILD_DIR] [--ranks N] [--repeat N]

Two ranks on this machine over loopback (TCP), float32 tensors of 1M and 16M elements summed
in place; each size is timed inside the script on rank 0 (median of 9 calls after 2 warm-up
calls, each call waited for), so start-up and rendezvous stay out. Prints one line per size with
kiln's and PyTorch's milliseconds, algorithm bandwidth (bytes / time) and the ratio kiln/PyTorch
(< 1: kiln is faster); with --repeat, the two tools take turns and a last line per size gives
the median over the runs of each. The peer is .reference/bin/python (scripts/setup --reference).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

SCRIPT = r'''import time
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
for numel in (1 << 20, 1 << 24):
    t = torch.ones(numel)
    times = []
    for i in range(11):
        dist.barrier()
        start = time.perf_counter()
        dist.all_reduce(t)
        times.append(time.perf_counter() - start)
    times = sorted(times[2:])
    if dist.get_rank() == 0:
        print(numel, times[len(times) // 2] * 1000, flush=True)
dist.destroy_process_group()
'''


def measure(command, script, ranks):
    out = subprocess.run(command + ["-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={ranks}", script],
                         check=True, capture_output=True, text=True).stdout
    return {int(n): float(ms) for n, ms in (line.split() for line in out.splitlines())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    reference = os.path.join(REPO, ".reference", "bin", "python")
    if not os.path.exists(reference):
        sys.exit("allreduce.py: .reference/bin/python is absent (scripts/setup --reference)")
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "allreduce_ranks.py")
        with open(script, "w") as f:
            f.write(SCRIPT)
        runs = {"kiln": [], "PyTorch": []}
        for _ in range(args.repeat):
            runs["kiln"].append(measure([os.path.join(args.build, "bin", "kiln")], script, args.ranks))
            runs["PyTorch"].append(measure([reference], script, args.ranks))
            report("", runs["kiln"][-1], runs["PyTorch"][-1])
        if args.repeat > 1:
            medians = {tool: {n: statistics.median(r[n] for r in results) for n in results[0]} for tool, results in runs.items()}
            report(f"median of {args.repeat}: ", medians["kiln"], medians["PyTorch"])


def report(label, kiln, torch):
    for numel in sorted(kiln):
        megabytes = numel * 4 / 1e6
        print(f"{label}{numel:>9} floats  kiln {kiln[numel]:8.2f} ms ({megabytes / kiln[numel]:6.2f} GB/s)  "
              f"PyTorch {torch[numel]:8.2f} ms ({megabytes / torch[numel]:6.2f} GB/s)  "
              f"ratio {kiln[numel] / torch[numel]:.2f}")


if __name__ == "__main__":
    main()
