# torch.layout and torch.memory_format: the named values, passed to ops, and the memory format a
# compiled graph prints and runs (clone(..., memory_format=torch.contiguous_format)).
import torch

print(torch.strided, torch.contiguous_format, torch.preserve_format)
print(type(torch.strided).__name__, type(torch.contiguous_format).__name__)
print(torch.contiguous_format is torch.contiguous_format, torch.strided == torch.strided)
x = torch.arange(12.0).view(3, 4).t()
print(x.clone(memory_format=torch.contiguous_format).stride(), x.clone(memory_format=torch.preserve_format).stride())
print(x.clone().stride(), x.contiguous(memory_format=torch.contiguous_format).stride())
print(torch.empty(2, 3, layout=torch.strided).shape, torch.zeros(2, layout=torch.strided))


@torch.compile(backend="aot_eager")
def transposed_copy(t):
    return t.t().contiguous() * 2


print(transposed_copy(torch.arange(6.0).view(2, 3)))
