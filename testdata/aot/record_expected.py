#!/usr/bin/env python3
"""Regenerates <program>.expected.txt for the graph_*.py programs of this folder from real PyTorch.

Each program runs under the checkout's .reference/bin/python (CPython + torch 2.11) with
TORCH_LOGS=aot_graphs,aot_joint_graph; the messages of those two loggers (the "aot_config id: ..."
metadata lines and the graphs), without the glog prefix, are what kiln must print. Paths are
normalized: the program's folder becomes "." and the module origin of FX's print_readable loses
its site-packages prefix.

Usage (from anywhere): python3 testdata/aot/record_expected.py [program.py ...]
"""
import os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYTHON = os.path.join(ROOT, ".reference", "bin", "python")
MARKER = re.compile(r"\] \[__aot_(?:graphs|joint_graph)\] ?(.*)$")

def graph_log(stderr):
    lines = []
    for line in stderr.splitlines():
        m = MARKER.search(line)
        if not m:
            continue
        text = m.group(1)
        text = text.replace(HERE + "/", "./")
        text = re.sub(r"^ \S*/(torch/fx/_lazy_graph_module\.py) class", r" \1 class", text)
        text = re.sub(r"^ <eval_with_key>\.\d+ class", " <eval_with_key>.N class", text)
        lines.append(text)
    return "\n".join(lines) + "\n"

def main():
    programs = sys.argv[1:] or sorted(f for f in os.listdir(HERE) if f.startswith("graph_") and f.endswith(".py"))
    for program in programs:
        name = os.path.splitext(os.path.basename(program))[0]
        env = dict(os.environ, TORCH_LOGS="aot_graphs,aot_joint_graph")
        run = subprocess.run([PYTHON, name + ".py"], cwd=HERE, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("%s failed:\n%s" % (program, run.stderr))
        with open(os.path.join(HERE, name + ".expected.txt"), "w") as out:
            out.write(graph_log(run.stderr))
        print(name)

if __name__ == "__main__":
    main()
