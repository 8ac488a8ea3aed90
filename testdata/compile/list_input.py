# A list of tensors as input: a longer list recompiles; the same length reuses the entry.
import torch

@torch.compile(backend="eager")
def fn(xs):
    out = xs[0]
    for x in xs[1:]:
        out = out * x
    return out + len(xs)

x = torch.arange(1.0, 4.0)
print(fn([x, x]).tolist())
print(fn([x + 1, x]).tolist())
print(fn([x, x, x]).tolist())
