# On the GPU machine (tests/device/ runs it): bench.py's five workloads at its CUDA sizes, eager and compiled, timed with
# CUDA events as do_bench times them (cuda_timing.py: median of 50 timed calls after 10 warm-up
# calls, the L2 cache flushed before each), and a device-to-device copy of the largest input, timed
# the same way, as the bandwidth ceiling. compiled_launch_ms times the compiled call alone on an
# idle GPU (no flush): the host's cost of a call shows there. Runs under PyTorch and under kiln
# alike; prints one JSON row per workload.
import json
import time

import torch
import torch.nn.functional as F
from cuda_timing import median_seconds


def workloads():
    torch.manual_seed(0)
    x1 = torch.randn(1 << 24, device="cuda")
    x2 = torch.randn(8192, 4096, device="cuda")
    x3 = torch.randn(16384, 1024, device="cuda")
    w3 = torch.randn(1024, device="cuda")
    b3 = torch.randn(1024, device="cuda")
    x4 = torch.randn(8192, 1024, device="cuda")
    W1 = torch.randn(4096, 1024, device="cuda") * 0.02
    W2 = torch.randn(1024, 4096, device="cuda") * 0.02
    return [
        ("pointwise_gelu", lambda x: F.gelu(x * 1.5 + 0.25) * torch.sigmoid(x), (x1,), x1.numel() * 4 * 2),
        ("softmax_lastdim", lambda x: torch.softmax(x, -1), (x2,), x2.numel() * 4 * 2),
        ("layernorm_relu", lambda x, w, b: F.layer_norm(x, (1024,), w, b).relu(), (x3, w3, b3), x3.numel() * 4 * 2),
        ("sum_dim0", lambda x: x.sum(dim=0), (x3,), x3.numel() * 4),
        ("mlp_fwd", lambda x, a, b: F.linear(F.gelu(F.linear(x, a)), b), (x4, W1, W2), None),
    ]


def main():
    rows = workloads()
    copy_source = rows[0][2][0]
    copy_target = torch.empty_like(copy_source)
    copy_s = median_seconds(lambda: copy_target.copy_(copy_source))
    print(json.dumps({"name": "copy", "GBps": copy_source.numel() * 4 * 2 / copy_s / 1e9}), flush=True)
    for name, f, args, nbytes in rows:
        torch._dynamo.reset()
        eager = median_seconds(lambda: f(*args))
        compiled_f = torch.compile(f)
        torch.cuda.synchronize()
        start = time.perf_counter()
        compiled_f(*args)
        torch.cuda.synchronize()
        cold_compile_s = time.perf_counter() - start
        compiled = median_seconds(lambda: compiled_f(*args))
        compiled_launch = median_seconds(lambda: compiled_f(*args), flush_l2=False)
        reference = f(*[a.double() for a in args]).float()
        error = ((compiled_f(*args) - reference).norm() / reference.norm()).item()
        row = {"name": name, "eager_ms": eager * 1e3, "compiled_ms": compiled * 1e3, "compiled_launch_ms": compiled_launch * 1e3, "cold_compile_s": cold_compile_s, "rel_err": error}
        if nbytes:
            row["eager_GBps"] = nbytes / eager / 1e9
            row["compiled_GBps"] = nbytes / compiled / 1e9
        print(json.dumps(row), flush=True)


main()
