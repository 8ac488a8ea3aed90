#!/usr/bin/env python3
"""The minifier's acceptance cases (issue 8): ../shared/real/pytorch-2.11/programs/minify_model.py
under `minify`, against what PyTorch 2.11's minifier did on the same program (recorded in
../shared/real/pytorch-2.11/minifier/: its output and /usr/bin/time of each run).

usage: minify_acceptance.py [--build BUILD_DIR] [--backend NAME] [--jobs N]
Cases: compile_error, runtime_error (level 2) and accuracy (level 4) after aot; dynamo_backend after
dynamo. The inductor cases compile with the script's default backend, kiln's inductor, whose
cpp.inject_relu_bug_TESTING_ONLY knob breaks the relu; --backend NAME compiles them with another
AOT backend (aot_eager_relu_bug_TESTING_ONLY honours the same knob). Each case runs in a fresh folder; wall time includes the script's first
run. Prints one Markdown row per case: seconds, tests run, nodes and inputs before -> after, the
repro's call nodes, and whether `kiln repro.py` fails; then PyTorch's recorded numbers.
"""
import argparse
import glob
import os
import re
import subprocess
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REAL = os.path.join(REPO, "..", "shared", "real", "pytorch-2.11")
MODEL = os.path.join(REAL, "programs", "minify_model.py")
CASES = [("compile_error", "aot", 2), ("runtime_error", "aot", 2), ("accuracy", "aot", 4), ("dynamo_backend", "dynamo", 2)]


def call_nodes(repro):
    text = open(repro).read()
    body = text[text.index("def forward"):].split("\n\n")[0]
    return sum(1 for line in body.splitlines()[1:] if " = " in line and not line.strip().startswith("return"))


def run_case(build, mode, after, level, backend, jobs):
    folder = tempfile.mkdtemp(prefix="minify_" + mode + "_")
    command = [os.path.join(build, "bin", "minify"), "--after=" + after, "--level=" + str(level), "--jobs", str(jobs)]
    if after == "aot" and backend:
        command += ["--backend", backend]
    start = time.perf_counter()
    result = subprocess.run(command + [MODEL, mode], cwd=folder, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    summary = re.search(r"Minified (\d+) -> (\d+) nodes \((\d+) -> (\d+) inputs\): (\d+) tests run", result.stdout)
    repro = os.path.join(folder, "repro.py")
    reproduces = os.path.exists(repro) and subprocess.run([os.path.join(build, "bin", "kiln"), "repro.py"], cwd=folder,
                                                          capture_output=True).returncode != 0
    return {
        "seconds": seconds,
        "tests": summary.group(5) if summary else "-",
        "nodes": summary.group(1) + " -> " + summary.group(2) if summary else "-",
        "inputs": summary.group(3) + " -> " + summary.group(4) if summary else "-",
        "calls": call_nodes(repro) if os.path.exists(repro) else "-",
        "reproduces": "yes" if reproduces else "no",
    }


def pytorch_case(name):
    folder = os.path.join(REAL, "minifier", name + "_cpu")
    if not os.path.isdir(folder):
        return None
    out = open(os.path.join(folder, "minify.out")).read()
    timing = open(os.path.join(folder, "minify.time")).read()
    seconds = float(re.search(r"([0-9.]+) s", timing).group(1))
    timed_out = "status 124" in timing
    nodes = re.findall(r"SUCCESS: Went from (\d+) to (\d+) nodes", out)
    return {
        "seconds": seconds,
        "queries": len(re.findall(r"^>>  Loading inputs:   0%", out, re.M)),
        "outcome": ("killed at 330 s" if timed_out else "failed") + (", reached " + nodes[-1][1] + " nodes" if nodes else ", no reduction"),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--backend", default=None)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    print("| case | kiln s | kiln tests run | nodes | inputs | repro call nodes | kiln repro.py fails | PyTorch s | PyTorch queries | PyTorch outcome |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for mode, after, level in CASES:
        kiln = run_case(args.build, mode, after, level, args.backend, args.jobs)
        peer = pytorch_case(mode) or {"seconds": "-", "queries": "-", "outcome": "not recorded"}
        print(f"| {mode} (after {after}, level {level}) | {kiln['seconds']:.2f} | {kiln['tests']} | {kiln['nodes']} | {kiln['inputs']} | {kiln['calls']} | "
              f"{kiln['reproduces']} | {peer['seconds']} | {peer['queries']} | {peer['outcome']} |")


if __name__ == "__main__":
    main()
