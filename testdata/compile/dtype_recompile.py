# The input's dtype is guarded: float64 after float32 recompiles, float32 again hits the cache.
import torch

@torch.compile(backend="eager")
def fn(x):
    return (x * 1.5).sum()

print("%.3f" % fn(torch.arange(4.0)).item())
print("%.3f" % fn(torch.arange(4.0, dtype=torch.float64)).item())
print("%.3f" % fn(torch.arange(5.0)).item())
print(fn(torch.arange(4.0, dtype=torch.float64)).dtype)
