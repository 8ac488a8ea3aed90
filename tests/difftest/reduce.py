#!/usr/bin/env python3
"""Shrink a failing difftest program to the statements that keep its failure.

    reduce.py --kiln build/bin/kiln --reference .reference/bin/python --seed 17 [--which N] [-o OUT.py]

Regenerates the program of the seed, finds its failures (as run.py does) and keeps the N-th
(default the first); then removes body statements and returned values one at a time, greedily,
while the same failure (kind, run, and for errors the message's start) remains. The result is a
standalone program like OUT/failures/seed_N.py, only smaller, with only the runs it needs.
"""

import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
import run  # noqa: E402


def signature(kind, detail):
    head = detail.splitlines()[0]
    if kind in ("crash", "hang"):
        return (kind, head.split(" after ")[-1])
    if kind == "mismatch":
        return (kind, head.split(": ")[0])
    mode, _, msg = head.partition(": ")
    msg = re.sub(r"^BackendCompilerFailed: backend='[a-z_]+' raised: \| ", "", msg)
    return ("kiln-error", mode, re.sub(r"\d+", "N", msg)[:60])


class Reducer:
    def __init__(self, a):
        self.a = a
        ns = run.argument_parser().parse_args(["--kiln", a.kiln, "--reference", a.reference, "--avoid", a.avoid,
                                               "--out", tempfile.mkdtemp(prefix="difftest_reduce_"),
                                               "--per-program-timeout", str(a.timeout), "--confirm-backends", "",
                                               "--confirm-mismatch-backends", ""] +
                                              (["--all-ops"] if a.all_ops else []) + (["--cache"] if a.cache else []))
        self.r = run.Runner(ns)
        self.tests = 0

    def failures(self, p, modes, need_ref):
        self.tests += 1
        kiln = self.r.run_batch("kiln", self.r.kiln, [p], modes)[p.seed]
        ref = None
        if need_ref and self.r.ref:
            ref = self.r.run_batch("ref", self.r.ref, [p], generate.modes(True))[p.seed]
        self.r.backends = [m for m in modes if m in generate.BACKENDS]
        return self.r.check(p, kiln, ref)

    def interesting(self, p, sig, modes, need_ref):
        fails = self.failures(p, modes, need_ref)
        if any(k == "discard" for k, _ in fails):
            return False
        return any(signature(k, d) == sig for k, d in fails)


def split_body(defs):
    """(head lines, [statement units], return line index) of the compiled function's body."""
    lines = defs.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("def f_") or l.strip().startswith("def forward"))
    indent = len(lines[start + 1]) - len(lines[start + 1].lstrip())
    end = next(i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("return ") and
               len(lines[i]) - len(lines[i].lstrip()) == indent)
    units = []
    for i in range(start + 1, end):
        l = lines[i]
        ind = len(l) - len(l.lstrip())
        if units and (ind > indent or l.strip().startswith("else:") or l.strip().startswith("elif ")):
            units[-1].append(i)
        else:
            units.append([i])
    return lines, units, end


def rebuild(p, lines, keep, ret_line):
    out = []
    drop = set()
    for u in keep["dropped"]:
        drop.update(u)
    for i, l in enumerate(lines):
        if i in drop:
            continue
        out.append(ret_line if i == keep["ret"] else l)
    q = generate.Program(p.seed, p.features, "\n".join(out), p.ncalls, p.mutated, p.grad, p.dyn, p.is_module)
    return q


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--reference", default="")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--which", type=int, default=0, help="which of the program's failures to keep")
    ap.add_argument("--avoid", default="")
    ap.add_argument("--all-ops", action="store_true")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--cache", action="store_true", help="compile caches on, as run.py --cache")
    ap.add_argument("-o", "--output", default="")
    a = ap.parse_args()
    red = Reducer(a)
    p = generate.generate_program(a.seed, [x for x in a.avoid.split(",") if x], a.all_ops)
    fails = red.failures(p, generate.modes(False), True)
    fails = [f for f in fails if f[0] != "discard"]
    if not fails:
        print("seed %d does not fail" % a.seed)
        return 1
    kind, detail = fails[a.which]
    sig = signature(kind, detail)
    print("keeping: %s: %s" % (kind, detail.splitlines()[0][:300]))
    # only the runs the failure needs
    mode = run.mode_of(detail.split()[1] if kind == "mismatch" else detail.split(": ")[0])
    modes = ["plain", "fp64"]
    for b in generate.BACKENDS:
        if b == mode or kind in ("crash", "hang"):
            modes.append(b)
    need_ref = " vs PyTorch" in detail.split(": ")[0] or kind == "kiln-error-but-pytorch-ok" and mode in ("plain", "fp64")
    if not red.interesting(p, sig, modes, need_ref):
        modes = generate.modes(False)
        need_ref = True
    lines, units, end = split_body(p.defs)
    ret = lines[end]
    ind = ret[:len(ret) - len(ret.lstrip())]
    state = {"dropped": [], "ret": end}
    changed = True
    while changed:
        changed = False
        # returned values one at a time
        vals = [v.strip() for v in ret.strip()[len("return "):].strip("()").split(",") if v.strip()]
        if len(vals) > 1:
            for v in list(vals):
                rest = [x for x in vals if x != v]
                cand_ret = ind + "return " + (rest[0] if len(rest) == 1 else "(" + ", ".join(rest) + ",)")
                q = rebuild(p, lines, state, cand_ret)
                if red.interesting(q, sig, modes, need_ref):
                    ret = cand_ret
                    vals = rest
                    changed = True
        for u in list(reversed(units)):
            if u in state["dropped"]:
                continue
            state["dropped"].append(u)
            q = rebuild(p, lines, state, ret)
            if red.interesting(q, sig, modes, need_ref):
                changed = True
            else:
                state["dropped"].pop()
    q = rebuild(p, lines, state, ret)
    src = generate.batch_source([q], modes)
    out = a.output or "reduced_seed_%d.py" % a.seed
    with open(out, "w") as f:
        f.write("# reduced difftest seed %d: %s: %s\n" % (a.seed, kind, detail.splitlines()[0][:300]))
        f.write(src)
    print("%d tests; wrote %s" % (red.tests, out))
    print(q.defs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
