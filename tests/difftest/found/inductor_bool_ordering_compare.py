# kiln inductor: <, <=, >, >= between bool tensors order True below False (as a signed 1-bit
# compare would): gt([True, False, True, False], [False, False, True, True]) gives
# [False, False, False, True]; PyTorch: [True, False, False, False].
import torch


def f(a, b):
    return torch.gt(a, b)


a = torch.tensor([True, False, True, False])
b = torch.tensor([False, False, True, True])
print(torch.compile(f, backend="inductor")(a, b).tolist())
