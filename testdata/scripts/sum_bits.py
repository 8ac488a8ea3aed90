# Floating sums to the last bit: PyTorch's CPU kernel adds in its own order (vectors of 32 bytes,
# 4 partial sums, 4 levels of accumulators; down columns for a reduction over leading dims), which
# kiln follows for float32 and float64. Ill-conditioned programs show the difference (difftest
# seed 9781: layer_norm(x).sum(-1) is exactly 0.0 in PyTorch's order, -4.9e-08 correctly rounded).
import torch
import torch.nn.functional as F


def values(shape, salt, dtype):
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n)
    v = ((i * 37 + salt * 13) % 101 - 50).to(torch.float64) / 25.0 + ((i * 7 + salt) % 13).to(torch.float64) / 1000.0
    return (v * (1.0 + (i % 5).to(torch.float64) * 1e-3)).to(dtype).reshape(shape)


for dtype in [torch.float32, torch.float64]:
    for shape in [(3,), (8,), (13,), (100,), (257,), (4099,), (3, 5), (7, 9), (9, 40), (40, 9), (2, 3, 4), (4, 33, 5), (70, 70), (6, 1, 7)]:
        x = values(shape, 1, dtype)
        outs = [x.sum(), x.mean()] + [x.sum(d) for d in range(len(shape))] + [x.mean(d) for d in range(len(shape))]
        if len(shape) >= 2:
            outs += [x.sum((0, 1)), x.transpose(0, 1).sum(0), x.transpose(0, -1).sum(-1)]
            # Reduced dims out of memory order: added in memory order (difftest seed 19950).
            outs += [x.transpose(-2, -1).sum(), x.transpose(-2, -1).mean()]
        if len(shape) == 3:
            outs += [x.permute(2, 0, 1).sum((0, 2)), x.permute(2, 1, 0).sum((1, 2))]
        print(dtype, shape, [o.flatten().tolist() for o in outs])

x = (((torch.arange(3) * 37 + 26) % 101 - 50).to(torch.float64) / 25.0).to(torch.float32)
print(F.layer_norm(x, [3]).sum(-1).item(), torch.tensor(2.0).sum().flatten().shape)

# Above 32768 elements a whole-tensor sum is split among the threads (ATen's two-pass reduction):
# each chunk is added alone, then the chunk sums in order, so the result depends on the thread
# count, which is set here. Sums down many columns read blocks of columns at a time.
for threads in [1, 2, 3]:
    torch.set_num_threads(threads)
    print("threads", torch.get_num_threads())
    for dtype in [torch.float32, torch.float64]:
        for shape in [(70001,), (300, 129), (3, 70000)]:
            x = values(shape, 2, dtype) * 1000.0
            outs = [x.sum(), x.mean()]
            if len(shape) == 2:
                outs += [x.t().sum(), x.sum(0), x.sum(1), x.t().sum(1), x.mean(0)]
            print(dtype, shape, [o.flatten().tolist()[:40] for o in outs])
for bad in [0, "2"]:
    try:
        torch.set_num_threads(bad)
    except RuntimeError as error:
        print("RuntimeError:", error)
# Nothing to add up: sums are zeros and means NaN, whichever layout.
empty = torch.zeros(0, 3, 40)
print(empty.sum(0).shape, empty.sum(0).sum().item(), empty.transpose(0, 2).sum(2).shape, empty.mean(0)[0, :2].tolist())
