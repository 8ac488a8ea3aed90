# Python code reads a size that automatic dynamic made symbolic (x.shape[0]) and bakes it into a
# reshape and a product: later sizes must not reuse the first value.
import torch


@torch.compile(backend="eager")
def fn(x):
    n = x.shape[0]
    return x.reshape(n, -1).sum(1) * n


for rows in (3, 4, 5, 6):
    print(fn(torch.ones(rows, 2)))
