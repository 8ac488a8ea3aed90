#!/usr/bin/env python3
"""Differential tester: random torch programs under kiln and under real PyTorch (issue 14).

    run.py --kiln build/bin/kiln --reference .reference/bin/python --seeds 0:200 \
           --time-limit 240 --per-program-timeout 60 --out /tmp/difftest

Programs come from generate.py, many to a file. Under kiln each runs eagerly, eagerly on float64
copies and under torch.compile with every backend; under the reference PyTorch (when given and
present) eagerly and on float64 copies. Compiled results are checked against eager with PyTorch's
`same()` rules (tolerance 1e-3, float64 reference, RMSE multiplier), and kiln's results against
PyTorch's. A file that crashes or hangs is rerun one program at a time to find the culprit.
Failures go to OUT/failures/seed_N.py (+ .txt with what differed); OUT/summary.txt has the counts
and the coverage. Exit status 1 when anything failed.
"""

import argparse
import collections
import json
import math
import os
import re
import selectors
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

TOL = 1e-3


# ---- parsing program output --------------------------------------------------------------------

class Tensor:
    __slots__ = ("shape", "dtype", "values")

    def __init__(self, shape, dtype, values):
        self.shape, self.dtype, self.values = list(shape), dtype, values

    def isfloat(self):
        return self.dtype in ("torch.float32", "torch.float64", "torch.float16", "torch.bfloat16")


class Scalar:
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


class Error:
    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


NS = {"__builtins__": {}, "T": Tensor, "L": lambda *xs: list(xs), "S": Scalar, "None": None,
      "nan": float("nan"), "inf": float("inf"), "True": True, "False": False}


def parse_output(text):
    """{seed: {mode: value | Error}} and the set of seeds that printed `done`."""
    res = collections.defaultdict(dict)
    done = set()
    for line in text.splitlines():
        if not line.startswith("@@"):
            continue
        head, _, rest = line[2:].partition(" ")
        try:
            seed = int(head)
        except ValueError:
            continue
        if rest == "done":
            done.add(seed)
            continue
        mode, _, val = rest.partition(" ")
        if val.startswith("!ERR "):
            res[seed][mode] = Error(val[5:])
            continue
        try:
            res[seed][mode] = eval(val, NS)  # our own generated output
        except Exception as e:  # noqa: BLE001
            res[seed][mode] = Error("unparsable output (%s): %s" % (type(e).__name__, val[:200]))
    return res, done


# ---- PyTorch's same() ------------------------------------------------------------------------------

