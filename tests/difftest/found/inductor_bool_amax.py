# kiln inductor: amax of a bool tensor is True when every element is False (the reduction starts
# from a "lowest" value that is not False): [True, True]. PyTorch prints [False, True].
import torch


def f(a):
    return a.amax(-1)


print(torch.compile(f, backend="inductor")(torch.tensor([[False, False], [True, False]])).tolist())
