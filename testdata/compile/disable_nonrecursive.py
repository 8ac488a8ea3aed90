# disable(recursive=False) skips only the function's own frame: the helper it calls is
# still compiled as a frame of its own.
import torch

def inner(x):
    return x.sin() + 1

@torch.compiler.disable(recursive=False)
def outer(x):
    return inner(x) * 2

@torch.compile(backend="eager")
def fn(x):
    y = x.cos()
    return outer(y) - 1

print([round(v, 4) for v in fn(torch.arange(3.0)).tolist()])
