# Data-dependent branches at the top level and two calls deep each break the graph.
import torch

def sign_fix(x):
    if x.sum() < 0:
        return -x
    return x

def pipeline(x):
    y = x * 2
    return sign_fix(y) + 1

@torch.compile(backend="eager")
def fn(x):
    if x.mean() > 0:
        x = x - 1
    return pipeline(x).cos()

print([round(v, 4) for v in fn(torch.arange(4.0)).tolist()])
print([round(v, 4) for v in fn(torch.arange(-4.0, 0.0)).tolist()])
