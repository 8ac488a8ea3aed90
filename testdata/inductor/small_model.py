# A small inference graph for the cache, debug-folder and log tests.
import torch

@torch.compile
def f(x):
    return torch.softmax(x * 2, -1).sum(dim=0)

print(f(torch.ones(4, 8)))
