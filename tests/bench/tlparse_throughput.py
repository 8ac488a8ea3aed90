#!/usr/bin/env python3
"""Throughput and peak memory of Kiln's tlparse against tlparse 0.4.3, on the same log, same run.

usage: tlparse_throughput.py [--size-mb N] [--build BUILD_DIR] [--jobs N]
The log is made by concatenating every single-rank real log of ../shared/real (tlparse's own test
logs and the PyTorch 2.11 traces) until it reaches N MB (default 500); it is cached under
BUILD_DIR/bench/. The peer is .reference/bin/tlparse (scripts/setup --reference); without it only
Kiln is measured and the ratio is not printed. Results go to stdout as a Markdown table row.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REAL = os.path.join(REPO, "..", "shared", "real")


def source_logs():
    inputs = os.path.join(REAL, "tlparse-0.4.3", "inputs")
    logs = sorted(glob.glob(os.path.join(inputs, "*.log")) + glob.glob(os.path.join(inputs, "*.txt")))
    logs += sorted(glob.glob(os.path.join(REAL, "pytorch-2.11", "traces", "*", "*.log")))
    return [log for log in logs if os.path.getsize(log) > 0]


def make_log(path, size_mb):
    target = size_mb * 1000 * 1000
    if os.path.exists(path) and os.path.getsize(path) >= target:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    chunks = [open(log, "rb").read() for log in source_logs()]
    chunks = [c if c.endswith(b"\n") else c + b"\n" for c in chunks]
    written = 0
    with open(path + ".tmp", "wb") as out:
        while written < target:
            for chunk in chunks:
                out.write(chunk)
                written += len(chunk)
    os.replace(path + ".tmp", path)


def measure(command, out_dir):
    """Wall seconds and peak RSS (MiB) of one run of command, from the child's own rusage."""
    shutil.rmtree(out_dir, ignore_errors=True)
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    errors = child.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{command[0]} failed ({os.waitstatus_to_exitcode(status)}): {errors[-2000:]}")
    return seconds, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=500)
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    if not os.path.isdir(REAL):
        print(f"skipped: {REAL} is absent, no real logs to build the benchmark input from")
        return 0
    log = os.path.join(args.build, "bench", f"tlparse_{args.size_mb}mb.log")
    make_log(log, args.size_mb)
    megabytes = os.path.getsize(log) / 1e6
    scratch = os.path.join(args.build, "bench", "out")
    kiln = [os.path.join(args.build, "bin", "tlparse"), log, "-o", scratch + "/kiln", "--overwrite",
            "--no-browser", "-j", str(args.jobs)]
    kiln_s, kiln_mib = measure(kiln, scratch + "/kiln")
    print(f"| input MB | tool | seconds | MB/s | peak RSS MiB |")
    print(f"|---|---|---|---|---|")
    print(f"| {megabytes:.0f} | kiln tlparse | {kiln_s:.2f} | {megabytes / kiln_s:.1f} | {kiln_mib:.0f} |")
    peer = os.path.join(REPO, ".reference", "bin", "tlparse")
    if not os.path.exists(peer):
        print("peer skipped: .reference/bin/tlparse is absent (scripts/setup --reference)")
        return 0
    peer_s, peer_mib = measure([peer, log, "-o", scratch + "/peer", "--overwrite", "--no-browser"],
                               scratch + "/peer")
    print(f"| {megabytes:.0f} | tlparse 0.4.3 | {peer_s:.2f} | {megabytes / peer_s:.1f} | {peer_mib:.0f} |")
    print(f"\nspeed ratio kiln/peer: {peer_s / kiln_s:.1f}x; memory ratio peer/kiln: {peer_mib / kiln_mib:.1f}x")
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
