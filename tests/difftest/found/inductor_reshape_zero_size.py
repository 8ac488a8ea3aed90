# kiln inductor: a reshape of a zero-element tensor followed by a pointwise op fails to compile with
# "index modulo by 0, not known positive" (the view's index arithmetic divides by the 0 size).
# PyTorch prints torch.Size([0, 2]).
import torch


def f(a):
    return a.reshape(-1, 2) + 1


print(torch.compile(f, backend="inductor")(torch.ones(0, 3)).shape)
