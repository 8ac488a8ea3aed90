# Two graphs of the same signature (one input of the same size, one op each): a compile cache
# that handed one graph's kernels to the other would print False.
import torch


def sine(x):
    return torch.sin(x) + 1


def cosine(x):
    return torch.cos(x) + 1


x = torch.linspace(-3, 3, 7)
for fn in (sine, cosine):
    compiled = torch.compile(fn)(x)
    print(fn.__name__, torch.allclose(compiled, fn(x)), [round(v, 4) for v in compiled.tolist()])
