# kiln segfaults (SIGSEGV) compiling this with inductor: a 0-d float minus minimum(bool, long of a
# computed value); PyTorch prints tensor(-0.9600). (With a 1-d input kiln instead raises "Expected
# all tensors to be on the same device, ... cpu and meta": see aot_dtype_method_returns_meta.py.)
import torch


def f(a):
    return a - torch.minimum(a > 0.37, (a + 1).long())


print(torch.compile(f, backend="inductor")(torch.tensor(-0.96)))
