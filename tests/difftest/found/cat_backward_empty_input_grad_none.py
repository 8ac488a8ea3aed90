# kiln (eager): after backward through torch.cat, a zero-size input that requires grad gets
# .grad None; PyTorch gives it an empty gradient: prints "[1.0, 1.0] []".
import torch

a = torch.ones(2, requires_grad=True)
b = torch.ones(0, requires_grad=True)
torch.cat([a, b]).sum().backward()
print(a.grad.tolist(), None if b.grad is None else b.grad.tolist())
