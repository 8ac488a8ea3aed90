# .item() inside a nested helper breaks the graph (capture_scalar_outputs is off).
import torch

def threshold(x):
    return x.max().item()

def clip(x):
    t = threshold(x)
    return x.clamp(max=t / 2)

@torch.compile(backend="eager")
def fn(x):
    return clip(x * 2) + 1

out = fn(torch.arange(6.0))
print([round(v, 4) for v in out.tolist()])
