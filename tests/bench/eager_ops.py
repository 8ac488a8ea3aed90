#!/usr/bin/env python3
"""Eager ops: kiln against CPython + PyTorch 2.11, the same script in the same run.

usage: eager_ops.py [--build BUILD_DIR] [--only REGEX] [--repeat N] [--markdown]

The ops the real-model programs use most, on float32, float64 and bfloat16, contiguous and transposed
(2048x1024 unless the op needs other shapes), each timed inside the script (median of 15 calls
after a warm-up, so start-up stays out). Both tools use the machine's default thread count. The
peer is .reference/bin/python (scripts/setup --reference); without it only kiln is measured.
Prints one line per case with the ratio kiln/PyTorch (< 1: kiln is faster) and their geometric
mean; --repeat runs the whole comparison N times, to tell noise from a difference. A case a tool
cannot run (an op without a kernel for the dtype) is listed as unsupported, with the error's type.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Runs under both tools: `CASES` names each case "op dtype layout"; the script prints
# "<case>\t<ms>" per case. argv[1] is a regex that selects cases.
SCRIPT = r'''import re
import sys
import time
import torch
import torch.nn.functional as F

torch.manual_seed(0)
selected = re.compile(sys.argv[1])


def timed(fn):
    try:
        fn()
    except Exception as e:
        return "unsupported " + type(e).__name__
    times = []
    for _ in range(15):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return f"{times[7] * 1000:.4f}"


def matrices(dtype, layout):
    a = torch.randn(2048, 1024, dtype=dtype)
    b = torch.randn(2048, 1024, dtype=dtype)
    if layout == "transposed":
        a = torch.randn(1024, 2048, dtype=dtype).t()
        b = torch.randn(1024, 2048, dtype=dtype).t()
    return a, b


def cases(dtype, layout):
    a, b = matrices(dtype, layout)
    positive = a.abs() + 0.5
    mask = a > 0
    row = torch.randn(1024, dtype=dtype)
    yield "add", lambda: a + b
    yield "mul", lambda: a * b
    yield "sub_scalar", lambda: a - 1.5
    yield "div", lambda: a / positive
    yield "add_row_broadcast", lambda: a + row
    yield "add_", lambda: a.add_(b, alpha=0.0)
    yield "neg", lambda: -a
    yield "abs", lambda: a.abs()
    yield "exp", lambda: torch.exp(a)
    yield "log", lambda: torch.log(positive)
    yield "sqrt", lambda: torch.sqrt(positive)
    yield "rsqrt", lambda: torch.rsqrt(positive)
    yield "pow_2", lambda: a.pow(2)
    yield "tanh", lambda: torch.tanh(a)
    yield "sigmoid", lambda: torch.sigmoid(a)
    yield "relu", lambda: F.relu(a)
    yield "gelu", lambda: F.gelu(a)
    yield "gelu_tanh", lambda: F.gelu(a, approximate="tanh")
    yield "silu", lambda: F.silu(a)
    yield "clamp", lambda: a.clamp(-0.5, 0.5)
    yield "where", lambda: torch.where(mask, a, b)
    yield "masked_fill", lambda: a.masked_fill(mask, float("-inf"))
    yield "gt", lambda: a > b
    yield "to_other_dtype", lambda: a.to(torch.float64 if dtype == torch.float32 else torch.float32)
    yield "contiguous", lambda: a.t().contiguous()
    yield "clone", lambda: a.clone()
    yield "sum", lambda: a.sum()
    yield "sum_dim0", lambda: a.sum(0)
    yield "sum_dim1", lambda: a.sum(1)
    yield "mean_dim1", lambda: a.mean(-1)
    yield "amax_dim1", lambda: a.amax(-1)
    yield "max_dim1", lambda: a.max(-1)
    yield "argmax_dim1", lambda: a.argmax(-1)
    yield "var_dim1", lambda: a.var(-1)
    yield "norm", lambda: a.norm()
    yield "softmax", lambda: torch.softmax(a, -1)
    yield "log_softmax", lambda: torch.log_softmax(a, -1)
    yield "layer_norm", lambda: F.layer_norm(a, (1024,))
    yield "cumsum_dim1", lambda: a.cumsum(-1)
    yield "cat", lambda: torch.cat([a, b])
    yield "stack", lambda: torch.stack([a, b])
    m = torch.randn(512, 512, dtype=dtype)
    if layout == "transposed":
        m = m.t()
    yield "mm_512", lambda: m @ m
    batch = torch.randn(16, 128, 64, dtype=dtype)
    yield "bmm_16x128x64", lambda: batch @ batch.transpose(1, 2)
    weight = torch.randn(1024, 1024, dtype=dtype)
    yield "linear", lambda: F.linear(a[:256], weight)
    logits = torch.randn(512, 1000, dtype=dtype)
    targets = torch.randint(0, 1000, (512,))
    yield "cross_entropy", lambda: F.cross_entropy(logits, targets)
    table = torch.randn(50000, 256, dtype=dtype)
    ids = torch.randint(0, 50000, (4096,))
    yield "embedding", lambda: F.embedding(ids, table)
    yield "index_select", lambda: table.index_select(0, ids)
    image = torch.randn(16, 32, 56, 56, dtype=dtype)
    yield "max_pool2d", lambda: F.max_pool2d(image, 2)
    yield "batch_norm_eval", lambda: F.batch_norm(image, torch.zeros(32, dtype=dtype), torch.ones(32, dtype=dtype))
    kernel = torch.randn(32, 32, 3, 3, dtype=dtype)
    yield "conv2d_3x3", lambda: F.conv2d(image, kernel, padding=1)


for dtype_name, dtype in [("float32", torch.float32), ("float64", torch.float64), ("bfloat16", torch.bfloat16)]:
    for layout in ["contiguous", "transposed"]:
        for op, fn in cases(dtype, layout):
            case = f"{op} {dtype_name} {layout}"
            if selected.search(case):
                print(f"{case}\t{timed(fn)}", flush=True)
'''


def measure(command, script, only):
    run = subprocess.run(command + [script, only], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{command[0]} failed:\n{run.stderr[-2000:]}")
    times = {}
    for line in run.stdout.splitlines():
        case, ms = line.split("\t")
        times[case] = ms if ms.startswith("unsupported") else float(ms)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--only", default=".", help="a regex over 'op dtype layout'")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--markdown", action="store_true", help="print the table as RESULTS.md rows")
    a = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT)
    reference = os.path.join(REPO, ".reference", "bin", "python")
    try:
        for run in range(a.repeat):
            kiln = measure([os.path.join(a.build, "bin", "kiln")], f.name, a.only)
            torch = measure([reference], f.name, a.only) if os.path.exists(reference) else {}
            ratios = []
            if a.markdown:
                print("| op | dtype | layout | kiln ms | PyTorch ms | kiln / PyTorch |\n|---|---|---|---|---|---|")
            unsupported = []
            for case, ms in kiln.items():
                peer = torch.get(case)
                if isinstance(ms, str) or isinstance(peer, str):
                    unsupported.append(f"{case} (kiln: {ms if isinstance(ms, str) else 'ok'}, "
                                       f"PyTorch: {peer if isinstance(peer, str) else 'ok'})")
                    continue
                ratio = ms / peer if peer else None
                if ratio:
                    ratios.append(ratio)
                if a.markdown:
                    op, dtype, layout = case.split()
                    print(f"| {op} | {dtype} | {layout} | {ms:.3f} | {peer:.3f} | {ratio:.2f} |" if peer else
                          f"| {op} | {dtype} | {layout} | {ms:.3f} | | |")
                else:
                    print(f"{case:40} kiln {ms:9.3f} ms" +
                          (f"   PyTorch {peer:9.3f} ms   kiln/PyTorch {ratio:6.2f}" if peer else ""))
            for case in unsupported:
                print(f"unsupported: {case}")
            if ratios:
                geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
                slower = sum(1 for r in ratios if r > 1.0)
                print(f"run {run + 1}: {len(ratios)} cases, geometric mean kiln/PyTorch {geomean:.2f}, "
                      f"{slower} slower than PyTorch, worst {max(ratios):.2f}")
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    main()
