# torch._dynamo.reset() drops the cache: the same call compiles again.
import torch
import torch._dynamo

@torch.compile(backend="eager")
def fn(x):
    return x.relu() + 1

x = torch.arange(-1.0, 2.0)
print(fn(x).tolist())
print(fn(x).tolist())
torch._dynamo.reset()
print(fn(x).tolist())
