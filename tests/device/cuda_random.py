# CUDA random numbers (tests/device/compare): seeded torch.randn / torch.randint on the GPU draw
# PyTorch's Philox streams, so kiln prints the numbers PyTorch prints, and the CPU generator is
# left as it was (a CUDA draw does not advance it).
import torch

torch.manual_seed(0)
print(torch.randn(10, device="cuda"))
print(torch.randn(3, 5, device="cuda")[2])
print(torch.randint(0, 10, (12,), device="cuda"))
big = torch.randn(1 << 20, device="cuda")
print(big[:4], big[-3:], round(big.sum().item()))  # the sum: to the unit (summation orders differ)
print(torch.randint(-5, 5, (3, 7), device="cuda", dtype=torch.int32))
print(torch.randn(4))
torch.cuda.manual_seed(7)
print(torch.randn(6, device="cuda"))
print(torch.randn(2))
