# Tensor.data_ptr(): the address of the first element, shared by views of one storage and moved
# by their offsets in bytes; a clone or a new tensor has its own.
import torch

a = torch.arange(12.0).reshape(3, 4)
print(a.data_ptr() == a.view(4, 3).data_ptr(), a.data_ptr() == a.t().data_ptr(), a.data_ptr() == a.clone().data_ptr())
print(a[1].data_ptr() - a.data_ptr(), a[:, 2].data_ptr() - a.data_ptr(), a[2, 3:].data_ptr() - a.data_ptr())
d = torch.arange(6, dtype=torch.float64)
print(d[2:].data_ptr() - d.data_ptr(), torch.empty(0).data_ptr(), isinstance(a.data_ptr(), int), a.data_ptr() > 0)
b = a.add_(1)
print(b.data_ptr() == a.data_ptr())
