# requires_grad is part of the tensor guard: flipping it recompiles.
import torch

@torch.compile(backend="eager")
def fn(x):
    return (x * x).sum()

a = torch.arange(3.0)
print("%.2f" % fn(a).item())
b = torch.arange(3.0).requires_grad_()
y = fn(b)
y.backward()
print("%.2f" % y.item(), b.grad.tolist())
print("%.2f" % fn(a + 1).item())
