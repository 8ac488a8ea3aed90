#!/usr/bin/env python3
"""Dynamic batch sizes with a backward: kiln against PyTorch 2.11 on the same training step.

usage: dynamic_backward.py [--build BUILD_DIR] [--backend aot_eager]
A two-layer MLP with a mean loss, compiled once, trained on batches of 8, 12, 16, ..., 44 rows
(automatic dynamic shapes: the second size recompiles as dynamic). For each tool: the total time
of the 10 steps, of 10 more steps at the same sizes (all compiled), the recompiles (from
torch._dynamo.utils.counters where the tool has them, else from the `recompiles` log), and the
gradients' agreement with eager. Kiln's AOT traces a dynamic graph a second time at other sizes;
where a backward formula computes with a size's value (mean's 1/n) the graph is guarded on its
sizes and each new size recompiles, where PyTorch traces the size symbolically: this measures that
cost. The peer is .reference/bin/python (scripts/setup --reference).
"""
import argparse
import os
import re
import subprocess
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PROGRAM = """
import time
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
step = torch.compile(lambda x, y: ((model(x) - y) ** 2).mean(), backend=BACKEND)
sizes = [8 + 4 * i for i in range(10)]
batches = [(torch.arange(n * 32.0).reshape(n, 32) / (n * 32), torch.ones(n, 1)) for n in sizes]
worst = 0.0
for rounds in ["first", "again"]:
    start = time.perf_counter()
    for x, y in batches:
        model.zero_grad()
        loss = step(x, y)
        loss.backward()
        compiled_grad = model[0].weight.grad.clone()
        model.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        worst = max(worst, (compiled_grad - model[0].weight.grad).abs().max().item())
    print(rounds + "_ms", (time.perf_counter() - start) * 1e3)
print("max_grad_diff", worst)
"""


def run(command, backend):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(PROGRAM.replace("BACKEND", repr(backend)))
        script = f.name
    try:
        env = dict(os.environ, TORCH_LOGS="recompiles", TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
        result = subprocess.run(command + [script], check=True, capture_output=True, text=True, env=env)
    finally:
        os.unlink(script)
    numbers = {key: float(value) for key, value in (line.split() for line in result.stdout.splitlines())}
    numbers["recompiles"] = len(re.findall(r"Recompiling function", result.stderr))
    return numbers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--backend", default="aot_eager")
    args = parser.parse_args()
    rows = [("kiln", run([os.path.join(args.build, "bin", "kiln")], args.backend))]
    peer = os.path.join(REPO, ".reference", "bin", "python")
    if os.path.exists(peer):
        rows.append(("PyTorch 2.11", run([peer], args.backend)))
    print("| tool | backend | 10 steps, new sizes ms | 10 steps, same sizes ms | recompiles | max grad diff |")
    print("|---|---|---|---|---|---|")
    for name, n in rows:
        print(f"| {name} | {args.backend} | {n['first_ms']:.1f} | {n['again_ms']:.1f} | {n['recompiles']} | {n['max_grad_diff']:.2e} |")


if __name__ == "__main__":
    main()
