# torch.einsum: matrix and batched products, transposes, traces of contractions, outer products,
# implicit outputs (alphabetical), ellipses that broadcast, three operands, operands as a list,
# gradients (float64), and the errors of bad equations.
import torch

torch.manual_seed(0)
a = torch.randn(2, 3)
b = torch.randn(3, 4)
c = torch.randn(5, 3, 4)
d = torch.randn(5, 4, 2)
v = torch.randn(3)
w = torch.randn(4)
print(torch.einsum("ij,jk->ik", a, b))
print(torch.allclose(torch.einsum("ij,jk->ik", a, b), a @ b))
print(torch.einsum("ij->ji", a))
print(torch.einsum("ij", a).shape, torch.einsum("ji", a).shape)
print(torch.einsum("bij,bjk->bik", c, d).shape, torch.allclose(torch.einsum("bij,bjk->bik", c, d), c @ d, atol=1e-6))
print(torch.einsum("i,j->ij", v, w))
print(torch.einsum("i,i->", v, v), torch.einsum("ij->", a), torch.einsum("ij->j", a))
print(torch.einsum("...ij,...jk->...ik", c, d).shape)
print(torch.einsum("bhqd,bhkd->bhqk", torch.randn(2, 3, 4, 5), torch.randn(2, 3, 6, 5)).shape)
print(torch.einsum("ij,jk,kl->il", a, b, torch.randn(4, 2)))
print(torch.einsum("ij,jk->ik", [a, b]).shape)
print(torch.einsum("...i,...i->...", torch.randn(2, 1, 3), torch.randn(4, 3)).shape)
print(torch.einsum("nc,c->n", a, v))
print(torch.einsum("i,j,k->ijk", v, v, v).shape, torch.einsum("Ab,bC->AC", a, b).shape)
x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
y = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
out = torch.einsum("ij,jk->ik", x, y)
out.sum().backward()
print(out.grad_fn is not None, torch.allclose(x.grad, y.sum(1).expand(2, 3)), torch.allclose(y.grad, x.sum(0).unsqueeze(1).expand(3, 4)))
print(torch.autograd.gradcheck(lambda p, q: torch.einsum("ij,kj->ik", p, q), (x.detach().requires_grad_(), torch.randn(5, 3, dtype=torch.float64, requires_grad=True))))
for bad in [("ij,jk->ik", a), ("ij->ik", a), ("ijk->i", a), ("ij,jk->ii", a, b), ("i2->i", a), ("ij",)]:
    try:
        torch.einsum(*bad)
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
