# torch.isclose / allclose / equal and Tensor.all / any, as PyTorch defines them: infinities equal
# themselves, NaNs only with equal_nan, the two dtypes must match; all/any of nothing.
import torch
a = torch.tensor([1.0, float('nan'), 3.0, float('inf')])
b = torch.tensor([1.0 + 1e-7, float('nan'), 3.1, float('inf')])
print(torch.isclose(a, b).tolist(), torch.isclose(a, b, equal_nan=True).tolist())
print(torch.allclose(a, b), torch.allclose(a[:1], b[:1]), a.allclose(a, equal_nan=True), a[2:].isclose(b[2:], rtol=0.1).tolist())
print(torch.equal(a[:1], a[:1]), torch.equal(a, b), a.equal(a[:2]), torch.tensor([1, 2]).equal(torch.tensor([1, 2])))
print(torch.all(torch.tensor([True, False])).item(), torch.tensor([0.0, 2.0]).any().item(), torch.tensor([]).all().item(), torch.tensor([]).any().item())
print(torch.tensor([[1, 2], [3, 0]]).all(), torch.tensor(float('nan')).all())
try:
    torch.isclose(torch.ones(2), torch.ones(2, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
