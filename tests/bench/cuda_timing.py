# What the CUDA benchmarks share: a callable's median time over CUDA events, after warm-up calls
# (the GPU machine's PyTorch and kiln both have torch.cuda.Event; Triton's do_bench is not in kiln).
import torch


def median_seconds(fn, calls=50, warm_up=10):
    for _ in range(warm_up):
        fn()
    times = []
    for _ in range(calls):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    times.sort()
    return times[len(times) // 2]
