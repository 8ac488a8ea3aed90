#!/usr/bin/env python3
"""minify --python (issue 17): Kiln's reducer with real PyTorch as the oracle, against PyTorch's own
minifier, on the same launchers PyTorch 2.11 wrote (../shared/real/pytorch-2.11/minifier/*_cpu),
in the same run and on the same machine.

usage: minify_python.py [--build BUILD_DIR] [--python PY] [--jobs N] [--pytorch-limit SECONDS] [--only LAUNCHER]
Each launcher runs in a fresh folder, its save_dir pointed there (the original run's content store
is not in ../shared, so both tools start from random inputs). Kiln: `minify --python PY -j N
launcher.py`; PyTorch: `PY launcher.py` (its minify command), stopped after --pytorch-limit seconds.
Prints one Markdown row per tool and launcher: seconds, the repro's call nodes and whether they
are the relu alone, and whether `PY repro.py` fails as the launcher did.
"""
import argparse
import os
import re
import signal
import subprocess
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REAL = os.path.join(REPO, "..", "shared", "real", "pytorch-2.11", "minifier")
PROGRAM = os.path.join(REPO, "..", "shared", "real", "pytorch-2.11", "programs", "minify_model.py")
# (launcher, the failure its repro must show, Kiln's extra flags): the after-Dynamo launcher names
# minify_model.py's toy_compiler, which PyTorch alone cannot find.
LAUNCHERS = [("compile_error_cpu", "CppCompileError: C++ compile error", []),
             ("accuracy_cpu", "AccuracyError: Bad accuracy detected", []),
             ("dynamo_backend_cpu", "AssertionError: toy_compiler refuses relu", ["--backend-from", PROGRAM])]


def call_lines(repro):
    if not os.path.exists(repro):
        return []
    text = open(repro).read()
    body = text[text.index("def forward"):].split("\n\n")[0]
    return [line.strip() for line in body.splitlines()[1:] if " = " in line and not line.strip().startswith("return")]


def prepare(name):
    folder = tempfile.mkdtemp(prefix="minify_python_" + name + "_")
    text = open(os.path.join(REAL, name, "launcher_copy.py")).read()
    text = re.sub(r"save_dir='[^']*'", "save_dir=" + repr(os.path.join(folder, "checkpoints")), text)
    with open(os.path.join(folder, "minifier_launcher.py"), "w") as out:
        out.write(text)
    return folder


def timed(command, folder, limit=None):
    start = time.perf_counter()
    # A session of its own, so that a stop at the limit also ends the candidates it started.
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        status = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        status = None
    return time.perf_counter() - start, status


def row(tool, name, seconds, status, folder, python, failure):
    repro = os.path.join(folder, "repro.py")
    calls = call_lines(repro)
    relu_alone = len(calls) == 1 and ("aten.relu" in calls[0] or "torch.relu(" in calls[0])
    fails = "-"
    if os.path.exists(repro):
        replay = subprocess.run([python, "repro.py"], cwd=folder, capture_output=True, text=True)
        fails = "yes" if replay.returncode != 0 and failure in replay.stderr else "no"
    state = "unfinished at %.0f" % seconds if status is None else "%.1f (exit %d)" % (seconds, status)
    print("| %s | %s | %s | %s | %s | %s |" % (name, tool, state, len(calls) if calls else "-", "yes" if relu_alone else "no", fails), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--python", default=os.path.join(REPO, ".reference", "bin", "python"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pytorch-limit", type=float, default=330)
    parser.add_argument("--only", help="one launcher (compile_error_cpu, accuracy_cpu, dynamo_backend_cpu)")
    args = parser.parse_args()
    print("| launcher | tool | seconds | repro call nodes | the relu alone | `PY repro.py` fails the same way |")
    print("|---|---|---|---|---|---|")
    for name, failure, flags in LAUNCHERS:
        if args.only and name != args.only:
            continue
        folder = prepare(name)
        seconds, status = timed([os.path.join(args.build, "bin", "minify"), "--python", args.python, "-j", str(args.jobs)] + flags +
                                ["minifier_launcher.py"], folder)
        row("kiln minify --python (-j %d)" % args.jobs, name, seconds, status, folder, args.python, failure)
        folder = prepare(name)
        seconds, status = timed([args.python, "minifier_launcher.py"], folder, args.pytorch_limit)
        row("PyTorch 2.11 minifier", name, seconds, status, folder, args.python, failure)


if __name__ == "__main__":
    main()
