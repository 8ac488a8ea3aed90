# Reductions with dim/keepdim, argmax/argmin, comparisons, where, clamp, softmax.
import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(x.sum(0), x.sum(1, keepdim=True), x.sum((0, 1)), x.mean(), x.mean(-1), x.prod(1), x.std(), x.var(dim=1), x.std(0))
print(x.max(), x.max(dim=1)[0], x.max(0)[1], x.min(dim=0, keepdim=True)[0])
print(x.argmax(), x.argmax(dim=1), x.argmax(1, keepdim=True), torch.argmax(x, dim=0))
v, i = x.max(dim=1)
print(v, i, x.amax(1), x.amin(0), x.abs().sum())
print(x > 3, x == 2, x != 1, x <= 4, x.ge(3), x.lt(3), torch.eq(x, x), (x > 2) & (x < 6), (x < 2) | (x > 5), ~(x > 3))
print(torch.where(x > 3, x, -x), torch.where(x > 3, x, 0.0), x.clamp(2, 5), x.clamp(min=3), torch.clamp(x, max=2.5))
print(torch.softmax(x, dim=1), torch.log_softmax(x, dim=0), x.softmax(-1).sum(-1), torch.nn.functional.softmax(x, dim=0))
print((x > 3).sum(), (x > 3).sum(dim=1), (x > 3).float().mean())
print(torch.maximum(x, torch.full_like(x, 3.5)))
print(torch.minimum(x, x.t().reshape(2, 3)), x.sign(), x.mean(dim=(0, 1), keepdim=True))
