# kiln (any backend, "eager" shown): a compiled function returning `a.double()` (or its size) while
# another, unused op reads it returns the *first call's* tensor on every later call: the values
# stay [1.0, 1.0], the backward goes into the first call's input (its grad becomes 2.0, the new
# input's stays None), and v.shape[0] stays 3. PyTorch prints:
#   [5.0, 5.0] [1.0, 1.0] [1.0, 1.0]
#   [3, 5, 7, 9]
import torch


def f(a):
    v = a.double()
    v.clone()
    return v


def g(a):
    v = a.double()
    v.sigmoid()
    return v.shape[0]


cf = torch.compile(f, backend="eager")
a1 = torch.ones(2, requires_grad=True)
cf(a1).sum().backward()
a2 = torch.full((2,), 5.0, requires_grad=True)
out = cf(a2)
out.sum().backward()
print(out.tolist(), a1.grad.tolist(), None if a2.grad is None else a2.grad.tolist())

cg = torch.compile(g, backend="eager")
print([cg(torch.ones(n, 6)) for n in [3, 5, 7, 9]])