def _close(a, b, tol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tol + tol * abs(b)


def _rmse(a, b):
    if not a:
        return 0.0
    s = 0.0
    for x, y in zip(a, b):
        d = x - y
        s += d * d
    return math.sqrt(s / len(a)) if not math.isnan(s) else float("nan")


def same(ref, res, fp64, path="out", tol=TOL, exact_dtype=True):
    """None when res matches ref (PyTorch's same(), fp64_ref rules), else why not."""
    if isinstance(ref, list):
        if not isinstance(res, list):
            return "%s: expected a list, got %s" % (path, type(res).__name__)
        if len(ref) != len(res):
            return "%s: length %d vs %d" % (path, len(res), len(ref))
        for i, (a, b) in enumerate(zip(ref, res)):
            f = fp64[i] if isinstance(fp64, list) and len(fp64) == len(ref) else None
            why = same(a, b, f, "%s[%d]" % (path, i), tol, exact_dtype)
            if why:
                return why
        return None
    if ref is None or res is None:
        return None if ref is None and res is None else "%s: %r vs %r" % (path, res, ref)
    if isinstance(ref, Scalar):
        if not isinstance(res, Scalar):
            return "%s: expected a Python scalar, got %s" % (path, type(res).__name__)
        if isinstance(ref.v, float) and isinstance(res.v, float):
            return None if _close(res.v, ref.v, tol) else "%s: %r vs %r" % (path, res.v, ref.v)
        return None if (ref.v == res.v and type(ref.v) is type(res.v)) else "%s: %r vs %r" % (path, res.v, ref.v)
    if not isinstance(ref, Tensor) or not isinstance(res, Tensor):
        return "%s: %r vs %r" % (path, type(res).__name__, type(ref).__name__)
    if ref.shape != res.shape:
        return "%s: shape %s vs %s" % (path, res.shape, ref.shape)
    if exact_dtype and ref.dtype != res.dtype:
        return "%s: dtype %s vs %s" % (path, res.dtype, ref.dtype)
    if len(ref.values) != len(res.values):
        return "%s: %d values vs %d" % (path, len(res.values), len(ref.values))
    if not ref.isfloat() or not res.isfloat():
        bad = [i for i, (a, b) in enumerate(zip(ref.values, res.values)) if a != b]
        if bad:
            i = bad[0]
            return "%s: %d of %d values differ (%s), first at flat index %d: %r vs %r" % (
                path, len(bad), len(ref.values), res.dtype, i, res.values[i], ref.values[i])
        return None
    a, b = ref.values, res.values
    if all(_close(y, x, tol) for x, y in zip(a, b)):
        return None
    f = fp64.values if isinstance(fp64, Tensor) and fp64.shape == ref.shape and fp64.isfloat() else None
    if f is None:
        i = next(i for i, (x, y) in enumerate(zip(a, b)) if not _close(y, x, tol))
        return "%s: allclose not within tol=%g (no fp64 reference), first at flat index %d: %r vs %r" % (
            path, tol, i, b[i], a[i])
    has_nan = lambda xs: any(math.isnan(x) for x in xs)
    if has_nan(a) and not has_nan(b) and not has_nan(f) and all(_close(y, x, 0.04) for x, y in zip(f, b)):
        return None
    ref_err = _rmse(f, a)
    res_err = _rmse(f, b)
    mult = 3.0 if len(a) < 1000 else 2.0
    if math.isnan(ref_err) and math.isnan(res_err):
        return None
    if res_err <= mult * ref_err + tol / 10.0:
        return None
    i = next(i for i, (x, y) in enumerate(zip(a, b)) if not _close(y, x, tol))
    return "%s: RMSE (res-fp64): %.5g, (ref-fp64): %.5g, shape=%s, dtype %s; first at flat index %d: %r vs %r" % (
        path, res_err, ref_err, ref.shape, res.dtype, i, b[i], a[i])


# ---- running ---------------------------------------------------------------------------------------

def run_file(cmd, path, idle_timeout, env):
    """(stdout, returncode or None when it hung, stderr tail, seconds). A run that prints nothing for
    idle_timeout seconds (each program prints a line per run) is killed as hung."""
    t0 = time.time()
    err_file = tempfile.TemporaryFile(mode="w+", errors="replace")
    for attempt in range(60):
        try:
            p = subprocess.Popen(cmd + [path], stdout=subprocess.PIPE, stderr=err_file, env=env,
                                 start_new_session=True, cwd=os.path.dirname(path))
            break
        except OSError:
            if attempt == 59:
                raise
            time.sleep(5)  # the binary is being relinked
    chunks = []
    last = time.time()
    rc = 0
    with selectors.DefaultSelector() as sel:
        sel.register(p.stdout, selectors.EVENT_READ)
        while True:
            if not sel.select(timeout=1.0):
                if time.time() - last > idle_timeout:
                    os.killpg(p.pid, signal.SIGKILL)
                    rc = None
                    chunks.append(p.stdout.read())
                    break
                continue
            data = os.read(p.stdout.fileno(), 65536)
            if not data:
                break
            chunks.append(data)
            last = time.time()
    p.stdout.close()
    code = p.wait()
    if rc is not None:
        rc = code
    err_file.seek(0)
    err = err_file.read()
    err_file.close()
    return b"".join(chunks).decode("utf-8", "replace"), rc, err[-3000:], time.time() - t0


def label(mode):
    """How a run is named in reports: eager, eager-fp64, compiled:BACKEND."""
    return {"plain": "eager", "fp64": "eager-fp64"}.get(mode, "compiled:" + mode)


def mode_of(label_text):
    return {"eager": "plain", "eager-fp64": "fp64"}.get(label_text, label_text.replace("compiled:", ""))


def describe_exit(rc):
    if rc is None:
        return "hang"
    if rc < 0:
        try:
            return "signal %s" % signal.Signals(-rc).name
        except ValueError:
            return "signal %d" % -rc
    return "exit %d" % rc


class Runner:
    def __init__(self, a):
        self.a = a
        self.kiln = [os.path.abspath(a.kiln)]
        self.ref = [os.path.abspath(a.reference)] if a.reference and os.path.exists(a.reference) else None
        self.avoid = [x for x in a.avoid.split(",") if x]
        self.ref_backends = [x for x in a.reference_backends.split(",") if x]
        self.backends = [x for x in a.backends.split(",") if x]
        self.confirm = [x for x in a.confirm_backends.split(",") if x] if self.ref else []
        self.confirm_mismatch = [x for x in a.confirm_mismatch_backends.split(",") if x and x not in self.confirm] if self.ref else []
        os.makedirs(os.path.join(a.out, "batches"), exist_ok=True)
        os.makedirs(os.path.join(a.out, "failures"), exist_ok=True)
        self.env = dict(os.environ)
        self.env.pop("TORCH_TRACE", None)
        self.env.pop("TORCH_LOGS", None)

    def env_for(self, which):
        e = dict(self.env)
        e["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(os.path.abspath(self.a.out), "cache", which)
        if not self.a.cache:
            # a compile cache shared by the programs makes a result depend on what ran before
            e["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"
        return e

    def run_batch(self, which, cmd, programs, modes):
        """{seed: (results by mode, status)}; status None when the program completed."""
        tag = "%s_%d" % (which, programs[0].seed)
        path = os.path.join(os.path.abspath(self.a.out), "batches", tag + ".py")
        with open(path, "w") as f:
            f.write(generate.batch_source(programs, modes))
        out, rc, err, secs = run_file(cmd, path, self.a.per_program_timeout, self.env_for(which))
        res, done = parse_output(out)
        results = {}
        rerun = [p for p in programs if p.seed not in done]
        for p in programs:
            if p.seed in done:
                results[p.seed] = (res.get(p.seed, {}), None, "")
        if rerun and len(programs) > 1:
            for p in rerun:
                results.update(self.run_batch(which, cmd, [p], modes))
        elif rerun:
            p = rerun[0]
            results[p.seed] = (res.get(p.seed, {}), describe_exit(rc), err)
        if not rerun:
            os.remove(path)
        return results

    def check(self, p, kiln, ref):
        """[(kind, detail)] for one program; 'discard' when PyTorch rejects it."""
        kres, kstatus, kerr = kiln
        fails = []
        if kstatus is not None:
            last = [m for m in ["plain", "fp64"] + self.backends if m in kres]
            where = "after the %s run" % label(last[-1]) if last else "before any run finished"
            kind = "hang" if kstatus == "hang" else "crash"
            tail = "\n".join(kerr.strip().splitlines()[-6:])
            fails.append((kind, "kiln %s %s\n%s" % (kstatus, where, tail)))
        if ref is not None:
            rres, rstatus, rerr = ref
            if rstatus is not None:
                return [("discard", "reference python %s: %s" % (rstatus, rerr.strip()[-300:]))]
            rplain = rres.get("plain")
            if isinstance(rplain, Error) or rplain is None:
                return [("discard", "PyTorch rejects it: %s" % rplain)]
            rfp64 = rres.get("fp64")
            rfp64 = None if isinstance(rfp64, Error) else rfp64
        kplain = kres.get("plain")
        kfp64 = kres.get("fp64")
        kfp64 = None if isinstance(kfp64, Error) else kfp64
        errkind = "kiln-error-but-pytorch-ok" if ref is not None else "kiln-error"
        for m in ["plain", "fp64"] + self.backends:
            v = kres.get(m)
            if isinstance(v, Error):
                if m == "fp64" and (ref is None or rfp64 is None):
                    continue
                if ref is not None and isinstance(rres.get(m), Error):
                    continue  # PyTorch fails the same way
                if ref is None and m != "plain" and isinstance(kplain, Error):
                    continue  # eager already failed: reported once
                fails.append((errkind, "%s: %s" % (label(m), v.text)))
                continue
            if v is None or m == "fp64":
                continue
            rcomp = rres.get(m) if ref is not None and m != "plain" else None
            if rcomp is not None and not isinstance(rcomp, Error) and same(rcomp, v, rfp64) is None:
                continue  # what PyTorch's torch.compile gives too (it may differ from eager)
            if ref is not None:
                why = same(rplain, v, rfp64)
                if why:
                    fails.append(("mismatch", "kiln %s vs PyTorch eager: %s" % (label(m), why)))
                    continue
            if m != "plain" and kplain is not None and not isinstance(kplain, Error):
                why = same(kplain, v, kfp64)
                if why:
                    fails.append(("mismatch", "kiln %s vs kiln eager: %s" % (label(m), why)))
        return fails

    def write_failure(self, p, fails):
        base = os.path.join(self.a.out, "failures", "seed_%d" % p.seed)
        with open(base + ".py", "w") as f:
            f.write("# difftest seed %d: %s\n" % (p.seed, ", ".join(sorted(set(k for k, _ in fails)))))
            for k, d in fails:
                f.write("#   %s: %s\n" % (k, d.splitlines()[0][:400]))
            env = "" if self.a.cache else "TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 "
            f.write("# Run: %skiln seed_%d.py  /  python seed_%d.py  (lines @@seed MODE VALUE)\n" % (env, p.seed, p.seed))
            f.write(generate.batch_source([p], generate.modes(False, self.backends)))
        with open(base + ".txt", "w") as f:
            for k, d in fails:
                f.write("%s: %s\n" % (k, d))


def parse_seeds(s):
    a, _, b = s.partition(":")
    return int(a), int(b)


def argument_parser():
    """run.py's options; reduce.py starts from their defaults, so that the two cannot drift apart."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--reference", default="", help="real PyTorch's python; kiln-vs-PyTorch is skipped when absent")
    ap.add_argument("--seeds", default="0:100", help="A:B, seeds A..B-1")
    ap.add_argument("--time-limit", type=float, default=600, help="no new batch starts after this many seconds")
    ap.add_argument("--per-program-timeout", type=float, default=60,
                    help="a run printing nothing for this long is a hang (each program prints a line per run)")
    ap.add_argument("--out", default="difftest_out")
    ap.add_argument("--batch", type=int, default=25, help="programs per file")
    ap.add_argument("--avoid", default="", help="features not to generate (e.g. " + ",".join(generate.KNOWN_BUG_FEATURES) + ")")
    ap.add_argument("--reference-backends", default="",
                    help="also compile under PyTorch with these backends (slow); a kiln error PyTorch shares is no failure")
    ap.add_argument("--backends", default=",".join(generate.BACKENDS), help="kiln's torch.compile backends")
    ap.add_argument("--confirm-backends", default="eager,aot_eager,aot_eager_decomp_partition",
                    help="when kiln fails with one of these backends, also run PyTorch's torch.compile with it: a "
                         "failure PyTorch shares (or a result PyTorch's compile gives too) is no failure")
    ap.add_argument("--confirm-mismatch-backends", default="inductor",
                    help="as --confirm-backends, but only where kiln's result differs (not where it raises): PyTorch's "
                         "inductor compiles C++ for seconds, too slow for every loud failure")
    ap.add_argument("--all-ops", action="store_true", help="also generate spellings kiln lacks (generate.KILN_UNSUPPORTED)")
    ap.add_argument("--cache", action="store_true",
                    help="keep the compile caches on (one per run under OUT/cache); off by default, so results "
                         "do not depend on the programs that ran before")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--known-failures", default="",
                    help="a file of seeds that fail for bugs not fixed yet ('SEED  why' per line): they are reported "
                         "but do not fail the run; one of them passing is reported, to be taken off the list")
    return ap


def main():
    a = argument_parser().parse_args()
    known = {}
    if a.known_failures:
        for line in open(a.known_failures):
            line = line.split("#", 1)[0].strip()
            if line:
                seed_text, _, why = line.partition(" ")
                known[int(seed_text)] = why.strip()
    os.makedirs(a.out, exist_ok=True)
    r = Runner(a)
    lo, hi = parse_seeds(a.seeds)
    t0 = time.time()
    counts = collections.Counter()
    coverage = collections.Counter()
    fail_features = collections.Counter()
    failures = []
    log = open(os.path.join(a.out, "results.jsonl"), "w")
    if r.ref is None:
        print("difftest: reference python %r is absent: kiln-vs-PyTorch comparison skipped; "
              "compiled results are checked against kiln's eager only" % a.reference, flush=True)
    kiln_modes = generate.modes(False, r.backends)
    ref_modes = generate.modes(True) + r.ref_backends
    seed = lo
    stopped = False
    while seed < hi:
        if time.time() - t0 > a.time_limit:
            stopped = True
            break
        programs = [generate.generate_program(s, r.avoid, a.all_ops) for s in range(seed, min(hi, seed + a.batch))]
        seed += len(programs)
        kiln = r.run_batch("kiln", r.kiln, programs, kiln_modes)
        ref = r.run_batch("ref", r.ref, programs, ref_modes) if r.ref else {}
        checked = {p.seed: r.check(p, kiln[p.seed], ref.get(p.seed) if r.ref else None) for p in programs}
        # Where kiln fails with a backend of --confirm-backends: does PyTorch's torch.compile with it
        # fail or differ the same way? (one PyTorch run for the batch's failing programs)
        confirm = {}
        for p in programs:
            fails = checked[p.seed]
            if fails and fails[0][0] != "discard":
                bs = [b for b in r.confirm + r.confirm_mismatch
                      if any(re.search(r"compiled:%s\b" % b, d.split("\n")[0]) and (k == "mismatch" or b in r.confirm)
                             for k, d in fails)]
                if bs:
                    confirm[p.seed] = bs
        if confirm:
            backends = [b for b in r.confirm + r.confirm_mismatch if any(b in bs for bs in confirm.values()) and b not in ref_modes]
            again = [p for p in programs if p.seed in confirm]
            ref1 = r.run_batch("ref", r.ref, again, ref_modes + backends)
            for p in again:
                checked[p.seed] = r.check(p, kiln[p.seed], ref1[p.seed])
            counts["confirmed against PyTorch's compile"] += len(again)
        for p in programs:
            fails = checked[p.seed]
            if fails and fails[0][0] == "discard":
                counts["discarded"] += 1
                log.write(json.dumps({"seed": p.seed, "status": "discarded", "why": fails[0][1][:300]}) + "\n")
                continue
            counts["run"] += 1
            coverage.update(p.features)
            if not fails:
                counts["passed"] += 1
                log.write(json.dumps({"seed": p.seed, "status": "ok"}) + "\n")
                continue
            kinds = sorted(set(k for k, _ in fails))
            for k in kinds:
                counts[k] += 1
            counts["failed"] += 1
            fail_features.update(p.features)
            failures.append((p.seed, kinds, fails))
            r.write_failure(p, fails)
            log.write(json.dumps({"seed": p.seed, "status": "failed", "kinds": kinds,
                                  "details": [d for _, d in fails], "features": p.features}) + "\n")
            if not a.quiet:
                print("FAIL seed %d [%s] %s" % (p.seed, ", ".join(kinds), fails[0][1].splitlines()[0][:300]), flush=True)
        log.flush()
        if not a.quiet:
            print("... seeds %d:%d done, %.0fs, %s" % (lo, seed, time.time() - t0,
                                                  " ".join("%s=%d" % kv for kv in sorted(counts.items()))), flush=True)
    elapsed = time.time() - t0
    lines = []
    lines.append("difftest: seeds %d:%d%s, %d programs run, %d passed, %d failed (%s), %d discarded (PyTorch rejects), %.0fs" % (
        lo, seed, " (time limit reached)" if stopped else "", counts["run"], counts["passed"], counts["failed"],
        ", ".join("%s %d" % (k, counts[k]) for k in ["mismatch", "crash", "hang", "kiln-error-but-pytorch-ok", "kiln-error"]
                  if counts[k]) or "none", counts["discarded"], elapsed))
    if r.ref is None:
        lines.append("difftest: kiln vs PyTorch skipped (reference python absent)")
    lines.append("coverage (programs using each op/feature, failed in brackets):")
    items = ["%s %d%s" % (k, v, " [%d]" % fail_features[k] if fail_features[k] else "") for k, v in sorted(coverage.items())]
    for i in range(0, len(items), 8):
        lines.append("  " + ", ".join(items[i:i + 8]))
    for s, kinds, fails in failures:
        lines.append("FAIL seed %d [%s] %s -> %s" % (s, ", ".join(kinds), fails[0][1].splitlines()[0][:200],
                                                      os.path.join(a.out, "failures", "seed_%d.py" % s)))
    failed_seeds = {s for s, _, _ in failures}
    new = sorted(failed_seeds - set(known))
    fixed = sorted(s for s in known if lo <= s < seed and s not in failed_seeds)
    if known:
        lines.append("known failures: %d of %d listed still fail; new failures: %s; passing now (take them off %s): %s" % (
            len(failed_seeds & set(known)), len(known), new or "none", a.known_failures, fixed or "none"))
    text = "\n".join(lines)
    with open(os.path.join(a.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print(text, flush=True)
    sys.exit(1 if new else 0)


if __name__ == "__main__":
    main()
