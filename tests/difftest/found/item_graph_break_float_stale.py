# kiln (any backend, "eager" shown): after a graph break on .item(), the resumed frame uses a stale
# value of the Python float once it has changed twice: from the third call on, a * s multiplies by
# the second call's s. Prints 12.0 and 16.0 where PyTorch prints 18.0 and 32.0.
import torch


def f(a):
    s = a.sum().item()
    return a * s


cf = torch.compile(f, backend="eager")
for k in [1.0, 2.0, 3.0, 4.0]:
    print(k, cf(torch.full((2,), k)).tolist())
