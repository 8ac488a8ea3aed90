import torch

@torch.compile
def f(x, y=2):
    if x.sum() > 0:
        return x * y
    return f"{x!r:>{y}}"
