#!/usr/bin/env python3
"""Which repros in found/ still print something different under kiln than under real PyTorch.

    check_found.py --kiln build/bin/kiln --reference .reference/bin/python [NAME.py ...]

Runs each repro under both (compile caches off, fresh cache dir for dynamic_backward_with_cache),
compares stdout (and the exit status), prints `DIFFERS`/`same` per file. Exit 1 if any differs.
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, path, env):
    try:
        p = subprocess.run(cmd + [path], capture_output=True, text=True, errors="replace", env=env, timeout=300,
                           cwd=os.path.dirname(path))
        out = [l for l in p.stdout.splitlines() if not l.startswith("W1")]
        return p.returncode, out, p.stderr.strip().splitlines()[-1:] if p.stderr.strip() else []
    except subprocess.TimeoutExpired:
        return None, ["(timeout)"], []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(glob.glob(os.path.join(HERE, "found", "*.py")))
    differ = 0
    for f in files:
        f = os.path.abspath(f)
        env = dict(os.environ)
        env["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="kiln_found_cache_")
        if "with_cache" not in os.path.basename(f):
            env["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"
        krc, kout, kerr = run([os.path.abspath(a.kiln)], f, env)
        rrc, rout, rerr = run([os.path.abspath(a.reference)], f, env)
        same = krc == rrc and kout == rout
        differ += not same
        print("%-8s %s" % ("same" if same else "DIFFERS", os.path.basename(f)))
        if not same:
            for tag, rc, out, err in [("kiln", krc, kout, kerr), ("torch", rrc, rout, rerr)]:
                print("    %-5s exit %s: %s" % (tag, rc, " | ".join((out + err)[-3:])[:300]))
    print("%d of %d repros still differ" % (differ, len(files)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
