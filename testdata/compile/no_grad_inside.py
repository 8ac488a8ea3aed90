# `with torch.no_grad():` inside a compiled function is traced, not a graph break.
import torch

w = torch.ones(3).requires_grad_()

@torch.compile(backend="eager")
def fn(x):
    y = x * w
    with torch.no_grad():
        z = y * 2
    return y.sum() + z.sum()

out = fn(torch.arange(3.0))
print("%.2f" % out.item(), out.requires_grad)
out.backward()
print(w.grad.tolist())
