# cumsum and cumprod (dtype promotion of integers, dtype=, gradients), flip, and the same inside
# compiled functions on every backend.
import torch
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
print(torch.cumsum(a, dim=1), a.cumprod(0))
print(torch.arange(5).cumsum(0), torch.tensor([True, False, True]).cumsum(0).dtype, torch.arange(1, 6).cumprod(0, dtype=torch.float64))
(a.cumsum(1) * torch.arange(4.0)).sum().backward()
print(a.grad)
a.grad = None
(a.cumprod(1) * torch.arange(4.0)).sum().backward()
print(a.grad)
print(torch.flip(a, [0, 1]), a.flip(1).grad_fn.name())
try:
    torch.cumsum(a, dim=2)
except IndexError as e:
    print("IndexError:", e)
def f(x):
    return (x.cumsum(-1).flip(0) * x.cumprod(0)).sum()
x = torch.rand(3, 5) + 0.5
for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    torch._dynamo.reset()
    xx = x.clone().requires_grad_(True)
    out = torch.compile(f, backend=backend)(xx)
    out.backward()
    print(backend, f"{out.item():.5f}", f"{xx.grad.sum().item():.5f}")
