# kiln (eager too): var_mean over a dimension of size 1 with only the mean used: the gradient is
# NaN, PyTorch's 1.0. Kiln's engine hands var's formula a zero gradient for the unused output
# (PyTorch leaves it undefined and the formula skips it), and 0 * 2/(n-1) with n = 1 is NaN.
# Prints "[1.0, 1.0, 1.0]" under PyTorch.
import torch

a = torch.ones(1, 3, requires_grad=True)
var, mean = torch.var_mean(a, dim=0, keepdim=True)
mean.sum().backward()
print(a.grad.flatten().tolist())
