# Tensor.is_contiguous(): row-major in memory, for views that are and are not; memory_format is
# keyword-only.
import torch

x = torch.ones(2, 3)
print(x.is_contiguous(), x.t().is_contiguous(), x[:, ::2].is_contiguous(), x[:1].is_contiguous())
print(torch.ones(2, 1, 3)[:, :, 1:].is_contiguous(), torch.ones(3, 1).t().is_contiguous(), torch.ones(0, 4).t().is_contiguous())
print(x.is_contiguous(memory_format=torch.contiguous_format), x.t().is_contiguous(memory_format=torch.preserve_format))
try:
    x.is_contiguous(torch.contiguous_format)
except TypeError as error:
    print("TypeError:", error)
