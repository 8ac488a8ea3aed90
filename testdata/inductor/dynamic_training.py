# torch.compile(dynamic=True) with a backward: the forward and backward graphs have symbolic
# sizes (the forward returns the size symbols the backward takes). Gradients are checked against
# a float64 eager run at three sizes.
import torch


@torch.compile(dynamic=True)
def f(x, w):
    return (torch.tanh(x * w) + x).sum()


torch.manual_seed(0)
for n in [3, 8, 21]:
    x = torch.randn(n, 4, requires_grad=True)
    w = torch.randn(4, requires_grad=True)
    f(x, w).backward()
    xr = x.detach().double().requires_grad_(True)
    wr = w.detach().double().requires_grad_(True)
    (torch.tanh(xr * wr) + xr).sum().backward()
    x_ok = (x.grad.double() - xr.grad).abs().max().item() < 1e-5
    w_ok = (w.grad.double() - wr.grad).abs().max().item() < 1e-4
    print(n, "ok" if x_ok and w_ok else "bad")
