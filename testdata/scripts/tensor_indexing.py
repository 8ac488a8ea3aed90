# Indexing with ints, slices, None, Ellipsis, bool masks and index tensors; cat/stack/split/chunk.
import torch

t = torch.arange(24).reshape(2, 3, 4)
print(t[1], t[0, 2], t[1, 2, 3], t[-1, -1], t[:, 1], t[..., 0], t[0, ..., 1:3], t[:, None, 0].shape, t[None, ..., None].shape)
print(t[:, ::2, 1::2], t[0, 1:], t[0, :-1, ::3], t[1][1][1], t[:, 0:0].shape, t[0, -2:, -1], t[..., -1].shape)
m = torch.tensor([[1, -2], [-3, 4]])
print(m[torch.tensor([1, 0])], m[:, torch.tensor([1])])
m = torch.where(m < 0, torch.zeros_like(m), m)
print(m, m.tolist(), m[0].tolist(), m[0, 0].tolist(), m.sum().item(), type(m.sum().item()).__name__, type(m.float().mean().item()).__name__)
a = torch.ones(2, 3)
b = torch.zeros(1, 3)
print(torch.cat([a, b]), torch.cat([a, a], dim=1).shape, torch.cat((a, b), 0).shape, torch.stack([a, a]).shape, torch.stack([a, a], dim=-1).shape)
s = torch.arange(10)
print(s.split(3), s.chunk(3), torch.chunk(s, 4), s.reshape(2, 5).split(2, dim=1))
print(torch.arange(6).reshape(2, 3).tolist(), torch.tensor([[1.5, 2.0]]).tolist(), torch.tensor(7).tolist(), torch.tensor([True]).tolist(), torch.zeros(0).tolist())
print(len(t), t.shape[0], t.size(), t.size(-1), t.dim(), t.ndim, t.numel(), tuple(t.shape), list(t.shape), t.shape == (2, 3, 4), t.shape[1:])
for row in torch.arange(4).reshape(2, 2):
    print(row, row.shape)
print([x.item() for x in torch.tensor([3, 1, 2])], int(torch.tensor(5)), float(torch.tensor(2.5)), bool(torch.tensor(0)), torch.tensor([1, 2]).max().item())
