# torch functions PyTorch implements natively and kiln composes: rounding, reshaping, sorting,
# reductions, searching, data-dependent results (nonzero, unique, bincount), in-place index ops.
import math

import torch

torch.manual_seed(0)
x = torch.randn(3, 4) * 3
v = torch.tensor([2.5, -1.5, 0.0, -0.0, 3.0, float("inf"), -float("inf"), float("nan")])
print(torch.floor(v), torch.ceil(v), torch.trunc(v), torch.frac(v[:5]), x.floor()[0])
print(torch.narrow(x, 1, 1, 2), x.narrow(0, -2, 1), torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape,
      torch.movedim(torch.zeros(2, 3, 4), (0, 1), (2, 0)).shape)
print(torch.roll(torch.arange(6), 2), torch.roll(torch.arange(6).view(2, 3), (1, -1), (0, 1)), torch.roll(torch.arange(6).view(2, 3), 1))
print(torch.outer(torch.arange(3.), torch.tensor([1., 2.])))
s = torch.tensor([3., 1., 2., 5.])
print(torch.sort(s), torch.sort(x, dim=0, descending=True).indices, torch.argsort(s), torch.msort(x)[0])
print(torch.logsumexp(x, 1), torch.logsumexp(x, (0, 1)), x.logsumexp(0, keepdim=True),
      torch.logsumexp(torch.tensor([-math.inf, -math.inf]), 0))
print(torch.lerp(torch.zeros(3), torch.ones(3) * 10, 0.3), torch.lerp(s, s * 2, torch.tensor([0.1, 0.6, 0.5, 1.0])))
print(torch.nan_to_num(v), torch.nan_to_num(v, nan=1.0, posinf=2.0, neginf=-2.0))
print(torch.count_nonzero(torch.tensor([[0, 1], [2, 0]])), torch.count_nonzero(torch.tensor([[0, 1], [2, 0]]), dim=0))
print(torch.aminmax(x), torch.aminmax(x, dim=1))
print(torch.std_mean(x), torch.std_mean(x, dim=1))
print(torch.median(s), torch.median(x, 1), torch.kthvalue(s, 2))
print(torch.diff(s), torch.diff(s, n=2), torch.diff(x, dim=0), torch.diff(s, prepend=torch.tensor([0.])))
print(torch.diag(torch.tensor([1., 2.])), torch.diag(torch.tensor([1., 2.]), 1), torch.diag(x), torch.diag(x, -1),
      torch.trace(x))
print(torch.cdist(x, x[:2]), torch.cdist(x, x[:2], p=1))
print(torch.searchsorted(torch.tensor([1., 2., 3., 5.]), torch.tensor([0.5, 2., 4., 9.])),
      torch.searchsorted(torch.tensor([1., 2., 3., 5.]), torch.tensor([2., 3.]), right=True),
      torch.bucketize(torch.tensor([0.5, 2.0]), torch.tensor([1., 2., 3.])))
m = torch.tensor([[0, 1, 0], [2, 0, 3]])
print(torch.nonzero(m), torch.nonzero(m, as_tuple=True), torch.where(m > 0), torch.argwhere(m))
print(torch.unique(torch.tensor([3, 1, 3, 2, 1])), torch.unique(torch.tensor([3, 1, 3, 2, 1]), return_inverse=True,
                                                                 return_counts=True))
print(torch.bincount(torch.tensor([0, 1, 1, 4])), torch.bincount(torch.tensor([0, 1, 1]), minlength=5),
      torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1.0, 2.0])))
print(torch.masked_select(x, x > 2))
t = torch.zeros(3, 4)
print(t.clone().index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 4)), t.clone().scatter_(1, torch.tensor([[1], [3], [0]]), 1.0))
print(t.clone().scatter_(0, torch.tensor([[0, 1, 2, 0]]), torch.tensor([[5., 6., 7., 8.]])),
      t.clone().scatter_add_(0, torch.tensor([[0, 0, 1, 1]]), torch.ones(1, 4)))
print(x.clone().index_fill_(1, torch.tensor([0, 2]), -1.0), t.clone().index_copy_(0, torch.tensor([2, 0]), torch.ones(2, 4) * 9))
print(torch.finfo(torch.float32), torch.finfo(torch.bfloat16).eps, torch.iinfo(torch.int32), torch.iinfo(torch.int64).max)
w = torch.ones(4, requires_grad=True)
y = torch.zeros(2, 4).index_add(0, torch.tensor([1]), w.unsqueeze(0) * 2)
y.sum().backward()
print(w.grad)
