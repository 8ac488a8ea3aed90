# kiln inductor: filling a bool tensor with a non-0/1 number (fill_(3), torch.full_like(b, 3)) stores
# 3 in the bool buffer instead of True, so a later sum counts 3 per element: prints 9 (PyTorch: 3).
import torch


def f(a):
    return torch.full_like(a, 3).sum()


print(torch.compile(f, backend="inductor")(torch.tensor([False, False, False])).item())
