#!/usr/bin/env python3
"""Regenerates <program>.expected.json for every program of this folder and of ../models from real
PyTorch.

Each program runs under the checkout's .reference/bin/python (CPython + torch 2.11) with
TORCH_TRACE set; its stdout lines and its non-library compiles, as ../shared/tools/tracestats.py
summarizes the trace ([co_name, graph op count]), are what kiln must reproduce.

Usage (from anywhere): python3 testdata/compile/record_expected.py [path/to/program.py ...]
"""
import importlib.util, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(os.path.dirname(HERE), "models")
ROOT = os.path.dirname(os.path.dirname(HERE))
PYTHON = os.path.join(ROOT, ".reference", "bin", "python")
TRACESTATS = os.path.join(os.path.dirname(ROOT), "shared", "tools", "tracestats.py")

def load_tracestats():
    spec = importlib.util.spec_from_file_location("tracestats", TRACESTATS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

def record(program, tracestats):
    with tempfile.TemporaryDirectory() as trace:
        env = dict(os.environ, TORCH_TRACE=trace)
        run = subprocess.run([PYTHON, program], cwd=os.path.dirname(program), env=env, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("%s failed:\n%s" % (program, run.stderr))
        compiles = [[c["co_name"], c["ops"]] for c in tracestats.summarize(trace) if not c["library"]]
    return {"stdout": run.stdout.splitlines(), "compiles": compiles}

def main():
    tracestats = load_tracestats()
    programs = [os.path.abspath(p) for p in sys.argv[1:]] or sorted(
        os.path.join(folder, f) for folder in (HERE, MODELS) for f in os.listdir(folder)
        if f.endswith(".py") and f != os.path.basename(__file__))
    for program in programs:
        name = os.path.splitext(os.path.basename(program))[0]
        expected = record(program, tracestats)
        with open(os.path.join(os.path.dirname(program), name + ".expected.json"), "w") as out:
            json.dump(expected, out, indent=1)
            out.write("\n")
        print(name, expected["compiles"])

if __name__ == "__main__":
    main()
