# dynamic=True compiles once for every length; dynamic=False recompiles for each new length.
import torch

def body(x):
    return (x * 2 + 1).sum()

dyn = torch.compile(body, backend="eager", dynamic=True)
static = torch.compile(body, backend="eager", dynamic=False)
for n in [2, 3, 4]:
    print(n, dyn(torch.ones(n)).item(), static(torch.ones(n)).item())
