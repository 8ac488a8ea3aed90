# Tensor methods that are ops of the table are attributes of torch.Tensor itself: callable
# through the class with the tensor first, found by hasattr, the same function on every access.
import torch

x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
print(torch.Tensor.add(x, x), torch.Tensor.contiguous(x.t()), torch.Tensor.t(x).shape)
print(hasattr(torch.Tensor, "contiguous"), hasattr(torch.Tensor, "sigmoid"), hasattr(torch.Tensor, "not_an_op"))
print(torch.Tensor.t is torch.Tensor.t, x.contiguous() is x, x.t().contiguous().stride())
try:
    x.not_an_op
except AttributeError as error:
    print(error)
