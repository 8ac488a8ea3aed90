# What the CUDA benchmarks share: a callable's median time over CUDA events after warm-up calls,
# measured as Triton's do_bench measures it (what bench.py, and so the acceptance's PyTorch
# numbers, use; do_bench itself is not in kiln): before each timed call a 256 MB buffer is
# zeroed, so that the call's inputs are not in the L2 cache and the host's launch of the call
# overlaps the zeroing instead of being timed. With flush_l2=False the events time the call as a
# lone launch on an idle GPU: the host's cost of launching it is counted too.
import torch

_l2_flush = None


def median_seconds(fn, calls=50, warm_up=10, flush_l2=True):
    global _l2_flush
    if flush_l2 and _l2_flush is None:
        _l2_flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int, device="cuda")
    for _ in range(warm_up):
        fn()
    times = []
    for _ in range(calls):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        if flush_l2:
            _l2_flush.zero_()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    times.sort()
    return times[len(times) // 2]
