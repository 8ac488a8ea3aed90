# gelu(linear(x, w, b)).sum() under aot_eager: a joint graph when w and b require grad, then an
# inference graph under no_grad.
import torch


def f(x, w, b):
    return torch.nn.functional.gelu(torch.nn.functional.linear(x, w, b)).sum()


cf = torch.compile(f, backend="aot_eager")
torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(5, requires_grad=True)
cf(x, w, b).backward()
with torch.no_grad():
    cf(x, w, b)
