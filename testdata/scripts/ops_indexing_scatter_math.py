# Ops added from real scripts: expm1/log2/log10/asin/acos/atan/sinh/cosh/erfc/atan2/fmod (table rows
# with formulas), torch.special, index_put_ and assignment through integer advanced indexing,
# scatter_reduce (every reduction, include_self), scatter(reduce=), baddbmm/addbmm/addmv,
# any/all over dims; eagerly and compiled by every backend.
import torch
x = torch.tensor([-0.5, 0.25, 1e-8, 0.9], dtype=torch.float32)
p = torch.tensor([0.5, 2.0, 8.0, 1e-3])
print(torch.expm1(x), x.expm1(), torch.log2(p), p.log10(), torch.asin(x), torch.acos(x), torch.atan(x))
print(torch.sinh(x), torch.cosh(x), torch.erfc(x), torch.special.expm1(x) if hasattr(torch, 'special') else None)
print(torch.atan2(x, p), torch.fmod(torch.tensor([5., -5., 7.5]), 3), torch.fmod(torch.tensor([5, -5]), torch.tensor([3, 3])))
print(torch.tensor([3, 4]).log2(), x.double().expm1())
g = torch.tensor([0.3, -0.2], requires_grad=True)
y = (g.expm1() + g.log10().nan_to_num() * 0 + torch.atan2(g, g + 2) + torch.fmod(g, 0.25)).sum()
y.backward()
print(g.grad, type(torch.atan2(g, g).grad_fn).__name__, type(torch.fmod(g, 2).grad_fn).__name__, type(g.expm1().grad_fn).__name__)
a = torch.zeros(3, 4)
a[torch.tensor([0, 2]), torch.tensor([1, 3])] = 5.0
print(a)
a[[1, 2]] = torch.tensor([1., 2., 3., 4.])
print(a)
a[:, [0, 3]] = torch.arange(6.).view(3, 2)
print(a)
b = torch.zeros(2, 3, 4)
b[:, [0, 2], [1, 3]] = torch.tensor([7., 8.])
print(b)
b[[0, 1], :, [0, 0]] = 9.0
print(b[:, :, 0])
c = torch.zeros(5)
c.index_put_((torch.tensor([0, 2, 2]),), torch.tensor([1., 2., 3.]), accumulate=True)
print(c)
c[torch.tensor([4, 4])] = 6.0
print(c)
d = torch.zeros(2, 3, dtype=torch.int64)
d[torch.tensor([1]), torch.tensor([2])] = 3
print(d)
x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
y = x.clone()
y[torch.tensor([0, 3])] = x[torch.tensor([1, 2])] * 2
y.sum().backward()
print(x.grad)
e = torch.zeros(3, 3)
e[torch.tensor([True, False, True])] = torch.tensor([1., 2., 3.])
print(e)
e[e > 1] = torch.tensor([10., 20., 30., 40.])
print(e)
try:
    e[torch.tensor([5])] = 1.0
except IndexError as err:
    print("IndexError", err)
torch.manual_seed(0)
src = torch.tensor([1., 2., 3., 4., 5., 6.])
idx = torch.tensor([0, 1, 0, 1, 2, 1])
for r in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        print(r, inc, torch.zeros(4).scatter_reduce(0, idx, src, r, include_self=inc), torch.full((4,), 2.).scatter_reduce(0, idx, src, reduce=r, include_self=inc))
x = torch.randn(3, 4)
i2 = torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]])
print(x.scatter_reduce(0, i2, torch.randn(2, 4), "amax"), x.scatter_reduce(1, torch.tensor([[0, 0], [1, 3], [3, 3]]), torch.ones(3, 2), "mean", include_self=False))
print(torch.zeros(3, dtype=torch.int64).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([5, 3, 4]), "amax", include_self=False))
print(torch.ones(2, 3).scatter(1, torch.tensor([[0, 1], [2, 2]]), 2.0, reduce="add"))
a = torch.randn(2, 3, 4); b = torch.randn(2, 4, 5); c = torch.randn(2, 3, 5)
print(torch.allclose(torch.baddbmm(c, a, b), c + a @ b), torch.baddbmm(c, a, b, beta=0.5, alpha=2).shape, c.baddbmm(a, b).shape)
print(torch.addmv(torch.zeros(3), torch.ones(3, 2), torch.ones(2)), torch.addbmm(torch.zeros(3, 5), a, b).shape)
print(torch.index_put(torch.zeros(3), (torch.tensor([1]),), torch.tensor(5.)))
w = torch.randn(4, dtype=torch.float64, requires_grad=True)
out = torch.zeros(2, dtype=torch.float64).scatter_reduce(0, torch.tensor([0, 1, 0, 1]), w, "amax", include_self=False)
out.sum().backward()
print(w.grad)
m = torch.tensor([[True, False, False], [False, False, False]])
print(m.any(-1), m.any(dim=0, keepdim=True), torch.all(m, 1), m.all(), torch.tensor([[1, 2], [0, 3]]).all(dim=1), m.any())
def f(x, idx):
    return torch.zeros(3).scatter_reduce(0, idx, x, "amax", include_self=False) + torch.expm1(x[:3]) + torch.atan2(x[:3], x[3:6] + 2), (x > 0).any(-1)
x = torch.randn(6); idx = torch.tensor([0, 1, 1, 2, 0, 2])
ref = f(x, idx)
for backend in ["eager", "aot_eager", "inductor"]:
    torch._dynamo.reset()
    out = torch.compile(f, backend=backend)(x, idx)
    print(backend, torch.allclose(out[0], ref[0]), torch.equal(out[1], ref[1]))

def g(x, idx, v):
    y = x.clone()
    y[idx] = v
    y[:, torch.tensor([0, 2])] += 1.0
    z = torch.zeros(6).index_put_((idx,), v.sum(1), accumulate=True)
    return y * 2, z

x = torch.randn(6, 3)
idx = torch.tensor([0, 3, 5])
v = torch.randn(3, 3)
ref = g(x, idx, v)
for backend in ["eager", "aot_eager", "inductor"]:
    torch._dynamo.reset()
    out = torch.compile(g, backend=backend)(x, idx, v)
    print(backend, [torch.allclose(a, b) for a, b in zip(out, ref)])
