# How tensors print: sizes, dtypes, scientific notation, integers, bools, empty, large.
import torch

print(torch.tensor(3.0), torch.tensor(-0.5), torch.tensor(7), torch.tensor(True), torch.tensor([]), torch.zeros(0, 3))
print(torch.tensor([1.0, 2.5, -3.25]), torch.tensor([1e-5, 1.0]), torch.tensor([1e8, 1.0]), torch.tensor([123456.0, 0.1]))
print(torch.tensor([1e-10, 1e10]), torch.tensor([0.1, 0.25]), torch.tensor([1.0, 2.0]), torch.tensor([-1.0, 100.0]))
print(torch.tensor([float("inf"), float("-inf"), float("nan"), 1.0]), torch.tensor([float("nan")]), torch.tensor([0.0, -0.0]))
print(torch.tensor([1, -20, 300]), torch.tensor([[True, False], [False, True]]), torch.tensor([1.5], dtype=torch.float64))
print(torch.arange(12).reshape(2, 2, 3), torch.arange(4.0).reshape(1, 4, 1))
print(torch.arange(2000.0))
print(torch.arange(1500).reshape(30, 50))
print(torch.ones(2, 3, dtype=torch.float16), torch.ones(2, dtype=torch.bfloat16) / 3, torch.ones(2, dtype=torch.int32), torch.tensor([2.0], requires_grad=True))
print(torch.tensor([0.123456789, 12.3456789]), torch.tensor([1.0, 1e-4]), torch.tensor([100000.0, 1.5]), torch.tensor([5.0e-3, 2.0]))
print(repr(torch.tensor([1.0, 2.0])), str(torch.tensor([1, 2])), f"{torch.tensor(1.5)}", torch.tensor([[1.0]]).shape, torch.ones(2, 3).shape)
x = torch.linspace(0, 1, 5)
print(x, torch.linspace(-1, 1, 4), torch.arange(0, 1, 0.25), torch.full((2, 2), -1.5), torch.eye(3), torch.zeros_like(x), torch.ones_like(x, dtype=torch.int64))
torch.manual_seed(1)
print(torch.rand(2, 2), torch.randn(3), torch.randint(0, 10, (5,)), torch.randn(2, 2, dtype=torch.float64))
