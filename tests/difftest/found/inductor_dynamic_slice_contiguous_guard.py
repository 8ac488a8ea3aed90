# kiln inductor, dynamic shapes (the second call's new size recompiles): slicing one off a dynamic
# dim and making it contiguous, (a + 1)[:, 1:].contiguous(), fails with "Could not guard on
# data-dependent expression 1 < s0 - 1 (symbolic shape propagation has no example values to guard
# on)". PyTorch prints [5, 3] / [5, 5] / [5, 7].
import torch


def f(a):
    return (a + 1)[:, 1:].contiguous()


cf = torch.compile(f, backend="inductor")
for n in [4, 6, 8]:
    print(list(cf(torch.ones(5, n)).shape))
