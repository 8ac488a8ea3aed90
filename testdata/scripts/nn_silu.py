# F.silu and nn.SiLU, forward and backward: every floating dtype, dense and strided inputs, large
# magnitudes where exp(-x) overflows or vanishes.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.tensor([[-100.0, -20.0, -3.5, -1.0, -0.0], [0.0, 0.25, 1.0, 20.0, 100.0]])
for dtype in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    print(dtype, F.silu(x.to(dtype)))
print(F.silu(x.t()), F.silu(x[:, ::2]), nn.SiLU()(x))
big = torch.randn(300, 70, dtype=torch.float64)
print(F.silu(big)[::60, ::14], F.silu(big.t())[::14, ::60])
g = torch.randn(2, 5)
leaf = x.clone().requires_grad_(True)
F.silu(leaf).backward(g)
print(leaf.grad)
leaf64 = big.clone().requires_grad_(True)
F.silu(leaf64).sum().backward()
print(leaf64.grad[::60, ::14])
try:
    F.silu(torch.arange(3))
except (RuntimeError, NotImplementedError) as e:
    print("error:", e)
