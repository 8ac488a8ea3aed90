#!/usr/bin/env python3
"""Speed and peak memory of `tlparse diff` on two large logs (issue: two 250 MB logs in under 10 s),
against peers measured in the same run: reading both files (cat) and Kiln's tlparse report of one.

usage: tlparse_diff_throughput.py [--size-mb N] [--build BUILD_DIR]
The two logs are the two ranks of ../shared/real/pytorch-2.11/distributed/ddp_compile, each
concatenated with itself until it reaches N MB (default 250); cached under BUILD_DIR/bench/.
Results go to stdout as Markdown table rows.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RANKS = os.path.join(REPO, "..", "shared", "real", "pytorch-2.11", "distributed", "ddp_compile", "trace")


def make_log(source, path, size_mb):
    target = size_mb * 1000 * 1000
    if os.path.exists(path) and os.path.getsize(path) >= target:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    chunk = open(source, "rb").read()
    with open(path + ".tmp", "wb") as out:
        written = 0
        while written < target:
            out.write(chunk)
            written += len(chunk)
    os.replace(path + ".tmp", path)


def measure(command):
    """Wall seconds and peak RSS (MiB) of one run of command, from the child's own rusage."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{command[0]} failed: {child.stderr.read().decode(errors='replace')[-2000:]}")
    return seconds, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=250)
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    args = parser.parse_args()
    if not os.path.isdir(RANKS):
        print(f"skipped: {RANKS} is absent, no real logs to build the benchmark input from")
        return 0
    logs = []
    for rank in (0, 1):
        log = os.path.join(args.build, "bench", f"ddp_rank_{rank}_{args.size_mb}mb.log")
        make_log(os.path.join(RANKS, f"dedicated_log_torch_trace_rank_{rank}.log"), log, args.size_mb)
        logs.append(log)
    megabytes = sum(os.path.getsize(log) for log in logs) / 1e6
    tlparse = os.path.join(args.build, "bin", "tlparse")
    scratch = os.path.join(args.build, "bench", "diff_out")
    shutil.rmtree(scratch, ignore_errors=True)
    runs = [
        ("tlparse diff A B", [tlparse, "diff", logs[0], logs[1], "-o", scratch + "/diff", "--overwrite", "--no-browser"], megabytes),
        ("cat A B > /dev/null", ["cat", logs[0], logs[1]], megabytes),
        ("tlparse A (report)", [tlparse, logs[0], "-o", scratch + "/report", "--overwrite", "--no-browser"],
         os.path.getsize(logs[0]) / 1e6),
    ]
    print("| what | input MB | seconds | MB/s | peak RSS MiB |")
    print("|---|---|---|---|---|")
    for name, command, size in runs:
        seconds, mib = measure(command)
        print(f"| {name} | {size:.0f} | {seconds:.2f} | {size / seconds:.1f} | {mib:.0f} |")
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
