# A dict of tensors as input: same keys hit the cache, a new key set recompiles.
import torch

@torch.compile(backend="eager")
def fn(d):
    total = d["a"] * 2
    for k in sorted(d):
        total = total + d[k]
    return total

x = torch.arange(3.0)
print(fn({"a": x, "b": x + 1}).tolist())
print(fn({"a": x + 2, "b": x}).tolist())
print(fn({"a": x, "b": x, "c": x * 10}).tolist())
