# On the GPU machine: the matrix products of bench_gpt.py's GPT (B=16, T=256, d=512, 8 heads,
# vocabulary 8192) laid out as the model has them (Linear's addmm with a bias, the gradients' mm of
# transposed operands, attention's bmm), timed with CUDA events: median of 30 calls after 5 warm-up
# calls. Runs under PyTorch and under kiln alike; prints one JSON row per product and their total.
import json

import torch
from cuda_timing import median_seconds


def products():
    torch.manual_seed(0)
    tokens = 4096
    rows = []
    for k, n, bias in [(512, 1536, True), (512, 512, True), (512, 2048, True), (2048, 512, True), (512, 8192, False)]:
        x = torch.randn(tokens, k, device="cuda")
        w = torch.randn(n, k, device="cuda")
        b = torch.randn(n, device="cuda")
        g = torch.randn(tokens, n, device="cuda")
        if bias:
            rows.append((f"fwd {tokens}x{k}x{n}", lambda b=b, x=x, w=w: torch.addmm(b, x, w.t())))
        else:
            rows.append((f"fwd {tokens}x{k}x{n}", lambda x=x, w=w: torch.mm(x, w.t())))
        rows.append((f"dgrad {tokens}x{n}x{k}", lambda g=g, w=w: torch.mm(g, w)))
        rows.append((f"wgrad {n}x{tokens}x{k}", lambda g=g, x=x: torch.mm(g.t(), x)))
    q = torch.randn(128, 256, 64, device="cuda")
    k = torch.randn(128, 256, 64, device="cuda")
    s = torch.randn(128, 256, 256, device="cuda")
    rows.append(("bmm qk 128x256x64x256", lambda: torch.bmm(q, k.transpose(1, 2))))
    rows.append(("bmm sv 128x256x256x64", lambda: torch.bmm(s, q)))
    rows.append(("bmm sT g 128x256x256x64", lambda: torch.bmm(s.transpose(1, 2), q)))
    return rows


def main():
    total = 0.0
    for name, fn in products():
        ms = median_seconds(fn, calls=30, warm_up=5) * 1e3
        total += ms
        print(json.dumps({"gemm": name, "ms": round(ms, 4)}), flush=True)
    print(json.dumps({"gemm": "total", "ms": round(total, 4)}))


main()
