# kiln drops `t[idx] = value` inside a torch.compile'd function (every backend, even "eager"):
# the compiled result is the unmodified clone; PyTorch (and kiln eagerly) write the slice.
import torch


def f(a):
    v = a.clone()
    v[1:] = -2.0
    return v


a = torch.arange(4.0)
print("eager   ", f(a).tolist())
print("compiled", torch.compile(f, backend="eager")(a).tolist())
