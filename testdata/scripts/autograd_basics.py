# Autograd from scripts: backward, grad, no_grad, requires_grad_.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = (a * a).sum()
b.backward()
print(b, a.grad, a.is_leaf, b.requires_grad)
c = torch.ones(2, 2).requires_grad_()
d = (c * 3).mean()
print(d)
d.backward()
print(c.grad)
with torch.no_grad():
    e = c * 2
print(e.requires_grad, torch.is_grad_enabled())
w = torch.tensor(2.0, requires_grad=True)
loss = (w * 3 - 1) ** 2
loss.backward()
print(loss.item(), w.grad)

# torch.cat skips a 1-d empty input, whose gradient is then an empty tensor (not None).
kept = torch.ones(2, requires_grad=True)
skipped = torch.ones(0, requires_grad=True)
torch.cat([kept, skipped]).sum().backward()
print(kept.grad.tolist(), skipped.grad.tolist(), skipped.grad.shape)

# var_mean with only the mean used: var's formula gets no gradient (PyTorch leaves it undefined),
# not zeros, whose var term is 0 * 2 / (n - 1): NaN over a reduced size of 1.
a = torch.ones(1, 3, requires_grad=True)
var, mean = torch.var_mean(a, dim=0, keepdim=True)
mean.sum().backward()
print(a.grad.flatten().tolist())
