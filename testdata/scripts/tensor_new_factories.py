# Tensor.new_zeros/new_ones/new_empty/new_full/new_tensor: sizes as ints or a tuple, self's dtype unless
# dtype= is given, requires_grad.
import torch
x = torch.ones(2, 3, dtype=torch.float64)
print(x.new_zeros(2), x.new_zeros((1, 2)), x.new_ones(3, dtype=torch.int64), x.new_empty(0, 4).shape)
print(x.new_full((2, 2), 7), x.new_full([1], 2.5, dtype=torch.float16))
print(x.new_tensor([1, 2]), x.new_tensor([1, 2]).dtype, torch.tensor([1, 2]).new_tensor([0.5]))
print(x.new_zeros(2, requires_grad=True))
i = torch.tensor([3, 4])
print(i.new_zeros(2).dtype, i.new_tensor(torch.tensor([1.5, 2.5])))
