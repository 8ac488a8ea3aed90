# kiln (aot_eager and the other AOT backends): a tensor made from a Python list inside the compiled
# function and then used by another op (index_select / indexing by it, clone, ...) fails: "aot:
# index_select reads a tensor the traced program neither received nor made (tensor constants are
# not lifted yet)". PyTorch prints [[1.0, 2.0], [5.0, 6.0]].
import torch


def f(x):
    return torch.index_select(x, 0, torch.tensor([0, 2]))


try:
    print(torch.compile(f, backend="aot_eager")(torch.arange(1.0, 7.0).reshape(3, 2)).tolist())
except Exception as e:
    print(type(e).__name__, [l for l in str(e).split("\n") if l][1][:100])
