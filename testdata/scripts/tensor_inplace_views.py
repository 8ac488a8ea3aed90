# In-place ops, views sharing storage, version counters and contiguity.
import torch

x = torch.arange(6.0)
v = x.view(2, 3)
v[0, 1] = 10.0
print(x, v)
x.add_(1)
print(v)
x.mul_(2).sub_(1)
print(x)
y = torch.zeros(2, 3)
y[:, 0] = torch.tensor([1.0, 2.0])
y[1] = 5
y[0, 1:] += 3
print(y)
z = torch.ones(3)
z.zero_()
z.fill_(2.5)
print(z, z.sqrt_(), z)
t = torch.arange(12).reshape(3, 4)
print(t.transpose(0, 1), t.permute(1, 0).shape, t.unsqueeze(0).shape, t.unsqueeze(-1).shape, t.flatten(), t.reshape(-1, 6))
print(t.view(4, 3), t.expand(2, 3, 4).shape, t[None].shape, t[None].squeeze(0).shape)
s = torch.ones(1, 3, 1)
print(s.squeeze(0).shape, s.squeeze(-1).shape, s.contiguous().shape, s.clone().add_(1))
c = t.clone()
c[0, 0] = 100
print(t[0, 0].item(), c[0, 0].item(), t.select(0, 1))
w = torch.tensor([1.0, -2.0, 3.0])
w.copy_(torch.tensor([4.0, 5.0, 6.0]))
print(w, w.index_select(0, torch.tensor([2, 0])))

# as_strided: any geometry over the storage (checked against its bounds), its gradient, and
# as_strided_scatter, which AOT's functionalization of writes through views records.
x = torch.arange(12.0)
print(x.as_strided((2, 2), (1, 6), 2))
print(torch.as_strided(x, (3,), (4,)))
print(torch.as_strided_scatter(torch.zeros(6), torch.ones(2), (2,), (2,), 1))
try:
    x.as_strided((2, 2), (4, 4), 6)
except RuntimeError as e:
    print(e)
w = torch.arange(6.0, requires_grad=True)
w.as_strided((2,), (2,), 1).sum().backward()
print(w.grad)
