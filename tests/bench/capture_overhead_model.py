# The function both tools compile in capture_overhead (kiln in process, PyTorch as the peer):
# 10 ops over 4 tensor arguments, compiled with backend="eager" so that no code generation counts.
import torch
import torch._dynamo


def f(a, b, c, d):
    x = a + b
    x = x * c
    x = x - d
    x = x.relu()
    x = x.sin()
    x = x * 2
    x = x + a
    x = x.cos()
    x = x / (d + 1)
    return x.sum()


compiled = torch.compile(f, backend="eager")
args = [torch.ones(8), torch.ones(8), torch.ones(8), torch.ones(8)]
