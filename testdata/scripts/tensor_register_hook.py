# Tensor.register_hook and retain_grad: hooks on leaves and intermediates, replacing or observing the
# gradient, their order, removal, hooks outliving their tensor, torch.autograd.grad, errors.
import torch

x = torch.ones(3, requires_grad=True)
y = x * 2
y.retain_grad()
h = y.register_hook(lambda g: g * 10)
x.register_hook(lambda g: print("x grad", g))
(y ** 2).sum().backward()
print(x.grad, y.grad, y.retains_grad, x.retains_grad, x.is_leaf, y.is_leaf)
h.remove()
x.grad = None
(x * 2).sum().backward()
print(x.grad)

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
seen = []
w.register_hook(lambda g: seen.append(("first", g.tolist())))
w.register_hook(lambda g: g.clamp(-1.0, 1.0))
w.register_hook(lambda g: seen.append(("third", g.tolist())))
(w * torch.tensor([5.0, -0.5, -7.0])).sum().backward()
print(seen, w.grad)


def make_hidden(a):
    hidden = a.exp()
    hidden.register_hook(lambda g: g * 0)
    return hidden.sum()


a = torch.zeros(2, requires_grad=True)
make_hidden(a).backward()
print("hook of a dead tensor", a.grad)

b = torch.ones(2, requires_grad=True)
c = b * 3
c.register_hook(lambda g: g + 1)
print(torch.autograd.grad(c.sum(), b, retain_graph=True))
with c.register_hook(lambda g: g * 100):
    pass
print(torch.autograd.grad((c * 2).sum(), b))

try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as error:
    print(error)
d = torch.ones(2, requires_grad=True)
d.register_hook(lambda g: 1 / 0)
try:
    (d * 2).sum().backward()
except ZeroDivisionError as error:
    print("ZeroDivisionError", error)
