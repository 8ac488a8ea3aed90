# tril/triu, masked_fill (scalar and 0-dim tensor values, in place, broadcast), topk, repeat and
# their gradients; PyTorch's errors for bad calls; compiled by every backend.
import torch
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
print(torch.tril(a), a.triu(1), torch.tril(a, -1).grad_fn.name())
(torch.tril(a, 1) * 2 + torch.triu(a, 2)).sum().backward()
print(a.grad)
m = torch.tensor([[True, False, True, False]])
b = a.masked_fill(m, float("-inf"))
print(b, b.grad_fn.name())
a.grad = None
a.masked_fill(m, 0.5).sum().backward()
print(a.grad)
v = torch.tensor(2.5, requires_grad=True)
c = a.masked_fill(a > 0, v)
c.sum().backward()
print(c.grad_fn.name(), v.grad)
z = torch.zeros(2, 3)
z.masked_fill_(torch.tensor([True, False, True]), 7)
print(z)
print(torch.ones(2, 3, dtype=torch.long).masked_fill(torch.tensor([True, False, True]), 2.7))
values, indices = torch.topk(a, 2)
print(values, indices)
print(torch.topk(torch.tensor([1., 3., 3., 2.]), 3, largest=False))
print(torch.max(a, 1).indices, torch.topk(torch.arange(200.0) % 7, 3))
a.grad = None
torch.topk(a, 2, dim=0)[0].sum().backward()
print(a.grad)
r = a.repeat(2, 1, 3)
print(r.shape, r.grad_fn.name(), r.grad_fn.next_functions[0][0].name())
a.grad = None
(r * torch.arange(24.0).reshape(2, 3, 4).repeat(1, 1, 3)).sum().backward()
print(a.grad)
for bad in [lambda: torch.tril(torch.ones(3)),
            lambda: a.masked_fill(torch.ones(3, 4), 1.0),
            lambda: a.masked_fill(a > 0, torch.ones(2)),
            lambda: torch.topk(torch.ones(3), 4),
            lambda: a.repeat(2),
            lambda: torch.zeros(1, 3).masked_fill_(torch.ones(2, 1, dtype=torch.bool), 1.0)]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
def f(x, mask):
    causal = torch.tril(torch.ones(4, 4))
    s = (x @ x.t()).masked_fill(causal == 0, float("-inf"))
    w = torch.softmax(s, dim=-1).masked_fill(mask, 0.0)
    top = torch.topk(w, 2, dim=-1).values
    return (w.triu() + top.repeat(1, 2)).sum()
mask = torch.tensor([[False, True, False, False]])
x = torch.randn(4, 3)
for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    torch._dynamo.reset()
    xx = x.clone().requires_grad_(True)
    out = torch.compile(f, backend=backend)(xx, mask)
    out.backward()
    print(backend, f"{out.item():.5f}", f"{xx.grad.sum().item():.5f}")
