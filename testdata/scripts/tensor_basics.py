# Tensor creation, arithmetic, reductions, indexing and printing.
import torch

torch.manual_seed(0)
x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
print(x)
print(x + 1, x * x, x / 2, 1 - x, x ** 2)
print(x.sum(), x.sum(dim=0), x.mean(dim=1, keepdim=True), x.max())
print(x[0], x[:, 1], x[1, 2].item(), x.shape, x.size(1), x.dtype, x.tolist())
y = torch.randn(2, 3)
print(y)
print(torch.zeros(2, 2), torch.ones(3, dtype=torch.int64), torch.full((2,), 7.5), torch.tensor([[1, 2], [3, 4]]))
print((x > 2), torch.where(x > 2, x, torch.zeros_like(x)), x.t().contiguous().view(-1))
print(torch.cat([x, x]), torch.stack([x[0], x[1]], dim=1), x @ x.t(), torch.softmax(x, dim=-1))
print(float(x.sum()), int(x[1, 1]), f"{x.mean():.3f}", len(x), [row.sum().item() for row in x])
